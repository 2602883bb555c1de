"""Whole hands under the kill profiles: two wins, the kill, split legs (casino-triple-draw-27-kill);
a newcomer's voluntary kill (casino-triple-draw-27-optional-kill)."""

from __future__ import annotations

import pytest
from profile_table import AT, ProfileTable, entry, kills_as_before

from dealerassist.profiles import REPO_PROFILES_DIR, get_profile
from dealerassist.rules.engine import Outcome, apply, legal_actions
from dealerassist.rules.model.actions import (
    SeatPlayer,
    StartHand,
    Variant,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation

RULES = kills_as_before(get_profile("casino-triple-draw-27-kill", REPO_PROFILES_DIR))
OPTIONAL = kills_as_before(get_profile("casino-triple-draw-27-optional-kill", REPO_PROFILES_DIR))


class KillTable(ProfileTable):
    """A 2-7 triple-draw table under a kill profile, with 500 in each of ``seats``."""

    def __init__(self, rules: HouseRules = RULES, seats: tuple[int, ...] = (1, 2, 3, 4)) -> None:
        super().__init__(rules, Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, seats)


def _seat_1_wins_twice(table: KillTable) -> None:
    """Hand 1 (button 4) and hand 2 (button 1): seat 1 raises and everyone folds."""
    table.hand(["3 fold", "4 fold", "1 raise 20", "2 fold"], button=4)
    assert table.leg() == (1, 1) and table.stacks() == {1: 510, 2: 490, 3: 500, 4: 500}
    table.hand(["4 fold", "1 raise 20", "2 fold", "3 fold"])
    assert table.leg() == (1, 2) and table.stacks() == {1: 525, 2: 485, 3: 490, 4: 500}


def test_KILL_02_accepts_a_whole_kill_pot_after_two_wins() -> None:
    """Seat 1 wins two pots, posts the kill of 20 in hand 3, every limit doubles (20/20/40/40),
    raises at the old sizes are refused, and seat 2 wins the kill pot and takes the leg."""
    table = KillTable()
    _seat_1_wins_twice(table)
    started = table.run(StartHand())
    (record,) = [e for e in started.events_json() if e["type"] == "hand_started"]
    assert record["kill"] == {"seat": 1, "blind": 20, "small_bet": 20, "big_bet": 40}
    assert started.instructions[0]["text"] == (
        "Kill pot: seat 1 posts the kill blind of 20; limits are doubled to 20/40 this hand; "
        "before the draw the action starts to seat 1's left and seat 1 acts last"
    )
    table.run(entry("3 post"))
    table.run(entry("4 post"))
    assert legal_actions(table.state, RULES, AT) == {
        "seat": 1,
        "phase": "posting",
        "legal": [{"action": "post", "amount": 20, "owes": ["kill"]}],
    }
    table.run(entry("1 post 20"))
    assert table.state.hand is not None and table.state.hand.to_act == 2
    with pytest.raises(RuleViolation) as old_size:
        table.run(entry("2 raise 30"))
    assert old_size.value.rule_id is RuleId.BET_02
    assert "limits are doubled to 20/40" in old_size.value.message
    for step in ["2 raise 40", "3 fold", "4 fold", "1 call"]:
        table.run(entry(step))
    for step in ["1 draw 2", "2 draw 1", "1 bet 20", "2 call", "1 draw 1", "2 draw 0"]:
        table.run(entry(step))
    with pytest.raises(RuleViolation) as small:
        table.run(entry("1 bet 20"))
    assert small.value.rule_id is RuleId.BET_02 and "the kill is on" in small.value.message
    steps = ["1 bet 40", "2 raise 80", "1 call", "1 draw 1", "2 draw 0", "1 check", "2 check"]
    for step in steps:
        table.run(entry(step))
    first = table.state.hand.to_act if table.state.hand else None
    shows = {1: "1 show 8h 6s 4d 3c 2d", 2: "2 show 7h 5s 4c 3d 2c"}
    order = [first, 2 if first == 1 else 1]
    for seat in order:
        outcome = table.run(entry(shows[seat or 0]))
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [(295, [2])]
    assert table.stacks() == {1: 385, 2: 640, 3: 485, 4: 490}
    assert outcome.result.to_json()["kill_leg"] == {"seat": 2, "legs": 1}
    assert table.leg() == (2, 1)
    table.hand([])
    assert table.state.hand is not None and table.state.hand.kill_seat is None


def _tie(table: KillTable, steps: list[str], players: tuple[int, int]) -> Outcome:
    """Play ``steps`` to the end of the betting, then both ``players`` show a 7-5-4-3-2."""
    table.hand(steps)
    hands = ("7h 5s 4d 3c 2d", "7c 5d 4h 3s 2h")
    outcome = table.outcome
    assert outcome is not None
    while table.state.hand is not None and table.state.hand.phase is Phase.SHOWDOWN:
        seat = table.state.hand.to_act or 0
        outcome = table.run(entry(f"{seat} show {hands[players.index(seat)]}"))
    return outcome


def check_down(first: int, second: int) -> list[str]:
    """Three draws standing pat and three checked rounds, ``first`` left of the button."""
    return [f"{first} draw 0", f"{second} draw 0", f"{first} check", f"{second} check"] * 3


def test_KILL_03_accepts_a_split_that_keeps_the_legholders_leg() -> None:
    """Seat 1 holds a leg and splits the next pot with seat 2: it keeps its one leg."""
    table = KillTable()
    table.hand(["3 fold", "4 fold", "1 raise 20", "2 fold"], button=4)
    assert table.leg() == (1, 1)
    # hand 2: button 1, small blind 2, big blind 3
    steps = ["4 fold", "1 call", "2 call", "3 fold", *check_down(2, 1)]
    outcome = _tie(table, steps, (1, 2))
    assert outcome.result is not None and outcome.result.to_json()["pots"][0]["winners"] == [1, 2]
    assert table.leg() == (1, 1)
    assert outcome.result.to_json()["kill_leg"] == {"seat": 1, "legs": 1}


def test_KILL_03_refuses_the_leg_after_a_split_without_its_holder() -> None:
    """Seat 1 holds a leg; seats 2 and 3 split the next pot: the kill button is neutral."""
    table = KillTable()
    table.hand(["3 fold", "4 fold", "1 raise 20", "2 fold"], button=4)
    # hand 2: button 1, small blind 2, big blind 3
    steps = ["4 fold", "1 fold", "2 call", "3 check"]
    steps += check_down(2, 3)
    outcome = _tie(table, steps, (2, 3))
    assert outcome.result is not None and outcome.result.to_json()["pots"][0]["winners"] == [2, 3]
    assert table.leg() == (None, 0)
    assert outcome.instructions[-1]["text"] == "The kill button is neutral"


def test_KILL_03_accepts_a_kill_who_splits_the_kill_pot_and_kills_again() -> None:
    """The kill shares the kill pot: it keeps both legs and kills the next hand too."""
    table = KillTable()
    _seat_1_wins_twice(table)
    # hand 3: button 2, small blind 3, big blind 4, seat 1 kills; seat 2 acts first
    steps = ["2 call", "3 fold", "4 fold", "1 check", *check_down(1, 2)]
    outcome = _tie(table, steps, (1, 2))
    assert outcome.result is not None and outcome.result.to_json()["pots"][0]["winners"] == [1, 2]
    assert table.leg() == (1, 2)
    table.run(StartHand())
    assert table.state.hand is not None and table.state.hand.kill_seat == 1


def _refused(table: KillTable, step: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.run(entry(step))
    return caught.value


def test_KILL_01_accepts_a_newcomer_who_kills_a_whole_hand_to_play_at_once() -> None:
    """Optional kills: a newcomer seated between the button and the small blind, who would
    wait (BLIND-06), kills hand 2 for 20; the limits are 20/20/40/40, the action starts left
    of the kill, a pat changed to a draw replays the kill pot from the journal, the kill wins
    240, and no leg is kept; hand 3 is a normal hand with the newcomer dealt in."""
    table = KillTable(OPTIONAL, seats=(1, 2, 4))
    table.hand(["1 fold", "2 fold"], button=1)  # blinds 2 and 4: a walk for seat 4
    assert table.leg() == (None, 0) and table.stacks() == {1: 500, 2: 495, 4: 505}
    table.run(SeatPlayer(3, "New", 500))
    waiting = apply(table.state, StartHand(), OPTIONAL, AT).state.hand
    assert waiting is not None and waiting.waiting == ((3, "BLIND-06"),)
    # hand 2: button 2, small blind 4, big blind 1, seat 3 kills and seat 4 acts first
    started = table.run(StartHand(kill_seat=3))
    (record,) = [e for e in started.events_json() if e["type"] == "hand_started"]
    assert record["dealt"] == [3, 4, 1, 2]
    assert record["kill"] == {"seat": 3, "blind": 20, "small_bet": 20, "big_bet": 40}
    assert started.instructions[0]["code"] == "kill_pot"
    for step in ["4 post", "1 post", "3 post 20"]:
        table.run(entry(step))
    assert _refused(table, "1 call").rule_id is RuleId.KILL_04
    for step in ["4 call", "1 raise 40", "2 fold", "3 call", "4 call"]:
        table.run(entry(step))
    for step in ["3 draw 2", "4 draw 1", "1 draw 3"]:
        table.run(entry(step))
    small = _refused(table, "3 bet 10")
    assert small.rule_id is RuleId.BET_02
    assert "the kill is on: seat 3 killed the pot, limits are doubled to 20/40" in small.message
    for step in ["3 bet 20", "4 fold", "1 call", "3 draw 1", "1 draw 0"]:
        table.run(entry(step))
    changed = table.run(entry("1 draw 1"))  # DRAW-07: the pat becomes a draw (journal replay)
    assert any(event["type"] == "draw_changed" for event in changed.events_json())
    assert table.state.hand is not None and table.state.hand.kill_seat == 3
    assert _refused(table, "3 bet 20").rule_id is RuleId.BET_02
    for step in ["3 check", "1 bet 40", "3 call", "3 draw 1", "1 draw 1", "3 check", "1 check"]:
        table.run(entry(step))
    shows = {3: "3 show 7h 5s 4d 3c 2d", 1: "1 show 8h 6s 4c 3d 2c"}
    outcome = table.outcome
    while table.state.hand is not None and table.state.hand.phase is Phase.SHOWDOWN:
        outcome = table.run(entry(shows[table.state.hand.to_act or 0]))
    assert outcome is not None and outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [(240, [3])]
    assert "kill_leg" not in outcome.result.to_json() and table.leg() == (None, 0)
    assert table.stacks() == {1: 400, 2: 495, 3: 640, 4: 465}
    table.hand([])
    hand = table.state.hand
    assert hand is not None and hand.kill_seat is None and hand.has(3) and hand.waiting == ()
