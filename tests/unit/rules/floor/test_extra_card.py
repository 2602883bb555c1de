"""An extra card dealt on the initial deal: back as the burn; a second one is a misdeal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_table import AT, StoredTable, Table, cards_accounted

from dealerassist.rules.engine import view
from dealerassist.rules.hand.stub import reshuffle
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    Variant,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import DrawRules, HouseRules
from dealerassist.rules.model.ruling_commands import Misdeal, Ruling, VoidLast
from dealerassist.rules.model.state import Phase, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation

DEALS = {1: "2c 3c 4c 5c 7d", 2: "Ah Ad Ac Kd Ks", 3: "9h 9d 9c 9s Qd"}
NO_BURN = HouseRules(draw=DrawRules(burn_before=False))


def _cards(table_class: type[Table] = Table) -> Table:
    """Card-mode 2-7 triple draw, three players of 100, button 3: seat 1 is dealt first."""
    table = table_class([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, mode=Mode.CARD)
    table.start(button=3)
    return table


def _dealt(table_class: type[Table] = Table) -> Table:
    table = _cards(table_class)
    for seat, cards in DEALS.items():
        table.act(seat, "deal", cards=cards)
    return table


def _counts(rules: HouseRules | None = None, table_class: type[Table] = Table) -> Table:
    """Count-mode 2-7 triple draw, three players of 100, button 3, dealt automatically."""
    table = table_class([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules)
    table.start(button=3)
    return table


def _refused(table: Table, seat: int, **fields: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, "extra_card", **fields)
    return caught.value


def _texts(table: Table) -> list[str]:
    assert table.outcome is not None
    return [item["text"] for item in table.outcome.instructions]


# -- count mode ------------------------------------------------------------------------------


def test_IRREG_06_accepts_an_extra_card_in_count_mode_as_the_burn() -> None:
    """The extra card leaves the stub for the burn pile and stands for the first draw's burn;
    the betting round stands as it was."""
    table = _counts(table_class=StoredTable)
    before = table.hand
    outcome = table.act(2, "extra_card")
    assert _texts(table) == [
        "Seat 2 was dealt an extra card: return it face down to the burn pile; it is the burn, "
        "so burn nothing more before the first draw"
    ]
    assert outcome.instructions[0]["code"] == "extra_card"
    assert {
        "type": "extra_card",
        "seat": 2,
        "card": None,
        "ruling": "burn",
    } in outcome.events_json()
    hand = table.hand
    assert (hand.stub, hand.burns, hand.extra_cards, hand.spare_burn) == (
        before.stub - 1,
        1,
        1,
        True,
    )
    assert hand.players == before.players and hand.to_act == before.to_act
    assert hand.phase is Phase.BETTING_1 and cards_accounted(table.hand) == 52
    assert outcome.notices == ()


def test_IRREG_06_accepts_the_extra_card_as_the_burn_of_the_first_draw() -> None:
    """At the first draw no other card is burned: the stub gives only the cards drawn."""
    table = _counts()
    table.act(2, "extra_card")
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    stub = table.hand.stub
    table.act(1, "draw", count=2)
    assert _texts(table)[0] == "Burn nothing more: the card already in the burn pile is this burn"
    hand = table.hand
    assert (hand.stub, hand.burns, hand.spare_burn) == (stub - 2, 1, False)
    assert cards_accounted(table.hand) == 52


def test_IRREG_06_accepts_an_extra_card_where_the_house_does_not_burn() -> None:
    """Without a burn before the draw the card is only out of play: nothing stands for a burn."""
    table = _counts(NO_BURN)
    table.act(1, "extra_card")
    assert _texts(table) == [
        "Seat 1 was dealt an extra card: return it face down to the burn pile; it is the burn"
    ]
    assert (table.hand.burns, table.hand.spare_burn) == (1, False) and cards_accounted(
        table.hand
    ) == 52


def test_IRREG_06_rejects_cards_named_in_count_mode() -> None:
    """Count mode tracks no cards: the seat alone is entered."""
    refusal = _refused(_counts(), 1, cards=("9d",))
    assert refusal.rule_id is RuleId.IRREG_06 and "seat alone" in refusal.message


@pytest.mark.parametrize(
    "fields", [{"option": "keep"}, {"rank": "9"}, {"count": 1}, {"amount": 10}]
)
def test_IRREG_06_rejects_fields_an_extra_card_does_not_take(fields: dict[str, Any]) -> None:
    """No option (nobody chooses), rank, count or amount."""
    refusal = _refused(_counts(), 1, **fields)
    assert refusal.rule_id is RuleId.IRREG_06 and "nothing else" in refusal.message
    assert refusal.allowed == [{"action": "extra_card", "seats": [1, 2, 3]}]


# -- card mode -------------------------------------------------------------------------------


def test_IRREG_06_accepts_an_extra_card_during_the_deal_as_a_known_burn() -> None:
    """The card named goes to the burn pile, known: the deal goes on, and the card can never be
    dealt to a seat before a reshuffle."""
    table = _cards(StoredTable)
    table.act(1, "deal", cards=DEALS[1])
    outcome = table.act(1, "extra_card", cards="8h")
    assert "(8h): return it face down to the burn pile; it is the burn" in _texts(table)[0]
    assert {
        "type": "extra_card",
        "seat": 1,
        "card": "8h",
        "ruling": "burn",
    } in outcome.events_json()
    hand = table.hand
    assert (hand.stub, hand.burns, hand.burn_cards) == (46, 1, ("8h",))
    assert hand.phase is Phase.DEAL and hand.to_act == 2
    with pytest.raises(RuleViolation) as caught:
        table.act(2, "deal", cards="8h Ad Ac Kd Ks")
    assert caught.value.rule_id is RuleId.DECK_01 and "is the burn" in caught.value.message
    table.act(2, "deal", cards=DEALS[2])
    table.act(3, "deal", cards=DEALS[3])
    hand = table.hand
    assert hand.phase is Phase.BETTING_1 and (hand.stub, hand.burns) == (36, 1)
    assert cards_accounted(table.hand) == 52


def test_IRREG_06_accepts_an_extra_card_entered_before_the_seats_deal() -> None:
    """The extra card may be entered before the five the seat keeps."""
    table = _cards()
    table.act(3, "extra_card", cards="Jc")
    assert table.hand.burn_cards == ("Jc",) and table.hand.to_act == 1


def test_IRREG_06_accepts_an_extra_card_after_the_last_deal() -> None:
    """After the last deal, before any betting: the round stands as it was."""
    table = _dealt()
    before = table.hand
    table.act(3, "extra_card", cards="Jc")
    hand = table.hand
    assert hand.phase is Phase.BETTING_1 and hand.to_act == before.to_act
    assert (hand.stub, hand.burns) == (before.stub - 1, 1) and cards_accounted(table.hand) == 52


def test_IRREG_06_accepts_the_burned_extra_card_back_after_a_reshuffle() -> None:
    """A reshuffle takes the burns into the new stub, the extra card with them."""
    table = _dealt()
    table.act(1, "extra_card", cards="Jc")
    hand = reshuffle(table.hand, 1, table.rules, 1)
    assert hand.burn_cards == () and hand.burns == 0 and not hand.spare_burn


def test_IRREG_06_rejects_a_card_in_another_hand() -> None:
    """The extra card is not in play anywhere else."""
    refusal = _refused(_dealt(), 1, cards=("Ah",))
    assert refusal.rule_id is RuleId.IRREG_06
    assert refusal.message.startswith("Ah is already in play (hand:2)")


def test_IRREG_06_rejects_a_card_among_the_seats_own_five() -> None:
    """The extra card is the one not entered; a deal entered with it is voided first."""
    refusal = _refused(_dealt(), 1, cards=("7d",))
    assert refusal.rule_id is RuleId.IRREG_06 and "the one not entered" in refusal.message


def test_IRREG_06_rejects_a_card_already_burned() -> None:
    """A card already in the burn pile is not dealt extra."""
    table = _dealt()
    table.act(1, "extra_card", cards="Jc")
    assert "already in play (burn)" in _refused(table, 2, cards=("Jc",)).message


@pytest.mark.parametrize(
    ("cards", "words"),
    [(("??",), "Name the extra card"), (("Jc", "Jd"), "the one extra card"), (None, "one extra")],
)
def test_IRREG_06_rejects_an_extra_card_that_is_not_one_named_card(
    cards: tuple[str, ...] | None, words: str
) -> None:
    """Card mode: one identifiable card; an unknown one is the floor's (IRREG-01)."""
    refusal = _refused(_dealt(), 1, cards=cards)
    assert refusal.rule_id is RuleId.IRREG_06 and words in refusal.message


def test_IRREG_06_rejects_a_card_of_another_deck() -> None:
    """A 3 is no card of the 32-card deck."""
    table = Table([100, 100, 100], Variant.ACE_TO_SEVEN_STRIPPED, mode=Mode.CARD)
    table.start(button=3)
    refusal = _refused(table, 1, cards=("3c",))
    assert (
        refusal.rule_id is RuleId.IRREG_06 and "not a card of this 32-card deck" in refusal.message
    )


# -- when and who ----------------------------------------------------------------------------


def test_IRREG_06_rejects_an_extra_card_after_the_first_betting_action() -> None:
    """Once anyone has acted the betting has started: an extra card is the floor's."""
    table = _counts()
    table.act(3, "call")
    refusal = _refused(table, 2)
    assert refusal.rule_id is RuleId.IRREG_06 and "initial deal" in refusal.message
    assert refusal.allowed  # what the seat to act may do instead


def test_IRREG_06_rejects_an_extra_card_in_the_draw() -> None:
    """Too many cards on the draw is IRREG-07, not this entry."""
    table = _counts()
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    assert table.hand.phase is Phase.DRAW_1
    assert "IRREG-07" in _refused(table, 1).message


def test_IRREG_06_rejects_an_extra_card_while_the_blinds_are_posted() -> None:
    """Before the deal there is no extra card to enter."""
    table = Table([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=3, post=False)
    assert _refused(table, 1).rule_id is RuleId.IRREG_06


def test_IRREG_06_rejects_a_seat_not_in_the_hand() -> None:
    """A seat without a hand cannot be dealt an extra card (an empty seat dealt: IRREG-01)."""
    table = Table([100, 100, 0, 100])
    table.start(button=4)
    refusal = _refused(table, 3)
    assert refusal.rule_id is RuleId.IRREG_06 and "misdeal (IRREG-01)" in refusal.message


# -- IRREG-01: two extra cards ---------------------------------------------------------------


def test_IRREG_01_guides_a_misdeal_on_a_second_extra_card() -> None:
    """The second extra card is taken, nothing moves, and the dealer calls the floor, whose
    misdeal ruling then voids the hand."""
    table = _counts()
    table.act(1, "extra_card")
    before = table.hand
    outcome = table.act(3, "extra_card")
    (notice,) = outcome.notices
    assert notice.rule_id is RuleId.IRREG_01 and notice.seat == 3
    assert "2 extra cards dealt" in notice.message and "call the floor" in notice.message
    assert {
        "type": "extra_card",
        "seat": 3,
        "card": None,
        "ruling": "misdeal",
    } in outcome.events_json()
    assert (table.hand.stub, table.hand.burns, table.hand.extra_cards) == (before.stub, 1, 2)
    outcome = table.run(Ruling(decision="misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert outcome.result is not None and outcome.result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def test_IRREG_01_refuses_to_call_a_misdeal_on_an_extra_card_after_an_exposed_card() -> None:
    """The catalog's misdeals are two extra cards or two exposed cards, not one of each."""
    table = _counts()
    table.act(1, "exposed", rank="K")
    outcome = table.act(2, "extra_card")
    assert outcome.notices == () and table.hand.burns == 1


# -- journal, state, view --------------------------------------------------------------------


def test_IRREG_06_accepts_void_last_of_an_extra_card_entry() -> None:
    """void_last replays the journal without the entry: the hand as dealt."""
    table = _dealt()
    dealt = table.state
    table.act(1, "extra_card", cards="Jc")
    table.run(Ruling(decision="custom", note="misentry", effects=(VoidLast(1),)))
    assert table.state.hand == dealt.hand


def test_IRREG_06_accepts_void_last_of_a_later_action_replaying_the_extra_card() -> None:
    """A void after the extra card replays it: the burn stays known."""
    table = _dealt(StoredTable)
    table.act(1, "extra_card", cards="Jc")
    expected = table.state.hand
    table.act(3, "call")
    table.run(Ruling(decision="custom", note="misentry", effects=(VoidLast(1),)))
    assert table.state.hand == expected and table.hand.burn_cards == ("Jc",)


def test_extra_card_command_round_trips() -> None:
    """The entry is an ordinary action: its JSON has the usual fields and reads back."""
    for command in (Act(2, ActionKind.EXTRA_CARD, cards=("Jc",)), Act(2, ActionKind.EXTRA_CARD)):
        data = command_to_dict(command)
        assert data["action"] == "extra_card" and "rank" not in data and "option" not in data
        assert command_from_dict(json.loads(json.dumps(data))) == command


def test_extra_card_state_round_trips_and_a_plain_state_has_no_extra_fields() -> None:
    """The fields are written only when set, and read back."""
    table = _dealt()
    assert {"extra_cards", "burn_cards", "spare_burn"}.isdisjoint(table.state.to_dict()["hand"])
    table.act(1, "extra_card", cards="Jc")
    data = json.loads(json.dumps(table.state.to_dict()))
    assert data["hand"]["extra_cards"] == 1 and data["hand"]["burn_cards"] == ["Jc"]
    assert TableState.from_dict(data) == table.state


def test_the_view_offers_the_extra_card_entry_only_in_the_initial_deal() -> None:
    """The view names the seats dealt in until the first action."""
    table = _counts()
    shown = view(table.state, table.rules, AT)["extra_card"]
    assert shown == {"action": "extra_card", "seats": [1, 2, 3]}
    table.act(3, "fold")
    assert view(table.state, table.rules, AT)["extra_card"] is None
