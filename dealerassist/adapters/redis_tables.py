"""Live table state in Redis: one JSON value per table, changed only by compare-and-set.

Keys (all owned here):

* ``TABLE_KEY``: ``{"state": TableState.to_dict(), "seq": n, "last_hash": h}`` — the state
  carries its version; ``seq``/``last_hash`` are the head of the table's audit chain;
* ``IDEMPOTENCY_KEY``: the first answer to an ``Idempotency-Key`` (expires after a TTL).

A commit WATCHes the table key, the idempotency key and the audit queue's keys, then writes
the state, the idempotency record and the staged audit events in one MULTI/EXEC. If a
watched key changed, the commit is retried only when the table itself is unchanged (a
drain job started meanwhile); otherwise the loser gets ``errors.Conflict`` with the
current version, and nothing was written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import redis

from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.errors import Conflict, Unavailable
from dealerassist.rules.state import TableState
from dealerassist.service.ports import ChainHead, IdempotencyRecord, TableRecord

TABLE_KEY = "da:table:{table_id}"
IDEMPOTENCY_KEY = "da:idem:{key}"
MAX_COMMIT_ATTEMPTS = 20


def table_key(table_id: str) -> str:
    """The Redis key of one table.

    >>> table_key("T7")
    'da:table:T7'
    """
    return TABLE_KEY.format(table_id=table_id)


def idempotency_key(key: str) -> str:
    """The Redis key of one idempotency record (``key`` is already scoped by the caller)."""
    return IDEMPOTENCY_KEY.format(key=key)


def encode_record(record: TableRecord) -> str:
    """The JSON a table is stored as."""
    return json.dumps(
        {
            "state": record.state.to_dict(),
            "seq": record.head.seq,
            "last_hash": record.head.last_hash,
        },
        separators=(",", ":"),
    )


def decode_record(raw: bytes | str | None) -> TableRecord | None:
    """Inverse of ``encode_record`` (None stays None)."""
    if raw is None:
        return None
    data = json.loads(raw)
    head = ChainHead(seq=int(data["seq"]), last_hash=str(data["last_hash"]))
    return TableRecord(state=TableState.from_dict(data["state"]), head=head)


def _decode_remembered(raw: bytes | str | None) -> IdempotencyRecord | None:
    return None if raw is None else IdempotencyRecord.from_dict(json.loads(raw))


@contextmanager
def _unavailable_on_redis_errors() -> Iterator[None]:
    try:
        yield
    except redis.exceptions.WatchError:
        raise
    except redis.RedisError as exc:
        raise Unavailable(f"Redis is unavailable: {exc}") from exc


class RedisTransaction:
    """One compare-and-set on one table (see the module docstring)."""

    def __init__(
        self, store: RedisTableStore, pipe: redis.client.Pipeline, table_id: str, key: str | None
    ) -> None:
        self._store = store
        self._pipe = pipe
        self._table_id = table_id
        self._keys = [table_key(table_id)] + ([idempotency_key(key)] if key else [])
        self.record: TableRecord | None = None
        self.remembered: IdempotencyRecord | None = None
        self._seen: tuple[int, int] | None = None

    def begin(self) -> None:
        """WATCH the keys and read the table and the idempotency record."""
        self._watch()
        raw = self._pipe.mget(self._keys)
        self.record = decode_record(raw[0])
        self._seen = _position(self.record)
        if len(raw) > 1:
            self.remembered = _decode_remembered(raw[1])

    def commit(
        self,
        record: TableRecord,
        events: Sequence[Mapping[str, Any]],
        remember: IdempotencyRecord | None,
    ) -> None:
        """Write everything in one MULTI/EXEC; ``errors.Conflict`` if the table moved."""
        value = encode_record(record)
        remembered = None if remember is None else json.dumps(remember.to_dict())
        for _ in range(MAX_COMMIT_ATTEMPTS):
            if self._try_commit(value, remembered, events):
                return
            self._rewatch_or_conflict()
        raise Conflict("the table is busy; read it again and retry", self._current_version())

    def _try_commit(
        self, value: str, remembered: str | None, events: Sequence[Mapping[str, Any]]
    ) -> bool:
        queue = self._store.queue
        pipe = self._pipe
        drain_queued = queue.drain_queued(pipe, self._table_id)
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

    def _rewatch_or_conflict(self) -> None:
        self._watch()
        raw = self._pipe.mget(self._keys)
        current = decode_record(raw[0])
        if _position(current) != self._seen or (len(raw) > 1 and raw[1] is not None):
            self._pipe.reset()
            version = None if current is None else current.version
            raise Conflict("the table changed since it was read", version)

    def _watch(self) -> None:
        self._pipe.watch(*self._keys, *self._store.queue.watch_keys(self._table_id))

    def _current_version(self) -> int | None:
        record = self._store.load(self._table_id)
        return None if record is None else record.version


def _position(record: TableRecord | None) -> tuple[int, int] | None:
    return None if record is None else (record.version, record.head.seq)


class RedisTableStore:
    """The TableStore port on Redis."""

    def __init__(
        self, connection: redis.Redis, queue: RQAuditQueue, idempotency_ttl: int = 86400
    ) -> None:
        self.connection = connection
        self.queue = queue
        self.idempotency_ttl = idempotency_ttl

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
            return decode_record(self.connection.get(table_key(table_id)))

    def ping(self) -> None:
        """Raise ``errors.Unavailable`` if Redis does not answer."""
        with _unavailable_on_redis_errors():
            self.connection.ping()
