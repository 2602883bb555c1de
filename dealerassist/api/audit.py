"""Audit routes (auditor, admin): export events, one hand as JSON or PHH, verify the log.

Verify within the request (``GET /verify``, small scopes: above the limit a 422 names the
jobs route) or as a job (``POST /verifications`` -> 202 + ``Location``, then
``GET /verifications/{id}`` until it is ``finished`` or ``failed``).

A table-scoped token (``tables = [...]`` in the tokens file) sees and verifies its tables
only, on every route: naming another table is a 403; naming none means its tables (not the
whole store) for the export, the verify and a verification job; a job that covers another
table (or the whole store) is a 403 to it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from flask import Blueprint, Response, jsonify, stream_with_context, url_for

from dealerassist.api import messages as says
from dealerassist.api.auth import Role, current_token, requires
from dealerassist.api.errors import RETRY_AFTER_SECONDS, problem
from dealerassist.api.http import json_body, no_query, query_args, services
from dealerassist.api.schemas import (
    AuditCollectionsQuerySchema,
    AuditEventsQuerySchema,
    AuditHandQuerySchema,
    AuditVerifyQuerySchema,
    StartVerificationSchema,
)
from dealerassist.audit import collection_report
from dealerassist.audit.export import checkpoint_lines, to_csv_lines, to_jsonl_lines
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.errors import Forbidden, RateLimited
from dealerassist.service import audit as use_cases
from dealerassist.telemetry.metrics import record_verification

blueprint = Blueprint("audit", __name__, url_prefix="/v1/audit")
AUDITORS = (Role.AUDITOR, Role.ADMIN)
_events_query = AuditEventsQuerySchema()
_hand_query = AuditHandQuerySchema()
_verify_query = AuditVerifyQuerySchema()
_start_verification = StartVerificationSchema()
TOO_LARGE = 422  # well-formed, but not for this route: the same scope as a job will do
MIMETYPES = {"jsonl": "application/x-ndjson", "csv": "text/csv"}


def _scoped(table_id: str | None) -> frozenset[str] | None:
    """Check ``table_id`` against the token's scope; the tables a request that names none
    covers (``None``: every table, for a token without a scope)."""
    token = current_token()
    if table_id is not None and not token.may_touch(table_id):
        raise Forbidden(says.TABLE_NOT_ALLOWED(table=repr(table_id)))
    return None if table_id is not None else token.tables


@blueprint.get("/events")
@requires(*AUDITORS)
def events() -> Response:
    """Stream the events (``format=jsonl`` default, or ``csv``)."""
    query = query_args(_events_query)
    tables = _scoped(query.get("table_id"))
    found = use_cases.audit_events(
        services(), query.get("table_id"), query.get("since"), query.get("until"), tables
    )
    fmt = query.get("format", "jsonl")
    if fmt == "csv":
        lines: Iterable[str] = to_csv_lines(found)
    else:  # the download ends with the signed checkpoints that verify it against deletion
        signed = use_cases.audit_checkpoints(services(), _may_see(query.get("table_id")))
        lines = chain(to_jsonl_lines(found), checkpoint_lines(signed))
    return Response(stream_with_context(_primed(lines)), mimetype=MIMETYPES[fmt])


def _may_see(table_id: str | None) -> Callable[[str], bool]:
    """The tables whose checkpoint heads an export shows: its scope, within the token's."""
    token = current_token()
    return lambda name: token.may_touch(name) and table_id in (None, name)


@blueprint.get("/checkpoints")
@requires(*AUDITORS)
def checkpoints() -> Response:
    """The signed checkpoints as JSONL (``{"checkpoint": ...}`` lines; heads of the tables
    this token sees, the signature still verifies)."""
    no_query()
    signed = use_cases.audit_checkpoints(services(), _may_see(None))
    return Response(stream_with_context(checkpoint_lines(signed)), mimetype=MIMETYPES["jsonl"])


def _primed(lines: Iterable[str]) -> Iterator[str]:
    """Read the first line before the response starts, so a store error is still a 503."""
    iterator = iter(lines)
    first = next(iterator, None)
    return iter(()) if first is None else chain([first], iterator)


@blueprint.get("/hands/<table_id>/<int(max=2147483647):hand_no>")
@requires(*AUDITORS)
def hand(table_id: str, hand_no: int) -> Response:
    """One audited hand as JSON (default) or PHH text, once stored whole: before that a 409
    (``reason``: ``in_play``, or ``draining`` with Retry-After) that links the live hand."""
    query = query_args(_hand_query)
    try:
        record: dict[str, Any] = use_cases.audit_hand(services(), table_id, hand_no)
    except use_cases.HandIncomplete as incomplete:
        draining = incomplete.reason == use_cases.HandIncomplete.DRAINING
        return problem(
            409, "Hand not stored whole", incomplete.said or str(incomplete), "hand-incomplete",
            {"Retry-After": RETRY_AFTER_SECONDS} if draining else None,
            reason=incomplete.reason,
            live=url_for("tables.get_hand", table_id=table_id, hand_no=hand_no),
        )  # fmt: skip
    if query.get("format") == "phh":
        return Response(hand_to_phh(record, services().profiles.version), mimetype="text/plain")
    return jsonify({"table_id": table_id, "hand_no": hand_no, "live": False, "hand": record})


@blueprint.get("/alerts")
@requires(Role.FLOOR, *AUDITORS)
def alerts() -> Response:
    """Tables whose chain forked (both branches kept) or whose events the store refuses
    (isolated): the floor closes such a table, the auditor reads the quarantine."""
    no_query()
    token = current_token()
    return jsonify(use_cases.audit_alerts(services(), token.may_touch))


@blueprint.get("/verify")
@requires(*AUDITORS)
def verify() -> Response:
    """Verify the chains (one table or all) and replay the hands."""
    query = query_args(_verify_query)
    tables = _scoped(query.get("table_id"))
    caller = current_token().name
    try:
        report = use_cases.verify_log(services(), query.get("table_id"), tables, caller)
        record_verification("request", bool(report.get("ok")), time.time())
        return jsonify(report)
    except RateLimited as limited:
        return problem(
            429, "Too many synchronous verifies",
            says.VERIFY_LIMITED(
                why=limited.said or str(limited),
                url=url_for("audit.start_verification"),
                retry=limited.retry_after,
            ),
            "rate-limited", {"Retry-After": str(limited.retry_after)},
            retry_after=limited.retry_after,
            verifications=url_for("audit.start_verification"),
            **limited.details,
        )  # fmt: skip
    except use_cases.VerifyScopeTooLarge as refused:
        return problem(
            TOO_LARGE,
            "Too large to verify within a request",
            says.VERIFY_AS_JOB(
                why=refused.said or str(refused), url=url_for("audit.start_verification")
            ),
            "verify-scope-too-large",
            events=refused.events,
            limit=refused.limit,
            verifications=url_for("audit.start_verification"),
        )


@blueprint.post("/verifications")
@requires(*AUDITORS)
def start_verification() -> Response:
    """Queue a verification job (one table, or all): 202 with its Location."""
    body = json_body(_start_verification, optional=True)
    tables = _scoped(body.get("table_id"))
    job = use_cases.start_verification(services(), body.get("table_id"), tables)
    response = jsonify(job.to_dict())
    response.status_code = 202
    response.headers["Location"] = url_for("audit.verification", verification_id=job.id)
    return response


@blueprint.get("/verifications/<verification_id>")
@requires(*AUDITORS)
def verification(verification_id: str) -> Response:
    """A verification job: queued, running, finished (with its report) or failed."""
    no_query()
    job = use_cases.verification(services(), verification_id)
    allowed = current_token().tables
    if allowed is not None and not job.covers_only(allowed):
        raise Forbidden(says.VERIFICATION_OUT_OF_SCOPE())
    return jsonify(job.to_dict())


_collections_query = AuditCollectionsQuerySchema()


@blueprint.get("/collections")
@requires(*AUDITORS)
def collections() -> Response:
    """The cage's collection report: rake, jackpot drop and time per gaming day, table and
    dealer, the jackpot's running total and the check against the hands (``format=json``
    default, or ``csv``: the rows). A table-scoped token sees only its tables."""
    query = query_args(_collections_query)
    _scoped(query.get("table_id"))
    report = use_cases.collections(
        services(),
        current_token().may_touch,
        query.get("table_id"),
        query.get("since"),
        query.get("until"),
        query.get("day_start_hour", 0),
    )
    if query.get("format") == "csv":
        return Response(collection_report.to_csv_lines(report), mimetype=MIMETYPES["csv"])
    return jsonify(report)
