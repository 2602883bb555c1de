"""Floor calls in Redis: one JSON value per call and a sorted set of the open ones.

Keys (all owned here):

* ``CALL_KEY``: the call's JSON (``FloorCall.to_dict()``), kept after it is closed;
* ``OPEN_KEY``: a sorted set of open call IDs, scored by when they were opened.

A save writes both in one MULTI/EXEC, so a call is never listed open after it closed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import redis

from dealerassist.errors import Unavailable
from dealerassist.service.floor_calls import OPEN, FloorCall

CALL_KEY = "da:floor-call:{call_id}"
OPEN_KEY = "da:floor-calls:open"


def call_key(call_id: str) -> str:
    """The Redis key of one call.

    >>> call_key("abc")
    'da:floor-call:abc'
    """
    return CALL_KEY.format(call_id=call_id)


@contextmanager
def _redis_errors() -> Iterator[None]:
    try:
        yield
    except redis.RedisError as exc:
        raise Unavailable(f"Redis is unavailable: {exc}") from exc


class RedisFloorCalls:
    """The FloorCallStore port on Redis."""

    def __init__(self, connection: redis.Redis) -> None:
        self.redis = connection

    def save(self, call: FloorCall) -> None:
        with _redis_errors():
            pipe = self.redis.pipeline(transaction=True)
            pipe.set(call_key(call.call_id), json.dumps(call.to_dict()))
            if call.status == OPEN:
                pipe.zadd(OPEN_KEY, {call.call_id: _score(call.opened_at)})
            else:
                pipe.zrem(OPEN_KEY, call.call_id)
            pipe.execute()

    def get(self, call_id: str) -> FloorCall | None:
        with _redis_errors():
            raw = self.redis.get(call_key(call_id))
        return None if raw is None else FloorCall.from_dict(json.loads(raw))

    def open_calls(self) -> list[FloorCall]:
        with _redis_errors():
            members: list[bytes | str] = list(self.redis.zrange(OPEN_KEY, 0, -1))  # type: ignore[arg-type]
            ids = [m.decode() if isinstance(m, bytes) else m for m in members]
            raws = self.redis.mget([call_key(call_id) for call_id in ids]) if ids else []
        return [FloorCall.from_dict(json.loads(raw)) for raw in raws if raw is not None]


def _score(opened_at: str) -> float:
    """Seconds since the epoch of an ``opened_at`` like ``2026-11-29T12:00:00.000001Z``."""
    return datetime.fromisoformat(opened_at.replace("Z", "+00:00")).timestamp()
