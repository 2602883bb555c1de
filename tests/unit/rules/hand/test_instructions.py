"""Dealer instructions as data."""

from __future__ import annotations

from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.stub import Step


def test_every_instruction_has_code_seat_count_and_text() -> None:
    """The tablet can rely on the four keys; the API on the message ID and parameters."""
    for item in (
        say.post(2, 5, ["small_blind"]),
        say.deal_hands([2, 3, 1]),
        say.award(1, 40, 1),
        say.return_bet(3, 10),
        say.ask_draw(4),
    ):
        assert set(item) == {"code", "seat", "count", "text", "text_id", "params"}
        assert item["text_id"].startswith("deal.")


def test_dealing_script_lists_burn_deal_and_reshuffle_in_order() -> None:
    """DRAW-04/06: the script follows the steps."""
    steps = [Step("burn", 1), Step("deal", 2, 3), Step("reshuffle", 22), Step("deal", 1, 3)]
    script = say.dealing_script(steps)
    assert [item["code"] for item in script] == ["burn", "deal", "reshuffle", "deal"]
    assert script[1]["text"] == "Deal 2 cards to seat 3"
    assert script[3]["text"] == "Deal 1 more card to seat 3"


def test_dealing_script_names_come_back_stop_and_the_reshuffle_pool() -> None:
    """DRAW-03/05/06: each code has its seat and count, the reshuffle its pool."""
    steps = [
        Step("deal", 4, 2),
        Step("come_back", 1, 2),
        Step("stop", 1, 3),
        Step("reshuffle", 7, 3, (("stub", 1), ("burns", 1), ("seat:1", 5), ("kept:2", 5))),
        Step("deal", 2, 3),
    ]
    script = say.dealing_script(steps)
    assert [(i["code"], i["seat"], i["count"]) for i in script] == [
        ("deal", 2, 4),
        ("come_back", 2, 1),
        ("stop", 3, 1),
        ("reshuffle", 3, 7),
        ("deal", 3, 2),
    ]
    assert "fifth card after every other seat has drawn" in script[1]["text"]
    assert "bottom card" in script[2]["text"]
    assert script[3]["pool"] == {
        "stub": 1,
        "burns": 1,
        "muck": 0,
        "discards": {"1": 5},
        "kept_out": {"2": 5},
    }
    assert "Keep out the discards of seat 2 (5)" in script[3]["text"]
    assert script[4]["text"] == "Deal 2 cards to seat 3 from the new stub"
