"""The replay page in a real browser: Debian's headless Chromium through Selenium.

The page for PySol deal 24's solution is opened from a file, stepped with
the keyboard, the buttons and the move list, and at each stop the position
it shows (read from the DOM: the ``data-card`` of every card in every
column, the ``data-top`` of every foundation) is compared with what
:func:`bakersdozen.check` computes after the same number of moves.  The
page must make no network request.

Needs ``apt-get install chromium chromium-driver`` and ``pip install
selenium``; the browser and driver are found at ``/usr/bin/chromium`` and
``/usr/bin/chromedriver`` (or ``$BAKERSDOZEN_CHROMIUM`` and
``$BAKERSDOZEN_CHROMEDRIVER``), never downloaded.  Without them these tests
are skipped, unless ``BAKERSDOZEN_REQUIRE_BROWSER=1``, which makes that a
failure (CI sets it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bakersdozen import FOUNDATION, Card, Deal, Move, check, replay_html, solve
from bakersdozen.replay import replay_data
import browser
from replay_games import SEQUENCE_RULES, expected_steps, foundation_return, good_measure, reduced

DEAL = Deal.pysol(24)
MOVES: tuple[Move, ...] = solve(DEAL).moves
N = len(MOVES)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "deal24.html"
    path.write_text(replay_html(DEAL, MOVES, title="PySol deal 24"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with browser.chrome() as driver:
        yield driver


@pytest.fixture
def opened(driver: Any, page: Path) -> Any:
    driver.set_window_size(1280, 900)
    driver.get(page.as_uri())
    assert driver.execute_script("return document.body.dataset.ready") == "true"
    return driver


_READ_POSITION = """
return {
  step: Number(document.body.dataset.step),
  columns: Array.from(document.querySelectorAll('#tableau .col')).map(function (c) {
    return Array.from(c.querySelectorAll('.card')).map(function (e) { return e.dataset.card; });
  }),
  columnLabels: Array.from(document.querySelectorAll('#tableau .col')).map(function (c) {
    return c.getAttribute('aria-label');
  }),
  piles: Array.from(document.querySelectorAll('#foundations .pile')).map(function (p) {
    return p.dataset.top;
  }),
  pileCards: Array.from(document.querySelectorAll('#foundations .pile')).map(function (p) {
    return p.dataset.cards ? p.dataset.cards.split(' ') : [];
  }),
  pileShown: Array.from(document.querySelectorAll('#foundations .pile')).map(function (p) {
    return Array.from(p.querySelectorAll('.card')).map(function (e) { return e.dataset.card; });
  }),
  moveText: document.getElementById('movetext').textContent,
  moved: Array.from(document.querySelectorAll('.card.moved')).map(function (e) {
    return e.dataset.card;
  }),
  counter: document.getElementById('counter').textContent,
  current: Array.from(document.querySelectorAll('#movelist [aria-current]')).map(function (b) {
    return Number(b.dataset.step);
  }),
  announced: document.getElementById('announce').textContent
};
"""


def assert_shows(
    driver: Any, k: int, deal: Deal = DEAL, moves: tuple[Move, ...] = MOVES
) -> dict[str, Any]:
    """The page shows the position after the first *k* moves, as check() computes it."""
    shown: dict[str, Any] = driver.execute_script(_READ_POSITION)
    expected = check(deal, moves[:k]).position
    assert shown["step"] == k
    assert shown["counter"] == f"Move {k} of {len(moves)}"
    assert shown["current"] == [k]
    assert shown["columns"] == [[str(card) for card in col] for col in expected.columns]
    tops = [Card.from_text(top) if top else None for top in shown["piles"]]
    assert [card.rank if card else 0 for card in tops] == list(expected.foundations)
    start = [pile["cards"] for pile in replay_data(deal, ())["foundations"]]
    step = expected_steps(deal, moves[:k], start)[k]
    assert shown["pileCards"] == step.piles  # every card, in the order played
    assert shown["piles"] == [pile[-1] if pile else "" for pile in step.piles]
    assert shown["pileShown"] == [pile[-1:] for pile in step.piles]
    for number, (label, col) in enumerate(zip(shown["columnLabels"], expected.columns), 1):
        cards = " ".join(card.symbol for card in col)
        assert label == (f"Column {number}: {cards} (top {col[-1].symbol})" if col
                         else f"Column {number}: empty")
    # The cards the move carried are outlined (a foundation shows only its top).
    shown_cards = {card for col in shown["columns"] for card in col} | set(shown["piles"])
    assert sorted(shown["moved"]) == sorted(c for c in step.carried if c in shown_cards)
    if k:
        assert str(moves[k - 1].card) in shown["moved"]
    return shown


def press(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*keys).perform()


def click(driver: Any, selector: str) -> None:
    driver.find_element("css selector", selector).click()


def test_step_with_keyboard_buttons_and_move_list(opened: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    driver = opened
    assert_shows(driver, 0)
    press(driver, Keys.ARROW_RIGHT)
    shown = assert_shows(driver, 1)
    assert shown["announced"].startswith(f"Move 1 of {N}: {MOVES[0].card.symbol} from column")
    for _ in range(4):
        click(driver, "#forward")
    assert_shows(driver, 5)
    click(driver, "#back")
    assert_shows(driver, 4)
    middle = N // 2
    click(driver, f'#movelist button[data-step="{middle}"]')
    assert_shows(driver, middle)
    press(driver, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert_shows(driver, middle + 2)
    press(driver, Keys.END)
    assert_shows(driver, N)
    assert check(DEAL, MOVES).won
    assert all(not col for col in driver.execute_script(_READ_POSITION)["columns"])
    press(driver, Keys.ARROW_RIGHT)  # nothing after the last move
    assert_shows(driver, N)
    press(driver, Keys.ARROW_LEFT)
    assert_shows(driver, N - 1)
    press(driver, Keys.HOME)
    assert_shows(driver, 0)
    press(driver, Keys.ARROW_LEFT)  # nothing before the start
    assert_shows(driver, 0)
    click(driver, "#last")
    assert_shows(driver, N)
    click(driver, "#first")
    assert_shows(driver, 0)
    click(driver, f'#movelist button[data-step="{N}"]')
    assert_shows(driver, N)


def _other_games() -> list[tuple[Deal, tuple[Move, ...]]]:
    middle = check(DEAL, MOVES[:30]).position  # foundations partly built
    small = Deal.from_text("4C 3D\n4D 2C\n4H AC\n4S 3C\nAD 2D 3H 2H AH 3S 2S AS\n", ranks=4)
    return [(middle, MOVES[30:]), (small, solve(small).moves)]


@pytest.mark.parametrize(("deal", "moves"), _other_games(), ids=["mid-game", "five-columns"])
def test_other_starts(driver: Any, tmp_path: Path, deal: Deal, moves: tuple[Move, ...]) -> None:
    from selenium.webdriver.common.keys import Keys

    path = tmp_path / "other.html"
    path.write_text(replay_html(deal, moves), encoding="utf-8")
    driver.get(path.as_uri())
    assert_shows(driver, 0, deal, moves)
    press(driver, Keys.ARROW_RIGHT)
    assert_shows(driver, 1, deal, moves)
    press(driver, Keys.END)
    assert_shows(driver, len(moves), deal, moves)
    assert check(deal, moves).won


def test_current_move_is_scrolled_into_view(opened: Any) -> None:
    driver = opened
    for k in (N, 3, N // 2):
        driver.execute_script(
            "document.querySelector('#movelist button[data-step=\"' + arguments[0] + '\"]').click()",
            k,
        )
        inside = driver.execute_script(
            "var b = document.querySelector('#movelist [aria-current]').getBoundingClientRect();"
            "var box = document.getElementById('movebox').getBoundingClientRect();"
            "return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;"
        )
        assert inside, k


def test_play_and_pause(opened: Any) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = opened
    Select(driver.find_element("id", "speed")).select_by_value("8")
    driver.execute_script("document.activeElement.blur()")
    press(driver, " ")  # Space plays ...
    assert driver.find_element("id", "play").text == "Pause"
    WebDriverWait(driver, 10).until(
        lambda d: int(d.execute_script("return document.body.dataset.step")) >= 3
    )
    press(driver, " ")  # ... and pauses
    assert driver.find_element("id", "play").text == "Play"
    stopped = int(driver.execute_script("return document.body.dataset.step"))
    time.sleep(0.4)
    assert_shows(driver, stopped)
    click(driver, f'#movelist button[data-step="{N - 4}"]')
    click(driver, "#play")  # the button plays to the end
    WebDriverWait(driver, 30).until(
        lambda d: int(d.execute_script("return document.body.dataset.step")) == N
    )
    WebDriverWait(driver, 2).until(lambda d: d.find_element("id", "play").text == "Play")
    assert_shows(driver, N)
    press(driver, Keys.ARROW_LEFT)
    assert_shows(driver, N - 1)


def test_controls_are_labelled_buttons(opened: Any) -> None:
    labels = opened.execute_script(
        "return Array.from(document.querySelectorAll('#controls button')).map("
        "function (b) { return [b.tagName, b.type, b.getAttribute('aria-label')]; })"
    )
    assert [label for _, _, label in labels] == [
        "First: the starting position", "Back one move", "Play", "Forward one move",
        "Last: the final position",
    ]
    assert all(tag == "BUTTON" and kind == "button" for tag, kind, _ in labels)
    piles = opened.execute_script(
        "return Array.from(document.querySelectorAll('#foundations .pile'))"
        ".map(function (p) { return p.getAttribute('aria-label'); })"
    )
    assert piles == [f"{s} foundation: empty" for s in ("Clubs", "Diamonds", "Hearts", "Spades")]
    assert opened.find_element("id", "announce").get_attribute("aria-live") == "polite"


def test_no_network_request(opened: Any, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    driver = opened
    driver.get_log("performance")  # drop the entries of earlier tests
    driver.get(page.as_uri())
    press(driver, Keys.ARROW_RIGHT, Keys.END, Keys.HOME)
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert set(browser.requested(driver)) == {page.as_uri()}
    policy = driver.execute_script(
        "return document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content"
    )
    assert policy.startswith("default-src 'none'")
    # The policy lets the inline style and script through (by hash), and
    # nothing was refused: no error in the console.
    assert driver.execute_script(
        "return getComputedStyle(document.body).backgroundColor") == "rgb(15, 81, 50)"
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 720)])
def test_fits_phone_and_laptop(driver: Any, page: Path, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
    })
    try:
        driver.get(page.as_uri())
        size = driver.execute_script(
            "var board = document.getElementById('board');"
            "var card = document.querySelector('.card').getBoundingClientRect();"
            "return {page: document.documentElement.scrollWidth, view: window.innerWidth,"
            " board: board.scrollWidth, boardView: board.clientWidth, card: card.width};"
        )
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert size["view"] == width
    assert size["page"] <= width  # the page itself never scrolls sideways ...
    assert size["card"] >= 38  # ... the cards stay readable ...
    if width < 600:
        assert size["board"] > size["boardView"]  # ... and the columns scroll on a phone
    else:
        assert size["board"] <= size["boardView"]  # all 13 columns at once on a laptop


_RECORD_ANIMATIONS = """
window.slid = [];
var animate = Element.prototype.animate;
Element.prototype.animate = function (frames, timing) {
  window.slid.push(this.dataset.card);
  return animate.call(this, frames, timing);
};
"""


def test_moved_card_slides(opened: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    driver = opened
    driver.execute_script(_RECORD_ANIMATIONS)
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.END):
        press(driver, key)
        # A card caught mid-slide is already where it is shown: let it land.
        driver.execute_script("document.getAnimations().forEach(function (a) { a.finish(); })")
    # One slide per single step, forward or back; a jump just shows the position.
    slid = [str(MOVES[0].card), str(MOVES[1].card), str(MOVES[1].card)]
    assert driver.execute_script("return window.slid") == slid
    assert_shows(driver, N)


def test_reduced_motion_shows_no_slide(driver: Any, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}],
    })
    try:
        driver.get(page.as_uri())
        driver.execute_script(_RECORD_ANIMATIONS)
        press(driver, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        assert driver.execute_script("return window.slid") == []
        assert_shows(driver, 2)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# -- the family of games ---------------------------------------------------------

_FAMILY = {
    "spanish_patience": lambda: reduced("spanish_patience"),
    "castles_in_spain": lambda: reduced("castles_in_spain"),
    "portuguese_solitaire": lambda: reduced("portuguese_solitaire"),
    "foundation_return": foundation_return,
    "sequence": lambda: reduced(SEQUENCE_RULES.name),
}


@pytest.mark.parametrize("name", sorted(_FAMILY))
def test_family_game_step_by_step(driver: Any, tmp_path: Path, name: str) -> None:
    """Every step of a reduced game of the family, forward and back, shows check()'s position."""
    from selenium.webdriver.common.keys import Keys

    game = _FAMILY[name]()
    deal, moves = game.deal, game.moves
    path = tmp_path / f"{name}.html"
    path.write_text(replay_html(deal, moves), encoding="utf-8")
    driver.get_log("browser")  # drop the entries of earlier tests
    driver.get(path.as_uri())
    assert driver.execute_script("return document.body.dataset.ready") == "true"
    changed = deal.rules.name.partition("+")[2].replace(",", ", ")
    assert driver.title == deal.rules.title + (f" ({changed})" if changed else "") + " replay"
    assert_shows(driver, 0, deal, moves)
    before = check(deal, ()).position
    for k in range(1, len(moves) + 1):
        press(driver, Keys.ARROW_RIGHT)
        shown = assert_shows(driver, k, deal, moves)
        move = moves[k - 1]
        if move.target != FOUNDATION and move.source != FOUNDATION:
            target = before.columns[move.target - 1]
            where = f" onto {target[-1].symbol} in column" if target else " to empty column"
            carried = before.columns[move.source - 1]
            carried = carried[carried.index(move.card):]
            words = " ".join(c.symbol for c in carried) + f" from column {move.source}{where} {move.target}"
            assert shown["moveText"] == f"{move} \u00b7 {words}" + (
                ". All cards are home." if k == len(moves) else "")
        elif move.source == FOUNDATION:
            assert f"{move.card.symbol} from the {move.card.suit.name.capitalize()} foundation" in shown["moveText"]
        before = check(deal, moves[:k]).position
    for k in range(len(moves) - 1, len(moves) - 6, -1):
        press(driver, Keys.ARROW_LEFT)
        assert_shows(driver, k, deal, moves)
    press(driver, Keys.HOME)
    assert_shows(driver, 0, deal, moves)
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


def test_good_measure_ten_columns(driver: Any, tmp_path: Path) -> None:
    """A full Good Measure deal: ten columns, two Aces home at the start."""
    game = good_measure()
    deal, moves = game.deal, game.moves
    path = tmp_path / "good_measure.html"
    path.write_text(replay_html(deal, moves, title="PySol deal 2"), encoding="utf-8")
    driver.set_window_size(1280, 900)
    driver.get(path.as_uri())
    assert driver.title == "PySol deal 2 \u00b7 Good Measure"
    shown = assert_shows(driver, 0, deal, moves)
    assert len(shown["columns"]) == 10
    assert sum(1 for top in shown["piles"] if top == "") == 2
    for k in (1, 2, 17, len(moves) // 2, len(moves) - 1, len(moves)):
        click(driver, f'#movelist button[data-step="{k}"]')
        assert_shows(driver, k, deal, moves)
    width = driver.execute_script(
        "var b = document.getElementById('board'); return [b.scrollWidth, b.clientWidth];")
    assert width[0] <= width[1]  # all ten columns at once on a laptop


def test_sequence_slides_together(driver: Any, tmp_path: Path) -> None:
    """The cards a move carries slide together, one animation each."""
    from selenium.webdriver.common.keys import Keys

    game = reduced("castles_in_spain")
    deal, moves = game.deal, game.moves
    start = [pile["cards"] for pile in replay_data(deal, ())["foundations"]]
    steps = expected_steps(deal, moves, start)
    k = next(k for k, step in enumerate(steps) if len(step.carried) > 1)
    path = tmp_path / "castles.html"
    path.write_text(replay_html(deal, moves), encoding="utf-8")
    driver.get(path.as_uri())
    click(driver, f'#movelist button[data-step="{k - 1}"]')
    driver.execute_script(_RECORD_ANIMATIONS)
    press(driver, Keys.ARROW_RIGHT)
    driver.execute_script("document.getAnimations().forEach(function (a) { a.finish(); })")
    shown = assert_shows(driver, k, deal, moves)
    assert sorted(driver.execute_script("return window.slid")) == sorted(steps[k].carried)
    assert sorted(shown["moved"]) == sorted(steps[k].carried)
    press(driver, Keys.ARROW_LEFT)  # back: the same cards slide back
    driver.execute_script("document.getAnimations().forEach(function (a) { a.finish(); })")
    assert_shows(driver, k - 1, deal, moves)
    assert sorted(driver.execute_script("return window.slid")) == sorted(steps[k].carried * 2)
