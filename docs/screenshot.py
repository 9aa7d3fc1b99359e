"""The headless Chromium that docs/make_screenshot.py and docs/make_play_screenshot.py share.

Debian's ``chromium`` and ``chromium-driver`` (``apt-get install chromium
chromium-driver``) with ``pip install selenium``; found at
``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (or
``$BAKERSDOZEN_CHROMIUM`` and ``$BAKERSDOZEN_CHROMEDRIVER``).  The driver
path is explicit, so Selenium Manager is never asked to download anything.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("BAKERSDOZEN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BAKERSDOZEN_CHROMEDRIVER", "/usr/bin/chromedriver")


@contextlib.contextmanager
def chromium(width: int, height: int) -> Iterator[webdriver.Chrome]:
    """A headless Chromium whose viewport is exactly *width* x *height* CSS pixels, scale 1.

    Scroll bars are hidden and a viewport under 600 pixels wide is a phone's;
    the browser quits on leaving the block.
    """
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--force-device-scale-factor=1", "--hide-scrollbars",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        # The viewport itself, exactly (a window size would include the frame).
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
        })
        yield driver
    finally:
        driver.quit()
