"""Dealer tablet benchmark: taps and keystrokes for a typical hand, and the time from a tap
to the updated screen, in headless Chromium against `dealerassist serve`.

The hand: five-card draw, five players (Ann..Eve on seats 1-5, 500 each, button on seat 1),
the blinds posted, three calls and a check, each seat draws (1, 2, 3, pat, 1), a bet, a call,
a fold, a call, a fold after the draw, then the showdown of the three seats left. Played
through the tablet's buttons in count mode and in card mode (every card dealt entered), two
ways each:

* ``typed``: every card typed in its field (one tap to focus the field, one keystroke per
  character), as the tablet took cards before its card picker;
* ``picker``: every card tapped in the card picker's deck grid; at the showdown of card
  mode the tablet fills in the cards it dealt the seat, to confirm with one tap.

Each tap that records an entry is timed from its pointerdown to the frame after the new
table version is on screen (the tablet's ``#table-summary`` redrawn): median and p95 over
every entry of every run. The run also saves docs/screenshots/tablet-landscape.png (count
mode, 1024x768, the draw) and tablet-portrait.png (card mode, 768x1024, a deal with the
picker).

    .venv/bin/python bench/tablet_taps.py [--screenshots docs/screenshots]

Needs /usr/bin/chromium and /usr/bin/chromedriver. Redis: serve's embedded one.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from dealerassist.api.auth import read_plain_tokens

PLAYERS = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"}
TABLE = {
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}
# the cards each seat is dealt (card mode) and shows; the draw's discards and new cards
DEALT = {
    2: "Ah Ad 9c 7h 2c",
    3: "Ks Kh Js 8d 3c",
    4: "Qs Qh 9s 8h 4c",
    5: "Tc Jc Qc Kc 2d",
    1: "5s 5h 6d 7d 3h",
}
DRAWS = {2: ("2c", "As"), 3: ("8d 3c", "Kd 4s"), 4: ("9s 8h 4c", "Qd 6s 6h"), 5: ("", ""),
         1: ("3h", "5d")}  # fmt: skip
# (seat, action, extra): the entries in order; deals (card mode only) come from DEALT/DRAWS
PLAN: list[tuple[int, str, dict[str, Any]]] = [
    (2, "post", {}), (3, "post", {}),
    (4, "call", {}), (5, "call", {}), (1, "call", {}), (2, "call", {}), (3, "check", {}),
    (2, "draw", {"count": 1}), (3, "draw", {"count": 2}), (4, "draw", {"count": 3}),
    (5, "draw", {"count": 0}), (1, "draw", {"count": 1}),
    (2, "check", {}), (3, "check", {}), (4, "bet", {}), (5, "call", {}), (1, "fold", {}),
    (2, "call", {}), (3, "fold", {}),
]  # fmt: skip
LABELS = {"post": "Post", "call": "Call", "check": "Check", "bet": "Bet", "fold": "Fold",
          "show": "Show", "deal": "Dealt"}  # fmt: skip

LATENCY_HOOK = """
if (!window.__taps) {
  window.__taps = []; window.__t0 = null;
  document.addEventListener("pointerdown", () => { window.__t0 = performance.now(); }, true);
  new MutationObserver(() => {
    const v = document.querySelector("#table-summary .version");
    if (!v || v.textContent === window.__v) return;
    window.__v = v.textContent;
    const t0 = window.__t0;
    if (t0 === null) return;
    window.__t0 = null;
    requestAnimationFrame(() => window.__taps.push(performance.now() - t0));
  }).observe(document.getElementById("table-summary"), { childList: true, subtree: true });
}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Service_:
    """`dealerassist serve` on a free port with its own data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env["DEALERASSIST_DATA_DIR"] = str(data_dir)
        command = [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--workers", "2"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        self.tokens = read_plain_tokens(data_dir / "tokens.toml")

    def call(self, method: str, path: str, who: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.tokens[who]}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def chromium() -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Dealer:
    """The dealer at the tablet: every tap and keystroke counted."""

    def __init__(self, driver: WebDriver, method: str) -> None:
        self.driver = driver
        self.method = method
        self.taps = 0
        self.keys = 0

    def until(self, condition: Any, what: str, seconds: float = 15) -> Any:
        def check(_: WebDriver) -> Any:
            try:
                return condition()
            except StaleElementReferenceException:
                return None

        return WebDriverWait(self.driver, seconds).until(check, f"timed out waiting for {what}")

    def css(self, selector: str) -> list[WebElement]:
        return self.driver.find_elements("css selector", selector)

    def version(self) -> int:
        text = self.until(lambda: self.css("#table-summary .version")[0].text, "the version")
        return int(text.lstrip("v"))

    def tap(self, element: WebElement) -> None:
        self.taps += 1
        element.click()

    def type(self, element: WebElement, text: str) -> None:
        self.tap(element)  # to focus the field
        element.send_keys(text)
        self.keys += len(text)

    def button(self, seat: int, label: str) -> WebElement:
        """The action button for ``seat`` whose action text starts with ``label``."""

        def find() -> WebElement | None:
            if self.css("#actions.settling"):
                return None
            for button in self.css("#actions button.act"):
                seat_part = button.find_elements("css selector", ".act-seat")
                text = button.find_element("css selector", ".act-label").text
                if (
                    seat_part
                    and seat_part[0].text.startswith(f"Seat {seat} ")
                    and text.startswith(label)
                ):
                    return button
            return None

        found: WebElement = self.until(find, f"seat {seat} {label}")
        return found

    def cards(self, field_id: str, cards: str, prefilled: bool = False) -> None:
        field = self.until(
            lambda: self.css(f"#{field_id}") and self.css(f"#{field_id}")[0], field_id
        )
        if self.method == "typed":
            field.clear()
            self.type(field, cards)
            return
        if prefilled and field.get_attribute("value") == cards:
            return  # the tablet filled in the cards it dealt
        if field.get_attribute("value"):
            self.tap(self.until(lambda: self.css("#picker .picker-head button")[0], "Clear"))
        if "picking" not in (field.get_attribute("class") or ""):
            self.tap(field)  # the picker serves the field tapped (the first one by itself)
        for card in cards.split():
            self.tap(
                self.until(lambda c=card: self.css(f'#picker button[data-card="{c}"]')[0], card)
            )

    def enter(self, button: WebElement) -> None:
        version = self.version()
        self.tap(button)
        self.until(lambda: self.version() > version, "the entry on screen")


def play(service: Service_, driver: WebDriver, table_id: str, mode: str, method: str,
         shot: Path | None, shot_at: str) -> dict[str, Any]:  # fmt: skip
    """One hand through the tablet; the taps, keystrokes and latencies."""
    service.call("POST", "/v1/tables", "admin", {"table_id": table_id, **TABLE, "mode": mode})
    for seat, player in PLAYERS.items():
        body = {"player": player, "stack": 500}
        service.call("PUT", f"/v1/tables/{table_id}/seats/{seat}", "dealer", body)
    driver.get(f"{service.base}/tablet")
    driver.execute_script("sessionStorage.clear()")
    driver.get(f"{service.base}/tablet")
    driver.find_element("id", "login-token").send_keys(service.tokens["dealer"])
    driver.find_element("id", "login-table").send_keys(table_id)
    driver.find_element("css selector", "#login-form button[type=submit]").click()
    dealer = Dealer(driver, method)
    dealer.until(lambda: driver.find_element("id", "start-hand").is_displayed(), "Start hand")
    driver.execute_script(LATENCY_HOOK)
    dealer.type(driver.find_element("id", "start-button"), "1")
    dealer.enter(driver.find_element("id", "start-hand"))
    card_mode = mode == "card"
    for seat, action, extra in PLAN:
        if action == "draw":
            count = extra["count"]
            discards, new = DRAWS[seat]
            if card_mode and count:
                dealer.cards("discards", discards)
            label = "Pat" if count == 0 else f"Draws {count}"
            if shot is not None and shot_at == "draw":
                dealer.until(lambda: not dealer.css("#actions.settling"), "settled")
                driver.save_screenshot(str(shot))
                shot = None
            dealer.enter(dealer.button(seat, label))
            if card_mode and count:
                dealer.cards("deal-cards", new)
                dealer.enter(dealer.button(seat, "Dealt"))
            continue
        dealer.enter(dealer.button(seat, LABELS[action]))
        if card_mode and action == "post" and seat == 3:
            for dealt in (2, 3, 4, 5, 1):
                dealer.cards("deal-cards", DEALT[dealt])
                if shot is not None and shot_at == "deal" and dealt == 4:
                    dealer.until(lambda: not dealer.css("#actions.settling"), "settled")
                    driver.save_screenshot(str(shot))
                    shot = None
                dealer.enter(dealer.button(dealt, "Dealt"))
    while True:  # the showdown: each seat left shows its hand after the draw
        table = service.call("GET", f"/v1/tables/{table_id}", "floor")
        if table["hand"]["phase"] == "complete":
            break
        seat = table["next"]["seat"]
        held = {s: c.split() for s, c in DEALT.items()}
        discards, new = DRAWS[seat]
        hand = [c for c in held[seat] if c not in discards.split()] + new.split()
        dealer.cards("show-cards", " ".join(hand), prefilled=True)
        dealer.enter(dealer.button(seat, "Show"))
    taps = driver.execute_script("return window.__taps")
    return {"taps": dealer.taps, "keys": dealer.keys, "latencies": list(taps)}


def viewport(driver: WebDriver, width: int, height: int) -> None:
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args()
    args.screenshots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        service = Service_(Path(folder))
        driver = chromium()
        try:
            results = {}
            latencies: list[float] = []
            runs = [("count", "typed"), ("count", "picker"), ("card", "typed"), ("card", "picker")]
            for n, (mode, method) in enumerate(runs):
                shot, at = None, ""
                if (mode, method) == ("count", "picker"):
                    viewport(driver, 1024, 768)
                    shot, at = args.screenshots / "tablet-landscape.png", "draw"
                elif (mode, method) == ("card", "picker"):
                    viewport(driver, 768, 1024)
                    shot, at = args.screenshots / "tablet-portrait.png", "deal"
                else:
                    viewport(driver, 1024, 768)
                result = play(service, driver, f"B{n}", mode, method, shot, at)
                results[(mode, method)] = result
                latencies += result["latencies"]
        finally:
            driver.quit()
            service.stop()
    print("taps per hand (five-card draw, 5 players, to the showdown):")
    for (mode, method), result in results.items():
        print(f"  {mode:5} mode, cards {method:6}: {result['taps']:3} taps, "
              f"{result['keys']:3} keystrokes, {len(result['latencies'])} entries")  # fmt: skip
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    print(f"tap to updated screen over {len(ordered)} entries: median {median:.0f} ms, "
          f"p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
