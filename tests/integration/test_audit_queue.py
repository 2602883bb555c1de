"""The audit queue adapter (adapters.rq_audit_queue) against a real Redis."""

from __future__ import annotations

import pytest
import redis
from audit_chains import interleaved, stage, synthetic_events
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rq.serializers import JSONSerializer

from dealerassist.adapters.rq_audit_queue import (
    DRAIN_JOB,
    RQAuditQueue,
    decode_event,
    dirty_key,
    drain_flag_key,
    encode_event,
    pending_key,
)


def _dirty(connection: redis.Redis) -> list[str]:
    return sorted(member.decode() for member in connection.smembers(dirty_key()))


def test_many_events_on_many_tables_get_one_drain_job(redis_client: redis.Redis) -> None:
    """Staging 40 events on two tables, one transaction each, enqueues exactly one job,
    and both tables are dirty."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=2, per_table=20))
    assert queue.depth() == 40
    assert queue.pending("T00") == queue.pending("T01") == 20
    [job] = queue.queue.get_jobs()
    assert job.func_name == DRAIN_JOB and job.args == []
    assert _dirty(redis_client) == ["T00", "T01"]


def test_staged_events_keep_their_order_and_bytes(redis_client: redis.Redis) -> None:
    """The pending list holds canonical JSON, oldest first, decoding to the events."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 5))
    stage(queue, redis_client, events)
    raw = queue.peek("T1", 10)
    assert raw == [encode_event(event).encode() for event in events]
    assert [decode_event(item) for item in raw] == events


def test_a_discarded_transaction_stages_nothing(redis_client: redis.Redis) -> None:
    """If the table store's transaction is not executed, no event and no job exist."""
    queue = RQAuditQueue(redis_client)
    with redis_client.pipeline() as pipe:
        pipe.watch(*queue.watch_keys("T1"))
        queued = queue.drain_queued(pipe, "T1")
        pipe.multi()
        queue.stage(pipe, "T1", list(synthetic_events("T1", 3)), queued)
        pipe.reset()
    assert queue.depth() == 0 and len(queue.queue) == 0
    assert not redis_client.exists(drain_flag_key()) and _dirty(redis_client) == []


def _drain_everything(queue: RQAuditQueue, table_id: str) -> None:
    """What a drain does once the store has committed all it read: trim it all."""
    read = queue.peek(table_id, 100)
    queue.trim_tables({table_id: read})


def test_a_drain_ending_mid_transaction_aborts_it(redis_client: redis.Redis) -> None:
    """The flag is watched: a staging that saw the drain on and meets its release before
    EXEC raises WatchError; retried, it sees no drain and enqueues a job of its own."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 1)))
    queue.queue.empty()  # the job is running: no longer queued, flag still set
    later = list(synthetic_events("T1", 2, start_seq=2))
    with redis_client.pipeline() as pipe:
        pipe.watch(*queue.watch_keys("T1"))
        assert queue.drain_queued(pipe, "T1") is True
        _drain_everything(queue, "T1")
        assert queue.release_drain() is True
        pipe.multi()
        queue.stage(pipe, "T1", later, True)
        with pytest.raises(redis.WatchError):
            pipe.execute()
    assert queue.pending("T1") == 0 and len(queue.queue) == 0
    stage(queue, redis_client, later)
    assert queue.pending("T1") == 2 and len(queue.queue) == 1
    assert redis_client.exists(drain_flag_key())


def test_a_drain_does_not_end_while_an_event_committed_before_its_release_waits(
    redis_client: redis.Redis,
) -> None:
    """A staging that commits (drain seen as on) just before the release keeps the drain
    on: the release finds the table dirty, refuses, and the running drain goes on."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 1)))
    queue.queue.empty()
    _drain_everything(queue, "T1")
    stage(queue, redis_client, list(synthetic_events("T1", 1, start_seq=2)))
    assert len(queue.queue) == 0, "the drain was seen as on: no second job"
    assert queue.release_drain() is False
    assert redis_client.exists(drain_flag_key()) and _dirty(redis_client) == ["T1"]
    _drain_everything(queue, "T1")
    assert queue.release_drain() is True
    assert not redis_client.exists(drain_flag_key())


def test_staging_after_the_drain_ended_enqueues_a_new_job(redis_client: redis.Redis) -> None:
    """Once the drain has released the flag, the next event gets a job of its own."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 3))
    stage(queue, redis_client, events[:2])
    _drain_everything(queue, "T1")
    assert queue.release_drain() is True
    stage(queue, redis_client, events[2:])
    assert len(queue.queue) == 2


def test_a_table_leaves_the_dirty_set_only_with_its_list_empty(
    redis_client: redis.Redis,
) -> None:
    """A trim that leaves events staged keeps the table dirty; the one that empties the
    list takes it out; a table read empty is taken out too (a stale member)."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=2, per_table=4))
    read = queue.peek_tables(["T00", "T01"], 3)
    assert queue.trim_tables(read) == 6
    assert _dirty(redis_client) == ["T00", "T01"]
    assert queue.trim_tables(queue.peek_tables(["T00"], 3)) == 1
    assert _dirty(redis_client) == ["T01"]
    redis_client.delete(pending_key("T01"))
    assert queue.trim_tables({"T01": []}) == 0
    assert _dirty(redis_client) == [] and queue.release_drain() is True


def test_trim_removes_only_what_was_stored(redis_client: redis.Redis) -> None:
    """Trimming through the last stored event keeps events staged after the read."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 8))
    stage(queue, redis_client, events[:5])
    read = queue.peek("T1", 3)
    stage(queue, redis_client, events[5:])
    assert queue.trim_stored("T1", read[-1], len(read)) == 3
    assert [decode_event(item)["seq"] for item in queue.peek("T1", 10)] == [4, 5, 6, 7, 8]


def test_concurrent_drains_never_trim_more_than_they_stored(redis_client: redis.Redis) -> None:
    """Two drains that read overlapping prefixes trim, in any order, only stored events."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 10)))
    long_read, short_read = queue.peek("T1", 6), queue.peek("T1", 3)
    assert queue.trim_stored("T1", long_read[-1], len(long_read)) == 6
    assert queue.trim_stored("T1", short_read[-1], len(short_read)) == 0
    assert queue.pending("T1") == 4
    short_read, long_read = queue.peek("T1", 1), queue.peek("T1", 3)
    assert queue.trim_stored("T1", short_read[-1], 1) == 1
    assert queue.trim_stored("T1", long_read[-1], 3) == 2
    assert [decode_event(item)["seq"] for item in queue.peek("T1", 10)] == [10]


def test_sweep_enqueues_a_drain_when_tables_have_pending_events(
    redis_client: redis.Redis,
) -> None:
    """sweep picks up events whose drain job was lost (e.g. a killed worker: the flag is
    still set, the job gone), and marks dirty a list staged without a dirty member."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=3, per_table=2))
    redis_client.delete(pending_key("T02"), dirty_key())
    queue.queue.empty()
    assert queue.sweep() == ["T00", "T01"]
    assert [job.func_name for job in queue.queue.get_jobs()] == [DRAIN_JOB]
    assert _dirty(redis_client) == ["T00", "T01"]
    assert queue.tables() == ["T00", "T01", "T02"]


def test_start_up_sweep_adds_no_job_while_one_waits_in_the_queue(
    redis_client: redis.Redis,
) -> None:
    """A worker starting while a drain job is queued (flag set) adds no second job."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 2)))
    assert queue.sweep() == [] and len(queue.queue) == 1


def test_idle_sweep_adds_no_job_while_a_drain_is_on(redis_client: redis.Redis) -> None:
    """The periodic sweep enqueues a drain only if the flag is not set."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 2)))
    assert queue.sweep(idle_only=True) == [] and len(queue.queue) == 1
    redis_client.delete(drain_flag_key())
    assert queue.sweep(idle_only=True) == ["T1"] and len(queue.queue) == 2


def test_drain_jobs_carry_retries_and_the_json_serializer(redis_client: redis.Redis) -> None:
    """The job is enqueued by dotted path, JSON-serialised, with the queue's retry policy."""
    queue = RQAuditQueue(redis_client, retry_intervals=(1, 4))
    stage(queue, redis_client, list(synthetic_events("T1", 1)))
    [job] = queue.queue.get_jobs()
    assert job.retries_left == 2 and job.retry_intervals == [1, 4]
    assert job.serializer is JSONSerializer
    assert redis_client.ttl(drain_flag_key()) > 0


SIZES = st.integers(min_value=1, max_value=6)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["stage", "peek", "trim"]), st.sampled_from("AB"), st.integers(1, 6)
        ),
        max_size=30,
    )
)
def test_interleaved_drains_never_lose_or_skip_an_event(
    redis_client: redis.Redis, steps: list[tuple[str, str, int]]
) -> None:
    """Two drains peeking and trimming in any interleaving with stagings lose no event:
    whatever stays staged is exactly the events no drain stored, oldest first."""
    redis_client.flushdb()
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 200))
    staged = stored = 0
    read: dict[str, list[bytes]] = {"A": [], "B": []}
    for action, drain, count in steps:
        if action == "stage":
            stage(queue, redis_client, events[staged : staged + count])
            staged = min(staged + count, len(events))
        elif action == "peek":
            read[drain] = queue.peek("T1", count)
        elif read[drain]:
            last = decode_event(read[drain][-1])["seq"]
            stored = max(stored, last)  # the drain stored everything up to what it read
            queue.trim_stored("T1", read[drain][-1], len(read[drain]))
            read[drain] = []
    left = [decode_event(item)["seq"] for item in queue.peek("T1", 500)]
    assert left == list(range(stored + 1, staged + 1))
