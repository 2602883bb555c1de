"""Commands and their JSON form: command_from_dict / command_to_dict."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    CreateTable,
    Mode,
    RemovePlayer,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
    command_from_dict,
    command_to_dict,
    normalise_cards,
)

SPEC = TableSpec(
    "T7",
    Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
    Structure.FIXED_LIMIT,
    Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20),
    "casino-triple-draw-27",
    6,
    Mode.CARD,
)
COMMANDS = [
    CreateTable(SPEC),
    SeatPlayer(3, "Alice", 200),
    RemovePlayer(3),
    StartHand(),
    StartHand(button=4),
    StartHand(kill_seat=3),  # KILL-01: a voluntary kill
    StartHand(button=4, kill_seat=2),
    Act(3, ActionKind.RAISE, amount=40),
    Act(2, ActionKind.DRAW, count=4, ace_shown=True),
    Act(2, ActionKind.DRAW, discards=("7h", "Kd"), cards=("2c", "3c")),
    Act(1, ActionKind.SHOW, cards=("7h", "5s", "4d", "3c", "2d")),
]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_round_trips_through_its_dict(command: object) -> None:
    """command_from_dict(command_to_dict(c)) == c for every command type."""
    assert command_from_dict(command_to_dict(command)) == command  # type: ignore[arg-type]


def test_a_minimal_action_dict_gets_defaults() -> None:
    """Only type, seat and action are required; cards may be one string."""
    command = command_from_dict(
        {"type": "action", "seat": 2, "action": "show", "cards": "7h 5s 4d 3c 2d"}
    )
    assert command == Act(2, ActionKind.SHOW, cards=("7h", "5s", "4d", "3c", "2d"))


def test_start_hand_without_a_kill_encodes_as_before_kill_seat_existed() -> None:
    """A start_hand without kill_seat has no kill_seat key, so the journal entries and audit
    events recorded before the voluntary kill keep their bytes (and their hashes)."""
    assert command_to_dict(StartHand()) == {"type": "start_hand", "button": None}
    assert command_to_dict(StartHand(button=4)) == {"type": "start_hand", "button": 4}
    assert command_to_dict(StartHand(kill_seat=3)) == {
        "type": "start_hand",
        "button": None,
        "kill_seat": 3,
    }
    assert command_from_dict({"type": "start_hand", "kill_seat": None}) == StartHand()


def test_create_table_accepts_the_http_field_name_profile() -> None:
    """The spec may name its profile `profile` (HTTP body) or `profile_id`."""
    data = command_to_dict(CreateTable(SPEC))
    data["spec"]["profile"] = data["spec"].pop("profile_id")
    assert command_from_dict(data) == CreateTable(SPEC)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "dance"},
        {"type": "seat", "seat": 0, "player": "A", "stack": 10},
        {"type": "seat", "seat": 1, "player": "A", "stack": -1},
        {"type": "seat", "seat": True, "player": "A", "stack": 10},
        {"type": "action", "seat": 1, "action": "jump"},
        {"type": "action", "seat": 1, "action": "bet", "amount": "ten"},
        {"type": "action", "seat": 1, "action": "show", "cards": "7hh"},
        {"type": "leave", "seat": 1, "extra": 1},
        {"type": "start_hand", "kill_seat": 0},
        {"type": "start_hand", "kill_seat": "3"},
        {"type": "create_table", "spec": {"table_id": "T", "variant": "holdem"}},
    ],
)
def test_a_bad_shape_is_invalid_input(data: dict[str, object]) -> None:
    """Unknown types, fields and values raise InvalidInput, never a bare error."""
    with pytest.raises(InvalidInput):
        command_from_dict(data)


def test_cards_are_normalised_to_rank_upper_suit_lower() -> None:
    """Card text is split and cased once at the edge; ?? stays unknown."""
    assert normalise_cards("7H5sTD??") == ("7h", "5s", "Td", "??")


CARDS = st.sampled_from(["7h", "Ks", "2c", "Td", "As", "??"])


@settings(max_examples=80, deadline=None)
@given(
    seat=st.integers(1, 10),
    action=st.sampled_from(list(ActionKind)),
    amount=st.none() | st.integers(0, 10**6),
    count=st.none() | st.integers(0, 5),
    ace_shown=st.booleans(),
    cards=st.none() | st.lists(CARDS, max_size=5).map(tuple),
    discards=st.none() | st.lists(CARDS, max_size=5).map(tuple),
)
def test_any_action_round_trips_through_json(
    seat: int,
    action: ActionKind,
    amount: int | None,
    count: int | None,
    ace_shown: bool,
    cards: tuple[str, ...] | None,
    discards: tuple[str, ...] | None,
) -> None:
    """Every Act survives command_to_dict -> JSON text -> command_from_dict unchanged."""
    act = Act(seat, action, amount, count, ace_shown, cards, discards)
    assert command_from_dict(json.loads(json.dumps(command_to_dict(act)))) == act


def test_an_action_encodes_its_keys_in_the_journal_order() -> None:
    """An act's JSON keeps its fixed key order (the journal is not key-sorted and its bytes are
    hashed); option and rank come last, and only when set."""
    plain = Act(3, ActionKind.CALL, amount=20)
    assert json.dumps(command_to_dict(plain)) == (
        '{"type": "action", "seat": 3, "action": "call", "amount": 20, "count": null, '
        '"ace_shown": false, "cards": null, "discards": null}'
    )
    exposed = Act(2, ActionKind.EXPOSED, option="keep", rank="7")
    assert list(command_to_dict(exposed))[-2:] == ["option", "rank"]
    assert command_to_dict(Act(2, ActionKind.EXPOSED, rank="T"))["rank"] == "T"
    assert "option" not in command_to_dict(Act(2, ActionKind.EXPOSED, rank="T"))
