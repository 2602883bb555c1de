"""The one-command commit (a Lua compare-and-set) the table store uses while a drain is on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.connection import Connection

from dealerassist.adapters.redis_tables import (
    RedisTableStore,
    RedisTransaction,
    encode_record,
    idempotency_key,
    table_key,
)
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, drain_flag_key, pending_key
from dealerassist.bootstrap import redis_connection
from dealerassist.errors import Conflict
from dealerassist.rules.model.actions import Stakes, Structure, TableSpec, Variant
from dealerassist.rules.model.state import SeatState, TableState
from dealerassist.service.ports import AnswerKind, ChainHead, IdempotencyRecord, TableRecord


def _record(version: int, seq: int) -> TableRecord:
    spec = TableSpec(
        table_id="T1",
        variant=Variant.FIVE_CARD_DRAW,
        structure=Structure.FIXED_LIMIT,
        stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4),
        profile_id="casino-five-card-draw",
    )
    seats = tuple(SeatState(seat=number) for number in range(1, 7))
    state = TableState(table_id="T1", spec=spec, seats=seats, version=version)
    return TableRecord(state=state, head=ChainHead(seq=seq, last_hash=f"{seq:064x}"))


def _event(seq: int) -> dict[str, object]:
    return {"table_id": "T1", "seq": seq, "hash": f"{seq:064x}"}


@pytest.fixture
def store(redis_client: redis.Redis) -> RedisTableStore:
    store = RedisTableStore(redis_client, RQAuditQueue(redis_client), idempotency_ttl=60)
    with store.transaction("T1", None) as tx:  # the table exists; its drain job is queued
        tx.commit(_record(1, 1), [_event(1)], None)
    return store


@pytest.fixture
def no_multi(store: RedisTableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a commit takes the WATCH/MULTI/EXEC path (after the first one)."""

    def refuse(*args: Any, **kwargs: Any) -> bool:
        raise AssertionError("the commit took the MULTI/EXEC path")

    monkeypatch.setattr(RedisTransaction, "_try_commit", refuse)


@pytest.mark.usefixtures("no_multi")
def test_with_a_drain_on_a_commit_is_one_script_that_writes_everything(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """State, idempotency record (with its TTL) and staged event, without MULTI/EXEC."""
    remember = IdempotencyRecord("f" * 64, AnswerKind.ACCEPTED, {"version": 2})
    with store.transaction("T1", "tablet:k2") as tx:
        tx.commit(_record(2, 2), [_event(2)], remember)
    assert store.load("T1") == _record(2, 2)
    staged = [json.loads(raw) for raw in redis_client.lrange(pending_key("T1"), 0, -1)]
    assert staged == [_event(1), _event(2)]
    assert redis_client.sismember(store.queue.dirty_key, "T1")
    with store.transaction("T1", "tablet:k2") as tx:
        assert tx.remembered == remember
    assert store.queue.queue.count == 1  # no second drain job


@pytest.mark.usefixtures("no_multi")
def test_the_script_refuses_a_table_that_moved_and_writes_nothing(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """Another commit between read and write: Conflict with the current version."""
    with store.transaction("T1", None) as slow, store.transaction("T1", None) as fast:
        fast.commit(_record(2, 2), [_event(2)], None)
        with pytest.raises(Conflict) as raised:
            slow.commit(_record(2, 3), [_event(3)], None)
    assert raised.value.current_version == 2
    assert store.load("T1") == _record(2, 2)
    assert store.queue.pending("T1") == 2


@pytest.mark.usefixtures("no_multi")
def test_the_script_refuses_an_idempotency_key_taken_meanwhile(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """The same key committed by another process first: Conflict, so the caller replays."""
    remember = IdempotencyRecord("f" * 64, AnswerKind.ACCEPTED, {"version": 2})
    with store.transaction("T1", "tablet:k9") as tx:
        redis_client.set(
            idempotency_key("T1", "tablet:k9"), b'{"fingerprint":"0","kind":"accepted"}'
        )
        with pytest.raises(Conflict):
            tx.commit(_record(2, 2), [_event(2)], remember)
    assert store.load("T1") == _record(1, 1)


def test_a_drain_that_ended_sends_the_commit_through_multi_exec_with_a_new_job(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """The flag was read as set but is gone at commit time: the script declines, and the
    commit enqueues a drain job in its MULTI/EXEC so the staged event is never left alone."""
    with store.transaction("T1", None) as tx:
        assert tx._drain_queued
        redis_client.delete(drain_flag_key())
        tx.commit(_record(2, 2), [_event(2)], None)
    assert store.load("T1") == _record(2, 2)
    assert redis_client.exists(drain_flag_key())
    assert store.queue.queue.count == 2


def test_a_script_unknown_to_a_restarted_redis_is_loaded_again(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """SCRIPT FLUSH (as after a restart): the next commit still goes through."""
    redis_client.script_flush()
    with store.transaction("T1", None) as tx:
        tx.commit(_record(2, 2), [_event(2)], None)
    assert json.loads(redis_client.get(table_key("T1")))["seq"] == 2


@pytest.mark.usefixtures("no_multi")
def test_the_script_refuses_a_table_deleted_meanwhile(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """The head is compared with GETRANGE, which reads a missing key as '': no match."""
    with store.transaction("T1", None) as tx:
        redis_client.delete(table_key("T1"))
        with pytest.raises(Conflict):
            tx.commit(_record(2, 2), [_event(2)], None)
    assert redis_client.get(table_key("T1")) is None


@pytest.mark.usefixtures("no_multi")
def test_the_script_compares_the_whole_head_not_a_prefix_of_seq(
    store: RedisTableStore, redis_client: redis.Redis
) -> None:
    """Read at seq 1; meanwhile seq 12 is stored with the same hash text: still a Conflict
    ('{"seq":1' is a prefix of '{"seq":12', the head up to last_hash is not)."""
    with store.transaction("T1", None) as tx:
        moved = _record(2, 12)
        moved = TableRecord(state=moved.state, head=ChainHead(seq=12, last_hash=f"{1:064x}"))
        redis_client.set(table_key("T1"), encode_record(moved))
        with pytest.raises(Conflict):
            tx.commit(_record(2, 2), [_event(2)], None)
    assert store.load("T1") == moved


# -- a commit whose answer is lost with its connection: redis-py sends it again, the script
# finds its own head already written, and the commit is done, not a lost race (what a
# failover mid-commit looks like to the client) -----------------------------------------


class LoseOneAnswer:
    """Once armed, the next answer Redis sends is read and then lost (ConnectionError), as
    when the primary dies after running the command."""

    def __init__(self) -> None:
        self.armed = False
        self.lost = 0

    def __call__(self, original: Any) -> Any:
        def read_response(connection: Connection, *args: Any, **kwargs: Any) -> Any:
            answer = original(connection, *args, **kwargs)
            if self.armed:
                self.armed = False
                self.lost += 1
                raise redis.ConnectionError("connection lost after the command ran")
            return answer

        return read_response


@pytest.fixture
def losing(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoseOneAnswer]:
    loser = LoseOneAnswer()
    monkeypatch.setattr(Connection, "read_response", loser(Connection.read_response))
    yield loser


def test_a_resent_commit_that_finds_itself_written_is_done_once(
    redis_url: str, redis_client: redis.Redis, losing: LoseOneAnswer
) -> None:
    """The commit script runs, its answer is lost, redis-py resends it (the API's client
    retries twice): the script now sees the table at the head it wrote itself. The commit
    succeeds (before: Conflict, and a retry without an Idempotency-Key would have entered
    the action a second time), and the table holds one commit and one staged event."""
    connection = redis_connection(redis_url)
    store = RedisTableStore(connection, RQAuditQueue(connection), idempotency_ttl=60)
    with store.transaction("T1", None) as tx:  # enqueues the drain: the next takes the script
        tx.commit(_record(1, 1), [_event(1)], None)
    with store.transaction("T1", None) as tx:
        losing.armed = True
        tx.commit(_record(2, 2), [_event(2)], None)
    assert losing.lost == 1
    assert store.load("T1") == _record(2, 2)
    assert redis_client.llen(pending_key("T1")) == 2
    connection.close()


def test_a_lost_race_after_a_resend_is_still_a_conflict(
    redis_url: str, redis_client: redis.Redis, losing: LoseOneAnswer
) -> None:
    """A resend does not make every moved head ours: another commit won meanwhile (a head
    other than this commit's), so this one is a Conflict and wrote nothing."""
    connection = redis_connection(redis_url)
    store = RedisTableStore(connection, RQAuditQueue(connection), idempotency_ttl=60)
    with store.transaction("T1", None) as tx:
        tx.commit(_record(1, 1), [_event(1)], None)
    with store.transaction("T1", None) as loser, store.transaction("T1", None) as winner:
        winner.commit(_record(2, 2), [_event(2)], None)
        losing.armed = True  # this one's answer (0: the head moved) is lost and resent
        with pytest.raises(Conflict):
            loser.commit(_record(3, 3), [_event(3)], None)
    assert losing.lost == 1
    assert store.load("T1") == _record(2, 2)
    assert redis_client.llen(pending_key("T1")) == 2
    connection.close()
