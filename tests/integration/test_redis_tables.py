"""The Redis table store against a real Redis: compare-and-set, idempotency records, staging."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from dealerassist.adapters.redis_tables import (
    RedisTableStore,
    encode_record,
    encode_remembered,
    idempotency_key,
    table_key,
)
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, drain_flag_key, pending_key
from dealerassist.errors import Conflict, Unavailable
from dealerassist.rules.model.actions import Stakes, Structure, TableSpec, Variant
from dealerassist.rules.model.state import SeatState, TableState
from dealerassist.service.ports import AnswerKind, ChainHead, IdempotencyRecord, TableRecord


def _record(version: int = 1, seq: int = 1, table_id: str = "T1") -> TableRecord:
    spec = TableSpec(
        table_id=table_id,
        variant=Variant.FIVE_CARD_DRAW,
        structure=Structure.FIXED_LIMIT,
        stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4),
        profile_id="casino-five-card-draw",
    )
    seats = tuple(SeatState(seat=number) for number in range(1, 7))
    state = TableState(table_id=table_id, spec=spec, seats=seats, version=version)
    return TableRecord(state=state, head=ChainHead(seq=seq, last_hash=f"{seq:064x}"))


def _event(seq: int) -> dict[str, object]:
    return {"table_id": "T1", "seq": seq, "hash": f"{seq:064x}"}


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisTableStore:
    return RedisTableStore(redis_client, RQAuditQueue(redis_client), idempotency_ttl=60)


def test_load_of_an_unknown_table_is_none(store: RedisTableStore) -> None:
    """A table that was never written loads as None."""
    assert store.load("nope") is None


def test_commit_round_trips_state_head_and_stages_events(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """A committed record loads back equal, and its events wait in the pending list."""
    record = _record()
    with store.transaction("T1", None) as tx:
        assert tx.record is None
        tx.commit(record, [_event(1)], None)
    assert store.load("T1") == record
    staged = [json.loads(raw) for raw in redis_client.lrange(pending_key("T1"), 0, -1)]
    assert staged == [_event(1)]
    assert redis_client.exists(drain_flag_key())
    assert store.queue.queue.count == 1


def test_a_second_commit_does_not_enqueue_a_second_drain(store: RedisTableStore) -> None:
    """While a drain is queued, new events join the list without another job."""
    with store.transaction("T1", None) as tx:
        tx.commit(_record(1, 1), [_event(1)], None)
    with store.transaction("T1", None) as tx:
        tx.commit(_record(2, 2), [_event(2)], None)
    assert store.queue.queue.count == 1
    assert store.queue.pending("T1") == 2


def test_the_loser_of_a_race_gets_conflict_with_the_current_version(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """Two transactions read version 1; the second commit fails and writes nothing."""
    with store.transaction("T1", None) as tx:
        tx.commit(_record(1, 1), [_event(1)], None)
    with store.transaction("T1", None) as first, store.transaction("T1", None) as second:
        first.commit(_record(2, 2), [_event(2)], None)
        with pytest.raises(Conflict) as raised:
            second.commit(_record(2, 2, "T1"), [_event(99)], None)
    assert raised.value.current_version == 2
    assert store.queue.pending("T1") == 2
    assert store.load("T1") == _record(2, 2)


def test_a_drain_ending_mid_commit_is_retried_not_a_conflict(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """Only the drain flag changed (the drain ended): the commit goes through and, with no
    drain on any more, enqueues one."""
    with store.transaction("T1", None) as tx:
        tx.commit(_record(1, 1), [_event(1)], None)
    with store.transaction("T1", None) as tx:
        redis_client.delete(drain_flag_key())
        tx.commit(_record(2, 2), [_event(2)], None)
    assert store.load("T1") == _record(2, 2)
    assert store.queue.queue.count == 2


def test_idempotency_record_is_written_with_a_ttl(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """The remembered answer is stored in the same commit and expires."""
    remember = IdempotencyRecord("f" * 64, AnswerKind.CREATED, {"version": 1})
    with store.transaction("T1", "admin:k1") as tx:
        assert tx.remembered is None
        tx.commit(_record(), [_event(1)], remember)
    assert 0 < redis_client.ttl(idempotency_key("T1", "admin:k1")) <= 60
    with store.transaction("T1", "admin:k1") as tx:
        assert tx.remembered == remember


def test_create_loses_to_a_concurrent_create(store: RedisTableStore) -> None:
    """Two creations of one table: the second gets Conflict."""
    with store.transaction("T1", None) as first, store.transaction("T1", None) as second:
        first.commit(_record(), [_event(1)], None)
        with pytest.raises(Conflict):
            second.commit(_record(), [_event(1)], None)


def test_a_replaced_state_is_stored_as_json(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """The stored value is JSON holding the state and the chain head."""
    record = _record()
    record = replace(record, state=replace(record.state, button=3))
    with store.transaction("T1", None) as tx:
        tx.commit(record, [], None)
    stored = json.loads(redis_client.get(table_key("T1")))
    assert stored["state"]["button"] == 3
    assert stored["seq"] == 1


def test_an_unreachable_redis_is_unavailable() -> None:
    """No server at the URL: every call raises Unavailable (a 503), never a Redis error."""
    connection = redis.Redis(
        unix_socket_path="/nonexistent/redis.sock", retry=Retry(NoBackoff(), 0)
    )
    store = RedisTableStore(connection, RQAuditQueue(connection))
    with pytest.raises(Unavailable):
        store.load("T1")
    with pytest.raises(Unavailable):
        store.ping()
    with pytest.raises(Unavailable), store.transaction("T1", None):
        pass


@pytest.mark.parametrize("flag_set", [False, True])
def test_drain_flag_read_in_the_mget_agrees_with_the_queue(
    store: RedisTableStore, redis_client: redis.Redis, flag_set: bool
) -> None:
    """The store reads the drain flag with the table; it must say what drain_queued says."""
    if flag_set:
        redis_client.set(drain_flag_key(), "1")
    with store.transaction("T1", None) as tx, redis_client.pipeline() as pipe:
        pipe.watch(*store.queue.watch_keys("T1"))  # drain_queued reads while WATCHing
        assert store.queue.drain_queued(pipe, "T1") is flag_set
        assert tx._drain_queued is flag_set


def test_any_change_to_the_stored_table_is_a_conflict(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """A concurrent write that keeps version and seq but changes the bytes still wins."""
    with store.transaction("T1", None) as tx:
        tx.commit(_record(1, 1), [], None)
    with store.transaction("T1", None) as tx:
        other = _record(1, 1)
        other = replace(other, state=replace(other.state, button=2))
        redis_client.set(table_key("T1"), encode_record(other))
        with pytest.raises(Conflict) as raised:
            tx.commit(_record(2, 2), [_event(2)], None)
    assert raised.value.current_version == 1
    assert store.load("T1") == other


def test_a_pre_encoded_answer_is_stored_as_the_same_record() -> None:
    """An idempotency record whose body came pre-encoded reads back like one encoded here."""
    body = {"table_id": "T1", "version": 3, "notices": [], "name": "\u00e9"}
    plain = IdempotencyRecord("f" * 64, AnswerKind.ACCEPTED, body)
    compact = json.dumps(body, separators=(",", ":")).encode()
    embedded = IdempotencyRecord("f" * 64, AnswerKind.ACCEPTED, body, body_json=compact)
    assert json.loads(encode_remembered(embedded)) == json.loads(encode_remembered(plain))
    assert json.loads(encode_remembered(embedded)) == plain.to_dict()
