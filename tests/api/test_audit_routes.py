"""Audit routes over a real Redis, RQ worker and SQLite store: export, hand, verify, restart."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Flask

from api.conftest import Api, token_book
from dealerassist.api import create_app
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.worker import run_worker


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
