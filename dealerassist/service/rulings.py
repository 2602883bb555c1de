"""Floor use cases: open a floor call, list open calls, give the options, issue a ruling.

A ruling is a ``Ruling`` command run through the table's one write path
(``service.tables.execute``): the engine applies it, and the audit event (kind ``ruling``,
or ``rejected`` when the engine refuses it) names the floor manager. A ruling that names an
open call closes it once the ruling is committed.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from dealerassist.audit.envelope import FLOOR_CALL, REJECTED, format_at, parse_at
from dealerassist.audit.replay import STATE_FORM, state_sha256
from dealerassist.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    ProfileError,
    Unavailable,
)
from dealerassist.rules.engine import apply, view
from dealerassist.rules.floor.ruling_options import options_for
from dealerassist.rules.model.actions import Act, command_from_dict
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.ruling_commands import Ruling, effect_kind
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.violations import RuleViolation
from dealerassist.service import messages as told
from dealerassist.service.floor_calls import (
    CLOSED,
    DEFAULT_PAGE,
    EXPIRED,
    MAX_PAGE,
    OPEN,
    FloorCall,
    FloorCallStore,
)
from dealerassist.service.ports import AnswerKind, ChainHead, Services, TableRecord
from dealerassist.service.tables import (
    RETRIES_WITHOUT_IF_MATCH,
    Actor,
    Answer,
    Preconditions,
    check_on_duty,
    execute,
    said_of,
    seal_event,
)

RULING_ROLES = frozenset({"floor"})
CALLING_ROLES = frozenset({"dealer", "floor"})


def ruling_options(rule_id: str | None) -> dict[str, Any]:
    """The standard options for a rule (``GET /v1/rulings/options``)."""
    return {"rule_id": rule_id, "options": [option.to_dict() for option in options_for(rule_id)]}


def issue_ruling(
    services: Services, table_id: str, body: Mapping[str, Any], actor: Actor, pre: Preconditions
) -> Answer:
    """Apply a ruling in one table transaction; a ruling naming an open call closes it."""
    if actor.role not in RULING_ROLES:
        raise Forbidden(told.RULE_ROLE(role=actor.role))
    command = command_from_dict({**body, "type": "ruling"})
    assert isinstance(command, Ruling)
    call = None
    if command.call_id is not None:
        call = _call(services, table_id, command.call_id)
        command = replace(
            command,
            hand_no=command.hand_no if command.hand_no is not None else call.hand_no,
            rule_id=command.rule_id or call.rule_id,
        )
    answer = execute(services, table_id, command, actor, pre)
    if call is not None and call.status == OPEN and answer.kind is AnswerKind.ACCEPTED:
        _close(services, call, actor, answer, command)
    return answer


def _close(
    services: Services, call: FloorCall, actor: Actor, answer: Answer, ruling: Ruling
) -> None:
    event = answer.body.get("event")
    seq = event.get("seq") if isinstance(event, Mapping) else None
    option = {o.decision: o for o in options_for(ruling.rule_id)}.get(ruling.decision)
    label: dict[str, Any] = {"label": ruling.decision}
    if option is not None:  # its words, and their ID for the dealer's language
        label = {"label": option.label, "label_id": option.said.message.id}
        if option.said.params:
            label["params"] = option.said.to_json()["params"]
    closed = replace(
        call,
        status=CLOSED,
        closed_at=format_at(services.clock.now()),
        closed_by=actor.name,
        ruling_seq=seq,
        ruling={
            "decision": ruling.decision,
            **label,
            "rule_id": ruling.rule_id,
            "note": ruling.note,
            "effects": [effect_kind(effect) for effect in ruling.effects],
        },
    )
    _store(services).save(closed, services.floor_call_limits)


def _call(services: Services, table_id: str, call_id: str) -> FloorCall:
    call = _store(services).get(call_id)
    if call is None or call.table_id != table_id:
        raise NotFound(told.NO_CALL_AT_TABLE(call=repr(call_id), table=repr(table_id)))
    return call


def _store(services: Services) -> FloorCallStore:
    if services.floor_calls is None:
        raise Unavailable(told.NO_CALL_STORE())
    return services.floor_calls


def _rules(services: Services, state: TableState) -> HouseRules:
    try:
        return services.profiles.get(state.spec.profile_id)
    except NotFound as error:
        gone = error.said or str(error)
        raise ProfileError(told.PROFILE_GONE(table=repr(state.table_id), error=gone)) from None


# -- floor calls -----------------------------------------------------------------------------


def open_floor_call(
    services: Services, table_id: str, body: Mapping[str, Any], actor: Actor
) -> dict[str, Any]:
    """The dealer calls the floor: about a refused ``entry`` (or the audit ``seq`` of one), or
    a dispute with a ``rule_id`` and a ``note``. The call keeps the table as it is now.

    The call is an audit event of the table (kind ``floor_call``: who called, when, about
    what, and the SHA-256 of the table as it stood), committed like any entry, the version
    unchanged; a table changed meanwhile by another entry is read again.

    The call is reserved in the store first, against the open-call limits of its table and
    of the caller (``TooManyFloorCalls``: nothing is audited), and taken back if its audit
    event cannot be committed.
    """
    if actor.role not in CALLING_ROLES:
        raise Forbidden(told.CALL_ROLE(role=actor.role))
    store = _store(services)  # before anything is audited: no store, no call (503)
    for attempt in range(1, RETRIES_WITHOUT_IF_MATCH + 1):
        try:
            call = _audited_call(services, table_id, body, actor, store)
        except Conflict:
            if attempt == RETRIES_WITHOUT_IF_MATCH:
                raise
            continue
        store.save(call, services.floor_call_limits)
        return call.to_dict()
    raise AssertionError("unreachable")  # pragma: no cover


def _audited_call(
    services: Services,
    table_id: str,
    body: Mapping[str, Any],
    actor: Actor,
    store: FloorCallStore,
) -> FloorCall:
    """Build the call, reserve it, and commit its audit event (``Conflict`` if the table
    moved: the reservation is taken back)."""
    limits = services.floor_call_limits
    with services.tables.transaction(table_id, None) as tx:
        record = tx.record
        if record is None:
            raise NotFound(told.NO_TABLE(table=repr(table_id)))
        check_on_duty(record, table_id, actor)  # a pushed dealer's session calls no floor
        state = record.state
        rules = _rules(services, state)
        now = services.clock.now()
        refusal = _refusal(services, state, body, rules, now)
        call = FloorCall(
            call_id=uuid.uuid4().hex[:16],
            table_id=table_id,
            opened_at=format_at(now),
            opened_by=actor.name,
            version=state.version,
            hand_no=refusal.pop("hand_no", _hand_no(state)),
            note=str(body.get("note") or ""),
            table=view(state, rules, now),
            actions=[json.loads(entry) for entry in state.hand_log],
            expires_at=format_at(now + timedelta(seconds=limits.ttl_seconds)),
            **refusal,
        )
        # the chain has the hand's entries already, and the expiry is the store's business
        about = {k: v for k, v in call.to_dict().items() if k not in UNAUDITED}
        payload = {"call": about, "state_sha256": state_sha256(state), "state_form": STATE_FORM}
        event = seal_event(state, state, record.head, FLOOR_CALL, payload, rules, actor, now)
        head = ChainHead.after(event)
        store.reserve(call, limits, now)
        try:
            tx.commit(TableRecord(state=state, head=head), [event], None)
        except BaseException:
            store.discard(call)
            raise
    return replace(call, audit_seq=event["seq"])


UNAUDITED = frozenset({"table", "status", "actions", "expires_at"})


def _hand_no(state: TableState) -> int | None:
    return state.hand.hand_no if state.hand is not None else None


def _refusal(
    services: Services, state: TableState, body: Mapping[str, Any], rules: HouseRules, now: datetime
) -> dict[str, Any]:
    """What the call is about: the engine's refusal of the entry, a recorded refusal, or a
    dispute (``rule_id`` and ``note``)."""
    if body.get("entry") is not None:
        return _refused_now(state, body["entry"], rules, now)
    if body.get("seq") is not None:
        return _recorded_refusal(services, state.table_id, int(body["seq"]))
    if not body.get("rule_id") or not body.get("note"):
        raise InvalidInput(told.CALL_NEEDS())
    return {"rule_id": body["rule_id"], "seat": body.get("seat")}


def _refused_now(state: TableState, entry: Any, rules: HouseRules, now: datetime) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise InvalidInput(told.CALL_ENTRY())
    command = command_from_dict({**entry, "type": "action"})
    assert isinstance(command, Act)
    try:
        apply(state, command, rules, now)
    except RuleViolation as violation:
        return {
            "rule_id": str(violation.rule_id),
            "message": violation.message,
            **said_of(violation.to_dict()),
            "seat": violation.seat,
            "entry": {"type": "action", **dict(entry)},
            "allowed": [dict(item) for item in violation.allowed],
        }
    raise InvalidInput(told.ACCEPTS_NOW())


def _recorded_refusal(services: Services, table_id: str, seq: int) -> dict[str, Any]:
    for event in services.audit_store.iter_events(table_id=table_id):
        if event["seq"] == seq and event["kind"] == REJECTED:
            payload = event["payload"]
            return {
                "rule_id": payload.get("rule_id"),
                "message": payload.get("message", ""),
                **said_of(payload),  # recorded beside it since the engine says message IDs
                "seat": payload.get("seat"),
                "entry": payload.get("command"),
                "seq": seq,
                "hand_no": event.get("hand_no"),
            }
    raise NotFound(told.NO_REFUSAL_SEQ(seq=seq, table=repr(table_id)))


def list_floor_calls(
    services: Services,
    table_id: str | None = None,
    *,
    tables: Sequence[str] | None = None,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
) -> dict[str, Any]:
    """Open calls at one table (``table_id``), at ``tables``, or at every table (neither),
    newest first, one page of ``limit``; each with how long it has waited (``waited_seconds``,
    by the service's clock, so a console's own clock does not matter). A listed call leaves
    out the table as it stood and the hand's entries (``floor_call`` has them): a console
    polls the list every few seconds."""
    chosen = [table_id] if table_id is not None else tables
    now = services.clock.now()
    since = services.floor_call_limits.open_since(now)
    page = _store(services).open_page(chosen, since, min(max(limit, 1), MAX_PAGE), cursor)
    calls = [_summary(call, now) for call in page.calls]
    return {
        "calls": calls,
        "count": len(calls),
        "total": page.total,
        "next": page.next,
        "now": format_at(now),
    }


def floor_call(services: Services, call_id: str) -> dict[str, Any]:
    """One call as it stands (``expired``: open, and past its time); NotFound if unknown."""
    call = _store(services).get(call_id)
    if call is None:
        raise NotFound(told.NO_CALL_KEPT(call=repr(call_id)))
    now = services.clock.now()
    body = {**call.to_dict(), "waited_seconds": _waited(call, now)}
    if call.status == OPEN and parse_at(call.opened_at) < services.floor_call_limits.open_since(
        now
    ):
        body["status"] = EXPIRED
    return body


LISTED_WITHOUT = frozenset({"table", "actions"})


def _summary(call: FloorCall, now: datetime) -> dict[str, Any]:
    body = {k: v for k, v in call.to_dict().items() if k not in LISTED_WITHOUT}
    return {**body, "waited_seconds": _waited(call, now)}


def _waited(call: FloorCall, now: datetime) -> int:
    return max(0, int((now - parse_at(call.opened_at)).total_seconds()))


def get_floor_call(services: Services, table_id: str, call_id: str) -> dict[str, Any]:
    """One call of the table as it stands (``floor_call``), with the ruling that closed it,
    without the table and the hand's entries (cards included) it keeps: what the tablet
    that made the call shows of the floor's answer; NotFound at another table."""
    body = floor_call(services, call_id)
    if body["table_id"] != table_id:
        raise NotFound(told.NO_CALL_AT_TABLE(call=repr(call_id), table=repr(table_id)))
    return {k: v for k, v in body.items() if k not in LISTED_WITHOUT}
