"""Floor calls in Redis: one JSON value per call and sorted sets of the open ones.

Keys (all owned here):

* ``CALL_KEY``: the call's JSON (``FloorCall.to_dict()``), kept ``keep_seconds`` after the
  call was opened or closed, then dropped by Redis (``EX``);
* ``OPEN_KEY``: every open call's ID, scored by when it was opened (seconds since the epoch);
* ``TABLE_KEY``: the open calls of one table; ``TOKEN_KEY``: those one token opened (the
  limits count these; a console opened on some tables reads only their sets).

A call is reserved by one Lua script (``RESERVE``): it drops the expired members, counts the
table's and the caller's open calls against the limits and, only if both are below them,
stores the call and adds it to the three sets, so concurrent calls cannot pass a limit. A
save writes the JSON and the sets in one MULTI/EXEC, so a call is never listed open after it
closed. An expired call is never listed: every read starts at ``now - ttl``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import redis

from dealerassist.errors import InvalidInput, Unavailable
from dealerassist.service import messages as told
from dealerassist.service.floor_calls import (
    OPEN,
    CallPage,
    FloorCall,
    FloorCallLimits,
    TooManyFloorCalls,
)

CALL_KEY = "da:floor-call:{call_id}"
OPEN_KEY = "da:floor-calls:open"
TABLE_KEY = "da:floor-calls:open:table:{table_id}"
TOKEN_KEY = "da:floor-calls:open:by:{name}"

RESERVE = """
local cutoff = '(' .. ARGV[4]
for i = 2, 4 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', cutoff) end
local checks = {{KEYS[3], tonumber(ARGV[5]), 'table'}, {KEYS[4], tonumber(ARGV[6]), 'token'}}
for _, check in ipairs(checks) do
  if redis.call('ZCARD', check[1]) >= check[2] then
    local oldest = redis.call('ZRANGE', check[1], 0, 0, 'WITHSCORES')
    return {check[3], oldest[2]}
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[7])
for i = 2, 4 do redis.call('ZADD', KEYS[i], ARGV[3], ARGV[2]) end
redis.call('EXPIRE', KEYS[3], ARGV[8])
redis.call('EXPIRE', KEYS[4], ARGV[8])
return {'ok', ''}
"""


def call_key(call_id: str) -> str:
    """The Redis key of one call.

    >>> call_key("abc")
    'da:floor-call:abc'
    """
    return CALL_KEY.format(call_id=call_id)


def table_key(table_id: str) -> str:
    """The sorted set of one table's open calls.

    >>> table_key("T1")
    'da:floor-calls:open:table:T1'
    """
    return TABLE_KEY.format(table_id=table_id)


def token_key(name: str) -> str:
    """The sorted set of the open calls one token opened."""
    return TOKEN_KEY.format(name=name)


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
        self._reserve = connection.register_script(RESERVE)

    def reserve(self, call: FloorCall, limits: FloorCallLimits, now: datetime) -> None:
        opened = _score(call.opened_at)
        keys = [
            call_key(call.call_id),
            OPEN_KEY,
            table_key(call.table_id),
            token_key(call.opened_by),
        ]
        args: list[str | int | float] = [
            json.dumps(call.to_dict()),
            call.call_id,
            repr(opened),
            repr(limits.open_since(now).timestamp()),
            limits.per_table,
            limits.per_token,
            limits.ttl_seconds + limits.keep_seconds,
            limits.ttl_seconds,
        ]
        with _redis_errors():
            verdict, oldest = self._reserve(keys=keys, args=args)
        verdict = _text(verdict)
        if verdict == "ok":
            return
        wait = max(1, math.ceil(float(_text(oldest)) + limits.ttl_seconds - now.timestamp()))
        raise _refusal(verdict, call, limits, wait)

    def discard(self, call: FloorCall) -> None:
        with _redis_errors():
            pipe = self.redis.pipeline(transaction=True)
            pipe.delete(call_key(call.call_id))
            for key in (OPEN_KEY, table_key(call.table_id), token_key(call.opened_by)):
                pipe.zrem(key, call.call_id)
            pipe.execute()

    def save(self, call: FloorCall, limits: FloorCallLimits) -> None:
        with _redis_errors():
            pipe = self.redis.pipeline(transaction=True)
            if call.status == OPEN:  # its record lives as long as it was reserved to
                pipe.set(call_key(call.call_id), json.dumps(call.to_dict()), keepttl=True)
            else:
                pipe.set(call_key(call.call_id), json.dumps(call.to_dict()), ex=limits.keep_seconds)
                for key in (OPEN_KEY, table_key(call.table_id), token_key(call.opened_by)):
                    pipe.zrem(key, call.call_id)
            pipe.execute()

    def get(self, call_id: str) -> FloorCall | None:
        with _redis_errors():
            raw = self.redis.get(call_key(call_id))
        return None if raw is None else FloorCall.from_dict(json.loads(raw))

    def open_page(
        self,
        tables: Sequence[str] | None,
        since: datetime,
        limit: int,
        cursor: str | None = None,
    ) -> CallPage:
        keys = [OPEN_KEY] if tables is None else [table_key(t) for t in sorted(set(tables))]
        low = repr(since.timestamp())
        after = _cursor(cursor)
        high = "+inf" if after is None else repr(after[0])
        with _redis_errors():
            pipe = self.redis.pipeline(transaction=False)
            for key in keys:
                pipe.zcount(key, low, "+inf")
                ties = 0 if after is None else self.redis.zcount(key, high, high)
                pipe.zrevrangebyscore(
                    key, high, low, start=0, num=limit + 1 + ties, withscores=True
                )
            answers = pipe.execute()
            total = sum(int(n) for n in answers[0::2])
            found = sorted(
                ((float(score), _text(member)) for rows in answers[1::2] for member, score in rows),
                reverse=True,
            )
            if after is not None:
                found = [item for item in found if item < after]
            page = found[:limit]
            raws = self.redis.mget([call_key(call_id) for _, call_id in page]) if page else []
        calls = [FloorCall.from_dict(json.loads(raw)) for raw in raws if raw is not None]
        following = f"{page[-1][0]!r}/{page[-1][1]}" if len(found) > limit else None
        return CallPage(calls=calls, total=total, next=following)


def _refusal(scope: str, call: FloorCall, limits: FloorCallLimits, wait: int) -> TooManyFloorCalls:
    if scope == "table":
        return TooManyFloorCalls(
            told.CALLS_AT_TABLE(table=repr(call.table_id), limit=limits.per_table),
            "table",
            limits.per_table,
            wait,
        )
    return TooManyFloorCalls(
        told.CALLS_OF_TOKEN(token=repr(call.opened_by), limit=limits.per_token),
        "token",
        limits.per_token,
        wait,
    )


def _cursor(text: str | None) -> tuple[float, str] | None:
    """A page's ``next`` read back: ``"<score>/<call_id>"``.

    >>> _cursor("1764417600.5/ab12")
    (1764417600.5, 'ab12')
    """
    if text is None:
        return None
    score, _, call_id = text.partition("/")
    try:
        value = float(score)
    except ValueError:
        value = math.nan
    if not call_id or not math.isfinite(value):
        raise InvalidInput(told.BAD_CURSOR(cursor=repr(text)))
    return value, call_id


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _score(opened_at: str) -> float:
    """Seconds since the epoch of an ``opened_at`` like ``2026-11-29T12:00:00.000001Z``."""
    return datetime.fromisoformat(opened_at.replace("Z", "+00:00")).timestamp()
