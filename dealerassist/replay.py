"""Replay recorded PHH hands through the engine in card mode (``dealerassist replay``).

Each hand is played from an empty table: the reader maps the file to commands
(``audit.phh.reader.to_commands``) and the engine applies them one by one under the
chosen house-rule profile. A hand matches when it completes and, if the file records
finishing stacks, ours are the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

from dealerassist.audit.phh.model import HandHistory
from dealerassist.audit.phh.reader import (
    REPLAY_PROFILE,
    parse_phh,
    prepare_table,
    replay_seats,
    to_commands,
)
from dealerassist.errors import DealerAssistError, InvalidInput, NotFound
from dealerassist.profiles import get_profile, profile_version
from dealerassist.rules.engine import apply, new_table
from dealerassist.rules.model.actions import Act, ActionKind, Command, StartHand, command_to_dict
from dealerassist.rules.model.house_rules import Collection, HouseRules
from dealerassist.rules.model.state import TableState, evolve
from dealerassist.rules.model.violations import RuleViolation

# Recorded hands carry no clock; every command is applied at this fixed instant.
REPLAY_AT = datetime(2000, 1, 1, tzinfo=UTC)
PHH_SUFFIX = ".phh"


class ReplayRefused(InvalidInput):
    """The engine refused a command of a recorded hand; the message names the command."""


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of replaying one file: the line ``dealerassist replay`` prints."""

    file: str
    ok: bool
    finishing_stacks: list[int] | None = None
    expected: list[int] | None = None
    error: str | None = None
    profile: str | None = None  # the profile replayed under: "id", or "id@sha256" (a version)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "ok": self.ok,
            "finishing_stacks": self.finishing_stacks,
            "expected": self.expected,
            "error": self.error,
            "profile": self.profile,
        }


def phh_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Each path as given, or for a directory every ``*.phh`` under it in name order."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(path.rglob(f"*{PHH_SUFFIX}"))
        else:
            yield path


def replay_hand(hand: HandHistory, rules: HouseRules) -> TableState:
    """Apply the hand's commands to a new card-mode table; the state after the last one.

    The table, its players seated, is set as the recorded one was when the hand began
    (``prepare_table``: the blinds a player owes, a dead button, a kill due) before the hand
    starts."""
    spec, commands = to_commands(hand, rules.profile_id, rules=rules)
    state = new_table(spec)
    for number, command in enumerate(commands, 1):
        if isinstance(command, StartHand):
            state = _time_period(hand, prepare_table(hand, state, rules), rules)
        if not hand.dealt_in_turn:
            command = _owed_fifth_first(state, commands, number - 1, hand.count_mode)
        try:
            state = apply(state, command, rules, REPLAY_AT).state
        except RuleViolation as violation:
            entry = json.dumps(_brief(command_to_dict(command)))
            raise ReplayRefused(
                f"command {number} of {len(commands)} {entry}: {violation}"
            ) from None
    return state


def _time_period(hand: HandHistory, table: TableState, rules: HouseRules) -> TableState:
    """RAKE-05 under a time profile: the replayed hand is its table's first, so the engine
    would start a period with it and take the time. A hand that paid some (our
    ``_time_collected``; its players are seated with it, ``audit.phh.reader.seated_stacks``) lets it
    do so, once; a hand that paid none was dealt within a period, so the replay table is set
    in one already (started at ``REPLAY_AT``, its first period counted)."""
    if rules.rake.collection is not Collection.TIME or hand.time_collected:
        return table
    return evolve(table, time_started=REPLAY_AT.isoformat(), time_periods=1)


def _owed_fifth_first(
    state: TableState, commands: list[Command], index: int, in_turn: bool = False
) -> Command:
    """DRAW-03/06: the command at ``index``, or the fifth card the engine deals first.

    A file that does not say when the fifth cards were dealt is replayed with each split
    five's fifth card after the others' deals: in PHH's order, or ``in_turn`` (a count-mode
    export: the engine dealt each player's cards as it drew, ``HandHistory.count_mode``)
    after the draw's last deal. When the stub runs low the engine has a fifth card owed dealt
    before the next seat's cards (``rules.fifth_cards.serve_owed_first``), as it did at the
    recorded table: the fifth card is then moved up to ``index`` (``commands`` is changed);
    in turn, from past the later players' draws of that round.
    """
    command = commands[index]
    hand = state.hand
    if not _is_deal(command) or hand is None or hand.to_act in (None, command.seat):
        return command
    for later in range(index + 1, len(commands)):
        candidate = commands[later]
        if in_turn and _is_draw(candidate) and candidate.seat != hand.to_act:
            continue  # a later player's draw of this round (its cards follow it): fifths after
        if not _is_deal(candidate):
            break
        if candidate.seat == hand.to_act and len(candidate.cards or ()) == 1:
            commands.insert(index, commands.pop(later))
            return candidate
    return command


def _is_deal(command: Command) -> TypeGuard[Act]:
    return isinstance(command, Act) and command.action is ActionKind.DEAL


def _is_draw(command: Command) -> TypeGuard[Act]:
    return isinstance(command, Act) and command.action is ActionKind.DRAW


def _brief(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if value not in (None, False, "action")}


def finishing_stacks(state: TableState, players: int | Sequence[int]) -> list[int]:
    """The stacks of seats ``1..players``, or of the seats ``players`` lists (the PHH players'
    ``replay_seats``), once the hand is complete; InvalidInput if it is not."""
    hand = state.hand
    if hand is not None and hand.result is None:
        raise InvalidInput(f"the record ends while the hand is in phase {hand.phase}")
    seats = range(1, players + 1) if isinstance(players, int) else players
    return [state.seat(seat).stack for seat in seats]


def replay_file(path: Path, rules: HouseRules | None = None) -> ReplayResult:
    """Replay one PHH file under ``rules`` (without: ``recorded_rules``); errors become
    ``ok: false`` with the error text.

    Whatever goes wrong with one file (a malformed or inconsistent record, or an error the
    reader did not foresee) is that file's ``ok: false`` line; the other files are still
    replayed."""
    expected: list[int] | None = None
    used = None if rules is None else rules.profile_id
    try:
        hand = parse_phh(path.read_text(encoding="utf-8"))
        expected = None if hand.finishing_stacks is None else list(hand.finishing_stacks)
        if rules is None:
            rules, used = recorded_rules(hand)
        stacks = finishing_stacks(replay_hand(hand, rules), replay_seats(hand))
    except (DealerAssistError, OSError, UnicodeDecodeError) as error:
        text = f"{type(error).__name__}: {error}"
        return ReplayResult(str(path), False, None, expected, text, used)
    except Exception as error:  # a file the reader or engine did not foresee: that file fails
        text = f"InvalidInput: the file could not be replayed ({type(error).__name__}: {error})"
        return ReplayResult(str(path), False, None, expected, text, used)
    ok = expected is None or stacks == expected
    mismatch = None if ok else "finishing stacks differ from the recorded ones"
    return ReplayResult(str(path), ok, stacks, expected, mismatch, used)


def recorded_rules(hand: HandHistory) -> tuple[HouseRules, str]:
    """The rules to replay ``hand`` under when none are named, and how to call them: the
    profile version our exports name (``_profile_id``, ``_profile_sha256``: the current file
    or its archived copy, ``profiles.profile_version``), so a hand replays under the rules it
    was dealt with even after the profile was edited; ``replay-permissive`` for a file that
    names none, or a version this installation does not hold. ProfileError if an archived
    copy was altered."""
    if hand.profile_id and hand.profile_sha256:
        try:
            rules = profile_version(hand.profile_id, hand.profile_sha256)
        except NotFound:
            pass
        else:
            return rules, f"{hand.profile_id}@{hand.profile_sha256}"
    return get_profile(REPLAY_PROFILE), REPLAY_PROFILE


def replay_paths(
    paths: Iterable[str | Path], profile_id: str | None = None
) -> Iterator[dict[str, Any]]:
    """One JSON-ready result per PHH file found under ``paths``, replayed under ``profile_id``,
    or without one each under the profile version it names (``recorded_rules``)."""
    rules = None if profile_id is None else get_profile(profile_id)
    for path in phh_files(paths):
        yield replay_file(path, rules).to_dict()
