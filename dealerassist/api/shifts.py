"""Dealers, registered tablets and shift sessions (``service.shifts``) over HTTP.

* admin: ``PUT /v1/dealers/{employee_id}``, ``GET /v1/dealers``, ``POST /v1/tablets``
  (answers the pairing code), ``GET /v1/tablets``, ``DELETE /v1/tablets/{tablet_id}``;
* a tablet being set up: ``POST /v1/tablets/pair`` (the pairing code; no token) answers the
  device credential, once;
* a registered tablet (its device credential): ``GET /v1/tablet``, ``POST /v1/tablet/sign-in``
  (answers a shift session token);
* a dealer's shift session: ``GET /v1/shift``, ``POST /v1/shift/table`` (the tablet moved
  to another table of its registration), ``POST /v1/shift/sign-out``.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, jsonify, url_for

from dealerassist.api.auth import Role, current_tablet, current_token, requires
from dealerassist.api.errors import Unauthenticated
from dealerassist.api.http import json_body, no_query, services
from dealerassist.api.schemas import (
    EMPLOYEE_ID_PATTERN,
    DealerSchema,
    PairTabletSchema,
    RegisterTabletSchema,
    SignInSchema,
    TakeTableSchema,
)
from dealerassist.errors import InvalidInput
from dealerassist.service import shifts
from dealerassist.service.shifts import Shift

blueprint = Blueprint("shifts", __name__, url_prefix="/v1")

_dealer_schema = DealerSchema()
_register_schema = RegisterTabletSchema()
_pair_schema = PairTabletSchema()
_sign_in_schema = SignInSchema()
_take_schema = TakeTableSchema()


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"  # a credential or a session token
    return response


@blueprint.put("/dealers/<employee_id>")
@requires(Role.ADMIN)
def set_dealer(employee_id: str) -> Response:
    """Create a dealer or change his name and PIN (admin); a new PIN lifts a lockout."""
    if re.fullmatch(EMPLOYEE_ID_PATTERN, employee_id) is None:
        raise InvalidInput("an employee ID is 1 to 32 letters, digits, '-' or '_'")
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
    no_query()
    return jsonify({"dealers": shifts.list_dealers(services())})


@blueprint.post("/tablets")
@requires(Role.ADMIN)
def register_tablet() -> Response:
    """Register a tablet to one table or a bank of tables (admin): the answer's
    ``pairing_code`` is entered on the tablet, once, within 15 minutes."""
    body = json_body(_register_schema)
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
    return jsonify({"tablets": shifts.list_tablets(services())})


@blueprint.delete("/tablets/<tablet_id>")
@requires(Role.ADMIN)
def revoke_tablet(tablet_id: str) -> Response:
    """Revoke a tablet: its credential and its shift session stop working (audited)."""
    shifts.revoke_tablet(services(), tablet_id, current_token().actor)
    return Response(status=204)


@blueprint.post("/tablets/pair")
def pair_tablet() -> Response:
    """A tablet trades its pairing code for its device credential (no token: the code is
    the secret, single-use, 15 minutes)."""
    body = json_body(_pair_schema)
    return _no_store(jsonify(shifts.pair_tablet(services(), body["pairing_code"])))


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
        raise Unauthenticated("send a dealer's shift session token (POST /v1/tablet/sign-in)")
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
