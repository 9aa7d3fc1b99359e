"""``bakersdozen serve --stdio`` as a real process: a session, hostile lines, the end of input, signals.

Each test starts the server in its own process group and kills the group
in a ``finally``, whatever happens.
"""

from __future__ import annotations

import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bakersdozen import Deal, Verdict, check, legal_moves, solve
from bakersdozen.protocol import ERROR_CODES, MAX_LINE_BYTES
from bakersdozen.records import move_from_json, move_to_json
import children
from lines import MEMORY_MB, along_lines, lost_game

SERVE = [sys.executable, "-m", "bakersdozen", "serve", "--stdio", "--memory-mb", str(MEMORY_MB)]
#: Seconds to wait for one answer before the test fails (a hint takes well under one).
WAIT = 120


@contextmanager
def server(*extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """The server, in its own process group, killed with it in the end."""
    with children.started([*SERVE, *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        yield process


class Client:
    """One request, one answer, through the pipes of a running server (a reader thread)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.answers: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.answers.put(line)
        self.answers.put(b"")  # end of output

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, object]:
        """The next answer (the server flushes each one: none waits for the next request)."""
        line = self.answers.get(timeout=WAIT)
        assert line.endswith(b"\n"), line
        return json.loads(line)

    def ask(self, request: dict[str, object]) -> dict[str, object]:
        self.send(json.dumps(request).encode("utf-8"))
        return self.answer()


def test_a_game_of_hints_through_one_process() -> None:
    rng = random.Random(7)
    with server() as process:
        client = Client(process)
        positions = along_lines([1, 5, 24], 4, rng)
        for number, position in enumerate(positions):
            answer = client.ask({"id": number, "op": "hint", "position": position.to_text()})
            assert answer["id"] == number and answer["op"] == "hint", answer
            assert answer["verdict"] == "winnable"
            move = move_from_json(answer["move"])
            after = check(position, [move]).position
            again = solve(after, memory_mb=MEMORY_MB, seed=4242)
            assert again.verdict is Verdict.SOLVED and check(after, again.moves).won
        # a lost position, found by review(), and the review itself
        deal, played, k = lost_game(1, rng)
        lost = check(deal, played[: k + 1]).position
        answer = client.ask({"id": "lost", "op": "hint", "position": lost.to_text()})
        assert answer["id"] == "lost" and answer["verdict"] == "lost" and answer["move"] is None
        answer = client.ask({"id": "review", "op": "review", "deal": 1,
                             "moves": [move_to_json(m) for m in played]})
        assert answer["verdict"] == "lost" and answer["losing_move"] == k + 1
        assert check(check(deal, played[:k]).position,
                     [move_from_json(m) for m in answer["alternative"]]).won  # type: ignore[union-attr]
        # legal moves, a solve and a verdict, in the same process
        answer = client.ask({"id": 1, "op": "legal_moves", "position": lost.to_text()})
        assert [move_from_json(m) for m in answer["moves"]] == list(legal_moves(lost))  # type: ignore[union-attr]
        answer = client.ask({"id": 2, "op": "solve", "deal": 24})
        assert answer["verdict"] == "solved"
        assert check(Deal.pysol(24), [move_from_json(m) for m in answer["moves"]]).won  # type: ignore[union-attr]
        assert client.ask({"id": 3, "op": "verdict", "deal": 64})["verdict"] == "unsolvable"
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=WAIT) == 0
        assert client.answers.get(timeout=WAIT) == b""  # nothing more was written


# -- 1 000 hostile lines ----------------------------------------------------------


def _hostile(rng: random.Random, number: int) -> tuple[bytes, object]:
    """One line that is not a good request, and the id its answer must carry (None: none)."""
    deal_text = Deal.pysol(rng.randrange(1, 1000)).to_text()
    kind = rng.randrange(14)
    if kind == 0:  # random bytes
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        return data.replace(b"\n", b" "), None
    if kind == 1:  # truncated JSON
        request_id: object = rng.choice([number, f"req-{number}"])
        text = json.dumps({"id": request_id, "op": "hint", "position": deal_text})
        cut = text[: rng.randrange(1, len(text) - 1)]
        has_id = cut.startswith(f'{{"id": {json.dumps(request_id)},')
        return cut.encode(), request_id if has_id else None
    if kind == 2:  # deep nesting, inside a request or alone
        depth = rng.choice([10, 500, 5000, 100_000])
        nested = "[" * depth + "]" * depth
        if rng.random() < 0.5:
            return nested.encode(), None
        return (f'{{"id": {number}, "op": "review", "deal": 1, "moves": {nested}}}').encode(), number
    if kind == 3:  # huge numbers
        field = rng.choice(["deal", "max_nodes", "time_limit", "memory_mb", "seed"])
        # (1e-999 reads as 0.0: a good seed, so not one of the seed's values)
        value = rng.choice([str(2**64), "9" * 400, "9" * 5000, "1e999", "-1e999",
                            *(["1e-999"] if field != "seed" else [])])
        op = "solve" if field == "seed" else "hint"
        return f'{{"id": {number}, "op": "{op}", "deal": 1, "{field}": {value}}}'.encode(), number
    if kind == 4:  # a huge or strange id: no id to echo
        value = rng.choice([str(2**63), "9" * 300, "1.5", "[1]", "{}", "true", json.dumps("x" * 300)])
        return f'{{"id": {value}, "op": "hint", "deal": 1}}'.encode(), None
    if kind == 5:  # wrong types
        field, value = rng.choice([("deal", '"1"'), ("position", "5"), ("game", "[]"),
                                   ("time_limit", '"10"'), ("memory_mb", "true"),
                                   ("max_nodes", "1.5"), ("moves", "{}"), ("op", "7")])
        request = {"id": number, "op": "review", "deal": 1, "moves": []}
        text = json.dumps(request)[:-1] + f', "{field}": {value}}}'  # the last key wins
        return text.encode(), number
    if kind == 6:  # unknown ops
        op = rng.choice(["play", "HINT", "", "quit", "exit", "shutdown", "solve ", None])
        return json.dumps({"id": number, "op": op, "deal": 1}).encode(), number
    if kind == 7:  # a board with a missing card
        tokens = deal_text.split()
        gone = rng.choice(tokens)
        board = deal_text.replace(gone, "", 1)
        return json.dumps({"id": number, "op": rng.choice(["hint", "legal_moves", "solve"]),
                           "position": board}).encode(), number
    if kind == 8:  # a board with a card twice
        tokens = deal_text.split()
        board = deal_text.replace(tokens[3], tokens[17], 1)
        return json.dumps({"id": number, "op": "verdict", "position": board}).encode(), number
    if kind == 9:  # JSON that is not an object
        return rng.choice([b"[1, 2]", b'"hint"', b"null", b"42", b"true", b"[]"]), None
    if kind == 10:  # not UTF-8, after a readable id
        return f'{{"id": {number}, "op": "hint", "position": "'.encode() + b"\xff\xfe\xc3(" + b'"}', number
    if kind == 11:  # unknown fields, limits above the server's, illegal moves
        request = rng.choice([
            {"id": number, "op": "hint", "deal": 1, "tme_limit": 3},
            {"id": number, "op": "hint", "deal": 1, "time_limit": 1e6},
            {"id": number, "op": "solve", "deal": 1, "memory_mb": 1e6},
            {"id": number, "op": "review", "deal": 1, "moves": ["QS 9>1"]},
            {"id": number, "op": "solve", "deal": 0},
            {"id": number, "op": "hint", "deal": 1, "game": "klondike"},
        ])
        return json.dumps(request).encode(), number
    if kind == 12:  # NaN and Infinity are not JSON
        value = rng.choice(["NaN", "Infinity", "-Infinity"])
        return f'{{"id": {number}, "op": "hint", "deal": 1, "time_limit": {value}}}'.encode(), number
    # blank lines and white space
    return rng.choice([b"", b" ", b"\t\r", b"\r"]), None


def test_a_thousand_hostile_lines_leave_it_answering_in_order() -> None:
    rng = random.Random(1000)
    lines: list[bytes] = []
    expected: list[tuple[str, object]] = []  # ("error" | "good", id)
    good: dict[str, int] = {}
    for number in range(1000):
        line, request_id = _hostile(rng, number)
        lines.append(line)
        expected.append(("error", request_id))
        if number % 50 == 0:  # a good request now and then: still answered, and right
            deal = rng.randrange(1, 5000)
            good_id = f"good-{number}"
            good[good_id] = deal
            lines.append(json.dumps({"id": good_id, "op": "legal_moves", "deal": deal}).encode())
            expected.append(("good", good_id))
    # a line over the limit, with its id first
    lines.append(b'{"id": "long", "op": "hint", "position": "' + b"x" * (MAX_LINE_BYTES + 10)
                 + b'"}')
    expected.append(("error", "long"))
    lines.append(json.dumps({"id": "last", "op": "hint", "deal": 1}).encode())
    expected.append(("good", "last"))
    with server() as process:
        out, err = process.communicate(b"\n".join(lines) + b"\n", timeout=600)
        assert process.returncode == 0, err  # the end of input ends it, with 0
    assert err == b""
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)  # one answer a line, in order
    for answer, (kind, request_id), line in zip(answers, expected, lines):
        assert answer["id"] == request_id, (line[:120], answer)
        if kind == "error":
            error = answer["error"]
            assert error["code"] in ERROR_CODES and error["code"] != "internal", (line[:120], answer)
            assert error["message"] and "\n" not in error["message"]
        else:
            assert "error" not in answer, answer
    for answer in answers:
        if answer["id"] in good:
            deal = Deal.pysol(good[answer["id"]])
            assert [move_from_json(m) for m in answer["moves"]] == list(legal_moves(deal))
    assert answers[-2]["error"]["code"] == "too_long"
    assert answers[-1]["verdict"] == "winnable"
    codes = {answer["error"]["code"] for answer in answers if "error" in answer}
    assert codes == {"too_long", "not_utf8", "not_json", "bad_request", "illegal_move"}


# -- signals and the end -------------------------------------------------------------


@pytest.mark.parametrize(("signum", "status", "word"), [
    (signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"),
])
def test_a_signal_ends_it_cleanly(signum: int, status: int, word: str) -> None:
    with server() as process:
        client = Client(process)
        assert client.ask({"id": 1, "op": "verdict", "deal": 1})["verdict"] == "solved"
        process.send_signal(signum)  # waiting for the next line
        assert process.wait(timeout=WAIT) == status
        assert process.stderr is not None
        assert process.stderr.read() == f"bakersdozen serve: {word}\n".encode()


def test_a_signal_during_a_search_ends_it_too() -> None:
    with server("--time-limit", "60") as process:
        client = Client(process)
        # deal 10242 is unsolvable and takes far longer than this test to prove
        client.send(json.dumps({"id": 1, "op": "verdict", "deal": 10242,
                                "method": "proof"}).encode())
        import time

        time.sleep(1.0)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=WAIT) == 143
        assert client.answers.get(timeout=WAIT) == b""  # no answer to the request cut short


def test_serve_needs_stdio(capsys: pytest.CaptureFixture[str]) -> None:
    from bakersdozen.cli import main

    assert main(["serve"]) == 2
    assert "the following arguments are required: --stdio" in capsys.readouterr().err


def test_serve_in_process_answers_each_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from bakersdozen.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(
        '{"id": 1, "op": "verdict", "deal": 64}\nnot json\n\n{"id": 2, "op": "legal_moves", '
        '"deal": 1}'))  # no end of line after the last request
    assert main(["serve", "--stdio", "--memory-mb", "64", "--max-nodes", "1000"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["id"] for a in answers] == [1, None, None, 2]
    assert answers[0]["verdict"] == "unsolvable" and answers[0]["max_nodes"] == 1000
    assert answers[1]["error"]["code"] == answers[2]["error"]["code"] == "not_json"
    assert len(answers[3]["moves"]) == len(legal_moves(Deal.pysol(1)))


def test_serve_with_standard_input_closed_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # `bakersdozen serve --stdio <&-`: Python sets sys.stdin to None; it was a traceback
    from bakersdozen.cli import main

    monkeypatch.setattr(sys, "stdin", None)
    assert main(["serve", "--stdio"]) == 2
    assert capsys.readouterr().err == "bakersdozen serve: error: standard input is closed\n"


# -- docs/serve.md: the schema and the examples, read back -----------------------------

DOC = Path(__file__).resolve().parent.parent / "docs" / "serve.md"


def _doc() -> str:
    if not DOC.exists():  # an installed package without its checkout
        pytest.skip("docs/serve.md not found")
    return DOC.read_text(encoding="utf-8")


def _table(heading: str) -> list[str]:
    """The backquoted names of the first column of the table under *heading*."""
    section = _doc().split("\n" + heading + "\n", 1)[1]
    table = section[section.index("\n|"):].split("\n\n", 1)[0].strip().splitlines()
    assert table[1].startswith("|---"), heading
    rows = [line.split("`")[1] for line in table[2:]]
    assert rows, heading
    return rows


def test_the_documented_schema_is_the_real_one() -> None:
    from bakersdozen import protocol
    from bakersdozen.analysis import hint as hint_
    from bakersdozen.records import hint_to_json, review_to_json
    from bakersdozen.analysis import review as review_

    deal = Deal.pysol(1)
    real_hint = hint_to_json(hint_(deal, memory_mb=MEMORY_MB), deal, time_limit=10.0,
                             max_nodes=None, memory_mb=MEMORY_MB)
    assert _table("### The hint object") == list(real_hint)
    real_review = review_to_json(review_(deal, [], memory_mb=MEMORY_MB), ())
    assert _table("### The review object") == list(real_review)
    assert _table("## The ops and their answers") == list(protocol.OPS)
    assert _table("### Errors") == list(protocol.ERROR_CODES)
    fields = set().union(*(allowed for _, allowed in protocol._OPS.values()))
    assert sorted(_table("## Requests")) == sorted(fields)


def test_the_documented_error_is_the_real_one() -> None:
    from bakersdozen.protocol import handle

    shown = re.search(r'^\{"id": 5, "op": "hint", "error": .*\}$', _doc(), re.M)
    assert shown, "docs/serve.md: no error example"
    assert json.loads(shown.group(0)) == handle({"id": 5, "op": "hint", "deal": 1,
                                                 "time_limit": 60})


def _example_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def _run_example(argv: list[str]) -> str:
    with children.started(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=_example_env()) as process:
        out, err = process.communicate(timeout=WAIT)
        assert process.returncode == 0, err
        return out.decode()


def test_the_shell_example_prints_what_the_doc_says() -> None:
    if shutil.which("jq") is None or shutil.which("bash") is None:
        pytest.skip("bash and jq are needed")
    text = _doc()
    script = re.search(r"```sh\n(printf .*?)```", text, re.S)
    printed = re.search(r"\nprints\n\n```\n(.*?)```", text, re.S)
    assert script and printed
    if not os.path.exists(os.path.join(os.path.dirname(sys.executable), "bakersdozen")):
        pytest.skip("no bakersdozen script beside the interpreter")
    assert _run_example(["bash", "-c", "set -o pipefail; " + script.group(1)]) == printed.group(1)


def test_the_javascript_example_prints_what_the_doc_says(tmp_path: Path) -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is needed")
    if not os.path.exists(os.path.join(os.path.dirname(sys.executable), "bakersdozen")):
        pytest.skip("no bakersdozen script beside the interpreter")
    text = _doc()
    script = re.search(r"```js\n(.*?)```", text, re.S)
    printed = re.search(r"prints `(\d+ legal moves; hint: .*?)`\.", text, re.S)
    assert script and printed
    client = tmp_path / "client.js"
    client.write_text(script.group(1), encoding="utf-8")
    assert " ".join(_run_example([node, str(client)]).split()) == " ".join(printed.group(1).split())
