# cython: language_level=3
"""The transposition table of the compiled engine (private).

The layout and the inline lookups are in ``_table.pxd``; this module
allocates, grows and frees a table.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset


cdef int table_init(Table* t, uint64_t bytes) noexcept nogil:
    """Set the table's budget to *bytes* and allocate its first buckets. 0 on success.

    The budget becomes ``max_buckets`` buckets, rounded down to a multiple
    of 2048 (when at least that many fit), and the table starts at
    ``max_buckets / 2**j`` buckets, the first such count of at most 4096
    (256 KiB): every growth then doubles it exactly, up to the budget.
    -1 if the first allocation fails.
    """
    cdef uint64_t nb = bytes // (BUCKET * sizeof(Entry))
    if nb < 1:
        nb = 1
    if nb > (<uint64_t>1 << 40):
        nb = <uint64_t>1 << 40
    if nb >= 2048:
        nb -= nb % 2048
    t.max_buckets = nb
    while nb > 4096 and nb % 2 == 0:
        nb //= 2
    t.nbuckets = nb
    t.entries = <Entry*>calloc(t.nbuckets * BUCKET, sizeof(Entry))
    if t.entries == NULL:
        return -1
    t.used = 0
    t.pinned = 0
    t.base = 1
    return 0


cdef int table_grow(Table* t) noexcept nogil:
    """Double the table in place, keeping every live entry. 0 on success, -1 if memory ran out.

    With the multiply-high bucket index, a position of bucket *b* goes to
    bucket 2*b* or 2*b* + 1 of the doubled table, so the buckets are split
    from the last to the first, each into two buckets that no earlier
    split has used: no entry is lost, and the old and the new table never
    coexist (the peak is the new size, not one and a half times it).
    Stale entries (of earlier rounds) are dropped on the way.
    """
    cdef uint64_t old_nb = t.nbuckets, nb = old_nb * 2, b, j
    cdef Entry* fresh
    cdef Entry tmp[4]
    cdef Entry* e
    cdef int i, k
    if nb > t.max_buckets:
        return -1
    fresh = <Entry*>realloc(t.entries, nb * BUCKET * sizeof(Entry))
    if fresh == NULL:
        return -1
    memset(&fresh[old_nb * BUCKET], 0, old_nb * BUCKET * sizeof(Entry))
    t.entries = fresh
    t.nbuckets = nb
    t.used = 0
    t.pinned = 0
    b = old_nb
    while b > 0:
        b -= 1
        for i in range(BUCKET):
            tmp[i] = fresh[b * BUCKET + i]
        memset(&fresh[b * BUCKET], 0, BUCKET * sizeof(Entry))
        for i in range(BUCKET):
            e = &tmp[i]
            if not entry_live(t, e):
                continue
            j = bucket_of(t, (e.info >> KEYLO_SHIFT), e.check) * BUCKET
            for k in range(BUCKET):
                if fresh[j + k].info == 0:
                    fresh[j + k] = e[0]
                    t.used += 1
                    break
    return 0


cdef void table_free(Table* t) noexcept nogil:
    """Release the entries (safe on a table never initialised, if zero-filled, or freed)."""
    free(t.entries)
    t.entries = NULL
    t.nbuckets = 0
    t.used = 0
