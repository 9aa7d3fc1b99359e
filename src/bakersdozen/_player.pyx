# cython: language_level=3
"""The automated player's core: flat Monte Carlo play (private).

Only :mod:`bakersdozen.difficulty` imports this module; its documentation
(and docs/difficulty.md, "The player") states the policy.  The player uses
the engine's legal-move generator and make/unmake, and nothing of the
search: no transposition table, no pruning rule, no deadlock test, no
proof.  Each decision plays random games ("playouts") from each candidate
move and keeps the move whose playouts got furthest.
"""

from libc.stdint cimport uint8_t, uint64_t

from bakersdozen._position cimport (
    MAXMOVES, NO_COLUMN, TO_FOUNDATION, State, gen_legal, make, move_card, move_t,
    move_target, move_to_tuple, splitmix64, state_from_python, unmake,
)

cdef enum:
    MAXPLAYOUT = 1000    # bound on a playout's moves (the limit argument)


cdef inline bint from_foundation(const State* s, move_t m) noexcept nogil:
    """Whether *m* takes a card back from its foundation (the player never does)."""
    return s.where[move_card(m)] == NO_COLUMN


cdef int first_home(const State* s, const move_t* moves, int n) noexcept nogil:
    """The index of the first move to a foundation among *moves*, or -1."""
    cdef int i
    for i in range(n):
        if move_target(moves[i]) == TO_FOUNDATION and not from_foundation(s, moves[i]):
            return i
    return -1


cdef int playout(State* s, uint64_t* rng, int limit) noexcept nogil:
    """Play one random game from *s* and take it back; return the cards it left in the tableau.

    At most *limit* moves: a foundation move whenever there is one (the
    first in the generator's order), else a move drawn uniformly from the
    legal moves, less those that take a card back from a foundation and
    the one that would put back the card just moved where it came from.
    The playout ends when no such move is left, the deal is won, or the
    limit is reached.
    """
    cdef move_t moves[MAXMOVES]
    cdef move_t pick[MAXMOVES]
    cdef move_t hist[MAXPLAYOUT]
    cdef uint8_t src[MAXPLAYOUT]
    cdef int n = 0, k, i, h, cnt, left
    cdef int last_card = -1, last_src = -1
    cdef move_t m
    while n < limit and s.left > 0:
        k = gen_legal(s, moves)
        h = first_home(s, moves, k)
        if h >= 0:
            m = moves[h]
        else:
            cnt = 0
            for i in range(k):
                m = moves[i]
                if from_foundation(s, m):
                    continue
                if move_card(m) == last_card and move_target(m) == last_src:
                    continue
                pick[cnt] = m
                cnt += 1
            if cnt == 0:
                break
            m = pick[splitmix64(rng) % <uint64_t>cnt]
            last_card = move_card(m)
            last_src = s.where[last_card]
        hist[n] = m
        src[n] = <uint8_t>make(s, m)
        n += 1
    left = s.left
    while n > 0:
        n -= 1
        unmake(s, hist[n], src[n])
    return left


cdef class _Game:
    """A position with its move history, for the decision loop."""
    cdef State s
    cdef move_t hist[4096]
    cdef uint8_t src[4096]
    cdef int ply

    cdef void push(self, move_t m) noexcept:
        self.hist[self.ply] = m
        self.src[self.ply] = <uint8_t>make(&self.s, m)
        self.ply += 1

    cdef void pop(self) noexcept:
        self.ply -= 1
        unmake(&self.s, self.hist[self.ply], self.src[self.ply])

    cdef int autoplay(self, list record) except -1:
        """Play foundation moves while there are any; append them to *record*
        (as tuples) unless it is None; return how many were played."""
        cdef move_t moves[MAXMOVES]
        cdef int k, h, played = 0
        while self.ply < 4000:
            k = gen_legal(&self.s, moves)
            h = first_home(&self.s, moves, k)
            if h < 0:
                break
            if record is not None:
                record.append(move_to_tuple(&self.s, moves[h]))
            self.push(moves[h])
            played += 1
        return played


def play_monte_carlo(columns, foundations, int ranks, play, unsigned long long seed,
                     int rollouts, int limit, int max_moves):
    """Play a deal with flat Monte Carlo decisions; return ``(won, moves)``.

    Parameters
    ----------
    columns, foundations, ranks, play
        The position as :class:`bakersdozen._position.Position` takes it.
    seed : int
        Seeds the splitmix64 generator of the playouts and tie-breaks.
    rollouts : int
        Playouts per candidate move, 1 or more.
    limit : int
        Moves per playout, 1..1000.
    max_moves : int
        The game is given up after this many moves (foundation moves included), 1..4000.

    Returns
    -------
    tuple
        ``(won, moves)``: whether every card went home, and the moves played as
        ``(card, source, target)`` tuples (-1 for a foundation).

    The decision at each position: foundation moves first (the first in
    the generator's order); otherwise every legal move that does not take
    a card back from a foundation and does not lead to a position already
    seen in this game is a candidate.  A candidate is played, followed by
    its foundation moves, and *rollouts* playouts are run from there; its
    score is the fewest cards any of them left in the tableau, then the
    fewest in total over them; the best candidate is played, ties drawn at
    random.  The game is lost when no candidate is left.
    """
    if rollouts < 1:
        raise ValueError("rollouts must be at least 1")
    if not 1 <= limit <= MAXPLAYOUT:
        raise ValueError(f"limit must be in 1..{MAXPLAYOUT}")
    if not 1 <= max_moves <= 4000:
        raise ValueError("max_moves must be in 1..4000")
    cdef _Game g = _Game()
    state_from_python(&g.s, columns, foundations, ranks, play)
    g.ply = 0
    cdef uint64_t rng = seed
    cdef move_t moves[MAXMOVES]
    cdef int k, i, r, auto, best_min, best_sum, cand_min, cand_sum, ties, left
    cdef move_t best, m
    cdef list record = []
    cdef set seen = set()
    g.autoplay(record)
    seen.add((g.s.key, g.s.check))
    while g.s.left > 0 and len(record) < max_moves:
        k = gen_legal(&g.s, moves)
        best_min = best_sum = -1
        ties = 0
        best = 0
        for i in range(k):
            m = moves[i]
            if from_foundation(&g.s, m):
                continue
            g.push(m)
            if (g.s.key, g.s.check) in seen:
                g.pop()
                continue
            auto = g.autoplay(None)
            cand_min = 99
            cand_sum = 0
            with nogil:
                for r in range(rollouts):
                    left = playout(&g.s, &rng, limit)
                    cand_sum += left
                    if left < cand_min:
                        cand_min = left
            while auto > 0:
                g.pop()
                auto -= 1
            g.pop()
            if best_min < 0 or cand_min < best_min or (cand_min == best_min and cand_sum < best_sum):
                best_min, best_sum, best, ties = cand_min, cand_sum, m, 1
            elif cand_min == best_min and cand_sum == best_sum:
                ties += 1
                if splitmix64(&rng) % <uint64_t>ties == 0:   # reservoir: each tie equally likely
                    best = m
        if best_min < 0:
            break
        record.append(move_to_tuple(&g.s, best))
        g.push(best)
        seen.add((g.s.key, g.s.check))
        g.autoplay(record)
        seen.add((g.s.key, g.s.check))
    return g.s.left == 0, record
