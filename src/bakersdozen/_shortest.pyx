# cython: language_level=3
"""Shortest winning lines (private): IDA* and the windowed line shortener.

:class:`ShortestSearch` finds a winning line with the fewest moves by
iterative-deepening A* (IDA*) with an admissible lower bound on the moves
still needed (:func:`lower_bound`: cards not home plus a greedy packing of
disjoint cycles of the blocking graph), a sound pruned move generator
(:func:`gen_shortest`) and a transposition table of the smallest depth at
which each position was reached in the current iteration.
:func:`window_shorten` shortens a given winning line with bounded searches
between its positions.  docs/engine.md ("Shortest lines") gives the bound,
the pruning rules and their proofs; :mod:`bakersdozen.solver` uses both.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject, Py_XDECREF
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from bakersdozen._position cimport (
    MAXCOLS, MAXMOVES, MAXRANK, NCARDS, TO_FOUNDATION, State, bd_ctz, bit, card_rank,
    card_suit, gen_legal, is_legal, is_lost, is_safe_home, make, make_move, move_card,
    move_target, move_t, move_to_tuple, state_from_python, unmake,
)
from bakersdozen._search cimport now_seconds, replay_wins

cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals"() noexcept

# Outcomes of ShortestSearch.run().
FOUND = 0          # a line of minimal length was found (the returned moves)
BOUND_MET = 1      # no line shorter than the caller's upper bound: that line is minimal
UNSOLVABLE = 2     # no winning line at all (every reachable position explored)
NODE_LIMIT = 3
TIME_LIMIT = 4

cdef enum:
    R_FOUND = 1
    R_NONE = 0
    R_NODE_LIMIT = -1
    R_TIME_LIMIT = -2
    R_INTERRUPTED = -3
    MAXDEPTH = 1024
    INF = 1 << 30


# ---------------------------------------------------------------------------
# The lower bound
# ---------------------------------------------------------------------------

cdef inline bint over_lower(const State* s, int col, int height, int c) noexcept nogil:
    """Does column *col* hold, below *height*, a lower card of *c*'s suit?"""
    cdef int i, x, suit = card_suit(c), r = card_rank(c)
    for i in range(height):
        x = s.cols[col][i]
        if card_suit(x) == suit and card_rank(x) < r:
            return True
    return False


cdef int stuck_cards(const State* s) noexcept nogil:
    """Cards lying above a lower card of their own suit, in their column.

    The self-loops of the blocking graph (:func:`cycle_bound`); the previous
    bound was the cards not home plus these.
    """
    cdef int col, i, n = 0
    for col in range(s.ncols):
        for i in range(1, s.height[col]):
            if over_lower(s, col, i, s.cols[col][i]):
                n += 1
    return n


# UP_MASK[c]: the cards of c's suit of rank >= c's (c included).
cdef uint64_t UP_MASK[NCARDS]


cdef void _init_up_mask():
    cdef int c, r
    for c in range(NCARDS):
        UP_MASK[c] = 0
        for r in range(card_rank(c), MAXRANK + 1):
            UP_MASK[c] |= bit(4 * (r - 1) + card_suit(c))


_init_up_mask()

# The longest cycle the packing looks for (2 = two-card cycles only).
cdef int max_cycle = 4


cdef struct Graph:
    uint64_t adj[NCARDS]        # out-edges of each tableau card (0 at a column's bottom)
    uint64_t colreach[MAXCOLS]  # out-edges a card put on top of each column would have
    uint64_t V                  # the cards with out-edges and no self-loop
    int loops                   # the cards with a self-loop (stuck cards)


cdef void build_graph(const State* s, Graph* G) noexcept nogil:
    """The blocking graph of *s* (docs/engine.md, "The lower bound").

    u -> v when some card x beneath u in its column is v or a lower card of
    v's suit: u's out-edges are the union of UP_MASK[x] over the x beneath
    u, kept to the tableau.
    """
    cdef uint64_t tableau = s.all_home & ~s.home, reach, a
    cdef int col, i, u
    G.V = 0
    G.loops = 0
    for col in range(s.ncols):
        reach = 0
        for i in range(s.height[col]):
            u = s.cols[col][i]
            a = reach & tableau
            G.adj[u] = a
            if a & bit(u):
                G.loops += 1
            elif a:
                G.V |= bit(u)
            reach |= UP_MASK[u]
        G.colreach[col] = reach & tableau


cdef int cycle_bound(const State* s) noexcept nogil:
    """Vertex-disjoint cycles of the blocking graph of *s*, packed greedily.

    Every cycle needs a card that moves onto a column (docs/engine.md, "The
    lower bound"), so the number returned, of disjoint cycles found, is
    added to the cards not home.  The self-loops (stuck cards) count first;
    then :func:`pack_cycles`.
    """
    cdef Graph G
    build_graph(s, &G)
    return G.loops + pack_cycles(G.adj, G.V)


cdef int child_bound(const State* s, Graph* G, move_t m) noexcept nogil:
    """:func:`lower_bound` of the position legal move *m* leads to from *s*.

    *G* is the blocking graph of *s*; a move changes the out-edges of the
    moved card only (it was a top card, beneath nothing): home, it leaves
    the graph; onto a column, it takes the edges of that column's cards.
    *G* is left as it was.
    """
    cdef int u = move_card(m), to = move_target(m), loops = G.loops, n
    cdef uint64_t V = G.V & ~bit(u), saved, a
    if G.adj[u] & bit(u):
        loops -= 1
    if to == TO_FOUNDATION:
        return s.left - 1 + loops + pack_cycles(G.adj, V)
    saved = G.adj[u]
    a = G.colreach[to]
    G.adj[u] = a
    if a & bit(u):
        loops += 1
    elif a:
        V |= bit(u)
    n = pack_cycles(G.adj, V)
    G.adj[u] = saved
    return s.left + loops + n


cdef int pack_cycles(const uint64_t* adj, uint64_t V) noexcept nogil:
    """Disjoint cycles among the cards *V* (no self-loops), found greedily.

    Two-card cycles first, as found; then the cards with no edge in or out
    among those left are dropped, to a fixed point; then from each card
    left a shortest cycle through it of up to max_cycle cards (breadth-first
    over bitboards).  Only adj[u] & V is read, for u in V.
    """
    cdef uint64_t level[16]
    cdef uint64_t a, todo, inset, seen, front, nxt, w
    cdef int i, u, v, k, d, n = 0
    # two-card cycles: u -> v -> u
    todo = V
    while todo:
        u = bd_ctz(todo)
        todo &= todo - 1
        a = adj[u] & V & todo
        while a:
            v = bd_ctz(a)
            a &= a - 1
            if adj[v] & bit(u):
                n += 1
                V &= ~(bit(u) | bit(v))
                todo &= ~bit(v)
                break
    if max_cycle < 3:
        return n
    # drop the cards with no edge in or out among V, to a fixed point
    while True:
        inset = 0
        todo = V
        while todo:
            u = bd_ctz(todo)
            todo &= todo - 1
            a = adj[u] & V
            if a:
                inset |= a
            else:
                V &= ~bit(u)
        if (V & inset) == V:
            break
        V &= inset
    # from each card, a shortest cycle through it, up to max_cycle cards
    todo = V
    while todo:
        u = bd_ctz(todo)
        todo &= todo - 1
        if not V & bit(u):
            continue
        front = adj[u] & V
        seen = front | bit(u)
        level[1] = front
        k = 0
        for d in range(2, max_cycle + 1):
            nxt = 0
            w = front
            while w:
                v = bd_ctz(w)
                w &= w - 1
                nxt |= adj[v]
            nxt &= V
            if nxt & bit(u):
                k = d
                break
            front = nxt & ~seen
            if not front:
                break
            seen |= front
            level[d] = front
        if k == 0:
            continue
        # walk back: a[k-1] in level[k-1] with u in adj, and so on down to level[1]
        n += 1
        V &= ~bit(u)
        v = u
        for d in range(k - 1, 0, -1):
            w = level[d] & V
            while w:
                i = bd_ctz(w)
                w &= w - 1
                if adj[i] & bit(v):
                    break
            V &= ~bit(i)
            v = i
    return n


cdef inline int lower_bound(const State* s) noexcept nogil:
    """Moves still needed to win, at least: cards not home plus disjoint blocking cycles."""
    return s.left + cycle_bound(s)


# ---------------------------------------------------------------------------
# The pruned generator
# ---------------------------------------------------------------------------

cdef inline int gen_shortest(const State* s, move_t* out, int* hs, int h, int last) noexcept nogil:
    """Moves some shortest winning line from *s* starts with, into *out*.

    Pruning (proofs in docs/engine.md, "Shortest lines"): a lost position
    (one card blocked, or a deadlocked set: :func:`is_lost`) gets no moves;
    a safe foundation move is played alone; a column's only card never
    moves to another column.  *hs* receives the lower bound of
    the position each move leads to, at least *h* - 1 (the bound *h* of
    *s* minus the move: still admissible), and the moves come sorted by it,
    smallest first.  *last* is the move that led here, -1 at the root.
    """
    cdef move_t moves[MAXMOVES]
    cdef int n, i, j, k = 0, c, d
    cdef move_t mv
    cdef Graph G
    if is_lost(s, last):
        return 0
    n = gen_legal(s, moves)
    build_graph(s, &G)
    for i in range(n):
        mv = moves[i]
        c = move_card(mv)
        if move_target(mv) == TO_FOUNDATION:
            if is_safe_home(s, c):
                d = child_bound(s, &G, mv)
                out[0] = mv
                hs[0] = d if d >= h - 1 else h - 1
                return 1
        elif s.height[s.where[c]] == 1:
            continue
        d = child_bound(s, &G, mv)
        if d < h - 1:
            d = h - 1
        # insertion by bound, stable
        j = k - 1
        while j >= 0 and hs[j] > d:
            out[j + 1] = out[j]
            hs[j + 1] = hs[j]
            j -= 1
        out[j + 1] = mv
        hs[j + 1] = d
        k += 1
    return k


# ---------------------------------------------------------------------------
# The table: smallest depth of each position in the current iteration
# ---------------------------------------------------------------------------

cdef struct DEntry:
    uint64_t key
    uint64_t check      # 0 = empty
    uint32_t iteration
    uint32_t depth

cdef enum:
    DBUCKET = 4


cdef struct Ctx:
    State s
    DEntry* table
    uint64_t nbuckets      # power of two
    uint32_t iteration
    int threshold
    int next_threshold
    move_t path[MAXDEPTH]
    uint64_t nodes
    uint64_t max_nodes
    double deadline
    double next_check
    PyObject* exc_type
    PyObject* exc_value
    PyObject* exc_tb


cdef inline bint seen_shallower(Ctx* C, int g) noexcept nogil:
    """Was this position reached at depth <= *g* in this iteration?  Else record *g*."""
    cdef uint64_t b = (C.s.key & (C.nbuckets - 1)) * DBUCKET
    cdef int i, victim = -1
    cdef uint32_t worst = 0
    cdef DEntry* e
    for i in range(DBUCKET):
        e = &C.table[b + i]
        if e.check == C.s.check and e.key == C.s.key:
            if e.iteration == C.iteration and e.depth <= <uint32_t>g:
                return True
            e.iteration = C.iteration
            e.depth = g
            return False
    for i in range(DBUCKET):
        e = &C.table[b + i]
        if e.check == 0 or e.iteration != C.iteration:
            victim = i
            break
        if e.depth >= worst:
            worst = e.depth
            victim = i
    e = &C.table[b + victim]
    e.key = C.s.key
    e.check = C.s.check
    e.iteration = C.iteration
    e.depth = g
    return False


cdef int ida(Ctx* C, int g, int h, int last) noexcept nogil:
    """Depth-first search below the threshold from the current position at depth *g*."""
    cdef move_t moves[MAXMOVES]
    cdef int hs[MAXMOVES]
    cdef int n, i, src, r, f
    cdef double t
    if C.s.left == 0:
        return R_FOUND
    if g >= MAXDEPTH - 1:
        return R_NONE
    if seen_shallower(C, g):
        return R_NONE
    n = gen_shortest(&C.s, moves, hs, h, last)
    for i in range(n):
        f = g + 1 + hs[i]
        if f > C.threshold:
            if f < C.next_threshold:
                C.next_threshold = f
            continue
        if C.max_nodes and C.nodes >= C.max_nodes:  # the budget is spent: no node more
            return R_NODE_LIMIT
        C.nodes += 1
        if (C.nodes & 1023) == 0:
            t = now_seconds()
            if C.deadline > 0 and t >= C.deadline:
                return R_TIME_LIMIT
            if t >= C.next_check:
                C.next_check = t + 0.05
                with gil:
                    if check_signals() != 0:
                        PyErr_Fetch(&C.exc_type, &C.exc_value, &C.exc_tb)
                        return R_INTERRUPTED
        src = make(&C.s, moves[i])
        C.path[g] = moves[i]
        r = ida(C, g + 1, hs[i], moves[i])
        unmake(&C.s, moves[i], src)
        if r != R_NONE:
            return r
    return R_NONE


cdef int _reraise() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1


cdef class ShortestSearch:
    """IDA* for a winning line with the fewest moves (docs/engine.md, "Shortest lines").

    Parameters
    ----------
    columns, foundations, ranks
        As for :class:`bakersdozen._position.Position`.
    memory_mb : float
        MiB (2**20 bytes) for the table of depths, in (0, 2**20].

    Raises
    ------
    ValueError
        For a position that is not one of the game, or *memory_mb* out of range.
    MemoryError
        If the table cannot be allocated.
    """

    cdef Ctx* C
    cdef bint ran

    def __cinit__(self, columns, foundations=(0, 0, 0, 0), int ranks=MAXRANK, *,
                  double memory_mb=64.0):
        cdef uint64_t buckets = 1
        self.C = <Ctx*>calloc(1, sizeof(Ctx))
        if self.C == NULL:
            raise MemoryError("cannot allocate the search state")
        state_from_python(&self.C.s, columns, foundations, ranks)
        if not 0 < memory_mb <= 1048576.0:
            raise ValueError(f"memory_mb must be in (0, 2**20] (MiB), not {memory_mb}")
        while buckets * 2 * DBUCKET * sizeof(DEntry) <= memory_mb * 1048576.0:
            buckets *= 2
        self.C.nbuckets = buckets
        self.C.table = <DEntry*>calloc(buckets * DBUCKET, sizeof(DEntry))
        if self.C.table == NULL:
            raise MemoryError(f"cannot allocate {memory_mb} MiB for the table")
        self.ran = False

    def __dealloc__(self):
        if self.C != NULL:
            free(self.C.table)
            Py_XDECREF(self.C.exc_type)
            Py_XDECREF(self.C.exc_value)
            Py_XDECREF(self.C.exc_tb)
            free(self.C)

    def lower_bound(self):
        """The admissible bound at the root: cards not home plus disjoint blocking cycles."""
        return lower_bound(&self.C.s)

    def run(self, *, double time_limit=0.0, unsigned long long max_nodes=0, int upper=0):
        """Search for a shortest winning line.  Runs once; releases the GIL.

        Parameters
        ----------
        time_limit : float
            Seconds of wall-clock time, 0 for none.
        max_nodes : int
            Positions generated, 0 for none.
        upper : int
            Length of a known winning line (0 for none): only shorter lines
            are looked for.  Without one, a position that cannot be won is
            reported UNSOLVABLE only after the threshold has passed the
            longest path of distinct positions, which may take many
            iterations: decide first (as ``solve`` does), then search.

        Returns
        -------
        tuple
            ``(status, moves, nodes, bound, iterations)``: *status* FOUND
            (*moves* a shortest line, ``(card, source, target)`` tuples),
            BOUND_MET (no line is shorter than *upper*), UNSOLVABLE,
            NODE_LIMIT or TIME_LIMIT; *bound* the proven lower bound on the
            length of any winning line (the length itself when FOUND or
            BOUND_MET).
        """
        cdef Ctx* C = self.C
        cdef int r = R_NONE, h, depth = 0, i
        cdef int iterations = 0, status
        cdef list out = []
        if self.ran:
            raise RuntimeError("a ShortestSearch runs once; make a new one")
        self.ran = True
        if upper < 0:
            raise ValueError(f"upper must be >= 0, not {upper}")
        C.max_nodes = max_nodes
        with nogil:
            C.next_check = now_seconds() + 0.05
            if time_limit > 0:
                C.deadline = now_seconds() + time_limit
            h = lower_bound(&C.s)
            C.threshold = h
            while upper == 0 or C.threshold < upper:
                iterations += 1
                C.iteration += 1
                C.next_threshold = INF
                r = ida(C, 0, h, -1)
                if r != R_NONE:
                    break
                C.threshold = C.next_threshold
                if C.threshold >= INF:
                    break
        if r == R_INTERRUPTED:
            PyErr_Restore(C.exc_type, C.exc_value, C.exc_tb)
            C.exc_type = C.exc_value = C.exc_tb = NULL
            _reraise()
        if r == R_FOUND:
            status = FOUND
            depth = C.threshold
            i = 0
            while C.s.left > 0 and i < MAXDEPTH:
                out.append(move_to_tuple(&C.s, C.path[i]))
                make(&C.s, C.path[i])
                i += 1
            depth = i
        elif r == R_NODE_LIMIT:
            status = NODE_LIMIT
            depth = C.threshold
        elif r == R_TIME_LIMIT:
            status = TIME_LIMIT
            depth = C.threshold
        elif C.threshold >= INF:
            status = UNSOLVABLE
            depth = 0
        else:
            status = BOUND_MET
            depth = upper
        return (status, out, C.nodes, depth, iterations)


def root_bound(columns, foundations, int ranks):
    """The admissible lower bound of a position, under Baker's Dozen's play.

    Cards not home plus the disjoint cycles of the blocking graph that a
    greedy packing finds (docs/engine.md, "The lower bound"): every winning
    line from the position has at least this many moves.  *columns* are
    lists of card indices, bottom first; *foundations* the four pile
    heights; ValueError for a position that is not one of the game.
    """
    cdef State s
    state_from_python(&s, columns, foundations, ranks)
    return lower_bound(&s)


def bound_parts(columns, foundations, int ranks):
    """The parts of the lower bound: ``(cards not home, stuck cards, disjoint cycles)``.

    The stuck cards are the self-loops of the blocking graph, so they are
    counted among the cycles too: the bound is the first part plus the
    third, and the previous bound was the first plus the second.
    """
    cdef State s
    state_from_python(&s, columns, foundations, ranks)
    return (s.left, stuck_cards(&s), cycle_bound(&s))


def _child_bounds(columns, foundations, int ranks):
    """For each legal move: ``(bound after it, computed from the parent's
    graph; bound after it, computed afresh)``; the two must agree (tests)."""
    cdef State s
    cdef Graph G
    cdef move_t moves[MAXMOVES]
    cdef int n, i, src, patched
    cdef list out = []
    state_from_python(&s, columns, foundations, ranks)
    n = gen_legal(&s, moves)
    build_graph(&s, &G)
    for i in range(n):
        patched = child_bound(&s, &G, moves[i])
        src = make(&s, moves[i])
        out.append((patched, lower_bound(&s)))
        unmake(&s, moves[i], src)
    return out


def _set_max_cycle(int n):
    """Set the longest cycle the packing looks for (2..15); for measurements."""
    global max_cycle
    if not 2 <= n <= 15:
        raise ValueError(f"max_cycle must be in 2..15, not {n}")
    max_cycle = n


# ---------------------------------------------------------------------------
# Windowed shortening of a winning line
# ---------------------------------------------------------------------------

cdef struct Window:
    State s
    uint64_t* keys        # 2 * (n + 1): key, check of each position of the line
    int* slot_of          # open-addressed hash: line index + 1, 0 = empty
    uint64_t hmask
    int n
    int from_index        # the start of the current window search
    int best_gain
    int best_j
    int best_len
    move_t path[16]
    move_t best[16]
    uint64_t nodes
    uint64_t budget


cdef inline int line_index(Window* W) noexcept nogil:
    """Latest index of the line whose position equals W.s, or -1."""
    cdef uint64_t p = W.s.key & W.hmask
    cdef int j
    while W.slot_of[p]:
        j = W.slot_of[p] - 1
        if W.keys[2 * j] == W.s.key and W.keys[2 * j + 1] == W.s.check:
            return j
        p = (p + 1) & W.hmask
    return -1


cdef void window_dfs(Window* W, int d, int depth, int last_card) noexcept nogil:
    """Every move sequence of up to *depth* moves from W.s, within the budget.

    Two kinds of move are skipped, as no shortest path between two
    positions needs them: a move of the card the previous move moved (the
    two moves are one move, or none) and a column's only card moving to
    another column (docs/engine.md, "Shortest lines").
    """
    cdef move_t moves[MAXMOVES]
    cdef int n, i, src, j, gain, c
    if d > 0:
        j = line_index(W)
        if j >= 0:
            gain = j - W.from_index - d
            if gain > W.best_gain:
                W.best_gain = gain
                W.best_j = j
                W.best_len = d
                for i in range(d):
                    W.best[i] = W.path[i]
    if d == depth:
        return
    n = gen_legal(&W.s, moves)
    for i in range(n):
        c = move_card(moves[i])
        if c == last_card:
            continue
        if move_target(moves[i]) != TO_FOUNDATION and W.s.height[W.s.where[c]] == 1:
            continue
        if W.nodes >= W.budget:
            return
        W.nodes += 1
        src = make(&W.s, moves[i])
        W.path[d] = moves[i]
        window_dfs(W, d + 1, depth, c)
        unmake(&W.s, moves[i], src)


def window_shorten(columns, foundations, int ranks, list moves, int width=3,
                   unsigned long long budget=2000):
    """Shorten a winning line with bounded searches between its positions.

    From each position p[i] of the line, a depth-first search of every
    legal move sequence up to *width* moves (at most *budget* positions
    per start) looks for a later position p[j] that it reaches in fewer
    than j - i moves; the best such shortcut replaces moves i..j-1, and the
    scan goes on from the same i.  *moves* are ``(card, source, target)``
    tuples; the result is a winning line of the same form, no longer.
    ValueError if *moves* does not win, or *width* is not in 1..15.
    """
    cdef State root, root_i
    cdef int n = len(moves), i, j, k, m
    cdef bint dirty
    cdef uint64_t p, size
    cdef Window* W
    cdef bytearray buffer = bytearray((n + 1) * sizeof(move_t))
    cdef move_t* line = <move_t*><char*>buffer
    cdef list out = []
    if not 1 <= width <= 15:
        raise ValueError(f"width must be in 1..15, not {width}")
    state_from_python(&root, columns, foundations, ranks)
    for i in range(n):
        card, source, target = moves[i]
        line[i] = make_move(card, TO_FOUNDATION if target < 0 else target)
    if not replay_wins(&root, line, n):
        raise ValueError("the line does not win")
    W = <Window*>calloc(1, sizeof(Window))
    size = 16
    while size < 2 * (<uint64_t>n + 1):
        size *= 2
    if W != NULL:
        W.keys = <uint64_t*>malloc((n + 1) * 2 * sizeof(uint64_t))
        W.slot_of = <int*>malloc(size * sizeof(int))
    if W == NULL or W.keys == NULL or W.slot_of == NULL:
        if W != NULL:
            free(W.keys); free(W.slot_of)
        free(W)
        raise MemoryError("cannot allocate the line's positions")
    W.hmask = size - 1
    W.budget = budget
    with nogil:
        i = 0
        dirty = True
        W.s = root
        while i < n:
            if dirty:
                # index the positions after p[i] (the latest index wins); W.s is p[i]
                root_i = W.s
                memset(W.slot_of, 0, size * sizeof(int))
                for k in range(i, n):
                    make(&W.s, line[k])
                    W.keys[2 * (k + 1)] = W.s.key
                    W.keys[2 * (k + 1) + 1] = W.s.check
                    p = W.s.key & W.hmask
                    while W.slot_of[p] and not (
                            W.keys[2 * (W.slot_of[p] - 1)] == W.s.key
                            and W.keys[2 * (W.slot_of[p] - 1) + 1] == W.s.check):
                        p = (p + 1) & W.hmask
                    W.slot_of[p] = k + 2
                W.s = root_i
                dirty = False
            W.from_index = i
            W.best_gain = 0
            W.nodes = 0
            if move_target(line[i]) != TO_FOUNDATION:
                window_dfs(W, 0, width, -1)
            if W.best_gain > 0:
                j = W.best_j
                m = W.best_len
                for k in range(m):
                    line[i + k] = W.best[k]
                for k in range(j, n):
                    line[i + m + k - j] = line[k]
                n -= j - i - m
                dirty = True
            else:
                make(&W.s, line[i])
                i += 1
    free(W.keys); free(W.slot_of); free(W)
    for i in range(n):
        out.append(move_to_tuple(&root, line[i]))
        make(&root, line[i])
    return out
