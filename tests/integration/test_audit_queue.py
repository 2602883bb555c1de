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
    drain_flag_key,
    encode_event,
    pending_key,
)


def test_many_events_get_one_drain_job_per_table(redis_client: redis.Redis) -> None:
    """Staging 40 events on two tables, one transaction each, enqueues exactly two jobs."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=2, per_table=20))
    assert queue.depth() == 40
    assert queue.pending("T00") == queue.pending("T01") == 20
    jobs = queue.queue.get_jobs()
    assert sorted(job.args[0] for job in jobs) == ["T00", "T01"]
    assert {job.func_name for job in jobs} == {DRAIN_JOB}


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
    assert not redis_client.exists(drain_flag_key("T1"))


def test_a_drain_starting_mid_transaction_aborts_it(redis_client: redis.Redis) -> None:
    """The flag is watched: a drain clearing it between read and EXEC raises WatchError."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 1)))
    with redis_client.pipeline() as pipe:
        pipe.watch(*queue.watch_keys("T1"))
        assert queue.drain_queued(pipe, "T1") is True
        queue.clear_drain_flag("T1")
        pipe.multi()
        queue.stage(pipe, "T1", list(synthetic_events("T1", 2, start_seq=2)), True)
        with pytest.raises(redis.WatchError):
            pipe.execute()
    assert queue.pending("T1") == 1


def test_staging_after_the_flag_is_cleared_enqueues_a_new_job(redis_client: redis.Redis) -> None:
    """Once a drain has started (flag cleared), the next event gets a job of its own."""
    queue = RQAuditQueue(redis_client)
    events = list(synthetic_events("T1", 3))
    stage(queue, redis_client, events[:2])
    queue.clear_drain_flag("T1")
    stage(queue, redis_client, events[2:])
    assert len(queue.queue) == 2


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


def test_sweep_enqueues_a_drain_for_each_table_with_pending_events(
    redis_client: redis.Redis,
) -> None:
    """sweep picks up tables whose drain job was lost (e.g. a killed worker)."""
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, interleaved(tables=3, per_table=2))
    redis_client.delete(pending_key("T02"))
    queue.queue.empty()
    assert queue.sweep() == ["T00", "T01"]
    assert sorted(job.args[0] for job in queue.queue.get_jobs()) == ["T00", "T01"]
    assert queue.tables() == ["T00", "T01", "T02"]


def test_drain_jobs_carry_retries_and_the_json_serializer(redis_client: redis.Redis) -> None:
    """The job is enqueued by dotted path, JSON-serialised, with the queue's retry policy."""
    queue = RQAuditQueue(redis_client, retry_intervals=(1, 4))
    stage(queue, redis_client, list(synthetic_events("T1", 1)))
    [job] = queue.queue.get_jobs()
    assert job.retries_left == 2 and job.retry_intervals == [1, 4]
    assert job.serializer is JSONSerializer
    assert redis_client.ttl(drain_flag_key("T1")) > 0


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
