"""A whole hand on the dealer tablet in Spanish and in French, in a browser, and the floor
console that answers its call: the tablet is paired and the dealer signs in on the keypad,
the blinds are posted, seat 1 raises, the draw, the bets after it, a refused show (DECK-01)
sent to the floor from the banner, the showdown with the hands named in the room's words,
and a call from the dock's "Call the floor" dialog.

At every phase, at 1024x768 and at 768x1024, the test holds the page to:

- no English word of the pages' own strings on screen: the words of every English msgid of
  the ``messages`` and ``scripts`` catalogs (visible text, ``aria-label``, ``title`` and
  ``placeholder``), but an allow-list of proper names (the players, the tablet), rule IDs
  and words the room says the same in that language;
- every action button (and Undo, "Call the floor", "Start hand") on screen without
  scrolling, no text cut off and no horizontal scrolling.

What the service writes (the dealer's instructions, a refusal's title and detail, the
engine's notices, the floor's ruling options) comes rendered in the page's language
(``api/language.py``) and is held to the same check, the words of the ``rules`` catalog's
English among the ones looked for; a code shown as such (``<code>``, an entry's name like
``boxed_card``) is a name. The screenshots go where conftest's ``screenshot`` puts
them (``tablet-<lang>-<phase>-<width>x<height>.png``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from selenium.webdriver.common.action_chains import ActionChains

from e2e.conftest import (
    FIVE_CARD_DRAW,
    KINGS,
    LANDSCAPE,
    PORTRAIT,
    QUEENS,
    TOP_BAR,
    Console,
    Page,
    Served,
    fits_width,
    screenshot,
    set_viewport,
)

TRANSLATIONS = Path(__file__).resolve().parents[2] / "dealerassist" / "translations"

# the elements whose text the service wrote (shown as received, see the module's docstring)
SERVER_TEXT = ["code"]  # a code shown as the ID it is (a ruling option's decision)

# Words of the English msgids that are on screen in that language too: proper names and
# codes, and the room's own words (the floor, a kill, the ante are the same in Spanish and
# French rooms; straddle is the Spanish room's word, surblind the French).
ALLOWED_ALL = {
    "ann", "bob", "cy", "dana", "bank", "e100",  # the players, the dealer, the tablet
    "pin", "id", "floor", "kill", "ante", "min", "max", "dealerassist",
    "sessionstorage",  # the browser's storage by its name
    "th", "ah", "td", "kc", "kd", "qs", "qh", "js", "jk",  # cards as the dealer types them
}  # fmt: skip
ALLOWED = {
    "es": ALLOWED_ALL | {"straddle", "as", "full", "token", "antes", "no"},  # Spanish words too
    "fr": ALLOWED_ALL | {
        "table", "tables", "note", "pot", "session", "phase", "audit", "as", "six", "joker",
        "no", "limit",  # "No limit", "Pot limit": the French room's names of the structures
        "console", "code", "page", "option", "options", "message", "service", "main", "mode",
        "action", "actions", "direction", "date", "pots",
        "suit",  # "il suit" (he calls), not the cards' suit
        "face", "plus", "non",  # "face visible", "deux ou plus", "non autorisée"
        "max", "min", "full", "profil",
    },
}  # fmt: skip

# HAND (conftest) by its buttons in each language: the room's words
BUTTONS = {
    "es": [
        "Poner 1 (ciega pequeña)",
        "Poner 2 (ciega grande)",
        "Subir a 4",
        "Retirarse",
        "Igualar 2",
        "Pide 2",
        "Se planta (golpe en la mesa)",
        "Pasar",
        "Apostar 4",
        "Igualar 4",
        "Mostrar",
    ],
    "fr": [
        "Poser 1 (petite blinde)",
        "Poser 2 (grosse blinde)",
        "Relance à 4",
        "Se coucher",
        "Suivre 2",
        "Tire 2",
        "Servi (un coup sur la table)",
        "Parole",
        "Miser 4",
        "Suivre 4",
        "Montrer",
    ],
}
SEATS = [2, 3, 1, 2, 3, 3, 1, 3, 1, 3, 1]  # the seat to act at each button
WORDS = {
    "es": {
        "seat": "Asiento {seat}",
        "floor": "Llamar al floor",
        "send": "Enviar esta jugada al floor",
        "called": "Floor llamado",
        "kings": "pareja de reyes",
        "sign_in": "Entrada del crupier",
        "dealer": "Crupier Dana Ünal (E100)",
    },
    "fr": {
        "seat": "Siège {seat}",
        "floor": "Appeler le floor",
        "send": "Envoyer cette action au floor",
        "called": "Floor appelé",
        "kings": "paire de rois",
        "sign_in": "Connexion du croupier",
        "dealer": "Croupier Dana Ünal (E100)",
    },
}
WORD = re.compile(r"[A-Za-zÀ-ÿ]+(?:'[A-Za-zÀ-ÿ]+)?")
# IDs are names, not words: a rule ID (DECK-01), a profile ID (casino-five-card-draw), an
# actor (tablet:t-ae0b2576), a call's ID (a029f66828be43ff), an entry's code the engine names
# (boxed_card)
IDS = re.compile(
    r"\b[A-Z]{3,5}-\d{2}\b|\b[a-z0-9]+(?:-[a-z0-9]+){2,}\b|\b[a-z]+:[\w-]+|\b[0-9a-f]{12,}\b"
    r"|\b[a-z]+(?:_[a-z0-9]+)+\b"
)
PIN = "4821"


@cache
def english_words() -> frozenset[str]:
    """The words (two letters or more, lower case) of the pages' English msgids."""
    words: set[str] = set()
    for domain in ("messages", "scripts", "rules"):
        with (TRANSLATIONS / "es" / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
            for message in read_po(po):
                if not message.id:
                    continue
                ids = (message.id,) if isinstance(message.id, str) else message.id
                text = re.sub(r"\{\w+\}", " ", " ".join(ids))
                words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) >= 2)
    return frozenset(words)


# The visible text of the page (text nodes under a visible element) and the names, titles and
# placeholders of visible elements, leaving out the elements of the service's own text.
ON_SCREEN = """
const skip = arguments[0];
const shown = (node) => node.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })
  && !node.closest("[hidden], dialog:not([open])");
const server = (node) => skip.some((selector) => node.closest(selector));
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let text = walker.nextNode(); text; text = walker.nextNode()) {
  const parent = text.parentElement;
  if (!parent || !text.textContent.trim() || ["SCRIPT", "STYLE"].includes(parent.tagName)) continue;
  if (parent.closest("option") ? !shown(parent.closest("select")) : !shown(parent)) continue;
  if (!server(parent)) out.push(text.textContent);
}
for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [data-pot]")) {
  if (!shown(node) || server(node)) continue;
  for (const name of ["aria-label", "title", "placeholder", "data-pot"]) {
    if (node.getAttribute(name)) out.push(node.getAttribute(name));
  }
}
out.push(document.title);
return out;
"""

# Every control the dealer taps to go on, on screen without scrolling and not covered.
OFF_SCREEN = """
const out = [];
const wanted = "#actions button.act, #to-act button, #call-floor, #start-hand";
for (const b of document.querySelectorAll(wanted)) {
  if (!b.checkVisibility() || b.closest("[hidden]")) continue;
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight
    && r.right <= window.innerWidth;
  if (!inside || !b.contains(hit)) out.push(`${b.id || b.className}: ${b.textContent}`);
}
return out;
"""

# as test_tablet_seatmap's: a box that hides what does not fit (a visually hidden heading is
# clipped on purpose: it is for a screen reader)
CLIPPED = """
const out = [];
for (const node of document.querySelectorAll("body *")) {
  const style = getComputedStyle(node);
  const away = node.closest("[hidden], dialog:not([open]), .visually-hidden");
  if (style.display === "none" || away) continue;
  const cut = (o) => o === "hidden" || o === "clip";
  const wide = cut(style.overflowX) && node.scrollWidth > node.clientWidth + 1;
  const tall = cut(style.overflowY) && node.scrollHeight > node.clientHeight + 1;
  const name = `${node.tagName}#${node.id}.${node.className}`;
  if (wide || tall) out.push(`${name}: ${node.textContent.slice(0, 40)}`);
}
return out;
"""


# the innermost elements that reach past the window's right edge
WIDER = """
return [...document.querySelectorAll("body *")].filter((n) => n.getBoundingClientRect().right
  > window.innerWidth + 1 && ![...n.children].some((c) => c.getBoundingClientRect().right
  > window.innerWidth + 1)).slice(0, 8).map((n) => `${n.tagName}#${n.id}.${n.className}: `
  + `${Math.round(n.getBoundingClientRect().right)} ${n.textContent.slice(0, 50)}`);
"""


def english_on_screen(page: Page, lang: str) -> list[str]:
    """The English words of the pages' strings on screen (each with its text)."""
    texts: list[str] = page.driver.execute_script(ON_SCREEN, SERVER_TEXT)
    english = english_words() - ALLOWED[lang]
    found = []
    for text in texts:
        for word in WORD.findall(IDS.sub(" ", text)):
            if word.lower() in english:
                found.append(f"{word!r} in {text.strip()[:400]!r}")
    return found


def check(page: Page, lang: str, phase: str, buttons: bool = True) -> None:
    """The page as it stands, in both orientations: no English of the pages' own, the
    controls on screen, nothing cut off, no sideways scrolling; a screenshot of each."""
    driver = page.driver
    try:
        for width, height in (LANDSCAPE, PORTRAIT):
            set_viewport(driver, (width, height))
            if buttons:
                page.until(lambda: not page.css("#actions.settling"), "the buttons to settle")
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot(driver, f"tablet-{lang}-{phase}-{width}x{height}")
            where = (lang, phase, width, height)
            left = english_on_screen(page, lang)
            assert left == [], (where, left)
            if buttons:
                assert driver.execute_script(OFF_SCREEN) == [], where
            assert driver.execute_script(CLIPPED) == [], where
            assert fits_width(driver), (where, driver.execute_script(WIDER))
    finally:
        set_viewport(driver, None)


@pytest.fixture
def clean_device(page: Page, service: Served) -> Iterator[None]:
    """No tablet registration, token, shift or language left behind for the next test (the
    browser is shared; a later service may get the same origin)."""

    def clean() -> None:
        page.driver.get(f"{service.base}/healthz")
        page.driver.execute_script("localStorage.clear(); sessionStorage.clear()")
        page.driver.delete_all_cookies()

    clean()
    yield
    clean()
    set_viewport(page.driver, None)


def _legal(page: Page) -> dict[str, Any]:
    page.until(lambda: not page.css("#actions.settling"), "the action buttons to settle")
    return {
        button.find_element("css selector", ".act-label").text: button
        for button in page.css("#actions button.act")
    }


def _press(page: Page, lang: str, seat: int, label: str, cards: str | None = None) -> None:
    """Seat ``seat`` is shown to act with the button ``label``; the cards typed if any, the
    button pressed, the table's next version awaited."""
    version = page.version()
    seat_words = WORDS[lang]["seat"].format(seat=seat)
    page.until(lambda: seat_words in page.to_act(), f"{seat_words} to act")
    buttons = page.until(lambda: label in _legal(page) and _legal(page), label)
    if cards is not None:
        page.type("show-cards", cards)
    buttons[label].click()
    page.until(lambda: page.version() == version + 1, f"v{version + 1} after {label}")


def _sign_in(page: Page, service: Served, lang: str) -> None:
    """The tablet, paired with the admin's code and opened in ``lang``; the dealer signs in
    on the keypad."""
    service.call("PUT", "/v1/dealers/E100", "admin", {"name": "Dana Ünal", "pin": PIN})
    code = service.call("POST", "/v1/tablets", "admin", {"name": "Bank A", "tables": ["L1"]})[
        "pairing_code"
    ]
    page.driver.get(f"{service.base}/tablet?lang={lang}")
    page.until(lambda: page.by_id("pair").is_displayed(), "the pairing form")
    check(page, lang, "pair", buttons=False)
    page.type("pair-code", code)
    page.driver.find_element("css selector", "#pair-form button[type=submit]").click()
    page.until(lambda: page.by_id("shift-login").is_displayed(), "the dealer sign-in")
    assert WORDS[lang]["sign_in"] in page.text("shift-login")
    page.type("sign-in-employee", "E100")
    page.by_id("sign-in-pin").click()
    for digit in PIN:
        page.driver.find_element("css selector", f'#keypad .key[data-key="{digit}"]').click()
    check(page, lang, "sign-in", buttons=False)
    page.by_id("sign-in-send").click()
    page.until(lambda: page.by_id("main").is_displayed(), "the table")
    assert page.until(lambda: page.text("dealer-on-duty"), "the dealer") == WORDS[lang]["dealer"]


@pytest.mark.usefixtures("clean_device")
@pytest.mark.parametrize("lang", ["es", "fr"])
def test_a_whole_hand_on_the_tablet_in_the_dealers_language(
    page: Page, service: Served, console: Console, lang: str
) -> None:
    """Sign-in, posts, the raise, the draw, the bets, a refused show sent to the floor, the
    showdown with both hands named, a call from the dock; then the floor console lists the
    calls, all in ``lang`` (see the module's docstring for what is checked at each phase)."""
    console.expect(409)  # the refused show
    service.create_table("L1", {1: "Ann", 2: "Bob", 3: "Cy"})
    _sign_in(page, service, lang)
    assert page.driver.find_element("tag name", "html").get_attribute("lang") == lang
    page.shows_version(4)
    check(page, lang, "between-hands")
    page.type("start-button", "1")
    page.by_id("start-hand").click()
    page.shows_version(5)
    labels = BUTTONS[lang]
    phases = {0: "posting", 2: "betting", 5: "draw", 9: "after-draw", 10: "showdown"}
    for step, (seat, label) in enumerate(zip(SEATS, labels, strict=True)):
        if step in phases:
            check(page, lang, phases[step])
        if step == 10:  # seat 1 shows; then seat 3 is refused showing seat 1's king
            _press(page, lang, seat, label, KINGS)
            # the shown hand named in the room's words (hand_words.js), on seat 1's tile
            assert WORDS[lang]["kings"] in page.seat_texts()[1], page.seat_texts()
            continue
        _press(page, lang, seat, label)
        if step == 1:  # the deal: instructions in the page's area for them
            assert page.css("#instructions li.instr:not(.none)")

    refused = "Kc Qh Js 8d 3c"  # Kc is seat 1's
    version = page.version()
    page.until(lambda: WORDS[lang]["seat"].format(seat=3) in page.to_act(), "seat 3 to show")
    page.type("show-cards", refused)
    _legal(page)[labels[-1]].click()
    banner = page.banner()
    assert banner.find_element("css selector", ".rule-id").text == "DECK-01"
    assert page.version() == version
    check(page, lang, "refused")
    to_floor = next(b for b in page.css("#problem button") if b.text == WORDS[lang]["send"])
    to_floor.click()
    page.until(lambda: page.message().startswith(WORDS[lang]["called"]), "the floor called")
    check(page, lang, "floor-called")

    _press(page, lang, 3, labels[-1], QUEENS)
    page.until(lambda: page.by_id("result").is_displayed(), "the result")
    check(page, lang, "result")

    page.by_id("call-floor").click()
    page.until(lambda: page.by_id("floor-dialog").is_displayed(), "the floor dialog")
    check(page, lang, "floor-dialog", buttons=False)
    page.by_id("floor-send").click()
    page.until(lambda: WORDS[lang]["called"] in page.message(), "the call made")
    calls = service.call("GET", "/v1/floor/calls?table_id=L1", "floor")["calls"]
    assert len(calls) == 2

    # the floor console answers in the same language (the device's choice, kept in the cookie)
    page.open("floor", "floor", "L1")
    page.until(lambda: len(page.css("#calls article.call")) == 2, "the two calls")
    assert page.driver.find_element("tag name", "html").get_attribute("lang") == lang
    page.css("#calls article.call button")[0].click()
    page.until(lambda: page.by_id("call-detail").is_displayed(), "the call opened")
    check(page, lang, "floor", buttons=False)


# A refusal's banner as the dealer sees it: every element of it and every control of the
# dock inside the window, no element wider than its box, the message slot not scrolled
# (all of the banner in view), each button of the banner what a tap on its middle reaches.
REFUSAL_SHOWN = """
const out = [];
const name = (n) => `${n.tagName}#${n.id}.${n.className}: ${n.textContent.trim().slice(0, 40)}`;
const inside = (r) => r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5
  && r.right <= innerWidth + 0.5;
const shown = (n) => n.checkVisibility() && !n.closest("[hidden]");
const wanted = "#problem, #problem *, #dock-bar *, #actions button.act, #call-floor";
for (const node of document.querySelectorAll(wanted)) {
  if (!shown(node)) continue;
  const r = node.getBoundingClientRect();
  if (!inside(r)) out.push(`outside the window: ${name(node)} ${JSON.stringify(r)}`);
  if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0)
    out.push(`wider than its box: ${name(node)}`);
}
const slot = document.getElementById("msg-slot");
if (slot.scrollHeight > slot.clientHeight + 1)
  out.push(`the message slot scrolls: ${slot.scrollHeight} > ${slot.clientHeight}`);
for (const b of document.querySelectorAll("#problem button")) {
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!b.contains(hit)) out.push(`covered: ${name(b)}`);
}
return out;
"""


def _refusal_on_screen(page: Page, lang: str) -> None:
    """At 1024x768 and 768x1024: the refusal whole on screen, one button that sends the
    refused entry to the floor (labelled so) and one "Call the floor", the dock's; nothing
    cut off, nothing outside the window, no sideways scrolling (``check`` besides)."""
    driver = page.driver
    try:
        for size in (LANDSCAPE, PORTRAIT):
            set_viewport(driver, size)
            page.until(lambda: not page.css("#actions.settling"), "the buttons to settle")
            shown = [b for b in page.css("button") if b.is_displayed()]
            sends = [b for b in shown if b.text == WORDS[lang]["send"]]
            assert len(sends) == 1, (size, [b.text for b in shown])
            assert sends[0].find_element("xpath", "ancestor::*[@id='problem']")
            calls = [b.get_attribute("id") for b in shown if b.text == WORDS[lang]["floor"]]
            assert calls == ["call-floor"], (size, calls)
            assert driver.execute_script(REFUSAL_SHOWN) == [], size
            assert fits_width(driver), (size, driver.execute_script(WIDER))
    finally:
        set_viewport(driver, None)
    check(page, lang, "refused-at-speed")


@pytest.mark.usefixtures("clean_device")
def test_a_refusal_met_at_speed_in_spanish(page: Page, service: Served, console: Console) -> None:
    """A registered tablet in Spanish, seat 3 entered as showing seat 1's king (DECK-01): the
    banner names the rule and why, with one "Enviar esta jugada al floor" beside the dock's
    "Llamar al floor", whole on screen at both sizes; a reload with the banner up brings it
    back (the table is where it was refused); a double tap on the banner's button makes one
    floor call, with the refused entry, and the banner gives way to "Floor llamado"."""
    console.expect(409)
    lang = "es"
    version = service.to_showdown("L1")["version"]
    _sign_in(page, service, lang)
    page.shows_version(version)
    page.until(lambda: WORDS[lang]["seat"].format(seat=3) in page.to_act(), "seat 3 to show")
    refused = "Kc Qh Js 8d 3c"  # Kc is seat 1's
    page.type("show-cards", refused)
    _legal(page)[BUTTONS[lang][-1]].click()
    assert page.banner().find_element("css selector", ".rule-id").text == "DECK-01"
    _refusal_on_screen(page, lang)

    page.driver.refresh()
    page.until(lambda: page.css("#problem button.send-entry"), "the banner after the reload")
    assert page.banner().find_element("css selector", ".rule-id").text == "DECK-01"
    assert page.version() == version
    _refusal_on_screen(page, lang)

    send = page.css("#problem button.send-entry")[0]
    ActionChains(page.driver).move_to_element(send).click().pause(0.06).click().perform()
    page.until(lambda: page.message().startswith(WORDS[lang]["called"]), "the floor called")
    assert not page.by_id("problem").is_displayed()
    time.sleep(1.0)  # a second call would have been answered by now
    calls = service.call("GET", "/v1/floor/calls?table_id=L1", "floor")["calls"]
    assert len(calls) == 1, calls
    assert calls[0]["rule_id"] == "DECK-01" and calls[0]["entry"]["cards"] == refused
    assert not page.by_id("floor-dialog").is_displayed()
    assert service.table("L1")["version"] == version == page.version()
    page.driver.refresh()  # the refusal was settled by the call: it does not come back
    page.shows_version(version)
    assert not page.by_id("problem").is_displayed()


# The top bar (TOP_BAR, conftest) and the card picker at speed: the picker's rows against
# the window and the dock that holds them (the dock scrolls inside: a row under its bottom
# is one the dealer scrolls to).
TOP_AND_PICKER = (
    TOP_BAR
    + """
const shown = (n) => n.checkVisibility() && !n.closest("[hidden]");
const rows = [...document.querySelectorAll("#picker .picker-row")].filter(shown);
const dock = document.getElementById("dock");
const d = dock.getBoundingClientRect();
const last = rows.length ? rows[rows.length - 1].getBoundingClientRect() : null;
const first = rows.length ? rows[0].getBoundingClientRect() : null;
return {
  ...topBar, rows: rows.length,
  first_top: first && Math.round(first.top), last_bottom: last && Math.round(last.bottom),
  dock_top: Math.round(d.top), dock_bottom: Math.round(d.bottom), dock_scroll: dock.scrollTop,
  window: innerHeight,
  reachable: !!last && last.bottom <= Math.min(innerHeight, d.bottom) + 0.5
    && first.top >= d.top - 0.5,
};
"""
)


def _card_mode_showdown(service: Served, table_id: str) -> None:
    """A card-mode table with Ann, Bob and Cy, played through the API to the showdown (each
    seat dealt its five cards, every seat checking or calling, standing pat): seat 1 is to
    show."""
    service.call("POST", "/v1/tables", "admin",
                 {"table_id": table_id, **FIVE_CARD_DRAW, "mode": "card"})  # fmt: skip
    for seat, player in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        service.call(
            "PUT", f"/v1/tables/{table_id}/seats/{seat}", body={"player": player, "stack": 100}
        )
    service.call("POST", f"/v1/tables/{table_id}/hands", body={"button": 1})
    hands = {1: KINGS, 2: "Ah Ad Ac 7h 5h", 3: QUEENS}
    for _ in range(40):
        nxt = service.table(table_id)["next"]
        if nxt["phase"] == "showdown":
            return
        actions = {legal["action"]: legal for legal in nxt["legal"]}
        seat = nxt["seat"]
        if "post" in actions:
            entry: dict[str, Any] = {"action": "post"}
        elif "deal" in actions:
            entry = {"action": "deal", "count": actions["deal"]["count"], "cards": hands[seat]}
        elif "draw" in actions:
            entry = {"action": "draw", "count": 0}
        else:
            entry = {"action": "check" if "check" in actions else "call"}
        status = service.status(
            "POST", f"/v1/tables/{table_id}/actions", "dealer", {"seat": seat, **entry}
        )
        assert status == 200, (status, nxt, entry)
    raise AssertionError(service.table(table_id)["next"])


def _top_bar_and_picker(page: Page, lang: str, phase: str) -> list[tuple[str, Any]]:
    """At 1024x768 and 768x1024: what of the top bar (two lines at most, no taller than two
    lines' worth) and of the card picker (its four rows inside the window and the dock, the
    dock not scrolled) is wrong, with the measures; the action buttons on screen besides."""
    driver = page.driver
    wrong: list[tuple[str, Any]] = []
    try:
        for width, height in (LANDSCAPE, PORTRAIT):
            set_viewport(driver, (width, height))
            page.until(lambda: not page.css("#actions.settling"), "the buttons to settle")
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot(driver, f"tablet-{lang}-{phase}-{width}x{height}")
            seen = driver.execute_script(TOP_AND_PICKER)
            where = (lang, phase, width, height, seen)
            if not (seen["lines"] <= 2 and seen["bar"] <= seen["two"]):
                wrong.append(("the top bar", where))
            if not (seen["rows"] == 4 and seen["reachable"] and seen["dock_scroll"] == 0):
                wrong.append(("the picker", where))
            assert driver.execute_script(OFF_SCREEN) == [], where
            assert fits_width(driver), (where, driver.execute_script(WIDER))
    finally:
        set_viewport(driver, None)
    return wrong


@pytest.mark.usefixtures("clean_device")
@pytest.mark.parametrize("lang", ["es", "fr"])
def test_the_top_bar_is_two_lines_at_most_and_the_picker_on_screen(
    page: Page, service: Served, console: Console, lang: str
) -> None:
    """A registered tablet in ``lang``, the dealer signed in (the shift bar in the top bar), a
    card-mode table at the showdown: at 1024x768 and 768x1024 the top bar's boxes sit on two
    lines at most and it is no taller than two lines' worth, and the card picker of the show
    is on screen to its last row without scrolling the page or the dock; the same with a
    refusal's banner up (seat 2 entered as showing seat 1's king: SHOW-03)."""
    console.expect(409)  # the refused show
    _card_mode_showdown(service, "L1")
    _sign_in(page, service, lang)
    page.until(lambda: page.css("#picker .picker-row"), "the card picker of the show")
    wrong = _top_bar_and_picker(page, lang, "picker")
    page.type("show-cards", "Kc Ad Ac 7h 5h")  # Kc is seat 1's
    _legal(page)[BUTTONS[lang][-1]].click()
    assert page.banner().find_element("css selector", ".rule-id").text == "SHOW-03"
    wrong += _top_bar_and_picker(page, lang, "picker-refused")
    assert wrong == []
