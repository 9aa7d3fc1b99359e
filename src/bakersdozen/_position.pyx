# cython: language_level=3
"""Positions of the compiled engine (private; declarations in ``_position.pxd``).

The position (``State``), its column-order-invariant Zobrist keys,
make/unmake and the two move generators -- the full one (every legal move,
for perft and the Python API) and the search's pruned, ordered one -- are
defined in ``_position.pxd`` so that every search module compiles them
inline.  This module fills the Zobrist tables, builds a ``State`` from
Python data, counts perft, and offers :class:`Position` to Python.  Card
indices and bitboards are described in ``_position.pxd`` and
docs/engine.md.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset


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
    # drawn after the pair values, which stay what they always were
    for i in range(64):
        ZOB_FKEY[i] = splitmix64(&seed)
        ZOB_FCHECK[i] = splitmix64(&seed)
    for i in range(16):
        RANK_MASK[i] = 0
    for i in range(1, MAXRANK + 1):
        RANK_MASK[i] = (<uint64_t>0xF) << (4 * (i - 1))

_init_tables()


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
    if s.play.fbuild != FOUND_SUIT:
        for i in range(4):
            k ^= ZOB_FKEY[16 * i + s.found[i]]
            k2 ^= ZOB_FCHECK[16 * i + s.found[i]]
    key[0] = k
    check[0] = k2


cdef bint is_legal(const State* s, move_t m) noexcept nogil:
    """Is *m* a legal move in *s*?  (Any 16-bit value may be asked.)"""
    cdef int c = move_card(m), to = move_target(m), src
    if not s.play.plain:
        return m != NO_MOVE and resolve(s, m) == m
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


cdef move_t resolve(const State* s, move_t m) noexcept nogil:
    """The legal move of *s* with *m*'s card and target, or NO_MOVE.

    A card and a target name at most one legal move (the unit is the card
    and everything above it; a foundation move goes to the first pile that
    accepts the card), so a line kept as (card, target) pairs replays
    whatever the unit sizes and piles were when it was recorded.
    """
    cdef move_t moves[MAXMOVES]
    cdef int n, i
    if s.play.plain:
        return m if is_legal(s, m) else NO_MOVE
    n = gen_legal_family(s, moves)
    for i in range(n):
        if (moves[i] & 0x0F3F) == (m & 0x0F3F):
            return moves[i]
    return NO_MOVE


cdef int make_family(State* s, move_t m) noexcept nogil:
    """:func:`make` for every knob."""
    cdef int c = move_card(m), to = move_target(m), k = move_count(m)
    cdef int src = s.where[c], h, th, b, i, x, p
    if src == NO_COLUMN:            # back from its foundation (by suit)
        s.found[card_suit(c)] -= 1
        s.home &= ~bit(c)
        s.left += 1
        th = s.height[to]
        b = BOTTOM
        if th > 0:
            b = s.cols[to][th - 1]
            s.tops &= ~bit(b)
        s.cols[to][th] = c
        s.height[to] = th + 1
        s.where[c] = to
        s.tops |= bit(c)
        toggle_pair(s, c, b)
        return NO_COLUMN
    h = s.height[src] - k
    s.height[src] = h
    b = BOTTOM
    if h > 0:
        b = s.cols[src][h - 1]
        s.tops |= bit(b)
    toggle_pair(s, c, b)
    if to == TO_FOUNDATION:
        s.tops &= ~bit(c)
        s.home |= bit(c)
        if s.play.fbuild == FOUND_SUIT:
            s.found[card_suit(c)] += 1
        else:
            p = move_pile(m)
            toggle_pile(s, p)
            s.found[p] += 1
            toggle_pile(s, p)
        s.where[c] = NO_COLUMN
        s.left -= 1
        return src
    th = s.height[to]
    b = BOTTOM
    if th > 0:
        b = s.cols[to][th - 1]
        s.tops &= ~bit(b)
    for i in range(k):
        x = s.cols[src][h + i]
        s.cols[to][th + i] = x
        s.where[x] = to
    s.height[to] = th + k
    toggle_pair(s, c, b)
    return src


cdef void unmake_family(State* s, move_t m, int src) noexcept nogil:
    """:func:`unmake` for every knob."""
    cdef int c = move_card(m), to = move_target(m), k = move_count(m)
    cdef int h, th, b, i, x, p
    if to == TO_FOUNDATION:
        s.home &= ~bit(c)
        s.left += 1
        if s.play.fbuild == FOUND_SUIT:
            s.found[card_suit(c)] -= 1
        else:
            p = move_pile(m)
            toggle_pile(s, p)
            s.found[p] -= 1
            toggle_pile(s, p)
        th = 0          # the unit (one card) comes from nowhere in the tableau
    else:
        th = s.height[to] - k
        s.height[to] = th
        b = BOTTOM
        if th > 0:
            b = s.cols[to][th - 1]
            s.tops |= bit(b)
        toggle_pair(s, c, b)
        if src == NO_COLUMN:        # it goes back to its foundation
            s.found[card_suit(c)] += 1
            s.home |= bit(c)
            s.where[c] = NO_COLUMN
            s.tops &= ~bit(c)
            s.left -= 1
            return
    h = s.height[src]
    b = BOTTOM
    if h > 0:
        b = s.cols[src][h - 1]
        s.tops &= ~bit(b)
    if to == TO_FOUNDATION:
        s.cols[src][h] = c
        s.where[c] = src
        s.tops |= bit(c)
    else:
        for i in range(k):
            x = s.cols[to][th + i]
            s.cols[src][h + i] = x
            s.where[x] = src
    s.height[src] = h + k
    toggle_pair(s, c, b)


cdef int gen_legal_family(const State* s, move_t* out) noexcept nogil:
    """:func:`gen_legal` for every knob.

    Order: columns left to right; for each, its top card's foundation move,
    then for each target column left to right the units that may go there
    (shortest first); last, the foundations' top cards back onto columns.
    """
    cdef int n = 0, col, tgt, h, th, c, t, k, run, lim, p, nempty = empty_columns(s), suit, r
    for col in range(s.ncols):
        h = s.height[col]
        if h == 0:
            continue
        c = s.cols[col][h - 1]
        p = accepting_pile(s, c)
        if p >= 0:
            out[n] = make_unit_move(c, TO_FOUNDATION, 1, 0 if s.play.fbuild == FOUND_SUIT else p)
            n += 1
        run = run_length(s, col)
        for tgt in range(s.ncols):
            if tgt == col:
                continue
            th = s.height[tgt]
            if th > 0:
                t = s.cols[tgt][th - 1]
                k = card_rank(t) - card_rank(c)
                if k < 1 or k > run or k > max_unit(s, nempty, False):
                    continue
                if builds_on(s, s.cols[col][h - k], t):
                    out[n] = make_unit_move(s.cols[col][h - k], tgt, k, 0)
                    n += 1
            elif s.play.empty != EMPTY_NOTHING:
                lim = max_unit(s, nempty, True)
                if lim > run:
                    lim = run
                for k in range(1, lim + 1):
                    if empty_takes(s, s.cols[col][h - k]):
                        out[n] = make_unit_move(s.cols[col][h - k], tgt, k, 0)
                        n += 1
    if s.play.freturn:
        for suit in range(4):
            r = s.found[suit]
            if r == 0:
                continue
            c = 4 * (r - 1) + suit
            for tgt in range(s.ncols):
                th = s.height[tgt]
                if (th > 0 and builds_on(s, c, s.cols[tgt][th - 1])) or (th == 0 and empty_takes(s, c)):
                    out[n] = make_unit_move(c, tgt, 1, 0)
                    n += 1
    return n


cdef inline int family_need(const State* s, int c) noexcept nogil:
    """:func:`need` for every foundation rule (for move ordering only), >= 1."""
    cdef int v, p, top = 0
    if s.play.fbuild == FOUND_SUIT:
        return card_rank(c) - s.found[card_suit(c)]
    for p in range(4):
        if s.found[p] > top:
            top = s.found[p]
    v = card_rank(c) - top
    return v if v >= 1 else 1


cdef inline int family_score(const State* s, int col, int h, int limit, int heur) noexcept nogil:
    """Move-order weight of the lowest *h* cards of column *col* (see gen_search)."""
    cdef int i, n = 0, v
    for i in range(h):
        v = family_need(s, s.cols[col][i])
        if heur == 1:
            if v < limit:
                n += 16
        elif v <= 4:
            n += 4 * (16 >> v)
    return n


cdef int gen_search_family(const State* s, move_t* out, uint64_t noise_seed, int heur,
                                  int last) noexcept nogil:
    """:func:`gen_search` for every knob: the legal moves, pruned and ordered.

    Pruning: rules 1-3 of :func:`gen_search` each only where the knobs its
    proof needs hold (``Play.safe_home``, ``lone``, ``dead``); and, always,
    a unit goes into the first empty column only (all empty columns are
    alike: the key ignores column order), and never when it is its whole
    column (the position would not change, up to column order).
    """
    cdef move_t legal[MAXMOVES]
    cdef int score[MAXMOVES]
    cdef int cnt, i, n = 0, c, to, src, k, h, th, sc, need_c, first_empty = -1, col
    cdef move_t m
    if s.play.dead and is_lost(s, last):
        return 0
    if s.play.dead_kings and deadlock_set_but(s, RANK_MASK[s.ranks]) != 0:
        return 0            # rule 3, the Kings left out (they may go into an empty column)
    for col in range(s.ncols):
        if s.height[col] == 0:
            first_empty = col
            break
    cnt = gen_legal_family(s, legal)
    for i in range(cnt):
        m = legal[i]
        c = move_card(m)
        to = move_target(m)
        src = s.where[c]
        k = move_count(m)
        if to == TO_FOUNDATION:
            if s.play.safe_home and is_safe_home(s, c):
                out[0] = m
                return 1
            sc = 1000 + (MAXRANK + 1 - card_rank(c))
        else:
            th = s.height[to]
            if th == 0 and to != first_empty:
                continue
            if src == NO_COLUMN:
                sc = -200
            else:
                h = s.height[src]
                if k == h and (th == 0 or s.play.lone):
                    continue
                need_c = family_need(s, c)
                sc = family_score(s, src, h - k, need_c, heur) \
                    - family_score(s, to, th, need_c, heur)
                if h - k > 0 and family_need(s, s.cols[src][h - k - 1]) == 1:
                    sc += 100
        if noise_seed:
            sc += noise_bits(noise_seed, m, s.key, NOISE)
        out[n] = m
        score[n] = sc
        n += 1
    sort_best_first(out, score, n)
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

cdef int set_play(State* s, object play) except -1:
    """Fill ``s.play`` from *play*: None (Baker's Dozen's play) or the five
    codes (build, moves, empty column, foundation build, foundation return),
    and optionally a sixth: 0 leaves rule 3 with the Kings left out
    (``Play.dead_kings``) off, as the searches the shipped grades were
    rated with had it (``bakersdozen.solver.rated_search``)."""
    cdef int build, moves, empty, fbuild, freturn, suit, other, kings_rule = 1
    cdef bint one
    if play is None:
        play = (0, 0, 0, 0, 0)
    play = tuple(play)
    if len(play) == 6:
        kings_rule = int(play[5])
        play = play[:5]
    build, moves, empty, fbuild, freturn = map(int, play)
    if not (0 <= build <= 3 and 0 <= moves <= 2 and 0 <= empty <= 2 and 0 <= fbuild <= 2
            and 0 <= freturn <= 1):
        raise ValueError(f"bad play codes {tuple(play)!r}")
    if freturn and fbuild != FOUND_SUIT:
        raise ValueError("foundation return needs foundations built by suit")
    s.play.build = build
    s.play.moves = moves
    s.play.empty = empty
    s.play.fbuild = fbuild
    s.play.freturn = freturn
    s.play.plain = build == BUILD_ANY and moves == UNIT_ONE and empty == EMPTY_NOTHING \
        and fbuild == FOUND_SUIT and not freturn
    for suit in range(4):
        s.play.onto[suit] = 0
        for other in range(4):
            if build == BUILD_ANY or (build == BUILD_ALT and is_red(suit) != is_red(other)) \
                    or (build == BUILD_SAME and suit == other) \
                    or (build == BUILD_OTHER and suit != other):
                s.play.onto[suit] |= 1 << other
    # one card moves at a time (a supermove carries one card unless an
    # empty column takes any card)
    one = moves == UNIT_ONE or (moves == UNIT_SUPER and empty != EMPTY_ANY)
    s.play.safe_home = fbuild == FOUND_SUIT and not freturn
    s.play.lone = empty == EMPTY_NOTHING and one
    s.play.dead = s.play.lone and s.play.safe_home
    s.play.kings_only = empty == EMPTY_KINGS and one and s.play.safe_home
    s.play.dead_kings = s.play.kings_only and kings_rule != 0
    return 0


cdef int state_from_python(State* s, object columns, object foundations, int ranks,
                           object play=None) except -1:
    """Fill *s* from card-index columns (bottom first), foundation heights and play rules.

    *play* is None for Baker's Dozen's play, or the five knob codes (see
    :class:`Position`).  Raises ValueError for anything that is not a
    consistent position of a pack of ranks 1..ranks (the Python layer
    validates first; this is the last line of defence against memory
    errors).
    """
    cdef int col, i, c, suit
    cdef uint64_t seen = 0
    memset(s, 0, sizeof(State))
    set_play(s, play)
    if not 1 <= ranks <= MAXRANK:
        raise ValueError(f"ranks must be 1..{MAXRANK}, not {ranks}")
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
    if s.play.fbuild != FOUND_SUIT:
        # the piles' cards are every card not in a column (the Python layer
        # checks that they fit the piles)
        if sum(found) != bd_popcount(s.all_home & ~seen):
            raise ValueError("the foundation heights do not add up to the cards home")
        s.home = s.all_home & ~seen
        seen = s.all_home
    for suit in range(4):
        if s.play.fbuild != FOUND_SUIT:
            break
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
    """(card index, source column or -1 for a foundation, target column or -1 for one)."""
    cdef int c = move_card(m)
    cdef int to = move_target(m)
    return (c, -1 if s.where[c] == NO_COLUMN else s.where[c], -1 if to == TO_FOUNDATION else to)


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
    play : tuple of 5 int or None
        The play knobs as codes, in the order of their enums in
        :mod:`bakersdozen.rules`: (build 0..3, moves 0..2, empty column
        0..2, foundation build 0..2, foundation return 0/1); None for
        Baker's Dozen's (all 0).  ``bakersdozen.solver`` makes them.

    Moves are tuples ``(card, source, target)``: the card index (the bottom
    card of the unit that moves), 0-based source column or -1 for a card
    that comes back from its foundation, 0-based target column or -1 for
    the foundations.
    """

    def __init__(self, columns, foundations=(0, 0, 0, 0), int ranks=MAXRANK, play=None):
        state_from_python(&self.s, columns, foundations, ranks, play)
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

    def search_moves(self):
        """The moves the search would try here (pruned and ordered, no noise), as tuples."""
        cdef move_t moves[MAXMOVES]
        cdef int n = gen_search(&self.s, moves, 0, 1, -1)
        return [move_to_tuple(&self.s, moves[i]) for i in range(n)]

    def deadlock(self):
        """The cards that can never move again, as a sorted list of card indices.

        Empty when the deadlock test (docs/engine.md, "Deadlocks") finds no
        such set; a non-empty list means the position cannot be won.  The
        test's proof needs Baker's Dozen's play knobs (``Play.dead``), or
        the same with empty columns that take Kings only, the Kings left
        out of the set (``Play.dead_kings``); under other rules the list is
        always empty.
        """
        cdef uint64_t F = 0
        if self.s.play.dead:
            F = deadlock_set(&self.s)
        elif self.s.play.dead_kings:
            F = deadlock_set_but(&self.s, RANK_MASK[self.s.ranks])
        return [c for c in range(NCARDS) if F >> c & 1]

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


