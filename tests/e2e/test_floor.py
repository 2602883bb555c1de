"""The floor console (/floor) in a browser: a ruling on an open floor call, issued from the
options the page offers, recorded by the API and in the audit log."""

from __future__ import annotations

from selenium.webdriver.support.ui import Select

from e2e.conftest import (
    FIVE_CARD_DRAW,
    KINGS,
    LANDSCAPE,
    PORTRAIT,
    Page,
    Served,
    fits_width,
    screenshot,
    serious_accessibility_findings,
    set_viewport,
)


def test_a_ruling_on_a_floor_call_is_recorded(page: Page, service: Served) -> None:
    """The dealer called the floor about a show refused with DECK-01 (a card seat 1 showed):
    the console lists the call; "Rule on this call" loads DECK-01's options; the fouled-deck
    ruling pre-fills its misdeal effect; issuing it closes the call, cancels the hand (every
    chip back) and is one audited ruling naming the floor."""
    service.to_showdown("F1")
    refused = {"seat": 3, "action": "show", "cards": "Kc Qh Js 8d 3c"}
    assert KINGS.startswith("Kc")
    assert service.status("POST", "/v1/tables/F1/actions", "dealer", refused) == 409
    service.call("POST", "/v1/tables/F1/floor-calls", "dealer", {"entry": refused})
    version = service.table("F1")["version"]

    page.open("floor", "floor", "F1")
    page.shows_version(version)
    assert page.seat_stacked(3) and page.seat_stacked(1)  # seat 3 is to show
    call = page.until(lambda: page.css("#calls .call"), "the open call")[0]
    assert call.find_element("css selector", ".rule-id").text == "DECK-01"
    assert "already shown by another seat" in call.text
    assert "Refused entry: seat 3 show Kc Qh Js 8d 3c" in call.text  # the cards too
    call.find_element("css selector", "button").click()
    page.until(lambda: page.by_id("rule-id").get_attribute("value") == "DECK-01", "the call opened")
    assert page.by_id("hand-no").get_attribute("value") == "1"
    decision = page.until(
        lambda: page.css('#options input[name="decision"][value="void_refund"]'),
        "DECK-01's options",
    )[0]
    decision.click()
    effects = page.until(lambda: page.css("#effects .effect-name"), "the option's effects")
    assert [effect.text for effect in effects] == ["Misdeal"]
    page.type("note", "Kc shown twice: fouled deck")
    page.driver.find_element("css selector", "#ruling-form button[type=submit]").click()
    confirm = page.until(
        lambda: page.by_id("confirm").is_displayed() and page.by_id("confirm"), "the confirmation"
    )
    assert "Misdeal: the hand is cancelled and every chip goes back." in confirm.text
    page.by_id("confirm-issue").click()

    answer = page.until(
        lambda: page.by_id("answer").is_displayed() and page.text("answer"), "answer"
    )
    assert answer.startswith("Ruling recorded: void_refund")
    page.shows_version(version + 1)
    result = page.until(
        lambda: page.by_id("result").is_displayed() and page.text("result"), "result"
    )
    assert "Misdeal: the hand is cancelled, chips returned." in result
    assert page.stacks() == {1: 100, 2: 100, 3: 100}
    page.until(lambda: "None." in page.text("calls"), "the call closed on the page")

    table = service.table("F1")
    assert table["version"] == version + 1
    assert table["result"]["misdeal"] is True
    assert {s["seat"]: s["stack"] for s in table["seats"] if s["player"]} == page.stacks()
    assert service.call("GET", "/v1/floor/calls?table_id=F1", "floor")["calls"] == []
    events = service.stored_events("F1", lambda events: events[-1]["kind"] == "ruling")
    rulings = [e for e in events if e["kind"] == "ruling"]
    assert len(rulings) == 1 and events[-1]["version"] == version + 1
    assert rulings[0]["actor"] == "floor"
    command = rulings[0]["payload"]["command"]
    assert (command["decision"], command["rule_id"], command["effects"]) == (
        "void_refund",
        "DECK-01",
        [{"effect": "misdeal"}],
    )
    assert command["note"] == "Kc shown twice: fouled deck" and command["hand_no"] == 1


def test_SHOW_07_the_pot_rows_leave_out_chips_only_killed_hands_put_in(
    page: Page, service: Served
) -> None:
    """Seat 1 all in for 3, seat 4 for 5, seats 2 and 3 in for 6 each and killed after the
    draw (IRREG-13): the award pot by pot shows the main pot of 12 (seats 4, 1) and side pot 1
    of 6 (seat 4), not 8: the 1 each the killed hands put in over seat 4's 5 goes back to
    them. Ticking seat 1 and seat 4 issues the award, which the engine settles with exactly
    those pots."""
    service.call("POST", "/v1/tables", "admin", {"table_id": "F2", **FIVE_CARD_DRAW})
    for seat, stack in ((1, 3), (2, 100), (3, 100), (4, 5)):
        body = {"player": f"P{seat}", "stack": stack}
        service.call("PUT", f"/v1/tables/F2/seats/{seat}", body=body)
    service.call("POST", "/v1/tables/F2/hands", body={"button": 1})
    entries = [(2, "post", {}), (3, "post", {}), (4, "raise", {"amount": 4}), (1, "call", {}),
               (2, "call", {}), (3, "raise", {"amount": 6}), (4, "call", {}), (2, "call", {}),
               *((seat, "draw", {"count": 1}) for seat in (2, 3, 4, 1))]  # fmt: skip
    for seat, action, fields in entries:
        service.act("F2", seat=seat, action=action, **fields)
    for seat in (2, 3):
        ruling = {"decision": "thrown_dead", "rule_id": "IRREG-13", "note": "mucked",
                  "effects": [{"effect": "kill_hand", "seat": seat}]}  # fmt: skip
        service.call("POST", "/v1/tables/F2/rulings", "floor", ruling)
    version = service.table("F2")["version"]

    page.open("floor", "floor", "F2")
    page.shows_version(version)
    page.until(lambda: page.css('#options input[value="custom"]'), "the options")[0].click()
    page.until(lambda: page.css('#options input[value="custom"]')[0].is_selected(), "custom")
    Select(page.by_id("effect-kind")).select_by_value("award")
    page.by_id("add-effect").click()
    page.css('#effects input[type=radio][value="pots"]')[0].click()
    rows = page.until(lambda: page.css("#effects .pot-row"), "the pot rows")
    assert [row.find_element("css selector", ".pot-name").text for row in rows] == [
        "The main pot · 12",
        "Side pot 1 · 6",
    ]
    for row, seat in zip(rows, (1, 4), strict=True):
        row.find_element("css selector", f'input[type=checkbox][value="{seat}"]').click()
    page.type("note", "seats 2 and 3 mucked into the discards")
    page.driver.find_element("css selector", "#ruling-form button[type=submit]").click()
    confirm = page.until(
        lambda: page.by_id("confirm").is_displayed() and page.text("confirm"), "confirm"
    )
    assert "The main pot 12 → seat 1 (P1); Side pot 1 6 → seat 4 (P4)" in confirm
    page.by_id("confirm-issue").click()
    page.shows_version(version + 1)

    result = service.table("F2")["result"]
    assert [(p["amount"], p["eligible"], p["winners"]) for p in result["pots"]] == [
        (12, [4, 1], [1]),
        (6, [4], [4]),
    ]
    assert result["returned"] == {"2": 1, "3": 1}


OPEN_08_NOTE = "waits as a false opener until a legally opened pot is won (OPEN-08)"


def test_OPEN_08_the_floor_sees_a_false_opener_s_wait_and_lifts_it(
    page: Page, service: Served
) -> None:
    """The floor ruled seat 1 an all-in false opener (OPEN-08 false_open_all_in, its hand
    killed): the console's seat box says it waits until a legally opened pot is won. The floor
    finds the open legal: OPEN-08's "lift_wait" option pre-fills clear_false_opener, the seat
    is typed, and once issued the seat box no longer says so, the table has no mark and the
    audit log holds the ruling with its effect."""
    service.start_hand("F8")
    for seat in (2, 3):
        service.act("F8", seat=seat, action="post")
    mark = {"decision": "false_open_all_in", "rule_id": "OPEN-08", "note": "no openers",
            "effects": [{"effect": "kill_hand", "seat": 1}]}  # fmt: skip
    version = service.call("POST", "/v1/tables/F8/rulings", "floor", mark)["version"]

    page.open("floor", "floor", "F8")
    page.shows_version(version)
    seats = page.seat_texts()
    assert OPEN_08_NOTE in seats[1] and OPEN_08_NOTE not in seats[2] + seats[3]
    page.type("rule-id", "OPEN-08")
    page.by_id("load-options").click()
    page.until(
        lambda: page.css('#options input[name="decision"][value="lift_wait"]'), "OPEN-08's options"
    )[0].click()
    effects = page.until(lambda: page.css("#effects .effect"), "the option's effects")
    assert [e.find_element("css selector", ".effect-name").text for e in effects] == [
        "Lift a false opener's wait (OPEN-08)"
    ]
    effects[0].find_element("css selector", 'input[type="number"]').send_keys("1")
    page.type("note", "the open was legal after all")
    page.driver.find_element("css selector", "#ruling-form button[type=submit]").click()

    answer = page.until(
        lambda: page.by_id("answer").is_displayed() and page.text("answer"), "answer"
    )
    assert answer.startswith("Ruling recorded: lift_wait")
    page.shows_version(version + 1)
    page.until(lambda: OPEN_08_NOTE not in page.seat_texts()[1], "the seat box without the wait")
    assert "false_opener" not in service.table("F8")["seats"][0]
    events = service.stored_events("F8", lambda events: events[-1]["version"] == version + 1)
    command = events[-1]["payload"]["command"]
    assert (command["decision"], command["effects"]) == (
        "lift_wait",
        [{"effect": "clear_false_opener", "seat": 1}],
    )


def test_a_call_from_table_B_shows_on_a_floor_console_opened_on_table_A(
    page: Page, service: Served
) -> None:
    """The console is opened on table A; the dealer of table B calls the floor about seat 3's
    show refused with DECK-01: the call appears within a poll, flashing and announced, with
    how long it has waited. Opening it shows table B, what the dealer entered (the cards) and
    the hand's entries. The floor adds "Kill a hand" (the seat comes from the call), then
    picks decisions: the added effect stays. Issuing shows who gets what and asks to confirm;
    confirmed, seat 3's hand is dead and seat 1 takes the pot. The page fits 1024 px (and
    768 px) and axe finds nothing serious or critical."""
    service.start_hand("A")
    service.to_showdown("B")
    for table_id in ("A", "B"):  # the console lists the tables the audit store knows
        service.stored_events(table_id, bool)
    set_viewport(page.driver, LANDSCAPE)
    try:
        page.open("floor", "floor", "A")
        page.until(lambda: "Table A" in page.text("table-summary"), "table A")
        page.until(lambda: page.css('#floor-tables button[data-table="B"]'), "table B's tile")
        assert "None." in page.text("calls")
        refused = {"seat": 3, "action": "show", "cards": "Kc Qh Js 8d 3c"}
        assert service.status("POST", "/v1/tables/B/actions", "dealer", refused) == 409
        service.call("POST", "/v1/tables/B/floor-calls", "dealer", {"entry": refused})

        card = page.until(lambda: page.css("#calls .call.flash"), "the new call, flashing", 8)[0]
        assert "Table B" in card.text and "DECK-01" in card.text
        assert page.text("announce") == "New floor call from table B, DECK-01"
        first = page.until(lambda: page.css("#calls .waited")[0].text, "how long it waited")
        assert first.startswith("waiting ")
        page.until(lambda: page.css("#calls .waited")[0].text != first, "the wait to tick on", 5)
        page.css("#calls .call button")[0].click()
        page.until(lambda: "Table B" in page.text("table-summary"), "table B on the console")
        detail = page.until(
            lambda: page.by_id("call-detail").is_displayed() and page.text("call-detail"), "call"
        )
        assert "The dealer entered\nseat 3 show Kc Qh Js 8d 3c" in detail
        assert "seat 1 show Kc Kd 7s 4h 2c" in detail and "seat 2 post" in detail
        assert page.by_id("rule-id").get_attribute("value") == "DECK-01"
        assert fits_width(page.driver)
        screenshot(page.driver, "floor")
        assert serious_accessibility_findings(page.driver) == []

        Select(page.by_id("effect-kind")).select_by_value("kill_hand")
        page.by_id("add-effect").click()
        seat = page.css("#effects .effect input[type=number]")[0]
        assert seat.get_attribute("value") == "3"  # from the call
        for decision in ("void_refund", "custom"):
            page.until(lambda d=decision: page.css(f'#options input[value="{d}"]'), decision)[
                0
            ].click()
        names = [e.text for e in page.css("#effects .effect-name")]
        assert names == ["Kill a hand"], names  # void_refund's misdeal went, the kill stayed
        page.type("note", "the same Kc twice: seat 3's hand is fouled")
        page.by_id("issue").click()
        confirm = page.until(
            lambda: page.by_id("confirm").is_displayed() and page.text("confirm"), "confirm"
        )
        assert "Kill the hand of seat 3 (Cy): its chips stay in the pot." in confirm
        version = service.table("B")["version"]
        assert version == page.version()  # nothing issued before the confirmation
        page.by_id("confirm-issue").click()
        page.shows_version(version + 1)
        page.until(lambda: "None." in page.text("calls"), "the call closed")
        result = service.table("B")["result"]
        assert [p["winners"] for p in result["pots"]] == [[1]]
        set_viewport(page.driver, PORTRAIT)
        assert page.until(lambda: fits_width(page.driver), "the console in 768 px")
    finally:
        set_viewport(page.driver, None)


def test_the_ruling_form_offers_the_options_in_the_floor_manager_s_language(
    page: Page, service: Served
) -> None:
    """With Spanish chosen on this device, "Show options" for IRREG-01 lists the server's
    labels in Spanish (GET /v1/rulings/options with the page's Accept-Language) beside the
    decision codes, which stay as they are."""
    service.start_hand("FL")
    page.driver.get(f"{service.base}/healthz")
    page.driver.add_cookie({"name": "lang", "value": "es", "path": "/"})
    try:
        page.open("floor", "floor", "FL")
        assert page.driver.find_element("tag name", "html").get_attribute("lang") == "es"
        page.type("rule-id", "IRREG-01")
        page.by_id("load-options").click()
        page.until(lambda: page.css('#options input[value="misdeal"]'), "IRREG-01's options")
        labels = [" ".join(label.text.split()) for label in page.css("#options label")]
        assert labels[0].startswith("Reparto nulo: se devuelven todas las fichas")
        assert labels[0].endswith("misdeal → Reparto nulo")  # the effect: the script's words
        assert any(text.startswith("Decisión libre: descríbala en la nota") for text in labels)
        assert not any("Misdeal:" in text for text in labels)
        # the longer Spanish effects keep "Effect to add" inside its box at 1024x768
        set_viewport(page.driver, LANDSCAPE)
        inside = page.driver.execute_script(
            "const s = document.getElementById('effect-kind');"
            "return s.getBoundingClientRect().right"
            " <= s.closest('fieldset').getBoundingClientRect().right + 1;"
        )
        assert inside and fits_width(page.driver)
        set_viewport(page.driver, None)
    finally:
        page.driver.get(f"{service.base}/healthz")
        page.driver.delete_all_cookies()
        page.driver.execute_script("window.localStorage.clear()")
