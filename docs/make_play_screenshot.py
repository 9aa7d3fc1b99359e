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
from urllib.parse import quote

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from bakersdozen import Deal, solve

CHROMIUM = os.environ.get("BAKERSDOZEN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BAKERSDOZEN_CHROMEDRIVER", "/usr/bin/chromedriver")


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
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--force-device-scale-factor=1", "--hide-scrollbars",
                     f"--window-size={args.width},{args.height}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": args.width, "height": args.height, "deviceScaleFactor": 1,
                "mobile": args.width < 600,
            })
            driver.get(url + "#" + quote(json.dumps(state), safe=""))
            _wait(driver, "return document.getElementById('state').dataset.status === 'winnable'")
            driver.find_element("id", "hint").click()
            _wait(driver, "return !!document.getElementById('hinttext').dataset.hint")
            driver.save_screenshot(args.out)
        finally:
            driver.quit()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
    print(args.out)


def _wait(driver: webdriver.Chrome, script: str) -> None:
    end = time.monotonic() + 30
    while not driver.execute_script(script):
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for: {script}")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
