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

A round the store refuses for any reason but being down (a poison event) is stored table by
table, and a table still refused is isolated (``RQAuditQueue.isolate``): its events wait in
Redis, its own ``drain_table`` job retries and then waits in the failed registry with the
reason, and every other table drains on. A different event at a stored ``(table_id, seq)``
(a Redis that rewound) is a fork: the store keeps both branches (``SqlAuditStore.
append_checked``), the drain logs it at ERROR and notes it in Redis, and readiness and
``GET /v1/audit/alerts`` name the table.

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

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from rq import SimpleWorker, get_current_job
from rq.registry import FailedJobRegistry
from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock, release_lock
from rq.serializers import JSONSerializer

from dealerassist.adapters.audit_integrity import AuditIntegrityReport
from dealerassist.adapters.checkpointing import Checkpointer, checkpointer_from_env, public_keys
from dealerassist.adapters.redis_connect import redis_client
from dealerassist.adapters.redis_tables import REDIS_ERRORS
from dealerassist.adapters.rq_audit_queue import (
    TABLE_DRAIN_JOB,
    RQAuditQueue,
    beat,
    decode_event,
    forget_beat,
)
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE, RQVerificationQueue
from dealerassist.adapters.sql_store import Appended, Fork, SqlAuditStore
from dealerassist.audit.checkpoints import Head
from dealerassist.audit.envelope import parse_at
from dealerassist.audit.verify import finishes_hand
from dealerassist.bootstrap import ProfileDirectory, build_services
from dealerassist.errors import DealerAssistError, InvalidInput, Unavailable
from dealerassist.profiles import default_profiles_dir
from dealerassist.service.audit import VerificationInterrupted, verify_scope
from dealerassist.service.ports import Services
from dealerassist.service.shifts import Expiries, expire_shifts
from dealerassist.settings import Settings
from dealerassist.telemetry import logs
from dealerassist.telemetry.metrics import record_drain_round, record_verification

DRAIN_BATCH = 500
# A round of the drain job starts at most this often unless the last one was full: the
# round's fixed cost (three Redis round trips and a commit) is then shared by the events
# of this long, and an event waits at most about this long for its round.
ROUND_SECONDS = 0.05
# The drain job ends after this long without anything staged (a job per burst of load,
# not per event), and hands over to a new job after JOB_BUDGET_SECONDS.
LINGER_SECONDS = 1.0
JOB_BUDGET_SECONDS = 5.0
# Why a drain job handed over to a new one, as its log line says.
HANDED_OVER_STOPPING = "the worker was asked to stop"
HANDED_OVER_BUDGET = "its budget was spent"
# After a failed drain, stagings for that table enqueue no new job for this long: the
# failing job's own retries cover them, and an outage does not flood the queue with jobs.
FAILED_HOLD_SECONDS = 30
DEFAULT_DATA_DIR = "var"
# How much of the store's refusal an isolated table keeps as its reason.
MAX_REASON = 500

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
    # While a drain job runs in this process (the worker's duties renew its flag).
    draining: bool = False
    stores: dict[str, SqlAuditStore] = field(default_factory=dict)
    checkpointers: dict[str, Checkpointer | None] = field(default_factory=dict)
    integrity: dict[str, AuditIntegrityReport] = field(default_factory=dict)
    profiles_dir: Path | None = None
    loaded_profiles: ProfileDirectory | None = None
    # The queues whose tables were compared with the store once (``mark_rewound_tables``).
    rewind_checked: set[str] = field(default_factory=set)

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

    def checkpointer(self) -> Checkpointer | None:
        """The signer of the store's checkpoints (``DEALERASSIST_CHECKPOINT_KEY[_FILE]``)."""
        store = self.store()
        if store.url not in self.checkpointers:
            self.checkpointers[store.url] = checkpointer_from_env(store)
        return self.checkpointers[store.url]

    def redis(self) -> redis.Redis:
        job = get_current_job()
        if job is not None:
            return job.connection
        url = self.redis_url or urls_from_env().redis_url
        if url is None:
            raise InvalidInput("no Redis: set REDIS_URL or run the job inside an RQ worker")
        return redis_client(url)


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
    _context.draining = True
    try:
        if queue.queue.name not in _context.rewind_checked:
            mark_rewound_tables(queue, _context.store())
            _context.rewind_checked.add(queue.queue.name)
        return drain_rounds(
            queue,
            _context.store(),
            _context.batch,
            _context.linger,
            lambda: _context.stopping,
            _context.checkpointer(),
        )
    except Exception:
        _hold_flag(queue)
        raise
    finally:
        _context.draining = False


def drain_rounds(
    queue: RQAuditQueue,
    store: SqlAuditStore,
    batch: int = DRAIN_BATCH,
    linger: float = 0.0,
    stopping: Callable[[], bool] = lambda: False,
    checkpointer: Checkpointer | None = None,
) -> int:
    """Rounds of ``drain_round`` until nothing was staged for ``linger`` seconds and the
    drain is released, or until the budget is spent (or the worker is asked to stop) and
    a new job is enqueued to go on. The heads stored get their checkpoint before it ends."""
    started = time.monotonic()
    idle_since: float | None = None
    stored = read = 0
    while True:
        round_started = time.monotonic()
        drained = drain_round(queue, store, batch, checkpointer)
        stored, read = stored + drained.stored, read + drained.read
        now = time.monotonic()
        if drained.read:
            idle_since = None
        elif idle_since is None:
            idle_since = round_started
        # A job that found nothing at all (a duplicate: requeued failures, a sweep) ends at
        # once; only one that drained something waits for more.
        if idle_since is not None and (not read or now - idle_since >= linger or stopping()):
            if checkpointer is not None:
                checkpointer.flush()
            if queue.release_drain():
                return stored
            idle_since = None  # a table turned dirty since the round: go on
        elif now - started >= JOB_BUDGET_SECONDS or stopping():
            asked_to_stop = stopping()
            if checkpointer is not None and asked_to_stop:
                checkpointer.flush()  # the process is going: sign what it stored
            queue.enqueue_drain()
            log.info(
                "drain job hands over to a new job after %.2f s and %d events stored (%s)",
                now - started,
                stored,
                HANDED_OVER_STOPPING if asked_to_stop else HANDED_OVER_BUDGET,
            )
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


def drain_round(
    queue: RQAuditQueue,
    store: SqlAuditStore,
    batch: int = DRAIN_BATCH,
    checkpointer: Checkpointer | None = None,
) -> Round:
    """Store up to ``batch`` staged events of the dirty tables in one transaction, then
    trim them: three Redis round trips and one commit, however many tables.

    If the store refuses the round for any reason but being down (a poison event: an ID
    too long for its column, an event that cannot be read), each table is stored in a
    transaction of its own and the tables still refused are isolated (``isolate``): their
    events wait in Redis, and every other table drains on.
    """
    tables = queue.drainable_tables(batch)
    if not tables:
        return Round(0, 0, False)
    per_table = max(1, batch // len(tables))
    read = queue.peek_tables(tables, per_table)
    try:
        events = [decode_event(raw) for table_id in tables for raw in read[table_id]]
        appended = store.append_checked(events)
        hand_ended = any(finishes_hand(event) for event in events)
    except Unavailable:
        raise
    except Exception as error:
        log.warning("the store refused a drain round (%s): storing table by table", error)
        appended = _append_apart(queue, store, read)
        hand_ended = True
    _note_forks(queue, appended)
    queue.trim_tables(read)
    record_drain_round(appended.stored, _oldest_at(read), time.time())
    if checkpointer is not None:
        checkpointer.note(_heads(read, appended), hand_ended)
        checkpointer.maybe()
    count = sum(len(raw) for raw in read.values())
    return Round(count, appended.stored, any(len(raw) == per_table for raw in read.values()))


def _oldest_at(read: Mapping[str, list[bytes]]) -> float | None:
    """When the oldest event of the round was sealed (each table's first is its oldest)."""
    times = [parse_at(decode_event(raw[0])["at"]).timestamp() for raw in read.values() if raw]
    return min(times) if times else None


def _heads(read: Mapping[str, list[bytes]], appended: Appended) -> list[Head]:
    """The head each table's stored events make (none for a quarantined table)."""
    return [
        Head.of(decode_event(raw[-1]))
        for table_id, raw in read.items()
        if raw and table_id not in appended.quarantined_tables
    ]


def _append_apart(
    queue: RQAuditQueue, store: SqlAuditStore, read: dict[str, list[bytes]]
) -> Appended:
    """Store each table's events in a transaction of its own; isolate (and leave out of
    ``read``, so nothing of theirs is trimmed) the tables the store still refuses."""
    stored = quarantined = 0
    forks: list[Fork] = []
    for table_id in list(read):
        try:
            appended = store.append_checked([decode_event(raw) for raw in read[table_id]])
        except Unavailable:
            raise
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"[:MAX_REASON]
            log.error(
                "audit events of table %r isolated, the store refuses them: %s",
                table_id,
                reason,
                extra={"table": table_id},
            )
            queue.isolate(table_id, reason)
            del read[table_id]
            continue
        stored += appended.stored
        quarantined += appended.quarantined
        forks += appended.forks
    return Appended(stored, tuple(forks), quarantined)


def check_for_rewind(queue: RQAuditQueue) -> bool:
    """Compare Redis's live heads with the store (``mark_rewound_tables``): so a table put
    behind the store is suspended before anyone plays on it. False if the store did not
    answer (the first drain job compares instead)."""
    try:
        mark_rewound_tables(queue, _context.store())
    except redis.RedisError:
        raise  # ride_out_redis: connect again
    except Exception:  # the store's error, whatever it is: the drain job will check
        log.warning("could not compare Redis's heads with the audit store", exc_info=True)
        _context.rewind_checked.discard(queue.queue.name)
        return False
    _context.rewind_checked.add(queue.queue.name)
    return True


def mark_rewound_tables(queue: RQAuditQueue, store: SqlAuditStore) -> list[str]:
    """Mark forked every table whose live head in Redis is behind the store's last event (a
    Redis restored from an older snapshot, a failover to a lagging replica): the table
    store then refuses commits that would reuse seqs the store holds. Run by the worker's
    duties whenever the Redis server it reaches is another one (``WorkerDuties``), else by
    the process's first drain; a rewind in place is caught by the drain's fork check."""
    live = AuditIntegrityReport(store, [queue]).live_anchors()
    stored = store.last_seqs([anchor.table_id for anchor in live])
    rewound = []
    for anchor in live:
        last = stored.get(anchor.table_id)
        if anchor.beyond is not None and last is not None and last > anchor.beyond:
            log.error(
                "Redis rewound table %r: its live head is seq %d, the audit store holds %d; "
                "commits to it are refused (the floor closes it)",
                anchor.table_id,
                anchor.beyond,
                last,
                extra={"table": anchor.table_id},
            )
            queue.mark_forked(anchor.table_id, anchor.beyond + 1, "")
            rewound.append(anchor.table_id)
    return rewound


def _note_forks(queue: RQAuditQueue, appended: Appended) -> None:
    """Say (log at ERROR, and in Redis) what forked; the store keeps both branches."""
    for fork in appended.forks:
        log.error(
            "audit chain FORK at table %r seq %d: the store holds %s, Redis staged %s; the "
            "newcomer and every later event of the table are quarantined (a Redis that "
            "rewound: snapshot restore or failover to a lagging replica)",
            fork.table_id,
            fork.seq,
            fork.stored_hash,
            fork.new_hash,
            extra={"table": fork.table_id},
        )
        queue.mark_forked(fork.table_id, fork.seq, fork.stored_hash)


def drain_table(table_id: str) -> int:
    """RQ job of earlier versions, of an isolated table, and a direct call: drain one
    table; how many were new. Its success lifts the table's isolation."""
    job = get_current_job()
    queue = RQAuditQueue(_context.redis(), job.origin if job is not None else "audit")
    checkpointer = _context.checkpointer()
    stored = drain_pending(queue, _context.store(), table_id, _context.batch, checkpointer)
    if queue.lift_isolation(table_id):
        log.warning(
            "audit events of table %r store again: isolation lifted",
            table_id,
            extra={"table": table_id},
        )
    return stored


def _hold_flag(queue: RQAuditQueue) -> None:
    try:
        queue.hold_drain_flag(FAILED_HOLD_SECONDS)
    except redis.RedisError:
        log.warning("could not hold the drain flag of queue %s", queue.queue.name, exc_info=True)


def drain_pending(
    queue: RQAuditQueue,
    store: SqlAuditStore,
    table_id: str,
    batch: int = DRAIN_BATCH,
    checkpointer: Checkpointer | None = None,
) -> int:
    """Store, then trim, batch after batch until the table has nothing staged."""
    stored = 0
    while True:
        raw = queue.peek(table_id, batch)
        if not raw:
            queue.trim_tables({table_id: []})  # forget it as dirty if the list is empty
            if checkpointer is not None:
                checkpointer.flush()
            return stored
        appended = store.append_checked([decode_event(item) for item in raw])
        _note_forks(queue, appended)
        stored += appended.stored
        queue.trim_stored(table_id, raw[-1], len(raw))
        if checkpointer is not None:
            checkpointer.note(_heads({table_id: raw}, appended), hand_ended=False)


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
    worker left behind are picked up. Beside RQ's loop a thread of the worker moves retried
    jobs back when due (``WorkerDuties``), says the worker is alive, re-enqueues a drain
    for events no job will drain, and records the dealers' shift sessions that ran out
    (``ShiftExpiry``; not in burst mode). A Redis that goes away does not end it: it reconnects with
    backoff and starts again (``ride_out_redis``).
    """
    configure(database_url, redis_url, batch)
    logs.configure_from_env()
    logs.add_context_provider(job_context)
    expiries = None if burst else shift_expiry(redis_url, database_url)

    def attempt() -> tuple[bool, bool]:
        connection = redis_client(redis_url, **WORKER_REDIS_OPTIONS)
        try:
            RQAuditQueue(connection, queue_name).sweep()
            worker = make_worker(connection, queue_name)
            duties = WorkerDuties(
                connection,
                queue_name,
                worker.name,
                schedule=with_scheduler and not burst,
                sweep=not burst,
                expiries=expiries,
            )
            with duties:
                result = bool(
                    worker.work(burst=burst, with_scheduler=False, logging_level=logging_level)
                )
            return result, burst or worker_stopped(worker)
        finally:
            connection.close()

    try:
        return ride_out_redis(attempt, f"audit worker ({queue_name})")
    finally:
        if expiries is not None:
            expiries.close()


def job_context() -> dict[str, Any]:
    """The log fields of the RQ job running in this thread: its ID, and the table of a
    table's own drain."""
    job = get_current_job()
    if job is None:
        return {}
    found: dict[str, Any] = {"job_id": job.id}
    if job.func_name == TABLE_DRAIN_JOB and job.args:
        found["table"] = str(job.args[0])
    return found


# The worker's Redis client: a dead server is seen within seconds (RQ's blocking dequeue
# waits up to its own timeout on top of this), and the run loop, not each command, retries.
WORKER_REDIS_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 5, "health_check_interval": 10}
# Waits between attempts to reach a Redis that went away (then the last one, again and again).
RECONNECT_BACKOFF = (0.5, 1.0, 2.0, 5.0)


def worker_stopped(worker: SimpleWorker) -> bool:
    """Whether RQ's loop ended because the worker was asked to stop (a SIGTERM or SIGINT:
    RQ's warm shutdown), not on an error."""
    return getattr(worker, "_shutdown_requested_date", None) is not None


def ride_out_redis(attempt: Callable[[], tuple[bool, bool]], what: str) -> bool:
    """Run ``attempt`` (a worker's life on one connection: its result, and whether it ended
    for good) again after a Redis error or an ending RQ did not ask for, waiting
    ``RECONNECT_BACKOFF`` between tries; a SIGTERM or SIGINT during a wait ends it."""
    failures = 0
    while True:
        try:
            result, done = attempt()
            if done:
                return result
            error: str = "its loop ended on an error"
        except (redis.ConnectionError, redis.TimeoutError, OSError) as raised:
            error = str(raised) or type(raised).__name__
        delay = RECONNECT_BACKOFF[min(failures, len(RECONNECT_BACKOFF) - 1)]
        failures += 1
        log.warning("%s lost Redis (%s); starting again in %.1f s", what, error, delay)
        if _interruptible_sleep(delay):
            return False


def _interruptible_sleep(seconds: float) -> bool:
    """Sleep; True if a SIGTERM or SIGINT came meanwhile (RQ's handlers are not set now)."""
    stop = threading.Event()

    def request_stop(signum: int, frame: Any) -> None:
        stop.set()

    if threading.current_thread() is not threading.main_thread():
        return stop.wait(seconds)
    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return stop.wait(seconds)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class WorkerDuties(threading.Thread):
    """A thread beside RQ's loop (it dies with the worker, even on ``kill -9``: no orphan
    child as RQ's scheduler process leaves). Every ``DUTY_SECONDS``:

    * with ``schedule``, RQ's scheduling of due retries, under RQ's scheduler lock of the
      queue, held for only ``SCHEDULER_LOCK_SECONDS`` and renewed each time, so a worker
      that died hands it over within seconds (RQ's own lock lives 61 s; its scheduler
      restarts only at the 600 s maintenance);
    * the worker's heartbeat (``rq_audit_queue.beat``: what readiness counts as live);
    * with ``sweep`` (the audit queue), the drain flag's renewal while this worker's drain
      job runs, and, if no drain is on but tables have staged events, a drain for them (a
      job lost with a worker: its flag lapses within ``FLAG_TTL_SECONDS``; RQ's own
      maintenance sweep runs only every ``maintenance_interval``);
    * with ``sweep``, when the Redis server answering is not the one of the last step (its
      ``run_id``: the first step, a restart, a Sentinel failover to another server; RQ's
      loop or redis-py may have reconnected on their own), the comparison of its live heads
      with the store (``check_for_rewind``) before the drain builds on them;
    * with ``expiries`` (the audit worker's ``ShiftExpiry``), the record of the dealers'
      shift sessions that ran out their time (``service.shifts.expire_shifts``): within a
      step of the end, though nobody touches the table; and, after a time without any
      worker, at the first step of the next one, dated at each session's true end.

    A Redis error is logged once per outage and the duties go on; ``failed`` keeps the last.
    """

    def __init__(
        self,
        connection: redis.Redis,
        queue_name: str,
        worker_name: str,
        schedule: bool = False,
        sweep: bool = False,
        expiries: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(name=f"duties-{queue_name}", daemon=True)
        self.expiries = expiries
        self.connection = connection
        self.queue_name = queue_name
        self.queue = RQAuditQueue(connection, queue_name) if sweep else None
        self.worker_name = worker_name
        self.schedule = schedule
        self.scheduler = RQScheduler(
            [queue_name], connection=connection, serializer=JSONSerializer, name=worker_name
        )
        self.lock_key = RQScheduler.get_locking_key(queue_name)
        self.stopping = threading.Event()
        self.failed: str | None = None
        self.server_id: str | None = None  # run_id of the Redis whose heads were compared

    def __enter__(self) -> WorkerDuties:
        self.step()  # heartbeat and lock before RQ's loop starts: ready without a wait
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.join(DUTY_SECONDS * 5)
        try:
            if self.schedule:
                release_lock(self.connection, self.lock_key, self.worker_name)
            forget_beat(self.connection, self.queue_name, self.worker_name)
        except redis.RedisError:
            pass  # the lock and the heartbeat expire by themselves

    def run(self) -> None:
        while not self.stopping.wait(DUTY_SECONDS):
            self.step()

    def step(self) -> None:
        try:
            beat(self.connection, self.queue_name, self.worker_name, HEARTBEAT_SECONDS)
            if self.schedule:
                self._schedule()
            if self.queue is not None:
                server_id = str(self.connection.info("server")["run_id"])
                if server_id != self.server_id and check_for_rewind(self.queue):
                    self.server_id = server_id
                if _context.draining:  # a drain job of this worker runs: keep its flag alive
                    self.queue.renew_drain_flag()
                swept = self.queue.sweep_if_idle()
                if swept:
                    log.warning("re-enqueued a drain for tables with waiting events: %s", swept)
            if self.expiries is not None:
                self.expiries()
        except redis.RedisError as error:
            if self.failed is None:
                log.warning("worker duties: Redis error (%s); going on", error)
            self.failed = str(error)
        else:
            self.failed = None

    def _schedule(self) -> None:
        outcome = acquire_or_refresh_lock(
            self.connection, self.lock_key, self.worker_name, SCHEDULER_LOCK_SECONDS
        )
        owned = outcome != "taken"
        if owned != bool(self.scheduler.acquired_locks):
            self.scheduler._acquired_locks = {self.queue_name} if owned else set()
            self.scheduler._scheduled_job_registries = []
        if owned:
            self.scheduler.enqueue_scheduled_jobs()  # type: ignore[no-untyped-call]


DUTY_SECONDS = 1.0
SCHEDULER_LOCK_SECONDS = 5
HEARTBEAT_SECONDS = 15


class ShiftExpiry:
    """The audit worker's record of the shift sessions that ran out their time: one
    ``expire_shifts`` sweep a call (a Redis read when none is due). Its ``Services`` are
    built on the first call by ``build`` (the composition root, as the API builds them:
    the same table store, commit and replica wait), and kept. A call never raises (the
    worker's other duties go on): a sweep that failed (Redis away) is logged once until
    one works again; a session it could not record (a table whose profile is gone, the
    table store down) stays due and is logged once until it records."""

    def __init__(self, build: Callable[[], Services]) -> None:
        self.build = build
        self.services: Services | None = None
        self.failed: str | None = None
        self.failing: set[str] = set()

    def __call__(self) -> Expiries:
        try:
            if self.services is None:
                self.services = self.build()
            swept = expire_shifts(self.services)
        except Exception as error:  # whatever it is: logged, and tried again next time
            if self.failed is None:
                log.warning("shift expiry sweep failed (%s); trying again", error, exc_info=True)
            self.failed = str(error)
            return Expiries()
        self.failed = None
        for shift in swept.recorded:
            log.info(
                "dealer %s's shift session ran out at %s: signed out at table %s",
                shift.employee_id,
                shift.expires_at,
                shift.table_id,
                extra={"table": shift.table_id},
            )
        self._note_failures(swept)
        return swept

    def close(self) -> None:
        """Release what the sweep built: its audit store's pooled connections. A worker run
        in a thread (the cluster drain beside a test) or called in a test otherwise leaves
        them to the garbage collector, which closes a PostgreSQL connection with a
        ResourceWarning wherever it happens to run."""
        services, self.services = self.services, None
        dispose = getattr(services.audit_store, "dispose", None) if services else None
        if callable(dispose):
            dispose()

    def _note_failures(self, swept: Expiries) -> None:
        failing = set()
        for shift, why in swept.failed:
            failing.add(shift.token_sha256)
            if shift.token_sha256 not in self.failing:
                log.warning(
                    "could not record that dealer %s's shift ran out at table %s: %s",
                    shift.employee_id,
                    shift.table_id,
                    why,
                    extra={"table": shift.table_id},
                )
        self.failing = failing


def shift_expiry(redis_url: str, database_url: str, jobs_url: str | None = None) -> ShiftExpiry:
    """The expiry sweep of the worker serving ``redis_url``'s tables (and ``jobs_url``'s
    shift sessions, beside a cluster), its other settings from the environment."""
    settings = Settings.from_env().replace(
        redis_url=redis_url, database_url=database_url, jobs_redis_url=jobs_url
    )
    return ShiftExpiry(lambda: build_services(settings))


def verify_audit_log(
    table_id: str | None = None, tables: list[str] | None = None
) -> dict[str, Any]:
    """RQ job (the verify queue): verify one table's chain, else those of ``tables`` (a
    table-scoped token's), else every table's, replaying each event under the profile
    version it recorded; the report is the job's result."""
    store = _context.store()
    if store.url not in _context.integrity:  # kept: each job checks only new checkpoints
        queues = [_live_queue()]
        _context.integrity[store.url] = AuditIntegrityReport(store, queues, public_keys())
    integrity = _context.integrity[store.url]
    report = verify_scope(store, _context.profiles(), table_id, _interrupted, tables, integrity)
    record_verification("job", bool(report.get("ok")), time.time())
    if not report.get("ok"):
        log.error("verification job: the audit chain has problems: %s", report.get("problems"))
    return report


def _live_queue() -> RQAuditQueue:
    """The queue whose tables' live heads a verification checks: the cluster's where
    REDIS_URL names one (the job itself runs on the jobs Redis), else the job's Redis."""
    from dealerassist.adapters.redis_cluster import (
        ClusterAuditQueue,
        cluster_client,
        is_cluster_url,
    )

    url = urls_from_env().redis_url
    if is_cluster_url(url):
        assert url is not None
        return ClusterAuditQueue(cluster_client(url), _context.redis())
    return RQAuditQueue(_context.redis())


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
    empty). Run it beside the audit worker, never instead of it. Like the audit worker it
    says it is alive and rides out a Redis outage."""
    configure(database_url, redis_url, profiles_dir=profiles_dir)
    logs.configure_from_env()
    logs.add_context_provider(job_context)

    def attempt() -> tuple[bool, bool]:
        connection = redis_client(redis_url, **WORKER_REDIS_OPTIONS)
        try:
            worker = make_verify_worker(connection, queue_name)
            with WorkerDuties(connection, queue_name, worker.name):
                result = bool(
                    worker.work(burst=burst, with_scheduler=False, logging_level=logging_level)
                )
            return result, burst or worker_stopped(worker)
        finally:
            connection.close()

    return ride_out_redis(attempt, f"verification worker ({queue_name})")


def requeue_failed(connection: redis.Redis, queue_name: str = "audit") -> int:
    """Requeue every failed drain job, and a drain for every table with staged events."""
    audit_queue = RQAuditQueue(connection, queue_name)
    registry = FailedJobRegistry(queue=audit_queue.queue)
    job_ids = registry.get_job_ids()
    for job_id in job_ids:
        registry.requeue(job_id)
    # An isolated table whose own job is gone (expired, flushed) gets one again.
    isolated = audit_queue.isolated()
    waiting = {
        job.args[0]
        for job in audit_queue.queue.jobs
        if job.func_name == TABLE_DRAIN_JOB and job.args
    }
    for table_id, reason in isolated.items():
        if table_id not in waiting:
            audit_queue.isolate(table_id, reason)
    audit_queue.sweep()
    return len(job_ids)


# -- the drain of a Redis Cluster ---------------------------------------------------------


def run_cluster_worker(
    cluster_url: str,
    jobs_url: str,
    database_url: str,
    burst: bool = False,
    logging_level: str = "WARNING",
    batch: int = DRAIN_BATCH,
    queue_name: str = "audit",
    stop: threading.Event | None = None,
) -> bool:
    """Drain the staged audit events of a Redis Cluster (``adapters.redis_cluster``) until
    stopped (or, with ``burst``, until nothing is staged).

    No RQ job here (RQ cannot reach a cluster): a loop of ``drain_round`` over the dirty
    tables of every node, a round every ``ROUND_SECONDS`` unless the last was full. Every
    ``SWEEP_SECONDS`` it scans the primaries for staged events no bucket lists, and
    retries the isolated tables (a success lifts the isolation); every ``DUTY_SECONDS``
    it records the dealers' shift sessions that ran out (``ShiftExpiry``). Its heartbeat is on the
    jobs Redis (``RQ_REDIS_URL``), where readiness looks for it. More than one may run:
    overlapping rounds store each event once. A Redis error or a store that is down is
    logged once and waited out with backoff; SIGTERM or SIGINT (or ``stop``, set by another
    thread) ends it after its round.
    """
    from dealerassist.adapters.redis_cluster import SWEEP_SECONDS, ClusterAuditQueue, cluster_client

    logging.basicConfig(level=logging_level)
    configure(database_url, None, batch)
    stop = stop or threading.Event()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, lambda signum, frame: stop.set())
    cluster = cluster_client(cluster_url, **WORKER_REDIS_OPTIONS)
    jobs = redis_from_url(jobs_url)
    queue = ClusterAuditQueue(cluster, jobs, queue_name)
    name = f"cluster-drain-{os.getpid()}-{threading.get_ident()}"
    checkpointer = _context.checkpointer()
    store = _context.store()
    expiries = None if burst else shift_expiry(cluster_url, database_url, jobs_url)
    failures = 0
    swept_at = expired_at = 0.0
    checked = False
    try:
        while not stop.is_set():
            started = time.monotonic()
            if expiries is not None and started - expired_at >= DUTY_SECONDS:
                expiries()
                expired_at = started
            try:
                beat(jobs, queue_name, name, HEARTBEAT_SECONDS)
                if not checked:
                    mark_rewound_tables(queue, store)
                    checked = True
                if started - swept_at >= SWEEP_SECONDS or burst:
                    swept = queue.sweep()
                    if swept and swept_at:
                        log.warning("staged events no dirty set listed, now drained: %s", swept)
                    _retry_isolated(queue, store, checkpointer)
                    swept_at = started
                drained = drain_round(queue, store, batch, checkpointer)
                failures = 0
            except CLUSTER_DRAIN_ERRORS as error:
                delay = RECONNECT_BACKOFF[min(failures, len(RECONNECT_BACKOFF) - 1)]
                if failures == 0:
                    log.warning("cluster drain: %s; trying again in %.1f s", error, delay)
                failures += 1
                stop.wait(delay)
                continue
            if burst and not drained.read:
                break
            if not drained.full:
                stop.wait(max(0.0, ROUND_SECONDS - (time.monotonic() - started)))
    finally:
        if checkpointer is not None:
            checkpointer.flush()
        if expiries is not None:
            expiries.close()
        with contextlib.suppress(redis.RedisError):  # the beat lapses by itself
            forget_beat(jobs, queue_name, name)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        cluster.close()
        jobs.close()
    return True


# What the cluster's drain waits out with backoff (the store or a node down).
CLUSTER_DRAIN_ERRORS: tuple[type[BaseException], ...] = (Unavailable, *REDIS_ERRORS, OSError)


def _retry_isolated(
    queue: RQAuditQueue, store: SqlAuditStore, checkpointer: Checkpointer | None
) -> None:
    """Drain each isolated table alone; one the store takes now rejoins the drain."""
    for table_id in sorted(queue.isolated()):
        try:
            drain_pending(queue, store, table_id, _context.batch, checkpointer)
        except Unavailable:
            raise
        except Exception as error:  # still refused: it stays isolated
            log.warning("isolated table %r still refused by the store: %s", table_id, error)
            continue
        if queue.lift_isolation(table_id):
            log.warning("audit events of table %r store again: isolation lifted", table_id)


def redis_from_url(url: str) -> redis.Redis:
    """The worker's client on an ordinary Redis (``WORKER_REDIS_OPTIONS``)."""
    return redis.Redis.from_url(url, **WORKER_REDIS_OPTIONS)
