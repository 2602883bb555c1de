"""Showdown: order of showing, show or muck, cards speak, every pot awarded (SHOW-01..09)."""

from __future__ import annotations

import pytest
from engine_table import NO_LIMIT, Table

from dealerassist.rules.hand.pots import Pot
from dealerassist.rules.hand.showdown import contested_depth, showdown_order
from dealerassist.rules.model.actions import Mode, Stakes, Structure, Variant
from dealerassist.rules.model.house_rules import (
    BettingRules,
    DeckRules,
    HouseRules,
    OpenRequirement,
    OpenRules,
    PostDrawFirst,
    ShowdownRules,
)
from dealerassist.rules.model.ruling_commands import KillHand, Ruling
from dealerassist.rules.model.violations import RuleId, RuleViolation


def refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    assert table.state is before
    return error.value


def to_showdown(table: Table, bettor: int | None = None) -> None:
    """Limp, draw pat, and either check down or let ``bettor`` bet and the others call."""
    while table.hand.phase.value != "showdown":
        legal = table.legal()
        assert legal is not None
        names = [o["action"] for o in legal["legal"]]
        seat = legal["seat"]
        if "draw" in names:
            table.act(seat, "draw", count=0)
        elif seat == bettor and "bet" in names and table.hand.phase.value != "betting_1":
            table.act(seat, "bet", amount=legal["legal"][1]["min"])
        else:
            table.act(seat, "call" if "call" in names else "check")


def test_SHOW_01_accepts_the_last_aggressor_showing_first() -> None:
    """The seat that bet in the last round shows first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_showdown(table, bettor=3)
    assert table.hand.to_act == 3
    table.act(3, "show", cards="Ah Ad Ac Kd Ks")


def test_SHOW_01_guides_left_of_the_button_when_everyone_checked() -> None:
    """All checks in the last round: the first seat left of the button shows first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    outcome = to_showdown_outcome(table)
    assert table.hand.to_act == 2
    assert outcome[-1]["code"] == "show" and outcome[-1]["seat"] == 2


def to_showdown_outcome(table: Table) -> list[dict[str, object]]:
    to_showdown(table)
    assert table.outcome is not None
    return list(table.outcome.instructions)


def test_SHOW_01_rejects_mucking_out_of_order() -> None:
    """Another seat may not muck before the one whose turn it is (it may table its hand)."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_showdown(table, bettor=3)
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01


def test_SHOW_02_accepts_a_caller_mucking() -> None:
    """A caller facing a better shown hand may muck; the shown hand wins."""
    table = Table([100, 100])
    table.start(button=1)
    to_showdown(table, bettor=2)
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    outcome = table.act(1, "muck")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [2]
    assert table.stacks() == {1: 70, 2: 130}


def test_SHOW_02_rejects_mucking_the_last_hand_in_a_pot() -> None:
    """After the other contender mucked, the last one is not asked: he wins without showing."""
    table = Table([100, 100, 100])
    table.start(button=1)
    to_showdown(table, bettor=3)
    table.act(3, "muck")
    table.act(1, "muck")
    assert table.hand.phase.value == "complete"
    assert table.hand.result.to_json()["pots"][0]["winners"] == [2]


def test_SHOW_02_rejects_a_muck_by_the_only_claimant_of_a_side_pot() -> None:
    """A seat alone in a side pot may not muck it away while it still contests the main pot."""
    table = Table([100, 100, 30], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=3)
    table.act(3, "raise", amount=30)  # all in
    table.act(1, "raise", amount=100)  # all in
    table.act(2, "call")  # all in
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=0)
    table.act(1, "muck")
    assert table.hand.to_act == 2
    assert refused(table, 2, "muck").rule_id is RuleId.SHOW_02
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    outcome = table.act(3, "show", cards="2s 2h 3s 3h 4s")
    assert outcome.result is not None
    assert [pot["winners"] for pot in outcome.result.to_json()["pots"]] == [[2], [2]]
    assert table.stacks() == {1: 0, 2: 230, 3: 0}


def test_SHOW_03_rejects_a_hand_of_four_cards() -> None:
    """All five cards must be tabled to claim the pot."""
    table = Table([100, 100])
    table.start(button=1)
    to_showdown(table)
    assert refused(table, 2, "show", cards="Ah Ad Ac Kd").rule_id is RuleId.SHOW_03


def test_SHOW_03_accepts_card_mode_hands_shown_without_retyping() -> None:
    """Card mode knows the cards: `show` without cards tables what the seat holds."""
    table = Table([100, 100], mode=Mode.CARD)
    table.start(button=2)
    table.act(1, "deal", cards="2c 3c 4c 5c 7d")
    table.act(2, "deal", cards="Ah Ad Ac Kd Ks")
    to_showdown(table)
    table.act(1, "show")
    outcome = table.act(2, "show")
    assert outcome.result is not None
    assert outcome.result.to_json()["shown"] == {"1": "2c 3c 4c 5c 7d", "2": "Ah Ad Ac Kd Ks"}
    assert outcome.result.to_json()["pots"][0]["winners"] == [2]


def test_SHOW_03_rejects_a_card_mode_show_of_other_cards() -> None:
    """Card mode: the shown cards must be the ones the seat holds."""
    table = Table([100, 100], mode=Mode.CARD)
    table.start(button=2)
    table.act(1, "deal", cards="2c 3c 4c 5c 7d")
    table.act(2, "deal", cards="Ah Ad Ac Kd Ks")
    to_showdown(table)
    assert refused(table, 1, "show", cards="2c 3c 4c 5c 8d").rule_id is RuleId.SHOW_03


def test_DECK_01_rejects_a_card_already_shown_by_another_seat() -> None:
    """Count mode: two seats cannot show the same card."""
    table = Table([100, 100])
    table.start(button=1)
    to_showdown(table)
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    assert refused(table, 1, "show", cards="Ah 2c 3d 4s 5h").rule_id is RuleId.DECK_01


def test_cards_speak_with_the_deuce_to_seven_ranking() -> None:
    """2-7: 7-5-4-3-2 beats a pair of aces; the wheel is a straight, not a low."""
    table = Table([100, 100], variant=Variant.DEUCE_TO_SEVEN_SINGLE_DRAW)
    table.start(button=1)
    to_showdown(table)
    table.act(2, "show", cards="Ah Ad 3c 4d 5s")
    outcome = table.act(1, "show", cards="7h 5c 4s 3d 2c")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [1]


def test_SHOW_09_guides_a_tie_split_and_SHOW_06_the_odd_chip_left_of_the_button() -> None:
    """Equal hands split; the odd chip goes to the first winner left of the button."""
    table = Table([100, 100, 100])
    table.start(button=2)
    table.act(2, "fold")  # the button folds: the pot is 5 + 10 = 15 plus calls
    table.act(3, "call")
    table.act(1, "check")
    table.act(3, "draw", count=0)
    table.act(1, "draw", count=0)
    table.act(3, "bet", amount=20)
    table.act(1, "call")
    table.act(3, "show", cards="Ah Kd Qc Js 9h")
    outcome = table.act(1, "show", cards="As Kh Qd Jc 9s")
    assert outcome.result is not None
    pot = outcome.result.to_json()["pots"][0]
    assert pot["amount"] == 60
    assert pot["shares"] == {"3": 30, "1": 30}


def test_SHOW_06_guides_the_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    """A 25-chip pot split two ways: seat 3, first winner left of the button, gets 13."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "fold")  # the small blind's 5 stays in the pot
    table.act(3, "check")
    table.act(3, "draw", count=0)
    table.act(1, "draw", count=0)
    table.act(3, "check")
    table.act(1, "check")
    table.act(3, "show", cards="Ah Kd Qc Js 9h")
    outcome = table.act(1, "show", cards="As Kh Qd Jc 9s")
    assert outcome.result is not None
    pot = outcome.result.to_json()["pots"][0]
    assert pot["amount"] == 25
    assert pot["shares"] == {"3": 13, "1": 12}
    assert pot["odd_chip"] == 3


def test_SHOW_07_refuses_the_side_pot_to_a_short_all_in() -> None:
    """The best hand all in for 30 wins only the main pot; the side pot goes to the next best."""
    table = Table([100, 100, 30], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=3)
    table.act(3, "raise", amount=30)
    table.act(1, "raise", amount=100)
    table.act(2, "call")
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=0)
    table.act(1, "show", cards="Kh Kd 2c 5s 7d")
    table.act(2, "show", cards="Qh Qd 3c 6s 8d")
    outcome = table.act(3, "show", cards="Ah Ad Ac 4d 4s")
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [
        (90, [3]),
        (140, [1]),
    ]
    assert table.stacks() == {1: 140, 2: 0, 3: 90}


def test_SHOW_09_refuses_a_split_between_unequal_hands() -> None:
    """Only equal hands split; a better kicker takes the whole pot."""
    table = Table([100, 100])
    table.start(button=1)
    to_showdown(table)
    table.act(2, "show", cards="Ah Kd Qc Js 9h")
    outcome = table.act(1, "show", cards="As Kh Qd Jc 8s")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["shares"] == {"2": 20}


def test_SHOW_06_refuses_the_odd_chip_to_the_second_winner() -> None:
    """Of two winners, the one first clockwise from the button gets the odd chip, never both."""
    table = Table([100, 100, 100])
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "fold")  # the small blind's 5 makes the pot odd
    table.act(2, "check")
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=0)
    table.act(2, "check")
    table.act(3, "check")
    table.act(2, "show", cards="Ah Kd Qc Js 9h")
    outcome = table.act(3, "show", cards="As Kh Qd Jc 9s")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["shares"] == {"2": 13, "3": 12}


def test_SHOW_01_accepts_the_opener_showing_first_when_everyone_checked_in_an_ante_game() -> None:
    """TDA 17-A: in an ante game whose opener acts first after the draw, a checked-down
    showdown starts with the opener, not the seat left of the button."""
    rules = HouseRules(betting=BettingRules(post_draw_first=PostDrawFirst.OPENER))
    table = Table([100, 100, 100], stakes=Stakes(ante=1, small_bet=10, big_bet=20), rules=rules)
    table.start(button=1)
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    table.act(1, "call")
    table.act(2, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    for seat in (3, 1, 2):
        table.act(seat, "check")
    assert table.hand.phase.value == "showdown"
    assert table.hand.to_act == 3
    assert table.outcome is not None and table.outcome.instructions[-1]["seat"] == 3
    assert refused(table, 2, "muck").rule_id is RuleId.SHOW_01
    table.act(3, "show", cards="Jh Jd 4c 5d 7s")
    assert table.hand.to_act == 1


def test_SHOW_01_guides_left_of_the_button_in_an_ante_game_without_opener_first() -> None:
    """The same checked-down ante hand under left-of-button order: seat 2 shows first."""
    table = Table([100, 100, 100], stakes=Stakes(ante=1, small_bet=10, big_bet=20))
    table.start(button=1)
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    table.act(1, "call")
    table.act(2, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    for seat in (2, 3, 1):
        table.act(seat, "check")
    assert table.hand.to_act == 2


def joker_rules() -> HouseRules:
    return HouseRules(deck=DeckRules(joker=True))


def test_DECK_02_accepts_the_bug_at_the_showdown_in_card_mode() -> None:
    """53-card deck: the joker is dealt like a card and plays as an ace at the showdown."""
    table = Table([100, 100], mode=Mode.CARD, rules=joker_rules())
    table.start(button=2)
    assert table.hand.deck == 53
    table.act(1, "deal", cards="Jk Ac Ad Kc Kd")
    table.act(2, "deal", cards="Qs Qh Qd 2c 3c")
    to_showdown(table)
    table.act(1, "show")
    table.act(2, "show")
    result = table.hand.result.to_json()
    assert result["pots"][0]["winners"] == [1]
    assert result["shown"]["1"] == "Jk Ac Ad Kc Kd"
    assert result["jokers"] == {"1": "Ah"}


def test_DECK_02_refuses_the_bug_as_a_wild_queen() -> None:
    """With the bug a pair of queens stays a pair (queens with an ace), not three queens: a
    pair of kings wins."""
    table = Table([100, 100], mode=Mode.CARD, rules=joker_rules())
    table.start(button=2)
    table.act(1, "deal", cards="Jk Qc Qd 7c 2d")
    table.act(2, "deal", cards="Ks Kh 4d 5c 8c")
    to_showdown(table)
    table.act(1, "show")
    table.act(2, "show")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [2]


def test_DECK_02_guides_a_53_card_stub_in_count_mode() -> None:
    """Count mode with the joker: three hands leave 38 cards in the stub, not 37."""
    table = Table([100, 100, 100], rules=joker_rules())
    table.start(button=3)
    assert (table.hand.deck, table.hand.stub) == (53, 38)


def test_DECK_02_guides_five_aces_in_the_result() -> None:
    """Four aces and the bug are reported as five aces and beat a royal flush."""
    table = Table([100, 100], mode=Mode.CARD, rules=joker_rules())
    table.start(button=2)
    table.act(1, "deal", cards="Jk Ac Ad Ah As")
    table.act(2, "deal", cards="Ks Qs Js Ts 9s")
    to_showdown(table)
    table.act(1, "show")
    table.act(2, "show")
    result = table.hand.result.to_json()
    assert (result["pots"][0]["winners"], result["jokers"]) == ([1], {"1": "A"})


def lowball_at_showdown() -> Table:
    table = Table([100, 100], variant=Variant.DEUCE_TO_SEVEN_SINGLE_DRAW)
    table.start(button=1)
    to_showdown(table)
    return table


def test_SHOW_05_guides_the_dealer_when_a_paired_low_hand_is_shown() -> None:
    """2-7: a paired hand spread at the showdown brings a reminder that it must be announced."""
    table = lowball_at_showdown()
    seat = table.hand.to_act
    outcome = table.act(seat, "show", cards="8h 8d 5c 3s 2d")
    (notice,) = [n for n in outcome.notices if n.rule_id is RuleId.SHOW_05]
    assert notice.seat == seat and "'pair'" in notice.message


def test_SHOW_05_refuses_to_prompt_for_an_unpaired_low_hand_or_a_high_game() -> None:
    """No reminder for an unpaired 2-7 hand, nor for a pair in draw high (a pair is good there)."""
    table = lowball_at_showdown()
    outcome = table.act(table.hand.to_act, "show", cards="7h 5d 4c 3s 2d")
    assert not [n for n in outcome.notices if n.rule_id is RuleId.SHOW_05]
    high = Table([100, 100])
    high.start(button=1)
    to_showdown(high)
    outcome = high.act(high.hand.to_act, "show", cards="8h 8d 5c 3s 2d")
    assert not [n for n in outcome.notices if n.rule_id is RuleId.SHOW_05]


def test_RANK_05_guides_the_dealer_with_the_number_of_a_strong_low() -> None:
    """2-7: a strong low shown is read out by its number (8-5-4-3-2 is number five)."""
    table = lowball_at_showdown()
    seat = table.hand.to_act
    outcome = table.act(seat, "show", cards="8h 5d 4c 3s 2d")
    (notice,) = [n for n in outcome.notices if n.rule_id is RuleId.RANK_05]
    assert notice.message == f"Seat {seat} shows 8-5-4-3-2: number 5" and notice.seat == seat


def test_RANK_05_refuses_to_number_a_flush_a_pair_or_a_rough_hand() -> None:
    """No number for a flush, a paired hand or a hand rougher than ten-high."""
    for cards in ("8h 5h 4h 3h 2h", "8h 8d 4c 3s 2d", "Jh 5d 4c 3s 2d"):
        table = lowball_at_showdown()
        outcome = table.act(table.hand.to_act, "show", cards=cards)
        assert not [n for n in outcome.notices if n.rule_id is RuleId.RANK_05], cards


# -- SHOW-01 (WSOP 149): side-pot hands show before a main-pot-only all-in --------------------

SIDE_POTS_FIRST = HouseRules(showdown=ShowdownRules(side_pots_first=True))


def short_all_in_then_bet(rules: HouseRules | None = None) -> Table:
    """Button 1; seat 3 (the big blind) calls all in for 20 before the draw; after it seat 2
    bets 20 and seat 1 calls: a main pot of 60 (seats 1-3), a side pot of 40 (seats 1-2)."""
    table = Table([100, 100, 20], rules=rules)
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "call")
    table.act(3, "call")  # all in
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "bet", amount=20)
    table.act(1, "call")
    assert table.hand.phase.value == "showdown"
    return table


def test_SHOW_01_guides_the_usual_order_past_a_short_all_in_without_the_option() -> None:
    """Default profile: the bettor shows, then clockwise, the all-in seat 3 before seat 1."""
    table = short_all_in_then_bet()
    assert showdown_order(table.hand, table.rules) == [2, 3, 1]
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    assert table.hand.to_act == 3
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01


def test_SHOW_01_accepts_the_side_pot_pair_showing_before_the_all_in() -> None:
    """WSOP 149: after the bettor, the other side-pot hand (seat 1) shows, the all-in seat 3
    for the main pot only last; each pot goes to its best hand."""
    table = short_all_in_then_bet(SIDE_POTS_FIRST)
    assert showdown_order(table.hand, table.rules) == [2, 1, 3]
    table.act(2, "show", cards="Qh Qd Qc Jd Js")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 1
    assert legal["legal"] == [{"action": "show"}, {"action": "muck"}]
    table.act(1, "show", cards="Kh Kd 2c 5s 7d")
    assert table.hand.to_act == 3
    outcome = table.act(3, "show", cards="Ah Ad Ac 4d 4s")
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [
        (60, [3]),
        (40, [2]),
    ]
    assert table.stacks() == {1: 60, 2: 100, 3: 60}


def test_SHOW_01_rejects_the_main_pot_all_in_showing_before_the_side_pot() -> None:
    """WSOP 149: the all-in seat 3 may not show while seat 1 still contests the side pot; the
    refusal names who shows first and why, and leaves seat 1 to act."""
    table = short_all_in_then_bet(SIDE_POTS_FIRST)
    table.act(2, "show", cards="Qh Qd Qc Jd Js")
    violation = refused(table, 3, "muck")
    assert violation.rule_id is RuleId.SHOW_01 and violation.seat == 3
    assert violation.message == (
        "Seat 1 shows (or mucks) first: side pot 1 is shown down before a hand all in for less"
        " (side-pot hands show first, WSOP 149); seat 3 must wait."
    )
    assert violation.allowed == [{"action": "show"}, {"action": "muck"}]
    assert refused(table, 3, "muck").rule_id is RuleId.SHOW_01


def checked_down_past_a_short_all_in(rules: HouseRules | None = None) -> Table:
    """Button 3; the small blind (seat 1) calls all in for 15 before the draw, seats 2 and 3
    put in 20 (a side pot of 10) and check after it: left of the button is the all-in seat."""
    table = Table([15, 100, 100], rules=rules)
    table.start(button=3)
    table.act(3, "raise", amount=20)
    table.act(1, "call")  # all in
    table.act(2, "call")
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=0)
    table.act(2, "check")
    table.act(3, "check")
    assert table.hand.phase.value == "showdown"
    return table


def test_SHOW_01_guides_left_of_the_button_first_past_side_pots_without_the_option() -> None:
    """Checked down, default profile: the all-in seat 1, left of the button, shows first."""
    table = checked_down_past_a_short_all_in()
    assert table.hand.to_act == 1
    assert table.outcome is not None and table.outcome.instructions[-1]["seat"] == 1


def test_SHOW_01_guides_the_side_pot_seats_first_when_everyone_checked() -> None:
    """Checked down with WSOP 149: the dealer is told seat 2 shows first (the first side-pot
    seat left of the button), then seat 3, the all-in seat 1 last."""
    table = checked_down_past_a_short_all_in(SIDE_POTS_FIRST)
    assert showdown_order(table.hand, table.rules) == [2, 3, 1]
    assert table.outcome is not None
    assert table.outcome.instructions[-1]["text"] == "Seat 2 shows first"
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01
    table.act(2, "show", cards="Kh Kd 2c 5s 7d")
    assert table.hand.to_act == 3


def test_SHOW_01_guides_each_seat_to_the_highest_pot_it_contests() -> None:
    """Three all-ins against a deep stack, a pot the deep stack alone may win on top: seats 3
    and 4 contest side pot 2, seat 2 side pot 1, seat 1 the main pot only."""
    pots = [Pot(84, (1, 2, 3, 4)), Pot(75, (2, 3, 4)), Pot(108, (3, 4)), Pot(50, (4,))]
    assert contested_depth(pots) == {1: 0, 2: 1, 3: 2, 4: 2}
    assert contested_depth([Pot(30, (1,))]) == {}


def test_SHOW_02_rejects_a_muck_by_the_last_side_pot_hand_before_the_all_in_shows() -> None:
    """WSOP 149 with SHOW-02: the bettor mucks, so seat 1 alone is left for the side pot; it
    may not muck, shows, and only then the all-in seat 3 shows or mucks."""
    table = short_all_in_then_bet(SIDE_POTS_FIRST)
    table.act(2, "muck")
    assert table.hand.to_act == 1
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_02
    table.act(1, "show", cards="Kh Kd 2c 5s 7d")
    outcome = table.act(3, "muck")
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [
        (60, [1]),
        (40, [1]),
    ]


def test_SHOW_02_accepts_a_side_pot_decided_before_the_all_in_shows() -> None:
    """WSOP 149: seat 1 mucks to the bettor's shown hand, deciding the side pot; the all-in
    seat 3 then shows for the main pot alone and wins it."""
    table = short_all_in_then_bet(SIDE_POTS_FIRST)
    table.act(2, "show", cards="Qh Qd Qc Jd Js")
    table.act(1, "muck")
    assert table.hand.to_act == 3
    outcome = table.act(3, "show", cards="Ah Ad Ac 4d 4s")
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [
        (60, [3]),
        (40, [2]),
    ]


def test_SHOW_01_guides_the_side_pot_first_after_the_floor_kills_a_hand_at_the_showdown() -> None:
    """WSOP 149 after a ruling: seat 2 bet and showed, the floor kills seat 3's hand; the turn
    goes to seat 1 (still in the side pot), not to seat 4, all in for the main pot only."""

    def killed_after_the_bettor_showed(rules: HouseRules | None) -> Table:
        table = Table([100, 100, 100, 20], rules=rules)
        table.start(button=4)
        table.act(3, "raise", amount=20)
        table.act(4, "call")  # all in
        table.act(1, "call")
        table.act(2, "call")
        for seat in (1, 2, 3, 4):
            table.act(seat, "draw", count=0)
        table.act(1, "check")
        table.act(2, "bet", amount=20)
        table.act(3, "call")
        table.act(1, "call")
        table.act(2, "show", cards="Qh Qd Qc Jd Js")
        table.run(Ruling(decision="custom", effects=(KillHand(3),), note="floor decided"))
        assert table.hand.player(3).folded
        return table

    assert killed_after_the_bettor_showed(None).hand.to_act == 4
    table = killed_after_the_bettor_showed(SIDE_POTS_FIRST)
    assert table.hand.to_act == 1
    assert refused(table, 4, "muck").rule_id is RuleId.SHOW_01


def test_SHOW_01_guides_the_side_pot_first_after_the_opener_cannot_prove_openers() -> None:
    """WSOP 149 with OPEN-05: the opener bet last and shows no openers, so his hand is dead;
    the turn goes to seat 3 (still in the side pot), not to seat 2, all in for the antes and
    the opening bet only."""

    def opener_dead(side_pots_first: bool) -> Table:
        rules = HouseRules(
            open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER),
            showdown=ShowdownRules(side_pots_first=side_pots_first),
        )
        stakes = Stakes(ante=1, small_bet=10, big_bet=20)
        table = Table([100, 11, 100, 100], stakes=stakes, rules=rules)
        table.start(button=4)
        table.act(1, "bet", amount=10)  # opens
        table.act(2, "call")  # all in
        table.act(3, "call")
        table.act(4, "call")
        for seat in (1, 2, 3, 4):
            table.act(seat, "draw", count=0)
        table.act(1, "bet", amount=20)
        table.act(3, "call")
        table.act(4, "call")
        assert table.hand.to_act == 1
        table.act(1, "show", cards="Th 9d 5c 4s 2d")
        assert table.hand.player(1).mucked
        return table

    assert opener_dead(side_pots_first=False).hand.to_act == 2
    table = opener_dead(side_pots_first=True)
    assert table.hand.to_act == 3
    assert refused(table, 2, "muck").rule_id is RuleId.SHOW_01


def _checked_down_to_the_opener() -> Table:
    """An ante game whose opener (seat 3) acts first after the draw: checked down, so he is
    the first to show (TDA 17-A)."""
    rules = HouseRules(
        open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER),
        betting=BettingRules(post_draw_first=PostDrawFirst.OPENER),
    )
    table = Table(
        [100, 100, 100, 100], stakes=Stakes(ante=1, small_bet=10, big_bet=20), rules=rules
    )
    table.start(button=4)
    table.act(1, "check")
    table.act(2, "check")
    table.act(3, "bet", amount=10)  # opens
    for seat in (4, 1, 2):
        table.act(seat, "call")
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=0)
    for seat in (3, 4, 1, 2):  # the opener first after the draw
        table.act(seat, "check")
    return table


def test_SHOW_01_guides_the_seat_after_a_dead_opener_when_the_opener_shows_first() -> None:
    """OPEN-05 with TDA 17-A: the opener shows first, cannot show openers, his hand is dead,
    and the next to show is the seat after him (4), not the first left of the button (1): the
    order the profile gives, as for any other showdown (it was the plain order before)."""
    table = _checked_down_to_the_opener()
    assert table.hand.to_act == 3
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01
    table.act(3, "show", cards="Th 9d 5c 4s 2d")
    assert table.hand.player(3).mucked
    assert table.hand.to_act == 4
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01


def test_SHOW_01_guides_the_seat_after_the_opener_the_floor_killed_at_the_showdown() -> None:
    """TDA 17-A: the floor kills the opener's hand before he shows; the next to show is the
    seat after him in the profile's order (4), not the first left of the button (1)."""
    table = _checked_down_to_the_opener()
    table.run(Ruling(decision="custom", effects=(KillHand(3),), note="floor decided"))
    assert table.hand.to_act == 4
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01
