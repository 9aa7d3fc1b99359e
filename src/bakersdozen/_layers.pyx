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

When the search reaches a won position, its winning line is traced back
through the *kept stream* (docs/engine.md, "Winning lines from the
layers"): every position expanded and not lost, written layer by layer in
the order expanded (in memory, within the budget; on disk, in a kept file
per progress value), and read backward once, each step to a parent
written earlier and checked by a legal move.

It needs Baker's Dozen's play (also Good Measure's): one card per move,
building on any card one rank higher, foundations by suit, no card back
from a foundation, empty columns that take nothing.

On disk (docs/engine.md, "The layered search on disk"), the same class
expands one file of records at a time: :meth:`LayeredSearch.spill_to` makes
the children that leave their layer go to the file of their progress value
(``_spill.pxd``) instead of a layer in memory, and
:meth:`LayeredSearch.expand_file` loads a file into its layers' hash sets
(where its duplicates meet) and expands them.  :mod:`bakersdozen._disk`
drives these steps and keeps the checkpoints.
"""

from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject, Py_XDECREF
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.errno cimport errno
from libc.string cimport memcpy, memmove, memset
from libc.stdio cimport FILE, SEEK_END, SEEK_SET, _IONBF, fclose, fopen, fread, fseek, ftell, setvbuf

from bakersdozen._position cimport (
    BUILD_ANY, EMPTY_KINGS, FOUND_SUIT, MAXCOLS, MAXHEIGHT, MAXMOVES, NCARDS, NO_COLUMN,
    PLAIN_MOVES, RANK_MASK, TO_FOUNDATION, UNIT_ONE, State, bd_ctz, bd_popcount, bit, card_rank,
    card_suit, deadlock_set_but, gen_legal, is_safe_home, make, make_move, move_card, move_target,
    move_t, move_to_tuple, splitmix64, state_from_python, unmake,
)
from bakersdozen._search cimport (
    ST_INTERRUPTED, ST_NODE_LIMIT, ST_OUT_OF_MEMORY, ST_SOLVED, ST_TIME_LIMIT, ST_UNSOLVABLE,
    now_seconds,
)
from bakersdozen._spill cimport (
    HEAD, RECORD_MAX, SP_ERROR, SP_FULL, SP_OK, Disk, Sink, read_full, records_close,
    records_put, sink_close, sink_write_out,
)

cdef extern from "Python.h":
    # declared without "except -1": the search keeps the exception itself
    int check_signals "PyErr_CheckSignals"() noexcept
    PyObject* call_function "PyObject_CallFunction"(PyObject* callable, const char* format, ...) noexcept

# Seconds between two calls of the progress callable (at least), as _search's.
cdef double PROGRESS_SECONDS = 0.2


cdef enum:
    MAXPROGRESS = 2 * NCARDS + 2   # progress values: cards home + dealt cards moved
    # Statuses of the disk search, beyond those of _search (ST_*)
    ST_DISK = 6                    # the disk budget would be passed, or the disk is full
    ST_IO_ERROR = 7                # the system refused a read or write (LayeredSearch.errno)
    ST_DAMAGED = 8                 # a file of records ends inside a record, or holds
                                   #   one no search writes

#: The statuses of the disk search beyond those of :mod:`bakersdozen._search`:
#: the disk budget or the disk is full; a read or write failed
#: (``LayeredSearch.errno``); a file of records ends inside a record, or
#: holds one no search writes.
DISK_FULL = ST_DISK
IO_ERROR = ST_IO_ERROR
DAMAGED = ST_DAMAGED
#: The number of progress values (0 .. MAXPROGRESS): a disk search's files are
#: numbered by them.
PROGRESS_VALUES = MAXPROGRESS + 1

# The write buffers of a split's parts, or of a layer's shards, share a sixth
# of the budget, each PART_MIN to PART_MAX bytes.
cdef enum:
    PART_MIN = 1024
    PART_MAX = 1048576


cdef inline uint64_t part_cap(uint64_t budget, uint64_t n) noexcept nogil:
    """Bytes of each of *n* part or shard buffers in a budget of *budget*
    bytes: a sixth of the budget shared, PART_MIN to PART_MAX each, a
    multiple of 8."""
    return min(max(budget // 6 // n, <uint64_t>PART_MIN), <uint64_t>PART_MAX) & ~7ULL


def most_parts(unsigned long long budget):
    """The most parts a file is split into, or shards a layer is expanded
    in, by a search of *budget* bytes (its ``memory_mb`` times 2**20): as
    many buffers of the least size (1 KiB), with their headers, as the
    sixth of the budget they share holds.  The drivers
    (``bakersdozen._disk``, ``bakersdozen._parallel``) ask for no more;
    :meth:`LayeredSearch.split_files` and :meth:`LayeredSearch.expand_shard`
    take more while the whole budget holds them, and return OUT_OF_MEMORY
    when it does not."""
    return budget // 6 // (PART_MIN + sizeof(Sink))

# Bit 63 of the layer key of an entry in a file's buffer (_spill.pxd): a
# wide record (its two words are the record, not its first alone; on disk a
# block's head says 16 bytes a record).  A layer key takes at most 55 bits.
cdef uint64_t WIDE = 1ULL << 63

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
    uint64_t done      # the mark of a slot whose position is expanded or on the work stack:
                       #   the bit above a one-word record's 1 (a slot always has it), bit 62
                       #   of a two-word record's second word
    uint64_t salt      # xor'd into a record before it is hashed: a hash of lkey (insert())
    int progress
    int width          # words per record: 1 or 2
    int sbytes         # bytes per slot: 1..8 (width 1), 16 (width 2)


cdef inline uint64_t table_bytes(uint64_t cap, int sbytes) noexcept nogil:
    """The bytes of a layer's table of *cap* slots of *sbytes* bytes: the slots
    and 8 bytes of padding (a word read past the last slot); 0 with no slots."""
    return cap * <uint64_t>sbytes + 8 if cap else 0


# Each layer hashes its records xor a salt of its own, a hash of its key.
# A move that only changes the layer key (a card still in its dealt place
# played to a foundation) leaves the record as it was, so a layer expanded in
# slot order (its hash order) sends such children to the child layer, or to
# its file, in that same order.  Inserted in hash order into a table that
# starts small and doubles, linear probing builds one cluster that every
# insertion walks: deal 47145 of Baker's Dozen loaded a file of 80 million
# records at 0.4 million a second, 99.8 % of the time in insert().  With the
# salts the two layers' orders are unrelated.
cdef uint64_t LAYER_SALT = 0x5851F42D4C957F2DULL


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    """A hash of *x*: the splitmix64 value that follows it."""
    return splitmix64(&x)


cdef inline uint64_t narrow_hash(uint64_t rec, uint64_t salt) noexcept nogil:
    """A hash of a one-word record (its done mark cleared), in a layer of *salt*."""
    return mix(rec ^ salt)


cdef inline uint64_t wide_hash(const uint64_t* rec, uint64_t salt) noexcept nogil:
    """A hash of a two-word record (its done mark cleared), in a layer of *salt*."""
    return mix(rec[0] ^ salt ^ mix(rec[1]))


# A layer too large for one task's memory is cut into shards by a hash of
# its positions' records (bakersdozen._parallel, "shard" tasks): the salt
# keeps that hash apart from the one of the layer's table.
cdef uint64_t SHARD_SALT = 0x2545F4914F6CDD1DULL


cdef inline uint64_t shard_of(uint64_t lkey, const uint64_t* rec, bint wide, uint64_t salt,
                              uint64_t n) noexcept nogil:
    """The shard, of *n*, that owns record *rec* (unmarked; two words if
    *wide*) of layer *lkey*: the top 32 bits of a hash scaled to *n*, so that
    with 2n shards the records of shard k go to shards 2k and 2k+1."""
    cdef uint64_t t = mix(lkey ^ salt ^ SHARD_SALT)
    cdef uint64_t h = wide_hash(rec, t) if wide else narrow_hash(rec[0], t)
    return ((h >> 32) * n) >> 32


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


cdef inline bint any_blocked(const State* s, int free_rank) noexcept nogil:
    """Is some card stuck above a lower card of its suit (``blocked`` in
    ``_position``: every card one rank higher is home or beneath it)?
    Cards of rank *free_rank* are never stuck (Kings, where empty columns
    take them; 0: none).

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
            if low[suit] < r and (RANK_MASK[r + 1] & tab & ~below) == 0 and r != free_rank:
                return True
            if r < low[suit]:
                low[suit] = r
            below |= bit(y)
    return False


cdef inline int record_width(int k) noexcept nogil:
    """Words per record of a layer with *k* moved cards: 1 up to 31, else 2."""
    return 1 if k <= 31 else 2


cdef inline int record_size(int k) noexcept nogil:
    """Bytes per record of a layer with *k* moved cards: the 2k bits and the 1
    above them in as few bytes as hold them, or 16 when two words."""
    return (2 * k + 8) // 8 if k <= 31 else 16


cdef inline void wide_mask(uint64_t m, uint64_t* mask) noexcept nogil:
    """The bits a two-word record of the cards *m* may hold: the two bits of
    each card of *m*, cards 0..31 in *mask[0]*, 32..51 in *mask[1]*."""
    cdef int y
    mask[0] = mask[1] = 0
    while m:
        y = bd_ctz(m)
        m &= m - 1
        mask[y >> 5] |= 3ULL << (2 * (y & 31))


cdef inline void pack_moved(uint64_t m, int width, const Enc* e, uint64_t* rec) noexcept nogil:
    """The record of position *e* in a layer of moved cards *m* and *width*:
    the bits of the cards of *m* alone, whatever *e* holds for the others (a
    position rebuilt from a child, as the winning line's walk does, holds
    the supports of the cards that the move made moved cards)."""
    cdef uint64_t v = 0
    cdef uint64_t mask[2]
    cdef int k = 0, y
    if width == 2:
        wide_mask(m, mask)
        rec[0] = e.lo & mask[0]
        rec[1] = (e.hi & mask[1]) | USED
        return
    while m:
        y = bd_ctz(m)
        m &= m - 1
        v |= (<uint64_t>enc_bits(e, y)) << k
        k += 2
    rec[0] = v | (1ULL << k)


cdef inline void pack(const Layer* L, const Enc* e, uint64_t* rec) noexcept nogil:
    """The record of position *e* in layer *L* (L.width words)."""
    pack_moved(L.moved, L.width, e, rec)


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



cdef inline void put_le(uint8_t* p, uint64_t v, int n) noexcept nogil:
    """The *n* low bytes of *v* at *p*, lowest first."""
    cdef int i
    for i in range(n):
        p[i] = <uint8_t>(v >> (8 * i))


cdef inline uint64_t get_le(const uint8_t* p, int n) noexcept nogil:
    """The value of the *n* bytes at *p*, lowest first."""
    cdef uint64_t v = 0
    cdef int i
    for i in range(n):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v


# The bits of a layer key in a kept block's trailer (the bytes per position above them).
cdef uint64_t KEY_BITS = (1ULL << 56) - 1

cdef enum:
    # Most predecessors a position has: 13 top cards and 4 foundation tops,
    # each from one of five places (on one of the four cards one rank higher,
    # or its dealt place).
    MAXPRED = 96
    # Bytes of a kept file that one read takes, walking it backward: a
    # block's records in pieces of BACK_PIECE (one read per piece, not one
    # per record), and a block's trailer in a piece of BACK_SKIP, which
    # holds the trailers of the small blocks before it and does not read
    # much of a large block that the walk skips.
    BACK_PIECE = 1 << 22
    BACK_SKIP = 1 << 16
    # Bytes of a slot of the layer map: its layer index (lmap) and key (lmap_keys).
    LMAP_SLOT = 16


# A kept stream read backward: a file (f) through a buffer of the bytes
# [lo, hi) of it, or a stream in memory (mem).
cdef struct Back:
    FILE* f
    const uint8_t* mem
    uint8_t* buf
    uint64_t cap
    uint64_t lo
    uint64_t hi


cdef inline bint back_held(const Back* r, uint64_t a, uint64_t n) noexcept nogil:
    """Whether the bytes [a, a + n) of the stream are at hand, with no read."""
    return r.f == NULL or (a >= r.lo and a + n <= r.hi)


cdef const uint8_t* back_get(Back* r, uint64_t a, uint64_t n, uint64_t piece) noexcept nogil:
    """The bytes [a, a + n) of the stream, or NULL (a failed read, out of memory).
    A file is read in pieces of *piece* bytes (*n* if more) that end where
    the bytes asked for end: a backward walk finds the next ones there."""
    cdef uint64_t start, end = a + n
    cdef uint8_t* nbuf
    if back_held(r, a, n):
        return r.mem + a if r.f == NULL else r.buf + (a - r.lo)
    if n > piece:
        piece = n
    if piece > r.cap:
        nbuf = <uint8_t*>realloc(r.buf, piece)
        if nbuf == NULL:
            return NULL
        r.buf = nbuf
        r.cap = piece
    start = end - piece if end > piece else 0
    if fseek(r.f, <long>start, SEEK_SET) != 0:
        return NULL
    if fread(r.buf, 1, end - start, r.f) != end - start:
        return NULL
    r.lo = start
    r.hi = end
    return r.buf + (a - start)


cdef const uint8_t* back_read(Back* r, uint64_t a, uint64_t n, uint64_t piece) noexcept:
    """:func:`back_get`, called with the GIL held: let go while a piece is
    read from the file, so that the threads beside a long walk back (the
    driver's reports, the other tasks) run on."""
    cdef const uint8_t* q
    if back_held(r, a, n):
        return back_get(r, a, n, piece)
    with nogil:
        q = back_get(r, a, n, piece)
    return q


cdef inline bint same_position(const State* a, const State* b) noexcept nogil:
    """Whether two positions of one deal have the same foundations and the
    same columns, up to their order (a King put into an empty column lies in
    whichever one a record's rebuilding puts it: docs/engine.md, "Kings into
    empty columns").  With the same foundations the two hold the same
    cards, so each column of *a* matched whole, by its bottom card, to one
    of *b* leaves none of *b*'s unmatched."""
    cdef int c, d, i
    for c in range(4):
        if a.found[c] != b.found[c]:
            return False
    for c in range(a.ncols):
        if a.height[c] == 0:
            continue
        d = b.where[a.cols[c][0]]
        if d == NO_COLUMN or a.height[c] != b.height[d]:
            return False
        for i in range(a.height[c]):
            if a.cols[c][i] != b.cols[d][i]:
                return False
    return True


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
    cdef bint kings                # Kings (only) go into empty columns: Portuguese Solitaire's play
    cdef uint8_t canon[MAXCOLS][MAXHEIGHT + 1]  # canon[c][m]: dealt cards in place of column c
                                   #   when its lowest m are, less their top run of built cards
    cdef int pshift[MAXCOLS]       # where column c's dealt height sits in a layer key
    cdef uint64_t pmask[MAXCOLS]   # and its mask (as many bits as its greatest value needs)
    cdef uint64_t suit_upto[4][16] # cards of suit p of rank <= f
    cdef uint64_t dealt_upto[MAXCOLS][MAXHEIGHT + 1]  # the first d cards dealt to column c
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
    cdef PyObject* layers_fn       # progress.layers(value, most, stored, disk_bytes), or NULL
    cdef object layers_ref         #   (the progress callable's attribute, if it has one)
    cdef int most_progress         # the progress of the won position
    cdef double next_progress      # monotonic seconds of its next call
    cdef uint64_t* work            # positions of the layer being expanded, still to expand
    cdef uint64_t wlen, wcap       # words in use, words allocated
    cdef uint64_t wlimit           # most words it holds: 1/16 of the budget (1024 at least)
    cdef bint ran
    cdef uint64_t node_stop        # nodes at which the search stops (max_nodes, or never)
    cdef uint64_t made             # layers made (in memory, nlayers; on disk, over every partition)
    # the disk search (docs/engine.md, "The layered search on disk"); spill False: in memory
    cdef bint spill                # children of other layers are appended to files
    cdef Disk disk                 # the bytes in the work directory's files, and their budget
    cdef Sink sinks[MAXPROGRESS + 1]   # the file of each progress value
    cdef object sink_paths         # the bytes objects sinks[].path point into
    cdef uint64_t sink_cap         # bytes of one sink's buffer
    cdef uint8_t* chunk            # the read buffer (chunk_cap bytes)
    cdef uint64_t chunk_cap
    cdef int errno_                # the errno of an ST_IO_ERROR
    cdef uint64_t salt             # the split's hash: of the layer key xor salt
    cdef uint64_t first_key        # the first layer key a split read
    cdef bint mixed                # and whether it read another
    cdef PyObject* exc_type
    cdef PyObject* exc_value
    cdef PyObject* exc_tb
    # the kept stream: every position expanded and not lost, for the winning
    # line (docs/engine.md, "Winning lines from the layers")
    cdef bint keep                 # write each expanded position to the kept stream
    cdef bint kept_dropped         # in memory: the stream outgrew the budget and was let go
    cdef uint8_t* kmem             # in memory: the stream, klen bytes of kcap (counted in bytes)
    cdef uint64_t klen, kcap
    cdef Sink ksink                # on disk: the kept file of the progress being expanded
    cdef object kept_paths         # the bytes objects of the kept files' names, by progress
    cdef object traced_line        # the line trace() returned last, None before (or none found)
    cdef uint64_t kcount           # positions in the block being written
    cdef uint64_t kkey             # and its layer key
    cdef int ksbytes               # and its bytes per position
    cdef uint64_t won_lkey         # the position whose move home won (one card left):
    cdef Enc won_enc               #   its layer key and its moved cards' supports
    # a shard of a layer (expand_shard): the layer's positions are cut by
    # shard_of() into nshards shards; this search expands shard `shard`
    cdef uint64_t nshards          # 0: not a shard
    cdef uint64_t shard
    cdef uint64_t shard_salt
    cdef Sink* shard_sinks         # nshards buffers: the layer's children other shards own
    cdef uint64_t shard_cap        # bytes of each
    cdef Sink* seen_sink           # one buffer: the shard's positions expanded, for the rounds after
    cdef bint load_marked          # read_records() adds its records marked done
    cdef object shard_paths        # the bytes objects their paths point into
    cdef uint64_t layer_most       # most positions a layer may hold, 0: the budget alone

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
        self.spill = False
        self.chunk = NULL
        self.chunk_cap = 0
        self.errno_ = 0
        memset(&self.disk, 0, sizeof(Disk))
        memset(self.sinks, 0, sizeof(self.sinks))
        self.sink_paths = None
        self.exc_type = self.exc_value = self.exc_tb = NULL
        self.keep = True
        self.kept_dropped = False
        self.kmem = NULL
        self.klen = self.kcap = self.kcount = 0
        memset(&self.ksink, 0, sizeof(Sink))
        self.kept_paths = None
        self.nshards = self.shard = self.shard_salt = self.shard_cap = 0
        self.shard_sinks = NULL
        self.shard_paths = None
        self.layer_most = 0
        self.seen_sink = NULL
        self.load_marked = False
        state_from_python(&self.root, columns, foundations, ranks, play)
        # the lost test with the Kings left out is proved for these knobs
        # (Play.kings_only); the layered search plays them with one card a
        # move and builds on any suit, as Baker's Dozen
        self.kings = (self.root.play.kings_only and self.root.play.build == BUILD_ANY
                      and self.root.play.moves == UNIT_ONE)
        if not (self.kings or (self.root.play.plain and self.root.play.dead
                               and self.root.play.safe_home)):
            raise ValueError(
                "the layered search needs Baker's Dozen's play (one card per move, build on "
                "any card one rank higher, foundations by suit, no foundation return, empty "
                "columns take nothing), or the same with Kings only into empty columns "
                "(Portuguese Solitaire's): use method='proof' or 'dfs' for other rules"
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
        for c in range(self.root.ncols):
            self.dealt_upto[c][0] = 0
            for f in range(1, self.root.height[c] + 1):
                self.dealt_upto[c][f] = self.dealt_upto[c][f - 1] | bit(self.root.cols[c][f - 1])
        self.budget = <uint64_t>(memory_mb * 1048576.0)
        self.wlimit = max(self.budget // 128, 1024)
        self.bytes = self.peak_bytes = 0
        self.nodes = self.max_nodes = self.stored = self.live = self.peak_live = 0
        self.lost = self.largest = self.made = 0
        self.node_stop = ~0ULL
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
        self.bytes = self.layers_cap * sizeof(Layer) + self.lmap_cap * LMAP_SLOT
        self.layers_fn = NULL
        self.layers_ref = None
        self.most_progress = 0
        for p in range(4):
            self.most_progress += self.root.ranks - self.root.found[p]
        for c in range(self.root.ncols):
            self.most_progress += self.canon[c][self.root.height[c]]

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
            if self.sinks[p].f != NULL:
                fclose(self.sinks[p].f)
            free(self.sinks[p].buf)
        free(self.chunk)
        free(self.kmem)
        if self.ksink.f != NULL:
            fclose(self.ksink.f)
        free(self.ksink.buf)
        self.end_shard(False)
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

    cdef bint key_ok(self, uint64_t lkey, int progress) noexcept nogil:
        """Whether *lkey* is a key the search of this position may give a layer
        (of *progress*; -1: of any): no bits past the last column's, each
        foundation from the root's height to the top rank, each column's dealt
        height one its top run of built cards allows, no card both home and
        in its dealt place."""
        cdef uint64_t home = 0, dealt = 0, f
        cdef int p, c, d, last = self.root.ncols - 1
        if lkey >> (self.pshift[last] + bd_popcount(self.pmask[last])):
            return False
        for p in range(4):
            f = (lkey >> (4 * p)) & 15
            if f < <uint64_t>self.root.found[p] or f > <uint64_t>self.root.ranks:
                return False
            home |= self.suit_upto[p][f]
        for c in range(self.root.ncols):
            d = self.dealt_left(lkey, c)
            if d > self.root.height[c] or self.canon[c][d] != d:
                return False
            dealt |= self.dealt_upto[c][d]
        if home & dealt:
            return False
        return progress < 0 or self.progress_of(lkey) == <uint64_t>progress

    cdef uint64_t moved_cards(self, uint64_t lkey) noexcept nogil:
        """The cards of layer *lkey* that are neither home nor in their dealt place."""
        cdef uint64_t keep = 0
        cdef int p, c
        for p in range(4):
            keep |= self.suit_upto[p][(lkey >> (4 * p)) & 15]
        for c in range(self.root.ncols):
            keep |= self.dealt_upto[c][self.dealt_left(lkey, c)]
        return self.root.all_home & ~keep

    # -- memory ---------------------------------------------------------------

    cdef bint charge(self, int64_t delta) noexcept nogil:
        """Count *delta* bytes; False (nothing counted) if the budget would be passed
        (the kept stream in memory is let go first: the layers come before the line)."""
        if delta > 0 and self.bytes + <uint64_t>delta > self.budget:
            if self.kcap == 0:
                return False
            self.drop_kept()
            if self.bytes + <uint64_t>delta > self.budget:
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
            if not self.charge(<int64_t>(ncap * LMAP_SLOT)):    # the old arrays are held too, till moved
                return -1
            nmap = <int64_t*>malloc(ncap * sizeof(int64_t))
            nkeys = <uint64_t*>malloc(ncap * sizeof(uint64_t))
            if nmap == NULL or nkeys == NULL:
                free(nmap)
                free(nkeys)
                self.bytes -= ncap * LMAP_SLOT
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
            self.bytes -= self.lmap_cap * LMAP_SLOT
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
        L.width = record_width(k)
        L.sbytes = record_size(k)
        L.smask = ~0ULL if L.sbytes >= 8 else (1ULL << (8 * L.sbytes)) - 1
        L.done = (1ULL << (2 * k + 1)) if k <= 31 else (1ULL << 62)
        L.salt = mix(lkey ^ LAYER_SALT)
        L.tab = NULL
        L.n = L.cap = 0
        L.progress = progress
        self.plist[progress][self.plen[progress]] = <int64_t>self.nlayers
        self.plen[progress] += 1
        self.lmap[j] = <int64_t>self.nlayers + 1
        self.lmap_keys[j] = lkey
        self.nlayers += 1
        self.made += 1
        return <int64_t>self.nlayers - 1

    cdef int insert(self, Layer* L, const uint64_t* rec, bint mark=False) noexcept nogil:
        """Add the record *rec* to layer *L*, with its done mark if *mark*: 1 if
        new, 0 if there already, -1 out of memory.  Marks are not compared."""
        cdef int sb = L.sbytes
        cdef uint64_t mask, j, i, k, ncap, nbytes, x, unmarked = ~L.done
        cdef uint64_t old[2]
        cdef uint8_t* ntab
        cdef uint8_t* slot
        if self.layer_most and L.n >= self.layer_most:
            return -1               # as if out of memory (the tests' small layers)
        if (L.n + 1) * 4 > L.cap * 3:
            ncap = 2 * L.cap if L.cap else 16
            # the old table and the new are both held while the records move:
            # the new one is charged whole, and the old one let go after
            nbytes = table_bytes(ncap, sb)
            if not self.charge(<int64_t>nbytes):
                return -1
            ntab = <uint8_t*>malloc(nbytes)
            if ntab == NULL:
                self.bytes -= nbytes
                return -1
            memset(ntab, 0, nbytes)
            for i in range(L.cap):
                slot = &L.tab[i * sb]
                if sb == 16:
                    if load_word(slot + 8) & USED:
                        old[0] = load_word(slot)
                        old[1] = load_word(slot + 8) & unmarked
                        k = wide_hash(old, L.salt) & (ncap - 1)
                        while load_word(&ntab[k * 16 + 8]) & USED:
                            k = (k + 1) & (ncap - 1)
                        memcpy(&ntab[k * 16], slot, 16)
                else:
                    x = load_word(slot) & L.smask
                    if x:
                        k = narrow_hash(x & unmarked, L.salt) & (ncap - 1)
                        while load_word(&ntab[k * sb]) & L.smask:
                            k = (k + 1) & (ncap - 1)
                        store_slot(&ntab[k * sb], x, L.smask)
            self.bytes -= table_bytes(L.cap, sb)
            free(L.tab)
            L.tab = ntab
            L.cap = ncap
        mask = L.cap - 1
        if sb == 16:
            j = wide_hash(rec, L.salt) & mask
            while True:
                slot = &L.tab[j * 16]
                if (load_word(slot + 8) & USED) == 0:
                    break
                if load_word(slot) == rec[0] and (load_word(slot + 8) & unmarked) == rec[1]:
                    return 0
                j = (j + 1) & mask
            memcpy(slot, rec, 16)
            if mark:
                x = rec[1] | L.done
                memcpy(slot + 8, &x, 8)
        else:
            j = narrow_hash(rec[0], L.salt) & mask
            while True:
                slot = &L.tab[j * sb]
                x = load_word(slot) & L.smask
                if x == 0:
                    break
                if (x & unmarked) == rec[0]:
                    return 0
                j = (j + 1) & mask
            store_slot(slot, rec[0] | (L.done if mark else 0), L.smask)
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
        self.bytes -= table_bytes(L.cap, L.sbytes)
        self.live -= L.n
        if L.n > self.largest:
            self.largest = L.n
        free(L.tab)
        L.tab = NULL
        L.cap = 0

    # -- the disk search ---------------------------------------------------------

    cdef int spill_child(self, uint64_t ckey, int cprog, uint64_t cmoved,
                         const Enc* child) noexcept nogil:
        """Append position *child* of layer *ckey* (progress *cprog*, moved cards
        *cmoved*) to its progress value's file: -1, or a status."""
        cdef uint64_t rec[2]
        cdef Sink* sk = &self.sinks[cprog]
        cdef int width = record_width(bd_popcount(cmoved)), st
        if sk.buf == NULL:
            if not self.charge(<int64_t>self.sink_cap):
                return ST_OUT_OF_MEMORY
            sk.buf = <uint8_t*>malloc(self.sink_cap)
            if sk.buf == NULL:
                self.bytes -= self.sink_cap
                return ST_OUT_OF_MEMORY
            sk.cap = self.sink_cap
            sk.len = 0
        rec[1] = 0
        pack_moved(cmoved, width, child, rec)
        st = records_put(&self.disk, sk, ckey | (WIDE if width == 2 else 0), rec[0], rec[1])
        if st != SP_OK:
            return self.disk_status(st)
        if cprog > self.top_progress:
            self.top_progress = cprog
        return -1

    cdef int disk_status(self, int st) noexcept nogil:
        """The search status of a sink's SP_ status (not SP_OK)."""
        if st == SP_FULL:
            return ST_DISK
        self.errno_ = self.disk.err
        return ST_IO_ERROR

    cdef int poll(self) noexcept nogil:
        """Look at the clock, the signals and the progress callable: -1, or a status."""
        cdef double t = now_seconds()
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
        return -1

    cdef int read_records(self, FILE* f, int progress, Sink* parts, uint64_t nparts,
                          bint by_record=False) noexcept nogil:
        """Read a file of records (*f*, to its end; blocks, ``_spill.pxd``): with
        *nparts* 0, add each record to its layer (of *progress*), made if new
        (marked done if :attr:`load_marked`; in a shard, a record the shard
        does not own is :data:`DAMAGED`); else add each to the buffer
        ``parts[k]``, *k* a hash of its layer key, or with *by_record* the
        shard of *nparts* that owns it (:func:`shard_of`, salt :attr:`salt`).
        -1, or a status (:data:`DAMAGED` for a block cut short or a head that
        no search writes)."""
        cdef uint64_t have = 0, pos = 0, key = 0, k = 0, left = 0, head
        cdef uint64_t rec[2]
        cdef uint64_t wmask[2]                   # the bits a wide record may hold
        cdef long got
        cdef int sb = 0, st, top = 0
        cdef int64_t li = -1
        cdef bint eof = False
        if self.chunk == NULL:
            if not self.charge(<int64_t>self.chunk_cap):
                return ST_OUT_OF_MEMORY
            self.chunk = <uint8_t*>malloc(self.chunk_cap + 8)   # a word read past a record
            if self.chunk == NULL:
                self.bytes -= self.chunk_cap
                return ST_OUT_OF_MEMORY
        while True:
            if have - pos < RECORD_MAX and not eof:
                memmove(self.chunk, self.chunk + pos, have - pos)
                have -= pos
                pos = 0
                got = read_full(f, self.chunk + have, self.chunk_cap - have)
                if got < 0:
                    self.errno_ = errno
                    return ST_IO_ERROR
                eof = <uint64_t>got < self.chunk_cap - have
                have += <uint64_t>got
                st = self.poll()
                if st >= 0:
                    return st
            if pos == have:
                return ST_DAMAGED if left else -1
            if left == 0:
                # a block's head: its count, its layer key and bytes per record
                if have - pos < HEAD:
                    return ST_DAMAGED
                left = load_word(self.chunk + pos)
                head = load_word(self.chunk + pos + 8)
                key = head & KEY_BITS
                sb = <int>(head >> 56)
                pos += HEAD
                if left == 0 or not (1 <= sb <= 8 or sb == 16) or \
                        not self.key_ok(key, -1 if nparts else progress):
                    return ST_DAMAGED
                # a wide record: the two bits of each card that may be moved,
                # in a layer its moved cards' (all cards: 32-51 in 40 bits)
                wmask[0] = ~0ULL
                wmask[1] = (1ULL << 40) - 1
                if nparts:
                    if not self.mixed and key != self.first_key:
                        if self.first_key == ~0ULL:
                            self.first_key = key
                        else:
                            self.mixed = True
                    k = ((mix(key ^ self.salt) >> 32) * nparts) >> 32
                else:
                    li = self.layer_of(key, progress)
                    if li < 0:
                        return ST_OUT_OF_MEMORY
                    if self.layers[li].sbytes != sb:
                        return ST_DAMAGED
                    top = 2 * bd_popcount(self.layers[li].moved)
                    if sb == 16:
                        wide_mask(self.layers[li].moved, wmask)
                continue
            if have - pos < <uint64_t>sb:
                return ST_DAMAGED
            if sb == 16:
                rec[0] = load_word(self.chunk + pos)
                rec[1] = load_word(self.chunk + pos + 8)
            else:
                rec[0] = load_word(self.chunk + pos) & (~0ULL >> (64 - 8 * sb))
                rec[1] = 0
            # a record as a search writes it: a wide one in use, not marked
            # done, with bits for the cards that may be moved alone; a narrow
            # one with its 1 above its bits in its last byte (and, in a layer,
            # above the layer's moved cards)
            if sb == 16:
                if (rec[1] & USED) == 0 or (rec[0] & ~wmask[0]) != 0 or \
                        (rec[1] & ~(wmask[1] | USED)) != 0:
                    return ST_DAMAGED
            elif rec[0] >> (8 * sb - 8) == 0 or (nparts == 0 and rec[0] >> top != 1):
                return ST_DAMAGED
            pos += <uint64_t>sb
            left -= 1
            if nparts:
                if by_record:
                    k = shard_of(key, rec, sb == 16, self.salt, nparts)
                st = records_put(&self.disk, &parts[k], key | (WIDE if sb == 16 else 0),
                                 rec[0], rec[1])
                if st != SP_OK:
                    return self.disk_status(st)
            elif self.nshards and \
                    shard_of(key, rec, sb == 16, self.shard_salt, self.nshards) != self.shard:
                return ST_DAMAGED
            elif self.insert(&self.layers[li], rec, self.load_marked) < 0:
                return ST_OUT_OF_MEMORY

    cdef int expand_loaded(self) noexcept nogil:
        """Expand every layer in memory (all of one progress value, loaded from
        a file), freeing each, then forget them: -1, or a status."""
        cdef State s
        cdef uint64_t li
        cdef int st, st2
        memcpy(&s, &self.root, sizeof(State))
        for li in range(self.nlayers):
            self.keep_begin(<int64_t>li)
            st = self.expand_layer(<int64_t>li, &s)
            st2 = self.keep_end()
            if st >= 0:
                return st
            if st2 >= 0:
                return st2
        self.forget_layers()
        return -1

    cdef void forget_layers(self) noexcept nogil:
        """Free the layers in memory and empty the map of layer keys."""
        cdef uint64_t i
        cdef int p
        for i in range(self.nlayers):
            if self.layers[i].tab != NULL:
                self.release(&self.layers[i])
        self.nlayers = 0
        memset(self.lmap, 0, self.lmap_cap * sizeof(int64_t))
        for p in range(MAXPROGRESS + 1):
            self.plen[p] = 0


    # -- the kept stream and the winning line ---------------------------------------
    # (docs/engine.md, "Winning lines from the layers")  Each layer expanded
    # writes a block: the record of each position it expands and finds not
    # lost, in the order expanded (its slot's bytes, lowest first), then a
    # trailer of 16 bytes: the number of records, and the layer key with the
    # bytes per record in bits 56-60 (both words lowest byte first).

    cdef int keep_put(self, const uint8_t* p, uint64_t n) noexcept nogil:
        """Append *n* bytes to the kept stream: -1, or a status (on disk)."""
        cdef uint64_t ncap
        cdef uint8_t* nmem
        cdef int st
        if self.spill:
            if self.ksink.len + n > self.ksink.cap:
                st = sink_write_out(&self.disk, &self.ksink)
                if st != SP_OK:
                    return self.disk_status(st)
            memcpy(self.ksink.buf + self.ksink.len, p, n)
            self.ksink.len += n
            return -1
        if self.klen + n > self.kcap:
            ncap = max(2 * self.kcap, 65536)
            if self.bytes + (ncap - self.kcap) > self.budget:
                self.drop_kept()     # no room for it: the line is left to the default search
                return -1
            nmem = <uint8_t*>realloc(self.kmem, ncap)
            if nmem == NULL:
                self.drop_kept()
                return -1
            self.kmem = nmem
            self.bytes += ncap - self.kcap
            if self.bytes > self.peak_bytes:
                self.peak_bytes = self.bytes
            self.kcap = ncap
        memcpy(self.kmem + self.klen, p, n)
        self.klen += n
        return -1

    cdef void drop_kept(self) noexcept nogil:
        """Let the kept stream in memory go: the search keeps no line."""
        free(self.kmem)
        self.bytes -= self.kcap
        self.kmem = NULL
        self.klen = self.kcap = 0
        self.keep = False
        self.kept_dropped = True

    cdef void keep_begin(self, int64_t li) noexcept nogil:
        """Start the block of layer *li*."""
        self.kcount = 0
        self.kkey = self.layers[li].lkey
        self.ksbytes = self.layers[li].sbytes

    cdef int keep_position(self, const uint64_t* rec) noexcept nogil:
        """Add the record *rec* to the block: -1, or a status."""
        cdef uint8_t b[16]
        if self.ksbytes == 16:
            put_le(b, rec[0], 8)
            put_le(b + 8, rec[1], 8)
        else:
            put_le(b, rec[0], self.ksbytes)
        self.kcount += 1
        return self.keep_put(b, self.ksbytes)

    cdef int keep_end(self) noexcept nogil:
        """End the block with its trailer (none for a block of no records): -1, or a status."""
        cdef uint8_t b[16]
        if not self.keep or self.kcount == 0:
            return -1
        put_le(b, self.kcount, 8)
        put_le(b + 8, self.kkey | ((<uint64_t>self.ksbytes) << 56), 8)
        self.kcount = 0
        return self.keep_put(b, 16)

    cdef uint64_t progress_of(self, uint64_t lkey) noexcept nogil:
        """The progress of layer *lkey*: cards home and dealt cards moved since the root."""
        cdef uint64_t n = 0
        cdef int p, c
        for p in range(4):
            n += ((lkey >> (4 * p)) & 15) - self.root.found[p]
        for c in range(self.root.ncols):
            n += self.canon[c][self.root.height[c]] - self.dealt_left(lkey, c)
        return n

    cdef int add_record(self, uint64_t lkey, const Enc* e, int n, uint64_t* keys,
                        uint64_t* recs) noexcept nogil:
        """Add position *e* of layer *lkey* to the candidates: their count."""
        cdef uint64_t m = self.moved_cards(lkey)
        keys[n] = lkey
        recs[2 * n + 1] = 0
        pack_moved(m, record_width(bd_popcount(m)), e, &recs[2 * n])
        return n + 1

    cdef int add_origins(self, int y, uint64_t lkey, const Enc* e, int skip, int n,
                         uint64_t* keys, uint64_t* recs) noexcept nogil:
        """Add the positions of layer *lkey* (less the move of card *y*'s) whose
        card *y* lay where it may have come from: on one of the four cards one
        rank higher (but suit *skip*), or in its dealt place, on top of its
        column's dealt part; a King going home (*skip* -1), also in an empty
        column (its bits 0, as home).  Their count."""
        cdef Enc pe
        cdef int u, c, i
        if card_rank(y) < self.root.ranks:
            for u in range(4):
                if u != skip:
                    pe = e[0]
                    enc_set(&pe, y, u)
                    n = self.add_record(lkey, &pe, n, keys, recs)
        elif self.kings and skip < 0:
            n = self.add_record(lkey, e, n, keys, recs)
        c = self.root.where[y]
        if c != NO_COLUMN:
            i = 0
            while self.root.cols[c][i] != y:
                i += 1
            if self.canon[c][i + 1] == i + 1 and self.dealt_left(lkey, c) == self.canon[c][i]:
                n = self.add_record(lkey + ((<uint64_t>(i + 1 - self.canon[c][i])) << self.pshift[c]),
                                    e, n, keys, recs)
        return n

    cdef int predecessors(self, uint64_t lkey, const Enc* e, const State* t, uint64_t* keys,
                          uint64_t* recs) noexcept nogil:
        """The positions (*keys*, *recs*: layer keys and records) a legal move may
        have come from to position *e* of layer *lkey* (decoded in *t*), and
        more (each is checked by a move): their count, at most MAXPRED."""
        cdef uint64_t ys = t.tops & self.moved_cards(lkey)
        cdef int n = 0, y, p, r
        while ys:           # a card moved onto a column: a top card off its dealt place
            y = bd_ctz(ys)
            ys &= ys - 1
            n = self.add_origins(y, lkey, e, enc_bits(e, y), n, keys, recs)
        for p in range(4):  # a card moved home: the top of a foundation above the root's
            r = t.found[p]
            if r > self.root.found[p]:
                n = self.add_origins(4 * (r - 1) + p, lkey - (1ULL << (4 * p)), e, -1, n,
                                     keys, recs)
        return n

    cdef object walk(self, list paths):
        """The winning line, traced back from the won position through the kept
        stream (in memory, or the files *paths* in order of progress): a list
        of ``(card, source, target)`` moves, or None if the stream gives none
        (damaged, or a read failed)."""
        cdef State t, p, best
        cdef Enc te, pe, best_pe
        cdef uint64_t best_rec[2], best_j = 0
        cdef bint have_best = False
        cdef Layer tmp
        cdef Back r
        cdef move_t moves[MAXMOVES]
        cdef uint64_t keys[MAXPRED]
        cdef uint64_t recs[2 * MAXPRED]
        cdef uint64_t tkey, trec[2], rkey, rrec[2], pos = 0, bstart = 0, bj = 0, bkey = 0
        cdef uint64_t count, kw, e0, e1
        cdef const uint8_t* q
        cdef int seg, nseg, bsb = 0, ncand = 0, i, j, k, n, src, y, col, h
        cdef bint found, wanted, first
        memset(&r, 0, sizeof(Back))  # back_get() grows the buffer to the pieces read
        line = []
        best_move = None
        # the root, and the won position with its last move
        rkey = self.root_key()
        te.lo = te.hi = 0
        for col in range(self.root.ncols):
            for h in range(self.canon[col][self.root.height[col]], self.root.height[col]):
                enc_set(&te, self.root.cols[col][h], card_suit(self.root.cols[col][h - 1]))
        self.add_record(rkey, &te, 0, keys, recs)
        rrec[0] = recs[0]
        rrec[1] = recs[1]
        tkey = self.won_lkey
        te = self.won_enc
        memcpy(&t, &self.root, sizeof(State))
        self.decode(tkey, &te, &t)
        self.add_record(tkey, &te, 0, keys, recs)
        trec[0] = recs[0]
        trec[1] = recs[1]
        y = bd_ctz(t.all_home & ~t.home)
        line.append((y, -1))
        nseg = len(paths) if paths else 1
        seg = nseg
        first = True        # the stream's last record is the won position: read it first
        found = False
        try:
            while True:
                if bj == 0 and have_best:
                    # the block is read: its earliest record that leads to the
                    # target is the next target (the line leaves the layer sooner)
                    line.append(best_move)
                    tkey = bkey
                    te = best_pe
                    trec[0] = best_rec[0]
                    trec[1] = best_rec[1]
                    memcpy(&t, &best, sizeof(State))
                    bj = best_j
                    have_best = False
                    found = True
                if found:
                    if tkey == rkey and trec[0] == rrec[0] and trec[1] == rrec[1]:
                        break
                    ncand = self.predecessors(tkey, &te, &t, keys, recs)
                    found = False
                while bj == 0:
                    if pos == 0:        # the segment before
                        if r.f != NULL:
                            fclose(r.f)
                            r.f = NULL
                        seg -= 1
                        if seg < 0:
                            return None
                        if paths:
                            r.f = fopen(<bytes>paths[seg], "rb")
                            if r.f == NULL:
                                return None
                            setvbuf(r.f, NULL, _IONBF, 0)  # pieces go straight to r.buf
                            if fseek(r.f, 0, SEEK_END) != 0:
                                return None
                            pos = <uint64_t>ftell(r.f)
                            r.lo = r.hi = 0
                        else:
                            r.mem = self.kmem
                            pos = self.klen
                        continue
                    if pos < 16:
                        return None
                    q = back_read(&r, pos - 16, 16, BACK_SKIP)
                    if q == NULL:
                        return None
                    count = get_le(q, 8)
                    kw = get_le(q + 8, 8)
                    bsb = <int>(kw >> 56)
                    bkey = kw & KEY_BITS
                    if not (1 <= bsb <= 8 or bsb == 16) or count == 0 or \
                            count > (pos - 16) // <uint64_t>bsb:
                        return None
                    bstart = pos - 16 - count * <uint64_t>bsb
                    pos = bstart
                    wanted = first
                    for i in range(ncand):
                        if keys[i] == bkey:
                            wanted = True
                            break
                    bj = count if wanted else 0
                bj -= 1
                q = back_read(&r, bstart + bj * <uint64_t>bsb, <uint64_t>bsb, BACK_PIECE)
                if q == NULL:
                    return None
                e0 = get_le(q, 8 if bsb == 16 else bsb)
                e1 = get_le(q + 8, 8) if bsb == 16 else 0
                if first:
                    if bkey != tkey or e0 != trec[0] or e1 != trec[1]:
                        return None
                    first = False
                    found = True
                    continue
                for i in range(ncand):
                    if keys[i] != bkey or recs[2 * i] != e0 or recs[2 * i + 1] != e1:
                        continue
                    # a predecessor stored before: the move that leads to the target
                    tmp.moved = self.moved_cards(bkey)
                    tmp.width = record_width(bd_popcount(tmp.moved))
                    unpack(&tmp, &recs[2 * i], &pe)
                    memcpy(&p, &self.root, sizeof(State))
                    self.decode(bkey, &pe, &p)
                    n = gen_legal(&p, moves)
                    for j in range(n):
                        src = make(&p, moves[j])
                        k = same_position(&p, &t)
                        unmake(&p, moves[j], src)
                        if k:
                            # the card, and where it went: home, onto a card, or into an
                            # empty column (its number is the rebuilt position's)
                            col = move_target(moves[j])
                            best_move = (move_card(moves[j]), -1 if col == TO_FOUNDATION else (
                                p.cols[col][p.height[col] - 1] if p.height[col] else -2))
                            best_pe = pe
                            best_rec[0] = e0
                            best_rec[1] = e1
                            memcpy(&best, &p, sizeof(State))
                            best_j = bj
                            have_best = True
                            break
                    if have_best and best_j == bj:
                        break
        finally:
            if r.f != NULL:
                fclose(r.f)
            free(r.buf)
        line.reverse()
        return self.replay(line)

    cdef object replay(self, list line):
        """The moves of *line* (``(card, where)``, where: -1 home, -2 an empty
        column, else the card it goes onto) played from the root as
        ``(card, source, target)`` moves of its own columns, each one
        legal (a rebuilt position may hold its Kings in other columns);
        None if one is not."""
        cdef State s
        cdef move_t moves[MAXMOVES]
        cdef int n, j, y, to, want
        memcpy(&s, &self.root, sizeof(State))
        out = []
        for y, to in line:
            if to == -1:
                want = TO_FOUNDATION
            elif to >= 0:
                want = s.where[to]
            else:
                want = NO_COLUMN
                for j in range(s.ncols):
                    if s.height[j] == 0:
                        want = j
                        break
            n = gen_legal(&s, moves)
            for j in range(n):
                if move_card(moves[j]) == y and move_target(moves[j]) == want:
                    break
            else:
                return None
            out.append(move_to_tuple(&s, moves[j]))
            make(&s, moves[j])
        return out

    def trace(self, paths):
        """The winning line of a disk search that reached a won position,
        traced back through its kept files (*paths*: bytes, in order of
        progress; the files must be complete, :meth:`close_files` called):
        a list of ``(card, source, target)`` moves, or None if the files give none."""
        if not all(isinstance(x, bytes) for x in paths):
            raise ValueError("paths must be bytes objects")
        # kept before it is returned: a signal that arrives as the call
        # returns cannot take it (:attr:`traced`)
        self.traced_line = self.walk(list(paths))
        return self.traced_line

    @property
    def traced(self):
        """The line the last :meth:`trace` since :meth:`begin` found (a list
        of ``(card, source, target)`` moves), or None.  A caller that a
        Ctrl-C or other signal interrupts as the trace returns finds the
        line here, and keeps the win."""
        return self.traced_line

    def keep_to(self, paths):
        """Write the kept stream of a disk search to files: *paths* (bytes) names
        the file of each progress value, :data:`PROGRESS_VALUES` names."""
        if not self.spill:
            raise RuntimeError("spill_to() first")
        if len(paths) != MAXPROGRESS + 1 or not all(isinstance(x, bytes) for x in paths):
            raise ValueError(f"paths must be {MAXPROGRESS + 1} bytes objects")
        self.kept_paths = list(paths)
        if self.ksink.buf == NULL:
            if not self.charge(<int64_t>self.sink_cap):
                raise MemoryError("no room in the memory budget for the kept file's buffer")
            self.ksink.buf = <uint8_t*>malloc(self.sink_cap)
            if self.ksink.buf == NULL:
                self.bytes -= self.sink_cap
                raise MemoryError("cannot allocate the kept file's buffer")
            self.ksink.cap = self.sink_cap
        self.keep = True

    cdef int keep_file(self, int progress) noexcept:
        """Point the kept sink at the file of *progress* (the one before closed): -1, or a status."""
        cdef const char* path
        cdef int st
        if self.kept_paths is None:
            self.keep = False
            return -1
        path = <const char*>(<bytes>self.kept_paths[progress])
        if self.ksink.path != path:
            st = sink_close(&self.disk, &self.ksink)
            if st != SP_OK:
                return self.disk_status(st)
            self.ksink.path = path
        return -1

    # -- positions ----------------------------------------------------------------

    cdef void decode(self, uint64_t lkey, const Enc* e, State* s) noexcept nogil:
        """Rebuild position *e* of layer *lkey* into *s* (whose fixed part is the root's).

        A moved King lies in a column with no dealt card left: the moved
        Kings, in card order, fill those columns in column order (the
        record does not say which column; none of the rules tells them
        apart)."""
        cdef uint8_t onto[NCARDS]
        cdef uint64_t home = 0, dealt = 0, moved, has_onto = 0, tops = 0, kings = 0
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
            if card_rank(y) == self.root.ranks:
                kings |= bit(y)
                continue
            z = 4 * card_rank(y) + enc_bits(e, y)     # the card of rank + 1 and that suit
            onto[z] = <uint8_t>y
            has_onto |= bit(z)
        c = 0
        while kings:
            y = bd_ctz(kings)
            kings &= kings - 1
            while c < s.ncols and s.height[c] != 0:
                c += 1
            if c == s.ncols:
                break       # no record of the layer has more moved Kings than such columns
            s.cols[c][0] = <uint8_t>y
            s.where[y] = <uint8_t>c
            s.height[c] = 1
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
        cdef uint64_t lkey = self.layers[li].lkey, ckey, targets, cmoved
        cdef uint64_t cursor = 0, deferred = 0, cap0, owner
        cdef int w = self.layers[li].width, progress = self.layers[li].progress
        # Kings, where empty columns take them, can always leave: never stuck
        cdef int free_rank = self.root.ranks if self.kings else 0
        cdef uint64_t free = RANK_MASK[self.root.ranks] if self.kings else 0
        cdef int n, k, col, h, c, r, b, y, to, src, cprog, res, st, first_empty, safe
        cdef int64_t ci
        cdef bint mark
        cdef Enc e, child
        cdef Layer* L
        # The work stack holds positions to expand, at most wlimit words:
        # each position is marked done in its slot when it goes there, so
        # it is expanded once.  When the stack is empty, the table is swept
        # on from the cursor for unmarked positions: those the layer
        # received, and those its own moves added when the stack was full
        # (deferred).  A sweep that reaches the end with none deferred
        # leaves every position marked: the layer is expanded.
        self.wlen = 0
        while True:
            L = &self.layers[li]
            while self.wlen == 0:
                if cursor >= L.cap:
                    if deferred == 0:
                        self.release(L)
                        return -1
                    cursor = 0
                    deferred = 0
                k = self.sweep(L, &cursor)
                if k < 0:
                    return ST_OUT_OF_MEMORY
            self.wlen -= w
            if self.nshards:
                # a shard's position expanded now: the rounds after load it done
                st = records_put(&self.disk, self.seen_sink, lkey | (WIDE if w == 2 else 0),
                                 self.work[self.wlen], self.work[self.wlen + 1] if w == 2 else 0)
                if st != SP_OK:
                    return self.disk_status(st)
            unpack(L, &self.work[self.wlen], &e)
            self.decode(lkey, &e, s)
            if any_blocked(s, free_rank) or deadlock_set_but(s, free) != 0:
                self.lost += 1
                continue
            if self.keep:
                st = self.keep_position(&self.work[self.wlen])
                if st >= 0:
                    return st
            # the moves of the search generator (gen_search), unordered
            first_empty = -1        # (Kings into empty columns: the first of them only, rule 4)
            if self.kings:
                for col in range(s.ncols):
                    if s.height[col] == 0:
                        first_empty = col
                        break
            n = 0
            safe = NCARDS
            for col in range(s.ncols):
                h = s.height[col]
                if h == 0:
                    continue
                c = s.cols[col][h - 1]
                r = card_rank(c)
                if s.found[card_suit(c)] == r - 1:
                    if is_safe_home(s, c):
                        # rule 1: one safe move alone; with Kings into empty columns,
                        # the lowest card's (the columns' order is the rebuilding's)
                        if c < safe:
                            safe = c
                        if not self.kings:
                            break
                        continue
                    moves[n] = make_move(c, TO_FOUNDATION)
                    n += 1
                if h == 1:
                    if not self.kings:
                        continue      # rule 2: a lone card stays
                elif first_empty >= 0 and r == self.root.ranks:
                    moves[n] = make_move(c, first_empty)   # never a lone King: rule 4
                    n += 1
                targets = s.tops & RANK_MASK[r + 1]
                while targets:
                    b = bd_ctz(targets)
                    targets &= targets - 1
                    moves[n] = make_move(c, s.where[b])
                    n += 1
            if safe < NCARDS:
                moves[0] = make_move(safe, TO_FOUNDATION)
                n = 1
            for res in range(n):
                y = move_card(moves[res])
                to = move_target(moves[res])
                if self.nodes >= self.node_stop:
                    return ST_NODE_LIMIT
                self.nodes += 1
                if (self.nodes & 16383) == 0:
                    st = self.poll()
                    if st >= 0:
                        return st
                src = s.where[y]
                child = e
                ckey = lkey
                cprog = progress
                cmoved = self.layers[li].moved
                if to == TO_FOUNDATION:
                    if s.left == 1:
                        self.won_lkey = lkey
                        self.won_enc = e
                        return ST_SOLVED
                    enc_set(&child, y, 0)
                    ckey += 1ULL << (4 * card_suit(y))
                    cprog += 1
                elif s.height[to] == 0:
                    enc_set(&child, y, 0)       # a King into an empty column
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
                        cmoved |= bit(self.root.cols[src][b])
                    cmoved |= bit(y)
                    ckey -= (<uint64_t>(h - c)) << self.pshift[src]
                    cprog += h - c
                if to == TO_FOUNDATION:
                    cmoved &= ~bit(y)
                if ckey == lkey:
                    L = &self.layers[li]
                    pack(L, &child, rec)
                    if self.nshards:
                        if w == 1:
                            rec[1] = 0
                        owner = shard_of(lkey, rec, w == 2, self.shard_salt, self.nshards)
                        if owner != self.shard:
                            # another shard's: it expands it in the next round
                            st = records_put(&self.disk, &self.shard_sinks[owner],
                                             lkey | (WIDE if w == 2 else 0), rec[0], rec[1])
                            if st != SP_OK:
                                return self.disk_status(st)
                            continue
                    mark = self.wlen + w <= self.wlimit
                    cap0 = L.cap
                    k = self.insert(L, rec, mark)
                    if k < 0:
                        return ST_OUT_OF_MEMORY
                    if L.cap != cap0:
                        cursor = 0      # the table was rebuilt: sweep it from the start
                    if k == 1:
                        if not mark:
                            deferred += 1
                        elif not self.push(rec, w):
                            return ST_OUT_OF_MEMORY
                elif self.spill:
                    k = self.spill_child(ckey, cprog, cmoved, &child)
                    if k >= 0:
                        return k
                else:
                    ci = self.layer_of(ckey, cprog)
                    if ci < 0:
                        return ST_OUT_OF_MEMORY
                    L = &self.layers[ci]
                    pack(L, &child, rec)
                    if self.insert(L, rec) < 0:
                        return ST_OUT_OF_MEMORY

    cdef int sweep(self, Layer* L, uint64_t* cursor) noexcept nogil:
        """Push the unmarked positions of *L* from slot *cursor* on, marking them,
        until the work stack is full or the table ends: 0, or -1 out of memory."""
        cdef uint64_t i = cursor[0], x
        cdef uint64_t rec[2]
        cdef uint8_t* slot
        cdef int w = L.width
        while i < L.cap and self.wlen + w <= self.wlimit:
            if L.sbytes == 16:
                slot = &L.tab[i * 16]
                x = load_word(slot + 8)
                if (x & USED) and not (x & L.done):
                    memcpy(rec, slot, 16)
                    x |= L.done
                    memcpy(slot + 8, &x, 8)
                    if not self.push(rec, 2):
                        return -1
            else:
                slot = &L.tab[i * L.sbytes]
                x = load_word(slot) & L.smask
                if x and not (x & L.done):
                    store_slot(slot, x | L.done, L.smask)
                    if not self.push(&x, 1):
                        return -1
            i += 1
        cursor[0] = i
        return 0

    cdef int run_layers(self) noexcept nogil:
        """The search; returns a status (ST_*)."""
        cdef State s
        cdef uint64_t rec[2]
        cdef Enc e
        cdef int64_t li
        cdef uint64_t k
        cdef int progress, col, h, st, st2
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
                self.keep_begin(self.plist[progress][k])
                st = self.expand_layer(self.plist[progress][k], &s)
                st2 = self.keep_end()
                if st >= 0:
                    return st
                if st2 >= 0:
                    return st2
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
        if self.layers_fn != NULL:
            result = call_function(
                self.layers_fn, "iiKK", self.progress, self.most_progress,
                <unsigned long long>self.stored, <unsigned long long>self.disk.used
            )
            if result == NULL:
                PyErr_Fetch(&self.exc_type, &self.exc_value, &self.exc_tb)
                return -1
            Py_XDECREF(result)
        return 0

    cdef void take_progress(self, progress):
        """Hold the progress callable (None: none) and its ``layers`` attribute, if any."""
        self.progress_ref = progress
        self.progress_fn = NULL if progress is None else <PyObject*>progress
        self.layers_ref = getattr(progress, "layers", None) if progress is not None else None
        if self.layers_ref is not None and not callable(self.layers_ref):
            self.layers_ref = None
        self.layers_fn = NULL if self.layers_ref is None else <PyObject*>self.layers_ref

    cdef void drop_progress(self):
        self.progress_fn = NULL
        self.progress_ref = None
        self.layers_fn = NULL
        self.layers_ref = None

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
            signals; what it raises, the search raises.  If it has a
            callable attribute ``layers``, that is called next as
            ``progress.layers(value, most, stored, disk_bytes)``: the
            progress value being expanded, that of a won position (the
            greatest), the positions stored so far and the bytes of the
            work directory's files (0 in memory).

        Returns
        -------
        tuple
            ``(status, moves, nodes, 1, positions)``: *status* one of the
            statuses of :mod:`bakersdozen._search`, *positions* the
            distinct positions stored.  SOLVED: a won position was reached,
            and *moves* is a winning line to it, ``(card, source, target)``
            tuples traced back through the kept stream (empty when the
            stream outgrew the budget and was let go: :attr:`stats`
            ``kept`` 0; or when the position searched is won already).

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
        if self.spill:
            raise RuntimeError("a LayeredSearch that spills to disk is driven by bakersdozen._disk")
        self.ran = True
        self.max_nodes = max_nodes
        self.node_stop = max_nodes if max_nodes else ~0ULL
        if self.root.left == 0:
            return (ST_SOLVED, [], 0, 1, 0)
        self.take_progress(progress)
        with nogil:
            start = now_seconds()
            self.deadline = start + time_limit if time_limit > 0 else 0.0
            self.next_signal_check = start + 0.02
            self.next_progress = start + PROGRESS_SECONDS
            st = self.run_layers()
        self.drop_progress()
        if st == ST_INTERRUPTED:
            PyErr_Restore(self.exc_type, self.exc_value, self.exc_tb)
            self.exc_type = self.exc_value = self.exc_tb = NULL
            raise_pending()
        line = []
        if st == ST_SOLVED and self.keep:
            line = self.walk([])
            if line is None:  # pragma: no cover  (the stream in memory is never damaged)
                raise RuntimeError("internal error: the kept stream gives no winning line")
        return (st, line, self.nodes, 1, self.stored)

    # -- the disk search's steps (driven by bakersdozen._disk) ---------------------

    def spill_to(self, paths, *, unsigned long long disk_budget=0,
                 unsigned long long disk_used=0):
        """Make this a disk search: children of other layers go to files.

        Parameters
        ----------
        paths : list of bytes
            The file of each progress value, :data:`PROGRESS_VALUES` names
            (made when first written, appended to).
        disk_budget : int
            Bytes the work directory's files may hold, 0 for no budget.
        disk_used : int
            Bytes they hold now.
        """
        cdef int p
        if len(paths) != MAXPROGRESS + 1 or not all(isinstance(x, bytes) for x in paths):
            raise ValueError(f"paths must be {MAXPROGRESS + 1} bytes objects")
        self.sink_paths = list(paths)
        for p in range(MAXPROGRESS + 1):
            self.sinks[p].path = <const char*>(<bytes>self.sink_paths[p])
        self.spill = True
        self.ran = True
        # a sink buffer: 1/256 of the budget, 16 KiB to 32 MiB (a search writes
        # to some 10-20 progress values at once; the larger the buffer, the
        # longer its blocks and the more repeats its sort finds); reads: 1/64,
        # 64 KiB to 4 MiB
        self.sink_cap = min(max(self.budget // 256, 16384), 33554432) & ~7ULL
        self.chunk_cap = min(max(self.budget // 64, 65536), 4194304) & ~7ULL
        self.disk.budget = disk_budget
        self.disk.used = self.disk.peak = disk_used

    def root_record(self):
        """The position searched as a file of progress 0 holds it: a block of one record (bytes)."""
        cdef uint64_t rec[3]
        cdef uint64_t moved = self.moved_cards(self.root_key())
        cdef int width = record_width(bd_popcount(moved)), col, h
        cdef int sb = record_size(bd_popcount(moved))
        cdef uint8_t block[HEAD + 16]
        cdef Enc e
        e.lo = e.hi = 0
        for col in range(self.root.ncols):
            for h in range(self.canon[col][self.root.height[col]], self.root.height[col]):
                enc_set(&e, self.root.cols[col][h], card_suit(self.root.cols[col][h - 1]))
        rec[0] = 1
        rec[1] = self.root_key() | ((<uint64_t>sb) << 56)
        memcpy(block, rec, HEAD)
        pack_moved(moved, width, &e, rec)
        if width == 2:
            memcpy(block + HEAD, rec, 16)
        else:
            put_le(block + HEAD, rec[0], sb)
        return (<char*>block)[:HEAD + sb]

    def begin(self, *, double time_limit=0.0, unsigned long long max_nodes=0, progress=None):
        """Start the limits of a run of disk steps: *time_limit* seconds of wall
        clock from now (0: none), *max_nodes* more positions generated (0:
        none), *progress* called as in :meth:`run`."""
        cdef double start = now_seconds()
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable or None, not {progress!r}")
        self.max_nodes = max_nodes
        self.node_stop = self.nodes + max_nodes if max_nodes else ~0ULL
        self.deadline = start + time_limit if time_limit > 0 else 0.0
        self.next_signal_check = start + 0.02
        self.next_progress = start + PROGRESS_SECONDS
        self.traced_line = None
        self.take_progress(progress)

    def end(self):
        """End a run of disk steps (the progress callable is let go)."""
        self.drop_progress()

    def expand_file(self, bytes path, int progress):
        """Load the file of records *path*, of layers of *progress*,
        into their layers, each position once, then expand every layer,
        appending the children that leave it to the files of their progress.

        Returns -1 when done, else the status that stopped it (limits, memory,
        disk, a won position, :data:`DAMAGED`, :data:`IO_ERROR`).  Raises
        what a signal handler or the progress callable raised.
        """
        cdef int st
        cdef FILE* f
        if not self.spill:
            raise RuntimeError("spill_to() first")
        st = self.keep_file(progress) if self.keep else -1
        if st >= 0:
            return st
        f = fopen(path, "rb")
        if f == NULL:
            raise_errno(path)
        with nogil:
            self.progress = progress
            st = self.read_records(f, progress, NULL, 0)
            fclose(f)
            if st < 0:
                st = self.expand_loaded()
        self._raise_interrupted(st)
        return st

    def split_file(self, bytes path, part_paths, unsigned long long salt=0):
        """Split the file of records *path* into ``len(part_paths)``
        files by a hash of the layer key (xor *salt*: a part split again
        takes another salt): every layer's records in one file.

        Returns -1 when done, else a status (limits, memory, disk,
        :data:`DAMAGED`, :data:`IO_ERROR`); the part files are closed.
        :attr:`one_layer` then says whether the records were all of one layer.
        """
        return self.split_files([path], part_paths, salt)

    # -- several files at once (the parallel disk search, bakersdozen._parallel) --

    def expand_files(self, paths, int progress):
        """As :meth:`expand_file`, for the records of every file of *paths*
        (a list of bytes) together: their layers are loaded from all of them
        before any is expanded, so a layer whose records are spread over
        several files is expanded once, whole."""
        cdef int st = -1
        if not self.spill:
            raise RuntimeError("spill_to() first")
        names = list(paths)
        if not all(isinstance(x, bytes) for x in names):
            raise ValueError("paths must be bytes objects")
        st = self.keep_file(progress) if self.keep else -1
        if st >= 0:
            return st
        self.progress = progress
        st = self.load_files(names, progress)
        if st < 0:
            with nogil:
                st = self.expand_loaded()
        self._raise_interrupted(st)
        return st

    cdef int load_files(self, list paths, int progress) except -2:
        """Add the records of each file of *paths* (bytes), in turn, to their
        layers (of *progress*): -1, or the status that stopped the reading."""
        cdef int st = -1
        cdef FILE* f
        for path in paths:
            f = fopen(<bytes>path, "rb")
            if f == NULL:
                raise_errno(path)
            with nogil:
                st = self.read_records(f, progress, NULL, 0)
                fclose(f)
            if st >= 0:
                break
        return st

    def split_files(self, paths, part_paths, unsigned long long salt=0, *, bint by_record=False):
        """As :meth:`split_file`, for the records of every file of *paths*
        (a list of bytes) in turn: a layer's records go to the same part
        whichever file holds them (the hash is of the layer key alone).

        With *by_record*, each record goes to the part that owns it as a
        shard of ``len(part_paths)`` of its layer with salt *salt*: the
        parts are the shards :meth:`expand_shard` reads."""
        cdef uint64_t n = len(part_paths), cap
        cdef Sink* parts
        cdef FILE* f
        cdef int st, st2
        if not self.spill:
            raise RuntimeError("spill_to() first")
        inputs = list(paths)
        if not all(isinstance(x, bytes) for x in inputs):
            raise ValueError("paths must be bytes objects")
        if n == 0 or not all(isinstance(x, bytes) for x in part_paths):
            raise ValueError("part_paths must be bytes objects, at least one")
        names = list(part_paths)
        cap = part_cap(self.budget, n)
        parts = self.open_sinks(names, cap)
        if parts == NULL:
            return ST_OUT_OF_MEMORY
        st = -1
        self.salt = salt
        self.first_key = ~0ULL
        self.mixed = False
        for path in inputs:
            if st >= 0:
                break
            f = fopen(<bytes>path, "rb")
            if f == NULL:
                st = ST_IO_ERROR
                self.errno_ = errno
                break
            with nogil:
                st = self.read_records(f, 0, parts, n, by_record)
                fclose(f)
        st2 = self.close_sinks(parts, n, cap, st < 0)
        if st < 0:
            st = st2
        self._raise_interrupted(st)
        return st

    def expand_shard(self, seen_paths, new_paths, int progress, unsigned long long shard,
                     unsigned long long nshards, unsigned long long salt, out_paths,
                     bytes seen_path not None):
        """Expand shard *shard* of *nshards* of a layer too large for one
        search's memory: a round of the layer's expansion in shards
        (``bakersdozen._parallel``, docs/engine.md "A layer in shards").

        A shard owns the layer's positions that :func:`shard_of` gives it
        (salt *salt*).  The records of *seen_paths* (bytes; this shard's
        positions expanded in earlier rounds) are loaded marked done and
        not counted as stored again; those of *new_paths* (positions other
        shards, or a split, sent it) are added, each once, and every one not
        seen before is expanded, with the positions its moves add to the
        shard.  A child in the layer that another shard j owns is appended
        to ``out_paths[j]`` (bytes, *nshards* names: it is expanded in the
        next round); a child of another layer goes to its progress value's
        file, as :meth:`expand_files`; every position expanded is appended to
        *seen_path*.  The files of this call are closed when it returns.

        Returns -1 when done, else a status (limits, memory, disk, a won
        position, :data:`DAMAGED` for a record the shard does not own, or a
        file as :meth:`expand_files` says, :data:`IO_ERROR`).
        """
        cdef uint64_t n = nshards, stored0
        cdef int st = -1, st2
        if not self.spill:
            raise RuntimeError("spill_to() first")
        seen = list(seen_paths)
        new = list(new_paths)
        outs = list(out_paths)
        if not all(isinstance(x, bytes) for x in seen + new + outs):
            raise ValueError("paths must be bytes objects")
        if n == 0 or len(outs) != n or shard >= n:
            raise ValueError(f"shard {shard} of {n} with {len(outs)} out_paths")
        st = self.keep_file(progress) if self.keep else -1
        if st >= 0:
            return st
        self.shard_paths = outs + [seen_path]   # the bytes the sinks' paths point into
        self.shard_cap = part_cap(self.budget, n)
        self.nshards = n
        self.shard_sinks = self.open_sinks(outs, self.shard_cap)
        self.seen_sink = self.open_sinks([seen_path], self.sink_cap)
        if self.shard_sinks == NULL or self.seen_sink == NULL:
            self.end_shard(False)
            return ST_OUT_OF_MEMORY
        self.shard = shard
        self.shard_salt = salt
        self.progress = progress
        try:
            stored0 = self.stored
            self.load_marked = True
            if st < 0:
                st = self.load_files(seen, progress)
            self.load_marked = False
            self.stored = stored0       # stored when they were new, in their round
            if st < 0:
                st = self.load_files(new, progress)
            if st < 0:
                with nogil:
                    st = self.expand_loaded()
            if st < 0:
                st2 = self.end_shard(True)
                if st2 >= 0:
                    st = st2
        finally:
            self.load_marked = False
            self.end_shard(False)
        self._raise_interrupted(st)
        return st

    cdef int end_shard(self, bint write) noexcept:
        """Write out (if *write*) and close the shard's files, free their
        buffers and leave shard mode: -1, or a status (disk full, IO error)."""
        cdef int st = -1, st2
        if self.shard_sinks != NULL:
            st = self.close_sinks(self.shard_sinks, self.nshards, self.shard_cap, write)
            self.shard_sinks = NULL
        if self.seen_sink != NULL:
            st2 = self.close_sinks(self.seen_sink, 1, self.sink_cap, write and st < 0)
            self.seen_sink = NULL
            if st < 0:
                st = st2
        self.nshards = 0
        return st

    cdef Sink* open_sinks(self, list names, uint64_t cap):
        """One record buffer of *cap* bytes for each path of *names* (bytes,
        which the caller keeps alive while the buffers are open), charged to
        the budget; files are opened on the first write.  NULL when out of
        memory, with nothing left charged."""
        cdef uint64_t n = len(names), i
        cdef Sink* s
        if not self.charge(<int64_t>(n * (cap + sizeof(Sink)))):
            return NULL
        s = <Sink*>malloc(n * sizeof(Sink))
        if s == NULL:
            self.bytes -= n * (cap + sizeof(Sink))
            return NULL
        memset(s, 0, n * sizeof(Sink))
        for i in range(n):
            s[i].path = <const char*>(<bytes>names[i])
            s[i].cap = cap
            s[i].buf = <uint8_t*>malloc(cap)
            if s[i].buf == NULL:
                self.close_sinks(s, n, cap, False)
                return NULL
        return s

    cdef int close_sinks(self, Sink* s, uint64_t n, uint64_t cap, bint write) noexcept:
        """Close the *n* buffers of :meth:`open_sinks` (writing out what they
        hold if *write*, till a write fails), free them and give their bytes
        back to the budget: -1, or a status (disk full, IO error)."""
        cdef uint64_t i
        cdef int st = -1, st2
        for i in range(n):
            if write and st < 0:
                st2 = records_close(&self.disk, &s[i])
                if st2 != SP_OK:
                    st = self.disk_status(st2)
            elif s[i].f != NULL:
                fclose(s[i].f)
                s[i].f = NULL
            free(s[i].buf)
        free(s)
        self.bytes -= n * (cap + sizeof(Sink))
        return st

    @property
    def one_layer(self):
        """Whether the records of the last file split were all of one layer."""
        return not self.mixed

    @property
    def split_layer(self):
        """The layer key of the records of the last file split if they were
        all of one layer, else None (also when it held no record)."""
        return None if self.mixed or self.first_key == ~0ULL else self.first_key

    def abandon(self):
        """Forget the layers loaded and what the buffers hold (after a stop:
        the driver goes back to its last step's state)."""
        cdef uint64_t i
        for i in range(self.nlayers):
            if self.layers[i].tab != NULL:
                self.bytes -= table_bytes(self.layers[i].cap, self.layers[i].sbytes)
                free(self.layers[i].tab)
                self.layers[i].tab = NULL
                self.layers[i].cap = 0
        self.live = 0
        self.wlen = 0
        self.forget_layers()
        self.drop_buffers()

    def close_files(self):
        """Write out every progress value's buffer and close its file: -1, or a
        status (:data:`DISK_FULL`, :data:`IO_ERROR`)."""
        cdef int p, st = -1, st2
        for p in range(MAXPROGRESS + 1):
            if self.sinks[p].f != NULL or self.sinks[p].len:
                st2 = records_close(&self.disk, &self.sinks[p])
                if st2 != SP_OK and st < 0:
                    st = self.disk_status(st2)
        if self.ksink.f != NULL or self.ksink.len:
            st2 = sink_close(&self.disk, &self.ksink)
            if st2 != SP_OK and st < 0:
                st = self.disk_status(st2)
        return st

    def drop_buffers(self):
        """Forget what the buffers hold and close the files (after a stop: the
        resume truncates the files to the manifest's lengths)."""
        cdef int p
        for p in range(MAXPROGRESS + 1):
            self.sinks[p].len = 0
            if self.sinks[p].f != NULL:
                fclose(self.sinks[p].f)
                self.sinks[p].f = NULL
        self.ksink.len = 0
        self.kcount = 0
        if self.ksink.f != NULL:
            fclose(self.ksink.f)
            self.ksink.f = NULL

    def memory(self):
        """``(budget, held, sink, chunk)``: the memory budget and the bytes held
        now, and the bytes of one file's write buffer and of the read buffer."""
        return (self.budget, self.bytes, self.sink_cap, self.chunk_cap)

    @property
    def keep_lines(self):
        """Whether the search keeps its record of the positions it expands, to
        trace a winning line back (True by default; set False before the
        search runs by a disk search without the line record, and by the
        benchmarks that measure what the record costs)."""
        return self.keep

    @keep_lines.setter
    def keep_lines(self, bint value):
        if self.ran:
            raise RuntimeError("keep_lines is set before the search runs")
        self.keep = value

    @property
    def stack_words(self):
        """The most words the work stack holds (1/16 of the budget, in 8-byte
        words, 1024 at least); the tests set it small, to 2 at least."""
        return self.wlimit

    @stack_words.setter
    def stack_words(self, unsigned long long value):
        if value < 2:
            raise ValueError(f"stack_words must be 2 at least, not {value}")
        self.wlimit = value

    @property
    def layer_positions(self):
        """The most positions one layer may hold before the search stops as
        out of memory (0: as many as the budget holds); the tests set it
        small, so that small deals have layers too large for a task."""
        return self.layer_most

    @layer_positions.setter
    def layer_positions(self, unsigned long long value):
        self.layer_most = value

    @property
    def disk_used(self):
        """Bytes the work directory's files hold, as the search counts them."""
        return self.disk.used

    @disk_used.setter
    def disk_used(self, unsigned long long value):
        self.disk.used = value

    @property
    def errno(self):
        """The errno of the read or write that failed (status :data:`IO_ERROR`)."""
        return self.errno_

    def counts(self):
        """What a checkpoint keeps: ``nodes``, ``stored``, ``lost``, ``layers``,
        ``largest``, ``top_progress``, ``peak_bytes``, ``peak_disk``, ``written``."""
        return {"nodes": self.nodes, "stored": self.stored, "lost": self.lost,
                "layers": self.made, "largest": self.largest,
                "top_progress": self.top_progress, "peak_bytes": self.peak_bytes,
                "peak_disk": self.disk.peak, "written": self.disk.written}

    def restore(self, counts):
        """Go on from a checkpoint's *counts* (as :meth:`counts` gives them)."""
        self.nodes = counts["nodes"]
        self.stored = counts["stored"]
        self.lost = counts["lost"]
        self.made = counts["layers"]
        self.largest = counts["largest"]
        self.top_progress = counts["top_progress"]
        self.peak_bytes = max(self.peak_bytes, counts["peak_bytes"])
        self.disk.peak = max(self.disk.peak, counts["peak_disk"])
        self.disk.written = counts["written"]

    def _raise_interrupted(self, int st):
        if st == ST_INTERRUPTED:
            PyErr_Restore(self.exc_type, self.exc_value, self.exc_tb)
            self.exc_type = self.exc_value = self.exc_tb = NULL
            raise_pending()

    @property
    def stats(self):
        """What the search used: ``layers`` (made), ``largest`` (positions of
        the largest layer freed), ``peak_positions`` (positions held at once),
        ``lost`` (positions found lost), ``progress`` (the progress, cards
        home plus dealt cards moved, of the layers expanded last),
        ``top_progress`` (the greatest progress reached), ``most_progress``
        (that of a won position: the greatest a search can reach), ``peak_bytes`` and
        ``budget`` (bytes), ``kept`` (1 while the kept stream is kept, 0
        once let go) and ``kept_bytes`` (the bytes of the kept stream in
        memory; 0 on disk)."""
        return {"layers": self.made, "largest": self.largest,
                "peak_positions": self.peak_live, "lost": self.lost,
                "progress": self.progress, "top_progress": self.top_progress,
                "most_progress": self.most_progress, "peak_bytes": self.peak_bytes,
                "budget": self.budget, "kept": int(self.keep), "kept_bytes": self.klen}


cdef int raise_errno(bytes path) except -1:
    """Raise the OSError of errno for *path*."""
    import os
    raise OSError(errno, os.strerror(errno), os.fsdecode(path))


cdef int raise_pending() except -1:
    """Propagate the exception already set (by PyErr_CheckSignals)."""
    return -1
