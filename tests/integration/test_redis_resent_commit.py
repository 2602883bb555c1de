"""A commit whose answer is lost with its connection: redis-py sends it again, the script
finds its own head already written, and the commit is done, not a lost race (what a
failover mid-commit looks like to the client)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.connection import Connection

from dealerassist.adapters.redis_tables import RedisTableStore
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, pending_key
from dealerassist.bootstrap import redis_connection
from dealerassist.errors import Conflict
from dealerassist.rules.actions import Stakes, Structure, TableSpec, Variant
from dealerassist.rules.state import SeatState, TableState
from dealerassist.service.ports import ChainHead, TableRecord


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
