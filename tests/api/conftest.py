"""API fixtures: the real app over real Redis (REDIS_URL or embedded) and a SQLite audit store."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from dealerassist.adapters.rq_audit_queue import beat
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE
from dealerassist.api import create_app
from dealerassist.api.auth import Role, Token, TokenBook, digest
from dealerassist.bootstrap import build_services
from dealerassist.service.ports import Services
from dealerassist.settings import Settings

SECRETS = {
    "admin": "admin-secret",
    "dealer": "dealer-secret",
    "floor": "floor-secret",
    "auditor": "auditor-secret",
    "monitor": "monitor-secret",
    "t2-dealer": "t2-dealer-secret",
    # every role limited to table T1, and to table T2 (the role matrix's scopes)
    **{f"{role}@{table}": f"{role}@{table}-secret" for role in Role for table in ("T1", "T2")},
}
TABLE_BODY: dict[str, Any] = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}


def token_book() -> TokenBook:
    """One token per role, a dealer limited to table T2, and every role limited to T1 and to
    T2 (``"auditor@T1"``)."""
    tokens = [Token(name=role, role=Role(role), digest=digest(SECRETS[role])) for role in Role]
    scoped = Token("t2-dealer", Role.DEALER, digest(SECRETS["t2-dealer"]), frozenset({"T2"}))
    per_table = [
        Token(f"{role}@{table}", role, digest(SECRETS[f"{role}@{table}"]), frozenset({table}))
        for role in Role
        for table in ("T1", "T2")
    ]
    return TokenBook([*tokens, scoped, *per_table])


def auth(who: str) -> dict[str, str]:
    """The Authorization header of a test token."""
    return {"Authorization": f"Bearer {SECRETS[who]}"}


class Api:
    """A test client that speaks as one token at a time."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def call(
        self,
        method: str,
        path: str,
        who: str | None = "dealer",
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> TestResponse:
        sent = dict(auth(who) if who else {})
        sent.update(headers or {})
        if body is not None:
            kwargs["json"] = body
        return self.client.open(path, method=method, headers=sent, **kwargs)

    def create_table(self, **changes: Any) -> TestResponse:
        return self.call("POST", "/v1/tables", "admin", {**TABLE_BODY, **changes})

    def seat(self, table_id: str, seat: int, player: str, stack: int = 100) -> TestResponse:
        body = {"player": player, "stack": stack}
        return self.call("PUT", f"/v1/tables/{table_id}/seats/{seat}", "dealer", body)

    def start(self, table_id: str, button: int | None = 1) -> TestResponse:
        body = {} if button is None else {"button": button}
        return self.call("POST", f"/v1/tables/{table_id}/hands", "dealer", body)

    def act(self, table_id: str, **action: Any) -> TestResponse:
        return self.call("POST", f"/v1/tables/{table_id}/actions", "dealer", action)

    def ready_hand(self, table_id: str = "T1", players: int = 3) -> TestResponse:
        """A table with ``players`` seated and hand 1 started (button on seat 1)."""
        assert self.create_table(table_id=table_id).status_code == 201
        for seat in range(1, players + 1):
            assert self.seat(table_id, seat, f"P{seat}").status_code == 200
        response = self.start(table_id)
        assert response.status_code == 200
        return response


@pytest.fixture
def settings(redis_url: str, redis_client: redis.Redis, tmp_path: Path) -> Settings:
    """Settings for a clean Redis database and a fresh SQLite audit store."""
    return Settings(
        data_dir=tmp_path,
        redis_url=redis_url,
        database_url=f"sqlite:///{tmp_path / 'audit.sqlite3'}",
    )


# Heartbeats of a drain and a verification worker that tests' /readyz counts as live (no
# worker runs in these tests; readiness fails without them).
TEST_WORKER = "api-tests"


@pytest.fixture
def services(settings: Settings, redis_client: redis.Redis) -> Iterator[Services]:
    """The production services (bootstrap) over the test Redis and SQLite; a drain and a
    verification worker said to be live (``TEST_WORKER``)."""
    beat(redis_client, "audit", TEST_WORKER, 3600)
    beat(redis_client, VERIFY_QUEUE, TEST_WORKER, 3600)
    built = build_services(settings)
    yield built
    built.audit_store.engine.dispose()  # type: ignore[attr-defined]


@pytest.fixture
def app(settings: Settings, services: Services) -> Flask:
    return create_app({"SETTINGS": settings, "SERVICES": services, "TOKENS": token_book()})


@pytest.fixture
def api(app: Flask) -> Api:
    return Api(app.test_client())
