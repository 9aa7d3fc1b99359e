"""Regenerate docs/play-deal24.png: the play page of PySol deal 24, with a hint shown.

Run from the checkout's root with the package installed, Debian's
``chromium`` and ``chromium-driver`` and ``pip install selenium``::

    python docs/make_play_screenshot.py [--moves K] [--width W] [--height H] [--out FILE]

It starts ``bakersdozen play`` on a free port, opens the game after the
first K moves of the engine's line (default 20), asks for a hint, takes the
screenshot with the system Chromium (headless, through the system
chromedriver; nothing is downloaded) and stops the server.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bakersdozen import Deal, solve
from screenshot import chromium


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--out", default=str(Path(__file__).with_name("play-deal24.png")))
    args = parser.parse_args()

    moves = [str(m) for m in solve(Deal.pysol(24)).moves[: args.moves]]
    state = {"g": {"game": "bakers_dozen", "knobs": {}, "deal": 24}, "m": moves, "r": []}
    server = subprocess.Popen(
        [sys.executable, "-m", "bakersdozen", "play", "--deal", "24", "--no-browser"],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        with chromium(args.width, args.height) as driver:
            driver.get(url + "#" + quote(json.dumps(state), safe=""))
            _wait(driver, "return document.getElementById('state').dataset.status === 'winnable'")
            driver.find_element("id", "hint").click()
            _wait(driver, "return !!document.getElementById('hinttext').dataset.hint")
            driver.save_screenshot(args.out)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    print(args.out)


def _wait(driver: Any, script: str) -> None:
    end = time.monotonic() + 30
    while not driver.execute_script(script):
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for: {script}")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
