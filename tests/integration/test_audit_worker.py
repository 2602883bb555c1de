"""The audit worker (dealerassist.worker): drains staged events into the store with RQ."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from audit_chains import interleaved, rules_for, stage, synthetic_events
from rq.registry import FailedJobRegistry, ScheduledJobRegistry

from dealerassist import worker
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, drain_flag_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _reset_worker_context() -> Iterator[None]:
    yield
    worker.configure(None)


def _work(connection: redis.Redis) -> bool:
    return worker.make_worker(connection).work(burst=True, logging_level="CRITICAL")


def test_one_worker_drains_every_table_into_the_store(
    redis_client: redis.Redis, sql_url: str
) -> None:
    """1,000 events over 10 tables land once each, in order, with one job per table."""
    queue = RQAuditQueue(redis_client)
    events = interleaved(tables=10, per_table=100)
    stage(queue, redis_client, events)
    assert len(queue.queue) == 10
    worker.configure(sql_url, batch=64)
    assert _work(redis_client) is True
    store = SqlAuditStore(sql_url)
    assert store.count_events() == 1000 and queue.depth() == 0
    assert verify(store.iter_events(), rules_for, replay=False)["ok"] is True
    assert not any(redis_client.exists(drain_flag_key(f"T{i:02d}")) for i in range(10))
    store.dispose()


def test_drain_table_outside_rq_uses_the_configured_redis(
    redis_url: str, redis_client: redis.Redis, tmp_path: Path
) -> None:
    """Called directly, the job reads Redis from the context and returns how many were new."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 7)))
    worker.configure(f"sqlite:///{tmp_path / 'a.sqlite3'}", redis_url)
    assert worker.drain_table("T1") == 7
    assert worker.drain_table("T1") == 0


def test_a_duplicate_drain_job_stores_nothing_twice(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """Extra drain jobs for the same table (a sweep, a requeue) are harmless."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 30)))
    queue.enqueue_drain("T1")
    queue.enqueue_drain("T1")
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    worker.configure(url, batch=7)
    _work(redis_client)
    assert SqlAuditStore(url).count_events() == 30


def test_events_already_stored_but_not_trimmed_are_skipped(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """A crash between commit and trim leaves stored events staged; the next drain skips them."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 20))
    stage(queue, redis_client, events)
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    SqlAuditStore(url).append(events[:15])
    worker.configure(url)
    _work(redis_client)
    store = SqlAuditStore(url)
    assert store.count_events() == 20 and queue.depth() == 0


def test_a_failing_drain_retries_with_backoff(redis_client: redis.Redis, tmp_path: Path) -> None:
    """With the store down, the job is scheduled for a retry and the events stay staged."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 5)))
    worker.configure(f"sqlite:///{tmp_path / 'missing' / 'a.sqlite3'}")
    _work(redis_client)
    scheduled = ScheduledJobRegistry(queue=queue.queue)
    assert len(scheduled) == 1 and queue.pending("T1") == 5
    assert redis_client.ttl(drain_flag_key("T1")) > 0


def test_exhausted_retries_wait_in_the_failed_registry_until_requeued(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """After its last retry the job is failed; requeue_failed with the store back lands all."""
    queue = RQAuditQueue(redis_client, retry_intervals=(0, 0))
    events = list(synthetic_events("T1", 12))
    stage(queue, redis_client, events[:6])
    url = f"sqlite:///{tmp_path / 'missing' / 'a.sqlite3'}"
    worker.configure(url)
    _work(redis_client)
    failed = FailedJobRegistry(queue=queue.queue)
    assert len(failed) == 1
    stage(queue, redis_client, events[6:])
    assert queue.pending("T1") == 12
    (tmp_path / "missing").mkdir()
    assert worker.requeue_failed(redis_client) == 1
    _work(redis_client)
    store = SqlAuditStore(url)
    assert store.count_events() == 12 and len(failed) == 0 and queue.depth() == 0
    assert verify(store.iter_events(), rules_for, replay=False)["ok"] is True


def test_urls_from_env_default_to_sqlite_in_the_data_dir(tmp_path: Path) -> None:
    """Without DATABASE_URL the store is SQLite under DEALERASSIST_DATA_DIR."""
    urls = worker.urls_from_env({"DEALERASSIST_DATA_DIR": str(tmp_path / "var")})
    assert urls.redis_url is None
    assert urls.database_url == f"sqlite:///{(tmp_path / 'var' / 'audit.sqlite3').resolve()}"
    assert (tmp_path / "var").is_dir()
    given = worker.urls_from_env({"DATABASE_URL": "postgresql://x/y", "REDIS_URL": "redis://r"})
    assert given == worker.WorkerUrls(redis_url="redis://r", database_url="postgresql://x/y")


def test_two_workers_draining_while_staging_goes_on_store_everything_once(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path
) -> None:
    """Two worker processes drain while events keep arriving: each event lands exactly once."""
    url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--batch", "7"]
    workers = [
        subprocess.Popen([*command, "--log-level", "ERROR"], cwd=REPO, env=env) for _ in range(2)
    ]
    queue = RQAuditQueue(redis_client)
    events = interleaved(tables=4, per_table=150)
    try:
        for start in range(0, len(events), 20):
            stage(queue, redis_client, events[start : start + 20])
            time.sleep(0.01)
        store = SqlAuditStore(url)
        deadline = time.monotonic() + 45
        while (queue.depth() or store.count_events() < 600) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        for process in workers:
            process.terminate()
        for process in workers:
            process.wait(timeout=30)
    assert queue.depth() == 0
    assert store.count_events() == 600
    assert verify(store.iter_events(), rules_for, replay=False)["ok"] is True
    store.dispose()


def test_maintenance_re_enqueues_only_tables_with_no_drain_queued(
    redis_client: redis.Redis,
) -> None:
    """A table whose drain job was lost gets one; a table with a drain queued gets none."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=2, per_table=3))
    queue.queue.empty()
    redis_client.delete(drain_flag_key("T00"))
    worker.make_worker(redis_client).run_maintenance_tasks()
    assert [job.args[0] for job in queue.queue.get_jobs()] == ["T00"]
    assert redis_client.exists(drain_flag_key("T00"))
