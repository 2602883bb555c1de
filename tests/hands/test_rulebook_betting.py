"""The rule book's betting and blind rules of issue 20 (BET-03/04/05, BLIND-04, BLIND-14) as
whole hands under the shipped profiles: short all-ins that add up to a full raise, the half-bet
rule for callers, the raise cap heads-up with a player all in, straddles and the cap, the
minimum raise and the button straddle, a short kill and a short big blind with a big-blind ante.

Blinds 5/10, limits 10/20, count mode, seats numbered from 1 (the issue's scenarios). Each test
accepts the entry the rule book allows and refuses the one it does not; the profile versions
before these options keep the old behaviour (the options' defaults), checked here too.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from profile_table import GAMES

from dealerassist.errors import ProfileError
from dealerassist.profiles import REPO_PROFILES_DIR, get_profile, parse_profile
from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Command,
    SeatPlayer,
    Stakes,
    StartHand,
    TableSpec,
)
from dealerassist.rules.model.house_rules import HeadsUp, HouseRules
from dealerassist.rules.model.state import Phase, TableState, evolve
from dealerassist.rules.model.violations import RuleId, RuleViolation

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def profile(name: str, betting: dict[str, Any] | None = None, **blinds: Any) -> HouseRules:
    """A shipped profile, some ``[betting]`` and ``[blinds]`` options set to other values."""
    rules = get_profile(name, REPO_PROFILES_DIR)
    if betting:
        rules = replace(rules, betting=replace(rules.betting, **betting))
    if blinds:
        rules = replace(rules, blinds=replace(rules.blinds, **blinds))
    return rules


class Table:
    """A table under one profile with the given stacks by seat."""

    def __init__(
        self,
        name: str,
        stacks: dict[int, int],
        rules: HouseRules | None = None,
        stakes: Stakes | None = None,
    ) -> None:
        variant, structure, default = GAMES[name]
        self.rules = rules or profile(name)
        spec = TableSpec("RB", variant, structure, stakes or default, name, 6)
        self.state: TableState = new_table(spec)
        for seat, stack in stacks.items():
            self.run(SeatPlayer(seat, f"P{seat}", stack))

    def run(self, command: Command) -> Outcome:
        outcome = apply(self.state, command, self.rules, AT)
        self.state = outcome.state
        return outcome

    def act(self, step: str) -> Outcome:
        """``"3 raise 20"``, ``"1 call"``, ``"2 post straddle"``, ``"1 draw 1"``."""
        seat, kind, *rest = step.split()
        action = ActionKind(kind)
        if action is ActionKind.DRAW:
            return self.run(Act(int(seat), action, count=int(rest[0])))
        if action is ActionKind.SHOW:
            return self.run(Act(int(seat), action, cards=tuple(rest)))
        if action is ActionKind.POST and rest and not rest[0].isdigit():
            return self.run(Act(int(seat), action, option=rest[0]))
        return self.run(Act(int(seat), action, amount=int(rest[0]) if rest else None))

    def steps(self, *steps: str) -> None:
        for step in steps:
            self.act(step)

    def refused(self, step: str) -> RuleViolation:
        """The violation a step raises; the table is left as it was."""
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            self.act(step)
        assert self.state is before
        return caught.value

    @property
    def hand(self) -> Any:
        assert self.state.hand is not None
        return self.state.hand

    def start(self, button: int, kill_seat: int | None = None, **choices: str) -> None:
        """Start a hand and make every post (``s3="straddle"`` for a seat's option)."""
        self.run(StartHand(button, kill_seat))
        while self.hand.phase is Phase.POSTING:
            seat = self.hand.to_act
            self.act(f"{seat} post {choices.get(f's{seat}', '')}")

    def draw_all(self, count: int) -> None:
        while self.hand.phase.value.startswith("draw"):
            self.act(f"{self.hand.to_act} draw {count}")

    def legal(self) -> list[dict[str, Any]]:
        legal = legal_actions(self.state, self.rules, AT)
        assert legal is not None
        return list(legal["legal"])

    def to_act(self) -> int:
        seat = self.hand.to_act
        assert isinstance(seat, int)
        return seat


def raise_entry(table: Table) -> dict[str, Any] | None:
    return next((e for e in table.legal() if e["action"] in ("bet", "raise")), None)


# -- BET-05: short all-ins that add up to a full raise (no limit, pot limit) ------------------


def short_all_ins_after_the_draw(name: str, rules: HouseRules | None = None) -> Table:
    """Issue 20 point 1: stacks 1:2000 2:70 3:2000 4:100 5:2000, button 5: seat 3 raises to 20,
    all call, all draw 1; then 1 bets 40, 2 raises to 50 (all in), 3 calls, 4 raises to 80 (all
    in), 5 calls."""
    table = Table(name, {1: 2000, 2: 70, 3: 2000, 4: 100, 5: 2000}, rules)
    table.start(button=5)
    table.steps("3 raise 20", "4 call", "5 call", "1 call", "2 call")
    table.draw_all(1)
    table.steps("1 bet 40", "2 raise 50", "3 call", "4 raise 80", "5 call")
    return table


@pytest.mark.parametrize("name", ["single-draw-27-no-limit", "pot-limit-five-card-draw"])
def test_BET_05_accepts_a_raise_by_the_bettor_whom_short_all_ins_raised_a_full_raise(
    name: str,
) -> None:
    """TDA 47-A: "an all-in wager (or cumulative multiple short all-ins) totaling less than a
    full bet or raise will not reopen betting for players who have already acted and are not
    facing at least a full bet or raise"; its Example 1, WSOP 177. Seat 1 bet 40 and faces 40
    more (50, then 80): a full raise, so it may fold, call or raise, to 120 at least (the last
    full bet, 40, over 80)."""
    table = short_all_ins_after_the_draw(name)
    assert table.to_act() == 1
    entry = raise_entry(table)
    assert entry is not None and entry["min"] == 120
    assert table.refused("1 raise 110").rule_id is RuleId.BET_05
    table.act("1 raise 120")
    assert table.hand.current_bet == 120


@pytest.mark.parametrize("name", ["single-draw-27-no-limit", "pot-limit-five-card-draw"])
def test_BET_05_refuses_a_raise_by_the_caller_whom_short_all_ins_raised_less_than_a_full_raise(
    name: str,
) -> None:
    """TDA 47-A, WSOP 177: seat 3 called 50 and faces only 30 more (the all-in to 80): less
    than a full raise (40), so when seat 1 only calls, seat 3 may call 30 or fold."""
    table = short_all_ins_after_the_draw(name)
    table.act("1 call")
    assert table.to_act() == 3
    assert table.legal() == [{"action": "call", "amount": 30}, {"action": "fold"}]
    violation = table.refused("3 raise 120")
    assert violation.rule_id is RuleId.BET_05
    assert "did not reopen the betting" in violation.message


def test_BET_05_profile_versions_before_the_option_reopen_only_on_one_full_raise() -> None:
    """``reopen_per_player = false`` (every profile version before it): no single all-in was
    a full raise, so seat 1 may only call or fold, as hands recorded then were played."""
    rules = profile("single-draw-27-no-limit", {"reopen_per_player": False})
    table = short_all_ins_after_the_draw("single-draw-27-no-limit", rules)
    assert raise_entry(table) is None
    assert table.refused("1 raise 120").rule_id is RuleId.BET_05


# -- BET-04: the half-bet rule does not reopen a caller facing less than half a bet -----------


def half_bet_after_the_draw(rules: HouseRules | None = None) -> Table:
    """Issue 20 point 2: casino-five-card-draw, stacks 1:500 2:34 3:500 4:40 5:500, button 5:
    all call or check before the draw, all draw 1; 1 bets 20, 2 raises to 24 (all in), 3 calls,
    4 raises to 30 (all in), 5 calls."""
    table = Table("casino-five-card-draw", {1: 500, 2: 34, 3: 500, 4: 40, 5: 500}, rules)
    table.start(button=5)
    table.steps("3 call", "4 call", "5 call", "1 call", "2 check")
    table.draw_all(1)
    table.steps("1 bet 20", "2 raise 24", "3 call", "4 raise 30", "5 call")
    return table


def test_BET_04_accepts_a_raise_by_the_bettor_facing_half_a_bet() -> None:
    """WSOP 133: "Multiple all-in wagers, each of an amount too small to individually qualify
    as a raise, still act as a raise and reopen the betting if the resulting wager size to a
    participant qualifies as a raise"; TDA 47-B: "at least 50% of a full bet or raise is
    required to re-open betting". Seat 1 bet 20 and faces 10 more: half a bet, so it may raise
    a full bet over the 30 (to 50)."""
    table = half_bet_after_the_draw()
    assert table.legal() == [
        {"action": "call", "amount": 10},
        {"action": "raise", "min": 50, "max": 50},
        {"action": "fold"},
    ]


def test_BET_04_refuses_a_raise_by_a_caller_facing_less_than_half_a_bet() -> None:
    """WSOP 133, TDA 47-B: seat 3 called 24 and faces 6 more, less than half a bet (10): once
    seat 1 calls, seat 3 may only call 6 or fold, although seat 4's all-in to 30 was half a bet
    over seat 1's 20 (a raise for those facing all of it)."""
    table = half_bet_after_the_draw()
    table.act("1 call")
    assert table.to_act() == 3
    assert table.legal() == [{"action": "call", "amount": 6}, {"action": "fold"}]
    assert table.refused("3 raise 50").rule_id is RuleId.BET_04
    table.act("3 call")
    assert table.hand.phase is Phase.SHOWDOWN


def test_BET_04_profile_versions_before_the_option_reopen_every_seat_on_half_a_bet() -> None:
    """``reopen_per_player = false``: the all-in of half a bet reopened every seat, seat 3
    too, as hands recorded under those versions were played."""
    table = half_bet_after_the_draw(profile("casino-five-card-draw", {"reopen_per_player": False}))
    table.act("1 call")
    assert raise_entry(table) == {"action": "raise", "min": 50, "max": 50}


# -- BET-03: the cap counts only players who are not all in -----------------------------------


def capped_after_an_all_in(heads_up: HeadsUp | None = None) -> Table:
    """Issue 20 point 3: casino-triple-draw-27, stacks 1:1000 2:1000 3:15 4:1000, button 4: 3
    raises all in to 15, 4 folds, 1 and 2 call, all draw 1; then 1 bets 10 and 1 and 2 raise to
    20, 30, 40, 50 (bet + 4 raises)."""
    rules = None if heads_up is None else profile("casino-triple-draw-27", {"heads_up": heads_up})
    table = Table("casino-triple-draw-27", {1: 1000, 2: 1000, 3: 15, 4: 1000}, rules)
    table.start(button=4)
    table.steps("3 raise 15", "4 fold", "1 call", "2 call")
    table.draw_all(1)
    table.steps("1 bet 10", "2 raise 20", "1 raise 30", "2 raise 40", "1 raise 50")
    return table


@pytest.mark.parametrize("heads_up", [None, HeadsUp.ROUND_STARTS, HeadsUp.BECOMES])
def test_BET_03_accepts_raises_past_the_cap_heads_up_beside_a_player_all_in(
    heads_up: HeadsUp | None,
) -> None:
    """WSOP 130: the cap applies "for a pot involving three or more participants who are not
    all-in"; 131: "Unlimited raises are allowed in limit-play when the betting round begins
    heads-up"; RRoP (Betting and Raising 3-4) likewise. Two live players and one all in is
    heads-up: 2's raise to 60 and 1's to 70 stand (the shipped profile, and both readings)."""
    table = capped_after_an_all_in(heads_up)
    table.steps("2 raise 60", "1 raise 70")
    assert table.hand.current_bet == 70


def test_BET_03_profile_versions_before_the_option_count_the_all_in_player() -> None:
    """``heads_up = "round_starts_two_live"`` (the versions before the option): three hands
    not folded, so 2's raise to 60 is refused, as it was when those hands were dealt."""
    table = capped_after_an_all_in(HeadsUp.ROUND_STARTS_TWO_LIVE)
    assert table.refused("2 raise 60").rule_id is RuleId.BET_03


def becomes_heads_up(heads_up: HeadsUp) -> Table:
    """Four players with chips call before the draw and draw 1; then 1 bets 10, 2 raises to 20
    and 3 and 4 fold: the round began four-handed and is now heads-up, two raises made."""
    rules = profile("casino-triple-draw-27", {"heads_up": heads_up})
    table = Table("casino-triple-draw-27", {1: 1000, 2: 1000, 3: 1000, 4: 1000}, rules)
    table.start(button=4)
    table.steps("3 call", "4 call", "1 call", "2 check")
    table.draw_all(1)
    table.steps("1 bet 10", "2 raise 20", "3 fold", "4 fold", "1 raise 30", "2 raise 40")
    table.act("1 raise 50")
    return table


def test_BET_03_refuses_the_sixth_bet_when_the_round_became_heads_up_under_wsop_131() -> None:
    """WSOP 131: "If the round begins with more than two participants and becomes heads-up
    during the middle of the round the raise maximum still applies" (``round_starts``)."""
    table = becomes_heads_up(HeadsUp.ROUND_STARTS)
    assert table.refused("2 raise 60").rule_id is RuleId.BET_03


def test_BET_03_accepts_the_sixth_bet_when_the_round_became_heads_up_under_rrop() -> None:
    """RRoP (Betting and Raising 4): unlimited raising heads-up "applies any time the action
    becomes heads-up before the raising has been capped" (``becomes``): 2's raise to 60."""
    table = becomes_heads_up(HeadsUp.BECOMES)
    table.act("2 raise 60")
    assert table.hand.current_bet == 60


def test_BET_03_rrop_keeps_a_cap_reached_before_the_pot_became_heads_up() -> None:
    """RRoP: "Once the raising is capped on a betting round, it cannot be uncapped by a
    subsequent fold that leaves two players heads-up"."""
    rules = profile("casino-triple-draw-27", {"heads_up": HeadsUp.BECOMES})
    table = Table("casino-triple-draw-27", {1: 1000, 2: 1000, 3: 1000}, rules)
    table.start(button=3)
    table.steps("3 call", "1 call", "2 check")
    table.draw_all(1)
    table.steps("1 bet 10", "2 raise 20", "3 raise 30", "1 raise 40", "2 raise 50", "3 fold")
    assert table.refused("1 raise 60").rule_id is RuleId.BET_03


# -- BLIND-14 / BET-03 / BET-05: straddles ---------------------------------------------------


def test_BET_03_accepts_four_raises_after_a_straddle_that_does_not_count() -> None:
    """WSOP 130: "A straddle does not count as a bet for the purpose of determining the
    maximum number of possible pre-flop bets": with seat 3's straddle to 20 the round still
    allows bet + 4 raises over the big blind (30, 40, 50, 60); the raise to 70 is refused."""
    rules = profile("casino-triple-draw-27", straddle_allowed=True)
    table = Table("casino-triple-draw-27", {1: 500, 2: 500, 3: 500, 4: 500}, rules)
    table.start(button=4, s3="straddle")
    table.steps("4 raise 30", "1 raise 40", "2 raise 50", "3 raise 60")
    assert table.refused("4 raise 70").rule_id is RuleId.BET_03


def test_BET_03_profile_versions_before_the_option_count_the_straddle_as_a_raise() -> None:
    """``straddle_in_cap = true`` (the versions before the option): bet + 4 raises stops one
    raise early, at 50."""
    rules = profile("casino-triple-draw-27", straddle_allowed=True, straddle_in_cap=True)
    table = Table("casino-triple-draw-27", {1: 500, 2: 500, 3: 500, 4: 500}, rules)
    table.start(button=4, s3="straddle")
    table.steps("4 raise 30", "1 raise 40", "2 raise 50")
    assert table.refused("3 raise 60").rule_id is RuleId.BET_03


def straddled_no_limit(**blinds: Any) -> Table:
    rules = profile("single-draw-27-no-limit", straddle_allowed=True, **blinds)
    table = Table("single-draw-27-no-limit", {1: 500, 2: 500, 3: 500, 4: 500}, rules)
    table.start(button=4, s4="no_straddle", s3="straddle")
    return table


def test_BET_05_refuses_a_raise_short_of_twice_the_straddle() -> None:
    """WSOP 22, 165: "The minimum raise following a live straddle is twice the straddle
    amount": after seat 3's straddle of 20 the smallest raise is to 40; 30 is refused."""
    table = straddled_no_limit()
    assert table.to_act() == 4
    entry = raise_entry(table)
    assert entry is not None and entry["min"] == 40
    assert table.refused("4 raise 30").rule_id is RuleId.BET_05
    table.act("4 raise 40")
    assert table.hand.current_bet == 40


def test_BET_05_profile_versions_before_the_option_raise_by_the_blind() -> None:
    """``straddle_min_raise_doubles = false``: the raise to 30 stood, as then."""
    table = straddled_no_limit(straddle_min_raise_doubles=False, button_straddle=False)
    table.act("4 raise 30")
    assert table.hand.current_bet == 30


def test_BLIND_14_accepts_a_button_straddle_asked_first_in_no_limit() -> None:
    """WSOP 22, 165: "A straddle may be posted from either Under the Gun (UTG) or the Button,
    with the Button straddle taking precedence. Action will always start to the immediate
    left of the straddle." After the blinds the button (4) is asked first; seat 3 may not
    straddle before it; the button straddles, seat 3's offer goes, and the small blind acts
    first, the button last."""
    rules = profile("single-draw-27-no-limit", straddle_allowed=True)
    table = Table("single-draw-27-no-limit", {1: 500, 2: 500, 3: 500, 4: 500}, rules)
    table.run(StartHand(4))
    table.steps("1 post", "2 post")
    assert table.to_act() == 4
    assert {"action": "post", "option": "straddle", "amount": 20} in table.legal()
    assert table.refused("3 post straddle").rule_id is RuleId.BLIND_01
    table.act("4 post straddle")
    assert table.hand.phase is Phase.BETTING_1
    assert table.hand.straddle_seat == 4 and table.to_act() == 1
    table.steps("1 call", "2 call", "3 call")
    assert table.to_act() == 4  # the straddle keeps the option


def test_BLIND_14_refuses_a_button_straddle_in_limit() -> None:
    """WSOP 22: "Button straddles are not permitted in limit games": a limit profile may not
    set ``button_straddle``, and the limit button is never offered a straddle."""
    path = REPO_PROFILES_DIR / "casino-triple-draw-27.toml"
    text = path.read_text(encoding="utf-8").replace(
        "button_straddle = false", "button_straddle = true"
    )
    with pytest.raises(ProfileError, match=r"blinds\.button_straddle"):
        parse_profile("casino-triple-draw-27", text.encode(), source=path.name)
    rules = profile("casino-triple-draw-27", straddle_allowed=True, button_straddle=True)
    table = Table("casino-triple-draw-27", {1: 500, 2: 500, 3: 500, 4: 500}, rules)
    table.run(StartHand(4))
    table.steps("1 post", "2 post")
    assert table.to_act() == 3
    table.act("3 post no_straddle")
    assert table.hand.phase is Phase.BETTING_1


# -- BLIND-04: a short kill is a blind; a short big blind with a big-blind ante --------------


KILL = "casino-triple-draw-27-kill"


def due_to_kill_short(rules: HouseRules) -> Table:
    """casino-triple-draw-27-kill, button 4: seat 3 won the last two pots (KILL-02; the table
    as it stands then) and has 12 left: it posts the kill of 20 all in for 12."""
    table = Table(KILL, {1: 500, 2: 500, 3: 12, 4: 500}, rules)
    table.state = evolve(table.state, kill_leg=3, kill_legs=2)
    table.start(button=4)
    assert table.hand.kill_seat == 3 and table.hand.player(3).bet == 12
    return table


def test_BLIND_04_refuses_the_short_kill_as_the_call_and_accepts_the_full_kill() -> None:
    """WSOP 154: a participant short of his blind "will receive full value on those chips";
    those acting after an all-in blind may "fold, call the proper amount of the big blind, or
    raise", not call the all-in amount. The kill is a blind: seat 3, due to kill after winning
    two pots, kills all in for 12 of 20; the big blind calls 10 more (not 2), the small blind
    15, the button 20."""
    table = due_to_kill_short(profile(KILL))
    assert table.hand.kill_seat == 3 and table.hand.current_bet == 20
    owed = {1: 15, 2: 10, 4: 20}
    while table.hand.phase is Phase.BETTING_1:
        seat = table.to_act()
        assert table.legal()[0] == {"action": "call", "amount": owed[seat]}
        if seat == 2:
            assert table.refused("2 call 2").rule_id is RuleId.BLIND_04
        table.act(f"{seat} call")
    assert {p.seat: p.committed for p in table.hand.players} == {1: 20, 2: 20, 3: 12, 4: 20}


def test_BLIND_04_profile_versions_before_the_option_call_the_short_kill() -> None:
    """``short_kill_full_call = false``: the short kill of 12 was the bet to call (the big
    blind called 2), as hands recorded then were played."""
    table = due_to_kill_short(profile(KILL, short_kill_full_call=False))
    assert table.hand.current_bet == 12


BBA = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20, big_blind_ante=10)
SHOWN = {
    1: "Kc Qd 9h 7s 4c",
    2: "Ah Ad Ac As Jd",
    3: "Kd Qh 9s 7c 3d",
    4: "Kh Qs 9c 7d 2h",
}


def big_blind_ante_hand(big_blind: int, rules: HouseRules | None = None) -> Table:
    """casino-five-card-draw, ante 10 in the big blind, blinds 5/10; seat 2 is the big blind
    with ``big_blind`` chips, the others 500; button 4."""
    stacks = {1: 500, 2: big_blind, 3: 500, 4: 500}
    return Table("casino-five-card-draw", stacks, rules, BBA)


def test_BLIND_04_accepts_a_short_big_blind_posting_the_blind_before_the_ante() -> None:
    """TDA 2024 RP-11: "the big blind ante format (BBA) with big-blind-first calculation is
    recommended": a big blind of 15 posts 10 live and 5 of the ante; one of 8 posts all 8 live
    and is eligible for what he matched: showing the best hand he wins the main pot (8 from
    each of four, 32), the small side pot (2 from each caller) goes to the best of the rest."""
    table = big_blind_ante_hand(15)
    table.start(button=4)
    big = table.hand.player(2)
    assert (big.bet, big.dead) == (10, 5)
    table = big_blind_ante_hand(8)
    table.start(button=4)
    big = table.hand.player(2)
    assert (big.bet, big.dead) == (8, 0)
    assert table.refused("3 call 8").rule_id is RuleId.BLIND_04
    table.steps("3 call 10", "4 call", "1 call")
    table.draw_all(0)
    while table.hand.phase is Phase.BETTING_2:
        table.act(f"{table.to_act()} check")
    while table.hand.phase is Phase.SHOWDOWN:
        seat = table.to_act()
        table.act(f"{seat} show {SHOWN[seat]}")
    stacks = {seat.seat: seat.stack for seat in table.state.seats if seat.player}
    assert stacks == {1: 496, 2: 32, 3: 490, 4: 490}


def test_BLIND_04_profile_versions_before_the_option_post_the_dead_ante_first() -> None:
    """``big_blind_first = false`` (the versions before it, and pokerkit's order): the 15 is
    10 dead and 5 live, the 8 all dead (as hands recorded then were played)."""
    rules = profile("casino-five-card-draw", big_blind_first=False)
    table = big_blind_ante_hand(15, rules)
    table.start(button=4)
    assert (table.hand.player(2).bet, table.hand.player(2).dead) == (5, 10)
    table = big_blind_ante_hand(8, rules)
    table.start(button=4)
    assert (table.hand.player(2).bet, table.hand.player(2).dead) == (0, 8)
