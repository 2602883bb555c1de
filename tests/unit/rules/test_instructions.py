"""Dealer instructions as data."""

from __future__ import annotations

from dealerassist.rules import instructions as say
from dealerassist.rules.stub import Step


def test_every_instruction_has_code_seat_count_and_text() -> None:
    """The tablet can rely on the four keys."""
    for item in (
        say.post(2, 5, ["small_blind"]),
        say.deal_hands([2, 3, 1]),
        say.award(1, 40, 1),
        say.return_bet(3, 10),
        say.ask_draw(4),
    ):
        assert set(item) == {"code", "seat", "count", "text"}


def test_dealing_script_lists_burn_deal_and_reshuffle_in_order() -> None:
    """DRAW-04/06: the script follows the steps."""
    steps = [Step("burn", 1), Step("deal", 2, 3), Step("reshuffle", 22), Step("deal", 1, 3)]
    script = say.dealing_script(steps)
    assert [item["code"] for item in script] == ["burn", "deal", "reshuffle", "deal"]
    assert script[1]["text"] == "Deal 2 cards to seat 3"
    assert script[3]["text"] == "Deal 1 card to seat 3"
