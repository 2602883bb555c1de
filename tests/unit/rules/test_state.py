"""Table state values: lossless JSON, phases, seat order."""

from __future__ import annotations

import json

import pytest
from engine_table import Table

from dealerassist.errors import InvalidInput
from dealerassist.rules.actions import Mode, Variant
from dealerassist.rules.state import Phase, TableState, betting_phase, draw_phase, phase_number


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


def test_seats_from_goes_clockwise_after_a_seat() -> None:
    """Seat order wraps around the table."""
    table = Table([100, 100, 100, 100])
    table.start(button=1)
    assert table.hand.seats_from(3) == [4, 1, 2, 3]
