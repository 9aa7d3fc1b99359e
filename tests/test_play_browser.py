"""The play page in a real browser: Debian's headless Chromium through Selenium.

``bakersdozen play`` runs as a real process on a free port; the page is
played by clicking cards and targets, and what it shows (read from the
DOM: the ``data-card`` of every card in every column, every foundation's
``data-top``, the status's ``data-status``) is compared with
:func:`bakersdozen.check` after the same moves.  The browser must request
nothing from any host but the server.

Needs ``apt-get install chromium chromium-driver`` and selenium; skipped
without them unless ``BAKERSDOZEN_REQUIRE_BROWSER=1`` (as the replay test).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from bakersdozen import FOUNDATION, Card, Deal, Move, Suit, check, solve
from bakersdozen.errors import IllegalMoveError
from bakersdozen.rules import FoundationBuild
import browser
from play_server import play_server

DEAL = Deal.pysol(24)
LINE: tuple[Move, ...] = solve(DEAL).moves
#: After LINE's first 52 moves, this move loses (found with solve(); the
#: server test checks the same with the API).
LOSING_AT = 52
LOSING_MOVE = Move.from_text("QD 3>1")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with play_server("--deal", "24", "--time-limit", "20") as (url, _):
        yield url


@pytest.fixture(scope="module")
def driver(server: str) -> Iterator[Any]:
    with browser.chrome() as driver:
        yield driver


def assert_only_server(driver: Any, server: str) -> None:
    urls = browser.requested(driver)
    assert urls, "no request seen"
    assert all(url.startswith(server) for url in urls), [u for u in urls if not u.startswith(server)]


def hash_of(game: dict[str, Any], moves: list[str]) -> str:
    return "#" + quote(json.dumps({"g": game, "m": moves, "r": []}, separators=(",", ":")), safe="")


def open_game(driver: Any, server: str, game: dict[str, Any] | None = None,
              moves: tuple[Move, ...] = (), width: int = 1280) -> None:
    driver.set_window_size(width, 900)
    driver.get("about:blank")
    driver.get(server + (hash_of(game, [str(m) for m in moves]) if game else ""))
    settle(driver, len(moves))


def settle(driver: Any, moves: int, timeout: float = 60.0) -> str:
    """Wait until the page shows *moves* moves and a status; return the status."""
    end = time.monotonic() + timeout
    script = """
      var b = document.body, s = document.getElementById('state').dataset.status;
      return b.dataset.ready === 'true' && !b.dataset.busy && b.dataset.moves === arguments[0]
        && s !== 'checking' ? s : null;
    """
    while time.monotonic() < end:
        status = driver.execute_script(script, str(moves))
        if status:
            return str(status)
        time.sleep(0.02)
    raise AssertionError(f"the page did not settle at {moves} moves: " + str(driver.execute_script(
        "return [document.body.dataset.moves, document.getElementById('state').dataset.status,"
        " document.getElementById('message').textContent]")))


_READ = """
return {
  columns: Array.from(document.querySelectorAll('#tableau .col')).map(function (c) {
    return Array.from(c.querySelectorAll('.card')).map(function (e) { return e.dataset.card; });
  }),
  piles: Array.from(document.querySelectorAll('#foundations .pile')).map(function (p) {
    return p.dataset.cards ? p.dataset.cards.split(' ') : [];
  })
};
"""


def assert_shows(driver: Any, deal: Deal, moves: tuple[Move, ...]) -> None:
    position = check(deal, moves).position
    shown = driver.execute_script(_READ)
    assert shown["columns"] == [[str(card) for card in column] for column in position.columns]
    heights = [len(pile) for pile in shown["piles"]]
    assert heights == list(position.foundations)
    if deal.rules.foundation_build is FoundationBuild.BY_SUIT:
        for suit, pile in zip(Suit, shown["piles"]):
            assert pile == [str(Card(rank, suit)) for rank in range(1, len(pile) + 1)]


def click_at_top(driver: Any, element: Any) -> None:
    """Click the visible top strip of *element* (a card under others shows only that)."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    height = element.size["height"]
    ActionChains(driver).move_to_element_with_offset(element, 0, -height // 2 + 6).click().perform()


def click_move(driver: Any, move: Move) -> None:
    """Play *move* on the page: click its card, then its target."""
    if move.source == FOUNDATION:
        card = driver.find_element("css selector", f'#foundations [data-card="{move.card}"]')
    else:
        card = driver.find_element(
            "css selector", f'#tableau .col[data-column="{move.source}"] [data-card="{move.card}"]')
    click_at_top(driver, card)
    if move.target == FOUNDATION:
        target = driver.find_element("css selector", "#foundations .pile")
    else:
        target = driver.find_element("css selector", f'#tableau .col[data-column="{move.target}"] .label')
    click_at_top(driver, target)


def status_text(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('state').textContent"))


def test_plays_deal_24_by_clicking(driver: Any, server: str) -> None:
    open_game(driver, server)
    assert settle(driver, 0) == "winnable"
    assert_shows(driver, DEAL, ())
    for k, move in enumerate(LINE, 1):
        click_move(driver, move)
        status = settle(driver, k)
        assert status == ("won" if k == len(LINE) else "winnable"), (k, status_text(driver))
        if k in (1, 10, 35, 60, len(LINE)):
            assert_shows(driver, DEAL, LINE[:k])
    assert "every card is home" in status_text(driver)
    assert_only_server(driver, server)


def test_a_losing_move_is_named_and_undone(driver: Any, server: str) -> None:
    played = LINE[:LOSING_AT]
    open_game(driver, server, {"game": "bakers_dozen", "knobs": {}, "deal": 24}, played)
    assert_shows(driver, DEAL, played)
    click_move(driver, LOSING_MOVE)
    assert settle(driver, LOSING_AT + 1) == "lost"
    state = driver.find_element("id", "state")
    assert state.get_attribute("data-lost-at") == str(LOSING_AT + 1)
    assert f"since move {LOSING_AT + 1} ({LOSING_MOVE})" in status_text(driver)
    # Where it was lost: the move, and a winning alternative from before it.
    driver.find_element("id", "wherelost").click()
    box = driver.find_element("id", "lostbox")
    assert box.get_attribute("data-lost-at") == str(LOSING_AT + 1)
    alternative = Move.from_text(box.get_attribute("data-alternative"))
    assert solve(check(DEAL, played + (alternative,)).position).solved
    driver.find_element("id", "undo").click()
    assert settle(driver, LOSING_AT) == "winnable"
    assert_shows(driver, DEAL, played)
    driver.find_element("id", "redo").click()
    assert settle(driver, LOSING_AT + 1) == "lost"
    # The game survives a reload.
    driver.refresh()
    assert settle(driver, LOSING_AT + 1) == "lost"
    assert_shows(driver, DEAL, played + (LOSING_MOVE,))
    # An address with another game in it, on the same page, plays that game.
    driver.get(server + hash_of({"game": "bakers_dozen", "knobs": {}, "deal": 24}, [str(LINE[0])]))
    assert settle(driver, 1) == "winnable"
    assert_shows(driver, DEAL, LINE[:1])
    assert_only_server(driver, server)


def test_an_illegal_move_shows_the_checkers_reason(driver: Any, server: str) -> None:
    open_game(driver, server)
    reason, bad = "", None
    for source, target in ((1, 2), (1, 3), (2, 3), (2, 4), (3, 4)):
        bad = Move(DEAL.columns[source - 1][-1], source, target)
        try:
            check(DEAL, [bad])
        except IllegalMoveError as error:
            reason = str(error).split(" is illegal: ", 1)[1]
            break
    assert reason and bad is not None
    click_move(driver, bad)
    end = time.monotonic() + 10
    while reason not in driver.find_element("id", "message").text and time.monotonic() < end:
        time.sleep(0.05)
    assert reason in driver.find_element("id", "message").text
    assert settle(driver, 0) == "winnable"
    assert_shows(driver, DEAL, ())


def test_a_hint_played_stays_winnable(driver: Any, server: str) -> None:
    played = LINE[:5]
    open_game(driver, server, {"game": "bakers_dozen", "knobs": {}, "deal": 24}, played)
    driver.find_element("id", "hint").click()
    end = time.monotonic() + 30
    text = ""
    while not text and time.monotonic() < end:
        text = driver.find_element("id", "hinttext").get_attribute("data-hint") or ""
        time.sleep(0.05)
    hint = Move.from_text(text)
    hinted = driver.find_elements("css selector", ".card.hinted")
    assert [e.get_attribute("data-card") for e in hinted] == [str(hint.card)]
    click_move(driver, hint)
    assert settle(driver, 6) == "winnable"
    assert_shows(driver, DEAL, played + (hint,))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("game, columns", [("good_measure", 10), ("castles_in_spain", 13)])
def test_other_games_load_and_take_a_move(driver: Any, server: str, game: str, columns: int,
                                          width: int) -> None:
    deal = Deal.pysol(3, game)
    open_game(driver, server, {"game": game, "knobs": {}, "deal": 3}, width=width)
    assert len(driver.find_elements("css selector", "#tableau .col")) == columns
    assert_shows(driver, deal, ())
    assert settle(driver, 0) == "winnable"
    move = solve(deal).moves[0]
    click_move(driver, move)
    assert settle(driver, 1) == "winnable"
    assert_shows(driver, deal, (move,))
    # The page fits the window: only the board scrolls sideways.
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    assert_only_server(driver, server)


def test_narrow_screen_plays_deal_24(driver: Any, server: str) -> None:
    open_game(driver, server, width=390)
    for k, move in enumerate(LINE[:8], 1):
        click_move(driver, move)
        assert settle(driver, k) == "winnable"
    assert_shows(driver, DEAL, LINE[:8])
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390


def test_drag_and_drop(driver: Any, server: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    open_game(driver, server)
    for k, move in enumerate(LINE[:8], 1):
        if move.target == FOUNDATION:
            click_move(driver, move)
        else:
            card = driver.find_element(
                "css selector", f'#tableau .col[data-column="{move.source}"] [data-card="{move.card}"]')
            target = driver.find_element("css selector", f'#tableau .col[data-column="{move.target}"] .label')
            ActionChains(driver).click_and_hold(card).move_by_offset(10, 10) \
                .move_to_element(target).release().perform()
        assert settle(driver, k) == "winnable"
    assert any(m.target != FOUNDATION for m in LINE[:8])
    assert_shows(driver, DEAL, LINE[:8])


def test_keyboard_play(driver: Any, server: str) -> None:
    from selenium.webdriver.common.keys import Keys

    open_game(driver, server)
    move = LINE[0]  # AS 1>F: the top card of column 1 to its foundation
    assert move.target == FOUNDATION and move.source == 1
    column = driver.find_element("css selector", '#tableau .col[data-column="1"]')
    driver.execute_script("arguments[0].focus()", column)
    column.send_keys(Keys.ENTER)
    column.send_keys("f")
    assert settle(driver, 1) == "winnable"
    assert_shows(driver, DEAL, LINE[:1])
    driver.find_element("tag name", "body").send_keys("u")
    assert settle(driver, 0) == "winnable"


def test_show_a_solution_opens_the_replay(driver: Any, server: str) -> None:
    open_game(driver, server, {"game": "bakers_dozen", "knobs": {}, "deal": 24}, LINE[:10])
    driver.find_element("id", "solution").click()
    end = time.monotonic() + 20
    while driver.execute_script("return document.body.dataset.ready") != "true" or \
            "/replay" not in driver.current_url:
        assert time.monotonic() < end
        time.sleep(0.05)
    columns = driver.execute_script(_READ)["columns"]
    position = check(DEAL, LINE[:10]).position
    assert columns == [[str(card) for card in column] for column in position.columns]
    assert_only_server(driver, server)


def test_new_games_from_the_page(driver: Any, server: str) -> None:
    open_game(driver, server)
    driver.find_element("css selector", "#newgame summary").click()
    # A deal number of another game.
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "gamesel")).select_by_value("good_measure")
    driver.find_element("id", "dealno").send_keys("7")
    driver.find_element("id", "dealbtn").click()
    end = time.monotonic() + 20
    while len(driver.find_elements("css selector", "#tableau .col")) != 10:
        assert time.monotonic() < end
        time.sleep(0.05)
    settle(driver, 0)
    assert_shows(driver, Deal.pysol(7, "good_measure"), ())
    # Board text pasted in, with a card missing: the reason, and the game unchanged.
    Select(driver.find_element("id", "gamesel")).select_by_value("bakers_dozen")
    text = Deal.pysol(5).to_text()
    area = driver.find_element("id", "boardtext")
    driver.execute_script("arguments[0].value = arguments[1]", area, text.replace("AS", "", 1))
    driver.find_element("id", "boardbtn").click()
    end = time.monotonic() + 20
    while "missing" not in driver.find_element("id", "message").text:
        assert time.monotonic() < end
        time.sleep(0.05)
    assert "AS" in driver.find_element("id", "message").text
    driver.execute_script("arguments[0].value = arguments[1]", area, text)
    driver.find_element("id", "boardbtn").click()
    end = time.monotonic() + 20
    while driver.execute_script(_READ)["columns"] != [[str(c) for c in col] for col in Deal.pysol(5).columns]:
        assert time.monotonic() < end
        time.sleep(0.05)
    # A random winnable deal.
    driver.find_element("id", "randombtn").click()
    end = time.monotonic() + 30
    while "deal" not in driver.find_element("id", "title").text:
        assert time.monotonic() < end
        time.sleep(0.05)
    assert settle(driver, 0) == "winnable"
    assert_only_server(driver, server)
