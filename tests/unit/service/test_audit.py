"""Audit reads over fakes: export order, one hand, verify by replay, its limits, and
verification jobs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fakes import (
    FakeAuditStore,
    FakeEventCounter,
    FakeTableStore,
    FakeVerificationQueue,
    fake_services,
    with_verification_fakes,
)

from dealerassist.errors import NotFound, Unavailable
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service import audit, tables
from dealerassist.service.ports import Services, VerifyLimits
from dealerassist.service.tables import Actor, Preconditions

SPEC = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile_id": "test",
}


@pytest.fixture
def services() -> Services:
    built = fake_services({"test": HouseRules(profile_id="test", sha256="cd" * 32)})
    tables.create_table(built, SPEC, Actor("a", "admin"), Preconditions())
    tables.seat_player(built, "T1", 1, "A", 10, Actor("d", "dealer"), Preconditions())
    tables.submit_action(
        built, "T1", {"seat": 1, "action": "fold"}, Actor("d", "dealer"), Preconditions()
    )
    store = built.audit_store
    assert isinstance(store, FakeAuditStore) and isinstance(built.tables, FakeTableStore)
    store.events.extend(built.tables.staged)
    return built


def test_events_come_in_seq_order(services: Services) -> None:
    """The export yields the staged events of the table in seq order."""
    seqs = [event["seq"] for event in audit.audit_events(services, "T1")]
    assert seqs == [1, 2, 3]


def test_verify_replays_the_staged_chain(services: Services) -> None:
    """What the service sealed verifies: hashes, links and the engine replay agree."""
    report = audit.verify_log(services, "T1")
    assert report["ok"] is True, report["problems"]
    assert report["events"] == 3


def test_verify_finds_a_tampered_event(services: Services) -> None:
    """Changing a stored payload is reported as a problem."""
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    store.events[1]["payload"]["command"]["stack"] = 1000
    assert audit.verify_log(services, "T1")["ok"] is False


def test_missing_hand_is_not_found(services: Services) -> None:
    """A hand the store does not hold raises NotFound."""
    with pytest.raises(NotFound):
        audit.audit_hand(services, "T1", 1)


def test_store_down_is_unavailable_before_streaming(services: Services) -> None:
    """An unreachable store raises Unavailable when the export is asked for."""
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    store.down = True
    with pytest.raises(Unavailable):
        audit.audit_events(services)


# -- the synchronous verify's limits -------------------------------------------------------


def test_verify_within_the_limit_runs_and_counts_with_a_bound(services: Services) -> None:
    """At the limit the synchronous verify runs; the count asks for one more than the limit
    (so the query is bounded, whatever the store holds)."""
    limited = with_verification_fakes(services, max_events=3)
    assert audit.verify_log(limited, "T1")["events"] == 3
    counter = limited.event_counter
    assert isinstance(counter, FakeEventCounter) and counter.counted == [4]


def test_verify_over_the_limit_refuses_without_reading_events(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One event over the limit: VerifyScopeTooLarge naming the count and the limit, and not
    one event is read (the verify never starts)."""
    limited = with_verification_fakes(services, max_events=2)
    store = limited.audit_store
    assert isinstance(store, FakeAuditStore)
    reads: list[str | None] = []
    original = store.iter_events

    def counted(table_id: str | None = None, since: Any = None, until: Any = None) -> Any:
        reads.append(table_id)
        return original(table_id, since, until)

    monkeypatch.setattr(store, "iter_events", counted)
    with pytest.raises(audit.VerifyScopeTooLarge) as refused:
        audit.verify_log(limited, "T1")
    assert (refused.value.events, refused.value.limit) == (3, 2)
    assert "verification job" in str(refused.value)
    assert reads == []
    limited = with_verification_fakes(services, max_events=3)
    audit.verify_log(limited, "T1")
    assert reads == ["T1"]  # within the limit the same store read happens


def test_verify_of_another_table_is_counted_on_its_own(services: Services) -> None:
    """The limit applies to the scope asked for: a table with no events passes."""
    limited = with_verification_fakes(services, max_events=2)
    assert audit.verify_log(limited, "T9") == {"ok": True, "events": 0, "hands": 0, "problems": []}
    with pytest.raises(audit.VerifyScopeTooLarge):
        audit.verify_log(limited, None)


def test_verify_out_of_time_refuses_instead_of_running_on(services: Services) -> None:
    """With no time left the synchronous verify stops at the first event and refuses (the
    web worker would otherwise be killed at its timeout)."""
    rushed = replace(services, verify_limits=VerifyLimits(budget_seconds=-1.0))
    with pytest.raises(audit.VerifyScopeTooLarge) as refused:
        audit.verify_log(rushed, "T1")
    assert refused.value.events is None and "longer than" in str(refused.value)


# -- verification jobs -----------------------------------------------------------------------


def test_a_verification_starts_queued_for_its_scope(services: Services) -> None:
    """A new job is queued, names its table and has no result yet."""
    jobs = with_verification_fakes(services)
    job = audit.start_verification(jobs, "T1")
    assert (job.status, job.table_id, job.result, job.error) == ("queued", "T1", None, None)
    assert audit.verification(jobs, job.id) == job


def test_a_finished_verification_carries_the_report(services: Services) -> None:
    """The job's report is what verify_scope finds, tampering included."""
    jobs = with_verification_fakes(services)
    store = jobs.audit_store
    assert isinstance(store, FakeAuditStore)
    store.events[1]["payload"]["command"]["stack"] = 1000
    job = audit.start_verification(jobs, None)
    queue = jobs.verifications
    assert isinstance(queue, FakeVerificationQueue)
    queue.run_next(lambda table_id: audit.verify_scope(store, jobs.profiles, table_id))
    done = audit.verification(jobs, job.id)
    assert done.status == "finished" and done.result is not None
    assert done.result["ok"] is False and done.result["events"] == 3
    assert {problem["seq"] for problem in done.result["problems"]} == {2}
    assert done.to_dict()["ended_at"] == "2026-11-29T12:01:00Z"


def test_a_verification_over_the_sync_limit_is_still_taken(services: Services) -> None:
    """The job has no limit: a scope the synchronous verify refuses verifies as a job."""
    jobs = with_verification_fakes(services, max_events=1)
    with pytest.raises(audit.VerifyScopeTooLarge):
        audit.verify_log(jobs, "T1")
    audit.start_verification(jobs, "T1")
    queue, store = jobs.verifications, jobs.audit_store
    assert isinstance(queue, FakeVerificationQueue) and isinstance(store, FakeAuditStore)
    done = queue.run_next(lambda table_id: audit.verify_scope(store, jobs.profiles, table_id))
    assert done.result is not None and done.result["ok"] is True


def test_a_failed_verification_says_why(services: Services) -> None:
    """A job whose store is down ends failed with the store's error."""
    jobs = with_verification_fakes(services)
    store = jobs.audit_store
    assert isinstance(store, FakeAuditStore)
    job = audit.start_verification(jobs, "T1")
    store.down = True
    queue = jobs.verifications
    assert isinstance(queue, FakeVerificationQueue)
    queue.run_next(lambda table_id: audit.verify_scope(store, jobs.profiles, table_id))
    failed = audit.verification(jobs, job.id)
    assert failed.status == "failed" and failed.result is None
    assert failed.error == "fake audit store is down"


def test_a_verification_is_not_queued_while_the_store_is_down(services: Services) -> None:
    """Starting a job checks the store first: Unavailable (503), nothing queued."""
    jobs = with_verification_fakes(services)
    store, queue = jobs.audit_store, jobs.verifications
    assert isinstance(store, FakeAuditStore) and isinstance(queue, FakeVerificationQueue)
    store.down = True
    with pytest.raises(Unavailable):
        audit.start_verification(jobs, "T1")
    assert queue.jobs == {}


def test_an_unknown_verification_is_not_found(services: Services) -> None:
    """An ID the queue does not know raises NotFound."""
    with pytest.raises(NotFound):
        audit.verification(with_verification_fakes(services), "0" * 32)


def test_without_a_verification_queue_jobs_are_unavailable(services: Services) -> None:
    """A process wired without the queue port answers Unavailable, not a crash."""
    with pytest.raises(Unavailable):
        audit.start_verification(services, "T1")


def test_a_stopping_worker_interrupts_the_verification(services: Services) -> None:
    """verify_scope asks ``stop`` before each event and raises the error it names."""
    calls: list[int] = []

    def stop() -> audit.VerificationInterrupted | None:
        calls.append(1)
        return audit.VerificationInterrupted("stopping") if len(calls) == 2 else None

    with pytest.raises(audit.VerificationInterrupted):
        audit.verify_scope(services.audit_store, services.profiles, "T1", stop)
    assert len(calls) == 2
