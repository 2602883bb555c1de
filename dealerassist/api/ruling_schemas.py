"""Marshmallow schemas of the floor routes (rulings, options, floor calls) and their response
shapes for the OpenAPI document. Field-by-field checks of each effect stay in the engine's
``ruling_from_dict`` (one place); these schemas reject wrong types and unknown fields."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from dealerassist.api.schemas import (
    TABLE_ID_PATTERN,
    ActionSchema,
    FullMatch,
    StrictSchema,
    name_field,
    note_field,
)
from dealerassist.rules.model.ruling_commands import MAX_EFFECTS, MAX_NOTE, MAX_POTS, EffectKind
from dealerassist.service.floor_calls import MAX_PAGE

RULE_ID_PATTERN = r"^[A-Z]{3,5}-\d{2}$"
MAX_CHIPS = 10**12
POTS_DESCRIPTION = (
    "award only, instead of seats: the winning seats of each pot, the main pot first, then "
    "the side pots (SHOW-07)"
)


def _seat(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=1, max=10), **kwargs)


def _rule_id(**kwargs: Any) -> fields.String:
    return fields.String(validate=FullMatch(RULE_ID_PATTERN), **kwargs)


class EffectSchema(StrictSchema):
    """One corrective effect; which fields it needs depends on ``effect``."""

    effect = fields.String(required=True, validate=validate.OneOf([str(e) for e in EffectKind]))
    seat = _seat()
    amount = fields.Integer(strict=True, validate=validate.Range(min=-MAX_CHIPS, max=MAX_CHIPS))
    count = fields.Integer(strict=True, validate=validate.Range(min=1, max=100))
    seats = fields.List(_seat(), validate=validate.Length(min=1, max=10))
    pots = fields.List(  # award pot by pot: the winners of each pot, main pot first
        fields.List(_seat(), validate=validate.Length(min=1, max=10)),
        validate=validate.Length(min=1, max=MAX_POTS),
        metadata={"description": POTS_DESCRIPTION},
    )
    entry = fields.Nested(ActionSchema)
    waive = _rule_id()
    player = name_field(  # clear_false_opener only, instead of seat (OPEN-08)
        metadata={"description": "clear_false_opener only, instead of seat: the player's ID"},
    )


class RulingSchema(StrictSchema):
    """POST /v1/tables/{table_id}/rulings."""

    decision = name_field(required=True)
    rule_id = _rule_id(allow_none=True)
    note = note_field(MAX_NOTE)
    hand_no = fields.Integer(
        strict=True, allow_none=True, validate=validate.Range(min=1, max=2147483647)
    )
    call_id = name_field(allow_none=True)
    effects = fields.List(fields.Nested(EffectSchema), validate=validate.Length(max=MAX_EFFECTS))


class FloorCallSchema(StrictSchema):
    """POST /v1/tables/{table_id}/floor-calls: the refused ``entry``, its audit ``seq``, or a
    dispute (``rule_id`` and ``note``)."""

    entry = fields.Nested(ActionSchema, allow_none=True)
    seq = fields.Integer(strict=True, validate=validate.Range(min=1, max=2**53))
    rule_id = _rule_id()
    note = note_field(MAX_NOTE)
    seat = _seat()


class RulingOptionsQuerySchema(StrictSchema):
    """GET /v1/rulings/options query string."""

    rule_id = _rule_id()


class FloorCallsQuerySchema(StrictSchema):
    """GET /v1/floor/calls query string."""

    table_id = fields.String(validate=FullMatch(TABLE_ID_PATTERN))
    limit = fields.Integer(validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.String(validate=validate.Length(min=3, max=200))


OBJECT = {"type": "object", "additionalProperties": True}
OPTION = {
    "type": "object",
    "required": ["decision", "label", "label_id", "effects"],
    "properties": {
        "decision": {"type": "string"},
        "label": {"type": "string", "description": "rendered in the Accept-Language"},
        "label_id": {
            "type": "string",
            "description": "the label as its message ID (with params when it has any)",
        },
        "params": OBJECT,
        "effects": {"type": "array", "items": {"type": "string"}},
    },
}
RULING_OPTIONS = {
    "type": "object",
    "required": ["rule_id", "options"],
    "properties": {
        "rule_id": {"type": "string", "nullable": True},
        "options": {"type": "array", "items": {"$ref": "#/components/schemas/RulingOption"}},
    },
}
FLOOR_CALL = {
    "type": "object",
    "required": ["call_id", "table_id", "status", "opened_at", "opened_by", "rule_id"],
    "properties": {
        "call_id": {"type": "string"},
        "table_id": {"type": "string"},
        "status": {"type": "string", "enum": ["open", "closed", "expired"]},
        "opened_at": {"type": "string"},
        "opened_by": {"type": "string"},
        "version": {"type": "integer"},
        "hand_no": {"type": "integer", "nullable": True},
        "rule_id": {"type": "string", "nullable": True},
        "message": {"type": "string"},
        "message_id": {
            "type": "string",
            "description": "what the refusal said, as its message ID (with params): the "
            "message is rendered in the Accept-Language; left out for an older call",
        },
        "params": OBJECT,
        "seat": {"type": "integer", "nullable": True},
        "entry": {**OBJECT, "nullable": True},
        "seq": {"type": "integer", "nullable": True},
        "allowed": {"type": "array", "items": OBJECT},
        "note": {"type": "string"},
        "table": {
            **OBJECT,
            "description": "the table's public view when the call was made (left out of a list)",
        },
        "actions": {
            "type": "array",
            "items": OBJECT,
            "description": "the hand's entries so "
            "far as the dealer made them, {at, command}, cards included (left out of "
            "a list)",
        },
        "expires_at": {"type": "string", "nullable": True},
        "waited_seconds": {
            "type": "integer",
            "minimum": 0,
            "description": "since it was opened, by the service's clock",
        },
        "ruling": {
            **OBJECT,
            "nullable": True,
            "description": (
                "the ruling that closed it: decision, label (rendered in the Accept-Language from"
                " label_id when the decision is a standard option), rule_id, note, effects"
            ),
        },
    },
    "additionalProperties": True,
}
FLOOR_CALLS = {
    "type": "object",
    "required": ["calls", "count", "total", "next", "now"],
    "properties": {
        "calls": {"type": "array", "items": {"$ref": "#/components/schemas/FloorCall"}},
        "count": {"type": "integer", "minimum": 0, "description": "calls on this page"},
        "total": {"type": "integer", "minimum": 0, "description": "open calls in the scope"},
        "next": {
            "type": "string",
            "nullable": True,
            "description": "the cursor of the next page (older calls), or null",
        },
        "now": {"type": "string", "description": "the service's clock (UTC)"},
    },
}
