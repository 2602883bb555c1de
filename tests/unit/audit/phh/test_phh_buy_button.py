"""BLIND-06 buy the button (WSOP 158) in PHH: a newcomer between the button and the small
blind who buys in with the big blind alone, exported with ``hand_to_phh`` and replayed with
``dealerassist replay``'s code to the stacks the service recorded."""

from __future__ import annotations

import tomllib
import warnings
from typing import Any

import pokerkit
import pytest
from fakes import fake_services

from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh.reader import parse_phh, replay_seats
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.profiles import get_profile
from dealerassist.replay import finishing_stacks, replay_hand
from dealerassist.rules.engine import legal_actions
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import AnswerKind, Services

PROFILE = "single-draw-27-no-limit"  # between_blinds_and_button = "buy_button"
ACTOR = use_cases.Actor("dealer-1", "dealer")
PRE = use_cases.Preconditions()
SPEC = {
    "table_id": "R1",
    "variant": "deuce_to_seven_single_draw",
    "structure": "no_limit",
    "stakes": {"small_blind": 5, "big_blind": 10},
    "profile_id": PROFILE,
    "mode": "count",
}


def _ok(answer: Any) -> Any:
    assert answer.kind is not AnswerKind.REJECTED, answer.body
    return answer


def _act(services: Services, seat: int, action: str, **fields: Any) -> None:
    body = {"seat": seat, "action": action, **fields}
    _ok(use_cases.submit_action(services, "R1", body, ACTOR, PRE))


def _bought_in(option: str | None) -> dict[str, Any]:
    """Seats 1, 3, 4, 5 play hand 1 (button 5); a newcomer takes seat 2, between the button
    (1) and the small blind (3) of hand 2, and buys in there (``option``: None the big blind
    and the dead small blind, "big_blind_only" the big blind alone); all fold to the big
    blind. The record of hand 2."""
    services = fake_services({PROFILE: get_profile(PROFILE)})
    _ok(use_cases.create_table(services, SPEC, ACTOR, PRE))
    for seat in (1, 3, 4, 5):
        _ok(use_cases.seat_player(services, "R1", seat, f"P{seat}", 400, ACTOR, PRE))
    _ok(use_cases.start_hand(services, "R1", 5, ACTOR, PRE))
    for seat, action in ((1, "post"), (3, "post"), (4, "fold"), (5, "fold"), (1, "fold")):
        _act(services, seat, action)
    _ok(use_cases.seat_player(services, "R1", 2, "P2", 300, ACTOR, PRE))
    _ok(use_cases.start_hand(services, "R1", None, ACTOR, PRE))
    _act(services, 3, "post")
    _act(services, 4, "post")
    _act(services, 2, "post", **({"option": option} if option else {}))
    while True:
        state = services.tables.load("R1").state  # type: ignore[union-attr]
        legal = legal_actions(state, services.profiles.get(PROFILE), None)
        if legal is None:
            break
        _act(services, legal["seat"], "fold")
    events = services.tables.staged  # type: ignore[attr-defined]
    return next(hand for hand in hand_records(events) if hand["hand_no"] == 2)


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about unknown cards
        states = list(pokerkit.HandHistory.loads(text))
    return list(states[-1].stacks)


def test_BLIND_06_accepts_the_big_blind_alone_replayed_from_phh() -> None:
    """The newcomer's 10 are all he posted (no dead small blind): ``_posts`` names an entering
    big blind alone, and the reader posts it with ``big_blind_only`` (a plain post would
    charge the bought button's dead small blind too), so the hand replays to the recorded
    stacks under the table's profile; pokerkit agrees."""
    record = _bought_in("big_blind_only")
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P2", "P3", "P4", "P5", "P1"]
    assert data["_posts"] == [["entering_big_blind"], ["small_blind"], ["big_blind"], [], []]
    assert data["blinds_or_straddles"] == [10, 5, 10, 0, 0] and data["antes"] == [0] * 5
    recorded = data["finishing_stacks"]
    assert recorded[0] == 300 - 10
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, get_profile(PROFILE)), 5) == recorded
    assert _pokerkit_stacks(text) == recorded


def test_BLIND_06_rejects_reading_a_bought_button_as_the_big_blind_alone() -> None:
    """The full buy (a big blind and the dead small blind, 15) is still replayed as posted:
    the reader keeps the plain post for it, and the dead 5 are charged."""
    record = _bought_in(None)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["_posts"][0] == ["returning_big_blind", "dead_small_blind"]
    recorded = data["finishing_stacks"]
    assert recorded[0] == 300 - 15
    hand = parse_phh(text)
    assert finishing_stacks(replay_hand(hand, get_profile(PROFILE)), 5) == recorded


def _bought_in_before_a_dead_small_blind(option: str | None) -> dict[str, Any]:
    """Seats 1, 2, 4 play hand 1 (button 1, blinds 2 and 4); the big blind (seat 4) leaves and
    a newcomer takes seat 3. Hand 2 (dead button): the big blind moves on to seat 1, the small
    blind is dead at the empty seat 4, the button on seat 2; the newcomer, between the button
    and the dead small blind, buys in (``option`` as ``_bought_in``); all fold to the big
    blind. The record of hand 2."""
    services = fake_services({PROFILE: get_profile(PROFILE)})
    _ok(use_cases.create_table(services, SPEC, ACTOR, PRE))
    for seat in (1, 2, 4):
        _ok(use_cases.seat_player(services, "R1", seat, f"P{seat}", 400, ACTOR, PRE))
    _ok(use_cases.start_hand(services, "R1", 1, ACTOR, PRE))
    for seat, action in ((2, "post"), (4, "post"), (1, "fold"), (2, "fold")):
        _act(services, seat, action)
    _ok(use_cases.remove_player(services, "R1", 4, ACTOR, PRE))
    _ok(use_cases.seat_player(services, "R1", 3, "P3", 300, ACTOR, PRE))
    hand = _ok(use_cases.start_hand(services, "R1", None, ACTOR, PRE)).body["hand"]
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 1)
    _act(services, 1, "post")
    _act(services, 3, "post", **({"option": option} if option else {}))
    while True:
        state = services.tables.load("R1").state  # type: ignore[union-attr]
        legal = legal_actions(state, services.profiles.get(PROFILE), None)
        if legal is None:
            break
        _act(services, legal["seat"], "fold")
    events = services.tables.staged  # type: ignore[attr-defined]
    return next(hand for hand in hand_records(events) if hand["hand_no"] == 2)


@pytest.mark.parametrize(
    ("option", "posts", "paid"),
    [
        ("big_blind_only", ["entering_big_blind"], 10),
        (None, ["returning_big_blind", "dead_small_blind"], 15),
    ],
)
def test_BLIND_06_a_button_bought_before_a_small_blind_dead_at_an_empty_seat_replays(
    option: str | None, posts: list[str], paid: int
) -> None:
    """The newcomer is p1 and the big blind p2, with the dead small blind at an empty seat
    between them: the reader leaves that seat empty, and posts the big blind alone with
    ``big_blind_only`` (a plain post for the full buy), so the hand replays to the recorded
    stacks under the table's profile (refused before: the replay seated p1..pn side by
    side); pokerkit agrees."""
    record = _bought_in_before_a_dead_small_blind(option)
    text = hand_to_phh(record)
    data = tomllib.loads(text)
    assert data["players"] == ["P3", "P1", "P2"]
    assert data["_posts"] == [posts, ["big_blind"], []]
    recorded = data["finishing_stacks"]
    assert recorded[0] == 300 - paid
    hand = parse_phh(text)
    assert replay_seats(hand) == (1, 3, 4)
    assert finishing_stacks(replay_hand(hand, get_profile(PROFILE)), replay_seats(hand)) == recorded
    assert _pokerkit_stacks(text) == recorded
