"""Our own PHH exports replay: hands played through the service (fakes for its ports, the
real engine), exported with ``hand_to_phh`` and replayed with ``dealerassist replay``'s
code to the finishing stacks the service recorded; pokerkit reads the same files."""

from __future__ import annotations

import json
import tomllib
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pokerkit
import pytest
from fakes import fake_services

from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh.reader import parse_phh, replay_seats
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.audit.verify import verify
from dealerassist.errors import InvalidInput
from dealerassist.profiles import get_profile, profile_version
from dealerassist.replay import ReplayRefused, finishing_stacks, replay_file, replay_hand
from dealerassist.rules.engine import legal_actions
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    ChangeSeat,
    Command,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
)
from dealerassist.rules.model.house_rules import HouseRules, KillAction, SecondLeg
from dealerassist.rules.model.ruling_commands import (
    AcceptEntry,
    AdjustStack,
    Award,
    HoldPot,
    KillHand,
    Misdeal,
    ReleasePot,
    Ruling,
)
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import AnswerKind

TRIPLE_DRAW = "casino-triple-draw-27"
OPTIONAL_KILL = "casino-triple-draw-27-optional-kill"
LIMIT = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
ACTOR = use_cases.Actor("dealer-1", "dealer")
FLOOR = use_cases.Actor("floor-1", "floor")
PRE = use_cases.Preconditions()
RECORDED = Path(__file__).resolve().parents[3] / "hands" / "recorded"  # our own exports


def _profile(profile_id: str) -> HouseRules:
    """The profile these round trips play under: the shipped one, with the readings its
    versions before issue 20's house options had: the kill acting last before the draw and a
    second leg counting the blinds (KILL-04/02), a reshuffle taking a later drawer's discards
    (DRAW-06), and a second burn after an exposed card replaced on the deal (IRREG-03). The
    hands here script their cards and test how PHH carries them, not those readings, which
    tests/hands/test_rulebook_draw_points.py covers."""
    rules = get_profile(profile_id)
    old_kill = replace(rules.kill, action=KillAction.LAST, second_leg=SecondLeg.POT_LESS_KILL_BLIND)
    old_draw = replace(rules.draw, reshuffle_keeps_out_later_drawers=False)
    old_irregularities = replace(rules.irregularities, exposed_is_first_burn=False)
    return replace(rules, kill=old_kill, draw=old_draw, irregularities=old_irregularities)


class Table:
    """One table played through the service use cases on fakes."""

    def __init__(
        self,
        mode: str,
        stacks: dict[int, int],
        profile_id: str = TRIPLE_DRAW,
        rules: HouseRules | None = None,
        game: dict[str, Any] | None = None,
    ) -> None:
        """``rules``: the profile as dealt (default: ``_profile``'s older readings of it);
        ``game``: the variant, structure and stakes (default: triple draw, fixed limit)."""
        self.profile_id = profile_id
        self.services = fake_services({profile_id: rules or _profile(profile_id)})
        self.table_id = "R1"
        spec = {
            "table_id": self.table_id,
            "variant": "deuce_to_seven_triple_draw",
            "structure": "fixed_limit",
            "stakes": LIMIT,
            **(game or {}),
            "profile_id": profile_id,
            "mode": mode,
        }
        self._check(use_cases.create_table(self.services, spec, ACTOR, PRE))
        for seat, stack in stacks.items():
            self._check(
                use_cases.seat_player(
                    self.services, self.table_id, seat, f"P{seat}", stack, ACTOR, PRE
                )
            )

    @staticmethod
    def _check(answer: Any) -> Any:
        assert answer.kind is not AnswerKind.REJECTED, answer.body
        return answer

    def start(self, button: int | None = None, kill_seat: int | None = None) -> dict[str, Any]:
        answer = use_cases.start_hand(self.services, self.table_id, button, ACTOR, PRE, kill_seat)
        return dict(self._check(answer).body["hand"])

    def act(self, seat: int, action: str, **fields: Any) -> Any:
        body = {"seat": seat, "action": action, **fields}
        return self._check(use_cases.submit_action(self.services, self.table_id, body, ACTOR, PRE))

    def command(self, command: Command) -> None:
        self._check(use_cases.execute(self.services, self.table_id, command, ACTOR, PRE))

    def fold_around(self) -> None:
        """Every seat posts what it owes, then folds until the hand ends."""
        while True:
            state = self.services.tables.load(self.table_id).state  # type: ignore[union-attr]
            legal = legal_actions(state, self.services.profiles.get(self.profile_id), None)
            if legal is None:
                return
            posts = any(option["action"] == "post" for option in legal["legal"])
            self.act(legal["seat"], "post" if posts else "fold")

    def misdeal(self) -> None:
        """The floor declares a misdeal (IRREG-01): the redeal keeps the same button."""
        ruling = Ruling(decision="misdeal", rule_id="IRREG-01", effects=(Misdeal(),))
        self._check(use_cases.execute(self.services, self.table_id, ruling, FLOOR, PRE))

    def leave(self, seat: int) -> None:
        self._check(use_cases.remove_player(self.services, self.table_id, seat, ACTOR, PRE))

    def record_events(self) -> list[dict[str, Any]]:
        return list(self.services.tables.staged)  # type: ignore[attr-defined]

    def record(self, hand_no: int) -> dict[str, Any]:
        events = self.services.tables.staged  # type: ignore[attr-defined]
        return next(hand for hand in hand_records(events) if hand["hand_no"] == hand_no)


def _recorded_stacks(record: dict[str, Any], text: str) -> list[int]:
    """The service's result stacks in the PHH's player order."""
    seats = {info["player"]: seat for seat, info in record["table"]["seats"].items()}
    return [record["result"]["stacks"][str(seats[name])] for name in tomllib.loads(text)["players"]]


def _replayed(text: str, profile_id: str) -> list[int]:
    hand = parse_phh(text)
    return finishing_stacks(replay_hand(hand, _profile(profile_id)), replay_seats(hand))


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about unknown cards
        states = list(pokerkit.HandHistory.loads(text))
    return list(states[-1].stacks)


def _round_trip(table: Table, hand_no: int = 1) -> tuple[str, list[int]]:
    """The hand's PHH, checked to replay (under the table's profile and the permissive one)
    to the stacks the service recorded, which the PHH's finishing_stacks also hold."""
    record = table.record(hand_no)
    text = hand_to_phh(record)
    recorded = _recorded_stacks(record, text)
    assert tomllib.loads(text)["finishing_stacks"] == recorded
    for profile_id in (table.profile_id, "replay-permissive"):
        assert _replayed(text, profile_id) == recorded, profile_id
    return text, recorded


def _check_round(table: Table, seats: tuple[int, ...], draws: dict[int, int] | None = None) -> None:
    for seat in seats:
        table.act(seat, "check")
    if draws is not None:
        for seat in seats:
            table.act(seat, "draw", count=draws.get(seat, 0))


def _blinds_posted_and_dealt(*hands: str) -> Table:
    """A card-mode table of three, button seat 1: seats 2 and 3 post the blinds and seats 2,
    3 and 1 are dealt ``hands`` in that order."""
    table = Table("card", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    for seat, cards in zip((2, 3, 1), hands, strict=True):
        table.act(seat, "deal", cards=cards)
    return table


@pytest.mark.parametrize("muck_seat", [1, 3])
def test_card_mode_names_every_card_and_writes_a_muck(muck_seat: int) -> None:
    """Card mode: the hole cards and the replacement are named, a muck at showdown is
    ``pN sm``; the file replays to the service's stacks, and pokerkit agrees."""
    table = _blinds_posted_and_dealt("2c 3c 4c 5c Kd", "2d 3d 4d 5d Kh", "2h 3h 4h 5h Ks")
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    table.act(2, "draw", discards="Kd")
    table.act(2, "deal", cards="7s")
    table.act(3, "draw", count=0)
    table.act(1, "draw", count=0)
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c 7s")
    shown = {1: "2h 3h 4h 5h Ks", 3: "2d 3d 4d 5d Kh"}
    for seat in (3, 1):
        if seat == muck_seat:
            table.act(seat, "muck")
        else:
            table.act(seat, "show", cards=shown[seat])
    text, recorded = _round_trip(table)
    actions = tomllib.loads(text)["actions"]
    assert actions[:3] == ["d dh p1 2c3c4c5cKd", "d dh p2 2d3d4d5dKh", "d dh p3 2h3h4h5hKs"]
    assert "p1 sd Kd" in actions and "d dh p1 7s" in actions
    muck = {1: "p3", 3: "p2"}[muck_seat]
    assert f"{muck} sm" in actions[-2:] and not any("??" in action for action in actions)
    assert _pokerkit_stacks(text) == recorded


@pytest.mark.parametrize(
    ("in_hand", "held"), [((2, 3), "2d3d4d5d7c"), ((2, 3, 1), "7h3h2h5c4c")], ids=["two", "three"]
)
def test_SHOW_02_the_last_live_hand_wins_unshown_and_pokerkit_awards_it(
    in_hand: tuple[int, ...], held: str
) -> None:
    """SHOW-02: the others muck at the showdown and the last live hand takes the pot without
    showing (card mode: the engine ends the hand on the last muck). pokerkit awards a pot only
    to a shown hand, so the file tables that hand's cards after the mucks (its held cards:
    dealt, less its discards, plus its replacements) and ``_won_unshown`` names the player;
    ``dealerassist replay`` enters no show for that line and reaches the recorded stacks, and
    pokerkit the same ones (before, it left the pot unawarded)."""
    table = _blinds_posted_and_dealt("9c 8d 6h 4s Kd", "2d 3d 4d 5d Kh", "7h 3h 2h Qs Ks")
    table.act(1, "call" if 1 in in_hand else "fold")
    table.act(2, "call")
    table.act(3, "check")
    table.act(2, "draw", count=0)
    table.act(3, "draw", discards="Kh")
    table.act(3, "deal", cards="7c")
    if 1 in in_hand:
        table.act(1, "draw", discards="Qs Ks")
        table.act(1, "deal", cards="5c 4c")
    _check_round(table, in_hand, {})
    _check_round(table, in_hand, {})
    _check_round(table, in_hand)
    for seat in in_hand[:-1]:
        table.act(seat, "muck")
    text, recorded = _round_trip(table)
    parsed = tomllib.loads(text)
    winner = parsed["_won_unshown"]
    assert parsed["actions"][-1] == f"p{winner} sm {held}"
    assert parsed["finishing_stacks"][winner - 1] > 400
    assert _pokerkit_stacks(text) == recorded


def test_SHOW_02_a_count_mode_hand_won_unshown_tables_no_unknown_cards() -> None:
    """SHOW-02 in count mode: the service never saw the unshown winner's cards, so the file
    ends with the muck and has no ``_won_unshown`` (a ``??`` show would not win pokerkit's
    pot either); it still replays to the recorded stacks."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    _in_turn(table, "post", "post", "fold", "call", "check", ("draw", 0), ("draw", 1))
    for _ in range(2):
        _in_turn(table, "check", "check", ("draw", 0), ("draw", 0))
    _in_turn(table, "check", "check", "muck")
    text, _ = _round_trip(table)
    parsed = tomllib.loads(text)
    assert "_won_unshown" not in parsed and parsed["actions"][-1] == "p1 sm"


def test_a_split_five_card_draw_is_one_deal_of_five_replayed_four_and_one() -> None:
    """DRAW-03 (casino profile): seat 2 draws five, dealt four now and the fifth after the
    others. The PHH has one standard deal of five (pokerkit reads it); the reader deals it
    four and one under the casino profile, and five at once under the permissive one."""
    table = Table("card", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(2, "deal", cards="Kc Kd Qc Qd Jc")
    table.act(3, "deal", cards="2d 3d 4d 5d Kh")
    table.act(1, "deal", cards="2h 3h 4h 5h Ks")
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    table.act(2, "draw", discards="Kc Kd Qc Qd Jc")
    table.act(2, "deal", cards="2c 3c 4c 5c")
    table.act(3, "draw", discards="Kh")
    table.act(3, "deal", cards="7d")
    table.act(1, "draw", count=0)
    table.act(2, "deal", cards="7c")
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c 7c")
    table.act(3, "show", cards="2d 3d 4d 5d 7d")
    table.act(1, "muck")
    text, recorded = _round_trip(table)
    actions = tomllib.loads(text)["actions"]
    first_draw = actions[actions.index("p1 sd KcKdQcQdJc") :][:5]
    assert first_draw == [
        "p1 sd KcKdQcQdJc",
        "p2 sd Kh",
        "p3 sd",
        "d dh p1 2c3c4c5c7c",
        "d dh p2 7d",
    ]
    assert _pokerkit_stacks(text) == recorded


@pytest.mark.parametrize("mode", ["card", "count"])
def test_a_dead_small_blind_is_written_as_posted_and_replays(mode: str) -> None:
    """BLIND-03 dead button: last hand's big blind (seat 3) left, so this hand nobody posts
    the small blind and seat 4 the big blind. The PHH blinds are what was posted (player 1
    posted the big blind; ``_dead_small_blind``); it replays to the service's stacks and
    pokerkit plays it the same."""
    table = Table(mode, {1: 400, 2: 400, 3: 400, 4: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    if mode == "card":
        for seat, cards in zip(
            (2, 3, 4, 1), ("2c3c4c5c7c", "2s3s4s5s7s", "AcAdAhAsKc", "9c9d9h9sTc"), strict=True
        ):
            table.act(seat, "deal", cards=[cards[i : i + 2] for i in range(0, 10, 2)])
    for seat in (4, 1, 2):
        table.act(seat, "fold")
    table.leave(3)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 4)
    table.act(4, "post")
    if mode == "card":
        for seat, cards in ((4, "2d 3d 4d 5d 7d"), (1, "2h 3h 4h 5h Ks"), (2, "Kc Kd Qc Qd Jc")):
            table.act(seat, "deal", cards=cards)
    table.act(1, "raise", amount=20)
    table.act(2, "fold")
    table.act(4, "call")
    table.act(4, "draw", **({"discards": "7d"} if mode == "card" else {"count": 1}))
    if mode == "card":
        table.act(4, "deal", cards="8d")
    table.act(1, "draw", count=0)
    table.act(4, "bet", amount=10)
    table.act(1, "fold")
    text, recorded = _round_trip(table, hand_no=2)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P1", "P2"]
    assert data["blinds_or_straddles"] == [10, 0, 0] and data["_dead_small_blind"] == 5
    assert recorded == [400 + 20, 400 - 20, 400 - 5]  # P2 had lost hand 1's small blind
    assert _pokerkit_stacks(text) == recorded
    first = tomllib.loads(hand_to_phh(table.record(1)))
    assert first["blinds_or_straddles"] == [5, 10, 0, 0] and "_dead_small_blind" not in first


def test_count_mode_shows_name_the_unknown_cards_and_a_muck_is_written() -> None:
    """Count mode: every card dealt is ``??``; the shown cards are named only at showdown
    (the reader gives them to the seat's unknown cards, SHOW-03), a muck is ``pN sm``."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat, count in ((2, 2), (3, 1), (1, 0)):
        table.act(seat, "draw", count=count)
    _check_round(table, (2, 3, 1), {2: 1})
    _check_round(table, (2, 3, 1), {3: 3})
    _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c 7s")
    table.act(3, "show", cards="2d 3d 4d 5d 8h")
    table.act(1, "muck")
    text, recorded = _round_trip(table)
    actions = tomllib.loads(text)["actions"]
    assert actions[0] == "d dh p1 ??????????" and "p2 sd ??????" in actions
    assert actions[-3:] == ["p1 sm 2c3c4c5c7s", "p2 sm 2d3d4d5d8h", "p3 sm"]
    assert recorded == [420, 390, 390]  # seat 2 (p1) wins with 7-5-4-3-2
    assert _pokerkit_stacks(text) == recorded


def test_count_mode_with_more_cards_dealt_than_the_deck_holds_replays() -> None:
    """Six players drawing three cards in each of three draws need reshuffles: more unknown
    cards than unused ones. The reader no longer runs out of stand-in cards."""
    seats = (1, 2, 3, 4, 5, 6)
    table = Table("count", dict.fromkeys(seats, 400))
    table.start(button=6)
    table.act(1, "post")
    table.act(2, "post")
    for seat in (3, 4, 5, 6, 1):
        table.act(seat, "call")
    table.act(2, "check")
    for _ in range(3):
        for seat in seats:
            table.act(seat, "draw", count=3)
        for seat in seats:
            table.act(seat, "check")
    hands = ["2c3c4c5c7c", "2d3d4d5d8h", "2h3h4h6s8s", "9c9d9h9sTc", "KcKdKhKsQc", "AcAdAhAsQd"]
    for seat, cards in zip(seats, hands, strict=True):
        table.act(seat, "show", cards=[cards[i : i + 2] for i in range(0, 10, 2)])
    text, recorded = _round_trip(table)
    assert sum(action.count("??") for action in tomllib.loads(text)["actions"]) > 52
    assert _pokerkit_stacks(text) == recorded


def test_a_small_blind_that_sits_out_heads_up_leaves_the_button_the_small_blind() -> None:
    """Three dealt in, the small blind sits out instead of posting (BLIND-07): heads-up
    between the big blind and the button, who posts the small blind (BLIND-02). PHH blinds
    [SB, BB] (small blind first, pokerkit's heads-up convention); it replays and pokerkit
    agrees."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "sit_out")
    table.act(1, "post")
    table.act(3, "post")
    table.act(1, "raise", amount=20)
    table.act(3, "call")
    table.act(3, "draw", count=2)
    table.act(1, "draw", count=1)
    table.act(3, "bet", amount=10)
    table.act(1, "fold")
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P1"] and data["blinds_or_straddles"] == [5, 10]
    assert "_dead_small_blind" not in data
    assert recorded == [420, 380]
    assert _pokerkit_stacks(text) == recorded


def test_a_heads_up_small_blind_posted_after_the_big_blind_replays() -> None:
    """Seat 4 sits out hand 2 and comes back for hand 3 (button 3, blinds 1 and 2) owing a
    big blind and a dead small blind. The small blind (seat 1) sits out, seat 2 posts the big
    blind, seat 4 sits out again: heads-up, the button (seat 3) posts the small blind last."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.fold_around()
    table.command(SitOut(4))
    table.start()
    table.fold_around()
    table.command(ReturnToPlay(4, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 1, 2)
    table.act(1, "sit_out")
    table.act(2, "post")
    table.act(4, "sit_out")
    table.act(3, "post")
    table.act(3, "raise", amount=20)
    table.act(2, "call")
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=2)
    table.act(2, "bet", amount=10)
    table.act(3, "fold")
    text, recorded = _round_trip(table, hand_no=3)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3"] and data["blinds_or_straddles"] == [5, 10]
    assert data["antes"] == [0, 0] and recorded == [415, 380]
    assert _pokerkit_stacks(text) == recorded


def test_a_small_blind_that_sits_out_four_handed_is_a_dead_small_blind() -> None:
    """Four dealt in, the small blind sits out: the big blind is player 1 and the small
    blind is dead (``_dead_small_blind``); the other players act as recorded."""
    table = Table("count", {1: 400, 2: 400, 3: 400, 4: 400})
    table.start(button=1)
    table.act(2, "sit_out")
    table.act(3, "post")
    table.act(4, "fold")
    table.act(1, "call")
    table.act(3, "check")
    table.act(3, "draw", count=1)
    table.act(1, "draw", count=0)
    _check_round(table, (3, 1), {})
    _check_round(table, (3, 1), {})
    table.act(3, "bet", amount=20)
    table.act(1, "fold")
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P4", "P1"]
    assert data["blinds_or_straddles"] == [10, 0, 0] and data["_dead_small_blind"] == 5
    assert recorded == [410, 400, 390]
    assert _pokerkit_stacks(text) == recorded


def test_a_missed_blind_made_up_before_the_small_blind_replays() -> None:
    """BLIND-08, dead button: seat 4 sat out while the big blind passed, returns and posts 15
    (10 live, 5 dead) between the button and the small blind, then raises. The PHH says so
    in standard fields (a blind of 10 and an ante of 5 for that player, as pokerkit plays
    them) and in our ``_posts``; the reader sets the replay table as the hand found it (the
    marker, and the last hand's blinds so that this hand's small blind comes after player
    1), and the hand replays to the service's stacks. A profile whose button moves cannot
    deal such a hand, and says so."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.command(SitOut(4))
    table.start(button=1)
    table.fold_around()
    table.start()
    table.fold_around()
    table.command(ReturnToPlay(4))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 1, 2)
    for seat in (1, 2, 4):
        table.act(seat, "post")
    table.act(3, "fold")
    table.act(4, "raise", amount=20)  # its 10 live count: it raises by 10
    table.act(1, "fold")
    table.act(2, "call")
    table.act(4, "draw", count=1)
    table.act(2, "draw", count=2)
    table.act(4, "bet", amount=10)
    table.act(2, "fold")
    record = table.record(3)
    posts = [item for e in record["events"] for item in e["payload"]["events"] or ()]
    assert {"type": "posted", "seat": 4, "amount": 15} in posts
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P1", "P2", "P3"]
    assert data["blinds_or_straddles"] == [10, 5, 10, 0] and data["antes"] == [5, 0, 0, 0]
    assert data["_posts"] == [
        ["returning_big_blind", "dead_small_blind"],
        ["small_blind"],
        ["big_blind"],
        [],
    ]
    recorded = _recorded_stacks(record, text)
    paid = [5 + 20, 5, 20, 0]  # P4's 5 dead and 20 live; it wins them and P1's and P2's
    won = [sum(paid), 0, 0, 0]
    start = data["starting_stacks"]
    assert recorded == [s - p + w for s, p, w in zip(start, paid, won, strict=True)]
    assert _replayed(text, TRIPLE_DRAW) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_a_newcomers_big_blind_replays() -> None:
    """BLIND-05: seat 6 sits down after the button has gone round once (before that, BLIND-11
    (c) deals him in free) and posts a big blind to be dealt in at once; its 10 are live, so
    it checks its option. ``_posts`` names the post and the reader seats a newcomer; the
    hand replays under both profiles."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.fold_around()
    for _ in range(4):  # the button round once: 2, 3, 4 and back to 1
        table.start()
        table.fold_around()
    table.command(SeatPlayer(6, "P6", 300))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, 3, 4)
    for seat in (3, 4, 6):
        table.act(seat, "post")
    cards = {3: "2c 3s 4c 5c 7c", 4: "2d 3d 4d 5d Kh", 6: "2h 3h 4h 6h 8s"}
    table.act(6, "check")
    table.act(1, "fold")
    table.act(2, "fold")
    table.act(3, "call")
    table.act(4, "check")
    for _ in range(3):
        for seat in (3, 4, 6):
            table.act(seat, "draw", count=0)
        _check_round(table, (3, 4, 6))
    for seat in (3, 4, 6):
        table.act(seat, "show", cards=cards[seat])
    text, recorded = _round_trip(table, hand_no=6)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P4", "P6", "P1", "P2"]
    assert data["blinds_or_straddles"] == [5, 10, 10, 0, 0]
    assert data["_posts"] == [["small_blind"], ["big_blind"], ["entering_big_blind"], [], []]
    start = data["starting_stacks"]
    assert recorded == [start[0] + 20, start[1] - 10, 300 - 10, start[3], start[4]]


def test_BLIND_11_accepts_a_newcomer_dealt_in_free_in_the_first_orbit_and_replays() -> None:
    """BLIND-11 (c): seat 6 sits down after hand 2 of a new game, where no blind has passed,
    so hand 3 (button 3, blinds 4 and 5) deals him in without a post; he raises and wins the
    blinds. The PHH has only the two blinds (no ``_posts`` to name) and replays to the
    recorded stacks under both profiles (a one-hand table seats him like the others)."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5), 400))
    table.start(button=1)
    table.fold_around()
    table.start()
    table.fold_around()
    table.command(SeatPlayer(6, "P6", 300))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 4, 5)
    table.act(4, "post")
    table.act(5, "post")
    table.act(6, "raise", amount=20)
    table.fold_around()
    text, recorded = _round_trip(table, hand_no=3)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P5", "P6", "P1", "P2", "P3"]
    assert data["blinds_or_straddles"] == [5, 10, 0, 0, 0, 0]
    assert "_posts" not in data  # only the blinds posted: a plain hand
    assert recorded[2] == 300 + 15


def test_BLIND_08_a_big_blind_moved_onto_a_returning_seat_writes_its_dead_small_blind() -> None:
    """BLIND-07/08: seat 5 sat out while the big blind passed it and comes back posting; in hand
    6 (button 2, blinds 3 and 4) the big blind sits out at the post and the big blind moves on
    to seat 5, which posts 15: its big blind, 10 live, and the small blind it missed, 5 dead.
    The PHH writes the dead 5 as that player's ante (as pokerkit plays it) and names it in our
    ``_posts``; seat 5 loses the pot, so the dead 5 shows in the stacks: the file replays to
    the recorded ones under the table's profile and the permissive one, and pokerkit agrees."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5), 400))
    table.start(button=1)
    table.fold_around()
    table.command(SitOut(5))
    for _ in range(4):
        table.start()
        table.fold_around()
    table.command(ReturnToPlay(5, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, 3, 4)
    table.act(3, "post")
    table.act(4, "sit_out")
    table.act(5, "post", amount=15)
    table.act(1, "fold")
    table.act(2, "fold")
    table.act(3, "raise", amount=20)
    table.act(5, "call")
    table.act(3, "draw", count=1)
    table.act(5, "draw", count=2)
    table.act(3, "bet", amount=10)
    table.act(5, "fold")
    record = table.record(6)
    posts = [item for e in record["events"] for item in e["payload"]["events"] or ()]
    assert {"type": "posted", "seat": 5, "amount": 15} in posts
    text, recorded = _round_trip(table, hand_no=6)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P5", "P1", "P2"]
    assert data["blinds_or_straddles"] == [5, 10, 0, 0] and data["antes"] == [0, 5, 0, 0]
    assert data["_posts"] == [["small_blind"], ["big_blind", "dead_small_blind"], [], []]
    assert "_dead_small_blind" not in data
    start = data["starting_stacks"]
    lost = 5 + 20  # P5's 5 dead and 20 live, won by P3 (with its own 20 back)
    assert recorded == [start[0] + lost, start[1] - lost, start[2], start[3]]
    assert _pokerkit_stacks(text) == recorded


def test_an_exposed_card_replaced_on_the_deal_is_not_in_the_hole_cards() -> None:
    """IRREG-03 (card mode): seat 1's Ks is exposed on the deal and replaced by 9d; the hole
    cards written are the five it played, and the file replays (it showed them)."""
    table = Table("card", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(2, "deal", cards="2c 3c 4c 5c Kd")
    table.act(3, "deal", cards="2d 3d 4d 5d Kh")
    table.act(1, "deal", cards="2h 3h 4h 5h Ks")
    answer = table.act(1, "exposed", cards="Ks")
    assert {"type": "exposed", "exposed": "Ks", "ruling": "replace", "seat": 1} in [
        e for e in table.record_events()[-1]["payload"]["events"] if e["type"] == "exposed"
    ], answer.body
    table.act(1, "deal", cards="9d")
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for _ in range(3):
        for seat in (2, 3, 1):
            table.act(seat, "draw", count=0)
        _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c Kd")
    table.act(3, "show", cards="2d 3d 4d 5d Kh")
    table.act(1, "show", cards="2h 3h 4h 5h 9d")
    text, recorded = _round_trip(table)
    assert tomllib.loads(text)["actions"][2] == "d dh p3 2h3h4h5h9d"
    assert tomllib.loads(text)["_exposed"] == [[3, 0, "Ks", "9d"]]
    assert recorded == [390, 390, 420]
    assert _pokerkit_stacks(text) == recorded


@pytest.mark.parametrize("mode", ["card", "count"])
def test_an_exposed_card_kept_or_replaced_without_names_writes_no_exposed_field(mode: str) -> None:
    """IRREG-03, casino profile (a 7 is kept, a K replaced): seat 2's exposed 7 is its own
    card and stays in its hole cards; in count mode seat 1's K is replaced by a card the
    service never saw (``??``). Neither needs ``_exposed``; both files replay."""
    table = Table(mode, {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    if mode == "card":
        table.act(2, "deal", cards="2c 3c 4c 5d 7c")
        table.act(3, "deal", cards="2d 3d 4d 5h Kh")
        table.act(1, "deal", cards="2h 3h 4s 5s Ks")
        table.act(2, "exposed", cards="7c")
    else:
        table.act(1, "exposed", rank="K")
    ruling = [e for e in table.record_events()[-1]["payload"]["events"] if e["type"] == "exposed"]
    assert [e["ruling"] for e in ruling] == ["keep" if mode == "card" else "replace"]
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for _ in range(3):
        for seat in (2, 3, 1):
            table.act(seat, "draw", count=0)
        _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5d 7c")
    table.act(3, "show", cards="2d 3d 4d 5h Kh")
    table.act(1, "show", cards="2h 3h 4s 5s " + ("Ks" if mode == "card" else "9d"))
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    assert "_exposed" not in data
    assert data["actions"][0] == ("d dh p1 2c3c4c5d7c" if mode == "card" else "d dh p1 " + "??" * 5)
    assert recorded == [420, 390, 390]  # seat 2 (p1) wins with 7-5-4-3-2


def _seat_2_all_in_before_the_draw(seat_2: str) -> Table:
    """Card mode, button 1: seat 2 (20 chips, dealt ``seat_2``) raises all in, seat 3
    calls, seat 1 folded: the draws follow one another with no betting."""
    table = Table("card", {1: 400, 2: 20, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(2, "deal", cards=seat_2)
    table.act(3, "deal", cards="2d 3d 4d 5d Qh")
    table.act(1, "deal", cards="2h 3h 4h 5h Ks")
    table.act(1, "fold")
    table.act(2, "raise", amount=20)
    table.act(3, "call")
    return table


def _draw_nothing_more_and_show(table: Table) -> None:
    """The rest of the draws pat, then 9-7-4-3-2 (seat 2) against T-5-4-3-2 (seat 3)."""
    table.act(3, "draw", count=0)
    table.act(2, "draw", count=0)
    table.act(3, "draw", count=0)
    table.act(2, "show", cards="2c 3c 4c 9s 7s")
    table.act(3, "show", cards="2d 3d 4d 5d Ts")


def test_draws_without_betting_between_them_keep_each_rounds_deals_in_that_round() -> None:
    """Seat 2 is all in before the draw, so the draws follow one another with no betting:
    each draw round's replacements are written before the next round's discards (else a
    player would discard a card it has not been dealt)."""
    table = _seat_2_all_in_before_the_draw("2c 3c 4c Kc Kd")
    table.act(2, "draw", discards="Kc Kd")
    table.act(2, "deal", cards="9s Js")
    table.act(3, "draw", discards="Qh")
    table.act(3, "deal", cards="Ts")
    table.act(2, "draw", discards="Js")
    table.act(2, "deal", cards="7s")
    _draw_nothing_more_and_show(table)
    text, recorded = _round_trip(table)
    actions = tomllib.loads(text)["actions"]
    assert actions.index("d dh p1 9sJs") < actions.index("p1 sd Js")
    assert recorded == [40, 380, 400]  # 9-7-4-3-2 beats T-5-4-3-2
    assert _pokerkit_stacks(text) == recorded


def test_heads_up_after_a_dead_button_and_a_small_blind_sitting_out() -> None:
    """Dead button (last hand's small blind left) and this hand's small blind sits out: the
    big blind plays the seat after it heads-up. The big blind is player 1 (the only post)."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.fold_around()
    table.leave(2)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, 3, 4)
    table.act(3, "sit_out")
    table.act(4, "post")
    table.act(1, "raise", amount=20)
    table.act(4, "call")
    table.act(4, "draw", count=1)
    table.act(1, "draw", count=2)
    table.act(4, "bet", amount=10)
    table.act(1, "fold")
    text, recorded = _round_trip(table, hand_no=2)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P1"] and data["blinds_or_straddles"] == [0, 10]
    assert recorded == [400 + 20, 400 - 20]
    assert _pokerkit_stacks(text) == recorded


def test_a_split_five_card_draw_before_a_draw_without_betting() -> None:
    """DRAW-03 with a player all in: seat 2 draws five (four now, the fifth after seat 3),
    and the next draw follows at once. The reader deals the fifth card before that draw."""
    table = _seat_2_all_in_before_the_draw("Kc Kd Qc Qd Jc")
    table.act(2, "draw", discards="Kc Kd Qc Qd Jc")
    table.act(2, "deal", cards="2c 3c 4c 9s")
    table.act(3, "draw", discards="Qh")
    table.act(3, "deal", cards="Ts")
    table.act(2, "deal", cards="Js")
    table.act(2, "draw", discards="Js")
    table.act(2, "deal", cards="7s")
    _draw_nothing_more_and_show(table)
    text, recorded = _round_trip(table)
    assert "d dh p1 2c3c4c9sJs" in tomllib.loads(text)["actions"]
    assert recorded == [40, 380, 400]
    assert _pokerkit_stacks(text) == recorded


def _in_turn(table: Table, *moves: str | tuple[str, int]) -> list[int]:
    """Each move (an action, or an action and its amount) by the seat whose turn it is; the
    seats that made them."""
    seats = []
    for move in moves:
        action, amount = (move, None) if isinstance(move, str) else move
        state = table.services.tables.load(table.table_id).state  # type: ignore[union-attr]
        legal = legal_actions(state, table.services.profiles.get(table.profile_id), None)
        assert legal is not None, f"the hand is over before {move}"
        fields = {} if amount is None else {"amount": amount}
        if action == "draw":
            fields = {"count": amount or 0}
        table.act(legal["seat"], action, **fields)
        seats.append(legal["seat"])
    return seats


def test_heads_up_with_the_big_blind_on_the_button_replays() -> None:
    """The big blind sits out instead of posting, so the button takes the big blind (BLIND-07):
    heads-up, the small blind (seat 2) is off the button and plays its part (BLIND-02): it acts
    first before the draw, and draws and acts last after it. The players are numbered as
    pokerkit numbers a heads-up hand (player 1 the big blind, player 2 the small blind, no
    ``_posts``); the hand replays under both profiles and pokerkit agrees."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    hand = table.start(button=1)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 2, 3)
    table.act(2, "post")
    table.act(3, "sit_out")
    seats = _in_turn(table, "post", "call", "check", ("draw", 2), ("draw", 1), "check")
    seats += _in_turn(table, ("bet", 10), "fold")
    assert seats == [1, 2, 1, 1, 2, 1, 2, 1]  # seat 1 (the big blind) first after the draw
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    assert data["players"] == ["P1", "P2"] and "_posts" not in data
    assert data["blinds_or_straddles"] == [5, 10]
    actions = data["actions"]  # the big blind draws first, the small blind last
    assert actions.index("p1 sd ????") < actions.index("p2 sd ??")
    assert recorded == [400 - 10, 400 + 10]
    assert _pokerkit_stacks(text) == recorded


def test_a_heads_up_file_naming_the_small_blind_player_1_replays_in_the_new_order() -> None:
    """Older exports numbered a heads-up small blind off the button player 1 (our ``_posts``).
    The reader still seats a waiting player on the button for such a file, and the engine has
    the small blind (p1) draw and act last after the draw (BLIND-02): the hand above, its
    players swapped, replays to the same stacks."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "sit_out")
    _in_turn(table, "post", "call", "check", ("draw", 2), ("draw", 1), "check", ("bet", 10), "fold")
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    swap = {"p1": "p2", "p2": "p1"}
    actions = [" ".join(swap.get(word, word) for word in a.split()) for a in data["actions"]]
    assert actions[:2] == ["d dh p2 ??????????", "d dh p1 ??????????"]
    old = {
        **data,
        "players": data["players"][::-1],
        "starting_stacks": data["starting_stacks"][::-1],
        "blinds_or_straddles": data["blinds_or_straddles"][::-1],
        "finishing_stacks": data["finishing_stacks"][::-1],
        "_posts": [["small_blind"], ["big_blind"]],
        "actions": actions[1::-1] + actions[2:],  # the deal starts left of the button: p1
    }
    hand = parse_phh("\n".join(f"{key} = {json.dumps(value)}" for key, value in old.items()))
    for profile_id in (TRIPLE_DRAW, "replay-permissive"):
        replayed = finishing_stacks(replay_hand(hand, get_profile(profile_id)), 2)
        assert replayed == recorded[::-1], profile_id


@pytest.mark.parametrize("killer", [1, 2])
def test_a_kill_pot_replays_under_its_profile(killer: int) -> None:
    """KILL-01 optional kill, four-handed (button 1, blinds 2 and 3): the button kills (a
    post of its own) or the small blind does (the kill instead of its small blind, posted
    first: it is not a dead small blind). The limits double; ``_kill`` names the player who
    kills and ``_posts`` the kill; the hand replays to the recorded stacks under the kill
    profile, and a profile without kill pots says why it cannot replay it."""
    profile_id = "casino-triple-draw-27-optional-kill"
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400), profile_id)
    table.start(button=1, kill_seat=killer)
    _in_turn(table, "post", "post", *(["post"] if killer == 1 else []))
    # KILL-04: the kill acts last before the draw; the first after it opens (20/40 limits)
    seats = _in_turn(table, "fold", ("raise", 40), "call", "fold")
    seats += _in_turn(table, ("draw", 1), ("draw", 3), ("bet", 20), "fold")
    assert seats == {1: [2, 3, 4, 1, 3, 4, 3, 4], 2: [3, 4, 1, 2, 4, 1, 4, 1]}[killer]
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    recorded = _recorded_stacks(record, text)
    assert data["players"] == ["P2", "P3", "P4", "P1"]
    kill_player = {1: 4, 2: 1}[killer]
    assert data["_kill"]["player"] == kill_player and "_dead_small_blind" not in data
    assert "kill" in data["_posts"][kill_player - 1]
    assert ("small_blind" in data["_posts"][0]) and "big_blind" in data["_posts"][1]
    # P2 P3 P4 P1: the kill's 20 and a fold's blind lost, 40 called, the pot won
    assert recorded == {1: [395, 465, 360, 380], 2: [380, 390, 470, 360]}[killer]
    assert _replayed(text, profile_id) == recorded
    with pytest.raises(InvalidInput, match="kill pots"):
        _replayed(text, TRIPLE_DRAW)


def test_replacements_dealt_in_turn_replay_in_turn_through_a_reshuffle() -> None:
    """DRAW-06 (card mode, casino profile: a burn before each draw, the bottom card never
    dealt): the dealer deals each player's replacements before the next one draws, and the
    stub runs out in the third draw while dealing seat 2, so the reshuffle takes seat 3's
    discards of the first draw (seat 3 has not drawn yet). PHH writes the round's discards
    before its deals; our ``_dealt_in_turn`` has the reader deal in turn again, so the
    reshuffle is the dealer's (replayed with every discard first, seat 3 would be owed cards
    and its discards stay out: the deal is refused)."""
    deck = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    table = Table("card", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    order = (2, 3, 4, 1)
    held = {seat: [deck.pop(0) for _ in range(5)] for seat in order}
    for seat in order:
        table.act(seat, "deal", cards=held[seat])
    _in_turn(table, "call", "call", "call", "check")
    first_discards: dict[int, list[str]] = {}
    for counts in ({2: 4, 3: 4, 4: 4, 1: 4}, {2: 4, 3: 4, 4: 2, 1: 2}):
        for seat in order:  # 16 cards of the 31 after the burn, then 12 of 14: 1 is left
            thrown, held[seat] = held[seat][: counts[seat]], held[seat][counts[seat] :]
            first_discards.setdefault(seat, thrown)
            table.act(seat, "draw", discards=thrown)
            dealt = [deck.pop(0) for _ in thrown]
            table.act(seat, "deal", cards=dealt)
            held[seat] += dealt
        _check_round(table, order)
    for seat, dealt in ((2, first_discards[3][:2]), (3, first_discards[4][:1])):
        thrown, held[seat] = held[seat][: len(dealt)], held[seat][len(dealt) :]
        table.act(seat, "draw", discards=thrown)
        table.act(seat, "deal", cards=dealt)
        held[seat] += dealt
    table.act(4, "draw", count=0)
    table.act(1, "draw", count=0)
    _check_round(table, order)
    for seat in order:
        table.act(seat, "show", cards=held[seat])
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_dealt_in_turn"] is True
    actions = data["actions"]  # seat 2 (p1) is dealt two of seat 3's (p2's) first discards
    assert f"p2 sd {''.join(first_discards[3])}" in actions
    assert f"d dh p1 {''.join(first_discards[3][:2])}" in actions
    recorded = _recorded_stacks(record, text)
    assert recorded == [390, 430, 390, 390]
    assert _replayed(text, TRIPLE_DRAW) == recorded
    with pytest.raises(InvalidInput, match="still owed cards in this draw"):
        _replayed(text.replace("_dealt_in_turn = true\n", ""), TRIPLE_DRAW)


def test_a_hand_cancelled_before_the_deal_says_so_and_is_not_replayed() -> None:
    """Heads-up, the big blind sits out instead of posting: the hand is called off and the
    small blind gets its post back. The export has one player and says ``_cancelled``; the
    reader says there is nothing to replay (not that a hand needs two players)."""
    table = Table("count", {1: 400, 2: 400})
    table.start(button=1)
    table.act(1, "post")
    table.act(2, "sit_out")
    record = table.record(1)
    assert record["result"]["cancelled"] is True
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_cancelled"] is True and data["finishing_stacks"] == data["starting_stacks"]
    with pytest.raises(InvalidInput, match="cancelled before it was played"):
        parse_phh(text)


def test_a_fifth_card_dealt_first_as_the_stub_runs_low_replays() -> None:
    """DRAW-03/06 (card mode, casino profile): in the third draw seat 2 draws five (four
    now) and seat 3 two, but the stub holds only two more cards it may deal: the engine has
    seat 2's fifth card dealt first, then seat 3 gets the last card and one from a
    reshuffle. Our ``_early_fifths`` says when the fifth card came; the reader deals it
    there (at the end of the draw, seat 3's deal would be refused)."""
    deck = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    table = Table("card", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    order = (2, 3, 4, 1)
    held = {seat: [deck.pop(0) for _ in range(5)] for seat in order}
    for seat in order:
        table.act(seat, "deal", cards=held[seat])
    _in_turn(table, "call", "call", "call", "check")
    first_discards: dict[int, list[str]] = {}
    for counts in ({2: 4, 3: 4, 4: 4, 1: 4}, {2: 2, 3: 2, 4: 2, 1: 0}):
        for seat in order:  # 16 of the 31 cards after the burn, then 6 of 14: 8 are left
            thrown, held[seat] = held[seat][: counts[seat]], held[seat][counts[seat] :]
            first_discards.setdefault(seat, thrown)
            table.act(seat, "draw", discards=thrown)
            if thrown:
                dealt = [deck.pop(0) for _ in thrown]
                table.act(seat, "deal", cards=dealt)
                held[seat] += dealt
        _check_round(table, order)
    table.act(2, "draw", discards=held[2])  # a burn, and the bottom card is never dealt: 6
    held[2] = [deck.pop(0) for _ in range(4)]
    table.act(2, "deal", cards=held[2])
    thrown, held[3] = held[3][:2], held[3][2:]
    answer = table.act(3, "draw", discards=thrown)
    assert answer.body["instructions"][0]["text"].startswith("Deal seat 2 its fifth card")
    held[2].append(deck.pop(0))
    table.act(2, "deal", cards=held[2][-1:])
    held[3] += [deck.pop(0), first_discards[4][0]]  # the last card, then a reshuffled one
    table.act(3, "deal", cards=held[3][-2:])
    table.act(4, "draw", count=0)
    table.act(1, "draw", count=0)
    _check_round(table, order)
    for seat in order:
        table.act(seat, "show", cards=held[seat])
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_dealt_in_turn"] is True
    assert data["_early_fifths"] == [[1, 2, 3]]  # p1's fifth once p2 had made its third draw
    assert f"d dh p1 {''.join(held[2])}" in data["actions"]  # PHH: one deal of five
    recorded = _recorded_stacks(record, text)
    assert recorded == [390, 430, 390, 390]
    assert _replayed(text, TRIPLE_DRAW) == recorded
    with pytest.raises(InvalidInput, match="Only the seat that has drawn"):
        _replayed(text.replace("_early_fifths = [[1, 2, 3]]\n", ""), TRIPLE_DRAW)


def test_a_big_blind_short_and_all_in_is_called_in_full() -> None:
    """BLIND-04: the big blind (seat 3) has 5 chips and is all in for them; the small blind
    still calls the full big blind (5 more), and the 5 nobody matched come back. The PHH
    writes ``p1 cc`` and the reader makes it a call, not a check."""
    table = Table("count", {1: 400, 2: 400, 3: 5})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "fold")
    table.act(2, "call")
    for _ in range(3):
        table.act(2, "draw", count=0)
        table.act(3, "draw", count=0)
    table.act(2, "show", cards="2c 3c 4c 5c 7s")
    table.act(3, "show", cards="2d 3d 4d 5d 8h")
    text, recorded = _round_trip(table)
    assert tomllib.loads(text)["actions"][3:5] == ["p3 f", "p1 cc"]
    assert recorded == [405, 0, 400]  # the main pot of 10: 5 each


def test_posts_replay_in_dealing_order_a_dead_small_blind_before_a_kill() -> None:
    """BLIND-01 posting order: the blinds, then every other seat in dealing order, whether
    its post is live or dead. Seat 3 sat out past its small blind (BLIND-09) and comes back
    owing it dead, and the button (seat 4) volunteers a kill (KILL-01): seat 3 posts before
    the kill. The reader asked for the kill (a live post) before the dead small blind, which
    the engine refuses ("seat 3 posts first"); the hand replays to the recorded stacks under
    its profile and in pokerkit."""
    profile_id = "casino-triple-draw-27-optional-kill"
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5), 400), profile_id)
    table.start(button=1)
    table.fold_around()
    table.command(SitOut(3))
    for _ in range(2):  # seat 3 misses the small blind (button 2), then sits out button 3
        table.start()
        table.fold_around()
    table.command(ReturnToPlay(3))
    hand = table.start(kill_seat=4)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (4, 5, 1)
    table.fold_around()
    record = table.record(4)
    posts = [item for e in record["events"] for item in e["payload"]["events"] or ()]
    posted = [(item["seat"], item["amount"]) for item in posts if item["type"] == "posted"]
    assert posted == [(5, 5), (1, 10), (3, 5), (4, 20)]
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P5", "P1", "P2", "P3", "P4"]
    assert data["_posts"] == [["small_blind"], ["big_blind"], [], ["dead_small_blind"], ["kill"]]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]
    # everyone folds to the kill: P4 wins the blinds and P3's dead 5, its own 20 back
    assert recorded == [start[0] - 5, start[1] - 10, start[2], start[3] - 5, start[4] + 20]
    assert _replayed(text, profile_id) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="kill pots"):
        _replayed(text, TRIPLE_DRAW)


def test_a_count_mode_fifth_card_dealt_first_as_the_stub_runs_low_replays() -> None:
    """DRAW-03/06 in count mode: the third draw of the hand above, seat 2 five and seat 3
    two with two cards left that may be dealt. The engine dealt seat 2's fifth card first
    itself; a count-mode export names no deals, so it has no ``_early_fifths``, and PHH's
    order deals the fifth card after seat 3's. The replay deals it where the engine asks
    for it, and the hand replays to the recorded stacks (refused before: "Only the seat
    that has drawn (seat 1) receives cards now")."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    order = (2, 3, 4, 1)
    _in_turn(table, "call", "call", "call", "check")
    for counts in ({2: 4, 3: 4, 4: 4, 1: 4}, {2: 2, 3: 2, 4: 2, 1: 0}):
        for seat in order:
            table.act(seat, "draw", count=counts[seat])
        _check_round(table, order)
    table.act(2, "draw", count=5)
    answer = table.act(3, "draw", count=2)
    texts = [step["text"] for step in answer.body["instructions"]]
    fifth = texts.index("Deal seat 2 its fifth card (owed since its five-card draw)")
    assert fifth < texts.index("Deal 2 cards to seat 3 from the new stub")
    table.act(4, "draw", count=0)
    table.act(1, "draw", count=0)
    table.act(2, "bet", amount=20)
    for seat in (3, 4, 1):
        table.act(seat, "fold")
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert "_dealt_in_turn" not in data and "_early_fifths" not in data
    recorded = _recorded_stacks(record, text)
    assert recorded == [430, 390, 390, 390]  # P2 wins the others' 10 in each of three rounds
    assert _replayed(text, TRIPLE_DRAW) == recorded
    assert _pokerkit_stacks(text) == recorded


def _count_mode_reshuffle_in_the_third_draw() -> tuple[Table, list[str]]:
    """Six seated, three fold before the draw; seats 1, 2 and 6 draw 1, 1, 3, then 2, 5, 5,
    then 5, 4, 5 (casino profile: a burn before each draw, the bottom card never dealt, the
    muck never reshuffled). The third draw's burn leaves 2 cards, the bottom one not dealt:
    seat 1 gets 1, then a reshuffle of the bottom card, 3 burns and seats 2's and 6's discards
    (6 and 8: those two hold five) gives it 3 more, its fifth after the others (DRAW-03/06).
    The dealing instructions of that draw come back too."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5, 6), 400))
    table.start(button=6)
    table.act(1, "post")
    table.act(2, "post")
    _in_turn(table, "fold", "fold", "fold", "call", "call", "check")
    order = (1, 2, 6)
    for counts in ({1: 1, 2: 1, 6: 3}, {1: 2, 2: 5, 6: 5}):
        for seat in order:
            table.act(seat, "draw", count=counts[seat])
        _check_round(table, order)
    texts = []
    for seat, count in ((1, 5), (2, 4), (6, 5)):
        answer = table.act(seat, "draw", count=count)
        texts += [step["text"] for step in answer.body["instructions"]]
    table.act(1, "bet", amount=20)
    table.act(2, "fold")
    table.act(6, "fold")
    return table, texts


def test_a_count_mode_reshuffle_takes_the_later_drawers_discards_as_the_engine_did() -> None:
    """DRAW-03/05/06 in count mode: the engine dealt each player's cards as it drew, so the
    reshuffle for seat 1 took the discards of seats 2 and 6, who had not drawn yet. PHH writes
    the draw's discards before its deals; replayed so, seats 2 and 6 are still owed cards and
    their discards stay out: a new stub of 4 cards, and seat 2's four were refused ("DRAW-06:
    The stub and a reshuffle cannot supply these cards"; soak seed 91, table
    ``S91-ctd2ok-count-e9a6`` hand 23). A count-mode export (no dealt card named) is replayed
    in turn, and the replay's stub, burns and reshuffle are the engine's; the file is as before
    (no new field). Without ``_profile_id`` it is not ours and is replayed in PHH's order."""
    table, texts = _count_mode_reshuffle_in_the_third_draw()
    reshuffle = next(text for text in texts if text.startswith("Reshuffle for seat 1"))
    assert "the discards of seat 2 (6) and seat 6 (8) into a new stub of 18 cards" in reshuffle
    assert texts.index("Deal 3 more cards to seat 1 from the new stub") > texts.index(reshuffle)
    live = table.services.tables.load(table.table_id).state.hand  # type: ignore[union-attr]
    text, recorded = _round_trip(table)
    data = tomllib.loads(text)
    assert not {"_dealt_in_turn", "_early_fifths"} & data.keys()
    assert data["actions"][-9:-3] == [  # p1 is seat 1, p2 seat 2, p6 seat 6
        "p1 sd ??????????", "p2 sd ????????", "p6 sd ??????????",
        "d dh p1 ??????????", "d dh p2 ????????", "d dh p6 ??????????",
    ]  # fmt: skip
    assert recorded == [420, 390, 400, 400, 400, 390]  # seat 1 wins the blind and two bets
    hand = parse_phh(text)
    assert hand.count_mode
    replayed = replay_hand(hand, _profile(TRIPLE_DRAW)).hand
    assert replayed is not None and live is not None
    assert live.reshuffles == 1
    assert (replayed.stub, replayed.burns, replayed.reshuffles) == (live.stub, live.burns, 1)
    assert _pokerkit_stacks(text) == recorded
    not_ours = text.replace(f'_profile_id = "{TRIPLE_DRAW}"\n', "")
    assert not parse_phh(not_ours).count_mode
    with pytest.raises(InvalidInput, match="DRAW-06: The stub and a reshuffle cannot supply"):
        _replayed(not_ours, TRIPLE_DRAW)


def test_the_soak_hand_with_a_count_mode_reshuffle_replays_from_its_text() -> None:
    """The soak's export as it was written (seed 91, ``S91-ctd2ok-count-e9a6`` hand 23,
    casino-triple-draw-27-optional-kill, count mode): p1, p4 and p6 draw 5, 4 and 5 in the
    third draw and p1's cards need a reshuffle. ``dealerassist replay`` refused it at p4's
    four cards (command 54 of 62, DRAW-06); in turn it replays, under the profile version it
    names, to the recorded finishing stacks."""
    path = RECORDED / "S91-ctd2ok-count-e9a6-23.phh"
    result = replay_file(path)
    assert result.ok, result.error
    assert result.finishing_stacks == [1310, 810, 540, 1110, 200, 295] == result.expected
    hand = parse_phh(path.read_text(encoding="utf-8"))
    assert result.profile == f"{hand.profile_id}@{hand.profile_sha256}"
    assert hand.count_mode and not hand.dealt_in_turn


def _dead_small_blind_at_an_empty_seat(table: Table) -> dict[str, Any]:
    """BLIND-03 dead button, seats 1-5: seat 3 sits out while the big blind passes it (hand 5:
    button 1, blinds 2 and 4), then the big blind of hand 5 (seat 4) leaves and seat 3 comes
    back posting. Hand 6: the big blind moves on to seat 5, the small blind stays dead at the
    empty seat 4, the button on seat 2; seat 3, between the button and the dead small blind,
    makes up its missed big blind (10 live) and the small blind (5 dead). Hand 6 as started."""
    table.command(SitOut(3))
    table.start(button=1)
    table.fold_around()
    for _ in range(4):
        table.start()
        table.fold_around()
    table.leave(4)
    table.command(ReturnToPlay(3, wait=False))
    return table.start()


def test_a_dead_small_blind_at_an_empty_seat_between_dealt_in_players_replays() -> None:
    """BLIND-03/08: the small blind dead at an empty seat between p1, who makes up a missed big
    blind past the button, and the big blind p2 (refused before: the replay seated p1..pn side
    by side). The export is as before: PHH blinds and antes as posted and ``_posts``; the
    reader leaves an empty seat between p1 and p2 for the dead small blind and places the last
    hand's blinds of the dead button, so the engine asks for the same posts, and the hand
    replays to the service's stacks (pokerkit agrees). A profile whose button moves cannot
    deal such a hand, and says so."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5), 400))
    hand = _dead_small_blind_at_an_empty_seat(table)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 5)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes[3] == ["returning_big_blind", "dead_small_blind"]
    table.act(5, "post")
    table.act(3, "post")
    table.act(1, "call")
    table.act(2, "fold")
    table.act(3, "raise", amount=20)  # its 10 live count: it raises by 10
    table.act(5, "call")
    table.act(1, "call")
    for seat, count in ((3, 1), (5, 2), (1, 3)):
        table.act(seat, "draw", count=count)
    table.act(3, "bet", amount=10)
    table.act(5, "call")
    table.act(1, "fold")
    table.act(3, "draw", count=0)
    table.act(5, "draw", count=1)
    table.act(3, "bet", amount=20)
    table.act(5, "fold")
    record = table.record(6)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P5", "P1", "P2"]
    assert data["blinds_or_straddles"] == [10, 10, 0, 0] and data["antes"] == [5, 0, 0, 0]
    assert data["_posts"] == [["returning_big_blind", "dead_small_blind"], ["big_blind"], [], []]
    assert "_dead_small_blind" not in data
    recorded = _recorded_stacks(record, text)
    paid = [5 + 20 + 10 + 20, 20 + 10, 20, 0]  # P3: 5 dead, 20, 10, 20; it wins all of it
    won = [sum(paid), 0, 0, 0]
    start = data["starting_stacks"]
    assert recorded == [s - p + w for s, p, w in zip(start, paid, won, strict=True)]
    assert data["finishing_stacks"] == recorded
    assert replay_seats(parse_phh(text)) == (1, 3, 4, 5)  # seat 2 empty: the dead small blind
    assert _replayed(text, TRIPLE_DRAW) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_a_kill_past_the_button_before_a_dead_small_blind_at_an_empty_seat_replays() -> None:
    """KILL-01 by choice: the same table, and seat 1 (p3, past the empty seat) kills the hand
    (a kill of 20). The reader names the volunteer by its replay seat, one further on, and the
    hand replays under the kill profile; all fold to the kill, which wins the big blind and
    seat 3's 15."""
    profile_id = "casino-triple-draw-27-optional-kill"
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5), 400), profile_id)
    table.command(SitOut(3))
    table.start(button=1)
    table.fold_around()
    for _ in range(4):
        table.start()
        table.fold_around()
    table.leave(4)
    table.command(ReturnToPlay(3, wait=False))
    hand = table.start(kill_seat=1)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 5)
    table.fold_around()
    record = table.record(6)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P5", "P1", "P2"]
    assert data["_posts"] == [
        ["returning_big_blind", "dead_small_blind"],
        ["big_blind"],
        ["kill"],
        [],
    ]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]
    assert recorded == [start[0] - 15, start[1] - 10, start[2] + 25, start[3]]
    assert _replayed(text, profile_id) == recorded


@pytest.mark.parametrize("profile_id", ["casino-triple-draw-27-kill", OPTIONAL_KILL])
def test_a_kill_in_the_big_blind_with_a_dead_small_blind_made_up_replays(profile_id: str) -> None:
    """KILL-01 in the big blind, BLIND-03/09 (the soak's case, below): seats 1, 4, 5 and 6;
    seat 1 sits out past its small blind (hand 2, button 6: the small blind dead at seat 1,
    the big blind seat 4), seat 6 wins hands 2 and 3 (a kill is due where kills are required;
    by choice, the dealer names seat 6), seat 5 (hand 3's big blind) leaves and seat 1 comes
    back. Hand 4: the button on seat 4, the small blind dead at seat 5's empty seat, seat 6 the
    big blind and the kill (20), seat 1 makes up its small blind (5, dead). The export named
    seat 6 the small blind who killed and seat 1 the big blind (PHH blinds [5, 10, 0]), and
    the replay took 5 more from seat 6 and 5 fewer from seat 1. It now says what was posted:
    p1 the big blind and the kill, the small blind dead, p2's 5 dead (its ante), and the hand
    replays to the recorded stacks; a profile without kill pots says why it cannot."""
    table = Table("count", dict.fromkeys((1, 4, 5, 6), 400), profile_id)
    table.start(button=5)
    table.fold_around()
    table.command(SitOut(1))
    for posts in (("post",), ("post", "post")):  # seat 6 calls, then bets when all checked
        table.start()
        _in_turn(table, *posts, "call", "call", "check", *[("draw", 0)] * 3, "check", "check")
        _in_turn(table, ("bet", 10), "fold", "fold")
    table.leave(5)
    table.command(ReturnToPlay(1, wait=False))
    hand = table.start(kill_seat=6 if profile_id == OPTIONAL_KILL else None)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (4, None, 6)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {6: ["kill"], 1: ["dead_small_blind"], 4: []}
    seats = _in_turn(table, "post", "post", "call", "fold", "check", ("draw", 4), ("draw", 3))
    seats += _in_turn(table, ("bet", 20), "fold")  # KILL-01: limits doubled to 20/40
    assert seats == [6, 1, 1, 4, 6, 6, 1, 6, 1]
    record = table.record(4)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P6", "P1", "P4"]
    assert data["blinds_or_straddles"] == [10, 0, 0] and data["antes"] == [0, 5, 0]
    assert data["_dead_small_blind"] == 5
    assert data["_posts"] == [["big_blind", "kill"], ["dead_small_blind"], []]
    assert data["_kill"]["player"] == 1
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P6 wins P1's 5 dead and 20 called, its own 20 back
    assert recorded == [start[0] + 25, start[1] - 25, start[2]]
    assert data["finishing_stacks"] == recorded
    assert _replayed(text, profile_id) == recorded
    with pytest.raises(InvalidInput, match="kill pots"):
        _replayed(text, TRIPLE_DRAW)


def test_the_soak_kill_in_the_big_blind_with_a_dead_small_blind_made_up_replays() -> None:
    """The soak hand that replayed 5 off (soak12, table S21-ctd2k-card-f9d3, hand 16: stacks
    [835, 292, 340] against the recorded [840, 287, 340]), exported again from the store: seat
    6 (p1) the big blind and the required kill, the small blind dead, seat 1 (p2), back in
    play, making up its small blind dead. It replays, under the profile version it names, to
    the recorded finishing stacks."""
    path = RECORDED / "S21-ctd2k-card-f9d3-16.phh"
    hand = parse_phh(path.read_text(encoding="utf-8"))
    assert hand.posts == (("big_blind", "kill"), ("dead_small_blind",), ())
    assert (hand.dead_small_blind, hand.kill_player) == (5, 1)
    result = replay_file(path)
    assert result.ok, result.error
    assert result.finishing_stacks == [840, 287, 340] == result.expected
    assert result.profile == f"{hand.profile_id}@{hand.profile_sha256}"


def test_a_dead_small_blind_at_an_empty_seat_from_an_earlier_export_replays() -> None:
    """The soak hand that was refused (``bench/soak.py --hands 30 --seed 31 32``, table
    S32-sd2nl-count-0360, hand 8), as that export wrote it: a newcomer (P6) sat down between
    the last hand's blinds and bought the button (a big blind and the dead small blind,
    written as a missed big blind made up), the last big blind's player had left, so the
    small blind was dead at his empty seat before the big blind (P4). It replays to its
    recorded stacks under its profile; the small blind (5, which no field states) is the dead
    part of P6's post, his ante."""
    text = (
        'variant = "N2L1D"\nantes = [5, 0, 0]\nblinds_or_straddles = [10, 10, 0]\n'
        '_posts = [["returning_big_blind", "dead_small_blind"], ["big_blind"], []]\n'
        "min_bet = 10\nstarting_stacks = [120, 1296, 937]\n"
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", '
        '"p3 f", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p1 cc", "p2 cbr 1286", "p1 cc", '
        '"p2 sm"]\nhand = 8\nplayers = ["P6", "P4", "P2"]\n'
        "finishing_stacks = [235, 1181, 937]\n"
        '_table_id = "S32-sd2nl-count-0360"\n_profile_id = "single-draw-27-no-limit"\n'
    )
    hand = parse_phh(text)
    assert hand.finishing_stacks == (235, 1181, 937)
    assert _replayed(text, "single-draw-27-no-limit") == list(hand.finishing_stacks)


def test_a_heads_up_dead_small_blind_at_an_empty_seat_is_refused_with_the_reason() -> None:
    """Still not replayed: heads-up, p1 past the button makes up a missed big blind and the
    small blind is dead before the big blind p2, but p1's ante does not hold the dead small
    blind (``antes = [5, 0]``: heads-up the 5 is p2's), so the small blind is unknown; the
    reader says so instead of misreading p1 as the small blind. Written as our exports write
    it (p1's dead small blind his ante, ``antes = [0, 5]``) the hand replays with the big
    blind moved onto the button (``test_BLIND_07_08_heads_up_the_big_blind_moved_onto_the_
    button_past_a_returning_seat``)."""
    text = (
        'variant = "N2L1D"\nantes = [5, 0]\nblinds_or_straddles = [10, 10]\n'
        '_posts = [["returning_big_blind", "dead_small_blind"], ["big_blind"]]\n'
        "min_bet = 10\nstarting_stacks = [195, 400]\n"
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "p1 f"]\n'
    )
    with pytest.raises(InvalidInput, match="heads-up, the small blind was dead"):
        _replayed(text, "single-draw-27-no-limit")


@pytest.mark.parametrize("profile_id", [TRIPLE_DRAW, "casino-triple-draw-27-kill"])
def test_a_redeal_whose_small_blind_left_keeps_the_button_past_the_big_blind_and_replays(
    profile_id: str,
) -> None:
    """BLIND-03 dead button, IRREG-01 redeal (the soak's case, below): hand 3 has the button on
    the empty seat 1 (its player moved to seat 2, BLIND-12), seats 2 and 3 dealt in past it
    (seat 3 making up a missed big blind), seat 4 the small blind and seat 5 the big blind,
    the last player. The floor rules a misdeal, seat 4 leaves, and the redeal keeps the
    button: the small blind is dead at seat 4's empty seat and the big blind (p3) is the last
    player. The reader keeps the button on an empty seat after him (refused before: the
    replay gave p3 the button, and the engine moved it), and the hand replays to the
    service's stacks; pokerkit agrees. A profile whose button moves cannot deal it."""
    table = Table("count", {1: 400, 3: 400, 4: 400, 5: 400}, profile_id)
    table.command(SitOut(3))
    table.start(button=4)  # blinds 5 and 1
    table.fold_around()
    table.start()  # button 5, blinds 1 and 4: the big blind passes seat 3
    table.fold_around()
    table.command(ReturnToPlay(3, wait=False))
    table.command(ChangeSeat(1, 2))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 4, 5)
    for seat in (4, 5, 3):
        table.act(seat, "post")
    table.misdeal()
    table.leave(4)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, None, 5)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {2: [], 3: ["returning_big_blind", "dead_small_blind"], 5: ["big_blind"]}
    seats = _in_turn(table, "post", "post", "call", ("raise", 20), "call", "call")
    seats += _in_turn(table, ("draw", 1), ("draw", 2), ("draw", 0), ("bet", 10), "fold", "call")
    seats += _in_turn(table, ("draw", 1), ("draw", 0), "check", ("bet", 20), "fold")
    assert seats == [5, 3, 2, 3, 5, 2, 2, 3, 5, 2, 3, 5, 2, 5, 2, 5, 2]
    record = table.record(4)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P1", "P3", "P5"]
    assert data["blinds_or_straddles"] == [0, 10, 10] and data["antes"] == [0, 5, 0]
    assert data["_posts"] == [[], ["returning_big_blind", "dead_small_blind"], ["big_blind"]]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P3 loses 5 dead and 20, P1 30 to P5's bet of 20
    assert recorded == [start[0] - 30, start[1] - 5 - 20, start[2] + 55]
    assert data["finishing_stacks"] == recorded
    hand = parse_phh(text)
    assert replay_seats(hand) == (1, 2, 4)  # seat 3 empty: the dead small blind
    state = replay_hand(hand, get_profile(profile_id))
    assert state.hand is not None and state.hand.button == 5  # the empty seat after p3
    assert finishing_stacks(state, replay_seats(hand)) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_the_soak_redeal_with_the_small_blind_dead_at_an_empty_seat_replays() -> None:
    """The soak hand that was refused (``bench/soak.py --hands 30 --seed 12 14``, table
    S12-ctd2k-count-621f, hand 13, the redeal of hand 12 after the floor's misdeal; seat 4,
    the small blind, had left), as the export wrote it: it replays to its recorded stacks
    under its profile, the button on an empty seat after the big blind (p3)."""
    text = (
        'variant = "F2L3D"\nantes = [0, 5, 0]\nblinds_or_straddles = [0, 10, 10]\n'
        '_posts = [[], ["returning_big_blind", "dead_small_blind"], ["big_blind"]]\n'
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [335, 270, 550]\n"
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", '
        '"p1 f", "p2 cc", "p3 cc", "p2 sd", "p3 sd", "p2 cc", "p3 cc", "p2 sd", "p3 sd", '
        '"p2 cc", "p3 cc", "p2 sd ??????", "p3 sd ????????", "d dh p2 ??????", '
        '"d dh p3 ????????", "p2 cc", "p3 cc", "p2 sm"]\nhand = 13\n'
        'players = ["P4", "P5", "P2"]\nfinishing_stacks = [335, 255, 565]\n'
        '_table_id = "S12-ctd2k-count-621f"\n_profile_id = "casino-triple-draw-27-kill"\n'
    )
    hand = parse_phh(text)
    assert hand.finishing_stacks == (335, 255, 565)
    assert _replayed(text, "casino-triple-draw-27-kill") == list(hand.finishing_stacks)


def test_heads_up_the_big_blind_moved_onto_a_dead_button_replays() -> None:
    """BLIND-03/07/12, heads-up (the soak's case, below): in hand 2 the big blind (seat 4)
    sits out at the post and moves onto the button (seat 1); then seat 1 moves to seat 5.
    Hand 3: the dead button on seat 3 (hand 2's small blind), the small blind dead at seat 1,
    now empty, and seat 2, due the big blind, sits out at the post: the big blind moves onto
    the button, which then owes no small blind (BLIND-02), and seat 5, past the button, plays
    without posting. The PHH has p2 (the button) post the only blind, PHH blinds [10, 0];
    the reader read that as a small blind of 10 and no big blind and asked for a post the
    engine would not take. It now seats the hand as it was (an empty seat, a stand-in due
    the big blind who sits out, p2 on the button) and the hand replays, p1 first in every
    round; pokerkit agrees. A profile whose button moves cannot deal it, and says so."""
    table = Table("count", dict.fromkeys((1, 2, 3, 4), 400))
    table.command(SitOut(2))
    table.start(button=4)  # blinds 1 and 3
    table.fold_around()
    table.command(ReturnToPlay(2, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 3, 4)
    assert _in_turn(table, "post", "sit_out", "post") == [3, 4, 1]  # the big blind moves to 1
    table.fold_around()
    table.command(ChangeSeat(1, 5))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, None, 2)
    seats = _in_turn(table, "sit_out", "post", "call", "check", ("draw", 1), ("draw", 2))
    seats += _in_turn(table, "check", ("bet", 10), "call", ("draw", 0), ("draw", 1))
    seats += _in_turn(table, ("bet", 20), ("raise", 40), "fold")
    assert seats == [2, 3, 5, 3, 5, 3, 5, 3, 5, 5, 3, 5, 3, 5]  # seat 5 first in every round
    record = table.record(3)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P1", "P3"] and "_posts" not in data
    assert data["blinds_or_straddles"] == [10, 0] and data["antes"] == [0, 0]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P1: 10, 10 and 20 to P3's raise
    assert recorded == [start[0] - 40, start[1] + 40]
    hand = parse_phh(text)
    assert replay_seats(hand) == (1, 4)
    state = replay_hand(hand, _profile(TRIPLE_DRAW))
    assert state.hand is not None and state.hand.small_blind_seat is None
    assert state.hand.button == state.hand.big_blind_seat == 4  # p2
    assert finishing_stacks(state, replay_seats(hand)) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_the_soak_heads_up_hand_with_the_big_blind_on_a_dead_button_replays() -> None:
    """The soak hand that did not replay (``bench/soak.py --hands 30 --seed 31 32``, table
    S32-ctd2-count-0aae, hand 19), as the export writes it: it replays to its stacks under
    its profile."""
    text = (
        'variant = "F2L3D"\nantes = [0, 0]\nblinds_or_straddles = [10, 0]\n'
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [286, 430]\n"
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "p1 cc", "p2 cbr 20", '
        '"p1 f"]\nhand = 19\nplayers = ["P1", "P3"]\nfinishing_stacks = [276, 440]\n'
        '_table_id = "S32-ctd2-count-0aae"\n_profile_id = "casino-triple-draw-27"\n'
    )
    hand = parse_phh(text)
    assert hand.finishing_stacks == (276, 440)
    assert _replayed(text, TRIPLE_DRAW) == list(hand.finishing_stacks)


@pytest.mark.parametrize(
    ("moves", "players", "blinds", "order"),
    [
        (  # the big blind the last player: the button on the empty seat past him
            {1: 3, 2: 4},
            ["P1", "P2", "P6"],
            [0, 0, 10],
            [6, 3, 4, 6, 3, 4, 6, 3, 4, 6, 3, 4],
        ),
        (
            {2: 3, 5: 4},
            ["P2", "P5", "P6", "P1"],
            [0, 0, 10, 0],
            [6, 1, 3, 4, 6, 3, 4, 6, 1, 3, 4, 6, 1, 3, 4],
        ),
    ],
)
def test_players_past_a_dead_button_who_posted_nothing_replay(
    moves: dict[int, int], players: list[str], blinds: list[int], order: list[int]
) -> None:
    """BLIND-03/12 dead button: after hand 1 (button 1, blinds 2 and 5) players change seats
    into seats 3 and 4, past the next button (seat 2, empty now), and seat 5's player leaves
    or moves: hand 2 has the small blind dead at the empty seat 5, the big blind on seat 6,
    and the movers dealt in free before them. Nobody made up a blind, so the PHH has no
    ``_posts``, only the big blind of p3 (refused before: a blind of p3 was read as a
    straddle). The reader seats the hand as it was (an empty seat before the big blind, and
    the button past him when he is the last player) and it replays, first after the big
    blind before the draw and p1 first after it; pokerkit agrees. A profile whose button
    moves cannot deal it, and says so."""
    table = Table("count", dict.fromkeys((1, 2, 5, 6), 400))
    table.start(button=1)
    table.fold_around()
    for seat, to in moves.items():
        table.command(ChangeSeat(seat, to))
    if 5 not in moves:
        table.leave(5)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 6)
    assert all(player["owes_what"] == [] for player in hand["players"] if player["seat"] != 6)
    n = len(players)
    moves_made = ["post", *["call"] * (n - 1), "check", *[("draw", 1)] * n, "check", "check"]
    seats = _in_turn(table, *moves_made, ("bet", 10), *["fold"] * (n - 1))
    assert seats == order
    record = table.record(2)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == players and data["blinds_or_straddles"] == blinds
    assert "_posts" not in data and "_dead_small_blind" not in data
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P6 wins the others' call of 10
    assert recorded == [s + (10 * (n - 1) if p == 3 else -10) for p, s in enumerate(start, 1)]
    assert _replayed(text, TRIPLE_DRAW) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_the_button_making_up_a_dead_small_blind_past_a_free_player_replays() -> None:
    """BLIND-03/09/12 dead button (the soak's case, below): in hand 1 (button 1, blinds 3 and
    6) seat 3 sits out at the post (it missed the small blind) and the button posts the
    heads-up small blind; then seat 6 moves to seat 5 and seat 3 comes back. Hand 2: the
    button on seat 3, which makes up its small blind, dead; the big blind moves on to seat 1,
    the small blind is dead at the empty seat 6, and seat 5, past the button after its move,
    plays without posting. The PHH has p1 post nothing, p2 the big blind and p3's dead 5 as
    its ante (``_posts``); the reader took p1 for a small blind of 0 and refused p3's dead 5.
    It now leaves the empty seat between p1 and p2 for the dead small blind (5, the dead part
    of p3's post) and the hand replays, p3 first before the draw and p1 after it; pokerkit
    agrees. A profile whose button moves cannot deal it, and says so."""
    table = Table("count", dict.fromkeys((1, 3, 6), 400))
    hand = table.start(button=1)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, 3, 6)
    assert _in_turn(table, "sit_out", "post", "post") == [3, 1, 6]  # the button posts the small
    table.fold_around()
    table.command(ChangeSeat(6, 5))
    table.command(ReturnToPlay(3, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, None, 1)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {5: [], 1: ["big_blind"], 3: ["dead_small_blind"]}
    seats = _in_turn(table, "post", "post", ("raise", 20), "call", "call")
    seats += _in_turn(table, ("draw", 1), ("draw", 2), ("draw", 0), "check", ("bet", 10))
    seats += _in_turn(table, "fold", "fold")
    assert seats == [1, 3, 3, 5, 1, 5, 1, 3, 5, 1, 3, 5]
    record = table.record(2)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P6", "P1", "P3"]
    assert data["blinds_or_straddles"] == [0, 10, 0] and data["antes"] == [0, 0, 5]
    assert data["_posts"] == [[], ["big_blind"], ["dead_small_blind"]]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P1 wins the others' 20 and P3's dead 5
    assert recorded == [start[0] - 20, start[1] + 45, start[2] - 25]
    assert data["finishing_stacks"] == recorded
    hand = parse_phh(text)
    assert replay_seats(hand) == (1, 3, 4)  # seat 2 empty: the dead small blind
    state = replay_hand(hand, _profile(TRIPLE_DRAW))
    assert state.hand is not None and state.hand.button == 4  # p3
    assert finishing_stacks(state, replay_seats(hand)) == recorded
    assert _pokerkit_stacks(text) == recorded
    with pytest.raises(InvalidInput, match="only a dead button does"):
        _replayed(text, "replay-permissive")


def test_the_soak_button_making_up_a_dead_small_blind_past_a_free_player_replays() -> None:
    """The soak hand that was refused (``bench/soak.py --hands 60 --seed 71``, table
    S71-sd2nl-card-045e, hand 57, card mode), as the export writes it: it replays to its
    recorded stacks under its profile."""
    text = (
        'variant = "N2L1D"\nantes = [0, 0, 5]\nblinds_or_straddles = [0, 10, 0]\n'
        '_posts = [[], ["big_blind"], ["dead_small_blind"]]\nmin_bet = 10\n'
        "starting_stacks = [2764, 1913, 2734]\n"
        'actions = ["d dh p1 8c7c9hKc2c", "d dh p2 AsAc3hJd6h", "d dh p3 QsTcQdKs8h", '
        '"p3 cbr 45", "p1 cbr 126", "p2 cbr 300", "p3 cbr 1220", "p1 cc", "p2 cc", '
        '"p1 sd 8c9h7c2c", "p2 sd 6h", "p3 sd QdQs8hKsTc", "d dh p1 9c5hTh2h", "d dh p2 3d", '
        '"d dh p3 Jh5sAdTd5c", "p1 cc", "p2 cc", "p3 cc", "p1 sm", "p2 sm"]\n'
        '_dealt_in_turn = true\nhand = 57\nplayers = ["P14", "P12", "P2"]\n'
        "finishing_stacks = [1544, 693, 5174]\n"
        '_table_id = "S71-sd2nl-card-045e"\n_profile_id = "single-draw-27-no-limit"\n'
    )
    hand = parse_phh(text)
    assert hand.finishing_stacks == (1544, 693, 5174)
    assert _replayed(text, "single-draw-27-no-limit") == list(hand.finishing_stacks)


@pytest.mark.parametrize("profile_id", [TRIPLE_DRAW, "replay-permissive"])
@pytest.mark.parametrize("newcomer", [False, True], ids=["BLIND-08", "BLIND-05"])
def test_heads_up_the_button_coming_in_with_a_big_blind_replays(
    profile_id: str, newcomer: bool
) -> None:
    """BLIND-02/08 heads-up (the soak's case, below): seats 4 and 6 sit out while the big blind
    passes them (markers), then seat 3 leaves. Hand 3: the button on seat 4, which makes up
    its missed big blind (10 live, 5 dead), seat 1 the big blind, and seat 6, in the small
    blind's place, waits for the big blind (BLIND-08): the button, owing a big blind, posts no
    small blind, so none is posted. The button acts first before the draw and the big blind
    first after it. The PHH has p1 (seat 1) post the big blind and p2 (seat 4) its 10 and its
    dead 5 as its ante (``antes = [5, 0]``: heads-up pokerkit lists p2's first, so the dead 5
    is rightly p2's); the reader took p2 for a small blind of 10 and refused the dead 5. It
    now seats a stand-in in the small blind's place who waits, and the hand replays under
    both profiles. So too (``BLIND-05``) a newcomer on the button posting his big blind, which
    the reader replayed before only by taking his 10 for a small blind. pokerkit has p1 act
    first when both blinds are 10, so it does not replay these hands as played."""
    table = Table("count", dict.fromkeys((1, 3, 4, 6), 400), profile_id)
    table.command(SitOut(4))
    table.command(SitOut(6))
    table.start(button=1)
    table.fold_around()
    table.start()  # heads-up, button 3, big blind 1: the big blind passes seats 4 and 6
    table.fold_around()
    table.leave(3)
    if newcomer:
        table.leave(4)
        table.command(SeatPlayer(4, "P4", 400))
    else:
        table.command(ReturnToPlay(4, wait=False))
    table.command(ReturnToPlay(6, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (4, None, 1)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    comes_in = ["entering_big_blind"] if newcomer else ["returning_big_blind", "dead_small_blind"]
    assert owes == {1: ["big_blind"], 4: comes_in}
    assert hand["waiting"] == {"6": "BLIND-08"}
    seats = _in_turn(table, "post", "post", ("raise", 20), "call", ("draw", 2), ("draw", 1))
    seats += _in_turn(table, "check", ("bet", 10), "fold")
    assert seats == [1, 4, 4, 1, 1, 4, 1, 4, 1]  # the button first, then after the draw last
    text, recorded = _round_trip(table, hand_no=3)
    data = tomllib.loads(text)
    assert data["players"] == ["P1", "P4"]
    assert data["blinds_or_straddles"] == [10, 10]
    assert data["antes"] == ([0, 0] if newcomer else [5, 0])
    assert data["_posts"] == [["big_blind"], comes_in]
    assert data["starting_stacks"] == [400, 400]
    assert recorded == [400 - 20, 400 + 20]  # P4 wins P1's 20 (and its own dead 5 back)
    hand = parse_phh(text)
    state = replay_hand(hand, get_profile(profile_id))
    assert state.hand is not None and state.hand.small_blind_seat is None
    assert (state.hand.button, state.hand.big_blind_seat) == (2, 1)
    assert [seat for seat, _ in state.hand.waiting] == [3]  # the stand-in in the small blind's


@pytest.mark.parametrize(
    ("hand_no", "text_middle", "finishing"),
    [
        (
            18,
            "starting_stacks = [310, 310]\n"
            'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "p2 cbr 20", "p1 cc", '
            '"p1 sd ????????", "p2 sd ????????", "d dh p1 ????????", "d dh p2 ????????", '
            '"p1 cc", "p2 cc", "p1 sd", "p2 sd", "p1 cbr 20", "p2 cc", "p1 sd ????????", '
            '"p2 sd ??", "d dh p1 ????????", "d dh p2 ??", "p1 cbr 20", "p2 cc", '
            '"p1 sm 4hAc9c3sJd", "p2 sm QcKc9h5c6h"]\n'
            'players = ["P6", "P4"]\n',
            (250, 370),
        ),
        (
            19,
            "starting_stacks = [250, 160]\n"
            'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "p2 cc", "p1 cbr 20", '
            '"p2 f"]\nplayers = ["P6", "P1"]\n',
            (265, 145),
        ),
    ],
)
def test_the_soak_heads_up_button_making_up_a_missed_big_blind_replays(
    hand_no: int, text_middle: str, finishing: tuple[int, int]
) -> None:
    """The soak hands that were refused (``bench/soak.py --hands 30 --seed 81 82``, table
    S82-rp-count-a8bb, hands 18 and 19), as the export writes them: heads-up, the button
    makes up a missed big blind (in hand 19 it checks its option) and the hand replays to its
    recorded stacks under its profile."""
    text = (
        'variant = "F2L3D"\nantes = [5, 0]\nblinds_or_straddles = [10, 10]\n'
        '_posts = [["big_blind"], ["returning_big_blind", "dead_small_blind"]]\n'
        f"small_bet = 10\nbig_bet = 20\n{text_middle}"
        f"hand = {hand_no}\nfinishing_stacks = {list(finishing)}\n"
        '_table_id = "S82-rp-count-a8bb"\n_profile_id = "replay-permissive"\n'
    )
    hand = parse_phh(text)
    assert hand.finishing_stacks == finishing
    assert _replayed(text, "replay-permissive") == list(finishing)


REQUIRED_KILL = "casino-triple-draw-27-kill"


Commands = list[tuple[dict[str, Any], list[dict[str, Any]]]]
TRIPLE_DRAW_SPEC = {"variant": "deuce_to_seven_triple_draw", "structure": "fixed_limit",
                    "stakes": LIMIT}  # fmt: skip


def _soak_record(
    table: str,
    hand_no: int,
    first_seq: int,
    profile_id: str,
    spec: dict[str, Any],
    started_at: str,
    commands: Commands,
    result: dict[str, Any],
    seats: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    """A soak hand's record as the audit store gives it back: each command with the engine's
    events (the posting ones as they were; the others with only what the export reads), the
    result on the last one, and the table (count mode) as the hand began."""
    last = len(commands) - 1
    events = [
        {"seq": first_seq + n, "hash": f"h{n}", "kind": command["type"], "hand_no": hand_no,
         "payload": {"command": command, "events": items, "result": result if n == last else None}}
        for n, (command, items) in enumerate(commands)
    ]  # fmt: skip
    return {
        "table_id": table,
        "hand_no": hand_no,
        "profile_id": profile_id,
        "profile_sha256": get_profile(profile_id).sha256,
        "started_at": started_at,
        "result": result,
        "events": events,
        "table": {"spec": {"mode": "count", **spec, "profile_id": profile_id}, "seats": seats},
    }


@pytest.mark.parametrize("profile_id", [REQUIRED_KILL, OPTIONAL_KILL])
@pytest.mark.parametrize("at_the_post", [True, False], ids=["sat-out-at-the-post", "heads-up"])
def test_KILL_04_heads_up_the_big_blind_kills_and_a_newcomers_entering_big_blind_replays(
    profile_id: str, at_the_post: bool
) -> None:
    """KILL-01/04, BLIND-02/05/07 (the soak's cases, below), under the shipped profile (WSOP
    194, ``kill.action = "in_turn"``: the kill acts in turn, as the blind it is in). Seats 3
    and 4 play heads-up and seat 4 wins both pots, the second with a full bet beyond the
    blinds (KILL-02: it must kill the next hand; where kills are optional the dealer names
    it). A newcomer sits in seat 1. Hand 3: the button on seat 1, which owes an entering big
    blind (BLIND-05: a newcomer posts a big blind to come in, WSOP 104-a), seat 4 the big
    blind and the kill (20), and nobody posts a small blind: seat 3, due it, sits out at the
    post and misses it (BLIND-07), or seat 3 sat out before the hand and another newcomer in
    seat 2 waits for the big blind, so the hand is dealt heads-up and the button, owing a big
    blind, takes no small blind (BLIND-02). Seat 4 posts its kill, seat 1 its 10, and heads-up
    seat 1, left of the big blind, acts first: it raises to 40 and seat 4 folds. The export
    read the posts alone, a kill posted first and a big blind's chips next, as a small blind
    who kills and the big blind (``_posts = [["big_blind"], ["small_blind", "kill"]]``), and
    the replay had the killer act first and refused seat 1's raise (KILL-04: not its turn).
    The hand's events say what was posted (``hand_started``: the button and the seats dealt
    in; ``sat_out``: seat 3 missed the small blind): p1 is the big blind and the kill, p2's
    10 its entering big blind, and the hand replays to the recorded stacks."""
    rules = get_profile(profile_id)
    table = Table("count", {3: 300, 4: 400}, profile_id, rules)
    table.start(button=3)  # seat 4 the big blind wins with a bet after the draw
    _in_turn(table, "post", "post", "call", "check", ("draw", 0), ("draw", 0), ("bet", 10), "fold")
    table.start()  # seat 4 the button wins a raised pot (KILL-02's second leg)
    _in_turn(table, "post", "post", ("raise", 20), "call", *[("draw", 0)] * 2, "check", ("bet", 10))
    _in_turn(table, "fold")
    if not at_the_post:
        table.command(SitOut(3))
        table.command(SeatPlayer(2, "P2", 400))
    table.command(SeatPlayer(1, "P1", 400))
    hand = table.start(kill_seat=4 if profile_id == OPTIONAL_KILL else None)
    small = 3 if at_the_post else None
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (1, small, 4)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {**({3: ["small_blind"]} if at_the_post else {}), 4: ["kill"],
                    1: ["entering_big_blind"]}  # fmt: skip
    seats = _in_turn(table, *(["sit_out"] if at_the_post else []), "post", "post", ("raise", 40))
    assert seats + _in_turn(table, "fold") == [3, 4, 1, 1, 4][0 if at_the_post else 1 :]
    record = table.record(3)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P1"]
    assert data["_posts"] == [["big_blind", "kill"], ["entering_big_blind"]]
    assert data["blinds_or_straddles"] == [10, 10] and data["antes"] == [0, 0]
    assert data["_kill"]["player"] == 1 and "_dead_small_blind" not in data
    assert data["actions"][2:] == ["p2 cbr 40", "p1 f"]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P1 takes P4's kill; its own 20 not called comes back
    assert recorded == data["finishing_stacks"] == [start[0] - 20, start[1] + 20]
    hand = parse_phh(text)
    state = replay_hand(hand, rules)
    assert finishing_stacks(state, replay_seats(hand)) == recorded


def _soak_hand_11() -> dict[str, Any]:
    """The record of hand 11 of the soak table S151-ctd2k-count-1b65 (``bench/soak.py --hands
    20 --seed 151 --profiles casino-triple-draw-27-kill --modes count``) as the store holds
    it: its events (the posting ones as they were; the others with only what the export
    reads), and the table as the hand began."""
    commands = [
        ({"type": "start_hand", "button": None}, [{"type": "hand_started", "button": 1,
            "dealt": [3, 4, 1], "hand_no": 11,
            "kill": {"big_bet": 40, "blind": 20, "seat": 4, "small_bet": 20}}]),
        ({"type": "action", "seat": 3, "action": "sit_out"},
            [{"type": "sat_out", "seat": 3, "missed_blind": "small"}]),
        ({"type": "action", "seat": 4, "action": "post"}, [{"type": "posted", "seat": 4,
            "amount": 20}]),
        ({"type": "action", "seat": 1, "action": "post"}, [{"type": "posted", "seat": 1,
            "amount": 10}]),
        ({"type": "action", "seat": 1, "action": "raise", "amount": 40}, []),
        ({"type": "action", "seat": 4, "action": "fold"}, [{"type": "returned", "seat": 1,
            "amount": 20}]),
    ]  # fmt: skip
    result = {"stacks": {"1": 420, "3": 77, "4": 432}, "winnings": {"1": 40}}
    seats = {1: {"player": "P8", "stack": 400}, 3: {"player": "P3", "stack": 77},
             4: {"player": "P7", "stack": 452}}  # fmt: skip
    return _soak_record("S151-ctd2k-count-1b65", 11, 221, REQUIRED_KILL, TRIPLE_DRAW_SPEC,
                        "2026-12-03T06:40:15.131506Z", commands, result, seats)  # fmt: skip


def test_KILL_04_the_soak_big_blind_kill_with_a_newcomers_entering_big_blind_replays(
    tmp_path: Path,
) -> None:
    """The soak hand that did not replay (``bench/soak.py --hands 20 --seed 151 --profiles
    casino-triple-draw-27-kill --modes count``, table S151-ctd2k-count-1b65, hand 11: "KILL-04:
    It is seat 2's turn (kill pot: seat 2 kills and acts in turn); seat 1 must wait"), from
    its events: button seat 1 (a newcomer owing its entering big blind, BLIND-05), seat 3
    sits out in the small blind (BLIND-07), seat 4 the big blind kills (KILL-01) and acts in
    turn as the big blind (KILL-04, WSOP 194), so seat 1, left of it, acts first heads-up.
    The export names p1 (seat 4) the big blind and the kill and p2 (seat 1) the newcomer, and
    replays under the profile it names to the recorded stacks."""
    text = hand_to_phh(_soak_hand_11())
    path = tmp_path / "S151-ctd2k-count-1b65-11.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.profile is not None and result.profile.startswith(REQUIRED_KILL)
    data = tomllib.loads(text)
    assert data["players"] == ["P7", "P8"] and data["starting_stacks"] == [452, 400]
    assert result.finishing_stacks == [432, 420] == result.expected == data["finishing_stacks"]
    assert data["_posts"] == [["big_blind", "kill"], ["entering_big_blind"]]
    assert data["blinds_or_straddles"] == [10, 10]
    assert data["actions"][2:] == ["p2 cbr 40", "p1 f"]


@pytest.mark.parametrize("profile_id", [REQUIRED_KILL, OPTIONAL_KILL])
def test_KILL_04_BLIND_08_a_small_blind_kill_with_the_big_blind_moved_onto_a_returning_seat(
    profile_id: str,
) -> None:
    """KILL-01/04, BLIND-07/08 (the soak's case: ``bench/soak.py --hands 30 --seed 3``, table
    S3-ctd2ok-card-50db, hand 11), under the shipped profile (WSOP 194, ``kill.action =
    "in_turn"``: the kill acts in turn, as the blind it is in). Seat 3 sits out at the post
    in the big blind (hand 1: it misses the big blind, BLIND-07), seat 1 wins hands 1 and 2,
    the second with a full bet beyond the blinds (KILL-02; where kills are optional the dealer
    names it), seat 6 leaves and seat 3 comes back owing its missed big blind and the small
    blind dead (BLIND-08). Hand 3: the button dead on seat 6's empty seat (BLIND-03), seat 1
    the small blind and the kill (20), seat 2 the big blind. Seat 2 sits out at the post: the
    big blind moves onto seat 3, which posts it with its dead small blind (15, BLIND-07/08).
    Heads-up the killer, in the small blind, acts first before the draw and last after it.
    The export read the posts alone, a kill posted first and 15 next, as the big blind's kill
    and a missed big blind made up (``_posts = [["big_blind", "kill"], ["returning_big_blind",
    "dead_small_blind"]]``), and the replay had seat 3 act first and refused the killer's
    check (KILL-04: not its turn). The events say the kill is the small blind's (it posted
    first from the first seat dealt in after the button, and the next seat dealt in sat out
    at once missing the big blind): p1 is seat 3, the big blind with its dead small blind (its
    ante), p2 the small blind and the kill, and the hand replays to the recorded stacks."""
    rules = get_profile(profile_id)
    table = Table("count", dict.fromkeys((1, 2, 3, 6), 400), profile_id, rules)
    table.start(button=1)  # seat 3 misses the big blind; seat 1 on the button wins
    _in_turn(table, "post", "sit_out", "post", ("raise", 20), "fold", "fold")
    table.start()  # seat 1 the big blind wins a called raise (KILL-02's second leg)
    _in_turn(table, "post", "post", ("raise", 20), "fold", "call", ("draw", 0), ("draw", 0))
    _in_turn(table, ("bet", 10), "fold")
    table.leave(6)
    table.command(ReturnToPlay(3, wait=False))
    hand = table.start(kill_seat=1 if profile_id == OPTIONAL_KILL else None)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (6, 1, 2)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {1: ["kill"], 2: ["big_blind"], 3: ["returning_big_blind", "dead_small_blind"]}
    seats = _in_turn(table, "post", "sit_out", "post", "check", "call", ("draw", 0), ("draw", 0))
    seats += _in_turn(table, "check", ("bet", 20), "fold")
    assert seats == [1, 2, 3, 1, 3, 3, 1, 3, 1, 3]
    record = table.record(3)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P1"]
    assert data["_posts"] == [["big_blind", "dead_small_blind"], ["small_blind", "kill"]]
    assert data["blinds_or_straddles"] == [5, 10] and data["antes"] == [0, 5]
    assert data["_kill"]["player"] == 2 and "_dead_small_blind" not in data
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P1 wins P3's 15 and 10 called; its 20 bet comes back
    assert recorded == data["finishing_stacks"] == [start[0] - 25, start[1] + 25]
    hand = parse_phh(text)
    state = replay_hand(hand, rules)
    assert finishing_stacks(state, replay_seats(hand)) == recorded


def test_KILL_04_BLIND_08_a_big_blind_kill_past_a_dead_small_blind_stays_the_big_blinds() -> None:
    """KILL-01/04, BLIND-03/08: the posting steps of the case above, from a big blind's kill.
    Seats 2 and 3 sit out at the post in hand 1 (each misses the big blind, BLIND-07), seat 6
    leaves after hand 3, seats 2 and 3 come back (BLIND-08). Hand 4: the button on seat 5,
    the small blind dead at seat 6's empty seat (BLIND-03), seat 1 the big blind and the kill
    the dealer names (KILL-01, WSOP 194). Seat 1 posts 20, seat 2 sits out at the post
    ("big": it owed its missed big blind) and seat 3 makes its missed big blind up (15): the
    same steps as a small blind's kill with the big blind moved onto a returning seat. Seat 3,
    left of the big blind, acts first, which tells them apart: the export names p1 the big
    blind and the kill, p2 the missed big blind made up, and replays to the recorded stacks."""
    rules = get_profile(OPTIONAL_KILL)
    table = Table("count", dict.fromkeys((1, 2, 3, 4, 5, 6), 400), OPTIONAL_KILL, rules)
    table.start(button=6)
    assert _in_turn(table, "post", "sit_out", "sit_out", "post") == [1, 2, 3, 4]
    table.fold_around()
    for _ in range(2):
        table.start()
        table.fold_around()
    table.leave(6)
    table.command(ReturnToPlay(2, wait=False))
    table.command(ReturnToPlay(3, wait=False))
    hand = table.start(kill_seat=1)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (5, None, 1)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    returning = ["returning_big_blind", "dead_small_blind"]
    assert owes == {1: ["kill"], 2: returning, 3: returning, 4: [], 5: []}
    seats = _in_turn(table, "post", "sit_out", "post", "fold", "fold", "call", "check")
    seats += _in_turn(table, ("draw", 0), ("draw", 0), "check", ("bet", 20), "fold")
    assert seats == [1, 2, 3, 3, 4, 5, 1, 1, 5, 1, 5, 1]
    record = table.record(4)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P1", "P3", "P4", "P5"]
    assert data["_posts"] == [["big_blind", "kill"], returning, [], []]
    assert data["blinds_or_straddles"] == [10, 10, 0, 0] and data["antes"] == [0, 5, 0, 0]
    assert data["_kill"]["player"] == 1 and data["_dead_small_blind"] == 5
    recorded = _recorded_stacks(record, text)
    assert recorded == data["finishing_stacks"]
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == recorded


def test_BLIND_07_08_heads_up_the_big_blind_moved_onto_the_button_past_a_returning_seat() -> None:
    """BLIND-03/07/08 heads-up (the soak hand: ``bench/soak.py --hands 30 --seed 12``, table
    S12-ctd2ok-card-db47, hand 29), as the export writes it: the last hand's big blind (seat
    1) left, so the small blind is dead at his empty seat (BLIND-03, dead button); seat 6,
    past the button (seat 5), comes back owing its missed big blind and the small blind dead
    (BLIND-08); seat 2, due the big blind, sits out at the post and the big blind moves onto
    the button (BLIND-07), which then owes no small blind (BLIND-02). Seat 6 (p1) posts 15
    and acts first in every round, the button (p2) last. The reader refused it ("such a hand
    is not replayed"); it now seats p1, an empty seat (the dead small blind), a stand-in due
    the big blind who sits out at the post and p2 on the button, as for a p1 who posted
    nothing, and the hand replays to its recorded stacks."""
    text = (
        'variant = "F2L3D"\nantes = [0, 5]\nblinds_or_straddles = [10, 10]\n'
        '_posts = [["returning_big_blind", "dead_small_blind"], ["big_blind"]]\n'
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [138, 724]\n"
        'actions = ["d dh p1 8cKsJs2s9s", "d dh p2 Th2dQc5dAs", "p1 cbr 20", "p2 cc", "p1 sd", '
        '"p2 sd", "p1 cbr 10", "p2 cc", "p1 sd Js", "p2 sd Th", "d dh p1 4s", "d dh p2 6d", '
        '"p1 cc", "p2 cc", "p1 sd 9s2s8c", "p2 sd", "d dh p1 4h6sJh", "p1 cc", "p2 cc", '
        '"p1 sm"]\n_dealt_in_turn = true\nhand = 29\nplayers = ["P6", "P5"]\n'
        "finishing_stacks = [103, 759]\n"
        '_table_id = "S12-ctd2ok-card-db47"\n_profile_id = "casino-triple-draw-27-optional-kill"\n'
    )
    hand = parse_phh(text)
    state = replay_hand(hand, get_profile(OPTIONAL_KILL))
    assert finishing_stacks(state, replay_seats(hand)) == [103, 759]
    assert state.hand is not None and state.hand.small_blind_seat is None
    assert state.hand.button == state.hand.big_blind_seat == replay_seats(hand)[1]


@pytest.mark.parametrize("profile_id", [REQUIRED_KILL, OPTIONAL_KILL])
def test_KILL_04_BLIND_03_a_big_blind_kill_past_a_small_blind_dead_at_an_empty_seat_replays(
    profile_id: str,
) -> None:
    """KILL-01/04, BLIND-03/05 (the soak's case, below), under the shipped profile (WSOP 194,
    ``kill.action = "in_turn"``: the kill acts in turn, as the blind it is in). Seat 4 wins
    hands 1 and 2, the second with a full bet beyond the blinds (KILL-02: it must kill the
    next hand; where kills are optional the dealer names it). Hand 2's blinds (seats 2 and
    3) leave and a newcomer sits in seat 1. Hand 3, dead button (BLIND-03, WSOP 155: the big
    blind moves to the next player, the small blind and the button follow it, onto empty
    seats): the button on seat 2's empty seat, the small blind dead at seat 3's, seat 4 the
    big blind and the kill (20); seat 5 owes nothing and the newcomer in seat 1, past the big
    blind, posts its entering big blind (BLIND-05, WSOP 104-a). Seat 5, left of the big
    blind, acts first. The export crashed (``KeyError``: a kill posted first was read as a
    small blind's, whose big blind is the next seat dealt in, and seat 5 posted nothing; the
    audit route answered 500). The next seat dealt in after the killer posted nothing, so
    no big blind was there: the kill is the big blind's, p1 (seat 4) the big blind and the
    kill with the small blind dead (our ``_dead_small_blind``), p3 the newcomer, and the hand
    replays to the recorded stacks."""
    rules = get_profile(profile_id)
    table = Table("count", dict.fromkeys((2, 3, 4, 5), 400), profile_id, rules)
    table.start(button=4)  # seat 4 on the button wins a raised pot
    assert _in_turn(table, "post", "post", "fold", ("raise", 20), "fold", "fold")[3] == 4
    table.start()  # seat 4, left of the big blind, wins a bet called after the draw
    _in_turn(table, "post", "post", ("raise", 20), "fold", "call", "fold", ("draw", 0))
    _in_turn(table, ("draw", 0), "check", ("bet", 10), "fold")
    table.leave(2)
    table.leave(3)
    table.command(SeatPlayer(1, "P1", 400))
    hand = table.start(kill_seat=4 if profile_id == OPTIONAL_KILL else None)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 4)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {4: ["kill"], 5: [], 1: ["entering_big_blind"]}
    seats = _in_turn(table, "post", "post", "call", "fold", "check", ("draw", 0), ("draw", 0))
    seats += _in_turn(table, ("bet", 20), "fold")
    assert seats == [4, 1, 5, 1, 4, 4, 5, 4, 5]
    record = table.record(3)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P5", "P1"]
    assert data["_posts"] == [["big_blind", "kill"], [], ["entering_big_blind"]]
    assert data["blinds_or_straddles"] == [10, 0, 10] and data["antes"] == [0, 0, 0]
    assert data["_kill"]["player"] == 1 and data["_dead_small_blind"] == 5
    assert data["actions"][3:6] == ["p2 cc", "p3 f", "p1 cc"]
    recorded = _recorded_stacks(record, text)
    start = data["starting_stacks"]  # P4 wins P5's 20 called and P1's 10
    assert recorded == data["finishing_stacks"] == [start[0] + 30, start[1] - 20, start[2] - 10]
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == recorded


def _soak_kill_past_an_empty_small_blind() -> dict[str, Any]:
    """The record of hand 8 of the soak table S21-ctd2k-count-f66a (``bench/soak.py --hands 30
    --seed 21``, casino-triple-draw-27-kill, count) as the store holds it: its events (the
    posting ones as they were; the others with only what the export reads), and the table as
    the hand began."""
    commands = [
        ({"type": "start_hand", "button": None}, [{"type": "hand_started", "button": 2,
            "dealt": [4, 5, 1], "hand_no": 8,
            "kill": {"big_bet": 40, "blind": 20, "seat": 4, "small_bet": 20}}]),
        ({"type": "action", "seat": 4, "action": "post"}, [{"type": "posted", "seat": 4,
            "amount": 20}]),
        ({"type": "action", "seat": 1, "action": "post"}, [{"type": "posted", "seat": 1,
            "amount": 10}]),
        ({"type": "action", "seat": 5, "action": "call"}, []),
        ({"type": "action", "seat": 1, "action": "fold"}, [{"type": "returned", "seat": 4,
            "amount": 10}]),
        *[({"type": "action", "seat": seat, "action": "draw", "count": count}, [])
          for seat, count in ((4, 2), (5, 4), (4, 1), (5, 5), (4, 3), (5, 0))],
        ({"type": "action", "seat": 4, "action": "muck"}, []),
    ]  # fmt: skip
    result = {"stacks": {"1": 110, "4": 770, "5": 30}, "winnings": {"5": 30}}
    seats = {4: {"player": "P4", "stack": 780}, 5: {"player": "P2", "stack": 10},
             1: {"player": "P5", "stack": 120}}  # fmt: skip
    return _soak_record("S21-ctd2k-count-f66a", 8, 190, REQUIRED_KILL, TRIPLE_DRAW_SPEC,
                        "2026-12-03T07:10:07.504086Z", commands, result, seats)  # fmt: skip


def test_KILL_04_BLIND_03_the_soak_big_blind_kill_past_an_empty_small_blind_seat_replays(
    tmp_path: Path,
) -> None:
    """The soak hand whose export was a 500 (``bench/soak.py --hands 30 --seed 21``, table
    S21-ctd2k-count-f66a, hand 8: ``GET /v1/audit/hands/S21-ctd2k-count-f66a/8?format=phh``,
    ``KeyError: 5`` in ``_blind_posters``), from its events. Replayed through the engine, the
    live hand was: the button dead on seat 2's empty seat and the small blind dead at seat
    3's (BLIND-03, WSOP 155), seat 4 the big blind and the kill (KILL-01/02: it had won the
    last two pots), seat 5 (10 chips) owing nothing, seat 1 a newcomer posting its entering
    big blind (BLIND-05). Seat 5, left of the big blind, calls all in for 10 (KILL-04, WSOP
    194: the kill acts in turn as the big blind), seat 1 folds and seat 4's 10 not called
    comes back. The export names p1 (seat 4) the big blind and the kill, the small blind dead,
    p3 the newcomer, and replays under the profile it names to the recorded stacks."""
    text = hand_to_phh(_soak_kill_past_an_empty_small_blind())
    path = tmp_path / "S21-ctd2k-count-f66a-8.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.profile is not None and result.profile.startswith(REQUIRED_KILL)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P2", "P5"] and data["starting_stacks"] == [780, 10, 120]
    assert result.finishing_stacks == [770, 30, 110] == result.expected == data["finishing_stacks"]
    assert data["_posts"] == [["big_blind", "kill"], [], ["entering_big_blind"]]
    assert data["blinds_or_straddles"] == [10, 0, 10] and data["_dead_small_blind"] == 5
    assert data["actions"][3:5] == ["p2 cc", "p3 f"]


@pytest.mark.parametrize("profile_id", [REQUIRED_KILL, OPTIONAL_KILL])
def test_KILL_04_BLIND_05_a_big_blind_kill_with_a_newcomer_posting_right_after_it_replays(
    profile_id: str,
) -> None:
    """KILL-01/04, BLIND-03/05 under the shipped profile (WSOP 194, ``kill.action =
    "in_turn"``). Seats 1, 2 and 6: seat 2 wins hands 1 and 2, the second with a full bet
    beyond the blinds (KILL-02). Hand 2's big blind (seat 1) leaves and a newcomer sits in
    seat 3. Hand 3: the button on seat 6, the small blind dead at seat 1's empty seat, seat 2
    the big blind and the kill (20), the newcomer in seat 3, right after it, posting its
    entering big blind (10, BLIND-05) and acting first, left of the big blind. The posts read
    as a small blind's kill and a big blind (the same chips, and, where the kill acts last,
    the same order); only the kill acting in turn tells them apart: a small blind's kill
    would have had seat 6 act first. Read with the hand's profile version (``rules_for``),
    the export names p1 (seat 2) the big blind and the kill, the small blind dead and p2 the
    newcomer, and replays to the recorded stacks; before, the replay refused p2's fold
    (KILL-04: "It is seat 3's turn")."""
    rules = get_profile(profile_id)
    table = Table("count", {1: 400, 2: 400, 6: 400}, profile_id, rules)
    table.start(button=1)  # seat 2, the small blind, wins a raised pot
    assert _in_turn(table, "post", "post", "fold", ("raise", 20), "fold")[3] == 2
    table.start()  # seat 2 on the button wins a bet after the draw
    _in_turn(table, "post", "post", ("raise", 20), "fold", "call", ("draw", 0), ("draw", 0))
    _in_turn(table, "check", ("bet", 10), "fold")
    table.leave(1)
    table.command(SeatPlayer(3, "P3", 400))
    hand = table.start(kill_seat=2 if profile_id == OPTIONAL_KILL else None)
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (6, None, 2)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {2: ["kill"], 3: ["entering_big_blind"], 6: []}
    assert _in_turn(table, "post", "post", "fold", "fold") == [2, 3, 3, 6]
    record = table.record(3)
    text = hand_to_phh(record, lambda profile, sha256: rules)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P6"]
    assert data["_posts"] == [["big_blind", "kill"], ["entering_big_blind"], []]
    assert data["blinds_or_straddles"] == [10, 10, 0] and data["_dead_small_blind"] == 5
    recorded = _recorded_stacks(record, text)
    hand_history = parse_phh(text)
    assert (
        finishing_stacks(replay_hand(hand_history, rules), replay_seats(hand_history)) == recorded
    )


_BETTING_WORDS = {"check", "call", "bet", "raise", "fold"}


def _soak_commands(
    started: dict[str, Any], posts: list[tuple[int, int]], steps: list[tuple[int, str, Any]]
) -> Commands:
    """A soak hand's commands for ``_soak_record``: its start, the posts (seat, chips), then
    each step (seat, action, value: a draw's discards as card text or its count, a deal's or
    a show's cards, a bet's amount); a betting action carries its engine event (the export
    reads who acted first)."""
    commands: Commands = [({"type": "start_hand", "button": None}, [started])]
    for seat, chips in posts:
        post = {"type": "action", "seat": seat, "action": "post"}
        commands.append((post, [{"type": "posted", "seat": seat, "amount": chips}]))
    for seat, name, value in steps:
        command: dict[str, Any] = {"type": "action", "seat": seat, "action": name}
        if name == "draw" and isinstance(value, str):
            command |= {"discards": value.split(), "count": len(value.split())}
        elif name == "draw":
            command["count"] = value
        elif isinstance(value, str) and value:
            command["cards"] = value.split()
        elif isinstance(value, int):
            command["amount"] = value
        commands.append((command, [command] if name in _BETTING_WORDS else []))
    return commands


def _kill_soak_record(
    where: tuple[str, int, int],
    spec: dict[str, Any],
    started_at: str,
    commands: Commands,
    outcome: dict[str, Any],
    players: dict[int, tuple[str, int, int]],
) -> dict[str, Any]:
    """``_soak_record`` of a hand of the required-kill profile: ``where`` its table, hand
    number and first seq, ``outcome`` its result but the stacks, ``players`` each seat's
    player, stack as the hand began and stack after it."""
    stacks = {str(seat): after for seat, (_, _, after) in players.items()}
    seats = {seat: {"player": name, "stack": before} for seat, (name, before, _) in players.items()}
    return _soak_record(*where, REQUIRED_KILL, spec, started_at, commands,
                        {**outcome, "stacks": stacks}, seats)  # fmt: skip


_S177_29 = [  # seat, action, cards (dealt, discarded or shown)
    (2, "deal", "8h Kd Ah 9d 8s"), (3, "deal", "2d Js 7h Qh 4c"), (6, "deal", "Jd Ad 5s 7c 7d"),
    (3, "fold", ""), (6, "call", ""), (2, "check", ""),
    (2, "draw", "8s Kd Ah 8h 9d"), (2, "deal", "Kc 3c Jh Th"), (6, "draw", "7c Ad"),
    (6, "deal", "8d Tc"), (2, "deal", "3h"), (2, "check", ""), (6, "check", ""),
    (2, "draw", "Kc"), (2, "deal", "4h"), (6, "draw", "7d"), (6, "deal", "6h"),
    (2, "check", ""), (6, "check", ""),
    (2, "draw", "3c Jh 4h"), (2, "deal", "3d Qc Td"), (6, "draw", ""),
    (2, "check", ""), (6, "check", ""),
    (2, "show", "Th 3h 3d Qc Td"), (6, "show", "Jd 5s 8d Tc 6h"),
]  # fmt: skip


def _file_replayed(path: Path, text: str, profile_id: str) -> Any:
    """``text`` written to ``path`` and replayed as ``dealerassist replay`` does, under the
    profile version it names, which must be one of ``profile_id``'s; the result, ok."""
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.profile is not None and result.profile.startswith(profile_id)
    return result


def _soak_kill_with_a_newcomer_after_it() -> dict[str, Any]:
    """The record of hand 29 of the soak table S177-ctd2k-card-ef99 (``bench/soak.py --hands
    30 --seed 177``, casino-triple-draw-27-kill, card mode) as the store holds it: its events
    (the posting ones and the betting actions as they were; the others with only what the
    export reads), and the table as the hand began."""
    started = {"type": "hand_started", "button": 6, "dealt": [2, 3, 6], "hand_no": 29,
               "kill": {"big_bet": 40, "blind": 20, "seat": 2, "small_bet": 20}}  # fmt: skip
    pots = [{"amount": 50, "eligible": [2, 6], "shares": {"6": 50}, "winners": [6]}]
    players = {2: ("P2", 1288, 1268), 6: ("P7", 595, 625), 3: ("P8", 120, 110)}
    outcome = {"pots": pots, "shown": {"2": "Th 3h 3d Qc Td", "6": "Jd 5s 8d Tc 6h"},
               "winnings": {"6": 50}}  # fmt: skip
    commands = _soak_commands(started, [(2, 20), (3, 10)], _S177_29)
    card_mode = {**TRIPLE_DRAW_SPEC, "mode": "card"}
    return _kill_soak_record(("S177-ctd2k-card-ef99", 29, 1095), card_mode,
                             "2026-12-03T10:06:06.555324Z", commands, outcome, players)  # fmt: skip


def test_KILL_04_BLIND_05_the_soak_big_blind_kill_with_a_newcomer_right_after_it_replays(
    tmp_path: Path,
) -> None:
    """The soak hand that did not replay (``bench/soak.py --hands 30 --seed 177``, table
    S177-ctd2k-card-ef99, hand 29: "KILL-04: It is seat 3's turn (kill pot: seat 1 kills and
    acts in turn); seat 2 must wait"), from its events: hand 28's big blind (seat 1) busted
    and left, a newcomer sat in seat 3; the button on seat 6, the small blind dead at seat
    1's empty seat (BLIND-03), seat 2 the big blind and the kill (KILL-01/02), the newcomer
    posting its entering big blind (BLIND-05) and acting first, left of the big blind
    (KILL-04, WSOP 194). Exported as the audit route does, with the profile version the hand
    names, it replays under that version to the recorded stacks."""
    text = hand_to_phh(_soak_kill_with_a_newcomer_after_it(), profile_version)
    result = _file_replayed(tmp_path / "S177-ctd2k-card-ef99-29.phh", text, REQUIRED_KILL)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P8", "P7"]
    assert result.finishing_stacks == [1268, 110, 625] == result.expected
    assert data["_posts"] == [["big_blind", "kill"], ["entering_big_blind"], []]
    assert data["actions"][3:6] == ["p2 f", "p3 cc", "p1 cc"]


def test_KILL_04_BLIND_03_04_a_kill_past_a_big_blind_all_in_for_less_than_a_small_blind() -> None:
    """KILL-01/04, BLIND-03/04. Seats 1, 2 (4 chips), 3 and 5: seat 3 wins hands 1 and 2,
    the second with a full bet beyond the blinds (KILL-02); hand 2's big blind (seat 1)
    leaves. Hand 3: the button on seat 5, the small blind dead at seat 1's empty seat, seat
    2 the big blind all in for 4 (less than a small blind), seat 3, past it, posts the kill
    (20) and acts first (KILL-04: in turn, from its seat). The posts read as a small blind
    all in and the big blind's kill; but a big blind never acts first before the draw, so the
    kill is past the big blind: the export names p1 (seat 2) the big blind with the small
    blind dead and p2 the kill, and replays to the recorded stacks (before, the replay
    refused p2's check: "KILL-04: It is seat 3's turn")."""
    rules = get_profile(REQUIRED_KILL)
    table = Table("count", {1: 400, 2: 4, 3: 400, 5: 400}, REQUIRED_KILL, rules)
    table.start(button=2)  # seat 3, the small blind, wins a raised pot
    assert _in_turn(table, "post", "post", "fold", "fold", ("raise", 20), "fold")[4] == 3
    table.start()  # seat 3 on the button wins a bet after the draw
    _in_turn(table, "post", "post", "fold", ("raise", 20), "fold", "call", ("draw", 0), ("draw", 0))
    _in_turn(table, "check", ("bet", 10), "fold")
    table.leave(1)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (5, None, 2)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {2: ["big_blind"], 3: ["kill"], 5: []}
    assert _in_turn(table, "post", "post", "check", "fold", *[("draw", 0)] * 6)[:4] == [2, 3, 3, 5]
    table.act(2, "show", cards="7c 5d 4h 3s 2c")
    table.act(3, "muck")
    text, recorded = _round_trip_under(table.record(3), rules)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P5"] and recorded == [8, 431, 385]
    assert data["_posts"] == [["big_blind"], ["kill"], []] and data["_dead_small_blind"] == 5
    assert data["blinds_or_straddles"] == [10, 20, 0] and data["_kill"]["player"] == 2


_S185_24 = [  # seat, action, amount or cards drawn/shown
    (3, "check", None), (5, "call", None), (2, "draw", 4), (3, "draw", 4), (5, "draw", 4),
    (3, "check", None), (5, "check", None), (2, "draw", 0), (3, "draw", 0), (5, "draw", 5),
    (3, "check", None), (5, "check", None), (2, "draw", 0), (3, "draw", 0), (5, "draw", 5),
    (3, "bet", 40), (5, "call", None), (3, "muck", None), (5, "show", "3h 8d 2d Qc 6d"),
    (2, "muck", None),
]  # fmt: skip


def _soak_kill_past_a_short_big_blind() -> dict[str, Any]:
    """The record of hand 24 of the soak table S185-ctd2k-count-93df (``bench/soak.py --hands
    30 --seed 185``, casino-triple-draw-27-kill, count mode) as the store holds it: its
    events (the posting ones and the betting actions as they were; the others with only what
    the export reads), and the table as the hand began."""
    started = {"type": "hand_started", "button": 6, "dealt": [2, 3, 5], "hand_no": 24,
               "kill": {"big_bet": 40, "blind": 20, "seat": 3, "small_bet": 20}}  # fmt: skip
    pots = [
        {"amount": 12, "eligible": [2, 3, 5], "shares": {"5": 12}, "winners": [5]},
        {"amount": 112, "eligible": [3, 5], "shares": {"5": 112}, "winners": [5]},
    ]
    players = {2: ("P2", 4, 0), 3: ("P7", 1157, 1097), 5: ("P8", 1566, 1630), 6: ("P1", 265, 265)}
    outcome = {"pots": pots, "shown": {"5": "3h 8d 2d Qc 6d"}, "winnings": {"5": 124}}
    commands = _soak_commands(started, [(2, 4), (3, 20)], _S185_24)
    return _kill_soak_record(("S185-ctd2k-count-93df", 24, 891), TRIPLE_DRAW_SPEC,
                             "2026-12-03T10:41:17.745484Z", commands, outcome, players)  # fmt: skip


def test_KILL_04_BLIND_03_04_the_soak_kill_past_a_big_blind_all_in_for_4_replays(
    tmp_path: Path,
) -> None:
    """The soak hand that did not replay (``bench/soak.py --hands 30 --seed 185``, table
    S185-ctd2k-count-93df, hand 24: "KILL-04: It is seat 3's turn (kill pot: seat 2 kills and
    acts in turn); seat 2 must wait"), from its events: hand 23's big blind (seat 1) left;
    the button on seat 6 (sitting out), the small blind dead at seat 1's empty seat, seat 2
    the big blind all in for 4 (BLIND-03/04), seat 3 the kill past it (KILL-01/02), acting
    first (KILL-04). The export names p1 the big blind and p2 the kill and replays under the
    profile version it names to the recorded stacks."""
    text = hand_to_phh(_soak_kill_past_a_short_big_blind())
    result = _file_replayed(tmp_path / "S185-ctd2k-count-93df-24.phh", text, REQUIRED_KILL)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P7", "P8"]
    assert result.finishing_stacks == [0, 1097, 1630] == result.expected
    assert data["_posts"] == [["big_blind"], ["kill"], []] and data["_dead_small_blind"] == 5


def test_BLIND_03_07_the_button_dead_between_the_small_blind_and_the_big_blind_replays() -> None:
    """BLIND-03/07/08/12 (the soak's case, below), under the shipped profile (dead button,
    WSOP 155: the big blind moves to the next player, the small blind and the button follow
    it). Hand 2: seat 1, due the big blind, sits out at the post and the big blind moves onto
    the button, seat 2 (BLIND-07), the small blind seat 3. Seat 3 then moves to seat 4
    (BLIND-12) and seat 1 comes back owing its missed big blind and the small blind dead
    (BLIND-08). Hand 3: the big blind moves on from seat 2 past seat 3's empty seat to seat
    4, the small blind follows onto seat 2, the last big blind's, and the button onto seat 3,
    the last small blind's, dead between them. Seat 1, left of the big blind, acts first
    before the draw; after it seat 4, past the button, acts first and the small blind last.
    The export numbers the players from the first seat after the button, as PHH does: p1
    (seat 4) the big blind, p2 the missed big blind made up, p3 the small blind. The reader
    refused it ("the big blind (p1) is not next to the small (p3)"): it placed the blinds of
    a dead button only after p1. The small blind the last player and the big blind p1 are
    next to each other round the table, the dead button between them: the replay places the
    last hand's blinds so (its big blind p3, its small blind the empty seat after him, the
    button now) and the engine deals the hand as it was played, to the recorded stacks."""
    rules = get_profile(TRIPLE_DRAW)
    table = Table("count", dict.fromkeys((1, 2, 3), 400), TRIPLE_DRAW, rules)
    table.start(button=1)
    table.fold_around()
    hand = table.start()
    assert _in_turn(table, "post", "sit_out", "post") == [3, 1, 2]
    table.fold_around()
    table.command(ChangeSeat(3, 4))
    table.command(ReturnToPlay(1, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 2, 4)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {4: ["big_blind"], 1: ["returning_big_blind", "dead_small_blind"],
                    2: ["small_blind"]}  # fmt: skip
    seats = _in_turn(table, "post", "post", "post", ("raise", 20), "fold", "call", ("draw", 0))
    seats += _in_turn(table, ("draw", 0), "check", ("bet", 10), "fold")
    assert seats == [2, 4, 1, 1, 2, 4, 4, 1, 4, 1, 4]
    record = table.record(3)
    text, recorded = _round_trip_under(record, rules)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P1", "P2"]
    assert data["_posts"] == [["big_blind"], ["returning_big_blind", "dead_small_blind"],
                              ["small_blind"]]  # fmt: skip
    assert data["blinds_or_straddles"] == [10, 10, 5] and data["antes"] == [0, 5, 0]
    start = data["starting_stacks"]  # P1 wins P3's 20 called and P2's small blind
    assert recorded == [start[0] - 20, start[1] + 25, start[2] - 5]
    hand = parse_phh(text)
    state = replay_hand(hand, rules)
    assert state.hand is not None
    seat_of = replay_seats(hand)
    assert (state.hand.small_blind_seat, state.hand.big_blind_seat) == (seat_of[2], seat_of[0])
    assert state.hand.button not in seat_of


@pytest.mark.parametrize("option", [None, "big_blind_only"], ids=["with-the-dead-small", "alone"])
def test_BLIND_03_06_newcomers_buying_the_button_dead_between_the_blinds_replay(
    option: str | None,
) -> None:
    """BLIND-03/06 (WSOP 158, ``between_blinds_and_button = "buy_button"``: a newcomer between
    the blinds and the button may come in at once with a big blind and the dead small blind,
    or the big blind alone and the button skips him), the layout above under the no-limit
    single draw profile: the button dead between the small blind (seat 2) and the big blind
    (seat 4), newcomers in seats 5 and 1 between them. The engine has them buy the button;
    the export names them p2 and p3 (``_posts``: a big blind with the dead small blind, or
    ``entering_big_blind`` alone), and the replay, which places the blinds as above, asks
    the same posts (the big blind alone for p2 and p3 before the small blind, p4) and
    replays to the recorded stacks."""
    profile_id = "single-draw-27-no-limit"
    rules = get_profile(profile_id)
    game = {"variant": "deuce_to_seven_single_draw", "structure": "no_limit",
            "stakes": {"small_blind": 5, "big_blind": 10}}  # fmt: skip
    table = Table("count", dict.fromkeys((1, 2, 3), 400), profile_id, rules, game)
    table.start(button=1)
    table.fold_around()
    table.start()
    assert _in_turn(table, "post", "sit_out", "post") == [3, 1, 2]
    table.fold_around()
    table.command(ChangeSeat(3, 4))
    table.leave(1)
    table.command(SeatPlayer(1, "N1", 400))
    table.command(SeatPlayer(5, "N5", 400))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 2, 4)
    buying = ["entering_big_blind", "dead_small_blind"]
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes == {4: ["big_blind"], 5: buying, 1: buying, 2: ["small_blind"]}
    assert _in_turn(table, "post", "post") == [2, 4]
    for seat in (5, 1):
        table.act(seat, "post", **({"option": option} if option else {}))
    table.fold_around()
    text, _ = _round_trip_under(table.record(3), rules)
    made_up = (
        ["returning_big_blind", "dead_small_blind"] if option is None else ["entering_big_blind"]
    )
    assert tomllib.loads(text)["_posts"] == [["big_blind"], made_up, made_up, ["small_blind"]]


def _round_trip_under(record: dict[str, Any], rules: HouseRules) -> tuple[str, list[int]]:
    """The record's PHH, replayed under ``rules`` to the recorded stacks (its
    finishing_stacks)."""
    text = hand_to_phh(record)
    recorded = _recorded_stacks(record, text)
    assert tomllib.loads(text)["finishing_stacks"] == recorded
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, rules), replay_seats(hand)) == recorded
    return text, recorded


def test_BLIND_03_07_the_soak_hand_with_the_button_dead_between_the_blinds_replays(
    tmp_path: Path,
) -> None:
    """The soak export that did not replay (``bench/soak.py --hands 30 --seed 21``, table
    S21-ctd2-count-1e2c, hand 14: "_posts: the big blind (p1) is not next to the small (p3)").
    Replayed through the engine from its events, the live hand was: hand 13's big blind
    (seat 1) sat out at the post and the big blind moved onto the button, seat 2 (BLIND-07);
    its small blind moved from seat 3 to seat 4 (BLIND-12) and seat 1 came back owing its
    missed big blind and the small blind dead (BLIND-08). Hand 14: the button dead on seat
    3's empty seat, the small blind seat 2, the big blind seat 4 (BLIND-03: the big blind
    moves to the next player, the small blind and the button follow it); seat 1 posted 15
    and acted first, seat 4 first after the draw. The export says so, as PHH numbers players
    from the button (p1 seat 4 the big blind, p2 seat 1, p3 seat 2 the small blind): the
    writer is right; the reader now replays it, under the profile it names, to the recorded
    stacks."""
    text = (
        'variant = "F2L3D"\nantes = [0, 5, 0]\nblinds_or_straddles = [10, 10, 5]\n'
        '_posts = [["big_blind"], ["returning_big_blind", "dead_small_blind"], ["small_blind"]]\n'
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [845, 660, 48]\n"
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", '
        '"p2 cbr 20", "p3 f", "p1 cc", "p1 sd ????????", "p2 sd", "d dh p1 ????????", "p1 cc", '
        '"p2 cc", "p1 sd ??????????", "p2 sd ????????", "d dh p1 ??????????", '
        '"d dh p2 ????????", "p1 cc", "p2 cc", "p1 sd", "p2 sd ????", "d dh p2 ????", "p1 cc", '
        '"p2 cbr 20", "p1 cc", "p2 sm AdQhKd2cJs", "p1 sm"]\n'
        'hand = 14\nplayers = ["P3", "P1", "P4"]\nfinishing_stacks = [805, 705, 43]\n'
        '_table_id = "S21-ctd2-count-1e2c"\n_profile_id = "casino-triple-draw-27"\n'
        f'_profile_sha256 = "{get_profile(TRIPLE_DRAW).sha256}"\n'
    )
    path = tmp_path / "S21-ctd2-count-1e2c-14.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.profile is not None and result.profile.startswith(TRIPLE_DRAW)
    assert result.finishing_stacks == [805, 705, 43] == result.expected


NO_LIMIT_SINGLE_DRAW = {"variant": "deuce_to_seven_single_draw", "structure": "no_limit",
                        "stakes": {"small_blind": 5, "big_blind": 10}}  # fmt: skip


def test_BLIND_03_04_a_short_all_in_big_blind_past_a_dead_small_blind_replays() -> None:
    """BLIND-03 (WSOP 155, dead button: the big blind moves to the next player, the small
    blind and the button follow it) and BLIND-04 (a big blind short of chips posts what he
    has, all in; the others still call the full blind), under the shipped no-limit single
    draw profile (no limping: the button raises). Hand 1: button seat 1, the blinds seats 2
    and 3. Seat 3 leaves, so in hand 2 the big blind moves on to seat 4, who has 9 chips and
    posts them all, the small blind is dead at seat 3's empty seat and the button on seat 2
    (small_blind_seat None). Nobody posts before the big blind: its 9 are the first post,
    more than a small blind. The export read them as the small blind's and named p2 (seat 1,
    who posted nothing) the big blind, so the reader had p2 act last and refused its fold
    ("It is seat 3's turn"). The big blind is p1 (the first seat after the button), the
    small blind dead (``_dead_small_blind``); seat 1 acts first and folds, the button raises
    to 22 and the 13 nobody matched come back."""
    profile_id = "single-draw-27-no-limit"
    rules = get_profile(profile_id)
    stacks = {1: 400, 2: 400, 3: 400, 4: 9}
    table = Table("count", stacks, profile_id, rules, NO_LIMIT_SINGLE_DRAW)
    table.start(button=1)
    table.fold_around()
    table.leave(3)
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 4)
    moves = ("post", "fold", ("raise", 22), ("draw", 0), ("draw", 0))
    assert _in_turn(table, *moves) == [4, 1, 2, 4, 2]
    table.act(4, "show", cards="2c 3c 4c 5c 7s")
    table.act(2, "show", cards="2d 3d 4d 5d 8h")
    text, recorded = _round_trip_under(table.record(2), rules)
    data = tomllib.loads(text)
    assert data["blinds_or_straddles"] == [10, 0, 0] and data["_dead_small_blind"] == 5
    assert "_posts" not in data and data["actions"][3:5] == ["p2 f", "p3 cbr 22"]
    assert recorded == [18, 400, 386]  # seat 4 wins 9 of the button's 22 (13 come back)


def test_BLIND_03_04_the_soak_short_big_blind_past_a_dead_small_blind_replays(
    tmp_path: Path,
) -> None:
    """The soak export that did not replay (``bench/soak.py --hands 30 --seed 33``, table
    S33-sd2nl-count-4889, hand 15: "command 10 of 14 {"seat": 2, "action": "fold"}: OPEN-01:
    It is seat 3's turn; seat 2 must wait"). Replayed through the engine from its events, the
    live hand was: hand 14's big blind (seat 5) left, so the small blind was dead at his
    empty seat (BLIND-03: small_blind_seat None), the button seat 2, the big blind seat 6
    with 9 chips, all in (BLIND-04); seat 1, left of the big blind, folded first and the
    button raised to 22, 13 of it not called. The export now names p1 (seat 6) the big
    blind and the small blind dead, and replays under the profile it names to the recorded
    stacks."""
    profile_id = "single-draw-27-no-limit"
    commands = [
        ({"type": "start_hand", "button": None}, [{"type": "hand_started", "button": 2,
            "dealt": [6, 1, 2], "hand_no": 15}]),
        ({"type": "action", "seat": 6, "action": "post"}, [{"type": "posted", "seat": 6,
            "amount": 9}]),
        ({"type": "action", "seat": 1, "action": "fold"}, []),
        ({"type": "action", "seat": 2, "action": "raise", "amount": 22},
         [{"type": "returned", "seat": 2, "amount": 13}]),
        ({"type": "action", "seat": 6, "action": "draw", "count": 0}, []),
        ({"type": "action", "seat": 2, "action": "draw", "count": 0}, []),
        ({"type": "action", "seat": 6, "action": "muck"}, []),
    ]  # fmt: skip
    result = {"stacks": {"1": 410, "2": 1138, "6": 0}, "winnings": {"2": 18},
              "returned": {"2": 13}}  # fmt: skip
    seats = {2: {"player": "P5", "stack": 1129}, 6: {"player": "P4", "stack": 9},
             1: {"player": "P6", "stack": 410}}  # fmt: skip
    record = _soak_record("S33-sd2nl-count-4889", 15, 180, profile_id, NO_LIMIT_SINGLE_DRAW,
                          "2026-12-03T07:46:29.754207Z", commands, result, seats)  # fmt: skip
    text = hand_to_phh(record)
    path = tmp_path / "S33-sd2nl-count-4889-15.phh"
    path.write_text(text, encoding="utf-8")
    result_ = replay_file(path)
    assert result_.ok, result_.error
    assert result_.profile is not None and result_.profile.startswith(profile_id)
    data = tomllib.loads(text)
    assert data["players"] == ["P4", "P6", "P5"] and data["starting_stacks"] == [9, 410, 1129]
    assert data["blinds_or_straddles"] == [10, 0, 0] and data["_dead_small_blind"] == 5
    assert result_.finishing_stacks == [0, 410, 1138] == result_.expected


def test_BLIND_08_a_missed_big_blind_made_up_all_in_for_less_replays() -> None:
    """BLIND-08 (a player who missed his big blind makes it up, live, with the small blind
    dead) and BLIND-04 (a player short of chips posts what he has, all in), under the
    shipped triple draw profile. Hand 1: seat 1, due the big blind, sits out at the post.
    He comes back with 10 chips, owing 15 (returning_big_blind, dead_small_blind); in hand 2
    he posts his 10, and the engine takes the dead small blind first (``posting.apply_post``,
    BLIND-01: dead parts first, outside the side-pot levels): 5 dead, 5 live. Everyone else
    puts in 10, so seat 1's main pot is 25 (his 5 dead, 5 from each of four players) and a
    side pot of 15 is the others'. The export wrote his 10 as a newcomer's big blind all in
    (``entering_big_blind``, all live), which replays to other pots (40 for seat 1) or not
    at all; it now writes what he owed (``_posts`` returning_big_blind, dead_small_blind:
    blind 5, ante 5, the dead part as pokerkit plays it), and replays to the recorded
    stacks."""
    rules = get_profile(TRIPLE_DRAW)
    table = Table("count", {1: 10, 2: 400, 3: 400, 4: 400}, TRIPLE_DRAW, rules)
    table.start(button=3)
    assert _in_turn(table, "post", "sit_out", "post") == [4, 1, 2]
    table.fold_around()
    table.command(ReturnToPlay(1, wait=False))
    hand = table.start()
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (4, 2, 3)
    owes = {player["seat"]: player["owes_what"] for player in hand["players"]}
    assert owes[1] == ["returning_big_blind", "dead_small_blind"]
    assert _in_turn(table, "post", "post", "post", "call", "call", "check") == [2, 3, 1, 4, 2, 3]
    for _ in range(3):
        _in_turn(table, *[("draw", 0)] * 4, "check", "check", "check")
    table.act(1, "show", cards="2c 3c 4c 5c 7d")
    table.act(2, "show", cards="2d 3d 4d 5d 8h")
    table.act(3, "muck")
    table.act(4, "muck")
    text, recorded = _round_trip_under(table.record(2), rules)
    data = tomllib.loads(text)
    assert data["_posts"][0] == ["returning_big_blind", "dead_small_blind"]
    assert data["blinds_or_straddles"] == [5, 5, 10, 0] and data["antes"] == [5, 0, 0, 0]
    assert recorded == [25, 410, 390, 385]  # seat 1 the main pot, seat 2 the side pot


def test_BLIND_08_the_soak_missed_big_blind_made_up_all_in_replays_to_the_recorded_stacks(
    tmp_path: Path,
) -> None:
    """The soak export that replayed to other stacks (``bench/soak.py --hands 30 --seed
    31``, table S31-ctd2-count-af9d, hand 23: "finishing stacks differ from the recorded
    ones (stacks [670, 1030, 40, 200], recorded [670, 1030, 25, 215])"). Replayed through
    the engine from its events, the live hand was: the small blind dead (BLIND-03), the
    button seat 2, the big blind seat 4; seat 1 came back with 10 chips owing its missed big
    blind and the small blind dead (BLIND-08) and posted them, all in: 5 dead, 5 live. Its
    main pot was 25 (eligible seats 4, 1, 2), which it won; seat 2 won the side pot of 175.
    The export named seat 1's 10 a newcomer's big blind, all live, so the replay gave it a
    main pot of 40. From its events (the posting ones as they were; the others with only
    what the export reads), the export now says what seat 1 owed and replays, under the
    profile it names, to the recorded stacks."""
    moves: list[tuple[int, str, dict[str, Any]]] = [
        (5, "call", {}), (2, "raise", {"amount": 20}), (4, "call", {}), (5, "call", {}),
        *[(seat, "draw", {"count": n}) for seat, n in ((4, 0), (5, 5), (1, 4), (2, 0))],
        (4, "bet", {"amount": 10}), (5, "call", {}), (2, "call", {}),
        *[(seat, "draw", {"count": n}) for seat, n in ((4, 1), (5, 0), (1, 0), (2, 4))],
        (4, "check", {}), (5, "check", {}), (2, "check", {}),
        *[(seat, "draw", {"count": 0}) for seat in (4, 5, 1, 2)],
        (4, "check", {}), (5, "bet", {"amount": 20}), (2, "call", {}),
        (4, "raise", {"amount": 40}), (5, "fold", {}), (2, "call", {}), (4, "muck", {}),
        (2, "show", {"cards": ["2h", "8c", "2s", "8s", "Ts"]}),
        (1, "show", {"cards": ["6d", "Qs", "5h", "9c", "Tc"]}),
    ]  # fmt: skip
    commands = [
        ({"type": "start_hand", "button": None}, [{"type": "hand_started", "button": 2,
            "dealt": [4, 5, 1, 2], "hand_no": 23}]),
        ({"type": "action", "seat": 4, "action": "post"}, [{"type": "posted", "seat": 4,
            "amount": 10}]),
        ({"type": "action", "seat": 1, "action": "post"}, [{"type": "posted", "seat": 1,
            "amount": 10}]),
        *[({"type": "action", "seat": seat, "action": name, **fields}, [])
          for seat, name, fields in moves],
    ]  # fmt: skip
    result = {
        "pots": [{"amount": 25, "eligible": [4, 1, 2], "odd_chip": None, "shares": {"1": 25},
                  "winners": [1]},
                 {"amount": 175, "eligible": [4, 2], "odd_chip": None, "shares": {"2": 175},
                  "winners": [2]}],
        "returned": {}, "shown": {"1": "6d Qs 5h 9c Tc", "2": "2h 8c 2s 8s Ts"},
        "stacks": {"1": 25, "2": 215, "4": 670, "5": 1030}, "winnings": {"1": 25, "2": 175},
    }  # fmt: skip
    seats = {1: {"player": "P6", "stack": 10}, 2: {"player": "P7", "stack": 110},
             4: {"player": "P8", "stack": 740}, 5: {"player": "P4", "stack": 1080}}  # fmt: skip
    record = _soak_record("S31-ctd2-count-af9d", 23, 584, TRIPLE_DRAW, TRIPLE_DRAW_SPEC,
                          "2026-12-03T07:47:13.675143Z", commands, result, seats)  # fmt: skip
    text = hand_to_phh(record)
    path = tmp_path / "S31-ctd2-count-af9d-23.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path)
    assert replayed.ok, replayed.error
    assert replayed.profile is not None and replayed.profile.startswith(TRIPLE_DRAW)
    data = tomllib.loads(text)
    assert data["players"] == ["P8", "P4", "P6", "P7"]
    assert data["_posts"] == [["big_blind"], [], ["returning_big_blind", "dead_small_blind"], []]
    assert data["blinds_or_straddles"] == [10, 0, 5, 0] and data["antes"] == [0, 0, 5, 0]
    assert replayed.finishing_stacks == [670, 1030, 25, 215] == replayed.expected


def _exposed_then_a_reshuffle(on_the_draw: bool) -> Table:
    """DRAW-06 (card mode, casino profile: a burn before each draw, the bottom card never
    dealt): seat 3's Jc is exposed and replaced by Qs, on the deal (IRREG-03, the house
    replaces a J) or among its first draw's cards (IRREG-04, it goes to its discards and
    Qs comes after the others'). Either way the engine took the Jc from the stub: after the
    second draw 4 cards are left, the bottom one never dealt, so in the third draw seat 2,
    drawing four, is dealt three and then one of seat 3's first discards (a reshuffle).
    Every seat shows its hand."""
    deck = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    table = Table("card", dict.fromkeys((1, 2, 3, 4), 400))
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    order = (2, 3, 4, 1)
    held = {seat: [deck.pop(0) for _ in range(5)] for seat in order}
    if on_the_draw:  # seat 3 is dealt the Jc as the first of its first draw's cards instead
        held[3][held[3].index("Jc")] = deck.pop(deck.index("5h"))
        deck.insert(4, "Jc")
    for seat in order:
        table.act(seat, "deal", cards=held[seat])
    if not on_the_draw:
        table.act(3, "exposed", cards="Jc")
        table.act(3, "deal", cards="Qs")
        held[3][held[3].index("Jc")] = deck.pop(deck.index("Qs"))
    _in_turn(table, "call", "call", "call", "check")
    first_discards: dict[int, list[str]] = {}
    for counts in ({2: 4, 3: 4, 4: 4, 1: 4}, {2: 2, 3: 2, 4: 2, 1: 2}):
        for seat in order:
            thrown, held[seat] = held[seat][: counts[seat]], held[seat][counts[seat] :]
            first_discards.setdefault(seat, thrown)
            table.act(seat, "draw", discards=thrown)
            dealt = [deck.pop(0) for _ in thrown]
            table.act(seat, "deal", cards=dealt)
            held[seat] += dealt
            if on_the_draw and "Jc" in dealt:
                table.act(seat, "exposed", cards="Jc")
                held[seat].remove("Jc")
        if on_the_draw and "Qs" not in held[3]:  # seat 3's replacement, after the others'
            table.act(3, "deal", cards="Qs")
            held[3].append(deck.pop(deck.index("Qs")))
        _check_round(table, order)
    state = table.services.tables.load(table.table_id).state  # type: ignore[union-attr]
    assert state.hand.stub == 52 - 20 - 1 - 16 - 8 - 2  # the exposed card's replacement, 2 burns
    thrown, held[2] = held[2][:4], held[2][4:]
    table.act(2, "draw", discards=thrown)
    dealt = [deck.pop(0) for _ in range(3)] + [first_discards[3][0]]
    table.act(2, "deal", cards=dealt)
    held[2] += dealt
    for seat in (3, 4, 1):
        table.act(seat, "draw", count=0)
    _check_round(table, order)
    for seat in order:
        table.act(seat, "show", cards=held[seat])
    return table


@pytest.mark.parametrize("on_the_draw", [False, True], ids=["IRREG-03", "IRREG-04"])
def test_an_exposed_card_replaced_before_a_reshuffle_replays(on_the_draw: bool) -> None:
    """IRREG-03/04 then DRAW-06: the export writes the player's cards (Qs, not the Jc) and
    our ``_exposed`` names the Jc, the deal line it came in (0: the hole cards, 1: the first
    draw's) and its replacement; the reader enters the exposed card as the dealer did, so the
    replay's stub is the dealer's and seat 2's reshuffled card is accepted. Without
    ``_exposed`` the stub holds one card more and that deal is refused (DRAW-06)."""
    table = _exposed_then_a_reshuffle(on_the_draw)
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_exposed"] == [[2, int(on_the_draw), "Jc", "Qs"]]  # seat 3 is p2
    assert "Jc" not in "".join(data["actions"][:4])
    line = [action for action in data["actions"] if action.startswith("d dh p2")][on_the_draw]
    assert "Qs" in line and "Jc" not in line
    recorded = _recorded_stacks(record, text)
    assert _replayed(text, TRIPLE_DRAW) == recorded
    assert recorded != data["starting_stacks"]
    without = text.replace(f'_exposed = [[2, {int(on_the_draw)}, "Jc", "Qs"]]\n', "")
    assert "_exposed" not in without
    with pytest.raises(InvalidInput, match="DRAW-06: 1 of these cards are discards"):
        _replayed(without, TRIPLE_DRAW)


@pytest.mark.parametrize("mode", ["count", "card"])
def test_SHOW_08_accepts_a_chopped_hand_exported_and_replayed(mode: str, tmp_path: Path) -> None:
    """Three-handed (button 1, blinds 2 and 3), seat 1 folds and the blinds chop: the export
    has the fold and no pot, ``_chopped`` names player 1 (the small blind, who entered it) and
    the finishing stacks are the starting ones; ``dealerassist replay`` of the file (under the
    profile version it names) enters the chop again and reaches them; the permissive replay
    profile, which allows no chop, refuses it with SHOW-08; the audit log verifies (hashes and
    the engine's replay of the chop)."""
    table = Table(mode, {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    if mode == "card":
        table.act(2, "deal", cards="2c 3c 4c 5c Kd")
        table.act(3, "deal", cards="2d 3d 4d 5d Kh")
        table.act(1, "deal", cards="2h 3h 4h 5h Ks")
    table.act(1, "fold")
    table.act(2, "chop")
    record = table.record(1)
    assert record["result"]["chopped"] == {"2": 5, "3": 10}
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P1"] and data["_chopped"] == 1
    assert data["actions"][-1] == "p3 f" and not any(" sm" in a for a in data["actions"])
    assert data["finishing_stacks"] == data["starting_stacks"] == [400, 400, 400]
    assert parse_phh(text).chopped == 1
    assert _replayed(text, TRIPLE_DRAW) == [400, 400, 400]
    path = tmp_path / "chopped.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path)
    assert replayed.ok and replayed.finishing_stacks == [400, 400, 400], replayed
    assert replayed.profile is not None and replayed.profile.startswith(f"{TRIPLE_DRAW}@")
    refused = replay_file(path, get_profile("replay-permissive"))
    assert not refused.ok and refused.error is not None and "SHOW-08" in refused.error
    report = verify(table.record_events(), table.services.profiles.version)
    assert report["ok"] and report["hands"] == 1, report["problems"]


def test_SHOW_08_rejects_a_chopped_field_that_names_no_player() -> None:
    """``_chopped`` must be a player of the hand: anything else is a clear InvalidInput."""
    base = (
        "variant='F2L3D'\nantes=[0,0,0]\nblinds_or_straddles=[5,10,0]\nsmall_bet=10\n"
        "big_bet=20\nstarting_stacks=[400,400,400]\nactions=['p3 f']\n"
    )
    assert parse_phh(base + "_chopped = 1\n").chopped == 1
    assert parse_phh(base).chopped == 0
    for bad in ("4", "true", '"p1"'):
        with pytest.raises(InvalidInput, match="_chopped must be the player who chopped"):
            parse_phh(base + f"_chopped = {bad}\n")


def _out_of_turn_check_accepted(mode: str) -> Table:
    """Three-handed (button 1, blinds 2 and 3): after the first draw seat 3 checks before
    seat 2, whose turn it is; the engine refuses it (OPEN-01) and the floor lets it bind
    (``accept_entry`` waiving OPEN-01); seat 2 checks, seat 1 bets, both call. Seat 2 wins
    the showdown with 7-5-4-3-2."""
    table = Table(mode, {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    if mode == "card":
        table.act(2, "deal", cards="2c 3c 4c 5c Kd")
        table.act(3, "deal", cards="2d 3d 4d 5d Kh")
        table.act(1, "deal", cards="2h 3h 4h 5h Ks")
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    if mode == "card":
        table.act(2, "draw", discards="Kd")
        table.act(2, "deal", cards="7s")
    else:
        table.act(2, "draw", count=1)
    table.act(3, "draw", count=0)
    table.act(1, "draw", count=0)
    refused = use_cases.submit_action(
        table.services, table.table_id, {"seat": 3, "action": "check"}, ACTOR, PRE
    )
    assert refused.kind is AnswerKind.REJECTED and refused.body["rule_id"] == "OPEN-01"
    check = Act(seat=3, action=ActionKind.CHECK)
    ruling = Ruling("accept_entry", rule_id="OPEN-01", effects=(AcceptEntry(check, "OPEN-01"),))
    table._check(use_cases.execute(table.services, table.table_id, ruling, FLOOR, PRE))
    table.act(2, "check")  # the turn went back to the seat skipped
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    table.act(3, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=0)
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c 7s")
    table.act(3, "show", cards="2d 3d 4d 5d Kh")
    table.act(1, "muck")
    return table


@pytest.mark.parametrize("mode", ["card", "count"])
def test_OPEN_01_an_out_of_turn_check_the_floor_accepted_is_exported_and_replayed(
    mode: str, tmp_path: Path
) -> None:
    """The check the floor let bind is written where the engine applied it (``p2 cc`` before
    ``p1 cc``), and ``_accepted`` names it and the rule waived; the reader enters it as that
    ruling, so the file replays (under the table's profile, the permissive one and the version
    it names) to the recorded stacks. Entered as an ordinary check it is refused again."""
    table = _out_of_turn_check_accepted(mode)
    text, recorded = _round_trip(table)
    assert recorded == [440, 380, 380]  # p1 (seat 2) wins the 60 chips: 30 each from p2, p3
    data = tomllib.loads(text)
    [[index, rule]] = data["_accepted"]
    assert rule == "OPEN-01"
    assert data["actions"][index : index + 4] == ["p2 cc", "p1 cc", "p3 cbr 10", "p1 cc"]
    assert parse_phh(text).accepted == ((index, "OPEN-01"),)
    path = tmp_path / "accepted.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path)
    assert replayed.ok and replayed.finishing_stacks == recorded, replayed
    without = "".join(line for line in text.splitlines(True) if not line.startswith("_accepted"))
    with pytest.raises(ReplayRefused, match="OPEN-01: It is seat 1's turn; seat 2 must wait"):
        _replayed(without, TRIPLE_DRAW)
    report = verify(table.record_events(), table.services.profiles.version)
    assert report["ok"] and report["hands"] == 1, report["problems"]


def test_a_hand_without_an_accepted_entry_writes_no_accepted_field() -> None:
    """Only a hand with an ``accept_entry`` ruling gets ``_accepted``: a hand played in turn
    is written as before."""
    table = Table("count", {1: 400, 2: 400, 3: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "fold")
    table.act(2, "fold")
    text, _ = _round_trip(table)
    assert "_accepted" not in text and parse_phh(text).accepted == ()


def test_the_soak_hand_with_an_out_of_turn_check_the_floor_accepted_replays() -> None:
    """The soak hand ``dealerassist replay`` refused (soak10, table S42-rp-card-9718, hand 8:
    seat 4, p2, checked before seat 2 after the third draw and the floor accepted it, OPEN-01
    waived; the export left the check out and the replay refused p4's bet, command 46 of 51,
    BET-08), exported again from the store: the check is action 37 and ``_accepted`` names it;
    it replays, under the profile version it names, to the recorded finishing stacks."""
    path = RECORDED / "S42-rp-card-9718-8.phh"
    hand = parse_phh(path.read_text(encoding="utf-8"))
    assert hand.accepted == ((37, "OPEN-01"),) and hand.actions[37].text == "p2 cc"
    result = replay_file(path)
    assert result.ok, result.error
    assert result.finishing_stacks == [334, 1510, 80, 920] == result.expected
    assert result.profile == f"{hand.profile_id}@{hand.profile_sha256}"


@pytest.mark.parametrize(
    "bad",
    [
        '[[9, "OPEN-01"]]',
        '[[0, "OPEN-01"]]',
        '[[1, "open"]]',
        '[[1, "OPEN-01"], [1, "BET-08"]]',
        '[1, "OPEN-01"]',
        '[["1", "OPEN-01"]]',
    ],
)
def test_accepted_must_name_a_players_action_and_a_rule(bad: str) -> None:
    """``_accepted`` entries are [index of a player's action (not a deal), rule ID], each
    action once; anything else is a clear InvalidInput."""
    base = (
        "variant='F2L3D'\nantes=[0,0,0]\nblinds_or_straddles=[5,10,0]\nsmall_bet=10\n"
        "big_bet=20\nstarting_stacks=[400,400,400]\nactions=['d dh p1 ??????????', 'p3 f']\n"
    )
    assert parse_phh(base + '_accepted = [[1, "BET-08"]]\n').accepted == ((1, "BET-08"),)
    with pytest.raises(InvalidInput, match="_accepted must be"):
        parse_phh(base + f"_accepted = {bad}\n")


def _rule(table: Table, decision: str, *effects: Any, **fields: Any) -> None:
    """A floor ruling on the table (checked to be accepted)."""
    table._check(
        use_cases.execute(
            table.services,
            table.table_id,
            Ruling(decision, effects=tuple(effects), **fields),
            FLOOR,
            PRE,
        )
    )


def _without(text: str, key: str) -> str:
    return "".join(line for line in text.splitlines(True) if not line.startswith(key))


@pytest.mark.parametrize("mode", ["card", "count"])
def test_IRREG_13_a_hand_the_floor_killed_is_exported_and_replayed(
    mode: str, tmp_path: Path
) -> None:
    """Four-handed (button 1): after the first betting round the floor kills seat 4's hand
    (IRREG-13, its 10 stay in the pot); seats 2, 3 and 1 play on and seat 2 wins the 40 with
    7-5-4-3-2. ``_ruled`` names the kill (by player number, p3) before the first draw, and the
    reader enters it there as the same ruling, so the file replays to the recorded stacks;
    without it seat 4 would be asked to draw (refused, DRAW-01)."""
    table = Table(mode, {1: 400, 2: 400, 3: 400, 4: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    if mode == "card":
        table.act(2, "deal", cards="2c 3c 4c 5c Kd")
        table.act(3, "deal", cards="2d 3d 4d 5d Kh")
        table.act(4, "deal", cards="2h 3h 4h 5h Ks")
        table.act(1, "deal", cards="6c 6d 8h 9s Ts")
    for seat, action in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        table.act(seat, action)
    _rule(table, "no_redress", KillHand(seat=4), rule_id="IRREG-13", note="fouled")
    if mode == "card":
        table.act(2, "draw", discards="Kd")
        table.act(2, "deal", cards="7s")
    else:
        table.act(2, "draw", count=1)
    table.act(3, "draw", count=0)
    table.act(1, "draw", count=0)
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1), {})
    _check_round(table, (2, 3, 1))
    table.act(2, "show", cards="2c 3c 4c 5c 7s")
    table.act(3, "show", cards="2d 3d 4d 5d Kh")
    table.act(1, "muck")
    text, recorded = _round_trip(table)
    assert recorded == [430, 390, 390, 390]  # p1 (seat 2) wins; p3 (seat 4) killed
    data = tomllib.loads(text)
    [[index, ruling]] = data["_ruled"]
    assert data["actions"][index] == "p1 sd " + ("Kd" if mode == "card" else "??")
    assert ruling == {
        "decision": "no_redress",
        "rule_id": "IRREG-13",
        "note": "fouled",
        "effects": [{"effect": "kill_hand", "player": 3}],
    }
    path = tmp_path / "killed.phh"
    path.write_text(text, encoding="utf-8")
    replayed = replay_file(path)
    assert replayed.ok and replayed.finishing_stacks == recorded, replayed
    with pytest.raises(ReplayRefused, match="DRAW-01: Seat 3 draws next; seat 4 must wait"):
        _replayed(_without(text, "_ruled"), TRIPLE_DRAW)


def test_SHOW_07_a_held_pot_the_floor_awarded_pot_by_pot_is_exported_and_replayed() -> None:
    """Seat 1 is all in for 25 (main pot 75) and seats 2 and 3 play a side pot; at the
    showdown the floor holds the pot (a show is then refused, SHOW-11, and audited), then
    releases it and gives the main pot to seat 1 and the side pot to seat 2. ``_ruled`` names
    the hold, the release and the award after the last line (the show); the file replays to
    the recorded stacks, and without them the hand is left at the showdown."""
    table = Table("count", {1: 25, 2: 200, 3: 200})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "raise", amount=20)
    table.act(2, "call")
    table.act(3, "raise", amount=30)
    table.act(1, "call")
    table.act(2, "call")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    table.act(2, "call")
    for _ in range(2):
        for seat in (2, 3, 1):
            table.act(seat, "draw", count=0)
        table.act(2, "check")
        table.act(3, "check")
    table.act(2, "show", cards="7c 5d 4h 3s 2c")
    _rule(table, "hold", HoldPot(), rule_id="SHOW-11")
    refused = use_cases.submit_action(
        table.services, table.table_id, {"seat": 3, "action": "muck"}, ACTOR, PRE
    )
    assert refused.kind is AnswerKind.REJECTED and refused.body["rule_id"] == "SHOW-11"
    _rule(table, "custom", ReleasePot(), Award(pots=((1,), (2,))), note="surveillance: ok")
    text, recorded = _round_trip(table)
    assert recorded == [190, 160, 75]  # p1 (seat 2): 160 behind and the side pot of 30
    data = tomllib.loads(text)
    assert data["actions"][-1] == "p1 sm 7c5d4h3s2c"
    assert data["_ruled"] == [
        [len(data["actions"]), {"decision": "hold", "rule_id": "SHOW-11", "effects": [
            {"effect": "hold_pot"}]}],
        [len(data["actions"]), {"decision": "custom", "note": "surveillance: ok", "effects": [
            {"effect": "release_pot"}, {"effect": "award", "pots": [[3], [1]]}]}],
    ]  # fmt: skip
    with pytest.raises(InvalidInput, match="the record ends while the hand is in phase showdown"):
        _replayed(_without(text, "_ruled"), TRIPLE_DRAW)


def test_GAME_06_stacks_the_floor_adjusted_during_the_hand_are_exported_and_replayed() -> None:
    """During the first betting round the floor adds 15 to seat 1 (they wait beside its stack,
    GAME-06), takes 3 from seat 2 and adds 5 to seat 4, who sits out: ``_ruled`` names the two
    dealt seats' adjustments, not seat 4's (no stack of the file), and the file replays to the
    recorded stacks. A late adjustment once the hand is over (IRREG-14) is not in ``_ruled``:
    the hand's result was made without it."""
    table = Table("count", {1: 400, 2: 400, 3: 400, 4: 400})
    table.command(SitOut(seat=4))
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "call")
    _rule(
        table,
        "custom",
        AdjustStack(seat=1, amount=15),
        AdjustStack(seat=2, amount=-3),
        AdjustStack(seat=4, amount=5),
        note="chip count corrected",
    )
    table.act(2, "fold")
    table.act(3, "raise", amount=20)
    table.act(1, "fold")
    _rule(table, "custom", AdjustStack(seat=2, amount=-1), note="late", hand_no=1)
    text, recorded = _round_trip(table)
    assert recorded == [392, 415, 405]  # p1 seat 2 (-5 -3), p2 seat 3 (+5 +10), p3 seat 1 (+15 -10)
    data = tomllib.loads(text)
    assert data["_ruled"] == [
        [4, {"decision": "custom", "note": "chip count corrected", "effects": [
            {"effect": "adjust_stack", "player": 3, "amount": 15},
            {"effect": "adjust_stack", "player": 1, "amount": -3}]}],
    ]  # fmt: skip
    assert data["actions"][4] == "p1 f"


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("[[3, {decision = 'custom', effects = []}]]", "_ruled must be"),
        ("[[0, {decision = 'custom'}]]", "_ruled must be"),
        ("[0, {decision = 'custom', effects = []}]", "_ruled must be"),
        ("[[0, {decision = 'no_redress', rule_id = 'IRREG-13', effects = [{effect = "
         "'kill_hand', player = 4}]}]]", "_ruled names player 4; the hand has 1..3"),
        ("[[0, {decision = 'custom', note = 'n', effects = [{effect = 'award', pots = [1]}]}]]",
         "must be a list of player numbers"),
        ("[[0, {decision = 'custom', note = 'n', effects = [{effect = 'fly'}]}]]", "effect"),
    ],
)  # fmt: skip
def test_ruled_must_name_an_action_index_and_a_ruling_of_the_hands_players(
    bad: str, why: str
) -> None:
    """``_ruled`` entries are [index 0..number of actions, ruling table with effects], each
    seat a player number of the hand; anything else is a clear InvalidInput (the replay
    reports it on the hand's line)."""
    base = (
        "variant='F2L3D'\nantes=[0,0,0]\nblinds_or_straddles=[5,10,0]\nsmall_bet=10\n"
        "big_bet=20\nstarting_stacks=[400,400,400]\nactions=['p3 f', 'p1 f']\n"
    )
    good = "_ruled = [[2, {decision = 'custom', note = 'n', effects = [{effect = 'hold_pot'}]}]]"
    assert parse_phh(base + good + "\n").ruled == (
        (2, {"decision": "custom", "note": "n", "effects": [{"effect": "hold_pot"}]}),
    )
    with pytest.raises(InvalidInput, match=why):
        hand = parse_phh(base + f"_ruled = {bad}\n")
        replay_hand(hand, get_profile("replay-permissive"))


@pytest.mark.parametrize("raise_to", [20, 0], ids=["raise", "only-bet"])
def test_IRREG_13_a_killed_raisers_uncalled_bet_goes_back_in_the_replay(raise_to: int) -> None:
    """Four-handed (button 1, blinds 2 and 3): seat 1 raises to 20 after seat 4's call (or,
    after the first draw, bets 10, the round's only bet) and the floor kills its hand before
    anyone acts on it: its uncalled chips go back (IRREG-13), so the big blind's ``cc`` after
    it is a check (and after the draw everyone checks). The reader takes the chips back from
    the killed seat's bet too, so each ``cc`` is a call or a check as the engine has it, and
    the file replays to the recorded stacks (soak seeds 141/142: refused "nothing to call",
    GAME-06, before)."""
    table = Table("count", {1: 400, 2: 400, 3: 400, 4: 400})
    table.start(button=1)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "call")
    if raise_to:
        table.act(1, "raise", amount=raise_to)
    else:
        table.act(1, "call")
        table.act(2, "call")
        table.act(3, "check")
        for seat in (2, 3, 4, 1):
            table.act(seat, "draw", count=1)
        for seat in (2, 3, 4):
            table.act(seat, "check")
        table.act(1, "bet", amount=10)
    _rule(table, "no_redress", KillHand(seat=1), rule_id="IRREG-13", note="fouled")
    if raise_to:
        table.act(2, "call")  # to the big blind's 10, which stands
        assert "check" in {o["action"] for o in _legal(table)}
        table.act(3, "check")
        for seat in (2, 3, 4):
            table.act(seat, "draw", count=1)
        _check_round(table, (2, 3, 4), {})
    else:  # the others had checked: the round is over
        for seat in (2, 3, 4):
            table.act(seat, "draw", count=0)
    _check_round(table, (2, 3, 4), {})
    _check_round(table, (2, 3, 4))
    table.act(2, "show", cards="7c 5d 4h 3s 2c")
    table.act(3, "muck")
    table.act(4, "muck")
    text, recorded = _round_trip(table)
    assert recorded == [430, 390, 390, 390]  # seat 1's 10 (its call, or the big blind's
    # call it raised) stays in the pot; its raise or bet came back
    assert "kill_hand" in text


def _legal(table: Table) -> list[dict[str, Any]]:
    state = table.services.tables.load(table.table_id).state  # type: ignore[union-attr]
    legal = legal_actions(state, table.services.profiles.get(table.profile_id), None)
    assert legal is not None
    return list(legal["legal"])


def test_DECK_06_a_boxed_card_is_named_in_the_export_and_its_replay_refused_clearly() -> None:
    """DECK-06 (WSOP 23): PHH has no card found face up in the stub. The export names it
    (``_boxed``: the player whose cards were dealt, the card), pokerkit still replays the file
    to the recorded stacks, and our reader refuses it with the reason (the stub would be one
    card off) instead of replaying it wrong."""
    table = Table("count", dict.fromkeys((1, 2, 3), 400))
    table.start(button=1)
    _in_turn(table, "post", "post", "call", "call", "check")
    table.act(2, "boxed_card")
    _in_turn(table, ("draw", 1), ("draw", 2), ("draw", 0), "check", "check", ("bet", 10))
    _in_turn(table, "fold", "fold")
    record = table.record(1)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_boxed"] == [[1, "??"]]  # seat 2 is p1, left of the button
    assert _pokerkit_stacks(text) == _recorded_stacks(record, text)
    with pytest.raises(InvalidInput, match="DECK-06"):
        parse_phh(text)


RP_CARD_SPEC = {"variant": "deuce_to_seven_triple_draw", "structure": "fixed_limit",
                "stakes": LIMIT, "mode": "card"}  # fmt: skip


def _soak_hand_s42_27() -> dict[str, Any]:
    """Hand 27 of the soak table S42-rp-card-0dff (``bench/soak.py --hands 30 --seed 42``,
    replay-permissive, card mode) as the store holds it."""
    commands = [
        (
            {"button": None, "type": "start_hand"},
            [{"button": 5, "dealt": [6, 1, 2, 3, 5], "hand_no": 27, "type": "hand_started"}],
        ),
        (
            {"action": "post", "seat": 6, "type": "action"},
            [{"amount": 5, "seat": 6, "type": "posted"}],
        ),
        (
            {"action": "post", "seat": 1, "type": "action"},
            [{"amount": 10, "seat": 1, "type": "posted"}],
        ),
        (
            {"action": "post", "seat": 2, "type": "action"},
            [{"amount": 4, "seat": 2, "type": "posted"}],
        ),
        (
            {
                "action": "deal",
                "cards": ["8s", "7c", "7h", "As", "Kh"],
                "seat": 6,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "deal",
                "cards": ["Ah", "9s", "5s", "7s", "4h"],
                "seat": 1,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "deal",
                "cards": ["9h", "Jd", "Jc", "Kd", "7d"],
                "seat": 2,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "deal",
                "cards": ["Qd", "Js", "2s", "Kc", "Qh"],
                "seat": 3,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "deal",
                "cards": ["Ks", "3h", "6c", "6d", "Td"],
                "seat": 5,
                "type": "action",
            },
            [],
        ),
        ({"action": "call", "seat": 3, "type": "action"}, []),
        (
            {
                "decision": "custom",
                "effects": [{"count": 1, "effect": "void_last"}],
                "note": "soak: misentry, void it",
                "type": "ruling",
            },
            [{"type": "voided", "actions": [{"action": "call", "seat": 3, "type": "action"}]}],
        ),
        ({"action": "raise", "amount": 20, "seat": 3, "type": "action"}, []),
        ({"action": "call", "seat": 5, "type": "action"}, []),
        ({"action": "raise", "amount": 30, "seat": 6, "type": "action"}, []),
        ({"action": "call", "seat": 1, "type": "action"}, []),
        ({"action": "call", "seat": 3, "type": "action"}, []),
        ({"action": "raise", "amount": 40, "seat": 5, "type": "action"}, []),
        ({"action": "call", "seat": 6, "type": "action"}, []),
        ({"action": "call", "seat": 1, "type": "action"}, []),
        ({"action": "call", "seat": 3, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 6, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 1, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 2, "type": "action"}, []),
        ({"action": "draw", "count": 1, "discards": ["Qh"], "seat": 3, "type": "action"}, []),
        ({"action": "deal", "cards": ["5c"], "seat": 3, "type": "action"}, []),
        (
            {
                "action": "draw",
                "count": 4,
                "discards": ["3h", "Ks", "6d", "Td"],
                "seat": 5,
                "type": "action",
            },
            [],
        ),
        ({"action": "deal", "cards": ["4d", "6h", "9d", "2h"], "seat": 5, "type": "action"}, []),
        ({"action": "check", "seat": 6, "type": "action"}, []),
        ({"action": "check", "seat": 1, "type": "action"}, []),
        ({"action": "check", "seat": 3, "type": "action"}, []),
        ({"action": "check", "seat": 5, "type": "action"}, []),
        (
            {
                "action": "draw",
                "count": 3,
                "discards": ["Kh", "7c", "7h"],
                "seat": 6,
                "type": "action",
            },
            [],
        ),
        ({"action": "deal", "cards": ["9c", "Qc", "4s"], "seat": 6, "type": "action"}, []),
        ({"action": "draw", "count": 1, "discards": ["7s"], "seat": 1, "type": "action"}, []),
        ({"action": "deal", "cards": ["6s"], "seat": 1, "type": "action"}, []),
        ({"action": "draw", "count": 1, "discards": ["Kd"], "seat": 2, "type": "action"}, []),
        ({"action": "deal", "cards": ["Jh"], "seat": 2, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 3, "type": "action"}, []),
        ({"action": "draw", "count": 2, "discards": ["6c", "4d"], "seat": 5, "type": "action"}, []),
        ({"action": "deal", "cards": ["Ts", "3s"], "seat": 5, "type": "action"}, []),
        ({"action": "check", "seat": 6, "type": "action"}, []),
        ({"action": "bet", "amount": 20, "seat": 1, "type": "action"}, []),
        ({"action": "call", "seat": 3, "type": "action"}, []),
        ({"action": "call", "seat": 5, "type": "action"}, []),
        ({"action": "call", "seat": 6, "type": "action"}, []),
        (
            {
                "action": "draw",
                "count": 3,
                "discards": ["As", "4s", "Qc"],
                "seat": 6,
                "type": "action",
            },
            [],
        ),
        ({"action": "deal", "cards": ["3d", "8h", "Th"], "seat": 6, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 1, "type": "action"}, []),
        ({"action": "draw", "discards": [], "seat": 2, "type": "action"}, []),
        (
            {
                "action": "draw",
                "count": 5,
                "discards": ["Js", "5c", "Kc", "2s", "Qd"],
                "seat": 3,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "deal",
                "cards": ["Ac", "2c", "5h", "Tc", "5d"],
                "seat": 3,
                "type": "action",
            },
            [],
        ),
        ({"action": "draw", "count": 1, "discards": ["6h"], "seat": 5, "type": "action"}, []),
        ({"action": "deal", "cards": ["2d"], "seat": 5, "type": "action"}, []),
        ({"action": "check", "seat": 6, "type": "action"}, []),
        ({"action": "bet", "amount": 20, "seat": 1, "type": "action"}, []),
        ({"action": "call", "seat": 3, "type": "action"}, []),
        ({"action": "call", "seat": 5, "type": "action"}, []),
        ({"action": "call", "seat": 6, "type": "action"}, []),
        (
            {
                "action": "show",
                "cards": ["Ah", "9s", "5s", "4h", "6s"],
                "seat": 1,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "show",
                "cards": ["Ac", "2c", "5h", "Tc", "5d"],
                "seat": 3,
                "type": "action",
            },
            [],
        ),
        ({"action": "muck", "seat": 5, "type": "action"}, []),
        (
            {
                "action": "show",
                "cards": ["8s", "9c", "3d", "8h", "Th"],
                "seat": 6,
                "type": "action",
            },
            [],
        ),
    ]
    result = {
        "pots": [
            {
                "amount": 324,
                "eligible": [6, 1, 3, 5],
                "odd_chip": None,
                "shares": {"1": 324},
                "winners": [1],
            }
        ],
        "returned": {},
        "shown": {"1": "Ah 9s 5s 4h 6s", "3": "Ac 2c 5h Tc 5d", "6": "8s 9c 3d 8h Th"},
        "stacks": {"1": 340, "2": 0, "3": 827, "4": 315, "5": 1155, "6": 370},
        "winnings": {"1": 324},
    }
    seats = {1: {"player": "P7", "stack": 96}, 2: {"player": "P2", "stack": 4},
             3: {"player": "P3", "stack": 907}, 4: {"player": "P1", "stack": 315},
             5: {"player": "P5", "stack": 1235}, 6: {"player": "P6", "stack": 450}}  # fmt: skip
    return _soak_record("S42-rp-card-0dff", 27, 1081, "replay-permissive", RP_CARD_SPEC,
                        "2026-12-03T08:12:55.691157Z", commands, result, seats)  # fmt: skip


def test_BLIND_09_04_the_soak_dead_small_blind_made_up_all_in_for_less_replays(
    tmp_path: Path,
) -> None:
    """BLIND-09 with BLIND-04 (the soak: ``bench/soak.py --hands 30 --seed 42``, table
    S42-rp-card-0dff, hand 27: "InvalidInput: blinds_or_straddles [5, 10, 4, 0, 0]"). Seat 2
    missed the small blind (hand 26, sitting out) and comes back owing it dead (BLIND-09:
    a missed small blind is made up dead, it plays no part in the betting) with 4 chips: it
    posts all 4, dead (``posting.apply_post``: dead parts first; all in for less, BLIND-04),
    and no pot names it eligible. The export read 4, neither a small blind nor both blinds,
    as a live blind of p3 that ``_posts`` did not name, which the reader refused. The pots
    tell it from a newcomer's big blind all in for 4 (live, in the main pot): p3's 4 is its
    ante (dead) with ``_posts`` ``dead_small_blind``, and the hand replays to the recorded
    stacks."""
    text = hand_to_phh(_soak_hand_s42_27())
    data = tomllib.loads(text)
    assert data["blinds_or_straddles"] == [5, 10, 0, 0, 0]
    assert data["antes"] == [0, 0, 4, 0, 0]
    assert data["_posts"] == [["small_blind"], ["big_blind"], ["dead_small_blind"], [], []]
    path = tmp_path / "S42-rp-card-0dff-27.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.finishing_stacks == [370, 340, 0, 827, 1155] == result.expected


def _soak_hand_s43_4() -> dict[str, Any]:
    """Hand 4 of the soak table S43-ctd2ok-count-fcda (``bench/soak.py --hands 30 --seed 43``,
    casino-triple-draw-27-optional-kill, count mode) as the store holds it."""
    commands = [
        (
            {"button": None, "type": "start_hand"},
            [{"button": 4, "dealt": [6, 2, 3, 4], "hand_no": 4, "type": "hand_started"}],
        ),
        (
            {"action": "post", "seat": 6, "type": "action"},
            [{"amount": 5, "seat": 6, "type": "posted"}],
        ),
        ({"action": "raise", "amount": 20, "seat": 2, "type": "action"}, []),
        ({"action": "raise", "amount": 30, "seat": 3, "type": "action"}, []),
        ({"action": "fold", "seat": 4, "type": "action"}, []),
        ({"action": "call", "seat": 2, "type": "action"}, []),
        ({"action": "draw", "count": 3, "seat": 6, "type": "action"}, []),
        ({"action": "draw", "seat": 2, "type": "action"}, []),
        ({"action": "draw", "count": 2, "seat": 3, "type": "action"}, []),
        ({"action": "check", "seat": 2, "type": "action"}, []),
        ({"action": "check", "seat": 3, "type": "action"}, []),
        ({"action": "draw", "seat": 6, "type": "action"}, []),
        ({"action": "draw", "seat": 2, "type": "action"}, []),
        ({"action": "draw", "seat": 3, "type": "action"}, []),
        ({"action": "check", "seat": 2, "type": "action"}, []),
        ({"action": "check", "seat": 3, "type": "action"}, []),
        ({"action": "draw", "count": 1, "seat": 6, "type": "action"}, []),
        ({"action": "draw", "count": 2, "seat": 2, "type": "action"}, []),
        ({"action": "draw", "count": 1, "seat": 3, "type": "action"}, []),
        ({"action": "check", "seat": 2, "type": "action"}, []),
        ({"action": "check", "seat": 3, "type": "action"}, []),
        ({"action": "muck", "seat": 2, "type": "action"}, []),
        (
            {
                "action": "show",
                "cards": ["3s", "Kh", "Jc", "9d", "Tc"],
                "seat": 3,
                "type": "action",
            },
            [],
        ),
        (
            {
                "action": "show",
                "cards": ["3c", "Ks", "Kd", "4h", "8d"],
                "seat": 6,
                "type": "action",
            },
            [],
        ),
    ]
    result = {
        "pots": [
            {
                "amount": 15,
                "eligible": [6, 2, 3],
                "odd_chip": None,
                "shares": {"3": 15},
                "winners": [3],
            },
            {
                "amount": 50,
                "eligible": [2, 3],
                "odd_chip": None,
                "shares": {"3": 50},
                "winners": [3],
            },
        ],
        "returned": {},
        "shown": {"3": "3s Kh Jc 9d Tc", "6": "3c Ks Kd 4h 8d"},
        "stacks": {"2": 410, "3": 880, "4": 70, "6": 0},
        "winnings": {"3": 65},
    }
    seats = {2: {"player": "P2", "stack": 440}, 3: {"player": "P3", "stack": 845},
             4: {"player": "P5", "stack": 70}, 6: {"player": "P4", "stack": 5}}  # fmt: skip
    return _soak_record("S43-ctd2ok-count-fcda", 4, 104, OPTIONAL_KILL, TRIPLE_DRAW_SPEC,
                        "2026-12-03T08:10:23.520353Z", commands, result, seats)  # fmt: skip


def test_BLIND_03_04_the_soak_big_blind_all_in_for_a_small_blind_past_a_dead_small_blind(
    tmp_path: Path,
) -> None:
    """BLIND-03 with BLIND-04 (the soak: ``bench/soak.py --hands 30 --seed 43``, table
    S43-ctd2ok-count-fcda, hand 4: "OPEN-01: It is seat 3's turn; seat 2 must wait"). Hand
    3's big blind (seat 5) left, so the small blind is dead at his empty seat (BLIND-03: no
    small blind is posted), the button seat 4, and the big blind seat 6 with 5 chips posts
    them all (BLIND-04: all in for less). The hand's only post, 5, is a small blind's
    amount: the export named seat 6 the small blind and, with no second post, put the big
    blind of the stakes on p2 (seat 2), who posted nothing, so the replay had seat 3 act
    first. A hand's only post, all of a seat's chips, is the big blind (a small blind is
    always followed by a big blind's post): p1 the big blind for 5, the small blind dead
    (``_dead_small_blind``), and the hand replays to the recorded stacks."""
    text = hand_to_phh(_soak_hand_s43_4())
    data = tomllib.loads(text)
    assert data["blinds_or_straddles"] == [10, 0, 0, 0] and data["_dead_small_blind"] == 5
    assert data["starting_stacks"] == [5, 440, 845, 70]
    path = tmp_path / "S43-ctd2ok-count-fcda-4.phh"
    path.write_text(text, encoding="utf-8")
    result = replay_file(path)
    assert result.ok, result.error
    assert result.finishing_stacks == [0, 410, 880, 70] == result.expected
