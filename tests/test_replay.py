"""The replay page as text, and the move-list reader (no browser needed).

The browser tests are in ``test_replay_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import (
    FOUNDATION,
    Card,
    Deal,
    IllegalMoveError,
    Move,
    ParseError,
    Suit,
    check,
    replay_html,
    solve,
)
from bakersdozen.replay import MAX_MOVES, MAX_MOVES_BYTES, read_moves, replay_data
from bakersdozen.rules import FoundationBuild
from replay_games import SEEDS, SEQUENCE_RULES, Step, expected_steps, foundation_return, good_measure, reduced


@lru_cache(maxsize=None)
def solution(number: int) -> tuple[Deal, tuple[Move, ...]]:
    deal = Deal.pysol(number)
    moves = solve(deal).moves
    assert check(deal, moves).won
    return deal, moves


def embedded(page: str) -> dict[str, object]:
    match = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S
    )
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1))
    return data


def inline(page: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)


# -- the page -----------------------------------------------------------------


def test_page_is_small_for_a_long_solution() -> None:
    # PySol deal 8's solution is about 150 moves; the bound holds for any
    # solution of 150 moves because each move costs a fixed few bytes.
    deal, moves = solution(8)
    size = len(replay_html(deal, moves).encode("utf-8"))
    empty = len(replay_html(deal, ()).encode("utf-8"))
    per_move = (size - empty) / len(moves)
    assert per_move < 30
    assert empty + 150 * per_move < 200_000
    assert size < 200_000


def test_page_requests_nothing() -> None:
    deal, moves = solution(24)
    page = replay_html(deal, moves)
    lowered = page.lower()
    for forbidden in ("//", "http:", "https:", "url(", "@import", "src=", "href=",
                      "<link", "<img", "<iframe", "fetch(", "xmlhttprequest", "websocket"):
        assert forbidden not in lowered, forbidden
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert csp is not None
    policy = csp.group(1)
    assert policy.startswith("default-src 'none'; ")
    assert "unsafe" not in policy
    # The only allowances are the page's own style sheet and script, by hash.
    (style,) = inline(page, "style")
    (script,) = inline(page, "script")
    for text, directive in ((style, "style-src"), (script, "script-src")):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in policy


def test_embedded_json_is_the_moves() -> None:
    deal, moves = solution(24)
    data = embedded(replay_html(deal, moves))
    assert data == replay_data(deal, moves)
    assert data["columns"] == [[str(card) for card in column] for column in deal.columns]
    assert [pile["cards"] for pile in data["foundations"]] == [[], [], [], []]  # type: ignore[index]
    expected = [
        [str(m.card), m.source, 0, int(m.card.suit)] if m.target == FOUNDATION
        else [str(m.card), m.source, m.target]
        for m in moves
    ]
    assert data["moves"] == expected


def test_mid_game_start_and_fewer_columns() -> None:
    deal, moves = solution(24)
    middle = check(deal, moves[:30]).position
    data = replay_data(middle, moves[30:])
    assert data["columns"] == [[str(card) for card in column] for column in middle.columns]
    piles = data["foundations"]
    assert isinstance(piles, list)
    for suit, pile in zip(Suit, piles):
        assert pile["cards"] == [str(Card(r, suit)) for r in range(1, middle.foundations[suit] + 1)]
    # A smaller game: five columns of a 4-rank pack, not thirteen.
    small = Deal.from_text("4C 3D\n4D 2C\n4H AC\n4S 3C\nAD 2D 3H 2H AH 3S 2S AS\n", ranks=4)
    page = replay_html(small, ["AS 5>F", "2S 5>F", "3S 5>F"])
    assert len(embedded(page)["columns"]) == 5  # type: ignore[arg-type]


def test_title_is_escaped() -> None:
    deal, moves = solution(24)
    page = replay_html(deal, moves[:3], title="</title><script>alert(1)</script> & co")
    assert "<script>alert" not in page
    assert "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert "<title>Baker&#x27;s Dozen replay</title>" in replay_html(deal, ())
    with pytest.raises(TypeError):
        replay_html(deal, (), title=24)  # type: ignore[arg-type]


def test_data_cannot_close_the_script() -> None:
    deal, _ = solution(24)
    page = replay_html(deal, [])
    assert page.count("</script>") == 2


def test_illegal_moves_are_refused() -> None:
    deal, moves = solution(24)
    bad = list(moves[:5]) + [Move(Card.from_text("KD"), 1, 2)] + list(moves[5:])
    with pytest.raises(IllegalMoveError, match=r"move 6 'KD 1>2' is illegal") as info:
        replay_html(deal, bad)
    assert info.value.index == 5
    with pytest.raises(IllegalMoveError, match="not a move") as info:
        replay_html(deal, [str(moves[0]), "nonsense"])
    assert info.value.index == 1
    with pytest.raises(TypeError):
        replay_html(deal.to_text(), moves)  # type: ignore[arg-type]


def test_strings_and_moves_give_the_same_page() -> None:
    deal, moves = solution(24)
    assert replay_html(deal, [str(m) for m in moves]) == replay_html(deal, moves)


# -- read_moves -----------------------------------------------------------------


def test_read_moves_lines() -> None:
    _, moves = solution(24)
    text = "# deal 24\n\n" + "\n".join(f"{m}   # ok" for m in moves[:3])
    text += "\n  4. " + str(moves[3]) + "\r\n" + "\n".join(str(m) for m in moves[4:]) + "\n\n"
    assert read_moves(text) == moves
    assert read_moves("") == ()
    assert read_moves("\ufeff7c 1 > 2\nas 3>foundation") == (
        Move.from_text("7C 1>2"), Move.from_text("AS 3>F"))


def test_read_moves_bad_line_names_line_and_text() -> None:
    with pytest.raises(ParseError, match=r"line 3: '7C 1->2'"):
        read_moves("AS 1>F\n# comment\n7C 1->2\n")
    with pytest.raises(ParseError, match=r"line 2: 'ZZ 1>2'.*unknown card 'ZZ'"):
        read_moves("AS 1>F\nZZ 1>2  # bad card\n")
    with pytest.raises(ParseError, match=r"line 1: '7C 14>2'.*not in 1..13"):
        read_moves("7C 14>2")


def test_read_moves_json() -> None:
    _, moves = solution(24)
    objects = [
        {"card": str(m.card), "source": m.source,
         "target": "foundation" if m.target == FOUNDATION else m.target}
        for m in moves
    ]
    # The object printed by bakersdozen solve --json.
    record = {"verdict": "solved", "moves": objects, "nodes": 7, "seconds": 0.1, "reason": None}
    assert read_moves(json.dumps(record, indent=2)) == moves
    assert read_moves(json.dumps(objects)) == moves
    assert read_moves(json.dumps([str(m) for m in moves])) == moves
    assert read_moves("[]") == ()


@st.composite
def any_moves(draw: st.DrawFn) -> Move:
    card = Card(draw(st.integers(1, 13)), draw(st.sampled_from(Suit)))
    source = draw(st.integers(1, 13))
    target = draw(st.integers(0, 13).filter(lambda t: t != source))
    return Move(card, source, target)


@given(st.lists(any_moves(), max_size=40))
def test_read_moves_round_trips(listed: list[Move]) -> None:
    assert read_moves("\n".join(str(m) for m in listed)) == tuple(listed)
    objects = [
        {"card": str(m.card), "source": m.source,
         "target": "foundation" if m.target == FOUNDATION else m.target}
        for m in listed
    ]
    assert read_moves(json.dumps({"moves": objects})) == tuple(listed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"moves": [', r"not valid JSON at line 1 column 12"),
        ('{"verdict": "solved"}', r'no "moves" list'),
        ('{"moves": 3}', r'"moves" must be a list'),
        ('[{"card": "7C", "source": 1}]', r"move 1 of the JSON list: .* has no 'target'"),
        ('["AS 1>F", 7]', r"move 2 of the JSON list: expected an object or a string, not 7"),
        ('["AS 1>F", "7C 1>1"]', r"move 2 of the JSON list: .*same source and target"),
        ('[{"card": "7X", "source": 1, "target": 2}]', r"move 1 .*not a card: '7X'"),
        ('[{"card": "7C", "source": "1", "target": 2}]', r"the source .* is not a column"),
        ('[{"card": "7C", "source": 1, "target": 14}]', r"Move.target must be"),
        ('[{"card": "7C", "source": true, "target": 2}]', r"the source .* is not a column"),
        ("[" * 100_000, r"nested too deeply|not valid JSON"),
    ],
)
def test_read_moves_bad_json(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        read_moves(text)


def test_read_moves_is_bounded() -> None:
    # Refused before any move is read: every line here is bad.
    with pytest.raises(ParseError, match=f"more than {MAX_MOVES} moves"):
        read_moves("nonsense\n" * (MAX_MOVES + 1))
    with pytest.raises(ParseError, match=f"more than {MAX_MOVES} moves"):
        read_moves(json.dumps(["nonsense"] * (MAX_MOVES + 1)))
    with pytest.raises(ParseError, match=f"at most {MAX_MOVES_BYTES} bytes"):
        read_moves("#" * (MAX_MOVES_BYTES + 1))
    with pytest.raises(ParseError, match=f"at most {MAX_MOVES_BYTES} bytes"):
        read_moves("♥" * (MAX_MOVES_BYTES // 3 + 1))  # 3 bytes each in UTF-8
    assert len(read_moves("AS 1>F\n" * MAX_MOVES)) == MAX_MOVES
    with pytest.raises(TypeError):
        read_moves(b"AS 1>F")  # type: ignore[arg-type]


# -- the family of games ---------------------------------------------------------

GAMES = {
    **{name: (lambda name=name: reduced(name)) for name in SEEDS},
    "good_measure_pysol_2": good_measure,
    "foundation_return": foundation_return,
}


def _play_as_the_page_does(
    data: dict[str, Any], steps: list[Step], moves: tuple[Move, ...]
) -> None:
    """Apply the encoded moves mechanically (no rule), as the script does,
    and compare each position with check()'s."""
    columns = [list(c) for c in data["columns"]]
    piles = [list(p["cards"]) for p in data["foundations"]]
    assert columns == steps[0].columns and piles == steps[0].piles
    for encoded, move, step in zip(data["moves"], moves, steps[1:], strict=True):
        card, source, target = encoded[:3]
        assert (card, source, target) == (str(move.card), move.source, move.target)
        assert (encoded[3] if len(encoded) == 4 else None) == step.pile
        origin = columns[source - 1] if source else piles[encoded[3]]
        unit = origin[origin.index(card):]
        del origin[len(origin) - len(unit):]
        (columns[target - 1] if target else piles[encoded[3]]).extend(unit)
        assert unit == step.carried
        assert columns == step.columns
        assert piles == step.piles


def _assert_piles_fit(deal: Deal, piles: list[list[str]]) -> None:
    """Pile i is begun by the Ace of suit i and goes up one rank a card, by
    the game's foundation rule, holding exactly the cards not in a column."""
    rules = deal.rules
    for suit, pile in zip(Suit, piles):
        cards = [Card.from_text(text) for text in pile]
        assert len(cards) == deal.foundations[suit]
        assert [c.rank for c in cards] == list(range(1, len(cards) + 1))
        if cards:
            assert cards[0].suit == suit
        for below, above in zip(cards, cards[1:]):
            if rules.foundation_build is FoundationBuild.BY_SUIT:
                assert above.suit == below.suit
            elif rules.foundation_build is FoundationBuild.ALTERNATE_COLOURS:
                assert above.suit.is_red != below.suit.is_red
    placed = {card for column in deal.columns for card in column}
    home = {Card(r, s) for r in range(1, deal.ranks + 1) for s in Suit} - placed
    assert sorted(Card.from_text(t) for p in piles for t in p) == sorted(home)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_data_plays_every_game(name: str) -> None:
    game = GAMES[name]()
    data = replay_data(game.deal, game.moves)
    steps = expected_steps(game.deal, game.moves, [p["cards"] for p in data["foundations"]])
    _assert_piles_fit(game.deal, steps[0].piles)
    _play_as_the_page_does(data, steps, game.moves)
    _assert_piles_fit(check(game.deal, game.moves).position, steps[-1].piles)
    assert embedded(replay_html(game.deal, game.moves)) == data
    rules = game.deal.rules
    labels = [(p["name"], p["symbol"]) for p in data["foundations"]]
    if rules.foundation_build is FoundationBuild.BY_SUIT:
        assert labels == [(s.name.capitalize(), s.symbol) for s in Suit]
    else:
        assert labels == [(f"A{s.symbol}", f"A{s.symbol}") for s in Suit]


def test_the_games_have_what_they_test() -> None:
    """The lines above do move sequences, bring cards back and mix suits on a pile."""
    def steps(name: str) -> list[Step]:
        game = GAMES[name]()
        start = [p["cards"] for p in replay_data(game.deal, [])["foundations"]]
        return expected_steps(game.deal, game.moves, start)

    castles = GAMES["castles_in_spain"]()
    assert any(len(s.carried) > 1 for s in steps("castles_in_spain"))
    assert any(  # a move onto an empty column
        m.target != FOUNDATION and not check(castles.deal, castles.moves[:k]).position.columns[m.target - 1]
        for k, m in enumerate(castles.moves)
    )
    assert any(len(s.carried) > 2 for s in steps(SEQUENCE_RULES.name))
    assert any(m.source == FOUNDATION for m in GAMES["foundation_return"]().moves)
    spanish = steps("spanish_patience")[-1].piles
    assert any(Card.from_text(t).suit != pile for pile, p in enumerate(spanish) for t in p)
    measure = GAMES["good_measure_pysol_2"]()
    assert len(measure.deal.columns) == 10 and measure.deal.foundations.count(1) == 2


def test_mid_game_start_of_spanish_patience() -> None:
    """A position records pile heights only: the page gets cards that fit them."""
    game = GAMES["spanish_patience"]()
    for k in range(0, len(game.moves), 7):
        middle = check(game.deal, game.moves[:k]).position
        data = replay_data(middle, game.moves[k:])
        start = [p["cards"] for p in data["foundations"]]
        _assert_piles_fit(middle, start)
        _play_as_the_page_does(data, expected_steps(middle, game.moves[k:], start), game.moves[k:])


def test_the_page_names_the_game() -> None:
    game = GAMES["spanish_patience"]()
    page = replay_html(game.deal, game.moves)
    assert "<title>Spanish Patience replay</title>" in page
    assert f"<small>Spanish Patience: {len(game.moves)} moves, 5 columns</small>" in page
    ret = GAMES["foundation_return"]()
    assert "<title>Baker&#x27;s Dozen (foundation_return=True) replay</title>" in replay_html(
        ret.deal, ret.moves)
    measure = GAMES["good_measure_pysol_2"]()
    page = replay_html(measure.deal, measure.moves, title="PySol deal 2")
    assert "<title>PySol deal 2 \u00b7 Good Measure</title>" in page
    assert "<h1>PySol deal 2 <small>Good Measure: " in page
    page = replay_html(measure.deal, (), title="Good Measure, deal 2")
    assert "<title>Good Measure, deal 2</title>" in page
