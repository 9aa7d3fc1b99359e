"""Debian's headless Chromium through Selenium, for the browser tests.

The replay, play and report pages are tested in a real browser; this module
is what the three share:

- :func:`chrome` (a context manager) starts chromedriver and a headless
  Chromium at 1280x900, scale 1, logging every network request and the
  console.  The driver path is explicit, so Selenium Manager is not run
  and nothing is downloaded.  chromedriver leads a process group of its own
  (with the browser it starts, default signal actions); on leaving, the
  browser quits and the group is killed, whatever happened
  (:mod:`children`).
- :func:`requested` lists the URLs the browser asked for since the last
  call: the proof that a page contacted no other host.
- :func:`unavailable` skips a test that has no browser, or fails it under
  ``BAKERSDOZEN_REQUIRE_BROWSER=1`` (CI sets it).

Needs ``apt-get install chromium chromium-driver`` and ``pip install
selenium``; the browser and driver are found at ``/usr/bin/chromium`` and
``/usr/bin/chromedriver`` (or ``$BAKERSDOZEN_CHROMIUM`` and
``$BAKERSDOZEN_CHROMEDRIVER``), never downloaded.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

import children

__all__ = ["CHROMEDRIVER", "CHROMIUM", "REQUIRED", "chrome", "requested", "unavailable"]

CHROMIUM = os.environ.get("BAKERSDOZEN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BAKERSDOZEN_CHROMEDRIVER", "/usr/bin/chromedriver")
REQUIRED = os.environ.get("BAKERSDOZEN_REQUIRE_BROWSER") == "1"


def unavailable(reason: str) -> NoReturn:
    """Skip the test for *reason*; a failure under ``BAKERSDOZEN_REQUIRE_BROWSER=1``."""
    if REQUIRED:
        pytest.fail(f"{reason}, and BAKERSDOZEN_REQUIRE_BROWSER=1 requires the browser test")
    pytest.skip(reason)


@contextlib.contextmanager
def chrome() -> Iterator[Any]:
    """A Selenium driver of headless Chromium; quit and its process group killed on leaving.

    Skips (or fails, see :func:`unavailable`) without selenium, the browser or the driver.
    """
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium is not installed (pip install selenium)")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            unavailable(f"{path} not found (apt-get install {package})")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1280,900", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    # An explicit driver path: Selenium Manager is not run, nothing is downloaded.
    service = Service(CHROMEDRIVER, popen_kw={"start_new_session": True,
                                              "preexec_fn": children.default_signals})
    try:
        browser = webdriver.Chrome(service=service, options=options)
        try:
            yield browser
        finally:
            browser.quit()
    finally:
        process = getattr(service, "process", None)
        if process is not None:
            children.end(process)


def requested(driver: Any) -> list[str]:
    """The URLs *driver*'s browser requested since the last call (or since it started)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls
