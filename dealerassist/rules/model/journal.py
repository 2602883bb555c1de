"""The current hand's journal: the table before ``start_hand`` and every command accepted
since, so a ruling can rebuild the hand without some of its actions (``void_last``) or put
the table back as it was (``misdeal``).

Both are compact JSON strings in ``TableState`` (``before_hand``, ``hand_log``): a string
costs the state's JSON codec next to nothing, where per-entry objects cost it ~250 µs at the
end of a long hand. The engine calls ``record`` after every accepted command.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

from dealerassist.json_codec import ascii_compact
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Command,
    StartHand,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import model as told
from dealerassist.rules.model.outcomes import Event, Instruction
from dealerassist.rules.model.ruling_commands import STRUCTURAL, Ruling
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import TableState, evolve
from dealerassist.rules.model.violations import RuleId, RuleViolation


class Applied(Protocol):
    """What the engine's ``apply`` returns, as far as a ruling needs it."""

    @property
    def state(self) -> TableState: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def instructions(self) -> tuple[Instruction, ...]: ...


Replay = Callable[[TableState, Command, HouseRules, datetime], Applied]


def record(before: TableState, after: TableState, command: Command, at: datetime) -> TableState:
    """Keep the hand's journal: the table before ``start_hand`` and each command accepted since.

    A ruling is kept without its structural effect (the journal already shows its result).
    """
    if isinstance(command, StartHand):
        return evolve(after, before_hand=_snapshot(before), hand_log=(entry(command, at),))
    if after.before_hand is None:
        return after
    if isinstance(command, Ruling):
        effects = tuple(e for e in command.effects if not isinstance(e, STRUCTURAL))
        if not effects:
            return after
        command = replace(command, effects=effects)
    return evolve(after, hand_log=(*after.hand_log, entry(command, at)))


def entry(command: Command, at: datetime) -> str:
    """One journal line: when the command was accepted and the command, compact JSON."""
    if type(command) is Act:  # most lines: written straight, when every value is plain
        line = _act_line(command, _iso(at))
        if line is not None:
            return line
    # no key sorting: command_to_dict's key order is fixed
    return ascii_compact({"at": _iso(at), "command": command_to_dict(command)})


def _act_line(act: Act, at: str) -> str | None:
    """``entry`` of a dealer's action, the very text ``ascii_compact`` writes, without the dict
    and the encoder: the numbers plain ints, no option or rank, the cards plain printable ASCII
    (every card the engine accepts); None for any other, which goes the general way."""
    if act.option is not None or act.rank is not None or type(act.seat) is not int:
        return None
    if type(act.action) is not ActionKind:  # its value is written as it is
        return None
    cards, discards = _cards_json(act.cards), _cards_json(act.discards)
    amount, count = _int_json(act.amount), _int_json(act.count)
    if cards is None or discards is None or amount is None or count is None:
        return None
    ace = "true" if act.ace_shown is True else "false" if act.ace_shown is False else None
    if ace is None or not at.isascii() or not at.isprintable() or '"' in at or "\\" in at:
        return None
    return (
        f'{{"at":"{at}","command":{{"type":"action","seat":{act.seat},'
        f'"action":"{act.action}","amount":{amount},"count":{count},"ace_shown":{ace},'
        f'"cards":{cards},"discards":{discards}}}}}'
    )


def _int_json(value: int | None) -> str | None:
    """A plain int or None as JSON; None for anything else (a bool, a float)."""
    if value is None:
        return "null"
    return str(value) if type(value) is int else None


def _cards_json(cards: tuple[str, ...] | None) -> str | None:
    """Cards as a JSON list when each is printable ASCII with nothing to escape, else None."""
    if cards is None:
        return "null"
    if type(cards) is not tuple:
        return None
    try:
        text = "".join(cards)
    except TypeError:  # not all text
        return None
    if not text.isascii() or not text.isprintable() or '"' in text or "\\" in text:
        return None
    return '["' + '","'.join(cards) + '"]' if cards else "[]"


_last_iso: tuple[datetime | None, str] = (None, "")


def _iso(at: datetime) -> str:
    """``at.isoformat()`` (~1.5 µs for an aware time), remembered for the very same object:
    a replay or a ruling's rebuild journals every command at one instant. Compared by
    identity, so an equal time in another offset still gets its own text; the pair is
    replaced in one assignment, so threads never see one time with another's text."""
    global _last_iso
    last, text = _last_iso
    if last is not at:
        text = at.isoformat()
        _last_iso = (at, text)
    return text


def read(entry: str) -> tuple[dict[str, Any], datetime]:
    """One journal entry: the command's JSON and when it was accepted."""
    data = json.loads(entry)
    return data["command"], datetime.fromisoformat(data["at"])


def _snapshot(table: TableState) -> str:
    """The whole table before the hand (its own journal left out), keys sorted.

    Sorted, because the table may hold dicts (a finished hand's result) whose key order
    depends on where the state came from: built by the engine, or read back from its stored
    canonical JSON (sorted) by another API process. Unsorted, the same table gave two
    snapshots, and verify's replay (which keeps the table in memory) disagreed with the
    recorded ``state_sha256`` of the next ``start_hand``.
    """
    bare = evolve(table, before_hand=None, hand_log=(), instructions=())
    return ascii_compact(bare.to_dict(), sort_keys=True)


def table_at_start(state: TableState) -> TableState:
    """The table as it was before the current hand started (at the current version)."""
    if state.before_hand is None:
        raise _refuse(told.NO_HAND_IN_JOURNAL())
    before = TableState.from_dict(json.loads(state.before_hand))
    return evolve(before, version=state.version)


def without_last_actions(
    state: TableState, count: int, rules: HouseRules, replay: Replay
) -> tuple[TableState, list[dict[str, Any]]]:
    """The hand rebuilt from its start without its last ``count`` actions, and those actions.

    Every other journaled command (rulings included) is replayed at its own time.
    """
    journal = [read(entry) for entry in state.hand_log]
    actions = [i for i, (command, _) in enumerate(journal) if command["type"] == "action"]
    if count > len(actions):
        raise _refuse(told.VOID_AT_MOST(count=len(actions)))
    dropped = set(actions[-count:])
    table = table_at_start(state)
    for index, (command, at) in enumerate(journal):
        if index not in dropped:
            table = replay(table, command_from_dict(command), rules, at).state
    return table, [journal[i][0] for i in sorted(dropped)]


def _refuse(said: Said) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.IRREG_15, said=said)
