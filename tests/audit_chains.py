"""Builders of sealed audit-event chains for the audit tests (synthetic, no engine needed)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import redis

from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.audit.envelope import build_event
from dealerassist.audit.replay import LEGACY_STATE_FORM, STATE_FORM, ReplayEngine, state_sha256
from dealerassist.rules.engine import legal_actions
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.said import Message
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.service import tables as use_cases

T0 = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
HANDS_EVERY = 10


def synthetic_events(table_id: str, count: int, start_seq: int = 1) -> Iterator[dict[str, Any]]:
    """A valid chain of ``count`` accepted events; every 10th finishes a hand."""
    prev_hash = GENESIS_HASH
    for seq in range(1, start_seq + count):
        result = {"winners": [1], "pot": seq} if seq % HANDS_EVERY == 0 else None
        event = build_event(
            table_id=table_id,
            seq=seq,
            version=seq,
            hand_no=(seq - 1) // HANDS_EVERY + 1,
            at=T0 + timedelta(milliseconds=seq),
            actor="dealer-1",
            role="dealer",
            kind="action",
            payload={
                "command": {"type": "action", "seat": seq % 6 + 1, "action": "call"},
                "events": [{"type": "called", "seat": seq % 6 + 1, "amount": 20}],
                "result": result,
                "state_sha256": f"{seq:064x}",
            },
            profile_id="test",
            profile_sha256="0" * 64,
            prev_hash=prev_hash,
            dealer=None,
        )
        prev_hash = event["hash"]
        if seq >= start_seq:
            yield event


def interleaved(tables: int, per_table: int) -> list[dict[str, Any]]:
    """Events of several tables in the order an API would commit them (round robin)."""
    chains = [list(synthetic_events(f"T{index:02d}", per_table)) for index in range(tables)]
    return [chain[position] for position in range(per_table) for chain in chains]


def stage(queue: RQAuditQueue, connection: redis.Redis, events: list[dict[str, Any]]) -> None:
    """Stage each event the way the table store does: one WATCH/MULTI/EXEC per event."""
    for event in events:
        table_id = event["table_id"]
        with connection.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(*queue.watch_keys(table_id))
                    queued = queue.drain_queued(pipe, table_id)
                    pipe.multi()
                    queue.stage(pipe, table_id, [event], queued)
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue


# -- recording commands like the service does, through any engine ---------------------------


@dataclass(frozen=True, slots=True)
class FakeState:
    """A toy table state: a running total (the fake engine's whole game)."""

    table_id: str
    version: int = 0
    total: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "total": self.total}


@dataclass(frozen=True, slots=True)
class FakeCommand:
    type: str
    spec: Any = None
    amount: int = 0


@dataclass(frozen=True, slots=True)
class FakeOutcome:
    state: FakeState
    events: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None

    def events_json(self) -> list[dict[str, Any]]:
        """As the engine's ``Outcome.events_json``: the events in their stored form."""
        return list(self.events)

    def result_json(self) -> dict[str, Any] | None:
        """As the engine's ``Outcome.result_json``: the result in its stored form."""
        return self.result


# the fake engine's words (``test.*``: made up by the tests, never translated)
ADD_ZERO_OR_MORE = Message("test.fake.add_zero_or_more", "Add zero or more.")
ADD_AT_MOST = Message("test.fake.add_at_most", "Add at most {most}.")


def _fake_apply(state: FakeState, command: FakeCommand, rules: Any, at: datetime) -> FakeOutcome:
    if command.type == "create_table":
        return FakeOutcome(state, ({"type": "table_created"},), None)
    if command.amount < 0:
        raise RuleViolation(rule_id=RuleId.BET_01, said=ADD_ZERO_OR_MORE(), seat=1)
    if command.amount > 100:
        raise RuleViolation(rule_id=RuleId.BET_02, said=ADD_AT_MOST(most=100), seat=1)
    total = state.total + command.amount
    result = {"total": total} if total >= 100 else None
    return FakeOutcome(
        replace(state, total=total), ({"type": "added", "amount": command.amount},), result
    )


FAKE_ENGINE = ReplayEngine(
    new_table=lambda spec: FakeState(table_id=spec["table_id"]),
    apply=_fake_apply,
    command_from_dict=lambda data: FakeCommand(
        type=data["type"], spec=data.get("spec"), amount=data.get("amount", 0)
    ),
)
RULES = replace(HouseRules(), profile_id="test", sha256="e" * 64)


def rules_for(profile_id: str, sha256: str) -> HouseRules:
    """The one profile (and version) the recorded tables use."""
    if profile_id != RULES.profile_id or sha256 != RULES.sha256:
        raise KeyError(profile_id, sha256)
    return RULES


def record(
    engine: ReplayEngine,
    commands: list[dict[str, Any]],
    rules: HouseRules = RULES,
    start: datetime = T0,
    state_form: int = STATE_FORM,
) -> list[dict[str, Any]]:
    """The audit events the service would seal for these commands (accepted and refused);
    ``state_form=1`` as a version before message IDs sealed them (no ``state_form``, the
    instructions' English only in the digest, no ``message_id`` in a refusal)."""
    state: Any = None
    prev_hash, events = GENESIS_HASH, []
    for seq, data in enumerate(commands, start=1):
        command = engine.command_from_dict(data)
        before = state if state is not None else engine.new_table(command.spec)
        at = start + timedelta(seconds=seq)
        try:
            outcome = engine.apply(before, command, rules, at)
        except RuleViolation as violation:
            kind, after = "rejected", before
            payload = {
                "command": data,
                "rule_id": str(violation.rule_id),
                "message": violation.message,
                "seat": violation.seat,
            }
            if state_form != LEGACY_STATE_FORM:
                said = violation.said.to_json()
                payload.update(message_id=said["id"], params=said["params"])
        else:
            kind, after = data["type"], replace(outcome.state, version=before.version + 1)
            payload = {
                "command": data,
                "events": outcome.events_json(),
                "result": outcome.result_json(),
                "state_sha256": state_sha256(after, state_form),
            }
            if state_form != LEGACY_STATE_FORM:
                payload["state_form"] = state_form
            state = after
        hand = getattr(after, "hand", None) or getattr(before, "hand", None)
        event = build_event(
            table_id=after.table_id,
            seq=seq,
            version=after.version,
            hand_no=None if hand is None else hand.hand_no,
            at=at,
            actor="dealer-1",
            role="dealer",
            kind=kind,
            payload=payload,
            profile_id=rules.profile_id,
            profile_sha256=rules.sha256,
            prev_hash=prev_hash,
            dealer=None,
        )
        prev_hash = event["hash"]
        events.append(event)
    return events


def fake_table(table_id: str = "F1") -> list[dict[str, Any]]:
    """A fake-engine table: created, five additions, one refused (BET-02), a finished total."""
    commands: list[dict[str, Any]] = [{"type": "create_table", "spec": {"table_id": table_id}}]
    commands += [{"type": "add", "amount": amount} for amount in (10, 20, 500, 30, 40)]
    return record(FAKE_ENGINE, commands)


# -- a real table through the real service (engine, Redis table store, audit queue) ----------


def play_hands(services: Any, table_id: str, hands: int, profile_id: str) -> None:
    """Create a 3-seat limit draw table and play ``hands`` hands through the service layer.

    Each hand: blinds posted, the first to act raises, the next player tries to check (a
    refused entry, audited as ``rejected``), then everyone folds to the raiser.
    """
    actor, pre = use_cases.Actor("dealer-1", "dealer"), use_cases.Preconditions()
    spec = {
        "table_id": table_id,
        "variant": "five_card_draw",
        "structure": "fixed_limit",
        "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
        "profile_id": profile_id,
    }
    use_cases.create_table(services, spec, actor, pre)
    for seat in (1, 2, 3):
        use_cases.seat_player(services, table_id, seat, f"P{seat}", 500, actor, pre)

    def next_to_act() -> dict[str, Any] | None:
        state = services.tables.load(table_id).state
        rules = services.profiles.get(profile_id)
        legal: dict[str, Any] | None = legal_actions(state, rules, T0)
        return legal

    for number in range(hands):
        use_cases.start_hand(services, table_id, 1 if number == 0 else None, actor, pre)
        while (legal := next_to_act()) is not None and legal["phase"] == "posting":
            use_cases.submit_action(
                services, table_id, {"seat": legal["seat"], "action": "post"}, actor, pre
            )
        legal = next_to_act()
        assert legal is not None
        use_cases.submit_action(
            services, table_id, {"seat": legal["seat"], "action": "raise", "amount": 20}, actor, pre
        )
        legal = next_to_act()
        assert legal is not None
        use_cases.submit_action(
            services, table_id, {"seat": legal["seat"], "action": "check"}, actor, pre
        )
        while (legal := next_to_act()) is not None:
            use_cases.submit_action(
                services, table_id, {"seat": legal["seat"], "action": "fold"}, actor, pre
            )
