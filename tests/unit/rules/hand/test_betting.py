"""Betting rounds: turn order, sizes, caps, short all-ins, check-raise (BET-01..08, OPEN-01)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_table import LIMIT, NO_LIMIT, Table

from dealerassist.rules.model.actions import Stakes, Structure, Variant
from dealerassist.rules.model.house_rules import (
    BettingRules,
    HouseRules,
    OpenRequirement,
    OpenRules,
    PostDrawFirst,
    ShortAllInRule,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation


def rules(**betting: object) -> HouseRules:
    return HouseRules(betting=replace(BettingRules(), **betting))  # type: ignore[arg-type]


def refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    assert table.state is before
    return error.value


def legal_names(table: Table) -> list[str]:
    legal = table.legal()
    assert legal is not None
    return [option["action"] for option in legal["legal"]]


def test_BET_08_accepts_the_seat_whose_turn_it_is() -> None:
    """The first action before the draw belongs to the seat left of the big blind."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    table.act(4, "call")
    assert table.hand.to_act == 1


def test_BET_08_rejects_an_action_out_of_turn() -> None:
    """Once the round has started, another seat's entry is refused with BET-08 and the legal set."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    table.act(4, "call")
    error = refused(table, 3, "check")
    assert error.rule_id is RuleId.BET_08
    assert error.allowed[0]["seat"] == 1


def test_OPEN_01_accepts_the_opener_first_after_the_draw() -> None:
    """Ante game with post_draw_first = opener: the opener acts first after the draw."""
    table = Table(
        [100, 100, 100],
        stakes=Stakes(ante=1, small_bet=10, big_bet=20),
        rules=rules(post_draw_first=PostDrawFirst.OPENER),
    )
    table.start(button=1)
    assert table.hand.to_act == 2
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    table.act(1, "call")
    table.act(2, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=1)
    assert table.hand.to_act == 3
    table.act(3, "check")


def test_OPEN_01_rejects_the_seat_left_of_the_button_when_the_opener_is_first() -> None:
    """Before anyone acts after the draw, the seat left of the button may not jump the opener."""
    table = Table(
        [100, 100, 100],
        stakes=Stakes(ante=1, small_bet=10, big_bet=20),
        rules=rules(post_draw_first=PostDrawFirst.OPENER),
    )
    table.start(button=1)
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    table.act(1, "call")
    table.act(2, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    error = refused(table, 2, "check")
    assert error.rule_id is RuleId.OPEN_01


def test_OPEN_01_guides_left_of_the_button_after_the_draw_in_blind_games() -> None:
    """Blind game: after the draw the first live seat left of the button acts first."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=2)
    assert table.hand.phase.value == "betting_2"
    assert table.hand.to_act == 2


def test_GAME_06_accepts_a_call_of_the_big_blind() -> None:
    """Facing the big blind, a call puts in exactly the difference."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.act(1, "call", amount=10)
    assert table.hand.player(1).bet == 10


def test_GAME_06_rejects_a_check_facing_a_bet() -> None:
    """A seat facing a bet may not check; the refusal lists call, raise and fold."""
    table = Table([100, 100, 100])
    table.start(button=1)
    error = refused(table, 1, "check")
    assert error.rule_id is RuleId.GAME_06
    assert [a["action"] for a in error.allowed] == ["call", "raise", "fold"]
    assert "call 10" in error.message


def test_GAME_06_rejects_a_call_with_nothing_to_call() -> None:
    """The big blind with no raise before him checks; a call is refused."""
    table = Table([100, 100])
    table.start(button=1)
    table.act(1, "call")
    assert refused(table, 2, "call").rule_id is RuleId.GAME_06


def test_BET_01_accepts_a_limp_where_the_house_allows_it() -> None:
    """By default players may just call the big blind before the draw."""
    table = Table([100, 100, 100])
    table.start(button=1)
    assert "call" in legal_names(table)


def test_BET_01_rejects_a_limp_in_a_no_limping_game() -> None:
    """With allow_limp off the first entrant must raise or fold."""
    table = Table([100, 100, 100], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.rules = rules(allow_limp=False)
    table.start(button=1)
    assert legal_names(table) == ["raise", "fold"]
    assert refused(table, 1, "call").rule_id is RuleId.BET_01
    table.act(1, "raise", amount=30)
    table.act(2, "call")


def test_BET_02_accepts_the_big_bet_after_the_draw() -> None:
    """Five-card draw: small bet before the draw, big bet after."""
    table = Table([200, 200])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "check")
    table.act(2, "draw", count=1)
    table.act(1, "draw", count=1)
    table.act(2, "bet", amount=20)
    assert table.hand.current_bet == 20


def test_BET_02_rejects_a_small_bet_after_the_draw() -> None:
    """A 10 bet in the big-bet round is refused with the right size."""
    table = Table([200, 200])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "check")
    table.act(2, "draw", count=1)
    table.act(1, "draw", count=1)
    error = refused(table, 2, "bet", amount=10)
    assert error.rule_id is RuleId.BET_02
    assert {"action": "bet", "min": 20, "max": 20} in error.allowed


def test_BET_03_rejects_a_raise_past_the_cap() -> None:
    """Bet + 3 raises: after 10-20-30-40 the fourth raise is refused."""
    table = Table([500, 500, 500])
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "raise", amount=30)
    table.act(3, "raise", amount=40)
    assert "raise" not in legal_names(table)
    assert refused(table, 1, "raise", amount=50).rule_id is RuleId.BET_03


def test_BET_03_accepts_more_raises_heads_up_when_uncapped() -> None:
    """A round that starts heads-up has no cap under uncapped_heads_up."""
    table = Table([500, 500])
    table.start(button=1)
    for seat, amount in ((1, 20), (2, 30), (1, 40), (2, 50), (1, 60)):
        table.act(seat, "raise", amount=amount)
    assert table.hand.current_bet == 60


def test_BET_03_rejects_the_fifth_bet_heads_up_when_the_cap_stays() -> None:
    """With uncapped_heads_up off the cap holds heads-up too."""
    table = Table([500, 500], rules=rules(uncapped_heads_up=False))
    table.start(button=1)
    for seat, amount in ((1, 20), (2, 30), (1, 40)):
        table.act(seat, "raise", amount=amount)
    assert refused(table, 2, "raise", amount=50).rule_id is RuleId.BET_03


def test_BET_03_accepts_blind_plus_four_raises_when_the_blind_is_not_a_bet() -> None:
    """pokerkit's count (blind_counts_as_bet off): 10-20-30-40-50 before the draw."""
    table = Table([500, 500, 500], rules=rules(blind_counts_as_bet=False))
    table.start(button=1)
    for seat, amount in ((1, 20), (2, 30), (3, 40), (1, 50)):
        table.act(seat, "raise", amount=amount)
    assert "raise" not in legal_names(table)


def test_BET_04_rejects_a_reraise_after_a_short_all_in() -> None:
    """Limit, full-bet rule: a short all-in raise does not reopen the betting for the bettor."""
    table = Table([200, 200, 34], rules=rules(short_all_in=ShortAllInRule.FULL_BET))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "bet", amount=20)
    table.act(3, "raise", amount=24)  # all in: 4 more, not a full raise
    table.act(1, "call")
    assert legal_names(table) == ["call", "fold"]
    assert refused(table, 2, "raise", amount=44).rule_id is RuleId.BET_04


def test_BET_04_accepts_a_reraise_after_a_half_bet_all_in() -> None:
    """Half-bet rule: an all-in raise of half a bet or more reopens the betting."""
    table = Table([200, 200, 40])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "bet", amount=20)
    table.act(3, "raise", amount=30)  # all in: 10 more is half a big bet
    table.act(1, "call")
    table.act(2, "raise", amount=50)
    assert table.hand.current_bet == 50


def test_BET_04_guides_completing_a_short_all_in_bet() -> None:
    """Half-bet rule: after an all-in bet under half a bet the next seat completes the bet."""
    table = Table([200, 200, 14])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "check")
    table.act(3, "bet", amount=4)
    legal = table.legal()
    assert legal is not None
    assert {"action": "raise", "min": 20, "max": 20} in legal["legal"]


def test_BET_05_accepts_the_minimum_no_limit_raise() -> None:
    """No limit: the minimum raise is the last full raise (big blind first)."""
    table = Table([500, 500, 500], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "raise", amount=50)
    legal = table.legal()
    assert legal is not None
    assert {"action": "raise", "min": 80, "max": 500} in legal["legal"]
    table.act(3, "raise", amount=80)


def test_BET_05_rejects_a_no_limit_raise_below_the_minimum() -> None:
    """A raise smaller than the last full raise (and not all in) is refused."""
    table = Table([500, 500, 500], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=30)
    error = refused(table, 2, "raise", amount=40)
    assert error.rule_id is RuleId.BET_05


def test_BET_09_guides_a_short_raise_of_half_the_minimum_or_more_to_a_full_raise() -> None:
    """TDA 43 / WSOP 140-142: seat 2 faces a raise to 30 (minimum raise-to 50) and puts out 40
    (10 of the 20 it must add): the refusal says it is made a full raise to 50, and it is."""
    table = Table([500, 500, 500], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=30)
    error = refused(table, 2, "raise", amount=40)
    assert error.rule_id is RuleId.BET_05
    assert "made a full raise to 50 (BET-09)" in error.message
    table.act(2, "raise", amount=50)


def test_BET_09_rejects_a_short_raise_under_half_the_minimum_and_guides_a_call() -> None:
    """The same seat putting out 39 adds less than half the minimum raise: the refusal says it
    stands as a call of 25 (the small blind's 5 is in), and the call is accepted."""
    table = Table([500, 500, 500], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=30)
    error = refused(table, 2, "raise", amount=39)
    assert error.rule_id is RuleId.BET_05
    assert "stands as a call of 25 (BET-09)" in error.message
    table.act(2, "call")


def test_BET_05_rejects_a_pot_limit_raise_above_the_pot() -> None:
    """Pot limit: the first raise before the draw is at most 35 with blinds 5/10."""
    table = Table([500, 500, 500], structure=Structure.POT_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    legal = table.legal()
    assert legal is not None
    assert {"action": "raise", "min": 20, "max": 35} in legal["legal"]
    assert refused(table, 1, "raise", amount=36).rule_id is RuleId.BET_05


def test_BET_05_accepts_a_pot_limit_raise_to_the_pot() -> None:
    """Pot limit: after a pot raise to 35 and a call, the next pot raise is to 125."""
    table = Table([500, 500, 500], structure=Structure.POT_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=35)
    legal = table.legal()
    assert legal is not None
    assert legal["legal"][1]["max"] == 35 + (35 + 5 + 10) + 30
    table.act(2, "raise", amount=115)


def test_BET_05_rejects_a_reraise_after_a_short_no_limit_all_in() -> None:
    """No limit: a short all-in raise does not reopen the betting for a seat that acted."""
    table = Table([500, 500, 35], structure=Structure.NO_LIMIT, stakes=NO_LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=30)
    table.act(2, "call")
    table.act(3, "raise", amount=35)  # all in, 5 more than 30
    assert legal_names(table) == ["call", "fold"]
    assert refused(table, 1, "raise", amount=70).rule_id is RuleId.BET_05


def test_BET_06_accepts_a_check_raise_by_default() -> None:
    """Check-raise is allowed unless the house turns it off."""
    table = Table([200, 200, 200])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "check")
    table.act(3, "bet", amount=20)
    table.act(1, "call")
    table.act(2, "raise", amount=40)


def test_BET_06_rejects_a_check_raise_where_the_house_forbids_it() -> None:
    """check_raise off: a seat that checked may only call or fold."""
    table = Table([200, 200, 200], rules=rules(check_raise=False))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    table.act(2, "check")
    table.act(3, "bet", amount=20)
    table.act(1, "call")
    assert refused(table, 2, "raise", amount=40).rule_id is RuleId.BET_06


def test_GAME_03_accepts_small_bets_in_the_first_two_triple_draw_rounds() -> None:
    """Triple draw: small bet in rounds 1-2, big bet in rounds 3-4."""
    table = Table([500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "check")
    sizes = []
    for _ in range(3):
        table.act(2, "draw", count=1)
        table.act(1, "draw", count=1)
        legal = table.legal()
        assert legal is not None
        sizes.append(legal["legal"][1]["min"])
        table.act(2, "check")
        table.act(1, "check")
    assert sizes == [10, 20, 20]


def test_GAME_03_rejects_a_big_bet_in_the_second_triple_draw_round() -> None:
    """Triple draw: a 20 bet after the first draw is refused (small bet round)."""
    table = Table([500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "check")
    table.act(2, "draw", count=1)
    table.act(1, "draw", count=1)
    assert refused(table, 2, "bet", amount=20).rule_id is RuleId.BET_02


def test_uncalled_bet_goes_back_and_the_hand_ends_when_one_player_remains() -> None:
    """A bet nobody calls returns to the bettor; no more cards are dealt."""
    table = Table([100, 100, 100], stakes=LIMIT)
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "fold")
    outcome = table.act(3, "fold")
    assert table.hand.phase.value == "complete"
    assert outcome.result is not None
    assert outcome.result.to_json()["returned"] == {"1": 10}
    assert table.stacks() == {1: 115, 2: 95, 3: 90}


def test_OPEN_08_accepts_the_minimum_bet_as_the_all_in_opening_bet_in_no_limit() -> None:
    """No-limit jackpots: the seat all in for the antes opens for the minimum bet (it cannot
    bet chips it lacks); the next seat calls that bet or raises a full bet over it."""
    jacks = HouseRules(open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER))
    stakes = Stakes(ante=5, min_bet=20)
    table = Table([500, 500, 3], structure=Structure.NO_LIMIT, stakes=stakes, rules=jacks)
    table.start(button=2)
    legal = table.legal()
    assert legal is not None and legal["seat"] == 3
    assert {"action": "bet", "min": 20, "max": 20} in legal["legal"]
    assert refused(table, 3, "bet", amount=500).rule_id is RuleId.OPEN_08
    table.act(3, "bet", amount=20)
    legal = table.legal()
    assert legal is not None and legal["seat"] == 1
    assert legal["legal"][0] == {"action": "call", "amount": 20}
    assert legal["legal"][1] == {"action": "raise", "min": 40, "max": 495}
    table.act(1, "call")
    table.act(2, "call")
    assert table.hand.phase.value == "draw_1" and table.hand.player(3).committed == 3
