# cython: language_level=3
"""The transposition table of the compiled engine (private).

The layout and the inline lookups are in ``_table.pxd``; this module
allocates, grows and frees a table.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free


cdef int table_init(Table* t, uint64_t bytes) noexcept nogil:
    """Set the budget to the largest power-of-two bucket count within *bytes*. 0 on success.

    The table starts at up to 4096 buckets (256 KiB) and grows with its
    load (:func:`table_grow`).  -1 if the first allocation fails.
    """
    cdef uint64_t nb = 1
    while nb < (<uint64_t>1 << 40) and nb * 2 * BUCKET * sizeof(Entry) <= bytes:
        nb *= 2
    t.max_buckets = nb
    t.nbuckets = nb if nb < 4096 else 4096
    t.entries = <Entry*>calloc(t.nbuckets * BUCKET, sizeof(Entry))
    if t.entries == NULL:
        return -1
    t.used = 0
    t.base = 1
    return 0


cdef int table_grow(Table* t) noexcept nogil:
    """Double the table, keeping every live entry. 0 on success, -1 if memory ran out."""
    cdef uint64_t nb = t.nbuckets * 2, i, b
    cdef Entry* old = t.entries
    cdef Entry* fresh = <Entry*>calloc(nb * BUCKET, sizeof(Entry))
    cdef Entry* e
    cdef int j
    if fresh == NULL:
        return -1
    t.entries = fresh
    t.nbuckets = nb
    t.used = 0
    for i in range(nb // 2 * BUCKET):
        e = &old[i]
        if not entry_live(t, e):
            continue
        b = bucket_of(t, (e.info >> KEYLO_SHIFT), e.check) * BUCKET
        for j in range(BUCKET):
            if fresh[b + j].info == 0:
                fresh[b + j] = e[0]
                t.used += 1
                break
    free(old)
    return 0


cdef void table_free(Table* t) noexcept nogil:
    """Release the entries (safe on a table never initialised, if zero-filled, or freed)."""
    free(t.entries)
    t.entries = NULL
    t.nbuckets = 0
    t.used = 0
