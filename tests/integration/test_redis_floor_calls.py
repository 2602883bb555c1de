"""The Redis floor-call store: save, read back, the open list, and closing."""

from __future__ import annotations

from dataclasses import replace

import redis

from dealerassist.adapters.redis_floor_calls import OPEN_KEY, RedisFloorCalls
from dealerassist.service.floor_calls import CLOSED, FloorCall


def _call(call_id: str, minute: int) -> FloorCall:
    return FloorCall(
        call_id=call_id,
        table_id="T1",
        opened_at=f"2026-11-29T12:{minute:02d}:00.000000Z",
        opened_by="tablet",
        version=7,
        hand_no=2,
        rule_id="BET-08",
        entry={"type": "action", "seat": 3, "action": "check"},
        table={"table_id": "T1", "version": 7},
    )


def test_calls_round_trip_and_list_oldest_first(redis_client: redis.Redis) -> None:
    """A saved call reads back equal; open calls come oldest first."""
    store = RedisFloorCalls(redis_client)
    store.save(_call("b", 5))
    store.save(_call("a", 1))
    assert store.get("b") == _call("b", 5)
    assert [call.call_id for call in store.open_calls()] == ["a", "b"]
    assert store.get("missing") is None


def test_a_closed_call_leaves_the_open_list_but_stays_readable(redis_client: redis.Redis) -> None:
    """Closing removes the call from the open set in the same transaction; the record stays."""
    store = RedisFloorCalls(redis_client)
    store.save(_call("a", 1))
    closed = replace(_call("a", 1), status=CLOSED, closed_by="floor", ruling_seq=12)
    store.save(closed)
    assert store.open_calls() == [] and redis_client.zcard(OPEN_KEY) == 0
    assert store.get("a") == closed
