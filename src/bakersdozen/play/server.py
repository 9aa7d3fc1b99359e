"""The play server: HTTP around :class:`bakersdozen.play.api.Api`.

The standard library's ``http.server.ThreadingHTTPServer`` (one daemon
thread per connection): the server only parses small JSON bodies and
hands them to the API, whose engine work runs on its own pool, so a
framework would add a dependency and little else (``docs/play.md``).

What it serves:

- ``GET /``: the page (:mod:`bakersdozen.play.page`), for the game given at start-up;
- ``GET /replay?r=JSON``: the replay page (:func:`bakersdozen.replay_html`)
  of a line from a position (``{"game", "knobs", "board", "moves"}``);
- ``POST /api/NAME``: a request of :class:`~bakersdozen.play.api.Api`
  (``position``, ``status``, ``hint``, ``random``), a JSON object in, a
  JSON object out.

What it refuses, always with a one-line JSON ``{"error": ...}``:

- a ``Host`` header that is not ``localhost``, or an IP address, with the
  server's port (a DNS-rebinding page names its own host): 421;
- a POST whose ``Origin`` is not the server itself, or that a browser
  marks ``Sec-Fetch-Site: cross-site``: 403; a POST whose
  ``Content-Type`` is not ``application/json``: 415;
- a body without a ``Content-Length`` (411) or longer than
  :data:`MAX_BODY` bytes (413, without reading it); a body that is not
  UTF-8 JSON (400); a socket idle for :data:`SOCKET_TIMEOUT` seconds is
  closed.
"""

from __future__ import annotations

import ipaddress
import json
import sys
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

from .api import Api, ApiError, PlayLimits

__all__ = ["PlayServer", "MAX_BODY", "SOCKET_TIMEOUT", "host_allowed"]

#: Largest request body, bytes (a 10,000-move game is about 100 KB).
MAX_BODY: Final = 256 * 1024

#: Seconds a connection may stay silent before it is closed.
SOCKET_TIMEOUT: Final = 15.0

_JSON: Final = "application/json"


def host_allowed(header: str | None, port: int) -> bool:
    """Is *header* (a ``Host`` header) ``localhost`` or an IP address, with *port*?

    An IP address or ``localhost`` cannot be a name an attacker's DNS
    points at the server (DNS rebinding), so any other name is refused.
    """
    if not header or len(header) > 300:
        return False
    host, sep, rest = header.rpartition(":")
    if not sep or not rest.isdigit() or int(rest) != port:
        return False
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.lower() == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class PlayServer(ThreadingHTTPServer):
    """The server: an :class:`~bakersdozen.play.api.Api`, the page of the starting game, the address.

    Parameters
    ----------
    address : (str, int)
        Host and port to bind (port 0: a free port).
    game : dict
        The starting game as the page's first request fields
        (``{"game", "knobs", "deal" or "board"}``).
    limits : PlayLimits
        Limits of every engine call.
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], game: dict[str, Any], limits: PlayLimits,
                 *, workers: int = 2, quiet: bool = True) -> None:
        if ":" in address[0]:
            import socket

            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)
        self.api = Api(limits, workers=workers)
        self.game = game
        self.quiet = quiet
        self._page: bytes | None = None

    @property
    def url(self) -> str:
        address, port = self.server_address[:2]
        host = address.decode() if isinstance(address, bytes) else str(address)
        if ":" in host:
            host = f"[{host}]"
        if host in ("0.0.0.0", "[::]"):
            host = "127.0.0.1"
        return f"http://{host}:{port}/"

    def page(self) -> bytes:
        if self._page is None:
            from .page import play_html

            self._page = play_html(self.game, self.api.limits).encode("utf-8")
        return self._page


class _Handler(BaseHTTPRequestHandler):
    server: PlayServer
    timeout = SOCKET_TIMEOUT
    protocol_version = "HTTP/1.1"
    server_version = "bakersdozen-play"
    sys_version = ""

    # -- answers ---------------------------------------------------------------

    def _send(self, status: int, body: bytes, kind: str, *, close: bool = False,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, answer: dict[str, Any], *, close: bool = False) -> None:
        body = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send(status, body, _JSON + "; charset=utf-8", close=close)

    def _refuse(self, status: int, message: str, *, close: bool = False) -> None:
        self._json(status, {"error": message}, close=close)

    def _html(self, page: bytes) -> None:
        from .page import csp_of

        self._send(200, page, "text/html; charset=utf-8", headers={
            "Content-Security-Policy": csp_of(page.decode("utf-8")) + "; frame-ancestors 'none'",
            "X-Frame-Options": "DENY",
        })

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every error the base class sends (a bad request line, 501) as one line of JSON."""
        try:
            text = message or HTTPStatus(code).phrase
        except ValueError:
            text = message or "error"
        self._refuse(code, text, close=True)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet and sys.stderr is not None:  # None: closed (2>&-)
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    # -- checks ----------------------------------------------------------------

    def _host_ok(self) -> bool:
        if host_allowed(self.headers.get("Host"), self.server.server_address[1]):
            return True
        self._refuse(421, f"refused: Host {str(self.headers.get('Host'))[:80]!r} is not this "
                     "server's address (use localhost or the IP address, with the port)",
                     close=True)
        return False

    def _same_origin(self) -> bool:
        origin = self.headers.get("Origin")
        site = self.headers.get("Sec-Fetch-Site")
        host = self.headers.get("Host", "")
        if origin is not None and origin != f"http://{host}":
            self._refuse(403, f"refused: a request from another origin ({origin[:80]!r})",
                         close=True)
            return False
        if site is not None and site not in ("same-origin", "none"):
            self._refuse(403, f"refused: a {site[:20]!r} request (Sec-Fetch-Site)", close=True)
            return False
        return True

    # -- methods ---------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._host_ok():
            return
        path, _, query = self.path.partition("?")
        if path == "/":
            self._html(self.server.page())
        elif path == "/replay":
            self._replay(query)
        elif path.startswith("/api/"):
            self._refuse(405, f"{path[:60]} takes POST with a JSON object")
        else:
            self._refuse(404, f"nothing at {path[:60]!r}")

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def do_POST(self) -> None:  # noqa: N802
        if not self._host_ok() or not self._same_origin():
            return
        path = self.path.partition("?")[0]
        if not path.startswith("/api/"):
            self._refuse(404, f"nothing to POST at {path[:60]!r}", close=True)
            return
        if self.headers.get("Transfer-Encoding"):
            self._refuse(411, "a body needs a Content-Length (no Transfer-Encoding)", close=True)
            return
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != _JSON:
            self._refuse(415, f"the body must be application/json, not {kind[:40]!r}", close=True)
            return
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self._refuse(411, "a body needs a Content-Length", close=True)
            return
        if int(length) > MAX_BODY:
            self._refuse(413, f"the body is {length} bytes, more than {MAX_BODY}", close=True)
            return
        raw = self.rfile.read(int(length))
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            self._refuse(400, f"the body is not JSON: {str(error).splitlines()[0][:200]}")
            return
        status, answer = self.server.api.handle(path[len("/api/"):], request)
        self._json(status, answer)

    def _replay(self, query: str) -> None:
        from ..replay import replay_html

        fields = urllib.parse.parse_qs(query, max_num_fields=4)
        try:
            if len(query) > MAX_BODY:
                raise ApiError(f"the query is {len(query)} characters, more than {MAX_BODY}", 414)
            (text,) = fields.get("r", [None])
            if text is None:
                raise ApiError("/replay needs r={game, board, moves} (JSON)")
            request = json.loads(text)
            if not isinstance(request, dict):
                raise ApiError("r must be a JSON object")
            from .api import read_moves, read_rules, read_start, replay

            rules = read_rules(request)
            start, number = read_start(request, rules)
            moves = read_moves(request)
            replay(start, moves)
            title = _replay_title(request, number, rules)
            page = replay_html(start, moves, title=title)
        except ApiError as error:
            self._refuse(error.status, str(error))
            return
        except (ValueError, TypeError, RecursionError) as error:
            self._refuse(400, str(error).splitlines()[0][:300] if str(error) else "bad request")
            return
        self._html(page.encode("utf-8"))


def _replay_title(request: dict[str, Any], number: int | None, rules: Any) -> str:
    title = request.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()[:120]
    return f"PySol deal {number}" if number is not None else f"{rules.title}: a line from here"
