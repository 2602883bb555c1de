"""RQ job functions and the audit worker entry.

``drain_tables`` is the one drain job of an audit queue (``adapters.rq_audit_queue``): it
moves staged audit events into the SQL audit store (``adapters.sql_store``) in rounds.
Each round takes up to ``batch`` events spread over the dirty tables (a random sample of
them when there are more, so a busy or backlogged table cannot starve the others),
stores them in one transaction, then trims exactly what was stored; so a crash at any
point loses nothing, and a repeated round is skipped by the store's unique
``(table_id, seq)``. Under load a round starts every ``ROUND_SECONDS`` (sooner when the
last one was full): the rounds, not the events, pay for the Redis round trips and the
commit. The job stays while events come: it ends only once nothing was staged for
``LINGER_SECONDS`` (releasing the drain flag atomically, and only if no table is dirty),
or after ``JOB_BUDGET_SECONDS`` by handing over to a fresh job, so a job never runs long
enough for RQ to think its worker dead, and a stop request waits seconds, not minutes.
Measured at 500 events/s over 16 tables: a job per table (26-58 jobs/s) cost the worker half
a core; this design 0.2 jobs/s and 16 % of a core (README, "Audit pipeline").

``verify_audit_log`` is the verification job (``adapters.rq_verifications``): it verifies one
table or the whole store and returns the report, which RQ keeps as the job's result. It
runs on a queue of its own, served by ``run_verify_worker`` (a second process), so a
verification that takes minutes never holds up the drain. On a warm shutdown it stops at
the next event and RQ puts it back at the front of its queue.

A failing drain raises, RQ retries it with backoff (``rq_audit_queue.RETRY_INTERVALS``),
and after the last retry it waits in the failed-job registry for ``requeue_failed``; the
events wait in Redis meanwhile. ``drain_table`` drains one table (jobs enqueued by an
earlier version, and direct calls).

The job finds its Redis connection in the RQ job that runs it and its store in the worker
context: set by ``configure`` (``run_worker`` calls it) or, on first use, read from the
environment (``REDIS_URL``, ``DATABASE_URL``, ``DEALERASSIST_DATA_DIR``). Nothing is
built at import time.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from rq import SimpleWorker, get_current_job
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from dealerassist.adapters.rq_audit_queue import RQAuditQueue, decode_event
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE, RQVerificationQueue
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.bootstrap import ProfileDirectory
from dealerassist.errors import DealerAssistError, InvalidInput
from dealerassist.profiles import default_profiles_dir
from dealerassist.service.audit import VerificationInterrupted, verify_scope

DRAIN_BATCH = 500
# A round of the drain job starts at most this often unless the last one was full: the
# round's fixed cost (three Redis round trips and a commit) is then shared by the events
# of this long, and an event waits at most about this long for its round.
ROUND_SECONDS = 0.05
# The drain job ends after this long without anything staged (a job per burst of load,
# not per event), and hands over to a new job after JOB_BUDGET_SECONDS.
LINGER_SECONDS = 1.0
JOB_BUDGET_SECONDS = 5.0
# After a failed drain, stagings for that table enqueue no new job for this long: the
# failing job's own retries cover them, and an outage does not flood the queue with jobs.
FAILED_HOLD_SECONDS = 30
DEFAULT_DATA_DIR = "var"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WorkerUrls:
    """Where the worker's Redis and audit store are."""

    redis_url: str | None
    database_url: str


def urls_from_env(env: Mapping[str, str] | None = None) -> WorkerUrls:
    """``REDIS_URL`` (``None``: the embedded Redis) and ``DATABASE_URL`` (default: SQLite)."""
    env = os.environ if env is None else env
    data_dir = Path(env.get("DEALERASSIST_DATA_DIR") or DEFAULT_DATA_DIR)
    database_url = env.get("DATABASE_URL") or f"sqlite:///{(data_dir / 'audit.sqlite3').resolve()}"
    if not env.get("DATABASE_URL"):
        data_dir.mkdir(parents=True, exist_ok=True)
    return WorkerUrls(redis_url=env.get("REDIS_URL") or None, database_url=database_url)


@dataclass
class _Context:
    database_url: str | None = None
    redis_url: str | None = None
    batch: int = DRAIN_BATCH
    # 0 outside a worker and in burst mode (nothing will come); the worker sets it.
    linger: float = 0.0
    # Set by a warm shutdown request: the running drain ends after its round.
    stopping: bool = False
    stores: dict[str, SqlAuditStore] = field(default_factory=dict)
    profiles_dir: Path | None = None
    loaded_profiles: ProfileDirectory | None = None

    def profiles(self) -> ProfileDirectory:
        if self.loaded_profiles is None:
            directory = self.profiles_dir or default_profiles_dir()
            self.loaded_profiles = ProfileDirectory.load(directory)
        return self.loaded_profiles

    def store(self) -> SqlAuditStore:
        url = self.database_url or urls_from_env().database_url
        if url not in self.stores:
            self.stores[url] = SqlAuditStore(url)
        return self.stores[url]

    def redis(self) -> redis.Redis:
        job = get_current_job()
        if job is not None:
            return job.connection
        url = self.redis_url or urls_from_env().redis_url
        if url is None:
            raise InvalidInput("no Redis: set REDIS_URL or run the job inside an RQ worker")
        return redis.Redis.from_url(url)


_context = _Context()


def configure(
    database_url: str | None,
    redis_url: str | None = None,
    batch: int = DRAIN_BATCH,
    profiles_dir: Path | None = None,
) -> None:
    """Point this process's jobs at a store (and, outside RQ, a Redis); verification jobs
    also at a profiles directory (default: ``DEALERASSIST_PROFILES_DIR`` or the repo's)."""
    global _context
    for store in _context.stores.values():
        store.dispose()
    _context = _Context(
        database_url=database_url, redis_url=redis_url, batch=batch, profiles_dir=profiles_dir
    )


def drain_tables() -> int:
    """RQ job: drain every dirty table of the job's queue, round after round, until the
    queue stays idle for the linger time (then release) or the budget is spent (then hand
    over to a new job); return how many events were new to the store."""
    job = get_current_job()
    queue = RQAuditQueue(_context.redis(), job.origin if job is not None else "audit")
    try:
        return drain_rounds(
            queue, _context.store(), _context.batch, _context.linger, lambda: _context.stopping
        )
    except Exception:
        _hold_flag(queue)
        raise


def drain_rounds(
    queue: RQAuditQueue,
    store: SqlAuditStore,
    batch: int = DRAIN_BATCH,
    linger: float = 0.0,
    stopping: Callable[[], bool] = lambda: False,
) -> int:
    """Rounds of ``drain_round`` until nothing was staged for ``linger`` seconds and the
    drain is released, or until the budget is spent (or the worker is asked to stop) and
    a new job is enqueued to go on."""
    started = time.monotonic()
    idle_since: float | None = None
    stored = read = 0
    while True:
        round_started = time.monotonic()
        drained = drain_round(queue, store, batch)
        stored, read = stored + drained.stored, read + drained.read
        now = time.monotonic()
        if drained.read:
            idle_since = None
        elif idle_since is None:
            idle_since = round_started
        # A job that found nothing at all (a duplicate: requeued failures, a sweep) ends at
        # once; only one that drained something waits for more.
        if idle_since is not None and (not read or now - idle_since >= linger or stopping()):
            if queue.release_drain():
                return stored
            idle_since = None  # a table turned dirty since the round: go on
        elif now - started >= JOB_BUDGET_SECONDS or stopping():
            queue.enqueue_drain()
            return stored
        if not drained.full:
            time.sleep(max(0.0, ROUND_SECONDS - (time.monotonic() - round_started)))


@dataclass(frozen=True, slots=True)
class Round:
    """What one round did: events read, of them new to the store, and whether a table
    gave as many as it was asked for (so more may wait: start the next round at once)."""

    read: int
    stored: int
    full: bool


def drain_round(queue: RQAuditQueue, store: SqlAuditStore, batch: int = DRAIN_BATCH) -> Round:
    """Store up to ``batch`` staged events of the dirty tables in one transaction, then
    trim them: three Redis round trips and one commit, however many tables."""
    tables = queue.dirty_tables(batch)
    if not tables:
        return Round(0, 0, False)
    per_table = max(1, batch // len(tables))
    read = queue.peek_tables(tables, per_table)
    events = [decode_event(raw) for table_id in tables for raw in read[table_id]]
    stored = store.append(events)
    queue.trim_tables(read)
    return Round(len(events), stored, any(len(raw) == per_table for raw in read.values()))


def drain_table(table_id: str) -> int:
    """RQ job of earlier versions, and a direct call: drain one table; how many were new."""
    job = get_current_job()
    queue = RQAuditQueue(_context.redis(), job.origin if job is not None else "audit")
    return drain_pending(queue, _context.store(), table_id, _context.batch)


def _hold_flag(queue: RQAuditQueue) -> None:
    try:
        queue.hold_drain_flag(FAILED_HOLD_SECONDS)
    except redis.RedisError:
        log.warning("could not hold the drain flag of queue %s", queue.queue.name, exc_info=True)


def drain_pending(
    queue: RQAuditQueue, store: SqlAuditStore, table_id: str, batch: int = DRAIN_BATCH
) -> int:
    """Store, then trim, batch after batch until the table has nothing staged."""
    stored = 0
    while True:
        raw = queue.peek(table_id, batch)
        if not raw:
            queue.trim_tables({table_id: []})  # forget it as dirty if the list is empty
            return stored
        stored += store.append([decode_event(item) for item in raw])
        queue.trim_stored(table_id, raw[-1], len(raw))


class AuditWorker(SimpleWorker):
    """An in-process RQ worker (no fork: a job costs ~3.5 ms, not ~14) that also sweeps.

    RQ's periodic maintenance (every ``maintenance_interval`` seconds) also enqueues a
    drain if events wait with no drain on (a lost job). Its drain jobs linger for more
    events, except in burst mode, where the worker is to stop once the queue is empty.
    """

    linger = LINGER_SECONDS

    def work(self, burst: bool = False, *args: Any, **kwargs: Any) -> bool:
        _context.linger = 0.0 if burst else self.linger
        _context.stopping = False
        try:
            return bool(super().work(burst, *args, **kwargs))
        finally:
            _context.linger = 0.0

    def request_stop(self, signum: Any, frame: Any) -> None:
        """Warm shutdown: RQ waits for the running job, so tell the drain to end now."""
        _context.stopping = True
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()  # type: ignore[no-untyped-call]
        for queue in self.queues:
            swept = RQAuditQueue(self.connection, queue.name).sweep(idle_only=True)
            if swept:
                log.warning("re-enqueued drains for tables with waiting events: %s", swept)


def make_worker(
    connection: redis.Redis,
    queue_name: str = "audit",
    maintenance_interval: int = 600,
    linger: float = LINGER_SECONDS,
) -> AuditWorker:
    """The audit worker on the audit queue (JSON serializer)."""
    audit_queue = RQAuditQueue(connection, queue_name)
    worker = AuditWorker(
        [audit_queue.queue],
        connection=connection,
        serializer=JSONSerializer,
        maintenance_interval=maintenance_interval,
    )
    worker.linger = linger
    return worker


def run_worker(
    redis_url: str,
    database_url: str,
    burst: bool = False,
    queue_name: str = "audit",
    with_scheduler: bool = True,
    logging_level: str = "WARNING",
    batch: int = DRAIN_BATCH,
) -> bool:
    """Run the audit worker until stopped (or, with ``burst``, until the queue is empty).

    It first re-enqueues a drain for every table with staged events, so events a killed
    worker left behind are picked up. The scheduler moves retried jobs back when due.
    """
    configure(database_url, redis_url, batch)
    connection = redis.Redis.from_url(redis_url)
    RQAuditQueue(connection, queue_name).sweep()
    worker = make_worker(connection, queue_name)
    return worker.work(burst=burst, with_scheduler=with_scheduler, logging_level=logging_level)


def verify_audit_log(
    table_id: str | None = None, tables: list[str] | None = None
) -> dict[str, Any]:
    """RQ job (the verify queue): verify one table's chain, else those of ``tables`` (a
    table-scoped token's), else every table's, replaying each event under the profile
    version it recorded; the report is the job's result."""
    return verify_scope(_context.store(), _context.profiles(), table_id, _interrupted, tables)


def _interrupted() -> DealerAssistError | None:
    if not _context.stopping:
        return None
    return VerificationInterrupted("the verification worker is stopping: the job runs again")


class VerifyWorker(SimpleWorker):
    """The worker of the verify queue (in-process jobs, JSON serializer).

    On a warm shutdown RQ would wait for the running job, possibly minutes: the job is told
    to stop instead, fails with ``VerificationInterrupted`` and RQ's retry puts it back at
    the front of the queue for the next worker.
    """

    def work(self, burst: bool = False, *args: Any, **kwargs: Any) -> bool:
        _context.stopping = False
        return bool(super().work(burst, *args, **kwargs))

    def request_stop(self, signum: Any, frame: Any) -> None:
        _context.stopping = True
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]


def make_verify_worker(connection: redis.Redis, queue_name: str = VERIFY_QUEUE) -> VerifyWorker:
    """The verification worker on the verify queue (JSON serializer)."""
    queue = RQVerificationQueue(connection, queue_name).queue
    return VerifyWorker([queue], connection=connection, serializer=JSONSerializer)


def run_verify_worker(
    redis_url: str,
    database_url: str,
    profiles_dir: Path | None = None,
    burst: bool = False,
    queue_name: str = VERIFY_QUEUE,
    logging_level: str = "WARNING",
) -> bool:
    """Run the verification worker until stopped (or, with ``burst``, until its queue is
    empty). Run it beside the audit worker, never instead of it."""
    configure(database_url, redis_url, profiles_dir=profiles_dir)
    connection = redis.Redis.from_url(redis_url)
    worker = make_verify_worker(connection, queue_name)
    return worker.work(burst=burst, with_scheduler=False, logging_level=logging_level)


def requeue_failed(connection: redis.Redis, queue_name: str = "audit") -> int:
    """Requeue every failed drain job, and a drain for every table with staged events."""
    audit_queue = RQAuditQueue(connection, queue_name)
    registry = FailedJobRegistry(queue=audit_queue.queue)
    job_ids = registry.get_job_ids()
    for job_id in job_ids:
        registry.requeue(job_id)
    audit_queue.sweep()
    return len(job_ids)
