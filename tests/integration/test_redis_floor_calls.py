"""The Redis floor-call store: save, read back, the open lists (by table, newest first,
paged), closing, the open-call limits (one atomic script) and expiry."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import redis

from dealerassist.adapters.redis_floor_calls import (
    OPEN_KEY,
    RedisFloorCalls,
    call_key,
    table_key,
)
from dealerassist.errors import InvalidInput
from dealerassist.service.floor_calls import CLOSED, FloorCall, FloorCallLimits, TooManyFloorCalls

NOW = datetime(2026, 11, 29, 13, 0, tzinfo=UTC)
ROOMY = FloorCallLimits(per_table=10_000, per_token=10_000)


def _call(call_id: str, minute: int, table_id: str = "T1", by: str = "tablet") -> FloorCall:
    return FloorCall(
        call_id=call_id,
        table_id=table_id,
        opened_at=f"2026-11-29T12:{minute:02d}:00.000000Z",
        opened_by=by,
        version=7,
        hand_no=2,
        rule_id="BET-08",
        entry={"type": "action", "seat": 3, "action": "check"},
        table={"table_id": table_id, "version": 7},
    )


def _ids(store: RedisFloorCalls, tables: list[str] | None = None, limit: int = 50) -> list[str]:
    since = NOW - timedelta(hours=4)
    return [c.call_id for c in store.open_page(tables, since, limit).calls]


def test_calls_round_trip_and_list_newest_first(redis_client: redis.Redis) -> None:
    """A reserved call reads back equal; open calls come newest first."""
    store = RedisFloorCalls(redis_client)
    store.reserve(_call("b", 5), ROOMY, NOW)
    store.reserve(_call("a", 1), ROOMY, NOW)
    assert store.get("b") == _call("b", 5)
    assert _ids(store) == ["b", "a"]
    assert store.get("missing") is None


def test_a_closed_call_leaves_the_open_lists_but_stays_readable(redis_client: redis.Redis) -> None:
    """Closing removes the call from every open set in the same transaction; the record
    stays, for the keep period."""
    store = RedisFloorCalls(redis_client)
    store.reserve(_call("a", 1), ROOMY, NOW)
    closed = replace(_call("a", 1), status=CLOSED, closed_by="floor", ruling_seq=12)
    store.save(closed, ROOMY)
    assert _ids(store) == [] and redis_client.zcard(OPEN_KEY) == 0
    assert redis_client.zcard(table_key("T1")) == 0
    assert store.get("a") == closed
    assert 0 < redis_client.ttl(call_key("a")) <= ROOMY.keep_seconds


def test_a_console_reads_only_the_tables_it_asks_for(redis_client: redis.Redis) -> None:
    """By table: only those tables' sets are read, every other table's calls left alone."""
    store = RedisFloorCalls(redis_client)
    for n, table_id in enumerate(("T1", "T2", "T3", "T2")):
        store.reserve(_call(f"c{n}", n, table_id), ROOMY, NOW)
    assert _ids(store, ["T2"]) == ["c3", "c1"]
    assert _ids(store, ["T3", "T1"]) == ["c2", "c0"]
    assert store.open_page(["T9"], NOW - timedelta(hours=4), 50).total == 0


def test_the_open_calls_limit_per_table_and_per_token_refuses_and_stores_nothing(
    redis_client: redis.Redis,
) -> None:
    """At the table's limit a call is refused whoever calls, with the seconds until the
    oldest expires; at the token's limit a call at another table is refused too."""
    store = RedisFloorCalls(redis_client)
    limits = FloorCallLimits(per_table=2, per_token=3, ttl_seconds=7200)
    store.reserve(_call("a", 0, "T1", "dealer-1"), limits, NOW)
    store.reserve(_call("b", 1, "T1", "dealer-2"), limits, NOW)
    with pytest.raises(TooManyFloorCalls) as refused:
        store.reserve(_call("c", 2, "T1", "dealer-3"), limits, NOW)
    assert refused.value.scope == "table" and refused.value.limit == 2
    assert refused.value.retry_after == 3600  # "a" (12:00) expires at 14:00
    assert store.get("c") is None and _ids(store) == ["b", "a"]
    store.reserve(_call("d", 3, "T2", "dealer-1"), limits, NOW)
    store.reserve(_call("e", 4, "T3", "dealer-1"), limits, NOW)
    with pytest.raises(TooManyFloorCalls) as refused:
        store.reserve(_call("f", 5, "T4", "dealer-1"), limits, NOW)
    assert refused.value.scope == "token" and "dealer-1" in str(refused.value)


def test_an_expired_call_is_not_listed_and_frees_its_place(redis_client: redis.Redis) -> None:
    """A call opened more than ttl ago is no longer listed, nor counted against the limit."""
    store = RedisFloorCalls(redis_client)
    limits = FloorCallLimits(per_table=1, per_token=5, ttl_seconds=30 * 60)
    store.reserve(_call("old", 0), limits, NOW - timedelta(minutes=40))
    since = limits.open_since(NOW)
    assert store.open_page(["T1"], since, 50).calls == []
    store.reserve(_call("new", 45), limits, NOW)  # 12:00 is past 12:30: the place is free
    assert [c.call_id for c in store.open_page(["T1"], since, 50).calls] == ["new"]
    assert redis_client.zscore(OPEN_KEY, "old") is None
    assert store.get("old") is not None  # kept to be read, not listed


def test_a_discarded_reservation_leaves_nothing(redis_client: redis.Redis) -> None:
    store = RedisFloorCalls(redis_client)
    store.reserve(_call("a", 1), ROOMY, NOW)
    store.discard(_call("a", 1))
    assert store.get("a") is None and _ids(store) == [] and redis_client.zcard(table_key("T1")) == 0


def test_3000_open_calls_page_newest_first_each_once(redis_client: redis.Redis) -> None:
    """3,000 open calls (the flood of one dealer token before the limits): pages of 200
    come newest first, every call exactly once, even where calls share their second; a page
    reads 200 records, not 3,000, and one table's page none of another table's calls."""
    store = RedisFloorCalls(redis_client)
    pipe = redis_client.pipeline(transaction=False)
    for n in range(3000):
        table_id = "T1" if n % 3 else "T2"
        call = _call(f"c{n:04d}", 0, table_id)
        opened = f"2026-11-29T12:{n // 100:02d}:{n % 50:02d}.000000Z"  # many share a second
        call = replace(call, opened_at=opened)
        score = datetime.fromisoformat(opened.replace("Z", "+00:00")).timestamp()
        pipe.set(call_key(call.call_id), json.dumps(call.to_dict()))
        pipe.zadd(OPEN_KEY, {call.call_id: score})
        pipe.zadd(table_key(table_id), {call.call_id: score})
    pipe.execute()
    since = NOW - timedelta(hours=4)
    seen: list[FloorCall] = []
    cursor = None
    started = time.perf_counter()
    for _ in range(20):
        page = store.open_page(None, since, 200, cursor)
        assert len(page.calls) <= 200 and page.total == 3000
        seen.extend(page.calls)
        cursor = page.next
        if cursor is None:
            break
    elapsed = time.perf_counter() - started
    assert len(seen) == 3000 and len({c.call_id for c in seen}) == 3000
    keys = [(c.opened_at, c.call_id) for c in seen]
    assert keys == sorted(keys, reverse=True)
    assert elapsed < 5, elapsed
    only = store.open_page(["T2"], since, 200)
    assert only.total == 1000 and {c.table_id for c in only.calls} == {"T2"}
    with pytest.raises(InvalidInput):
        store.open_page(None, since, 10, "not-a-cursor")
