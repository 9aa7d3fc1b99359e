"""Play a deal in the browser: a local web server and its page (``bakersdozen play``).

:mod:`.api` turns a request (a JSON object) into a response (a JSON
object) and runs the engine off the request threads, on a small pool with
time and memory limits; :mod:`.server` is the HTTP transport around it
(the standard library's :class:`http.server.ThreadingHTTPServer`);
:mod:`.page` is the one self-contained page, which draws the cards with the
replay page's renderer (:mod:`bakersdozen._render_assets`).  The user
guide and the API are in ``docs/play.md``.

Nothing here is imported by ``import bakersdozen``.
"""

from __future__ import annotations

__all__: list[str] = []
