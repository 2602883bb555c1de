"""A store written before envelope 2 (no ``envelope``/``dealer`` columns) is upgraded in
place when the service opens it: its version 1 events read back with exactly their eleven
members, so they verify as before, and the chain goes on in envelope 2."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from audit_chains import synthetic_events

from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.chain import seal
from dealerassist.audit.envelope import V1_FIELDS, build_event
from dealerassist.audit.verify import verify


def _v1_chain(count: int) -> list[dict[str, Any]]:
    """A valid version 1 chain: the synthetic events sealed without the envelope 2 members."""
    chain: list[dict[str, Any]] = []
    prev = "0" * 64
    for event in synthetic_events("T1", count):
        body = {k: v for k, v in event.items() if k in V1_FIELDS[:-2]}
        sealed = seal(body, prev)
        prev = sealed["hash"]
        chain.append(sealed)
    return chain


def _old_schema(url: str, events: list[dict[str, Any]]) -> None:
    """The events and quarantine tables as a store before envelope 2 created them."""
    metadata = sa.MetaData()

    def columns() -> list[sa.Column[Any]]:
        return [
            sa.Column("table_id", sa.String(64), nullable=False),
            sa.Column("seq", sa.BigInteger, nullable=False),
            sa.Column("version", sa.BigInteger, nullable=False),
            sa.Column("hand_no", sa.Integer, nullable=True),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("actor", sa.String(128), nullable=False),
            sa.Column("role", sa.String(32), nullable=False),
            sa.Column("kind", sa.String(32), nullable=False),
            sa.Column("payload", sa.JSON, nullable=False),
            sa.Column("profile_id", sa.String(128), nullable=False),
            sa.Column("profile_sha256", sa.String(64), nullable=False),
            sa.Column("prev_hash", sa.String(64), nullable=False),
            sa.Column("hash", sa.String(64), nullable=False),
        ]

    old_events = sa.Table(
        "events", metadata, *columns(), sa.PrimaryKeyConstraint("table_id", "seq")
    )
    sa.Table(
        "quarantine",
        metadata,
        *columns(),
        sa.Column("stored_hash", sa.String(64), nullable=True),
        sa.Column("detected_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", "hash"),
    )
    engine = sa.create_engine(url)
    metadata.create_all(engine)
    with engine.begin() as conn:
        rows = [
            {**e, "at": datetime.strptime(e["at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)}
            for e in events
        ]
        conn.execute(old_events.insert(), rows)
    engine.dispose()


def test_a_store_from_before_envelope_2_is_upgraded_and_its_chain_verifies(sql_url: str) -> None:
    """Version 1 rows come back as they were sealed; new events are envelope 2 linked to
    them; the whole chain verifies (hashes, links, versions, the dealer named)."""
    old = _v1_chain(5)
    _old_schema(sql_url, old)
    store = SqlAuditStore(sql_url)
    assert list(store.iter_events("T1")) == old
    last = old[-1]
    new = build_event(
        table_id="T1", seq=6, version=5, hand_no=1, at=datetime(2026, 12, 2, tzinfo=UTC),
        actor="tablet:t-1", role="dealer", kind="dealer_on_duty",
        payload={"employee_id": "E1", "previous": None, "reason": "sign_in"},
        profile_id="test", profile_sha256="0" * 64, prev_hash=last["hash"], dealer="E1",
    )  # fmt: skip
    assert store.append([new]) == 1
    back = list(store.iter_events("T1"))
    assert back == [*old, new]
    assert "envelope" not in back[0] and back[-1]["envelope"] == 2
    assert verify(back, lambda *version: None, replay=False)["ok"] is True
    store.dispose()
