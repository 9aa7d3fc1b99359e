# cython: language_level=3
"""The layered search: every reachable position, one layer at a time (private).

Only :mod:`bakersdozen.solver` (and the tests and benchmarks) import this
module.  docs/engine.md ("The layered search") gives the idea and its
proof; in short:

- A position's *layer* is the pair (foundation heights, how many cards of
  each column are still the cards dealt there, from the bottom).  No move
  makes either go back: a card home stays home, and a column's dealt
  cards, once one has left, are never dealt again.  The *progress* of a
  layer, cards home plus dealt cards moved, grows by 1 or 2 with every
  move that leaves the layer, and by 0 with every move inside it.
- Inside a layer, a position is fixed by where each moved card lies: on
  which of the four cards one rank higher (one builds only on them, and
  nothing is ever put into an empty column).  Two bits per card, 104 bits
  for the pack: a position is stored exactly, in 16 bytes, and rebuilt
  from them.
- The search takes the layers in order of progress, and each layer whole
  (its positions are expanded one by one, its children in the same layer
  join it, the others join their layer), then frees it.  Only the layers
  of three successive progress values are ever held: the memory is that
  of the largest few layers, not of every reachable position.

It plays the moves of the depth-first search's generator (the safe
foundation moves and the lone-card rule, docs/engine.md "Pruning rules")
and expands no lost position (the one-card test and the deadlock test), so
a search that ends without a win has enumerated every position reachable
by the kept moves: the deal cannot be won.  Positions are compared whole,
so no key collision can hide one.

It needs Baker's Dozen's play (also Good Measure's): one card per move,
building on any card one rank higher, foundations by suit, no card back
from a foundation, empty columns that take nothing.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject, Py_XDECREF
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from bakersdozen._position cimport (
    MAXCOLS, NCARDS, NO_COLUMN, PLAIN_MOVES, RANK_MASK, TO_FOUNDATION, State, bd_ctz,
    bd_popcount, bit, card_rank, card_suit, is_lost, is_safe_home, make_move, move_card,
    move_target, move_t, state_from_python,
)
from bakersdozen._search cimport (
    ST_INTERRUPTED, ST_NODE_LIMIT, ST_OUT_OF_MEMORY, ST_SOLVED, ST_TIME_LIMIT, ST_UNSOLVABLE,
    now_seconds,
)

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept


cdef enum:
    MAXPROGRESS = 2 * NCARDS + 2   # progress values: cards home + dealt cards moved
    NO_LAST = 0xFFFF               # Enc: no move led here (the root)

# Bits of Enc.hi: cards 32..51 (two bits each), the move that first led to
# the position, and a mark that the entry is in use.
cdef uint64_t CARDS_HI = (1ULL << 40) - 1
cdef int LAST_SHIFT = 40


# A position inside its layer, 16 bytes: for each card that has left its
# dealt place and is not home, the suit of the card it lies on (that card
# is one rank higher), two bits per card index (cards 0..31 in lo, 32..51
# in the low 40 bits of hi); bits 40..55 of hi hold the move that first
# led to the position (NO_LAST at the root): the lost-position test of a
# child looks only at what that move changed.
cdef struct Enc:
    uint64_t lo
    uint64_t hi


# One layer: its positions in order of discovery (arr, n), and a hash index
# over them (idx: icap slots, a power of two; a slot holds 24 bits of the
# hash above the position's index + 1, 0 = empty).
cdef struct Layer:
    uint64_t lkey      # found[0..3] in 4 bits each, then each column's dealt cards left
    Enc* arr
    uint64_t* idx
    uint64_t n
    uint64_t cap
    uint64_t icap
    int progress


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    """A 64-bit finaliser (splitmix64's)."""
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x


cdef inline uint64_t enc_hash(uint64_t lo, uint64_t hi) noexcept nogil:
    return mix(lo ^ mix(hi & CARDS_HI))


cdef inline int enc_bits(const Enc* e, int y) noexcept nogil:
    """The two bits of card *y*: the suit of the card it lies on."""
    if y < 32:
        return <int>((e.lo >> (2 * y)) & 3)
    return <int>((e.hi >> (2 * (y - 32))) & 3)


cdef inline void enc_set(Enc* e, int y, int b) noexcept nogil:
    """Set the two bits of card *y* to *b* (0..3)."""
    if y < 32:
        e.lo = (e.lo & ~(3ULL << (2 * y))) | ((<uint64_t>b) << (2 * y))
    else:
        e.hi = (e.hi & ~(3ULL << (2 * (y - 32)))) | ((<uint64_t>b) << (2 * (y - 32)))


cdef class LayeredSearch:
    """The layered search of one position (module docstring; docs/engine.md).

    Parameters
    ----------
    columns, foundations, ranks, play
        As for :class:`bakersdozen._position.Position` (*play* None: Baker's
        Dozen's play).
    memory_mb : float
        MiB (2**20 bytes) the layers held at once may take, in (0, 2**20];
        a search that needs more stops with OUT_OF_MEMORY.

    Raises
    ------
    ValueError
        For a position that is not one of the game, *memory_mb* out of
        range, play other than Baker's Dozen's (the layers rest on it), or
        columns too tall for the layer key (at most 16 + columns x bits of
        the tallest column <= 64 bits: Baker's Dozen's 13 columns of up to 7
        cards, or Good Measure's 10 of up to 15).
    """
    cdef State root
    cdef int pbits                 # bits per column in a layer key
    cdef uint64_t pmask            # (1 << pbits) - 1
    cdef uint64_t suit_upto[4][16] # cards of suit p of rank <= f
    cdef Layer* layers
    cdef uint64_t nlayers, layers_cap
    cdef int64_t* lmap             # layer key -> layer index + 1 (open addressing, lmap_cap slots)
    cdef uint64_t* lmap_keys
    cdef uint64_t lmap_cap
    cdef int64_t* plist[MAXPROGRESS + 1]   # layer indices by progress
    cdef uint64_t plen[MAXPROGRESS + 1]
    cdef uint64_t pcap[MAXPROGRESS + 1]
    cdef uint64_t budget, bytes, peak_bytes
    cdef uint64_t nodes, max_nodes, stored, live, peak_live, lost, largest
    cdef double deadline, next_signal_check
    cdef bint ran
    cdef PyObject* exc_type
    cdef PyObject* exc_value
    cdef PyObject* exc_tb

    def __cinit__(self, columns, foundations=(0, 0, 0, 0), int ranks=13, play=None, *,
                  double memory_mb=512.0):
        cdef int c, p, f, tallest = 0
        memset(self.plist, 0, sizeof(self.plist))
        memset(self.plen, 0, sizeof(self.plen))
        memset(self.pcap, 0, sizeof(self.pcap))
        self.layers = NULL
        self.lmap = NULL
        self.lmap_keys = NULL
        self.ran = False
        self.exc_type = self.exc_value = self.exc_tb = NULL
        state_from_python(&self.root, columns, foundations, ranks, play)
        if not (self.root.play.plain and self.root.play.dead and self.root.play.safe_home):
            raise ValueError(
                "the layered search needs Baker's Dozen's play (one card per move, build on "
                "any card one rank higher, foundations by suit, no foundation return, empty "
                "columns take nothing): use method='proof' or 'dfs' for other rules"
            )
        if not 0 < memory_mb <= 1048576.0:          # also refuses NaN
            raise ValueError(f"memory_mb must be in (0, 2**20] (MiB), not {memory_mb}")
        for c in range(self.root.ncols):
            if self.root.height[c] > tallest:
                tallest = self.root.height[c]
        self.pbits = 1
        while (1 << self.pbits) <= tallest:
            self.pbits += 1
        if 16 + self.root.ncols * self.pbits > 64:
            raise ValueError(
                f"the layered search keys a layer in 64 bits: {self.root.ncols} columns of up "
                f"to {tallest} cards need {16 + self.root.ncols * self.pbits}"
            )
        self.pmask = (1ULL << self.pbits) - 1
        for p in range(4):
            self.suit_upto[p][0] = 0
            for f in range(1, 16):
                self.suit_upto[p][f] = self.suit_upto[p][f - 1]
                if f <= 13:
                    self.suit_upto[p][f] |= bit(4 * (f - 1) + p)
        self.budget = <uint64_t>(memory_mb * 1048576.0)
        self.bytes = self.peak_bytes = 0
        self.nodes = self.max_nodes = self.stored = self.live = self.peak_live = 0
        self.lost = self.largest = 0
        self.nlayers = 0
        self.layers_cap = 1024
        self.lmap_cap = 2048
        self.layers = <Layer*>malloc(self.layers_cap * sizeof(Layer))
        self.lmap = <int64_t*>malloc(self.lmap_cap * sizeof(int64_t))
        self.lmap_keys = <uint64_t*>malloc(self.lmap_cap * sizeof(uint64_t))
        if self.layers == NULL or self.lmap == NULL or self.lmap_keys == NULL:
            raise MemoryError("cannot allocate the layered search's first arrays")
        memset(self.lmap, 0, self.lmap_cap * sizeof(int64_t))
        self.bytes = self.layers_cap * sizeof(Layer) + self.lmap_cap * 16

    def __dealloc__(self):
        cdef uint64_t i
        cdef int p
        if self.layers != NULL:
            for i in range(self.nlayers):
                free(self.layers[i].arr)
                free(self.layers[i].idx)
        free(self.layers)
        free(self.lmap)
        free(self.lmap_keys)
        for p in range(MAXPROGRESS + 1):
            free(self.plist[p])
        Py_XDECREF(self.exc_type)
        Py_XDECREF(self.exc_value)
        Py_XDECREF(self.exc_tb)

    # -- layer keys ---------------------------------------------------------

    cdef inline int dealt_left(self, uint64_t lkey, int c) noexcept nogil:
        """How many of column *c*'s dealt cards, from the bottom, are still in place."""
        return <int>((lkey >> (16 + self.pbits * c)) & self.pmask)

    cdef uint64_t root_key(self) noexcept nogil:
        cdef uint64_t k = 0
        cdef int p, c
        for p in range(4):
            k |= (<uint64_t>self.root.found[p]) << (4 * p)
        for c in range(self.root.ncols):
            k |= (<uint64_t>self.root.height[c]) << (16 + self.pbits * c)
        return k

    # -- memory ---------------------------------------------------------------

    cdef bint charge(self, int64_t delta) noexcept nogil:
        """Count *delta* bytes; False (nothing counted) if the budget would be passed."""
        if delta > 0 and self.bytes + <uint64_t>delta > self.budget:
            return False
        self.bytes += delta
        if self.bytes > self.peak_bytes:
            self.peak_bytes = self.bytes
        return True

    # -- the layers -------------------------------------------------------------

    cdef int64_t layer_of(self, uint64_t lkey, int progress) noexcept nogil:
        """The index of the layer with key *lkey*, made (empty) if new; -1: out of memory."""
        cdef uint64_t mask = self.lmap_cap - 1, j, i, ncap
        cdef int64_t v
        cdef int64_t* nmap
        cdef int64_t* nlist
        cdef uint64_t* nkeys
        cdef Layer* L
        j = mix(lkey) & mask
        while True:
            v = self.lmap[j]
            if v == 0:
                break
            if self.lmap_keys[j] == lkey:
                return v - 1
            j = (j + 1) & mask
        # new layer: room in the arrays first
        if (self.nlayers + 1) * 2 > self.lmap_cap:
            ncap = self.lmap_cap * 2
            if not self.charge(<int64_t>(ncap * 16) - <int64_t>(self.lmap_cap * 16)):
                return -1
            nmap = <int64_t*>malloc(ncap * sizeof(int64_t))
            nkeys = <uint64_t*>malloc(ncap * sizeof(uint64_t))
            if nmap == NULL or nkeys == NULL:
                free(nmap)
                free(nkeys)
                return -1
            memset(nmap, 0, ncap * sizeof(int64_t))
            for i in range(self.lmap_cap):
                if self.lmap[i]:
                    j = mix(self.lmap_keys[i]) & (ncap - 1)
                    while nmap[j]:
                        j = (j + 1) & (ncap - 1)
                    nmap[j] = self.lmap[i]
                    nkeys[j] = self.lmap_keys[i]
            free(self.lmap)
            free(self.lmap_keys)
            self.lmap = nmap
            self.lmap_keys = nkeys
            self.lmap_cap = ncap
            mask = ncap - 1
            j = mix(lkey) & mask
            while self.lmap[j]:
                j = (j + 1) & mask
        if self.nlayers == self.layers_cap:
            if not self.charge(<int64_t>(self.layers_cap * sizeof(Layer))):
                return -1
            L = <Layer*>realloc(self.layers, 2 * self.layers_cap * sizeof(Layer))
            if L == NULL:
                return -1
            self.layers = L
            self.layers_cap *= 2
        if self.plen[progress] == self.pcap[progress]:
            ncap = 2 * self.pcap[progress] if self.pcap[progress] else 64
            if not self.charge(<int64_t>((ncap - self.pcap[progress]) * sizeof(int64_t))):
                return -1
            nlist = <int64_t*>realloc(self.plist[progress], ncap * sizeof(int64_t))
            if nlist == NULL:
                return -1
            self.plist[progress] = nlist
            self.pcap[progress] = ncap
        L = &self.layers[self.nlayers]
        L.lkey = lkey
        L.arr = NULL
        L.idx = NULL
        L.n = L.cap = L.icap = 0
        L.progress = progress
        self.plist[progress][self.plen[progress]] = <int64_t>self.nlayers
        self.plen[progress] += 1
        self.lmap[j] = <int64_t>self.nlayers + 1
        self.lmap_keys[j] = lkey
        self.nlayers += 1
        return <int64_t>self.nlayers - 1

    cdef int insert(self, Layer* L, Enc e) noexcept nogil:
        """Add position *e* to layer *L*: 1 if new, 0 if there already, -1 out of memory."""
        cdef uint64_t h = enc_hash(e.lo, e.hi), tag = (h >> 40) << 40, mask, j, s, k, ncap, i
        cdef uint64_t* nidx
        cdef Enc* narr
        cdef Enc* a
        if L.icap:
            mask = L.icap - 1
            j = h & mask
            while True:
                s = L.idx[j]
                if s == 0:
                    break
                if (s & ~CARDS_HI) == tag:
                    a = &L.arr[(s & CARDS_HI) - 1]
                    if a.lo == e.lo and ((a.hi ^ e.hi) & CARDS_HI) == 0:
                        return 0
                j = (j + 1) & mask
        if L.n == L.cap:
            ncap = 2 * L.cap if L.cap else 8
            if not self.charge(<int64_t>((ncap - L.cap) * sizeof(Enc))):
                return -1
            narr = <Enc*>realloc(L.arr, ncap * sizeof(Enc))
            if narr == NULL:
                self.bytes -= (ncap - L.cap) * sizeof(Enc)
                return -1
            L.arr = narr
            L.cap = ncap
        if (L.n + 1) * 4 > L.icap * 3:
            ncap = 2 * L.icap if L.icap else 16
            if not self.charge(<int64_t>((ncap - L.icap) * sizeof(uint64_t))):
                return -1
            nidx = <uint64_t*>malloc(ncap * sizeof(uint64_t))
            if nidx == NULL:
                self.bytes -= (ncap - L.icap) * sizeof(uint64_t)
                return -1
            memset(nidx, 0, ncap * sizeof(uint64_t))
            for i in range(L.n):
                k = enc_hash(L.arr[i].lo, L.arr[i].hi)
                j = k & (ncap - 1)
                while nidx[j]:
                    j = (j + 1) & (ncap - 1)
                nidx[j] = ((k >> 40) << 40) | (i + 1)
            free(L.idx)
            L.idx = nidx
            L.icap = ncap
            mask = ncap - 1
            j = h & mask
            while L.idx[j]:
                j = (j + 1) & mask
        e.hi |= 1ULL << 63
        L.arr[L.n] = e
        L.idx[j] = tag | (L.n + 1)
        L.n += 1
        self.stored += 1
        self.live += 1
        if self.live > self.peak_live:
            self.peak_live = self.live
        return 1

    cdef void release(self, Layer* L) noexcept nogil:
        """Free a layer whose positions have all been expanded."""
        self.bytes -= L.cap * sizeof(Enc) + L.icap * sizeof(uint64_t)
        self.live -= L.n
        if L.n > self.largest:
            self.largest = L.n
        free(L.arr)
        free(L.idx)
        L.arr = NULL
        L.idx = NULL
        L.cap = L.icap = 0

    # -- positions ----------------------------------------------------------------

    cdef void decode(self, uint64_t lkey, const Enc* e, State* s) noexcept nogil:
        """Rebuild position *e* of layer *lkey* into *s* (whose fixed part is the root's)."""
        cdef uint8_t onto[NCARDS]
        cdef uint64_t home = 0, dealt = 0, moved, has_onto = 0, tops = 0
        cdef int p, c, h, i, y, z, t
        for p in range(4):
            s.found[p] = <uint8_t>((lkey >> (4 * p)) & 15)
            home |= self.suit_upto[p][s.found[p]]
        memset(s.where, NO_COLUMN, NCARDS)
        for c in range(s.ncols):
            h = self.dealt_left(lkey, c)
            for i in range(h):
                y = self.root.cols[c][i]
                s.cols[c][i] = <uint8_t>y
                s.where[y] = <uint8_t>c
                dealt |= bit(y)
            s.height[c] = <uint8_t>h
        moved = s.all_home & ~home & ~dealt
        while moved:
            y = bd_ctz(moved)
            moved &= moved - 1
            z = 4 * card_rank(y) + enc_bits(e, y)     # the card of rank + 1 and that suit
            onto[z] = <uint8_t>y
            has_onto |= bit(z)
        for c in range(s.ncols):
            h = s.height[c]
            if h == 0:
                continue
            t = s.cols[c][h - 1]
            while has_onto & bit(t):
                t = onto[t]
                s.cols[c][h] = <uint8_t>t
                s.where[t] = <uint8_t>c
                h += 1
            s.height[c] = <uint8_t>h
            tops |= bit(t)
        s.tops = tops
        s.home = home
        s.left = bd_popcount(s.all_home & ~home)

    cdef int run_layers(self) noexcept nogil:
        """The search; returns a status (ST_*)."""
        cdef State s
        cdef move_t moves[PLAIN_MOVES]
        cdef Enc e, child
        cdef Layer* L
        cdef uint64_t i, lkey, ckey, targets
        cdef int64_t li, ci
        cdef int progress, n, k, col, h, c, r, b, y, to, src, cprog, last, res
        cdef double t
        memcpy(&s, &self.root, sizeof(State))
        li = self.layer_of(self.root_key(), 0)
        if li < 0:
            return ST_OUT_OF_MEMORY
        e.lo = 0
        e.hi = (<uint64_t>NO_LAST) << LAST_SHIFT
        if self.insert(&self.layers[li], e) < 0:
            return ST_OUT_OF_MEMORY
        for progress in range(MAXPROGRESS + 1):
            k = 0
            while <uint64_t>k < self.plen[progress]:
                li = self.plist[progress][k]
                k += 1
                i = 0
                while i < self.layers[li].n:
                    L = &self.layers[li]
                    e = L.arr[i]
                    i += 1
                    lkey = L.lkey
                    self.decode(lkey, &e, &s)
                    last = <int>((e.hi >> LAST_SHIFT) & 0xFFFF)
                    if is_lost(&s, -1 if last == NO_LAST else last):
                        self.lost += 1
                        continue
                    # the moves of the search generator (gen_search), unordered
                    n = 0
                    for col in range(s.ncols):
                        h = s.height[col]
                        if h == 0:
                            continue
                        c = s.cols[col][h - 1]
                        r = card_rank(c)
                        if s.found[card_suit(c)] == r - 1:
                            if is_safe_home(&s, c):
                                moves[0] = make_move(c, TO_FOUNDATION)
                                n = 1
                                break
                            moves[n] = make_move(c, TO_FOUNDATION)
                            n += 1
                        if h == 1:
                            continue          # rule 2: a lone card stays
                        targets = s.tops & RANK_MASK[r + 1]
                        while targets:
                            b = bd_ctz(targets)
                            targets &= targets - 1
                            moves[n] = make_move(c, s.where[b])
                            n += 1
                    for res in range(n):
                        y = move_card(moves[res])
                        to = move_target(moves[res])
                        if self.max_nodes and self.nodes >= self.max_nodes:
                            return ST_NODE_LIMIT
                        self.nodes += 1
                        if (self.nodes & 16383) == 0:
                            t = now_seconds()
                            if self.deadline > 0 and t >= self.deadline:
                                return ST_TIME_LIMIT
                            if t >= self.next_signal_check:
                                self.next_signal_check = t + 0.05
                                with gil:
                                    if check_signals() != 0:
                                        PyErr_Fetch(&self.exc_type, &self.exc_value, &self.exc_tb)
                                        return ST_INTERRUPTED
                        src = s.where[y]
                        child.lo = e.lo
                        child.hi = (e.hi & CARDS_HI) | ((<uint64_t>moves[res]) << LAST_SHIFT)
                        ckey = lkey
                        cprog = progress
                        if to == TO_FOUNDATION:
                            if s.left == 1:
                                return ST_SOLVED
                            enc_set(&child, y, 0)
                            ckey += 1ULL << (4 * card_suit(y))
                            cprog += 1
                        else:
                            enc_set(&child, y, card_suit(s.cols[to][s.height[to] - 1]))
                        if s.height[src] <= self.dealt_left(lkey, src):
                            # a dealt card leaves its place
                            ckey -= 1ULL << (16 + self.pbits * src)
                            cprog += 1
                        if ckey == lkey:
                            if self.insert(&self.layers[li], child) < 0:
                                return ST_OUT_OF_MEMORY
                        else:
                            ci = self.layer_of(ckey, cprog)
                            if ci < 0 or self.insert(&self.layers[ci], child) < 0:
                                return ST_OUT_OF_MEMORY
                self.release(&self.layers[li])
        return ST_UNSOLVABLE

    def run(self, *, double time_limit=0.0, unsigned long long max_nodes=0,
            unsigned long long seed=0):
        """Enumerate the reachable positions.  Releases the GIL; runs once.

        Parameters
        ----------
        time_limit : float
            Seconds of wall-clock time, 0 for none.
        max_nodes : int
            Positions generated (children made), 0 for none.
        seed : int
            Ignored: the enumeration is the same in any order.

        Returns
        -------
        tuple
            ``(status, [], nodes, 1, positions)``: *status* one of the
            statuses of :mod:`bakersdozen._search` (SOLVED: a won position
            was reached; the search keeps no line to it), *positions* the
            distinct positions stored.

        Raises
        ------
        KeyboardInterrupt
            (or whatever a signal handler raised) when a signal arrives.
        RuntimeError
            If this search has already run.
        """
        cdef int st
        cdef double start
        if self.ran:
            raise RuntimeError("a LayeredSearch runs once; make a new one")
        self.ran = True
        self.max_nodes = max_nodes
        if self.root.left == 0:
            return (ST_SOLVED, [], 0, 1, 0)
        with nogil:
            start = now_seconds()
            self.deadline = start + time_limit if time_limit > 0 else 0.0
            self.next_signal_check = start + 0.02
            st = self.run_layers()
        if st == ST_INTERRUPTED:
            PyErr_Restore(self.exc_type, self.exc_value, self.exc_tb)
            self.exc_type = self.exc_value = self.exc_tb = NULL
            raise_pending()
        return (st, [], self.nodes, 1, self.stored)

    @property
    def stats(self):
        """What the search used: ``layers`` (made), ``largest`` (positions of
        the largest layer freed), ``peak_positions`` (positions held at once),
        ``lost`` (positions found lost), ``peak_bytes`` and ``budget``
        (bytes)."""
        return {"layers": self.nlayers, "largest": self.largest,
                "peak_positions": self.peak_live, "lost": self.lost,
                "peak_bytes": self.peak_bytes, "budget": self.budget}


cdef int raise_pending() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1
