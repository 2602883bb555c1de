"""The dealer tablet as a dealer uses it at a live game: a double tap records one entry, the
buttons stay where they are, the draw timer acts, an entry can be taken back."""

from __future__ import annotations

import time
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains

from e2e.conftest import Page, Served

FIVE = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"}


def five_handed(service: Served, table_id: str) -> Any:
    """Five players, button on seat 1, both blinds posted: seat 4 is to call 2."""
    service.create_table(table_id, FIVE)
    service.call("POST", f"/v1/tables/{table_id}/hands", body={"button": 1})
    service.act(table_id, seat=2, action="post")
    return service.act(table_id, seat=3, action="post")


def test_a_double_tap_on_one_spot_records_one_entry(page: Page, service: Served) -> None:
    """Two real taps 180 ms apart on seat 4's "Call 2": the first is seat 4's call; the
    second lands on the button redrawn under the finger (seat 5's) while the new state is
    held, and is ignored: one entry, seat 5 still to act. Each button names its seat."""
    version = five_handed(service, "D1")["version"]
    page.open("tablet", "dealer", "D1")
    page.shows_version(version)
    call = page.legal_buttons()["Call 2"]
    assert call.text == "Seat 4 · Call 2"
    ActionChains(page.driver).move_to_element(call).click().pause(0.18).click().perform()
    page.shows_version(version + 1)
    time.sleep(1.0)  # a second entry would have been answered by now
    table = service.table("D1")
    assert table["version"] == version + 1
    assert table["next"]["seat"] == 5
    assert page.legal_buttons()["Call 2"].text == "Seat 5 · Call 2"
