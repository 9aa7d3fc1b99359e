"""The play server alone: its API in process, and the server as a real process.

The process tests start ``bakersdozen play`` on a free port (it prints its
URL) and kill its process group in a ``finally``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from urllib.parse import urlsplit

import pytest

from bakersdozen import Deal, check, solve
from bakersdozen.errors import IllegalMoveError
from bakersdozen.play.api import Api, PlayLimits
from bakersdozen.play.server import host_allowed
from play_server import ask, play_server, post, request

DEAL24 = Deal.pysol(24)
LINE24 = [str(move) for move in solve(DEAL24).moves]
#: After the first 52 moves of LINE24 this move loses (found with solve()).
LOSING_AT = 52
LOSING_MOVE = "QD 3>1"


def answer(api: Api, name: str, request: dict[str, object]) -> tuple[int, dict[str, object]]:
    end = time.monotonic() + 60
    while True:
        status, body = api.handle(name, request)
        if status != 202 or time.monotonic() > end:
            return status, body
        time.sleep(0.02)


# -- the API in process ------------------------------------------------------------


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(PlayLimits(time_limit=20.0))


def test_line_is_winnable_then_won(api: Api) -> None:
    assert check(DEAL24, LINE24).won
    for k in (0, 1, 30, len(LINE24) - 1):
        status, body = answer(api, "status", {"deal": 24, "moves": LINE24[:k]})
        assert status == 200 and body["status"] == "winnable" and body["verdict"] == "solved"
        assert check(check(DEAL24, LINE24[:k]).position, body["line"]).won  # type: ignore[arg-type]
    status, body = answer(api, "status", {"deal": 24, "moves": LINE24})
    assert (status, body["status"]) == (200, "won")


def test_losing_move_is_named(api: Api) -> None:
    played = LINE24[:LOSING_AT] + [LOSING_MOVE]
    status, body = answer(api, "status", {"deal": 24, "moves": played})
    assert status == 200
    assert body["status"] == "lost" and body["verdict"] == "unsolvable"
    assert body["lost_at"] == LOSING_AT + 1 and body["lost_move"] == LOSING_MOVE
    # The alternative wins from the position before the losing move.
    before = check(DEAL24, LINE24[:LOSING_AT]).position
    assert check(before, body["alternative"]).won  # type: ignore[arg-type]


def test_illegal_move_gets_the_checkers_reason(api: Api) -> None:
    status, body = api.handle("position", {"deal": 24, "moves": ["AS 1>F", "KC 1>F"]})
    assert status == 422 and body["index"] == 1
    with pytest.raises(IllegalMoveError) as error:
        check(DEAL24, ["AS 1>F", "KC 1>F"])
    assert body["error"] == str(error.value)


def test_position_answer_is_checks(api: Api) -> None:
    status, body = api.handle("position", {"deal": 24, "moves": LINE24[:10]})
    assert status == 200
    assert body["position"] == check(DEAL24, LINE24[:10]).position.to_text()
    assert body["board"] == DEAL24.to_text()


def test_hint_starts_a_winning_line(api: Api) -> None:
    status, body = answer(api, "hint", {"deal": 24, "moves": LINE24[:5]})
    assert status == 200 and body["verdict"] == "solved"
    position = check(DEAL24, LINE24[:5] + [body["hint"]]).position  # type: ignore[list-item]
    assert check(position, body["line"][1:]).won  # type: ignore[index]


def test_other_games(api: Api) -> None:
    for game, columns in (("good_measure", 10), ("castles_in_spain", 13)):
        status, body = api.handle("position", {"deal": 3, "game": game})
        assert status == 200 and len(body["data"]["columns"]) == columns  # type: ignore[index]
        status, body = answer(api, "hint", {"deal": 3, "game": game})
        assert status == 200 and body["verdict"] == "solved"
        deal = Deal.pysol(3, game)
        assert check(deal, body["line"]).won  # type: ignore[arg-type]


def test_knobs_reach_the_engine(api: Api) -> None:
    # With foundation return a card comes back from its foundation.
    knobs = {"foundation_return": True}
    after = check(DEAL24, ["AS 1>F"]).position
    two = next(n for n, column in enumerate(after.columns, 1) if column and column[-1].rank == 2)
    status, body = api.handle("position", {"deal": 24, "knobs": knobs,
                                           "moves": ["AS 1>F", f"AS F>{two}"]})
    assert status == 200 and body["knobs"] == knobs
    status, body = answer(api, "status", {"deal": 24, "knobs": knobs, "moves": ["AS 1>F"]})
    assert status == 200 and body["status"] == "winnable"
    assert check(Deal.pysol(24).with_rules(DEAL24.rules.replace(**knobs)),
                 ["AS 1>F", *body["line"]]).won  # type: ignore[misc]


def test_random_deal_is_winnable(api: Api) -> None:
    status, body = answer(api, "random", {"game": "bakers_dozen", "nonce": "a"})
    assert status == 200 and isinstance(body["deal"], int)
    assert solve(Deal.pysol(body["deal"])).solved  # type: ignore[arg-type]


@pytest.mark.parametrize("request_, status, words", [
    ({"deal": 24, "moves": "AS 1>F"}, 400, "'moves' must be a list"),
    ({"deal": 24, "moves": ["XX 1>F"]}, 400, "move 1 'XX 1>F'"),
    ({"deal": 24, "moves": [7]}, 400, "move 1 must be a string"),
    ({"board": "AC 2C\n"}, 400, "missing"),
    ({"deal": 0}, 400, "'deal' must be a PySol deal number"),
    ({"deal": True}, 400, "'deal' must be an integer"),
    ({}, 400, "needs 'deal'"),
    ({"deal": 1, "game": "nope"}, 400, "unknown game"),
    ({"deal": 1, "knobs": {"colour": "red"}}, 400, "unknown knob"),
    ({"deal": 1, "board": "x"}, 400, "not both"),
])
def test_refusals_are_one_line(api: Api, request_: dict[str, object], status: int, words: str) -> None:
    got, body = api.handle("position", request_)
    assert got == status and words in body["error"]  # type: ignore[operator]
    assert "\n" not in body["error"]  # type: ignore[operator]


def test_superseded_checks_are_dropped() -> None:
    # One worker busy on a long solve; a client's queued checks give way to its newest.
    api = Api(PlayLimits(time_limit=3.0), workers=1, wait=0.0)
    busy = {"deal": 417, "client": "other"}
    assert api.handle("status", busy)[0] == 202
    time.sleep(0.2)
    for k in range(1, 6):
        assert api.handle("status", {"deal": 24, "moves": LINE24[:k], "client": "me"})[0] == 202
    assert api.checks.dropped == 4
    # A hint asked meanwhile is another kind of question: the status stays queued.
    assert api.handle("hint", {"deal": 24, "moves": LINE24[:5], "client": "me"})[0] == 202
    assert api.checks.dropped == 4
    status, body = answer(api, "status", {"deal": 24, "moves": LINE24[:5], "client": "me"})
    assert status == 200 and body["status"] == "winnable"


def test_a_limit_gives_unknown_and_names_it() -> None:
    api = Api(PlayLimits(time_limit=20.0, max_nodes=50))
    status, body = answer(api, "status", {"deal": 417})
    assert status == 200 and (body["status"], body["verdict"], body["reason"]) == (
        "unknown", "unknown", "max_nodes")


def test_host_allowed() -> None:
    assert host_allowed("127.0.0.1:8000", 8000)
    assert host_allowed("localhost:8000", 8000)
    assert host_allowed("[::1]:8000", 8000)
    assert not host_allowed("127.0.0.1:8001", 8000)
    assert not host_allowed("evil.example:8000", 8000)
    assert not host_allowed("127.0.0.1", 8000)
    assert not host_allowed(None, 8000)


# -- the server as a process -------------------------------------------------------


def _host(url: str) -> str:
    return urlsplit(url).netloc


def test_server_refuses_wrong_host_and_cross_origin() -> None:
    with play_server("--deal", "24") as (url, _):
        status, headers, body = request(url, "GET", "/")
        assert status == 200 and b'id="play-data"' in body
        assert headers["content-security-policy"].startswith("default-src 'none'")
        status, _, body = request(url, "GET", "/", headers={"Host": "attacker.example:" +
                                                            url.rsplit(":", 1)[1].strip("/")})
        assert status == 421 and b"refused" in body
        payload = json.dumps({"deal": 24}).encode()
        json_type = {"Content-Type": "application/json"}
        status, _, body = request(url, "POST", "/api/position", payload,
                                  {**json_type, "Origin": "http://attacker.example"})
        assert status == 403 and b"another origin" in body
        status, _, body = request(url, "POST", "/api/position", payload,
                                  {**json_type, "Sec-Fetch-Site": "cross-site"})
        assert status == 403
        status, _, _ = request(url, "POST", "/api/position", payload,
                               {**json_type, "Origin": f"http://{_host(url)}"})
        assert status == 200
        status, _, _ = request(url, "POST", "/api/position", payload,
                               {"Content-Type": "text/plain"})
        assert status == 415


def _raw(url: str, data: bytes, *, read: bool = True) -> bytes:
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass
        if not read:
            return b""
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and len(b"".join(chunks)) > 60:
                    head, _, rest = b"".join(chunks).partition(b"\r\n\r\n")
                    length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                    if length and len(rest) >= int(length[0].split(b":")[1]):
                        break
        except OSError:
            pass
        return b"".join(chunks)


def test_server_refuses_a_10_mb_body() -> None:
    with play_server("--deal", "24") as (url, _):
        host = _host(url)
        head = (f"POST /api/position HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {10 * 2**20}\r\n\r\n").encode()
        reply = _raw(url, head + b"[" * 65536)
        assert reply.startswith(b"HTTP/1.1 413"), reply[:100]
        status, body = post(url, "position", {"deal": 24, "moves": ["AS 1>F"]})
        assert status == 200 and body["moves"] == ["AS 1>F"]


def _malformed(host: str, k: int) -> bytes:
    bodies = [
        b"{", b"[1, 2", b"\xff\xfe", b"null", b"[]", b'"x"', b"1e999999",
        b"[" * 100_000 + b"]" * 100_000, b'{"deal": 24, "moves": ["KC 1>F"]}',
        b'{"deal": 24, "moves": [{"a": 1}]}', b'{"board": "KC QD"}', b'{"deal": -1}',
        b'{"deal": 99999999999999999999999999}', b'{"deal": 1, "knobs": []}',
        b'{"deal": 1, "moves": ["AS 99>F"]}', b'{"deal": 1, "game": 5}',
    ]
    body = bodies[k % len(bodies)]
    shapes = [
        (f"POST /api/status HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
         f"Content-Length: {len(body)}\r\n\r\n").encode() + body,
        (f"POST /api/nothing HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
         f"Content-Length: {len(body)}\r\n\r\n").encode() + body,
        f"POST /api/position HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\r\n".encode(),
        f"POST /api/position HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n".encode(),
        f"POST /api/position HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n5\r\nhello\r\n0\r\n\r\n".encode(),
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X: " + b"a" * 70_000 + b"\r\n\r\n",
        f"GET /replay?r=%7B HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
        f"DELETE / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
        b"\x00\x01\x02\x03" * 10 + b"\r\n\r\n",
    ]
    return shapes[k % len(shapes)]


def test_server_survives_200_malformed_requests() -> None:
    with play_server("--deal", "24") as (url, process):
        host = _host(url)
        statuses = []
        for k in range(200):
            reply = _raw(url, _malformed(host, k))
            if reply:
                if reply.startswith(b"HTTP/"):
                    statuses.append(int(reply.split(b" ", 2)[1]))
                else:  # an HTTP/0.9 request line gets the body alone
                    assert json.loads(reply)["error"], reply[:100]
        assert statuses and all(400 <= s < 500 or s == 501 for s in statuses), sorted(set(statuses))
        # A client that sends half a request and goes silent does not block the others.
        parts = urlsplit(url)
        with socket.create_connection((parts.hostname, parts.port)) as idle:
            idle.sendall(f"POST /api/status HTTP/1.1\r\nHost: {host}\r\n".encode())
            status, body = ask(url, "status", {"deal": 24, "moves": LINE24[:3]})
            assert status == 200 and body["status"] == "winnable"
        assert process.poll() is None
        status, _, _ = request(url, "GET", "/")
        assert status == 200


def test_sigterm_during_a_long_check_ends_everything_at_once() -> None:
    # Deal 417 takes the engine more than 30 s: the check is still running.
    # A browser keeps its connection open between requests: that must not hold it up.
    with play_server("--deal", "417", "--time-limit", "120") as (url, process):
        status, body = post(url, "status", {"deal": 417})
        assert status == 202 and body["state"] == "checking"
        parts = urlsplit(url)
        idle = socket.create_connection((parts.hostname, parts.port), timeout=10)
        try:
            idle.sendall(f"GET / HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
            assert idle.recv(100).startswith(b"HTTP/1.1 200")
            time.sleep(0.5)
            began = time.monotonic()
            process.send_signal(signal.SIGTERM)
            process.wait(10)
        finally:
            idle.close()
        elapsed = time.monotonic() - began
        assert elapsed < 2.0, elapsed
        assert process.returncode == 143
        with pytest.raises(ProcessLookupError):
            os.killpg(process.pid, 0)  # nothing of its group is left


def test_replay_of_a_line_from_a_position() -> None:
    with play_server("--deal", "24") as (url, _):
        position = check(DEAL24, LINE24[:10]).position.to_text()
        r = json.dumps({"game": "bakers_dozen", "board": position, "moves": LINE24[10:]})
        from urllib.parse import quote

        status, headers, body = request(url, "GET", "/replay?r=" + quote(r))
        assert status == 200 and b'id="replay-data"' in body
        status, _, body = request(url, "GET", "/replay?r=" + quote(json.dumps(
            {"board": position, "moves": ["KC 1>F"]})))
        assert status == 422 and b"illegal" in body


def test_cli_refuses_a_bad_port_and_a_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    from bakersdozen.cli import main

    assert main(["play", "--no-browser", "--port", "70000"]) == 2
    assert "a port is 0..65535" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["play", "--no-browser", "--port", str(port)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("bakersdozen play: error: cannot listen on 127.0.0.1:") and err.count("\n") == 1


def test_the_queue_is_bounded() -> None:
    # Many clients' checks while the one thread is busy: the oldest waiting go.
    from bakersdozen.play.api import Checks

    checks = Checks(workers=1, max_queue=3)
    release = __import__("threading").Event()
    checks.ask("busy", lambda: {"done": release.wait(30)}, client=None, wait=0.0)
    time.sleep(0.1)
    for k in range(10):
        assert checks.ask(("status", k), lambda k=k: {"k": k}, client=f"c{k}", wait=0.0) is None
    assert checks.dropped == 7
    release.set()
    assert checks.ask(("status", 9), lambda: {"k": -1}, client="c9", wait=10.0) == {"k": 9}
    # A dropped check asked again is queued anew and answered.
    assert checks.ask(("status", 0), lambda: {"k": 0}, client="c0", wait=10.0) == {"k": 0}
