# cython: language_level=3
"""C types shared by the compiled engine.

Card encoding (the same as :mod:`bakersdozen.cards`): a card is an index
0..51, ``4 * (rank - 1) + suit`` with suit C=0, D=1, H=2, S=3.  A 64-bit
bitboard has bit ``i`` set for card ``i``; the four cards of rank ``r`` are
the nibble at bits ``4*(r-1) .. 4*(r-1)+3`` (``RANK_MASK(r)``).
"""

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NCARDS = 52          # cards in a full pack
    MAXCOLS = 13         # columns of the tableau
    MAXHEIGHT = 52       # a column can never hold more than the pack
    TO_FOUNDATION = 13   # move target meaning "the card's foundation"
    NO_COLUMN = 255      # State.where[] of a card on its foundation
    BOTTOM = 52          # "card beneath" value of a card at a column's bottom
    MAXMOVES = 128       # upper bound on legal moves in one position (13 tops x (4 targets + 1))

# A move: bits 0-5 the card index, bits 8-11 the target (column 0..12 or
# TO_FOUNDATION).  The source column is State.where[card] before the move.
ctypedef uint16_t move_t

cdef struct State:
    uint8_t cols[MAXCOLS][MAXHEIGHT]  # card indices of each column, bottom first
    uint8_t height[MAXCOLS]           # number of cards in each column
    uint8_t where[NCARDS]             # column of each card, NO_COLUMN if on its foundation
    uint8_t found[4]                  # highest rank on each suit's foundation (0 = empty)
    uint64_t tops                     # bitboard: cards that are the top of a column
    uint64_t home                     # bitboard: cards on the foundations
    uint64_t key                      # Zobrist key (column-order invariant), selects the TT bucket
    uint64_t check                    # second, independent Zobrist key, stored in the TT entry
    int ncols                         # columns in use (<= MAXCOLS)
    int ranks                         # the pack holds ranks 1..ranks of four suits
    int left                          # cards still in the tableau (0 = won)
    uint64_t all_home                 # bitboard of every card of the pack

# One transposition-table entry, 16 bytes; four make a 64-byte bucket.
cdef struct Entry:
    uint64_t check    # State.check of the stored position; 0 = empty slot
    uint64_t info     # bit 63: on the current search path (never evicted)
                      # bit 62: proven dead (every continuation explored, none wins)
                      # bits 40-60: low 21 bits of State.key (to rehash when growing)
                      # bits 0-39: the node's DFS discovery index

# One level of the explicit search stack.
cdef struct Frame:
    uint32_t first    # offset of this node's moves in the move stack
    uint32_t count    # number of moves generated here
    uint32_t next     # next move to try (index into this node's moves)
    uint64_t key      # the node's Zobrist keys
    uint64_t check
    move_t played     # the move that led from the parent to this node
    uint8_t source    # column the played move came from (for unmake)
    int64_t slot      # cache of the node's TT slot (checked before use), -1 if unknown
    uint64_t index    # DFS discovery index (Tarjan)
    uint64_t low      # Tarjan low-link: lowest index reachable on the stack
