"""Tables, seats, hands and actions: thin translations from HTTP to the table use cases."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, Response, request, url_for

from dealerassist.api import messages as says
from dealerassist.api.auth import ANY_ROLE, Role, current_token, requires
from dealerassist.api.http import (
    answer_response,
    json_body,
    no_query,
    preconditions,
    services,
    table_response,
)
from dealerassist.api.schemas import (
    ActionSchema,
    CreateTableSchema,
    SeatChangeSchema,
    SeatSchema,
    StartHandSchema,
    UndoSchema,
)
from dealerassist.errors import Forbidden
from dealerassist.service import corrections
from dealerassist.service import tables as use_cases

blueprint = Blueprint("tables", __name__, url_prefix="/v1/tables")

_create_schema = CreateTableSchema()
_seat_schema = SeatSchema()
_seat_change_schema = SeatChangeSchema()
_start_schema = StartHandSchema()
_action_schema = ActionSchema()
_undo_schema = UndoSchema()


@blueprint.post("")
@requires(Role.ADMIN)
def create_table() -> Response:
    """Open a table (admin)."""
    body = json_body(_create_schema)
    token = current_token()
    if not token.may_touch(body["table_id"]):
        raise Forbidden(says.TABLE_NOT_ALLOWED(table=repr(body["table_id"])))
    profile = body.pop("profile")
    spec = {**body, "profile_id": profile}
    answer = use_cases.create_table(services(), spec, token.actor, preconditions())
    response = answer_response(answer)
    if response.status_code == 201:
        response.headers["Location"] = url_for(".get_table", table_id=spec["table_id"])
    return response


@blueprint.get("/<table_id>")
@requires(*ANY_ROLE)
def get_table(table_id: str) -> Response:
    """The table's state, the seat to act and its legal actions (304 if If-None-Match holds)."""
    no_query()
    response = table_response(use_cases.get_table(services(), table_id))
    return cast(Response, response.make_conditional(request))  # returns self


@blueprint.put("/<table_id>/seats/<int:seat>")
@requires(Role.DEALER, Role.FLOOR)
def seat_player(table_id: str, seat: int) -> Response:
    """Seat a player."""
    body = json_body(_seat_schema)
    answer = use_cases.seat_player(
        services(), table_id, seat, body["player"], body["stack"], current_token().actor,
        preconditions(),
    )  # fmt: skip
    return answer_response(answer)


@blueprint.delete("/<table_id>/seats/<int:seat>")
@requires(Role.DEALER, Role.FLOOR)
def remove_player(table_id: str, seat: int) -> Response:
    """The player in the seat leaves."""
    answer = use_cases.remove_player(
        services(), table_id, seat, current_token().actor, preconditions()
    )
    return answer_response(answer)


@blueprint.post("/<table_id>/seats/<int:seat>/changes")
@requires(Role.DEALER, Role.FLOOR)
def change_seat(table_id: str, seat: int) -> Response:
    """Between hands: sit out, return (posting or waiting), move to another seat, add chips."""
    body = json_body(_seat_change_schema)
    answer = use_cases.change_seat(services(), table_id, seat, body, current_token().actor,
                                   preconditions())  # fmt: skip
    return answer_response(answer)


@blueprint.post("/<table_id>/hands")
@requires(Role.DEALER)
def start_hand(table_id: str) -> Response:
    """Start the next hand."""
    body = json_body(_start_schema, optional=True)
    answer = use_cases.start_hand(
        services(),
        table_id,
        body.get("button"),
        current_token().actor,
        preconditions(),
        kill_seat=body.get("kill_seat"),
    )
    return answer_response(answer)


@blueprint.get("/<table_id>/hands/<int(max=2147483647):hand_no>")
@requires(*ANY_ROLE)
def get_hand(table_id: str, hand_no: int) -> Response:
    """One hand's record (the live hand, or a finished one from the audit store)."""
    no_query()
    return table_response(use_cases.get_hand(services(), table_id, hand_no))


@blueprint.post("/<table_id>/actions")
@requires(Role.DEALER)
def submit_action(table_id: str) -> Response:
    """Record one action."""
    body = json_body(_action_schema)
    answer = use_cases.submit_action(
        services(), table_id, body, current_token().actor, preconditions()
    )
    return answer_response(answer)


@blueprint.post("/<table_id>/undo")
@requires(Role.DEALER, Role.FLOOR)
def undo_last_entry(table_id: str) -> Response:
    """Take back the hand's last action before the next entry (If-Match: its version)."""
    body = json_body(_undo_schema, optional=True)
    answer = corrections.undo_last_entry(
        services(), table_id, body, current_token().actor, preconditions()
    )
    return answer_response(answer)
