"""RFC 9457 problem details: the one error body of the API, for every error it answers.

Each ``DealerAssistError`` class maps to one status here; werkzeug's HTTP errors (404, 405,
413, 415 …) keep their status and headers; a rule violation (409) carries ``rule_id``,
``seat`` and ``allowed``; a stale version (412) carries ``current_version``. The
catch-all handler is a last resort that logs; no route relies on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import redis
from flask import Flask, Response, current_app, g, json, request
from werkzeug.exceptions import HTTPException

from dealerassist.api import messages as says
from dealerassist.errors import (
    AlreadyExists,
    Conflict,
    DealerAssistError,
    Forbidden,
    IdempotencyMismatch,
    InvalidFields,
    InvalidInput,
    NotFound,
    ProfileError,
    RateLimited,
    SignInRefused,
    Unavailable,
)
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.violations import RuleViolation

PROBLEM_MIME = "application/problem+json"
PROBLEM_BASE = "https://dealerassist.invalid/problems/"
_AUTHENTICATE = {"WWW-Authenticate": 'Bearer realm="dealerassist"'}
RETRY_AFTER_SECONDS = "1"
# Who may read why a backend does not answer (its host, port, database name, socket path):
# the roles that run or audit the room. Everyone else gets BACKEND_DOWN; the log has it all.
BACKEND_DETAIL_ROLES = frozenset({"admin", "auditor"})
BACKEND_DOWN = says.BACKEND_DOWN.english


class Unauthenticated(DealerAssistError):
    """No bearer token, or one that is not in the tokens file (401)."""


class ShiftEnded(Unauthenticated):
    """A dealer's shift session that ended before its time (401 ``shift_ended``): the answer
    says why (``reason``, ``ended_at``, ``by_employee_id``/``by_name``/``by_tablet``), so the
    tablet can tell the dealer before he signs in again."""

    code = "shift_ended"

    def __init__(self, message: str | Said, ended: dict[str, Any]) -> None:
        super().__init__(message)
        self.ended = ended


class UnsupportedMediaType(DealerAssistError):
    """A request body that is not ``application/json`` (415)."""


class ValidationFailed(InvalidFields):
    """A body or query that fails its schema (400); ``errors`` maps each field to messages."""


# class -> (status, type slug, title); the first matching class wins (subclasses first)
_MAPPING: tuple[tuple[type[DealerAssistError], int, str, str], ...] = (
    (RuleViolation, 409, "rule-violation", "Rule violation"),
    (InvalidInput, 400, "invalid-input", "Invalid input"),
    (Unauthenticated, 401, "unauthenticated", "Authentication required"),
    (SignInRefused, 401, "sign-in-refused", "Sign-in refused"),
    (Forbidden, 403, "forbidden", "Forbidden"),
    (NotFound, 404, "not-found", "Not found"),
    (AlreadyExists, 409, "already-exists", "Already exists"),
    (Conflict, 412, "stale-version", "Precondition failed"),
    (UnsupportedMediaType, 415, "unsupported-media-type", "Unsupported media type"),
    (IdempotencyMismatch, 422, "idempotency-key-reused", "Idempotency-Key reused"),
    (RateLimited, 429, "rate-limited", "Too many requests"),
    (Unavailable, 503, "unavailable", "Service unavailable"),
    (ProfileError, 503, "profile-error", "House-rule profile invalid"),
)


def problem(
    status: int,
    title: str,
    detail: str | Said | None = None,
    slug: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response. A ``detail`` said as a message (``rules/model/said.py``) is
    its English, with its ``message_id`` and ``params`` beside it (``api/language.py``
    renders them in the caller's language; they say the detail, so they win over an
    ``extra`` of those names, such as the refusal a 429 carries)."""
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + slug if slug else "about:blank",
        "title": title,
        "status": status,
    }
    said = None if detail is None or isinstance(detail, str) else detail.to_json()
    if isinstance(detail, Said):
        detail = detail.english()
    if detail:
        body["detail"] = detail
    body["instance"] = request.path
    body.update(extra)
    if said is not None:
        body["message_id"], body["params"] = said["id"], said["params"]
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_MIME)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def rule_violation_problem(body: Mapping[str, Any]) -> Response:
    """409 for a rejected entry (the service's answer body: rule_id, message, seat, allowed …)."""
    extra = {key: value for key, value in body.items() if key != "message"}
    response = problem(
        409, "Rule violation", str(body.get("message", "")), "rule-violation", **extra
    )
    version = body.get("version")
    if isinstance(version, int):
        response.headers["ETag"] = f'"v{version}"'
    return response


def sees_backend_details() -> bool:
    """Whether this request's token (``g.token``, set by ``auth``) may read backend details."""
    return getattr(g.get("token"), "role", None) in BACKEND_DETAIL_ROLES


def backend_detail(text: str) -> str:
    """``text`` (why a backend does not answer) for an admin or auditor, else BACKEND_DOWN."""
    return text if sees_backend_details() else BACKEND_DOWN


def _dealerassist_error(error: DealerAssistError) -> Response:
    if isinstance(error, RuleViolation):
        return rule_violation_problem({**error.to_dict()})
    detail: str | Said = error.said or str(error)
    if isinstance(error, Unavailable):
        current_app.logger.warning("unavailable (%s %s): %s", request.method, request.path, error)
        if not sees_backend_details():
            detail = says.BACKEND_DOWN()
    for cls, status, slug, title in _MAPPING:
        if isinstance(error, cls):
            return problem(status, title, detail, slug, _headers(error), **_extras(error))
    return _unexpected(error)  # pragma: no cover - every class is mapped


def _headers(error: DealerAssistError) -> dict[str, str]:
    """WWW-Authenticate on 401, the current ETag on 412, Retry-After on 503."""
    if isinstance(error, Unauthenticated):
        return dict(_AUTHENTICATE)
    if isinstance(error, Conflict) and error.current_version is not None:
        return {"ETag": f'"v{error.current_version}"'}
    if isinstance(error, Unavailable | ProfileError):
        return {"Retry-After": RETRY_AFTER_SECONDS}
    if isinstance(error, RateLimited):
        return {"Retry-After": str(error.retry_after)}
    return {}


def _extras(error: DealerAssistError) -> dict[str, Any]:
    if isinstance(error, ShiftEnded):
        return {"code": error.code, **error.ended}
    if error.code is not None:
        return {"code": error.code}
    if isinstance(error, Conflict):
        return {"current_version": error.current_version}
    if isinstance(error, InvalidFields):  # a schema's field errors, or the service's
        return {"errors": error.errors}
    if isinstance(error, RateLimited):
        return {"retry_after": error.retry_after, **error.details}
    return {}


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    return problem(status, error.name, error.description, headers=headers)


def _redis_error(error: redis.RedisError) -> Response:
    current_app.logger.warning("Redis error (%s %s): %s", request.method, request.path, error)
    headers = {"Retry-After": RETRY_AFTER_SECONDS}
    detail = f"Redis: {error}" if sees_backend_details() else says.BACKEND_DOWN()
    return problem(503, "Service unavailable", detail, "unavailable", headers)


def _unexpected(error: Exception) -> Response:
    current_app.logger.exception("unexpected error", exc_info=error)
    return problem(500, "Internal error", says.UNEXPECTED(), "internal")


def register_error_handlers(app: Flask) -> None:
    """Route every error the app can raise to a problem+json answer."""
    app.register_error_handler(DealerAssistError, _dealerassist_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(redis.RedisError, _redis_error)
    app.register_error_handler(Exception, _unexpected)
