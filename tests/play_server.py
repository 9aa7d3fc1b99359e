"""Start ``bakersdozen play`` as a real process on a free port, for the play tests."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import children


@contextmanager
def play_server(*args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``python -m bakersdozen play --no-browser --port 0 ARGS``: yields (url, process).

    The server prints its URL on its first line; the process (and its group)
    is killed in a ``finally``, whatever happens.
    """
    with children.started(
        [sys.executable, "-m", "bakersdozen", "play", "--no-browser", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as process:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        if not url.startswith("http://"):
            raise AssertionError(f"the server printed {url!r}; stderr: {process.stderr.read()!r}")
        yield url, process


def request(url: str, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request; returns (status, headers, body)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def post(url: str, name: str, payload: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """POST a JSON request to ``/api/NAME``; returns (status, answer)."""
    status, _, body = request(url, "POST", f"/api/{name}", json.dumps(payload).encode(),
                              {"Content-Type": "application/json", **(headers or {})})
    return status, json.loads(body)


def ask(url: str, name: str, payload: Any, timeout: float = 60.0) -> tuple[int, Any]:
    """POST until the answer is not ``checking`` (202)."""
    end = time.monotonic() + timeout
    while True:
        status, answer = post(url, name, payload)
        if status != 202:
            return status, answer
        if time.monotonic() > end:
            raise AssertionError(f"{name} still checking after {timeout} s")
        time.sleep(0.05)
