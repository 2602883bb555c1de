"""Browsing the audit store: its tables and hands (by table, day, hand number), one hand
replayed step by step, and the floor's view of its tables (open calls, hand in play, pace).

A hand's replay runs the table's recorded commands through the engine from its
``create_table`` (``audit.replay.TableReplay``, the verifier's own replay) up to the hand's
last event, and for each event of the hand gives the entry as recorded, whether the replay
agrees with the record (the state's SHA-256, the engine's events, the result), the table's
public view after it (no hole cards), the instructions the dealer was given, and a ruling's
decision, rule, note and effects. The replay costs the whole table's history up to the hand,
so it is bounded like the synchronous verify (``VerifyLimits.max_events``: a 422 above).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Protocol, cast

from dealerassist.audit.envelope import (
    DEALER_ON_DUTY,
    FLOOR_CALL,
    REJECTED,
    SIGN_IN_REFUSED,
    dealer_of,
    parse_at,
)
from dealerassist.audit.replay import TableReplay, load_engine
from dealerassist.errors import NotFound, Unavailable
from dealerassist.rules.engine import view
from dealerassist.service import messages as told
from dealerassist.service.audit import VerifyScopeTooLarge
from dealerassist.service.ports import Services
from dealerassist.service.shifts import dealer_on_duty

HOUR = timedelta(hours=1)
DEFAULT_HANDS_PAGE = 100
MAX_HANDS_PAGE = 500


class AuditCatalog(Protocol):
    """Summaries of what the audit store holds (the SQL store's grouped queries)."""

    def tables(self, scope: Collection[str] | None, since: datetime) -> list[dict[str, Any]]:
        """One row per table in ``scope`` (``None``: all): ``table_id``, ``events``,
        ``first_at``, ``last_at``, ``last_hand_no``, ``hands_ended``, ``hands_ended_since``
        (hands ended at or after ``since``), ``last_hand_ended_at``."""

    def hands(
        self,
        scope: Collection[str] | None,
        table_id: str | None,
        day: tuple[datetime, datetime] | None,
        hand_no: int | None,
        limit: int,
        offset: int,
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of hands (by table, newest hand first) and how many match."""


def _catalog(services: Services) -> AuditCatalog:
    if services.audit_catalog is None:
        raise Unavailable(told.NO_BROWSING())
    return cast(AuditCatalog, services.audit_catalog)


def audit_tables(services: Services, scope: Collection[str] | None) -> dict[str, Any]:
    """The tables the audit store holds (those in ``scope``), with their pace."""
    now = services.clock.now()
    rows = _catalog(services).tables(scope, now - HOUR)
    return {"tables": [{**row, "pace": pace(row, now)} for row in rows], "now": _at(now)}


def audit_hands(
    services: Services,
    scope: Collection[str] | None,
    *,
    table_id: str | None = None,
    on: date | None = None,
    hand_no: int | None = None,
    limit: int = DEFAULT_HANDS_PAGE,
    offset: int = 0,
) -> dict[str, Any]:
    """The hands the audit store holds, by table then newest hand first; ``on`` a UTC day
    (the hands that started on it)."""
    day = None
    if on is not None:
        start = datetime.combine(on, time(0), tzinfo=UTC)
        day = (start, start + timedelta(days=1))
    limit = min(max(limit, 1), MAX_HANDS_PAGE)
    rows, total = _catalog(services).hands(scope, table_id, day, hand_no, limit, offset)
    return {"hands": rows, "count": len(rows), "total": total, "offset": offset, "limit": limit}


def pace(row: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """A table's session clock and hands per hour, from its audit summary: the session runs
    from the table's first event; the rate is over the session and over the last hour.

    >>> row = {"first_at": "2026-11-29T10:00:00.000000Z", "hands_ended": 60,
    ...        "hands_ended_since": 27}
    >>> pace(row, datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    {'session_started_at': '2026-11-29T10:00:00.000000Z', 'session_seconds': 7200, \
'hands': 60, 'hands_per_hour': 30.0, 'hands_last_hour': 27}
    """
    first = row.get("first_at")
    seconds = 0 if first is None else max(0, int((now - parse_at(first)).total_seconds()))
    hands = int(row.get("hands_ended") or 0)
    rate = round(hands * 3600 / seconds, 1) if seconds >= 60 else 0.0
    return {
        "session_started_at": first,
        "session_seconds": seconds,
        "hands": hands,
        "hands_per_hour": rate,
        "hands_last_hour": int(row.get("hands_ended_since") or 0),
    }


def floor_tables(services: Services, scope: Collection[str] | None) -> dict[str, Any]:
    """Every table the floor may rule on (those in ``scope`` the audit store knows, and
    those of ``scope`` not stored yet): its open calls, the hand in play, its pace and the
    dealer on duty (``shifts.dealer_on_duty``, the one the table's chain names)."""
    now = services.clock.now()
    rows = {row["table_id"]: row for row in _catalog(services).tables(scope, now - HOUR)}
    names = sorted(set(rows) | set(scope or ()))
    since = services.floor_call_limits.open_since(now)
    found = []
    for table_id in names:
        record = services.tables.load(table_id)
        if record is None:
            continue
        hand = record.state.hand
        calls = (
            services.floor_calls.open_page([table_id], since, 1) if services.floor_calls else None
        )
        row = rows.get(table_id, {"table_id": table_id})
        found.append({
            "table_id": table_id,
            "version": record.state.version,
            "hand_no": None if hand is None else hand.hand_no,
            "phase": None if hand is None else hand.phase.value,
            "open_calls": 0 if calls is None else calls.total,
            "newest_call_at": calls.calls[0].opened_at if calls and calls.calls else None,
            "pace": pace(row, now),
            "dealer": dealer_on_duty(services, table_id, record.head.dealer),
        })  # fmt: skip
    return {"tables": found, "now": _at(now)}


def _at(now: datetime) -> str:
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# -- one hand, step by step ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scope:
    table_id: str
    hand_no: int
    max_events: int


def replay_hand(services: Services, table_id: str, hand_no: int) -> dict[str, Any]:
    """The hand's events in order, each with the table after it (see the module's doc);
    NotFound if the store has no event of that hand."""
    engine = load_engine()
    if engine is None:  # pragma: no cover - the engine ships with the service
        raise Unavailable(told.NO_REPLAY())
    scope = _Scope(table_id, hand_no, services.verify_limits.max_events)
    replay = TableReplay(engine, services.profiles.version)
    steps: list[dict[str, Any]] = []
    services.audit_store.ping()
    for event in _up_to_hand(services.audit_store.iter_events(table_id=table_id), scope):
        problem = replay.step(event)
        if event.get("hand_no") != hand_no:
            continue
        steps.append(_step(event, replay, problem, services))
    if not steps:
        raise NotFound(told.NO_STORED_HAND(hand=hand_no, table=repr(table_id)))
    return {
        "table_id": table_id,
        "hand_no": hand_no,
        "steps": steps,
        "count": len(steps),
        "verified": all(step["verified"] for step in steps),
        # the stored events end the hand (a hand still played or not drained whole: false)
        "complete": bool(
            steps[-1]["table"] and (steps[-1]["table"]["hand"] or {}).get("phase") == "complete"
        ),
        "rulings": [step["seq"] for step in steps if step["kind"] == "ruling"],
        # the dealers on duty during the hand, in order (employee IDs; envelope 2 events)
        "dealers": list(dict.fromkeys(step["dealer"] for step in steps if step["dealer"])),
    }


def _up_to_hand(events: Iterator[dict[str, Any]], scope: _Scope) -> Iterator[dict[str, Any]]:
    """The table's events until the first one after the hand; refused beyond the limit."""
    seen = 0
    try:
        for event in events:
            number = event.get("hand_no")
            if number is not None and number > scope.hand_no:
                return
            seen += 1
            if seen > scope.max_events:
                raise VerifyScopeTooLarge(
                    told.REPLAY_TOO_MANY(
                        hand=scope.hand_no, table=repr(scope.table_id), limit=scope.max_events
                    ),
                    seen,
                    scope.max_events,
                )
            yield event
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()


def _step(
    event: Mapping[str, Any], replay: TableReplay, problem: str | None, services: Services
) -> dict[str, Any]:
    payload = event["payload"]
    step: dict[str, Any] = {
        "seq": event["seq"],
        "at": event["at"],
        "version": event["version"],
        "kind": event["kind"],
        "actor": event["actor"],
        "role": event["role"],
        "dealer": dealer_of(event),  # the dealer on duty (None: none, or an envelope 1 event)
        "command": payload.get("command"),
        "verified": problem is None and not replay.stopped,
        "problem": problem,
    }
    if event["kind"] == REJECTED:
        refused = {"rule_id": payload.get("rule_id"), "message": payload.get("message")}
        if "message_id" in payload:  # what it said, which the API renders in any language
            refused |= {"message_id": payload["message_id"], "params": payload.get("params")}
        step["refused"] = refused
    if event["kind"] == FLOOR_CALL:
        step["call"] = payload.get("call")
    if event["kind"] in (DEALER_ON_DUTY, SIGN_IN_REFUSED):
        step["shift"] = {key: value for key, value in payload.items() if key != "command"}
    command = payload.get("command") or {}
    if event["kind"] == "ruling":
        step["ruling"] = {
            key: command.get(key) for key in ("decision", "rule_id", "note", "effects", "call_id")
        }
    step["events"] = payload.get("events") or []
    step["result"] = payload.get("result")
    state = replay.state
    if state is not None and not replay.stopped:
        rules = services.profiles.version(event["profile_id"], event["profile_sha256"])
        table = view(state, rules, parse_at(event["at"]))
        step["table"] = table
        step["instructions"] = table["instructions"]
    else:
        step["table"] = None
        step["instructions"] = []
    return step
