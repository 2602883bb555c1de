"""Dealers, registered tablets and shift sessions (``service.shifts``) over HTTP.

* admin: ``PUT /v1/dealers/{employee_id}``, ``GET /v1/dealers``, ``POST /v1/tablets``
  (answers the pairing code), ``GET /v1/tablets``, ``DELETE /v1/tablets/{tablet_id}``;
* a tablet being set up: ``POST /v1/tablets/pair`` (the pairing code; no token) answers the
  device credential, once;
* a registered tablet (its device credential): ``GET /v1/tablet``, ``POST /v1/tablet/sign-in``
  (answers a shift session token);
* a dealer's shift session: ``GET /v1/shift``, ``POST /v1/shift/table`` (the tablet moved
  to another table of its registration), ``POST /v1/shift/sign-out``;
* the floor: ``POST /v1/floor/dealers/{employee_id}/sign-out`` ends one dealer's shift (he
  walked off, a tablet was left signed in), at a table the token may touch (else 404).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from dealerassist.api import messages as says
from dealerassist.api.auth import Role, current_tablet, current_token, requires
from dealerassist.api.http import json_body, no_query, services
from dealerassist.api.schemas import (
    EMPLOYEE_ID_PATTERN,
    DealerSchema,
    PairTabletSchema,
    RegisterTabletSchema,
    SignInSchema,
    TakeTableSchema,
)
from dealerassist.errors import Forbidden, InvalidInput
from dealerassist.rules.model.said import Join, Listed
from dealerassist.service import messages as told
from dealerassist.service import shifts
from dealerassist.service.shifts import Shift

blueprint = Blueprint("shifts", __name__, url_prefix="/v1")

_dealer_schema = DealerSchema()
_register_schema = RegisterTabletSchema()
_pair_schema = PairTabletSchema()
_sign_in_schema = SignInSchema()
_take_schema = TakeTableSchema()


def _house_wide() -> None:
    """Dealers are the house's, not a table's: a table-scoped admin may not set or list them
    (a T2 admin could otherwise reset a T1 dealer's PIN, locking him out or signing in as him)."""
    if current_token().tables is not None:
        raise Forbidden(says.HOUSE_WIDE())


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"  # a credential or a session token
    return response


@blueprint.put("/dealers/<employee_id>")
@requires(Role.ADMIN)
def set_dealer(employee_id: str) -> Response:
    """Create a dealer or change his name and PIN (admin); a new PIN lifts a lockout."""
    _house_wide()
    if re.fullmatch(EMPLOYEE_ID_PATTERN, employee_id) is None:
        raise InvalidInput(told.EMPLOYEE_ID_FORM())
    body = json_body(_dealer_schema)
    answer = shifts.set_dealer(services(), employee_id, body["name"], body["pin"])
    created = answer.pop("created")
    response = _no_store(jsonify(answer))
    response.status_code = 201 if created else 200
    return response


@blueprint.get("/dealers")
@requires(Role.ADMIN)
def list_dealers() -> Response:
    """The dealers (never their PINs), each with his lockout and the table he deals."""
    _house_wide()
    no_query()
    return jsonify({"dealers": shifts.list_dealers(services())})


@blueprint.post("/tablets")
@requires(Role.ADMIN)
def register_tablet() -> Response:
    """Register a tablet to one table or a bank of tables (admin): the answer's
    ``pairing_code`` is entered on the tablet, once, within 15 minutes."""
    body = json_body(_register_schema)
    token = current_token()
    outside = sorted(table for table in body["tables"] if not token.may_touch(table))
    if outside:
        raise Forbidden(says.TABLES_NOT_ALLOWED(tables=Listed(tuple(outside), Join.COMMA)))
    answer = shifts.register_tablet(services(), body["name"], body["tables"])
    response = _no_store(jsonify(answer))
    response.status_code = 201
    response.headers["Location"] = url_for(".list_tablets")
    return response


@blueprint.get("/tablets")
@requires(Role.ADMIN)
def list_tablets() -> Response:
    """The registered tablets, revoked ones too, each with its shift session if any."""
    no_query()
    token = current_token()
    tablets = [
        tablet
        for tablet in shifts.list_tablets(services())
        if all(token.may_touch(table) for table in tablet["tables"])
    ]
    return jsonify({"tablets": tablets})


@blueprint.delete("/tablets/<tablet_id>")
@requires(Role.ADMIN)
def revoke_tablet(tablet_id: str) -> Response:
    """Revoke a tablet: its credential and its shift session stop working (audited)."""
    token = current_token()
    shifts.revoke_tablet(services(), tablet_id, token.actor, token.may_touch)
    return Response(status=204)


@blueprint.post("/tablets/pair")
def pair_tablet() -> Response:
    """A tablet trades its pairing code for its device credential (no token: the code is
    the secret, single-use, 15 minutes)."""
    body = json_body(_pair_schema)
    client = request.remote_addr or ""  # behind a proxy: the proxy's, so the limit is shared
    return _no_store(jsonify(shifts.pair_tablet(services(), body["pairing_code"], client)))


@blueprint.get("/tablet")
def tablet_status() -> Response:
    """A registered tablet reads its registration and who is on duty at its tables."""
    no_query()
    return jsonify(shifts.tablet_status(services(), current_tablet()))


@blueprint.post("/tablet/sign-in")
def sign_in() -> Response:
    """A dealer signs in at a registered tablet: employee ID and PIN. The answer's ``token``
    is his shift session (role dealer, the tablet's tables, 12 hours)."""
    tablet = current_tablet()
    body = json_body(_sign_in_schema)
    token, shift = shifts.sign_in(
        services(), tablet, body["table_id"], body["employee_id"], body["pin"]
    )
    return _no_store(jsonify({**shift.public(), "token": token}))


def _current_shift() -> Shift:
    shift = current_token().shift
    if shift is None:
        # a tokens-file dealer token is authenticated, only not a shift session
        raise Forbidden(says.SHIFT_ONLY())
    return shift


@blueprint.get("/shift")
@requires(Role.DEALER)
def get_shift() -> Response:
    """The caller's shift session: the dealer, the tablet, its tables, where he deals."""
    no_query()
    return jsonify(_current_shift().public())


@blueprint.post("/shift/table")
@requires(Role.DEALER)
def take_table() -> Response:
    """The tablet moved to another table of its registration: the dealer is on duty there
    (signed out at the table he left), with no new sign-in."""
    body = json_body(_take_schema)
    moved = shifts.take_table(services(), _current_shift(), body["table_id"])
    return jsonify(moved.public())


@blueprint.post("/shift/sign-out")
@requires(Role.DEALER)
def sign_out() -> Response:
    """The dealer's shift ends: signed out at his table (audited); the token stops working."""
    shifts.sign_out(services(), _current_shift())
    return Response(status=204)


@blueprint.post("/floor/dealers/<employee_id>/sign-out")
@requires(Role.FLOOR, Role.ADMIN)
def end_shift_by_floor(employee_id: str) -> Response:
    """The floor ends a dealer's shift: signed out at his table (audited under the floor's
    token, reason ``ended_by_floor``); his session's token stops working. 404 unless he is
    signed in at a table the token may touch."""
    no_query()
    token = current_token()
    shifts.end_shift_by_floor(services(), employee_id, token.actor, token.may_touch)
    return Response(status=204)


# -- the OpenAPI document ------------------------------------------------------------------

_STRING = {"type": "string"}
SHIFT_SCHEMA = {
    "type": "object",
    "description": "A dealer's shift session (the token only in the sign-in's answer)",
    "properties": {
        "employee_id": _STRING,
        "name": _STRING,
        "tablet_id": _STRING,
        "tables": {"type": "array", "items": _STRING},
        "table_id": {**_STRING, "description": "where the dealer is on duty"},
        "started_at": _STRING,
        "expires_at": _STRING,
        "token": {**_STRING, "description": "the shift session: Authorization: Bearer <token>"},
    },
    "required": ["employee_id", "name", "tablet_id", "tables", "table_id", "expires_at"],
}
TABLET_SCHEMA = {
    "type": "object",
    "properties": {
        "tablet_id": _STRING,
        "name": _STRING,
        "tables": {"type": "array", "items": _STRING},
        "registered_at": _STRING,
        "paired_at": {"type": "string", "nullable": True},
        "revoked_at": {"type": "string", "nullable": True},
        "pairing_code": {**_STRING, "description": "POST /v1/tablets only: enter it on the tablet"},
        "credential": {**_STRING, "description": "POST /v1/tablets/pair only: keep it"},
        "on_duty": {"type": "object", "description": "GET /v1/tablet: table -> employee ID"},
        "shift": {"type": "object", "nullable": True},
    },
    "required": ["tablet_id", "name", "tables"],
}


def openapi_components(spec: Any) -> None:
    """The request and answer schemas of these routes."""
    for name, schema in (
        ("Dealer", DealerSchema),
        ("RegisterTablet", RegisterTabletSchema),
        ("PairTablet", PairTabletSchema),
        ("SignIn", SignInSchema),
        ("TakeTable", TakeTableSchema),
    ):
        spec.components.schema(name, schema=schema)
    spec.components.schema("Shift", SHIFT_SCHEMA)
    spec.components.schema("Tablet", TABLET_SCHEMA)


def _ref(schema: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}


def _errors(statuses: tuple[int, ...]) -> dict[str, Any]:
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


WRITES = (400, 401, 403, 404, 409, 413, 415, 429, 503)
READS = (400, 401, 403, 404, 503)


def _op(summary: str, who: str, ok: dict[str, Any], body: str | None = None,
        errors: tuple[int, ...] = WRITES, public: bool = False) -> dict[str, Any]:  # fmt: skip
    operation: dict[str, Any] = {
        "summary": summary,
        "description": f"Who: {who}.",
        "responses": {**ok, **_errors(errors)},
    }
    if body is not None:
        operation["requestBody"] = {"required": True, "content": _ref(body)}
    if public:
        operation["security"] = []
    return operation


def openapi_paths() -> dict[str, dict[str, Any]]:
    """The dealer, tablet and shift routes of the OpenAPI document."""
    employee = {"name": "employee_id", "in": "path", "required": True, "description": "employee ID",
                "schema": {"type": "string", "pattern": EMPLOYEE_ID_PATTERN}}  # fmt: skip
    tablet = {"name": "tablet_id", "in": "path", "required": True, "description": "tablet ID",
              "schema": {"type": "string"}}  # fmt: skip
    dealer = {"type": "object", "properties": {"employee_id": _STRING, "name": _STRING}}
    dealer_ok = {"description": "the dealer (never the PIN)",
                 "content": {"application/json": {"schema": dealer}}}  # fmt: skip
    listed = {"200": {"description": "the list", "content": {"application/json": {
        "schema": {"type": "object"}}}}}  # fmt: skip
    shift_ok = {"200": {"description": "the shift session", "content": _ref("Shift")}}
    gone = {"204": {"description": "done"}}
    return {
        "/v1/dealers/{employee_id}": {
            "parameters": [employee],
            "put": _op("Create a dealer, or change his name and PIN (a new PIN lifts a lockout)",
                       "admin", {"200": dealer_ok, "201": dealer_ok}, "Dealer"),
        },
        "/v1/dealers": {
            "get": _op("The dealers, their lockouts and where each is on duty", "admin",
                       listed, errors=READS),
        },
        "/v1/tablets": {
            "post": _op("Register a tablet to one table or a bank of tables; the answer's "
                        "pairing_code is entered on the tablet within 15 minutes, once",
                        "admin", {"201": {"description": "registered",
                                          "content": _ref("Tablet")}}, "RegisterTablet"),
            "get": _op("The registered tablets (revoked ones too) and their shift sessions",
                       "admin", listed, errors=READS),
        },
        "/v1/tablets/{tablet_id}": {
            "parameters": [tablet],
            "delete": _op("Revoke a tablet: its credential and shift session stop working, "
                          "its dealer is signed out (audited)", "admin", gone),
        },
        "/v1/tablets/pair": {
            "post": _op("Trade a pairing code for the tablet's device credential (once); 401 "
                        "code bad_pairing_code", "anyone with the code",
                        {"200": {"description": "the tablet and its credential",
                                 "content": _ref("Tablet")}}, "PairTablet", public=True),
        },
        "/v1/tablet": {
            "get": _op("The tablet's registration and who is on duty at its tables",
                       "a registered tablet (device credential)",
                       {"200": {"description": "the tablet", "content": _ref("Tablet")}},
                       errors=READS),
        },
        "/v1/tablet/sign-in": {
            "post": _op("A dealer signs in (employee ID, PIN): a shift session (role dealer, "
                        "the tablet's tables, 12 h); he is on duty at the table (audited). 401 "
                        "code wrong_pin; 429 code pin_locked after 5 wrong PINs",
                        "a registered tablet (device credential)", shift_ok, "SignIn"),
        },
        "/v1/shift": {
            "get": _op("The caller's shift session", "a dealer's shift session", shift_ok,
                       errors=READS),
        },
        "/v1/shift/table": {
            "post": _op("The tablet moved to another table of its registration: the dealer is "
                        "on duty there, signed out where he was (both audited)",
                        "a dealer's shift session", shift_ok, "TakeTable"),
        },
        "/v1/shift/sign-out": {
            "post": _op("End the shift: signed out at his table (audited)",
                        "a dealer's shift session", gone),
        },
        "/v1/floor/dealers/{employee_id}/sign-out": {
            "parameters": [employee],
            "post": _op("End a dealer's shift (he walked off, a tablet was left signed in): "
                        "signed out at his table, audited under the floor's token with reason "
                        "ended_by_floor; his session answers 401 shift_ended. 404 unless he is "
                        "signed in at a table the token may touch (a token limited to other "
                        "tables is not told that he is signed in)",
                        "floor, admin", gone, errors=(400, 401, 403, 404, 503)),
        },
    }  # fmt: skip
