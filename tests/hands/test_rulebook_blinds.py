"""The rule book's blinds, button, seating, missed-blind and kill-pot rules (BLIND-01..15,
OPEN-01, OPEN-09, GAME-07, KILL-01..06) checked over several hands in a row, under the shipped
profiles and the other values of their options.

Tests marked ``xfail(strict=True)`` state what the rule book says where the engine does
something else; each reason names the catalog text it departs from.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from profile_table import GAMES, kills_as_before

from dealerassist.profiles import REPO_PROFILES_DIR, get_profile
from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    AddChips,
    ChangeSeat,
    Command,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    StartHand,
    TableSpec,
)
from dealerassist.rules.model.house_rules import (
    ButtonMethod,
    HouseRules,
    KillMode,
    KillRules,
    KillSize,
    MissedBlindsReturn,
    NewPlayerBetweenBlindsAndButton,
)
from dealerassist.rules.model.state import Phase, SeatStatus, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table.seating import next_hand_preview

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
BUY_BUTTON = NewPlayerBetweenBlindsAndButton.BUY_BUTTON
BLIND_PROFILES = [
    name for name in GAMES if name not in ("home-game-five-card-draw", "pot-limit-five-card-draw")
]
FIXED_LIMIT_PROFILES = [name for name in BLIND_PROFILES if name != "single-draw-27-no-limit"]


def profile(name: str, **blinds: Any) -> HouseRules:
    """A shipped profile, with some ``[blinds]`` options set to another value."""
    rules = get_profile(name, REPO_PROFILES_DIR)
    if rules.kill.mode is not KillMode.OFF:  # the kill hands below were written for them
        rules = kills_as_before(rules)
    return replace(rules, blinds=replace(rules.blinds, **blinds)) if blinds else rules


class Table:
    """A table under one profile at 5/10 blinds (10/20 limits), 500 chips a seat."""

    def __init__(
        self,
        name: str = "casino-five-card-draw",
        seats: tuple[int, ...] = (1, 2, 3, 4),
        rules: HouseRules | None = None,
        max_seats: int = 6,
        stack: int = 500,
    ) -> None:
        variant, structure, stakes = GAMES[name]
        self.rules = rules or profile(name)
        spec = TableSpec("RB", variant, structure, stakes, name, max_seats)
        self.state: TableState = new_table(spec)
        self.outcome: Outcome | None = None
        for seat in seats:
            self.run(SeatPlayer(seat, f"P{seat}", stack))

    def run(self, command: Command) -> Outcome:
        self.outcome = apply(self.state, command, self.rules, AT)
        self.state = self.outcome.state
        return self.outcome

    def act(self, step: str) -> Outcome:
        """``"3 raise 20"``, ``"2 post"``, ``"4 post wait"``, ``"2 draw 1"``, ``"5 sit_out"``."""
        seat, kind, *rest = step.split()
        action = ActionKind(kind)
        if action is ActionKind.DRAW:
            return self.run(Act(int(seat), action, count=int(rest[0])))
        if action is ActionKind.POST and rest and not rest[0].isdigit():
            return self.run(Act(int(seat), action, option=rest[0]))
        return self.run(Act(int(seat), action, amount=int(rest[0]) if rest else None))

    def refused(self, command: Command | str) -> RuleViolation:
        """The violation a command or step raises; the table is left as it was."""
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            if isinstance(command, str):
                self.act(command)
            else:
                self.run(command)
        assert self.state is before
        return caught.value

    @property
    def hand(self) -> Any:
        assert self.state.hand is not None
        return self.state.hand

    def start(self, button: int | None = None, kill_seat: int | None = None) -> Outcome:
        return self.run(StartHand(button, kill_seat))

    def post_all(self, **choices: str) -> None:
        """Every post in turn; ``s4="wait"`` or ``s4="sit_out"`` for a seat's other choices."""
        while self.state.hand is not None and self.hand.phase is Phase.POSTING:
            seat = self.hand.to_act
            choice = choices.get(f"s{seat}")
            self.act(f"{seat} {choice}" if choice == "sit_out" else f"{seat} post {choice or ''}")

    def snapshot(self) -> dict[str, Any]:
        """The hand as the dealer sees it once the posts are in."""
        hand = self.hand
        return {
            "button": hand.button,
            "sb": hand.small_blind_seat,
            "bb": hand.big_blind_seat,
            "dealt": [player.seat for player in hand.players],
            "waiting": dict(hand.waiting),
            "first": hand.to_act,
            "live": {p.seat: p.committed for p in hand.players if p.committed},
            "dead": {p.seat: p.dead for p in hand.players if p.dead},
        }

    def fold_out(self) -> None:
        """Everyone folds in turn: the last seat in wins."""
        while self.state.hand is not None and self.hand.phase is not Phase.COMPLETE:
            self.act(f"{self.hand.to_act} fold")

    def play(self, button: int | None = None, **choices: str) -> dict[str, Any]:
        """Start a hand, make the posts, note what it looked like, fold it out."""
        self.start(button)
        self.post_all(**choices)
        seen = self.snapshot()
        self.fold_out()
        return seen

    def seat(self, seat: int) -> Any:
        return self.state.seat(seat)

    def preview(self) -> Any:
        return next_hand_preview(self.state, self.rules)

    def legal(self) -> Any:
        """The seat to act and its legal actions."""
        legal = legal_actions(self.state, self.rules, AT)
        assert legal is not None
        return legal

    def legal_kinds(self) -> set[str]:
        return {entry["action"] for entry in self.legal()["legal"]}


def left_of(seats: list[int], seat: int) -> int:
    """The first seat of ``seats`` clockwise after ``seat``."""
    ordered = sorted(seats)
    return next((s for s in ordered if s > seat), ordered[0])


# -- BLIND-01, OPEN-01: blind positions and the order of betting ---------------------------------


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_01_accepts_the_blinds_left_of_the_button_over_two_orbits(name: str) -> None:
    """Five players at a six-seat table (seat 6 empty): every hand the small blind is the first
    seat left of the button and posts 5 live, the big blind the next and posts 10 live, and the
    action starts left of the big blind (OPEN-01); the button visits every player once a round."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    buttons = []
    for number in range(10):
        seen = table.play(button=1 if number == 0 else None)
        players = sorted(seen["dealt"])
        assert players == [1, 2, 3, 4, 5]
        assert seen["sb"] == left_of(players, seen["button"])
        assert seen["bb"] == left_of(players, seen["sb"])
        assert seen["live"] == {seen["sb"]: 5, seen["bb"]: 10}
        assert seen["first"] == left_of(players, seen["bb"])
        buttons.append(seen["button"])
    assert buttons == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_01_rejects_the_big_blind_posting_before_the_small_blind(name: str) -> None:
    """In the second hand the big blind may not post ahead of the small blind, nor post a
    wrong amount; the refusal names what the seat to post owes."""
    table = Table(name)
    table.play(button=1)
    table.start()
    assert (table.hand.small_blind_seat, table.hand.big_blind_seat) == (3, 4)
    early = table.refused("4 post")
    assert early.rule_id is RuleId.BLIND_01 and early.seat == 4
    assert early.allowed[0] == {"action": "post", "amount": 5, "owes": ["small_blind"]}
    table.act("3 post")
    wrong = table.refused("4 post 5")
    assert wrong.rule_id is RuleId.BLIND_01
    table.act("4 post 10")
    assert table.hand.to_act == 1


def test_BLIND_01_allows_the_unraised_big_blind_its_option_each_hand() -> None:
    """Two hands in a row: everyone limps, the unraised big blind may check or raise."""
    table = Table()
    for button, big in ((1, 3), (2, 4)):
        table.start(button if button == 1 else None)
        table.post_all()
        while table.hand.to_act != big:
            table.act(f"{table.hand.to_act} call")
        legal = table.legal_kinds()
        assert {"check", "raise"} <= legal
        table.act(f"{big} raise 20")
        table.fold_out()


@pytest.mark.parametrize("name", ["casino-five-card-draw", "single-draw-27-no-limit"])
def test_OPEN_01_guides_the_first_seat_left_of_the_button_after_the_draw(name: str) -> None:
    """In the second hand (button 2, blinds 3 and 4) seat 5 acts first before the draw, seat 3
    (the small blind, first left of the button) first after it; a bet from seat 4 first is
    refused."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.start()
    table.post_all()
    assert (table.hand.button, table.hand.to_act) == (2, 5)
    opening = "5 raise 20" if name == "single-draw-27-no-limit" else "5 call"  # BET-01: no limping
    for step in [opening, "1 fold", "2 fold", "3 call"]:
        table.act(step)
    table.act("4 call" if name == "single-draw-27-no-limit" else "4 check")
    for seat in (3, 4, 5):
        table.act(f"{seat} draw 1")
    assert table.hand.phase is Phase.BETTING_2 and table.hand.to_act == 3
    assert table.refused("4 check").rule_id is RuleId.OPEN_01
    table.act("3 check")
    assert table.hand.to_act == 4


# -- BLIND-02: heads-up --------------------------------------------------------------------------


def _bust_seat_3(table: Table) -> None:
    """Hand 1 (button 1, blinds 2 and 3): seat 3 has 15, calls seat 1's raise all in and loses
    with 9-high to three aces."""
    table.start(button=1)
    table.post_all()
    while table.hand.to_act != 1:
        table.act(f"{table.hand.to_act} fold")
    for step in ["1 raise 20", "2 fold", "3 call"]:
        table.act(step)
    while table.hand.phase is not Phase.SHOWDOWN:
        table.act(f"{table.hand.to_act} draw 0")
    shows = {1: ("Ah", "Ad", "Ac", "Ks", "Kd"), 3: ("2c", "3d", "5h", "7s", "9c")}
    while table.hand.phase is Phase.SHOWDOWN:
        seat = table.hand.to_act
        table.run(Act(seat, ActionKind.SHOW, cards=shows[seat]))
    assert table.seat(3).stack == 0


def _short_seat_3(name: str = "casino-five-card-draw") -> Table:
    table = Table(name, seats=(1, 2))
    table.run(SeatPlayer(3, "P3", 15))
    return table


def test_BLIND_02_guides_heads_up_blinds_after_a_player_busts() -> None:
    """Seat 3 busts in hand 1; heads-up the button posts the small blind and acts first before
    the draw, the other seat posts the big blind and acts first after the draw; the button
    alternates and nobody takes the big blind twice running (seat 1 had the button, seat 2 the
    small blind, so seat 2 takes the button)."""
    table = _short_seat_3()
    _bust_seat_3(table)
    bigs = [3]
    for button, big in ((2, 1), (1, 2), (2, 1)):
        table.start()
        table.post_all()
        seen = table.snapshot()
        assert (seen["button"], seen["sb"], seen["bb"]) == (button, button, big)
        assert seen["live"] == {button: 5, big: 10} and seen["first"] == button
        table.act(f"{button} call")
        table.act(f"{big} check")
        assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == big
        table.act(f"{big} draw 1")
        table.act(f"{button} draw 1")
        assert table.hand.to_act == big
        table.act(f"{big} bet 20")
        table.act(f"{button} fold")
        assert bigs[-1] != big
        bigs.append(big)


def test_BLIND_02_rejects_a_heads_up_button_that_gives_the_big_blind_twice() -> None:
    """Hand 1 button 1, blinds 2 and 3; seat 1 leaves. Heads-up, seat 3 (last big blind) takes
    the button and the small blind; naming seat 2 for the button is refused."""
    table = Table(seats=(1, 2, 3))
    table.play(button=1)
    table.run(RemovePlayer(1))
    refusal = table.refused(StartHand(2))
    assert refusal.rule_id is RuleId.BLIND_02
    assert refusal.allowed == [{"action": "start_hand", "button": 3}]
    table.start()
    table.post_all()
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (3, 3, 2)


def test_BLIND_02_guides_back_to_three_handed_after_the_bust_rebuys() -> None:
    """Seat 3 busts in hand 1 and rebuys before hand 2: it is dealt straight back in on the small
    blind (no blind passed it), the dead button carrying on as if nobody had busted."""
    table = _short_seat_3()
    _bust_seat_3(table)
    table.run(AddChips(3, 500))
    assert table.seat(3).missed_blind is None
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 3, 1)
    assert seen["live"] == {3: 5, 1: 10}


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_02_accepts_the_button_on_the_small_blind_when_the_small_blind_sits_out_at_the_post(
    name: str,
) -> None:
    """Three-handed, hand 2 (button 2, blinds 3 and 1): seat 3 sits out instead of posting its
    small blind. Seats 1 and 2 play heads-up: the button (seat 2) posts the small blind and acts
    first before the draw, seat 1 posts the big blind and acts first after the draw; next hand
    the button goes to seat 1, so nobody takes the big blind twice running."""
    table = Table(name, seats=(1, 2, 3))
    table.play(button=1)
    table.start()
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 3, 1)
    table.act("3 sit_out")
    assert table.seat(3).missed_blind == "small"
    table.post_all()
    seen = table.snapshot()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 2, 1)
    assert seen["live"] == {2: 5, 1: 10} and seen["first"] == 2
    table.act("2 raise 20")
    table.act("1 call")
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 1
    table.act("1 draw 1")
    table.act("2 draw 1")
    assert table.hand.phase is Phase.BETTING_2 and table.hand.to_act == 1
    table.act("1 check")
    assert table.hand.to_act == 2
    table.fold_out()
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (1, 1, 2)
    assert seen["live"] == {1: 5, 2: 10}


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_02_accepts_the_small_blind_last_after_the_draw_when_the_big_blind_sits_out(
    name: str,
) -> None:
    """Three-handed, hand 2 (button 2, blinds 3 and 1): seat 3 posts its small blind, then seat
    1 sits out instead of posting the big blind, which moves on to the button (seat 2, BLIND-07).
    Heads-up, the small blind (seat 3) stands where the button would: it acts first before the
    draw and draws and acts last after it, so the big blind on the button draws and acts first
    after the draw and a draw or a check from seat 3 first is refused. The blind positions
    carry on as the hand put them: next hand seat 2 has the button and the small blind, seat 3
    the big blind."""
    table = Table(name, seats=(1, 2, 3))
    table.play(button=1)
    table.start()
    assert (table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 3, 1)
    table.act("3 post")
    table.act("1 sit_out")
    assert table.seat(1).missed_blind == "big"
    table.post_all()
    seen = table.snapshot()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 3, 2)
    assert seen["live"] == {3: 5, 2: 10} and seen["first"] == 3
    table.act("3 raise 20")
    table.act("2 call")
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 2
    assert table.refused("3 draw 1").rule_id is RuleId.DRAW_01
    table.act("2 draw 1")
    table.act("3 draw 1")
    assert table.hand.phase is Phase.BETTING_2 and table.hand.to_act == 2
    assert table.refused("3 check").rule_id is RuleId.BLIND_02
    table.act("2 check")
    assert table.hand.to_act == 3
    table.fold_out()
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 2, 3)
    assert seen["live"] == {2: 5, 3: 10}


# -- BLIND-03: dead button and moving button ---------------------------------------------------


def test_BLIND_03_guides_the_dead_button_when_players_leave_and_empty_seats_pass() -> None:
    """Dead button, seats 1-5 (6 empty): hand 1 button 1, blinds 2 and 3. Seat 3 (the big blind)
    leaves: hand 2 the big blind moves on to seat 4, the small blind is dead (seat 3 empty) and
    the button is seat 2. Seat 2 leaves too: hand 3 the button sits on the empty seat 3 (dead
    button), small blind 4, big blind 5. Every big blind is posted exactly once per round."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.run(RemovePlayer(3))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, None, 4)
    assert seen["live"] == {4: 10} and seen["first"] == 5
    table.run(RemovePlayer(2))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 4, 5)
    assert table.state.button == 3 and table.seat(3).status is SeatStatus.EMPTY
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (4, 5, 1)
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (5, 1, 4)


def test_BLIND_03_guides_the_moving_button_past_empty_seats() -> None:
    """Moving button (the other value of ``button_method``), seats 1, 2, 4 and 6: the button
    always moves to the next player, never an empty seat, and the blinds follow it; when seat 4
    leaves, the next hand's button skips seats 3-5 and nobody posts a dead blind."""
    table = Table(
        seats=(1, 2, 4, 6),
        rules=profile("casino-five-card-draw", button_method=ButtonMethod.MOVING),
    )
    expected = [(1, 2, 4), (2, 4, 6), (4, 6, 1), (6, 1, 2)]
    for number, (button, small, big) in enumerate(expected):
        seen = table.play(button=1 if number == 0 else None)
        assert (seen["button"], seen["sb"], seen["bb"]) == (button, small, big)
    table.run(RemovePlayer(4))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (1, 2, 6)
    assert seen["live"] == {2: 5, 6: 10} and not seen["dead"]
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 6, 1)


@pytest.mark.parametrize("method", list(ButtonMethod))
def test_BLIND_03_rejects_a_button_placed_against_the_method(method: ButtonMethod) -> None:
    """In hand 3 the dealer may not put the button anywhere but where the method moves it."""
    table = Table(rules=profile("casino-triple-draw-27", button_method=method))
    table.play(button=1)
    table.play()
    refusal = table.refused(StartHand(1))
    assert refusal.rule_id is RuleId.BLIND_03
    assert refusal.allowed == [{"action": "start_hand", "button": 3}]
    assert table.start(3).state.hand is not None


# -- BLIND-05/06: newcomers --------------------------------------------------------------------


def _after_an_orbit(table: Table) -> None:
    """Hand 1 on button 1, then hands until the button is back on seat 1, the blinds where they
    were after hand 1: the game is no longer new, so a newcomer posts or waits (BLIND-11 c)."""
    table.play(button=1)
    while table.play()["button"] != 1:
        pass


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES)
def test_BLIND_05_accepts_newcomers_posting_waiting_or_taking_the_big_blind(name: str) -> None:
    """After an orbit (button 1, blinds 2 and 4; seats 3, 5 and 6 empty) three players sit down:
    seat 5 is where the big blind goes next, so it simply is the big blind; seat 6 posts a live
    big blind to play at once; seat 3, between the button and the small blind, waits (BLIND-06)
    and posts a big blind the next hand, once the button has passed it."""
    table = Table(name, seats=(1, 2, 4))
    _after_an_orbit(table)
    for seat in (3, 5, 6):
        table.run(SeatPlayer(seat, f"N{seat}", 500))
    preview = table.preview()
    assert preview is not None and preview["waiting"] == {"3": "BLIND-06"}
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 4, 5)
    assert seen["live"] == {4: 5, 5: 10, 6: 10} and seen["waiting"] == {3: "BLIND-06"}
    assert seen["first"] == 6  # the poster keeps its turn left of the big blind
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (4, 5, 6)
    assert seen["live"] == {5: 5, 6: 10, 3: 10} and 3 in seen["dealt"]
    seen = table.play()
    assert seen["live"] == {6: 5, 1: 10}


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES)
def test_BLIND_05_accepts_a_newcomer_waiting_then_dealt_in_on_the_big_blind(name: str) -> None:
    """A newcomer in seat 6 who chooses to wait is not dealt in; the next hand the big blind
    reaches seat 6 (seat 5 is empty) and he posts only the big blind, markers cleared."""
    table = Table(name, seats=(1, 2, 3, 4))
    _after_an_orbit(table)
    table.run(SeatPlayer(6, "N6", 500))
    seen = table.play(s6="wait")
    assert 6 not in seen["dealt"] and (seen["button"], seen["bb"]) == (2, 4)
    assert table.seat(6).waiting == "BLIND-05"
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 4, 6)
    assert seen["live"] == {4: 5, 6: 10} and not seen["dead"]
    assert table.seat(6).waiting is None and not table.seat(6).new_player


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES)
def test_BLIND_05_rejects_a_newcomer_posting_less_than_a_big_blind(name: str) -> None:
    """A newcomer who plays at once posts a whole big blind; 5 is refused."""
    table = Table(name)
    _after_an_orbit(table)
    table.run(SeatPlayer(6, "N6", 500))
    table.start()
    table.act("3 post")
    table.act("4 post")
    assert table.hand.to_act == 6
    assert table.refused("6 post 5").rule_id is RuleId.BLIND_05
    table.act("6 post 10")


def test_BLIND_05_accepts_a_newcomer_dealt_in_free_in_no_limit() -> None:
    """single-draw-27-no-limit (``new_player_must_post = false``, WSOP 104-a): a newcomer who
    is neither in the blinds nor between them and the button is dealt in without posting."""
    table = Table("single-draw-27-no-limit")
    table.play(button=1)
    table.run(SeatPlayer(6, "N6", 500))
    seen = table.play()
    assert 6 in seen["dealt"] and 6 not in seen["live"] and seen["first"] == 6


def test_BLIND_06_rejects_a_post_from_a_newcomer_between_the_blinds_and_the_button() -> None:
    """casino-five-card-draw (``wait``): the newcomer in seat 3, between the button (2) and the
    small blind (4), is not dealt in and may not post in."""
    table = Table(seats=(1, 2, 4, 5))
    table.play(button=1)
    table.run(SeatPlayer(3, "N3", 500))
    table.start()
    assert dict(table.hand.waiting) == {3: "BLIND-06"}
    assert table.refused("3 post").rule_id is RuleId.BLIND_06


def test_BLIND_06_accepts_buying_the_button_where_the_house_allows() -> None:
    """casino-five-card-draw with ``between_blinds_and_button = buy_button``: the newcomer
    between the button and the small blind posts a live big blind and a dead small blind and
    plays at once."""
    rules = profile("casino-five-card-draw", between_blinds_and_button=BUY_BUTTON)
    table = Table(seats=(1, 2, 4, 5), rules=rules)
    table.play(button=1)
    table.run(SeatPlayer(3, "N3", 500))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 4, 5)
    assert seen["live"] == {4: 5, 5: 10, 3: 10} and seen["dead"] == {3: 5}


def test_BLIND_06_accepts_the_bought_button_on_the_next_hand() -> None:
    """After buying in between the blinds and the button (hand 2), seat 3 has the button in
    hand 3."""
    rules = profile("casino-five-card-draw", between_blinds_and_button=BUY_BUTTON)
    table = Table(seats=(1, 2, 4, 5), rules=rules)
    table.play(button=1)
    table.run(SeatPlayer(3, "N3", 500))
    table.play()
    assert table.play()["button"] == 3


def test_BLIND_06_rejects_a_free_hand_between_the_blinds_and_the_button_in_no_limit() -> None:
    """single-draw-27-no-limit: the newcomer in seat 3, between the button (2) and the small
    blind (4), either waits or buys the button; he is not dealt in for nothing."""
    table = Table("single-draw-27-no-limit", seats=(1, 2, 4, 5))
    table.play(button=1)
    table.run(SeatPlayer(3, "N3", 500))
    seen = table.play()
    assert 3 not in seen["dealt"] or seen["live"].get(3) == 10


# -- BLIND-07/08/09/11/15: missed blinds and coming back ---------------------------------------


def _orbit_away(table: Table, seat: int, hands: int) -> list[dict[str, Any]]:
    """Seat ``seat`` sits out after hand 1 (button 1) and stays out for ``hands`` hands."""
    table.play(button=1)
    table.run(SitOut(seat))
    return [table.play() for _ in range(hands)]


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_07_guides_the_blinds_past_a_seat_that_sits_out_for_an_orbit(name: str) -> None:
    """Seat 4 sits out for a whole orbit: the big blind goes to the next active seat each time
    (never to seat 4), seat 4 gets the missed-big-blind marker, and it keeps it all orbit."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    hands = _orbit_away(table, 4, 5)
    assert [seen["bb"] for seen in hands] == [5, 1, 2, 3, 5]
    assert all(4 not in seen["dealt"] for seen in hands)
    assert table.seat(4).missed_blind == "big" and table.seat(4).status is SeatStatus.SITTING_OUT


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_08_accepts_a_return_posting_the_big_blind_live_and_the_small_dead(
    name: str,
) -> None:
    """Back after an orbit, seat 4 posts 15 to be dealt in at once: 10 live, 5 dead in the
    middle; with everyone limping it keeps its option to raise; its marker is cleared."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    _orbit_away(table, 4, 5)
    table.run(ReturnToPlay(4, wait=False))
    preview = table.preview()
    assert preview is not None
    assert preview["owes"]["4"] == {
        "amount": 15,
        "owes": ["returning_big_blind", "dead_small_blind"],
    }
    table.start()
    table.post_all()
    seen = table.snapshot()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 5, 1)
    assert seen["live"] == {4: 10, 5: 5, 1: 10} and seen["dead"] == {4: 5}
    assert table.seat(4).missed_blind is None
    limp = "raise 20" if name == "single-draw-27-no-limit" else "call"
    table.act(f"2 {limp}")
    table.act("3 call")
    legal = table.legal()
    assert legal["seat"] == 4 and "raise" in {entry["action"] for entry in legal["legal"]}


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_08_accepts_waiting_for_the_big_blind_after_an_orbit_away(name: str) -> None:
    """Seat 4 comes back waiting: not dealt in (nor asked to post) until the big blind reaches
    it, then it posts only the big blind, nothing dead."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.run(SitOut(4))
    table.play()
    table.run(ReturnToPlay(4, wait=True))
    waited = [table.play() for _ in range(3)]
    assert all(seen["waiting"] == {4: "BLIND-08"} for seen in waited)
    seen = table.play()
    assert seen["bb"] == 4 and seen["live"][4] == 10 and not seen["dead"]
    assert table.seat(4).missed_blind is None and table.seat(4).waiting is None


def test_BLIND_08_rejects_posting_back_in_where_the_house_makes_it_wait() -> None:
    """``missed_blinds_return = wait_for_big_blind``: the return must wait; waiting, it is dealt
    in on the big blind."""
    rules = profile(
        "casino-triple-draw-27", missed_blinds_return=MissedBlindsReturn.WAIT_FOR_BIG_BLIND
    )
    table = Table("casino-triple-draw-27", seats=(1, 2, 3, 4, 5), rules=rules)
    _orbit_away(table, 4, 5)
    refusal = table.refused(ReturnToPlay(4, wait=False))
    assert refusal.rule_id is RuleId.BLIND_08
    table.run(ReturnToPlay(4, wait=True))
    seen = table.play()
    assert 4 not in seen["dealt"]
    while 4 not in seen["dealt"]:
        seen = table.play()
    assert seen["bb"] == 4 and not seen["dead"]


def test_BLIND_08_rejects_a_return_posting_only_the_big_blind() -> None:
    """The returning seat owes 15 (big live, small dead); 10 is refused."""
    table = Table(seats=(1, 2, 3, 4, 5))
    _orbit_away(table, 4, 5)
    table.run(ReturnToPlay(4, wait=False))
    table.start()
    table.act("5 post")
    table.act("1 post")
    assert table.hand.to_act == 4
    assert table.refused("4 post 10").rule_id is RuleId.BLIND_08
    table.act("4 post 15")


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_09_accepts_a_missed_small_blind_posted_dead(name: str) -> None:
    """Seat 4 has the big blind in hand 1 and sits out for hand 2, where the small blind would
    have been its (dead small blind). Back for hand 3 it posts 5 dead and nothing live."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=2)
    table.run(SitOut(4))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, None, 5)
    assert table.seat(4).missed_blind == "small"
    table.run(ReturnToPlay(4, wait=False))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (4, 5, 1)
    assert seen["dead"] == {4: 5} and 4 not in seen["live"] and 4 in seen["dealt"]


def test_BLIND_09_rejects_a_missed_small_blind_posting_in_before_the_button_passes() -> None:
    """``sb_only_wait_for_button = true``: the same seat 4 may not post in while it is on the
    button (hand 3); it is dealt in posting its dead small blind once the button has passed."""
    rules = profile("casino-five-card-draw", sb_only_wait_for_button=True)
    table = Table(seats=(1, 2, 3, 4, 5), rules=rules)
    table.play(button=2)
    table.run(SitOut(4))
    table.play()
    table.run(ReturnToPlay(4, wait=False))
    table.start()
    assert dict(table.hand.waiting) == {4: "BLIND-09"}
    assert table.refused("4 post").rule_id is RuleId.BLIND_09
    table.post_all()
    table.fold_out()
    seen = table.play()
    assert seen["button"] == 5 and seen["dead"] == {4: 5} and 4 in seen["dealt"]


def test_BLIND_11_accepts_a_rebuy_owing_the_blinds_missed_while_broke() -> None:
    """Seat 3 busts in hand 1 of a five-handed game and rebuys once both blinds have passed it:
    it is not a new player, it owes the blinds it missed meanwhile (a big live, a small dead)."""
    table = Table(seats=(1, 2, 4, 5))
    table.run(SeatPlayer(3, "P3", 15))
    _bust_seat_3(table)
    for number in range(5):
        seen = table.play()
        assert 3 not in seen["dealt"]
        if number == 0:  # hand 2: the small blind is dead on the broke seat 3
            assert (seen["sb"], seen["bb"], table.seat(3).missed_blind) == (None, 4, "small")
    assert table.seat(3).missed_blind == "big"
    table.run(AddChips(3, 500))
    assert not table.seat(3).new_player
    preview = table.preview()
    assert preview is not None and preview["owes"]["3"]["amount"] == 15


def test_BLIND_11_accepts_a_newcomer_in_a_new_game_before_any_blind_passed_him() -> None:
    """Hand 1 of a new game: button 1, blinds 2 and 3 (seats 5 and 6 empty). A player sits in
    seat 5 before hand 2: no blind has passed seat 5 and the button has not gone round, so he
    is dealt in hand 2 without posting."""
    table = Table()
    table.play(button=1)
    table.run(SeatPlayer(5, "N5", 500))
    seen = table.play()
    assert 5 in seen["dealt"] and 5 not in seen["live"]


def test_BLIND_11_accepts_a_newcomer_later_in_the_first_orbit() -> None:
    """Hands 1 and 2 of a new game at five players: button 1 then 2, the big blind on seats 3
    then 4 (seat 6 empty). A player sits in seat 6 before hand 3 (big blind 5): no blind has
    passed seat 6 and the button has not gone round, so he is dealt in without posting."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.play()
    table.run(SeatPlayer(6, "N6", 500))
    seen = table.play()
    assert seen["bb"] == 5
    assert 6 in seen["dealt"] and 6 not in seen["live"]


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES)
def test_BLIND_11_guides_a_newcomer_where_a_blind_passed_in_the_first_orbit(name: str) -> None:
    """Hands 1 and 2 of a new game at five players: button 1 then 2, the big blind on seats 3
    then 4. Seat 2 leaves; before hand 3 (big blind 5) one player sits in seat 2, which the
    blinds have passed, and one in seat 6, which they have not: seat 2 is a newcomer who posts
    a big blind or waits for it (BLIND-05), seat 6 is dealt in without posting."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.play()
    table.run(RemovePlayer(2))
    table.run(SeatPlayer(2, "N2", 500))
    table.run(SeatPlayer(6, "N6", 500))
    assert table.seat(2).new_player and not table.seat(6).new_player
    preview = table.preview()
    assert preview is not None
    assert preview["owes"]["2"] == {"amount": 10, "owes": ["entering_big_blind"]}
    assert "6" not in preview["owes"]
    seen = table.play(s2="wait")
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 4, 5)
    assert 2 not in seen["dealt"] and table.seat(2).waiting == "BLIND-05"
    assert 6 in seen["dealt"] and 6 not in seen["live"]


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES)
def test_BLIND_11_rejects_a_free_hand_once_the_blinds_have_gone_round(name: str) -> None:
    """Five players, seat 6 empty: hand 4's big blind is seat 1, the first button, so the
    blinds have passed every seat (seat 6 among them) and the game is no longer new: a player
    who sits in seat 6 is a newcomer; hand 5 (button 5, blinds 1 and 2) puts him between the
    button and the small blind, so he waits (BLIND-06) and then posts a big blind or waits
    for it (BLIND-05)."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    big_blinds = [table.play(button=1)["bb"]] + [table.play()["bb"] for _ in range(3)]
    assert big_blinds == [3, 4, 5, 1]
    table.run(SeatPlayer(6, "N6", 500))
    assert table.seat(6).new_player
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (5, 1, 2)
    assert seen["waiting"] == {6: "BLIND-06"}
    preview = table.preview()
    assert preview is not None
    assert preview["owes"]["6"] == {"amount": 10, "owes": ["entering_big_blind"]}


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_11_accepts_a_seat_change_where_no_blind_has_passed(name: str) -> None:
    """Hand 1 of a new game: button 1, blinds 2 and 3. Seat 4 (next big blind) moves to the
    empty seat 6, which no blind has passed: he may change seats freely, so he is dealt in hand
    2 without posting or waiting and takes the big blind when it reaches seat 6 in hand 3."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.run(ChangeSeat(4, 6))
    assert table.seat(6).waiting is None and not table.seat(6).new_player
    seen = table.play()
    assert seen["bb"] == 5 and not seen["waiting"]
    assert 6 in seen["dealt"] and 6 not in seen["live"]
    seen = table.play()
    assert seen["bb"] == 6 and seen["live"][6] == 10


def test_BLIND_15_guides_the_floor_to_a_seat_that_sat_out_just_before_its_blind() -> None:
    """Seat 4 is due a blind next hand (the small blind), sits out, and comes back two hands
    later (the blinds have passed): the return carries a BLIND-15 notice; a seat back after a
    full orbit carries none."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.play()
    table.run(SitOut(4))  # seat 4 would post the small blind in hand 3
    table.play()
    table.play()
    notices = table.run(ReturnToPlay(4, wait=False)).notices
    assert [notice.rule_id for notice in notices] == [RuleId.BLIND_15]
    other = Table(seats=(1, 2, 3, 4, 5))
    _orbit_away(other, 2, 8)
    assert other.run(ReturnToPlay(2, wait=False)).notices == ()


# -- BLIND-12 and OPEN-09: changing seats -------------------------------------------------------


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_12_rejects_a_free_hand_from_a_move_away_from_the_big_blind(name: str) -> None:
    """After an orbit (button 1, blinds 2 and 3; seat 6 empty, passed by the blinds), seat 4
    (next big blind) moves to seat 6: it must wait until the big blind reaches seat 6 (no free
    hands), may not sit out and back in to skip the wait, and posts the big blind there. (In
    the first orbit the move is free: BLIND-11 c.)"""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    _after_an_orbit(table)
    table.run(ChangeSeat(4, 6))
    assert table.seat(6).waiting == "BLIND-12"
    table.run(SitOut(6))
    assert table.refused(ReturnToPlay(6, wait=False)).rule_id is RuleId.BLIND_12
    table.run(ReturnToPlay(6, wait=True))
    seen = table.play()
    assert seen["bb"] == 5 and seen["waiting"] == {6: "BLIND-12"}
    seen = table.play()
    assert seen["bb"] == 6 and seen["live"][6] == 10


def test_BLIND_12_accepts_a_move_toward_the_big_blind_dealt_in_at_once() -> None:
    """Hand 1 button 3, blinds 4 and 5: seat 3 (the button) moves to seat 6, next in line for
    the big blind; it is dealt in at once as the big blind."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=3)
    table.run(ChangeSeat(3, 6))
    assert table.seat(6).waiting is None
    seen = table.play()
    assert seen["bb"] == 6 and seen["live"][6] == 10


def test_OPEN_09_rejects_a_seat_change_while_a_passed_out_deal_is_in_the_pot() -> None:
    """home-game-five-card-draw (antes, jacks to open): nobody opens hand 1, so its antes stay
    in the pot; no seat change until that pot is won, then seats change freely."""
    table = Table("home-game-five-card-draw", seats=(1, 2, 3))
    table.start(button=1)
    table.post_all()
    for seat in (2, 3, 1):
        table.act(f"{seat} check")
    assert table.state.carried_pot == 6
    refusal = table.refused(ChangeSeat(2, 5))
    assert refusal.rule_id is RuleId.OPEN_09
    table.start()
    table.post_all()
    for step in ["2 bet 10", "3 fold", "1 fold"]:
        table.act(step)
    assert table.state.carried_pot == 0
    table.run(ChangeSeat(2, 5))
    assert table.seat(5).player == "P2"


# -- BLIND-13: single blind; BLIND-14: straddle -------------------------------------------------


def test_BLIND_13_guides_one_blind_left_of_the_button_round_the_table() -> None:
    """``single_blind = true``: each hand one blind of 10, first seat left of the button, the
    action starting left of it; over an orbit every seat posts it once."""
    table = Table(seats=(1, 2, 3, 4), rules=profile("casino-five-card-draw", single_blind=True))
    blinds = []
    for number in range(4):
        seen = table.play(button=1 if number == 0 else None)
        assert seen["sb"] is None and seen["live"] == {seen["bb"]: 10}
        assert seen["bb"] == left_of([1, 2, 3, 4], seen["button"])
        assert seen["first"] == left_of([1, 2, 3, 4], seen["bb"])
        blinds.append(seen["bb"])
    assert blinds == [2, 3, 4, 1]


def test_BLIND_13_rejects_a_return_except_on_the_blind() -> None:
    """A seat that skipped the single blind comes back only on the blind: posting back in is
    refused, waiting deals it in when the blind reaches it."""
    table = Table(seats=(1, 2, 3, 4), rules=profile("casino-five-card-draw", single_blind=True))
    table.play(button=1)
    table.run(SitOut(3))
    table.play()
    assert table.seat(3).missed_blind == "big"
    assert table.refused(ReturnToPlay(3, wait=False)).rule_id is RuleId.BLIND_13
    table.run(ReturnToPlay(3, wait=True))
    seen = table.play()
    while 3 not in seen["dealt"]:
        seen = table.play()
    assert seen["bb"] == 3


@pytest.mark.parametrize("name", FIXED_LIMIT_PROFILES[:2])
def test_BLIND_14_accepts_a_straddle_that_acts_last_before_the_draw_each_hand(name: str) -> None:
    """``straddle_allowed = true``, five players: in two hands in a row the seat left of the
    big blind is offered the straddle; straddling 20 it acts last before the draw, the action
    starting at its left; the next hand's straddle offer has moved on one seat."""
    table = Table(name, seats=(1, 2, 3, 4, 5), rules=profile(name, straddle_allowed=True))
    for button, utg in ((1, 4), (2, 5)):
        table.start(button if button == 1 else None)
        table.post_all(**{f"s{utg}": "straddle"})
        assert table.hand.straddle_seat == utg
        first = left_of([1, 2, 3, 4, 5], utg)
        assert table.hand.to_act == first
        while table.hand.to_act != utg:
            table.act(f"{table.hand.to_act} call")
        legal = table.legal_kinds()
        assert "raise" in legal and "check" in legal
        table.act(f"{utg} raise 30")
        table.fold_out()


def test_BLIND_14_rejects_a_straddle_where_the_house_does_not_allow_it() -> None:
    """Every shipped profile has ``straddle_allowed = false``: no offer, and a straddle post is
    refused."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.start()
    table.act("3 post")
    table.act("4 post")
    assert table.hand.phase is Phase.BETTING_1 and table.hand.to_act == 5
    refusal = table.refused(Act(5, ActionKind.POST, option="straddle"))
    assert refusal.rule_id is RuleId.GAME_01  # the posts are over: no straddle to make


def test_BLIND_14_refuses_a_button_straddle_in_a_limit_game() -> None:
    """Three-handed fixed limit, button 1, blinds 2 and 3: the button is not offered the
    straddle."""
    rules = profile("casino-five-card-draw", straddle_allowed=True)
    table = Table(seats=(1, 2, 3), rules=rules)
    table.start(button=1)
    table.act("2 post")
    table.act("3 post")
    assert table.hand.phase is not Phase.POSTING


def test_BLIND_14_accepts_a_button_straddle_in_no_limit() -> None:
    """The limit games' exception only: three-handed no limit, the button (left of the big
    blind) is offered the straddle and may make it."""
    rules = profile("single-draw-27-no-limit", straddle_allowed=True)
    table = Table("single-draw-27-no-limit", seats=(1, 2, 3), rules=rules)
    table.start(button=1)
    table.act("2 post")
    table.act("3 post")
    assert table.hand.phase is Phase.POSTING and table.hand.to_act == 1
    table.act("1 post straddle")
    assert table.hand.straddle_seat == 1


# -- GAME-07: players per game ------------------------------------------------------------------


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_GAME_07_rejects_a_seventh_player_then_deals_when_one_sits_out(name: str) -> None:
    """At a nine-seat table the profiles deal six at most: a seventh active player (posting to
    come in) is refused until somebody sits out; then the hand deals six."""
    table = Table(name, seats=(1, 2, 3, 4, 5, 6), max_seats=9)
    table.play(button=1)
    table.run(SeatPlayer(8, "N8", 500))
    assert table.refused(StartHand()).rule_id is RuleId.GAME_07
    table.run(SitOut(1))
    seen = table.play()
    assert len(seen["dealt"]) == 6 and 8 in seen["dealt"]


def test_GAME_07_accepts_six_dealt_in_while_a_seventh_waits() -> None:
    """Nine seats, six players and a newcomer between the button and the small blind who must
    wait: six are dealt in."""
    table = Table(seats=(1, 2, 4, 5, 6, 7), max_seats=9)
    table.play(button=1)
    table.run(SeatPlayer(3, "N3", 500))
    seen = table.play()
    assert len(seen["dealt"]) == 6 and seen["waiting"] == {3: "BLIND-06"}


# -- KILL-01..06: kill pots over several hands ----------------------------------------------------

KILL = "casino-triple-draw-27-kill"
OPTIONAL_KILL = "casino-triple-draw-27-optional-kill"


def kill_rules(size: KillSize = KillSize.FULL, mode: KillMode = KillMode.REQUIRED) -> HouseRules:
    """The required-kill profile, or with the other ``kill.size`` / ``kill.mode`` values."""
    return replace(profile(KILL), kill=KillRules(mode=mode, size=size))


def win_alone(table: Table, winner: int, button: int | None = None, **choices: str) -> Any:
    """Start a hand; ``winner`` makes the smallest bet or raise when first it acts, everyone
    else folds. Returns the hand as it was once the posts were in."""
    table.start(button)
    table.post_all(**choices)
    seen = table.snapshot() | {"kill": table.hand.kill_seat}
    raised = False
    while table.hand.phase is not Phase.COMPLETE:
        seat = table.hand.to_act
        if seat == winner and not raised:
            legal = table.legal()["legal"]
            entry = next(e for e in legal if e["action"] in ("bet", "raise"))
            table.act(f"{seat} {entry['action']} {entry['min']}")
            raised = True
        else:
            table.act(f"{seat} fold")
    return seen


@pytest.mark.parametrize(
    ("size", "blind", "limits"), [(KillSize.FULL, 20, (20, 40)), (KillSize.HALF, 15, (15, 30))]
)
def test_KILL_02_guides_a_kill_after_two_pots_in_a_row_and_again_after_the_kill_pot(
    size: KillSize, blind: int, limits: tuple[int, int]
) -> None:
    """Five players; seat 3 wins hand 1 (its leg) and hand 2 (a big bet in the pot: the second
    leg) and kills hand 3 from the button: it posts the kill blind, every limit of the hand is
    multiplied, the action starts at its left and it acts last before the draw (KILL-04). It
    wins the kill pot too and kills again in hand 4, from the seat before the button."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5), rules=kill_rules(size))
    assert win_alone(table, 3, button=1)["kill"] is None
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 1)
    assert win_alone(table, 3)["kill"] is None
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 2)
    started = table.start()
    (record,) = [e for e in started.events if e["type"] == "hand_started"]
    assert record["kill"] == {
        "seat": 3,
        "blind": blind,
        "small_bet": limits[0],
        "big_bet": limits[1],
    }
    table.post_all()
    seen = table.snapshot()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 4, 5)
    assert seen["live"] == {4: 5, 5: 10, 3: blind} and seen["first"] == 4
    legal = table.legal()["legal"]
    assert {"action": "raise", "min": 2 * limits[0], "max": 2 * limits[0]} in legal
    for seat in (4, 5, 1, 2):
        table.act(f"{seat} {'fold' if seat != 1 else 'call'}")
    assert table.hand.to_act == 3  # the kill acts last
    table.act(f"3 raise {2 * limits[0]}")
    table.act("1 fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 2)
    seen = win_alone(table, 1)
    assert (seen["kill"], seen["button"], seen["sb"], seen["bb"]) == (3, 4, 5, 1)
    assert seen["live"] == {5: 5, 1: 10, 3: blind} and seen["first"] == 4


def test_KILL_02_refuses_the_leg_to_a_seat_that_won_only_one_pot() -> None:
    """Seat 3 wins hand 1, seat 4 hand 2, seat 3 hand 3: nobody has won two in a row, nobody
    kills hand 4."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5))
    for number, winner in enumerate((3, 4, 3)):
        win_alone(table, winner, button=1 if number == 0 else None)
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 1)
    assert win_alone(table, 2)["kill"] is None


def test_KILL_05_rejects_sitting_out_when_due_to_kill() -> None:
    """Seat 3 won two pots in a row: it may not sit out before the kill hand, nor skip the kill
    post once the hand starts; the kill then plays."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5))
    win_alone(table, 3, button=1)
    win_alone(table, 3)
    assert table.refused(SitOut(3)).rule_id is RuleId.KILL_05
    table.start()
    table.act("4 post")
    table.act("5 post")
    assert table.refused("3 sit_out").rule_id is RuleId.KILL_05
    assert table.refused("3 post wait").rule_id is RuleId.KILL_05
    table.act("3 post 20")


def test_KILL_05_refuses_leaving_the_table_when_due_to_kill() -> None:
    """Seat 3 won two pots in a row and tries to leave before the kill hand."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5))
    win_alone(table, 3, button=1)
    win_alone(table, 3)
    assert table.refused(RemovePlayer(3)).rule_id is RuleId.KILL_05


def test_KILL_03_accepts_a_leg_kept_by_a_player_who_leaves_and_returns() -> None:
    """Seat 3 wins hand 1 (a leg), leaves, and sits down again before hand 2."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5))
    win_alone(table, 3, button=1)
    table.run(RemovePlayer(3))
    table.run(SeatPlayer(3, "P3", 500))
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 1)


def test_KILL_03_guides_a_neutral_button_when_the_leg_holder_leaves() -> None:
    """Seat 3 has a leg and quits: the kill button is neutral; seat 1 winning the next two
    pots then kills."""
    table = Table(KILL, seats=(1, 2, 3, 4, 5))
    win_alone(table, 3, button=1)
    table.run(RemovePlayer(3))
    assert (table.state.kill_leg, table.state.kill_legs) == (None, 0)
    win_alone(table, 1)
    win_alone(table, 1)
    assert win_alone(table, 2)["kill"] == 1


def test_KILL_06_accepts_a_newcomer_entering_a_kill_pot_or_waiting() -> None:
    """A newcomer sits down before a kill hand: he may post a big blind (not the kill) and play
    the kill pot, or wait for the big blind. (Hand 1's blinds were seats 5 and 1, so a blind
    has passed seat 6: he is not dealt in free as in a new game, BLIND-11 c.)"""
    for choice, dealt in (("", True), ("wait", False)):
        table = Table(KILL, seats=(1, 2, 3, 4, 5))
        win_alone(table, 3, button=4)
        win_alone(table, 3)
        table.run(SeatPlayer(6, "N6", 500))
        seen = win_alone(table, 4, s6=choice) if choice else win_alone(table, 4)
        assert seen["kill"] == 3 and (6 in seen["dealt"]) is dealt
        assert seen["live"].get(6) == (10 if dealt else None)


def test_KILL_06_refuses_a_straddle_offer_in_a_kill_pot() -> None:
    """``straddle_allowed = true`` beside required kills: the seat left of the big blind is
    offered the straddle in a normal hand but not in the kill pot."""
    rules = kill_rules()
    rules = replace(rules, blinds=replace(rules.blinds, straddle_allowed=True))
    table = Table(KILL, seats=(1, 2, 3, 4, 5), rules=rules)
    win_alone(table, 3, button=1, s4="no_straddle")
    win_alone(table, 3, s5="no_straddle")
    table.start()
    assert table.hand.kill_seat == 3
    owes = [part for player in table.hand.players for part in player.owes_what]
    assert "straddle_offer" not in owes


def test_KILL_01_accepts_a_newcomer_killing_to_play_at_once_then_a_normal_hand() -> None:
    """Optional kills: a newcomer in seat 6 kills hand 2 instead of waiting (20, limits 20/40);
    hand 3 is an ordinary hand again and nobody is due to kill."""
    table = Table(OPTIONAL_KILL, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.run(SeatPlayer(6, "N6", 500))
    table.start(kill_seat=6)
    table.post_all()
    seen = table.snapshot()
    assert seen["live"] == {3: 5, 4: 10, 6: 20} and table.hand.kill_seat == 6
    assert seen["first"] == 1  # KILL-04: the action starts left of the kill
    table.fold_out()
    seen = table.play()
    assert table.hand.kill_seat is None and seen["live"] == {4: 5, 5: 10}


@pytest.mark.parametrize("name", ["casino-triple-draw-27", "casino-five-card-draw", KILL])
def test_KILL_01_rejects_a_chosen_kill_where_the_profile_has_none(name: str) -> None:
    """Profiles with ``kill.mode`` off or required take no voluntary kill, in any hand."""
    table = Table(name)
    table.play(button=1)
    assert table.refused(StartHand(kill_seat=2)).rule_id is RuleId.KILL_01


def test_KILL_06_refuses_buying_the_button_when_the_kill_is_in_a_blind() -> None:
    """Required kills with ``between_blinds_and_button = buy_button``: seat 5 wins hands 2 and 3
    and kills hand 4 from the big blind (button 2, small blind 4); a newcomer in seat 3, between
    the button and the small blind, must wait instead of buying the button."""
    rules = kill_rules()
    rules = replace(rules, blinds=replace(rules.blinds, between_blinds_and_button=BUY_BUTTON))
    table = Table(KILL, seats=(1, 2, 4, 5, 6), rules=rules)
    win_alone(table, 4, button=5)
    win_alone(table, 5)
    win_alone(table, 5)
    table.run(SeatPlayer(3, "N3", 500))
    table.start()
    assert (table.hand.kill_seat, table.hand.big_blind_seat) == (5, 5)
    assert dict(table.hand.waiting)[3] == "KILL-06"


# -- BLIND-04 and BLIND-07 at the post, over the following hands -----------------------------------


def test_BLIND_04_rejects_a_call_of_a_short_big_blind_then_the_seat_rebuys() -> None:
    """Seat 3 has 7 and is the big blind of hand 1: it posts 7 all in, a call of 7 is refused
    (the call is the full 10); after it busts and rebuys before hand 2 it takes the small blind
    as normal."""
    table = Table(seats=(1, 2))
    table.run(SeatPlayer(3, "P3", 7))
    table.start(button=1)
    table.post_all()
    assert table.snapshot()["live"] == {2: 5, 3: 7}
    assert table.refused("1 call 7").rule_id is RuleId.BLIND_04
    table.act("1 call 10")
    table.act("2 fold")
    while table.hand.phase is not Phase.SHOWDOWN:
        table.act(f"{table.hand.to_act} draw 0")
    shows = {1: ("Ah", "Ad", "Ac", "Ks", "Kd"), 3: ("2c", "3d", "5h", "7s", "9c")}
    while table.hand.phase is Phase.SHOWDOWN:
        seat = table.hand.to_act
        table.run(Act(seat, ActionKind.SHOW, cards=shows[seat]))
    assert table.seat(3).stack == 0
    table.run(AddChips(3, 500))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, 3, 1)


@pytest.mark.parametrize("name", BLIND_PROFILES)
def test_BLIND_07_guides_the_big_blind_on_when_its_seat_sits_out_at_the_post(name: str) -> None:
    """Hand 2: seat 4 sits out instead of posting its big blind; seat 5 takes the big blind
    (BLIND-07), seat 4 is marked, and the following hands carry on from seat 5 without
    skipping or repeating anyone's big blind."""
    table = Table(name, seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    seen = table.play(s4="sit_out")
    assert (seen["sb"], seen["bb"]) == (3, 5) and 4 not in seen["dealt"]
    assert table.seat(4).missed_blind == "big"
    assert [table.play()["bb"] for _ in range(3)] == [1, 2, 3]


def test_OPEN_09_refuses_a_newcomer_the_carried_antes_for_a_single_ante() -> None:
    """home-game-five-card-draw: hand 1 (antes 2) is passed out, 6 carried. A player seated in
    seat 4 before hand 2 is either not dealt in or pays both antes (4)."""
    table = Table("home-game-five-card-draw", seats=(1, 2, 3))
    table.start(button=1)
    table.post_all()
    for seat in (2, 3, 1):
        table.act(f"{seat} check")
    table.run(SeatPlayer(4, "N4", 500))
    table.start()
    assert table.hand.dead == 6
    assert not table.hand.has(4) or table.hand.player(4).owes == 4
    assert (4, "OPEN-09") in table.hand.waiting  # the three of the passed-out deal play it
    assert [p.seat for p in table.hand.players] == [2, 3, 1]


def test_BLIND_09_accepts_a_small_blind_skipped_at_the_post_posted_dead_on_return() -> None:
    """Hand 2: the small blind (seat 3) sits out at the post: the small blind is dead, seat 3 is
    marked "small"; back for hand 3 (on the button) it posts 5 dead, then plays on normally."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    seen = table.play(s3="sit_out")
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, None, 4) and seen["live"] == {4: 10}
    assert table.seat(3).missed_blind == "small"
    table.run(ReturnToPlay(3, wait=False))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (3, 4, 5) and seen["dead"] == {3: 5}
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (4, 5, 1) and not seen["dead"]


def test_BLIND_12_accepts_the_missed_blind_marker_moving_with_the_player() -> None:
    """Seat 4 sits out for two hands (the big blind passes it), changes to seat 6 while out and
    comes back there: it still owes the big blind live and the small blind dead."""
    table = Table(seats=(1, 2, 3, 4, 5))
    table.play(button=1)
    table.run(SitOut(4))
    table.play()
    table.play()
    table.run(ChangeSeat(4, 6))
    assert table.seat(6).missed_blind == "big" and table.seat(4).status is SeatStatus.EMPTY
    table.run(ReturnToPlay(6, wait=False))
    assert table.preview()["owes"]["6"]["amount"] == 15
    seen = table.play()
    assert seen["live"][6] == 10 and seen["dead"] == {6: 5}


def test_BLIND_07_refuses_a_free_small_blind_when_sitting_out_makes_the_game_heads_up() -> None:
    """Three-handed, hand 1 button 1, blinds 2 and 3. Seat 3 sits out for hand 2, the hand its
    small blind was due (played heads-up, seats 1 and 2): it has missed the small blind."""
    table = Table(seats=(1, 2, 3))
    table.play(button=1)
    table.run(SitOut(3))
    seen = table.play()
    assert sorted(seen["dealt"]) == [1, 2]
    assert table.seat(3).missed_blind == "small"


def test_BLIND_07_guides_the_same_absence_four_handed_to_a_small_blind_marker() -> None:
    """The four-handed comparison: the big blind of hand 1 sits out hand 2, the small blind is
    dead on its seat and it is marked "small"."""
    table = Table(seats=(1, 2, 3, 4))
    table.play(button=1)
    table.run(SitOut(3))
    seen = table.play()
    assert (seen["button"], seen["sb"], seen["bb"]) == (2, None, 4)
    assert table.seat(3).missed_blind == "small"


def test_BLIND_02_accepts_a_small_blind_in_every_heads_up_hand() -> None:
    """Three-handed, seat 3 sits out for four hands (played heads-up) and comes back asking to
    post: every hand dealt to two players has the button on the small blind."""
    table = Table(seats=(1, 2, 3))
    table.play(button=1)
    table.run(SitOut(3))
    hands = [table.play() for _ in range(4)]
    table.run(ReturnToPlay(3, wait=False))
    hands += [table.play() for _ in range(2)]
    for seen in hands:
        if len(seen["dealt"]) == 2:
            assert seen["sb"] == seen["button"] and seen["live"][seen["button"]] == 5
