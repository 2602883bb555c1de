"""The drain worker (``dealerassist worker``) against real redis-server processes that are
killed with -9 and started again, and workers that are killed with -9 (issue 19, points
6 and 8)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from audit_chains import interleaved, play_hands, stage
from redis_servers import RedisServer, group_gone, redis_servers
from rq import Queue
from rq.registry import ScheduledJobRegistry, StartedJobRegistry

from dealerassist.adapters.redis_tables import encode_record, table_key
from dealerassist.adapters.rq_audit_queue import DRAIN_JOB, RQAuditQueue, table_forked_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.bootstrap import build_services
from dealerassist.errors import Conflict
from dealerassist.profiles import default_profiles_dir
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import ChainHead
from dealerassist.settings import Settings

__all__ = ["redis_servers"]  # the fixture, from tests/redis_servers.py

REPO = Path(__file__).resolve().parents[2]
LOCK_KEY = "rq:scheduler-lock:audit"
DEALER = use_cases.Actor("dealer-1", "dealer")


def _worker(redis_url: str, sql_url: str, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": sql_url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--log-level", "ERROR", *extra]
    # A session of its own: a process group to look for orphans in, and to kill -9 whole.
    return subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True)


def _until(predicate: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


def _stop(process: subprocess.Popen[bytes]) -> int | None:
    if process.poll() is None:
        process.terminate()
        try:
            return process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None
    return process.returncode


def _assert_each_once(store: SqlAuditStore, count: int) -> None:
    keys = [(event["table_id"], event["seq"]) for event in store.iter_events()]
    assert len(keys) == len(set(keys)) == count


def test_the_worker_rides_out_a_redis_outage(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """Redis killed -9 while the drain job runs: the worker no longer quits (RQ's failure
    handling hit the dead connection: "found an unhandled exception", exit 2); it
    reconnects when Redis is back and stores every event once, those staged before the
    kill (kept by appendfsync always) and those staged after the restart."""
    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    sql_url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    store = SqlAuditStore(sql_url)
    events = interleaved(tables=4, per_table=75)
    client = redis.Redis.from_url(server.url)
    stage(RQAuditQueue(client), client, events[:100])
    worker = _worker(server.url, sql_url)
    try:
        _until(lambda: store.count_events() == 100, 30, "the first events stored")
        stage(RQAuditQueue(client), client, events[100:200])  # the job lingers: still running
        client.close()
        server.kill_9()
        time.sleep(3)  # the drain round, RQ's failure handling and its teardown all fail
        assert worker.poll() is None, "the worker quit with Redis"
        server.start()
        client = redis.Redis.from_url(server.url)
        stage(RQAuditQueue(client), client, events[200:])
        _until(lambda: store.count_events() == 300, 40, "every event stored after the outage")
        _assert_each_once(store, 300)
        assert RQAuditQueue(client).depth() == 0
    finally:
        code = _stop(worker)
        client.close()
        store.dispose()
    assert code == 0


def _worker_pid(client: redis.Redis, name: str) -> int:
    return int(client.hget(f"rq:worker:{name}", "pid") or 0)


def _registered(client: redis.Redis) -> set[str]:
    return {member.decode() for member in client.smembers("rq:workers:audit")}


EVENTS = 4000  # staged for the killed drain


def test_a_second_worker_drains_what_a_killed_one_left_within_seconds(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """Two workers; the one running the drain job is killed -9 mid-drain. Its job is lost
    and its drain flag stays set, so no staging enqueues another: the idle worker drained
    nothing for 290 s (the flag's TTL was 300 s). The flag now lapses within seconds of its
    worker's death and the live worker enqueues and runs a drain."""
    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    client = redis.Redis.from_url(server.url)
    sql_url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    store = SqlAuditStore(sql_url)
    # Everything is staged before the workers start: staged one by one while a drain ran,
    # the drain kept pace and had stored all 4,000 before the kill (a fresh-clone run).
    # Now one drain job starts with 4,000 to go, 10 a round. Exactly one, with its flag
    # fresh: on a loaded machine the staging outlived the flag's TTL and enqueued a second
    # job, which the live worker would run whether or not the dead one's flag lapses.
    audit = RQAuditQueue(client)
    stage(audit, client, interleaved(tables=10, per_table=EVENTS // 10))
    jobs = Queue("audit", connection=client)
    jobs.empty()
    audit.enqueue_drain()
    assert jobs.count == 1, "one drain job, as one flag"
    workers = [_worker(server.url, sql_url, "--batch", "10") for _ in range(2)]
    try:
        _until(lambda: len(_registered(client)) == 2, 30, "both workers registered")
        _until(lambda: store.count_events() >= 100, 30, "a drain under way")
        started = StartedJobRegistry("audit", connection=client)
        job_id = _until(started.get_job_ids, 5, "the running drain job")[0]
        busy = client.hget(f"rq:job:{job_id}", "worker_name").decode()
        victim = next(w for w in workers if w.pid == _worker_pid(client, busy))
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
        stored_at_kill = store.count_events()
        assert stored_at_kill < EVENTS, "the kill must land mid-drain"
        _until(lambda: store.count_events() == EVENTS, 90, "the live worker drained the rest")
        _assert_each_once(store, EVENTS)
    finally:
        for worker in workers:
            _stop(worker)
        client.close()
        store.dispose()


def test_a_killed_workers_scheduler_leaves_no_orphan_and_retries_run_within_seconds(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """The worker holding RQ's scheduler lock is killed -9 (its pid only, as the OOM killer
    does). RQ ran the scheduler in a forked child, which lived on as an orphan; and a
    second worker got no scheduler while the dead one's lock lived (61 s) and until its
    600 s maintenance. Now nothing of the killed worker is left, the live one holds the
    lock within seconds, and a retry due in a second runs within seconds."""
    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    client = redis.Redis.from_url(server.url)
    sql_url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    store = SqlAuditStore(sql_url)
    first = _worker(server.url, sql_url)
    second: subprocess.Popen[bytes] | None = None
    try:
        holder = _until(lambda: client.get(LOCK_KEY), 30, "the first worker's scheduler").decode()
        second = _worker(server.url, sql_url)
        _until(lambda: len(_registered(client)) == 2, 30, "both workers registered")
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        assert group_gone(first.pid, 3), "a child of the killed worker lives on (an orphan)"
        killed = time.monotonic()
        # Events staged with no drain job but the flag set (so only the retry can drain
        # them), and a retry of the drain due in one second.
        queue = RQAuditQueue(client)
        client.set(queue.flag_key, "1", ex=60)
        events = interleaved(tables=2, per_table=20)
        for event in events:
            with client.pipeline() as pipe:
                pipe.multi()
                queue.stage(pipe, event["table_id"], [event], drain_queued=True)
                pipe.execute()
        queue.queue.enqueue_in(timedelta(seconds=1), DRAIN_JOB, retry=None)
        scheduled = ScheduledJobRegistry("audit", connection=client)
        _until(lambda: store.count_events() == len(events), 30, "the retry ran")
        assert not scheduled.get_job_ids()
        assert time.monotonic() - killed < 20  # RQ alone: 61 s at best, 600 s at worst
        assert client.get(LOCK_KEY).decode() != holder
    finally:
        for worker in (first, second):
            if worker is not None:
                _stop(worker)
        client.close()
        store.dispose()


def _append_to_aof(directory: Path, *command: bytes) -> None:
    """Append one command to a stopped server's append-only file (Redis 7's last
    incremental file, or 6.2's single file): it comes back with that write applied."""
    encoded = b"*%d\r\n" % len(command)
    encoded += b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in command)
    parts = sorted((directory / "appendonlydir").glob("*.incr.aof"))
    target = parts[-1] if parts else directory / "appendonly.aof"
    with target.open("ab") as file:
        file.write(encoded)


def test_a_worker_back_on_a_rewound_redis_suspends_the_table_before_any_play(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """The drain stored a hand; Redis is killed and comes back behind the store (a failover
    to a replica that lagged, a restart from an older file: here its file sets the table's
    head back three entries). The worker notices it reaches another server (its run_id)
    and compares the live heads with the store at once, so the table is suspended (409)
    before any entry: no seq the store holds is entered again. Before, only the process's
    first drain job compared them, long before the outage."""
    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    sql_url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    settings = Settings(
        data_dir=tmp_path,
        redis_url=server.url,
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
    )
    services = build_services(settings)
    play_hands(services, "R1", hands=1, profile_id="casino-five-card-draw")
    head = services.tables.load("R1")
    assert head is not None
    store = SqlAuditStore(sql_url)
    worker = _worker(server.url, sql_url)
    client = redis.Redis.from_url(server.url)
    try:
        _until(lambda: store.count_events() == head.head.seq, 30, "the hand stored")
        assert not client.exists(table_forked_key("R1"))
        client.close()
        server.kill_9()
        behind = replace(head, head=ChainHead(seq=head.head.seq - 3, last_hash="0" * 64))
        _append_to_aof(server.directory, b"SET", table_key("R1").encode(), encode_record(behind))
        server.start()
        client = redis.Redis.from_url(server.url)
        assert services.tables.load("R1") == behind  # the server came back rewound
        _until(lambda: client.exists(table_forked_key("R1")), 30, "the table suspended")
        with pytest.raises(Conflict, match="suspended"):
            use_cases.submit_action(
                services, "R1", {"seat": 1, "action": "fold"}, DEALER, use_cases.Preconditions()
            )
        assert store.count_events() == head.head.seq  # nothing entered twice
    finally:
        code = _stop(worker)
        client.close()
        store.dispose()
        services.audit_store.dispose()  # type: ignore[attr-defined]
    assert code == 0
