"""The request → response layer (bakersdozen.protocol), in process: answers and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Deal, Verdict, check, legal_moves, solve
from bakersdozen.cli import main
from bakersdozen.protocol import (
    DEFAULT_LIMITS, ERROR_CODES, MAX_LINE_BYTES, OPS, ServerLimits, decode, encode, handle, handle_line,
)
from bakersdozen.records import Record, board_id, move_from_json, move_to_json

SMALL = ServerLimits(time_limit=10.0, max_nodes=10_000_000, memory_mb=64.0)


def _error(response: dict[str, object]) -> dict[str, object]:
    assert set(response) == {"id", "op", "error"}, response
    error = response["error"]
    assert isinstance(error, dict) and set(error) == {"code", "field", "message"}
    assert error["code"] in ERROR_CODES
    message = error["message"]
    assert isinstance(message, str) and message and "\n" not in message
    return error


def _without_seconds(data: dict[str, object]) -> dict[str, object]:
    data = dict(data)
    data.pop("seconds", None)
    if isinstance(data.get("record"), dict):
        data["record"] = _without_seconds(data["record"])  # type: ignore[arg-type]
    return data


def test_solve_and_verdict_answer_with_the_record_of_solve_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", "1", "--json", "--memory-mb", "64", "--max-nodes",
                 "10000000"]) == 0
    printed = json.loads(capsys.readouterr().out)
    answer = handle({"id": "a", "op": "solve", "deal": 1}, SMALL)
    assert list(answer)[:2] == ["id", "op"] and answer["id"] == "a" and answer["op"] == "solve"
    body = {k: v for k, v in answer.items() if k not in ("id", "op")}
    assert _without_seconds(body) == _without_seconds(printed)
    record = Record.from_json(body)
    assert record.verdict is Verdict.SOLVED and check(Deal.pysol(1), record.moves).won  # type: ignore[arg-type]
    verdict = handle({"id": 2, "op": "verdict", "position": Deal.pysol(1).to_text()}, SMALL)
    assert verdict["verdict"] == "solved" and "moves" not in verdict
    assert verdict["deal"] == board_id(Deal.pysol(1))  # board text: the board id


def test_hint_answers_in_the_shape_of_hint_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    # deterministic hints: a lost deal, and a position whose shortest line is found at once
    for position in (Deal.pysol(64), check(deal, line[:-6]).position):
        board = tmp_path / "p.txt"
        board.write_text(position.to_text(), encoding="utf-8")
        main(["hint", str(board), "--json", "--memory-mb", "64", "--max-nodes", "10000000"])
        printed = json.loads(capsys.readouterr().out)
        answer = handle({"id": 7, "op": "hint", "position": position.to_text()}, SMALL)
        assert answer.pop("id") == 7 and answer.pop("op") == "hint"
        assert _without_seconds(answer) == _without_seconds(printed)


def test_knobs_change_the_game() -> None:
    # Foundation return adds moves back from a foundation: the game differs.
    from bakersdozen.rules import find_rules

    rules = find_rules("bakers_dozen").replace(foundation_return=True)
    answer = handle({"op": "solve", "deal": 24, "knobs": {"foundation_return": True}}, SMALL)
    assert answer["game"] == rules.name and answer["verdict"] == "solved"
    assert check(Deal.pysol(24, rules), [move_from_json(m) for m in answer["moves"]]).won  # type: ignore[union-attr]


def test_review_and_legal_moves() -> None:
    deal = Deal.pysol(1)
    line = solve(deal).moves
    answer = handle({"op": "review", "deal": 1, "moves": [str(m) for m in line[:20]]}, SMALL)
    assert answer["id"] is None and answer["verdict"] == "winnable"
    answer = handle({"op": "review", "deal": 1,
                     "moves": [move_to_json(m) for m in line]}, SMALL)
    assert answer["verdict"] == "won" and answer["moves"] == len(line)
    position = check(deal, line[:10]).position
    answer = handle({"id": 1, "op": "legal_moves", "position": position.to_text()}, SMALL)
    assert [move_from_json(m) for m in answer["moves"]] == list(legal_moves(position))  # type: ignore[union-attr]
    assert answer["won"] is False
    illegal = handle({"id": 9, "op": "review", "deal": 1, "moves": ["AD 1>F", "QS 9>1"]}, SMALL)
    error = _error(illegal)
    assert illegal["id"] == 9 and error["code"] == "illegal_move" and error["field"] == "moves"
    assert "move 2 'QS 9>1' cannot be played" in error["message"]  # type: ignore[operator]


def test_limits_may_be_lowered_never_raised() -> None:
    answer = handle({"op": "verdict", "deal": 417, "max_nodes": 1000}, SMALL)
    assert answer["verdict"] == "unknown" and answer["reason"] == "max_nodes"
    assert answer["max_nodes"] == 1000 and answer["nodes"] <= 1000  # type: ignore[operator]
    assert handle({"op": "verdict", "deal": 1}, SMALL)["max_nodes"] == SMALL.max_nodes
    assert handle({"op": "verdict", "deal": 1}, SMALL)["memory_mb"] == 64.0
    for field, value, words in (
        ("time_limit", 11, "time_limit: 11 is above this server's maximum of 10 seconds"),
        ("time_limit", None, "time_limit: null (no limit) is above this server's maximum"),
        ("max_nodes", 10_000_001, "max_nodes: 10000001 is above this server's maximum of "
                                  "10000000 positions"),
        ("max_nodes", None, "max_nodes: null (no limit) is above"),
        ("memory_mb", 65, "memory_mb: 65 is above this server's maximum of 64 MiB"),
    ):
        for op in ("solve", "verdict", "hint", "review"):
            request = {"id": op, "op": op, "deal": 1, field: value, "moves": []}
            if op != "review":
                del request["moves"]
            answer = handle(request, SMALL)
            error = _error(answer)
            assert answer["id"] == op and answer["op"] == op
            assert error["field"] == field and str(error["message"]).startswith(words), error
    unlimited = ServerLimits(time_limit=None, max_nodes=None, memory_mb=64.0)
    answer = handle({"op": "verdict", "deal": 1, "time_limit": None, "max_nodes": None},
                    unlimited)
    assert answer["verdict"] == "solved" and answer["time_limit"] is None


_DEAL_1 = Deal.pysol(1).to_text()


@pytest.mark.parametrize(("request_", "code", "field", "words"), [
    ([1, 2], "bad_request", None, "a request is a JSON object, not an array"),
    ("hint", "bad_request", None, "a request is a JSON object, not a string"),
    ({"id": 1}, "bad_request", "op", "op: missing: one of solve, verdict, hint, review, legal_moves"),
    ({"id": 1, "op": "play"}, "bad_request", "op", 'op: unknown op "play": one of solve'),
    ({"id": 1, "op": 3}, "bad_request", "op", "op: unknown op a number"),
    ({"id": 1, "op": "hint"}, "bad_request", "position", "missing the position: give"),
    ({"id": 1, "op": "hint", "deal": 1, "position": _DEAL_1}, "bad_request", "position",
     'give "position" (board text) or "deal" (a PySol deal number), not both'),
    ({"id": 1, "op": "hint", "deal": "1"}, "bad_request", "deal", "deal: must be a whole number, not a string"),
    ({"id": 1, "op": "hint", "deal": 0}, "bad_request", "deal", "deal: a PySol deal number lies in 1..2**64-1, not 0"),
    ({"id": 1, "op": "hint", "deal": 2**64}, "bad_request", "deal", "deal: a PySol deal number lies in 1..2**64-1, not 18446744073709551616"),
    ({"id": 1, "op": "hint", "deal": 10**300}, "bad_request", "deal", "deal: a PySol deal number lies in 1..2**64-1, not a number of 301 digits"),
    ({"id": 1, "op": "hint", "deal": 1.5}, "bad_request", "deal", "deal: must be a whole number, not 1.5"),
    ({"id": 1, "op": "hint", "deal": True}, "bad_request", "deal", "deal: must be a whole number, not true"),
    ({"id": 1, "op": "hint", "position": 5}, "bad_request", "position", "position: must be board text (a string), not a number"),
    ({"id": 1, "op": "hint", "position": _DEAL_1.replace("AD", "")}, "bad_request", "position", "position: "),
    ({"id": 1, "op": "hint", "position": "x" * 20000}, "bad_request", "position", "position: the board text is 20000 characters long"),
    ({"id": 1, "op": "hint", "deal": 1, "game": "klondike"}, "bad_request", "game", "game: unknown game 'klondike': the presets are"),
    ({"id": 1, "op": "hint", "deal": 1, "game": []}, "bad_request", "game", "game: must be a preset's name (a string), not an array"),
    ({"id": 1, "op": "hint", "deal": 1, "knobs": []}, "bad_request", "knobs", "knobs: must be an object of knob changes, not an array"),
    ({"id": 1, "op": "hint", "deal": 1, "knobs": {"colour": "red"}}, "bad_request", "knobs", "knobs: unknown knob 'colour'"),
    ({"id": 1, "op": "hint", "deal": 1, "knobs": {"build": "sideways"}}, "bad_request", "knobs", "knobs: "),
    ({"id": 1, "op": "hint", "deal": 1, "time_limit": "10"}, "bad_request", "time_limit", "time_limit: must be a number, not a string"),
    ({"id": 1, "op": "hint", "deal": 1, "time_limit": -1}, "bad_request", "time_limit", "time_limit: must be seconds > 0, not -1"),
    ({"id": 1, "op": "hint", "deal": 1, "time_limit": float("inf")}, "bad_request", "time_limit", "time_limit: must be a finite number"),
    ({"id": 1, "op": "hint", "deal": 1, "max_nodes": 0}, "bad_request", "max_nodes", "max_nodes: must be at least 1, not 0"),
    ({"id": 1, "op": "hint", "deal": 1, "memory_mb": 0.5}, "bad_request", "memory_mb", "memory_mb: must be at least 1 MiB, not 0.5"),
    ({"id": 1, "op": "hint", "deal": 1, "memory_mb": False}, "bad_request", "memory_mb", "memory_mb: must be a number, not false"),
    ({"id": 1, "op": "hint", "deal": 1, "seed": 3}, "bad_request", "seed", '"seed": no such field for hint: the fields are'),
    ({"id": 1, "op": "legal_moves", "deal": 1, "time_limit": 3}, "bad_request", "time_limit", '"time_limit": no such field for legal_moves'),
    ({"id": 1, "op": "solve", "deal": 1, "seed": -1}, "bad_request", "seed", "seed: must be in 0..2**64-1, not -1"),
    ({"id": 1, "op": "solve", "deal": 1, "method": "bfs"}, "bad_request", "method", 'method: unknown search "bfs": one of dfs'),
    ({"id": 1, "op": "solve", "deal": 1, "game": "castles_in_spain", "method": "shortest"}, "bad_request", "method", "method: the shortest search is proven for Baker's Dozen's play only"),
    ({"id": 1, "op": "review", "deal": 1}, "bad_request", "moves", "moves: missing: a review needs the moves played"),
    ({"id": 1, "op": "review", "deal": 1, "moves": "AD 1>F"}, "bad_request", "moves", "moves: must be a list of moves, not a string"),
    ({"id": 1, "op": "review", "deal": 1, "moves": [["AD"]]}, "bad_request", "moves", "moves: move 1: expected an object or a string"),
    ({"id": 1, "op": "review", "deal": 1, "moves": ["AD 1>F"] * 10001}, "bad_request", "moves", "moves: 10001 moves; at most 10000 are read"),
])
def test_each_refusal_names_the_field_and_why(request_: object, code: str, field: str | None,
                                              words: str) -> None:
    answer = handle(request_, SMALL)
    error = _error(answer)
    assert (error["code"], error["field"]) == (code, field), error
    assert str(error["message"]).startswith(words), error["message"]
    assert answer["id"] == (1 if isinstance(request_, dict) else None)


@pytest.mark.parametrize(("value", "words"), [
    ([1], "id: must be a string or an integer, not an array"),
    (1.5, "id: must be a string or an integer, not 1.5"),
    (True, "id: must be a string or an integer, not true"),
    (2**63, "id: an integer id lies in -2**63..2**63-1, not 9223372036854775808"),
    ("x" * 257, "id: a string id has at most 256 characters, not 257"),
])
def test_an_id_that_cannot_be_echoed_is_refused(value: object, words: str) -> None:
    answer = handle({"id": value, "op": "legal_moves", "deal": 1}, SMALL)
    error = _error(answer)
    assert answer["id"] is None and error["field"] == "id" and error["message"] == words
    assert answer["op"] == "legal_moves"  # the op is echoed when it is one
    for good in (-(2**63), 2**63 - 1, "x" * 256, "", None):
        assert handle({"id": good, "op": "legal_moves", "deal": 1}, SMALL)["id"] == good


@pytest.mark.parametrize(("line", "code", "request_id", "words"), [
    (b"", "not_json", None, "the request is empty"),
    (b"   \r", "not_json", None, "the request is empty"),
    (b'{"id": 4, "op": "hint", "deal": 1', "not_json", 4, "not JSON: Expecting ',' delimiter"),
    (b'{"id": "r\\u00e9q", "op": "hint", "deal": [', "not_json", "r\u00e9q", "not JSON: "),
    (b'{"id": 4' , "not_json", None, "not JSON: "),
    (b'{"op": "hint", "id": 4, "deal": ', "not_json", None, "not JSON: "),
    (b'{"id": 5, "op": "hint", "deal": NaN}', "not_json", 5, "not JSON this server reads: NaN is not a JSON number"),
    (b'{"id": 6, "op": "hint", "deal": ' + b"9" * 5000 + b"}", "not_json", 6, "not JSON this server reads: Exceeds the limit (4300 digits)"),
    (b'{"id": 7, "op": "hint", "deal": ' + b"[" * 100000 + b"]" * 100000 + b"}", "not_json", 7, "not JSON this server reads: nested too deeply"),
    (b"[" * 1000000, "not_json", None, "not JSON this server reads: nested too deeply"),
    (b'{"id": 8, "op": "hint", "position": "\xff"}', "not_utf8", 8, "not UTF-8: byte 0xff at offset 37 (invalid start byte)"),
    (b"\xc3", "not_utf8", None, "not UTF-8: byte 0xc3 at offset 0 (unexpected end of data)"),
    (b"x" * (MAX_LINE_BYTES + 1), "too_long", None, f"the request is {MAX_LINE_BYTES + 1} bytes long"),
])
def test_lines_that_are_not_requests(line: bytes, code: str, request_id: object, words: str) -> None:
    answer = handle_line(line, SMALL)
    error = _error(answer)
    assert error["code"] == code and answer["id"] == request_id, answer
    assert str(error["message"]).startswith(words), error["message"]


def test_a_line_cut_at_the_limit_answers_too_long_with_its_id() -> None:
    answer = handle_line(b'{"id": 12, "op": "hint", "position": "' + b"x" * 100, SMALL,
                         truncated=True)
    assert answer["id"] == 12 and _error(answer)["code"] == "too_long"


def test_a_bug_is_an_internal_error_and_the_next_request_is_answered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import bakersdozen.solver

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("planted")

    monkeypatch.setattr(bakersdozen.solver, "solve", broken)
    answer = handle({"id": 3, "op": "verdict", "deal": 1}, SMALL)
    error = _error(answer)
    assert answer["id"] == 3 and error["code"] == "internal"
    assert error["message"] == "internal error: RuntimeError: planted"
    monkeypatch.undo()
    assert handle({"id": 4, "op": "verdict", "deal": 1}, SMALL)["verdict"] == "solved"


def test_encode_writes_one_ascii_line() -> None:
    line = encode({"id": "r\u00e9q\n", "op": None})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"id": "r\u00e9q\n", "op": None}
    line.decode("ascii")


def test_the_protocol_is_transport_free_and_its_ops_are_documented() -> None:
    import ast

    import bakersdozen.protocol as protocol

    tree = ast.parse(Path(protocol.__file__).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert not imported & {"sys", "socket", "http", "asyncio", "io", "os", "subprocess"}
    assert OPS == ("solve", "verdict", "hint", "review", "legal_moves")
    assert DEFAULT_LIMITS == ServerLimits(10.0, 100_000_000, 512.0)
    with pytest.raises(ValueError, match="time_limit must be > 0"):
        ServerLimits(time_limit=0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
fields = st.sampled_from(["id", "op", "position", "deal", "game", "time_limit", "max_nodes",
                          "memory_mb", "seed", "method", "moves"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    json_values,
    st.dictionaries(fields, json_values, max_size=6),
    st.fixed_dictionaries({"op": st.sampled_from(OPS)}, optional={
        "id": json_values, "deal": st.integers(-5, 2**65) | json_values,
        "time_limit": st.floats() | json_values, "max_nodes": st.integers() | json_values,
        "memory_mb": st.floats() | json_values, "moves": st.lists(json_values, max_size=3)}),
))
def test_no_request_makes_handle_raise(request_: object) -> None:
    answer = handle(request_, ServerLimits(time_limit=1.0, max_nodes=20_000, memory_mb=16.0))
    assert list(answer)[:2] == ["id", "op"]
    if "error" in answer:
        _error(answer)
        assert answer["error"]["code"] != "internal", answer  # type: ignore[index]
    encode(answer)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_no_bytes_make_handle_line_raise(data: bytes) -> None:
    answer = handle_line(data, SMALL)
    assert list(answer)[:2] == ["id", "op"] and "error" in answer
    _error(answer)


def test_decode_reads_what_json_reads() -> None:
    assert decode(b' {"a": [1, 2.5, "\\u00e9"]}\r\n') == {"a": [1, 2.5, "\u00e9"]}
