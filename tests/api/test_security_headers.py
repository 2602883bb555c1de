"""Issue 19 point 19: CSP, nosniff, X-Frame-Options and no-referrer on every answer: the API,
health, the spec, /docs, errors of every kind, and the pages."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from api.conftest import Api
from dealerassist.api.security import API_CSP

BIG = {"player": "x" * 70_000, "stack": 1}
# (method, path, who, body, the status expected)
ANSWERS = [
    ("GET", "/healthz", None, None, 200),
    ("GET", "/readyz", None, None, 200),
    ("GET", "/openapi.json", None, None, 200),
    ("GET", "/docs", None, None, 200),
    ("GET", "/v1/tables/T1", "dealer", None, 200),
    ("GET", "/v1/tables/T1", None, None, 401),
    ("POST", "/v1/tables", "dealer", {}, 403),
    ("GET", "/v1/tables/T9", "dealer", None, 404),
    ("GET", "/v1/no-such-route", "dealer", None, 404),
    ("DELETE", "/healthz", None, None, 405),
    ("PUT", "/v1/tables/T1/seats/4", "dealer", BIG, 413),
    ("POST", "/v1/tables/T1/actions", "dealer", {"seat": 1, "action": "bet"}, 409),
    ("GET", "/v1/audit/events", "auditor", None, 200),
    ("GET", "/tablet", None, None, 200),
]


@pytest.mark.parametrize(("method", "path", "who", "body", "status"), ANSWERS)
def test_every_answer_carries_the_security_headers(
    api: Api, method: str, path: str, who: str | None, body: object, status: int
) -> None:
    """Whatever the route or the status, the four headers are there; the API's policy lets
    nothing load (its answers are data, not documents)."""
    api.create_table()
    response = api.call(method, path, who, body)
    assert response.status_code == status, response.get_data(as_text=True)[:200]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp
    if path.startswith(("/v1", "/healthz", "/readyz", "/openapi.json")):
        assert csp == API_CSP


def test_the_docs_page_allows_its_own_inline_style_and_nothing_else(api: Api) -> None:
    """/docs's CSP names the SHA-256 of its one <style>, so a browser applies it; no script
    of any origin may run there."""
    response = api.call("GET", "/docs", None)
    (style,) = re.findall(r"<style>(.*?)</style>", response.get_data(as_text=True))
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    csp = response.headers["Content-Security-Policy"]
    assert f"style-src 'sha256-{digest}'" in csp
    assert "default-src 'none'" in csp and "script-src" not in csp


def test_a_request_line_past_the_limit_is_a_414_problem(api: Api) -> None:
    """A URL that makes the request line longer than 4094 bytes: 414 problem+json from the
    app (gunicorn lets it through to here: dealerassist.request_limits)."""
    response = api.call("GET", "/v1/audit/events?since=" + "x" * 4100, "auditor")
    assert response.status_code == 414
    assert response.mimetype == "application/problem+json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "headers",
    [{"X-Big": "y" * 8200}, {f"X-Many-{n}": "1" for n in range(65)}],
    ids=["one-huge-field", "too-many-fields"],
)
def test_header_fields_past_the_limits_are_a_431_problem(api: Api, headers: dict[str, str]) -> None:
    """One header field past 8190 bytes, or more than 64 fields: 431 problem+json."""
    response = api.call("GET", "/v1/tables/T1", "dealer", headers=headers)
    assert response.status_code == 431
    assert response.mimetype == "application/problem+json"
