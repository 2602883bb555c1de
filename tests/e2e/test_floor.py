"""The floor console (/floor) in a browser: a ruling on an open floor call, issued from the
options the page offers, recorded by the API and in the audit log."""

from __future__ import annotations

from e2e.conftest import KINGS, Page, Served


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
    assert "Refused entry: seat 3 show" in call.text
    call.find_element("css selector", "button").click()
    assert page.by_id("rule-id").get_attribute("value") == "DECK-01"
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
