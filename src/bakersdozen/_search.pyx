# cython: language_level=3
"""The portfolio depth-first search, its proof phase, and line shortening (private).

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
    BOTTOM, EMPTY_NOTHING, MAXMOVES, MAXRANK, NCARDS, NO_MOVE, TO_FOUNDATION, State, card_rank,
    child_keys, gen_legal, gen_search, is_legal, make, make_move, move_card, move_target, move_t,
    move_to_tuple, need, noise_bits, resolve, sort_best_first, splitmix64, state_from_python,
    unmake,
)
from bakersdozen._table cimport (
    BUCKET, INDEX_MASK, ON_PATH, PROVEN, Entry, Table, table_bytes, table_find, table_free,
    table_grow, table_init, table_insert, table_prefetch,
)

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept
    PyObject* call_function "PyObject_CallFunction"(PyObject* callable, const char* format, ...) noexcept

# Seconds between two calls of a search's progress callable (at least).
cdef double PROGRESS_SECONDS = 0.2
PROGRESS_INTERVAL = PROGRESS_SECONDS

SOLVED = ST_SOLVED
UNSOLVABLE = ST_UNSOLVABLE
NODE_LIMIT = ST_NODE_LIMIT
TIME_LIMIT = ST_TIME_LIMIT
INTERRUPTED = ST_INTERRUPTED
OUT_OF_MEMORY = ST_OUT_OF_MEMORY


# The move orders (expand's *heur*): the two scorings of gen_search and the
# foundation-depth order.
cdef enum:
    ORDER_INVERSIONS = 1
    ORDER_SOON_NEEDED = 2
    ORDER_DEPTH = 3

# The memory budget's shares (DepthFirstSearch), and when the proof phase begins.
cdef double TABLE_SHARE = 0.75
cdef double TARJAN_SHARE = 0.125
PROOF_SHARE = 0.8
cdef uint64_t PROOF_NODES = 1 << 27

# Node quota of the first round of the foundation-depth stream (search_loop).
cdef uint64_t DEPTH_BASE = 1024
# Nodes stream A spends before stream B joins: most deals are decided by
# then (PySol deals 1-100: all but a few), and stay as fast as with stream A alone.
cdef uint64_t DEPTH_START = 1 << 18



cdef uint64_t search_bytes(const Search* S) noexcept nogil:
    """Memory the search holds now, bytes: the table and every array."""
    return (table_bytes(&S.t) + S.frames_cap * sizeof(Frame) + S.moves_cap * sizeof(move_t)
            + S.tarjan_cap * sizeof(KeyPair) + S.over_cap * sizeof(TarjanRecord))


cdef bint grow_capped(Search* S, void** array, uint64_t* capacity, uint64_t need,
                      size_t item, uint64_t limit) noexcept nogil:
    """:func:`grow`, but keeping the whole search within *limit* bytes.

    The capacity doubles while that fits; otherwise it grows to what fits,
    at least *need*.  False when even *need* does not fit (or memory ran
    out); the array is then unchanged.
    """
    cdef uint64_t cap = capacity[0], held, room, most
    cdef void* p
    if need <= cap:
        return True
    held = search_bytes(S)
    if held > limit:
        return False
    room = limit - held          # bytes this array may add
    most = cap + room // item    # the largest capacity within the limit
    if most < need:
        return False
    while cap < need:
        cap *= 2
    if cap > most:
        cap = most
    p = realloc(array[0], cap * item)
    if p == NULL:
        return False
    array[0] = p
    capacity[0] = cap
    return True


cdef inline bint grow_frames(Search* S, uint64_t need) noexcept nogil:
    if need > <uint64_t>S.max_depth:
        S.max_depth = <int>need
    return grow_capped(S, <void**>&S.frames, &S.frames_cap, need, sizeof(Frame), S.mem_budget)


cdef inline bint grow_moves(Search* S, uint64_t need) noexcept nogil:
    return grow_capped(S, <void**>&S.moves, &S.moves_cap, need, sizeof(move_t), S.mem_budget)


cdef inline Entry* frame_entry(Search* S, Frame* f) noexcept nogil:
    """The TT entry of the node of frame *f*, or NULL if it was evicted.

    The current position must be the node of *f* (frames keep no keys).
    """
    cdef int64_t slot = f.slot
    cdef Entry* e
    if slot >= 0:
        e = &S.t.entries[slot]
        if e.check == S.s.check and (e.info & INDEX_MASK) == f.index:
            return e
    slot = table_find(&S.t, S.s.key, S.s.check)
    if slot < 0:
        return NULL
    e = &S.t.entries[slot]
    if (e.info & INDEX_MASK) != f.index:
        return NULL
    f.slot = slot
    return e


cdef inline void tarjan_push(Search* S, uint64_t key, uint64_t check) noexcept nogil:
    """Record a new node on the Tarjan stack (nodes of open components).

    The stack may hold only its share of the memory budget (the rest is
    kept for the search path): a node that finds no room is not recorded,
    and simply never becomes "proven" (sound: proofs only save work).
    """
    cdef uint64_t limit
    if S.tarjan_len >= S.tarjan_cap:
        limit = search_bytes(S) - S.tarjan_cap * sizeof(KeyPair) + S.aux_max
        if limit > S.mem_budget:
            limit = S.mem_budget
        if not grow_capped(S, <void**>&S.tarjan, &S.tarjan_cap, S.tarjan_len + 1,
                           sizeof(KeyPair), limit):
            return
    S.tarjan[S.tarjan_len].key = key
    S.tarjan[S.tarjan_len].check = check
    S.tarjan_len += 1


cdef inline void tarjan_close(Search* S, uint64_t root_index, uint64_t tpos) noexcept nogil:
    """The component rooted at the node of DFS index *root_index* is complete: mark it proven.

    The records from *tpos* (the stack length when the root was entered) up
    are nodes discovered after the root, hence in its DFS subtree, and all
    of them are finished: those of components already closed are proven,
    the others belong to the root's component.  A record's entry is marked
    if it is still in the table with an index at or after the root's (an
    entry evicted and entered again later is still of the subtree); a
    record whose entry has gone is just dropped.
    """
    cdef Entry* e
    cdef KeyPair* r
    cdef int64_t slot
    cdef uint64_t popped = 0
    while S.tarjan_len > tpos:
        r = &S.tarjan[S.tarjan_len - 1]
        popped += 1
        if (popped & 0xFFFF) == 0 and S.deadline > 0 and now_seconds() >= S.deadline:
            S.timed_out = 1       # a huge component: stop marking, the search ends
            return
        slot = table_find(&S.t, r.key, r.check)
        if slot >= 0:
            e = &S.t.entries[slot]
            if (e.info & INDEX_MASK) >= root_index and not (e.info & ON_PATH):
                e.info |= PROVEN
        S.tarjan_len -= 1


cdef inline int needed_depth(const State* s, int col) noexcept nogil:
    """Cards above the topmost card of column *col* that its foundation takes next (64: none)."""
    cdef int h = s.height[col], i
    for i in range(h - 1, -1, -1):
        if need(s, s.cols[col][i]) == 1:
            return h - 1 - i
    return 64


cdef int order_by_depth(const State* s, move_t* out, int n, uint64_t noise) noexcept nogil:
    """Re-order the moves :func:`gen_search` gave: the foundation-depth order.

    Foundation moves first (lower ranks first), cards brought back from a
    foundation last; then moves off the column
    whose card needed next on a foundation lies shallowest (fewest cards
    above it), less 8 for each card by which the target column's own such
    card lies less than 63 deep (burying a needed card that is near the top
    costs most).  *noise* != 0 adds a seeded
    tie-break of 0..31, which can swap moves whose depths differ by one
    card.  The moves themselves are not changed, only their order.
    """
    cdef int score[MAXMOVES]
    cdef int i, c, to, sc, d
    for i in range(n):
        c = move_card(out[i])
        to = move_target(out[i])
        if to == TO_FOUNDATION:
            score[i] = 100000 + (MAXRANK + 1 - card_rank(c))
            continue
        if s.where[c] >= s.ncols:       # a card coming back from its foundation: last
            score[i] = -100000
            continue
        d = needed_depth(s, to)
        sc = 64 * (64 - needed_depth(s, s.where[c])) - 8 * (63 - (d if d < 63 else 63))
        if noise:
            sc += noise_bits(noise, out[i], s.key, 127)
        score[i] = sc
    sort_best_first(out, score, n)
    return n


cdef int expand(Search* S, int sp, uint64_t noise, int heur) noexcept nogil:
    """Generate the moves of the node at stack level *sp*. 0 ok, -1 out of memory.

    *heur* 1 and 2 are the scorings of :func:`gen_search`; ORDER_DEPTH is
    the foundation-depth order (:func:`order_by_depth`) over the same
    moves.  The table buckets of the children are prefetched: their keys
    follow from the parent's by two or three XORs, and the lookups that
    come later then find their cache lines loaded.
    """
    cdef Frame* f = &S.frames[sp]
    cdef uint32_t i
    cdef uint64_t key, check
    if not grow_moves(S, f.first + MAXMOVES):
        return -1
    if heur == ORDER_DEPTH:
        f.count = gen_search(&S.s, S.moves + f.first, 0, 1, f.played if sp > 0 else -1)
        if f.count > 1:
            order_by_depth(&S.s, S.moves + f.first, f.count, noise)
    else:
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
    known.  The table grows (while its budget allows) when three quarters
    of its slots are used, or when it has refused a quarter of its slots'
    worth of positions since it last grew: a path that pins most of a small
    table leaves its remaining slots empty, while the positions it cannot
    store, forgotten as soon as they are left, are searched again and
    again (deal 55656 in the proof phase stayed at 192 to 288 KB of table
    at every budget tried from 1,000 to 9,000 MiB).
    0 on success, -1 if memory ran out.
    """
    cdef Frame* f = &S.frames[sp]
    cdef int i
    if S.next_index >= INDEX_MASK:
        return -2               # 2**40 positions entered: the index field is full
    if (S.t.used * 4 > S.t.nbuckets * BUCKET * 3 or S.t.pinned * 4 > S.t.nbuckets * BUCKET) \
            and S.t.nbuckets < S.t.max_buckets \
            and search_bytes(S) + table_bytes(&S.t) <= S.mem_budget \
            and not (S.deadline > 0 and S.t.nbuckets >= 65536 and now_seconds() >= S.deadline):
        if table_grow(&S.t) == 0:
            for i in range(sp):
                S.frames[i].slot = -1     # slots moved; frame_entry finds them again
    f.index = S.next_index
    S.next_index += 1
    f.low = f.index
    f.tpos = S.tarjan_len
    f.slot = table_insert(&S.t, S.s.key, S.s.check, f.index | ON_PATH)
    if f.slot < 0 and over_insert(S, S.s.key, S.s.check, f.index) < 0:
        return -1
    tarjan_push(S, S.s.key, S.s.check)
    return 0


cdef inline void leave(Search* S, Frame* f) noexcept nogil:
    """Take the node of frame *f* off the search path (its entry stays)."""
    cdef Entry* e = frame_entry(S, f)
    if e != NULL:
        e.info &= ~ON_PATH
    elif S.over_len > 0:
        over_remove(S, S.s.key, S.s.check, f.index)


# The side set of path nodes.  Such a node arises only when every entry of
# its bucket is on the search path: rare, but long paths in a table at its
# budget do meet it.  Linear probing with backward-shift deletion (no
# tombstones, so a lookup never walks over deleted records); index 0 marks
# an empty slot.

cdef int over_rebuild(Search* S, uint64_t cap) noexcept nogil:
    """Re-insert the live records into *cap* fresh slots. 0 ok, -1 no memory."""
    cdef TarjanRecord* old = S.over
    cdef uint64_t old_cap = S.over_cap, i, j
    cdef TarjanRecord* fresh
    if search_bytes(S) + cap * sizeof(TarjanRecord) > S.mem_budget:
        return -1
    fresh = <TarjanRecord*>calloc(cap, sizeof(TarjanRecord))
    if fresh == NULL:
        return -1
    for i in range(old_cap):
        if old[i].index != 0:
            j = old[i].check & (cap - 1)
            while fresh[j].index != 0:
                j = (j + 1) & (cap - 1)
            fresh[j] = old[i]
    free(old)
    S.over = fresh
    S.over_cap = cap
    return 0


cdef int over_insert(Search* S, uint64_t key, uint64_t check, uint64_t index) noexcept nogil:
    """Add a path node to the side set. 0 ok, -1 if memory ran out."""
    cdef uint64_t j
    if (S.over_len + 1) * 2 > S.over_cap:
        if over_rebuild(S, S.over_cap * 2) < 0:
            return -1
    j = check & (S.over_cap - 1)
    while S.over[j].index != 0:
        j = (j + 1) & (S.over_cap - 1)
    S.over[j].key = key
    S.over[j].check = check
    S.over[j].index = index
    S.over_len += 1
    return 0


cdef inline int64_t over_find(const Search* S, uint64_t key, uint64_t check) noexcept nogil:
    """Slot of the side set's record of the position, or -1."""
    cdef uint64_t j = check & (S.over_cap - 1)
    while S.over[j].index != 0:
        if S.over[j].check == check and S.over[j].key == key:
            return <int64_t>j
        j = (j + 1) & (S.over_cap - 1)
    return -1


cdef inline void over_remove(Search* S, uint64_t key, uint64_t check, uint64_t index) noexcept nogil:
    """Take a path node out of the side set (if it is there), shifting its probe run back."""
    cdef int64_t found = over_find(S, key, check)
    cdef uint64_t i, k, home, mask = S.over_cap - 1
    if found < 0 or S.over[found].index != index:
        return
    i = <uint64_t>found
    S.over_len -= 1
    while True:
        S.over[i].index = 0
        k = i
        while True:
            k = (k + 1) & mask
            if S.over[k].index == 0:
                return
            home = S.over[k].check & mask
            # the record at k may stay unless its home lies cyclically in (i, k]
            if (home <= i or home > k) if i <= k else (home <= i and home > k):
                break
        S.over[i] = S.over[k]
        i = k


cdef inline void over_clear(Search* S) noexcept nogil:
    memset(S.over, 0, S.over_cap * sizeof(TarjanRecord))
    S.over_len = 0


cdef inline int out_of_memory(const Search* S) noexcept nogil:
    """What a round that ran out of memory below the root returns.

    A portfolio round just ends, as if its quota were spent (-1: the next
    round, in another order, may need a shorter path); the proof phase
    stops the search with ST_OUT_OF_MEMORY.
    """
    return ST_OUT_OF_MEMORY if S.proof else -1


cdef int run_round(Search* S, uint64_t budget, uint64_t noise, int heur) noexcept nogil:
    """One complete depth-first search from the root with a node quota.

    Returns ST_SOLVED (frames 1..S.depth-1 hold the winning line),
    ST_UNSOLVABLE (the search finished: every reachable position was
    explored), -1 when the round's quota, its memory (a portfolio round:
    :func:`out_of_memory`) or the portfolio's share of the time is spent,
    or the limit that stopped it.  A position is skipped only if it is proven dead, or
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
    if S.over_len:
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
                if not S.proof and S.proof_time > 0 and t >= S.proof_time:
                    return -1      # the portfolio's share of the time is spent
                if t >= S.next_signal_check:
                    S.next_signal_check = t + 0.05
                    with gil:
                        if check_signals() != 0:
                            # keep the exception (KeyboardInterrupt) for
                            # DepthFirstSearch.run() to raise: this function cannot
                            PyErr_Fetch(&S.exc_type, &S.exc_value, &S.exc_tb)
                            return ST_INTERRUPTED
                        if S.progress != NULL and t >= S.next_progress:
                            S.next_progress = t + PROGRESS_SECONDS
                            if report_progress(S) != 0:
                                return ST_INTERRUPTED
            S.nodes += 1
            src = make(&S.s, m)
            if S.s.left == 0:
                if not grow_frames(S, sp + 2):
                    unmake(&S.s, m, src)
                    return out_of_memory(S)
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
                return out_of_memory(S)
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
                return out_of_memory(S)
        else:
            # every move of this node explored: dead, given its component
            leave(S, f)
            if f.low == f.index:
                tarjan_close(S, f.index, f.tpos)
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


cdef int report_progress(Search* S) noexcept:
    """Call ``S.progress(nodes, bytes)`` (the GIL held); -1 with ``S.exc_*``
    set if it raised (DepthFirstSearch.run() raises it, as an interrupt)."""
    cdef PyObject* result = call_function(
        S.progress, "KK", <unsigned long long>S.nodes, <unsigned long long>search_bytes(S)
    )
    if result == NULL:
        PyErr_Fetch(&S.exc_type, &S.exc_value, &S.exc_tb)
        return -1
    Py_XDECREF(result)
    return 0


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
    if S.over_len:
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
    """The portfolio of move orders, then the proof phase.

    Portfolio: two interleaved streams of restart rounds.  Stream A is the
    restart schedule of the two scorings: its round k (k = 1, 2, ...) has a
    quota of base_budget * luby(k) * growth**k nodes (growth 1 by default),
    the inversion score in odd rounds and the soon-needed-cards score in
    even ones, *seed* as the tie-break of round 1 (0: none) and a seeded
    noise after.  Stream B
    runs the foundation-depth order with quotas of DEPTH_BASE * luby(k) *
    growth**k and the same noise rule; once stream A has spent DEPTH_START
    nodes, it runs whenever it has spent less than half of what stream A
    has, so it gets a third of the nodes.  All
    rounds share the transposition table and what earlier rounds proved
    dead, so each starts where the others left off, and neither stream can
    spend more than its share.  A round that finishes within its quota
    decides the deal (a win, or every position reachable under the pruning
    rules explored).

    Proof phase: once S.proof_nodes nodes are spent or S.proof_time is
    reached without a decision, one last round without a quota, in the
    foundation-depth order, runs until it decides or a limit stops it.
    """
    cdef uint64_t k = 0, ka = 0, kb = 0, kk, budget, noise, base, before
    cdef uint64_t spent_a = 0, spent_b = 0
    cdef double scale_a = 1.0, scale_b = 1.0
    cdef int st, heur
    cdef bint stream_b
    cdef uint64_t x
    cdef double quota
    while True:
        k += 1
        S.rounds = k
        if (S.proof_nodes and S.nodes >= S.proof_nodes) \
                or (S.proof_time > 0 and now_seconds() >= S.proof_time):
            S.proof = 1
            return run_round(S, 0xFFFFFFFFFFFFFFFFULL, seed, ORDER_DEPTH)
        stream_b = spent_a >= DEPTH_START and spent_b * 2 < spent_a
        if stream_b:
            kb += 1
            kk = kb
            if scale_b < 1e12:
                scale_b *= growth
            quota = DEPTH_BASE * luby(kb) * scale_b
            heur = ORDER_DEPTH
        else:
            ka += 1
            kk = ka
            if scale_a < 1e12:
                scale_a *= growth
            quota = base_budget * luby(ka) * scale_a
            heur = ORDER_INVERSIONS if ka % 2 == 1 else ORDER_SOON_NEEDED
        if kk == 1:
            noise = seed
        else:
            x = seed ^ (kk * 0xD1B54A32D192ED03ULL) ^ (0x5851F42D4C957F2DULL if stream_b else 0)
            noise = splitmix64(&x) | 1
        budget = <uint64_t>quota if quota < 4e18 else <uint64_t>4e18
        if S.proof_nodes and budget > S.proof_nodes - S.nodes:
            budget = S.proof_nodes - S.nodes
        if budget < 1:
            budget = 1
        before = S.nodes
        st = run_round(S, budget, noise, heur)
        if stream_b:
            spent_b += S.nodes - before
        else:
            spent_a += S.nodes - before
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
    """The portfolio depth-first search of one position, with its proof phase (docs/engine.md).

    Parameters
    ----------
    columns, foundations, ranks, play
        As for :class:`bakersdozen._position.Position` (*play* None: Baker's
        Dozen's play).
    memory_mb : float
        MiB (2**20 bytes) for the whole search, in (0, 2**20]: the
        transposition table takes up to three quarters (TABLE_SHARE), the
        Tarjan stack up to an eighth (TARJAN_SHARE), the search path and
        its move lists the rest.  A path that needs more than the budget
        ends the search with OUT_OF_MEMORY.  (Below 1 MiB, which
        :func:`bakersdozen.solve` refuses, the arrays get 256 KiB beyond
        the table's share, so that tests can search with tiny tables.)

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
        # below 1 MiB (tests' tiny tables) the arrays get 256 KiB beyond the table's share
        self.S.mem_budget = bytes if bytes >= 1048576 else <uint64_t>(bytes * TABLE_SHARE) + 262144
        self.S.aux_max = <uint64_t>(bytes * TARJAN_SHARE)
        self.S.frames_cap = 64
        self.S.moves_cap = 64 * MAXMOVES
        self.S.tarjan_cap = 256
        self.S.over_cap = 64
        self.S.next_index = 1
        self.S.frames = <Frame*>malloc(self.S.frames_cap * sizeof(Frame))
        self.S.moves = <move_t*>malloc(self.S.moves_cap * sizeof(move_t))
        self.S.tarjan = <KeyPair*>malloc(self.S.tarjan_cap * sizeof(KeyPair))
        self.S.over = <TarjanRecord*>calloc(self.S.over_cap, sizeof(TarjanRecord))
        if self.S.frames == NULL or self.S.moves == NULL or self.S.tarjan == NULL \
                or self.S.over == NULL or table_init(&self.S.t, <uint64_t>(bytes * TABLE_SHARE)) != 0:
            raise MemoryError(f"cannot allocate the first arrays and table of the search (memory_mb={memory_mb})")

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
            double growth=1.0, double proof_share=PROOF_SHARE, progress=None):
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
            (growth in [1, 16]; 1, the default, is the plain Luby schedule:
            docs/engine.md says why).
        proof_share : float
            Share of the budget (of *max_nodes*, else of *time_limit*) the
            portfolio of restart rounds may spend before the proof phase
            (one round without a quota) takes the rest, in [0, 1]; with
            neither limit, the proof phase begins after PROOF_NODES
            nodes.  0 starts with the proof phase.
        progress : callable or None
            Called as ``progress(nodes, bytes)`` (positions generated so
            far, bytes the search holds) at most every PROGRESS_INTERVAL
            seconds, when the search looks for signals (every 50 ms, at a
            multiple of 1024 nodes): it costs nothing on the search's path
            otherwise.  What it raises, the search raises.

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
            (or whatever a signal handler raised) when a signal arrives;
            whatever *progress* raised.
        RuntimeError
            If this search has already run.
        TypeError
            If *progress* is neither None nor callable.
        """
        cdef Search* S = &self.S
        cdef int st, sp
        cdef double start
        cdef list out = []
        if self.ran:
            raise RuntimeError("a DepthFirstSearch runs once; make a new one")
        if not growth >= 1.0 or growth > 16.0:
            raise ValueError(f"growth must be in [1, 16], not {growth}")
        if not 0.0 <= proof_share <= 1.0:
            raise ValueError(f"proof_share must be in [0, 1], not {proof_share}")
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, not {progress!r}")
        self.ran = True
        self.progress_ref = progress
        S.progress = NULL if progress is None else <PyObject*>progress
        S.max_nodes = max_nodes
        if max_nodes:
            S.proof_nodes = <uint64_t>(max_nodes * proof_share)
        elif time_limit <= 0:
            S.proof_nodes = <uint64_t>(PROOF_NODES * proof_share)
        if proof_share == 0.0:
            S.proof_nodes = 0
            S.proof = 1
        with nogil:
            start = now_seconds()
            if time_limit > 0:
                S.deadline = start + time_limit
                if not max_nodes and proof_share < 1.0:
                    S.proof_time = start + time_limit * proof_share
            S.next_signal_check = start + 0.02
            S.next_progress = start + PROGRESS_SECONDS
            if S.proof:
                S.rounds = 1
                st = run_round(S, 0xFFFFFFFFFFFFFFFFULL, seed, ORDER_DEPTH)
            else:
                st = search_loop(S, seed, base_budget, growth)
        S.progress = NULL
        self.progress_ref = None
        if st == ST_INTERRUPTED:
            # the exception (KeyboardInterrupt) that a signal handler or progress raised
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

    @property
    def stats(self):
        """What the search used: a dict of ``proof`` (the proof phase ran),
        ``max_depth`` (deepest path, frames), ``bytes`` (memory held at
        the end: table and arrays), ``table_bytes`` and ``budget`` (bytes)."""
        return {"proof": bool(self.S.proof), "max_depth": self.S.max_depth,
                "bytes": search_bytes(&self.S), "table_bytes": table_bytes(&self.S.t),
                "budget": self.S.mem_budget}
