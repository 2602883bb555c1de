"""GET /metrics: what it counts after real answers, refusals and a drain, who may read it,
and the request IDs and log lines of the API (docs/operations.md, "What an operator
watches")."""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import yaml
from flask import Flask
from metrics_text import names, samples, value
from rq.registry import FailedJobRegistry

from api.conftest import Api, token_book
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.api import create_app
from dealerassist.api.observability import REQUEST_ID_HEADER
from dealerassist.bootstrap import build_services
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.telemetry.logs import JsonFormatter
from dealerassist.worker import drain_round

DURATION = "dealerassist_http_request_duration_seconds"
ACTIONS = {"method": "POST", "route": "/v1/tables/<table_id>/actions"}


def scrape(api: Api, who: str = "monitor") -> str:
    response = api.call("GET", "/metrics", who)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.content_type.startswith("text/plain; version=0.0.4")
    return response.get_data(as_text=True)


def test_answers_are_counted_by_route_template_and_status(api: Api) -> None:
    """Three seats, a hand and its two posts are counted under their route's template with
    their status; no label anywhere carries a table ID (a series per table would grow
    without bound); a method no route knows counts as ``other``, and a path no route
    matches for the method (404, 405) as ``unmatched``."""
    before = samples(scrape(api))
    api.ready_hand()
    assert api.act("T1", seat=2, action="post").status_code == 200
    assert api.act("T1", seat=3, action="post").status_code == 200
    assert api.client.open("/v1/tables/T1", method="BREW").status_code == 405
    assert api.call("GET", "/v1/nothing/T1").status_code == 404
    text = scrape(api)
    after = samples(text)

    def grew(labels: dict[str, str]) -> float:
        name = DURATION + "_count"
        return value(after, name, labels) - value(before, name, labels)

    seats = {"method": "PUT", "route": "/v1/tables/<table_id>/seats/<int:seat>", "status": "200"}
    assert grew(seats) == 3
    assert grew({**ACTIONS, "status": "200"}) == 2
    assert grew({"method": "POST", "route": "/v1/tables", "status": "201"}) == 1
    assert grew({"method": "other", "route": "unmatched", "status": "405"}) == 1
    assert grew({"method": "GET", "route": "unmatched", "status": "404"}) == 1
    buckets = {
        dict(labels)["le"]: count
        for (name, labels), count in after.items()
        if name == DURATION + "_bucket"
        and {**ACTIONS, "status": "200"}.items() <= dict(labels).items()
    }
    assert buckets["+Inf"] >= 2 and buckets["0.001"] <= buckets["10.0"] <= buckets["+Inf"]
    routes = {dict(labels).get("route") for (_, labels) in after} - {None}
    assert routes and not any("T1" in route for route in routes)
    assert 'T1"' not in text and "/v1/nothing" not in text


def test_refusals_are_counted_by_rule_id_and_a_replay_is_not(api: Api) -> None:
    """An entry the engine refuses counts once under its rule ID; the tablet's retry with
    the same Idempotency-Key is answered the remembered 409 (Idempotent-Replayed) and is
    not a second refusal."""
    api.ready_hand()
    before = samples(scrape(api))
    sent = {"Idempotency-Key": "refused-once"}
    first = api.call("POST", "/v1/tables/T1/actions", "dealer", {"seat": 1, "action": "fold"}, sent)
    assert first.status_code == 409
    rule = first.get_json()["rule_id"]
    again = api.call("POST", "/v1/tables/T1/actions", "dealer", {"seat": 1, "action": "fold"}, sent)
    assert again.status_code == 409 and again.headers["Idempotent-Replayed"] == "true"
    after = samples(scrape(api))
    name, labels = "dealerassist_refusals_total", {"rule_id": rule}
    assert value(after, name, labels) - value(before, name, labels) == 1


def test_backlog_and_its_age_per_redis_then_the_drain(
    api: Api, services: Services, redis_client: redis.Redis
) -> None:
    """The staged events are the backlog of Redis 1 with the age of the oldest; a drain
    round stores them all: the backlog is 0, the drained events grew by as many and the
    drain's lag histogram by one round."""
    api.ready_hand()
    time.sleep(0.05)
    queue = RQAuditQueue(redis_client)
    staged = queue.depth()
    assert staged >= 5  # the table, three seats, the hand
    before = samples(scrape(api))
    assert value(before, "dealerassist_audit_backlog_events", {"redis": "redis"}) == staged
    assert value(before, "dealerassist_audit_backlog_age_seconds", {"redis": "redis"}) >= 0.05
    assert value(before, "dealerassist_redis_up", {"redis": "redis"}) == 1
    assert value(before, "dealerassist_audit_store_up") == 1
    drained = drain_round(queue, services.audit_store)  # type: ignore[arg-type]
    assert drained.stored == staged
    after = samples(scrape(api))
    assert value(after, "dealerassist_audit_backlog_events", {"redis": "redis"}) == 0
    assert value(after, "dealerassist_audit_backlog_age_seconds", {"redis": "redis"}) == 0
    grew = value(after, "dealerassist_drained_events_total") - value(
        before, "dealerassist_drained_events_total"
    )
    assert grew == staged
    rounds = value(after, "dealerassist_drain_lag_seconds_count") - value(
        before, "dealerassist_drain_lag_seconds_count"
    )
    assert rounds == 1


def test_failed_jobs_isolated_tables_workers_and_floor_calls(
    api: Api, redis_client: redis.Redis
) -> None:
    """A job in RQ's failed registry, an isolated table, the live workers (the tests'
    heartbeats) and an open floor call are each read from Redis at the scrape."""
    api.ready_hand()
    queue = RQAuditQueue(redis_client)
    job = queue.queue.enqueue_call("dealerassist.worker.drain_tables")
    FailedJobRegistry(queue=queue.queue).add(job, ttl=60, exc_string="boom")
    queue.isolate("T1", "the store refuses it")
    call = api.call(
        "POST", "/v1/tables/T1/floor-calls", "dealer", {"rule_id": "BET-01", "note": "string bet?"}
    )
    assert call.status_code == 201, call.get_json()
    found = samples(scrape(api))
    assert value(found, "dealerassist_failed_jobs", {"redis": "redis", "queue": "audit"}) == 1
    assert (
        value(found, "dealerassist_failed_jobs", {"redis": "redis", "queue": "audit-verify"}) == 0
    )
    assert value(found, "dealerassist_audit_isolated_tables", {"redis": "redis"}) == 1
    assert value(found, "dealerassist_workers_live", {"redis": "redis", "queue": "audit"}) == 1
    assert value(found, "dealerassist_floor_calls_open") == 1


def test_a_verification_is_counted_with_its_result(api: Api) -> None:
    """A verify within the request that finds the chain intact counts as ok and is the last
    result, with its time."""
    before = samples(scrape(api))
    started = time.time()
    assert api.call("GET", "/v1/audit/verify", "auditor").get_json()["ok"] is True
    after = samples(scrape(api))
    labels = {"kind": "request", "result": "ok"}
    name = "dealerassist_verifications_total"
    assert value(after, name, labels) - value(before, name, labels) == 1
    assert value(after, "dealerassist_verification_last_failed") == 0
    assert value(after, "dealerassist_verification_last_timestamp_seconds") >= started


def test_a_dead_redis_is_a_zero_not_a_slow_scrape(tmp_path: Path) -> None:
    """With a Redis that does not answer, /metrics still answers at once: Redis 1 is down
    (0), the store up (1), and the counts are there."""
    settings = Settings(
        data_dir=tmp_path,
        redis_url="redis://127.0.0.1:1/0",
        database_url=f"sqlite:///{tmp_path / 'audit.sqlite3'}",
    )
    built = build_services(settings)
    app = create_app({"SETTINGS": settings, "SERVICES": built, "TOKENS": token_book()})
    api = Api(app.test_client())
    started = time.monotonic()
    found = samples(scrape(api))
    assert time.monotonic() - started < 5
    assert value(found, "dealerassist_redis_up", {"redis": "redis"}) == 0
    assert value(found, "dealerassist_audit_store_up") == 1
    assert ("dealerassist_audit_backlog_events", frozenset({("redis", "redis")})) not in found


def test_metrics_switched_off(settings: Settings, services: Services) -> None:
    """DEALERASSIST_METRICS=off: no /metrics route (404), answers still carry request IDs."""
    off = settings.replace(metrics=False)
    app = create_app({"SETTINGS": off, "SERVICES": services, "TOKENS": token_book()})
    api = Api(app.test_client())
    response = api.call("GET", "/metrics", "monitor")
    assert response.status_code == 404
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers[REQUEST_ID_HEADER])


def test_the_dashboard_and_alert_rules_name_only_exported_metrics(api: Api) -> None:
    """Every metric the sample Grafana dashboard and the Prometheus alert rules of docs/ops
    query is one /metrics exports (after a verification, so the last result's gauges are
    set); the dashboard is the one tools/make_dashboard.py writes."""
    api.ready_hand()
    api.call("GET", "/v1/audit/verify", "auditor")
    exported = names(scrape(api))
    root = Path(__file__).resolve().parents[2]
    dashboard = json.loads((root / "docs" / "ops" / "grafana-dashboard.json").read_text())
    spec = importlib.util.spec_from_file_location(
        "make_dashboard", root / "tools" / "make_dashboard.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert dashboard == module.dashboard()
    queries = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])
    ]
    rules = yaml.safe_load((root / "docs" / "ops" / "alerts.yml").read_text())
    queries += [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    named = {name for text in queries for name in re.findall(r"\bdealerassist_[a-z_]+", text)}
    assert len(named) >= 15
    assert named <= exported, sorted(named - exported)


# -- request IDs and log lines -----------------------------------------------------------


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """What the API logs while a test runs, as the JSON lines serve writes."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("dealerassist")
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.INFO)
    yield stream
    logger.removeHandler(handler)
    logger.setLevel(previous)


def test_the_request_id_is_kept_returned_and_in_the_log_line(
    api: Api, json_lines: io.StringIO
) -> None:
    """A caller's X-Request-ID comes back on the answer and is in the refusal's JSON log
    line with the table, the seat and the token's name; a malformed one is replaced by a
    fresh ID."""
    api.ready_hand()
    sent = {REQUEST_ID_HEADER: "tablet-7.req-42"}
    refused = api.call(
        "POST", "/v1/tables/T1/actions", "dealer", {"seat": 1, "action": "fold"}, sent
    )
    assert refused.status_code == 409
    assert refused.headers[REQUEST_ID_HEADER] == "tablet-7.req-42"
    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]
    mine = [line for line in lines if line.get("request_id") == "tablet-7.req-42"]
    assert len(mine) == 1, lines
    line = mine[0]
    assert line["level"] == "INFO" and line["logger"] == "dealerassist.access"
    assert line["table"] == "T1" and line["seat"] == 1 and line["token"] == "dealer"
    assert line["status"] == 409 and line["route"] == "/v1/tables/<table_id>/actions"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["time"])
    for bad in ("x" * 129, "has space", 'quote"d', "semi;colon"):
        answer = api.call("GET", "/v1/tables/T1", "dealer", headers={REQUEST_ID_HEADER: bad})
        assert re.fullmatch(r"[0-9a-f]{32}", answer.headers[REQUEST_ID_HEADER]), bad
    ok = api.call("GET", "/v1/tables/T1", "dealer")  # a 200 gets no access line by default
    assert ok.headers[REQUEST_ID_HEADER] not in json_lines.getvalue()


def test_the_access_log_setting(
    settings: Settings, services: Services, json_lines: io.StringIO
) -> None:
    """DEALERASSIST_ACCESS_LOG=all: every answer has its line; off: none."""
    for chosen, expected in (("all", 1), ("off", 0)):
        chosen_settings = Settings.from_env({"DEALERASSIST_ACCESS_LOG": chosen})
        app: Flask = create_app(
            {
                "SETTINGS": settings.replace(access_log=chosen_settings.access_log),
                "SERVICES": services,
                "TOKENS": token_book(),
            }
        )
        answer = Api(app.test_client()).call("GET", "/healthz", None)
        rid = answer.headers[REQUEST_ID_HEADER]
        assert json_lines.getvalue().count(rid) == expected, chosen
