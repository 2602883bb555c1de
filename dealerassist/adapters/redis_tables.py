"""Live table state in Redis: one JSON value per table, changed only by compare-and-set.

Keys (all owned here):

* ``TABLE_KEY``: ``{"seq": n, "last_hash": h, "dealer": d, "state": TableState.to_dict()}``
  — the state carries its version; ``seq``/``last_hash`` are the head of the table's audit
  chain, ``dealer`` the employee ID its last event names (a record stored before the
  dealer sign-in has none: no dealer on duty);
* ``IDEMPOTENCY_KEY``: the first answer to an ``Idempotency-Key`` (expires after a TTL).

A transaction reads the table, the idempotency record and the audit queue's drain flag in
one MGET. Its commit is a compare-and-set in one of two ways, both all or nothing:

* while a drain job is on (nearly always under load), one Lua script (``_COMMIT_SCRIPT``)
  checks that the table is still what was read and that the idempotency key is still
  free, then writes the state, the idempotency record and the staged audit events. "Still
  what was read" is checked on the stored record's head (``{"seq":N,"last_hash":"…"``,
  its first ~100 bytes, read with GETRANGE): every commit seals exactly one audit event and
  stores it as the new head, so the head names one stored value, and the ~9 KB state is
  neither sent twice nor copied into Lua to be compared.
  One command instead of WATCH, MULTI, five writes and EXEC: the profile of the action
  endpoint had redis-py's packing and reply parsing at ~45% of a request's CPU;
* otherwise (the commit must enqueue a drain job, which RQ builds in Python) it WATCHes
  the keys, checks the table is unchanged, and writes everything in one MULTI/EXEC. If a
  watched key changed, the commit is retried only when the table itself is unchanged (a
  drain job started or ended meanwhile).

The loser of a race gets ``errors.Conflict`` with the current version, and nothing was
written.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import redis

from dealerassist.adapters.redis_connect import resends
from dealerassist.adapters.redis_replication import ReplicaWait
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, encode_event, table_forked_key
from dealerassist.audit.chain import canonical_json
from dealerassist.errors import Conflict, Unavailable
from dealerassist.json_codec import compact, parse
from dealerassist.rules.model.state import TableState
from dealerassist.service import messages as told
from dealerassist.service.ports import ChainHead, IdempotencyRecord, TableRecord

# Every key of a table carries the hash tag ``{table_id}``: on a Redis Cluster its state,
# head, idempotency records, staged events and fork mark share one slot, so the commit
# stays one script on one node (``adapters.redis_cluster``). Before 0.x they had no tag
# (``LEGACY_*``); ``dealerassist migrate-redis`` renames them (``adapters.redis_migration``).
TABLE_KEY = "da:table:{{{table_id}}}"
IDEMPOTENCY_KEY = "da:idem:{{{table_id}}}:{key}"
LEGACY_TABLE_KEY = "da:table:{table_id}"
LEGACY_IDEMPOTENCY_KEY = "da:idem:{key}"
# written only to make the replicas confirm what the primary holds (redis_replication)
PROBE_KEY = "da:replicated:{{{table_id}}}"
MAX_COMMIT_ATTEMPTS = 20

# The compare-and-set of one commit while a drain job is on (see the module docstring).
# KEYS: table, idempotency record (the table key again when there is none), then the
# audit queue's staging_keys (pending list, dirty set, tables set, drain flag).
# ARGV: the head of the table as read ('' = no table; see ``stored_head``), the new bytes,
# the idempotency record ('' = none), its TTL, the table ID, then the events to stage.
# Returns 1 (written), 0 (the table or the idempotency key moved: a lost race) or -1 (no
# drain job is on: enqueueing one needs the MULTI/EXEC path). Mirrors RQAuditQueue.stage.
# Both commit scripts' compare: the head as read (or no table), the idempotency key free.
_CHECK_LUA = """
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
elseif redis.call('GETRANGE', KEYS[1], 0, #ARGV[1] - 1) ~= ARGV[1] then
  return 0
end
if ARGV[3] ~= '' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
"""
_COMMIT_SCRIPT = (
    _CHECK_LUA
    + """if #ARGV > 5 and redis.call('EXISTS', KEYS[6]) == 0 then return -1 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
if #ARGV > 5 then
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 6))
  redis.call('SADD', KEYS[4], ARGV[5])
  redis.call('SADD', KEYS[5], ARGV[5])
end
return 1
"""
)
# The same compare-and-set on a Redis Cluster (``adapters.redis_cluster``): only keys of the
# table's slot (KEYS: table, idempotency record, pending list; ARGV as above), no dirty set,
# tables set or drain flag (the store lists the table for the drain after it); 1 or 0.
_CLUSTER_COMMIT_SCRIPT = (
    _CHECK_LUA
    + """redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
if #ARGV > 5 then redis.call('RPUSH', KEYS[3], unpack(ARGV, 6)) end
return 1
"""
)
CACHE_SIZE = 64
T = TypeVar("T")


def _once(call: Callable[[], T]) -> T:
    return call()


def table_key(table_id: str) -> str:
    """The Redis key of one table.

    >>> table_key("T7")
    'da:table:{T7}'
    """
    return TABLE_KEY.format(table_id=table_id)


def probe_key(table_id: str) -> str:
    """The key a commit writes to have the replicas confirm it (``ReplicaWait.confirm``):
    in the table's slot, so it is on the table's server.

    >>> probe_key("T7")
    'da:replicated:{T7}'
    """
    return PROBE_KEY.format(table_id=table_id)


def idempotency_key(table_id: str, key: str) -> str:
    """The Redis key of one idempotency record of a table (``key`` is already scoped by
    the caller to its token): in the table's slot, so the commit can check and write it.

    >>> idempotency_key("T7", "tablet:k1")
    'da:idem:{T7}:tablet:k1'
    """
    return IDEMPOTENCY_KEY.format(table_id=table_id, key=key)


def encode_record(record: TableRecord) -> bytes:
    """The JSON a table is stored as (the state embedded as its canonical JSON)."""
    state_json = record.state_json or canonical_json(record.state.to_dict())
    dealer = "" if record.head.dealer is None else f',"dealer":{json.dumps(record.head.dealer)}'
    head = f'{{"seq":{record.head.seq},"last_hash":"{record.head.last_hash}"{dealer},"state":'
    return head.encode() + state_json + b"}"


def stored_head(raw: bytes) -> bytes:
    """The head of a stored record: its bytes up to the state (``last_hash``, the dealer).

    Every commit seals one audit event and stores it as the record's new head, so two
    different stored values never share a head (seq only grows; a hash names its event,
    and the event names the state by its SHA-256).

    >>> stored_head(b'{"seq":7,"last_hash":"ab","state":{"version":3}}')
    b'{"seq":7,"last_hash":"ab"'
    """
    return raw[: raw.index(b',"state":')]


def decode_record(raw: bytes | str | None) -> TableRecord | None:
    """Inverse of ``encode_record`` (None stays None)."""
    if raw is None:
        return None
    data = parse(raw)
    dealer = data.get("dealer")
    head = ChainHead(
        seq=int(data["seq"]),
        last_hash=str(data["last_hash"]),
        dealer=dealer if isinstance(dealer, str) else None,
    )
    return TableRecord(state=TableState.from_dict(data["state"]), head=head)


class DecodedCache:
    """The last few records this process wrote or read, by their stored bytes.

    Decoding a table state costs more than a Redis round trip; a process that wrote a
    table usually reads those same bytes next. Keyed by the exact bytes, so a hit can
    never return anything but what ``decode_record`` would.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.records: OrderedDict[bytes, TableRecord] = OrderedDict()
        self.lock = threading.Lock()

    def decode(self, raw: bytes | None) -> TableRecord | None:
        if raw is None:
            return None
        with self.lock:
            record = self.records.get(raw)
        if record is None:
            record = decode_record(raw)
            assert record is not None
            self.remember(raw, record)
        return record

    def remember(self, raw: bytes, record: TableRecord) -> None:
        with self.lock:
            self.records[raw] = record
            self.records.move_to_end(raw)
            while len(self.records) > self.size:
                self.records.popitem(last=False)


def encode_remembered(remember: IdempotencyRecord) -> bytes:
    """The JSON an idempotency record is stored as (the body embedded when pre-encoded)."""
    if remember.body_json is None:
        return compact(remember.to_dict())
    head = {"fingerprint": remember.fingerprint, "kind": str(remember.kind)}
    return compact(head)[:-1] + b',"body":' + remember.body_json + b"}"


def _decode_remembered(raw: bytes | str | None) -> IdempotencyRecord | None:
    return None if raw is None else IdempotencyRecord.from_dict(parse(raw))


# What a Redis (or a Redis Cluster: redis-py's cluster errors are not all RedisErrors, e.g.
# "no reachable node", a slot no node serves) raises when it cannot answer.
REDIS_ERRORS: tuple[type[Exception], ...] = (
    redis.RedisError,
    redis.exceptions.RedisClusterException,
)


@contextmanager
def _unavailable_on_redis_errors() -> Iterator[None]:
    try:
        yield
    except redis.exceptions.WatchError:
        raise
    except REDIS_ERRORS as exc:
        raise Unavailable(f"Redis is unavailable: {exc}") from exc


def _watch_then_mget(pipe: redis.client.Pipeline, keys: Sequence[str]) -> list[Any]:
    """``pipe.watch(*keys)`` then ``pipe.mget(keys)``, sent together: one round trip.

    redis-py sends a WATCH on its own and waits for the answer before the MGET can go;
    the profile of the action endpoint showed that second round trip (a write, a wake-up
    of Redis, a read) as the largest single cost after the engine. Redis runs the two in
    order on the one connection, so the MGET still reads under the WATCH. The pipeline
    is put in the state ``pipe.watch`` leaves it in (watching, holding its connection),
    so ``multi``/``execute``/``reset`` work as before. A connection that failed half-way
    is dropped, so no unread answer is left on it.
    """
    if pipe.explicit_transaction:
        raise redis.RedisError("Cannot issue a WATCH after a MULTI")
    connection: Any = pipe.connection  # redis-py's Connection is untyped
    if connection is None:
        connection = pipe.connection_pool.get_connection()
        pipe.connection = connection
    pipe.watching = True
    try:
        connection.send_packed_command(
            connection.pack_commands([("WATCH", *keys), ("MGET", *keys)])
        )
        connection.read_response()
        values: list[Any] = connection.read_response()
    except BaseException:
        connection.disconnect()
        raise
    return values


class RedisTransaction:
    """One compare-and-set on one table (see the module docstring)."""

    def __init__(
        self, store: RedisTableStore, pipe: redis.client.Pipeline, table_id: str, key: str | None
    ) -> None:
        self._store = store
        self._pipe = pipe
        self._table_id = table_id
        self._keys = [table_key(table_id)] + ([idempotency_key(table_id, key)] if key else [])
        self._queue_keys = store.queue.watch_keys(table_id)
        self._forked_key = table_forked_key(table_id)
        self.record: TableRecord | None = None
        self.remembered: IdempotencyRecord | None = None
        self._seen: bytes | None = None  # the table's stored bytes when it was read
        self._drain_queued = False

    def begin(self) -> None:
        """Read the table, the idempotency record, the drain flag and the table's fork mark
        (one MGET, no WATCH); ``Conflict`` if the audit drain found the table forked or
        rewound: a commit would build on a head older than the audit store's."""
        keys = self._keys + self._queue_keys + [self._forked_key]
        found = self._store.retry(lambda: self._store.connection.mget(keys))
        if found[-1] is not None:
            seq = json.loads(found[-1])[0]
            said = told.TABLE_FORKED(table=repr(self._table_id), seq=seq)
            raise Conflict(said, None)
        raw = self._read(found[:-1])
        self.record = self._store.cache.decode(raw[0])
        self._seen = raw[0]
        if len(self._keys) > 1:
            self.remembered = _decode_remembered(raw[1])
        if self.remembered is not None:  # to be answered again: only once replicated
            self._store.replication.confirm(self._store.connection, probe_key(self._table_id))

    def _watch_and_read(self) -> list[Any]:
        """WATCH everything, then read it in one MGET, both in one write (one round trip)."""
        return self._read(_watch_then_mget(self._pipe, self._keys + self._queue_keys))

    def _read(self, raw: Any) -> list[Any]:
        """Note the drain flag of an MGET of the keys and the queue's watch keys.

        ``RQAuditQueue.drain_queued`` is "does its watch key exist"; reading that key in
        the MGET instead of a separate EXISTS saves a round trip per commit (the
        integration tests check that both agree).
        """
        values: list[Any] = list(raw)
        self._drain_queued = any(value is not None for value in values[len(self._keys) :])
        return values

    def commit(
        self,
        record: TableRecord,
        events: Sequence[Mapping[str, Any]],
        remember: IdempotencyRecord | None,
    ) -> None:
        """Write everything at once (see the module docstring); ``errors.Conflict`` if the
        table or the idempotency key moved since ``begin``."""
        value = encode_record(record)
        remembered = None if remember is None else encode_remembered(remember)
        fast = self._drain_queued or not events or self._store.cluster
        if fast and self._script_commit(value, remembered, events):
            self._store.cache.remember(value, record)
            if events and self._store.cluster:
                self._store.queue.mark_dirty(self._table_id)
            return
        self._rewatch_or_conflict(None)  # the MULTI/EXEC path needs its WATCH
        for _ in range(MAX_COMMIT_ATTEMPTS):
            before = resends()
            if self._try_commit(value, remembered, events):
                return self._committed(value, record)
            if self._rewatch_or_conflict(value if resends() > before else None):
                return self._committed(value, record)
        raise Conflict(told.TABLE_BUSY(), self._current_version())

    def _committed(self, value: bytes, record: TableRecord) -> None:
        """A commit by MULTI/EXEC (or found written after a dropped connection): answered
        once the replicas confirm it."""
        self._store.replication.confirm(self._store.connection, probe_key(self._table_id))
        self._store.cache.remember(value, record)

    def _script_commit(
        self, value: bytes, remembered: bytes | None, events: Sequence[Mapping[str, Any]]
    ) -> bool:
        """The one-command compare-and-set; False: no drain job is on (take MULTI/EXEC)."""
        table = self._keys[0]
        keys = [
            table,
            self._keys[1] if len(self._keys) > 1 else table,
            *self._store.queue.staging_keys(self._table_id),
        ]
        args: list[Any] = [
            b"" if self._seen is None else stored_head(self._seen),
            value,
            remembered or b"",
            self._store.idempotency_ttl,
            self._table_id,
            *(encode_event(event) for event in events),
        ]
        replication = self._store.replication
        script = self._store.commit_script
        before = resends()
        if not replication.waits or self._store.cluster:
            written = int(self._store.retry(lambda: script(keys=keys, args=args)))
            if written == 1:  # a cluster's replicas: WAIT on the slot's owner after the script
                replication.confirm(self._store.connection, probe_key(self._table_id))
        else:
            answer, acked = replication.script_then_wait(
                self._store.connection, self._store.commit_script, keys, args
            )
            written = int(answer)
            if written == 1:
                replication.check(acked)
        if written == 0:
            if resends() == before or not self._landed(value):
                raise Conflict(told.TABLE_CHANGED(), self._current_version())
            replication.confirm(self._store.connection, probe_key(self._table_id))
            return True
        return written == 1

    def _landed(self, value: bytes) -> bool:
        """Whether the table's head is that of ``value``, asked after redis-py resent the
        commit (``resends``): then the attempt whose answer was lost with its connection
        wrote it (the new primary of a failover may hold it too). A head names one stored
        value (``stored_head``), so this is never another commit."""
        head = stored_head(value)
        found = self._store.connection.getrange(self._keys[0], 0, len(head) - 1)
        return bool(found == head)

    def _try_commit(
        self, value: bytes, remembered: bytes | None, events: Sequence[Mapping[str, Any]]
    ) -> bool:
        queue = self._store.queue
        pipe = self._pipe
        drain_queued = self._drain_queued
        pipe.multi()
        pipe.set(self._keys[0], value)
        if remembered is not None:
            pipe.set(self._keys[1], remembered, ex=self._store.idempotency_ttl)
        queue.stage(pipe, self._table_id, events, drain_queued)
        try:
            pipe.execute()
        except redis.exceptions.WatchError:
            return False
        return True

    def _rewatch_or_conflict(self, resent: bytes | None) -> bool:
        """WATCH and read again; Conflict if the table or the idempotency key moved; True
        if the table holds ``resent`` already (the bytes of an EXEC whose answer was lost
        with its connection: redis-py reports that as a WatchError)."""
        raw = self._watch_and_read()
        if resent is not None and raw[0] == resent:
            self._pipe.reset()
            return True
        if raw[0] != self._seen or (len(self._keys) > 1 and raw[1] is not None):
            self._pipe.reset()
            current = self._store.cache.decode(raw[0])
            version = None if current is None else current.version
            raise Conflict(told.TABLE_CHANGED(), version)
        return False

    def _current_version(self) -> int | None:
        record = self._store.load(self._table_id)
        return None if record is None else record.version


class RedisTableStore:
    """The TableStore port on Redis."""

    def __init__(
        self,
        connection: redis.Redis,
        queue: RQAuditQueue,
        idempotency_ttl: int = 600,
        replication: ReplicaWait | None = None,
        retry: Callable[[Callable[[], Any]], Any] | None = None,
    ) -> None:
        self.connection = connection
        self.queue = queue
        self.idempotency_ttl = idempotency_ttl
        self.replication = replication or ReplicaWait()
        self.cache = DecodedCache()
        # A cluster (``adapters.redis_cluster``): its queue stages by the pending list
        # alone, every commit is the script, and ``retry`` rides out slot migrations.
        self.cluster = queue.on_cluster
        self.retry: Callable[[Callable[[], Any]], Any] = retry or _once
        self.commit_script = connection.register_script(
            _CLUSTER_COMMIT_SCRIPT if self.cluster else _COMMIT_SCRIPT
        )

    @contextmanager
    def transaction(self, table_id: str, idempotency_key: str | None) -> Iterator[RedisTransaction]:
        """Begin a compare-and-set on ``table_id``; the pipeline is released on exit."""
        with _unavailable_on_redis_errors(), self.connection.pipeline() as pipe:
            transaction = RedisTransaction(self, pipe, table_id, idempotency_key)
            transaction.begin()
            yield transaction

    def load(self, table_id: str) -> TableRecord | None:
        """Read one table (no transaction)."""
        with _unavailable_on_redis_errors():
            key = table_key(table_id)
            raw: bytes | None = self.retry(lambda: self.connection.get(key))
            return self.cache.decode(raw)

    def ping(self) -> None:
        """Raise ``errors.Unavailable`` if Redis (every primary of a cluster) does not answer."""
        with _unavailable_on_redis_errors():
            for _, client in self.nodes():
                client.ping()

    def persistence(self) -> str:
        """What a restart of this Redis keeps (``persistence``); on a cluster, the same for
        every primary, or node by node."""
        with _unavailable_on_redis_errors():
            kept = [(name, persistence(client)) for name, client in self.nodes()]
        if len({value for _, value in kept}) == 1:
            return kept[0][1]
        return "; ".join(f"{name}: {value}" for name, value in kept)

    def nodes(self) -> list[tuple[str, redis.Redis]]:
        """The Redis servers holding tables, by name, each with a plain client on it: the
        one Redis (named ``redis``), or each primary of a cluster (``host:port``)."""
        if not self.cluster:
            return [("redis", self.connection)]
        from dealerassist.adapters.redis_cluster import primaries

        cluster: Any = self.connection
        return [(str(node.name), cluster.get_redis_connection(node)) for node in primaries(cluster)]


DURABLE = "aof always"  # every write on disk before Redis answers it


def persistence(connection: redis.Redis) -> str:
    """What a restart of this Redis keeps: ``aof always`` (every answered write; the embedded
    Redis), ``aof everysec`` / ``aof no`` (up to a second, or what the kernel had not flushed,
    may be lost on a crash), ``rdb`` (snapshots: everything since the last one is lost),
    ``none`` (everything is lost), ``aof`` or ``unknown`` where the server refuses CONFIG
    (managed Redis)."""
    info: dict[str, Any] = connection.info("persistence")
    setting = "appendfsync" if info.get("aof_enabled") else "save"
    try:
        value = connection.config_get(setting).get(setting)
    except redis.ResponseError:  # CONFIG renamed or disabled
        return "aof" if info.get("aof_enabled") else "unknown"
    if info.get("aof_enabled"):
        return f"aof {value}"
    return "rdb" if value else "none"
