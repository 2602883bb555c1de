"""Table state values: lossless JSON, phases, seat order."""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

import pytest
from engine_table import Table

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.actions import Mode, Variant
from dealerassist.rules.model.state import (
    MissedBlind,
    Owed,
    Phase,
    TableState,
    betting_phase,
    draw_phase,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.model.violations import RuleId


def test_a_card_mode_triple_draw_state_round_trips_through_json() -> None:
    """Cards, piles and per-round counts survive to_dict / JSON / from_dict."""
    table = Table([100, 100], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, mode=Mode.CARD)
    table.start(button=2)
    table.act(1, "deal", cards="2c 3c 4c 5c 7d")
    table.act(2, "deal", cards="Ah Ad Ac Kd Ks")
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", discards="7d", cards="8h")
    data = json.loads(json.dumps(table.state.to_dict()))
    assert TableState.from_dict(data) == table.state
    assert data["hand"]["players"][0]["pile_cards"] == [["7d"]]


def _reference_json(value: Any) -> Any:
    """The state as JSON values by a plain walk over its dataclass fields (what the
    generated ``to_dict`` code must produce, key order included); a field marked
    ``OMIT_AT_DEFAULT`` is left out while it holds its default (kill pots: see below)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _reference_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get("omit_at_default") and getattr(value, f.name) == f.default)
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_reference_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _reference_json(item) for key, item in value.items()}
    return value


def test_to_dict_is_every_field_in_order_at_every_step_of_a_hand() -> None:
    """The generated encoders leave out nothing and keep the field order (the journal's
    snapshot is encoded without sorting), from seating to a showdown with piles."""
    table = Table([100, 100, 100], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, mode=Mode.CARD)
    states = [table.state]
    table.start(button=3)
    for seat, cards in ((1, "2c 3c 4c 5c 7d"), (2, "Ah Ad Ac Kd Ks"), (3, "9h 9d 9c 9s Qd")):
        table.act(seat, "deal", cards=cards)
        states.append(table.state)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", discards="7d", cards="8h")
    states += [table.state]
    for state in states:
        data = state.to_dict()
        assert json.dumps(data) == json.dumps(_reference_json(state))
        assert TableState.from_dict(json.loads(json.dumps(data))) == state


def _with_closed_sets(state: TableState, *, typed: bool) -> TableState:
    """The state with a missed blind, a seat waiting, a seat not dealt in and the floor's
    wait set: as the StrEnum members (``typed``) or as the plain strings stored before."""
    big, blind_08 = (MissedBlind.BIG, RuleId.BLIND_08) if typed else ("big", "BLIND-08")
    open_08, irreg_04 = (RuleId.OPEN_08, RuleId.IRREG_04) if typed else ("OPEN-08", "IRREG-04")
    seats = (dataclasses.replace(state.seats[0], missed_blind=big, waiting=blind_08),)
    assert state.hand is not None
    hand = dataclasses.replace(state.hand, waiting=((3, open_08),), floor_wait=irreg_04)
    return dataclasses.replace(state, seats=seats + state.seats[1:], hand=hand)


def test_closed_set_fields_are_str_enums_with_the_json_of_their_strings() -> None:
    """BLIND-07/08, OPEN-08, IRREG-04: the missed blind, the rule a seat waits on, the rule a
    seat sits a hand out by and the rule the hand waits on the floor for encode byte for byte
    as the strings stored before them, and decode to the StrEnum members; a value outside the
    set is refused as a broken state."""
    table = Table([100, 100, 100])
    table.start(button=1)
    typed = _with_closed_sets(table.state, typed=True)
    text = json.dumps(typed.to_dict(), sort_keys=True)
    assert text == json.dumps(_with_closed_sets(table.state, typed=False).to_dict(), sort_keys=True)
    back = TableState.from_dict(json.loads(text))
    assert back == typed and back.hand is not None
    assert back.seats[0].missed_blind is MissedBlind.BIG
    assert back.seats[0].waiting is RuleId.BLIND_08
    assert back.hand.waiting == ((3, RuleId.OPEN_08),) and back.hand.waiting[0][1] is RuleId.OPEN_08
    assert back.hand.floor_wait is RuleId.IRREG_04
    broken = json.loads(text)
    broken["seats"][0]["missed_blind"] = "medium"
    with pytest.raises(InvalidInput):
        TableState.from_dict(broken)


def _owing(state: TableState, parts: tuple[Any, ...]) -> TableState:
    """The state with the first seat dealt in owing ``parts`` (members or plain strings)."""
    assert state.hand is not None
    first = dataclasses.replace(state.hand.players[0], owes_what=parts)
    return dataclasses.replace(state, hand=state.hand.with_player(first))


@pytest.mark.parametrize("owed", list(Owed))
def test_every_owes_value_round_trips_through_the_state_json_as_its_enum(owed: Owed) -> None:
    """BLIND-01..14, KILL-01: each part a seat may owe (or has posted) encodes as the string
    stored before ``Owed`` typed it, alone and among the others, and decodes to its member."""
    table = Table([100, 100, 100])
    table.start(button=1)
    assert table.state.hand is not None
    assert all(type(part) is Owed for p in table.state.hand.players for part in p.owes_what)
    for parts in ((owed,), tuple(Owed)):
        typed = _owing(table.state, parts)
        text = json.dumps(typed.to_dict())
        assert text == json.dumps(_owing(table.state, tuple(p.value for p in parts)).to_dict())
        back = TableState.from_dict(json.loads(text))
        assert back == typed and back.hand is not None
        assert back.hand.players[0].owes_what == parts
        assert all(type(part) is Owed for part in back.hand.players[0].owes_what)


def test_an_owes_value_outside_the_set_is_a_broken_state() -> None:
    """``owes_what`` holds ``Owed`` values only: any other string is refused."""
    table = Table([100, 100, 100])
    table.start(button=1)
    data = table.state.to_dict()
    data["hand"]["players"][0]["owes_what"] = ["big_blind", "bring_in"]
    with pytest.raises(InvalidInput):
        TableState.from_dict(data)


def test_a_broken_state_dict_is_invalid_input() -> None:
    """from_dict refuses unknown fields with InvalidInput."""
    data = Table([100, 100]).state.to_dict()
    data["surprise"] = 1
    with pytest.raises(InvalidInput):
        TableState.from_dict(data)


def test_a_remembered_spec_is_not_taken_for_a_malformed_one() -> None:
    """A spec decoded before does not let the same spec with 6.0 seats or a string ante pass."""
    data = Table([100, 100]).state.to_dict()
    assert TableState.from_dict(data).spec == Table([100, 100]).state.spec
    for key, value in (("max_seats", 6.0), ("stakes", {**data["spec"]["stakes"], "ante": "0"})):
        broken = {**data, "spec": {**data["spec"], key: value}}
        with pytest.raises(InvalidInput):
            TableState.from_dict(broken)


def test_missing_or_unhashable_spec_fields_are_invalid_input() -> None:
    """A spec without stakes, or with a list for a value, is refused like any bad spec."""
    data = Table([100, 100]).state.to_dict()
    for spec in (
        {k: v for k, v in data["spec"].items() if k != "stakes"} | {"stakes": 5},
        {**data["spec"], "table_id": ["T1"]},
    ):
        with pytest.raises(InvalidInput):
            TableState.from_dict({**data, "spec": spec})


def test_phase_names_follow_the_round_numbers() -> None:
    """betting_n / draw_n and back."""
    assert betting_phase(4) is Phase.BETTING_4
    assert draw_phase(3) is Phase.DRAW_3
    assert phase_number(Phase.BETTING_2) == 2
    assert phase_number(Phase.SHOWDOWN) == 0


@pytest.mark.parametrize("phase", list(Phase))
def test_phase_predicates_agree_with_the_phase_names(phase: Phase) -> None:
    """is_betting / is_draw / phase_number (looked up, not parsed) match each phase's name."""
    head, _, tail = phase.value.partition("_")
    assert is_betting(phase) is (head == "betting")
    assert is_draw(phase) is (head == "draw")
    assert phase_number(phase) == (int(tail) if head in ("betting", "draw") else 0)


def test_seats_from_goes_clockwise_after_a_seat() -> None:
    """Seat order wraps around the table."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    assert table.hand.seats_from(3) == [4, 1, 2, 3]
