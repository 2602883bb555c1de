"""The draw: order, limits, burns, stub, reshuffles, card-mode dealing (DRAW-01..12, DEAL-01)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from engine_table import AT, Table

from dealerassist.rules.engine import apply, legal_actions, view
from dealerassist.rules.hand.drawing import RAP_LABEL, check_replacements
from dealerassist.rules.model.actions import Act, ActionKind, Mode, Variant
from dealerassist.rules.model.house_rules import BottomCard, DrawRules, HouseRules, ReshufflePool
from dealerassist.rules.model.outcomes import Instruction
from dealerassist.rules.model.violations import RuleId, RuleViolation

HANDS = {
    1: "2c 3c 4c 5c 6c",
    2: "2d 3d 4d 5d 6d",
    3: "2h 3h 4h 5h 6h",
}


def _words(item: Instruction) -> dict[str, object]:
    """An instruction as the engine wrote it before message IDs (its English ``text``)."""
    return {key: value for key, value in item.items() if key not in ("text_id", "params")}


def draw_rules(**draw: object) -> HouseRules:
    return HouseRules(draw=replace(DrawRules(), **draw))  # type: ignore[arg-type]


def no_split(**draw: object) -> HouseRules:
    """House rules that deal a five-card draw at once (DRAW-03 off)."""
    return draw_rules(max_consecutive=5, **draw)


def refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    assert table.state is before
    return error.value


def to_draw(table: Table) -> None:
    """Limp and check through the first betting round."""
    while table.hand.phase.value == "betting_1":
        legal = table.legal()
        assert legal is not None
        names = [o["action"] for o in legal["legal"]]
        table.act(legal["seat"], "call" if "call" in names else "check")


def six_handed(rules: HouseRules) -> Table:
    """Six players at the draw with a 22-card stub."""
    table = Table([100] * 6, rules=rules)
    table.start(button=6)
    to_draw(table)
    assert table.hand.stub == 22
    return table


def card_table(rules: HouseRules | None = None, seats: int = 3) -> Table:
    table = Table([100] * seats, mode=Mode.CARD, rules=rules)
    table.start(button=seats)
    for seat in range(1, seats + 1):
        table.act(seat, "deal", cards=HANDS[seat])
    to_draw(table)
    return table


def test_DRAW_01_accepts_draws_clockwise_from_the_button() -> None:
    """Seats left of the button draw first; a draw of 0 stands pat."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    assert table.hand.to_act == 2
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=3)
    assert table.hand.to_act == 1


def test_DRAW_01_rejects_a_draw_out_of_turn() -> None:
    """The button may not draw before the seats to its left."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    assert refused(table, 1, "draw", count=2).rule_id is RuleId.DRAW_01


def test_DRAW_01_rejects_a_draw_without_a_count() -> None:
    """Count mode needs the number of cards."""
    table = Table([100, 100])
    table.start(button=1)
    to_draw(table)
    assert refused(table, 2, "draw").rule_id is RuleId.DRAW_01


def test_DRAW_01_rejects_discarding_a_card_not_held() -> None:
    """Card mode: discards must come from the seat's hand."""
    table = card_table()
    assert refused(table, 1, "draw", discards="Ah").rule_id is RuleId.DRAW_01


def test_DRAW_02_accepts_four_with_an_ace_shown() -> None:
    """Three-card limit with the ace exception: four with the ace shown."""
    table = Table([100, 100], rules=draw_rules(max_cards=3, four_with_ace=True))
    table.start(button=1)
    to_draw(table)
    legal = table.legal()
    assert legal is not None
    assert legal["legal"] == [
        {"action": "draw", "min": 0, "max": 3, "rap": RAP_LABEL, "max_with_ace_shown": 4}
    ]
    table.act(2, "draw", count=4, ace_shown=True)
    assert table.hand.player(2).drawn == (4,)


def test_DRAW_02_rejects_four_without_an_ace() -> None:
    """Three-card limit: four without showing an ace is refused, saying what is allowed."""
    table = Table([100, 100], rules=draw_rules(max_cards=3, four_with_ace=True))
    table.start(button=1)
    to_draw(table)
    error = refused(table, 2, "draw", count=4)
    assert error.rule_id is RuleId.DRAW_02
    assert error.message == "Seat 2 may draw 0 to 3 cards, or 4 with an ace shown to the table."
    assert error.allowed == [
        {"seat": 2, "action": "draw", "min": 0, "max": 3, "rap": RAP_LABEL, "max_with_ace_shown": 4}
    ]


def _card_draw(hand_1: str, rules: HouseRules) -> Table:
    """Card mode, three seats at the first draw; seat 1 (first to draw) holds ``hand_1``."""
    table = Table([100, 100, 100], mode=Mode.CARD, rules=rules)
    table.start(button=3)
    for seat, cards in ((1, hand_1), (2, HANDS[2]), (3, HANDS[3])):
        table.act(seat, "deal", cards=cards)
    to_draw(table)
    return table


def test_DRAW_02_accepts_four_in_card_mode_keeping_an_ace() -> None:
    """Card mode: the seat keeps the Ac it shows and draws four."""
    table = _card_draw("Ac 3c 4c 5c 6c", draw_rules(max_cards=3, four_with_ace=True))
    table.act(1, "draw", discards="3c 4c 5c 6c", ace_shown=True)
    assert table.hand.player(1).drawn == (4,)


def test_DRAW_02_rejects_four_in_card_mode_when_the_kept_card_is_no_ace() -> None:
    """Card mode sees the kept card: an ace claimed while keeping the 6c (the ace among the
    discards) is refused, and nothing changes."""
    table = _card_draw("Ac 3c 4c 5c 6c", draw_rules(max_cards=3, four_with_ace=True))
    error = refused(table, 1, "draw", discards="Ac 3c 4c 5c", ace_shown=True)
    assert error.rule_id is RuleId.DRAW_02
    assert error.message == (
        "Seat 1 keeps 6c: 4 cards are drawn only while keeping an ace; draw at most 3."
    )
    assert error.allowed and error.allowed[0]["max_with_ace_shown"] == 4


def test_DRAW_04_guides_a_burn_before_the_first_replacement_card() -> None:
    """The first seat that draws gets a burn card first; the next one does not."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    first = table.act(2, "draw", count=2)
    assert [i["code"] for i in first.instructions] == ["burn", "deal", "ask_draw"]
    second = table.act(3, "draw", count=1)
    assert [i["code"] for i in second.instructions] == ["deal", "ask_draw"]
    assert table.hand.stub == 52 - 15 - 1 - 3
    assert table.hand.burns == 1


def test_DRAW_04_guides_no_burn_when_everyone_stands_pat() -> None:
    """No replacement card, no burn."""
    table = Table([100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=0)
    table.act(1, "draw", count=0)
    assert table.hand.burns == 0


def test_DRAW_05_guides_that_the_bottom_card_is_not_dealt() -> None:
    """With one card left (the bottom card) the next request needs a reshuffle."""
    table = six_handed(no_split())
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    assert table.hand.stub == 1
    outcome = table.act(5, "draw", count=1)
    assert [i["code"] for i in outcome.instructions][:3] == ["stop", "reshuffle", "deal"]


def test_DRAW_05_accepts_the_bottom_card_as_a_normal_card() -> None:
    """bottom_card = normal_card: the last card is dealt without a reshuffle."""
    table = six_handed(no_split(bottom_card=BottomCard.NORMAL_CARD))
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    outcome = table.act(5, "draw", count=1)
    assert outcome.instructions[0]["code"] == "deal"
    assert table.hand.stub == 0


def test_DRAW_06_guides_the_reshuffle_pool_of_earlier_discards_bottom_card_and_burn() -> None:
    """Seed 000 pool: bottom card + burn + the 20 discards of earlier drawers = 22 cards."""
    table = six_handed(no_split())
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    outcome = table.act(5, "draw", count=3)
    assert outcome.instructions[0]["code"] == "stop"
    reshuffle = outcome.instructions[1]
    assert (reshuffle["code"], reshuffle["count"]) == ("reshuffle", 22)
    assert _words(outcome.instructions[2]) == {
        "code": "deal",
        "seat": 5,
        "count": 3,
        "text": "Deal 3 cards to seat 5 from the new stub",
    }
    assert table.hand.stub == 19
    assert table.hand.reshuffles == 1


def test_DRAW_06_rejects_a_draw_the_stub_and_the_pool_cannot_supply() -> None:
    """WSOP pool in the first draw (no earlier rounds, no muck): only 2 cards can come."""
    rules = no_split(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)
    table = six_handed(rules)
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    legal = table.legal()
    assert legal is not None and legal["legal"][0]["max"] == 2
    assert refused(table, 5, "draw", count=3).rule_id is RuleId.DRAW_06


def test_DRAW_06_rejects_a_seat_s_own_discard_dealt_back() -> None:
    """Card mode: a player never gets back a card he threw away."""
    table = card_table()
    table.act(1, "draw", discards="2c")
    assert refused(table, 1, "deal", cards="2c").rule_id is RuleId.DRAW_06


def test_DECK_01_rejects_a_replacement_card_already_in_a_hand() -> None:
    """Card mode: a card another seat holds cannot be dealt."""
    table = card_table()
    table.act(1, "draw", discards="2c")
    assert refused(table, 1, "deal", cards="2d").rule_id is RuleId.DECK_01


def test_DECK_01_accepts_replacement_cards_from_the_stub() -> None:
    """Card mode: fresh cards complete the draw and the hand has five cards again."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c", cards="Ks Qs")
    assert table.hand.player(1).cards == ("4c", "5c", "6c", "Ks", "Qs")


def test_DEAL_01_accepts_five_cards_to_each_seat_from_the_button() -> None:
    """Card mode: the deal goes to seat 1, 2, 3 in turn, five cards each."""
    table = Table([100, 100, 100], mode=Mode.CARD)
    table.start(button=3)
    legal = table.legal()
    assert legal == {"seat": 1, "phase": "deal", "legal": [{"action": "deal", "count": 5}]}
    table.act(1, "deal", cards=HANDS[1])
    assert table.hand.to_act == 2


def test_DEAL_01_rejects_four_cards_or_the_wrong_seat() -> None:
    """Card mode: a hand of four cards, or a deal out of order, is refused."""
    table = Table([100, 100, 100], mode=Mode.CARD)
    table.start(button=3)
    assert refused(table, 1, "deal", cards="2c 3c 4c 5c").rule_id is RuleId.DEAL_01
    assert refused(table, 2, "deal", cards=HANDS[2]).rule_id is RuleId.DEAL_01


def test_DECK_05_rejects_a_stripped_rank_as_a_blank_to_replace() -> None:
    """A-7 stripped with 32 cards: a deuce is a blank; the dealer is told to replace it."""
    table = Table([100, 100], variant=Variant.ACE_TO_SEVEN_STRIPPED, mode=Mode.CARD)
    table.start(button=2)
    error = refused(table, 1, "deal", cards="2c 7c 8c 9c Tc")
    assert error.rule_id is RuleId.DECK_05
    assert "Replace it with the next card" in error.message


def test_DECK_05_accepts_the_replacement_of_a_stray_card() -> None:
    """After the stray deuce is replaced, the deal goes on."""
    table = Table([100, 100], variant=Variant.ACE_TO_SEVEN_STRIPPED, mode=Mode.CARD)
    table.start(button=2)
    table.act(1, "deal", cards="Jc 7c 8c 9c Tc")
    assert table.hand.player(1).cards == ("Jc", "7c", "8c", "9c", "Tc")


def test_DECK_05_rejects_a_joker_in_a_game_without_one() -> None:
    """No game here uses the bug: a joker dealt on the draw is a blank to replace."""
    table = card_table()
    table.act(1, "draw", discards="2c")
    assert refused(table, 1, "deal", cards="Jk").rule_id is RuleId.DECK_05


def test_DECK_01_rejects_text_that_is_no_card_of_any_deck() -> None:
    """A token that names no card is refused under DECK-01, not treated as a stray card."""
    table = card_table()
    table.act(1, "draw", discards="2c")
    assert refused(table, 1, "deal", cards="Zz").rule_id is RuleId.DECK_01


def test_all_discards_may_come_before_the_replacements() -> None:
    """Card mode: a draw round may be declared in full, then dealt in the same order."""
    table = card_table()
    table.act(1, "draw", discards="2c")
    table.act(2, "draw", discards="2d 3d")
    assert table.hand.to_act == 1
    table.act(1, "deal", cards="As")
    table.act(2, "deal", cards="Ks Qs")
    assert table.hand.to_act == 3


def test_DRAW_11_accepts_time_after_the_deadline() -> None:
    """With a 30-second timer, `time` after the deadline declares the seat pat, no raising after."""
    rules = draw_rules(timeout_seconds=30)
    table = Table([100, 100], rules=rules)
    table.start(button=1)
    to_draw(table)
    later = AT + timedelta(seconds=31)
    assert {"action": "time"} in (legal_actions(table.state, rules, later) or {})["legal"]
    state = apply(table.state, Act(2, ActionKind.TIME), rules, later).state
    assert state.hand is not None and state.hand.player(2).drawn == (0,)
    state = apply(state, Act(1, ActionKind.DRAW, count=1), rules, later).state
    next_up = legal_actions(state, rules, later)
    assert next_up is not None and next_up["seat"] == 2
    assert [o["action"] for o in next_up["legal"]] == ["check", "fold"]


def test_DRAW_11_rejects_time_before_the_deadline() -> None:
    """`time` before the draw timer ran out is refused."""
    table = Table([100, 100], rules=draw_rules(timeout_seconds=30))
    table.start(button=1)
    to_draw(table)
    assert refused(table, 2, "time").rule_id is RuleId.DRAW_11


def test_DRAW_12_guides_counts_per_draw_in_triple_draw() -> None:
    """Each seat's draw counts are kept per draw round."""
    table = Table([200, 200], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=1)
    to_draw(table)
    for counts in ((3, 2), (1, 0)):
        table.act(2, "draw", count=counts[0])
        table.act(1, "draw", count=counts[1])
        table.act(2, "check")
        table.act(1, "check")
    assert table.hand.player(2).drawn == (3, 1)
    assert table.hand.player(1).drawn == (2, 0)
    assert table.hand.phase.value == "draw_3"


def test_DRAW_04_refuses_to_burn_where_the_house_does_not_burn() -> None:
    """burn_before off: the first replacement card comes straight off the stub."""
    table = Table([100, 100], rules=draw_rules(burn_before=False))
    table.start(button=1)
    to_draw(table)
    outcome = table.act(2, "draw", count=2)
    assert outcome.instructions[0]["code"] == "deal"
    assert table.hand.burns == 0


def test_DRAW_05_accepts_the_bottom_card_when_it_completes_the_last_draw() -> None:
    """only_if_it_completes_all_draws: the last drawer may get the bottom card."""
    rules = no_split(bottom_card=BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS)
    table = six_handed(rules)
    for seat in (1, 2, 3, 4, 5):
        table.act(seat, "draw", count=5 if seat < 5 else 0)
    outcome = table.act(6, "draw", count=1)
    assert outcome.instructions[0]["code"] == "deal"
    assert table.hand.stub == 0


def test_DRAW_05_refuses_the_bottom_card_while_others_still_draw() -> None:
    """only_if_it_completes_all_draws: with a seat still to draw, the bottom card stays."""
    rules = no_split(bottom_card=BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS)
    table = six_handed(rules)
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    outcome = table.act(5, "draw", count=1)
    assert outcome.instructions[1]["code"] == "reshuffle"


def test_DRAW_09_guides_the_draw_counts_until_the_first_action_after_the_draw() -> None:
    """view() shows how many each seat drew until somebody acts after the draw."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    for seat, count in ((2, 1), (3, 3), (1, 0)):
        table.act(seat, "draw", count=count)
    shown = view(table.state, table.rules, AT)
    assert shown["hand"]["draws"] == {"2": 1, "3": 3, "1": 0}


def test_DRAW_09_refuses_the_draw_counts_after_the_first_action() -> None:
    """Once the betting after the draw has started the counts are no longer shown."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=2)
    table.act(2, "check")
    assert view(table.state, table.rules, AT)["hand"]["draws"] == {}


def test_DRAW_10_accepts_replacements_that_make_five_cards() -> None:
    """Card mode: two discards, two cards dealt, five in the hand."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c")
    table.act(1, "deal", cards="Kh Qh")
    assert table.hand.player(1).held == 5


def test_IRREG_08_rejects_too_few_cards_on_the_draw() -> None:
    """Card mode: one card for a two-card draw is refused, saying to complete it from the stub."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c")
    error = refused(table, 1, "deal", cards="Kh")
    assert error.rule_id is RuleId.IRREG_08
    assert "complete the draw from the stub before the betting" in error.message


def test_IRREG_08_accepts_the_draw_completed_from_the_stub() -> None:
    """After the refusal the dealer enters both cards and the hand has five."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c")
    refused(table, 1, "deal", cards="Kh")
    table.act(1, "deal", cards="Kh Qh")
    assert table.hand.player(1).held == 5


def test_IRREG_07_rejects_too_many_cards_on_the_draw() -> None:
    """Card mode: three cards for a two-card draw are refused; the excess is an exposed card."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c")
    error = refused(table, 1, "deal", cards="Kh Qh Jh")
    assert error.rule_id is RuleId.IRREG_07
    assert "exposed card" in error.message and "foul" in error.message


def test_IRREG_07_accepts_the_draw_once_the_excess_card_is_taken_back() -> None:
    """The two cards the seat keeps are accepted; the taken-back card is not in its hand."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c", cards="Kh Qh")
    assert table.hand.player(1).cards == ("4c", "5c", "6c", "Kh", "Qh")


def test_DRAW_12_rejects_a_second_draw_in_the_same_round() -> None:
    """Each seat draws once per draw round: once the next seat has drawn, a second draw is
    refused (DRAW-07; before the next entry it is a changed request)."""
    table = Table([200, 200, 200], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=2)
    table.act(3, "draw", count=0)
    error = refused(table, 2, "draw", count=1)
    assert error.rule_id is RuleId.DRAW_07


def test_DRAW_03_guides_four_now_and_the_fifth_after_the_others() -> None:
    """A five-card draw is dealt four, then the others, then the fifth card."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    first = table.act(2, "draw", count=5)
    assert [(i["code"], i["count"]) for i in first.instructions[:3]] == [
        ("burn", 1),
        ("deal", 4),
        ("come_back", 1),
    ]
    table.act(3, "draw", count=2)
    last = table.act(1, "draw", count=0)
    assert [(i["code"], i["seat"], i["count"]) for i in last.instructions[:1]] == [("deal", 2, 1)]
    assert table.hand.player(2).held == 5
    assert table.hand.stub == 52 - 15 - 1 - 7


def test_DRAW_03_guides_a_burn_before_the_fifth_when_nobody_else_drew() -> None:
    """If no other seat received cards after the five-card draw, a card is burned first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=0)
    last = table.act(1, "draw", count=5)
    codes = [i["code"] for i in last.instructions]
    assert codes[:5] == ["burn", "deal", "come_back", "burn", "deal"]
    assert table.hand.burns == 2


def test_DRAW_03_rejects_five_consecutive_cards_in_card_mode() -> None:
    """Card mode: five replacement cards entered at once are refused; four are accepted."""
    table = card_table()
    table.act(1, "draw", discards=HANDS[1])
    assert refused(table, 1, "deal", cards="Ks Qs Js Ts 9s").rule_id is RuleId.DRAW_03
    table.act(1, "deal", cards="Ks Qs Js Ts")
    assert table.hand.to_act == 2
    table.act(2, "draw", discards="2d", cards="As")
    table.act(3, "draw", discards="")
    assert table.hand.to_act == 1
    table.act(1, "deal", cards="9s")
    assert table.hand.player(1).cards == ("Ks", "Qs", "Js", "Ts", "9s")


def test_DRAW_03_allows_five_at_once_where_the_house_allows_it() -> None:
    """max_consecutive = 5: the five cards go out together."""
    table = Table([100, 100], rules=no_split())
    table.start(button=1)
    to_draw(table)
    outcome = table.act(2, "draw", count=5)
    assert [(i["code"], i["count"]) for i in outcome.instructions[:2]] == [("burn", 1), ("deal", 5)]


def test_DRAW_07_accepts_a_changed_request_before_anyone_acted_on_it() -> None:
    """A seat that said pat may still ask for cards while the next seat has not drawn."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=0)
    table.act(2, "draw", count=2)
    assert table.hand.player(2).drawn == (2,)
    assert table.hand.to_act == 3


def test_DRAW_07_rejects_a_change_after_the_cards_were_dealt() -> None:
    """Card mode: once replacement cards went out (entered with the draw), the request is
    locked."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c", cards="Kh Qh")
    assert refused(table, 1, "draw", discards="2c 3c 4c", cards="Kh Qh Jh").rule_id is (
        RuleId.DRAW_07
    )


def test_DRAW_07_rejects_a_change_after_the_next_seat_declared() -> None:
    """A pat seat may not change once the next seat has drawn."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=1)
    assert refused(table, 2, "draw", count=1).rule_id is RuleId.DRAW_07


def test_DRAW_07_accepts_new_discards_in_card_mode_before_the_deal() -> None:
    """Card mode: discards not yet answered by a card return to the hand and may change."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c")
    table.act(1, "draw", discards="6c")
    player = table.hand.player(1)
    assert sorted(player.cards) == sorted(["2c", "3c", "4c", "5c"])
    assert player.pending == 1
    assert player.pile_cards == (("6c",),)


def test_DRAW_06_guides_how_far_the_stub_reaches_before_the_draw() -> None:
    """A notice at the start of the draw says how many cards can go out before a reshuffle."""
    table = Table([100] * 6)
    table.start(button=6)
    to_draw(table)
    assert table.outcome is not None
    notice = table.outcome.notices[0]
    assert notice.rule_id is RuleId.DRAW_06
    assert "22 cards in the stub; 20 can be dealt" in notice.message


def test_DRAW_03_refuses_a_later_draw_that_would_take_an_owed_fifth_card() -> None:
    """The stub (and what a reshuffle could add) keeps the fifth cards still owed."""
    rules = draw_rules(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)
    table = Table([100] * 5, variant=Variant.ACE_TO_SEVEN_STRIPPED, rules=rules)
    table.start(button=5)  # 36 cards, stub 11
    to_draw(table)
    table.act(1, "draw", count=5)  # burn, four now: 6 left, one owed
    table.act(2, "draw", count=5)  # four now: 2 left, two owed
    legal = table.legal()
    assert legal is not None and legal["legal"][0]["max"] == 1
    assert refused(table, 3, "draw", count=2).rule_id is RuleId.DRAW_06
    table.act(3, "draw", count=1)
    table.act(4, "draw", count=0)
    table.act(5, "draw", count=0)
    assert [table.hand.player(seat).held for seat in (1, 2, 3)] == [5, 5, 5]


def test_DRAW_06_guides_the_seed_000_example_three_wanted_two_left() -> None:
    """Seed 000: the last drawer wants three and two are left: one card (the other is the bottom
    card), stop, reshuffle bottom card + burn + the earlier drawers' discards, two more."""
    table = six_handed(HouseRules())
    for seat, count in zip((1, 2, 3, 4, 5), (4, 4, 4, 4, 3), strict=True):
        table.act(seat, "draw", count=count)
    assert table.hand.stub == 2
    outcome = table.act(6, "draw", count=3)
    assert [_words(item) for item in outcome.instructions] == [
        {"code": "deal", "seat": 6, "count": 1, "text": "Deal 1 card to seat 6"},
        {
            "code": "stop",
            "seat": 6,
            "count": 1,
            "text": "Stop: the stub cannot complete seat 6's draw; the last card (the bottom "
            "card) is not dealt: it goes into the reshuffle",
        },
        {
            "code": "reshuffle",
            "seat": 6,
            "count": 21,
            "text": "Reshuffle for seat 6: shuffle face down and cut the 1 card left in the stub "
            "(the bottom card), 1 burn card and the discards of seat 1 (4), seat 2 (4), seat 3 "
            "(4), seat 4 (4) and seat 5 (3) into a new stub of 21 cards. Keep out the discards "
            "of seat 6 (3, its own).",
            "pool": {
                "stub": 1,
                "burns": 1,
                "muck": 0,
                "discards": {"1": 4, "2": 4, "3": 4, "4": 4, "5": 3},
                "kept_out": {"6": 3},
            },
        },
        {
            "code": "deal",
            "seat": 6,
            "count": 2,
            "text": "Deal 2 more cards to seat 6 from the new stub",
        },
    ]
    assert (table.hand.stub, table.hand.player(6).held, table.hand.player(6).pile) == (19, 5, (3,))


def test_DRAW_06_guides_the_owed_fifth_card_dealt_before_a_reshuffle() -> None:
    """Count mode: when the stub cannot cover seat 5's draw and seat 1's owed fifth card, seat
    1 gets its fifth card from the stub first, so its discards may join the reshuffle and no
    seat can be dealt its own discard."""
    table = six_handed(HouseRules())
    for seat, count in zip((1, 2, 3, 4), (5, 4, 4, 4), strict=True):
        table.act(seat, "draw", count=count)
    assert (table.hand.stub, table.hand.come_back) == (5, (1,))
    outcome = table.act(5, "draw", count=4)
    codes = [(i["code"], i["seat"], i["count"]) for i in outcome.instructions]
    assert codes == [
        ("deal", 1, 1),
        ("deal", 5, 3),
        ("stop", 5, 1),
        ("reshuffle", 5, 19),
        ("deal", 5, 1),
        ("ask_draw", 6, None),
    ]
    assert outcome.instructions[0]["text"] == (
        "Deal seat 1 its fifth card (owed since its five-card draw)"
    )
    assert outcome.instructions[3]["pool"] == {
        "stub": 1,
        "burns": 1,
        "muck": 0,
        "discards": {"1": 5, "2": 4, "3": 4, "4": 4},
        "kept_out": {"5": 4},
    }
    assert table.hand.come_back == ()
    assert [table.hand.player(seat).held for seat in range(1, 6)] == [5] * 5


def card_mode_six_handed() -> tuple[Table, list[str]]:
    """Card mode, six players dealt the first 30 cards of a fixed deck; the stub's cards."""
    deck = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    table = Table([100] * 6, mode=Mode.CARD)
    table.start(button=6)
    for seat in range(1, 7):
        table.act(seat, "deal", cards=" ".join(deck[5 * (seat - 1) : 5 * seat]))
    to_draw(table)
    return table, deck[30:]


def test_DRAW_06_rejects_the_own_discard_of_a_seat_owed_its_fifth_card_after_a_reshuffle() -> None:
    """Card mode: a reshuffle for a later seat leaves seat 1's discards out, so its fifth card
    may not be one of them; another seat's reshuffled discard is a fair card."""
    table, stub = card_mode_six_handed()
    hands = {seat: table.hand.player(seat).cards for seat in range(1, 7)}
    table.act(1, "draw", discards=" ".join(hands[1]))
    table.act(1, "deal", cards=" ".join(stub[0:4]))
    for seat in (2, 3, 4, 5):
        cards = " ".join(stub[4 * seat - 4 : 4 * seat])
        table.act(seat, "draw", discards=" ".join(hands[seat][:4]), cards=cards)
    assert table.hand.stub == 1
    table.act(6, "draw", discards=" ".join(hands[6][:3]))
    error = refused(table, 6, "deal", cards=" ".join((hands[1][0], *hands[2][:2])))
    assert error.rule_id is RuleId.DRAW_06
    assert "still owed cards" in error.message
    table.act(6, "deal", cards=" ".join(hands[2][:3]))
    assert table.hand.to_act == 1
    own = refused(table, 1, "deal", cards=hands[1][2])
    assert own.rule_id is RuleId.DRAW_06 and "own discard" in own.message
    table.act(1, "deal", cards=hands[3][0])
    assert table.hand.player(1).held == 5
    assert table.hand.phase.value == "betting_2"


def test_DRAW_06_the_deal_check_counts_the_reshuffled_discards_it_deals() -> None:
    """check_replacements returns how many of a deal's cards are reshuffled discards (what the
    apply step deals after the stop and the reshuffle): none from the stub, three of seat 2's."""
    table, stub = card_mode_six_handed()
    hands = {seat: table.hand.player(seat).cards for seat in range(1, 7)}
    table.act(1, "draw", discards=" ".join(hands[1]))
    from_stub = Act(1, ActionKind.DEAL, cards=tuple(stub[0:4]))
    assert check_replacements(table.hand, from_stub, table.rules, 1) == 0
    table.act(1, "deal", cards=" ".join(stub[0:4]))
    for seat in (2, 3, 4, 5):
        cards = " ".join(stub[4 * seat - 4 : 4 * seat])
        table.act(seat, "draw", discards=" ".join(hands[seat][:4]), cards=cards)
    table.act(6, "draw", discards=" ".join(hands[6][:3]))
    reshuffled = Act(6, ActionKind.DEAL, cards=hands[2][:3])
    assert check_replacements(table.hand, reshuffled, table.rules, 1) == 3
    outcome = table.act(6, "deal", cards=" ".join(hands[2][:3]))
    assert [i["code"] for i in outcome.instructions][:2] == ["stop", "reshuffle"]
    assert table.hand.player(6).held == 5


def test_DRAW_03_rejects_the_fifth_card_before_the_others_have_drawn() -> None:
    """Card mode: after four cards, the fifth card entered at once is refused under DRAW-03."""
    table = card_table()
    table.act(1, "draw", discards=HANDS[1])
    table.act(1, "deal", cards="Ks Qs Js Ts")
    error = refused(table, 1, "deal", cards="9s")
    assert error.rule_id is RuleId.DRAW_03
    assert "after every other seat has drawn" in error.message


def test_DRAW_08_guides_a_rap_as_pat_in_the_draw() -> None:
    """The draw option carries the rap label; a rap is entered as a draw of 0 (pat)."""
    table = Table([100, 100])
    table.start(button=1)
    to_draw(table)
    legal = table.legal()
    assert legal is not None and legal["legal"][0]["rap"] == RAP_LABEL
    table.act(2, "draw", count=0)
    assert table.hand.player(2).drawn == (0,)


def test_DRAW_13_guides_that_discards_and_stub_are_off_limits() -> None:
    """At the start of the draw the dealer is told nobody looks through discards or stub."""
    table = Table([100, 100])
    table.start(button=1)
    to_draw(table)
    assert table.outcome is not None
    notices = {n.rule_id: n.message for n in table.outcome.notices}
    assert "Discards and the stub are off limits" in notices[RuleId.DRAW_13]


def test_DRAW_13_refuses_to_show_discards_or_stub_cards_in_the_view() -> None:
    """Card mode: the public view names no discarded card and no card of the stub."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c", cards="Ks Qs")
    text = str(view(table.state, table.rules, AT))
    assert "2c" not in text and "3c" not in text
    assert "pile" not in text


def test_DRAW_11_rejects_a_bet_by_a_seat_declared_pat_by_the_timer() -> None:
    """After a timeout pat the seat may check, call or fold, but a bet is refused (DRAW-11)."""
    rules = draw_rules(timeout_seconds=30)
    table = Table([100, 100], rules=rules)
    table.start(button=1)
    to_draw(table)
    later = AT + timedelta(seconds=31)
    state = apply(table.state, Act(2, ActionKind.TIME), rules, later).state
    state = apply(state, Act(1, ActionKind.DRAW, count=1), rules, later).state
    with pytest.raises(RuleViolation) as error:
        apply(state, Act(2, ActionKind.BET, amount=20), rules, later)
    assert error.value.rule_id is RuleId.DRAW_11


@pytest.mark.parametrize(
    ("pool", "words"),
    [
        (ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS, "the discards of the other seats"),
        (ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS, "this draw's discards stay out"),
        (ReshufflePool.ALL_DISCARDS_EXCEPT_OWN, "every discard except the drawer's own"),
        (ReshufflePool.ALL_DISCARDS, "every discard"),
    ],
)
def test_DRAW_06_guides_the_reshuffle_pool_before_the_draw(pool: ReshufflePool, words: str) -> None:
    """The notice at the start of the draw names what a reshuffle takes under the profile."""
    table = Table([100] * 6, rules=draw_rules(reshuffle_pool=pool))
    table.start(button=6)
    to_draw(table)
    assert table.outcome is not None
    notice = table.outcome.notices[0]
    assert notice.rule_id is RuleId.DRAW_06 and words in notice.message


def test_DRAW_03_guides_card_mode_to_deal_owed_fifth_cards_before_the_stub_runs_out() -> None:
    """Card mode, everyone draws five: before seat 5's cards would exhaust the stub, seats 1-4
    get their fifth cards; seat 5 may then get their discards but never its own."""
    table, stub = card_mode_six_handed()
    hands = {seat: table.hand.player(seat).cards for seat in range(1, 7)}
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", discards=" ".join(hands[seat]))
        table.act(seat, "deal", cards=" ".join(stub[4 * seat - 4 : 4 * seat]))
    outcome = table.act(5, "draw", discards=" ".join(hands[5]))
    assert _words(outcome.instructions[-1]) == {
        "code": "deal",
        "seat": 1,
        "count": 1,
        "text": "Deal seat 1 its fifth card (owed since its five-card draw)",
    }
    for seat, card in zip((1, 2, 3, 4), stub[16:20], strict=True):
        assert table.hand.to_act == seat
        table.act(seat, "deal", cards=card)
    assert table.hand.to_act == 5 and table.hand.stub == 1
    own = refused(table, 5, "deal", cards=" ".join((hands[5][0], *hands[1][:3])))
    assert own.rule_id is RuleId.DRAW_06
    table.act(5, "deal", cards=" ".join(hands[1][:4]))
    assert table.hand.reshuffles == 1
    table.act(6, "draw", discards=" ".join(hands[6]))
    table.act(6, "deal", cards=" ".join(hands[2][:4]))
    table.act(5, "deal", cards=hands[2][4])
    table.act(6, "deal", cards=hands[3][0])
    assert [table.hand.player(seat).held for seat in range(1, 7)] == [5] * 6
    assert table.hand.phase.value == "betting_2"


def test_DRAW_06_rejects_a_discard_dealt_while_the_stub_still_has_cards() -> None:
    """Card mode: another seat's discard may come back only after the stub ran out."""
    table = card_table()
    table.act(1, "draw", discards="2c 3c", cards="Ks Qs")
    table.act(2, "draw", discards="2d")
    error = refused(table, 2, "deal", cards="2c")
    assert error.rule_id is RuleId.DRAW_06 and "deal from the stub first" in error.message
    table.act(2, "deal", cards="Js")
    assert table.hand.reshuffles == 0


def test_DRAW_07_accepts_the_last_drawers_changed_pat_before_the_first_bet() -> None:
    """The last seat to draw stood pat, the betting after the draw has no entry yet: it may
    still ask for cards; the pat is taken back and the new draw dealt as if it were first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=2)
    outcome = table.act(1, "draw", count=0)
    assert table.hand.phase.value == "betting_2"
    stub = table.hand.stub
    outcome = table.act(1, "draw", count=3)
    assert [e["type"] for e in outcome.events_json()][:2] == ["draw_changed", "action"]
    (was,) = outcome.events_json()[0]["was"]
    assert (was["seat"], was["action"], was["count"]) == (1, "draw", 0)
    assert table.hand.player(1).drawn == (3,)
    assert table.hand.stub == stub - 3
    assert table.hand.phase.value == "betting_2" and table.hand.to_act == 2
    assert len(table.state.hand_log) == len({*table.state.hand_log})  # journaled once


def test_DRAW_07_refuses_the_last_drawers_pat_change_after_the_first_bet() -> None:
    """Once a seat has acted in the betting after the draw, the last drawer's pat stands."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    for seat, count in ((2, 1), (3, 2), (1, 0)):
        table.act(seat, "draw", count=count)
    table.act(2, "check")
    assert refused(table, 1, "draw", count=3).rule_id is RuleId.DRAW_07


def test_DRAW_07_refuses_a_pat_change_from_a_seat_that_was_not_the_last_to_draw() -> None:
    """Only the last request can still be open: an earlier pat was acted on by later seats."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    for seat, count in ((2, 0), (3, 2), (1, 1)):
        table.act(seat, "draw", count=count)
    assert refused(table, 2, "draw", count=2).rule_id is RuleId.GAME_01


def test_DRAW_07_accepts_a_changed_pat_in_card_mode_with_its_discards_and_cards() -> None:
    """Card mode: the last drawer's pat becomes a two-card draw, discards and new cards
    entered, before anyone bets after the draw."""
    table = card_table()
    table.act(1, "draw", discards="2c", cards="Ks")
    table.act(2, "draw", discards="2d", cards="Kd")
    table.act(3, "draw", discards="")
    assert table.hand.phase.value == "betting_2"
    table.act(3, "draw", discards="2h 3h", cards="Qs Qd")
    player = table.hand.player(3)
    assert sorted(player.cards) == sorted(["4h", "5h", "6h", "Qs", "Qd"])
    assert player.pile_cards[-1] == ("2h", "3h")
    assert table.hand.phase.value == "betting_2"


def test_DRAW_07_guides_the_tablet_to_a_pat_that_may_still_change() -> None:
    """The table view names the last drawer's pat while it may still become a draw (with the
    draw's limits), and stops naming it once the betting after the draw has begun."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_draw(table)
    table.act(2, "draw", count=1)
    assert view(table.state, table.rules, AT)["pat_change"] is None
    table.act(3, "draw", count=0)
    assert view(table.state, table.rules, AT)["pat_change"] is None  # seat 1 still to draw
    table.act(1, "draw", count=0)
    pat = view(table.state, table.rules, AT)["pat_change"]
    assert pat is not None and (pat["seat"], pat["action"], pat["min"]) == (1, "draw", 1)
    assert pat["max"] == HouseRules().draw.max_cards == 5
    table.act(2, "check")
    assert view(table.state, table.rules, AT)["pat_change"] is None


def test_DRAW_02_card_mode_offers_the_fourth_card_only_to_a_seat_holding_an_ace() -> None:
    """Card mode knows the hand: without an ace (or joker) the ace exception is not offered,
    even where the house does not make the ace be shown."""
    rules = draw_rules(max_cards=3, four_with_ace=True, ace_must_be_shown=False)
    no_ace = _card_draw("Kc 3c 4c 5c 6c", rules).legal()
    assert no_ace is not None and no_ace["legal"][0]["max"] == 3
    with_ace = _card_draw("Ac 3c 4c 5c 6c", rules).legal()
    assert with_ace is not None and with_ace["legal"][0]["max"] == 4


def heads_up_big_blind_on_the_button(mode: Mode = Mode.COUNT) -> Table:
    """Button 1, blinds 2 and 3: seat 2 posts its small blind, seat 3 sits out at the post and
    the big blind moves onto the button (seat 1, BLIND-07); heads-up, seat 2 calls and seat 1
    checks: the draw, the small blind off the button (BLIND-02). Card mode deals HANDS first."""
    table = Table([100, 100, 100], mode=mode)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "sit_out")
    table.act(1, "post")
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 2, 1)
    if mode is Mode.CARD:
        for seat in (2, 1):
            table.act(seat, "deal", cards=HANDS[seat])
    table.act(2, "call")
    table.act(1, "check")
    assert table.hand.phase.value == "draw_1"
    return table


def test_DRAW_01_accepts_the_big_blind_on_the_button_drawing_first_heads_up() -> None:
    """BLIND-02: heads-up the small blind (seat 2) plays the button's part, so the big blind on
    the button (seat 1) draws first and the small blind last; seat 1 then acts first."""
    table = heads_up_big_blind_on_the_button()
    assert table.hand.to_act == 1
    table.act(1, "draw", count=2)
    assert table.hand.to_act == 2
    table.act(2, "draw", count=1)
    assert table.hand.phase.value == "betting_2" and table.hand.to_act == 1
    assert (table.hand.player(1).drawn, table.hand.player(2).drawn) == ((2,), (1,))


def test_DRAW_01_rejects_the_small_blind_off_the_button_drawing_first_heads_up() -> None:
    """BLIND-02: the small blind off the button (seat 2) may not draw before the big blind on
    the button (seat 1); the refusal says why and offers seat 1 the draw."""
    table = heads_up_big_blind_on_the_button()
    error = refused(table, 2, "draw", count=1)
    assert error.rule_id is RuleId.DRAW_01
    assert "Seat 1 draws next" in error.message and "seat 2, draws last" in error.message
    assert error.allowed and {option["seat"] for option in error.allowed} == {1}


def test_DRAW_01_accepts_the_small_blind_off_the_button_drawing_last_in_card_mode() -> None:
    """Card mode, BLIND-02: seat 1 (the big blind on the button) discards and is dealt first,
    then seat 2 (the small blind); seat 2 may not discard before seat 1."""
    table = heads_up_big_blind_on_the_button(Mode.CARD)
    assert table.hand.to_act == 1
    assert refused(table, 2, "draw", discards="2d").rule_id is RuleId.DRAW_01
    table.act(1, "draw", discards="6c")
    assert table.hand.to_act == 1
    assert refused(table, 2, "deal", cards="7s").rule_id is RuleId.DRAW_01
    table.act(1, "deal", cards="7c")
    assert table.hand.to_act == 2
    table.act(2, "draw", discards="6d")
    table.act(2, "deal", cards="7d")
    assert table.hand.phase.value == "betting_2" and table.hand.to_act == 1


def test_DRAW_07_accepts_a_change_by_the_big_blind_on_the_button_before_the_small_blind() -> None:
    """Heads-up with the small blind off the button (BLIND-02) the big blind on the button
    (seat 1) draws first: its pat may become a draw while the small blind has not drawn."""
    table = heads_up_big_blind_on_the_button()
    table.act(1, "draw", count=0)
    table.act(1, "draw", count=1)
    assert table.hand.player(1).drawn == (1,) and table.hand.to_act == 2


def test_DRAW_07_rejects_a_change_by_the_big_blind_on_the_button_after_the_small_blind() -> None:
    """Card mode, BLIND-02: once the small blind (seat 2, drawing last) has discarded, the pat
    of the big blind on the button (seat 1, drawing first) is locked."""
    table = heads_up_big_blind_on_the_button(Mode.CARD)
    table.act(1, "draw", discards=())
    table.act(2, "draw", discards="6d")
    assert table.hand.phase.value == "draw_1" and table.hand.to_act == 2
    error = refused(table, 1, "draw", discards="6c")
    assert error.rule_id is RuleId.DRAW_07 and "a later seat has acted" in error.message
