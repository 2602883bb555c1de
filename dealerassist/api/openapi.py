"""The OpenAPI 3 document, generated from the marshmallow request schemas (apispec).

Response bodies are described here as JSON Schema; every error is a ``Problem``. Every
operation has an ``operationId``, and the answers that name a table or a hand link to the
operations a client calls next (create a table → read it, seat, start a hand, act; a hand
→ its audit record), so a client (or schemathesis's stateful phase) can follow them. Given
the installed profiles' games, ``CreateTable`` is one alternative per profile, each with
that profile's variant, structure and the stakes its structure and forced bets need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from dealerassist import __version__
from dealerassist.api import audit_browse, profiles, rulings, schemas, shifts
from dealerassist.api.errors import PROBLEM_MIME
from dealerassist.rules.model.actions import ActionKind
from dealerassist.rules.model.house_rules import ForcedBets, GameRules, Structure

NULLABLE_INT = {"type": "integer", "nullable": True}
OBJECT = {"type": "object", "additionalProperties": True}

PROBLEM = {
    "type": "object",
    "required": ["type", "title", "status"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "rule_id": {"type": "string", "nullable": True},
        "seat": NULLABLE_INT,
        "allowed": {"type": "array", "items": OBJECT},
        "version": {"type": "integer"},
        "current_version": NULLABLE_INT,
        "event": {"$ref": "#/components/schemas/EventRef"},
        "errors": OBJECT,
        "checks": OBJECT,
    },
    "additionalProperties": True,
}

TABLE = {
    "type": "object",
    "required": ["table_id", "version", "seats"],
    "properties": {
        "table_id": {"type": "string"},
        "version": {"type": "integer", "minimum": 0},
        "variant": {"type": "string"},
        "structure": {"type": "string"},
        "profile": {"type": "string"},
        "mode": {"type": "string", "enum": ["count", "card"]},
        "button": NULLABLE_INT,
        "seats": {"type": "array", "items": OBJECT},
        "hand": {**OBJECT, "nullable": True},
        "next": {**OBJECT, "nullable": True},
        "instructions": {"type": "array", "items": OBJECT},
        "result": {**OBJECT, "nullable": True},
    },
    "additionalProperties": True,
}

EVENT_REF = {
    "type": "object",
    "required": ["seq", "hash"],
    "properties": {"seq": {"type": "integer", "minimum": 1}, "hash": {"type": "string"}},
}

ANSWER = {
    "allOf": [
        {"$ref": "#/components/schemas/Table"},
        {
            "type": "object",
            "required": ["event", "notices"],
            "properties": {
                "event": {"$ref": "#/components/schemas/EventRef"},
                "notices": {"type": "array", "items": OBJECT},
            },
        },
    ]
}

HAND = {
    "type": "object",
    "required": ["table_id", "hand_no", "live", "hand"],
    "properties": {
        "table_id": {"type": "string"},
        "hand_no": {"type": "integer"},
        "live": {"type": "boolean"},
        "hand": OBJECT,
    },
}

VERIFY = {
    "type": "object",
    "required": ["ok", "events", "hands", "problems"],
    "properties": {
        "ok": {"type": "boolean"},
        "events": {"type": "integer"},
        "hands": {"type": "integer"},
        "problems": {"type": "array", "items": OBJECT},
    },
    "additionalProperties": True,
}

STATUS = {
    "type": "object",
    "required": ["status"],
    "properties": {
        "status": {"type": "string"},
        "checks": OBJECT,
        "partitions": {"type": "array", "items": OBJECT},
        "warnings": {"type": "array", "items": {"type": "string"}},
    },
}

_ERROR_TEXT = {
    400: "malformed body, wrong types or unknown fields",
    401: (
        "no or unknown bearer token; a dealer's shift session that was ended early is code "
        "shift_ended with its reason (pushed, signed_in_elsewhere, sign_out, tablet_revoked, "
        "ended_by_floor), ended_at and by_employee_id, by_name or by_tablet"
    ),
    403: "the token's role or table scope does not allow this",
    404: "no such table, seat, hand or signed-in dealer",
    409: "rule violation (rule_id, seat, allowed) or the table exists already",
    412: "If-Match names a stale version (current_version in the body)",
    413: "body larger than 64 KB",
    414: "request line longer than 4094 bytes (any route)",
    415: "body is not application/json",
    422: "Idempotency-Key reused with another body",
    429: "too many: refused entries from this token (the refusal's rule_id, seat and allowed, "
    "`stored`: whether it was recorded), synchronous verifies, or open floor calls at the table "
    "or from the token; see Retry-After",
    431: "a header field longer than 8190 bytes, or more than 64 fields (any route)",
    503: "Redis or the audit store is unavailable",
}

READ_ERRORS = (400, 401, 403, 404, 503)
WRITE_ERRORS = (400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503)


def _json(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


def _responses(ok: dict[str, Any], errors: tuple[int, ...]) -> dict[str, Any]:
    responses = dict(ok)
    for status in errors:
        responses[str(status)] = {"$ref": f"#/components/responses/E{status}"}
    return responses


def _table_answer(status: str, text: str) -> dict[str, Any]:
    return {status: {"description": text, "headers": _etag(), "content": _json("Answer")}}


def _etag() -> dict[str, Any]:
    return {"ETag": {"schema": {"type": "string"}, "description": 'the version, "v<n>"'}}


def _path(name: str, schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema, "description": text}


TABLE_ID = _path("table_id", {"type": "string", "pattern": schemas.TABLE_ID_PATTERN}, "table ID")
SEAT = _path("seat", {"type": "integer", "minimum": 1, "maximum": 10}, "seat number")
HAND_NO = _path(
    "hand_no", {"type": "integer", "minimum": 1, "maximum": 2147483647}, "hand number, from 1"
)
WRITE_HEADERS = ["IfMatch", "IdempotencyKey"]  # apispec turns component names into $refs


def _body(schema: str, required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": _json(schema)}


def _write(
    summary: str, role: str, body: str | None, ok: dict[str, Any], required: bool = True
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "description": f"Role: {role}.",
        "parameters": list(WRITE_HEADERS),
        "responses": _responses(ok, WRITE_ERRORS),
    }
    if body is not None:
        operation["requestBody"] = _body(body, required)
    return operation


def _read(summary: str, role: str, ok: dict[str, Any], errors: tuple[int, ...] = READ_ERRORS,
          parameters: list[Any] | None = None) -> dict[str, Any]:  # fmt: skip
    operation: dict[str, Any] = {
        "summary": summary,
        "description": f"Role: {role}.",
        "responses": _responses(ok, errors),
    }
    if parameters:
        operation["parameters"] = parameters
    return operation


def _public(summary: str, ok: dict[str, Any], errors: tuple[int, ...] = ()) -> dict[str, Any]:
    return {"summary": summary, "security": [], "responses": _responses(ok, errors)}


def build_spec(profiles: Sequence[str] | Mapping[str, GameRules] = ()) -> dict[str, Any]:
    """The whole OpenAPI document as a dict. ``profiles``: the profiles a table may name, by
    ID, or each with its game (then ``CreateTable`` says the game and stakes each needs)."""
    spec = APISpec(
        title="dealerassist",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={
            "description": "Dealer assist for live draw-poker tables. Any route answers 414 "
            "(request line over 4094 bytes) or 431 (a header field over 8190 bytes, or over "
            "64 fields) as problem+json."
        },
        security=[{"bearer": []}],
    )
    _components(spec, sorted(profiles))
    for path, item in _paths().items():
        operations = {key: value for key, value in item.items() if key != "parameters"}
        spec.path(path=path, operations=operations, parameters=item.get("parameters"))
    document = spec.to_dict()
    if isinstance(profiles, Mapping) and profiles:
        _create_table_per_profile(document["components"]["schemas"], profiles)
    _operation_ids_and_links(document["paths"])
    return document


# -- every operation's ID, and the links between them ------------------------------------

OPERATION_IDS = {
    ("/v1/tables", "post"): "createTable",
    ("/v1/tables/{table_id}", "get"): "getTable",
    ("/v1/tables/{table_id}/seats/{seat}", "put"): "seatPlayer",
    ("/v1/tables/{table_id}/seats/{seat}", "delete"): "removePlayer",
    ("/v1/tables/{table_id}/seats/{seat}/changes", "post"): "changeSeat",
    ("/v1/tables/{table_id}/hands", "post"): "startHand",
    ("/v1/tables/{table_id}/hands/{hand_no}", "get"): "getHand",
    ("/v1/tables/{table_id}/actions", "post"): "recordAction",
    ("/v1/tables/{table_id}/rulings", "post"): "rule",
    ("/v1/rulings/options", "get"): "rulingOptions",
    ("/v1/tables/{table_id}/floor-calls", "post"): "callTheFloor",
    ("/v1/floor/calls", "get"): "openFloorCalls",
    ("/v1/floor/calls/{call_id}", "get"): "getFloorCall",
    ("/v1/floor/tables", "get"): "floorTables",
    ("/v1/profiles/{profile_id}", "get"): "getProfile",
    ("/v1/audit/events", "get"): "auditEvents",
    ("/v1/audit/hands/{table_id}/{hand_no}", "get"): "auditHand",
    ("/v1/audit/hands/{table_id}/{hand_no}/replay", "get"): "replayAuditHand",
    ("/v1/audit/hands", "get"): "auditHands",
    ("/v1/audit/tables", "get"): "auditTables",
    ("/v1/audit/verify", "get"): "verify",
    ("/v1/audit/verifications", "post"): "startVerification",
    ("/v1/audit/verifications/{verification_id}", "get"): "getVerification",
    ("/healthz", "get"): "healthz",
    ("/readyz", "get"): "readyz",
    ("/metrics", "get"): "metrics",
    ("/v1/dealers/{employee_id}", "put"): "setDealer",
    ("/v1/dealers", "get"): "listDealers",
    ("/v1/tablets", "post"): "registerTablet",
    ("/v1/tablets", "get"): "listTablets",
    ("/v1/tablets/{tablet_id}", "delete"): "revokeTablet",
    ("/v1/tablets/pair", "post"): "pairTablet",
    ("/v1/tablet", "get"): "tabletStatus",
    ("/v1/tablet/sign-in", "post"): "signIn",
    ("/v1/shift", "get"): "getShift",
    ("/v1/shift/table", "post"): "takeTable",
    ("/v1/shift/sign-out", "post"): "signOut",
    ("/v1/floor/dealers/{employee_id}/sign-out", "post"): "endDealersShift",
}
TABLE_OF_ANSWER = {"table_id": "$response.body#/table_id"}
HAND_OF_ANSWER = {"table_id": "$response.body#/table_id", "hand_no": "$response.body#/hand/hand_no"}
HAND_OF_RECORD = {"table_id": "$response.body#/table_id", "hand_no": "$response.body#/hand_no"}
_AT_THE_TABLE = ("getTable", "seatPlayer", "startHand", "recordAction", "changeSeat")
LINKS: dict[tuple[str, str, str], dict[str, tuple[str, dict[str, str]]]] = {
    ("createTable", "201", ""): {op: (op, TABLE_OF_ANSWER) for op in _AT_THE_TABLE},
    ("seatPlayer", "200", ""): {op: (op, TABLE_OF_ANSWER) for op in _AT_THE_TABLE},
    ("changeSeat", "200", ""): {op: (op, TABLE_OF_ANSWER) for op in ("getTable", "startHand")},
    ("startHand", "200", ""): {
        "recordAction": ("recordAction", TABLE_OF_ANSWER),
        "getTable": ("getTable", TABLE_OF_ANSWER),
        "rule": ("rule", TABLE_OF_ANSWER),
        "callTheFloor": ("callTheFloor", TABLE_OF_ANSWER),
        "getHand": ("getHand", HAND_OF_ANSWER),
        "auditHand": ("auditHand", HAND_OF_ANSWER),
    },
    ("recordAction", "200", ""): {
        "recordAction": ("recordAction", TABLE_OF_ANSWER),
        "startHand": ("startHand", TABLE_OF_ANSWER),
        "getHand": ("getHand", HAND_OF_ANSWER),
    },
    ("rule", "200", ""): {"getHand": ("getHand", HAND_OF_ANSWER)},
    ("getHand", "200", ""): {
        "auditHand": ("auditHand", HAND_OF_RECORD),
        "replayAuditHand": ("replayAuditHand", HAND_OF_RECORD),
    },
    ("startVerification", "202", ""): {
        "getVerification": ("getVerification", {"verification_id": "$response.body#/id"})
    },
}


def _operation_ids_and_links(paths: dict[str, Any]) -> None:
    for path, item in paths.items():
        for method, operation in item.items():
            if method != "parameters":  # a route without a name here still gets a unique one
                operation["operationId"] = OPERATION_IDS.get((path, method)) or _fallback_id(
                    path, method
                )
    by_id = {
        operation["operationId"]: operation
        for item in paths.values()
        for method, operation in item.items()
        if method != "parameters"
    }
    for (operation_id, status, _), links in LINKS.items():
        response = by_id[operation_id]["responses"][status]
        response["links"] = {
            name: {"operationId": target, "parameters": dict(parameters)}
            for name, (target, parameters) in links.items()
        }


def _fallback_id(path: str, method: str) -> str:
    """``GET /v1/floor/calls/{call_id}`` → ``get_v1_floor_calls_call_id``."""
    words = [part.strip("{}").replace("-", "_") for part in path.split("/") if part]
    return "_".join([method, *words])


# -- CreateTable: one alternative per installed profile, as strict as the validation ---------


def _stakes_schema(structure: Structure, forced_bets: ForcedBets) -> dict[str, Any]:
    """The stakes a table of that structure and forced bets needs (rules/table/table_setup.py):
    blinds need a big blind, antes an ante, and what the game does not play is 0; fixed limit
    bets a small and a big bet (0 or left out: the big blind and twice it). The order the
    validation also checks (small blind ≤ big blind ≤ small bet ≤ big bet) is in the text."""
    chips = {"type": "integer", "minimum": 0, "maximum": 10**12}
    some = {**chips, "minimum": 1}
    none = {"type": "integer", "enum": [0]}
    blinds = forced_bets is not ForcedBets.ANTES
    antes = forced_bets is not ForcedBets.BLINDS
    properties = {
        "small_blind": chips if blinds else none,
        "big_blind": some if blinds else none,
        "ante": some if antes else none,
        "small_bet": chips,
        "big_bet": chips,
        "min_bet": chips,
    }
    required = (["big_blind"] if blinds else []) + (["ante"] if antes else [])
    order = "small blind ≤ big blind" + (
        " ≤ small bet ≤ big bet" if structure is Structure.FIXED_LIMIT else ""
    )
    return {
        "type": "object",
        "description": f"{structure}, {forced_bets}: {order}",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _create_table_per_profile(schemas_: dict[str, Any], profiles: Mapping[str, GameRules]) -> None:
    """The fields stay as they are (the admin page reads ``properties.profile.enum``), and
    ``oneOf`` adds one alternative per profile that fixes its game and stakes."""
    create = schemas_["CreateTable"]
    alternatives = []
    for profile_id in sorted(profiles):
        game = profiles[profile_id]
        stakes = f"Stakes_{game.structure}_{game.forced_bets}"
        schemas_.setdefault(stakes, _stakes_schema(game.structure, game.forced_bets))
        alternatives.append(
            {
                "title": profile_id,
                "properties": {
                    "profile": {"type": "string", "enum": [profile_id]},
                    "variant": {"type": "string", "enum": [str(game.variant)]},
                    "structure": {"type": "string", "enum": [str(game.structure)]},
                    "stakes": {"$ref": f"#/components/schemas/{stakes}"},
                },
            }
        )
    create["description"] = (
        "One alternative per installed profile: its game, and the stakes that game needs "
        "(a table must fit its profile, GAME-01..06)."
    )
    create["oneOf"] = alternatives


def _components(spec: APISpec, profile_ids: Sequence[str]) -> None:
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("CreateTable", schema=schemas.CreateTableSchema)
    if profile_ids:
        create = spec.components.schemas["CreateTable"]
        create["properties"]["profile"]["enum"] = list(profile_ids)
    for name, schema in (
        ("Seat", schemas.SeatSchema),
        ("SeatChange", schemas.SeatChangeSchema),
        ("StartHand", schemas.StartHandSchema),
        ("Action", schemas.ActionSchema),
        ("Undo", schemas.UndoSchema),
    ):
        spec.components.schema(name, schema=schema)
    for name, body in (
        ("Problem", PROBLEM),
        ("Table", TABLE),
        ("EventRef", EVENT_REF),
        ("Answer", ANSWER),
        ("Hand", HAND),
        ("VerifyReport", VERIFY),
        ("Status", STATUS),
    ):
        spec.components.schema(name, body)
    profiles.openapi_components(spec)
    rulings.openapi_components(spec)
    shifts.openapi_components(spec)
    for status, text in _ERROR_TEXT.items():
        content = {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}
        spec.components.response(f"E{status}", {"description": text, "content": content})
    spec.components.parameter(
        "IfMatch", "header",
        {"name": "If-Match", "schema": {"type": "string"},
         "description": 'the version the client saw, "v41"'},
    )  # fmt: skip
    spec.components.parameter(
        "IfNoneMatch", "header",
        {"name": "If-None-Match", "schema": {"type": "string"},
         "description": 'the ETag the client holds; 304 if the table is still at it'},
    )  # fmt: skip
    spec.components.parameter(
        "IdempotencyKey", "header",
        {"name": "Idempotency-Key", "schema": {"type": "string", "minLength": 1, "maxLength": 255},
         "description": "the same key and body returns the first answer again, applied once"},
    )  # fmt: skip


def _paths() -> dict[str, dict[str, Any]]:
    table_ok = {
        "200": {"description": "the table", "headers": _etag(), "content": _json("Table")},
        "304": {"description": "unchanged since the If-None-Match ETag", "headers": _etag()},
    }
    actions = ", ".join(kind.value for kind in ActionKind)
    return {
        "/v1/tables": {
            "post": _write("Create a table", "admin", "CreateTable",
                           _table_answer("201", "the new table")),
        },
        "/v1/tables/{table_id}": {
            "parameters": [TABLE_ID],
            "get": _read("The table's state, next seat and legal actions", "any", table_ok,
                         parameters=["IfNoneMatch"]),
        },
        "/v1/tables/{table_id}/seats/{seat}": {
            "parameters": [TABLE_ID, SEAT],
            "put": _write("Seat a player", "dealer, floor", "Seat",
                          _table_answer("200", "the table after seating")),
            "delete": _write("The player leaves", "dealer, floor", None,
                             _table_answer("200", "the table after the player left")),
        },
        "/v1/tables/{table_id}/seats/{seat}/changes": {
            "parameters": [TABLE_ID, SEAT],
            "post": _write("Between hands: sit out, return, change seat, add chips",
                           "dealer, floor", "SeatChange",
                           _table_answer("200", "the table after the change")),
        },
        "/v1/tables/{table_id}/hands": {
            "parameters": [TABLE_ID],
            "post": _write("Start the next hand", "dealer", "StartHand",
                           _table_answer("200", "the table with the new hand"), required=False),
        },
        "/v1/tables/{table_id}/hands/{hand_no}": {
            "parameters": [TABLE_ID, HAND_NO],
            "get": _read("One hand's record", "any",
                         {"200": {"description": "the hand", "content": _json("Hand")}}),
        },
        "/v1/tables/{table_id}/actions": {
            "parameters": [TABLE_ID],
            "post": _write(f"Record one action ({actions})", "dealer", "Action",
                           _table_answer("200", "the table after the action")),
        },
        "/v1/tables/{table_id}/undo": {
            "parameters": [TABLE_ID],
            "post": _write("Take back the hand's last action before the next entry: a "
                           "correction (a void_last ruling by the dealer), never a deletion; "
                           "If-Match is required (the version the entry produced); 409 once "
                           "anything else was entered or the hand is over (call the floor)",
                           "dealer or floor", "Undo",
                           _table_answer("200", "the table with the entry taken back"),
                           required=False),
        },
        **profiles.openapi_paths(),
        **_audit_paths(),
        **rulings.openapi_paths(),
        **audit_browse.openapi_paths(),
        **shifts.openapi_paths(),
        "/healthz": {"get": _public("Liveness", {"200": {"description": "up",
                                                         "content": _json("Status")}})},
        "/metrics": {"get": {
            **_read("Prometheus metrics: every process's counts, each Redis's backlog, health",
                    "monitor or admin",
                    {"200": {"description": "Prometheus text format 0.0.4",
                             "content": {"text/plain": {"schema": {"type": "string"}}}}},
                    (400, 401, 403)),
        }},
        "/readyz": {"get": {
            **_public("Readiness: audit store, workers; Redis, drain backlog of each partition",
                      {"200": {"description": "ready or degraded (some partitions fail)",
                               "content": _json("Status")}},
                      (400, 503)),
            "parameters": [{"in": "query", "name": "partition", "required": False,
                            "description": "one Redis partition (from 1) alone",
                            "schema": {"type": "integer", "minimum": 1}}],
        }},
    }  # fmt: skip


def _audit_paths() -> dict[str, dict[str, Any]]:
    events_ok = {
        "200": {
            "description": "events ordered by (table_id, seq), streamed",
            "content": {
                "application/x-ndjson": {"schema": {"type": "string"}},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    }
    hand_ok = {
        "200": {
            "description": "the hand record (json) or its PHH text, stored whole",
            "content": {**_json("Hand"), "text/plain": {"schema": {"type": "string"}}},
        },
        "409": {
            "description": "the hand is not stored whole yet: `reason` is `in_play` (still "
            "played at the table; `live` links its live view) or `draining` (ended, its "
            "events on their way to the store: retry after Retry-After)",
            "content": {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        },
    }
    verify_ok = {"200": {"description": "the report", "content": _json("VerifyReport")}}
    query = {"in": "query", "schema": schemas.AuditEventsQuerySchema}
    return {
        "/v1/audit/events": {
            "get": _read("Export audit events (jsonl or csv)", "auditor, admin", events_ok,
                         (400, 401, 403, 503), [query]),
        },
        "/v1/audit/hands/{table_id}/{hand_no}": {
            "parameters": [TABLE_ID, HAND_NO],
            "get": _read("One audited hand (json or phh)", "auditor, admin", hand_ok,
                         parameters=[{"in": "query", "schema": schemas.AuditHandQuerySchema}]),
        },
        "/v1/audit/verify": {
            "get": {**_read("Verify hash chains and replay hands (small scopes)",
                            "auditor, admin", {**verify_ok, **TOO_LARGE},
                            (400, 401, 403, 429, 503),
                            [{"in": "query", "schema": schemas.AuditVerifyQuerySchema}])},
        },
        "/v1/audit/checkpoints": {
            "get": _read("Signed checkpoints of the tables' chain heads (JSONL)", "auditor, admin",
                         {"200": {"description": "one {\"checkpoint\": ...} a line",
                                  "content": {"application/x-ndjson":
                                              {"schema": {"type": "string"}}}}},
                         (400, 401, 403, 503)),
        },
        "/v1/audit/alerts": {
            "get": _read("Forked chains and isolated tables (the tables this token sees)",
                         "floor, auditor, admin",
                         {"200": {"description": "the alerts", "content": ALERTS}},
                         (400, 401, 403, 503)),
        },
        **_verification_paths(),
        **_collection_paths(),
    }  # fmt: skip


def _collection_paths() -> dict[str, dict[str, Any]]:
    """RAKE-01..05: the cage's collection report."""
    report_ok = {
        "200": {
            "description": "rake, jackpot drop and time per gaming day, table and dealer, the "
            "jackpot's running total and the check against the hands (json), or the rows (csv)",
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    }
    query = {"in": "query", "schema": schemas.AuditCollectionsQuerySchema}
    return {
        "/v1/audit/collections": {
            "get": _read("The collection report for the cage (json or csv)", "auditor, admin",
                         report_ok, (400, 401, 403, 503), [query]),
        },
    }  # fmt: skip


ALERTS = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["ok", "forked", "isolated"],
            "properties": {
                "ok": {"type": "boolean"},
                "forked": {
                    "type": "array",
                    "description": "a different event met a stored (table_id, seq): the "
                    "newcomer and the table's later events wait in quarantine",
                    "items": {
                        "type": "object",
                        "properties": {
                            "table_id": {"type": "string"},
                            "from_seq": {"type": "integer"},
                            "quarantined": {"type": "integer"},
                        },
                    },
                },
                "isolated": {
                    "type": "array",
                    "description": "the store refuses these tables' events (the reason); "
                    "they wait in Redis and in the failed registry",
                    "items": {
                        "type": "object",
                        "properties": {
                            "table_id": {"type": "string"},
                            "reason": {"type": "string"},
                        },
                    },
                },
            },
        }
    }
}


VERIFICATION = {
    "type": "object",
    "required": ["id", "status", "table_id", "result", "error", "enqueued_at", "ended_at"],
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["queued", "running", "finished", "failed"]},
        "table_id": {"type": "string", "nullable": True},
        "tables": {
            "type": "array",
            "items": {"type": "string"},
            "nullable": True,
            "description": "the tables verified when the job names no one table (those of a "
            "table-scoped token); with neither, every table",
        },
        "result": {**VERIFY, "nullable": True, "description": "the report, once finished"},
        "error": {"type": "string", "nullable": True, "description": "why it failed"},
        "enqueued_at": {"type": "string", "format": "date-time", "nullable": True},
        "ended_at": {"type": "string", "format": "date-time", "nullable": True},
    },
}
TOO_LARGE = {
    "422": {
        "description": "more events in scope than one request verifies (or out of time): "
        "POST /v1/audit/verifications instead (`events`, `limit`, `verifications`)",
        "content": {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
}


def _verification_paths() -> dict[str, dict[str, Any]]:
    job = {"application/json": {"schema": VERIFICATION}}
    location = {
        "Location": {
            "schema": {"type": "string"},
            "description": "/v1/audit/verifications/{verification_id}",
        }
    }
    started = {"202": {"description": "queued", "headers": location, "content": job}}
    body = {
        "required": False,
        "content": {"application/json": {"schema": schemas.StartVerificationSchema}},
    }
    verification_id = _path(
        "verification_id", {"type": "string"}, "the ID the 202 answered (unknown or expired: 404)"
    )
    return {
        "/v1/audit/verifications": {
            "post": {"summary": "Verify the audit log as a job (one table, or all)",
                     "description": "Role: auditor, admin. The job runs on its own queue; "
                                    "poll its Location. The report is kept a day.",
                     "requestBody": body,
                     "responses": _responses(started, (400, 401, 403, 413, 415, 503))},
        },
        "/v1/audit/verifications/{verification_id}": {
            "parameters": [verification_id],
            "get": _read("A verification job's status, and its report once finished",
                         "auditor, admin", {"200": {"description": "the job", "content": job}},
                         (400, 401, 403, 404, 503)),
        },
    }  # fmt: skip
