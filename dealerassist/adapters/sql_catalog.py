"""What the SQL audit store holds, summed up for browsing: its tables (events, first and last
event, hands) and its hands (by table, day, hand number), each one grouped query over the
``events`` and ``hands`` tables of ``sql_store`` (read only)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from dealerassist.adapters.sql_store import SqlAuditStore, _guard, events_table, hands_table
from dealerassist.audit.envelope import format_at

E = events_table.c
H = hands_table.c


def _utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    return format_at(value.replace(tzinfo=UTC) if value.tzinfo is None else value)


class SqlAuditCatalog:
    """The AuditCatalog port over a ``SqlAuditStore``."""

    def __init__(self, store: SqlAuditStore) -> None:
        self.store = store

    def tables(self, scope: Collection[str] | None, since: datetime) -> list[dict[str, Any]]:
        events = sa.select(
            E.table_id,
            sa.func.count(),
            sa.func.min(E.at),
            sa.func.max(E.at),
            sa.func.max(E.hand_no),
        ).group_by(E.table_id)
        hands = sa.select(
            H.table_id,
            sa.func.count(),
            sa.func.sum(sa.case((H.ended_at >= since, 1), else_=0)),
            sa.func.max(H.ended_at),
        ).group_by(H.table_id)
        if scope is not None:
            events = events.where(E.table_id.in_(sorted(scope)))
            hands = hands.where(H.table_id.in_(sorted(scope)))
        self.store._ensure_schema()
        with _guard(), self.store.engine.connect() as conn:
            ended = {row[0]: row[1:] for row in conn.execute(hands)}
            rows = list(conn.execute(events.order_by(E.table_id)))
        found = []
        for table_id, count, first, last, last_hand in rows:
            done, recent, last_end = ended.get(table_id, (0, 0, None))
            found.append({
                "table_id": table_id,
                "events": int(count),
                "first_at": _utc(first),
                "last_at": _utc(last),
                "last_hand_no": last_hand,
                "hands_ended": int(done),
                "hands_ended_since": int(recent or 0),
                "last_hand_ended_at": _utc(last_end),
            })  # fmt: skip
        return found

    def hands(
        self,
        scope: Collection[str] | None,
        table_id: str | None,
        day: tuple[datetime, datetime] | None,
        hand_no: int | None,
        limit: int,
        offset: int,
    ) -> tuple[list[dict[str, Any]], int]:
        started = sa.func.min(E.at)
        query = (
            sa.select(E.table_id, E.hand_no, started.label("started"), sa.func.max(E.at),
                      sa.func.count())
            .where(E.hand_no.is_not(None))
            .group_by(E.table_id, E.hand_no)
        )  # fmt: skip
        if scope is not None:
            query = query.where(E.table_id.in_(sorted(scope)))
        if table_id is not None:
            query = query.where(E.table_id == table_id)
        if hand_no is not None:
            query = query.where(E.hand_no == hand_no)
        if day is not None:
            query = query.having(sa.and_(started >= day[0], started < day[1]))
        total_query = sa.select(sa.func.count()).select_from(query.subquery())
        page = query.order_by(E.table_id, E.hand_no.desc()).limit(limit).offset(offset)
        self.store._ensure_schema()
        with _guard(), self.store.engine.connect() as conn:
            total = int(conn.execute(total_query).scalar_one())
            rows = list(conn.execute(page))
            keys = [(row[0], row[1]) for row in rows]
            records = {}
            if keys:
                ended = sa.select(H.table_id, H.hand_no, H.ended_at, H.result).where(
                    sa.tuple_(H.table_id, H.hand_no).in_(keys)
                )
                records = {(r[0], r[1]): (r[2], r[3]) for r in conn.execute(ended)}
        found = []
        for tid, number, first, last, count in rows:
            ended_at, result = records.get((tid, number), (None, None))
            found.append({
                "table_id": tid,
                "hand_no": number,
                "started_at": _utc(first),
                "last_event_at": _utc(last),
                "ended_at": _utc(ended_at),
                "events": int(count),
                "complete": ended_at is not None,
                "winners": _winners(result),
            })  # fmt: skip
        return found, total


def _winners(result: Any) -> dict[str, int]:
    """Chips won per seat in a stored result (``{}`` for none, a misdeal, a chop).

    >>> _winners({"pots": [{"shares": {"1": 10}}, {"shares": {"1": 2, "3": 2}}]})
    {'1': 12, '3': 2}
    """
    won: dict[str, int] = {}
    if not isinstance(result, dict):
        return won
    for pot in result.get("pots") or []:
        for seat, chips in (pot.get("shares") or {}).items():
            won[str(seat)] = won.get(str(seat), 0) + int(chips)
    return won
