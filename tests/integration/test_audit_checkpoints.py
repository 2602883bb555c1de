"""Signed checkpoints end to end: the worker signs them as it drains, verify (the CLI)
reports a deleted tail or table against them, an export carries them, and a store restored
from an older backup is found short and caught up from an export (issue 19)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import sqlalchemy as sa
from audit_chains import interleaved, stage

from dealerassist import worker
from dealerassist.adapters.checkpointing import KEY_FILE_ENV, LOG_ENV, write_key_file
from dealerassist.adapters.redis_tables import table_key
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore, events_table
from dealerassist.cli import main


@pytest.fixture(autouse=True)
def _reset_worker_context() -> Iterator[None]:
    yield
    worker.configure(None)


@pytest.fixture
def signing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A checkpoint key apart from the store, the worker pointed at it; its public key."""
    key_file = tmp_path / "keys" / "checkpoint.pem"
    public_hex = write_key_file(key_file)
    monkeypatch.setenv(KEY_FILE_ENV, str(key_file))
    monkeypatch.setenv(LOG_ENV, str(tmp_path / "keys" / "checkpoints.jsonl"))
    return public_hex


def _drain(connection: redis.Redis, sql_url: str) -> None:
    worker.configure(sql_url)
    worker.make_worker(connection).work(burst=True, logging_level="CRITICAL")
    worker.configure(None)


def _cli(
    args: list[str], sql_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> tuple[int, Any]:
    monkeypatch.setenv("DATABASE_URL", sql_url)
    code = main(args)
    out = capsys.readouterr().out
    try:
        return code, json.loads(out)
    except ValueError:
        return code, out


def test_the_worker_signs_checkpoints_and_verify_sees_a_deleted_tail_and_table(
    redis_client: redis.Redis,
    sql_url: str,
    signing: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The drain signs the heads it stored; ``DELETE ... WHERE seq > 15`` of one table and
    every event of another still verified ok alone, and are named against the checkpoint."""
    stage(RQAuditQueue(redis_client), redis_client, interleaved(tables=3, per_table=20))
    _drain(redis_client, sql_url)
    store = SqlAuditStore(sql_url)
    records = list(store.iter_checkpoints())
    assert records and records[-1]["n"] == len(records)
    signed = {head["table_id"]: head["seq"] for record in records for head in record["heads"]}
    assert signed == {"T00": 20, "T01": 20, "T02": 20}
    verify_args = ["verify", "--no-replay", "--public-key", signing]
    code, answer = _cli(verify_args, sql_url, capsys, monkeypatch)
    assert code == 0 and answer["ok"] is True, answer
    assert answer["anchored"]["checkpoints"]["tables"] == 3

    with store.engine.begin() as conn:
        table, seq = events_table.c.table_id, events_table.c.seq
        conn.execute(sa.delete(events_table).where(table == "T00", seq > 15))
        conn.execute(sa.delete(events_table).where(table == "T01"))
    code, alone = _cli(["verify", "--no-replay"], sql_url, capsys, monkeypatch)
    assert code == 0 and alone["ok"] is True  # what the store says of itself
    code, answer = _cli(verify_args, sql_url, capsys, monkeypatch)
    assert code == 1
    whys = {problem["table_id"]: problem["why"] for problem in answer["problems"]}
    assert set(whys) == {"T00", "T01"}
    assert whys["T00"].startswith("seq 16..20 missing at the tail")
    assert whys["T01"].startswith("the table is missing")
    store.dispose()


def _backup(sqlite_url: str, target: Path) -> None:
    """An online backup of a SQLite store (the sqlite3 backup API: a consistent copy)."""
    source = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    copy = sqlite3.connect(target)
    with copy:
        source.backup(copy)
    source.close()
    copy.close()


def test_a_store_restored_from_an_older_backup_is_found_short_and_caught_up(
    redis_client: redis.Redis,
    tmp_path: Path,
    signing: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Back up the store, drain more, restore the backup: the events drained since are gone
    from Redis too. The restored store agrees with its own (older) checkpoints; the worker's
    checkpoint log and Redis's live heads name each table's missing tail; ``catch-up`` from
    an auditor's export stores exactly what is missing, and verify is ok again."""
    url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    events = interleaved(tables=3, per_table=20)
    queue = RQAuditQueue(redis_client)
    for table_id in ("T00", "T01", "T02"):  # live tables: their head as the table store keeps it
        last = [event for event in events if event["table_id"] == table_id][-1]
        head = f'{{"seq":{last["seq"]},"last_hash":"{last["hash"]}","state":{{}}}}'
        redis_client.set(table_key(table_id), head)
    stage(queue, redis_client, events[:30])
    _drain(redis_client, url)
    _backup(url, tmp_path / "backup.sqlite3")
    stage(queue, redis_client, events[30:])
    _drain(redis_client, url)
    export = tmp_path / "export.jsonl"
    code, _ = _cli(["export", "-o", str(export)], url, capsys, monkeypatch)
    assert code == 0
    assert sum('"checkpoint"' in line for line in export.read_text().splitlines()) >= 2

    shutil.copy(tmp_path / "backup.sqlite3", tmp_path / "audit.sqlite3")  # the restore
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"audit.sqlite3{suffix}").unlink(missing_ok=True)
    verify_args = ["verify", "--no-replay", "--public-key", signing]
    code, own = _cli(verify_args, url, capsys, monkeypatch)
    assert code == 0 and own["ok"] is True  # the restored store agrees with itself
    log = str(tmp_path / "keys" / "checkpoints.jsonl")
    code, answer = _cli([*verify_args, "--checkpoints", log], url, capsys, monkeypatch)
    assert code == 1
    assert sorted((p["table_id"], p["seq"]) for p in answer["problems"]) == [
        ("T00", 11),
        ("T01", 11),
        ("T02", 11),
    ]
    assert all("11..20 missing at the tail" in p["why"] for p in answer["problems"])
    code, live = _cli(["verify", "--no-replay", "--live"], url, capsys, monkeypatch)
    assert code == 1 and len(live["problems"]) == 3  # Redis's live heads say the same

    code, caught = _cli(["catch-up", str(export)], url, capsys, monkeypatch)
    assert code == 0 and caught["stored"] == 30 and caught["forks"] == []
    code, answer = _cli([*verify_args, "--checkpoints", log, "--live"], url, capsys, monkeypatch)
    assert code == 0 and answer["ok"] is True, answer


def test_verify_from_a_saved_state_reads_only_what_came_after(
    redis_client: redis.Redis,
    sql_url: str,
    tmp_path: Path,
    signing: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--save-state`` after an ok verify; ``--since-state`` then verifies only the events
    from each table's checkpointed head on (and still sees a deleted tail)."""
    events = interleaved(tables=2, per_table=30)
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, events[:40])
    _drain(redis_client, sql_url)
    state = tmp_path / "verified.json"
    verify_args = ["verify", "--no-replay", "--public-key", signing]
    code, full = _cli([*verify_args, "--save-state", str(state)], sql_url, capsys, monkeypatch)
    assert code == 0 and full["events"] == 40
    stage(queue, redis_client, events[40:])
    _drain(redis_client, sql_url)
    code, new = _cli([*verify_args, "--since-state", str(state)], sql_url, capsys, monkeypatch)
    assert code == 0 and new["ok"] is True, new
    assert new["events"] == 20 + 2  # each table's resumed head, and what came after it
    export = tmp_path / "export.jsonl"
    assert _cli(["export", "-o", str(export)], sql_url, capsys, monkeypatch)[0] == 0
    since = ["--since-state", str(state), "--file", str(export)]
    code, from_file = _cli([*verify_args, *since], sql_url, capsys, monkeypatch)
    assert code == 0 and from_file["events"] == 22, from_file  # the export's own checkpoints
    store = SqlAuditStore(sql_url)
    with store.engine.begin() as conn:
        conn.execute(sa.delete(events_table).where(events_table.c.seq > 25))
    store.dispose()
    code, short = _cli([*verify_args, "--since-state", str(state)], sql_url, capsys, monkeypatch)
    assert code == 1 and {p["seq"] for p in short["problems"]} == {26}


def test_a_checkpoint_is_due_when_a_hand_ends_and_at_least_every_minute(tmp_path: Path) -> None:
    """The worker's checkpointer: a stored hand end makes one due after MIN_SECONDS, heads
    without a hand end after MAX_SECONDS; nothing moved, nothing to sign."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dealerassist.adapters.checkpointing import MAX_SECONDS, MIN_SECONDS, Checkpointer
    from dealerassist.audit.checkpoints import Head

    store = SqlAuditStore(f"sqlite:///{tmp_path / 'audit.sqlite3'}")
    clock = [0.0]
    checkpointer = Checkpointer(store, Ed25519PrivateKey.generate(), monotonic=lambda: clock[0])
    head = Head("T1", 5, "a" * 64, "2026-12-01T12:00:00.000000Z")
    checkpointer.note([head], hand_ended=True)
    clock[0] = MIN_SECONDS - 0.1
    assert checkpointer.maybe() is None
    clock[0] = MIN_SECONDS
    assert checkpointer.maybe() is not None and store.latest_checkpoint()["n"] == 1  # type: ignore[index]
    checkpointer.note([Head("T1", 6, "b" * 64, head.at)], hand_ended=False)
    clock[0] += MAX_SECONDS - 0.1
    assert checkpointer.maybe() is None
    clock[0] += 0.1
    assert checkpointer.maybe() is not None and store.latest_checkpoint()["n"] == 2  # type: ignore[index]
    clock[0] += 2 * MAX_SECONDS
    assert checkpointer.maybe() is None and checkpointer.flush() is None  # nothing moved
    store.dispose()
