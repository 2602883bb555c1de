"""A run of commands applied in turn (replays, the audit verifier, the benchmark).

``apply_many`` is ``apply`` repeated: each command is validated and applied by exactly the
code the API runs for one request, so a run is accepted only if every step would be. It is
the one place a run of commands enters the engine, so a faster core (one working copy for
the whole run) can come in here without changing its callers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import repeat
from typing import Any

from dealerassist.rules.actions import Command
from dealerassist.rules.engine import Outcome, apply
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.state import TableState
from dealerassist.rules.violations import Notice


def apply_many(
    state: TableState,
    commands: Sequence[Command],
    rules: HouseRules,
    at: datetime | Sequence[datetime],
) -> Outcome:
    """Apply ``commands`` in turn, each at its own instant (or all at ``at``).

    The outcome of the run: the last state, every event and notice in order, the last
    command's instructions and the last hand result. A refusal raises as ``apply`` does
    and ``state`` (a frozen value) is unchanged; ``apply_many(s, [c], r, t) == apply(s, c,
    r, t)``.
    """
    events: list[dict[str, Any]] = []
    notices: list[Notice] = []
    outcome = Outcome(state, (), (), (), None)
    result: dict[str, Any] | None = None
    for command, when in zip(commands, _instants(at, len(commands)), strict=True):
        outcome = apply(outcome.state, command, rules, when)
        events.extend(outcome.events)
        notices.extend(outcome.notices)
        result = outcome.result if outcome.result is not None else result
    return Outcome(outcome.state, tuple(events), outcome.instructions, tuple(notices), result)


def replay(
    state: TableState, commands: Iterable[Command], rules: HouseRules, at: datetime
) -> TableState:
    """The state after applying ``commands`` in turn at one instant (recorded hands)."""
    for command in commands:
        state = apply(state, command, rules, at).state
    return state


def _instants(at: datetime | Sequence[datetime], count: int) -> Iterable[datetime]:
    if isinstance(at, datetime):
        return repeat(at, count)
    return at
