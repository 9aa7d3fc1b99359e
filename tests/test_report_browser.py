"""The survey report in a real browser: Debian's headless Chromium through Selenium.

The page of a small survey is opened from a file; every figure must have
rendered (a decoded image of the size the page gives it, laid out with a
nonzero box), the page must request nothing but itself (its images are
``data:`` URLs), and its Content-Security-Policy must refuse nothing it
uses (no console error).

Needs ``apt-get install chromium chromium-driver`` and ``pip install
selenium matplotlib``; the browser and driver are found at
``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (or
``$BAKERSDOZEN_CHROMIUM`` and ``$BAKERSDOZEN_CHROMEDRIVER``), never
downloaded.  Without them these tests are skipped, unless
``BAKERSDOZEN_REQUIRE_BROWSER=1``, which makes that a failure (CI sets it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bakersdozen.cli import main
import browser


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("report")
    survey = folder / "small.jsonl"
    assert main(["survey", "1-30,64,477", "--max-nodes", "400", "--time-limit", "none",
                 "--jobs", "1", "--output", str(survey)]) == 0
    path = folder / "report.html"
    assert main(["report", str(survey), "--html", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with browser.chrome() as driver:
        yield driver


_IMAGES = """
return Array.from(document.images).map(function (img) {
  var box = img.getBoundingClientRect();
  return {id: img.parentElement.id, complete: img.complete, natural: [img.naturalWidth,
          img.naturalHeight], size: [img.width, img.height], box: [box.width, box.height]};
});
"""


def test_figures_render_and_nothing_is_requested(driver: Any, page: Path) -> None:
    driver.get_log("performance")  # drop the entries of earlier pages
    driver.get(page.as_uri())
    driver.execute_script("return Promise.all(Array.from(document.images).map("
                          "function (img) { return img.decode(); }))")
    images = driver.execute_script(_IMAGES)
    assert [image["id"] for image in images] == ["verdicts", "effort", "lengths"]
    for image in images:
        assert image["complete"], image
        assert image["natural"][0] > 0 and image["natural"][1] > 0, image
        assert image["natural"] == image["size"], image  # drawn at its own size on a laptop
        assert image["box"][0] > 0 and image["box"][1] > 0, image
    requested = set(browser.requested(driver))
    assert requested - {page.as_uri()} <= {u for u in requested if u.startswith("data:image/png")}
    assert page.as_uri() in requested
    assert driver.execute_script("return performance.getEntriesByType('resource')"
                                 ".filter(function (e) { return !e.name.startsWith('data:'); })"
                                 ".length") == 0
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    # the style went through the policy (by hash): the numbers are right-aligned
    assert driver.execute_script(
        "return getComputedStyle(document.querySelector('#counts td')).textAlign") == "right"


def test_fits_a_phone(driver: Any, page: Path) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True,
    })
    try:
        driver.get(page.as_uri())
        widths = driver.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth].concat("
            "Array.from(document.images).map(function (i) { return i.getBoundingClientRect().width; }))")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    page_width, view, *images = widths
    assert page_width <= view == 390  # no sideways scrolling
    assert all(0 < width <= view for width in images)
