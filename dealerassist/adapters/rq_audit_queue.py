"""The audit queue: per-table Redis lists of sealed events, drained into the store by RQ jobs.

Events are staged in the same Redis transaction that commits the table state (the table
store calls ``stage`` after ``pipe.multi()``), so an accepted entry and its audit event
are written together or not at all. One RQ job costs about 3.5 ms of bookkeeping (enqueue,
fetch, status writes), and at 500 events/s a job per table drain (26-58 jobs/s) cost half a core: so
one drain job (``dealerassist.worker.drain_tables``) serves every table of the queue. It
drains the dirty tables in rounds and stays while events keep coming; it is enqueued
only when none is queued or running, so the jobs per second stay bounded (about one per
``worker.JOB_BUDGET_SECONDS`` under steady load, one per ``worker.LINGER_SECONDS`` at
most when the load comes and goes) whatever the number of tables or events.

Keys (all owned here):

* ``PENDING_KEY``: a list of canonical-JSON event strings, oldest first; events leave it
  only after the store committed them (``trim_stored``), so a crash loses nothing;
* ``DIRTY_KEY``: the set of tables whose list may be non-empty. A staging adds the table in
  the same transaction as its events; a trim removes it, atomically, only when the list
  is empty; so a table with staged events is always in it;
* ``DRAIN_FLAG_KEY``: set while the queue's drain job is queued or running. The job
  deletes it only through ``release_drain``, atomically and only while no table is
  dirty. The table store WATCHes it, so a staging that read "a drain is on" and meets a
  release before its EXEC is aborted and retried (and then enqueues a job); its Lua
  commit checks it in the same atomic step as it stages. No staged event is ever left
  without a job;
* ``TABLES_KEY``: the set of table IDs that ever staged events (for the start-up sweep,
  which also picks up lists staged before ``DIRTY_KEY`` existed);
* ``ISOLATED_KEY``: the tables whose events the store refused (a poison event), each with
  the reason: the queue's drain skips them (and takes them out of the dirty set, so it
  can still end) while a drain job of that table alone (``TABLE_DRAIN_JOB``) retries and
  then waits in the failed registry; its success, after a requeue, lifts the isolation;
* ``FORKED_KEY``: the tables the drain found forked (``adapters.sql_store``) or rewound
  (Redis's head behind the store's), each with the first forked seq and the hash the store
  holds there; and ``TABLE_FORKED_KEY`` of each, which the table store reads with the table
  (no extra round trip) to refuse commits that would build on that older head.

``adapters.redis_tables`` stages in its Lua commit exactly what ``stage`` does (list,
dirty set, tables set, flag check) on the keys ``staging_keys`` names: a change to what
``stage`` writes changes that script too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import redis
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from dealerassist.audit.chain import canonical_json
from dealerassist.audit.envelope import parse_at

# The keys of one table carry its hash tag (see ``redis_tables.TABLE_KEY``).
PENDING_KEY = "da:audit:pending:{{{table_id}}}"
LEGACY_PENDING_KEY = "da:audit:pending:{table_id}"
DIRTY_KEY = "da:audit:dirty:{queue}"
DRAIN_FLAG_KEY = "da:audit:draining:{queue}"
TABLES_KEY = "da:audit:tables"
ISOLATED_KEY = "da:audit:isolated:{queue}"
FORKED_KEY = "da:audit:forked"
TABLE_FORKED_KEY = "da:audit:forked:{{{table_id}}}"
LEGACY_TABLE_FORKED_KEY = "da:audit:forked:{table_id}"

DRAIN_JOB = "dealerassist.worker.drain_tables"
TABLE_DRAIN_JOB = "dealerassist.worker.drain_table"
# The flag expires so that a drain job lost for any reason (a worker killed mid-job, a
# failed job, a flushed queue) cannot stop the queue from being drained for longer than
# this: a live worker then enqueues a drain (``sweep_if_idle``). The worker running the job
# renews it every second or so, and each hand-over to the next job sets it again. (It was
# 300 s: a second, idle worker then drained nothing for minutes after the first died.)
FLAG_TTL_SECONDS = 10
# A worker's heartbeat (``beat``): the workers of a queue whose key lives are live.
WORKERS_KEY = "da:workers:{queue}"
WORKER_BEAT_KEY = "da:worker:{queue}:{name}"
RETRY_INTERVALS = (1, 2, 5, 15, 30, 60)
JOB_TIMEOUT_SECONDS = 600
FAILURE_TTL_SECONDS = 90 * 24 * 3600

# For each table i (KEYS[i + 1] its pending list): remove the stored prefix of the list,
# up to and including ARGV[3i - 2] (the last event the caller stored, found within the
# first ARGV[3i - 1]; '' when it read nothing). If that event is gone already, a concurrent
# drain trimmed past it, and everything before it, so there is nothing left to do. Atomic,
# so two drains of the same table can never trim an event that neither of them stored.
# A list left empty takes its table (ARGV[3i]) out of the dirty set (KEYS[1]) in the same
# step: a staging adds list entry and dirty member together, so neither can slip between.
# One call for all the tables of a round: one command to send and parse, not one a table.
_TRIM_SCRIPT = """
local removed = 0
for i = 1, #KEYS - 1 do
  local pending, last = KEYS[i + 1], ARGV[3 * i - 2]
  if last ~= '' then
    local index = redis.call('LPOS', pending, last, 'MAXLEN', tonumber(ARGV[3 * i - 1]))
    if index then
      redis.call('LTRIM', pending, index + 1, -1)
      removed = removed + index + 1
    end
  end
  if redis.call('LLEN', pending) == 0 then
    redis.call('SREM', KEYS[1], ARGV[3 * i])
  end
end
return removed
"""

# Up to ARGV[1] dirty tables (KEYS[1]) at random, leaving out the isolated ones (KEYS[2]),
# which also leave the dirty set: a staging puts them back, the next round takes them out.
_DRAINABLE_SCRIPT = """
local picked = redis.call('SRANDMEMBER', KEYS[1], tonumber(ARGV[1]))
local drainable = {}
for _, table_id in ipairs(picked) do
  if redis.call('HEXISTS', KEYS[2], table_id) == 1 then
    redis.call('SREM', KEYS[1], table_id)
  else
    drainable[#drainable + 1] = table_id
  end
end
return drainable
"""

# End the drain (delete the flag) only if no table is dirty; otherwise keep draining. The
# delete touches a WATCHed key, so a staging that saw the flag and is not committed yet
# is aborted and retried, and then enqueues a job of its own.
_RELEASE_SCRIPT = """
if redis.call('SCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  return 1
end
return 0
"""


def pending_key(table_id: str) -> str:
    """The Redis list holding ``table_id``'s staged events.

    >>> pending_key("T7")
    'da:audit:pending:{T7}'
    """
    return PENDING_KEY.format(table_id=table_id)


def drain_flag_key(queue_name: str = "audit") -> str:
    """The Redis key set while the queue's drain job is queued or running.

    >>> drain_flag_key()
    'da:audit:draining:audit'
    """
    return DRAIN_FLAG_KEY.format(queue=queue_name)


def dirty_key(queue_name: str = "audit") -> str:
    """The Redis set of the queue's tables that have (or may have) staged events."""
    return DIRTY_KEY.format(queue=queue_name)


def beat(connection: redis.Redis, queue_name: str, worker_name: str, ttl: int) -> None:
    """Say that ``worker_name`` serves ``queue_name``, for the next ``ttl`` seconds."""
    pipe = connection.pipeline(transaction=False)
    pipe.set(WORKER_BEAT_KEY.format(queue=queue_name, name=worker_name), "1", ex=ttl)
    pipe.sadd(WORKERS_KEY.format(queue=queue_name), worker_name)
    pipe.execute()


def forget_beat(connection: redis.Redis, queue_name: str, worker_name: str) -> None:
    """A worker that stops says so at once (one killed lapses after its ``ttl``)."""
    pipe = connection.pipeline(transaction=False)
    pipe.delete(WORKER_BEAT_KEY.format(queue=queue_name, name=worker_name))
    pipe.srem(WORKERS_KEY.format(queue=queue_name), worker_name)
    pipe.execute()


def live_workers(connection: redis.Redis, queue_name: str) -> list[str]:
    """The workers of ``queue_name`` whose heartbeat lives (the lapsed are forgotten)."""
    key = WORKERS_KEY.format(queue=queue_name)
    names = sorted(_as_text(name) for name in connection.smembers(key))
    if not names:
        return []
    pipe = connection.pipeline(transaction=False)
    for name in names:
        pipe.exists(WORKER_BEAT_KEY.format(queue=queue_name, name=name))
    alive = dict(zip(names, pipe.execute(), strict=True))
    lapsed = [name for name, exists in alive.items() if not exists]
    if lapsed:
        connection.srem(key, *lapsed)
    return [name for name, exists in alive.items() if exists]


def table_forked_key(table_id: str) -> str:
    """The Redis key set while a table's chain is forked (the table store refuses commits).

    >>> table_forked_key("T7")
    'da:audit:forked:{T7}'
    """
    return TABLE_FORKED_KEY.format(table_id=table_id)


def isolated_key(queue_name: str = "audit") -> str:
    """The Redis hash of the queue's isolated tables (table ID -> why the store refused it)."""
    return ISOLATED_KEY.format(queue=queue_name)


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


def _as_text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RQAuditQueue:
    """Stages audit events in Redis and enqueues the drain job on the ``audit`` RQ queue."""

    # The Redis Cluster's queue (``adapters.redis_cluster``) stages by the pending list alone
    on_cluster = False

    def __init__(
        self,
        connection: redis.Redis,
        queue_name: str = "audit",
        retry_intervals: Sequence[int] | None = None,
    ) -> None:
        self.connection = connection
        # where the isolated and forked tables' hashes are (a cluster's queue: its jobs Redis)
        self.shared: redis.Redis = connection
        # None: the module's RETRY_INTERVALS, read now (so a test can shorten every queue's)
        self.retry_intervals = list(RETRY_INTERVALS if retry_intervals is None else retry_intervals)
        self.queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
        self.flag_key = drain_flag_key(queue_name)
        self.dirty_key = dirty_key(queue_name)
        self._trim = connection.register_script(_TRIM_SCRIPT)
        self._release = connection.register_script(_RELEASE_SCRIPT)
        self._drainable = connection.register_script(_DRAINABLE_SCRIPT)
        self.isolated_key = isolated_key(queue_name)

    # -- the table store's side (inside its transaction) -------------------------------

    def watch_keys(self, table_id: str) -> list[str]:
        """Keys the table store WATCHes: a drain ending between read and EXEC aborts it."""
        return [self.flag_key]

    def drain_queued(self, pipe: redis.client.Pipeline, table_id: str) -> bool:
        """Whether a drain job is queued or running (read while WATCHing, before ``multi()``)."""
        return bool(pipe.exists(self.flag_key))

    def staging_keys(self, table_id: str) -> list[str]:
        """What a staging touches, in this order: the table's pending list, the dirty set,
        the set of tables that ever staged, and the drain flag it checks."""
        return [pending_key(table_id), self.dirty_key, TABLES_KEY, self.flag_key]

    def mark_dirty(self, table_id: str) -> None:
        """After a commit staged events (nothing here: the commit did it; a cluster's queue
        lists the table for its drain)."""

    def stage(
        self,
        pipe: redis.client.Pipeline,
        table_id: str,
        events: Sequence[Mapping[str, Any]],
        drain_queued: bool,
    ) -> None:
        """Queue the events (and a drain job if none is on) on ``pipe`` after ``multi()``."""
        if not events:
            return
        pipe.rpush(pending_key(table_id), *(encode_event(event) for event in events))
        pipe.sadd(self.dirty_key, table_id)
        pipe.sadd(TABLES_KEY, table_id)
        if not drain_queued:
            self.enqueue_drain(pipe)

    def enqueue_drain(self, pipe: redis.client.Pipeline | None = None) -> None:
        """Set the drain flag and enqueue one drain job (on ``pipe`` if given)."""
        target = pipe if pipe is not None else self.connection.pipeline()
        if pipe is None:
            target.multi()
        target.set(self.flag_key, "1", ex=FLAG_TTL_SECONDS)
        self.queue.enqueue_call(
            DRAIN_JOB,
            timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=0,
            failure_ttl=FAILURE_TTL_SECONDS,
            description="drain staged audit events",
            retry=_retry(self.retry_intervals),
            pipeline=target,
        )
        if pipe is None:
            target.execute()

    # -- the drain job's side ----------------------------------------------------------

    def dirty_tables(self, limit: int) -> list[str]:
        """Up to ``limit`` dirty tables, chosen at random (so none waits behind the others)."""
        members: list[bytes] = self.connection.srandmember(self.dirty_key, limit)  # type: ignore[assignment]
        return [_as_text(member) for member in members]

    def drainable_tables(self, limit: int) -> list[str]:
        """``dirty_tables`` less the isolated ones (one round trip)."""
        members = self._drainable(keys=[self.dirty_key, self.isolated_key], args=[limit])
        return [_as_text(member) for member in members]

    def isolate(self, table_id: str, reason: str) -> None:
        """Set the table apart: the queue's drain skips it, and a drain job of its own
        retries it and then waits in the failed registry (its description says why)."""
        pipe = self.connection.pipeline()
        pipe.multi()
        pipe.hset(self.isolated_key, table_id, reason)
        pipe.srem(self.dirty_key, table_id)
        self.queue.enqueue_call(
            TABLE_DRAIN_JOB,
            args=(table_id,),
            timeout=JOB_TIMEOUT_SECONDS,
            result_ttl=0,
            failure_ttl=FAILURE_TTL_SECONDS,
            description=f"drain table {table_id!r} alone: {reason}",
            retry=_retry(self.retry_intervals),
            pipeline=pipe,
        )
        pipe.execute()

    def isolated(self) -> dict[str, str]:
        """The isolated tables and why the store refused each."""
        found = self.shared.hgetall(self.isolated_key)
        return {_as_text(key): _as_text(value) for key, value in found.items()}

    def lift_isolation(self, table_id: str) -> bool:
        """The table's events store again: back to the queue's drain."""
        lifted = bool(self.connection.hdel(self.isolated_key, table_id))
        if lifted and self.pending(table_id):
            self.connection.sadd(self.dirty_key, table_id)
        return lifted

    def mark_forked(self, table_id: str, seq: int, stored_hash: str) -> None:
        """Note the table's fork in Redis (first forked seq, the store's hash there)."""
        value = json.dumps([seq, stored_hash])
        pipe = self.connection.pipeline()
        pipe.hset(FORKED_KEY, table_id, value)
        pipe.set(table_forked_key(table_id), value)
        pipe.execute()

    def clear_forked(self, table_id: str) -> None:
        """Lift the table's fork mark (an operator resolved it): commits are taken again."""
        pipe = self.connection.pipeline()
        pipe.hdel(FORKED_KEY, table_id)
        pipe.delete(table_forked_key(table_id))
        pipe.execute()

    def forked(self) -> dict[str, tuple[int, str]]:
        """The forks the drain noted: table ID -> (first forked seq, the store's hash)."""
        forked: dict[str, tuple[int, str]] = {}
        for key, value in self.shared.hgetall(FORKED_KEY).items():
            seq, stored_hash = json.loads(value)
            forked[_as_text(key)] = (int(seq), str(stored_hash))
        return forked

    def peek(self, table_id: str, count: int) -> list[bytes]:
        """The oldest ``count`` staged events of the table, still staged."""
        raw = self.connection.lrange(pending_key(table_id), 0, count - 1)
        return [_as_bytes(item) for item in raw]

    def peek_tables(self, tables: Sequence[str], count: int) -> dict[str, list[bytes]]:
        """``peek`` of each table, in one round trip."""
        pipe = self.connection.pipeline(transaction=False)
        for table_id in tables:
            pipe.lrange(pending_key(table_id), 0, count - 1)
        read = pipe.execute()
        return {t: [_as_bytes(item) for item in raw] for t, raw in zip(tables, read, strict=True)}

    def trim_stored(self, table_id: str, last_stored: bytes, within: int) -> int:
        """Drop the staged events up to ``last_stored`` (found in the first ``within``)."""
        return self._trim_lists([(table_id, last_stored, within)])

    def trim_tables(self, stored: Mapping[str, Sequence[bytes]]) -> int:
        """``trim_stored`` of each table through the last of its stored events (none: only
        forget the table if its list is empty), in one call; return how many went."""
        return self._trim_lists(
            [
                (table_id, events[-1] if events else b"", len(events))
                for table_id, events in stored.items()
            ]
        )

    def _trim_lists(self, trims: Sequence[tuple[str, bytes, int]]) -> int:
        if not trims:
            return 0
        keys = [self.dirty_key] + [pending_key(table_id) for table_id, _, _ in trims]
        args = [value for table_id, last, within in trims for value in (last, within, table_id)]
        return int(self._trim(keys=keys, args=args))

    def release_drain(self) -> bool:
        """End the drain: delete the flag if no table is dirty; False means keep draining."""
        return bool(self._release(keys=[self.dirty_key, self.flag_key]))

    def renew_drain_flag(self) -> None:
        """Keep the flag of a running drain job from lapsing (never sets a missing one)."""
        self.connection.expire(self.flag_key, FLAG_TTL_SECONDS)

    def hold_drain_flag(self, seconds: int) -> None:
        """Keep new stagings from enqueueing more jobs while a failing drain retries."""
        self.connection.set(self.flag_key, "1", ex=seconds)

    # -- operations ------------------------------------------------------------------

    def tables(self) -> list[str]:
        """Every table that has staged events at some time."""
        members = self.connection.smembers(TABLES_KEY)
        return sorted(_as_text(member) for member in members)

    def pending(self, table_id: str) -> int:
        """Events of one table waiting for the store."""
        return int(self.connection.llen(pending_key(table_id)))

    def depth(self) -> int:
        """Pending events across tables, isolated ones too (for /readyz and benchmarks)."""
        pipe = self.connection.pipeline(transaction=False)
        pipe.smembers(self.dirty_key)
        pipe.hkeys(self.isolated_key)
        dirty, isolated = pipe.execute()
        tables = {_as_text(t) for t in dirty} | {_as_text(t) for t in isolated}
        return sum(self._lengths(sorted(tables)).values())

    def _lengths(self, tables: list[str]) -> dict[str, int]:
        """Each table's pending events, in one round trip."""
        if not tables:
            return {}
        pipe = self.connection.pipeline(transaction=False)
        for table_id in tables:
            pipe.llen(pending_key(table_id))
        return dict(zip(tables, (int(length) for length in pipe.execute()), strict=True))

    def sweep(self, idle_only: bool = False) -> list[str]:
        """Enqueue a drain if tables have pending events and none is queued; return those
        tables (none if no job was enqueued).

        Run at worker start and after a requeue: a worker killed mid-drain leaves its
        events staged and the flag set but its job abandoned, and this picks them up
        again (each table with events is marked dirty first, which also adopts lists
        staged before the dirty set existed). A drain job already waiting in the queue
        will do, so a worker starting under load adds none. With ``idle_only`` (the
        worker's periodic maintenance) a drain is enqueued only if the flag says none is
        on, so a busy queue gains no extra job.
        """
        lengths = self._lengths(self.tables())
        swept = sorted(table_id for table_id, length in lengths.items() if length)
        if not swept:
            return []
        self.connection.sadd(self.dirty_key, *swept)
        if idle_only and not self._claim_flag():
            return []
        if not idle_only and self.queue.count and self.connection.exists(self.flag_key):
            return []
        self.enqueue_drain()
        return swept

    def sweep_if_idle(self) -> list[str]:
        """``sweep(idle_only=True)`` when no drain is on but a table is dirty (its job was
        lost and its flag lapsed), else nothing: one round trip while all is well."""
        pipe = self.connection.pipeline(transaction=False)
        pipe.exists(self.flag_key)
        pipe.scard(self.dirty_key)
        flag, dirty = pipe.execute()
        if flag or not dirty:
            return []
        return self.sweep(idle_only=True)

    # -- readiness -------------------------------------------------------------------

    def oldest_staged_at(self) -> float | None:
        """When the oldest event still staged was sealed (a POSIX time; None: nothing
        waits): one LINDEX of each dirty table, in one round trip."""
        tables = sorted(_as_text(t) for t in self.connection.smembers(self.dirty_key))
        if not tables:
            return None
        pipe = self.connection.pipeline(transaction=False)
        for table_id in tables:
            pipe.lindex(pending_key(table_id), 0)
        times = [parse_at(decode_event(raw)["at"]).timestamp() for raw in pipe.execute() if raw]
        return min(times) if times else None

    def live_workers(self) -> list[str]:
        """The workers draining this queue whose heartbeat lives."""
        return live_workers(self.connection, self.queue.name)

    def _claim_flag(self) -> bool:
        claimed = self.connection.set(self.flag_key, "1", ex=FLAG_TTL_SECONDS, nx=True)
        return bool(claimed)
