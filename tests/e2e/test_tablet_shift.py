"""The dealer's shift on a registered tablet, in a browser (issue 18): the tablet is paired
once with the admin's code, the dealer signs in once with employee ID and PIN on the keypad,
and a reload, a new tab and a change of table within the registration ask for nothing
again; every audit event names him, and the audit page's hand replay shows him."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import call

from e2e.conftest import (
    HAND,
    LANDSCAPE,
    Console,
    Page,
    Served,
    screenshot,
    serious_accessibility_findings,
    set_viewport,
)


@pytest.fixture
def clean_storage(page: Page, service: Served) -> Iterator[None]:
    """The browser is shared by every test, and a later test's service may get this one's
    port (the same origin): no tablet registration and no token is left behind. Cleared on
    /healthz, a page of the origin that runs no script (the tablet page would poll with
    what an earlier test left there)."""
    page.driver.get(f"{service.base}/healthz")
    page.driver.execute_script("localStorage.clear(); sessionStorage.clear()")
    yield
    page.driver.get(f"{service.base}/healthz")
    page.driver.execute_script("localStorage.clear(); sessionStorage.clear()")


def _signed_in(page: Page) -> str:
    """The dealer on duty the header shows, once the table is on screen (no sign-in, no
    token form)."""
    page.until(lambda: page.by_id("main").is_displayed(), "the table")
    assert not page.by_id("shift-login").is_displayed()
    assert not page.by_id("login").is_displayed()
    return str(page.until(lambda: page.text("dealer-on-duty"), "the dealer on duty"))


@pytest.mark.usefixtures("clean_storage")
def test_a_dealer_signs_in_once_for_the_shift(page: Page, service: Served) -> None:
    """The admin page saves the dealer's PIN and registers the tablet to S1 and S2, showing
    a pairing code; the tablet is paired with it; sign in at S1 (the employee ID typed, the
    PIN tapped on the keypad); play a whole hand; reload, open a new tab: the table, no
    sign-in; move the tablet to S2 of its bank: no sign-in. The audit events of S1 from the
    sign-in on name E100, the move signs him out there, and the audit page's replay of
    hand 1 names him."""
    service.create_table("S1", {1: "Ann", 2: "Bob", 3: "Cy"})
    service.create_table("S2", {1: "Dee", 2: "Eve"})
    page.open("admin", "admin")
    page.type("dealer-id", "E100")
    page.type("dealer-name", "Dana Ünal")
    page.type("dealer-pin", "4821")
    page.driver.find_element("css selector", "#dealer-form button[type=submit]").click()
    page.until(lambda: "E100" in page.text("dealers"), "the dealer listed")
    page.type("tablet-name", "Bank A")
    page.type("tablet-tables", "S1, S2")
    page.driver.find_element("css selector", "#tablet-form button[type=submit]").click()
    code = page.until(lambda: page.css("#pairing-code") and page.text("pairing-code"), "a code")
    assert len(code) == 9 and code[4] == "-"  # ABCD-EFGH, read aloud to whoever holds the tablet
    page.until(lambda: "waiting for its code" in page.text("tablets"), "the tablet listed")

    page.driver.get(f"{service.base}/tablet")
    page.until(lambda: page.by_id("pair").is_displayed(), "the pairing form")
    page.type("pair-code", code)
    page.driver.find_element("css selector", "#pair-form button[type=submit]").click()
    page.until(lambda: page.by_id("shift-login").is_displayed(), "the dealer sign-in")
    assert not page.by_id("login").is_displayed()  # a registered tablet asks for no token
    assert page.text("shift-tablet") == "Bank A: S1, S2"
    page.type("sign-in-employee", "E100")
    page.by_id("sign-in-pin").click()
    for digit in "4821":
        page.driver.find_element("css selector", f'#keypad .key[data-key="{digit}"]').click()
    assert page.by_id("sign-in-pin").get_attribute("value") == "4821"
    page.by_id("sign-in-send").click()
    assert _signed_in(page) == "Dealer Dana Ünal (E100)"
    assert page.text("session-label") == "Table S1"

    page.shows_version(4)
    page.type("start-button", "1")
    page.by_id("start-hand").click()
    page.shows_version(5)
    for seat, label, entry in HAND:
        page.act(seat, label, entry.get("cards"))
    finished = page.version()

    page.driver.refresh()
    assert _signed_in(page) == "Dealer Dana Ünal (E100)"
    page.shows_version(finished)
    first = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    page.driver.get(f"{service.base}/tablet")
    assert _signed_in(page) == "Dealer Dana Ünal (E100)"
    page.shows_version(finished)
    page.driver.close()
    page.driver.switch_to.window(first)

    page.until(lambda: page.by_id("shift-table").is_displayed(), "the table choice")
    page.driver.find_element("css selector", '#shift-table option[value="S2"]').click()
    page.until(lambda: page.text("session-label") == "Table S2", "table S2")
    assert _signed_in(page) == "Dealer Dana Ünal (E100)"
    page.shows_version(3)

    events = service.stored_events(
        "S1", lambda found: any(e["kind"] == "dealer_on_duty" and not e["dealer"] for e in found)
    )
    signed_in = next(i for i, e in enumerate(events) if e["kind"] == "dealer_on_duty")
    assert all(e["dealer"] is None for e in events[:signed_in])
    duty = [e for e in events[signed_in:] if e["kind"] != "dealer_on_duty"]
    assert len(duty) == 1 + len(HAND)  # the hand's start and every entry
    assert {e["dealer"] for e in duty} == {"E100"}
    assert [
        (e["dealer"], e["payload"]["reason"]) for e in events if e["kind"] == "dealer_on_duty"
    ] == [
        ("E100", "sign_in"),
        (None, "table_change"),
    ]

    page.open("audit", "auditor")
    page.until(lambda: page.css("#audit-tables th[scope=row]"), "the tables")
    page.type("hands-table", "S1")
    page.driver.find_element("css selector", "#hands-form button[type=submit]").click()
    page.until(lambda: page.css('#hands button[data-hand="S1/1"]'), "hand 1 of S1")
    page.css('#hands button[data-hand="S1/1"]')[0].click()
    title = page.until(
        lambda: page.by_id("replay").is_displayed() and page.text("replay-title"), "replay"
    )
    assert title.startswith("Table S1, hand #1 · dealer E100:")
    assert "dealer E100" in page.text("replay-step")


def _keypad_sign_in(page: Page, employee_id: str, pin: str = "4821") -> None:
    page.until(lambda: page.by_id("shift-login").is_displayed(), "the sign-in keypad")
    page.type("sign-in-employee", employee_id)
    page.by_id("sign-in-pin").click()
    for digit in pin:
        page.driver.find_element("css selector", f'#keypad .key[data-key="{digit}"]').click()
    page.by_id("sign-in-send").click()


def _in_new_tab(page: Page, path: str) -> str:
    """Opens ``path`` in a new tab of the same browser (the same localStorage, the tablet's
    kept credential and shift); the first tab's handle."""
    first = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    page.driver.get(f"{page.service.base}{path}")
    return first


def _back_to(page: Page, first: str) -> None:
    page.driver.close()
    page.driver.switch_to.window(first)


def _keypad_says(page: Page, words: str) -> str:
    """The keypad, on its own, with the notice saying why; its text."""
    page.until(lambda: page.by_id("shift-login").is_displayed(), "the sign-in keypad")
    notice = page.until(
        lambda: page.by_id("shift-notice").is_displayed() and page.text("shift-notice"),
        "why the shift ended",
    )
    assert words in notice, notice
    assert not page.by_id("main").is_displayed()
    return str(notice)


@pytest.mark.usefixtures("clean_storage")
def test_a_shift_ended_elsewhere_turns_the_tablet_to_the_keypad_saying_why(
    page: Page, service: Served, console: Console
) -> None:
    """A tablet signed in at S2 of its bank S1, S2, at 1024x768. Signed out on another tab:
    at its next poll the page is the keypad saying so, S2 still chosen. Signed in again,
    the dealer then signs in on tablet Bank B: the keypad names Bank B. On another tab the
    next dealer signs in ("Next dealer"): this tab goes on under his session, saying whom.
    The floor console names the dealer on duty at S2. The admin revokes the tablet: the
    pairing form, saying why."""
    console.expect(401)  # the ended session's poll, and the revoked tablet's status
    service.create_table("S1", {1: "Ann", 2: "Bob"})
    service.create_table("S2", {1: "Dee", 2: "Eve"})
    for employee_id, name in (("E100", "Dana Ünal"), ("E200", "Ravi Shah")):
        service.call("PUT", f"/v1/dealers/{employee_id}", "admin", {"name": name, "pin": "4821"})
    credentials = []
    for name, tables in (("Bank A", ["S1", "S2"]), ("Bank B", ["S2"])):
        code = service.call("POST", "/v1/tablets", "admin", {"name": name, "tables": tables})
        pairing = {"pairing_code": code["pairing_code"]}
        paired = service.call("POST", "/v1/tablets/pair", "admin", pairing)
        credentials.append(paired["credential"])
    page.driver.execute_script(
        "localStorage.setItem('dealerassist.tablet.credential', arguments[0])", credentials[0]
    )
    set_viewport(page.driver, LANDSCAPE)
    try:
        page.driver.get(f"{service.base}/tablet")
        page.until(lambda: page.css('#sign-in-table option[value="S2"]'), "the bank's tables")
        page.css('#sign-in-table option[value="S2"]')[0].click()
        assert not page.by_id("shift-notice").is_displayed()  # a first sign-in: no reason
        _keypad_sign_in(page, "E100")
        assert _signed_in(page) == "Dealer Dana Ünal (E100)"
        assert page.text("session-label") == "Table S2"

        first = _in_new_tab(page, "/tablet")
        assert _signed_in(page) == "Dealer Dana Ünal (E100)"
        page.by_id("sign-out").click()
        page.until(lambda: page.by_id("shift-login").is_displayed(), "the other tab signed out")
        _back_to(page, first)
        _keypad_says(page, "You were signed out on another screen of this tablet.")
        assert page.by_id("sign-in-table").get_attribute("value") == "S2"  # the table it was on
        assert page.by_id("sign-in-send").is_displayed()
        inside = "return arguments[0].getBoundingClientRect().bottom <= window.innerHeight"
        assert page.driver.execute_script(inside, page.by_id("sign-in-send"))
        assert serious_accessibility_findings(page.driver) == []
        screenshot(page.driver, "tablet-sign-in")

        _keypad_sign_in(page, "E100")
        assert _signed_in(page) == "Dealer Dana Ünal (E100)"
        assert page.text("session-label") == "Table S2"
        elsewhere = {"table_id": "S2", "employee_id": "E100", "pin": "4821"}
        status, text = _device_call(service, credentials[1], "/v1/tablet/sign-in", elsewhere)
        assert status == 200, text
        _keypad_says(page, "you signed in on tablet Bank B")
        assert page.by_id("sign-in-table").get_attribute("value") == "S2"

        _keypad_sign_in(page, "E100")
        assert _signed_in(page) == "Dealer Dana Ünal (E100)"
        first = _in_new_tab(page, "/tablet")
        page.until(lambda: page.by_id("push").is_displayed(), "Next dealer")
        page.by_id("push").click()
        _keypad_sign_in(page, "E200")
        assert _signed_in(page) == "Dealer Ravi Shah (E200)"
        _back_to(page, first)
        page.until(lambda: page.text("dealer-on-duty") == "Dealer Ravi Shah (E200)", "E200")
        assert "Ravi Shah (E200) signed in as the next dealer" in page.text("message")
        assert page.text("session-label") == "Table S2"

        floor = _in_new_tab(page, "/healthz")
        page.open("floor", "floor", "S2")
        tile = page.until(lambda: page.css('#floor-tables [data-table="S2"] .tile-dealer'), "S2")
        assert tile[0].text == "Dealer Ravi Shah (E200)"
        assert page.css('#floor-tables [data-table="S1"] .tile-dealer')[0].text == (
            "No dealer signed in"
        )
        page.until(lambda: page.text("table-dealer") == "Dealer Ravi Shah (E200)", "S2's dealer")
        _back_to(page, floor)

        tablets = service.call("GET", "/v1/tablets", "admin")["tablets"]
        bank_a = next(t["tablet_id"] for t in tablets if t["name"] == "Bank A")
        assert service.status("DELETE", f"/v1/tablets/{bank_a}", "admin") == 204
        page.until(lambda: page.by_id("pair").is_displayed(), "the pairing form")
        assert "An admin revoked this tablet" in page.text("pair-notice")
    finally:
        set_viewport(page.driver, None)


def _device_call(service: Served, credential: str, path: str, body: object) -> tuple[int, str]:
    """A POST with a tablet's device credential (not one of the tokens file's)."""
    status, text = call(f"{service.base}{path}", credential, body, "POST")
    return int(status), str(text)
