"""An exhaustive pure-Python search, the second witness for engine verdicts.

It knows the rules of docs/rules.md only (every legal move, no pruning, no
heuristics, no shared code with the engine or the checker) and visits
every position reachable from a deal, identified exactly (no hashing
tricks).  It is slow, so it is used on reduced packs (ranks 1..R of four
suits, R from 3), where it decides any deal in well under a second.
"""

from __future__ import annotations

from bakersdozen import Deal, Move
from bakersdozen.rules import BAKERS_DOZEN, Rules
from reference import family_apply, family_moves

Position = tuple[tuple[tuple[int, ...], ...], tuple[int, int, int, int]]


def _start(deal: Deal) -> Position:
    columns = tuple(tuple((c.rank, int(c.suit)) for c in col) for col in deal.columns)
    return columns, deal.foundations  # type: ignore[return-value]


def _successors(position: Position) -> list[Position]:
    columns, found = position
    out = []
    for i, col in enumerate(columns):
        if not col:
            continue
        rank, suit = col[-1]
        if found[suit] == rank - 1:
            nf = list(found)
            nf[suit] = rank
            nc = list(columns)
            nc[i] = col[:-1]
            out.append((tuple(nc), tuple(nf)))
        for j, other in enumerate(columns):
            if j != i and other and other[-1][0] == rank + 1:
                nc = list(columns)
                nc[i] = col[:-1]
                nc[j] = other + (col[-1],)
                out.append((tuple(nc), found))
    return out  # type: ignore[return-value]


def family_line(deal: Deal, rules: Rules | None = None) -> list[Move] | None:
    """A winning line from *deal* under *rules* (the deal's own by default),
    or None if there is none: the exhaustive search over the reference's
    moves.  Positions are keyed by their exact columns and foundation
    heights (the heights are the whole foundation state: docs/rules.md).
    """
    rules = rules or deal.rules
    deal = deal.with_rules(rules)
    start = (deal.columns, deal.foundations)
    parent: dict[object, tuple[object, Move] | None] = {start: None}
    stack = [deal]
    while stack:
        position = stack.pop()
        key = (position.columns, position.foundations)
        if not any(position.columns):
            line: list[Move] = []
            step = parent[key]
            while step is not None:
                key, move = step
                line.append(move)
                step = parent[key]
            return line[::-1]
        for move in family_moves(position, rules):
            nxt = family_apply(position, move, rules)
            nkey = (nxt.columns, nxt.foundations)
            if nkey not in parent:
                parent[nkey] = (key, move)
                stack.append(nxt)
    return None


def _family_solvable(deal: Deal, rules: Rules) -> bool:
    return family_line(deal, rules) is not None


def brute_force_solvable(deal: Deal, rules: Rules | None = None) -> bool:
    """True iff some sequence of legal moves from *deal* wins (exhaustive).

    *rules* defaults to the deal's own; Baker's Dozen has a fast path.
    """
    rules = rules or deal.rules
    if rules != BAKERS_DOZEN:
        return _family_solvable(deal, rules)
    start = _start(deal)
    seen = {start}
    stack = [start]
    while stack:
        position = stack.pop()
        if not any(position[0]):
            return True
        for nxt in _successors(position):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def reachable(deal: Deal) -> set[Position]:
    """Every position reachable from *deal* with every legal move (itself included)."""
    start = _start(deal)
    seen = {start}
    stack = [start]
    while stack:
        for nxt in _successors(stack.pop()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def shortest_win_length(deal: Deal) -> int | None:
    """Fewest moves of a winning line from *deal* (Baker's Dozen), or None if none wins.

    Breadth-first search over every legal move, positions identified
    exactly: the first won position dequeued is at the least distance.
    """
    from collections import deque

    start = _start(deal)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        position = queue.popleft()
        if not any(position[0]):
            return dist[position]
        for nxt in _successors(position):
            if nxt not in dist:
                dist[nxt] = dist[position] + 1
                queue.append(nxt)
    return None


def win_distances(deal: Deal) -> dict[Position, int]:
    """Fewest moves to a win from every position reachable from *deal* that can win.

    Positions are ``(columns, foundations)`` with columns of ``(rank, suit)``
    pairs, bottom first.  Every reachable position is generated (every
    legal move, positions identified exactly), then a breadth-first search
    runs backwards from the won positions over the reversed moves; a
    position missing from the result cannot be won.
    """
    from collections import deque

    start = _start(deal)
    parents: dict[Position, list[Position]] = {start: []}
    stack = [start]
    while stack:
        position = stack.pop()
        for nxt in _successors(position):
            if nxt not in parents:
                parents[nxt] = []
                stack.append(nxt)
            parents[nxt].append(position)
    dist = {p: 0 for p in parents if not any(p[0])}
    queue = deque(dist)
    while queue:
        position = queue.popleft()
        for before in parents[position]:
            if before not in dist:
                dist[before] = dist[position] + 1
                queue.append(before)
    return dist
