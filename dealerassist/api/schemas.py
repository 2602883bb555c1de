"""Marshmallow schemas of the request bodies and query strings (the HTTP edge only).

Unknown fields are rejected and types are strict (``"3"`` is not a seat), so a malformed
body is a 400 before any use case runs. The OpenAPI document is generated from these.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from dealerassist.api import messages as says
from dealerassist.api.errors import ValidationFailed
from dealerassist.rules.model.actions import MAX_CHIPS, ActionKind, Mode, Structure, Variant
from dealerassist.rules.model.outcomes import EntryOption

TABLE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
RANK_PATTERN = r"^ *([2-9TJQKAtjqka]|10|[Jj][Kk]) *$"
CARDS_PATTERN = r"^[ ]*(([2-9TJQKAtjqka][cdhsCDHS]|\?\?)[ ]*){0,7}$"


class FullMatch(validate.Regexp):
    """``validate.Regexp`` over the whole value: marshmallow's uses ``re.match``, whose ``$``
    also matches before a trailing newline, so ``"T1\\n"`` passed ``^...$`` (and an ID one
    character longer than the store's column stopped the audit drain, issue 19)."""

    def __call__(self, value: Any) -> Any:
        pattern: re.Pattern[str] = self.regex  # type: ignore[assignment]  # built from a str
        if not isinstance(value, str) or pattern.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def _chips(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_CHIPS), **kwargs)


def _seat(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=1, max=10), **kwargs)


def _one_of(values: Any, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf([str(value) for value in values]), **kwargs)


# A name (a player's, a decision's): any character but a control character (C0, DEL, C1),
# a line or paragraph separator, a bidirectional override or isolate (which reorder the text
# around a name in a log or a page), or a lone surrogate (no character at all).
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]+$"
# A note: free text over several lines; tab, newline and carriage return are its only controls.
NOTE_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]*$"


def name_field(**kwargs: Any) -> fields.String:
    """A name of 1 to 64 characters, none of them a control character (``NAME_PATTERN``)."""
    message = (
        "a name may not hold control characters (U+0000-U+001F, DEL U+007F, U+0080-U+009F), "
        "line separators, bidirectional overrides or lone surrogates"
    )
    return fields.String(
        validate=[validate.Length(min=1, max=64), FullMatch(NAME_PATTERN, error=message)],
        **kwargs,
    )


def note_field(max_length: int, **kwargs: Any) -> fields.String:
    """Free text up to ``max_length``: tab, newline and carriage return are its only controls."""
    message = "a note may hold no control character but tab, newline and carriage return"
    return fields.String(
        validate=[validate.Length(max=max_length), FullMatch(NOTE_PATTERN, error=message)],
        **kwargs,
    )


class UtcDateTime(fields.AwareDateTime):
    """An ISO 8601 time with a UTC offset, converted to UTC (out of range: a field error)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        parsed = super()._deserialize(value, attr, data, **kwargs)
        try:
            return parsed.astimezone(UTC)
        except OverflowError:
            raise ValidationError("the time is out of range in UTC") from None


class StrictSchema(Schema):
    """Unknown fields are an error."""

    class Meta:
        unknown = RAISE


class StakesSchema(StrictSchema):
    """Forced bets and bet sizes in chips."""

    small_blind = _chips()
    big_blind = _chips()
    ante = _chips()
    small_bet = _chips()
    big_bet = _chips()
    min_bet = _chips()


class CreateTableSchema(StrictSchema):
    """POST /v1/tables."""

    table_id = fields.String(required=True, validate=FullMatch(TABLE_ID_PATTERN))
    variant = _one_of(Variant, required=True)
    structure = _one_of(Structure, required=True)
    stakes = fields.Nested(StakesSchema, required=True)
    profile = fields.String(required=True, validate=validate.Length(min=1, max=64))
    max_seats = fields.Integer(strict=True, validate=validate.Range(min=2, max=10))
    mode = _one_of(Mode)


class SeatSchema(StrictSchema):
    """PUT /v1/tables/{table_id}/seats/{seat}."""

    player = name_field(required=True)
    stack = _chips(required=True)


class SeatChangeSchema(StrictSchema):
    """POST /v1/tables/{table_id}/seats/{seat}/changes: between hands (issue 5)."""

    change = _one_of(["sit_out", "return", "change_seat", "add_chips"], required=True)
    wait = fields.Boolean(truthy={True}, falsy={False})  # return: wait for the big blind
    to = _seat()  # change_seat: the empty seat to move to
    chips = _chips()  # add_chips


class StartHandSchema(StrictSchema):
    """POST /v1/tables/{table_id}/hands (the body may be empty)."""

    button = _seat(allow_none=True)
    # KILL-01: the seat that kills this hand by choice (profiles with kill.mode = "optional")
    kill_seat = _seat(allow_none=True)


class ActionSchema(StrictSchema):
    """POST /v1/tables/{table_id}/actions."""

    seat = _seat(required=True)
    action = _one_of(ActionKind, required=True)
    amount = _chips(allow_none=True)
    count = fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=0, max=5))
    ace_shown = fields.Boolean(truthy={True}, falsy={False})
    cards = fields.String(allow_none=True, validate=FullMatch(CARDS_PATTERN))
    discards = fields.String(allow_none=True, validate=FullMatch(CARDS_PATTERN))
    # post: wait for the big blind (BLIND-05/08), straddle or not (BLIND-14), buy the button with
    # the big blind alone (BLIND-06); draw: split (OPEN-07); exposed: keep or replace, checked
    # against the house rule (IRREG-03)
    option = _one_of(EntryOption, allow_none=True)
    # exposed, count mode: the exposed card's rank (IRREG-03); "10" is read as "T"
    rank = fields.String(allow_none=True, validate=FullMatch(RANK_PATTERN))


class AuditEventsQuerySchema(StrictSchema):
    """GET /v1/audit/events query string."""

    table_id = fields.String(validate=FullMatch(TABLE_ID_PATTERN))
    since = UtcDateTime()
    until = UtcDateTime()
    format = fields.String(validate=validate.OneOf(["jsonl", "csv"]))


class AuditCollectionsQuerySchema(StrictSchema):
    """GET /v1/audit/collections query string (RAKE-01..05: the cage's collection report)."""

    table_id = fields.String(validate=FullMatch(TABLE_ID_PATTERN))
    since = UtcDateTime()
    until = UtcDateTime()
    format = fields.String(validate=validate.OneOf(["json", "csv"]))
    day_start_hour = fields.Integer(strict=False, validate=validate.Range(min=0, max=23))


class AuditHandQuerySchema(StrictSchema):
    """GET /v1/audit/hands/{table_id}/{hand_no} query string."""

    format = fields.String(validate=validate.OneOf(["json", "phh"]))


class AuditVerifyQuerySchema(StrictSchema):
    """GET /v1/audit/verify query string."""

    table_id = fields.String(validate=FullMatch(TABLE_ID_PATTERN))


class StartVerificationSchema(StrictSchema):
    """POST /v1/audit/verifications body (optional: no body verifies every table)."""

    table_id = fields.String(allow_none=True, validate=FullMatch(TABLE_ID_PATTERN))


def load(schema: Schema, data: Any) -> dict[str, Any]:
    """Validate ``data``; ValidationFailed (400) lists each bad field."""
    try:
        loaded = schema.load(data)
    except ValidationError as error:
        messages = (
            error.messages if isinstance(error.messages, Mapping) else {"_schema": error.messages}
        )
        raise ValidationFailed(says.SCHEMA(), messages) from None
    return dict(loaded)


class UndoSchema(StrictSchema):
    """POST /v1/tables/{table_id}/undo: the dealer takes back the entry just made; an
    optional ``note`` says why (the correction's note names the entry and the dealer)."""

    note = fields.String(validate=validate.Length(max=500))


EMPLOYEE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"
PIN_PATTERN = r"^[0-9]{4,12}$"


class DealerSchema(StrictSchema):
    """PUT /v1/dealers/{employee_id} (admin): the dealer's name and PIN (4 to 12 digits)."""

    name = name_field(required=True)
    pin = fields.String(required=True, validate=FullMatch(PIN_PATTERN))


class RegisterTabletSchema(StrictSchema):
    """POST /v1/tablets (admin): a name for the tablet and the tables it serves."""

    name = name_field(required=True)
    tables = fields.List(
        fields.String(validate=FullMatch(TABLE_ID_PATTERN)),
        required=True,
        validate=validate.Length(min=1, max=32),
    )


class PairTabletSchema(StrictSchema):
    """POST /v1/tablets/pair: the pairing code the admin page showed."""

    pairing_code = fields.String(required=True, validate=validate.Length(min=1, max=32))


class SignInSchema(StrictSchema):
    """POST /v1/tablet/sign-in: the table, the dealer's employee ID and PIN."""

    table_id = fields.String(required=True, validate=FullMatch(TABLE_ID_PATTERN))
    employee_id = fields.String(required=True, validate=FullMatch(EMPLOYEE_ID_PATTERN))
    pin = fields.String(required=True, validate=validate.Length(min=1, max=64))


class TakeTableSchema(StrictSchema):
    """POST /v1/shift/table: the table of the registration the dealer now deals."""

    table_id = fields.String(required=True, validate=FullMatch(TABLE_ID_PATTERN))
