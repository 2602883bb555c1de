"""Audit routes over a real Redis, RQ worker and SQLite store: export, hand, verify (in the
request up to its limit, or as a job), restart."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from rq import Queue

from api.conftest import Api, token_book
from dealerassist.adapters.checkpointing import KEY_FILE_ENV, write_key_file
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.api import create_app
from dealerassist.audit.checkpoints import key_id, public_key_from_hex, verify_checkpoints
from dealerassist.bootstrap import build_services
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.worker import run_verify_worker, run_worker


def _finish_hand(api: Api) -> dict[str, Any]:
    """Play hand 1 with everyone folding to the big blind after the posts."""
    body: dict[str, Any] = api.ready_hand().get_json()
    while body["hand"]["phase"] != "complete":
        nxt = body["next"]
        kinds = [choice["action"] for choice in nxt["legal"]]
        action = "post" if "post" in kinds else "fold"
        response = api.act("T1", seat=nxt["seat"], action=action)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
    return body


def _drain(settings: Settings) -> None:
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)


def test_events_export_jsonl_and_csv_after_the_worker_drains(api: Api, settings: Settings) -> None:
    """Every accepted and rejected entry reaches the store and exports in seq order."""
    _finish_hand(api)
    api.act("T1", seat=1, action="fold")  # no hand in play: refused, audited
    _drain(settings)
    response = api.call("GET", "/v1/audit/events?table_id=T1", "auditor")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    events = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert events[0]["kind"] == "create_table" and events[-1]["kind"] == "rejected"
    as_csv = api.call("GET", "/v1/audit/events?format=csv", "admin")
    assert as_csv.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(as_csv.get_data(as_text=True))))
    assert len(rows) == len(events)


def test_verify_replays_the_log_ok(api: Api, settings: Settings) -> None:
    """The verifier recomputes the chain and replays the hand without a problem."""
    _finish_hand(api)
    _drain(settings)
    report = api.call("GET", "/v1/audit/verify?table_id=T1", "auditor").get_json()
    assert report["ok"] is True, report["problems"]
    assert report["events"] > 5 and report["hands"] == 1


def test_finished_hand_from_the_audit_store(api: Api, settings: Settings) -> None:
    """After the hand ends and is drained, both hand routes answer from the store."""
    _finish_hand(api)
    _drain(settings)
    audited = api.call("GET", "/v1/audit/hands/T1/1", "auditor")
    assert audited.status_code == 200
    assert audited.get_json()["hand"]["result"] is not None
    api.start("T1", None)
    table_side = api.call("GET", "/v1/tables/T1/hands/1", "floor")
    assert table_side.status_code == 200 and table_side.get_json()["live"] is False


def test_unknown_audited_hand_is_404(api: Api) -> None:
    """A hand the store does not hold is a 404."""
    assert api.call("GET", "/v1/audit/hands/T1/9", "auditor").status_code == 404


def test_bad_audit_query_is_400(api: Api) -> None:
    """An unknown format or a date that is not ISO 8601 is a 400."""
    assert api.call("GET", "/v1/audit/events?format=xml", "auditor").status_code == 400
    assert api.call("GET", "/v1/audit/events?since=yesterday", "auditor").status_code == 400
    assert api.call("GET", "/v1/audit/events?colour=red", "auditor").status_code == 400


def test_empty_export_is_200(api: Api) -> None:
    """No events yet: the export is empty, not an error."""
    response = api.call("GET", "/v1/audit/events", "auditor")
    assert response.status_code == 200 and response.get_data() == b""


def test_state_survives_recreating_the_app(
    api: Api, settings: Settings, services: Services, app: Flask
) -> None:
    """A new app (a restarted API process) reads the same table from Redis."""
    api.ready_hand()
    api.act("T1", seat=2, action="post")
    before = api.call("GET", "/v1/tables/T1").get_json()
    fresh = Api(create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client())
    after = fresh.call("GET", "/v1/tables/T1").get_json()
    assert after == before
    assert fresh.act("T1", seat=3, action="post").get_json()["version"] == before["version"] + 1


def test_finished_hand_as_phh(api: Api, settings: Settings) -> None:
    """The audited hand exports as PHH text (TOML with the hand's actions)."""
    _finish_hand(api)
    _drain(settings)
    response = api.call("GET", "/v1/audit/hands/T1/1?format=phh", "auditor")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert "actions" in text and "variant" in text


def _moves_in_turn(api: Api, body: dict[str, Any], *moves: str | tuple[str, int]) -> Any:
    """Each move (an action, or an action and its amount; a draw's count) by the seat whose
    turn it is at table T1; the last answer's body."""
    for move in moves:
        action, amount = (move, None) if isinstance(move, str) else move
        fields = {"amount": amount} if amount is not None else {}
        if action == "draw":
            fields = {"count": amount or 0}
        response = api.act("T1", seat=body["next"]["seat"], action=action, **fields)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
    return body


def test_KILL_04_BLIND_03_a_big_blind_kill_past_a_dead_small_blind_exports_as_phh(
    api: Api, settings: Settings
) -> None:
    """KILL-01/04, BLIND-03/05 (the soak's hand S21-ctd2k-count-f66a/8, whose PHH export was
    a 500): the button dead on an empty seat and the small blind dead at the next (BLIND-03,
    WSOP 155), seat 4 the big blind and the kill the dealer names (KILL-01, WSOP 194), seat 5
    owing nothing, a newcomer in seat 1 posting its entering big blind (BLIND-05, WSOP 104-a).
    The audited hand exports as PHH (200, not a 500): p1 the big blind and the kill, the small
    blind dead."""
    stakes = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
    profile = "casino-triple-draw-27-optional-kill"
    table = {"variant": "deuce_to_seven_triple_draw", "profile": profile, "stakes": stakes}
    assert api.create_table(**table).status_code == 201
    for seat in (2, 3, 4, 5):
        assert api.seat("T1", seat, f"P{seat}", 400).status_code == 200
    body = api.start("T1", 4).get_json()  # seat 4 on the button, then left of the big blind
    _moves_in_turn(api, body, "post", "post", "fold", ("raise", 20), "fold", "fold")
    body = api.start("T1", None).get_json()
    _moves_in_turn(api, body, "post", "post", ("raise", 20), "fold", "fold", "fold")
    for seat in (2, 3):
        assert api.call("DELETE", f"/v1/tables/T1/seats/{seat}").status_code == 200
    assert api.seat("T1", 1, "P1", 400).status_code == 200
    body = api.call("POST", "/v1/tables/T1/hands", "dealer", {"kill_seat": 4}).get_json()
    hand = body["hand"]
    assert (hand["button"], hand["small_blind_seat"], hand["big_blind_seat"]) == (2, None, 4)
    _moves_in_turn(api, body, "post", "post", "call", "fold", "check", ("draw", 0), ("draw", 0))
    _moves_in_turn(api, body, ("bet", 20), "fold")
    _drain(settings)
    response = api.call("GET", "/v1/audit/hands/T1/3?format=phh", "auditor")
    assert response.status_code == 200, response.get_json()
    text = response.get_data(as_text=True)
    assert '_posts = [["big_blind", "kill"], [], ["entering_big_blind"]]' in text
    assert "_dead_small_blind = 5" in text


def test_times_out_of_range_in_utc_are_400(api: Api) -> None:
    """A time that cannot be expressed in UTC (year 1 with a positive offset) is a 400."""
    response = api.call("GET", "/v1/audit/events?until=0001-01-01T00:00:01%2B05:14", "auditor")
    assert response.status_code == 400
    assert "until" in response.get_json()["errors"]


def test_since_and_until_filter_the_export(api: Api, settings: Settings) -> None:
    """Events before `since` or from `until` on are left out."""
    api.create_table()
    _drain(settings)
    everything = api.call("GET", "/v1/audit/events", "auditor").get_data(as_text=True)
    at = json.loads(everything.splitlines()[0])["at"]
    later = api.call("GET", "/v1/audit/events?since=2999-01-01T00:00:00Z", "auditor")
    assert later.get_data() == b""
    until = api.call("GET", f"/v1/audit/events?until={at.replace('+', '%2B')}", "auditor")
    assert until.get_data() == b""


# -- verification jobs and the synchronous verify's limit ------------------------------------


def _verify_jobs(settings: Settings) -> None:
    """Run the verification worker until its queue is empty."""
    assert settings.redis_url is not None
    run_verify_worker(settings.redis_url, settings.database_url, burst=True)


def test_a_verification_job_is_202_with_its_location_then_its_report(
    api: Api, settings: Settings
) -> None:
    """POST answers 202 + Location, the job is queued until the verification worker runs it,
    then GET shows it finished with the same report as the synchronous verify."""
    _finish_hand(api)
    _drain(settings)
    started = api.call("POST", "/v1/audit/verifications", "auditor", {"table_id": "T1"})
    assert started.status_code == 202, started.get_json()
    job = started.get_json()
    assert job["status"] == "queued" and job["table_id"] == "T1" and job["result"] is None
    assert started.headers["Location"] == f"/v1/audit/verifications/{job['id']}"
    waiting = api.call("GET", started.headers["Location"], "admin").get_json()
    assert waiting["status"] == "queued" and waiting["enqueued_at"].endswith("Z")
    _verify_jobs(settings)
    done = api.call("GET", started.headers["Location"], "auditor")
    assert done.status_code == 200
    body = done.get_json()
    assert body["status"] == "finished" and body["error"] is None and body["ended_at"]
    direct = api.call("GET", "/v1/audit/verify?table_id=T1", "auditor").get_json()
    assert body["result"] == direct and direct["ok"] is True and direct["hands"] == 1


def test_a_verification_job_without_a_body_verifies_every_table(
    api: Api, settings: Settings
) -> None:
    """No body (or an empty object) verifies the whole store."""
    _finish_hand(api)
    api.create_table(table_id="T2")
    _drain(settings)
    empty = api.call("POST", "/v1/audit/verifications", "admin")
    assert empty.status_code == 202 and empty.get_json()["table_id"] is None
    _verify_jobs(settings)
    report = api.call("GET", empty.headers["Location"], "auditor").get_json()["result"]
    whole = api.call("GET", "/v1/audit/verify", "auditor").get_json()
    assert report == whole and report["ok"] is True
    assert {event["table_id"] for event in _events(api)} == {"T1", "T2"}


def _events(api: Api) -> list[dict[str, Any]]:
    text = api.call("GET", "/v1/audit/events", "auditor").get_data(as_text=True)
    return [json.loads(line) for line in text.splitlines()]


def test_an_unknown_or_malformed_verification_is_404(api: Api) -> None:
    """An ID no job has, or that is no job ID at all, is a 404 problem."""
    for verification_id in ("0" * 32, "nope", "rq:job:x", "%E2%98%83"):
        response = api.call("GET", f"/v1/audit/verifications/{verification_id}", "auditor")
        assert response.status_code == 404, verification_id
        assert response.mimetype == "application/problem+json"


def test_a_drain_job_is_no_verification(api: Api, settings: Settings, redis_url: str) -> None:
    """The ID of another queue's job (the audit drain) is a 404 here."""
    api.create_table()
    connection = redis.Redis.from_url(redis_url)
    drain_ids = Queue("audit", connection=connection).get_job_ids()
    assert drain_ids
    for job_id in drain_ids:
        response = api.call("GET", f"/v1/audit/verifications/{job_id}", "auditor")
        assert response.status_code == 404


@pytest.mark.parametrize("role", ["dealer", "floor"])
def test_verification_jobs_are_for_auditors_and_admins(api: Api, role: str) -> None:
    """A dealer or floor token gets 403 on both routes; no token 401."""
    started = api.call("POST", "/v1/audit/verifications", "auditor", {})
    location = started.headers["Location"]
    assert api.call("POST", "/v1/audit/verifications", role, {}).status_code == 403
    assert api.call("GET", location, role).status_code == 403
    assert api.call("POST", "/v1/audit/verifications", None, {}).status_code == 401
    assert api.call("GET", location, None).status_code == 401


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"table_id": "T1", "colour": "red"}, "colour"),
        ({"table_id": 7}, "table_id"),
        ({"table_id": "no spaces"}, "table_id"),
        ({"table_id": ["T1"]}, "table_id"),
    ],
)
def test_a_bad_verification_body_is_400(api: Api, body: dict[str, Any], field: str) -> None:
    """Unknown fields and wrong types are refused with the field named; nothing is queued."""
    response = api.call("POST", "/v1/audit/verifications", "auditor", body)
    assert response.status_code == 400
    assert field in response.get_json()["errors"]


def test_a_verification_body_that_is_not_a_json_object_is_refused(api: Api) -> None:
    """A JSON array is a 400, text is a 415."""
    listed = api.call("POST", "/v1/audit/verifications", "auditor", ["T1"])
    assert listed.status_code == 400
    text = api.call(
        "POST",
        "/v1/audit/verifications",
        "auditor",
        data="table_id=T1",
        headers={"Content-Type": "text/plain"},
    )
    assert text.status_code == 415


def test_the_synchronous_verify_refuses_a_scope_over_its_limit(settings: Settings) -> None:
    """Above DEALERASSIST_VERIFY_SYNC_MAX_EVENTS events in scope the synchronous verify
    answers 422 naming the count, the limit and the jobs route, without verifying; a table
    within the limit is still verified in the request, and the job takes the large scope."""
    limited = settings.replace(verify_sync_max_events=5)
    built = build_services(limited)
    try:
        app = create_app({"SETTINGS": limited, "SERVICES": built, "TOKENS": token_book()})
        api = Api(app.test_client())
        _finish_hand(api)
        api.create_table(table_id="T2")
        _drain(limited)
        refused = api.call("GET", "/v1/audit/verify?table_id=T1", "auditor")
        assert refused.status_code == 422
        assert refused.mimetype == "application/problem+json"
        problem = refused.get_json()
        assert (problem["events"], problem["limit"]) == (6, 5)
        assert problem["verifications"] == "/v1/audit/verifications"
        assert "verification job" in problem["detail"]
        small = api.call("GET", "/v1/audit/verify?table_id=T2", "auditor")
        assert small.status_code == 200 and small.get_json()["events"] == 1
        assert api.call("GET", "/v1/audit/verify", "auditor").status_code == 422
        started = api.call("POST", "/v1/audit/verifications", "auditor", {"table_id": "T1"})
        _verify_jobs(limited)
        report = api.call("GET", started.headers["Location"], "auditor").get_json()["result"]
        assert report["ok"] is True and report["events"] > 5
    finally:
        built.audit_store.dispose()  # type: ignore[attr-defined]


def test_verification_jobs_are_503_while_redis_or_the_store_is_down(tmp_path: Path) -> None:
    """No Redis: starting or reading a job is a 503 problem with Retry-After; no store:
    starting one is a 503 too (nothing is queued that could only fail)."""
    store = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    no_redis = Settings(
        data_dir=tmp_path, redis_url=f"unix://{tmp_path}/none.sock", database_url=store
    )
    api = Api(create_app({"SETTINGS": no_redis, "TOKENS": token_book()}).test_client())
    started = api.call("POST", "/v1/audit/verifications", "auditor", {})
    assert started.status_code == 503 and started.headers["Retry-After"]
    assert started.mimetype == "application/problem+json"
    read = api.call("GET", f"/v1/audit/verifications/{'0' * 32}", "auditor")
    assert read.status_code == 503
    no_store = no_redis.replace(database_url=f"sqlite:///{tmp_path / 'missing' / 'a.sqlite3'}")
    api = Api(create_app({"SETTINGS": no_store, "TOKENS": token_book()}).test_client())
    refused = api.call("POST", "/v1/audit/verifications", "auditor", {"table_id": "T1"})
    assert refused.status_code == 503
    assert "audit store" in refused.get_json()["detail"]


def _events_of(api: Api, who: str, query: str = "") -> list[dict[str, Any]]:
    response = api.call("GET", f"/v1/audit/events{query}", who)
    assert response.status_code == 200, response.get_data(as_text=True)
    if "format=csv" in query:
        return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    return [json.loads(line) for line in response.get_data(as_text=True).splitlines()]


def test_a_table_scoped_auditor_sees_and_verifies_only_its_tables(
    api: Api, settings: Settings
) -> None:
    """Issue 19 point 2: an auditor (or admin) token limited to T1 that names no table gets
    T1's events only (JSONL and CSV, with or without a time window), a verify report of
    T1's chain only, and a verification job of T1 only; another table, or a job that covers
    another table or the whole store, is a 403 to it. An unscoped auditor still sees all."""
    api.ready_hand("T1")
    api.ready_hand("T2")
    _drain(settings)
    everything = _events_of(api, "auditor")
    assert {event["table_id"] for event in everything} == {"T1", "T2"}
    t1 = [event for event in everything if event["table_id"] == "T1"]
    for who in ("auditor@T1", "admin@T1"):
        assert _events_of(api, who) == t1
        assert [row["seq"] for row in _events_of(api, who, "?format=csv")] == [
            str(event["seq"]) for event in t1
        ]
        since = "?since=2000-01-01T00:00:00Z"
        assert {event["table_id"] for event in _events_of(api, who, since)} == {"T1"}
        report = api.call("GET", "/v1/audit/verify", who).get_json()
        assert report["ok"] is True and report["events"] == len(t1), report
    assert api.call("GET", "/v1/audit/events?table_id=T2", "auditor@T1").status_code == 403
    assert api.call("GET", "/v1/audit/verify?table_id=T2", "auditor@T1").status_code == 403
    whole = api.call("GET", "/v1/audit/verify", "auditor").get_json()
    assert whole["events"] == len(everything)

    mine = api.call("POST", "/v1/audit/verifications", "auditor@T1").get_json()
    assert mine["table_id"] is None and mine["tables"] == ["T1"]
    every = api.call("POST", "/v1/audit/verifications", "auditor").get_json()
    _verify_jobs(settings)
    done = api.call("GET", f"/v1/audit/verifications/{mine['id']}", "auditor@T1").get_json()
    assert done["status"] == "finished" and done["result"]["events"] == len(t1), done
    for who, job, status in (
        ("auditor@T2", mine, 403),  # T1's job: not T2's to read
        ("auditor@T1", every, 403),  # the whole store's report: not T1's
        ("auditor", mine, 200),
        ("admin", every, 200),
    ):
        response = api.call("GET", f"/v1/audit/verifications/{job['id']}", who)
        assert response.status_code == status, (who, response.get_json())


@pytest.mark.parametrize("fmt", ["json", "phh"])
def test_an_audited_hand_in_play_or_not_yet_stored_whole_is_409(
    api: Api, settings: Settings, fmt: str
) -> None:
    """Issue 19 point 13: the audited export (JSON or PHH) of a hand still being played is a
    409 ``in_play`` linking the table's live view; of a hand that ended but is not drained
    yet a 409 ``draining`` with Retry-After; once drained, a 200 with its result."""
    path = f"/v1/audit/hands/T1/1?format={fmt}"
    api.ready_hand()
    _drain(settings)  # the store holds the hand's first events: still not the whole hand
    playing = api.call("GET", path, "auditor")
    assert playing.status_code == 409, playing.get_data(as_text=True)
    assert playing.mimetype == "application/problem+json"
    assert playing.get_json()["reason"] == "in_play"
    assert playing.get_json()["live"] == "/v1/tables/T1/hands/1"
    assert "Retry-After" not in playing.headers
    _finish_hand_in_play(api)
    draining = api.call("GET", path, "auditor")
    assert draining.status_code == 409
    assert draining.get_json()["reason"] == "draining"
    assert draining.headers["Retry-After"] == "1"
    _drain(settings)
    stored = api.call("GET", path, "auditor")
    assert stored.status_code == 200
    if fmt == "json":
        assert stored.get_json()["hand"]["result"] is not None


def _finish_hand_in_play(api: Api) -> None:
    body: dict[str, Any] = api.call("GET", "/v1/tables/T1").get_json()
    while body["hand"]["phase"] != "complete":
        nxt = body["next"]
        action = "post" if "post" in [c["action"] for c in nxt["legal"]] else "fold"
        response = api.act("T1", seat=nxt["seat"], action=action)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()


def test_alerts_and_readyz_name_an_isolated_table(
    api: Api, settings: Settings, redis_client: redis.Redis
) -> None:
    """A table whose events the store refuses (issue 19): /readyz fails naming it, and
    GET /v1/audit/alerts lists it with the reason for the floor and the auditor; a dealer
    may not read it."""
    assert api.call("GET", "/v1/audit/alerts", "floor").get_json() == {
        "ok": True,
        "forked": [],
        "isolated": [],
    }
    assert api.call("GET", "/readyz", None).status_code == 200
    RQAuditQueue(redis_client).isolate("T1", "DataError: value too long for varchar(64)")
    alerts = api.call("GET", "/v1/audit/alerts", "auditor").get_json()
    assert alerts["ok"] is False
    assert alerts["isolated"] == [
        {"table_id": "T1", "reason": "DataError: value too long for varchar(64)"}
    ]
    ready = api.call("GET", "/readyz", None)
    assert ready.status_code == 503
    assert ready.get_json()["checks"]["audit_integrity"]["isolated"][0]["table_id"] == "T1"
    assert api.call("GET", "/v1/audit/alerts", "dealer").status_code == 403


def test_a_jsonl_download_ends_with_the_signed_checkpoints_of_its_scope(
    api: Api, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a signing key the worker checkpoints what it drains; every JSONL download ends
    with the checkpoints (issue 19), showing the heads of its scope only, and they verify."""
    public = public_key_from_hex(write_key_file(tmp_path / "checkpoint.pem"))
    monkeypatch.setenv(KEY_FILE_ENV, str(tmp_path / "checkpoint.pem"))
    _finish_hand(api)
    api.create_table(table_id="T2")
    _drain(settings)
    lines = api.call("GET", "/v1/audit/events?table_id=T1", "auditor").get_data(as_text=True)
    rows = [json.loads(line) for line in lines.splitlines()]
    records = [row["checkpoint"] for row in rows if set(row) == {"checkpoint"}]
    assert records and rows[-len(records) :] == [{"checkpoint": r} for r in records]  # at the end
    report = verify_checkpoints(records, {key_id(public): public})
    assert report.problems == [] and set(report.heads) == {"T1"}
    alone = api.call("GET", "/v1/audit/checkpoints", "auditor").get_data(as_text=True)
    whole = verify_checkpoints(
        [json.loads(line)["checkpoint"] for line in alone.splitlines()], {key_id(public): public}
    )
    assert set(whole.heads) == {"T1", "T2"}
