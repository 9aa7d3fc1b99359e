# cython: language_level=3
"""The compiled engine: position state, move generator, transposition table, search.

Private module: only :mod:`bakersdozen.solver` (and the tests and benchmarks)
import it.  Rules implemented are those of RULES.md; card indices and
bitboards are documented in ``_core.pxd``.

Everything on the hot path is ``nogil`` C over preallocated arrays; the
search keeps its own explicit stack, so no line of play, however long, can
overflow the C stack.  The C code reports its outcome as a status code
(``ST_*``); :func:`search` is the one place that turns a status into a
Python exception (an interrupt, out of memory at start), and
:mod:`bakersdozen.solver` turns the others into verdicts.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec *tp)
    enum: CLOCK_MONOTONIC

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int bd_ctz(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static inline int bd_popcount(unsigned long long x) { return (int)__popcnt64(x); }
    #else
    static inline int bd_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int bd_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    #endif
    #if defined(__GNUC__)
    #define bd_prefetch(p) __builtin_prefetch(p)
    #else
    #define bd_prefetch(p) ((void)0)
    #endif
    """
    int bd_ctz(unsigned long long x) nogil
    int bd_popcount(unsigned long long x) nogil
    void bd_prefetch(const void* p) nogil


# ---------------------------------------------------------------------------
# Constants and Zobrist tables
# ---------------------------------------------------------------------------

cdef extern from *:
    """
    /* search status codes, mirrored in solver.py */
    #define BD_ST_SOLVED 0
    #define BD_ST_UNSOLVABLE 1
    #define BD_ST_NODE_LIMIT 2
    #define BD_ST_TIME_LIMIT 3
    #define BD_ST_INTERRUPTED 4
    #define BD_ST_OUT_OF_MEMORY 5
    /* TT entry info: bit 63 on the current path, bit 62 proven dead,
       bits 40-60 the low 21 bits of the bucket key, bits 0-39 DFS index */
    #define BD_ON_PATH 0x8000000000000000ULL
    #define BD_PROVEN 0x4000000000000000ULL
    #define BD_KEYLO_SHIFT 40
    #define BD_KEYLO_BITS 21
    #define BD_KEYLO_MASK 0x1FFFFFULL
    #define BD_INDEX_MASK 0xFFFFFFFFFFULL
    #define BD_BUCKET 4
    #define BD_PAIRS (52 * 53)
    """
    int ST_SOLVED "BD_ST_SOLVED"
    int ST_UNSOLVABLE "BD_ST_UNSOLVABLE"
    int ST_NODE_LIMIT "BD_ST_NODE_LIMIT"
    int ST_TIME_LIMIT "BD_ST_TIME_LIMIT"
    int ST_INTERRUPTED "BD_ST_INTERRUPTED"
    int ST_OUT_OF_MEMORY "BD_ST_OUT_OF_MEMORY"
    uint64_t ON_PATH "BD_ON_PATH"
    uint64_t INDEX_MASK "BD_INDEX_MASK"
    uint64_t PROVEN "BD_PROVEN"
    int KEYLO_SHIFT "BD_KEYLO_SHIFT"
    int KEYLO_BITS "BD_KEYLO_BITS"
    uint64_t KEYLO_MASK "BD_KEYLO_MASK"
    int BUCKET "BD_BUCKET"
    int PAIRS "BD_PAIRS"

SOLVED = ST_SOLVED
UNSOLVABLE = ST_UNSOLVABLE
NODE_LIMIT = ST_NODE_LIMIT
TIME_LIMIT = ST_TIME_LIMIT
INTERRUPTED = ST_INTERRUPTED
OUT_OF_MEMORY = ST_OUT_OF_MEMORY

cdef uint64_t ZOB_KEY[52 * 53]
cdef uint64_t ZOB_CHECK[52 * 53]
cdef uint64_t RANK_MASK[16]         # RANK_MASK[r]: the four cards of rank r (1..13), 0 outside


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """Next value of the splitmix64 generator (Steele, Lea, Flood 2014)."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init_tables() noexcept nogil:
    cdef uint64_t seed = 0x0BAD5EEDBA4E5D02ULL
    cdef int i
    for i in range(PAIRS):
        ZOB_KEY[i] = splitmix64(&seed)
    for i in range(PAIRS):
        # bit 0 set in every value (a historical choice kept so that searches
        # reproduce the published figures): bit 0 of a check key is then just
        # the parity of the tableau's size, and 63 of its bits are random
        ZOB_CHECK[i] = splitmix64(&seed) | 1ULL
    for i in range(16):
        RANK_MASK[i] = 0
    for i in range(1, 14):
        RANK_MASK[i] = (<uint64_t>0xF) << (4 * (i - 1))

_init_tables()


cdef inline int card_rank(int c) noexcept nogil:
    return (c >> 2) + 1


cdef inline int card_suit(int c) noexcept nogil:
    return c & 3


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline int pair_index(int c, int beneath) noexcept nogil:
    return c * (NCARDS + 1) + beneath


cdef inline move_t make_move(int card, int target) noexcept nogil:
    return <move_t>(card | (target << 8))


cdef inline int move_card(move_t m) noexcept nogil:
    return m & 63


cdef inline int move_target(move_t m) noexcept nogil:
    return (m >> 8) & 15


# ---------------------------------------------------------------------------
# State: make / unmake / keys
# ---------------------------------------------------------------------------

cdef void state_full_keys(const State* s, uint64_t* key, uint64_t* check) noexcept nogil:
    """Recompute both Zobrist keys from scratch (the reference for the incremental ones)."""
    cdef int col, i, beneath, c
    cdef uint64_t k = 0, k2 = 0
    for col in range(s.ncols):
        for i in range(s.height[col]):
            c = s.cols[col][i]
            beneath = s.cols[col][i - 1] if i > 0 else BOTTOM
            k ^= ZOB_KEY[pair_index(c, beneath)]
            k2 ^= ZOB_CHECK[pair_index(c, beneath)]
    key[0] = k
    check[0] = k2


cdef inline int make(State* s, move_t m) noexcept nogil:
    """Play move *m* (assumed legal); return its source column for :func:`unmake`."""
    cdef int c = move_card(m)
    cdef int to = move_target(m)
    cdef int src = s.where[c]
    cdef int h = s.height[src] - 1
    cdef int beneath = BOTTOM
    cdef int p
    s.height[src] = h
    if h > 0:
        beneath = s.cols[src][h - 1]
        s.tops |= bit(beneath)
    p = pair_index(c, beneath)
    s.key ^= ZOB_KEY[p]
    s.check ^= ZOB_CHECK[p]
    if to == TO_FOUNDATION:
        s.tops &= ~bit(c)
        s.home |= bit(c)
        s.found[card_suit(c)] += 1
        s.where[c] = NO_COLUMN
        s.left -= 1
    else:
        beneath = s.cols[to][s.height[to] - 1]
        s.tops &= ~bit(beneath)
        s.cols[to][s.height[to]] = c
        s.height[to] += 1
        s.where[c] = to
        p = pair_index(c, beneath)
        s.key ^= ZOB_KEY[p]
        s.check ^= ZOB_CHECK[p]
    return src


cdef inline void unmake(State* s, move_t m, int src) noexcept nogil:
    """Take back move *m*, which was played from column *src*."""
    cdef int c = move_card(m)
    cdef int to = move_target(m)
    cdef int beneath, p, h
    if to == TO_FOUNDATION:
        s.home &= ~bit(c)
        s.found[card_suit(c)] -= 1
        s.left += 1
    else:
        s.height[to] -= 1
        beneath = s.cols[to][s.height[to] - 1]
        s.tops |= bit(beneath)
        p = pair_index(c, beneath)
        s.key ^= ZOB_KEY[p]
        s.check ^= ZOB_CHECK[p]
    h = s.height[src]
    beneath = BOTTOM
    if h > 0:
        beneath = s.cols[src][h - 1]
        s.tops &= ~bit(beneath)
    s.cols[src][h] = c
    s.height[src] = h + 1
    s.where[c] = src
    s.tops |= bit(c)
    p = pair_index(c, beneath)
    s.key ^= ZOB_KEY[p]
    s.check ^= ZOB_CHECK[p]


# ---------------------------------------------------------------------------
# Move generation
# ---------------------------------------------------------------------------

cdef int gen_legal(const State* s, move_t* out) noexcept nogil:
    """Every legal move by RULES.md, no pruning.  Returns the count.

    Order: columns left to right; for each top card its foundation move
    first, then its column moves by the target card's index.
    """
    cdef int n = 0, col, c, r, b
    cdef uint64_t targets
    for col in range(s.ncols):
        if s.height[col] == 0:
            continue
        c = s.cols[col][s.height[col] - 1]
        r = card_rank(c)
        if s.found[card_suit(c)] == r - 1:
            out[n] = make_move(c, TO_FOUNDATION)
            n += 1
        targets = s.tops & RANK_MASK[r + 1]
        while targets:
            b = bd_ctz(targets)
            targets &= targets - 1
            out[n] = make_move(c, s.where[b])
            n += 1
    return n


cdef inline bint is_safe_home(const State* s, int c) noexcept nogil:
    """May playable card *c* go to its foundation at once without losing a win?

    True when its rank r <= 2, or when all four cards of rank r - 2 are on
    the foundations.  Proof sketch (see solver.py for the full argument):
    only rank r - 1 cards could ever want *c* as a support; each of them is
    then either home or the next card of its suit, so wherever a winning
    line puts one of them on *c* it can go home instead, and nothing of
    rank r - 2 is left in the tableau to need it.
    """
    cdef int r = card_rank(c)
    if r <= 2:
        return True
    return (s.home & RANK_MASK[r - 2]) == RANK_MASK[r - 2]


cdef inline int need(const State* s, int c) noexcept nogil:
    """How far card *c* is from being playable to its foundation (1 = playable now)."""
    return card_rank(c) - s.found[card_suit(c)]


# Move-order noise of restart rounds after the first: a random 0..NOISE
# added to each move's score (scores span about 0..300).  Measured on PySol
# deals 1-300 with a 6M-position cap: noise 63 left 4 deals undecided,
# 255 two, 1023 two (and decided deal 100 in 82k positions, against
# 41.6M at noise 63), 4095 one but with an eight times larger median search.
cdef enum:
    NOISE = 1023


cdef inline int count_below(const State* s, int col, int h, int limit) noexcept nogil:
    """Cards among the lowest *h* of column *col* whose `need` is below *limit*."""
    cdef int i, n = 0
    for i in range(h):
        if need(s, s.cols[col][i]) < limit:
            n += 1
    return n


cdef inline int importance(const State* s, int col, int h) noexcept nogil:
    """Weight of the soon-needed cards among the lowest *h* of column *col*."""
    cdef int i, n = 0, v
    for i in range(h):
        v = need(s, s.cols[col][i])
        if v <= 4:
            n += 16 >> v
    return n


cdef inline bint blocked(const State* s, int col, int height) noexcept nogil:
    """Is the card at *height* of column *col* stuck above a lower card of its suit?

    A card y that can only ever leave its column by going home (every card
    one rank higher is home or beneath y in y's column, so none can ever be
    exposed while y is) and that lies above a lower card x of its own suit
    can never move: x must go home before y, and y must leave before x can.
    The position is then lost.  Once true, this stays true in every later
    position (y cannot move, and home cards never return), so checking the
    card a move affects is enough.
    """
    cdef int c = s.cols[col][height]
    cdef int r = card_rank(c), suit = card_suit(c), i, x
    cdef uint64_t below = 0
    cdef bint lower = False
    for i in range(height):
        x = s.cols[col][i]
        below |= bit(x)
        if card_suit(x) == suit and card_rank(x) < r:
            lower = True
    return lower and (RANK_MASK[r + 1] & s.all_home & ~s.home & ~below) == 0


cdef bint is_dead(const State* s) noexcept nogil:
    """Is the position lost by a block (:func:`blocked`) anywhere?"""
    cdef int col, i
    for col in range(s.ncols):
        for i in range(1, s.height[col]):
            if blocked(s, col, i):
                return True
    return False


cdef bint dead_after(const State* s, move_t last) noexcept nogil:
    """Did move *last*, just played, create a block (:func:`blocked`)?

    Blocks arise only where a card lands on a column (it may now sit above a
    lower card of its suit) or where a card goes home (the cards one rank
    lower lose a possible support).
    """
    cdef int c = move_card(last), to = move_target(last), r, y, col, i
    cdef uint64_t ys
    if to != TO_FOUNDATION:
        return blocked(s, to, s.height[to] - 1)
    r = card_rank(c)
    if r < 2:
        return False
    ys = RANK_MASK[r - 1] & ~s.home & s.all_home
    while ys:
        y = bd_ctz(ys)
        ys &= ys - 1
        col = s.where[y]
        for i in range(1, s.height[col]):
            if s.cols[col][i] == y:
                if blocked(s, col, i):
                    return True
                break
    return False


cdef int gen_search(const State* s, move_t* out, uint64_t noise_seed, int heur,
                    int last) noexcept nogil:
    """Moves the search tries, pruned soundly and best first.

    Pruning (each rule is sound: it never removes every winning line):
    1. A safe foundation move (:func:`is_safe_home`) is played alone.
    2. A column's only card never moves onto another column: that uncovers
       nothing, and an emptied column can never be used again (RULES.md),
       so the position after it is no better than before.
    3. A lost position (:func:`blocked`) gets no moves.  *last* is the move
       that led here (-1 at the root, where every card is checked).
    Ordering: foundation moves first, then column moves by a score (*heur*
    1: inversions of foundation order removed from the source column minus
    those added to the target; 2: weight of soon-needed cards uncovered
    minus those buried) plus 100 for uncovering a playable card;
    *noise_seed* != 0 adds a deterministic random tie-break.
    """
    cdef int n = 0, col, c, r, b, h, i, j, tgt
    cdef uint64_t targets, x
    cdef int score[MAXMOVES]
    cdef int sc
    cdef move_t mv
    if dead_after(s, <move_t>last) if last >= 0 else is_dead(s):
        return 0
    for col in range(s.ncols):
        h = s.height[col]
        if h == 0:
            continue
        c = s.cols[col][h - 1]
        r = card_rank(c)
        if s.found[card_suit(c)] == r - 1:
            if is_safe_home(s, c):
                out[0] = make_move(c, TO_FOUNDATION)
                return 1
            out[n] = make_move(c, TO_FOUNDATION)
            score[n] = 1000 + (14 - r)
            n += 1
        if h == 1:
            continue
        targets = s.tops & RANK_MASK[r + 1]
        if not targets:
            continue
        if heur == 1:
            sc = 16 * count_below(s, col, h - 1, need(s, c))
        else:
            sc = 4 * importance(s, col, h - 1)
        if need(s, s.cols[col][h - 2]) == 1:
            sc += 100
        while targets:
            b = bd_ctz(targets)
            targets &= targets - 1
            tgt = s.where[b]
            out[n] = make_move(c, tgt)
            if heur == 1:
                score[n] = sc - 16 * count_below(s, tgt, s.height[tgt], need(s, c))
            else:
                score[n] = sc - 4 * importance(s, tgt, s.height[tgt])
            if noise_seed:
                x = noise_seed ^ (<uint64_t>out[n] * 0x9E3779B97F4A7C15ULL) ^ s.key
                x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ULL
                score[n] += <int>((x >> 40) & NOISE)
            n += 1
    # insertion sort, best first
    for i in range(1, n):
        mv = out[i]
        sc = score[i]
        j = i - 1
        while j >= 0 and score[j] < sc:
            out[j + 1] = out[j]
            score[j + 1] = score[j]
            j -= 1
        out[j + 1] = mv
        score[j + 1] = sc
    return n


cdef uint64_t perft(State* s, int depth) noexcept nogil:
    """Number of move sequences of length *depth* (all legal moves, no pruning)."""
    cdef move_t moves[MAXMOVES]
    cdef int n, i, src
    cdef uint64_t total = 0
    if depth == 0:
        return 1
    n = gen_legal(s, moves)
    if depth == 1:
        return n
    for i in range(n):
        src = make(s, moves[i])
        total += perft(s, depth - 1)
        unmake(s, moves[i], src)
    return total


# ---------------------------------------------------------------------------
# Building a State from Python data
# ---------------------------------------------------------------------------

cdef int state_from_python(State* s, object columns, object foundations, int ranks) except -1:
    """Fill *s* from card-index columns (bottom first) and foundation heights.

    Raises ValueError for anything that is not a consistent position of a
    pack of ranks 1..ranks (the Python layer validates first; this is the
    last line of defence against memory errors).
    """
    cdef int col, i, c, suit
    cdef uint64_t seen = 0
    memset(s, 0, sizeof(State))
    if not 1 <= ranks <= 13:
        raise ValueError(f"ranks must be 1..13, not {ranks}")
    s.ranks = ranks
    s.all_home = 0
    for i in range(1, ranks + 1):
        s.all_home |= RANK_MASK[i]
    cols = [list(map(int, column)) for column in columns]
    if len(cols) > MAXCOLS:
        raise ValueError(f"at most {MAXCOLS} columns, not {len(cols)}")
    s.ncols = len(cols)
    for i in range(NCARDS):
        s.where[i] = NO_COLUMN
    for col, column in enumerate(cols):
        if len(column) > MAXHEIGHT:
            raise ValueError(f"column {col + 1} is too tall")
        for i, c in enumerate(column):
            if not 0 <= c < NCARDS or card_rank(c) > ranks:
                raise ValueError(f"card index {c} is not in the pack")
            if seen & bit(c):
                raise ValueError(f"card index {c} appears twice")
            seen |= bit(c)
            s.cols[col][i] = c
            s.where[c] = col
        s.height[col] = len(column)
        if column:
            s.tops |= bit(column[len(column) - 1])
    found = list(map(int, foundations))
    if len(found) != 4:
        raise ValueError("foundations must give four heights")
    for suit in range(4):
        if not 0 <= found[suit] <= ranks:
            raise ValueError(f"foundation height {found[suit]} out of range")
        s.found[suit] = found[suit]
        for i in range(1, found[suit] + 1):
            c = 4 * (i - 1) + suit
            if seen & bit(c):
                raise ValueError(f"card index {c} is both in a column and home")
            seen |= bit(c)
            s.home |= bit(c)
    if seen != s.all_home:
        raise ValueError("the position does not hold every card of the pack once")
    s.left = bd_popcount(s.all_home & ~s.home)
    state_full_keys(s, &s.key, &s.check)
    return 0


cdef object move_to_tuple(const State* s, move_t m):
    """(card index, source column, target column or -1 for the foundation)."""
    cdef int c = move_card(m)
    cdef int to = move_target(m)
    return (c, s.where[c], -1 if to == TO_FOUNDATION else to)


cdef class Position:
    """A mutable engine position, for move generation, perft and hashing.

    Parameters
    ----------
    columns : sequence of sequences of int
        Card indices (``4*(rank-1)+suit``) of each column, bottom first.
    foundations : sequence of 4 int
        Highest rank on each suit's foundation (0 = empty), by suit index.
    ranks : int
        The pack holds ranks 1..ranks of four suits (13 for a full pack).

    Moves are tuples ``(card, source, target)``: card index, 0-based source
    column, 0-based target column or -1 for the card's foundation.
    """

    cdef State s
    cdef move_t history_moves[4096]
    cdef uint8_t history_src[4096]
    cdef int ply

    def __init__(self, columns, foundations=(0, 0, 0, 0), int ranks=13):
        state_from_python(&self.s, columns, foundations, ranks)
        self.ply = 0

    def legal_moves(self):
        """All legal moves, as a list of ``(card, source, target)`` tuples."""
        cdef move_t moves[MAXMOVES]
        cdef int n = gen_legal(&self.s, moves)
        return [move_to_tuple(&self.s, moves[i]) for i in range(n)]

    cdef move_t _find(self, object move) except? 0xFFFF:
        cdef move_t moves[MAXMOVES]
        cdef int n = gen_legal(&self.s, moves)
        for i in range(n):
            if move_to_tuple(&self.s, moves[i]) == tuple(move):
                return moves[i]
        raise ValueError(f"illegal move {move!r}")

    def make(self, move):
        """Play a legal ``(card, source, target)`` move; ValueError if illegal."""
        cdef move_t m = self._find(move)
        if self.ply >= 4096:
            raise ValueError("move history is full (4096 moves)")
        self.history_src[self.ply] = make(&self.s, m)
        self.history_moves[self.ply] = m
        self.ply += 1

    def unmake(self):
        """Take back the last move played with :meth:`make`."""
        if self.ply == 0:
            raise ValueError("no move to take back")
        self.ply -= 1
        unmake(&self.s, self.history_moves[self.ply], self.history_src[self.ply])

    @property
    def key(self):
        """The incrementally maintained (key, check) Zobrist pair, 64-bit ints."""
        return (self.s.key, self.s.check)

    def full_key(self):
        """The Zobrist pair recomputed from scratch (must equal :attr:`key`)."""
        cdef uint64_t k, k2
        state_full_keys(&self.s, &k, &k2)
        return (k, k2)

    @property
    def columns(self):
        """Card indices of each column, bottom first."""
        return [[self.s.cols[c][i] for i in range(self.s.height[c])] for c in range(self.s.ncols)]

    @property
    def foundations(self):
        """Highest rank on each suit's foundation."""
        return [self.s.found[i] for i in range(4)]

    @property
    def tops(self):
        """Bitboard of the cards at the top of a column."""
        return self.s.tops

    @property
    def home(self):
        """Bitboard of the cards on the foundations."""
        return self.s.home

    @property
    def is_won(self):
        """True when every card is on its foundation."""
        return self.s.left == 0

    def perft(self, int depth):
        """Count the move sequences of length *depth* from here (all legal moves)."""
        if depth < 0:
            raise ValueError("depth must be >= 0")
        cdef uint64_t n
        with nogil:
            n = perft(&self.s, depth)
        return n

    def make_unmake_loop(self, long repetitions):
        """Benchmark helper: make and unmake every legal move *repetitions* times.

        Returns the number of make/unmake pairs performed.
        """
        cdef move_t moves[MAXMOVES]
        cdef int n, i, src
        cdef long rep
        n = gen_legal(&self.s, moves)
        with nogil:
            for rep in range(repetitions):
                for i in range(n):
                    src = make(&self.s, moves[i])
                    unmake(&self.s, moves[i], src)
        return repetitions * n


# ---------------------------------------------------------------------------
# Transposition table
# ---------------------------------------------------------------------------
#
# Open addressing in buckets of four 16-byte entries (one cache line).  The
# table starts small and doubles (rehashing) while it is less than the
# caller's memory budget; at the budget it stops growing and replaces
# entries instead.  Each entry keeps the check key (63 random bits) and 21
# bits of the bucket key, and a lookup compares both: 84 bits tell
# positions apart: a lookup compares at most 4 entries, so over 10**10
# lookups the chance of one false match is about 4 * 10**10 / 2**84, below
# 10**-14.

cdef struct Table:
    Entry* entries
    uint64_t nbuckets      # a power of two
    uint64_t max_buckets   # the memory budget, in buckets
    uint64_t used          # occupied entries
    uint64_t base          # first DFS index of the current round


cdef inline uint64_t bucket_of(const Table* t, uint64_t keylo, uint64_t check) noexcept nogil:
    return ((keylo & KEYLO_MASK) | (check << KEYLO_BITS)) & (t.nbuckets - 1)


cdef int table_init(Table* t, uint64_t bytes) noexcept nogil:
    """Set the budget to the largest power-of-two bucket count within *bytes*. 0 on success."""
    cdef uint64_t nb = 1
    while nb < (<uint64_t>1 << 40) and nb * 2 * BUCKET * sizeof(Entry) <= bytes:
        nb *= 2
    t.max_buckets = nb
    t.nbuckets = nb if nb < 4096 else 4096
    t.entries = <Entry*>calloc(t.nbuckets * BUCKET, sizeof(Entry))
    if t.entries == NULL:
        return -1
    t.used = 0
    t.base = 1
    return 0


cdef inline bint entry_live(const Table* t, const Entry* e) noexcept nogil:
    """Does *e* hold information valid in the current round?"""
    if e.info == 0:          # empty slot (every stored node has an index >= 1)
        return False
    return (e.info & (PROVEN | ON_PATH)) != 0 or (e.info & INDEX_MASK) >= t.base


cdef int table_grow(Table* t) noexcept nogil:
    """Double the table, keeping every live entry. 0 on success, -1 if memory ran out."""
    cdef uint64_t nb = t.nbuckets * 2, i, b
    cdef Entry* old = t.entries
    cdef Entry* fresh = <Entry*>calloc(nb * BUCKET, sizeof(Entry))
    cdef Entry* e
    cdef int j
    if fresh == NULL:
        return -1
    t.entries = fresh
    t.nbuckets = nb
    t.used = 0
    for i in range(nb // 2 * BUCKET):
        e = &old[i]
        if not entry_live(t, e):
            continue
        b = bucket_of(t, (e.info >> KEYLO_SHIFT), e.check) * BUCKET
        for j in range(BUCKET):
            if fresh[b + j].info == 0:
                fresh[b + j] = e[0]
                t.used += 1
                break
    free(old)
    return 0


cdef inline int64_t table_find(const Table* t, uint64_t key, uint64_t check) noexcept nogil:
    """Slot of a live entry for the position, or -1."""
    cdef uint64_t b = bucket_of(t, key, check) * BUCKET
    cdef int i
    cdef const Entry* e
    for i in range(BUCKET):
        e = &t.entries[b + i]
        if e.check == check and ((e.info >> KEYLO_SHIFT) & KEYLO_MASK) == (key & KEYLO_MASK) \
                and entry_live(t, e):
            return <int64_t>(b + i)
    return -1


cdef inline int64_t table_insert(Table* t, uint64_t key, uint64_t check, uint64_t info) noexcept nogil:
    """Store a new position; returns its slot, or -1 if the bucket is pinned full.

    Replacement, once the table is at its budget: an empty or stale slot (left
    by an unfinished earlier round) first; otherwise the entry discovered
    earliest, never one on the current search path.
    """
    cdef uint64_t b = bucket_of(t, key, check) * BUCKET
    cdef int i, victim = -1
    cdef Entry* e
    cdef uint64_t best = 0xFFFFFFFFFFFFFFFFULL, idx
    for i in range(BUCKET):
        e = &t.entries[b + i]
        if e.info == 0:
            t.used += 1
            victim = i
            break
        if not entry_live(t, e):
            victim = i
            break
        if e.info & ON_PATH:
            continue
        idx = e.info & INDEX_MASK
        if idx < best:
            best = idx
            victim = i
    if victim < 0:
        return -1
    e = &t.entries[b + victim]
    e.check = check
    e.info = info | ((key & KEYLO_MASK) << KEYLO_SHIFT)
    return <int64_t>(b + victim)


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------

cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef struct TarjanRecord:
    uint64_t key         # the node's position keys (its TT slot may move)
    uint64_t check
    uint64_t index       # its DFS discovery index


cdef struct Search:
    State s
    Table t
    Frame* frames
    uint64_t frames_cap
    move_t* moves
    uint64_t moves_cap
    TarjanRecord* tarjan # nodes whose strongly connected component is still open
    uint64_t tarjan_len
    uint64_t tarjan_cap
    TarjanRecord* over   # hash set (linear probing) of path nodes that found no room
    uint64_t over_len    #   in the table: live records
    uint64_t over_used   #   live records + tombstones
    uint64_t over_cap    #   slots, a power of two
    uint64_t next_index  # next DFS discovery index (never reused across rounds)
    uint64_t nodes       # positions generated so far, all rounds
    uint64_t max_nodes   # 0 = no limit
    double deadline      # monotonic seconds; 0 = none
    double next_signal_check
    int depth            # frames in use at the end (solution length + 1 when solved)
    uint64_t rounds
    int timed_out        # the deadline passed inside a long bookkeeping loop
    PyObject* exc_type   # the exception a signal handler raised (ST_INTERRUPTED)
    PyObject* exc_value
    PyObject* exc_tb


cdef bint grow(void** array, uint64_t* capacity, uint64_t need, size_t item) noexcept nogil:
    """Make *array* (of *capacity* items of *item* bytes) hold *need* items.

    Doubles the capacity as needed; False if memory ran out (the array is
    then unchanged).
    """
    cdef void* p
    cdef uint64_t cap = capacity[0]
    if need <= cap:
        return True
    while cap < need:
        cap *= 2
    p = realloc(array[0], cap * item)
    if p == NULL:
        return False
    array[0] = p
    capacity[0] = cap
    return True


cdef inline bint grow_frames(Search* S, uint64_t need) noexcept nogil:
    return grow(<void**>&S.frames, &S.frames_cap, need, sizeof(Frame))


cdef inline bint grow_moves(Search* S, uint64_t need) noexcept nogil:
    return grow(<void**>&S.moves, &S.moves_cap, need, sizeof(move_t))


cdef inline Entry* frame_entry(Search* S, Frame* f) noexcept nogil:
    """The TT entry of the node of frame *f*, or NULL if it was evicted."""
    cdef int64_t slot = f.slot
    cdef Entry* e
    if slot >= 0:
        e = &S.t.entries[slot]
        if e.check == f.check and (e.info & INDEX_MASK) == f.index:
            return e
    slot = table_find(&S.t, f.key, f.check)
    if slot < 0:
        return NULL
    e = &S.t.entries[slot]
    if (e.info & INDEX_MASK) != f.index:
        return NULL
    f.slot = slot
    return e


cdef inline void tarjan_push(Search* S, uint64_t key, uint64_t check, uint64_t index) noexcept nogil:
    """Record a new node on the Tarjan stack (nodes of open components, by index)."""
    if not grow(<void**>&S.tarjan, &S.tarjan_cap, S.tarjan_len + 1, sizeof(TarjanRecord)):
        return   # not recorded: the node simply never becomes "proven"
    S.tarjan[S.tarjan_len].key = key
    S.tarjan[S.tarjan_len].check = check
    S.tarjan[S.tarjan_len].index = index
    S.tarjan_len += 1


cdef inline void tarjan_close(Search* S, uint64_t root_index) noexcept nogil:
    """The component rooted at DFS index *root_index* is complete: mark it proven.

    Every record above the root on the stack belongs to the root's component
    (or to one nested in it); all of them are dead.  A record whose entry
    has been evicted since is just dropped.
    """
    cdef Entry* e
    cdef TarjanRecord* r
    cdef int64_t slot
    cdef uint64_t popped = 0
    while S.tarjan_len > 0:
        r = &S.tarjan[S.tarjan_len - 1]
        if r.index < root_index:
            break
        popped += 1
        if (popped & 0xFFFF) == 0 and S.deadline > 0 and now_seconds() >= S.deadline:
            S.timed_out = 1       # a huge component: stop marking, the search ends
            return
        slot = table_find(&S.t, r.key, r.check)
        if slot >= 0:
            e = &S.t.entries[slot]
            if (e.info & INDEX_MASK) == r.index:
                e.info |= PROVEN
        S.tarjan_len -= 1


cdef int expand(Search* S, int sp, uint64_t noise, int heur) noexcept nogil:
    """Generate the moves of the node at stack level *sp*. 0 ok, -1 out of memory.

    The table buckets of the children are prefetched: their keys follow
    from the parent's by two or three XORs, and the lookups that come later
    then find their cache lines loaded.
    """
    cdef Frame* f = &S.frames[sp]
    cdef uint32_t i
    cdef int c, to, src, h, beneath
    cdef uint64_t key, check
    cdef move_t m
    if not grow_moves(S, f.first + MAXMOVES):
        return -1
    f.count = gen_search(&S.s, S.moves + f.first, noise, heur, f.played if sp > 0 else -1)
    f.next = 0
    for i in range(f.count):
        m = S.moves[f.first + i]
        c = move_card(m)
        to = move_target(m)
        src = S.s.where[c]
        h = S.s.height[src] - 1
        beneath = S.s.cols[src][h - 1] if h > 0 else BOTTOM
        key = S.s.key ^ ZOB_KEY[pair_index(c, beneath)]
        check = S.s.check ^ ZOB_CHECK[pair_index(c, beneath)]
        if to != TO_FOUNDATION:
            beneath = S.s.cols[to][S.s.height[to] - 1]
            key ^= ZOB_KEY[pair_index(c, beneath)]
            check ^= ZOB_CHECK[pair_index(c, beneath)]
        bd_prefetch(&S.t.entries[bucket_of(&S.t, key, check) * BUCKET])
    return 0


cdef int enter(Search* S, int sp) noexcept nogil:
    """Register the current position as the new node of frame *sp*.

    A node whose bucket is full of entries on the search path (long paths
    meet this) is kept in a side hash set instead, so the path is always
    known; the table grows only with its load, never for a long path.
    0 on success, -1 if memory ran out.
    """
    cdef Frame* f = &S.frames[sp]
    cdef int i
    if S.next_index >= INDEX_MASK:
        return -2               # 2**40 positions entered: the index field is full
    if S.t.used * 4 > S.t.nbuckets * BUCKET * 3 and S.t.nbuckets < S.t.max_buckets \
            and not (S.deadline > 0 and S.t.nbuckets >= 65536 and now_seconds() >= S.deadline):
        if table_grow(&S.t) == 0:
            for i in range(sp):
                S.frames[i].slot = -1     # slots moved; frame_entry finds them again
    f.key = S.s.key
    f.check = S.s.check
    f.index = S.next_index
    S.next_index += 1
    f.low = f.index
    f.slot = table_insert(&S.t, f.key, f.check, f.index | ON_PATH)
    if f.slot < 0 and over_insert(S, f.key, f.check, f.index) < 0:
        return -1
    tarjan_push(S, f.key, f.check, f.index)
    return 0


cdef inline void leave(Search* S, Frame* f) noexcept nogil:
    """Take the node of frame *f* off the search path (its entry stays)."""
    cdef Entry* e = frame_entry(S, f)
    if e != NULL:
        e.info &= ~ON_PATH
    elif S.over_len > 0:
        over_remove(S, f.key, f.check, f.index)


# The side set of path nodes.  Such a node arises only when every entry of
# its bucket is on the search path: rare, but long paths in a table at its
# budget do meet it.  Records: index 0 = empty slot, OVER_GONE = deleted.

cdef uint64_t OVER_GONE = 0xFFFFFFFFFFFFFFFFULL


cdef int over_rebuild(Search* S, uint64_t cap) noexcept nogil:
    """Re-insert the live records into *cap* fresh slots. 0 ok, -1 no memory."""
    cdef TarjanRecord* old = S.over
    cdef uint64_t old_cap = S.over_cap, i, j
    cdef TarjanRecord* fresh = <TarjanRecord*>calloc(cap, sizeof(TarjanRecord))
    if fresh == NULL:
        return -1
    for i in range(old_cap):
        if old[i].index != 0 and old[i].index != OVER_GONE:
            j = old[i].check & (cap - 1)
            while fresh[j].index != 0:
                j = (j + 1) & (cap - 1)
            fresh[j] = old[i]
    free(old)
    S.over = fresh
    S.over_cap = cap
    S.over_used = S.over_len
    return 0


cdef int over_insert(Search* S, uint64_t key, uint64_t check, uint64_t index) noexcept nogil:
    """Add a path node to the side set. 0 ok, -1 if memory ran out."""
    cdef uint64_t j, cap = S.over_cap
    if (S.over_used + 1) * 2 > cap:
        while (S.over_len + 1) * 4 > cap:
            cap *= 2
        if over_rebuild(S, cap) < 0:
            return -1
    j = check & (S.over_cap - 1)
    while S.over[j].index != 0:
        j = (j + 1) & (S.over_cap - 1)
    S.over[j].key = key
    S.over[j].check = check
    S.over[j].index = index
    S.over_len += 1
    S.over_used += 1
    return 0


cdef inline int64_t over_find(const Search* S, uint64_t key, uint64_t check) noexcept nogil:
    """Slot of the side set's record of the position, or -1."""
    cdef uint64_t j = check & (S.over_cap - 1)
    while S.over[j].index != 0:
        if S.over[j].index != OVER_GONE and S.over[j].check == check and S.over[j].key == key:
            return <int64_t>j
        j = (j + 1) & (S.over_cap - 1)
    return -1


cdef inline void over_remove(Search* S, uint64_t key, uint64_t check, uint64_t index) noexcept nogil:
    """Take a path node out of the side set (if it is there)."""
    cdef int64_t j = over_find(S, key, check)
    if j >= 0 and S.over[j].index == index:
        S.over[j].index = OVER_GONE
        S.over_len -= 1
        if S.over_len == 0:
            over_clear(S)


cdef inline void over_clear(Search* S) noexcept nogil:
    memset(S.over, 0, S.over_cap * sizeof(TarjanRecord))
    S.over_len = 0
    S.over_used = 0


cdef int run_round(Search* S, uint64_t budget, uint64_t noise, int heur) noexcept nogil:
    """One complete depth-first search from the root with a node quota.

    Returns ST_SOLVED (frames 1..S.depth-1 hold the winning line),
    ST_UNSOLVABLE (the search finished: every reachable position was
    explored), -1 when the round's quota is spent, or the limit that
    stopped it.  A position is skipped only if it is proven dead, or
    already visited in this round (on the current path, or inside a
    component still being explored, which the Tarjan low-link then keeps
    open until its root is finished).
    """
    cdef int sp = 0
    cdef Frame* f
    cdef Frame* g
    cdef move_t m
    cdef int64_t slot
    cdef uint64_t round_start_nodes = S.nodes
    cdef uint64_t info, idx
    cdef double t
    cdef int src, i

    S.t.base = S.next_index
    S.tarjan_len = 0
    if S.over_used:
        over_clear(S)
    S.depth = 0
    f = &S.frames[0]
    f.first = 0
    f.played = 0
    f.source = 0
    slot = table_find(&S.t, S.s.key, S.s.check)
    if slot >= 0 and (S.t.entries[slot].info & PROVEN):
        return ST_UNSOLVABLE
    if S.s.left == 0:
        S.depth = 1
        return ST_SOLVED
    if enter(S, 0) < 0:
        return ST_OUT_OF_MEMORY
    S.depth = 1
    if expand(S, 0, noise, heur) < 0:
        return ST_OUT_OF_MEMORY

    while sp >= 0:
        f = &S.frames[sp]
        if f.next < f.count:
            m = S.moves[f.first + f.next]
            f.next += 1
            if S.max_nodes and S.nodes >= S.max_nodes:
                return ST_NODE_LIMIT
            if S.nodes - round_start_nodes >= budget:
                return -1          # round quota spent: restart
            if (S.nodes & 1023) == 0:
                t = now_seconds()
                if S.deadline > 0 and t >= S.deadline:
                    return ST_TIME_LIMIT
                if t >= S.next_signal_check:
                    S.next_signal_check = t + 0.05
                    with gil:
                        if check_signals() != 0:
                            # keep the exception (KeyboardInterrupt) for
                            # search() to raise: this function cannot
                            PyErr_Fetch(&S.exc_type, &S.exc_value, &S.exc_tb)
                            return ST_INTERRUPTED
            S.nodes += 1
            src = make(&S.s, m)
            if S.s.left == 0:
                if not grow_frames(S, sp + 2):
                    unmake(&S.s, m, src)
                    return ST_OUT_OF_MEMORY
                g = &S.frames[sp + 1]
                g.played = m
                g.source = src
                g.slot = -1
                S.depth = sp + 2
                return ST_SOLVED
            slot = table_find(&S.t, S.s.key, S.s.check)
            if slot >= 0:
                info = S.t.entries[slot].info
                if not (info & PROVEN):
                    idx = info & INDEX_MASK
                    if idx < f.low:
                        f.low = idx
                unmake(&S.s, m, src)
                continue
            if S.over_len > 0:
                slot = over_find(S, S.s.key, S.s.check)
                if slot >= 0:
                    if S.over[slot].index < f.low:
                        f.low = S.over[slot].index
                    unmake(&S.s, m, src)
                    continue
            if not grow_frames(S, sp + 2):
                unmake(&S.s, m, src)
                return ST_OUT_OF_MEMORY
            f = &S.frames[sp]      # the frames may have moved
            sp += 1
            g = &S.frames[sp]
            g.first = f.first + f.count
            g.played = m
            g.source = src
            S.depth = sp + 1
            i = enter(S, sp)
            if i == -2:
                return ST_NODE_LIMIT
            if i < 0 or expand(S, sp, noise, heur) < 0:
                return ST_OUT_OF_MEMORY
        else:
            # every move of this node explored: dead, given its component
            leave(S, f)
            if f.low == f.index:
                tarjan_close(S, f.index)
                if S.timed_out:
                    return ST_TIME_LIMIT
            if sp == 0:
                break
            g = &S.frames[sp - 1]
            if f.low < g.low:
                g.low = f.low
            unmake(&S.s, f.played, f.source)
            sp -= 1
            S.depth = sp + 1
    S.depth = 0
    return ST_UNSOLVABLE


cdef void unwind(Search* S) noexcept nogil:
    """Take back the moves of an interrupted round and clear its path marks."""
    cdef int sp
    cdef Frame* f
    cdef Entry* e
    for sp in range(S.depth - 1, -1, -1):
        f = &S.frames[sp]
        e = frame_entry(S, f)
        if e != NULL:
            e.info &= ~ON_PATH
        if sp > 0:
            unmake(&S.s, f.played, f.source)
    S.depth = 0
    if S.over_used:
        over_clear(S)


cdef inline uint64_t luby(uint64_t i) noexcept nogil:
    """The Luby sequence 1,1,2,1,1,2,4,1,... (Luby, Sinclair, Zuckerman 1993), i >= 1."""
    cdef uint64_t k = 1, p
    while True:
        p = (<uint64_t>1 << k) - 1
        if i == p:
            return <uint64_t>1 << (k - 1)
        if i < p:
            return luby(i - ((<uint64_t>1 << (k - 1)) - 1))
        k += 1


cdef int search_loop(Search* S, uint64_t seed, uint64_t base_budget, double growth) noexcept nogil:
    """Iterative deepening on the node quota: restart rounds until one decides.

    Round k (k = 1, 2, ...) gets a quota of base_budget * luby(k) * growth**k
    nodes, a move scoring (odd rounds the inversion score, even rounds the
    soon-needed-cards score) and a move-order tie-break (round 1 the plain
    order, later rounds a seeded noise of 0..NOISE).  The transposition
    table survives between rounds; what a round proved dead stays proven,
    so each round starts where the earlier ones left off.  A round that
    finishes within its quota is exhaustive and decides the deal.
    """
    cdef uint64_t k = 0, budget, noise
    cdef double scale = 1.0
    cdef int st, heur
    cdef uint64_t x
    cdef double quota
    while True:
        k += 1
        S.rounds = k
        if scale < 1e12:
            scale *= growth
        quota = base_budget * luby(k) * scale
        budget = <uint64_t>quota if quota < 4e18 else <uint64_t>4e18
        if budget < 1:
            budget = 1
        if k == 1:
            noise = seed
        else:
            x = seed ^ (k * 0xD1B54A32D192ED03ULL)
            noise = splitmix64(&x) | 1
        heur = 1 + <int>((k - 1) % 2)
        st = run_round(S, budget, noise, heur)
        if st >= 0:
            return st
        unwind(S)


# ---------------------------------------------------------------------------
# Shortening a winning line
# ---------------------------------------------------------------------------

cdef bint is_legal(const State* s, move_t m) noexcept nogil:
    """Is *m* legal in *s* by RULES.md?"""
    cdef int c = move_card(m), to = move_target(m), src
    if c >= NCARDS or s.where[c] == NO_COLUMN:
        return False
    src = s.where[c]
    if s.cols[src][s.height[src] - 1] != c:
        return False
    if to == TO_FOUNDATION:
        return s.found[card_suit(c)] == card_rank(c) - 1
    if to >= s.ncols or to == src or s.height[to] == 0:
        return False
    return card_rank(s.cols[to][s.height[to] - 1]) == card_rank(c) + 1


cdef bint replay_wins(const State* root, const move_t* line, int n) noexcept nogil:
    """Does *line* replay legally from *root* to a win?"""
    cdef State s = root[0]
    cdef int i
    for i in range(n):
        if not is_legal(&s, line[i]):
            return False
        make(&s, line[i])
    return s.left == 0


cdef int shortcut(const State* root, move_t* line, int n) noexcept nogil:
    """Shortest line through the positions of *line* with one-move shortcuts.

    Position p[i] (after i moves) links to every later p[j] that one legal
    move reaches (p[i+1] among them); the shortest chain of links from p[0]
    to p[n] replaces *line* in place.  Returns the new length, or -1 if out
    of memory.
    """
    cdef State s = root[0]
    cdef uint64_t* keys = <uint64_t*>malloc((n + 1) * 2 * sizeof(uint64_t))
    cdef int* dist = <int*>malloc((n + 1) * sizeof(int))
    cdef int* prev = <int*>malloc((n + 1) * sizeof(int))
    cdef move_t* via = <move_t*>malloc((n + 1) * sizeof(move_t))
    cdef move_t moves[MAXMOVES]
    cdef int i, j, k, cnt, src, length
    if keys == NULL or dist == NULL or prev == NULL or via == NULL:
        free(keys); free(dist); free(prev); free(via)
        return -1
    for i in range(n + 1):
        keys[2 * i] = s.key
        keys[2 * i + 1] = s.check
        dist[i] = 1 << 30
        if i < n:
            make(&s, line[i])
    dist[0] = 0
    s = root[0]
    for i in range(n):
        cnt = gen_legal(&s, moves)
        for k in range(cnt):
            src = make(&s, moves[k])
            # the latest position of the line equal to this one
            for j in range(n, i, -1):
                if keys[2 * j] == s.key and keys[2 * j + 1] == s.check:
                    if dist[i] + 1 < dist[j]:
                        dist[j] = dist[i] + 1
                        prev[j] = i
                        via[j] = moves[k]
                    break
            unmake(&s, moves[k], src)
        make(&s, line[i])
    length = dist[n]
    j = n
    for k in range(length - 1, -1, -1):
        line[k] = via[j]
        j = prev[j]
    free(keys); free(dist); free(prev); free(via)
    return length


cdef int merge_moves(const State* root, move_t* line, int n) noexcept nogil:
    """Merge a card's two successive moves where the line still wins.

    A to B and later B back to A: both go.  A to B and later B to C: one
    move A to C at the later time.  Returns the new length.
    """
    cdef move_t* cand = <move_t*>malloc(n * sizeof(move_t)) if n > 0 else NULL
    cdef uint8_t* src = <uint8_t*>malloc(n * sizeof(uint8_t)) if n > 0 else NULL
    cdef State s
    cdef int i, j, k, m, c
    if n == 0 or cand == NULL or src == NULL:
        free(cand); free(src)
        return n
    i = 0
    while i < n:
        # sources of the current line
        s = root[0]
        for k in range(n):
            src[k] = s.where[move_card(line[k])]
            make(&s, line[k])
        c = move_card(line[i])
        j = -1
        for k in range(i + 1, n):
            if move_card(line[k]) == c:
                j = k
                break
        if j < 0 or move_target(line[i]) == TO_FOUNDATION:
            i += 1
            continue
        m = 0
        for k in range(n):
            if k == i:
                continue
            if k == j:
                if move_target(line[j]) == src[i]:
                    continue            # moved back where it came from
                cand[m] = line[j]       # same card, same target, from A now
                m += 1
                continue
            cand[m] = line[k]
            m += 1
        if replay_wins(root, cand, m):
            memcpy(line, cand, m * sizeof(move_t))
            n = m
        else:
            i += 1
    free(cand); free(src)
    return n


def shorten(columns, foundations, int ranks, list moves):
    """Remove pointless moves from a winning line (see solver.simplify).

    *moves* are ``(card, source, target)`` tuples as :func:`search` returns
    them; the result is a winning line of the same form, no longer.
    """
    cdef State root
    cdef int n = len(moves), i, before
    cdef move_t* line
    cdef list out = []
    state_from_python(&root, columns, foundations, ranks)
    line = <move_t*>malloc((n + 1) * sizeof(move_t))
    if line == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            card, source, target = moves[i]
            line[i] = make_move(card, TO_FOUNDATION if target < 0 else target)
        if not replay_wins(&root, line, n):
            raise ValueError("the line does not win")
        with nogil:
            while True:
                before = n
                i = shortcut(&root, line, n)
                if i >= 0:
                    n = i
                n = merge_moves(&root, line, n)
                if n >= before:
                    break
        for i in range(n):
            out.append(move_to_tuple(&root, line[i]))
            make(&root, line[i])
        return out
    finally:
        free(line)


cdef int _reraise() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1


def search(columns, foundations=(0, 0, 0, 0), int ranks=13, *, double time_limit=0.0,
           unsigned long long max_nodes=0, double memory_mb=512.0, unsigned long long seed=0,
           unsigned long long base_budget=256, double growth=1.05):
    """Decide a position.  Releases the GIL while it searches.

    Parameters
    ----------
    columns, foundations, ranks
        As for :class:`Position`.
    time_limit : float
        Seconds of wall-clock time, 0 for none.
    max_nodes : int
        Positions generated (moves made by the search), 0 for none.
    memory_mb : float
        Megabytes (2**20 bytes) for the transposition table.
    seed : int
        0 for the default move order; other values perturb tie-breaks.
    base_budget, growth : int, float
        Node quota of the first restart round and its growth per round.

    Returns
    -------
    tuple
        ``(status, moves, nodes, rounds, table_entries)``: *status* one of
        SOLVED, UNSOLVABLE, NODE_LIMIT, TIME_LIMIT, INTERRUPTED,
        OUT_OF_MEMORY; *moves* the winning line as ``(card, source, target)``
        tuples when SOLVED, else ``[]``.
    """
    cdef Search S
    cdef int st, sp
    cdef double start
    cdef list out = []
    cdef uint64_t bytes
    memset(&S, 0, sizeof(Search))
    state_from_python(&S.s, columns, foundations, ranks)
    if not 0 < memory_mb <= 1048576.0:          # also refuses NaN
        raise ValueError(f"memory_mb must be in (0, 2**20] (MiB), not {memory_mb}")
    if not growth >= 1.0 or growth > 16.0:
        raise ValueError(f"growth must be in [1, 16], not {growth}")
    bytes = <uint64_t>(memory_mb * 1048576.0)
    if bytes < 4096:
        bytes = 4096
    S.max_nodes = max_nodes
    S.frames_cap = 1024
    S.moves_cap = 1024 * MAXMOVES
    S.tarjan_cap = 4096
    S.over_cap = 64
    S.next_index = 1
    S.frames = <Frame*>malloc(S.frames_cap * sizeof(Frame))
    S.moves = <move_t*>malloc(S.moves_cap * sizeof(move_t))
    S.tarjan = <TarjanRecord*>malloc(S.tarjan_cap * sizeof(TarjanRecord))
    S.over = <TarjanRecord*>calloc(S.over_cap, sizeof(TarjanRecord))
    if S.frames == NULL or S.moves == NULL or S.tarjan == NULL or S.over == NULL \
            or table_init(&S.t, bytes) != 0:
        free(S.frames); free(S.moves); free(S.tarjan); free(S.over); free(S.t.entries)
        raise MemoryError(f"cannot allocate {memory_mb} MB for the transposition table")
    try:
        with nogil:
            start = now_seconds()
            if time_limit > 0:
                S.deadline = start + time_limit
            S.next_signal_check = start + 0.02
            st = search_loop(&S, seed, base_budget, growth)
        if st == ST_INTERRUPTED:
            # the exception (KeyboardInterrupt) that a signal handler raised
            PyErr_Restore(S.exc_type, S.exc_value, S.exc_tb)
            S.exc_type = S.exc_value = S.exc_tb = NULL
            _reraise()
        if st == ST_SOLVED:
            # replay the line from the root to report source columns
            moves = [(S.frames[sp].played, S.frames[sp].source) for sp in range(1, S.depth)]
            for sp in range(S.depth - 1, 0, -1):
                unmake(&S.s, S.frames[sp].played, S.frames[sp].source)
            for m, src in moves:
                out.append(move_to_tuple(&S.s, m))
                make(&S.s, m)
        return (st, out, S.nodes, S.rounds, S.t.used)
    finally:
        free(S.frames); free(S.moves); free(S.tarjan); free(S.over); free(S.t.entries)
