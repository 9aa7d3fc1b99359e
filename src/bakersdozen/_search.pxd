# cython: language_level=3
"""Searches of the compiled engine (private): the portfolio depth-first search.

A search plays moves with ``_position`` (make/unmake, the generators, all
inline) and remembers positions in ``_table``; a new search method is a new
``cdef class`` beside :class:`DepthFirstSearch` (in this module, or in a
module that ``cimport``s these three ``.pxd`` files), picked by name in
``bakersdozen.solver``.  docs/engine.md describes the search.
"""

from cpython.ref cimport PyObject
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from bakersdozen._position cimport State, move_t
from bakersdozen._table cimport Table

# The outcome of a search, as its C code reports it (the Python constants
# SOLVED ... OUT_OF_MEMORY of this module have the same values).
cdef enum Status:
    ST_SOLVED = 0          # a winning line was found
    ST_UNSOLVABLE = 1      # every reachable position was explored: no line wins
    ST_NODE_LIMIT = 2      # the max_nodes budget was spent (or 2**40 nodes entered)
    ST_TIME_LIMIT = 3      # the deadline passed
    ST_INTERRUPTED = 4     # a signal handler raised (Ctrl-C); Search.exc_* holds the exception
    ST_OUT_OF_MEMORY = 5   # an allocation failed

# One level of the explicit search stack (frames[0] is the root), 48 bytes:
# a deep search path (hundreds of thousands of frames) must fit the budget.
# The node's keys are not kept: whenever a frame's node is looked up (when
# it is left, or unwound), the current position is that node.
cdef struct Frame:
    uint64_t index    # DFS discovery index (Tarjan), >= 1, unique over all rounds
    uint64_t low      # Tarjan low-link: lowest index reachable from this node's subtree
    uint64_t tpos     # length of the Tarjan stack when this node was entered (its records start there)
    int64_t slot      # cache of the node's TT slot (checked before use), -1 if unknown
    uint32_t first    # offset of this node's moves in Search.moves
    move_t played     # the move that led from the parent to this node (0 at the root)
    uint16_t count    # number of moves generated here (<= MAXMOVES)
    uint16_t next     # next move to try (index into this node's moves)
    uint8_t source    # column the played move came from (for unmake)

# A node on the Tarjan stack: its position keys (its TT slot may move), 16 bytes.
cdef struct KeyPair:
    uint64_t key
    uint64_t check

# A path node in the side set, by index.
cdef struct TarjanRecord:
    uint64_t key         # the node's position keys (its TT slot may move)
    uint64_t check
    uint64_t index       # its DFS discovery index; 0 = empty slot

# The whole C state of a portfolio depth-first search (owned by DepthFirstSearch).
cdef struct Search:
    State s              # the current position (the root between rounds)
    Table t              # the transposition table, kept across rounds
    Frame* frames        # the search stack: frames_cap frames, depth in use
    uint64_t frames_cap
    move_t* moves        # the move lists of the frames, frame i's at frames[i].first
    uint64_t moves_cap
    KeyPair* tarjan      # nodes whose strongly connected component is still open
    uint64_t tarjan_len
    uint64_t tarjan_cap
    TarjanRecord* over   # hash set (linear probing) of path nodes that found no room
    uint64_t over_len    #   in the table: live records
    uint64_t over_cap    #   slots, a power of two
    uint64_t mem_budget  # bytes the whole search may hold: table, frames, moves, Tarjan stack, side set
    uint64_t aux_max     # bytes the Tarjan stack may hold (the rest is kept for the path)
    uint64_t next_index  # next DFS discovery index (never reused across rounds)
    uint64_t nodes       # positions generated so far (moves made), all rounds
    uint64_t max_nodes   # 0 = no limit
    double deadline      # monotonic seconds; 0 = none
    double next_signal_check  # monotonic seconds of the next look for signals
    int depth            # frames in use at the end (solution length + 1 when solved)
    uint64_t rounds      # restart rounds begun
    uint64_t proof_nodes # the proof phase begins once this many nodes are spent (0 = never by nodes)
    double proof_time    # ... or at this monotonic time (0 = never by time)
    int proof            # the proof phase has begun (one round without a quota)
    int max_depth        # deepest search path seen (frames)
    int timed_out        # the deadline passed inside a long bookkeeping loop
    PyObject* progress   # a callable progress(nodes, bytes), or NULL (DepthFirstSearch.progress_ref holds it)
    double next_progress # monotonic seconds of its next call (it is called at a look for signals)
    PyObject* exc_type   # the exception a signal handler (or progress) raised (ST_INTERRUPTED)
    PyObject* exc_value
    PyObject* exc_tb


cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec *tp)
    enum: CLOCK_MONOTONIC


cdef inline double now_seconds() noexcept nogil:
    """Monotonic clock, seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# Defined in _search.pyx: helpers any search may use.
cdef uint64_t search_bytes(const Search* S) noexcept nogil
cdef bint replay_wins(const State* root, const move_t* line, int n) noexcept nogil
cdef bint canonical(const State* root, move_t* line, int n) noexcept nogil
cdef int shortcut(const State* root, move_t* line, int n) noexcept nogil
cdef int merge_moves(const State* root, move_t* line, int n) noexcept nogil


cdef class DepthFirstSearch:
    cdef Search S
    cdef bint ran           # run() was called (it may be called once)
    cdef object progress_ref  # keeps S.progress alive while the search runs
