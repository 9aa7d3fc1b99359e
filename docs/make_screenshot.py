"""Regenerate docs/replay-deal24.png: the replay page of PySol deal 24, mid-solution.

Run from the checkout's root with the package installed and Debian's
``chromium`` and ``chromium-driver`` (``apt-get install chromium
chromium-driver``) and ``pip install selenium``::

    python docs/make_screenshot.py [--step K] [--width W] [--height H] [--out FILE]

The browser is the system Chromium, driven headless through the system
chromedriver (Selenium Manager is never asked to download anything;
see ``docs/screenshot.py``).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bakersdozen import Deal, replay_html, solve
from screenshot import chromium


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=None,
                        help="moves played (default: a move between columns near the middle)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--out", default=str(Path(__file__).with_name("replay-deal24.png")))
    args = parser.parse_args()

    deal = Deal.pysol(24)
    moves = solve(deal).moves
    if args.step is None:  # the last move between columns before the middle
        step = max(k for k in range(1, len(moves) // 2 + 1) if not moves[k - 1].to_foundation)
    else:
        step = args.step
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp, "replay.html")
        page.write_text(replay_html(deal, moves, title="PySol deal 24"), encoding="utf-8")
        with chromium(args.width, args.height) as driver:
            driver.get(page.as_uri())
            driver.execute_script(
                "document.querySelector('#movelist button[data-step=\"' + arguments[0] + '\"]').click();"
                "document.activeElement.blur();", step)
            driver.execute_script("return document.getAnimations().forEach(a => a.finish())")
            driver.save_screenshot(args.out)
    print(f"wrote {args.out} (step {step} of {len(moves)}, {args.width}x{args.height})")


if __name__ == "__main__":
    main()
