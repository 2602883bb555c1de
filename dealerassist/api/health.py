"""Liveness (/healthz: the process answers) and readiness (/readyz: every backend answers).

Both are public (a load balancer has no token). Why a backend fails (its host, port,
database name or socket path) is logged, and shown in the answer only to an admin or
auditor token (``errors.BACKEND_DETAIL_ROLES``); anyone else sees which check failed.
"""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, Response, current_app, jsonify

from dealerassist.api.auth import optional_token
from dealerassist.api.errors import backend_detail, problem, sees_backend_details
from dealerassist.api.http import services
from dealerassist.errors import DealerAssistError
from dealerassist.service.audit import audit_alerts

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz() -> Response:
    """The process is up (it checks nothing else)."""
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz() -> Response:
    """Redis (and what its restart keeps), the audit store and the audit queue (its depth)
    answer; 503 names the ones that do not."""
    checks: dict[str, Any] = {}
    failed = False
    optional_token()
    try:
        ports = services()
    except DealerAssistError as error:
        current_app.logger.warning("not ready: services: %s", error)
        shown = backend_detail(str(error))
        return problem(503, "Not ready", shown, "unavailable", checks={"services": shown})
    for name, check, key in (
        ("redis", ports.tables.persistence, "persistence"),
        ("audit_store", ports.audit_store.ping, None),
        ("audit_queue", ports.audit_queue.depth, "depth"),
    ):
        try:
            value = check()
        except (DealerAssistError, redis.RedisError) as error:
            current_app.logger.warning("not ready: %s: %s", name, error)
            checks[name] = {"ok": False}
            if sees_backend_details():
                checks[name]["error"] = str(error)
            failed = True
        else:
            checks[name] = {"ok": True} if key is None else {"ok": True, key: value}
    if ports.integrity is not None:  # a forked or isolated table is not being audited
        failed = _integrity(ports, checks) or failed
    if failed:
        return problem(503, "Not ready", "a backend does not answer", "unavailable", checks=checks)
    return jsonify({"status": "ready", "checks": checks})


def _integrity(ports: Any, checks: dict[str, Any]) -> bool:
    """``checks["audit_integrity"]`` (``service.audit.audit_alerts``); True if it fails."""
    try:
        alerts = audit_alerts(ports)
    except (DealerAssistError, redis.RedisError) as error:
        current_app.logger.warning("not ready: audit_integrity: %s", error)
        checks["audit_integrity"] = {"ok": False}
        if sees_backend_details():
            checks["audit_integrity"]["error"] = str(error)
        return True
    checks["audit_integrity"] = alerts
    return not alerts["ok"]
