# cython: language_level=3
"""Files of records for the layered search on disk (private; docs/engine.md,
"The layered search on disk").

The storage half of the disk search, apart from its loop (``_layers.pyx``):
a *sink* is one file's append buffer, written out whole when full, and a
``Disk`` counts the bytes every file of the work directory holds against
the disk budget.  The functions here only move bytes; which file a record
goes to, and when a file is made, synced, truncated or deleted, is decided
by :mod:`bakersdozen._disk` (the files and the manifest) and ``_layers``
(the search).  They run without the GIL.

A *file of records* (a progress value's, or a part of one) is a sequence
of blocks, one written out buffer after another.  A block is the records
of one layer: a head of two 64-bit words, the number of records and the
layer key with the bytes per record in bits 56-60, then each record in
that many bytes, lowest first (1-8 bytes: the moved cards' bits and the 1
above them; 16: a wide record's two words).  The words are in the
machine's byte order (the manifest says which).  A buffer holds its
records as entries of three words (the layer key, bit 63 set when wide,
then the record's one or two words, the second 0 when narrow); it is
sorted before it is written out, so each layer's records in it make one
block, in order, and a record repeated within it is written once.

A kept file (the kept stream, ``_layers.pyx``) is written raw, through
:func:`sink_write_out`.
"""

from libc.errno cimport ENOSPC, errno
from libc.stdint cimport uint8_t, uint64_t
from libc.stdio cimport FILE, _IONBF, fclose, fopen, fread, ferror, fwrite, setvbuf
from libc.string cimport memcpy

cdef extern from *:
    """
    #include <errno.h>
    #ifndef EDQUOT
    #define EDQUOT ENOSPC
    #endif
    """
    int EDQUOT   # a disk quota is exhausted (ENOSPC where the system has no quotas)


cdef extern from *:
    """
    /* A buffer's entries (layer key, record's two words) in order of key,
       then record: a quicksort (Hoare's partition about the median of three,
       the smaller part first, the larger looped on: a stack of log n) that
       ends in insertion sorts, its comparison inlined: with qsort's call
       per comparison, deal 10242 on disk took 1.28 times the time of the
       format before the sort, against 1.09-1.19 with this. */
    typedef struct { uint64_t k, a, b; } bd_entry;

    static inline int bd_entry_lt(const bd_entry* x, const bd_entry* y) {
        if (x->k != y->k) return x->k < y->k;
        if (x->a != y->a) return x->a < y->a;
        return x->b < y->b;
    }

    static inline void bd_entry_swap(bd_entry* x, bd_entry* y) {
        bd_entry t = *x; *x = *y; *y = t;
    }

    static void bd_sort_entries(uint64_t* words, size_t n) {
        bd_entry* v = (bd_entry*)words;
        while (n > 16) {
            size_t m = (n - 1) / 2, i, j;
            bd_entry p;
            if (bd_entry_lt(&v[m], &v[0])) bd_entry_swap(&v[m], &v[0]);
            if (bd_entry_lt(&v[n - 1], &v[m])) {
                bd_entry_swap(&v[n - 1], &v[m]);
                if (bd_entry_lt(&v[m], &v[0])) bd_entry_swap(&v[m], &v[0]);
            }
            p = v[m];                   /* v[0] <= p <= v[n - 1], m < n - 1 */
            i = (size_t)-1;
            j = n;
            for (;;) {
                do i++; while (bd_entry_lt(&v[i], &p));
                do j--; while (bd_entry_lt(&p, &v[j]));
                if (i >= j) break;
                bd_entry_swap(&v[i], &v[j]);
            }
            /* [0, j] and [j + 1, n), both shorter than n */
            if (j + 1 < n - j - 1) {
                bd_sort_entries((uint64_t*)v, j + 1);
                v += j + 1;
                n -= j + 1;
            } else {
                bd_sort_entries((uint64_t*)(v + j + 1), n - j - 1);
                n = j + 1;
            }
        }
        for (size_t i = 1; i < n; i++) {
            bd_entry x = v[i];
            size_t j = i;
            while (j > 0 && bd_entry_lt(&x, &v[j - 1])) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
    }
    """
    void bd_sort_entries(uint64_t* words, size_t n) noexcept nogil

cdef enum:
    SP_OK = 0          # done
    SP_FULL = 1        # the disk budget would be passed, or the disk is full (ENOSPC, EDQUOT)
    SP_ERROR = 2       # another error of the system; Disk.err holds its errno
    RECORD_MAX = 24    # bytes a reader has in hand before it takes a block's head or a record
    ENTRY = 24         # bytes of a record in a buffer: its layer key and two words
    HEAD = 16          # bytes of a block's head
    STAGE = 65536      # bytes of the blocks encoded before they are written (on the stack)


# The bytes the work directory's files hold, and the budget for them.
cdef struct Disk:
    uint64_t used       # bytes in the files (written out, not counting the sinks' buffers)
    uint64_t budget     # the most they may hold; 0: no budget but the disk's own room
    uint64_t peak       # the most they have held
    uint64_t written    # bytes written since the search began
    int err             # the errno of the last SP_ERROR


# One file's append buffer.  path: the file's name (NUL-terminated, owned by
# whoever set it); f NULL until the first write opens it (to append, made
# if need be; C stdio, unbuffered: the buffer is this one).
cdef struct Sink:
    const char* path
    FILE* f
    uint8_t* buf
    uint64_t len        # bytes in buf
    uint64_t cap        # bytes buf holds (0: not allocated)


cdef inline int sink_write_bytes(Disk* d, Sink* s, const uint8_t* p, uint64_t n) noexcept nogil:
    """Append the *n* bytes at *p* to the sink's file: SP_OK, SP_FULL or SP_ERROR.

    Whatever part of them was written when SP_FULL or SP_ERROR comes back stays
    in the file: the manifest's lengths, not the files', say what a search
    has finished (the resume truncates the rest).
    """
    cdef uint64_t done
    if n == 0:
        return SP_OK
    if d.budget and d.used + n > d.budget:
        return SP_FULL
    if s.f == NULL:
        s.f = fopen(s.path, "ab")
        if s.f == NULL:
            d.err = errno
            return SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
        setvbuf(s.f, NULL, _IONBF, 0)
    done = fwrite(p, 1, n, s.f)
    if done < n:
        d.err = errno
        d.used += done
        return SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
    d.used += n
    d.written += n
    if d.used > d.peak:
        d.peak = d.used
    return SP_OK


cdef inline int sink_write_out(Disk* d, Sink* s) noexcept nogil:
    """Append the buffer to the file as it is (a kept file), then empty it: an SP_ status."""
    cdef int st = sink_write_bytes(d, s, s.buf, s.len)
    if st == SP_OK:
        s.len = 0
    return st


cdef inline int sink_end(Disk* d, Sink* s, int st) noexcept nogil:
    """Close the sink's file (its buffer is kept), after a write-out of status
    *st*: that status, or the close's if it failed."""
    if s.f != NULL:
        if fclose(s.f) != 0 and st == SP_OK:
            d.err = errno
            st = SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
        s.f = NULL
    return st


cdef inline int sink_close(Disk* d, Sink* s) noexcept nogil:
    """Write out the buffer as it is and close the file: an SP_ status."""
    return sink_end(d, s, sink_write_out(d, s))


cdef inline long read_full(FILE* f, uint8_t* buf, uint64_t n) noexcept nogil:
    """Read up to *n* bytes (fewer only at the end of the file): the bytes read, or -1."""
    cdef uint64_t done = fread(buf, 1, n, f)
    if done < n and ferror(f):
        return -1
    return <long>done


# -- files of records: buffers of entries, written out as blocks ------------------

cdef inline int record_bytes(const uint64_t* entry) noexcept nogil:
    """The bytes a block gives each record of *entry*'s layer: 16 when wide,
    else the bytes of the record's highest 1 (the one above its bits)."""
    cdef uint64_t v = entry[1]
    cdef int n = 0
    if entry[0] >> 63:
        return 16
    while v:
        n += 1
        v >>= 8
    return n if n else 1


cdef inline int records_write_out(Disk* d, Sink* s) noexcept nogil:
    """Sort the buffer's entries and append them to the file as blocks, each
    record once, then empty it: SP_OK, SP_FULL or SP_ERROR."""
    cdef uint64_t n = s.len // ENTRY, i, j, k, count, key
    cdef uint64_t* e = <uint64_t*>s.buf
    cdef uint8_t stage[STAGE]
    cdef uint64_t sl = 0, v
    cdef int sb, st
    if n == 0:
        return SP_OK
    bd_sort_entries(<uint64_t*>s.buf, n)
    i = 0
    while i < n:
        key = e[3 * i]
        count = 1
        j = i + 1
        while j < n and e[3 * j] == key:
            if e[3 * j + 1] != e[3 * j - 2] or e[3 * j + 2] != e[3 * j - 1]:
                count += 1
            j += 1
        sb = record_bytes(&e[3 * i])
        if sl + HEAD > STAGE:
            st = sink_write_bytes(d, s, stage, sl)
            if st != SP_OK:
                return st
            sl = 0
        memcpy(stage + sl, &count, 8)
        v = (key & ~(1ULL << 63)) | ((<uint64_t>sb) << 56)
        memcpy(stage + sl + 8, &v, 8)
        sl += HEAD
        for k in range(i, j):
            if k > i and e[3 * k + 1] == e[3 * k - 2] and e[3 * k + 2] == e[3 * k - 1]:
                continue
            if sl + 16 > STAGE:
                st = sink_write_bytes(d, s, stage, sl)
                if st != SP_OK:
                    return st
                sl = 0
            # (a one-word record's 8 bytes, lowest first: the next record or
            # the next head writes over those past its sb)
            memcpy(stage + sl, &e[3 * k + 1], 16 if sb == 16 else 8)
            sl += sb
        i = j
    st = sink_write_bytes(d, s, stage, sl)
    if st == SP_OK:
        s.len = 0
    return st


cdef inline int records_put(Disk* d, Sink* s, uint64_t key, uint64_t w0, uint64_t w1) noexcept nogil:
    """Add the entry (*key*, *w0*, *w1*) to the buffer (it has room for one at
    least), written out first if full: an SP_ status."""
    cdef int st
    cdef uint64_t* e
    if s.len + ENTRY > s.cap:
        st = records_write_out(d, s)
        if st != SP_OK:
            return st
    e = <uint64_t*>(s.buf + s.len)
    e[0] = key
    e[1] = w0
    e[2] = w1
    s.len += ENTRY
    return SP_OK


cdef inline int records_close(Disk* d, Sink* s) noexcept nogil:
    """Write out the buffer as blocks and close the file: an SP_ status."""
    return sink_end(d, s, records_write_out(d, s))
