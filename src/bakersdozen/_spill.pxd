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

A file is a plain sequence of records, each 2 or 3 64-bit words in the
machine's byte order (the manifest says which): the layer key (bit 63 set
when the record is wide), then the position's record in its layer (one
word, or two when wide).
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

cdef enum:
    SP_OK = 0          # done
    SP_FULL = 1        # the disk budget would be passed, or the disk is full (ENOSPC, EDQUOT)
    SP_ERROR = 2       # another error of the system; Disk.err holds its errno
    RECORD_MAX = 24    # bytes of the largest record


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


cdef inline int sink_write_out(Disk* d, Sink* s) noexcept nogil:
    """Append the buffer to the file, then empty it: SP_OK, SP_FULL or SP_ERROR.

    Whatever part of it was written when SP_FULL or SP_ERROR comes back stays
    in the file: the manifest's lengths, not the files', say what a search
    has finished (the resume truncates the rest).
    """
    cdef uint64_t done
    if s.len == 0:
        return SP_OK
    if d.budget and d.used + s.len > d.budget:
        return SP_FULL
    if s.f == NULL:
        s.f = fopen(s.path, "ab")
        if s.f == NULL:
            d.err = errno
            return SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
        setvbuf(s.f, NULL, _IONBF, 0)
    done = fwrite(s.buf, 1, s.len, s.f)
    if done < s.len:
        d.err = errno
        d.used += done
        return SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
    d.used += s.len
    d.written += s.len
    if d.used > d.peak:
        d.peak = d.used
    s.len = 0
    return SP_OK


cdef inline int sink_close(Disk* d, Sink* s) noexcept nogil:
    """Write out the buffer and close the file (its buffer is kept): an SP_ status."""
    cdef int st = sink_write_out(d, s)
    if s.f != NULL:
        if fclose(s.f) != 0 and st == SP_OK:
            d.err = errno
            st = SP_FULL if errno == ENOSPC or errno == EDQUOT else SP_ERROR
        s.f = NULL
    return st


cdef inline int sink_put(Disk* d, Sink* s, const uint64_t* words, int n) noexcept nogil:
    """Append a record of *n* words (the buffer has room for one at least): an SP_ status."""
    cdef int st
    if s.len + 8 * n > s.cap:
        st = sink_write_out(d, s)
        if st != SP_OK:
            return st
    memcpy(s.buf + s.len, words, 8 * n)
    s.len += 8 * n
    return SP_OK


cdef inline long read_full(FILE* f, uint8_t* buf, uint64_t n) noexcept nogil:
    """Read up to *n* bytes (fewer only at the end of the file): the bytes read, or -1."""
    cdef uint64_t done = fread(buf, 1, n, f)
    if done < n and ferror(f):
        return -1
    return <long>done
