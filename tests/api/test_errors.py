"""The error handlers: every failure is a problem document; 500 only as a logged last resort."""

from __future__ import annotations

import logging

import pytest
import redis
from fakes import FakeTableStore, fake_services

from api.conftest import Api, token_book
from dealerassist.api import create_app
from dealerassist.service.ports import TableRecord
from dealerassist.settings import Settings


class _Exploding(FakeTableStore):
    """A table store whose reads fail with the given exception."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def load(self, table_id: str) -> TableRecord | None:
        raise self.error


def _api_with(error: Exception) -> Api:
    services = fake_services()
    object.__setattr__(services, "tables", _Exploding(error))
    app = create_app({"SETTINGS": Settings(), "SERVICES": services, "TOKENS": token_book()})
    return Api(app.test_client())


def test_a_stray_redis_error_is_503() -> None:
    """A Redis error no adapter translated still answers 503, with Retry-After."""
    response = _api_with(redis.ConnectionError("gone")).call("GET", "/v1/tables/T1")
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "1"


def test_an_unexpected_error_is_a_logged_500_problem(caplog: pytest.LogCaptureFixture) -> None:
    """The last resort: a bug answers a 500 problem (no traceback leaks) and is logged."""
    with caplog.at_level(logging.ERROR):
        response = _api_with(RuntimeError("bug")).call("GET", "/v1/tables/T1")
    assert response.status_code == 500
    body = response.get_json()
    assert response.mimetype == "application/problem+json"
    assert body["status"] == 500 and "bug" not in body["detail"]
    assert any("unexpected error" in record.message for record in caplog.records)


def test_problem_documents_carry_the_request_path() -> None:
    """`instance` names the request that failed."""
    response = _api_with(RuntimeError("bug")).call("GET", "/v1/tables/T1")
    assert response.get_json()["instance"] == "/v1/tables/T1"
