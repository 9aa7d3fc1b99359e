"""Hints and reviews, against solve(), the checker and brute force."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, IllegalMoveError, Verdict, check, deadlock, legal_moves, solve
from bakersdozen.analysis import hint, review
from brute import brute_force_solvable
from conftest import initial_deals
from lines import play_randomly

MEMORY_MB = 64


def _losing_detour(deal: Deal, line: tuple, rng: random.Random) -> tuple[int, object]:
    """A point k of the winning *line* and a legal move there that loses (proven)."""
    for k in rng.sample(range(len(line)), len(line)):
        position = check(deal, line[:k]).position
        for move in legal_moves(position):
            if move == line[k]:
                continue
            after = check(position, [move]).position
            if solve(after, memory_mb=MEMORY_MB).verdict is Verdict.UNSOLVABLE:
                return k, move
    raise AssertionError("no losing move found along the line")


@pytest.mark.parametrize("number", [1, 2, 24])
def test_every_hint_along_a_solution_keeps_a_winning_line(number: int) -> None:
    deal = Deal.pysol(number)
    line = solve(deal).moves
    for k in range(len(line) + 1):
        position = check(deal, line[:k]).position
        answer = hint(position, memory_mb=MEMORY_MB)
        assert answer.verdict is Verdict.SOLVED
        if k == len(line):
            assert answer.move is None and str(answer) == "won: nothing left to play"
            break
        assert str(answer) == f"hint: {answer.move}"
        after = check(position, [answer.move]).position
        # the hinted move keeps a winning line: brute force is out of reach on
        # a full pack, so an independent solve with another move order decides
        again = solve(after, memory_mb=MEMORY_MB, seed=12345)
        assert again.verdict is Verdict.SOLVED and check(after, again.moves).won


def test_hint_after_a_losing_move_says_lost() -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    k, move = _losing_detour(deal, line, random.Random(1))
    after = check(deal, [*line[:k], move]).position
    answer = hint(after, memory_mb=MEMORY_MB)
    assert answer.verdict is Verdict.UNSOLVABLE and answer.move is None
    assert str(answer).startswith("lost: no winning line from here")
    if answer.solution.deadlock:  # lost at once: the cards that can never move are named
        assert answer.solution.deadlock == deadlock(after)
        assert " ".join(map(str, deadlock(after))) in str(answer)


def test_hint_of_an_unsolvable_deal_and_of_a_limit() -> None:
    assert hint(Deal.pysol(64), memory_mb=MEMORY_MB).verdict is Verdict.UNSOLVABLE
    stopped = hint(Deal.pysol(417), max_nodes=1000, memory_mb=MEMORY_MB)
    assert stopped.verdict is Verdict.UNKNOWN and stopped.move is None
    assert str(stopped).startswith("unknown: max_nodes")


@settings(max_examples=60, deadline=None)
@given(initial_deals(st.integers(3, 5)))
def test_hint_verdicts_agree_with_brute_force(deal: Deal) -> None:
    answer = hint(deal, memory_mb=1)
    assert (answer.verdict is Verdict.SOLVED) == brute_force_solvable(deal)
    if answer.move is not None:
        assert brute_force_solvable(check(deal, [answer.move]).position)


@pytest.mark.parametrize(("number", "seed"), [(1, 1), (2, 2), (8, 3), (11, 4)])
def test_review_finds_the_losing_move(number: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.pysol(number)
    line = solve(deal).moves
    k, move = _losing_detour(deal, line, rng)
    played = [*line[:k], move]
    play_randomly(deal, played, 10, rng)  # keep playing after the loss, any legal moves
    result = review(deal, played, memory_mb=MEMORY_MB)
    assert result.losing_move == k
    assert result.verdict is Verdict.UNSOLVABLE and result.start_verdict is Verdict.SOLVED
    before = check(deal, played[:k]).position
    assert check(before, result.alternative).position.is_won  # a real winning alternative
    assert result.alternative[0] != move
    text = result.describe(tuple(played))
    assert f"lost at move {k + 1}: {move}" in text


def test_review_of_a_winnable_game_and_of_a_lost_deal() -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    assert review(deal, line[:30], memory_mb=MEMORY_MB).describe(line[:30]).startswith(
        "still winnable after all 30 moves"
    )
    whole = review(deal, [str(m) for m in line])
    assert whole.verdict is Verdict.SOLVED and whole.won  # it said "still winnable" once
    assert whole.describe(line) == f"won: every card is home after all {len(line)} moves\n"
    assert not review(deal, line[:-1], memory_mb=MEMORY_MB).won
    lost = review(Deal.pysol(64), [], memory_mb=MEMORY_MB)
    assert lost.start_verdict is Verdict.UNSOLVABLE and lost.losing_move is None


def test_review_counts_its_moves_in_english() -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    # once "still winnable after all 1 moves" and "after all 0 moves"
    assert review(deal, line[:1]).describe(line[:1]) == "still winnable after its one move\n"
    assert review(deal, []).describe(()) == "still winnable with no move played\n"


@pytest.mark.parametrize("moves", [None, 7, object()])
def test_review_needs_an_iterable_of_moves(moves: object) -> None:
    with pytest.raises(TypeError, match=r"^review\(\) needs an iterable of moves \(Move or str\), "
                                        rf"not {type(moves).__name__}$"):
        review(Deal.pysol(1), moves)  # type: ignore[arg-type]


def test_review_names_an_illegal_move() -> None:
    deal = Deal.pysol(1)
    line = [str(m) for m in solve(deal).moves[:5]]
    with pytest.raises(IllegalMoveError, match=r"move 4 'QS 9>1' cannot be played") as info:
        review(deal, [*line[:3], "QS 9>1"])
    assert info.value.index == 3
    with pytest.raises(TypeError, match="single str"):
        review(deal, "AS 5>F")  # type: ignore[arg-type]
