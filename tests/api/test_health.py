"""/healthz, /readyz and 503 answers when Redis or the audit store is down."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import pytest
from fakes import fake_services

from api.conftest import TABLE_BODY, Api, token_book
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


def test_readyz_reports_every_backend(api: Api) -> None:
    """/readyz pings Redis and the audit store and reports the queue depth."""
    api.create_table()
    response = api.call("GET", "/readyz", None)
    assert response.status_code == 200
    checks = response.get_json()["checks"]
    assert checks["redis"]["ok"] is True and checks["redis"]["persistence"]
    assert checks["audit_store"] == {"ok": True}
    assert checks["audit_queue"] == {"ok": True, "depth": 1}


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
