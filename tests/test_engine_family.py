"""The compiled engine plays every knob of the family (docs/rules.md, docs/engine.md).

Two independent witnesses:

- perft: the engine's full move generator counts the same move sequences
  as the reference generator of ``tests/reference.py``, for each preset and
  knob combination (``bench/perft_engine_family.json``, made once by
  ``bench/perft_engine_family.py``);
- verdicts: on reduced packs (ranks 1..R of four suits), :func:`solve`
  (the pruned search) and the exhaustive brute force of ``tests/brute.py``
  (every legal move, no pruning) agree, and every win replays with
  :func:`check` under the same rules.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Card, Deal, Verdict, check, solve
from bakersdozen.rules import BAKERS_DOZEN, PRESETS, Rules
from bakersdozen.solver import perft
from brute import family_line
from reference import family_deal, pack

DATA = Path(__file__).resolve().parent.parent / "bench" / "perft_engine_family.json"

#: The presets and knob combinations on top of Baker's Dozen.
RULE_SETS: dict[str, Rules] = dict(PRESETS)
for _knobs in (
    {"moves": "sequence"},
    {"moves": "supermove", "empty_column": "any_card"},
    {"empty_column": "any_card"},
    {"empty_column": "kings_only"},
    {"foundation_return": True},
    {"build": "same_suit"},
    {"build": "other_suit"},
    {"foundation_build": "any_suit"},
    {"moves": "sequence", "foundation_return": True},
    {"build": "alternate_colours", "moves": "sequence", "empty_column": "kings_only"},
):
    _rules = BAKERS_DOZEN.replace(**_knobs)
    RULE_SETS[_rules.name] = _rules


def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text())["rules"]  # type: ignore[no-any-return]


def _rules_of(name: str, knobs: dict[str, Any]) -> Rules:
    rules = PRESETS[name.split("+", 1)[0]].replace(**knobs)
    assert rules.name == name
    return rules


def test_perft_data_covers_every_preset_and_knob_value() -> None:
    data = _data()
    assert set(PRESETS) <= set(data)
    seen: dict[str, set[object]] = {}
    for entry in data.values():
        for knob, value in entry["knobs"].items():
            seen.setdefault(knob, set()).add(value)
    assert seen["build"] == {"any_suit", "alternate_colours", "same_suit", "other_suit"}
    assert seen["moves"] == {"one_card", "sequence", "supermove"}
    assert seen["empty_column"] == {"nothing", "any_card", "kings_only"}
    assert seen["foundation_build"] == {"by_suit", "alternate_colours", "any_suit"}
    assert seen["foundation_return"] == {False, True}


@pytest.mark.parametrize("name", sorted(json.loads(DATA.read_text())["rules"]))
def test_engine_perft_matches_the_reference(name: str) -> None:
    entry = _data()[name]
    rules = _rules_of(name, entry["knobs"])
    for position in entry["positions"]:
        deal = Deal(
            tuple(tuple(Card.from_text(c) for c in column) for column in position["columns"]),
            tuple(position["foundations"]),  # type: ignore[arg-type]
            position["ranks"],
            rules,
        )
        got = {depth: perft(deal, int(depth)) for depth in position["perft"]}
        assert got == position["perft"], (name, position["origin"])


def _deal(rules: Rules, seed: int, ranks: int) -> Deal:
    cards = pack(ranks)
    random.Random(seed).shuffle(cards)
    return family_deal(cards, ranks, rules)


def _agree(deal: Deal, rules: Rules) -> bool:
    """The engine's verdict equals the brute force's; a win replays. Returns the verdict."""
    solution = solve(deal, time_limit=60)
    assert solution.verdict in (Verdict.SOLVED, Verdict.UNSOLVABLE)
    assert solution.solved == (family_line(deal, rules) is not None), deal.to_text()
    if solution.solved:
        assert check(deal, solution.moves).won
    return solution.solved


#: Fewer examples where the brute force is slow (ten columns of reduced Good
#: Measure packs; cards coming back from the foundations).
_EXAMPLES = {"good_measure": 12, "bakers_dozen+foundation_return=True": 20,
             "bakers_dozen+moves=sequence,foundation_return=True": 20}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_engine_verdicts_agree_with_the_brute_force(name: str) -> None:
    rules = RULE_SETS[name]

    @settings(max_examples=_EXAMPLES.get(name, 30), deadline=None, database=None)
    @given(seed=st.integers(0, 2**32 - 1), ranks=st.sampled_from([3, 4]))
    def agree(seed: int, ranks: int) -> None:
        _agree(_deal(rules, seed, ranks), rules)

    agree()


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_sample_holds_both_verdicts(name: str) -> None:
    # deterministic deals until both a win and a loss have been seen (and agreed on)
    rules = RULE_SETS[name]
    verdicts = set()
    for seed in range(200):
        verdicts.add(_agree(_deal(rules, seed, 3 if seed % 2 else 4), rules))
        if len(verdicts) == 2:
            break
    assert verdicts == {True, False}


# -- keys and pruning guards ----------------------------------------------------

def _position(deal: Deal) -> Any:
    from bakersdozen import _position
    from bakersdozen.solver import _engine_args

    return _position.Position(*_engine_args(deal))


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(list(RULE_SETS)), number=st.integers(1, 10**5),
       seed=st.integers(0, 2**32 - 1))
def test_incremental_keys_match_full_recomputation(name: str, number: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.pysol(number, RULE_SETS[name])
    position = _position(deal)
    start = position.key
    played = 0
    for _ in range(80):
        moves = position.legal_moves()
        if not moves or (rng.random() < 0.15 and played):
            if not played:
                break
            position.unmake()
            played -= 1
        else:
            position.make(rng.choice(moves))
            played += 1
        assert position.key == position.full_key()
    while played:
        position.unmake()
        played -= 1
    assert position.key == start and position.columns == [
        [card.index for card in column] for column in deal.columns
    ]


def test_key_sees_the_foundation_piles_when_they_are_not_by_suit() -> None:
    # the same tableau with the cards home on different piles: different
    # positions (what each pile takes next differs)
    rules = OPEN.replace(foundation_build="any_suit")
    column = _cards("2C 2D 3C 3D 3H 3S")
    one = Deal((column,), (2, 2, 1, 1), 3, rules)
    two = Deal((column,), (1, 2, 1, 2), 3, rules)
    assert _position(one).key != _position(two).key
    assert _position(one).key == _position(Deal((column,), (2, 2, 1, 1), 3, rules)).key


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_text(t) for t in text.split())


#: Baker's Dozen with Kings left where they are, for small hand-made positions.
OPEN = BAKERS_DOZEN.replace(kings="none")


def test_lone_card_rule_only_where_empty_columns_take_nothing() -> None:
    # 2C alone in column 1 may go onto 3H; under Baker's Dozen the search
    # never tries it, where an empty column takes a card it must
    columns = (_cards("2C"), _cards("AC AD 3H"), _cards("3D 3C 3S AH AS 2H 2S 2D"))
    deal = Deal(columns, (0, 0, 0, 0), 3, OPEN)
    lone = (Card.from_text("2C").index, 0, 1)
    assert lone in _position(deal).legal_moves()
    assert lone not in _position(deal).search_moves()
    for knobs in ({"empty_column": "any_card"}, {"empty_column": "kings_only"},
                  {"moves": "sequence"}):
        rules = OPEN.replace(**knobs)
        assert lone in _position(deal.with_rules(rules)).search_moves(), knobs


def test_dead_card_rule_only_without_foundation_return() -> None:
    # 2C lies on AC and no card is one rank higher: 2C can never move in
    # Baker's Dozen, so the search gives no moves; where an empty column
    # takes a card, or any foundation pile may take it, it can
    columns = (_cards("AC 2C"), _cards("AD"), _cards("AH AS 2D 2H 2S"))
    deal = Deal(columns, (0, 0, 0, 0), 2, OPEN)
    assert _position(deal).search_moves() == []
    assert solve(deal).verdict is Verdict.UNSOLVABLE
    for knobs in ({"empty_column": "any_card"}, {"foundation_build": "any_suit"}):
        rules = OPEN.replace(**knobs)
        assert _position(deal.with_rules(rules)).search_moves() != [], knobs


def test_safe_foundation_moves_only_by_suit_without_return() -> None:
    # AC is safe to play home at once under Baker's Dozen: the search's only move
    columns = (_cards("2D AC"), _cards("AD AH AS"), _cards("2C 2H 2S"))
    deal = Deal(columns, (0, 0, 0, 0), 2, OPEN)
    assert _position(deal).search_moves() == [(Card.from_text("AC").index, 0, -1)]
    returns = deal.with_rules(OPEN.replace(foundation_return=True))
    assert len(_position(returns).search_moves()) > 1


# -- the command line goes through solve() for every preset -----------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_cli_hint_review_solve_bench_play_every_preset(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bakersdozen.cli import main

    deal = Deal.pysol(2, name)
    line = solve(deal).moves
    board = tmp_path / "board.txt"
    board.write_text(deal.to_text(), encoding="utf-8")
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(str(m) for m in line[:10]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["hint", str(board), "--game", name, "--memory-mb", "64"]) == 0
    hint = capsys.readouterr().out
    assert hint.startswith("hint: ")
    assert main(["review", str(board), str(moves), "--game", name, "--memory-mb", "64"]) == 0
    assert "still winnable" in capsys.readouterr().out
    assert main(["solve", "--deal", "2", "--game", name, "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["game"] == name and solved["verdict"] == "solved"
    from bakersdozen.model import FOUNDATION, Move

    played = [
        Move(Card.from_text(m["card"]),
             FOUNDATION if m["source"] == "foundation" else m["source"],
             FOUNDATION if m["target"] == "foundation" else m["target"])
        for m in solved["moves"]
    ]
    assert check(deal, played).won
    assert main(["bench", "--deals", "2", "--game", name, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["solvers"]["bakersdozen"]["summary"]
    assert summary["solved"] == 1
