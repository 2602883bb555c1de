"""Floor-supervisor scenarios on the draw, the showdown, kills and the deck where the engine
ruled against the rule books (issue 20, the draw points; issue 18, IRREG-04): each whole hand
accepts the right entry and refuses the wrong one, under the shipped profiles or the option
value the test names. The readings are documented in docs/notes/rules-draw.md."""

from __future__ import annotations

import dataclasses
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "rules"))

from engine_table import AT, NO_LIMIT, Table, cards_accounted
from profile_table import ProfileTable, entry

from dealerassist.profiles import load_profile
from dealerassist.rules.engine import apply, legal_actions, view
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    RemovePlayer,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    Variant,
)
from dealerassist.rules.model.house_rules import ButtonMethod, HouseRules, KillAction, SecondLeg
from dealerassist.rules.model.ruling_commands import HoldPot, ReleasePot, Ruling
from dealerassist.rules.model.state import Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation

PROFILES = Path(__file__).parents[2] / "config" / "house_rules"
TRIPLE = Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
SINGLE = Variant.DEUCE_TO_SEVEN_SINGLE_DRAW


def profile(name: str) -> HouseRules:
    return load_profile(PROFILES / f"{name}.toml")


def with_section(rules: HouseRules, section: str, **options: Any) -> HouseRules:
    """``rules`` with ``options`` changed in one section (``draw``, ``kill``, ...)."""
    changed = dataclasses.replace(getattr(rules, section), **options)
    return dataclasses.replace(rules, **{section: changed})


def refused(table: Table, seat: int, action: str, **fields: Any) -> RuleViolation:
    """The violation the engine raises for the entry; the table is left as it was."""
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, action, **fields)
    assert table.state is before
    return caught.value


def offered(table: Table) -> list[str]:
    legal = table.legal() or {"legal": []}
    return [option["action"] for option in legal["legal"]]


# --- SHOW-01: a hand tabled before its turn ---------------------------------------------------


def bet_and_called(rules: HouseRules) -> Table:
    """casino-five-card-draw heads-up, button 2: seat 1 bets after the draw, seat 2 calls, so
    seat 1 (the last aggressor) shows first."""
    table = Table([100, 100], rules=rules)
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    table.act(1, "bet", amount=20)
    table.act(2, "call")
    assert table.hand.phase.value == "showdown" and table.hand.to_act == 1
    return table


def test_SHOW_01_accepts_a_winner_tabling_his_hand_before_his_turn() -> None:
    """WSOP 149 ("a participant holding a probable winner is encouraged to show the hand
    without delay"), RRoP, TDA 17-A (the order binds only "if cards are not spontaneously
    tabled"): the caller tables his winner first and the record shows it; the bettor, first
    in the order, still owes his show or muck, and mucks; the tabled hand wins."""
    table = bet_and_called(profile("casino-five-card-draw"))
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    assert table.hand.to_act == 1 and offered(table) == ["show", "muck"]
    table.act(1, "muck")
    result = table.hand.result.to_json()
    assert result["shown"] == {"2": "Ah Ad Ac Kd Ks"}
    assert result["pots"][0]["winners"] == [2]
    assert table.stacks() == {1: 70, 2: 130}


def test_SHOW_01_rejects_a_muck_out_of_turn_and_a_folded_seat_showing() -> None:
    """WSOP 149, TDA 17-A: the order still decides who must show: the caller may table his
    hand but may not muck before the last aggressor has shown (or mucked); a seat that folded
    has no hand to table."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=3)
    table.act(3, "fold")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    table.act(1, "bet", amount=20)
    table.act(2, "call")
    assert refused(table, 2, "muck").rule_id is RuleId.SHOW_01
    assert refused(table, 3, "show", cards="Ah Ad Ac Kd Ks").rule_id is RuleId.SHOW_01
    table.act(1, "show", cards="7s 9s Js Qs Ks")
    table.act(2, "muck")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [1]


# --- IRREG-04: a card exposed on the draw, once the betting after it is over -------------------

DEALT = {1: "7h 5c 4s 3d 2c", 2: "8h 6d 4d 3s 2d", 3: "Ah Ad Qc Qs Js"}


def drawn_and_checked(mode: Mode, rules: HouseRules) -> Table:
    """Five-card draw, three players of 100, button 3: everyone calls, each draws one (seat 3
    last, dealt 9c in card mode) and everyone checks after the draw: the showdown."""
    table = Table([100, 100, 100], rules=rules, mode=mode)
    table.start(button=3)
    if mode is Mode.CARD:
        for seat, cards in DEALT.items():
            table.act(seat, "deal", cards=cards)
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    replacements = {1: ("2c", "6c"), 2: ("8h", "7d"), 3: ("Js", "9c")}
    for seat, (discard, card) in replacements.items():
        if mode is Mode.CARD:
            table.act(seat, "draw", discards=discard)
            table.act(seat, "deal", cards=card)
        else:
            table.act(seat, "draw", count=1)
    return table


@pytest.mark.parametrize("mode", [Mode.COUNT, Mode.CARD])
def test_IRREG_04_rejects_an_exposed_draw_card_at_the_showdown(mode: Mode) -> None:
    """RRoP (Irregularities: a card exposed on the draw is replaced after the others), WSOP 273,
    and issue 18: the exposed entry belongs to the draw until the first action after it; at
    the showdown the betting after the last draw is over, so the entry is refused (the floor
    decides) instead of sending the hand back to the draw; the tablet offers nothing for it."""
    rules = with_section(
        profile("casino-five-card-draw"), "irregularities", exposed_draw_closes_at_showdown=True
    )
    table = drawn_and_checked(mode, rules)
    for seat in (1, 2, 3):
        table.act(seat, "check")
    assert table.hand.phase is Phase.SHOWDOWN
    assert view(table.state, rules, AT)["exposed_draw"] is None
    card = {"cards": "9c"} if mode is Mode.CARD else {}
    violation = refused(table, 3, "exposed", **card)
    assert violation.rule_id is RuleId.IRREG_04 and "call the floor" in violation.message
    table.act(1, "show", cards="7h 6c 5c 4s 3d")
    assert table.hand.phase is Phase.SHOWDOWN


@pytest.mark.parametrize("mode", [Mode.COUNT, Mode.CARD])
def test_IRREG_04_accepts_an_exposed_draw_card_before_the_first_action_after_the_draw(
    mode: Mode,
) -> None:
    """RRoP, WSOP 273: right after the deal that exposed it, before anyone acts, the exposed
    card is entered and replaced last (the same option on); after the first check it is the
    floor's (IRREG-04 refuses it)."""
    rules = with_section(
        profile("casino-five-card-draw"), "irregularities", exposed_draw_closes_at_showdown=True
    )
    table = drawn_and_checked(mode, rules)
    assert table.hand.phase is Phase.BETTING_2
    later = drawn_and_checked(mode, rules)
    card = {"cards": "9c"} if mode is Mode.CARD else {}
    outcome = table.act(3, "exposed", **card)
    assert [e["type"] for e in outcome.events_json() if e["type"] == "exposed"] == ["exposed"]
    if mode is Mode.CARD:  # back in the draw: seat 3's replacement is entered now
        assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 3
    later.act(1, "check")
    assert refused(later, 3, "exposed", **card).rule_id is RuleId.IRREG_04


def test_SHOW_11_offers_no_show_or_muck_while_the_floor_holds_the_pot() -> None:
    """SHOW-11 (issue 18): while the floor holds the pot the tablet is offered neither show nor
    muck, and both are refused; once released, the seat to show is offered both again."""
    table = bet_and_called(profile("casino-five-card-draw"))
    table.run(Ruling(decision="custom", note="surveillance", effects=(HoldPot(),)))
    legal = table.legal()
    assert legal is not None and legal["legal"] == [] and legal["floor"] == "SHOW-11"
    assert refused(table, 1, "show", cards="7s 9s Js Qs Ks").rule_id is RuleId.SHOW_11
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_11
    table.run(Ruling(decision="custom", note="cleared", effects=(ReleasePot(),)))
    assert offered(table) == ["show", "muck"]


# --- KILL-02 / KILL-04: the second leg and the kill's turn --------------------------------------


class KillTable(ProfileTable):
    def hand_posts(self) -> None:
        """Make every post of the hand started."""
        while self.state.hand is not None and self.state.hand.phase is Phase.POSTING:
            self.run(Act(self.state.hand.to_act or 0, ActionKind.POST))


def kill_table(name: str, section: str = "kill", **options: Any) -> KillTable:
    """A 2-7 triple-draw table of four under a kill profile (``options`` changed), 500 each."""
    rules = with_section(profile(name), section, **options) if options else profile(name)
    return KillTable(rules, TRIPLE, (1, 2, 3, 4))


def test_KILL_02_rejects_a_second_leg_of_blinds_and_one_small_call() -> None:
    """WSOP 195 ("for the second leg to qualify ... you must win at least one full bet ...; it
    cannot be any part of the blind structure"), RRoP Kill Pots 3: seat 3 wins hand 1 (a
    leg), then a pot of the blinds and the small blind's 5-chip call: no full bet beyond the
    blinds, so no second leg and nobody kills hand 3 (the old reading made seat 3 kill)."""
    table = kill_table("casino-triple-draw-27-kill", second_leg=SecondLeg.FULL_BET_BEYOND_BLINDS)
    table.hand(["3 raise 20", "4 fold", "1 fold", "2 fold"], button=4)
    assert table.leg() == (3, 1)
    table.hand(["4 fold", "1 fold", "2 call", "3 raise 20", "2 fold"])
    assert table.leg() == (3, 1)
    table.hand([])
    assert table.state.hand is not None and table.state.hand.kill_seat is None
    old = kill_table("casino-triple-draw-27-kill", second_leg=SecondLeg.POT_LESS_KILL_BLIND)
    old.hand(["3 raise 20", "4 fold", "1 fold", "2 fold"], button=4)
    old.hand(["4 fold", "1 fold", "2 call", "3 raise 20", "2 fold"])
    assert old.leg() == (3, 2)


def test_KILL_02_accepts_a_second_leg_with_a_full_bet_beyond_the_blinds() -> None:
    """WSOP 195: seat 1's raise to 20 is a full bet that is no part of the blinds; seat 3
    re-raises and wins it: two legs in a row, so seat 3 kills hand 3 for 20."""
    table = kill_table("casino-triple-draw-27-kill", second_leg=SecondLeg.FULL_BET_BEYOND_BLINDS)
    table.hand(["3 raise 20", "4 fold", "1 fold", "2 fold"], button=4)
    table.hand(["4 fold", "1 raise 20", "2 fold", "3 raise 30", "1 fold"])
    assert table.leg() == (3, 2)
    table.hand([])
    assert table.state.hand is not None and table.state.hand.kill_seat == 3


def test_KILL_04_accepts_the_kill_acting_in_turn_before_the_draw() -> None:
    """WSOP 194 ("the kill will act in turn. Once the kill has acted, action then continues
    in sequence to the left of the kill"), RRoP Kill Pots 2: seat 3, left of the big blind,
    kills and acts first; once everyone has called its 20 the round is over (no last action
    for the kill) and the draw begins."""
    table = kill_table("casino-triple-draw-27-optional-kill", action=KillAction.IN_TURN)
    started = table.run(StartHand(4, 3))
    (kill,) = [i["text"] for i in started.instructions if i["code"] == "kill_pot"]
    assert kill.endswith("before the draw seat 3 acts in turn")
    table.hand_posts()
    assert table.state.hand is not None and table.state.hand.to_act == 3
    for step in ["3 check", "4 call", "1 call", "2 call"]:
        table.run(entry(step))
    assert table.state.hand is not None and table.state.hand.phase is Phase.DRAW_1


def test_KILL_04_rejects_the_seat_left_of_the_kill_acting_before_it_in_turn() -> None:
    """WSOP 194: with the kill in turn, seat 4 (left of the kill) may not act first: KILL-04
    names the kill's turn; under the house's other value (``last``) seat 4 acts first."""
    table = kill_table("casino-triple-draw-27-optional-kill", action=KillAction.IN_TURN)
    table.hand([], button=4, kill_seat=3)
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.run(entry("4 call"))
    assert caught.value.rule_id is RuleId.KILL_04 and table.state is before
    assert "acts in turn" in caught.value.message
    last = kill_table("casino-triple-draw-27-optional-kill", action=KillAction.LAST)
    last.hand([], button=4, kill_seat=3)
    assert last.state.hand is not None and last.state.hand.to_act == 4


# --- DRAW-06: no later drawer is dealt his own discards; six-handed single draw completes ------

CARDS = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]


def three_draws_of_five(mode: Mode, **draw: Any) -> tuple[Table, list[str]]:
    """casino-triple-draw-27 (``draw`` options changed, five in a row allowed so each draw of
    five is one entry), three seats, button 3: each seat draws five in draws 1 and 2 and
    checks; 5 cards are left for draw 3, where seat 1 draws three. In card mode the cards
    come in order from ``CARDS``; the unseen ones are returned."""
    rules = with_section(profile("casino-triple-draw-27"), "draw", max_consecutive=5, **draw)
    table = Table([500, 500, 500], variant=TRIPLE, rules=rules, mode=mode)
    table.start(button=3)
    deck = list(CARDS)
    if mode is Mode.CARD:
        for seat in (1, 2, 3):
            table.act(seat, "deal", cards=" ".join(deck[:5]))
            del deck[:5]
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(2):
        for seat in (1, 2, 3):
            if mode is Mode.CARD:
                held = " ".join(table.hand.player(seat).cards)
                table.act(seat, "draw", discards=held, cards=" ".join(deck[:5]))
                del deck[:5]
            else:
                table.act(seat, "draw", count=5)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    assert table.hand.stub == 5
    if mode is Mode.CARD:
        kept = " ".join(table.hand.player(1).cards[:2])
        thrown = " ".join(table.hand.player(1).cards[2:])
        assert kept
        table.act(1, "draw", discards=thrown, cards=" ".join(deck[:3]))
        del deck[:3]
    else:
        table.act(1, "draw", count=3)
    return table, deck


def test_DRAW_06_guides_a_reshuffle_that_keeps_out_a_later_drawers_discards() -> None:
    """Seed 000 ("the bottom card, the burns and the discards of the players who drew
    earlier"), RRoP (a player never gets his own discards back): in draw 3 seat 2's reshuffle
    takes seat 1's discards only; seat 3, still to draw, keeps its ten discards of draws 1-2
    out, so it is never dealt its own cards."""
    table, _ = three_draws_of_five(Mode.COUNT, reshuffle_keeps_out_later_drawers=True)
    table.act(2, "draw", count=4)
    reshuffle = next(i for i in table.outcome.instructions if i["code"] == "reshuffle")
    assert reshuffle["text"] == (
        "Reshuffle for seat 2: shuffle face down and cut the 1 card left in the stub (the "
        "bottom card), 3 burn cards and the discards of seat 1 (13) into a new stub of 17 cards. "
        "Keep out the discards of seat 2 (14, its own) and seat 3 (10)."
    )
    assert "seats that drew before in this draw" in table_notice(table, 3)


def table_notice(table: Table, draw_round: int) -> str:
    """The DRAW-06 notice a profile gives before ``draw_round`` (rebuilt from the rules)."""
    from dealerassist.rules.hand.stub import reach_notice

    return reach_notice(table.hand, table.rules, draw_round).message


def test_DRAW_06_rejects_a_later_drawers_discard_dealt_from_the_reshuffle_in_card_mode() -> None:
    """Card mode, the same hand: seat 2 may be dealt seat 1's discards from the new stub, but a
    card seat 3 threw in draw 1 is refused (DRAW-06: seat 3 is still to draw); with the option
    off (profile versions before it) the same card was accepted and seat 3 could later be
    dealt its own discards."""
    table, unseen = three_draws_of_five(Mode.CARD, reshuffle_keeps_out_later_drawers=True)
    seat_1_thrown = list(table.hand.player(1).pile_cards[0])
    seat_3_thrown = list(table.hand.player(3).pile_cards[0])
    held = " ".join(table.hand.player(2).cards[:4])
    wrong = " ".join([*seat_1_thrown[:3], seat_3_thrown[0]])
    violation = refused(table, 2, "draw", discards=held, cards=wrong)
    assert violation.rule_id is RuleId.DRAW_06 and "seat 3" in violation.message
    table.act(2, "draw", discards=held, cards=" ".join(seat_1_thrown[:4]))
    old, _ = three_draws_of_five(Mode.CARD, reshuffle_keeps_out_later_drawers=False)
    old.act(2, "draw", discards=" ".join(old.hand.player(2).cards[:4]), cards=wrong)
    assert unseen


def six_handed_single_draw(**draw: Any) -> Table:
    """single-draw-27-no-limit (``draw`` options changed), 6 x 1000, button 6: seat 3 raises to
    20, all call; seats 1-4 draw five each, leaving the stub at its bottom card."""
    rules = with_section(profile("single-draw-27-no-limit"), "draw", **draw)
    table = Table(
        [1000] * 6, variant=SINGLE, structure=Structure.NO_LIMIT, stakes=NO_LIMIT, rules=rules
    )
    table.start(button=6)
    table.act(3, "raise", amount=20)
    for seat in (4, 5, 6, 1, 2):
        table.act(seat, "call")
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=5)
    assert table.hand.stub == 1
    return table


def test_DRAW_06_accepts_every_legal_draw_six_handed_in_single_draw() -> None:
    """WSOP 274 (draws of up to five, five in a row allowed) with the WSOP pool, which names
    the discards of previous rounds: single draw has none, so the seats already served in it
    are reshuffled (never the drawer's own): seat 5 draws five, seat 6 five too."""
    table = six_handed_single_draw(reshuffle_first_draw_served=True)
    legal = table.legal()
    assert legal is not None and legal["legal"][0]["max"] == 5
    table.act(5, "draw", count=5)
    reshuffle = next(i for i in table.outcome.instructions if i["code"] == "reshuffle")
    assert "seat 1 (5), seat 2 (5), seat 3 (5) and seat 4 (5)" in reshuffle["text"]
    table.act(6, "draw", count=5)
    assert table.hand.phase is Phase.BETTING_2
    assert cards_accounted(table.hand) == 52


def test_DRAW_06_rejects_a_draw_the_stub_cannot_give_without_the_served_seats_discards() -> None:
    """The pool as profile versions before the option read it (muck and burns only in the
    first draw): seat 5's draw of five is refused, DRAW-06 can give only 2."""
    table = six_handed_single_draw(reshuffle_first_draw_served=False)
    violation = refused(table, 5, "draw", count=5)
    assert violation.rule_id is RuleId.DRAW_06


# --- DRAW-07: a draw may be changed until the next entry (count mode) ---------------------------


def limped_to_the_draw(rules: HouseRules) -> Table:
    """casino-five-card-draw, three players of 100, button 3, everyone in: the draw."""
    table = Table([100, 100, 100], rules=rules)
    table.start(button=3)
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    assert table.hand.phase is Phase.DRAW_1
    return table


def test_DRAW_07_accepts_a_draw_changed_before_the_next_entry_in_count_mode() -> None:
    """RRoP (Draw: "a player may change his draw request until the dealer deals a card or the
    burn, or a later seat acts"), WSOP 276: count mode records no card, so seat 1's "draw 2"
    may become "draw 3" until the next entry; the hand is rebuilt as if the first request had
    never been made (the stub holds three cards fewer, not five)."""
    table = limped_to_the_draw(profile("casino-five-card-draw"))
    stub = table.hand.stub
    table.act(1, "draw", count=2)
    outcome = table.act(1, "draw", count=3)
    assert (
        next(e for e in outcome.events_json() if e["type"] == "draw_changed")["was"][0]["count"]
        == 2
    )
    assert table.hand.player(1).drawn == (3,) and table.hand.stub == stub - 1 - 3
    assert table.hand.to_act == 2


def test_DRAW_07_rejects_a_draw_changed_after_a_later_seat_drew() -> None:
    """RRoP, WSOP 276: once seat 2 has drawn, seat 1's request is locked (DRAW-07)."""
    table = limped_to_the_draw(profile("casino-five-card-draw"))
    table.act(1, "draw", count=2)
    table.act(2, "draw", count=1)
    assert refused(table, 1, "draw", count=3).rule_id is RuleId.DRAW_07


# --- IRREG-03: the replaced exposed card is the first draw's burn -------------------------------


def exposed_on_the_deal(**irregularities: Any) -> Table:
    """single-draw-27-no-limit (WSOP: every exposed card replaced; ``irregularities`` changed),
    three seats of 1000, button 3, count mode: seat 2's 9 is exposed on the deal and replaced,
    everyone calls; the draw."""
    rules = with_section(profile("single-draw-27-no-limit"), "irregularities", **irregularities)
    table = Table(
        [1000] * 3, variant=SINGLE, structure=Structure.NO_LIMIT, stakes=NO_LIMIT, rules=rules
    )
    table.start(button=3)
    table.act(2, "exposed", rank="9")
    table.act(3, "raise", amount=20)
    table.act(1, "call")
    table.act(2, "call")
    assert table.hand.phase is Phase.DRAW_1
    return table


def test_IRREG_03_guides_no_second_burn_after_an_exposed_card_replaced_on_the_deal() -> None:
    """RRoP (Lowball irregularities 3: the exposed card is replaced "after the deal is
    completed" and "is used as the burn"), WSOP 283: the card in the burn pile is the first
    draw's burn; the dealer burns nothing more, so the stub gives one card more than after a
    second burn (the reading of profile versions before the option)."""
    table = exposed_on_the_deal(exposed_is_first_burn=True)
    stub = table.hand.stub
    outcome = table.act(1, "draw", count=2)
    assert [i["text"] for i in outcome.instructions][:2] == [
        "Burn nothing more: the card already in the burn pile is this burn",
        "Deal 2 cards to seat 1",
    ]
    assert table.hand.stub == stub - 2 and table.hand.burns == 1
    assert cards_accounted(table.hand) == 52
    old = exposed_on_the_deal(exposed_is_first_burn=False)
    outcome = old.act(1, "draw", count=2)
    assert outcome.instructions[0]["text"] == "Burn one card" and old.hand.burns == 2


# --- DRAW-11: the draw timer runs on the player's choice ----------------------------------------


def stripped_card_draw() -> Table:
    """ace-to-seven-stripped (30 s draw timer; the option on), two seats in card mode, button 2,
    in for the big blind: seat 1 declares a draw of two (its discards), the cards to come."""
    rules = with_section(profile("ace-to-seven-stripped"), "draw", timer_stops_at_declaration=True)
    table = Table([100, 100], variant=Variant.ACE_TO_SEVEN_STRIPPED, rules=rules, mode=Mode.CARD)
    table.start(button=2)
    table.act(1, "deal", cards="7c 7d 8h 9s Tc")
    table.act(2, "deal", cards="8c 8d 9h Ts Jc")
    table.act(2, "call")
    table.act(1, "check")
    return table


def test_DRAW_11_rejects_time_once_the_draw_is_declared_in_card_mode() -> None:
    """seed 004 / 32CD (30 s "to choose a draw"; on timeout pat): the timer is the player's.
    Seat 1 declared "draw 2" in time; the dealer is slow with the cards: `time` is neither
    offered nor accepted (DRAW-11), and the cards are dealt as declared."""
    table = stripped_card_draw()
    table.act(1, "draw", discards="7c 7d")
    later = AT + timedelta(seconds=31)
    legal = legal_actions(table.state, table.rules, later)
    assert legal is not None and legal["legal"] == [{"action": "deal", "count": 2}]
    with pytest.raises(RuleViolation) as caught:
        apply(table.state, Act(1, ActionKind.TIME), table.rules, later)
    assert caught.value.rule_id is RuleId.DRAW_11 and "declared" in caught.value.message
    table.act(1, "deal", cards="Qc Qd")
    assert table.hand.player(1).drawn == (2,) and not table.hand.player(1).timed_out


def test_DRAW_11_accepts_time_for_a_seat_that_has_not_chosen() -> None:
    """seed 004: seat 2 has not chosen its draw 31 s after seat 1's cards: `time` declares it
    pat (it may then only check, call or fold)."""
    table = stripped_card_draw()
    table.act(1, "draw", discards="7c 7d", cards="Qc Qd")
    later = AT + timedelta(seconds=31)
    assert {"action": "time"} in (legal_actions(table.state, table.rules, later) or {})["legal"]
    state = apply(table.state, Act(2, ActionKind.TIME), table.rules, later).state
    assert state.hand is not None and state.hand.player(2).timed_out


# --- GAME-01: a folded player may leave during the hand ------------------------------------------


def test_GAME_01_accepts_a_folded_player_leaving_during_the_hand() -> None:
    """RRoP (a player who folds has no further part in the hand; the chips he put in are the
    pot's): seat 3 folds and leaves with the chips behind him; his blind stays in the pot,
    the hand plays on and the seat is empty afterwards, its chips not given back."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "raise", amount=20)
    table.act(1, "fold")
    outcome = table.run(RemovePlayer(1))
    assert {"type": "left", "seat": 1, "player": "P1", "stack": 90} in outcome.events_json()
    assert table.hand.pot == 40 and table.state.seat(1).player is None
    table.act(2, "call")
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=1)
    table.act(2, "check")
    table.act(3, "check")
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    table.act(3, "muck")
    assert table.stacks() == {2: 130, 3: 80}
    assert table.state.seat(1).stack == 0


def test_GAME_01_rejects_a_live_hand_leaving_and_a_new_player_in_the_dead_seat() -> None:
    """A player whose hand is live leaves only when the hand is over (GAME-01); the seat a
    folded player left is not taken while his dead hand is still in the hand."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=1)
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.run(RemovePlayer(1))
    assert caught.value.rule_id is RuleId.GAME_01 and table.state is before
    table.act(1, "fold")
    table.run(RemovePlayer(1))
    with pytest.raises(RuleViolation) as seated:
        table.run(SeatPlayer(1, "New", 100))
    assert seated.value.rule_id is RuleId.GAME_01


# --- GAME-05: the deck never changes silently during a hand --------------------------------------


def test_GAME_05_guides_the_deck_change_when_a_seat_sits_out_at_the_post() -> None:
    """seed 000 (32 cards for up to four players, 36 with five): the hand is announced for
    five with the 36-card deck; the big blind's seat sits out at the post, four are dealt in:
    the dealer is told the deck is now 32 cards (the sixes out), and a six dealt is a blank
    (DECK-05) while a seven is accepted."""
    rules = profile("ace-to-seven-stripped")
    table = Table([100] * 5, variant=Variant.ACE_TO_SEVEN_STRIPPED, rules=rules, mode=Mode.CARD)
    started = table.start(button=5, post=False)
    assert table.hand.deck == 36
    assert any(n.rule_id is RuleId.GAME_05 and "36-card" in n.message for n in started.notices)
    table.act(1, "post")
    outcome = table.act(2, "sit_out")
    while table.hand.phase is Phase.POSTING:
        outcome = table.act(table.hand.to_act, "post")
    (notice,) = [n for n in outcome.notices if n.rule_id is RuleId.GAME_05]
    assert "32-card deck, not the 36-card deck announced (take the sixes out)" in notice.message
    assert table.hand.deck == 32
    seat = table.hand.to_act
    assert refused(table, seat, "deal", cards="6c 7c 7d 7h 7s").rule_id is RuleId.DECK_05
    table.act(seat, "deal", cards="8c 7c 7d 7h 7s")


# --- DECK-06: a card found face up in the stub ----------------------------------------------------


def test_DECK_06_accepts_a_boxed_card_in_the_draw_and_a_second_is_a_void_hand() -> None:
    """WSOP 23 ("a boxed card ... will be treated as a meaningless scrap of paper ... replaced
    by the next card"; "if 2 or more boxed cards appear ..., the hand in progress will be
    void"), RRoP misdeals: in the draw the card found face up leaves the stub for the burn
    pile (the stub shrinks by one, the burn owed is still taken), cards stay conserved and a
    reshuffle takes it; a second one tells the dealer the hand is void (call the floor)."""
    table = limped_to_the_draw(profile("casino-five-card-draw"))
    stub, burns = table.hand.stub, table.hand.burns
    outcome = table.act(1, "boxed_card")
    assert table.hand.stub == stub - 1 and table.hand.burns == burns + 1
    assert outcome.instructions[0]["code"] == "boxed_card" and not outcome.notices
    assert cards_accounted(table.hand) == 52
    table.act(1, "draw", count=3)
    assert table.hand.burns == burns + 2  # the burn before the draw is still taken
    second = table.act(2, "boxed_card")
    (notice,) = second.notices
    assert notice.rule_id is RuleId.DECK_06 and "the hand is void" in notice.message
    assert cards_accounted(table.hand) == 52


def test_DECK_06_rejects_a_boxed_card_outside_the_deal_and_draws_or_already_seen() -> None:
    """DECK-06: the view offers the entry while the stub is dealt; after the first betting
    action the stub is not being dealt: not offered, refused; in card mode a card a player
    holds cannot be the card found face up in the stub."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=3)
    offered = view(table.state, table.rules, AT)["boxed_card"]
    assert offered == {"action": "boxed_card", "seats": [1, 2, 3]}
    table.act(3, "call")
    assert view(table.state, table.rules, AT)["boxed_card"] is None
    assert refused(table, 1, "boxed_card").rule_id is RuleId.DECK_06
    cards = Table([100, 100, 100], rules=profile("casino-five-card-draw"), mode=Mode.CARD)
    cards.start(button=3)
    cards.act(1, "deal", cards=DEALT[1])
    assert refused(cards, 2, "boxed_card", cards="7h").rule_id is RuleId.DECK_06
    cards.act(2, "boxed_card", cards="Kh")
    assert cards.hand.burn_cards == ("Kh",) and cards.hand.stub == 52 - 5 - 1
    assert refused(cards, 2, "deal", cards="Kh 6d 4d 3s 2d").rule_id is RuleId.DECK_01


# --- GAME-01/06: the home game as home games play it ---------------------------------------------


def test_GAME_06_accepts_the_seed_articles_no_limit_ante_hand() -> None:
    """seed 000's worked example under home-game-no-limit-draw: $1 antes, no opening
    requirement, no limit. Seat 1 bets 5 with nothing (no openers to hold), seat 2 calls,
    seats 3 and 4 fold; three and one card on the draw (the seed's draw rules: burn first);
    the opener acts first after the draw: seat 1 bets 10, seat 2 raises 16 (to 26), seat 1
    calls; seat 2's two pair takes the pot of 66. A raise of less than the last bet (to 15) and
    seat 2 acting before the opener after the draw are refused."""
    rules = profile("home-game-no-limit-draw")
    stakes = Stakes(ante=1, min_bet=1)
    table = Table([100] * 4, structure=Structure.NO_LIMIT, stakes=stakes, rules=rules)
    table.start(button=4)
    assert table.hand.pot == 4
    table.act(1, "bet", amount=5)
    table.act(2, "call")
    table.act(3, "fold")
    table.act(4, "fold")
    assert table.hand.phase is Phase.DRAW_1
    outcome = table.act(1, "draw", count=3)
    assert [i["text"] for i in outcome.instructions][:2] == [
        "Burn one card",
        "Deal 3 cards to seat 1",
    ]
    assert refused(table, 2, "draw", count=4).rule_id is RuleId.DRAW_02  # four needs an ace
    table.act(2, "draw", count=1)
    assert refused(table, 2, "bet", amount=10).rule_id in (RuleId.OPEN_01, RuleId.BET_08)
    table.act(1, "bet", amount=10)
    assert refused(table, 2, "raise", amount=15).rule_id is RuleId.BET_05
    table.act(2, "raise", amount=26)
    table.act(1, "call")
    assert table.hand.phase is Phase.SHOWDOWN and table.hand.to_act == 2
    table.act(2, "show", cards="Kh Kd 7c 7s 2d")
    table.act(1, "show", cards="Qh Qd 9c 8s 3d")
    assert table.hand.result.to_json()["pots"][0]["amount"] == 4 + 10 + 52
    assert table.stacks() == {1: 68, 2: 134, 3: 99, 4: 99}


# --- BLIND-03: a moving button; nobody skips the big blind --------------------------------------


def moving_button_after_the_big_blind_left(due_big_blind: bool) -> Table:
    """casino-five-card-draw with a moving button (``moving_due_big_blind`` as given), five
    seats: hand 1 (button 1, blinds 2 and 3) folds to the big blind; seat 3 leaves; hand 2
    starts: the button on seat 2, the small blind on seat 4, the big blind on seat 5."""
    rules = with_section(
        profile("casino-five-card-draw"),
        "blinds",
        button_method=ButtonMethod.MOVING,
        moving_due_big_blind=due_big_blind,
    )
    table = Table([100] * 5, rules=rules)
    table.start(button=1)
    for seat in (4, 5, 1, 2):
        table.act(seat, "fold")
    table.run(RemovePlayer(3))
    table.start(post=False)
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 4, 5)
    return table


def test_BLIND_03_accepts_two_big_blinds_when_the_big_blind_left_under_a_moving_button() -> None:
    """RRoP Button and Blind Use 2(a) (moving button: "the blinds adjust accordingly. There may
    be two big blinds"): seat 4 was due the big blind; in the small blind's place it posts a
    big blind of 10 (a post of 5 is refused), seat 5 the big blind: nobody skips it."""
    table = moving_button_after_the_big_blind_left(due_big_blind=True)
    assert table.hand.player(4).owes == 10 and table.hand.player(4).owes_what == ("big_blind",)
    assert refused(table, 4, "post", amount=5).rule_id is RuleId.BLIND_01
    table.act(4, "post")
    table.act(5, "post")
    assert table.hand.current_bet == 10 and table.hand.pot == 20
    assert table.legal() is not None and table.legal()["seat"] == 1


def test_BLIND_03_rejects_a_skipped_big_blind_only_under_the_old_reading() -> None:
    """Profile versions before the option: seat 4 owes only the small blind (5) and a big
    blind post from it is refused; it pays no big blind this orbit (the reading RRoP 2(a)
    corrects)."""
    table = moving_button_after_the_big_blind_left(due_big_blind=False)
    assert table.hand.player(4).owes == 5
    assert refused(table, 4, "post", amount=10).rule_id is RuleId.BLIND_01
