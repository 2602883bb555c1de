"""Replay a table's recorded commands through the engine and compare with what was recorded.

The service seals every accepted command with ``state_sha256`` (SHA-256 of the canonical
JSON of the new state, its ``version`` set to the table version after the event), the
engine's ``events`` and the ``result``; every refused command with its ``rule_id``. Replay
starts from ``new_table(spec)`` of the first ``create_table``, applies each recorded
command at its recorded ``at`` under the recorded profile, and checks that accepted
commands are still accepted with the same state, events and result, and refused ones are
still refused by the same rule. The first disagreement stops the table's replay: every
later state would differ too.

The engine is reached through ``ReplayEngine`` (``load_engine`` binds the real one), so a
broken or missing engine gives a reported problem, never a crash of the verifier.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dealerassist.audit.chain import canonical_json
from dealerassist.audit.envelope import (
    DEALER_ON_DUTY,
    FLOOR_CALL,
    REJECTED,
    SIGN_IN_REFUSED,
    parse_at,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import evolve
from dealerassist.rules.model.violations import RuleViolation

CREATE_TABLE = "create_table"


@dataclass(frozen=True, slots=True)
class ReplayEngine:
    """The three engine functions replay needs (see the engine's pinned interface)."""

    new_table: Callable[[Any], Any]
    apply: Callable[..., Any]
    command_from_dict: Callable[[Mapping[str, Any]], Any]


def load_engine() -> ReplayEngine | None:
    """The real engine (``dealerassist.rules.engine``), or ``None`` if it cannot be imported."""
    try:
        engine = importlib.import_module("dealerassist.rules.engine")
        actions = importlib.import_module("dealerassist.rules.model.actions")
        return ReplayEngine(
            new_table=engine.new_table,
            apply=engine.apply,
            command_from_dict=actions.command_from_dict,
        )
    except (ImportError, AttributeError):
        return None


# The form of the state a recorded ``state_sha256`` digests (the payload's ``state_form``):
# 1 (no ``state_form``, every event before message IDs): the dealer's instructions as their
# English text only; 2: with the message ID and parameters of each (``text_id``, ``params``).
LEGACY_STATE_FORM = 1
STATE_FORM = 2
_SAID_KEYS = ("text_id", "params")


def state_sha256(state: Any, form: int = STATE_FORM) -> str:
    """The digest the service records for a state (``state.to_dict()`` in canonical JSON),
    in the recorded ``form``."""
    data = state.to_dict()
    if form == LEGACY_STATE_FORM and data.get("instructions"):
        data["instructions"] = [
            {key: value for key, value in item.items() if key not in _SAID_KEYS}
            for item in data["instructions"]
        ]
    return hashlib.sha256(canonical_json(data)).hexdigest()


def recorded_form(payload: Mapping[str, Any]) -> int:
    form = payload.get("state_form", LEGACY_STATE_FORM)
    if form not in (LEGACY_STATE_FORM, STATE_FORM):
        raise ReplayStopped(f"state_form {form!r} is not one this version knows")
    return int(form)


# The house rules a recorded event was accepted under: (profile_id, the recorded SHA-256) ->
# that version of the profile (``ProfileSource.version``: the current file or its archived
# copy); raises if it is not available.
RulesFor = Callable[[str, str], HouseRules]


class ReplayStopped(Exception):
    """Raised inside a step: the table's replay cannot go on (the reason is the message)."""


class TableReplay:
    """The replayed state of one table, advanced one recorded event at a time."""

    def __init__(self, engine: ReplayEngine, rules_for: RulesFor) -> None:
        self.engine = engine
        self.rules_for = rules_for
        self.state: Any = None
        self.stopped = False

    def step(self, event: Mapping[str, Any]) -> str | None:
        """Replay one event; return why it disagrees with the record, or ``None``."""
        if self.stopped:
            return None
        try:
            self._step(event)
        except ReplayStopped as stop:
            self.stopped = True
            return str(stop)
        except Exception as error:  # an engine bug must not crash the verifier
            self.stopped = True
            return f"replay failed ({type(error).__name__}: {error}); replay of this table stopped"
        return None

    def _step(self, event: Mapping[str, Any]) -> None:
        payload = event["payload"]
        if event["kind"] == FLOOR_CALL:  # a call changes nothing at the table
            self._check_unchanged(event)
            return
        if event["kind"] in (DEALER_ON_DUTY, SIGN_IN_REFUSED):  # nor does a dealer's sign-in
            if self.state is None:
                raise ReplayStopped(f"the table's first event is {event['kind']}")
            return
        command = self._command(payload)
        before = self._before(command, payload["command"].get("type"), event)
        rules = self._rules(event["profile_id"], event["profile_sha256"])
        at = parse_at(event["at"])
        if event["kind"] == REJECTED:
            self._check_rejected(before, command, rules, at, payload)
        else:
            self.state = self._check_accepted(before, command, rules, at, event)

    def _check_unchanged(self, event: Mapping[str, Any]) -> None:
        """A floor call names the table as it stood: the replayed state's SHA-256."""
        if self.state is None:
            raise ReplayStopped("the table's first command is floor_call, not create_table")
        payload = event["payload"]
        if state_sha256(self.state, recorded_form(payload)) != payload.get("state_sha256"):
            raise ReplayStopped("the floor call names another table state than the replayed one")

    def _command(self, payload: Mapping[str, Any]) -> Any:
        try:
            return self.engine.command_from_dict(payload["command"])
        except Exception as error:
            raise ReplayStopped(f"recorded command cannot be read: {error}") from error

    def _before(self, command: Any, command_type: Any, event: Mapping[str, Any]) -> Any:
        if self.state is not None:
            return self.state
        if command_type == CREATE_TABLE:
            return self.engine.new_table(command.spec)
        raise ReplayStopped(f"the table's first command is {event['kind']}, not create_table")

    def _rules(self, profile_id: str, recorded_sha256: str) -> HouseRules:
        try:
            rules = self.rules_for(profile_id, recorded_sha256)
        except Exception as error:
            raise ReplayStopped(
                f"house-rule profile {profile_id!r} unavailable: {error}"
            ) from error
        if rules.sha256 != recorded_sha256:
            raise ReplayStopped(
                f"house-rule profile {profile_id!r} is not the recorded one "
                f"(sha256 {recorded_sha256} recorded, {rules.sha256} now); replay stopped"
            )
        return rules

    def _check_rejected(
        self, before: Any, command: Any, rules: HouseRules, at: Any, payload: Mapping[str, Any]
    ) -> None:
        recorded = payload.get("rule_id")
        try:
            self.engine.apply(before, command, rules, at)
        except RuleViolation as violation:
            if str(violation.rule_id) != recorded:
                raise ReplayStopped(
                    f"recorded as refused by {recorded}, replay refuses it by {violation.rule_id}"
                ) from violation
            return
        raise ReplayStopped(f"recorded as refused by {recorded}, replay accepts it")

    def _check_accepted(
        self, before: Any, command: Any, rules: HouseRules, at: Any, event: Mapping[str, Any]
    ) -> Any:
        payload = event["payload"]
        try:
            outcome = self.engine.apply(before, command, rules, at)
        except RuleViolation as violation:
            raise ReplayStopped(f"recorded as accepted, replay refuses it: {violation}") from None
        after = evolve(outcome.state, version=before.version + 1)  # no __init__ run again
        if after.version != event["version"]:
            raise ReplayStopped(f"version {event['version']} recorded, {after.version} replayed")
        if state_sha256(after, recorded_form(payload)) != payload.get("state_sha256"):
            raise ReplayStopped("state after replay differs from the recorded state_sha256")
        if canonical_json(outcome.events_json()) != canonical_json(payload.get("events")):
            raise ReplayStopped("engine events after replay differ from the recorded events")
        if canonical_json(outcome.result_json()) != canonical_json(payload.get("result")):
            raise ReplayStopped("hand result after replay differs from the recorded result")
        return after
