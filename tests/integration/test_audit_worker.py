"""The audit worker (dealerassist.worker): drains staged events into the store with RQ."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis
from audit_chains import interleaved, rules_for, stage, synthetic_events
from rq.registry import FailedJobRegistry, ScheduledJobRegistry

from dealerassist import worker
from dealerassist.adapters.rq_audit_queue import (
    DRAIN_JOB,
    RQAuditQueue,
    dirty_key,
    drain_flag_key,
)
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
    """1,000 events over 10 tables land once each, in order, with one job for them all;
    the drain ends released (no flag, no dirty table)."""
    queue = RQAuditQueue(redis_client)
    events = interleaved(tables=10, per_table=100)
    stage(queue, redis_client, events)
    assert len(queue.queue) == 1
    worker.configure(sql_url, batch=64)
    assert _work(redis_client) is True
    store = SqlAuditStore(sql_url)
    assert store.count_events() == 1000 and queue.depth() == 0
    assert verify(store.iter_events(), rules_for, replay=False)["ok"] is True
    assert not redis_client.exists(drain_flag_key(), dirty_key())
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
    queue.enqueue_drain()
    queue.enqueue_drain()
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
    assert 0 < redis_client.ttl(drain_flag_key()) <= worker.FAILED_HOLD_SECONDS


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


def test_maintenance_re_enqueues_a_drain_only_when_none_is_on(
    redis_client: redis.Redis,
) -> None:
    """Events whose drain was lost (flag gone, e.g. expired) get one; while the flag says a
    drain is on, maintenance adds none."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=2, per_table=3))
    queue.queue.empty()
    worker.make_worker(redis_client).run_maintenance_tasks()
    assert len(queue.queue) == 0
    redis_client.delete(drain_flag_key())
    worker.make_worker(redis_client).run_maintenance_tasks()
    assert [job.func_name for job in queue.queue.get_jobs()] == [DRAIN_JOB]
    assert redis_client.exists(drain_flag_key())


def test_a_round_shares_its_batch_so_a_backlog_starves_no_table(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """One table with 1,000 staged events and nine with one each: the first round stores
    each of the nine and a share of the backlog, in one transaction."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T00", 1000)))
    stage(queue, redis_client, [next(synthetic_events(f"T{i:02d}", 1)) for i in range(1, 10)])
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    first = worker.drain_round(queue, store, batch=50)
    assert first == worker.Round(read=5 + 9, stored=5 + 9, full=True)
    assert queue.pending("T00") == 995 and queue.depth() == 995
    assert worker.drain_rounds(queue, store, batch=50) == 995
    assert store.count_events() == 1009 and not redis_client.exists(drain_flag_key())
    store.dispose()


def test_a_lingering_drain_takes_events_staged_while_it_waits(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """Events staged while the drain lingers join it (no second job); it releases the
    flag only once nothing came for the linger time."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 3))
    stage(queue, redis_client, events[:1])
    queue.queue.empty()  # running
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    later = threading.Timer(0.3, stage, (queue, redis_client, events[1:]))
    started = time.monotonic()
    later.start()
    assert worker.drain_rounds(queue, store, linger=0.6) == 3
    later.join()
    assert time.monotonic() - started >= 0.9
    assert len(queue.queue) == 0 and not redis_client.exists(drain_flag_key())
    store.dispose()


def test_a_drain_that_finds_nothing_ends_without_lingering(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """A duplicate drain (requeued failures, a sweep) with nothing to do releases at once:
    a thousand requeued jobs after an outage must not linger a second each."""
    queue = RQAuditQueue(redis_client)
    queue.enqueue_drain()
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    started = time.monotonic()
    assert worker.drain_rounds(queue, store, linger=5.0) == 0
    assert time.monotonic() - started < 1.0 and not redis_client.exists(drain_flag_key())
    store.dispose()


def test_a_drain_hands_over_to_a_new_job_when_its_budget_is_spent(
    redis_client: redis.Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its time budget with events left, the drain enqueues its successor and ends,
    the flag still set: no job runs for long, and none is lost."""
    monkeypatch.setattr(worker, "JOB_BUDGET_SECONDS", 0.0)
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 30)))
    queue.queue.empty()
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert worker.drain_rounds(queue, store, batch=10) == 10
    assert [job.func_name for job in queue.queue.get_jobs()] == [DRAIN_JOB]
    assert redis_client.exists(drain_flag_key()) and queue.pending("T1") == 20
    store.dispose()


def test_no_event_is_stranded_when_stagings_race_drains_that_end(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stagings from two threads race a worker whose drains end as soon as they find
    nothing (no linger, 1 ms rounds): whenever a table is dirty the drain flag is set,
    and at the end every event is stored once with nothing left staged."""
    monkeypatch.setattr(worker, "ROUND_SECONDS", 0.001)
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    worker.configure(url)
    queue = RQAuditQueue(redis_client)
    events = interleaved(tables=6, per_table=60)
    halves = [[e for e in events if int(e["table_id"][1:]) % 2 == side] for side in (0, 1)]
    stagers = [
        threading.Thread(target=_stage_slowly, args=(redis.Redis.from_url(redis_url), half))
        for half in halves
    ]
    for thread in stagers:
        thread.start()
    broken: list[int] = []
    watcher = threading.Thread(target=_watch_invariant, args=(redis_url, stagers, broken))
    watcher.start()
    while any(thread.is_alive() for thread in stagers):
        worker.make_worker(redis_client, linger=0.0).work(burst=True, logging_level="CRITICAL")
    for thread in [*stagers, watcher]:
        thread.join()
    assert broken == [], "a dirty table had no drain on"
    assert len(queue.queue) >= 1 or queue.depth() == 0
    _work(redis_client)
    store = SqlAuditStore(url)
    assert queue.depth() == 0 and store.count_events() == 360
    assert verify(store.iter_events(), rules_for, replay=False)["ok"] is True
    store.dispose()


def _watch_invariant(redis_url: str, stagers: list[threading.Thread], broken: list[int]) -> None:
    """Until the stagers end: is some table dirty while no drain is on? (one MULTI, so
    both are read at the same instant)."""
    connection = redis.Redis.from_url(redis_url)
    while any(thread.is_alive() for thread in stagers):
        with connection.pipeline() as pipe:
            dirty, flag = pipe.scard(dirty_key()).exists(drain_flag_key()).execute()
        if dirty and not flag:
            broken.append(dirty)
    connection.close()


def _stage_slowly(connection: redis.Redis, events: list[dict[str, object]]) -> None:
    queue = RQAuditQueue(connection)
    for event in events:
        stage(queue, connection, [event])
        time.sleep(random.uniform(0, 0.003))
    connection.close()


def test_a_stopped_worker_ends_its_drain_promptly_and_hands_the_rest_over(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path
) -> None:
    """SIGTERM while events keep coming: the worker's drain job ends at its next round (it
    hands over saying it was asked to stop, or, idle at that moment, releases the drain),
    never by waiting out its budget, and the worker exits, leaving a drain job queued; a
    new worker lands it all. (No job hands over for its budget after the signal, as its
    log shows: that, rather than a tight bound on the exit time, tells the two apart, since
    on a loaded machine a worker's exit alone can take seconds.)"""
    url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--log-level", "INFO"]
    log_file = tmp_path / "worker.log"
    with log_file.open("wb") as log_out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stderr=log_out)
    queue = RQAuditQueue(redis_client)
    events = interleaved(tables=3, per_table=100)
    store = SqlAuditStore(url)
    exited: list[float] = []  # when the worker ended, seen by a thread waiting on it: the
    # staging loop below goes on for a while after the signal and must not count

    def wait_for_exit() -> None:
        process.wait()
        exited.append(time.monotonic())

    waiter = threading.Thread(target=wait_for_exit, daemon=True)
    try:
        for index, event in enumerate(events):
            stage(queue, redis_client, [event])
            if index == 150:
                deadline = time.monotonic() + 30
                while store.count_events() == 0 and time.monotonic() < deadline:
                    time.sleep(0.01)
                process.send_signal(signal.SIGTERM)
                asked = time.monotonic()
                asked_at = datetime.now(UTC)
                waiter.start()
            time.sleep(0.002)
        waiter.join(timeout=30)
        assert exited and process.returncode == 0
        stopped_after = exited[0] - asked
    finally:
        process.kill()
    lines = log_file.read_text().splitlines()
    logged = [json.loads(line) for line in lines if line.startswith("{")]
    assert logged, "the worker logged nothing at INFO: the check below would prove nothing"
    after_signal = [
        entry["message"]
        for entry in logged
        if "hands over to a new job" in entry.get("message", "")
        and datetime.fromisoformat(entry["time"]) >= asked_at
    ]
    assert not [m for m in after_signal if worker.HANDED_OVER_BUDGET in m], after_signal
    assert stopped_after < 3 * worker.JOB_BUDGET_SECONDS  # it exits, not hangs
    assert redis_client.exists(drain_flag_key()) and len(queue.queue) == 1
    worker.configure(url)
    _work(redis_client)
    assert queue.depth() == 0 and store.count_events() == 300
    store.dispose()
