"""The audit queue: per-table Redis lists of sealed events, drained into the store by RQ jobs.

Events are staged in the same Redis transaction that commits the table state (the table
store calls ``stage`` after ``pipe.multi()``), so an accepted entry and its audit event
are written together or not at all. A drain job (``dealerassist.worker.drain_table``) is
enqueued only when none is queued for the table yet (design §2 step 4: one RQ job costs
about 3.5 ms, so one job drains many events; never one job per event).

Keys (all owned here):

* ``PENDING_KEY``: a list of canonical-JSON event strings, oldest first; events leave it
  only after the store committed them (``trim_stored``), so a crash loses nothing;
* ``DRAIN_FLAG_KEY``: set while a drain job for the table is queued; the job deletes it
  before it reads, so an event staged during a drain always gets a job of its own;
* ``TABLES_KEY``: the set of table IDs that ever staged events (for ``depth`` and the
  start-up sweep that re-enqueues drains a killed worker abandoned).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import redis
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from dealerassist.audit.chain import canonical_json

PENDING_KEY = "da:audit:pending:{table_id}"
DRAIN_FLAG_KEY = "da:audit:drain:{table_id}"
TABLES_KEY = "da:audit:tables"

DRAIN_JOB = "dealerassist.worker.drain_table"
# The flag expires so that a drain job lost for any reason (a failed job, a flushed queue)
# cannot stop a table from being drained for longer than this.
FLAG_TTL_SECONDS = 300
RETRY_INTERVALS = (1, 2, 5, 15, 30, 60)
JOB_TIMEOUT_SECONDS = 600
FAILURE_TTL_SECONDS = 90 * 24 * 3600

# Remove the stored prefix of the pending list, up to and including ARGV[1] (the last event
# the caller stored). If that event is gone already, a concurrent drain trimmed past it, and
# everything before it, so there is nothing left to do. Atomic, so two drains of the same
# table can never trim an event that neither of them stored.
_TRIM_SCRIPT = """
local index = redis.call('LPOS', KEYS[1], ARGV[1], 'MAXLEN', tonumber(ARGV[2]))
if not index then return 0 end
redis.call('LTRIM', KEYS[1], index + 1, -1)
return index + 1
"""


def pending_key(table_id: str) -> str:
    """The Redis list holding ``table_id``'s staged events.

    >>> pending_key("T7")
    'da:audit:pending:T7'
    """
    return PENDING_KEY.format(table_id=table_id)


def drain_flag_key(table_id: str) -> str:
    """The Redis key set while a drain job for ``table_id`` is queued."""
    return DRAIN_FLAG_KEY.format(table_id=table_id)


def encode_event(event: Mapping[str, Any]) -> str:
    """The string an event is staged as (canonical JSON, so the hash input is kept)."""
    return canonical_json(event).decode()


def decode_event(raw: bytes | str) -> dict[str, Any]:
    """Inverse of ``encode_event``."""
    event: dict[str, Any] = json.loads(raw)
    return event


def _retry(intervals: list[int]) -> Retry | None:
    return Retry(max=len(intervals), interval=intervals) if intervals else None


def _as_bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


class RQAuditQueue:
    """Stages audit events in Redis and enqueues drain jobs on the ``audit`` RQ queue."""

    def __init__(
        self,
        connection: redis.Redis,
        queue_name: str = "audit",
        retry_intervals: Sequence[int] = RETRY_INTERVALS,
    ) -> None:
        self.connection = connection
        self.retry_intervals = list(retry_intervals)
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
        self._trim = connection.register_script(_TRIM_SCRIPT)

    # -- the table store's side (inside its transaction) -------------------------------

    def watch_keys(self, table_id: str) -> list[str]:
        """Keys the table store WATCHes: a drain starting between read and EXEC aborts it."""
        return [drain_flag_key(table_id)]

    def drain_queued(self, pipe: redis.client.Pipeline, table_id: str) -> bool:
        """Whether a drain job is queued (read while WATCHing, before ``pipe.multi()``)."""
        return bool(pipe.exists(drain_flag_key(table_id)))

    def stage(
        self,
        pipe: redis.client.Pipeline,
        table_id: str,
        events: Sequence[Mapping[str, Any]],
        drain_queued: bool,
    ) -> None:
        """Queue the events (and a drain job if none is queued) on ``pipe`` after ``multi()``."""
        if not events:
            return
        pipe.rpush(pending_key(table_id), *(encode_event(event) for event in events))
        pipe.sadd(TABLES_KEY, table_id)
        if not drain_queued:
            self.enqueue_drain(table_id, pipe)

    def enqueue_drain(self, table_id: str, pipe: redis.client.Pipeline | None = None) -> None:
        """Set the table's drain flag and enqueue one drain job (on ``pipe`` if given)."""
        target = pipe if pipe is not None else self.connection.pipeline()
        if pipe is None:
            target.multi()
        target.set(drain_flag_key(table_id), "1", ex=FLAG_TTL_SECONDS)
        self.queue.enqueue_call(
            DRAIN_JOB,
            args=(table_id,),
            timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=0,
            failure_ttl=FAILURE_TTL_SECONDS,
            description=f"drain audit events of table {table_id}",
            retry=_retry(self.retry_intervals),
            pipeline=target,
        )
        if pipe is None:
            target.execute()

    # -- the drain job's side ----------------------------------------------------------

    def peek(self, table_id: str, count: int) -> list[bytes]:
        """The oldest ``count`` staged events of the table, still staged."""
        raw = self.connection.lrange(pending_key(table_id), 0, count - 1)
        return [_as_bytes(item) for item in raw]

    def trim_stored(self, table_id: str, last_stored: bytes, within: int) -> int:
        """Drop the staged events up to ``last_stored`` (found in the first ``within``)."""
        removed = self._trim(keys=[pending_key(table_id)], args=[last_stored, within])
        return int(removed)

    def clear_drain_flag(self, table_id: str) -> None:
        """Mark the table as having no queued drain (the drain job does this first)."""
        self.connection.delete(drain_flag_key(table_id))

    def hold_drain_flag(self, table_id: str, seconds: int) -> None:
        """Keep new stagings from enqueueing more jobs while a failing drain retries."""
        self.connection.set(drain_flag_key(table_id), "1", ex=seconds)

    # -- operations ------------------------------------------------------------------

    def tables(self) -> list[str]:
        """Every table that has staged events at some time."""
        return sorted(_as_bytes(member).decode() for member in self.connection.smembers(TABLES_KEY))

    def pending(self, table_id: str) -> int:
        """Events of one table waiting for the store."""
        return int(self.connection.llen(pending_key(table_id)))

    def depth(self) -> int:
        """Pending events across tables (for /readyz and benchmarks)."""
        tables = self.tables()
        if not tables:
            return 0
        pipe = self.connection.pipeline(transaction=False)
        for table_id in tables:
            pipe.llen(pending_key(table_id))
        return sum(int(length) for length in pipe.execute())

    def sweep(self, idle_only: bool = False) -> list[str]:
        """Enqueue a drain for every table with pending events; return those tables.

        Run at worker start and after a requeue: a worker killed mid-drain leaves its
        events staged but its job abandoned, and this picks them up again. With
        ``idle_only`` (the worker's periodic maintenance) only tables with no drain queued
        get one, so a busy queue gains no extra jobs.
        """
        swept = []
        for table_id in self.tables():
            if not self.pending(table_id):
                continue
            if idle_only and not self._claim_flag(table_id):
                continue
            self.enqueue_drain(table_id)
            swept.append(table_id)
        return swept

    def _claim_flag(self, table_id: str) -> bool:
        claimed = self.connection.set(drain_flag_key(table_id), "1", ex=FLAG_TTL_SECONDS, nx=True)
        return bool(claimed)
