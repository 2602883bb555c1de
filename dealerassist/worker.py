"""RQ job functions and the audit worker entry.

``drain_table`` moves a table's staged audit events (``adapters.rq_audit_queue``) into the
SQL audit store (``adapters.sql_store``) in batches: store, commit, then trim, so a crash
at any point loses nothing and a repeated batch is skipped by the store's unique
``(table_id, seq)``. A failing drain raises, RQ retries it with backoff
(``rq_audit_queue.RETRY_INTERVALS``), and after the last retry it waits in the failed-job
registry for ``requeue_failed``; the events wait in Redis meanwhile.

The job finds its Redis connection in the RQ job that runs it and its store in the worker
context: set by ``configure`` (``run_worker`` calls it) or, on first use, read from the
environment (``REDIS_URL``, ``DATABASE_URL``, ``DEALERASSIST_DATA_DIR``). Nothing is
built at import time.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import redis
from rq import SimpleWorker, get_current_job
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from dealerassist.adapters.rq_audit_queue import RQAuditQueue, decode_event
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.errors import InvalidInput

DRAIN_BATCH = 500
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
    stores: dict[str, SqlAuditStore] = field(default_factory=dict)

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
    database_url: str | None, redis_url: str | None = None, batch: int = DRAIN_BATCH
) -> None:
    """Point this process's drain jobs at a store (and, outside RQ, a Redis)."""
    global _context
    for store in _context.stores.values():
        store.dispose()
    _context = _Context(database_url=database_url, redis_url=redis_url, batch=batch)


def drain_table(table_id: str) -> int:
    """RQ job: move the table's staged events into the store; return how many were new."""
    queue = RQAuditQueue(_context.redis())
    queue.clear_drain_flag(table_id)
    try:
        return drain_pending(queue, _context.store(), table_id, _context.batch)
    except Exception:
        _hold_flag(queue, table_id)
        raise


def _hold_flag(queue: RQAuditQueue, table_id: str) -> None:
    try:
        queue.hold_drain_flag(table_id, FAILED_HOLD_SECONDS)
    except redis.RedisError:
        log.warning("could not hold the drain flag of %s", table_id, exc_info=True)


def drain_pending(
    queue: RQAuditQueue, store: SqlAuditStore, table_id: str, batch: int = DRAIN_BATCH
) -> int:
    """Store, then trim, batch after batch until the table has nothing staged."""
    stored = 0
    while True:
        raw = queue.peek(table_id, batch)
        if not raw:
            return stored
        stored += store.append([decode_event(item) for item in raw])
        queue.trim_stored(table_id, raw[-1], len(raw))


class AuditWorker(SimpleWorker):
    """An in-process RQ worker (no fork: a job costs ~3.5 ms, not ~14) that also sweeps.

    RQ's periodic maintenance (every ``maintenance_interval`` seconds) also enqueues a
    drain for any table whose events wait with no drain queued (a lost job).
    """

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()  # type: ignore[no-untyped-call]
        for queue in self.queues:
            swept = RQAuditQueue(self.connection, queue.name).sweep(idle_only=True)
            if swept:
                log.warning("re-enqueued drains for tables with waiting events: %s", swept)


def make_worker(
    connection: redis.Redis, queue_name: str = "audit", maintenance_interval: int = 600
) -> AuditWorker:
    """The audit worker on the audit queue (JSON serializer)."""
    audit_queue = RQAuditQueue(connection, queue_name)
    return AuditWorker(
        [audit_queue.queue],
        connection=connection,
        serializer=JSONSerializer,
        maintenance_interval=maintenance_interval,
    )


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


def requeue_failed(connection: redis.Redis, queue_name: str = "audit") -> int:
    """Requeue every failed drain job, and a drain for every table with staged events."""
    audit_queue = RQAuditQueue(connection, queue_name)
    registry = FailedJobRegistry(queue=audit_queue.queue)
    job_ids = registry.get_job_ids()
    for job_id in job_ids:
        registry.requeue(job_id)
    audit_queue.sweep()
    return len(job_ids)
