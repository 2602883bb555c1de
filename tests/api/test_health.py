"""/healthz, /readyz and 503 answers when Redis or the audit store is down."""

from __future__ import annotations

import gc
import logging
import time
from pathlib import Path

import pytest
import redis
from fakes import fake_services

from api.conftest import TABLE_BODY, TEST_WORKER, Api, token_book
from dealerassist.adapters.rq_audit_queue import beat, forget_beat
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE
from dealerassist.api import create_app, create_served_app
from dealerassist.service.ports import Services
from dealerassist.settings import Settings


def _fake_api() -> tuple[Api, object]:
    services = fake_services()
    app = create_app({"SETTINGS": Settings(), "SERVICES": services, "TOKENS": token_book()})
    return Api(app.test_client()), services


def test_healthz_is_ok_without_any_backend() -> None:
    """/healthz answers 200 even when nothing else is configured."""
    app = create_app({"SETTINGS": Settings(redis_url="unix:///nonexistent.sock")})
    assert app.test_client().get("/healthz").get_json() == {"status": "ok"}


def test_readyz_reports_every_backend(api: Api, redis_client: redis.Redis) -> None:
    """/readyz pings Redis and the audit store, reports the queue depth and the age of its
    oldest event, and counts the live drain and verification workers."""
    beat(redis_client, "audit", "drain-1", 30)
    beat(redis_client, VERIFY_QUEUE, "verify-1", 30)
    api.create_table()
    response = api.call("GET", "/readyz", None)
    assert response.status_code == 200
    body = response.get_json()
    checks = body["checks"]
    assert checks["redis"]["ok"] is True and checks["redis"]["persistence"]
    assert checks["audit_store"] == {"ok": True}
    queue = checks["audit_queue"]
    assert queue["ok"] is True and queue["depth"] == 1
    assert 0 <= queue["backlog_age_seconds"] < 5 and queue["max_backlog_age_seconds"] == 30
    assert checks["audit_worker"] == {"ok": True, "workers": 2}  # with the fixture's
    assert checks["verify_worker"] == {"ok": True, "workers": 2}
    assert body["status"] == "ready" and body["nodes"] == [{"node": 1, "ok": True}]


def test_readyz_is_503_while_no_drain_worker_is_live(api: Api, redis_client: redis.Redis) -> None:
    """Events that no live worker drains are not ready: the answer names the missing worker;
    one whose heartbeat lapsed (killed) no longer counts."""
    forget_beat(redis_client, "audit", TEST_WORKER)
    beat(redis_client, "audit", "killed-1", 1)
    api.create_table()
    redis_client.delete("da:worker:audit:killed-1")  # its heartbeat lapsed
    response = api.call("GET", "/readyz", None)
    assert response.status_code == 503
    body = response.get_json()
    assert body["checks"]["audit_worker"] == {"ok": False, "workers": 0}
    assert "audit_worker" in body["detail"]
    assert not redis_client.sismember("da:workers:audit", "killed-1")  # forgotten


def test_readyz_is_503_when_the_drain_does_not_keep_up(
    settings: Settings, services: Services, redis_client: redis.Redis
) -> None:
    """A live worker but an oldest staged event older than the threshold
    (``DEALERASSIST_READY_MAX_BACKLOG_SECONDS``) is not ready: the drain is not keeping up."""
    beat(redis_client, "audit", "drain-1", 30)
    beat(redis_client, VERIFY_QUEUE, "verify-1", 30)
    app = create_app(
        {"SETTINGS": settings.replace(ready_max_backlog_seconds=1), "SERVICES": services,
         "TOKENS": token_book()}
    )  # fmt: skip
    api = Api(app.test_client())
    api.create_table()
    assert api.call("GET", "/readyz", None).status_code == 200
    time.sleep(1.3)
    response = api.call("GET", "/readyz", None)
    assert response.status_code == 503
    queue = response.get_json()["checks"]["audit_queue"]
    assert queue["ok"] is False and queue["backlog_age_seconds"] > 1


def test_readyz_is_503_when_redis_is_down(tmp_path: Path) -> None:
    """With no Redis at the URL, /readyz is a 503 problem naming the failed checks."""
    settings = Settings(
        data_dir=tmp_path,
        redis_url=f"unix://{tmp_path}/none.sock",
        database_url=f"sqlite:///{tmp_path / 'a.sqlite3'}",
    )
    client = create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    checks = response.get_json()["checks"]
    assert checks["redis"]["ok"] is False and checks["audit_store"]["ok"] is True
    assert "audit_queue" not in checks  # a Redis that does not answer is asked nothing more


def test_table_routes_are_503_when_redis_is_down(tmp_path: Path) -> None:
    """A real app pointed at a dead Redis answers 503 problems, never 500."""
    settings = Settings(
        data_dir=tmp_path,
        redis_url=f"unix://{tmp_path}/none.sock",
        database_url=f"sqlite:///{tmp_path / 'a.sqlite3'}",
    )
    api = Api(create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client())
    assert api.call("GET", "/v1/tables/T1").status_code == 503
    assert api.call("POST", "/v1/tables", "admin", TABLE_BODY).status_code == 503


def test_fake_store_down_is_503() -> None:
    """Unavailable from the table store is a 503 with Retry semantics left to the client."""
    api, services = _fake_api()
    services.tables.down = True  # type: ignore[attr-defined]
    response = api.call("PUT", "/v1/tables/T1/seats/1", body={"player": "A", "stack": 1})
    assert response.status_code == 503
    assert response.get_json()["type"].endswith("unavailable")
    assert response.headers["Retry-After"] == "1"


def test_audit_store_down_is_503_on_audit_routes_and_readyz() -> None:
    """When the audit store is down, exports, verify and /readyz answer 503."""
    api, services = _fake_api()
    services.audit_store.down = True  # type: ignore[attr-defined]
    assert api.call("GET", "/v1/audit/events", "auditor").status_code == 503
    assert api.call("GET", "/v1/audit/verify", "auditor").status_code == 503
    assert api.call("GET", "/v1/audit/hands/T1/1", "auditor").status_code == 503
    assert api.call("GET", "/readyz", None).status_code == 503


def test_bad_profiles_dir_is_503_not_500(tmp_path: Path) -> None:
    """Services that cannot be built (a broken profile) answer 503 and are retried later."""
    (tmp_path / "broken.toml").write_text("name = 3\n")
    settings = Settings(
        data_dir=tmp_path,
        redis_url=f"unix://{tmp_path}/none.sock",
        database_url=f"sqlite:///{tmp_path / 'a.sqlite3'}",
        profiles_dir=tmp_path,
    )
    api = Api(create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client())
    assert api.call("GET", "/v1/tables/T1").status_code == 503
    assert api.call("GET", "/readyz", None).status_code == 503


def test_the_served_app_freezes_what_startup_made_and_still_serves(
    settings: Settings, services: Services
) -> None:
    """create_served_app (gunicorn workers): startup objects leave the cyclic collector's
    reach (gc.freeze) and the app answers as create_app's does."""
    gc.unfreeze()
    try:
        app = create_served_app(
            {"SETTINGS": settings, "SERVICES": services, "TOKENS": token_book()}
        )
        assert gc.get_freeze_count() > 1000
        api = Api(app.test_client())
        assert api.create_table().status_code == 201
        assert api.call("GET", "/v1/tables/T1").get_json()["table_id"] == "T1"
    finally:
        gc.unfreeze()  # the test process goes on making and dropping apps


def _dead_backends(tmp_path: Path) -> Settings:
    """Redis at a socket path that does not exist, PostgreSQL at a port nobody listens on."""
    return Settings(
        data_dir=tmp_path,
        redis_url=f"unix://{tmp_path}/secret-dir/redis.sock",
        database_url="postgresql+psycopg://auditor@127.0.0.1:9/secret_db?connect_timeout=1",
    )


def _dead_api(tmp_path: Path) -> Api:
    app = create_app({"SETTINGS": _dead_backends(tmp_path), "TOKENS": token_book()})
    return Api(app.test_client())


def test_readyz_and_503s_keep_backend_details_from_anonymous_callers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 19 point 17: an anonymous /readyz, and a dealer's 503, name the failed check but
    not the database's host, port or name, nor Redis's socket path; the log has them."""
    api = _dead_api(tmp_path)
    for who, path in ((None, "/readyz"), ("dealer", "/v1/tables/T1"), ("floor", "/readyz")):
        with caplog.at_level(logging.WARNING):
            response = api.call("GET", path, who)
        assert response.status_code == 503, (who, path)
        text = response.get_data(as_text=True)
        for secret in ("secret-dir", "redis.sock", "secret_db", "127.0.0.1", ":9"):
            assert secret not in text, (who, path, text)
    assert "secret-dir" in caplog.text


@pytest.mark.parametrize("who", ["admin", "auditor"])
def test_readyz_shows_backend_details_to_an_admin_or_auditor(tmp_path: Path, who: str) -> None:
    """Whoever runs or audits the room sees why a backend does not answer."""
    api = _dead_api(tmp_path)
    response = api.call("GET", "/readyz", who)
    assert response.status_code == 503
    checks = response.get_json()["checks"]
    assert "secret-dir" in checks["redis"]["error"]
