"""Dealer tablet benchmark: a refusal (409) as a dealer at speed meets it, in Spanish, French
and English, in headless Chromium against `dealerassist serve`.

A registered tablet (paired, the dealer signed in on the keypad) at a five-card draw
showdown: seat 3 is entered as showing a card seat 1 showed (DECK-01). The dealer then

* reads the refusal banner (the screenshots at 1024x768 and 768x1024 are taken here);
* reloads the page with the banner up: the banner must come back, with its button;
* taps the banner's button that sends the refused entry to the floor twice in quick
  succession (a double tap, 60 ms apart): one floor call only, the banner gives way to the
  "Floor called" message.

Timed in the page: from the Show tap's pointerdown to the frame after the banner is on
screen, from the reload's navigation start to the frame after the banner is back, and from
the first tap on the banner's button to the frame after the message replaced the banner.
Each language is run ``--runs`` times (a fresh table each); the medians and maxima are
printed, with the taps each step took and the floor calls the double tap made.

    .venv/bin/python bench/tablet_refusal.py [--runs 5] [--screenshots docs/screenshots]

The screenshots of the last run go to --screenshots as tablet-<lang>-refused-<w>x<h>.png
for Spanish (the ones docs/pages.md shows) and to a scratch folder for the others.
Needs /usr/bin/chromium and /usr/bin/chromedriver. Redis: serve's embedded one.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.remote.webdriver import WebDriver
from tablet_taps import TABLE, Dealer, Service_, chromium, viewport

PLAYERS = {1: "Ann", 2: "Bob", 3: "Cy"}
KINGS = "Kc Kd 7s 4h 2c"
REFUSED = "Kc Qh Js 8d 3c"  # Kc is seat 1's: DECK-01
TO_SHOWDOWN: list[dict[str, Any]] = [
    {"seat": 2, "action": "post"},
    {"seat": 3, "action": "post"},
    {"seat": 1, "action": "raise", "amount": 4},
    {"seat": 2, "action": "fold"},
    {"seat": 3, "action": "call"},
    {"seat": 3, "action": "draw", "count": 2},
    {"seat": 1, "action": "draw", "count": 0},
    {"seat": 3, "action": "check"},
    {"seat": 1, "action": "bet", "amount": 4},
    {"seat": 3, "action": "call"},
    {"seat": 1, "action": "show", "cards": KINGS},
]
SHOW = {"en": "Show", "es": "Mostrar", "fr": "Montrer"}
PIN = "4821"
SIZES = [(1024, 768), (768, 1024)]

# installed in every document (a reload too): the time from a tap's pointerdown (or the
# navigation's start) to the frame after what the bench waits for (window.__want) is shown
HOOK = """
window.__times = []; window.__t0 = 0; // a reload's clock starts at its navigation
window.__want = sessionStorage.getItem("bench.want"); sessionStorage.removeItem("bench.want");
document.addEventListener("pointerdown", () => {
  if (window.__t0 === null) window.__t0 = performance.now();
}, true);
const WANTS = {
  banner: () => { const p = document.getElementById("problem");
    return p && !p.hidden && p.querySelector(".rule-id"); },
  called: () => {
    const p = document.getElementById("problem"), m = document.getElementById("message");
    return p && m && p.hidden && !m.hidden && m.textContent.trim(); },
};
const look = () => {
  const want = window.__want;
  if (!want || window.__t0 === null || !WANTS[want]()) return;
  const t0 = window.__t0;
  window.__want = null;
  requestAnimationFrame(() => window.__times.push([want, performance.now() - t0]));
};
document.addEventListener("DOMContentLoaded", () => {
  const all = { subtree: true, childList: true, attributes: true, characterData: true };
  new MutationObserver(look).observe(document.body, all);
  look();
});
"""


def wait_for(dealer: Dealer, want: str, seconds: float = 15) -> float:
    """The time (ms) the hook measured for ``want``."""
    times = dealer.until(
        lambda: [t for w, t in dealer.driver.execute_script("return window.__times") if w == want],
        want,
        seconds,
    )
    return float(times[-1])


def expect(driver: WebDriver, want: str) -> None:
    """The next pointerdown starts the clock for ``want``."""
    driver.execute_script("window.__t0 = null; window.__want = arguments[0];", want)


def send_button(dealer: Dealer) -> Any:
    """The banner's button that sends the refused entry to the floor."""
    return dealer.until(
        lambda: next(
            iter(dealer.css("#problem button.send-entry") or dealer.css("#problem button.primary")),
            None,
        ),
        "the banner's floor button",
    )


def sign_in(service: Service_, dealer: Dealer, lang: str, table_id: str) -> None:
    """A fresh tablet paired for ``table_id`` and the dealer signed in on the keypad."""
    driver = dealer.driver
    code = service.call("POST", "/v1/tablets", "admin", {"name": "Bank A", "tables": [table_id]})[
        "pairing_code"
    ]
    driver.get(f"{service.base}/healthz")
    driver.execute_script("localStorage.clear(); sessionStorage.clear()")
    driver.delete_all_cookies()
    driver.get(f"{service.base}/tablet?lang={lang}")
    dealer.until(lambda: driver.find_element("id", "pair").is_displayed(), "the pairing form")
    driver.find_element("id", "pair-code").send_keys(code)
    driver.find_element("css selector", "#pair-form button[type=submit]").click()
    dealer.until(lambda: driver.find_element("id", "shift-login").is_displayed(), "the sign-in")
    driver.find_element("id", "sign-in-employee").send_keys("E100")
    driver.find_element("id", "sign-in-pin").click()
    for digit in PIN:
        driver.find_element("css selector", f'#keypad .key[data-key="{digit}"]').click()
    driver.find_element("id", "sign-in-send").click()
    dealer.until(lambda: driver.find_element("id", "main").is_displayed(), "the table")


def run(
    service: Service_, driver: WebDriver, lang: str, table_id: str, shots: Path | None
) -> dict[str, Any]:
    """One refusal in ``lang``: its times, taps and the floor calls the double tap made."""
    service.call("POST", "/v1/tables", "admin", {"table_id": table_id, **TABLE})
    for seat, player in PLAYERS.items():
        body = {"player": player, "stack": 100}
        service.call("PUT", f"/v1/tables/{table_id}/seats/{seat}", "dealer", body)
    service.call("POST", f"/v1/tables/{table_id}/hands", "dealer", {"button": 1})
    for entry in TO_SHOWDOWN:
        service.call("POST", f"/v1/tables/{table_id}/actions", "dealer", entry)
    dealer = Dealer(driver, "typed")
    viewport(driver, *SIZES[0])
    sign_in(service, dealer, lang, table_id)
    dealer.taps = 0

    def show_button() -> Any:
        if dealer.css("#actions.settling"):
            return None
        for button in dealer.css("#actions button.act"):
            if button.find_element("css selector", ".act-label").text == SHOW[lang]:
                return button
        return None

    dealer.until(show_button, "the Show button")
    dealer.type(dealer.until(lambda: dealer.css("#show-cards")[0], "the cards field"), REFUSED)
    expect(driver, "banner")
    dealer.tap(dealer.until(show_button, "the Show button"))
    refused = wait_for(dealer, "banner")
    taps_refused = dealer.taps
    send_button(dealer)
    if shots is not None:
        for width, height in SIZES:
            viewport(driver, width, height)
            time.sleep(0.3)  # the layout at the new size
            driver.save_screenshot(str(shots / f"tablet-{lang}-refused-{width}x{height}.png"))
        viewport(driver, *SIZES[0])

    driver.execute_script("sessionStorage.setItem('bench.want', 'banner')")
    driver.refresh()
    try:
        reload_ms: float | None = wait_for(dealer, "banner", seconds=5)
    except TimeoutException:  # the banner did not come back: the dealer enters it again
        reload_ms = None
    dealer.taps = 0
    if reload_ms is None:
        dealer.type(dealer.until(lambda: dealer.css("#show-cards")[0], "the cards field"), REFUSED)
        expect(driver, "banner")
        dealer.tap(dealer.until(show_button, "the Show button"))
        wait_for(dealer, "banner")
    calls_before = len(
        service.call("GET", f"/v1/floor/calls?table_id={table_id}", "floor")["calls"]
    )
    button = send_button(dealer)
    expect(driver, "called")
    ActionChains(driver).click(button).pause(0.06).click().perform()
    dealer.taps += 2
    called_ms = wait_for(dealer, "called")
    time.sleep(0.5)  # a second call, had the double tap made one, is in the list by now
    calls = service.call("GET", f"/v1/floor/calls?table_id={table_id}", "floor")["calls"]
    return {
        "refused": refused,
        "reload": reload_ms,
        "called": called_ms,
        "taps_refused": taps_refused,
        "taps_called": dealer.taps,
        "calls": len(calls) - calls_before,
        "entry": calls[-1].get("entry") if calls else None,
    }


def summary(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return "never"
    missing = f", {len(values) - len(known)} never" if len(known) < len(values) else ""
    return f"median {statistics.median(known):.0f} ms, max {max(known):.0f} ms{missing}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshots", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--langs", default="es,fr,en")
    args = parser.parse_args()
    args.screenshots.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.gettempdir()) / "dealerassist-screenshots"
    scratch.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        service = Service_(Path(folder))
        service.call("PUT", "/v1/dealers/E100", "admin", {"name": "Dana Ünal", "pin": PIN})
        driver = chromium()
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        results: dict[str, list[dict[str, Any]]] = {}
        try:
            for lang in args.langs.split(","):
                results[lang] = []
                for n in range(args.runs):
                    last = n == args.runs - 1
                    shots = (args.screenshots if lang == "es" else scratch) if last else None
                    results[lang].append(run(service, driver, lang, f"R{lang}{n}", shots))
        finally:
            driver.quit()
            service.stop()
    for lang, runs in results.items():
        first = runs[0]
        again = "" if first["reload"] else ", after entering it again"
        print(f"{lang}: {len(runs)} runs; taps to the refusal {first['taps_refused']} (the cards "
              f"field, the Show button; {len(REFUSED)} keystrokes), to the floor "
              f"{first['taps_called']} (a double tap{again}); floor calls a double tap made: "
              f"{sorted({r['calls'] for r in runs})}")  # fmt: skip
        print(f"  Show tap to the banner:        {summary([r['refused'] for r in runs])}")
        print(f"  reload to the banner back:     {summary([r['reload'] for r in runs])}")
        print(f"  banner's tap to Floor called:  {summary([r['called'] for r in runs])}")
    print(f"screenshots: {args.screenshots}/tablet-es-refused-*.png, {scratch}/tablet-*-refused-*")


if __name__ == "__main__":
    main()
