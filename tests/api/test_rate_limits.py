"""Issue 19 point 10: refused entries are rate-limited per token (429 problem+json with
Retry-After, the burst recorded once, the rest not stored), and the synchronous verify, which
runs on the workers that serve the tablets, is bounded: one at a time on the host and so
many events per token per minute; past either, a 429 that names the verification jobs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from fakes import FakeClock
from flask import Flask

from api.conftest import Api, token_book
from dealerassist.api import create_app
from dealerassist.bootstrap import build_services
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

FOLD_OUT_OF_TURN = {"seat": 1, "action": "fold"}  # hand 1: seat 2 posts first


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def limited(settings: Settings, clock: FakeClock) -> Iterator[tuple[Api, Services]]:
    """The app with 3 refusals per 60 s per token and 12 verified events per minute."""
    tight = settings.replace(refusals_per_window=3, verify_sync_events_per_minute=12)
    services = replace(build_services(tight), clock=clock)
    app: Flask = create_app({"SETTINGS": tight, "SERVICES": services, "TOKENS": token_book()})
    yield Api(app.test_client()), services
    services.audit_store.engine.dispose()  # type: ignore[attr-defined]


def _head(services: Services) -> tuple[int, int]:
    record = services.tables.load("T1")
    assert record is not None
    return record.head.seq, record.version


def _drain(settings: Settings) -> None:
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)


def _refuse(api: Api, who: str = "dealer") -> Any:
    return api.call("POST", "/v1/tables/T1/actions", who, FOLD_OUT_OF_TURN)


def test_refusals_past_the_limit_are_429_and_the_burst_is_recorded_once(
    limited: tuple[Api, Services], settings: Settings, clock: FakeClock
) -> None:
    """Three refusals are 409s, each recorded; the fourth is recorded once, marked as the
    burst, and answered 429 with Retry-After; the next ones are 429s that record nothing.
    Accepted entries and other tokens go on as always; a new window admits again."""
    api, services = limited
    api.ready_hand()
    for _ in range(3):
        assert _refuse(api).status_code == 409
    seq, version = _head(services)
    burst = _refuse(api)
    assert burst.status_code == 429, burst.get_json()
    assert burst.mimetype == "application/problem+json"
    problem = burst.get_json()
    assert problem["rule_id"] and problem["stored"] is True and "event" in problem
    assert int(burst.headers["Retry-After"]) == problem["retry_after"] > 0
    assert _head(services) == (seq + 1, version)
    for _ in range(5):
        flood = _refuse(api)
        assert flood.status_code == 429 and flood.get_json()["stored"] is False
    assert _head(services) == (seq + 1, version)  # nothing stored, nothing changed
    assert _refuse(api, "dealer@T1").status_code == 409  # another token: its own limit
    assert api.act("T1", seat=2, action="post").status_code == 200  # accepted: as always
    clock.at += timedelta(seconds=61)
    assert _refuse(api).status_code == 409  # a new window

    _drain(settings)
    lines = api.call("GET", "/v1/audit/events?table_id=T1", "auditor").get_data(as_text=True)
    marked = [e for e in map(json.loads, lines.splitlines()) if "rate_limit" in e["payload"]]
    assert len(marked) == 1
    assert marked[0]["payload"]["rate_limit"]["limit"] == 3
    report = api.call("GET", "/v1/audit/verify?table_id=T1", "admin").get_json()
    assert report["ok"] is True, report["problems"]  # the marked refusal replays as refused


def test_an_idempotent_retry_of_a_limited_refusal_is_not_a_replay(
    limited: tuple[Api, Services],
) -> None:
    """The burst's refusal is not remembered under its Idempotency-Key: a retry is limited
    again (429), not answered a remembered 409."""
    api, _ = limited
    api.ready_hand()
    for _ in range(3):
        _refuse(api)
    key = {"Idempotency-Key": "k-1"}
    first = api.call("POST", "/v1/tables/T1/actions", "dealer", FOLD_OUT_OF_TURN, key)
    again = api.call("POST", "/v1/tables/T1/actions", "dealer", FOLD_OUT_OF_TURN, key)
    assert first.status_code == again.status_code == 429
    assert "Idempotent-Replayed" not in again.headers


def test_the_synchronous_verify_is_one_at_a_time_on_the_host(
    limited: tuple[Api, Services],
) -> None:
    """While another worker's verify holds the host's one slot, a verify is a 429 naming the
    jobs route (with Retry-After); once the slot is free it runs."""
    api, services = limited
    assert services.verify_gate is not None
    held = services.verify_gate.acquire("someone else", 1, services.clock.now())
    busy = api.call("GET", "/v1/audit/verify", "auditor")
    assert busy.status_code == 429, busy.get_json()
    assert busy.get_json()["verifications"] == "/v1/audit/verifications"
    assert busy.get_json()["limit"] == "concurrent_verifies"
    assert int(busy.headers["Retry-After"]) >= 1
    services.verify_gate.release(held)
    assert api.call("GET", "/v1/audit/verify", "auditor").status_code == 200


def test_a_token_verifies_so_many_events_per_minute_within_requests(
    limited: tuple[Api, Services], settings: Settings, clock: FakeClock
) -> None:
    """With 12 events per minute, an auditor looping verify over a table of 8 events gets its
    first, then a 429 that steers it to the jobs route; another token, or the next minute,
    verifies again."""
    api, _ = limited
    api.ready_hand()  # create, three seats, start: 5 events
    for seat in (2, 3, 1):
        api.act("T1", seat=seat, action="fold" if seat == 1 else "post")
    _drain(settings)
    assert api.call("GET", "/v1/audit/verify", "auditor").status_code == 200
    looping = api.call("GET", "/v1/audit/verify", "auditor")
    assert looping.status_code == 429
    assert looping.get_json()["limit"] == "verify_events"
    assert "POST /v1/audit/verifications" in looping.get_json()["detail"]
    assert api.call("GET", "/v1/audit/verify", "admin").status_code == 200
    clock.at += timedelta(seconds=60)
    assert api.call("GET", "/v1/audit/verify", "auditor").status_code == 200
