"""A replacement card exposed by the dealer during the draw: never taken, replaced last."""

from __future__ import annotations

from typing import Any

import pytest
from engine_table import AT, StoredTable, Table, cards_accounted

from dealerassist.rules.engine import view
from dealerassist.rules.hand.dealing import deck_cards
from dealerassist.rules.hand.drawing import RAP_LABEL
from dealerassist.rules.model.actions import Mode, Variant
from dealerassist.rules.model.house_rules import (
    BottomCard,
    DrawRules,
    ExposedDrawCard,
    HouseRules,
    IrregularityRules,
    ReshufflePool,
)
from dealerassist.rules.model.ruling_commands import Effect, KillHand, Ruling, TakeExposed
from dealerassist.rules.model.state import Phase, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation

RRoP = HouseRules(irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.TO_DISCARDS))
WSOP = HouseRules(irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.BECOMES_NEXT_BURN))
DEALS = {1: "7h 5c 4s 3d 2c", 2: "8h 6d 4d 3s 2d", 3: "Ah Ad Qc Qs Js"}


def _drawing(rules: HouseRules, mode: Mode = Mode.CARD) -> Table:
    """2-7 triple draw, three players of 100, button 3, in the first draw (stored each entry)."""
    table = StoredTable([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules, mode=mode)
    table.start(button=3)
    if mode is Mode.CARD:
        for seat, cards in DEALS.items():
            table.act(seat, "deal", cards=cards)
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    assert table.hand.phase is Phase.DRAW_1
    return table


def _texts(table: Table) -> list[str]:
    assert table.outcome is not None
    return [item["text"] for item in table.outcome.instructions]


def _refused(table: Table, seat: int, **fields: Any) -> RuleViolation:
    before = table.state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, "exposed", **fields)
    assert table.state.to_dict() == before
    return caught.value


def test_IRREG_04_accepts_an_exposed_card_to_the_discards_and_replaces_it_last() -> None:
    """Card mode, to_discards: the Kc leaves seat 2's hand for its discards; seat 3 is served,
    then seat 2 gets its replacement; the Kc may never be dealt back to seat 2."""
    table = _drawing(RRoP)
    table.act(1, "draw", discards="")
    table.act(2, "draw", discards="8h")
    table.act(2, "deal", cards="Kc")
    assert view(table.state, table.rules, AT)["exposed_draw"] == {
        "action": "exposed",
        "seat": 2,
        "disposition": "to_discards",
    }
    table.act(2, "exposed", cards="Kc")
    assert "Replacement owed to seat 2 at the end of the draw" in _texts(table)[0]
    player = table.hand.player(2)
    assert player.held == 4 and "Kc" not in player.cards and "Kc" in player.pile_cards[0]
    assert table.hand.to_act == 3 and cards_accounted(table.hand) == 52
    table.act(3, "draw", discards="Ah Ad Qc")
    table.act(3, "deal", cards="9c 8c 5h")
    assert table.hand.to_act == 2 and "replacement owed to seat 2" in _texts(table)[-1]
    with pytest.raises(RuleViolation) as caught:
        table.act(2, "deal", cards="Kc")
    assert caught.value.rule_id is RuleId.DRAW_06
    table.act(2, "deal", cards="7c")
    assert table.hand.phase is Phase.BETTING_2 and table.hand.player(2).held == 5
    assert (
        table.hand.burns == 1
        and cards_accounted(table.hand) == 52
        and table.hand.exposed_owed == ()
    )


def test_IRREG_04_accepts_an_exposed_card_as_the_next_burn_after_the_draw() -> None:
    """Card mode, becomes_next_burn: the last drawer's card exposed once the draw is over sends
    the hand back to the draw; the exposed card is the burn before its replacement."""
    table = _drawing(WSOP)
    table.act(1, "draw", discards="")
    table.act(2, "draw", discards="")
    table.act(3, "draw", discards="Ah Ad Qc", cards="9c 8c 5h")
    assert table.hand.phase is Phase.BETTING_2
    table.act(3, "exposed", cards="9c")
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 3
    assert table.hand.spare_burn and table.hand.burn_cards == ("9c",) and table.hand.burns == 2
    with pytest.raises(RuleViolation) as caught:  # a burn: out of play until a reshuffle
        table.act(3, "deal", cards="9c")
    assert caught.value.rule_id is RuleId.DRAW_06
    stub = table.hand.stub
    table.act(3, "deal", cards="7d")
    assert _texts(table)[0] == "Burn nothing more: the card already in the burn pile is this burn"
    assert table.hand.stub == stub - 1 and table.hand.burns == 2 and not table.hand.spare_burn
    assert table.hand.phase is Phase.BETTING_2 and cards_accounted(table.hand) == 52


def test_IRREG_04_accepts_count_mode_and_deals_the_replacement_after_the_others() -> None:
    """Count mode: seat 1's exposed card is owed after seats 2 and 3, dealt with the draw's end;
    no rank is needed."""
    table = _drawing(RRoP, Mode.COUNT)
    table.act(1, "draw", count=2)
    table.act(1, "exposed")
    assert table.hand.player(1).held == 4 and table.hand.come_back == (1,)
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=0)
    assert table.hand.phase is Phase.BETTING_2
    assert table.hand.player(1).held == 5 and table.hand.player(1).pile == (3,)
    assert any("replacement owed to seat 1" in text for text in _texts(table))
    assert cards_accounted(table.hand) == 52


def test_IRREG_04_accepts_two_owed_cards_for_a_split_five_card_draw() -> None:
    """Count mode: one of the first four of a five-card draw exposed: two cards come after the
    others (the fifth and the replacement)."""
    table = _drawing(WSOP, Mode.COUNT)
    table.act(1, "draw", count=5)
    table.act(1, "exposed", rank="K")
    assert table.hand.come_back == (1, 1) and table.hand.player(1).held == 3
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=0)
    assert table.hand.player(1).held == 5 and cards_accounted(table.hand) == 52


def test_IRREG_04_locks_the_draw_request_of_the_seat() -> None:
    """DRAW-07: a card was dealt in response (and exposed): the request may not change."""
    table = _drawing(RRoP)
    table.act(1, "draw", discards="2c")
    table.act(1, "deal", cards="Kd")
    table.act(1, "exposed", cards="Kd")
    with pytest.raises(RuleViolation) as caught:
        table.act(1, "draw", discards="2c 3d")
    assert caught.value.rule_id is RuleId.DRAW_07


def test_IRREG_04_refuses_an_exposed_entry_before_any_draw_card() -> None:
    """No card dealt in this draw yet: nothing to expose."""
    refusal = _refused(_drawing(RRoP), 1, cards=("7h",))
    assert refusal.rule_id is RuleId.IRREG_04 and "No card has been dealt" in refusal.message


def test_IRREG_04_refuses_a_seat_other_than_the_one_just_dealt() -> None:
    """Seat 1 was dealt, seat 2 has only declared: only seat 1's card can be entered."""
    table = _drawing(RRoP)
    table.act(1, "draw", discards="2c")
    table.act(1, "deal", cards="Kd")
    table.act(2, "draw", discards="8h")
    refusal = _refused(table, 2, cards=("6d",))
    assert refusal.rule_id is RuleId.IRREG_04 and "seat 1" in refusal.message
    assert refusal.allowed == [{"action": "exposed", "seat": 1}]


def test_IRREG_04_refuses_a_card_not_just_dealt_and_a_player_choice() -> None:
    """A card the seat kept is not the exposed draw card; the player never takes or chooses."""
    table = _drawing(RRoP)
    table.act(1, "draw", discards="2c")
    table.act(1, "deal", cards="Kd")
    assert _refused(table, 1, cards=("7h",)).rule_id is RuleId.IRREG_04
    assert _refused(table, 1, cards=("Kd",), option="keep").rule_id is RuleId.IRREG_04


def test_IRREG_04_refuses_an_exposed_entry_once_the_betting_after_the_draw_began() -> None:
    """After the first action following the draw the floor decides: refused."""
    table = _drawing(RRoP, Mode.COUNT)
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=1)
    table.act(1, "check")
    refusal = _refused(table, 3, rank="9")
    assert refusal.rule_id is RuleId.IRREG_04 and "call the floor" in refusal.message


def test_IRREG_04_state_fields_are_omitted_at_default_and_round_trip() -> None:
    """A hand without a draw exposure stores no new key; one with it reads back equal."""
    table = _drawing(WSOP)
    hand = table.state.to_dict()["hand"]
    assert not {"exposed_owed", "spare_burn", "burn_cards"} & set(hand)
    table.act(1, "draw", discards="2c")
    table.act(1, "deal", cards="Kd")
    table.act(1, "exposed", cards="Kd")
    stored = table.state.to_dict()
    assert stored["hand"]["exposed_owed"] == [1] and stored["hand"]["burn_cards"] == ["Kd"]
    assert TableState.from_dict(stored) == table.state


# -- no replacement can be supplied: the floor rules (IRREG-04 / DRAW-06) --------------------

EARLIER_ROUNDS = DrawRules(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)


def _stuck(disposition: ExposedDrawCard, mode: Mode = Mode.COUNT) -> Table:
    """Seat 3 draws one; the dealer exposes its card, then each replacement, until the stub and
    a pool of earlier rounds, muck and burns cannot replace it (five-card draw, stored)."""
    rules = HouseRules(
        draw=EARLIER_ROUNDS, irregularities=IrregularityRules(exposed_draw=disposition)
    )
    table = StoredTable([100, 100, 100], rules=rules, mode=mode)
    table.start(button=3)
    while table.hand.phase is not Phase.DRAW_1:
        legal = table.legal()
        assert legal is not None
        action = legal["legal"][0]["action"]
        if action == "deal":
            table.act(legal["seat"], "deal", cards=_unseen(table, legal["legal"][0]["count"]))
        else:
            table.act(legal["seat"], "call" if action in ("call", "fold") else "check")
    table.act(1, "draw", **({"count": 0} if mode is Mode.COUNT else {"discards": ""}))
    table.act(2, "draw", **({"count": 0} if mode is Mode.COUNT else {"discards": ""}))
    if mode is Mode.COUNT:
        table.act(3, "draw", count=1)
    else:
        table.act(3, "draw", discards=table.hand.player(3).cards[0])
    for _ in range(80):
        if mode is Mode.CARD:
            if table.hand.player(3).pending:
                table.act(3, "deal", cards=_unseen(table, 1))
            table.act(3, "exposed", cards=table.hand.player(3).cards[-1])
        else:
            table.act(3, "exposed")
        assert cards_accounted(table.hand) == 52
        if table.hand.floor_wait:
            return table
    raise AssertionError("the stub never ran out")


def _unseen(table: Table, count: int) -> str:
    """Card mode: cards in no hand, discard pile, muck or burn pile known to the engine."""
    hand = table.hand
    seen = {*hand.muck_cards, *hand.burn_cards}
    for player in hand.players:
        seen |= {*player.cards, *(card for pile in player.pile_cards for card in pile)}
    return " ".join(sorted(deck_cards(52) - seen)[:count])


def _rule(table: Table, decision: str, *effects: Effect) -> None:
    table.run(Ruling(decision, "IRREG-04", note="floor", effects=effects))


def test_IRREG_04_guides_the_dealer_to_the_floor_when_no_replacement_can_be_supplied() -> None:
    """The exposure is accepted, but the answer tells the dealer to call the floor; the hand
    waits: no legal action (the rule in ``floor``), no exposure offered, every entry refused
    with IRREG-04 and the floor's options; chips and cards conserved."""
    table = _stuck(ExposedDrawCard.TO_DISCARDS)
    assert table.outcome is not None
    (notice,) = [n for n in table.outcome.notices if n.rule_id is RuleId.IRREG_04]
    assert "cannot replace seat 3's exposed card" in notice.message and notice.seat == 3
    assert "call the floor" in notice.message
    assert [i["code"] for i in table.outcome.instructions] == ["call_floor"]
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 3
    assert table.legal() == {"seat": 3, "phase": "draw_1", "legal": [], "floor": "IRREG-04"}
    assert view(table.state, table.rules, AT)["exposed_draw"] is None
    before = table.state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        table.act(3, "draw", count=1)
    assert caught.value.rule_id is RuleId.IRREG_04 and "floor" in caught.value.message
    assert {"rule_id": "IRREG-04", "decision": "take_exposed"} in caught.value.allowed
    assert table.state.to_dict() == before and before["hand"]["floor_wait"] == "IRREG-04"
    assert TableState.from_dict(before) == table.state


def test_IRREG_04_accepts_the_floor_letting_the_player_take_the_exposed_card() -> None:
    """Count mode: the floor rules take_exposed; the card leaves seat 3's discards for its hand
    as its replacement, the draw ends and the hand goes on to its end."""
    table = _stuck(ExposedDrawCard.TO_DISCARDS)
    discards = table.hand.player(3).pile[0]
    _rule(table, "take_exposed", TakeExposed(3))
    hand = table.hand
    assert not hand.floor_wait and "floor_wait" not in table.state.to_dict()["hand"]
    assert hand.player(3).pile[0] == discards - 1 and hand.player(3).held == 5
    assert hand.exposed_owed == ()
    assert hand.phase is Phase.BETTING_2 and cards_accounted(table.hand) == 52
    assert table.outcome is not None
    assert [e["type"] for e in table.outcome.events][:3] == [
        "ruling",
        "exposed_taken",
        "floor_wait_over",
    ]
    while (legal := table.legal()) is not None:
        table.act(legal["seat"], "fold")
    assert table.hand.phase is Phase.COMPLETE and sum(table.stacks().values()) == 300


def test_IRREG_04_accepts_take_exposed_in_card_mode_from_the_discards() -> None:
    """Card mode, to_discards: the exposed card leaves seat 3's discards of this draw and goes
    back into its hand; every card is in one place and the next betting round starts."""
    table = _stuck(ExposedDrawCard.TO_DISCARDS, Mode.CARD)
    card = (
        next(e["exposed"] for e in reversed(table.outcome.events) if e["type"] == "exposed")
        if table.outcome
        else None
    )
    assert card is not None and card in table.hand.player(3).pile_cards[0]
    _rule(table, "take_exposed", TakeExposed(3))
    player = table.hand.player(3)
    assert card in player.cards and card not in player.pile_cards[0] and player.held == 5
    assert table.hand.phase is Phase.BETTING_2 and cards_accounted(table.hand) == 52


def test_IRREG_04_accepts_a_dead_hand_instead_and_the_hand_goes_on() -> None:
    """The floor may kill the stuck hand instead: no card is owed any more, the draw ends."""
    table = _stuck(ExposedDrawCard.TO_DISCARDS)
    _rule(table, "dead_hand", KillHand(3))
    assert not table.hand.floor_wait and table.hand.player(3).folded
    assert table.hand.phase is Phase.BETTING_2 and cards_accounted(table.hand) == 52


def test_IRREG_04_rejects_take_exposed_while_a_replacement_can_be_supplied() -> None:
    """take_exposed is only for a hand waiting for the floor: with the stub able to replace
    the card it is refused (IRREG-04) and nothing changes."""
    table = _drawing(RRoP, Mode.COUNT)
    table.act(1, "draw", count=2)
    table.act(1, "exposed")
    before = table.state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        _rule(table, "take_exposed", TakeExposed(1))
    assert caught.value.rule_id is RuleId.IRREG_04 and "waits for the floor" in caught.value.message
    assert table.state.to_dict() == before


# -- the stub runs out while exposed cards are owed (IRREG-04 / DRAW-06) ---------------------

NO_BURN = HouseRules(
    draw=DrawRules(burn_before=False),
    irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.TO_DISCARDS),
)
DECK = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]


def _next_cards(table: Table, count: int) -> tuple[str, ...]:
    """Card mode: the first ``count`` cards of DECK in no hand, discard pile or muck."""
    hand = table.hand
    seen = set(hand.muck_cards)
    for player in hand.players:
        seen |= {*player.cards, *(card for pile in player.pile_cards for card in pile)}
    return tuple(card for card in DECK if card not in seen)[:count]


def _deal_and_expose(table: Table, seat: int, exposed: int) -> None:
    cards = _next_cards(table, table.hand.player(seat).pending)
    table.act(seat, "deal", cards=cards)
    for card in cards[:exposed]:
        table.act(seat, "exposed", cards=(card,))
        assert not table.hand.floor_wait


def _short_stub_with_exposed_cards_owed() -> Table:
    """Heads-up 2-7 triple draw, card mode, no burns. Draw 1: seat 1's replacements are
    exposed again and again (its discards hold 31 cards) until the stub is down to 7; draw 2:
    seat 1 draws four and all four are exposed (owed four after the others, stub 3), then seat
    2 asks for one card. Every discard is seat 1's or seat 2's, both still owed cards, and the
    house keeps the muck out of a reshuffle: a reshuffle now would hold only the bottom card."""
    table = Table([1000, 1000], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=NO_BURN, mode=Mode.CARD)
    table.start(button=2)
    for seat in (1, 2):
        table.act(seat, "deal", cards=_next_cards(table, 5))
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", discards=table.hand.player(1).cards[:4])
    _deal_and_expose(table, 1, 4)
    table.act(2, "draw", discards=table.hand.player(2).cards[:4])
    _deal_and_expose(table, 2, 0)
    for _ in range(5):
        _deal_and_expose(table, 1, 4)
    _deal_and_expose(table, 1, 3)
    _deal_and_expose(table, 1, 0)
    assert table.hand.phase is Phase.BETTING_2 and table.hand.stub == 7
    assert table.hand.player(1).pile == (31,) and table.hand.player(2).pile == (4,)
    table.act(1, "check")
    table.act(2, "check")
    table.act(1, "draw", discards=table.hand.player(1).cards[:4])
    _deal_and_expose(table, 1, 4)
    assert table.hand.come_back == (1,) and table.hand.player(1).pending == 4
    table.act(2, "draw", discards=table.hand.player(2).cards[:1])
    assert table.hand.stub == 3 and cards_accounted(table.hand) == 52
    return table


def test_IRREG_04_accepts_the_drawer_served_first_when_no_reshuffle_can_replace_the_cards() -> None:
    """The stub (3, the bottom card kept) cannot give seat 2 its card and seat 1 its four
    replacements; seat 1 cannot be served first either (two cards, then a reshuffle of the
    bottom card alone). So seat 2 is dealt its card from the stub, and seat 1's replacements
    come last, as IRREG-04 says, the stub first, then a reshuffle of seat 2's discards."""
    table = _short_stub_with_exposed_cards_owed()
    assert table.legal() == {
        "seat": 2,
        "phase": "draw_2",
        "legal": [{"action": "deal", "count": 1}],
    }
    card = _next_cards(table, 1)
    table.act(2, "deal", cards=card)
    assert table.hand.player(2).held == 5 and table.hand.stub == 2
    assert table.legal() == {
        "seat": 1,
        "phase": "draw_2",
        "legal": [{"action": "deal", "count": 4}],
    }
    from_stub = _next_cards(table, 1)
    reshuffled = table.hand.player(2).pile_cards[0][:3]
    outcome = table.act(1, "deal", cards=(*from_stub, *reshuffled))
    codes = [(i["code"], i["seat"], i["count"]) for i in outcome.instructions]
    assert codes[:4] == [("deal", 1, 1), ("stop", 1, 1), ("reshuffle", 1, 6), ("deal", 1, 3)]
    assert outcome.instructions[2]["pool"] == {
        "stub": 1,
        "burns": 0,
        "muck": 0,
        "discards": {"2": 5},
        "kept_out": {"1": 39},
    }
    assert table.hand.phase is Phase.BETTING_3 and table.hand.player(1).held == 5
    assert table.hand.exposed_owed == () and cards_accounted(table.hand) == 52


def test_IRREG_04_refuses_the_exposed_seat_s_replacements_before_the_drawer_s_card() -> None:
    """Seat 1's four replacements may not be dealt before seat 2's card (refused, nothing
    changes): they would need a reshuffle of the bottom card alone (DRAW-06)."""
    table = _short_stub_with_exposed_cards_owed()
    before = table.state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        table.act(
            1, "deal", cards=(*_next_cards(table, 2), *table.hand.player(2).pile_cards[0][:2])
        )
    assert caught.value.rule_id is RuleId.DRAW_03 and "deal to seat 2 now" in caught.value.message
    assert caught.value.allowed == [{"seat": 2, "action": "deal", "count": 1}]
    assert table.state.to_dict() == before


def test_DRAW_06_refuses_the_exposed_seat_s_own_discards_after_the_reshuffle() -> None:
    """After seat 2's card, seat 1's replacements come from the stub and a reshuffle that keeps
    seat 1's discards out: one of its own exposed cards is refused, seat 2's discards accepted."""
    table = _short_stub_with_exposed_cards_owed()
    table.act(2, "deal", cards=_next_cards(table, 1))
    own = table.hand.player(1).pile_cards[1][0]
    from_stub = _next_cards(table, 1)
    with pytest.raises(RuleViolation) as caught:
        table.act(1, "deal", cards=(*from_stub, own, *table.hand.player(2).pile_cards[0][:2]))
    assert caught.value.rule_id is RuleId.DRAW_06 and "own discard" in caught.value.message
    table.act(1, "deal", cards=(*from_stub, *table.hand.player(2).pile_cards[0][:3]))
    assert table.hand.player(1).held == 5 and table.hand.phase is Phase.BETTING_3


def test_IRREG_04_count_mode_serves_the_drawer_first_without_a_false_stop() -> None:
    """Count mode, the same short stub: seat 2's draw of one is dealt at once, then seat 1's
    four replacements (one from the stub, three from a reshuffle of seat 2's discards); no
    "stop" for seat 1 comes before seat 2's card (seat 1 is not dealt first, the stub is not
    empty)."""
    table = Table([1000, 1000], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=NO_BURN)
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=4)
    for _ in range(4):
        table.act(1, "exposed")
    table.act(2, "draw", count=4)
    for _ in range(23):  # after the draw: back to the draw, replaced at once, and again
        table.act(1, "exposed")
    assert table.hand.phase is Phase.BETTING_2 and table.hand.stub == 7
    table.act(1, "check")
    table.act(2, "check")
    table.act(1, "draw", count=4)
    for _ in range(4):
        table.act(1, "exposed")
    assert (table.hand.stub, table.hand.come_back) == (3, (1, 1, 1, 1))
    outcome = table.act(2, "draw", count=1)
    codes = [(i["code"], i["seat"], i["count"]) for i in outcome.instructions]
    assert codes[:5] == [
        ("deal", 2, 1),
        ("deal", 1, 1),
        ("stop", 1, 1),
        ("reshuffle", 1, 6),
        ("deal", 1, 3),
    ]
    assert outcome.instructions[3]["pool"]["discards"] == {"2": 5}
    assert table.hand.phase is Phase.BETTING_3
    assert [p.held for p in table.hand.players] == [5, 5] and cards_accounted(table.hand) == 52


WSOP_POOL = HouseRules(
    draw=DrawRules(
        burn_before=False,
        bottom_card=BottomCard.NORMAL_CARD,
        reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS,
    ),
    irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.TO_DISCARDS),
)


def _owed_four_with_the_stub_at_five() -> Table:
    """Heads-up 2-7 triple draw, card mode, no burns, the bottom card dealt, the WSOP pool
    (earlier draws' discards, the muck and the burns; this draw's discards stay out). Draw 1:
    seat 1 draws four and its replacements are exposed again and again (its discards of draw 1
    hold 33 cards), seat 2 stands pat. Draw 2: seat 1 draws four, all four exposed (owed four
    after the others, the stub down to 5); seat 2 is to declare."""
    table = Table([1000, 1000], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=WSOP_POOL, mode=Mode.CARD)
    table.start(button=2)
    for seat in (1, 2):
        table.act(seat, "deal", cards=_next_cards(table, 5))
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", discards=table.hand.player(1).cards[:4])
    _deal_and_expose(table, 1, 4)
    table.act(2, "draw", discards="")
    for _ in range(6):
        _deal_and_expose(table, 1, 4)
    _deal_and_expose(table, 1, 1)
    _deal_and_expose(table, 1, 0)
    assert table.hand.phase is Phase.BETTING_2 and table.hand.stub == 9
    assert table.hand.player(1).pile == (33,) and table.hand.player(2).pile == (0,)
    table.act(1, "check")
    table.act(2, "check")
    table.act(1, "draw", discards=table.hand.player(1).cards[:4])
    _deal_and_expose(table, 1, 4)
    assert table.hand.stub == 5 and table.hand.come_back == (1,)
    assert table.hand.player(1).pending == 4 and cards_accounted(table.hand) == 52
    return table


def test_DRAW_06_offers_exactly_the_draws_it_accepts_while_replacements_are_owed() -> None:
    """RRoP (Irregularities: a card exposed on the draw is replaced after the others; a player
    never gets his own discards back), WSOP 273: seat 1's four replacements come after seat
    2's draw, and the stub holds 5. A draw of one is supplied (the stub covers both); a draw of
    two would leave seat 1's replacements to a reshuffle of seat 2's pat of draw 1 alone (seat
    1's own discards stay out), so it is refused with DRAW-06, and the draw offered is 0 to 1:
    exactly what is accepted (it offered 0 to 5 and refused 2 and 3, counting seat 1 as one
    card owed instead of four on a larger draw only)."""
    table = _owed_four_with_the_stub_at_five()
    offer = {"action": "draw", "min": 0, "max": 1, "rap": RAP_LABEL}
    assert table.legal() == {"seat": 2, "phase": "draw_2", "legal": [offer]}
    before = table.state.to_dict()
    for count in range(2, 6):
        with pytest.raises(RuleViolation) as caught:
            table.act(2, "draw", discards=table.hand.player(2).cards[:count])
        assert caught.value.rule_id is RuleId.DRAW_06, count
        assert "draw at most 1" in caught.value.message
        assert caught.value.allowed == [{"seat": 2, **offer}]
        assert table.state.to_dict() == before
    table.act(2, "draw", discards=table.hand.player(2).cards[:1])
    assert table.legal() == {
        "seat": 1,
        "phase": "draw_2",
        "legal": [{"action": "deal", "count": 4}],
    }
    table.act(1, "deal", cards=_next_cards(table, 4))
    table.act(2, "deal", cards=_next_cards(table, 1))
    assert table.hand.phase is Phase.BETTING_3 and table.hand.exposed_owed == ()
    assert [p.held for p in table.hand.players] == [5, 5] and cards_accounted(table.hand) == 52
