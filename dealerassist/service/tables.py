"""Table use cases: create, seat, leave, start a hand, record an action, read a table or hand.

Every change runs through ``execute``: read the table in a store transaction, replay a
remembered Idempotency-Key answer, check If-Match, run the engine, seal the audit event
(seq = head.seq + 1; version = state.version + 1 when accepted, unchanged when rejected)
and commit state, chain head, idempotency record and audit event together. A rejected
entry is audited too and answered as ``AnswerKind.REJECTED``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealerassist.audit.chain import canonical_json
from dealerassist.audit.envelope import REJECTED, build_event
from dealerassist.audit.replay import STATE_FORM
from dealerassist.errors import (
    AlreadyExists,
    Conflict,
    IdempotencyMismatch,
    InvalidInput,
    NotFound,
    NotOnDuty,
    ProfileError,
    RateLimited,
)
from dealerassist.json_codec import compact
from dealerassist.rules.engine import Outcome, apply, new_table, view
from dealerassist.rules.model.actions import (
    COMMAND_TYPES,
    MAX_CHIPS,
    Act,
    AddChips,
    Command,
    CreateTable,
    RemovePlayer,
    SeatPlayer,
    StartHand,
    command_from_dict,
    command_to_dict,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.ruling_commands import AdjustStack, Ruling
from dealerassist.rules.model.said import Param, Said, said_from_json
from dealerassist.rules.model.state import Phase, TableState, evolve
from dealerassist.rules.model.violations import RuleViolation
from dealerassist.rules.table.table_setup import check_table_spec
from dealerassist.service import messages as told
from dealerassist.service.ports import (
    Admission,
    AnswerKind,
    ChainHead,
    IdempotencyRecord,
    RefusalAdmission,
    Services,
    TableRecord,
    TableTransaction,
)

# Without If-Match the engine re-checks the entry against the newest state on every attempt, so
# retrying is safe; six tablets on one busy table lost three races in a row on a loaded host.
RETRIES_WITHOUT_IF_MATCH = 8


@dataclass(frozen=True, slots=True)
class Actor:
    """Who enters a command: the token's name and role, and for a dealer's shift session
    the employee ID (he may enter commands only where he is on duty)."""

    name: str
    role: str
    employee_id: str | None = None


@dataclass(frozen=True, slots=True)
class Preconditions:
    """If-Match (the version the client saw) and Idempotency-Key, both optional."""

    if_match: int | None = None
    idempotency_key: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a command produced: the body to send, its kind, and whether it is a replay."""

    kind: AnswerKind
    body: Mapping[str, Any]
    replayed: bool = False
    # ``body`` as compact JSON (``encode_body``) when it was encoded already, else None
    body_json: bytes | None = None

    @property
    def version(self) -> int | None:
        version = self.body.get("version")
        return version if isinstance(version, int) else None


@dataclass(frozen=True, slots=True)
class _Decision:
    record: TableRecord
    events: tuple[dict[str, Any], ...]
    answer: Answer


# -- the use cases -----------------------------------------------------------------------


def create_table(
    services: Services, spec: Mapping[str, Any], actor: Actor, pre: Preconditions
) -> Answer:
    """Open a table; AlreadyExists if the ID is taken, InvalidInput on an unknown profile,
    InvalidFields when the table's game or stakes do not fit the profile."""
    command = command_from_dict({"type": "create_table", "spec": dict(spec)})
    assert isinstance(command, CreateTable)
    try:
        rules = services.profiles.get(command.spec.profile_id)
    except NotFound as error:
        raise InvalidInput(error.said or str(error)) from None
    check_table_spec(command.spec, rules)  # GAME-01..06, BLIND-01: the table fits its profile
    return execute(services, command.spec.table_id, command, actor, pre)


def seat_player(
    services: Services, table_id: str, seat: int, player: str, stack: int, actor: Actor,
    pre: Preconditions,
) -> Answer:  # fmt: skip
    """Seat a player with a stack."""
    return execute(
        services, table_id, SeatPlayer(seat=seat, player=player, stack=stack), actor, pre
    )


def remove_player(
    services: Services, table_id: str, seat: int, actor: Actor, pre: Preconditions
) -> Answer:
    """The player in ``seat`` leaves."""
    return execute(services, table_id, RemovePlayer(seat=seat), actor, pre)


def change_seat(
    services: Services, table_id: str, seat: int, change: Mapping[str, Any], actor: Actor,
    pre: Preconditions,
) -> Answer:  # fmt: skip
    """Issue 5, between hands: ``{"change": "sit_out" | "return" | "change_seat" |
    "add_chips", "wait"?, "to"?, "chips"?}`` for ``seat``."""
    fields = {key: value for key, value in change.items() if key != "change"}
    command = command_from_dict({"type": change["change"], "seat": seat, **fields})
    return execute(services, table_id, command, actor, pre)


def start_hand(
    services: Services,
    table_id: str,
    button: int | None,
    actor: Actor,
    pre: Preconditions,
    kill_seat: int | None = None,
) -> Answer:
    """Start the next hand (``button`` for the table's first hand; ``kill_seat`` the seat that
    kills it by choice, KILL-01)."""
    return execute(services, table_id, StartHand(button=button, kill_seat=kill_seat), actor, pre)


def submit_action(
    services: Services, table_id: str, action: Mapping[str, Any], actor: Actor, pre: Preconditions
) -> Answer:
    """Record one action (``{"seat", "action", ...}``)."""
    command = command_from_dict({**action, "type": "action"})
    assert isinstance(command, Act)
    return execute(services, table_id, command, actor, pre)


def get_table(services: Services, table_id: str) -> dict[str, Any]:
    """The public view of a table (NotFound if there is none)."""
    record = services.tables.load(table_id)
    if record is None:
        raise NotFound(told.NO_TABLE(table=repr(table_id)))
    return view(record.state, _rules_of(services, record.state), services.clock.now())


def get_hand(services: Services, table_id: str, hand_no: int) -> dict[str, Any]:
    """One hand: the live one from the table, a finished one from the audit store."""
    table = get_table(services, table_id)
    live = table.get("hand")
    if isinstance(live, Mapping) and live.get("hand_no") == hand_no:
        return {"table_id": table_id, "hand_no": hand_no, "live": True, "hand": dict(live)}
    stored = services.audit_store.get_hand(table_id, hand_no)
    if stored is None:
        raise NotFound(told.NO_HAND(table=repr(table_id), hand=hand_no))
    return {"table_id": table_id, "hand_no": hand_no, "live": False, "hand": stored}


# -- the one write path ------------------------------------------------------------------


def execute(
    services: Services, table_id: str, command: Command, actor: Actor, pre: Preconditions
) -> Answer:
    """Run ``command`` on ``table_id`` under the preconditions (see the module docstring).

    Without If-Match a lost race is retried (the engine re-checks the entry against the new
    state); with If-Match it is answered ``Conflict`` (412) with the current version.
    """
    attempts = 1 if pre.if_match is not None else RETRIES_WITHOUT_IF_MATCH
    scoped_key = None if pre.idempotency_key is None else f"{actor.name}:{pre.idempotency_key}"
    fingerprint = _fingerprint(table_id, command)
    for attempt in range(1, attempts + 1):
        try:
            return _attempt(services, table_id, command, actor, pre, scoped_key, fingerprint)
        except Conflict:
            replay = _remembered_answer(services, table_id, scoped_key, fingerprint)
            if replay is not None:
                return replay
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _attempt(
    services: Services,
    table_id: str,
    command: Command,
    actor: Actor,
    pre: Preconditions,
    scoped_key: str | None,
    fingerprint: str,
) -> Answer:
    burst: RefusalAdmission | None = None
    with services.tables.transaction(table_id, scoped_key) as tx:
        if tx.remembered is not None:
            return _replay(tx.remembered, fingerprint)
        _check_preconditions(tx, table_id, command, pre)
        check_on_duty(tx.record, table_id, actor)
        decision = _decide(services, tx.record, command, actor)
        answer, remember = decision.answer, None
        if answer.kind is AnswerKind.REJECTED and services.refusal_limiter is not None:
            admitted = services.refusal_limiter.admit(actor.name, services.clock.now())
            if admitted.admission is Admission.REFUSE:  # nothing committed, nothing stored
                raise _refusals_limited(admitted, answer.body, stored=False)
            if admitted.admission is Admission.BURST:  # stored once, marked, not remembered
                burst = admitted
                decision = _decide(services, tx.record, command, actor, _burst_mark(admitted))
                answer = decision.answer
        if scoped_key is not None and burst is None:
            # the answer is both sent and remembered: encode it once, for both
            if answer.kind is not AnswerKind.REJECTED:
                answer = evolve(answer, body_json=encode_body(answer.body))
            remember = IdempotencyRecord(fingerprint, answer.kind, answer.body, answer.body_json)
        tx.commit(decision.record, decision.events, remember)
    if burst is not None:
        raise _refusals_limited(burst, answer.body, stored=True)
    return answer


def _burst_mark(admitted: RefusalAdmission) -> dict[str, int]:
    """What the burst's one stored refusal records of the limit it passed."""
    return {"limit": admitted.limit, "window_seconds": admitted.window_seconds,
            "unrecorded_for_seconds": admitted.retry_after}  # fmt: skip


def _refusals_limited(
    admitted: RefusalAdmission, body: Mapping[str, Any], stored: bool
) -> RateLimited:
    """429 for a refused entry past the token's limit: the refusal as always (rule_id, seat,
    allowed, ...), whether it was stored (only the burst's first is), and when to retry."""
    details = {key: value for key, value in body.items() if key != "message"}
    details["stored"] = stored
    said = told.REFUSALS_LIMITED(
        refusal=_refusal_said(body),
        limit=admitted.limit,
        window=admitted.window_seconds,
        retry=admitted.retry_after,
    )
    return RateLimited(said, admitted.retry_after, details)


def _refusal_said(body: Mapping[str, Any]) -> Param:
    """The refusal's words as the engine said them (its English when its ID is not known)."""
    try:
        return said_from_json({"id": body["message_id"], "params": body.get("params")})
    except (KeyError, TypeError):
        return str(body.get("message", "refused"))


def encode_body(body: Mapping[str, Any]) -> bytes:
    """An answer's body as compact JSON (UTF-8), as the app's JSON provider sends it.

    >>> encode_body({"version": 2, "seats": [1, None]})
    b'{"version":2,"seats":[1,null]}'
    """
    return compact(body)


def _check_preconditions(
    tx: TableTransaction, table_id: str, command: Command, pre: Preconditions
) -> None:
    record = tx.record
    if isinstance(command, CreateTable):
        if record is not None:
            raise AlreadyExists(told.TABLE_EXISTS(table=repr(table_id)))
        return
    if record is None:
        raise NotFound(told.NO_TABLE(table=repr(table_id)))
    if pre.if_match is not None and pre.if_match != record.version:
        raise Conflict(_stale_detail(pre.if_match, record.version), record.version)


def check_on_duty(record: TableRecord | None, table_id: str, actor: Actor) -> None:
    """A shift session enters commands only where its dealer is on duty (``NotOnDuty``: the
    next dealer signed in there, or he signed in at another table since)."""
    if actor.employee_id is None or record is None:
        return
    if record.head.dealer != actor.employee_id:
        on_duty = record.head.dealer
        if on_duty is None:
            raise NotOnDuty(told.NOT_ON_DUTY_NOBODY(dealer=actor.employee_id, table=table_id))
        raise NotOnDuty(told.NOT_ON_DUTY(dealer=actor.employee_id, table=table_id, on_duty=on_duty))


def _stale_detail(if_match: int, version: int) -> Said:
    """What a client whose If-Match failed must do (a negative ``if_match``: the header named
    no version of ours, an ETag of another server or no ETag at all).

    >>> _stale_detail(4, 5).english()[:53]
    'If-Match names version "v4" but the table is at "v5":'
    >>> _stale_detail(-1, 5).english()[:41]
    'If-Match names no version of this table ('
    """
    if if_match < 0:
        return told.STALE_NO_VERSION(current=f'"v{version}"')
    return told.STALE_VERSION(tag=f'"v{if_match}"', current=f'"v{version}"')


def _remembered_answer(
    services: Services, table_id: str, scoped_key: str | None, fingerprint: str
) -> Answer | None:
    if scoped_key is None:
        return None
    with services.tables.transaction(table_id, scoped_key) as tx:
        remembered = tx.remembered
    return None if remembered is None else _replay(remembered, fingerprint)


def _replay(remembered: IdempotencyRecord, fingerprint: str) -> Answer:
    if remembered.fingerprint != fingerprint:
        raise IdempotencyMismatch(told.IDEMPOTENCY_REUSED())
    return Answer(kind=remembered.kind, body=remembered.body, replayed=True)


def _fingerprint(table_id: str, command: Command) -> str:
    payload = {"table_id": table_id, "command": command_to_dict(command)}
    return hashlib.sha256(canonical_json(payload)).hexdigest()


# -- deciding: engine + audit event ------------------------------------------------------


def _decide(
    services: Services,
    record: TableRecord | None,
    command: Command,
    actor: Actor,
    rate_limit: Mapping[str, int] | None = None,
) -> _Decision:
    at = services.clock.now()
    before = _state_before(record, command)
    head = record.head if record is not None else ChainHead()
    rules = _rules_of(services, before)
    try:
        outcome = apply(before, command, rules, at)
    except RuleViolation as violation:
        return _rejected(before, head, command, violation, rules, actor, at, rate_limit)
    _check_chip_bound(before, outcome.state, command)
    return _accepted(before, head, command, outcome, rules, actor, at)


def _check_chip_bound(before: TableState, after: TableState, command: Command) -> None:
    """No seat is brought past ``MAX_CHIPS`` by chips added to it (``add_chips``, a ruling's
    ``adjust_stack``): the schemas bound each amount, this the sum it reaches, counting the
    chips a ruling set beside the stack during a hand (GAME-06). InvalidInput: nothing is
    applied or audited. Winnings may pass it (they are chips already on the table)."""
    adds = isinstance(command, AddChips) or (
        isinstance(command, Ruling)
        and any(isinstance(e, AdjustStack) and e.amount > 0 for e in command.effects)
    )
    if not adds:
        return
    for seat in after.seats:
        held = _chips_held(after, seat.seat)
        if held > MAX_CHIPS and held > _chips_held(before, seat.seat):
            raise InvalidInput(told.CHIP_BOUND(seat=seat.seat, held=held, most=MAX_CHIPS))


def _chips_held(state: TableState, seat: int) -> int:
    """A seat's chips: its stack, or in a hand its stack there and the chips beside it."""
    hand = state.hand
    if hand is not None and hand.phase is not Phase.COMPLETE and hand.has(seat):
        player = hand.player(seat)
        return player.stack + player.added
    return state.seat(seat).stack


def _rules_of(services: Services, state: TableState) -> HouseRules:
    """The table's profile; one that vanished from the configuration is a ProfileError (503)."""
    try:
        return services.profiles.get(state.spec.profile_id)
    except NotFound as error:
        gone = error.said or str(error)
        raise ProfileError(told.PROFILE_GONE(table=repr(state.table_id), error=gone)) from None


def _state_before(record: TableRecord | None, command: Command) -> TableState:
    if record is not None:
        return record.state
    if isinstance(command, CreateTable):
        return new_table(command.spec)
    raise InvalidInput("only create_table may start a table")  # pragma: no cover


def _accepted(
    before: TableState,
    head: ChainHead,
    command: Command,
    outcome: Outcome,
    rules: HouseRules,
    actor: Actor,
    at: datetime,
) -> _Decision:
    after = evolve(outcome.state, version=before.version + 1)
    state_json = canonical_json(after.to_dict())
    state_sha256 = hashlib.sha256(state_json).hexdigest()
    payload = {
        "command": command_to_dict(command),
        "events": outcome.events_json(),
        "result": outcome.result_json(),
        "state_sha256": state_sha256,
        "state_form": STATE_FORM,
    }
    event = seal_event(before, after, head, COMMAND_TYPES[type(command)], payload, rules, actor, at)
    body = view(after, rules, at)
    body["notices"] = [notice.to_dict() for notice in outcome.notices]
    if outcome.instructions:
        body["instructions"] = list(outcome.instructions)
    if outcome.result is not None:
        body["result"] = payload["result"]
    body["event"] = {"seq": event["seq"], "hash": event["hash"]}
    kind = AnswerKind.CREATED if isinstance(command, CreateTable) else AnswerKind.ACCEPTED
    record = TableRecord(state=after, head=ChainHead.after(event), state_json=state_json)
    return _Decision(record=record, events=(event,), answer=Answer(kind=kind, body=body))


def _rejected(
    before: TableState,
    head: ChainHead,
    command: Command,
    violation: RuleViolation,
    rules: HouseRules,
    actor: Actor,
    at: datetime,
    rate_limit: Mapping[str, int] | None = None,
) -> _Decision:
    payload: dict[str, Any] = {
        "command": command_to_dict(command),
        "rule_id": str(violation.rule_id),
        "message": violation.message,
        **said_of(violation.to_dict()),
        "seat": violation.seat,
    }
    if rate_limit is not None:  # the first refusal past the token's limit (the burst's mark)
        payload["rate_limit"] = dict(rate_limit)
    event = seal_event(before, before, head, REJECTED, payload, rules, actor, at)
    body = {
        **violation.to_dict(),
        "table_id": before.table_id,
        "version": before.version,
        "event": {"seq": event["seq"], "hash": event["hash"]},
    }
    record = TableRecord(state=before, head=ChainHead.after(event))
    answer = Answer(kind=AnswerKind.REJECTED, body=body)
    return _Decision(record=record, events=(event,), answer=answer)


def said_of(refusal: Mapping[str, Any]) -> dict[str, Any]:
    """What a refusal said, its ``message_id`` and ``params`` beside its English ``message``
    (none for one recorded before message IDs): the audit log keeps them, the API renders
    them in the reader's language."""
    return {key: refusal[key] for key in ("message_id", "params") if key in refusal}


def seal_event(
    before: TableState,
    after: TableState,
    head: ChainHead,
    kind: str,
    payload: Mapping[str, Any],
    rules: HouseRules,
    actor: Actor,
    at: datetime,
) -> dict[str, Any]:
    """The audit event of one entry at the table: the next seq after ``head``, linked to it,
    naming the dealer on duty there (``head.dealer``)."""
    return build_event(
        table_id=after.table_id,
        seq=head.seq + 1,
        version=after.version,
        hand_no=_hand_no(before, after),
        at=at,
        actor=actor.name,
        role=actor.role,
        kind=kind,
        payload=payload,
        profile_id=rules.profile_id,
        profile_sha256=rules.sha256,
        prev_hash=head.last_hash,
        dealer=head.dealer,
    )


def _hand_no(before: TableState, after: TableState) -> int | None:
    """The hand an event belongs to: a hand in play, or the one this event finished."""
    hand = after.hand if after.hand is not None else before.hand
    if hand is None:
        return None
    finished_earlier = before.hand is not None and before.hand.phase is Phase.COMPLETE
    if hand.phase is Phase.COMPLETE and finished_earlier and before.hand_no == hand.hand_no:
        return None
    return hand.hand_no
