"""The dealer tablet (/tablet) in a browser under the raked profile: the dealer's instruction
to drop the rake before the pot is pushed shows as text (RAKE-01, issue 23)."""

from __future__ import annotations

from e2e.conftest import FIVE_CARD_DRAW, HAND, Page, Served


def test_RAKE_01_accepts_the_drop_instruction_on_the_tablet(page: Page, service: Served) -> None:
    """casino-five-card-draw-raked, the e2e hand (a pot of 17 at 1/2): 10% rounded down is 1,
    the pot is below the jackpot's 20; the tablet lists "Drop 1 to the rake slot; push 16 to
    seat 1" before the push, and the stacks it shows are net of the rake."""
    table = {"table_id": "R1", **FIVE_CARD_DRAW, "profile": "casino-five-card-draw-raked"}
    service.call("POST", "/v1/tables", "admin", table)
    for seat, player in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        body = {"player": player, "stack": 100}
        service.call("PUT", f"/v1/tables/R1/seats/{seat}", body=body)
    service.call("POST", "/v1/tables/R1/hands", body={"button": 1})
    for seat, _label, entry in HAND:
        answer = service.act("R1", seat=seat, **entry)
    assert answer["result"]["rake"] == 1 and answer["result"]["jackpot_drop"] == 0
    page.open("tablet", "dealer", "R1")
    page.shows_version(answer["version"])
    lines = page.until(lambda: page.text("instructions").splitlines(), "instructions")
    drop, push = "Drop 1 to the rake slot; push 16 to seat 1", "Push 16 from the main pot to seat 1"
    assert lines[:2] == [drop, push]
    assert page.stacks() == {1: 108, 2: 99, 3: 92}
