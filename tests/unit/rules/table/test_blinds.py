"""Starting a hand: the button, who is dealt in, posting (BLIND-01..03, DEAL-02, GAME-05/07)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_table import LIMIT, Table

from dealerassist.rules.hand.pots import Pot, hand_pots
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    Stakes,
    StartHand,
)
from dealerassist.rules.model.house_rules import (
    BlindRules,
    ButtonMethod,
    HouseRules,
    TableRules,
    Variant,
)
from dealerassist.rules.model.state import HandState, Phase, PlayerState
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table import blinds
from dealerassist.rules.table.blinds import mark_missed, next_to_post, positions
from dealerassist.rules.table.posting import apply_post, check_post


def refused(table: Table, command: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.run(command)
    assert table.state is before
    return error.value


def test_BLIND_01_accepts_posts_in_order_small_then_big() -> None:
    """The seat left of the button posts the small blind, the next one the big blind."""
    table = Table([100, 100, 100])
    outcome = table.start(button=1, post=False)
    assert [(i["seat"], i["count"]) for i in outcome.instructions] == [(2, 5), (3, 10)]
    table.act(2, "post", amount=5)
    table.act(3, "post")
    assert table.hand.phase.value == "betting_1"
    assert table.hand.player(3).bet == 10


def test_BLIND_01_rejects_a_post_out_of_order() -> None:
    """The big blind may not post before the small blind."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(3, "post")
    assert error.value.rule_id is RuleId.BLIND_01
    assert error.value.allowed[0] == {"action": "post", "amount": 5, "owes": ["small_blind"]}


def test_BLIND_01_rejects_a_wrong_amount() -> None:
    """A post of another amount than owed is refused."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post", amount=10)
    assert error.value.rule_id is RuleId.BLIND_01


def test_BLIND_01_guides_a_short_big_blind_all_in() -> None:
    """A big blind with 6 chips posts them; the others still call the full 10 (BLIND-04)."""
    table = Table([100, 100, 6])
    table.start(button=1)
    assert table.hand.player(3).bet == 6
    legal = table.legal()
    assert legal is not None
    assert legal["legal"][0] == {"action": "call", "amount": 10}


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    """BLIND-02: heads-up the button is the small blind and acts first before the draw."""
    table = Table([100, 100])
    table.start(button=2)
    assert (table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 1)
    assert table.hand.to_act == 2


def test_BLIND_03_accepts_the_dealer_button_for_the_first_hand_then_moves_it() -> None:
    """The first button is given; the next hand's button is the next active seat."""
    table = Table([100, 100, 0, 100])
    table.start(button=2)
    table.act(2, "fold")
    table.act(4, "fold")
    table.run(StartHand())
    assert table.state.button == 4


def test_BLIND_03_rejects_a_button_that_contradicts_the_movement() -> None:
    """After the first hand the button may not be placed elsewhere."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.act(1, "fold")
    table.act(2, "fold")
    assert refused(table, StartHand(button=3)).rule_id is RuleId.BLIND_03


def test_BLIND_03_rejects_a_first_button_on_an_empty_seat() -> None:
    """The first button must sit in front of a player who is dealt in."""
    table = Table([100, 100])
    assert refused(table, StartHand(button=5)).rule_id is RuleId.BLIND_03


def test_DEAL_02_accepts_only_active_seats_with_chips() -> None:
    """A seat without chips is not dealt in."""
    table = Table([100, 0, 100, 100])
    table.start(button=1)
    assert [p.seat for p in table.hand.players] == [3, 4, 1]


def test_DEAL_02_rejects_a_hand_with_one_player() -> None:
    """One active seat cannot be dealt a hand."""
    table = Table([100])
    assert refused(table, StartHand(button=1)).rule_id is RuleId.DEAL_02


def test_GAME_07_accepts_as_many_players_as_the_house_allows() -> None:
    """Six players at a six-max table are all dealt in."""
    table = Table([100] * 6)
    table.start(button=1)
    assert len(table.hand.players) == 6


def test_GAME_07_rejects_more_players_than_the_house_allows() -> None:
    """max_players 4 refuses a hand with five active seats."""
    table = Table([100] * 5, rules=HouseRules(table=TableRules(max_players=4)))
    assert refused(table, StartHand(button=1)).rule_id is RuleId.GAME_07


def test_GAME_05_accepts_five_players_with_a_36_card_deck() -> None:
    """A-7 stripped: a fifth player brings the sixes in (36 cards)."""
    table = Table([100] * 5, variant=Variant.ACE_TO_SEVEN_STRIPPED)
    table.start(button=1)
    assert table.hand.deck == 36
    assert table.hand.stub == 36 - 25


def test_GAME_05_rejects_a_sixth_player_in_the_stripped_deck_game() -> None:
    """A-7 stripped deals at most five players."""
    table = Table([100] * 6, variant=Variant.ACE_TO_SEVEN_STRIPPED)
    assert refused(table, StartHand(button=1)).rule_id is RuleId.GAME_05


def test_sit_out_in_the_big_blind_moves_the_blind_and_marks_the_seat() -> None:
    """BLIND-07: a seat that sits out instead of posting the big blind gets the marker."""
    table = Table([100, 100, 100, 100])
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "sit_out")
    assert table.hand.big_blind_seat == 4
    assert table.state.seat(3).missed_blind == "big"
    table.act(4, "post")
    assert table.hand.to_act == 1


def test_everyone_but_one_sitting_out_cancels_the_hand_and_returns_the_posts() -> None:
    """When fewer than two seats are left to deal in, every post goes back."""
    table = Table([100, 100])
    table.start(button=1, post=False)
    table.act(1, "post")
    outcome = table.act(2, "sit_out")
    assert outcome.result is not None and outcome.result.to_json()["cancelled"]
    assert table.stacks() == {1: 100, 2: 100}


def test_antes_are_posted_by_everyone_and_are_not_bets() -> None:
    """OPEN-01 ante game: each seat antes; the first round starts left of the button with no bet."""
    table = Table([100, 100, 100], stakes=Stakes(ante=2, small_bet=10, big_bet=20))
    table.start(button=1)
    assert table.hand.pot == 6
    assert table.hand.current_bet == 0
    assert table.hand.to_act == 2


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """A table ante posted by the big blind is outside the side-pot levels."""
    stakes = Stakes(small_blind=5, big_blind=10, big_blind_ante=10)
    table = Table([100, 100, 30], stakes=stakes)
    table.start(button=1)
    big = table.hand.player(3)
    assert (big.dead, big.bet, big.stack) == (10, 10, 10)
    table.act(1, "raise", amount=20)
    table.act(2, "fold")
    table.act(3, "call")  # all in
    assert hand_pots(table.hand) == [Pot(55, (3, 1))]


def finish_by_folds(table: Table) -> None:
    """Everyone folds to the big blind."""
    while table.hand.phase.value != "complete":
        table.act(table.hand.to_act, "fold")


def test_BLIND_03_guides_a_dead_button_onto_an_empty_seat() -> None:
    """Dead button: the small blind leaves; the big blind still moves one seat, the button
    lands on the empty seat and the last big blind posts the small blind."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    finish_by_folds(table)
    table.run(RemovePlayer(2))
    table.start()
    hand = table.hand
    assert (table.state.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    assert [p.seat for p in hand.players] == [3, 4, 1]
    assert hand.to_act == 1


def test_BLIND_03_guides_a_dead_small_blind_when_the_big_blind_left() -> None:
    """Dead button: last hand's big blind left; nobody posts the small blind this hand."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    finish_by_folds(table)
    table.run(RemovePlayer(3))
    table.start()
    hand = table.hand
    assert (table.state.button, hand.small_blind_seat, hand.big_blind_seat) == (2, None, 4)
    assert hand.pot == 10


def test_BLIND_03_guides_the_moving_button_to_the_next_player() -> None:
    """Moving button: the button goes to the next player and the blinds follow it."""
    rules = HouseRules(blinds=BlindRules(button_method=ButtonMethod.MOVING))
    table = Table([100, 100, 100, 100], rules=rules)
    table.start(button=1)
    finish_by_folds(table)
    table.run(RemovePlayer(2))
    table.start()
    hand = table.hand
    assert (table.state.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 4, 1)


def test_BLIND_03_rejects_a_button_placed_against_the_dead_button() -> None:
    """Dead button: naming another button seat is refused with where it goes."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    finish_by_folds(table)
    error = refused(table, StartHand(button=3))
    assert error.rule_id is RuleId.BLIND_03
    assert error.allowed == [{"action": "start_hand", "button": 2}]


def test_GAME_05_guides_the_32_card_deck_when_the_fifth_player_sits_out() -> None:
    """A-7 stripped: if one of five sits out instead of posting, four play with 32 cards."""
    stakes = Stakes(small_blind=5, big_blind=10, ante=1, small_bet=10, big_bet=20)
    table = Table([100] * 5, variant=Variant.ACE_TO_SEVEN_STRIPPED, stakes=stakes)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "sit_out")
    table.act(5, "post")
    table.act(1, "post")
    assert table.hand.deck == 32
    assert table.hand.stub == 32 - 20


def test_BLIND_03_guides_a_dead_button_after_the_big_blind_moved_onto_the_button() -> None:
    """Three players; the big blind sits out at the post and the blind moves onto the button.
    Next hand the big blind still moves on (not the same seat twice) and the button is dead
    just before the small blind."""
    table = Table([100, 100, 100])
    table.start(button=1, post=False)  # blinds 2, 3
    table.act(2, "post")
    table.act(3, "sit_out")  # the big blind moves onto the button, seat 1
    table.act(1, "post")
    assert table.hand.big_blind_seat == 1
    finish_by_folds(table)
    table.run(SeatPlayer(5, "P5", 100))
    table.start()
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (6, 1, 2)


def test_missed_markers_are_set_only_for_absent_seats_the_blinds_pass() -> None:
    """BLIND-07: seats the big blind passes get "big", the small blind "small"; active seats
    and seats it does not pass keep none."""
    table = Table([100] * 6)
    table.start(button=1)  # blinds 2, 3
    finish_by_folds(table)
    table.run(SitOut(4))
    table.run(SitOut(6))
    where = positions(table.state, None, table.rules)
    marked = mark_missed(table.state, where)
    assert [s.missed_blind for s in marked.seats] == [None, None, None, "big", None, None]


def heads_up_after_the_big_blind_sits_out(rules: HouseRules | None = None) -> Table:
    """Hand 1 three-handed (button 1, blinds 2 and 3); seat 3, the big blind, then sits out."""
    table = Table([100, 100, 100], rules=rules)
    table.start(button=1)
    finish_by_folds(table)
    table.run(SitOut(3))
    return table


@pytest.mark.parametrize("method", list(ButtonMethod))
def test_BLIND_07_accepts_a_small_blind_marker_when_the_absence_makes_the_game_heads_up(
    method: ButtonMethod,
) -> None:
    """Seat 3's small blind was due in hand 2, played heads-up by seats 1 and 2 (the button,
    seat 2, posts the small blind): seat 3 missed it and is marked "small", the two players
    dealt in are not marked."""
    table = heads_up_after_the_big_blind_sits_out(HouseRules(blinds=BlindRules(method)))
    where = positions(table.state, None, table.rules)
    assert (where.button, where.small_blind, where.big_blind) == (2, 2, 1)
    marked = mark_missed(table.state, where)
    assert [s.missed_blind for s in marked.seats[:3]] == [None, None, "small"]
    table.start()
    assert table.state.seat(3).missed_blind == "small"


def test_BLIND_07_rejects_a_free_hand_for_the_small_blind_missed_at_the_switch_to_heads_up() -> (
    None
):
    """Back for hand 3 (three-handed, on the button), seat 3 owes the small blind it missed
    heads-up, as a dead 5: a post of nothing is refused, the dead 5 is taken."""
    table = heads_up_after_the_big_blind_sits_out()
    table.start()
    finish_by_folds(table)
    table.run(ReturnToPlay(3, wait=False))
    table.start(post=False)
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (3, 1, 2)
    table.act(1, "post")
    table.act(2, "post")
    assert table.hand.player(3).owes_what == ("dead_small_blind",)
    error = refused(table, Act(3, ActionKind.POST, amount=0))
    assert error.rule_id is RuleId.BLIND_09
    assert error.allowed[0] == {"action": "post", "amount": 5, "owes": ["dead_small_blind"]}
    table.act(3, "post")
    assert table.hand.player(3).dead == 5 and table.state.seat(3).missed_blind is None


def heads_up_while_the_small_blind_waits() -> Table:
    """Seat 3 sits out for four heads-up hands (the big blind passes it in the third) and comes
    back asking to post when the small blind is its seat: it waits (BLIND-08), seats 1 and 2
    play heads-up."""
    table = heads_up_after_the_big_blind_sits_out()
    for _ in range(4):
        table.start()
        finish_by_folds(table)
    assert table.state.seat(3).missed_blind == "big"
    table.run(ReturnToPlay(3, wait=False))
    table.start(post=False)
    assert dict(table.hand.waiting) == {3: "BLIND-08"}
    return table


def test_BLIND_02_accepts_the_button_posting_the_small_blind_when_the_small_blind_waits() -> None:
    """Heads-up the button (seat 2) posts the small blind and acts first before the draw, the
    big blind moves on to seat 1 (seat 2 had it last hand); next hand, three-handed again, the
    big blind moves on to seat 2 and seat 3 posts back in on the button."""
    table = heads_up_while_the_small_blind_waits()
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 2, 1)
    assert hand.player(2).owes_what == ("small_blind",) and hand.to_act == 2
    table.act(2, "post")
    table.act(1, "post")
    assert table.hand.player(2).bet == 5 and table.hand.player(1).bet == 10
    assert table.hand.phase.value == "betting_1" and table.hand.to_act == 2
    finish_by_folds(table)
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, 1, 2)
    assert hand.player(3).owes_what == ("returning_big_blind", "dead_small_blind")


def test_BLIND_02_rejects_a_heads_up_hand_with_only_the_big_blind_posted() -> None:
    """The heads-up hand's big blind may not post alone: the button's small blind comes first."""
    table = heads_up_while_the_small_blind_waits()
    error = refused(table, Act(1, ActionKind.POST))
    assert error.rule_id is RuleId.BLIND_01 and "Seat 2 posts first" in error.message
    assert error.allowed[0] == {"action": "post", "amount": 5, "owes": ["small_blind"]}


# -- BLIND-13 with BLIND-05/08: the next seat takes a short single blind and owes an entry ------

SINGLE = HouseRules(blinds=BlindRules(single_blind=True))
SINGLE_STAKES = Stakes(big_blind=10, small_bet=10, big_bet=20)


def short_single_blind_onto_a_newcomer() -> Table:
    """Single blind of 10. Seats 1-3 (100 each) and seat 4 (4 chips) play two hands (the blind
    is seats 2 and 3); a newcomer then sits in seat 5, owing a big blind to enter (BLIND-05).
    Hand 3: button 3, the blind is seat 4, whose 4 chips are less than half a blind, so the
    next seat, the newcomer, takes the blind too (BLIND-13)."""
    table = Table([100, 100, 100, 4], stakes=SINGLE_STAKES, rules=SINGLE)
    table.start(button=1)
    finish_by_folds(table)
    table.start()
    finish_by_folds(table)
    assert table.stacks() == {1: 100, 2: 100, 3: 100, 4: 4}
    table.run(SeatPlayer(5, "New", 100))
    assert table.state.seat(5).new_player
    table.start(post=False)
    hand = table.hand
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, None, 5)
    assert hand.player(4).owes_what == ("big_blind",) and hand.to_act == 5
    return table


def test_BLIND_05_accepts_one_big_blind_from_a_newcomer_taking_a_short_single_blind() -> None:
    """The newcomer takes the blind after the short one and owes one big blind (10, not
    10 + 10): his live big blind to enter is the blind he takes. He posts 10, the short blind
    posts its 4 all in, the action starts on the newcomer's left and he keeps the option."""
    table = short_single_blind_onto_a_newcomer()
    hand = table.hand
    assert hand.player(5).owes == 10 and hand.player(5).owes_what == ("entering_big_blind",)
    legal = table.legal()
    assert legal is not None and legal["seat"] == 5
    assert legal["legal"] == [
        {"action": "post", "amount": 10, "owes": ["entering_big_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]
    outcome = table.act(5, "post", amount=10)
    assert {"type": "posted", "seat": 5, "amount": 10} in outcome.events_json()
    table.act(4, "post")
    hand = table.hand
    assert hand.phase.value == "betting_1" and hand.to_act == 1
    assert (hand.player(5).bet, hand.player(5).dead, hand.player(5).stack) == (10, 0, 90)
    assert (hand.player(4).bet, hand.player(4).stack) == (4, 0)
    assert hand.current_bet == 10
    for seat in (1, 2, 3):
        table.act(seat, "call")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 5
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]
    assert not table.state.seat(5).new_player


def test_BLIND_05_refuses_the_short_single_blind_on_top_of_the_entry() -> None:
    """Posting 20 (the blind taken after the short one and the big blind to enter) is refused:
    the newcomer posts exactly 10, and the refusal names what he may do."""
    table = short_single_blind_onto_a_newcomer()
    error = refused(table, Act(5, ActionKind.POST, amount=20))
    assert error.rule_id is RuleId.BLIND_05 and "post exactly 10" in error.message
    assert error.allowed == [
        {"action": "post", "amount": 10, "owes": ["entering_big_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]


def test_BLIND_13_accepts_the_blind_moving_on_when_the_newcomer_waits() -> None:
    """The newcomer who took the blind after the short one may still wait (BLIND-05): he is
    not dealt in and the blind moves on to the next seat that has not posted (seat 1), which
    owes one big blind."""
    table = short_single_blind_onto_a_newcomer()
    table.act(5, "post", option="wait")
    hand = table.hand
    assert not hand.has(5) and table.state.seat(5).waiting == "BLIND-05"
    assert hand.big_blind_seat == 1
    assert hand.player(1).owes_what == ("big_blind",) and hand.player(1).owes == 10


def returning_seat_after_a_short_single_blind() -> HandState:
    """Stakes 5/10, single blind: seat 2 is the blind with 4 chips; seat 3 next to it owes its
    missed big blind live and the small blind dead (BLIND-08), 15. (The engine keeps a seat
    that skipped the single blind waiting until the blind reaches it, BLIND-13, so this state
    is built by hand: ``_single_blind`` must not charge twice whatever live entry is owed.)"""
    players = (
        PlayerState(seat=2, stack=4, owes=10, owes_what=("big_blind",)),
        PlayerState(
            seat=3, stack=100, owes=15, owes_what=("returning_big_blind", "dead_small_blind")
        ),
        PlayerState(seat=1, stack=100),
    )
    hand = HandState(hand_no=5, phase=Phase.POSTING, button=1, players=players, big_blind_seat=2)
    hand = blinds._single_blind(hand, LIMIT, SINGLE)
    return replace(hand, to_act=next_to_post(hand))


def test_BLIND_08_accepts_the_returning_big_blind_standing_for_the_short_single_blind() -> None:
    """The returning seat takes the blind after the short one and owes 15 (10 live, 5 dead),
    not 25; posted, 10 is its live bet and 5 is dead."""
    hand = returning_seat_after_a_short_single_blind()
    assert hand.big_blind_seat == 3 and hand.to_act == 3
    assert hand.player(3).owes == 15
    assert hand.player(3).owes_what == ("returning_big_blind", "dead_small_blind")
    post = Act(3, ActionKind.POST, amount=15)
    check_post(hand, post, LIMIT)
    posted = apply_post(hand, post, LIMIT).player(3)
    assert (posted.bet, posted.dead, posted.stack) == (10, 5, 85)


def test_BLIND_08_refuses_the_short_single_blind_on_top_of_the_returning_big_blind() -> None:
    """Posting 25 (the blind taken, the missed big blind and the dead small blind) is refused:
    the seat posts exactly 15, 10 live and 5 dead."""
    hand = returning_seat_after_a_short_single_blind()
    with pytest.raises(RuleViolation) as error:
        check_post(hand, Act(3, ActionKind.POST, amount=25), LIMIT)
    assert error.value.rule_id is RuleId.BLIND_08
    assert "post exactly 15" in error.value.message and "10 live, 5 dead" in error.value.message
    assert error.value.allowed == [
        {"action": "post", "amount": 15, "owes": ["returning_big_blind", "dead_small_blind"]},
        {"action": "post", "option": "wait"},
        {"action": "sit_out"},
    ]
