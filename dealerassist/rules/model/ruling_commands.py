"""The floor's Ruling command and its corrective effects: frozen values and their JSON.

A ruling names the rule it decides (``rule_id``, a catalog ID or none), the ``decision``
code (one of the options of ``rulings.options_for``), a ``note``, the ``hand_no`` it is
about (IRREG-14 deadline), the floor call it closes, and the ``effects`` applied in order.

This module imports nothing from ``actions`` so that ``actions`` can list ``Ruling`` among
its commands: the refused entry of ``AcceptEntry`` is parsed and written by the callables
``actions`` passes in (``parse_entry`` / ``entry_to_dict``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.messages import commands as told
from dealerassist.rules.model.messages import floor as say
from dealerassist.rules.model.said import Join, Listed, Said

RULE_ID_PATTERN = re.compile(r"^[A-Z]{3,5}-\d{2}$")
MAX_NOTE = 2000
MAX_EFFECTS = 10
MAX_POTS = 10  # a main pot and at most one side pot per other seat of a ten-seat table
_EACH_SEAT_IN_POTS = told.EACH_SEAT_IN_POTS()  # what _pots calls a seat it cannot read


class EffectKind(StrEnum):
    """What a ruling may change (the floor's POST /v1/tables/{id}/rulings)."""

    ACCEPT_ENTRY = "accept_entry"
    VOID_LAST = "void_last"
    KILL_HAND = "kill_hand"
    MISDEAL = "misdeal"
    AWARD = "award"
    ADJUST_STACK = "adjust_stack"
    MOVE_BUTTON = "move_button"
    REOPEN_BETTING = "reopen_betting"
    HOLD_POT = "hold_pot"
    RELEASE_POT = "release_pot"
    TAKE_EXPOSED = "take_exposed"
    CLEAR_FALSE_OPENER = "clear_false_opener"


@dataclass(frozen=True, slots=True)
class AcceptEntry:
    """The refused entry binds: it is applied with the check of ``waive`` lifted."""

    entry: Any  # an ``actions.Act`` (typed loosely: this module must not import actions)
    waive: str


@dataclass(frozen=True, slots=True)
class VoidLast:
    """The last ``count`` actions of the hand never happened (the hand is rebuilt without them)."""

    count: int = 1


@dataclass(frozen=True, slots=True)
class KillHand:
    """The seat's hand is dead; its chips stay in the pot."""

    seat: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """IRREG-01: every chip goes back to where it was at the hand's start; same button next."""


@dataclass(frozen=True, slots=True)
class Award:
    """Every chip in the middle goes to ``seats`` (split, odd chips left of the button), or,
    pot by pot (SHOW-07), each pot to its own seats in ``pots``: the main pot first, then the
    side pots in the order ``pots.hand_pots`` builds them. Exactly one of the two is given."""

    seats: tuple[int, ...] = ()
    pots: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if bool(self.seats) == bool(self.pots):
            raise InvalidInput(said=told.AWARD_EXACTLY_ONE())
        if len(set(self.seats)) != len(self.seats):
            raise InvalidInput(said=told.AWARD_SEAT_TWICE())
        for index, seats in enumerate(self.pots):
            if not seats:
                raise InvalidInput(said=told.AWARD_NOBODY_FOR(pot=pot_said(index)))
            twice = sorted({seat for seat in seats if seats.count(seat) > 1})
            if twice:
                said = told.AWARD_SEAT_TWICE_IN(seat=twice[0], pot=pot_said(index))
                raise InvalidInput(said=said)


def pot_name(index: int) -> str:
    """How the dealer and the floor call the pot at ``index`` (0 is the main pot).

    >>> pot_name(0), pot_name(2)
    ('the main pot', 'side pot 2')
    """
    return pot_said(index).english()


def pot_said(index: int) -> Said:
    """The pot at ``index`` as a message: the dealer's language names it."""
    return say.POT_MAIN() if index == 0 else say.POT_SIDE(index=index)


@dataclass(frozen=True, slots=True)
class AdjustStack:
    """Add ``amount`` (negative: take away) to the seat's chips."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class MoveButton:
    """IRREG-12: the next hand's button goes to ``seat``."""

    seat: int


@dataclass(frozen=True, slots=True)
class ReopenBetting:
    """The betting round is open again for ``seat``, which acts now."""

    seat: int


@dataclass(frozen=True, slots=True)
class HoldPot:
    """Impound the pot while surveillance checks: the hand cannot go on or complete."""


@dataclass(frozen=True, slots=True)
class ReleasePot:
    """Lift a hold: the hand goes on."""


@dataclass(frozen=True, slots=True)
class TakeExposed:
    """IRREG-04: no replacement can be supplied, so the seat takes its card exposed on the draw
    (back from the discards or the burn pile) as its replacement; the draw goes on."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClearFalseOpener:
    """OPEN-08: the floor lifts a false opener's wait (the open was legal after all, or the
    seat was marked by mistake): the seat, or the player by ID (one who left marked), is dealt
    in again from the next hand. Exactly one of the two is given."""

    seat: int | None = None
    player: str | None = None

    def __post_init__(self) -> None:
        if (self.seat is None) == (self.player is None):
            raise InvalidInput(said=told.CLEAR_SEAT_OR_PLAYER())


Effect = (
    AcceptEntry
    | VoidLast
    | KillHand
    | Misdeal
    | Award
    | AdjustStack
    | MoveButton
    | ReopenBetting
    | HoldPot
    | ReleasePot
    | TakeExposed
    | ClearFalseOpener
)
STRUCTURAL = (VoidLast, Misdeal)  # they rebuild or reset the hand: allowed as the first effect only


@dataclass(frozen=True, slots=True)
class Ruling:
    """A floor ruling: the rule, the decision, a note, and the effects in order."""

    decision: str
    rule_id: str | None = None
    note: str = ""
    hand_no: int | None = None
    call_id: str | None = None
    effects: tuple[Effect, ...] = ()


# -- JSON ------------------------------------------------------------------------------------


def ruling_to_dict(
    ruling: Ruling, entry_to_dict: Callable[[Any], dict[str, Any]]
) -> dict[str, Any]:
    """The JSON-ready form (inverse of ``ruling_from_dict``)."""
    return {
        "type": "ruling",
        "decision": ruling.decision,
        "rule_id": ruling.rule_id,
        "note": ruling.note,
        "hand_no": ruling.hand_no,
        "call_id": ruling.call_id,
        "effects": [effect_to_dict(effect, entry_to_dict) for effect in ruling.effects],
    }


def effect_to_dict(
    effect: Effect, entry_to_dict: Callable[[Any], dict[str, Any]]
) -> dict[str, Any]:
    match effect:
        case AcceptEntry(entry=entry, waive=waive):
            return {"effect": "accept_entry", "entry": entry_to_dict(entry), "waive": waive}
        case VoidLast(count=count):
            return {"effect": "void_last", "count": count}
        case (
            KillHand(seat=seat)
            | MoveButton(seat=seat)
            | ReopenBetting(seat=seat)
            | TakeExposed(seat=seat)
        ):
            return {"effect": _KIND_OF[type(effect)], "seat": seat}
        case Award(pots=pots) if pots:
            return {"effect": "award", "pots": [list(seats) for seats in pots]}
        case Award(seats=seats):
            return {"effect": "award", "seats": list(seats)}
        case AdjustStack(seat=seat, amount=amount):
            return {"effect": "adjust_stack", "seat": seat, "amount": amount}
        case ClearFalseOpener(seat=seat, player=player):
            named = {"seat": seat} if seat is not None else {"player": player}
            return {"effect": "clear_false_opener", **named}
    return {"effect": _KIND_OF[type(effect)]}


def ruling_from_dict(data: Mapping[str, Any], parse_entry: Callable[[Any], Any]) -> Ruling:
    """Parse ``{"type": "ruling", ...}``; ``parse_entry`` reads the refused entry's command."""
    _only(data, {"type", "decision", "rule_id", "note", "hand_no", "call_id", "effects"})
    effects = data.get("effects") or []
    if not isinstance(effects, list | tuple) or len(effects) > MAX_EFFECTS:
        raise InvalidInput(f"effects must be a list of at most {MAX_EFFECTS} effects")
    parsed = tuple(_effect(item, parse_entry) for item in effects)
    if any(isinstance(effect, STRUCTURAL) for effect in parsed[1:]):
        raise InvalidInput(said=told.FIRST_EFFECT_ONLY())
    return Ruling(
        decision=_text(data.get("decision"), "decision", 64),
        rule_id=_rule_id(data.get("rule_id")),
        note=_note(data.get("note")),
        hand_no=_optional_int(data.get("hand_no"), "hand_no", 1),
        call_id=_optional_text(data.get("call_id"), "call_id"),
        effects=parsed,
    )


def _effect(item: Any, parse_entry: Callable[[Any], Any]) -> Effect:
    if not isinstance(item, Mapping):
        raise InvalidInput("each effect must be an object with an 'effect' name")
    kind: Any = item.get("effect")
    try:
        effect = EffectKind(kind)
    except ValueError:
        allowed = ", ".join(EffectKind)
        raise InvalidInput(f"effect must be one of {allowed}, not {kind!r}") from None
    fields = _FIELDS[effect]
    _only(item, {"effect", *fields})
    match effect:
        case EffectKind.ACCEPT_ENTRY:
            waive = _rule_id(item.get("waive"))
            if waive is None:
                raise InvalidInput(said=told.ACCEPT_NEEDS_WAIVE())
            return AcceptEntry(entry=parse_entry(item.get("entry")), waive=waive)
        case EffectKind.VOID_LAST:
            return VoidLast(count=_int(item.get("count", 1), "count", 1))
        case EffectKind.AWARD:
            return _award(item)
        case EffectKind.ADJUST_STACK:
            return AdjustStack(seat=_seat(item), amount=_int(item.get("amount"), "amount", None))
        case EffectKind.CLEAR_FALSE_OPENER:
            seat = _seat(item) if "seat" in item else None
            player = _text(item["player"], "player", 64) if "player" in item else None
            return ClearFalseOpener(seat=seat, player=player)
    if "seat" in fields:
        seated: Effect = _SEATED[effect](_seat(item))
        return seated
    return _BARE[effect]()


_FIELDS: dict[EffectKind, tuple[str, ...]] = {
    EffectKind.ACCEPT_ENTRY: ("entry", "waive"),
    EffectKind.VOID_LAST: ("count",),
    EffectKind.KILL_HAND: ("seat",),
    EffectKind.MISDEAL: (),
    EffectKind.AWARD: ("seats", "pots"),
    EffectKind.ADJUST_STACK: ("seat", "amount"),
    EffectKind.MOVE_BUTTON: ("seat",),
    EffectKind.REOPEN_BETTING: ("seat",),
    EffectKind.HOLD_POT: (),
    EffectKind.RELEASE_POT: (),
    EffectKind.TAKE_EXPOSED: ("seat",),
    EffectKind.CLEAR_FALSE_OPENER: ("seat", "player"),
}
_SEATED: dict[EffectKind, Callable[[int], Effect]] = {
    EffectKind.KILL_HAND: KillHand,
    EffectKind.MOVE_BUTTON: MoveButton,
    EffectKind.REOPEN_BETTING: ReopenBetting,
    EffectKind.TAKE_EXPOSED: TakeExposed,
}
_BARE: dict[EffectKind, Callable[[], Effect]] = {
    EffectKind.MISDEAL: Misdeal,
    EffectKind.HOLD_POT: HoldPot,
    EffectKind.RELEASE_POT: ReleasePot,
}
_KIND_OF: dict[type[Any], str] = {
    AcceptEntry: "accept_entry",
    VoidLast: "void_last",
    KillHand: "kill_hand",
    Misdeal: "misdeal",
    Award: "award",
    AdjustStack: "adjust_stack",
    MoveButton: "move_button",
    ReopenBetting: "reopen_betting",
    HoldPot: "hold_pot",
    ReleasePot: "release_pot",
    TakeExposed: "take_exposed",
    ClearFalseOpener: "clear_false_opener",
}


def effect_kind(effect: Effect) -> str:
    """The JSON name of an effect.

    >>> effect_kind(KillHand(3))
    'kill_hand'
    """
    return _KIND_OF[type(effect)]


# -- field readers ---------------------------------------------------------------------------


def _only(data: Mapping[str, Any], allowed: set[str]) -> None:
    if not isinstance(data, Mapping):
        raise InvalidInput("a ruling must be an object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        fields = Listed(tuple(unknown), Join.COMMA)
        raise InvalidInput(said=told.UNKNOWN_FIELDS(fields=fields))


def _int(value: Any, name: str | Said, minimum: int | None) -> int:
    """``value`` as a whole number of at least ``minimum``; ``name`` is the field's (a
    JSON key, or a message when the words are more than a key)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(said=told.NOT_AN_INTEGER(field=name))
    if minimum is not None and value < minimum:
        raise InvalidInput(said=told.AT_LEAST(field=name, minimum=minimum))
    return value


def _optional_int(value: Any, name: str, minimum: int) -> int | None:
    return None if value is None else _int(value, name, minimum)


def _seat(item: Mapping[str, Any]) -> int:
    if "seat" not in item:
        raise InvalidInput(said=told.NEEDS_A_SEAT(effect=str(item.get("effect"))))
    return _int(item["seat"], "seat", 1)


def _seats(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise InvalidInput(said=told.AWARD_NEEDS_SEATS())
    seats = tuple(_int(seat, "seats", 1) for seat in value)
    if len(set(seats)) != len(seats):
        raise InvalidInput(said=told.AWARD_SEAT_TWICE())
    return seats


def _award(item: Mapping[str, Any]) -> Award:
    """``award`` with ``seats`` (every chip to them) or ``pots`` (each pot to its seats)."""
    if "pots" not in item:
        return Award(seats=_seats(item.get("seats")))
    if "seats" in item:
        raise InvalidInput(said=told.AWARD_SEATS_OR_POTS())
    return Award(pots=_pots(item["pots"]))


def _pots(value: Any) -> tuple[tuple[int, ...], ...]:
    """One list of seats per pot, main pot first (the shape only; the engine checks each seat).

    >>> _pots([[2], [3, 1]])
    ((2,), (3, 1))
    """
    if not isinstance(value, list | tuple) or not value or len(value) > MAX_POTS:
        raise InvalidInput(
            f"award 'pots' must be a list of 1 to {MAX_POTS} seat lists: the winners of each "
            "pot, main pot first, then the side pots"
        )
    pots = []
    for index, seats in enumerate(value):
        if not isinstance(seats, list | tuple) or not seats:
            raise InvalidInput(f"award 'pots': {pot_name(index)} needs a non-empty list of seats")
        pots.append(tuple(_int(seat, _EACH_SEAT_IN_POTS, 1) for seat in seats))
    return tuple(pots)


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise InvalidInput(f"{name} must be a non-empty string of at most {limit} characters")
    return value


def _optional_text(value: Any, name: str) -> str | None:
    return None if value is None else _text(value, name, 64)


def _note(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > MAX_NOTE:
        raise InvalidInput(f"note must be a string of at most {MAX_NOTE} characters")
    return value


def _rule_id(value: Any) -> str | None:
    """A catalog rule ID like ``IRREG-14`` (or None).

    >>> _rule_id("DRAW-10")
    'DRAW-10'
    """
    if value is None:
        return None
    if not isinstance(value, str) or not RULE_ID_PATTERN.fullmatch(value):
        raise InvalidInput(f"rule_id must be a catalog ID like 'IRREG-14', not {value!r}")
    return value
