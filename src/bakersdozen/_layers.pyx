# cython: language_level=3
"""The layered search: every reachable position, one layer at a time (private).

Only :mod:`bakersdozen.solver` (and the tests and benchmarks) import this
module.  docs/engine.md ("The layered search") gives the idea and its
proof; in short:

- A position's *layer* is its foundation heights and, for each column,
  the height of its *dealt part*: the bottom cards that are still the
  cards dealt there, less a top run of built cards (a dealt card lying on
  the dealt card beneath it, one rank higher, counts as moved: it may
  leave and come back).  No move lowers a foundation or raises a dealt
  part, so the *progress* of a layer, cards home plus dealt cards moved,
  is the same for every move inside it and greater after every move that
  leaves it (by 1 for a card going home, by 1 and the run it uncovers for
  a dealt card leaving).
- Inside a layer, a position is fixed by where each moved card lies: on
  which of the four cards one rank higher (one builds only on them, and
  nothing is ever put into an empty column).  Two bits per moved card,
  packed in card order in as many bytes as they take (two 64-bit words
  beyond 31 moved cards): a position is stored exactly and rebuilt from
  its record.
- The search takes the layers in order of progress, and each layer whole
  (its positions are expanded one by one, its children in the same layer
  join it, the others join their layer), then frees it.  Only the layers
  not yet expanded are held: the memory is that of the widest stretch of
  progress, not of every reachable position.

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
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from bakersdozen._position cimport (
    MAXCOLS, MAXHEIGHT, NCARDS, NO_COLUMN, PLAIN_MOVES, RANK_MASK, TO_FOUNDATION, State, bd_ctz,
    bd_popcount, bit, card_rank, card_suit, deadlock_set, is_safe_home, make_move, move_card,
    move_target, move_t, splitmix64, state_from_python,
)
from bakersdozen._search cimport (
    ST_INTERRUPTED, ST_NODE_LIMIT, ST_OUT_OF_MEMORY, ST_SOLVED, ST_TIME_LIMIT, ST_UNSOLVABLE,
    now_seconds,
)

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept
    PyObject* call_function "PyObject_CallFunction"(PyObject* callable, const char* format, ...) noexcept

# Seconds between two calls of the progress callable (at least), as _search's.
cdef double PROGRESS_SECONDS = 0.2


cdef enum:
    MAXPROGRESS = 2 * NCARDS + 2   # progress values: cards home + dealt cards moved

# The mark of a two-word record's slot in use (bit 63 of its second word;
# a one-word record carries its own mark, a 1 above its bits).
cdef uint64_t USED = 1ULL << 63


# A position inside its layer, in full: for each card that has left its
# dealt place and is not home, the suit of the card it lies on (that card
# is one rank higher), two bits per card index (cards 0..31 in lo, 32..51
# in the low 40 bits of hi); 0 for the other cards.
cdef struct Enc:
    uint64_t lo
    uint64_t hi


# One layer: a hash set (open addressing, linear probing) of its positions.
# A record is one word when the layer has at most 31 moved cards: their
# bits packed in card order, and a 1 above them (so a used slot is never 0);
# a slot holds its lowest sbytes bytes, as few as that takes.  With more
# moved cards a record is two words (Enc, USED set in hi), in 16-byte slots.
cdef struct Layer:
    uint64_t lkey      # found[0..3] in 4 bits each, then each column's dealt cards in place
    uint64_t moved     # bitboard: the cards of the layer that have left their dealt place
    uint8_t* tab       # cap slots of sbytes bytes (and 8 bytes of padding); 0 = empty
    uint64_t n         # positions stored
    uint64_t cap       # slots, a power of two (0 before the first position)
    uint64_t smask     # the bits of a one-word record a slot holds
    int progress
    int width          # words per record: 1 or 2
    int sbytes         # bytes per slot: 1..8 (width 1), 16 (width 2)


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    """A hash of *x*: the splitmix64 value that follows it."""
    return splitmix64(&x)


cdef inline uint64_t wide_hash(const uint64_t* rec) noexcept nogil:
    """A hash of a two-word record."""
    return mix(rec[0] ^ mix(rec[1]))


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


cdef inline bint any_blocked(const State* s) noexcept nogil:
    """Is some card stuck above a lower card of its suit (``blocked`` in
    ``_position``: every card one rank higher is home or beneath it)?

    The same test as ``is_dead``, in one pass up each column: the cards
    beneath and the lowest rank of each suit among them are kept as it goes.
    """
    cdef uint64_t tab = s.all_home & ~s.home, below
    cdef int col, i, h, y, r, suit
    cdef int low[4]
    for col in range(s.ncols):
        h = s.height[col]
        if h < 2:
            continue
        y = s.cols[col][0]
        below = bit(y)
        low[0] = low[1] = low[2] = low[3] = 99
        low[card_suit(y)] = card_rank(y)
        for i in range(1, h):
            y = s.cols[col][i]
            r = card_rank(y)
            suit = card_suit(y)
            if low[suit] < r and (RANK_MASK[r + 1] & tab & ~below) == 0:
                return True
            if r < low[suit]:
                low[suit] = r
            below |= bit(y)
    return False


cdef inline void pack(const Layer* L, const Enc* e, uint64_t* rec) noexcept nogil:
    """The record of position *e* in layer *L* (L.width words)."""
    cdef uint64_t v = 0, m = L.moved
    cdef int k = 0, y
    if L.width == 2:
        rec[0] = e.lo
        rec[1] = e.hi | USED
        return
    while m:
        y = bd_ctz(m)
        m &= m - 1
        v |= (<uint64_t>enc_bits(e, y)) << k
        k += 2
    rec[0] = v | (1ULL << k)


cdef inline uint64_t load_word(const uint8_t* p) noexcept nogil:
    """The 8 bytes at *p* (unaligned), as a little-endian word."""
    cdef uint64_t x
    memcpy(&x, p, 8)
    return x


cdef inline void store_slot(uint8_t* p, uint64_t v, uint64_t smask) noexcept nogil:
    """Write the slot at *p*: the bytes of *smask* from *v*, the next slot's bytes kept."""
    cdef uint64_t x
    memcpy(&x, p, 8)
    x = (x & ~smask) | v
    memcpy(p, &x, 8)


cdef inline void unpack(const Layer* L, const uint64_t* rec, Enc* e) noexcept nogil:
    """Position *e* from its record in layer *L*."""
    cdef uint64_t v = rec[0], m = L.moved
    cdef int y
    if L.width == 2:
        e.lo = rec[0]
        e.hi = rec[1] & ~USED
        return
    e.lo = 0
    e.hi = 0
    while m:
        y = bd_ctz(m)
        m &= m - 1
        enc_set(e, y, <int>(v & 3))
        v >>= 2


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
        range, or play other than Baker's Dozen's (the layers rest on it).
        (A layer key takes 16 bits for the foundations and, per column, the
        bits of the number of its cards below its top run of built cards:
        at most 16 + 13 x 3 = 55 for 52 cards in 13 columns, so the check
        that it fits 64 never fails for a position of the pack.)
    """
    cdef State root
    cdef uint8_t canon[MAXCOLS][MAXHEIGHT + 1]  # canon[c][m]: dealt cards in place of column c
                                   #   when its lowest m are, less their top run of built cards
    cdef int pshift[MAXCOLS]       # where column c's dealt height sits in a layer key
    cdef uint64_t pmask[MAXCOLS]   # and its mask (as many bits as its greatest value needs)
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
    cdef int progress, top_progress  # progress being expanded; greatest progress with a layer
    cdef double deadline, next_signal_check
    cdef PyObject* progress_fn     # a callable progress(nodes, bytes), or NULL (progress_ref holds it)
    cdef object progress_ref
    cdef double next_progress      # monotonic seconds of its next call
    cdef uint64_t* work            # positions of the layer being expanded, still to expand
    cdef uint64_t wlen, wcap       # words in use, words allocated
    cdef bint ran
    cdef PyObject* exc_type
    cdef PyObject* exc_value
    cdef PyObject* exc_tb

    def __cinit__(self, columns, foundations=(0, 0, 0, 0), int ranks=13, play=None, *,
                  double memory_mb=512.0):
        cdef int c, p, f
        memset(self.plist, 0, sizeof(self.plist))
        memset(self.plen, 0, sizeof(self.plen))
        memset(self.pcap, 0, sizeof(self.pcap))
        self.work = NULL
        self.wlen = self.wcap = 0
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
        # A dealt card lying on the dealt card beneath it, one rank higher,
        # may leave and come back: counted as moved, it has one form only.
        for c in range(self.root.ncols):
            self.canon[c][0] = 0
            for f in range(1, self.root.height[c] + 1):
                if f >= 2 and card_rank(self.root.cols[c][f - 1]) + 1 == \
                        card_rank(self.root.cols[c][f - 2]):
                    self.canon[c][f] = self.canon[c][f - 1]
                else:
                    self.canon[c][f] = <uint8_t>f
        # the key: 4 bits per foundation, then each column's dealt height in
        # as many bits as its greatest value (the deal's) needs
        p = 16
        for c in range(self.root.ncols):
            f = 0
            while (1 << f) <= self.canon[c][self.root.height[c]]:
                f += 1
            self.pshift[c] = p
            self.pmask[c] = (1ULL << f) - 1
            p += f
        if p > 64:
            raise ValueError(
                f"the layered search keys a layer in 64 bits, and this layout needs {p}: "
                f"16 for the foundations and, for each column, the bits of the number of "
                f"its cards below its top run of built cards; use method='proof'"
            )
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
        self.progress = self.top_progress = 0
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
                free(self.layers[i].tab)
        free(self.layers)
        free(self.lmap)
        free(self.lmap_keys)
        free(self.work)
        for p in range(MAXPROGRESS + 1):
            free(self.plist[p])
        Py_XDECREF(self.exc_type)
        Py_XDECREF(self.exc_value)
        Py_XDECREF(self.exc_tb)

    # -- layer keys ---------------------------------------------------------

    cdef inline int dealt_left(self, uint64_t lkey, int c) noexcept nogil:
        """How many of column *c*'s dealt cards, from the bottom, count as in place."""
        return <int>((lkey >> self.pshift[c]) & self.pmask[c])

    cdef uint64_t root_key(self) noexcept nogil:
        cdef uint64_t k = 0
        cdef int p, c
        for p in range(4):
            k |= (<uint64_t>self.root.found[p]) << (4 * p)
        for c in range(self.root.ncols):
            k |= (<uint64_t>self.canon[c][self.root.height[c]]) << self.pshift[c]
        return k

    cdef uint64_t moved_cards(self, uint64_t lkey) noexcept nogil:
        """The cards of layer *lkey* that are neither home nor in their dealt place."""
        cdef uint64_t keep = 0
        cdef int p, c, i
        for p in range(4):
            keep |= self.suit_upto[p][(lkey >> (4 * p)) & 15]
        for c in range(self.root.ncols):
            for i in range(self.dealt_left(lkey, c)):
                keep |= bit(self.root.cols[c][i])
        return self.root.all_home & ~keep

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
        cdef int k
        j = mix(lkey) & mask
        while True:
            v = self.lmap[j]
            if v == 0:
                break
            if self.lmap_keys[j] == lkey:
                return v - 1
            j = (j + 1) & mask
        # a new layer: room in the arrays first
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
        if progress > self.top_progress:
            self.top_progress = progress
        L = &self.layers[self.nlayers]
        L.lkey = lkey
        L.moved = self.moved_cards(lkey)
        k = bd_popcount(L.moved)
        L.width = 1 if k <= 31 else 2
        L.sbytes = (2 * k + 8) // 8 if k <= 31 else 16    # 2k bits and the 1 above them
        L.smask = ~0ULL if L.sbytes >= 8 else (1ULL << (8 * L.sbytes)) - 1
        L.tab = NULL
        L.n = L.cap = 0
        L.progress = progress
        self.plist[progress][self.plen[progress]] = <int64_t>self.nlayers
        self.plen[progress] += 1
        self.lmap[j] = <int64_t>self.nlayers + 1
        self.lmap_keys[j] = lkey
        self.nlayers += 1
        return <int64_t>self.nlayers - 1

    cdef int insert(self, Layer* L, const uint64_t* rec) noexcept nogil:
        """Add the record *rec* to layer *L*: 1 if new, 0 if there already, -1 out of memory."""
        cdef int sb = L.sbytes
        cdef uint64_t mask, j, i, k, ncap, x
        cdef uint8_t* ntab
        cdef uint8_t* slot
        if (L.n + 1) * 4 > L.cap * 3:
            ncap = 2 * L.cap if L.cap else 16
            if not self.charge(<int64_t>((ncap - L.cap) * sb + (0 if L.cap else 8))):
                return -1
            ntab = <uint8_t*>malloc(ncap * sb + 8)
            if ntab == NULL:
                self.bytes -= (ncap - L.cap) * sb + (0 if L.cap else 8)
                return -1
            memset(ntab, 0, ncap * sb + 8)
            for i in range(L.cap):
                slot = &L.tab[i * sb]
                if sb == 16:
                    if load_word(slot + 8) & USED:
                        k = wide_hash(<uint64_t*>slot) & (ncap - 1)
                        while load_word(&ntab[k * 16 + 8]) & USED:
                            k = (k + 1) & (ncap - 1)
                        memcpy(&ntab[k * 16], slot, 16)
                else:
                    x = load_word(slot) & L.smask
                    if x:
                        k = mix(x) & (ncap - 1)
                        while load_word(&ntab[k * sb]) & L.smask:
                            k = (k + 1) & (ncap - 1)
                        store_slot(&ntab[k * sb], x, L.smask)
            free(L.tab)
            L.tab = ntab
            L.cap = ncap
        mask = L.cap - 1
        if sb == 16:
            j = wide_hash(rec) & mask
            while True:
                slot = &L.tab[j * 16]
                if (load_word(slot + 8) & USED) == 0:
                    break
                if load_word(slot) == rec[0] and load_word(slot + 8) == rec[1]:
                    return 0
                j = (j + 1) & mask
            memcpy(slot, rec, 16)
        else:
            j = mix(rec[0]) & mask
            while True:
                slot = &L.tab[j * sb]
                x = load_word(slot) & L.smask
                if x == 0:
                    break
                if x == rec[0]:
                    return 0
                j = (j + 1) & mask
            store_slot(slot, rec[0], L.smask)
        L.n += 1
        self.stored += 1
        self.live += 1
        if self.live > self.peak_live:
            self.peak_live = self.live
        return 1

    cdef bint push(self, const uint64_t* rec, int w) noexcept nogil:
        """Put a record on the work stack; False if out of memory."""
        cdef uint64_t ncap
        cdef uint64_t* nwork
        if self.wlen + w > self.wcap:
            ncap = 2 * self.wcap if self.wcap else 1024
            if not self.charge(<int64_t>((ncap - self.wcap) * 8)):
                return False
            nwork = <uint64_t*>realloc(self.work, ncap * 8)
            if nwork == NULL:
                self.bytes -= (ncap - self.wcap) * 8
                return False
            self.work = nwork
            self.wcap = ncap
        self.work[self.wlen] = rec[0]
        if w == 2:
            self.work[self.wlen + 1] = rec[1]
        self.wlen += w
        return True

    cdef void release(self, Layer* L) noexcept nogil:
        """Free a layer whose positions have all been expanded."""
        self.bytes -= L.cap * L.sbytes + (8 if L.cap else 0)
        self.live -= L.n
        if L.n > self.largest:
            self.largest = L.n
        free(L.tab)
        L.tab = NULL
        L.cap = 0

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

    cdef int expand_layer(self, int64_t li, State* s) noexcept nogil:
        """Expand every position of layer *li*, and those its moves add to it; a status or -1."""
        cdef move_t moves[PLAIN_MOVES]
        cdef uint64_t rec[2]
        cdef uint64_t i, lkey = self.layers[li].lkey, ckey, targets
        cdef int w = self.layers[li].width, progress = self.layers[li].progress
        cdef int n, k, col, h, c, r, b, y, to, src, cprog, res
        cdef int64_t ci
        cdef double t
        cdef Enc e, child
        cdef Layer* L
        # the layer's positions so far go on the work stack; those its own
        # moves add join them there
        self.wlen = 0
        L = &self.layers[li]
        for i in range(L.cap):
            if L.sbytes == 16:
                if load_word(&L.tab[i * 16 + 8]) & USED:
                    memcpy(rec, &L.tab[i * 16], 16)
                    if not self.push(rec, 2):
                        return ST_OUT_OF_MEMORY
            else:
                rec[0] = load_word(&L.tab[i * L.sbytes]) & L.smask
                if rec[0] and not self.push(rec, 1):
                    return ST_OUT_OF_MEMORY
        while self.wlen:
            self.wlen -= w
            L = &self.layers[li]
            unpack(L, &self.work[self.wlen], &e)
            self.decode(lkey, &e, s)
            if any_blocked(s) or deadlock_set(s) != 0:
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
                    if is_safe_home(s, c):
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
                            if self.progress_fn != NULL and t >= self.next_progress:
                                self.next_progress = t + PROGRESS_SECONDS
                                if self.report_progress() != 0:
                                    return ST_INTERRUPTED
                src = s.where[y]
                child = e
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
                h = self.dealt_left(lkey, src)
                if s.height[src] <= h:
                    # a dealt card leaves its place; the built run below
                    # it, if any, now counts as moved
                    c = self.canon[src][h - 1]
                    for b in range(c, h - 1):
                        enc_set(&child, self.root.cols[src][b],
                                card_suit(self.root.cols[src][b - 1]))
                    ckey -= (<uint64_t>(h - c)) << self.pshift[src]
                    cprog += h - c
                if ckey == lkey:
                    L = &self.layers[li]
                    pack(L, &child, rec)
                    k = self.insert(L, rec)
                    if k < 0 or (k == 1 and not self.push(rec, w)):
                        return ST_OUT_OF_MEMORY
                else:
                    ci = self.layer_of(ckey, cprog)
                    if ci < 0:
                        return ST_OUT_OF_MEMORY
                    L = &self.layers[ci]
                    pack(L, &child, rec)
                    if self.insert(L, rec) < 0:
                        return ST_OUT_OF_MEMORY
        self.release(&self.layers[li])
        return -1

    cdef int run_layers(self) noexcept nogil:
        """The search; returns a status (ST_*)."""
        cdef State s
        cdef uint64_t rec[2]
        cdef Enc e
        cdef int64_t li
        cdef uint64_t k
        cdef int progress, col, h, st
        memcpy(&s, &self.root, sizeof(State))
        li = self.layer_of(self.root_key(), 0)
        if li < 0:
            return ST_OUT_OF_MEMORY
        e.lo = e.hi = 0
        for col in range(self.root.ncols):
            for h in range(self.canon[col][self.root.height[col]], self.root.height[col]):
                enc_set(&e, self.root.cols[col][h], card_suit(self.root.cols[col][h - 1]))
        pack(&self.layers[li], &e, rec)
        if self.insert(&self.layers[li], rec) < 0:
            return ST_OUT_OF_MEMORY
        for progress in range(MAXPROGRESS + 1):
            k = 0
            while k < self.plen[progress]:
                self.progress = progress
                st = self.expand_layer(self.plist[progress][k], &s)
                if st >= 0:
                    return st
                k += 1
        return ST_UNSOLVABLE

    cdef int report_progress(self) noexcept:
        """Call ``progress(nodes, bytes)`` (the GIL held); -1 with ``exc_*`` set if it raised."""
        cdef PyObject* result = call_function(
            self.progress_fn, "KK", <unsigned long long>self.nodes,
            <unsigned long long>self.bytes
        )
        if result == NULL:
            PyErr_Fetch(&self.exc_type, &self.exc_value, &self.exc_tb)
            return -1
        Py_XDECREF(result)
        return 0

    def run(self, *, double time_limit=0.0, unsigned long long max_nodes=0,
            unsigned long long seed=0, progress=None):
        """Enumerate the reachable positions.  Releases the GIL; runs once.

        Parameters
        ----------
        time_limit : float
            Seconds of wall-clock time, 0 for none.
        max_nodes : int
            Positions generated (children made), 0 for none.
        seed : int
            Ignored: the enumeration is the same in any order.
        progress : callable or None
            Called as ``progress(nodes, bytes)`` (the bytes the layers
            hold) at most five times a second, when the search looks for
            signals; what it raises, the search raises.

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
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, not {progress!r}")
        self.ran = True
        self.max_nodes = max_nodes
        if self.root.left == 0:
            return (ST_SOLVED, [], 0, 1, 0)
        self.progress_ref = progress
        self.progress_fn = NULL if progress is None else <PyObject*>progress
        with nogil:
            start = now_seconds()
            self.deadline = start + time_limit if time_limit > 0 else 0.0
            self.next_signal_check = start + 0.02
            self.next_progress = start + PROGRESS_SECONDS
            st = self.run_layers()
        self.progress_fn = NULL
        self.progress_ref = None
        if st == ST_INTERRUPTED:
            PyErr_Restore(self.exc_type, self.exc_value, self.exc_tb)
            self.exc_type = self.exc_value = self.exc_tb = NULL
            raise_pending()
        return (st, [], self.nodes, 1, self.stored)

    @property
    def stats(self):
        """What the search used: ``layers`` (made), ``largest`` (positions of
        the largest layer freed), ``peak_positions`` (positions held at once),
        ``lost`` (positions found lost), ``progress`` (the progress, cards
        home plus dealt cards moved, of the layers expanded last),
        ``top_progress`` (the greatest progress reached), ``peak_bytes`` and
        ``budget`` (bytes)."""
        return {"layers": self.nlayers, "largest": self.largest,
                "peak_positions": self.peak_live, "lost": self.lost,
                "progress": self.progress, "top_progress": self.top_progress,
                "peak_bytes": self.peak_bytes, "budget": self.budget}


cdef int raise_pending() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1
