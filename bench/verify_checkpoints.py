"""Full verify against verify from the last good checkpoint, on a store of many events.

Builds a SQLite store of ``--events`` sealed events over ``--tables`` tables spread over
``--days`` days (kept at ``--store`` and reused when it already holds that many), with a
signed checkpoint of every table's head at the end of each day. Then times, with the hash
chain checks and the checkpoint anchors (``--no-replay``: the synthetic events are not
real hands; replay costs come on top for the full verify only, see below):

* the full verify: every event, against the latest checkpoint;
* the incremental verify when only the last day is new: from the state an ok verify saved
  at the previous day's checkpoint (each table read from its checkpointed head on).

    .venv/bin/python bench/verify_checkpoints.py [--events 1000000] [--tables 200]
                                                 [--days 30] [--store var/bench-1m.sqlite3]

The incremental verify does not replay the tables it resumes (replay needs each table's
state from its first event), so against a full verify *with* replay it saves even more
than the figure printed here.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.audit.checkpoints import (
    Head,
    anchors_from,
    key_id,
    make_checkpoint,
    report_from_state,
    report_to_state,
    verify_checkpoints,
)
from dealerassist.audit.envelope import build_event, format_at
from dealerassist.audit.verify import verify

T0 = datetime(2026, 1, 1, tzinfo=UTC)
KEY = Ed25519PrivateKey.from_private_bytes(bytes(32))
KEYS = {key_id(KEY.public_key()): KEY.public_key()}
BATCH = 5000


def _no_rules(profile_id: str, sha256: str) -> Any:
    raise AssertionError("no replay in this benchmark")


def build(store: SqlAuditStore, events: int, tables: int, days: int) -> float:
    """Fill the store day by day, a checkpoint of every table's head after each day."""
    started = time.perf_counter()
    per_table = events // tables
    per_day = per_table // days
    heads = {f"B{index:03d}": (0, GENESIS_HASH) for index in range(tables)}
    previous: dict[str, Any] | None = None
    for day in range(days):
        last = per_table if day == days - 1 else (day + 1) * per_day
        batch: list[dict[str, Any]] = []
        day_heads: list[Head] = []
        for table_id, (seq, prev_hash) in heads.items():
            event: dict[str, Any] | None = None
            for number in range(seq + 1, last + 1):
                at = T0 + timedelta(days=day, seconds=number % 80000)
                event = build_event(
                    table_id=table_id,
                    seq=number,
                    version=number,
                    hand_no=number // 10 + 1,
                    at=at,
                    actor="dealer-1",
                    role="dealer",
                    kind="action",
                    payload={"command": {"type": "action", "seat": 2, "action": "call"}},
                    profile_id="bench",
                    profile_sha256="0" * 64,
                    prev_hash=prev_hash,
                    dealer=None,
                )
                prev_hash = event["hash"]
                batch.append(event)
                if len(batch) >= BATCH:
                    store.append(batch)
                    batch = []
            if event is not None:
                heads[table_id] = (last, prev_hash)
                day_heads.append(Head.of(event))
        store.append(batch)
        at_text = format_at(T0 + timedelta(days=day + 1))
        previous = make_checkpoint(previous, day_heads, at_text, KEY)
        store.append_checkpoint(previous)
        print(f"  day {day + 1}/{days}: {store.count_events()} events", flush=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--store", type=Path, default=Path("var/bench-verify.sqlite3"))
    args = parser.parse_args()
    args.store.parent.mkdir(parents=True, exist_ok=True)
    store = SqlAuditStore(f"sqlite:///{args.store.resolve()}")
    if store.count_events() < args.events // args.tables * args.tables:
        args.store.unlink(missing_ok=True)
        store.dispose()
        store = SqlAuditStore(f"sqlite:///{args.store.resolve()}")
        print(f"building {args.events} events over {args.tables} tables and {args.days} days")
        print(f"  built in {build(store, args.events, args.tables, args.days):.1f} s")
    total = store.count_events()

    started = time.perf_counter()
    report = verify_checkpoints(store.iter_checkpoints(), KEYS)
    anchors = anchors_from(report)
    full = verify(store.iter_events(), _no_rules, replay=False, anchors=anchors)
    full_seconds = time.perf_counter() - started
    assert full["ok"], full["problems"][:3]

    # the state an ok verify saved at the previous day's checkpoint
    before = verify_checkpoints(
        (record for record in store.iter_checkpoints() if record["n"] < args.days), KEYS
    )
    state = json.loads(json.dumps(report_to_state(before)))
    started = time.perf_counter()
    start = report_from_state(state)
    resume = {table: head for table, (head, _) in start.heads.items()}
    report = verify_checkpoints(store.iter_checkpoints(start.last_n), KEYS, start)
    starts = {table: head.seq for table, head in resume.items()}
    new = verify(
        store.iter_events_from(starts),
        _no_rules,
        replay=False,
        anchors=anchors_from(report),
        resume=resume,
    )
    incremental_seconds = time.perf_counter() - started
    assert new["ok"], new["problems"][:3]
    print(
        json.dumps(
            {
                "events": total,
                "tables": args.tables,
                "days": args.days,
                "full_verify_seconds": round(full_seconds, 2),
                "full_events_per_second": round(total / full_seconds),
                "incremental_events_read": new["events"],
                "incremental_verify_seconds": round(incremental_seconds, 2),
                "speedup": round(full_seconds / incremental_seconds, 1),
            },
            indent=2,
        )
    )
    store.dispose()


if __name__ == "__main__":
    main()
