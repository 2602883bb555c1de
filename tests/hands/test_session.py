"""A simulated session: 500 hands at a six-seat table with players sitting out, returning,
arriving, leaving and changing seats, under both button methods (issue 5).

Invariants checked (``Session.check_*``):

* chips: after every hand the seats' stacks plus a carried pot equal every buy-in minus every
  cash-out;
* dead button (BLIND-03): with three or more players, the big blind moves to the first seat
  after last hand's big blind that can take it (it never skips an active seat), the small
  blind sits on last hand's big blind and the button on last hand's small blind, or just
  before the small blind when that seat is due the big blind (unless last hand's big blind sat
  out at the post and the blind moved on, BLIND-07); hence, for
  every seat dealt into every hand between two of its big blinds, the big blind travelled
  exactly once round the table between them and the seat posted the small blind exactly once;
* moving button: the button is always on an active seat with chips (never an empty seat) and
  is the first such seat after the last button (heads-up: BLIND-02's switch, last hand's big
  blind takes the button); in every orbit of the button in which nobody arrived, left, sat out
  or returned, every seat posted the big blind exactly once and the small blind exactly once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import pytest

from dealerassist.rules.engine import apply, legal_actions, new_table, view
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    ChangeSeat,
    Command,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    Stakes,
    StartHand,
    TableSpec,
)
from dealerassist.rules.model.house_rules import (
    BlindRules,
    ButtonMethod,
    HouseRules,
    OpenRequirement,
    OpenRules,
    Structure,
    Variant,
)
from dealerassist.rules.model.state import SeatStatus, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table.blinds import arc, eligible_seats

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SEATS = 6
BUY_IN = 200
RANKS = "23456789TJQKA"
DECK = [rank + suit for rank in RANKS for suit in "cdhs"]


@dataclass
class HandRecord:
    """What one hand looked like at its start and who posted which blind."""

    hand_no: int
    button: int
    small_position: int | None
    big_blind: int | None  # the big blind seat after posting (it moves if the blind sits out)
    eligible: list[int]  # seats that could take the big blind at the start
    dealt: set[int] = field(default_factory=set)
    posted: dict[int, set[str]] = field(default_factory=dict)
    seating_changed: bool = False  # somebody arrived, left, sat out or returned before it


class Session:
    """Drives a table with a seeded random generator and records every hand."""

    def __init__(self, method: ButtonMethod, seed: int, jackpots: bool = False) -> None:
        self.rng = random.Random(seed)
        opening = OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER)
        self.rules = HouseRules(
            blinds=BlindRules(button_method=method), open=opening if jackpots else OpenRules()
        )
        stakes = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
        if jackpots:
            stakes = Stakes(ante=2, small_bet=10, big_bet=20)
        spec = TableSpec("S1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "test", SEATS)
        self.state: TableState = new_table(spec)
        self.bought_in = 0
        self.cashed_out = 0
        self.hands: list[HandRecord] = []
        self.passed_out = 0
        self.names = 0
        self.changed = False
        self.start_big: dict[int, int | None] = {}  # the big blind named when the hand started
        self.seat_status: dict[int, dict[int, SeatStatus]] = {}
        for seat in (1, 2, 3, 4):
            self.seat(seat)

    # -- commands ------------------------------------------------------------------------

    def run(self, command: Command) -> Any:
        outcome = apply(self.state, command, self.rules, AT)
        self.state = outcome.state
        return outcome

    def seat(self, seat: int) -> None:
        self.names += 1
        self.run(SeatPlayer(seat, f"P{self.names}", BUY_IN))
        self.bought_in += BUY_IN
        self.changed = True

    def leave(self, seat: int) -> None:
        self.cashed_out += self.state.seat(seat).stack
        self.run(RemovePlayer(seat))
        self.changed = True

    def between_hands(self) -> None:
        """Random arrivals, departures, sit-outs, returns and seat changes."""
        rng = self.rng
        for seat in self.state.seats:
            if seat.status is not SeatStatus.EMPTY and seat.stack == 0:
                self.leave(seat.seat)
        if rng.random() < 0.12 and self.seats_in(SeatStatus.EMPTY):
            self.seat(rng.choice(self.seats_in(SeatStatus.EMPTY)))
        if rng.random() < 0.04 and self.seats_in(SeatStatus.ACTIVE):
            self.leave(rng.choice(self.seats_in(SeatStatus.ACTIVE)))
        if rng.random() < 0.08 and self.seats_in(SeatStatus.ACTIVE):
            self.run(SitOut(rng.choice(self.seats_in(SeatStatus.ACTIVE))))
            self.changed = True
        if rng.random() < 0.3 and self.seats_in(SeatStatus.SITTING_OUT):
            self.come_back(rng.choice(self.seats_in(SeatStatus.SITTING_OUT)))
        empty, active = self.seats_in(SeatStatus.EMPTY), self.seats_in(SeatStatus.ACTIVE)
        if rng.random() < 0.03 and empty and active:
            self.change_seat(rng.choice(active), rng.choice(empty))
        while len(eligible_seats(self.state)) < 2:
            self.refill()

    def seats_in(self, status: SeatStatus) -> list[int]:
        return [seat.seat for seat in self.state.seats if seat.status is status]

    def come_back(self, seat: int) -> None:
        try:
            self.run(ReturnToPlay(seat, wait=self.rng.random() < 0.4))
        except RuleViolation:
            self.run(ReturnToPlay(seat, wait=True))
        self.changed = True

    def change_seat(self, seat: int, to: int) -> None:
        try:
            self.run(ChangeSeat(seat, to))
        except RuleViolation as refusal:  # OPEN-09: not while passed-out antes wait
            assert refusal.rule_id is RuleId.OPEN_09 and self.state.carried_pot
            return
        self.changed = True

    def refill(self) -> None:
        out = [s.seat for s in self.state.seats if s.status is SeatStatus.SITTING_OUT]
        empty = [s.seat for s in self.state.seats if s.status is SeatStatus.EMPTY]
        if out:
            self.come_back(out[0])
        else:
            self.seat(empty[0])

    # -- one hand ------------------------------------------------------------------------

    def play_hand(self) -> None:
        self.between_hands()
        preview = view(self.state, self.rules, AT)["next_hand"]
        try:
            self.run(StartHand(None if self.state.button is not None else 1))
        except RuleViolation:  # everyone left to deal is waiting: bring players back
            self.refill()
            preview = None
            self.run(StartHand(None if self.state.button is not None else 1))
        hand = self.state.hand
        assert hand is not None
        record = HandRecord(
            hand.hand_no,
            hand.button,
            self.state.small_blind_position,
            hand.big_blind_seat,
            eligible_seats(self.state),
            seating_changed=self.changed,
        )
        self.changed = False
        self.start_big[hand.hand_no] = hand.big_blind_seat
        if preview is not None:  # the preview came true
            owes = {str(p.seat): p.owes for p in hand.players if p.owes}
            assert (preview["button"], preview["big_blind"]) == (hand.button, hand.big_blind_seat)
            assert {seat: o["amount"] for seat, o in preview["owes"].items()} == owes
            assert preview["waiting"] == {str(seat): rule for seat, rule in hand.waiting}
        self.seat_status[hand.hand_no] = {s.seat: s.status for s in self.state.seats}
        deck = DECK[:]
        self.rng.shuffle(deck)
        while hand.phase.value != "complete":
            self.step(record, deck)
            hand = self.state.hand
            assert hand is not None
        record.big_blind = self.state.big_blind_position
        record.dealt = {p.seat for p in hand.players}
        self.hands.append(record)
        if hand.result and hand.result.to_json().get("passed_out"):
            self.passed_out += 1
        if hand.hand_no % 50 == 0:  # the new fields survive the JSON form and the view
            assert TableState.from_dict(self.state.to_dict()) == self.state
            assert view(self.state, self.rules, AT)["seats"][0]["seat"] == 1

    def step(self, record: HandRecord, deck: list[str]) -> None:
        hand = self.state.hand
        assert hand is not None
        if hand.phase.value == "posting":
            self.post(record)
            return
        legal = legal_actions(self.state, self.rules, AT)
        assert legal is not None
        seat, options = legal["seat"], legal["legal"]
        choice = self.rng.choice(options)
        name = choice["action"]
        if name == "show":
            self.run(Act(seat, ActionKind.SHOW, cards=tuple(deck.pop() for _ in range(5))))
        elif name == "draw":
            count = self.rng.randint(choice["min"], choice["max"])
            self.run(Act(seat, ActionKind.DRAW, count=count))
        elif name in ("bet", "raise"):
            self.run(Act(seat, ActionKind(name), amount=choice["min"]))
        else:
            self.run(Act(seat, ActionKind(name)))

    def post(self, record: HandRecord) -> None:
        legal = legal_actions(self.state, self.rules, AT)
        assert legal is not None
        seat, options = legal["seat"], legal["legal"]
        roll = self.rng.random()
        if roll < 0.03:
            self.run(Act(seat, ActionKind.SIT_OUT))
            self.changed = True
            return
        wait = {"action": "post", "option": "wait"}
        if wait in options and roll < 0.3:
            self.run(Act(seat, ActionKind.POST, option="wait"))
            return
        owes = options[0].get("owes", [])
        self.run(Act(seat, ActionKind.POST))
        record.posted[seat] = set(owes)

    # -- invariants ----------------------------------------------------------------------

    def check_chips(self) -> None:
        stacks = sum(seat.stack for seat in self.state.seats)
        assert stacks + self.state.carried_pot == self.bought_in - self.cashed_out
        assert all(seat.stack >= 0 for seat in self.state.seats)

    def check_dead_button(self, before: HandRecord, hand: HandRecord) -> None:
        if len(before.eligible) < 3 or len(hand.eligible) < 3:
            return
        if before.big_blind is None or hand.big_blind is None:
            return  # a hand cancelled at the post (everyone else sat out)
        start_big = self.start_big[hand.hand_no]
        assert start_big is not None
        skipped = set(arc(before.big_blind, start_big, SEATS)) - {start_big}
        assert not skipped & set(hand.eligible), (hand, before)
        if self.start_big[before.hand_no] != before.big_blind:
            return  # BLIND-07: last hand's big blind sat out and the blind moved on at the post
        assert hand.small_position == before.big_blind
        button = before.small_position
        if button == start_big:  # that seat is due the big blind: the button goes before
            button = (before.big_blind - 2) % SEATS + 1  # the small blind, dead if need be
        assert hand.button == button, (before, hand)
        if before.big_blind in hand.posted:
            assert "small_blind" in hand.posted[before.big_blind]

    def check_orbits_dead(self) -> int:
        """Between two big blinds of a seat dealt into every hand between them (three or more
        players throughout), the big blind went once round and the seat posted one small blind.
        A hand dealt to two while a third waits is heads-up: its button posts a small blind of
        its own (BLIND-02), so such windows are left out."""
        checked = 0
        for seat in range(1, SEATS + 1):
            bigs = [i for i, h in enumerate(self.hands) if "big_blind" in h.posted.get(seat, ())]
            for first, second in pairwise(bigs):
                window = self.hands[first : second + 1]
                if any(
                    seat not in h.dealt
                    or min(len(h.eligible), len(h.dealt)) < 3
                    or h.big_blind is None
                    for h in window
                ):
                    continue  # not dealt in throughout, short-handed, or a cancelled hand
                travelled = sum(
                    ((window[k].big_blind or 0) - (window[k - 1].big_blind or 0)) % SEATS
                    for k in range(1, len(window))
                )
                assert travelled == SEATS, (seat, [h.hand_no for h in window])
                smalls = [h for h in window[1:] if "small_blind" in h.posted.get(seat, ())]
                assert len(smalls) == 1, (seat, [h.hand_no for h in window])
                checked += 1
        return checked

    def check_moving_button(self, before: HandRecord, hand: HandRecord) -> None:
        occupied = self.seat_status[hand.hand_no]
        assert occupied[hand.button] is SeatStatus.ACTIVE
        assert hand.button in hand.eligible
        if len(hand.eligible) == 2 and before.big_blind in hand.eligible:
            assert hand.button == before.big_blind
            return
        skipped = set(arc(before.button, hand.button, SEATS)) - {hand.button}
        assert not skipped & set(hand.eligible), (before, hand)

    def check_orbits_moving(self) -> int:
        """In an orbit of the button with no seating change, each seat dealt into all of its
        hands posted one big blind and one small blind."""
        checked = 0
        start = 0
        while start < len(self.hands):
            players = set(self.hands[start].eligible)
            end = start + len(players)
            window = self.hands[start:end]
            stable = len(window) == len(players) and all(
                set(h.eligible) == players and players <= h.dealt and not h.seating_changed
                for h in window[1:]
            )
            if stable and len(players) >= 3 and players <= window[0].dealt:
                for seat in players:
                    bigs = sum("big_blind" in h.posted.get(seat, ()) for h in window)
                    smalls = sum("small_blind" in h.posted.get(seat, ()) for h in window)
                    assert (bigs, smalls) == (1, 1), (seat, [h.hand_no for h in window])
                checked += 1
            start += 1
        return checked


def run_session(method: ButtonMethod, seed: int, hands: int) -> Session:
    session = Session(method, seed)
    for _ in range(hands):
        session.play_hand()
        record = session.hands[-1]
        hand = session.state.hand
        assert hand is not None
        session.check_chips()
        if len(session.hands) < 2:
            continue
        before = session.hands[-2]
        if method is ButtonMethod.DEAD:
            session.check_dead_button(before, record)
        else:
            session.check_moving_button(before, record)
    return session


@pytest.mark.parametrize("method", [ButtonMethod.DEAD, ButtonMethod.MOVING])
def test_a_500_hand_session_conserves_chips_and_blinds(method: ButtonMethod) -> None:
    """500 hands with players coming and going: chips conserved, blinds paid once per orbit,
    the button never on an empty seat and never skipping an active one."""
    session = run_session(method, seed=5, hands=500)
    assert len(session.hands) == 500
    if method is ButtonMethod.DEAD:
        assert session.check_orbits_dead() > 50
    else:
        assert session.check_orbits_moving() > 10


def test_a_jackpots_session_conserves_chips_through_passed_out_deals() -> None:
    """300 ante hands with openers: passed-out deals carry the antes and no chip is lost."""
    session = Session(ButtonMethod.MOVING, seed=7, jackpots=True)
    for _ in range(300):
        session.play_hand()
        session.check_chips()
        record = session.hands[-1]
        assert session.seat_status[record.hand_no][record.button] is SeatStatus.ACTIVE
    assert session.passed_out > 10
