# cython: language_level=3
"""The restart depth-first search and line shortening (private).

Only :mod:`bakersdozen.solver` (and the tests and benchmarks) import this
module.  :class:`DepthFirstSearch` owns the C state of one search
(``Search`` in ``_search.pxd``): it allocates it in ``__cinit__`` and frees
it in ``__dealloc__``.  Everything on the hot path is ``nogil`` C over
preallocated arrays; the search keeps its own explicit stack, so no line of
play, however long, can overflow the C stack.  The C code reports its
outcome as a status code (``ST_*``); :meth:`DepthFirstSearch.run` is the
one place that turns a status into a Python exception (an interrupt), and
:mod:`bakersdozen.solver` turns the others into verdicts.  docs/engine.md
describes the search, its rounds and its pruning.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject, Py_XDECREF
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from bakersdozen._position cimport (
    BOTTOM, EMPTY_NOTHING, MAXMOVES, MAXRANK, NCARDS, NO_MOVE, TO_FOUNDATION, State, child_keys, gen_legal,
    gen_search, is_legal, make, make_move, move_card, move_target, move_t, move_to_tuple,
    resolve, splitmix64, state_from_python, unmake,
)
from bakersdozen._table cimport (
    BUCKET, INDEX_MASK, ON_PATH, PROVEN, Entry, Table, table_find, table_free, table_grow,
    table_init, table_insert, table_prefetch,
)

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept

SOLVED = ST_SOLVED
UNSOLVABLE = ST_UNSOLVABLE
NODE_LIMIT = ST_NODE_LIMIT
TIME_LIMIT = ST_TIME_LIMIT
INTERRUPTED = ST_INTERRUPTED
OUT_OF_MEMORY = ST_OUT_OF_MEMORY


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
    cdef uint64_t key, check
    if not grow_moves(S, f.first + MAXMOVES):
        return -1
    f.count = gen_search(&S.s, S.moves + f.first, noise, heur, f.played if sp > 0 else -1)
    f.next = 0
    for i in range(f.count):
        child_keys(&S.s, S.moves[f.first + i], &key, &check)
        table_prefetch(&S.t, key, check)
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
                            # DepthFirstSearch.run() to raise: this function cannot
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

cdef bint replay_wins(const State* root, const move_t* line, int n) noexcept nogil:
    """Does *line* replay legally from *root* to a win?

    Each move is taken by its card and target (:func:`resolve`), so a line
    whose unit sizes or foundation piles were recorded elsewhere (a merged
    line) still replays; :func:`canonical` rewrites them.
    """
    cdef State s = root[0]
    cdef int i
    cdef move_t m
    for i in range(n):
        if s.play.plain:        # a move is its card and target: nothing to resolve
            if not is_legal(&s, line[i]):
                return False
            m = line[i]
        else:
            m = resolve(&s, line[i])
            if m == NO_MOVE:
                return False
        make(&s, m)
    return s.left == 0


cdef bint canonical(const State* root, move_t* line, int n) noexcept nogil:
    """Rewrite *line* in place as the exact moves it plays from *root*; False if one is illegal."""
    cdef State s = root[0]
    cdef int i
    cdef move_t m
    for i in range(n):
        m = resolve(&s, line[i])
        if m == NO_MOVE:
            return False
        line[i] = m
        make(&s, m)
    return True


cdef uint64_t column_order(const State* s) noexcept nogil:
    """A hash of each column's bottom card by column number.

    With equal keys (the same columns, in some order), equal hashes mean the
    same order: a non-empty column is told apart by its bottom card.
    """
    cdef uint64_t h = 0, x
    cdef int col
    for col in range(s.ncols):
        x = (<uint64_t>col << 8) | (s.cols[col][0] if s.height[col] > 0 else BOTTOM)
        h ^= splitmix64(&x)
    return h


cdef int shortcut(const State* root, move_t* line, int n) noexcept nogil:
    """Shortest line through the positions of *line* with one-move shortcuts.

    Position p[i] (after i moves) links to every later p[j] that one legal
    move reaches (p[i+1] among them); the shortest chain of links from p[0]
    to p[n] replaces *line* in place.  Returns the new length, or -1 if out
    of memory.  Positions are matched exactly, column order included (the
    Zobrist key ignores column order, and where empty columns are filled a
    position can come back with its columns exchanged; where they take
    nothing, a non-empty column keeps its bottom card, so equal keys mean
    the same order and the order is not looked at).
    """
    cdef State s = root[0]
    cdef uint64_t* keys = <uint64_t*>malloc((n + 1) * 3 * sizeof(uint64_t))
    cdef int* dist = <int*>malloc((n + 1) * sizeof(int))
    cdef int* prev = <int*>malloc((n + 1) * sizeof(int))
    cdef move_t* via = <move_t*>malloc((n + 1) * sizeof(move_t))
    cdef move_t moves[MAXMOVES]
    cdef int i, j, k, cnt, src, length
    cdef bint ordered = root.play.empty != EMPTY_NOTHING
    if keys == NULL or dist == NULL or prev == NULL or via == NULL:
        free(keys); free(dist); free(prev); free(via)
        return -1
    for i in range(n + 1):
        keys[3 * i] = s.key
        keys[3 * i + 1] = s.check
        keys[3 * i + 2] = column_order(&s) if ordered else 0
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
                if keys[3 * j] == s.key and keys[3 * j + 1] == s.check \
                        and (not ordered or keys[3 * j + 2] == column_order(&s)):
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
            if not root.play.plain:
                canonical(root, cand, m)
            memcpy(line, cand, m * sizeof(move_t))
            n = m
        else:
            i += 1
    free(cand); free(src)
    return n


def shorten(columns, foundations, int ranks, play, list moves):
    """Remove pointless moves from a winning line (see solver.simplify).

    *columns*, *foundations*, *ranks*, *play*: as for
    :class:`bakersdozen._position.Position`.  *moves* are ``(card, source,
    target)`` tuples as :meth:`DepthFirstSearch.run` returns them; the
    result is a winning line of the same form, no longer.  ValueError if
    *moves* does not win.
    """
    cdef State root
    cdef int n = len(moves), i, before
    cdef bytearray buffer = bytearray((n + 1) * sizeof(move_t))   # owns the line's memory
    cdef move_t* line = <move_t*><char*>buffer
    cdef list out = []
    state_from_python(&root, columns, foundations, ranks, play)
    for i in range(n):
        card, source, target = moves[i]
        line[i] = make_move(card, TO_FOUNDATION if target < 0 else target)
    if not replay_wins(&root, line, n):
        raise ValueError("the line does not win")
    canonical(&root, line, n)
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


cdef int _reraise() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1


cdef class DepthFirstSearch:
    """The restart depth-first search of one position (docs/engine.md).

    Parameters
    ----------
    columns, foundations, ranks, play
        As for :class:`bakersdozen._position.Position` (*play* None: Baker's
        Dozen's play).
    memory_mb : float
        Megabytes (2**20 bytes) for the transposition table, in (0, 2**20].

    Raises
    ------
    ValueError
        For a position that is not one of the game, or *memory_mb* out of range.
    MemoryError
        If the table's first allocation fails.
    """

    def __cinit__(self, columns, foundations=(0, 0, 0, 0), int ranks=MAXRANK, play=None, *,
                  double memory_mb=512.0):
        cdef uint64_t bytes
        memset(&self.S, 0, sizeof(Search))
        self.ran = False
        state_from_python(&self.S.s, columns, foundations, ranks, play)
        if not 0 < memory_mb <= 1048576.0:          # also refuses NaN
            raise ValueError(f"memory_mb must be in (0, 2**20] (MiB), not {memory_mb}")
        bytes = <uint64_t>(memory_mb * 1048576.0)
        if bytes < 4096:
            bytes = 4096
        self.S.frames_cap = 1024
        self.S.moves_cap = 1024 * 128         # grows on demand (grow_moves)
        self.S.tarjan_cap = 4096
        self.S.over_cap = 64
        self.S.next_index = 1
        self.S.frames = <Frame*>malloc(self.S.frames_cap * sizeof(Frame))
        self.S.moves = <move_t*>malloc(self.S.moves_cap * sizeof(move_t))
        self.S.tarjan = <TarjanRecord*>malloc(self.S.tarjan_cap * sizeof(TarjanRecord))
        self.S.over = <TarjanRecord*>calloc(self.S.over_cap, sizeof(TarjanRecord))
        if self.S.frames == NULL or self.S.moves == NULL or self.S.tarjan == NULL \
                or self.S.over == NULL or table_init(&self.S.t, bytes) != 0:
            raise MemoryError(f"cannot allocate {memory_mb} MB for the transposition table")

    def __dealloc__(self):
        free(self.S.frames)
        free(self.S.moves)
        free(self.S.tarjan)
        free(self.S.over)
        table_free(&self.S.t)
        Py_XDECREF(self.S.exc_type)
        Py_XDECREF(self.S.exc_value)
        Py_XDECREF(self.S.exc_tb)

    def run(self, *, double time_limit=0.0, unsigned long long max_nodes=0,
            unsigned long long seed=0, unsigned long long base_budget=256,
            double growth=1.05):
        """Decide the position.  Releases the GIL while it searches; runs once.

        Parameters
        ----------
        time_limit : float
            Seconds of wall-clock time, 0 for none.
        max_nodes : int
            Positions generated (moves made by the search), 0 for none.
        seed : int
            0 for the default move order; other values perturb tie-breaks.
        base_budget, growth : int, float
            Node quota of the first restart round and its growth per round
            (growth in [1, 16]).

        Returns
        -------
        tuple
            ``(status, moves, nodes, rounds, table_entries)``: *status* one
            of SOLVED, UNSOLVABLE, NODE_LIMIT, TIME_LIMIT, OUT_OF_MEMORY;
            *moves* the winning line as ``(card, source, target)`` tuples
            when SOLVED, else ``[]``.

        Raises
        ------
        KeyboardInterrupt
            (or whatever a signal handler raised) when a signal arrives.
        RuntimeError
            If this search has already run.
        """
        cdef Search* S = &self.S
        cdef int st, sp
        cdef double start
        cdef list out = []
        if self.ran:
            raise RuntimeError("a DepthFirstSearch runs once; make a new one")
        if not growth >= 1.0 or growth > 16.0:
            raise ValueError(f"growth must be in [1, 16], not {growth}")
        self.ran = True
        S.max_nodes = max_nodes
        with nogil:
            start = now_seconds()
            if time_limit > 0:
                S.deadline = start + time_limit
            S.next_signal_check = start + 0.02
            st = search_loop(S, seed, base_budget, growth)
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
