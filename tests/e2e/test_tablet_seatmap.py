"""The dealer tablet's seat map (the seats around an oval table, the dealer at the bottom),
its keyboard shortcuts on a desktop, and its text at 200% (WCAG 1.4.4), in both
orientations of a tablet."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains

from e2e.conftest import FIVE_CARD_DRAW, Page, Served, fits_width, set_viewport

SIZES = ((1024, 768), (768, 1024))
SHOTS = os.environ.get("DEALERASSIST_E2E_SHOTS")  # a directory: screenshots to look at


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def tiles(page: Page) -> dict[int, dict[str, float]]:
    """Each seat tile's box, by seat number."""
    boxes = page.driver.execute_script(
        """
        return [...document.querySelectorAll("#seats li.seat")].map((li) => {
          const r = li.getBoundingClientRect();
          return [Number(li.querySelector(".seat-no").textContent),
                  {x: r.left, y: r.top, w: r.width, h: r.height}];
        });
        """
    )
    return {int(seat): box for seat, box in boxes}


def clockwise_from_the_dealer(boxes: dict[int, dict[str, float]]) -> list[int]:
    """The seats by their angle around the map's middle, measured from the bottom (the
    dealer) clockwise on the screen: bottom, left, top, right."""
    cx = sum(b["x"] + b["w"] / 2 for b in boxes.values()) / len(boxes)
    cy = sum(b["y"] + b["h"] / 2 for b in boxes.values()) / len(boxes)

    def angle(b: dict[str, float]) -> float:
        dx, dy = b["x"] + b["w"] / 2 - cx, b["y"] + b["h"] / 2 - cy
        return math.atan2(-dx, dy) % (2 * math.pi)

    return sorted(boxes, key=lambda seat: angle(boxes[seat]))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 1
        and b["x"] < a["x"] + a["w"] - 1
        and a["y"] < b["y"] + b["h"] - 1
        and b["y"] < a["y"] + a["h"] - 1
    )


def first_button_on_screen(page: Page) -> bool:
    return bool(
        page.driver.execute_script(
            """
            const b = document.querySelector("#actions button.act")
              || document.getElementById("start-hand");
            const r = b.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.bottom <= window.innerHeight && r.top >= 0 && b.contains(hit);
            """
        )
    )


def ten_seats(service: Served, table_id: str) -> Any:
    """A 10-seat table, six players (the profile's most) on seats 1, 2, 3, 4, 6 and 8, the
    button on seat 1, both blinds posted: seat 4 to act."""
    service.call(
        "POST", "/v1/tables", "admin", {"table_id": table_id, "max_seats": 10, **FIVE_CARD_DRAW}
    )
    for seat in (1, 2, 3, 4, 6, 8):
        service.call(
            "PUT", f"/v1/tables/{table_id}/seats/{seat}", body={"player": f"P{seat}", "stack": 100}
        )
    service.call("POST", f"/v1/tables/{table_id}/hands", body={"button": 1})
    service.act(table_id, seat=2, action="post")
    return service.act(table_id, seat=3, action="post")


def test_the_seats_sit_around_the_table_clockwise_from_the_dealers_left(
    page: Page, service: Served
) -> None:
    """At 1024x768 and 768x1024: seat 1 at the dealer's left (bottom left), the seats in
    order clockwise (up the left, across the top, down the right), seat 10 at the dealer's
    right; no two tiles overlap; each shows its player and stack, the D badge is on seat 1,
    seat 3 shows its big blind's bet and seat 4 (to act) is highlighted; no horizontal
    scrolling, the first action button on screen."""
    version = ten_seats(service, "M1")["version"]
    page.open("tablet", "dealer", "M1")
    page.shows_version(version)
    try:
        for width, height in SIZES:
            set_viewport(page.driver, (width, height))
            page.legal_buttons()
            boxes = tiles(page)
            assert clockwise_from_the_dealer(boxes) == list(range(1, 11)), boxes
            assert boxes[1]["x"] < boxes[10]["x"] and boxes[1]["y"] > boxes[5]["y"]
            assert not [
                (a, b) for a in boxes for b in boxes if a < b and overlap(boxes[a], boxes[b])
            ]
            texts = page.seat_texts()
            assert page.stacks() == {1: 100, 2: 99, 3: 98, 4: 100, 6: 100, 8: 100}
            assert "P3" in texts[3] and "BB" in texts[3]
            assert "D" in texts[1].split()
            assert "bet 2" in texts[3]
            assert "TO ACT" in texts[4]
            to_act = page.css("#seats li.seat.to-act")
            assert [li.find_element("css selector", ".seat-no").text for li in to_act] == ["4"]
            assert "empty" in texts[10].splitlines()
            assert fits_width(page.driver)
            assert first_button_on_screen(page)
            page.driver.execute_script(
                "document.getElementById('seats').scrollIntoView({block: 'start'})"
            )
            shot(page, f"seatmap-{width}x{height}")
    finally:
        set_viewport(page.driver, None)


def test_a_tap_on_an_empty_seat_seats_a_player_and_on_a_player_offers_his_seat_changes(
    page: Page, service: Served
) -> None:
    """Between hands: a tap on empty seat 3 opens the seat form for seat 3, the player's
    name next; seated there. A tap on Bob's seat chooses him in the seat changes: "Sits
    out" records it; "Player leaves" asks first, then removes him."""
    version = service.create_table("M2", {1: "Ann", 2: "Bob"})["version"]
    page.open("tablet", "dealer", "M2")
    page.shows_version(version)
    page.css("#seats li.seat")[2].click()
    assert page.by_id("seating-panel").get_attribute("open") is not None
    assert page.by_id("seat-no").get_attribute("value") == "3"
    assert page.driver.switch_to.active_element.get_attribute("id") == "seat-player"
    page.by_id("seat-player").send_keys("Cy")
    page.type("seat-stack", "80")
    page.driver.find_element("css selector", "#seat-form button[type=submit]").click()
    page.shows_version(version + 1)
    assert page.seat_texts()[3].splitlines()[1:3] == ["Cy", "80"]
    page.css("#seats li.seat")[1].click()
    assert page.by_id("changes-panel").get_attribute("open") is not None
    assert page.by_id("change-seat").get_attribute("value") == "2"
    page.by_id("change-sit-out").click()
    page.shows_version(version + 2)
    assert service.table("M2")["seats"][1]["status"] == "sitting_out"
    page.by_id("change-leave").click()
    page.until(lambda: page.by_id("confirm").is_displayed(), "the confirmation")
    assert "Seat 2 · Bob leaves the table" in page.text("confirm-text")
    page.by_id("confirm-ok").click()
    page.shows_version(version + 3)
    assert service.table("M2")["seats"][1]["status"] == "empty"


def press(page: Page, key: str) -> None:
    """A key pressed on the focused element (the page itself unless a field is focused)."""
    ActionChains(page.driver).send_keys(key).perform()


def test_keyboard_shortcuts_act_for_the_seat_to_act_but_never_while_typing(
    page: Page, service: Served
) -> None:
    """A desktop keyboard: each action button shows its key (C call, F fold, U undo); "f"
    and "c" typed in a field record nothing; C pressed twice 180 ms apart records seat 4's
    call only (the second is held like a double tap's); F folds seat 5, U takes the fold
    back; under the open floor dialog F does nothing and Esc closes the dialog."""
    service.create_table("M3", {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"})
    service.call("POST", "/v1/tables/M3/hands", body={"button": 1})
    service.act("M3", seat=2, action="post")
    version = service.act("M3", seat=3, action="post")["version"]
    page.open("tablet", "dealer", "M3")
    page.shows_version(version)
    buttons = page.legal_buttons()
    hints = {
        label: page.driver.execute_script(
            "return getComputedStyle(arguments[0], '::after').content", button
        )
        for label, button in buttons.items()
    }
    assert hints == {"Call 2": '"C"', "Raise to 4": '"R"', "Fold": '"F"'}
    page.driver.find_element("css selector", "details.seating > summary").click()
    page.by_id("seat-player").send_keys("fc")
    time.sleep(0.6)
    assert service.table("M3")["version"] == version
    page.driver.execute_script("document.activeElement.blur()")
    # a double press 180 ms apart: the second comes while the entry is on its way or within
    # the hold of the state it made (whose buttons are seat 5's), and is ignored
    ActionChains(page.driver).send_keys("c").pause(0.18).send_keys("c").perform()
    page.shows_version(version + 1)
    time.sleep(0.8)
    table = service.table("M3")
    assert table["version"] == version + 1 and table["next"]["seat"] == 5
    page.legal_buttons()
    press(page, "f")
    page.shows_version(version + 2)
    players = service.table("M3")["hand"]["players"]
    assert next(p for p in players if p["seat"] == 5)["folded"]
    page.until(lambda: page.css("#to-act button.undo"), "the Undo button")
    page.legal_buttons()  # settled: a key within the hold is turned away like a tap
    press(page, "u")
    page.shows_version(version + 3)
    assert service.table("M3")["next"]["seat"] == 5
    page.by_id("call-floor").click()
    page.until(lambda: page.by_id("floor-dialog").is_displayed(), "the floor dialog")
    page.driver.execute_script("document.activeElement.blur()")
    press(page, "f")
    time.sleep(0.5)
    assert service.table("M3")["version"] == version + 3
    press(page, "\ue00c")  # Escape
    page.until(lambda: not page.by_id("floor-dialog").is_displayed(), "the dialog closed")


CLIPPED = """
// Elements whose content does not fit and is cut off (overflow hidden or clip, an ellipsis):
// a box that scrolls (overflow auto or scroll) shows all of its content, it is not clipped.
const out = [];
for (const node of document.querySelectorAll("body *")) {
  const style = getComputedStyle(node);
  if (style.display === "none" || node.closest("[hidden], dialog:not([open])")) continue;
  const cut = (o) => o === "hidden" || o === "clip";
  const wide = cut(style.overflowX) && node.scrollWidth > node.clientWidth + 1;
  const tall = cut(style.overflowY) && node.scrollHeight > node.clientHeight + 1;
  const name = `${node.tagName.toLowerCase()}#${node.id}.${node.className}`;
  if (wide || tall) out.push(`${name}: ${node.textContent.slice(0, 40)}`);
}
return out;
"""


def test_nothing_is_clipped_at_200_percent_text_in_both_orientations(
    page: Page, service: Served
) -> None:
    """WCAG 1.4.4: Chromium's font size at 200% (32 px): at 1024x768 and 768x1024, during
    the betting with a seat to act and Undo shown, no text is cut off (no box hides what
    does not fit), no horizontal scrolling, and the first action button is reached by
    scrolling the dock (which sticks to the bottom of the screen) without scrolling the page."""
    service.create_table("M4", {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"})
    service.call("POST", "/v1/tables/M4/hands", body={"button": 1})
    service.act("M4", seat=2, action="post")
    version = service.act("M4", seat=3, action="post")["version"]
    page.open("tablet", "dealer", "M4")
    page.shows_version(version)
    page.legal_buttons()["Call 2"].click()
    page.shows_version(version + 1)
    driver = page.driver
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    try:
        size = driver.execute_script("return getComputedStyle(document.body).fontSize")
        assert float(size.rstrip("px")) >= 32  # 200% of the page's own 18 px is 36 px
        for width, height in SIZES:
            set_viewport(driver, (width, height))
            page.legal_buttons()
            shot(page, f"text200-{width}x{height}")
            driver.execute_script("document.getElementById('seats').scrollIntoView()")
            shot(page, f"text200-map-{width}x{height}")
            assert driver.execute_script(CLIPPED) == [], (width, height)
            # a seat tile is wide enough for its words: "bet 2" on one line
            bet = page.css("#seats li.seat .bet")[0].rect
            assert bet["height"] < 2 * 36, bet
            assert fits_width(driver)
            # the dock sticks to the bottom and scrolls inside: the button is reached there
            driver.execute_script(
                "document.querySelector('#actions button.act').scrollIntoView({block: 'nearest'})"
            )
            assert first_button_on_screen(page)
    finally:
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        set_viewport(driver, None)
