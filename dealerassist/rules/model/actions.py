"""Frozen command values the dealer enters (table, seats, hand start, actions) and their JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.house_rules import (
    Structure as Structure,
)  # re-exported: the spec names them
from dealerassist.rules.model.house_rules import Variant as Variant
from dealerassist.rules.model.messages import commands as told
from dealerassist.rules.model.ruling_commands import Ruling, ruling_from_dict, ruling_to_dict
from dealerassist.rules.model.said import Join, Listed


class Mode(StrEnum):
    """Count mode knows card counts only; card mode knows every card."""

    COUNT = "count"
    CARD = "card"


class ActionKind(StrEnum):
    """Everything a dealer may record for a seat during a hand."""

    POST = "post"
    SIT_OUT = "sit_out"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    FOLD = "fold"
    DRAW = "draw"
    TIME = "time"
    SHOW = "show"
    MUCK = "muck"
    DEAL = "deal"
    EXPOSED = "exposed"  # IRREG-03: a card the dealer exposed on the initial deal
    EXTRA_CARD = "extra_card"  # IRREG-06: one card too many dealt to a seat on the deal
    CHOP = "chop"  # SHOW-08: folded to the blinds, both agree to take their blinds back
    BOXED_CARD = "boxed_card"  # DECK-06: a card found face up in the stub, set aside


@dataclass(frozen=True, slots=True)
class Stakes:
    """Forced bets and bet sizes in chips (0 = not used)."""

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0
    big_blind_ante: int = 0  # one ante for the table, posted dead by the big blind (WSOP)

    def to_dict(self) -> dict[str, int]:
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "min_bet": self.min_bet,
            "big_blind_ante": self.big_blind_ante,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Stakes:
        names = {"small_blind", "big_blind", "ante", "small_bet", "big_bet", "min_bet"}
        _only_keys(data, names | {"big_blind_ante"})
        values = {key: _chips(data, key) for key in data}
        return Stakes(**values)


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table deals: variant, structure, stakes, profile, seats and mode."""

    table_id: str
    variant: Variant
    structure: Structure
    stakes: Stakes
    profile_id: str
    max_seats: int = 6
    mode: Mode = Mode.COUNT

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "variant": str(self.variant),
            "structure": str(self.structure),
            "stakes": self.stakes.to_dict(),
            "profile_id": self.profile_id,
            "max_seats": self.max_seats,
            "mode": str(self.mode),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> TableSpec:
        _only_keys(
            data,
            {"table_id", "variant", "structure", "stakes", "profile_id", "profile"}
            | {"max_seats", "mode"},
        )
        profile = data.get("profile_id", data.get("profile"))
        stakes = data.get("stakes", {})
        if not isinstance(stakes, Mapping):
            raise InvalidInput("stakes must be an object")
        max_seats = _int(data, "max_seats", 6)
        if not 2 <= max_seats <= 10:
            raise InvalidInput("max_seats must be between 2 and 10")
        return TableSpec(
            table_id=_text(data.get("table_id"), "table_id"),
            variant=_enum(Variant, data.get("variant"), "variant"),
            structure=_enum(Structure, data.get("structure"), "structure"),
            stakes=Stakes.from_dict(stakes),
            profile_id=_text(profile, "profile_id"),
            max_seats=max_seats,
            mode=_enum(Mode, data.get("mode", "count"), "mode"),
        )


@dataclass(frozen=True, slots=True)
class CreateTable:
    """Open a table with this spec."""

    spec: TableSpec


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Seat a player with a stack."""

    seat: int
    player: str
    stack: int


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """The player in this seat leaves the table."""

    seat: int


@dataclass(frozen=True, slots=True)
class StartHand:
    """Start the next hand; ``button`` is given by the dealer for the table's first hand;
    ``kill_seat`` names the seat that kills this hand by choice (KILL-01, optional kills)."""

    button: int | None = None
    kill_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """One action recorded for a seat during a hand."""

    seat: int
    action: ActionKind
    amount: int | None = None
    count: int | None = None
    ace_shown: bool = False
    cards: tuple[str, ...] | None = None
    discards: tuple[str, ...] | None = None
    option: str | None = None  # post: "wait" / "straddle" / "no_straddle" / "big_blind_only"
    # (BLIND-06); draw: "split"; exposed: "keep" / "replace", checked against the house rule
    # (IRREG-03)
    rank: str | None = None  # exposed, count mode: the exposed card's rank ("7", "T", "A")


@dataclass(frozen=True, slots=True)
class SitOut:
    """Between hands: the player in this seat sits out (keeps the seat, is not dealt in)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ReturnToPlay:
    """Between hands: the seat comes back, posting what it owes now or waiting (``wait``)."""

    seat: int
    wait: bool = False


@dataclass(frozen=True, slots=True)
class ChangeSeat:
    """Between hands: the player in ``seat`` moves to the empty seat ``to`` (BLIND-12)."""

    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class AddChips:
    """Between hands: the player in this seat buys more chips (a rebuy or top-up)."""

    seat: int
    chips: int


Command = (
    CreateTable
    | SeatPlayer
    | RemovePlayer
    | StartHand
    | Act
    | Ruling
    | SitOut
    | ReturnToPlay
    | ChangeSeat
    | AddChips
)

COMMAND_TYPES: dict[type[Any], str] = {
    CreateTable: "create_table",
    SeatPlayer: "seat",
    RemovePlayer: "leave",
    StartHand: "start_hand",
    Act: "action",
    Ruling: "ruling",
    SitOut: "sit_out",
    ReturnToPlay: "return",
    ChangeSeat: "change_seat",
    AddChips: "add_chips",
}


def command_to_dict(command: Command) -> dict[str, Any]:
    """The JSON-ready form of a command (inverse of ``command_from_dict``).

    >>> command_to_dict(SeatPlayer(3, "Cleo", 500))
    {'type': 'seat', 'seat': 3, 'player': 'Cleo', 'stack': 500}
    """
    match command:  # the dealer's actions first: most commands are
        case Act():
            return _act_to_dict(command)
        case CreateTable(spec=spec):
            return {"type": "create_table", "spec": spec.to_dict()}
        case SeatPlayer(seat=seat, player=player, stack=stack):
            return {"type": "seat", "seat": seat, "player": player, "stack": stack}
        case RemovePlayer(seat=seat):
            return {"type": "leave", "seat": seat}
        case StartHand(button=button, kill_seat=kill_seat):
            # no kill_seat key without a kill: recorded commands encode byte for byte as before
            kill = {} if kill_seat is None else {"kill_seat": kill_seat}
            return {"type": "start_hand", "button": button} | kill
        case Ruling():
            return ruling_to_dict(command, _act_to_dict)
        case SitOut(seat=seat):
            return {"type": "sit_out", "seat": seat}
        case ReturnToPlay(seat=seat, wait=wait):
            return {"type": "return", "seat": seat, "wait": wait}
        case ChangeSeat(seat=seat, to=to):
            return {"type": "change_seat", "seat": seat, "to": to}
        case AddChips(seat=seat, chips=chips):
            return {"type": "add_chips", "seat": seat, "chips": chips}
    raise InvalidInput(f"not a command: {command!r}")


def _act_to_dict(act: Act) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": "action",
        "seat": act.seat,
        "action": str(act.action),
        "amount": act.amount,
        "count": act.count,
        "ace_shown": act.ace_shown,
        "cards": None if act.cards is None else list(act.cards),
        "discards": None if act.discards is None else list(act.discards),
    }
    # written only when set, so older commands encode byte for byte as before
    if act.option is not None:
        data["option"] = act.option
    if act.rank is not None:
        data["rank"] = act.rank
    return data


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """Parse ``{"type": ..., ...fields}`` into a command; raises ``InvalidInput`` on a bad shape.

    >>> command_from_dict({"type": "seat", "seat": 3, "player": "Cleo", "stack": 500})
    SeatPlayer(seat=3, player='Cleo', stack=500)
    >>> command_from_dict({"type": "fly"})
    Traceback (most recent call last):
    ...
    dealerassist.errors.InvalidInput: unknown command type 'fly'
    """
    if not isinstance(data, Mapping):
        raise InvalidInput("a command must be an object")
    kind = data.get("type")
    match kind:
        case "create_table":
            _only_keys(data, {"type", "spec"})
            spec = data.get("spec")
            if not isinstance(spec, Mapping):
                raise InvalidInput("create_table needs a spec object")
            return CreateTable(spec=TableSpec.from_dict(spec))
        case "seat":
            _only_keys(data, {"type", "seat", "player", "stack"})
            player = _text(data.get("player"), "player")
            return SeatPlayer(seat=_seat(data), player=player, stack=_chips(data, "stack"))
        case "leave":
            _only_keys(data, {"type", "seat"})
            return RemovePlayer(seat=_seat(data))
        case "start_hand":
            _only_keys(data, {"type", "button", "kill_seat"})
            button, kill_seat = data.get("button"), data.get("kill_seat")
            return StartHand(
                button=None if button is None else _seat(data, "button"),
                kill_seat=None if kill_seat is None else _seat(data, "kill_seat"),
            )
        case "action":
            return _act_from_dict(data)
        case "ruling":
            return ruling_from_dict(data, _entry_from_dict)
        case "sit_out" | "return" | "change_seat" | "add_chips":
            return _seating_from_dict(data)
    raise InvalidInput(f"unknown command type {kind!r}")


def _seating_from_dict(data: Mapping[str, Any]) -> SitOut | ReturnToPlay | ChangeSeat | AddChips:
    """The between-hands seat commands: sit out, return (post or ``wait``), change seat, add
    chips."""
    if data["type"] == "add_chips":
        _only_keys(data, {"type", "seat", "chips"})
        return AddChips(seat=_seat(data), chips=_chips(data, "chips"))
    if data["type"] == "sit_out":
        _only_keys(data, {"type", "seat"})
        return SitOut(seat=_seat(data))
    if data["type"] == "change_seat":
        _only_keys(data, {"type", "seat", "to"})
        return ChangeSeat(seat=_seat(data), to=_seat(data, "to"))
    _only_keys(data, {"type", "seat", "wait"})
    wait = data.get("wait", False)
    if not isinstance(wait, bool):
        raise InvalidInput("wait must be true or false")
    return ReturnToPlay(seat=_seat(data), wait=wait)


def _entry_from_dict(data: Any) -> Act:
    """The refused entry a ruling accepts: an action, with or without its ``type``."""
    if not isinstance(data, Mapping) or data.get("type", "action") != "action":
        raise InvalidInput(said=told.ACCEPT_NEEDS_ENTRY())
    return _act_from_dict({**data, "type": "action"})


def _act_from_dict(data: Mapping[str, Any]) -> Act:
    _only_keys(
        data,
        {"type", "seat", "action", "amount", "count", "ace_shown", "cards", "discards", "option"}
        | {"rank"},
    )
    option = data.get("option")
    if option is not None and not isinstance(option, str):
        raise InvalidInput("option must be a string")
    rank = data.get("rank")
    if rank is not None and (not isinstance(rank, str) or not rank.strip()):
        raise InvalidInput("rank must be a rank symbol such as '7', 'T' or 'A'")
    ace_shown = data.get("ace_shown", False)
    if not isinstance(ace_shown, bool):
        raise InvalidInput("ace_shown must be true or false")
    amount = data.get("amount")
    count = data.get("count")
    return Act(
        seat=_seat(data),
        action=_enum(ActionKind, data.get("action"), "action"),
        amount=None if amount is None else _chips(data, "amount"),
        count=None if count is None else _chips(data, "count"),
        ace_shown=ace_shown,
        cards=normalise_cards(data.get("cards"), "cards"),
        discards=normalise_cards(data.get("discards"), "discards"),
        option=option,
        rank=None if rank is None else normalise_rank(rank),
    )


def normalise_rank(rank: str) -> str:
    """A rank as entered, in the deck's symbols: ``"10"`` is ``"T"``; the joker is ``"Jk"``.

    >>> normalise_rank("t"), normalise_rank(" 10 "), normalise_rank("jk")
    ('T', 'T', 'Jk')
    """
    text = rank.strip()
    if text == "10":
        return "T"
    return "Jk" if text.lower() == "jk" else text.upper()


def normalise_cards(value: Any, name: str = "cards") -> tuple[str, ...] | None:
    """Split "7h 5s" / "7h5s" / ["7h", "5s"] into tokens like ``("7h", "5s")``; ``??`` is unknown.

    >>> normalise_cards("7H 5s td")
    ('7h', '5s', 'Td')
    >>> normalise_cards(["As", "??"])
    ('As', '??')
    """
    if value is None:
        return None
    if isinstance(value, str):
        tokens = value.split()
        if len(tokens) == 1 and len(tokens[0]) > 2:
            tokens = [tokens[0][i : i + 2] for i in range(0, len(tokens[0]), 2)]
    elif isinstance(value, list | tuple):
        tokens = list(value)
    else:
        raise InvalidInput(f"{name} must be a string or a list of cards")
    return tuple(_card_token(token, name) for token in tokens)


def _card_token(token: Any, name: str) -> str:
    if not isinstance(token, str) or len(token) != 2:
        raise InvalidInput(said=told.NOT_A_CARD(field=name, token=repr(token)))
    if token == "??":
        return token
    return token[0].upper() + token[1].lower()


# The most chips an amount or a seat may hold at the service's edge (the request schemas; the
# use cases for the sums additions reach). The engine itself does not enforce it, so an
# audit chain stored before the bound still replays as it was played.
MAX_CHIPS = 10**12

E = TypeVar("E", bound=StrEnum)


def _enum(enum: type[E], value: Any, name: str) -> E:
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise InvalidInput(f"{name} must be one of {allowed}, not {value!r}") from None


def _only_keys(data: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        fields = Listed(tuple(unknown), Join.COMMA)
        raise InvalidInput(said=told.UNKNOWN_FIELDS(fields=fields))


def _int(data: Mapping[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{key} must be an integer")
    return value


def _chips(data: Mapping[str, Any], key: str) -> int:
    value = _int(data, key, 0)
    if value < 0:
        raise InvalidInput(f"{key} must not be negative")
    return value


def _seat(data: Mapping[str, Any], key: str = "seat") -> int:
    if key not in data:
        raise InvalidInput(said=told.REQUIRED(field=key))
    value = _int(data, key, 0)
    if value < 1:
        raise InvalidInput(said=told.NOT_A_SEAT_NUMBER(field=key))
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidInput(f"{name} must be a non-empty string")
    return value
