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

from dealerassist.rules.engine import Outcome, apply
from dealerassist.rules.model.actions import Command
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.outcomes import Event, HandResult
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.violations import Notice


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

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules.model.actions import Act, ActionKind, SeatPlayer, StartHand, Stakes
    >>> from dealerassist.rules.model.actions import TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> from dealerassist.rules import engine
    >>> stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "house")
    >>> rules, at = HouseRules(), datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> seated = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), SeatPlayer(3, "Cleo", 100)]
    >>> table = replay(engine.new_table(spec), [*seated, StartHand(button=1)], rules, at)
    >>> posts = [Act(2, ActionKind.POST), Act(3, ActionKind.POST)]
    >>> outcome = apply_many(table, posts, rules, at)
    >>> [event.TYPE for event in outcome.events]
    ['action', 'posted', 'action', 'posted', 'phase']
    >>> outcome.instructions[0]["text"]
    'Deal five cards to each of seats 2, 3, 1, one at a time, starting with seat 2'
    """
    events: list[Event] = []
    notices: list[Notice] = []
    outcome = Outcome(state, (), (), (), None)
    result: HandResult | None = None
    for command, when in zip(commands, _instants(at, len(commands)), strict=True):
        outcome = apply(outcome.state, command, rules, when)
        events.extend(outcome.events)
        notices.extend(outcome.notices)
        result = outcome.result if outcome.result is not None else result
    return Outcome(outcome.state, tuple(events), outcome.instructions, tuple(notices), result)


def replay(
    state: TableState, commands: Iterable[Command], rules: HouseRules, at: datetime
) -> TableState:
    """The state after applying ``commands`` in turn at one instant (recorded hands).

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules import engine
    >>> from dealerassist.rules.model.actions import SeatPlayer, StartHand, Stakes, TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT,
    ...                  Stakes(small_blind=1, big_blind=2), "house")
    >>> at = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> commands = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), StartHand(button=1)]
    >>> table = replay(engine.new_table(spec), commands, HouseRules(), at)
    >>> table.hand.hand_no, table.hand.phase
    (1, <Phase.POSTING: 'posting'>)
    """
    for command in commands:
        state = apply(state, command, rules, at).state
    return state


def _instants(at: datetime | Sequence[datetime], count: int) -> Iterable[datetime]:
    if isinstance(at, datetime):
        return repeat(at, count)
    return at
