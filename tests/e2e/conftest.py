"""Browser fixtures: Debian's chromium through chromedriver (selenium, headless), one browser
for the whole run, against `dealerassist serve` started by tests/serving.py's `served`
fixture (embedded Redis, gunicorn, the audit worker; a fresh data directory per test).

Selenium is given the driver and the browser explicitly, so selenium-manager never looks for
or downloads either. Without /usr/bin/chromium or /usr/bin/chromedriver the tests skip with
the reason (`make browser`, run by `make test`, installs both where it can).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from serving import call, served, status, wait

from dealerassist.api.auth import read_plain_tokens

__all__ = ["served"]  # tests/serving.py's fixture: `dealerassist serve` in a subprocess

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT_SECONDS = 10
FIVE_CARD_DRAW = {
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}

# Three players, button on seat 1: seat 2 posts the small blind, seat 3 the big one; seat 1
# raises, seat 2 folds, seat 3 calls, draws two, seat 1 stands pat, seat 1 bets after the
# draw and is called, seat 1 shows kings and seat 3 queens: the pot of 17 goes to seat 1.
# Each step: the seat the tablet shows to act, the button pressed, the same entry for the API.
KINGS, QUEENS = "Kc Kd 7s 4h 2c", "Qs Qh Js 8d 3c"
HAND: list[tuple[int, str, dict[str, Any]]] = [
    (2, "Post 1 (small blind)", {"action": "post"}),
    (3, "Post 2 (big blind)", {"action": "post"}),
    (1, "Raise to 4", {"action": "raise", "amount": 4}),
    (2, "Fold", {"action": "fold"}),
    (3, "Call 2", {"action": "call"}),
    (3, "Draws 2", {"action": "draw", "count": 2}),
    (1, "Pat (a rap on the table)", {"action": "draw", "count": 0}),
    (3, "Check", {"action": "check"}),
    (1, "Bet 4", {"action": "bet", "amount": 4}),
    (3, "Call 4", {"action": "call"}),
    (1, "Show", {"action": "show", "cards": KINGS}),
    (3, "Show", {"action": "show", "cards": QUEENS}),
]

# what the dealer is told to deal after these buttons
DEALING = {
    "Post 2 (big blind)": (
        "Deal five cards to each of seats 2, 3, 1, one at a time, starting with seat 2"
    ),
    "Draws 2": "Deal 2 cards to seat 3",
}


@pytest.fixture(scope="session")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser saves what the pages download."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="session")
def browser(downloads: Path) -> Iterator[WebDriver]:
    """One headless chromium for every browser test."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.skip(
            f"no browser: {', '.join(missing)} missing "
            "(`make browser` installs Debian's chromium and chromium-driver as root)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,1024",
    ):
        options.add_argument(argument)
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    yield driver
    driver.quit()


class Served:
    """The served instance: its base URL and tokens, and JSON calls to its API."""

    def __init__(self, base: str, data_dir: Path) -> None:
        self.base = base
        self.tokens = read_plain_tokens(data_dir / "tokens.toml")

    def call(self, method: str, path: str, who: str = "dealer", body: Any = None) -> Any:
        """The JSON answer of a call that must succeed (urllib raises on 4xx/5xx)."""
        status, text = call(f"{self.base}{path}", self.tokens[who], body, method)
        assert 200 <= status < 300, (status, text)
        return json.loads(text)

    def status(self, method: str, path: str, who: str = "dealer", body: Any = None) -> int:
        """The status of a call that may be refused."""
        return status(f"{self.base}{path}", self.tokens[who], body, method)

    def table(self, table_id: str) -> Any:
        return self.call("GET", f"/v1/tables/{table_id}", "floor")

    def create_table(self, table_id: str, seats: dict[int, str], stack: int = 100) -> Any:
        """A five-card draw table with ``seats`` seated; answers the table."""
        self.call("POST", "/v1/tables", "admin", {"table_id": table_id, **FIVE_CARD_DRAW})
        for seat, player in seats.items():
            self.call(
                "PUT",
                f"/v1/tables/{table_id}/seats/{seat}",
                body={"player": player, "stack": stack},
            )
        return self.table(table_id)

    def act(self, table_id: str, **entry: Any) -> Any:
        return self.call("POST", f"/v1/tables/{table_id}/actions", "dealer", entry)

    def start_hand(self, table_id: str) -> Any:
        """Table ``table_id`` with Ann, Bob and Cy on seats 1-3 (100 each), hand 1 started."""
        self.create_table(table_id, {1: "Ann", 2: "Bob", 3: "Cy"})
        return self.call("POST", f"/v1/tables/{table_id}/hands", body={"button": 1})

    def to_showdown(self, table_id: str) -> Any:
        """HAND entered through the API up to seat 1's show: seat 3 is to show or muck."""
        table = self.start_hand(table_id)
        for seat, _label, entry in HAND[:-1]:
            table = self.act(table_id, seat=seat, **entry)
        return table

    def text(self, path: str, who: str) -> str:
        """The body of a GET that must succeed, as text (exports are not one JSON value)."""
        status, text = call(f"{self.base}{path}", self.tokens[who])
        assert status == 200, (status, text)
        return str(text)

    def stored_events(
        self, table_id: str, done: Callable[[list[dict[str, Any]]], bool]
    ) -> list[dict[str, Any]]:
        """The table's audit events in the store, once ``done(events)`` (the worker drains
        them in the background)."""

        def stored() -> list[dict[str, Any]] | None:
            text = self.text(f"/v1/audit/events?table_id={table_id}", "auditor")
            events = [json.loads(line) for line in text.splitlines() if line.strip()]
            return events if done(events) else None

        return list(wait(stored, 20))


@pytest.fixture
def service(served: Any) -> Served:
    base, data_dir, _process = served
    return Served(base, data_dir)


class Page:
    """One page of the served instance in the browser, driven as its user drives it."""

    def __init__(self, driver: WebDriver, service: Served, downloads: Path) -> None:
        self.driver = driver
        self.service = service
        self.downloads = downloads

    # -- opening and finding ---------------------------------------------------------------

    def open(self, name: str, who: str, table_id: str | None = None) -> None:
        """Opens /<name> and logs in with the role's token (and the table ID if asked)."""
        self.driver.get(f"{self.service.base}/{name}")
        self.type("login-token", self.service.tokens[who])
        if table_id is not None:
            self.type("login-table", table_id)
        self.driver.find_element("css selector", "#login-form button[type=submit]").click()
        self.until(lambda: self.by_id("main").is_displayed(), "the page behind the login")

    def by_id(self, element_id: str) -> WebElement:
        return self.driver.find_element("id", element_id)

    def css(self, selector: str) -> list[WebElement]:
        return self.driver.find_elements("css selector", selector)

    def text(self, element_id: str) -> str:
        return self.by_id(element_id).text

    def type(self, element_id: str, text: str) -> None:
        field = self.by_id(element_id)
        field.clear()
        field.send_keys(text)

    def until(self, condition: Callable[[], Any], what: str, seconds: float = WAIT_SECONDS) -> Any:
        """Waits for ``condition()`` to be truthy (an element redrawn meanwhile is retried)."""

        def check(_: WebDriver) -> Any:
            try:
                return condition()
            except StaleElementReferenceException:
                return None

        return WebDriverWait(self.driver, seconds).until(check, f"timed out waiting for {what}")

    # -- the table view (tablet and floor) ---------------------------------------------------

    def version(self) -> int:
        """The table version the page shows ("v12" in the summary)."""
        text = self.until(
            lambda: (
                self.css("#table-summary .version") and self.css("#table-summary .version")[0].text
            ),
            "the table summary",
        )
        return int(text.lstrip("v"))

    def shows_version(self, version: int) -> None:
        self.until(lambda: self.version() == version, f"the page to show v{version}")

    def seat_texts(self) -> dict[int, str]:
        """Each seat box of the table as its text, by seat number."""
        seats = {}
        for item in self.css("#seats li.seat"):
            number = int(item.find_element("css selector", ".seat-no").text)
            seats[number] = item.text
        return seats

    def stacks(self) -> dict[int, int]:
        """The stacks the seat boxes show (occupied seats only)."""
        stacks = {}
        for item in self.css("#seats li.seat"):
            found = item.find_elements("css selector", ".stack")
            if found:
                stacks[int(item.find_element("css selector", ".seat-no").text)] = int(found[0].text)
        return stacks

    def seat_stacked(self, seat: int) -> bool:
        """Whether the seat's box shows its head (number, badges), then the player, then the
        stack, one under the other, as every seat box does."""
        item = next(
            li
            for li in self.css("#seats li.seat")
            if li.find_element("css selector", ".seat-no").text == str(seat)
        )
        head, player, stack = (
            item.find_element("css selector", part).rect
            for part in (".seat-head", ".player", ".stack")
        )
        return bool(
            head["y"] + head["height"] <= player["y"] + 1
            and player["y"] + player["height"] <= stack["y"] + 1
        )

    # -- the tablet's legal actions ----------------------------------------------------------

    def legal_buttons(self) -> dict[str, WebElement]:
        """The action buttons the tablet shows, by their action's text ("Call 10" of "Seat 5 ·
        Call 10"), once they take taps (a new state holds them ~400 ms, tablet.js)."""
        self.until(lambda: not self.css("#actions.settling"), "the action buttons to settle")
        return {
            button.find_element("css selector", ".act-label").text: button
            for button in self.css("#actions button.act")
        }

    def to_act(self) -> str:
        return self.text("to-act")

    def act(self, seat: int, label: str, cards: str | None = None) -> None:
        """Checks that ``seat`` is shown to act with a button ``label``, types the cards if
        any, presses it, and waits for the table's next version."""
        version = self.version()
        self.until(lambda: f"Seat {seat}" in self.to_act(), f"seat {seat} to act")
        buttons = self.until(lambda: label in self.legal_buttons() and self.legal_buttons(), label)
        assert label in buttons, f"{label!r} not among {sorted(buttons)}"
        if cards is not None:
            self.type("show-cards", cards)
        assert self.seat_stacked(seat), f"seat {seat}'s box, to act, is not laid out as the others"
        buttons[label].click()
        shown = f"the page to show v{version + 1}"
        self.until(lambda: self.version() == version + 1 or self.held_tap(), shown)
        assert not self.held_tap(), self.held_tap()  # the hold turned the tap away

    def held_tap(self) -> str:
        """The message of a tap the tablet's hold turned away ("Not entered: ..."), or ""."""
        text = self.driver.execute_script(
            "const m = document.getElementById('message'); return m.hidden ? '' : m.textContent"
        )
        return str(text) if "Not entered:" in str(text) else ""

    def banner(self) -> WebElement:
        return self.until(
            lambda: self.by_id("problem").is_displayed() and self.by_id("problem"), "the banner"
        )

    def message(self) -> str:
        return str(
            self.until(
                lambda: self.by_id("message").is_displayed() and self.text("message"), "a message"
            )
        )


NETWORK_STATUS = re.compile(r"status of (\d{3})")


class Console:
    """The browser's console during one test: every SEVERE entry fails the test, except a
    refused request whose status the test expects (chromium logs each 4xx as SEVERE)."""

    def __init__(self, driver: WebDriver) -> None:
        self.driver = driver
        self.expected: set[int] = set()
        driver.get_log("browser")  # start from an empty log

    def expect(self, *statuses: int) -> None:
        self.expected.update(statuses)

    def severe(self) -> list[str]:
        found = []
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            status = NETWORK_STATUS.search(entry["message"])
            if entry.get("source") == "network" and status and int(status[1]) in self.expected:
                continue
            found.append(f"{entry.get('source')}: {entry['message']}")
        return found


@pytest.fixture
def console(browser: WebDriver) -> Iterator[Console]:
    watched = Console(browser)
    yield watched
    time.sleep(0.1)  # let the last answer's handlers run before reading the log
    assert watched.severe() == []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A browser test that fails leaves a screenshot and the page's HTML in its tmp_path,
    named in the failure's report."""
    report = yield
    page = getattr(item, "funcargs", {}).get("page")
    if report.when == "call" and report.failed and isinstance(page, Page):
        folder = item.funcargs["tmp_path"]
        page.driver.save_screenshot(str(folder / "failure.png"))
        (folder / "failure.html").write_text(page.driver.page_source)
        where = f"{page.driver.current_url}: {folder}/failure.png and failure.html"
        report.sections.append(("browser", where))
    return report


@pytest.fixture
def page(
    browser: WebDriver,
    service: Served,
    downloads: Path,
    console: Console,
    tmp_path: Path,
) -> Iterator[Page]:
    """The browser on the served instance, with its console watched; left on a blank page
    (tmp_path: where a failure's screenshot goes)."""
    yield Page(browser, service, downloads)
    browser.get("about:blank")


# docs/screenshots is written only when asked (`make screenshots`: the pictures the
# documentation shows); an ordinary run writes the same shots to a scratch folder, so a test
# run leaves the work tree as it found it
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS = (
    DOCS_SCREENSHOTS
    if os.environ.get("DEALERASSIST_UPDATE_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "dealerassist-screenshots"
)
LANDSCAPE = (1024, 768)
PORTRAIT = (768, 1024)
DEFAULT_WINDOW = (1280, 1024)


# axe-core for the accessibility checks: the npm registry's package, vendored in
# tests/e2e/axe (its licence, MPL-2.0, beside it; `make axe AXE_VERSION=...` replaces it), so
# the browser tests run offline; only the tests inject it, the service never serves it
AXE = Path(__file__).resolve().parent / "axe"
AXE_VERSION = (AXE / "VERSION").read_text().strip()
# WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2's own A rules are tagged wcag2a or wcag21a),
# and axe's best practices
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_RUN = """
const tags = arguments[0];
const done = arguments[arguments.length - 1];
axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
  .then((results) => done({ version: axe.version, violations: results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) })) }))
  .catch((error) => done({ error: String(error) }));
"""


def serious_accessibility_findings(driver: WebDriver) -> list[str]:
    """axe-core (tests/e2e/axe, the version in its VERSION file) on the page as it stands:
    each serious or critical violation of AXE_TAGS as "impact rule: help (targets)"."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script((AXE / "axe.min.js").read_text())
    driver.set_script_timeout(60)
    found = driver.execute_async_script(AXE_RUN, AXE_TAGS)
    assert "error" not in found, found
    assert found["version"] == AXE_VERSION, found["version"]
    return [
        f"{v['impact']} {v['id']}: {v['help']} ({v['targets']})"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# The top bar as it stands (``const topBar``; ``return topBar`` to get it alone): its boxes
# (the brand, the pages, the table, the dealer on duty and the shift's buttons, the language)
# grouped into the lines they sit on, its height, and two lines' worth of that height.
TOP_BAR = """
const topBar = (() => {
  const bar = document.querySelector("header.topbar");
  const shown = (n) => n.checkVisibility() && !n.closest("[hidden]");
  const boxes = [...bar.querySelectorAll(
    ".brand, nav a, #session-label, .shift-bar > *, #logout, #lang-select")].filter(shown)
    .map((n) => n.getBoundingClientRect()).filter((r) => r.height > 0);
  const lines = [];
  for (const r of boxes.sort((a, b) => a.top - b.top)) {
    const line = lines.find((l) => r.top < l.bottom - 1 && r.bottom > l.top + 1);
    if (!line) { lines.push({ top: r.top, bottom: r.bottom }); continue; }
    line.top = Math.min(line.top, r.top);
    line.bottom = Math.max(line.bottom, r.bottom);
  }
  const style = getComputedStyle(bar);
  const tallest = Math.max(...boxes.map((r) => r.height));
  const two = 2 * tallest + parseFloat(style.rowGap || "0") + parseFloat(style.paddingTop)
    + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + 1;
  return { bar: Math.round(bar.getBoundingClientRect().height), lines: lines.length,
           two: Math.round(two) };
})();
"""


def set_viewport(driver: WebDriver, size: tuple[int, int] | None) -> None:
    """The page's viewport exactly ``size`` (CSS px; a window size would include the
    browser's own frame), or the window's again with ``None``."""
    if size is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return
    width, height = size
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def screenshot(driver: WebDriver, name: str) -> None:
    """docs/screenshots/<name>.png of the viewport, scrolled to the top."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def fits_width(driver: WebDriver) -> bool:
    """No horizontal scrolling: the page is no wider than the window."""
    return bool(
        driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    )
