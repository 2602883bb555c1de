"""Browsing routes: the audit store's tables and hands, one hand replayed step by step
(auditor, admin), and the floor's tables (floor, admin); and their part of the OpenAPI
document (``openapi_paths``).

Scope: a token limited to some tables sees only those, on every route here: a list holds
only its tables (read by table, never all then filtered) and naming another table is a 403.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, url_for
from marshmallow import fields, validate

from dealerassist.api import messages as says
from dealerassist.api.auth import Role, current_token, requires
from dealerassist.api.errors import problem
from dealerassist.api.http import no_query, query_args, services
from dealerassist.api.schemas import TABLE_ID_PATTERN, FullMatch, StrictSchema
from dealerassist.errors import Forbidden
from dealerassist.service import audit_browse as use_cases
from dealerassist.service.audit import VerifyScopeTooLarge

blueprint = Blueprint("audit_browse", __name__)
AUDITORS = (Role.AUDITOR, Role.ADMIN)
FLOOR = (Role.FLOOR, Role.ADMIN)
TOO_LARGE = 422


class HandsQuerySchema(StrictSchema):
    """GET /v1/audit/hands query string."""

    table_id = fields.String(validate=FullMatch(TABLE_ID_PATTERN))
    date = fields.Date(metadata={"description": "a UTC day: the hands that started on it"})
    hand_no = fields.Integer(validate=validate.Range(min=1, max=2147483647))
    limit = fields.Integer(validate=validate.Range(min=1, max=use_cases.MAX_HANDS_PAGE))
    offset = fields.Integer(validate=validate.Range(min=0, max=10**9))


_hands_query = HandsQuerySchema()


def _scope() -> frozenset[str] | None:
    """The tables this token may see (``None``: every table)."""
    return current_token().tables


def _allowed(table_id: str | None) -> None:
    if table_id is not None and not current_token().may_touch(table_id):
        raise Forbidden(says.TABLE_NOT_ALLOWED(table=repr(table_id)))


@blueprint.get("/v1/audit/tables")
@requires(*AUDITORS)
def audit_tables() -> Response:
    """The tables in the audit store (the token's), with events, hands and pace."""
    no_query()
    return jsonify(use_cases.audit_tables(services(), _scope()))


@blueprint.get("/v1/audit/hands")
@requires(*AUDITORS)
def audit_hands() -> Response:
    """The hands in the audit store by table, day and hand number, a page at a time."""
    query = query_args(_hands_query)
    _allowed(query.get("table_id"))
    return jsonify(
        use_cases.audit_hands(
            services(),
            _scope(),
            table_id=query.get("table_id"),
            on=query.get("date"),
            hand_no=query.get("hand_no"),
            limit=query.get("limit", use_cases.DEFAULT_HANDS_PAGE),
            offset=query.get("offset", 0),
        )
    )


@blueprint.get("/v1/audit/hands/<table_id>/<int(max=2147483647):hand_no>/replay")
@requires(*AUDITORS)
def hand_replay(table_id: str, hand_no: int) -> Response:
    """One hand step by step: each entry, the table after it, instructions, rulings."""
    no_query()
    try:
        return jsonify(use_cases.replay_hand(services(), table_id, hand_no))
    except VerifyScopeTooLarge as refused:
        return problem(
            TOO_LARGE,
            "Too large to replay within a request",
            refused.said or str(refused),
            "replay-too-large",
            events=refused.events,
            limit=refused.limit,
            verifications=url_for("audit.start_verification"),
        )


@blueprint.get("/v1/floor/tables")
@requires(*FLOOR)
def floor_tables() -> Response:
    """The tables this floor token may rule on: open calls, hand in play, pace."""
    no_query()
    return jsonify(use_cases.floor_tables(services(), _scope()))


# -- OpenAPI ---------------------------------------------------------------------------------

OBJECT = {"type": "object", "additionalProperties": True}
PACE = {
    "type": "object",
    "properties": {
        "session_started_at": {"type": "string", "nullable": True},
        "session_seconds": {"type": "integer"},
        "hands": {"type": "integer", "description": "hands ended in the session"},
        "hands_per_hour": {"type": "number", "description": "over the session"},
        "hands_last_hour": {"type": "integer"},
    },
}
AUDIT_TABLES = {
    "type": "object",
    "required": ["tables", "now"],
    "properties": {
        "tables": {"type": "array", "items": {"type": "object", "properties": {
            "table_id": {"type": "string"}, "events": {"type": "integer"},
            "first_at": {"type": "string"}, "last_at": {"type": "string"},
            "last_hand_no": {"type": "integer", "nullable": True},
            "hands_ended": {"type": "integer"}, "pace": PACE}}},
        "now": {"type": "string"},
    },
}  # fmt: skip
AUDIT_HANDS = {
    "type": "object",
    "required": ["hands", "count", "total", "offset", "limit"],
    "properties": {
        "hands": {"type": "array", "items": {"type": "object", "properties": {
            "table_id": {"type": "string"}, "hand_no": {"type": "integer"},
            "started_at": {"type": "string"}, "ended_at": {"type": "string", "nullable": True},
            "events": {"type": "integer"}, "complete": {"type": "boolean"},
            "winners": {"type": "object", "additionalProperties": {"type": "integer"},
                        "description": "chips won per seat"}}}},
        "count": {"type": "integer"}, "total": {"type": "integer"},
        "offset": {"type": "integer"}, "limit": {"type": "integer"},
    },
}  # fmt: skip
REPLAY = {
    "type": "object",
    "required": ["table_id", "hand_no", "steps", "count", "verified", "complete", "rulings"],
    "properties": {
        "table_id": {"type": "string"},
        "hand_no": {"type": "integer"},
        "count": {"type": "integer"},
        "verified": {"type": "boolean", "description": "every step replays as recorded"},
        "complete": {"type": "boolean", "description": "the stored events end the hand "
                     "(false: still played, or not stored whole yet)"},
        "rulings": {"type": "array", "items": {"type": "integer"},
                    "description": "the seqs of the hand's rulings"},
        "steps": {"type": "array", "items": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "at": {"type": "string"}, "kind": {"type": "string"},
            "actor": {"type": "string"}, "role": {"type": "string"},
            "command": {**OBJECT, "nullable": True, "description": "the entry as recorded"},
            "verified": {"type": "boolean"}, "problem": {"type": "string", "nullable": True},
            "refused": OBJECT, "call": OBJECT, "ruling": OBJECT,
            "table": {**OBJECT, "nullable": True, "description": "the table after it"},
            "instructions": {"type": "array", "items": OBJECT}}}},
    },
}  # fmt: skip
DEALER_ON_DUTY = {
    "type": "object",
    "nullable": True,
    "description": "the dealer the table's audit chain names on duty (null: none signed in)",
    "properties": {
        "employee_id": {"type": "string"},
        "name": {"type": "string", "nullable": True},
        "on_shift": {"type": "boolean", "description": "his shift session at this table is "
                     "live (false: it expired without a sign-out)"},
        "tablet_id": {"type": "string", "nullable": True},
        "shift_expires_at": {"type": "string", "nullable": True},
    },
}  # fmt: skip
FLOOR_TABLES = {
    "type": "object",
    "required": ["tables", "now"],
    "properties": {
        "tables": {"type": "array", "items": {"type": "object", "properties": {
            "table_id": {"type": "string"}, "version": {"type": "integer"},
            "hand_no": {"type": "integer", "nullable": True},
            "phase": {"type": "string", "nullable": True},
            "open_calls": {"type": "integer"},
            "newest_call_at": {"type": "string", "nullable": True}, "pace": PACE,
            "dealer": DEALER_ON_DUTY}}},
        "now": {"type": "string"},
    },
}  # fmt: skip


def _get(summary: str, role: str, schema: dict[str, Any], errors: tuple[int, ...],
         **extra: Any) -> dict[str, Any]:  # fmt: skip
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": schema}}}
    }
    for status in errors:
        responses[str(status)] = {"$ref": f"#/components/responses/E{status}"}
    return {"summary": summary, "description": f"Role: {role}. A token limited to some "
            "tables sees only those.", "responses": responses, **extra}  # fmt: skip


def openapi_paths() -> dict[str, dict[str, Any]]:
    """The browsing routes of the OpenAPI document."""
    table_id = {"name": "table_id", "in": "path", "required": True,
                "schema": {"type": "string", "pattern": TABLE_ID_PATTERN}}  # fmt: skip
    hand_no = {"name": "hand_no", "in": "path", "required": True,
               "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647}}  # fmt: skip
    return {
        "/v1/audit/tables": {"get": _get(
            "The tables in the audit store, with their events, hands and pace",
            "auditor, admin", AUDIT_TABLES, (400, 401, 403, 503))},
        "/v1/audit/hands": {"get": _get(
            "The hands in the audit store by table, UTC day and hand number, a page at a time",
            "auditor, admin", AUDIT_HANDS, (400, 401, 403, 503),
            parameters=[{"in": "query", "schema": HandsQuerySchema}])},
        "/v1/audit/hands/{table_id}/{hand_no}/replay": {
            "parameters": [table_id, hand_no],
            "get": _get(
                "One hand replayed step by step from the audit store: each entry, whether it "
                "replays as recorded, the table after it, the instructions, the rulings; 422 "
                "when the table's history up to the hand is too long for one request",
                "auditor, admin", REPLAY, (400, 401, 403, 404, 422, 503))},
        "/v1/floor/tables": {"get": _get(
            "The tables the floor may rule on: open calls, the hand in play, session clock "
            "and hands per hour", "floor, admin", FLOOR_TABLES, (400, 401, 403, 503))},
    }  # fmt: skip
