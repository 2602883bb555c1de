"""Verification jobs through real Redis, RQ workers and the SQL store: a job verifies the
stored chain, reports tampering, runs on its own queue while the drain goes on, survives
its worker's shutdown, and runs under ``dealerassist serve``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
import sqlalchemy as sa
from audit_chains import play_hands, stage, synthetic_events
from fakes import FakeTableStore, fake_services
from rq import Queue
from serving import call, served, wait

from dealerassist import worker
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE, RQVerificationQueue
from dealerassist.adapters.sql_store import SqlAuditStore, events_table
from dealerassist.api.auth import read_plain_tokens
from dealerassist.bootstrap import ProfileDirectory
from dealerassist.profiles import default_profiles_dir
from dealerassist.service.ports import Services, Verification

__all__ = ["served"]  # the fixture, from tests/serving.py

REPO = Path(__file__).resolve().parents[2]
PROFILE = "casino-five-card-draw"
# Enough real events that verifying them takes seconds at ~3,000 events/s (replay included),
# so a test can see the job running and act meanwhile.
BIG_TABLES, BIG_HANDS = 4, 600


@pytest.fixture(autouse=True)
def _reset_worker_context() -> Iterator[None]:
    yield
    worker.configure(None)


def _sealed_hands(tables: list[str], hands: int) -> list[dict[str, Any]]:
    """The events of real hands at these tables, sealed by the service (fakes, no I/O)."""
    profiles = ProfileDirectory.load(default_profiles_dir())
    services = replace(fake_services(), profiles=profiles)
    for table_id in tables:
        play_hands(services, table_id, hands, PROFILE)
    assert isinstance(services.tables, FakeTableStore)
    return list(services.tables.staged)


@pytest.fixture(scope="module")
def big_chain() -> list[dict[str, Any]]:
    """Several thousand events of real hands."""
    return _sealed_hands([f"B{index}" for index in range(BIG_TABLES)], BIG_HANDS)


def _verify_burst(connection: redis.Redis, sql_url: str) -> None:
    worker.configure(sql_url, profiles_dir=default_profiles_dir())
    worker.make_verify_worker(connection).work(burst=True, logging_level="CRITICAL")


def _drain_burst(connection: redis.Redis, sql_url: str) -> None:
    worker.configure(sql_url)
    worker.make_worker(connection).work(burst=True, logging_level="CRITICAL")


def _stored_hands(services: Services, redis_client: redis.Redis, sql_url: str) -> None:
    """Two tables' hands played through the service, drained into the store."""
    play_hands(services, "V1", 3, PROFILE)
    play_hands(services, "V2", 2, PROFILE)
    _drain_burst(redis_client, sql_url)


def _job(services: Services, job_id: str) -> Verification:
    assert services.verifications is not None
    found = services.verifications.get(job_id)
    assert found is not None
    return found


def test_a_job_verifies_the_stored_chain(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """A job of one table and one of the whole store finish with the synchronous verify's
    report; the result is RQ's, kept with a TTL."""
    _stored_hands(services, redis_client, sql_url)
    assert services.verifications is not None
    one = services.verifications.enqueue("V1")
    every = services.verifications.enqueue(None)
    assert _job(services, one.id).status == "queued"
    _verify_burst(redis_client, sql_url)
    for job, table_id in ((one, "V1"), (every, None)):
        done = _job(services, job.id)
        assert done.status == "finished" and done.error is None
        assert done.ended_at is not None and done.enqueued_at is not None
        assert done.result is not None and done.result["ok"] is True, done.result
        expected = services.audit_store.count_events(table_id)  # type: ignore[attr-defined]
        assert done.result["events"] == expected
        assert 0 < redis_client.ttl(f"rq:job:{job.id}") <= 24 * 3600
    assert _job(services, one.id).result["hands"] == 3  # type: ignore[index]


def test_a_tampered_event_is_a_problem_in_the_job_s_report(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """An event rewritten in the store (a stack changed) is reported at its seq."""
    _stored_hands(services, redis_client, sql_url)
    store = services.audit_store
    assert isinstance(store, SqlAuditStore)
    with store.engine.begin() as conn:
        row = conn.execute(
            sa.select(events_table.c.payload).where(
                (events_table.c.table_id == "V1") & (events_table.c.seq == 3)
            )
        ).scalar_one()
        row["command"]["stack"] = 99_999
        conn.execute(
            events_table.update()
            .where((events_table.c.table_id == "V1") & (events_table.c.seq == 3))
            .values(payload=row)
        )
    assert services.verifications is not None
    job = services.verifications.enqueue(None)
    _verify_burst(redis_client, sql_url)
    report = _job(services, job.id).result
    assert report is not None and report["ok"] is False
    assert {(p["table_id"], p["seq"]) for p in report["problems"]} == {("V1", 3)}


def test_an_unknown_id_is_no_job(services: Services, redis_client: redis.Redis) -> None:
    """An ID RQ does not know, a malformed one and a drain job's are all None (404)."""
    queue = services.verifications
    assert queue is not None
    RQAuditQueue(redis_client).enqueue_drain()
    drain_id = Queue("audit", connection=redis_client).get_job_ids()[0]
    for unknown in ("0" * 32, "not-an-id", drain_id):
        assert queue.get(unknown) is None


def test_a_failed_job_says_why(redis_client: redis.Redis, tmp_path: Path) -> None:
    """A store that cannot be opened fails the job (after its retries) with the error."""
    queue = RQVerificationQueue(redis_client)
    job = queue.enqueue("T1")
    _verify_burst(redis_client, f"sqlite:///{tmp_path / 'missing' / 'a.sqlite3'}")
    failed = queue.get(job.id)
    assert failed is not None and failed.status == "failed" and failed.result is None
    assert failed.error is not None and "Unavailable" in failed.error


def test_each_worker_serves_only_its_own_queue(redis_client: redis.Redis, tmp_path: Path) -> None:
    """With a verification queued first, the audit worker drains and leaves it queued; the
    verification worker runs it and leaves a queued drain alone."""
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    verifications = RQVerificationQueue(redis_client)
    job = verifications.enqueue(None)
    audit = RQAuditQueue(redis_client)
    stage(audit, redis_client, list(synthetic_events("T1", 20)))
    assert worker.make_worker(redis_client).queue_names() == ["audit"]
    assert worker.make_verify_worker(redis_client).queue_names() == [VERIFY_QUEUE]
    _drain_burst(redis_client, url)
    assert SqlAuditStore(url).count_events() == 20 and audit.depth() == 0
    assert verifications.get(job.id).status == "queued"  # type: ignore[union-attr]
    stage(audit, redis_client, list(synthetic_events("T1", 5, start_seq=21)))
    _verify_burst(redis_client, url)
    done = verifications.get(job.id)
    assert done is not None and done.status == "finished"
    assert done.result is not None and done.result["events"] == 20
    assert audit.depth() == 5 and len(audit.queue) == 1  # the drain still waits for its worker


def _verify_worker_process(redis_url: str, sql_url: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    """``dealerassist worker --verify`` in a subprocess, as an operator would run it."""
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": sql_url}
    env["DEALERASSIST_DATA_DIR"] = str(tmp_path)
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--verify"]
    return subprocess.Popen([*command, "--log-level", "ERROR"], cwd=REPO, env=env)


def _wait_for(queue: RQVerificationQueue, job_id: str, status: str, seconds: float) -> Verification:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = queue.get(job_id)
        if found is not None and found.status == status:
            return found
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} not {status} after {seconds} s: {queue.get(job_id)}")


def test_the_drain_goes_on_while_a_verification_runs(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path, big_chain: list[dict[str, Any]]
) -> None:
    """While `dealerassist worker --verify` verifies thousands of events, newly staged
    events are drained into the store by the audit worker; then the job finishes ok."""
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    store = SqlAuditStore(url)
    store.append(big_chain)
    queue = RQVerificationQueue(redis_client)
    newer = _sealed_hands(["N1"], 3)
    process = _verify_worker_process(redis_url, url, tmp_path)
    try:
        job = queue.enqueue(None)
        _wait_for(queue, job.id, "running", 30)
        stage(RQAuditQueue(redis_client), redis_client, newer)
        _drain_burst(redis_client, url)
        assert store.count_events("N1") == len(newer)
        assert queue.get(job.id).status == "running"  # type: ignore[union-attr]
        done = _wait_for(queue, job.id, "finished", 60)
    finally:
        process.terminate()
        process.wait(timeout=30)
    # the job's read may or may not reach the table stored meanwhile: both verify
    assert done.result is not None and done.result["ok"] is True, done.result["problems"][:3]
    assert done.result["events"] in (len(big_chain), len(big_chain) + len(newer))


def test_a_verification_interrupted_by_sigterm_runs_again(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path, big_chain: list[dict[str, Any]]
) -> None:
    """SIGTERM stops the verification worker within seconds, mid-job, and the job goes back
    to the queue (same ID); the next worker verifies it to the end."""
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    SqlAuditStore(url).append(big_chain)
    queue = RQVerificationQueue(redis_client)
    process = _verify_worker_process(redis_url, url, tmp_path)
    try:
        job = queue.enqueue(None)
        _wait_for(queue, job.id, "running", 30)
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        assert process.wait(timeout=10) == 0
        assert time.monotonic() - started < 5
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert queue.get(job.id).status == "queued"  # type: ignore[union-attr]
    _verify_burst(redis_client, url)
    done = queue.get(job.id)
    assert done is not None and done.status == "finished"
    assert done.result is not None and done.result["events"] == len(big_chain)


def test_serve_runs_verification_jobs_and_stops_both_workers(served: Any) -> None:
    """Under `dealerassist serve` a job posted over HTTP is run by the child verification
    worker; SIGTERM then stops gunicorn and both workers (exit 0)."""
    base, data_dir, process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    body = {
        "table_id": "S1",
        "variant": "five_card_draw",
        "structure": "fixed_limit",
        "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
        "profile": PROFILE,
    }
    assert call(f"{base}/v1/tables", tokens["admin"], body, "POST")[0] == 201
    wait(lambda: call(f"{base}/v1/audit/events", tokens["auditor"])[1].strip(), 20)
    status, text = call(f"{base}/v1/audit/verifications", tokens["auditor"], {}, "POST")
    assert status == 202
    job_id = json.loads(text)["id"]

    def finished() -> Any:
        answer = json.loads(call(f"{base}/v1/audit/verifications/{job_id}", tokens["auditor"])[1])
        return answer if answer["status"] == "finished" else None

    report = wait(finished, 30)["result"]
    assert report["ok"] is True and report["events"] == 1
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    output = process.stdout.read().decode()
    assert "verification worker (pid" in output
