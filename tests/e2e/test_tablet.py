"""The dealer tablet (/tablet) in a browser: seating, a whole hand by its buttons, a refused
entry with its rule and the floor call, and an entry made stale by another device."""

from __future__ import annotations

from e2e.conftest import DEALING, FIVE_CARD_DRAW, HAND, KINGS, QUEENS, Console, Page, Served


def test_a_whole_hand_through_the_tablet_buttons(page: Page, service: Served) -> None:
    """Players seated with the seat form, the first hand started with its button, every entry
    made by pressing the legal action the tablet shows for the seat it shows to act; the
    page then shows the pot's winner and the new stacks, as the API does."""
    service.call("POST", "/v1/tables", "admin", {"table_id": "E1", **FIVE_CARD_DRAW})
    page.open("tablet", "dealer", "E1")
    page.shows_version(1)
    page.driver.find_element("css selector", "details.seating > summary").click()
    for seat, player in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        version = page.version()
        page.type("seat-no", str(seat))
        page.type("seat-player", player)
        page.type("seat-stack", "100")
        page.driver.find_element("css selector", "#seat-form button[type=submit]").click()
        page.shows_version(version + 1)
    seated = {seat: text.splitlines()[1:3] for seat, text in page.seat_texts().items()}
    assert (
        seated[1] == ["Ann", "100"] and seated[2] == ["Bob", "100"] and seated[3] == ["Cy", "100"]
    )
    assert page.by_id("button-field").is_displayed()  # the table's first hand: where is the button
    page.type("start-button", "1")
    page.by_id("start-hand").click()
    page.shows_version(5)
    assert not page.by_id("start").is_displayed()
    assert "Seat 2 posts the small blind: 1" in page.text("instructions")

    for seat, label, entry in HAND:
        page.act(seat, label, entry.get("cards"))
        if label in DEALING:
            assert DEALING[label] in page.text("instructions").splitlines()

    result = page.until(lambda: page.by_id("result").is_displayed() and page.text("result"), "end")
    assert result.splitlines() == ["HAND #1 RESULT", "Main pot 17: seat 1 gets 17"]  # CSS capitals
    assert "Push 17 from the main pot to seat 1" in page.text("instructions")
    assert page.stacks() == {1: 109, 2: 99, 3: 92}
    assert page.by_id("start").is_displayed()  # the next hand can start
    table = service.table("E1")
    assert table["version"] == page.version()
    assert table["hand"]["phase"] == "complete"
    assert table["result"]["pots"][0]["shares"] == {"1": 17}
    assert table["result"]["shown"] == {"1": KINGS, "3": QUEENS}
    assert {s["seat"]: s["stack"] for s in table["seats"] if s["player"]} == page.stacks()


def test_a_refused_show_names_its_rule_and_calls_the_floor(
    page: Page, service: Served, console: Console
) -> None:
    """Seat 3 entered as showing a card seat 1 showed: the banner shows DECK-01, the engine's
    message and what is allowed instead, nothing changes; the banner's "Send this entry to the
    floor" opens a floor call with the refused entry that the floor's list shows."""
    console.expect(409)  # the refusal itself
    version = service.to_showdown("E2")["version"]
    page.open("tablet", "dealer", "E2")
    page.shows_version(version)
    page.until(lambda: "Seat 3" in page.to_act(), "seat 3 to show")
    refused = "Kc Qh Js 8d 3c"  # Kc is seat 1's
    page.type("show-cards", refused)
    page.legal_buttons()["Show"].click()
    banner = page.banner()
    assert banner.find_element("css selector", ".rule-id").text == "DECK-01"
    assert "already shown by another seat" in banner.text
    assert "Allowed instead:" in banner.text and "muck" in banner.text
    assert page.version() == version == service.table("E2")["version"]
    floor_button = next(
        b for b in page.css("#problem button") if b.text == "Send this entry to the floor"
    )
    floor_button.click()
    assert page.message().startswith("Floor called: seat 3 show.")
    calls = service.call("GET", "/v1/floor/calls?table_id=E2", "floor")["calls"]
    assert len(calls) == 1
    assert calls[0]["rule_id"] == "DECK-01" and calls[0]["seat"] == 3
    assert {key: calls[0]["entry"][key] for key in ("seat", "action", "cards")} == {
        "seat": 3,
        "action": "show",
        "cards": refused,
    }
    assert calls[0]["opened_by"] == "dealer"


def test_an_entry_made_stale_by_another_device_is_refused_and_reloaded(
    page: Page, service: Served, console: Console
) -> None:
    """Another device posts seat 2's blind while the tablet still shows seat 2 to post:
    pressing "Post 1" sends the old version, the API answers 412 and the page says so,
    reloads the table and shows seat 3 to act; the blind is posted once."""
    console.expect(412)
    version = service.start_hand("E3")["version"]
    page.open("tablet", "dealer", "E3")
    page.shows_version(version)
    page.until(lambda: "Seat 2" in page.to_act(), "seat 2 to post")
    polled = page.text("poll-status")
    page.until(lambda: page.text("poll-status") != polled, "a poll")  # 1.5 s to the next
    post = page.legal_buttons()["Post 1 (small blind)"]
    service.act("E3", seat=2, action="post")  # the other device
    post.click()
    banner = page.banner()
    assert "(412)" in banner.text
    assert "The table changed on another device. It has been reloaded" in banner.text
    page.shows_version(version + 1)
    page.until(lambda: "Seat 3" in page.to_act(), "seat 3 to post after the reload")
    assert "Post 2 (big blind)" in page.legal_buttons()
    table = service.table("E3")
    assert table["version"] == version + 1 and table["next"]["seat"] == 3
    assert table["hand"]["pot"] + sum(table["hand"]["bets"].values()) == 1


OPEN_08_NOTE = "waits as a false opener until a legally opened pot is won (OPEN-08)"


def test_OPEN_08_the_tablet_shows_a_seat_waiting_as_a_false_opener(
    page: Page, service: Served
) -> None:
    """The floor ruled seat 1 an all-in false opener and the hand is over: the tablet's seat
    box says seat 1 waits until a legally opened pot is won (OPEN-08), and so does the seat
    changes panel once the dealer taps the seat; seat 2 says nothing of the kind."""
    service.start_hand("E8")
    for seat in (2, 3):
        service.act("E8", seat=seat, action="post")
    mark = {"decision": "false_open_all_in", "rule_id": "OPEN-08", "note": "no openers",
            "effects": [{"effect": "kill_hand", "seat": 1}]}  # fmt: skip
    service.call("POST", "/v1/tables/E8/rulings", "floor", mark)
    table = service.act("E8", seat=2, action="fold")
    assert table["hand"]["phase"] == "complete" and table["seats"][0]["false_opener"] is True

    page.open("tablet", "dealer", "E8")
    page.shows_version(table["version"])
    seats = page.seat_texts()
    assert OPEN_08_NOTE in seats[1] and OPEN_08_NOTE not in seats[2]
    page.css("#seats li.seat")[0].click()
    status = page.until(lambda: page.text("change-status"), "the seat changes panel")
    assert OPEN_08_NOTE in status and status.startswith("active · stack")
    page.css("#seats li.seat")[1].click()
    page.until(lambda: page.by_id("change-seat").get_attribute("value") == "2", "seat 2 picked")
    assert OPEN_08_NOTE not in page.text("change-status")


def test_SHOW_08_accepts_a_chop_through_the_tablet_button(page: Page, service: Served) -> None:
    """Folded to the blinds under casino-five-card-draw: the tablet shows seat 2 a Chop button
    saying both blinds must agree; pressing it ends the hand, chopped, every stack back."""
    version = service.start_hand("E5")["version"]
    for seat, action in ((2, "post"), (3, "post"), (1, "fold")):
        version = service.act("E5", seat=seat, action=action)["version"]
    page.open("tablet", "dealer", "E5")
    page.shows_version(version)
    page.until(lambda: "Seat 2" in page.to_act(), "seat 2 to act")
    buttons = page.legal_buttons()
    assert "Chop (both blinds agree)" in buttons
    assert "Only when both blinds agree" in page.text("actions")
    assert "Back: seat 2 gets 1, seat 3 gets 2." in page.text("actions")
    buttons["Chop (both blinds agree)"].click()
    page.shows_version(version + 1)
    result = page.until(lambda: page.by_id("result").is_displayed() and page.text("result"), "end")
    assert "Chopped: the blinds took their blinds back (seat 2: 1, seat 3: 2); no pot." in result
    assert "The blinds agreed to chop" in page.text("instructions")
    assert page.stacks() == {1: 100, 2: 100, 3: 100}
    table = service.table("E5")
    assert table["hand"]["phase"] == "complete" and table["result"]["chopped"] == {"2": 1, "3": 2}
