# cython: language_level=3
"""Positions of the compiled engine: state, keys, make/unmake, move generators.

A search module ``cimport``s this file to play moves and generate them; the
functions on the hot path (make, unmake, the generators and their helpers)
are defined here, ``inline``, so that they are compiled into every module
that uses them rather than called through a pointer.  The rest is declared
here and defined in ``_position.pyx``.

Card encoding (the same as :mod:`bakersdozen.cards`): a card is an index
0..51, ``4 * (rank - 1) + suit`` with suit C=0, D=1, H=2, S=3.  A 64-bit
bitboard has bit ``i`` set for card ``i``; bits 52..63 are always clear.
The four cards of rank ``r`` are the nibble at bits ``4*(r-1) .. 4*(r-1)+3``
(``RANK_MASK[r]``).

The rules played are given by the position's ``Play`` block (every knob of
docs/rules.md).  Baker's Dozen's play (one card at a time, onto a card one
rank higher of any suit or to its suit's foundation, an empty column takes
nothing, nothing leaves a foundation) has its own fast code (``Play.plain``);
every other combination of knobs goes through the ``*_family`` functions.
docs/engine.md explains the pruning rules, their proofs and the knobs each
proof needs.
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from *:
    """
    #ifndef BD_POSITION_HELPERS
    #define BD_POSITION_HELPERS
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
    #define BD_NIBBLE_LOW 0x1111111111111ULL
    #endif
    """
    int bd_ctz(unsigned long long x) nogil            # index of the lowest set bit (x != 0)
    int bd_popcount(unsigned long long x) nogil       # number of set bits
    void bd_prefetch(const void* p) nogil             # hint: load p's cache line
    const unsigned long long NIBBLE_LOW "BD_NIBBLE_LOW"  # the low bit of each rank's nibble

cdef enum:
    NCARDS = 52          # card indices 0..51: the largest pack
    MAXRANK = 13         # ranks 1..13: the card encoding has room for no more
    MAXCOLS = 13         # array bound: columns of the tableau (State.ncols <= MAXCOLS)
    MAXHEIGHT = 52       # array bound: a column can never hold more than the pack
    TO_FOUNDATION = MAXCOLS  # move target meaning "the card's foundation" (past every column)
    NO_COLUMN = 255      # State.where[] of a card on its foundation
    BOTTOM = NCARDS      # "card beneath" of a card at a column's bottom
    PAIRS = NCARDS * (NCARDS + 1)  # (card, card beneath or BOTTOM) pairs: Zobrist table size
    # bound on the moves of one position: at most 13 sources, each with one
    # foundation move, one unit onto each of 12 non-empty columns and up to 13
    # units into each empty column, plus 4 foundation cards onto 13 columns
    MAXMOVES = 1024
    PLAIN_MOVES = 128    # bound under Baker's Dozen's play: 13 tops x (4 targets + 1)
    # Play knob codes (the order of the enums in bakersdozen.rules)
    BUILD_ANY = 0
    BUILD_ALT = 1
    BUILD_SAME = 2
    BUILD_OTHER = 3
    UNIT_ONE = 0
    UNIT_SEQUENCE = 1
    UNIT_SUPER = 2
    EMPTY_NOTHING = 0
    EMPTY_ANY = 1
    EMPTY_KINGS = 2
    FOUND_SUIT = 0
    FOUND_ALT = 1
    FOUND_ANY = 2
    NO_MOVE = 0xFFFF     # not a move (card index 63 is never in the pack)
    # Move-order noise of restart rounds after the first: a random 0..NOISE
    # added to each move's score (scores span about 0..300).  Measured on
    # PySol deals 1-300 with a 6M-position cap: noise 63 left 4 deals
    # undecided, 255 two, 1023 two (and decided deal 100 in 82k positions,
    # against 41.6M at noise 63), 4095 one but with an eight times larger
    # median search.
    NOISE = 1023

# A move, 16 bits: bits 0-5 the card index (the bottom card of the unit that
# moves), bits 6-7 the foundation pile a card goes to (only when foundations
# are not built by suit; else 0), bits 8-11 the target (column
# 0..MAXCOLS-1, or TO_FOUNDATION), bits 12-15 the number of cards moved
# minus one (0 for one card).  The source is State.where[card] before the
# move (NO_COLUMN: the card comes back from its foundation), so make()
# returns it for unmake().  Baker's Dozen's moves have bits 6-7 and 12-15
# clear.
ctypedef uint16_t move_t

# The play rules of a position, fixed when it is built.
cdef struct Play:
    uint8_t plain        # 1: Baker's Dozen's play knobs (the fast code); 0: the *_family code
    uint8_t build        # BUILD_*
    uint8_t moves        # UNIT_*
    uint8_t empty        # EMPTY_*
    uint8_t fbuild       # FOUND_*
    uint8_t freturn      # 1: a foundation's top card may come back onto a column
    uint8_t onto[4]      # onto[suit]: nibble of the suits a card of that suit may be put on
    # the pruning rules in force (docs/engine.md, "Pruning rules"; set from
    # the knobs each proof needs)
    uint8_t safe_home    # rule 1: foundation by suit, no foundation return
    uint8_t lone         # rule 2: empty columns take nothing, one card moves
    uint8_t dead         # rule 3: rule 2's knobs, foundation by suit, no return
    uint8_t kings_only   # the knobs of rule 3 with the Kings left out: empty columns take
                         #   Kings only, one card moves, foundation by suit, no return
    uint8_t dead_kings   # rule 3 with the Kings left out in force: kings_only, and not
                         #   turned off for the shipped grades (set_play's sixth code)

# A position.  The first block changes with every move (make/unmake keep it
# and both keys up to date); the second is fixed by the rules and the deal
# when the State is built (state_from_python) and never changes after.
#
cdef struct State:
    # -- changes with every move --
    uint8_t cols[MAXCOLS][MAXHEIGHT]  # cols[c][i]: card index at height i of column c, bottom (i=0) first;
                                      #   only i < height[c] is meaningful
    uint8_t height[MAXCOLS]           # number of cards in each column (0 = empty)
    uint8_t where[NCARDS]             # column 0..ncols-1 of each card, NO_COLUMN if on its foundation
                                      #   (or not in the pack)
    uint8_t found[4]                  # found[p]: height of foundation pile p (begun by the Ace of suit p;
                                      #   by suit: the highest rank of suit p home), 0 = empty
    uint64_t tops                     # bitboard: the cards at the top of a non-empty column
    uint64_t home                     # bitboard: the cards on the foundations
    uint64_t key                      # Zobrist key: XOR of ZOB_KEY[pair_index(card, beneath)] over the
                                      #   tableau (and of ZOB_FKEY[16 * p + found[p]] over the piles when
                                      #   foundations are not by suit); invariant under column order;
                                      #   selects the TT bucket
    uint64_t check                    # the same with ZOB_CHECK (independent values, bit 0 always set):
                                      #   stored in the TT entry to tell positions of one bucket apart
    int left                          # cards still in the tableau (0 = won)
    # -- fixed by the rules and the deal --
    int ncols                         # columns of the tableau (<= MAXCOLS)
    int ranks                         # the pack holds ranks 1..ranks of the four suits (<= MAXRANK)
    uint64_t all_home                 # bitboard: every card of the pack (RANK_MASK[1..ranks])
    Play play                         # the play rules

# Zobrist values by pair_index(card, beneath) and the rank masks, filled when
# _position is imported (the seed is fixed: keys are the same in every run).
cdef uint64_t ZOB_KEY[PAIRS]
cdef uint64_t ZOB_CHECK[PAIRS]
cdef uint64_t RANK_MASK[16]           # RANK_MASK[r]: the four cards of rank r (1..MAXRANK), 0 outside
# Zobrist values of (foundation pile p, height h) at index 16 * p + h: part
# of the keys only when foundations are not built by suit (then the tableau
# alone does not tell how high each pile is).
cdef uint64_t ZOB_FKEY[64]
cdef uint64_t ZOB_FCHECK[64]


# ---------------------------------------------------------------------------
# Cards, moves, keys
# ---------------------------------------------------------------------------

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """Next value of the splitmix64 generator (Steele, Lea, Flood 2014)."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int card_rank(int c) noexcept nogil:
    return (c >> 2) + 1


cdef inline int card_suit(int c) noexcept nogil:
    return c & 3


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline int pair_index(int c, int beneath) noexcept nogil:
    """Index of the pair (card *c*, card directly beneath it or BOTTOM) in the Zobrist tables."""
    return c * (NCARDS + 1) + beneath


cdef inline move_t make_move(int card, int target) noexcept nogil:
    return <move_t>(card | (target << 8))


cdef inline int move_card(move_t m) noexcept nogil:
    return m & 63


cdef inline int move_target(move_t m) noexcept nogil:
    return (m >> 8) & 15


cdef inline int noise_bits(uint64_t seed, move_t m, uint64_t key, int mask) noexcept nogil:
    """A deterministic pseudo-random 0..*mask* for move *m* of the position *key*
    (the restart rounds' tie-break; *mask* + 1 a power of two)."""
    cdef uint64_t x = seed ^ (<uint64_t>m * 0x9E3779B97F4A7C15ULL) ^ key
    x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ULL
    return <int>((x >> 40) & <uint64_t>mask)


cdef inline void sort_best_first(move_t* out, int* score, int n) noexcept nogil:
    """Insertion sort of *out*[0:n] by *score* (kept beside it), highest first, stable."""
    cdef int i, j, sc
    cdef move_t m
    for i in range(1, n):
        m = out[i]
        sc = score[i]
        j = i - 1
        while j >= 0 and score[j] < sc:
            out[j + 1] = out[j]
            score[j + 1] = score[j]
            j -= 1
        out[j + 1] = m
        score[j + 1] = sc


cdef inline move_t make_unit_move(int card, int target, int count, int pile) noexcept nogil:
    """A move of *count* cards whose bottom card is *card* (pile: see ``move_t``)."""
    return <move_t>(card | (pile << 6) | (target << 8) | ((count - 1) << 12))


cdef inline int move_count(move_t m) noexcept nogil:
    """Number of cards the move carries (1 unless a sequence moves)."""
    return ((m >> 12) & 15) + 1


cdef inline int move_pile(move_t m) noexcept nogil:
    """Foundation pile of a move to the foundations (foundations not by suit)."""
    return (m >> 6) & 3


cdef inline bint is_red(int suit) noexcept nogil:
    return ((suit + 1) >> 1) & 1


# ---------------------------------------------------------------------------
# The family's rules (every knob; Baker's Dozen's play has faster code below)
# ---------------------------------------------------------------------------

cdef inline bint builds_on(const State* s, int upper, int lower) noexcept nogil:
    """May card *upper* lie on card *lower* in a column (one rank lower, and the build rule)?"""
    return card_rank(upper) + 1 == card_rank(lower) and \
        ((s.play.onto[card_suit(upper)] >> card_suit(lower)) & 1) != 0


cdef inline int accepting_pile(const State* s, int c) noexcept nogil:
    """The first foundation pile (lowest suit index) that takes card *c*, or -1."""
    cdef int r = card_rank(c), suit = card_suit(c), p
    cdef bint top_red
    if s.play.fbuild == FOUND_SUIT or r == 1:
        return suit if s.found[suit] == r - 1 else -1
    for p in range(4):
        if s.found[p] != r - 1:
            continue
        if s.play.fbuild == FOUND_ANY:
            return p
        # alternate colours: the pile's top card (rank r - 1) has its Ace's
        # colour when r - 1 is odd
        top_red = is_red(p) if ((r - 1) & 1) else not is_red(p)
        if top_red != is_red(suit):
            return p
    return -1


cdef inline int empty_columns(const State* s) noexcept nogil:
    cdef int col, n = 0
    for col in range(s.ncols):
        if s.height[col] == 0:
            n += 1
    return n


cdef inline int max_unit(const State* s, int nempty, bint target_empty) noexcept nogil:
    """The most cards one move may carry onto a column (docs/rules.md, "What moves")."""
    cdef int e
    if s.play.moves == UNIT_ONE:
        return 1
    if s.play.moves == UNIT_SEQUENCE:
        return MAXRANK
    if s.play.empty != EMPTY_ANY:
        return 1
    e = nempty - (1 if target_empty else 0)
    return MAXRANK if e >= 4 else (1 << e)


cdef inline bint empty_takes(const State* s, int c) noexcept nogil:
    """May a unit whose bottom card is *c* go into an empty column?"""
    if s.play.empty == EMPTY_ANY:
        return True
    return s.play.empty == EMPTY_KINGS and card_rank(c) == s.ranks


cdef inline int run_length(const State* s, int col) noexcept nogil:
    """Cards at the top of non-empty column *col* that may move as one unit (before limits)."""
    cdef int h = s.height[col], run = 1
    if s.play.moves == UNIT_ONE or (s.play.moves == UNIT_SUPER and s.play.empty != EMPTY_ANY):
        return 1
    while run < h and builds_on(s, s.cols[col][h - run], s.cols[col][h - run - 1]):
        run += 1
    return run


cdef inline void toggle_pair(State* s, int c, int beneath) noexcept nogil:
    cdef int p = pair_index(c, beneath)
    s.key ^= ZOB_KEY[p]
    s.check ^= ZOB_CHECK[p]


cdef inline void toggle_pile(State* s, int p) noexcept nogil:
    """XOR pile *p*'s (pile, height) value in or out of the keys."""
    s.key ^= ZOB_FKEY[16 * p + s.found[p]]
    s.check ^= ZOB_FCHECK[16 * p + s.found[p]]


# ---------------------------------------------------------------------------
# Make / unmake
# ---------------------------------------------------------------------------

cdef inline int make(State* s, move_t m) noexcept nogil:
    """Play move *m* (assumed legal); return its source column for :func:`unmake`.

    The source is NO_COLUMN for a card that comes back from its foundation.
    """
    if not s.play.plain:
        return make_family(s, m)
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
    if not s.play.plain:
        unmake_family(s, m, src)
        return
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


cdef inline void child_keys(const State* s, move_t m, uint64_t* key, uint64_t* check) noexcept nogil:
    """The (key, check) pair of the position after legal move *m*, without playing it.

    One code for every knob (no call out of the search loop): a card back
    from its foundation has no old pair, a unit leaves from beneath its
    bottom card, an empty target gives BOTTOM, and a foundation move
    changes a pile height where foundations are not by suit.
    """
    cdef int c = move_card(m)
    cdef int to = move_target(m)
    cdef int src = s.where[c]
    cdef int h, beneath, p, q
    cdef uint64_t k = s.key, k2 = s.check
    if src != NO_COLUMN:
        h = s.height[src] - move_count(m)
        beneath = s.cols[src][h - 1] if h > 0 else BOTTOM
        p = pair_index(c, beneath)
        k ^= ZOB_KEY[p]
        k2 ^= ZOB_CHECK[p]
    if to != TO_FOUNDATION:
        h = s.height[to]
        beneath = s.cols[to][h - 1] if h > 0 else BOTTOM
        p = pair_index(c, beneath)
        k ^= ZOB_KEY[p]
        k2 ^= ZOB_CHECK[p]
    elif s.play.fbuild != FOUND_SUIT:
        q = move_pile(m)
        p = 16 * q + s.found[q]
        k ^= ZOB_FKEY[p] ^ ZOB_FKEY[p + 1]
        k2 ^= ZOB_FCHECK[p] ^ ZOB_FCHECK[p + 1]
    key[0] = k
    check[0] = k2


# ---------------------------------------------------------------------------
# The full move generator
# ---------------------------------------------------------------------------

cdef inline int gen_legal(const State* s, move_t* out) noexcept nogil:
    """Every legal move, no pruning, into *out* (room for MAXMOVES).  Returns the count.

    Order (Baker's Dozen's play): columns left to right; for each top card
    its foundation move first, then its column moves by the target card's
    index.  Other rules: :func:`gen_legal_family`.
    """
    if not s.play.plain:
        return gen_legal_family(s, out)
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


# ---------------------------------------------------------------------------
# The search move generator: pruning and ordering (proofs in docs/engine.md)
# ---------------------------------------------------------------------------

cdef inline bint is_safe_home(const State* s, int c) noexcept nogil:
    """May playable card *c* go to its foundation at once without losing a win?

    True when its rank r <= 2, or when all four cards of rank r - 2 are on
    the foundations ("safe foundation moves" in docs/engine.md).
    """
    cdef int r = card_rank(c)
    if r <= 2:
        return True
    return (s.home & RANK_MASK[r - 2]) == RANK_MASK[r - 2]


cdef inline int need(const State* s, int c) noexcept nogil:
    """How far card *c* is from being playable to its foundation (1 = playable now)."""
    return card_rank(c) - s.found[card_suit(c)]


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

    A card y whose every card one rank higher is home or beneath y in y's
    column, lying above a lower card x of its own suit, can never move; the
    position is then lost, and stays lost ("lost positions" in
    docs/engine.md), so checking the cards a move affects is enough.
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


cdef inline bint is_dead(const State* s) noexcept nogil:
    """Is the position lost by a block (:func:`blocked`) anywhere?"""
    cdef int col, i
    for col in range(s.ncols):
        for i in range(1, s.height[col]):
            if blocked(s, col, i):
                return True
    return False


cdef inline bint dead_after(const State* s, move_t last) noexcept nogil:
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


cdef inline uint64_t suit_cards(int suit) noexcept nogil:
    """Bitboard of every card of *suit* (all 13 ranks)."""
    return (<uint64_t>0x0001111111111111ULL) << suit


cdef inline uint64_t deadlock_set(const State* s) noexcept nogil:
    """The cards that can never move again, as a bitboard (0: none found):
    :func:`deadlock_set_but` with no card left out."""
    return deadlock_set_but(s, 0)


cdef inline uint64_t deadlock_set_but(const State* s, uint64_t free) noexcept nogil:
    """The cards that can never move again, as a bitboard (0: none found);
    no card of *free* is in the set (the Kings, where an empty column takes
    them: such a card may always leave for an empty column).

    The greatest set F of tableau cards such that every card y of F (rank
    r) has a lower card of its own suit beneath some card of F, and every
    card of rank r + 1 not yet home lies beneath some card of F.  If F is
    not empty the position cannot be won: the first card of F to move could
    go neither home (a lower card of its suit is still covered) nor onto a
    column (every card it could go onto is home or still covered), and an
    empty column takes nothing ("Deadlocks" in docs/engine.md has the
    proof).  A card above a lower card of its suit with no support left
    (:func:`blocked`) is the one-card case.  F is found by shrinking: start
    from the whole tableau, drop the cards that fail either condition, and
    repeat until nothing drops.  Valid under the knobs of ``Play.dead``;
    with the Kings in *free*, also where empty columns take Kings only
    (docs/engine.md, "Kings into empty columns").
    """
    cdef uint64_t tab = s.all_home & ~s.home
    cdef uint64_t F = tab, B = tab & ~s.tops, G, low, acc, X, H
    cdef uint64_t U = 0
    cdef int high[MAXCOLS]          # the height of each column's highest card of F, -1 if none
    cdef bint started = False
    cdef int suit, col, i, c
    while True:
        # cards every support of which, if not home, is covered by F: the
        # ranks r whose rank r + 1 nibble of X (supports not covered) is
        # empty; a nibble's bits are ORed into its low bit, and the
        # multiplication by 0xF fills each non-empty nibble
        X = tab & ~B
        X |= (X >> 1) | (X >> 2) | (X >> 3)
        G = F & ~(((X & NIBBLE_LOW) * 0xF) >> 4)
        if G == 0:
            return 0
        # ... and with a lower card of their suit covered by F
        acc = 0
        for suit in range(4):
            low = B & suit_cards(suit)
            if low:
                low &= ~low + 1
                acc |= suit_cards(suit) & ~((low << 1) - 1)
        G &= acc & ~free    # (first pass: B is exact for F = tab; a card of free
                            # drops here, so G != F and B is made again for G)
        if G == F or G == 0:
            return G
        F = G
        # B: the cards beneath some card of F, that is the tableau less,
        # in each column, its highest card of F (H) and the cards above it
        # (U: a whole column if it holds none).  F only shrinks, so each
        # column's highest card of F only moves down, and over the whole
        # call every card is passed over at most once.
        if not started:
            for col in range(s.ncols):
                high[col] = s.height[col] - 1     # the top card: F was the tableau
            started = True
        H = 0
        for col in range(s.ncols):
            i = high[col]
            while i >= 0:
                c = s.cols[col][i]
                if F & bit(c):
                    H |= bit(c)
                    break
                U |= bit(c)
                i -= 1
            high[col] = i
        B = tab & ~(U | H)


cdef inline bint is_lost(const State* s, int last) noexcept nogil:
    """Is the position lost by rule 3: a blocked card or a deadlocked set?

    The cheap one-card test first (only what move *last* changed; every
    card at the root, *last* = -1), then :func:`deadlock_set`.  Valid under
    the knobs of ``Play.dead``.
    """
    if dead_after(s, <move_t>last) if last >= 0 else is_dead(s):
        return True
    return deadlock_set(s) != 0


cdef inline int gen_search(const State* s, move_t* out, uint64_t noise_seed, int heur,
                           int last) noexcept nogil:
    """Moves the search tries, pruned soundly and best first, into *out* (MAXMOVES).

    Pruning (each rule never removes every winning line; docs/engine.md has
    the proofs and the rules each proof needs):
    1. A safe foundation move (:func:`is_safe_home`) is played alone.
    2. A column's only card never moves onto another column (an emptied
       column takes nothing).
    3. A lost position (:func:`blocked`) gets no moves.  *last* is the move
       that led here (-1 at the root, where every card is checked).
    Ordering: foundation moves first, then column moves by a score (*heur*
    1: inversions of foundation order removed from the source column minus
    those added to the target; 2: weight of soon-needed cards uncovered
    minus those buried) plus 100 for uncovering a playable card;
    *noise_seed* != 0 adds a deterministic random tie-break of 0..NOISE.
    Returns the count.  Rules other than Baker's Dozen's play:
    :func:`gen_search_family`.
    """
    cdef int n = 0, col, c, r, b, h, i, j, tgt
    cdef uint64_t targets
    cdef int score[PLAIN_MOVES]
    cdef int sc
    if not s.play.plain:
        return gen_search_family(s, out, noise_seed, heur, last)
    if is_lost(s, last):
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
            score[n] = 1000 + (MAXRANK + 1 - r)
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
                score[n] += noise_bits(noise_seed, out[n], s.key, NOISE)
            n += 1
    sort_best_first(out, score, n)
    return n


# ---------------------------------------------------------------------------
# Defined in _position.pyx
# ---------------------------------------------------------------------------

cdef void state_full_keys(const State* s, uint64_t* key, uint64_t* check) noexcept nogil
# Not inline: the family code is kept out of the search loops that inline
# make, unmake, child_keys and the generators for Baker's Dozen's play.
cdef int make_family(State* s, move_t m) noexcept nogil
cdef void unmake_family(State* s, move_t m, int src) noexcept nogil
cdef int gen_legal_family(const State* s, move_t* out) noexcept nogil
# not inline either: its move arrays would swell the stack frame of every search
# loop that inlines gen_search, Baker's Dozen's included
cdef int gen_search_family(const State* s, move_t* out, uint64_t noise_seed, int heur,
                           int last) noexcept nogil
cdef bint is_legal(const State* s, move_t m) noexcept nogil
cdef uint64_t perft(State* s, int depth) noexcept nogil
cdef move_t resolve(const State* s, move_t m) noexcept nogil
cdef int state_from_python(State* s, object columns, object foundations, int ranks,
                           object play=*) except -1
cdef object move_to_tuple(const State* s, move_t m)


cdef class Position:
    cdef State s
    cdef move_t history_moves[4096]
    cdef uint8_t history_src[4096]
    cdef int ply
    cdef move_t _find(self, object move) except? 0xFFFF
