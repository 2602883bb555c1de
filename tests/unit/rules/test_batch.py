"""apply_many and replay: a run of commands is apply repeated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from engine_table import AT, Table

from dealerassist.rules.batch import apply_many, replay
from dealerassist.rules.engine import apply
from dealerassist.rules.model.actions import Act, ActionKind, Command, StartHand
from dealerassist.rules.model.violations import RuleViolation


def _hand_commands() -> list[Command]:
    return [
        StartHand(1),
        Act(2, ActionKind.POST),
        Act(3, ActionKind.POST),
        Act(1, ActionKind.RAISE, amount=20),
        Act(2, ActionKind.FOLD),
        Act(3, ActionKind.FOLD),
    ]


def test_apply_many_of_one_command_is_apply() -> None:
    """One command through apply_many gives the same outcome as apply."""
    table = Table([100, 100, 100])
    command = StartHand(1)
    assert apply_many(table.state, [command], table.rules, AT) == apply(
        table.state, command, table.rules, AT
    )


def test_apply_many_matches_apply_step_by_step() -> None:
    """A whole hand gives the state, events and result of applying each command in turn."""
    table = Table([100, 100, 100])
    start = table.state
    events = []
    for command in _hand_commands():
        events.extend(table.run(command).events)
    outcome = apply_many(start, _hand_commands(), table.rules, AT)
    assert outcome.state == table.state
    assert list(outcome.events) == events
    assert table.outcome is not None and outcome.result == table.outcome.result
    assert outcome.result is not None


def test_apply_many_takes_one_instant_per_command() -> None:
    """Each command is applied at its own instant when a list of instants is given."""
    table = Table([100, 100, 100])
    commands = _hand_commands()
    instants = [AT + timedelta(seconds=index) for index in range(len(commands))]
    outcome = apply_many(table.state, commands, table.rules, instants)
    for command, when in zip(commands, instants, strict=True):
        table.state = apply(table.state, command, table.rules, when).state
    assert outcome.state == table.state


def test_apply_many_refusal_raises_and_leaves_the_state_unchanged() -> None:
    """A refused command in the run raises like apply; the input state is the same value."""
    table = Table([100, 100, 100])
    before = table.state
    data = before.to_dict()
    commands = [*_hand_commands()[:3], Act(3, ActionKind.CALL)]
    with pytest.raises(RuleViolation):
        apply_many(before, commands, table.rules, AT)
    assert before.to_dict() == data


def test_replay_is_the_last_state_of_apply_many() -> None:
    """replay returns the state apply_many ends with."""
    table = Table([100, 100, 100])
    outcome = apply_many(table.state, _hand_commands(), table.rules, AT)
    assert replay(table.state, _hand_commands(), table.rules, AT) == outcome.state
