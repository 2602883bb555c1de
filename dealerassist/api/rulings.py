"""Floor routes: rulings (floor only), the catalog's options, and floor calls; and their
part of the OpenAPI document (``openapi_components`` / ``openapi_paths``).

Roles: only ``floor`` rules (a dealer enters, an auditor reads, an admin manages tables and
tokens: none of them decides a dispute). ``dealer`` and ``floor`` call the floor;
``floor`` and ``admin`` list the open calls; any role reads the options.
"""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec
from flask import Blueprint, Response, jsonify

from dealerassist.api import messages as says
from dealerassist.api import ruling_schemas as rs
from dealerassist.api.auth import ANY_ROLE, Role, current_token, requires
from dealerassist.api.errors import problem
from dealerassist.api.http import (
    answer_response,
    json_body,
    no_query,
    preconditions,
    query_args,
    services,
)
from dealerassist.api.schemas import TABLE_ID_PATTERN
from dealerassist.errors import Forbidden, NotFound
from dealerassist.rules.model.ruling_commands import EffectKind
from dealerassist.service import messages as told
from dealerassist.service import rulings as use_cases
from dealerassist.service.floor_calls import DEFAULT_PAGE, TooManyFloorCalls

blueprint = Blueprint("rulings", __name__)

_ruling_schema = rs.RulingSchema()
_call_schema = rs.FloorCallSchema()
_options_query = rs.RulingOptionsQuerySchema()
_calls_query = rs.FloorCallsQuerySchema()
TOO_MANY = 429
CALL_ID = re.compile(r"[0-9a-f]{1,64}")


@blueprint.post("/v1/tables/<table_id>/rulings")
@requires(Role.FLOOR)
def issue_ruling(table_id: str) -> Response:
    """A floor ruling with its corrective effects, applied in one table transaction."""
    body = json_body(_ruling_schema)
    answer = use_cases.issue_ruling(
        services(), table_id, body, current_token().actor, preconditions()
    )
    return answer_response(answer)


@blueprint.get("/v1/rulings/options")
@requires(*ANY_ROLE)
def ruling_options() -> Response:
    """The catalog's standard options for ``rule_id`` (plus custom and discretionary)."""
    query = query_args(_options_query)
    return jsonify(use_cases.ruling_options(query.get("rule_id")))


@blueprint.post("/v1/tables/<table_id>/floor-calls")
@requires(Role.DEALER, Role.FLOOR)
def open_floor_call(table_id: str) -> Response:
    """Call the floor about a refused entry (or its audit seq), or a dispute; 429 when the
    table or the caller has the most open calls allowed."""
    body = json_body(_call_schema)
    try:
        call = use_cases.open_floor_call(services(), table_id, body, current_token().actor)
    except TooManyFloorCalls as refused:
        return problem(
            TOO_MANY,
            "Too many open floor calls",
            refused.said or str(refused),
            "too-many-floor-calls",
            {"Retry-After": str(refused.retry_after)},
            scope=refused.scope,
            limit=refused.limit,
        )
    response = jsonify(call)
    response.status_code = 201
    return response


@blueprint.get("/v1/tables/<table_id>/floor-calls/<call_id>")
@requires(Role.DEALER, Role.FLOOR, Role.ADMIN)
def get_floor_call(table_id: str, call_id: str) -> Response:
    """One floor call of the table, open or closed, with the ruling that closed it."""
    if not CALL_ID.fullmatch(call_id):
        raise NotFound(told.NO_CALL(call=repr(call_id)))
    return jsonify(use_cases.get_floor_call(services(), table_id, call_id))


@blueprint.get("/v1/floor/calls")
@requires(Role.FLOOR, Role.ADMIN)
def list_floor_calls() -> Response:
    """Open floor calls at the tables this token may see (or one table), newest first, one
    page at a time: a scoped token's tables are read, never every table's then filtered."""
    query = query_args(_calls_query)
    token = current_token()
    table_id = query.get("table_id")
    if table_id is not None and not token.may_touch(table_id):
        raise Forbidden(says.TABLE_NOT_ALLOWED(table=repr(table_id)))
    tables = None if token.tables is None else sorted(token.tables)
    found = use_cases.list_floor_calls(
        services(),
        table_id,
        tables=tables,
        limit=query.get("limit", DEFAULT_PAGE),
        cursor=query.get("cursor"),
    )
    return jsonify(found)


@blueprint.get("/v1/floor/calls/<call_id>")
@requires(Role.FLOOR, Role.ADMIN)
def floor_call(call_id: str) -> Response:
    """One floor call whole: the table as it stood and the hand's entries so far."""
    no_query()
    if not CALL_ID.fullmatch(call_id):
        raise NotFound(told.NO_CALL(call=repr(call_id)))
    found = use_cases.floor_call(services(), call_id)
    if not current_token().may_touch(found["table_id"]):  # not even that it exists
        raise NotFound(told.NO_CALL(call=repr(call_id)))
    return jsonify(found)


# -- OpenAPI ---------------------------------------------------------------------------------

WRITE_ERRORS = (400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503)
CALL_ERRORS = (400, 401, 403, 404, 413, 415, 429, 503)
READ_ERRORS = (400, 401, 403, 503)
ONE_CALL_ERRORS = (400, 401, 403, 404, 503)
TABLE_ID = {
    "name": "table_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": TABLE_ID_PATTERN},
    "description": "table ID",
}


def openapi_components(spec: APISpec) -> None:
    """Add the floor routes' request and response schemas to ``spec``."""
    spec.components.schema("Effect", schema=rs.EffectSchema)
    spec.components.schema("Ruling", schema=rs.RulingSchema)
    spec.components.schema("FloorCallRequest", schema=rs.FloorCallSchema)
    spec.components.schema("RulingOption", rs.OPTION)
    spec.components.schema("RulingOptions", rs.RULING_OPTIONS)
    spec.components.schema("FloorCall", rs.FLOOR_CALL)
    spec.components.schema("FloorCalls", rs.FLOOR_CALLS)


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


def _operation(summary: str, role: str, ok: dict[str, Any], errors: tuple[int, ...],
               **extra: Any) -> dict[str, Any]:  # fmt: skip
    responses = dict(ok)
    for status in errors:
        responses[str(status)] = {"$ref": f"#/components/responses/E{status}"}
    return {"summary": summary, "description": f"Role: {role}.", "responses": responses, **extra}


def openapi_paths() -> dict[str, dict[str, Any]]:
    """The floor routes of the OpenAPI document."""
    effects = ", ".join(kind.value for kind in EffectKind)
    etag = {"ETag": {"schema": {"type": "string"}, "description": 'the version, "v<n>"'}}
    answer = {"200": {"description": "the table after the ruling", "headers": etag,
                      "content": _json("Answer")}}  # fmt: skip
    return {
        "/v1/tables/{table_id}/rulings": {
            "parameters": [TABLE_ID],
            "post": _operation(
                f"Issue a floor ruling (effects: {effects}); 409 when the engine refuses it",
                "floor (dealer, auditor and admin get 403)", answer, WRITE_ERRORS,
                parameters=["IfMatch", "IdempotencyKey"],
                requestBody={"required": True, "content": _json("Ruling")},
            ),
        },
        "/v1/tables/{table_id}/floor-calls/{call_id}": {
            "parameters": [TABLE_ID, {"name": "call_id", "in": "path", "required": True,
                                      "schema": {"type": "string"}, "description": "call ID"}],
            "get": _operation(
                "One floor call of the table, open or closed (ruling: the decision, its "
                "label, the note and the effects that closed it)",
                "dealer, floor, admin",
                {"200": {"description": "the call", "content": _json("FloorCall")}},
                (401, 403, 404, 503),
            ),
        },
        "/v1/rulings/options": {
            "get": _operation(
                "The catalog's standard ruling options for a rule", "any",
                {"200": {"description": "the options", "content": _json("RulingOptions")}},
                READ_ERRORS,
                parameters=[{"in": "query", "schema": rs.RulingOptionsQuerySchema}],
            ),
        },
        "/v1/tables/{table_id}/floor-calls": {
            "parameters": [TABLE_ID],
            "post": _operation(
                "Call the floor about a refused entry (or its audit seq) or a dispute",
                "dealer, floor",
                {"201": {"description": "the open call", "content": _json("FloorCall")}},
                CALL_ERRORS,
                requestBody={"required": True, "content": _json("FloorCallRequest")},
            ),
        },
        "/v1/floor/calls": {
            "get": _operation(
                "Open floor calls at the token's tables (or one table), newest first, a page "
                f"at a time ({DEFAULT_PAGE} by default): pass a page's next as cursor for "
                "the older ones; a listed call leaves out table and actions", "floor, admin",
                {"200": {"description": "the open calls", "content": _json("FloorCalls")}},
                READ_ERRORS,
                parameters=[{"in": "query", "schema": rs.FloorCallsQuerySchema}],
            ),
        },
        "/v1/floor/calls/{call_id}": {
            "parameters": [{"name": "call_id", "in": "path", "required": True,
                            "schema": {"type": "string", "pattern": "^[0-9a-f]{1,64}$"}}],
            "get": _operation(
                "One floor call whole (open, closed or expired): the table as it stood and "
                "the hand's entries so far; 404 for another table's call",
                "floor, admin",
                {"200": {"description": "the call", "content": _json("FloorCall")}},
                ONE_CALL_ERRORS,
            ),
        },
    }  # fmt: skip
