"""The replay page as text, and the move-list reader (no browser needed).

The browser tests are in ``test_replay_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import lru_cache

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
    with pytest.raises(IllegalMoveError, match=r"move 5 'KD 1>2' is illegal") as info:
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
