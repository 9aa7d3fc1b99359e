# cython: language_level=3
"""The transposition table of the compiled engine (private).

Open addressing in buckets of four 16-byte entries (one 64-byte cache
line).  The table starts small and doubles in place (each bucket splits in
two) while it is below the caller's memory budget; at the budget it stops
growing and replaces entries instead.  The bucket count need not be a
power of two: a position's bucket is the high half of the product of 64
hash bits and the bucket count, so doubling the count sends bucket *b* to
2*b* or 2*b* + 1 and the table can fill any budget.  An entry keeps a position's check key (63 random bits)
and 21 bits of its bucket key, and a lookup compares both: 84 random bits
tell positions apart, and a lookup compares at most 4 entries, so over
10**10 lookups the chance of one false match is about 4 * 10**10 / 2**84,
below 10**-14 (docs/engine.md).

``find``, ``insert`` and their helpers are defined here, ``inline``, so
that a search module compiles them into its own loop; ``table_init``,
``table_grow`` and ``table_free`` are defined in ``_table.pyx``.
"""

from libc.stdint cimport int64_t, uint64_t

cdef extern from *:
    """
    #ifndef BD_TABLE_CONSTANTS
    #define BD_TABLE_CONSTANTS
    #define BD_ON_PATH 0x8000000000000000ULL
    #define BD_PROVEN 0x4000000000000000ULL
    #define BD_KEYLO_SHIFT 40
    #define BD_KEYLO_BITS 21
    #define BD_KEYLO_MASK 0x1FFFFFULL
    #define BD_INDEX_MASK 0xFFFFFFFFFFULL
    #define BD_BUCKET 4
    #endif
    """
    uint64_t ON_PATH "BD_ON_PATH"         # Entry.info bit 63
    uint64_t PROVEN "BD_PROVEN"           # Entry.info bit 62
    int KEYLO_SHIFT "BD_KEYLO_SHIFT"      # Entry.info bits 40..60 hold ...
    int KEYLO_BITS "BD_KEYLO_BITS"        # ... the low 21 bits of State.key
    uint64_t KEYLO_MASK "BD_KEYLO_MASK"
    uint64_t INDEX_MASK "BD_INDEX_MASK"   # Entry.info bits 0..39
    int BUCKET "BD_BUCKET"                # entries per bucket

cdef extern from *:
    """
    #ifndef BD_TABLE_PREFETCH
    #define BD_TABLE_PREFETCH
    #if defined(__GNUC__)
    #define bd_table_prefetch(p) __builtin_prefetch(p)
    #else
    #define bd_table_prefetch(p) ((void)0)
    #endif
    #endif
    """
    void prefetch_line "bd_table_prefetch"(const void* p) nogil   # hint: load p's cache line

cdef extern from *:
    """
    #ifndef BD_TABLE_MULHI
    #define BD_TABLE_MULHI
    #if defined(_MSC_VER) && defined(_M_X64)
    #include <intrin.h>
    static inline unsigned long long bd_mulhi(unsigned long long a, unsigned long long b) { return __umulh(a, b); }
    #else
    static inline unsigned long long bd_mulhi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((unsigned __int128)a * b) >> 64);
    }
    #endif
    #endif
    """
    uint64_t mulhi "bd_mulhi"(uint64_t a, uint64_t b) nogil    # (a * b) >> 64

# One entry, 16 bytes; BUCKET of them make a 64-byte bucket.
cdef struct Entry:
    uint64_t check    # State.check of the stored position; never 0 for a stored one
    uint64_t info     # 0 = empty slot; otherwise
                      #   bit 63 (ON_PATH): the node is on the current search path (never evicted)
                      #   bit 62 (PROVEN): proven dead (every continuation explored, none wins)
                      #   bits 40-60: low 21 bits of State.key (to rehash when the table grows)
                      #   bits 0-39 (INDEX_MASK): the node's DFS discovery index, >= 1

cdef struct Table:
    Entry* entries         # nbuckets * BUCKET entries, owned (table_init / table_free)
    uint64_t nbuckets      # buckets in use: max_buckets / 2**j for some j >= 0
    uint64_t max_buckets   # the table's share of the memory budget, in buckets
    uint64_t used          # occupied entries
    uint64_t pinned        # positions refused since the table last grew (a bucket full of
                           #   path entries): enter() grows the table on them as on its load
    uint64_t base          # first DFS index of the current round: entries below it that are
                           #   neither PROVEN nor ON_PATH are stale (left by an earlier round)


cdef inline uint64_t bucket_of(const Table* t, uint64_t keylo, uint64_t check) noexcept nogil:
    """The bucket of a position: 64 hash bits (its check key above 21 bits of
    its key) scaled to the bucket count by a multiply-high."""
    return mulhi((keylo & KEYLO_MASK) | (check << KEYLO_BITS), t.nbuckets)


cdef inline bint entry_live(const Table* t, const Entry* e) noexcept nogil:
    """Does *e* hold information valid in the current round?"""
    if e.info == 0:          # empty slot (every stored node has an index >= 1)
        return False
    return (e.info & (PROVEN | ON_PATH)) != 0 or (e.info & INDEX_MASK) >= t.base


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

    *info* holds the flags and the index (bits 0-39, 62, 63); the key bits
    are added here.  Replacement, once the table is at its budget: an empty
    or stale slot (left by an unfinished earlier round) first; otherwise the
    entry discovered earliest, never one on the current search path.
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
        t.pinned += 1
        return -1
    e = &t.entries[b + victim]
    e.check = check
    e.info = info | ((key & KEYLO_MASK) << KEYLO_SHIFT)
    return <int64_t>(b + victim)


cdef inline void table_prefetch(const Table* t, uint64_t key, uint64_t check) noexcept nogil:
    """Start loading the bucket of a position that will be looked up soon."""
    prefetch_line(&t.entries[bucket_of(t, key, check) * BUCKET])


cdef inline uint64_t table_bytes(const Table* t) noexcept nogil:
    """Memory the entries take now, bytes."""
    return t.nbuckets * BUCKET * sizeof(Entry)


# Defined in _table.pyx.
cdef int table_init(Table* t, uint64_t bytes) noexcept nogil
cdef int table_grow(Table* t) noexcept nogil
cdef void table_free(Table* t) noexcept nogil
