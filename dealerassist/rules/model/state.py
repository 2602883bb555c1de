"""TableState / HandState / SeatState: the frozen, JSON-serialisable state of a table."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, is_dataclass
from enum import Enum, StrEnum
from typing import Any, TypeVar, cast

from dealerassist.errors import InvalidInput
from dealerassist.rules.model.actions import TableSpec
from dealerassist.rules.model.hand_result import HandResult, result_from_json
from dealerassist.rules.model.instruction import Instruction
from dealerassist.rules.model.messages import model as told
from dealerassist.rules.model.violations import RuleId

_T = TypeVar("_T")
# Field metadata: the field is left out of ``to_dict`` while it holds its default, so a state
# that never uses the option (kill pots) encodes byte for byte as it did before the field
# existed, and the ``state_sha256`` of events recorded before it still verify on replay.
OMIT_AT_DEFAULT: Mapping[str, Any] = {"omit_at_default": True}
_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}
_DICT_FIELDS: dict[type, frozenset[str]] = {}  # field names of the classes copied by __dict__
_new_object, _set_field = object.__new__, object.__setattr__


def evolve(value: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for our frozen values, several times faster.

    The engine copies a hand several times per entry; ``replace`` re-runs ``__init__`` and
    was half of the time of a replayed hand. Unknown field names fail like ``replace``.

    >>> evolve(SeatState(seat=1), stack=50).stack
    50
    """
    cls = type(value)
    known = _DICT_FIELDS.get(cls)
    if known is not None and known.issuperset(changes):  # the hot path, inline
        new: _T = _new_object(cls)
        _set_field(new, "__dict__", value.__dict__ | changes)  # dict union: faster than {**, **}
        return new
    copier = _COPIERS.get(cls) or _make_copier(cls)
    result: _T = copier(value, changes)
    return result


def fill(copy: _T, **changes: Any) -> _T:
    """Set fields of a copy the caller has just made with ``evolve`` and not handed on yet (a
    step's working copy, e.g. the hand after a bet, whose next seat to act is worked out from
    it), instead of copying it once more; frozen from then on. Never on a value received.

    >>> seat = evolve(SeatState(seat=1), stack=50)
    >>> fill(seat, status=SeatStatus.ACTIVE).status
    <SeatStatus.ACTIVE: 'active'>
    """
    known = _DICT_FIELDS.get(type(copy))
    if known is None or not known.issuperset(changes):
        raise TypeError(f"{type(copy).__name__} takes no field(s) {sorted(changes)} in place")
    copy.__dict__.update(changes)
    return copy


def _make_copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """One class's copy function: a single ``__dict__`` copy for the table-state classes
    (which have no slots for that reason), straight-line slot copies for any other."""
    names = tuple(f.name for f in fields(cls))
    if "__slots__" in vars(cls):
        return _make_slot_copier(cls, names)
    known = _DICT_FIELDS[cls] = frozenset(names)
    new_object, set_field = object.__new__, object.__setattr__

    def copy(value: Any, changes: dict[str, Any]) -> Any:
        if not known.issuperset(changes):
            raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - known)}")
        new: Any = new_object(cls)
        set_field(new, "__dict__", value.__dict__ | changes)
        return new

    _COPIERS[cls] = copy
    return copy


def _make_slot_copier(cls: type, names: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """Straight-line copy code for one slotted class: no loop, no ``getattr`` call per field."""
    lines = [
        "def copy(value, changes):",
        "    if not known.issuperset(changes):",
        "        raise TypeError(f'{cls.__name__} has no field(s) {sorted(set(changes) - known)}')",
        "    new = new_object(cls)",
        "    get = changes.get",
    ]
    lines += [f"    set_field(new, {n!r}, get({n!r}, value.{n}))" for n in names]
    lines.append("    return new")
    scope: dict[str, Any] = {
        "known": frozenset(names),
        "cls": cls,
        "new_object": object.__new__,
        "set_field": object.__setattr__,
    }
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    copier: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    _COPIERS[cls] = copier
    return copier


class SeatStatus(StrEnum):
    """Who sits in a seat and whether they are dealt in."""

    ACTIVE = "active"
    SITTING_OUT = "sitting_out"
    EMPTY = "empty"


class MissedBlind(StrEnum):
    """BLIND-07/08: the blind a seat that sat out missed (``SeatState.missed_blind``)."""

    SMALL = "small"
    BIG = "big"


class Owed(StrEnum):
    """BLIND-01..14, KILL-01, OPEN-09: what a seat owes before the deal, part by part, and once
    it has posted the parts it posted (``PlayerState.owes_what``): every value it holds."""

    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    BIG_BLIND_ANTE = "big_blind_ante"  # dead, posted by the big blind (WSOP)
    ANTE = "ante"
    RETURNING_BIG_BLIND = "returning_big_blind"
    ENTERING_BIG_BLIND = "entering_big_blind"
    DEAD_SMALL_BLIND = "dead_small_blind"
    STRADDLE_OFFER = "straddle_offer"
    STRADDLE = "straddle"  # BLIND-14: posted (the offer taken); the seat owed no part of it
    KILL = "kill"


class Phase(StrEnum):
    """Hand phases in order; triple draw uses all of them, single draw stops after betting_2."""

    POSTING = "posting"
    DEAL = "deal"
    BETTING_1 = "betting_1"
    DRAW_1 = "draw_1"
    BETTING_2 = "betting_2"
    DRAW_2 = "draw_2"
    BETTING_3 = "betting_3"
    DRAW_3 = "draw_3"
    BETTING_4 = "betting_4"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


def betting_phase(betting_round: int) -> Phase:
    """The phase of betting round ``n`` (1-based).

    >>> betting_phase(2)
    <Phase.BETTING_2: 'betting_2'>
    """
    return Phase(f"betting_{betting_round}")


def draw_phase(draw_round: int) -> Phase:
    """The phase of draw ``n`` (1-based)."""
    return Phase(f"draw_{draw_round}")


def phase_number(phase: Phase) -> int:
    """The round number of a betting or draw phase, 0 for the others.

    >>> phase_number(Phase.DRAW_3)
    3
    """
    return _ROUND_NUMBERS.get(phase, 0)


def is_betting(phase: Phase) -> bool:
    return phase in _BETTING_PHASES


def is_draw(phase: Phase) -> bool:
    return phase in _DRAW_PHASES


# Looked up, not read from ``phase.value`` (an enum property, ~10x a set lookup): the engine
# asks these several times per entry.
_BETTING_PHASES = frozenset(p for p in Phase if p.value.startswith("betting_"))
_DRAW_PHASES = frozenset(p for p in Phase if p.value.startswith("draw_"))
_ROUND_NUMBERS = {p: int(p.value.partition("_")[2]) for p in _BETTING_PHASES | _DRAW_PHASES}


# No slots: ``evolve`` copies the instance ``__dict__`` in one step (see ``_make_copier``).
@dataclass(frozen=True)
class SeatState:
    """One seat at the table between hands (stack as of the start of the current hand)."""

    seat: int
    player: str | None = None
    stack: int = 0
    status: SeatStatus = SeatStatus.EMPTY
    missed_blind: MissedBlind | None = None
    # seating.py: a newcomer not yet dealt in (BLIND-05); why an active seat waits for the big
    # blind (the rule ID, e.g. "BLIND-08", "BLIND-12"); the hand it sat out due a blind (BLIND-15)
    new_player: bool = False
    waiting: RuleId | None = None
    dodge_from: int | None = None
    # OPEN-08: opened falsely while all in for the antes; not dealt in until a legally opened
    # pot has been won, even if he rebuys (rules/hand/openers.py)
    false_opener: bool = field(default=False, metadata=OMIT_AT_DEFAULT)


# No slots: ``evolve`` copies the instance ``__dict__`` in one step (see ``_make_copier``).
@dataclass(frozen=True)
class PlayerState:
    """A seat dealt into the current hand: chips, betting flags, cards held and discarded."""

    seat: int
    stack: int  # chips behind, not yet put in
    committed: int = 0  # chips put in this hand: antes, live blinds, bets and calls
    dead: int = 0  # dead money this seat put in (big-blind ante): in the main pot, no level
    bet: int = 0  # chips put in during the current betting round (live)
    owes: int = 0  # forced bet still to post
    owes_what: tuple[Owed, ...] = ()  # e.g. (Owed.SMALL_BLIND, Owed.ANTE)
    folded: bool = False
    acted: bool = False  # acted in the current betting round
    may_raise: bool = True  # the betting is open to this seat (BET-04/05)
    checked: bool = False  # checked in the current betting round (BET-06)
    held: int = 0  # cards in the hand
    cards: tuple[str, ...] = ()  # card mode: the cards held ("??" = unknown)
    drawn: tuple[int, ...] = ()  # cards drawn in each draw so far
    pile: tuple[int, ...] = ()  # own discards of each draw still in the discard pile
    pile_cards: tuple[tuple[str, ...], ...] = ()  # card mode: those discards
    pending: int = 0  # card mode: replacement cards still to be entered with `deal`
    shown: tuple[str, ...] | None = None
    mucked: bool = False
    timed_out: bool = False  # DRAW-11: declared pat by the timer; no bet or raise after
    returned: int = 0  # uncalled chips returned to this seat
    split_discards: tuple[str, ...] | None = None  # OPEN-07: discards kept aside when splitting
    # GAME-06 table stakes: chips the floor added during the hand, behind from the next hand
    added: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    # OPEN-08: all in for the antes in a jackpots game, not yet asked whether it opens (it may
    # declare the pot open before anyone has; callers put in the full opening bet)
    may_open: bool = field(default=False, metadata=OMIT_AT_DEFAULT)

    @property
    def all_in(self) -> bool:
        return not self.folded and self.stack == 0 and self.owes == 0

    @property
    def can_bet(self) -> bool:
        """Still in the hand with chips behind."""
        return not self.folded and self.stack > 0


# No slots: ``evolve`` copies the instance ``__dict__`` in one step (see ``_make_copier``).
@dataclass(frozen=True)
class HandState:
    """The hand in progress (or just completed) at a table."""

    hand_no: int
    phase: Phase
    button: int
    players: tuple[PlayerState, ...]  # dealing order: first seat left of the button first
    deck: int = 52
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    to_act: int | None = None
    current_bet: int = 0  # highest bet of the round
    full_bet: int = 0  # the highest bet that counts as a full bet (raise base, BET-04)
    last_raise: int = 0  # size of the last full bet or raise (BET-05)
    raises: int = 0  # full bets and raises of the round that count toward the cap (BET-03)
    capped: bool = True  # the cap applies in this round (BET-03 uncapped heads-up)
    last_aggressor: int | None = None
    opener: int | None = None
    stub: int = 0
    burns: int = 0  # burn cards in the burn pile
    burned_this_draw: bool = False
    muck: int = 0  # cards of folded hands
    muck_cards: tuple[str, ...] = ()
    dead: int = 0  # dead money in the pot that is nobody's bet
    reshuffles: int = 0
    come_back: tuple[int, ...] = ()  # DRAW-03: seats owed their fifth card after the others
    last_receiver: int | None = None  # the last seat dealt replacement cards in this draw
    draw_deadline: str | None = None  # DRAW-11: ISO time after which `time` is accepted
    result: HandResult | None = None
    pot_held: bool = False  # rulings: the floor impounded the pot; no entry until released
    straddle_seat: int | None = None  # BLIND-14: a live straddle; action starts to its left
    waiting: tuple[tuple[int, RuleId], ...] = ()  # seats not dealt in this hand and the rule why
    # KILL-01..06: the seat that kills this hand (limits multiplied, action starts to its left)
    kill_seat: int | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    # IRREG-01/03: cards the dealer exposed on the initial deal (two or more: a misdeal), and in
    # card mode the first one when replaced: it is the burn, out of play until a reshuffle
    exposed: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    exposed_burn: str | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    # IRREG-04: seats owed the replacement of a card exposed on the draw (once per card; they
    # are in come_back too), a card already in the burn pile that stands for the next burn
    # (IRREG-04's, or IRREG-06's extra card), and in card mode the cards exposed on the draw or
    # dealt extra on the deal (IRREG-06) now in the burn pile (out of play until a reshuffle)
    exposed_owed: tuple[int, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    spare_burn: bool = field(default=False, metadata=OMIT_AT_DEFAULT)
    burn_cards: tuple[str, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    # IRREG-01/06: extra cards dealt on the initial deal (two or more: a misdeal)
    extra_cards: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    # IRREG-04: the rule the hand waits on the floor for (the stub and the reshuffle pool
    # cannot replace a card exposed on the draw): no dealer entry until the floor rules
    floor_wait: RuleId | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    # BET-04/05 ``short_all_in = "pokerkit"`` (replay-permissive) only: pokerkit 0.7.7's
    # ``acted_player_indices`` (the seats that acted since the last bet or raise of at least the
    # round's largest increment, its maker included) and ``consecutive_short_all_in_amounts``
    # (the increments of the short all-ins in a row since); ``last_raise`` is then its
    # ``completion_betting_or_raising_amount`` and ``raises`` its count
    acted_seats: tuple[int, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    short_all_ins: tuple[int, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    # DECK-06: cards found face up in the stub in this hand (now in the burn pile; two: void)
    boxed: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    # RAKE-05 (``collection = "time"``): this hand started a new period, so each seat dealt in
    # owes ``time_due`` once the posts are made; then the total it paid is ``time_collected``
    # (rules/hand/rake.py); 0 in every other hand
    time_due: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    time_collected: int = field(default=0, metadata=OMIT_AT_DEFAULT)

    def player(self, seat: int) -> PlayerState:
        for player in self.players:
            if player.seat == seat:
                return player
        raise InvalidInput(said=told.SEAT_NOT_IN_HAND(seat=seat))

    def has(self, seat: int) -> bool:
        for player in self.players:  # noqa: SIM110 - no generator to make, several times an entry
            if player.seat == seat:
                return True
        return False

    def with_player(self, updated: PlayerState, **changes: Any) -> HandState:
        """The hand with ``updated`` in its seat's place, and any other ``changes``, in one copy."""
        players = self.players
        seat = updated.seat
        for index, player in enumerate(players):
            if player.seat == seat:
                changes["players"] = (*players[:index], updated, *players[index + 1 :])
                break
        else:  # not dealt in: the players stay as they are (as before)
            changes["players"] = players
        return evolve(self, **changes)

    def live(self) -> Iterator[PlayerState]:
        """Players who have not folded, in dealing order."""
        return (player for player in self.players if not player.folded)

    @property
    def pot(self) -> int:
        """Every chip in the middle, the current round's bets included."""
        return sum(player.committed + player.dead for player in self.players) + self.dead

    def seats_from(self, seat: int) -> list[int]:
        """Seats in the hand clockwise, starting with the first one after ``seat``."""
        order = sorted([player.seat for player in self.players])
        first = bisect_right(order, seat)
        return order[first:] + order[:first]


# No slots: ``evolve`` copies the instance ``__dict__`` in one step (see ``_make_copier``).
@dataclass(frozen=True)
class TableState:
    """One table: its spec, seats, button, current hand, and the service-owned version."""

    table_id: str
    spec: TableSpec
    seats: tuple[SeatState, ...]
    version: int = 0
    button: int | None = None
    hand: HandState | None = None
    hand_no: int = 0
    instructions: tuple[Instruction, ...] = field(default_factory=tuple)
    small_blind_position: int | None = None  # BLIND-03: last hand's small blind, posted or dead
    big_blind_position: int | None = None  # BLIND-03: the seat that took last hand's big blind
    carried_pot: int = 0  # OPEN-03: antes of a deal nobody opened, carried into the next deal
    button_stays: bool = False  # OPEN-03 same_dealer: the passed-out deal's dealer deals again
    # OPEN-03: passed-out deals in a row whose antes are in carried_pot (reset by a deal
    # that starts with nothing carried)
    passed_out_deals: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    # rulings: the table before the current hand started and every command accepted since
    # ({"at", "command"}), as compact JSON strings, so a ruling can void actions by rebuilding
    # the hand (rules/floor/rulings.py)
    before_hand: str | None = None
    hand_log: tuple[str, ...] = ()
    # KILL-02/03: the seat with a leg up (it won the last pot alone) and its legs: 1, or 2 =
    # it won two in a row and kills the next hand (rules/hand/kills.py)
    kill_leg: int | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    kill_legs: int = field(default=0, metadata=OMIT_AT_DEFAULT)
    # KILL-03: the player (ID) who left holding the leg; the button is neutral meanwhile and the
    # leg is his again if he sits down before the next pot is won (rules/hand/kills.py)
    kill_leg_away: str | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    # OPEN-08: players (IDs) who left while they waited as false openers; the wait is theirs
    # again if they sit down before a legally opened pot has been won (rules/hand/openers.py)
    false_openers_away: tuple[str, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    # BLIND-11 (c), [blinds] new_game_orbit only: from the second hand of a new game until the
    # blinds have gone round, the seats no blind had passed when the last hand started
    # (clockwise from the big blind, the first button last; rules/table/blinds.py unpassed_seats).
    # Empty in hand 1 (the table's hand says it), after the first orbit and under profiles
    # without the option, so every state recorded before it encodes byte for byte as before.
    first_orbit: tuple[int, ...] = field(default=(), metadata=OMIT_AT_DEFAULT)
    # RAKE-05 (``collection = "time"`` only): when the table's first period started (ISO 8601,
    # the ``at`` of its first hand) and how many periods have been collected since
    time_started: str | None = field(default=None, metadata=OMIT_AT_DEFAULT)
    time_periods: int = field(default=0, metadata=OMIT_AT_DEFAULT)

    def seat(self, seat: int) -> SeatState:
        if not 1 <= seat <= len(self.seats):
            raise InvalidInput(said=told.NO_SUCH_SEAT(seat=seat, seats=len(self.seats)))
        return self.seats[seat - 1]

    def with_seat(self, updated: SeatState) -> TableState:
        seats = tuple([updated if s.seat == updated.seat else s for s in self.seats])
        return evolve(self, seats=seats)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, lossless (``TableState.from_dict(s.to_dict()) == s``)."""
        data = _to_json(self)
        assert isinstance(data, dict)
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> TableState:
        try:
            return _table_from(data)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidInput(f"not a table state: {error}") from error


_PLAIN = frozenset({int, str, bool, float, type(None)})
_NAMES: dict[type, tuple[str, ...] | None] = {}
Codec = tuple[str, Callable[[Any], Any]]
_ENCODERS: dict[type, tuple[Codec, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (cached), None for any other type."""
    if kind not in _NAMES:
        _NAMES[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _NAMES[kind]


def _encoders(kind: type) -> tuple[Codec, ...]:
    """A table-state class's fields that JSON does not take as they are, with their encoder
    (chosen from the annotation: flat tuples become lists, enums their values)."""
    if kind not in _ENCODERS:
        _ENCODERS[kind] = tuple(
            (f.name, _ENCODE_BY_TYPE.get(str(f.type), _to_json))
            for f in fields(kind)
            if str(f.type) not in _PLAIN_TYPES
        )
    return _ENCODERS[kind]


def _optional_list(value: Any) -> Any:
    return None if value is None else list(value)


def _enum_value(value: Any) -> Any:
    return value.value


def _result_json(value: HandResult | None) -> Any:
    return None if value is None else value.to_json()


def _as_is(value: Any) -> Any:
    """A ``StrEnum`` field: JSON takes it as it is (it encodes as its value)."""
    return value


_PLAIN_TYPES = frozenset({"int", "str", "bool", "int | None", "str | None", "bool | None"})
# OMIT_AT_DEFAULT fields: plain values, or flat tuples (written as lists, IRREG-04's fields)
_OMITTABLE = _PLAIN_TYPES | {"tuple[str, ...]", "tuple[int, ...]", "RuleId | None"}
_ENCODE_BY_TYPE: dict[str, Callable[[Any], Any]] = {
    "tuple[str, ...]": list,
    "tuple[int, ...]": list,
    "tuple[Owed, ...]": list,  # the members: JSON takes them as their values
    "tuple[str, ...] | None": _optional_list,
    "tuple[int, ...] | None": _optional_list,
    "MissedBlind | None": _as_is,
    "RuleId | None": _as_is,
    "Phase": _enum_value,
    "SeatStatus": _enum_value,
    "HandResult | None": _result_json,
}


def _to_json(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:  # plain items are taken as they are, without a call
        return [item if type(item) in _PLAIN else _to_json(item) for item in value]
    if kind is dict:
        return {
            str(key): item if type(item) in _PLAIN else _to_json(item)
            for key, item in value.items()
        }
    if kind in _TABLE_CLASSES:
        return (_TO_JSON.get(kind) or _make_to_json(kind))(value)
    names = _field_names(kind)
    if names is not None:
        return {name: _to_json(getattr(value, name)) for name in names}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(key): _to_json(item) for key, item in value.items()}
    return value


_TO_JSON: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _make_to_json(kind: type) -> Callable[[Any], dict[str, Any]]:
    """Straight-line ``to_dict`` code for one table-state class, built from its fields.

    One dict display over the instance ``__dict__`` (every field is always there: the
    classes are built by ``__init__``, ``evolve`` or ``_build``), with each field's encoder
    inlined: a third of the time of the loop it replaces, and ``to_dict`` runs on every
    request (the stored state) and in every round trip of the benchmark. A field marked
    ``OMIT_AT_DEFAULT`` (plain values only) is added after the display only when it differs
    from its default; ``from_dict`` fills a missing field with its default.
    """
    encoders = dict(_encoders(kind))
    scope: dict[str, Any] = {
        "_to_json": _to_json,
        "_optional_list": _optional_list,
        "_result_json": _result_json,
    }
    items = []
    for item in fields(kind):
        if item.metadata.get("omit_at_default"):
            continue
        name = item.name
        get = f"d[{name!r}]"
        encode = encoders.get(name)
        nested = _NESTED.get(str(item.type))
        if nested is not None:  # the table's own classes: their encoder, called directly
            cls, optional = nested
            scope[cls.__name__] = _TO_JSON.get(cls) or _make_to_json(cls)
            call = f"{cls.__name__}({get})"
            if str(item.type).startswith("tuple["):
                items.append(f"{name!r}: [{cls.__name__}(x) for x in {get}]")
            else:
                value = f"None if {get} is None else {call}" if optional else call
                items.append(f"{name!r}: {value}")
        elif str(item.type) == "TableSpec":
            items.append(f"{name!r}: {get}.to_dict()")
        elif str(item.type) in ("tuple[tuple[str, ...], ...]", "tuple[tuple[int, RuleId], ...]"):
            items.append(f"{name!r}: [list(x) for x in {get}]")
        elif encode is None or encode is _as_is:
            items.append(f"{name!r}: {get}")
        elif encode is list:
            items.append(f"{name!r}: list({get})")
        elif encode is _optional_list:
            items.append(f"{name!r}: _optional_list({get})")
        elif encode is _enum_value:
            items.append(f"{name!r}: {get}._value_")
        elif encode is _result_json:
            items.append(f"{name!r}: _result_json({get})")
        else:
            items.append(f"{name!r}: _to_json({get})")
    lines = [
        "def to_json(value):",
        "    d = value.__dict__",
        "    out = {" + ", ".join(items) + "}",
    ]
    for index, item in enumerate(fields(kind)):
        if item.metadata.get("omit_at_default"):  # appended only when set (OMIT_AT_DEFAULT)
            kind_name = str(item.type)
            assert kind_name in _OMITTABLE, f"{item.name}: only plain fields are omitted"
            scope[f"default_{index}"] = item.default
            value = f"d[{item.name!r}]"
            lines.append(f"    if {value} != default_{index}:")
            encoded = f"list({value})" if kind_name.startswith("tuple[") else value
            lines.append(f"        out[{item.name!r}] = {encoded}")
    source = "\n".join([*lines, "    return out"])
    exec(source, scope)  # the code is built from the class's own field names
    encoder: Callable[[Any], dict[str, Any]] = scope["to_json"]
    _TO_JSON[kind] = encoder
    return encoder


def _tuples(value: Any) -> Any:
    if type(value) is list:
        return tuple([_tuples(item) for item in value])
    return value


_TEMPLATES: dict[type, tuple[dict[str, Any], frozenset[str], frozenset[str]]] = {}


def _template(cls: type) -> tuple[dict[str, Any], frozenset[str], frozenset[str]]:
    """Every field in order with its default (None if it has none), the names, the required."""
    if cls not in _TEMPLATES:
        defaults: dict[str, Any] = {}
        required: set[str] = set()
        for item in fields(cls):
            if item.default_factory is not MISSING:
                defaults[item.name] = item.default_factory()
            elif item.default is not MISSING:
                defaults[item.name] = item.default
            else:
                defaults[item.name] = None
                required.add(item.name)
        _TEMPLATES[cls] = defaults, frozenset(defaults), frozenset(required)
    return _TEMPLATES[cls]


def _build(cls: Any, data: Mapping[str, Any], special: Mapping[str, Callable[[Any], Any]]) -> Any:
    """An instance from its JSON fields without running ``__init__`` (one ``__dict__``)."""
    builder = _BUILDERS.get(cls) or _make_builder(cls, special)
    return builder(data)


_BUILDERS: dict[type, Callable[[Any], Any]] = {}


def _make_builder(cls: type, special: Mapping[str, Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """Straight-line decoding code for one class (cached; one ``special`` per class).

    The fields are checked (none unknown, none required missing), merged over the
    defaults, and each field that JSON does not hold as it is gets its decoder inlined:
    ``tuple(...)`` for flat tuples, a dict lookup for enums (``KeyError`` for an unknown
    value, as ``from_dict`` expects), a call for the rest.
    """
    defaults, names, required = _template(cls)
    scope: dict[str, Any] = {
        "cls": cls,
        "defaults": defaults,
        "names": names,
        "required": required,
        "refuse": _refuse_fields,
        "new_object": object.__new__,
        "set_field": object.__setattr__,
    }
    lines = [
        "def build(data):",
        "    if not names.issuperset(data) or not required.issubset(data):",
        "        refuse(cls, data, names, required)",
        "    v = {**defaults, **data}",
    ]
    for index, (name, decode) in enumerate(_decoders(cls, special)):
        get = f"v[{name!r}]"
        if decode is tuple:
            lines.append(f"    {get} = tuple({get})")
        elif isinstance(decode, type) and issubclass(decode, Enum):
            scope[f"members_{index}"] = decode._value2member_map_
            lines.append(f"    {get} = members_{index}[{get}]")
        else:
            scope[f"decode_{index}"] = decode
            lines.append(f"    {get} = decode_{index}({get})")
    lines += ["    instance = new_object(cls)", "    set_field(instance, '__dict__', v)"]
    lines.append("    return instance")
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    builder: Callable[[Any], Any] = scope["build"]
    _BUILDERS[cls] = builder
    return builder


def _refuse_fields(
    cls: type, data: Mapping[str, Any], names: frozenset[str], required: frozenset[str]
) -> None:
    if not names.issuperset(data):
        unknown = sorted(set(data) - names)
        raise ValueError(f"unknown fields {unknown} in {cls.__name__}")
    raise KeyError(f"{cls.__name__} needs {sorted(required - set(data))}")


_DECODERS: dict[type, tuple[Codec, ...]] = {}


def _decoders(cls: type, special: Mapping[str, Callable[[Any], Any]]) -> tuple[Codec, ...]:
    """The decoder of each field ``_encoders`` encodes (cached: one ``special`` per class)."""
    if cls not in _DECODERS:
        _DECODERS[cls] = tuple(
            (name, special.get(name) or _DECODE_BY_ENCODER.get(encode, _tuples))
            for name, encode in _encoders(cls)
        )
    return _DECODERS[cls]


def _optional_tuple(value: Any) -> Any:
    return None if value is None else tuple(value)


_DECODE_BY_ENCODER: dict[Callable[[Any], Any], Callable[[Any], Any]] = {
    list: tuple,
    _optional_list: _optional_tuple,
}


def _players_from(items: Any) -> tuple[PlayerState, ...]:
    return tuple([_build(PlayerState, item, _PLAYER_SPECIAL) for item in items])


def _seats_from(items: Any) -> tuple[SeatState, ...]:
    return tuple([_build(SeatState, item, _SEAT_SPECIAL) for item in items])


def _hand_from(data: Any) -> HandState | None:
    return None if data is None else _build(HandState, data, _HAND_SPECIAL)


_SPECS: dict[tuple[Any, ...], TableSpec] = {}


def _spec_from(data: Any) -> TableSpec:
    """``TableSpec.from_dict``, remembered: a table's spec never changes and every request
    decodes it (a fifth of ``from_dict``). The key holds each value's type, so ``6.0`` or
    ``True`` is never taken for a valid ``6`` or ``1``."""
    try:
        key = (*_typed_items(data), None, *_typed_items(data.get("stakes")))
        spec = _SPECS.get(key)
    except (AttributeError, TypeError):  # not a dict, or an unhashable value
        return TableSpec.from_dict(data)
    if spec is None:
        spec = TableSpec.from_dict(data)
        if len(_SPECS) >= 1024:
            _SPECS.clear()
        _SPECS[key] = spec
    return spec


def _typed_items(data: dict[str, Any]) -> Iterator[tuple[str, type, Any]]:
    return ((key, type(value), value) for key, value in data.items() if key != "stakes")


def _table_from(data: Mapping[str, Any]) -> TableState:
    table: TableState = _build(TableState, data, _TABLE_SPECIAL)
    return table


_TABLE_CLASSES = frozenset({SeatState, PlayerState, HandState, TableState})


def _one_dict_init(cls: type) -> None:
    """Give a table-state class an ``__init__`` that sets its ``__dict__`` in one step, as
    ``evolve`` and ``_build`` make their values, instead of the frozen dataclass's one
    ``object.__setattr__`` per field (a new hand of 45 fields took 5 us, a player 2.4 us).
    Same signature, defaults and field order; the class stays frozen."""
    scope: dict[str, Any] = {"set_field": object.__setattr__, "UNSET": object()}
    pairs = [_init_field(index, item, scope) for index, item in enumerate(fields(cls))]
    params, items = [param for param, _ in pairs], [item for _, item in pairs]
    lines = [f"def __init__(self, {', '.join(params)}):"]
    lines.append(f"    set_field(self, '__dict__', {{{', '.join(items)}}})")
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - a method assigned after the class is made


def _init_field(index: int, item: Field[Any], scope: dict[str, Any]) -> tuple[str, str]:
    """One field's parameter (with its default) and its item of the ``__dict__`` display."""
    assert item.init and not item.kw_only, f"{item.name}: a plain init field"
    name = item.name
    if item.default is not MISSING:
        scope[f"default_{index}"] = item.default
        return f"{name}=default_{index}", f"{name!r}: {name}"
    if item.default_factory is not MISSING:
        scope[f"factory_{index}"] = item.default_factory
        return f"{name}=UNSET", f"{name!r}: factory_{index}() if {name} is UNSET else {name}"
    return name, f"{name!r}: {name}"


for _kind in (SeatState, PlayerState, HandState, TableState):
    assert not hasattr(_kind, "__post_init__")
    _one_dict_init(_kind)

# fields holding the table's own classes (by annotation): the class, and whether it may be None
_NESTED: dict[str, tuple[type, bool]] = {
    "tuple[SeatState, ...]": (SeatState, False),
    "tuple[PlayerState, ...]": (PlayerState, False),
    "HandState | None": (HandState, True),
}


def _optional(kind: Callable[[Any], _T]) -> Callable[[Any], _T | None]:
    """The decoder of an optional ``StrEnum`` field (``ValueError`` for an unknown value)."""

    def decode(value: Any) -> _T | None:
        return None if value is None else kind(value)

    return decode


def _result_from(data: Any) -> HandResult | None:
    return None if data is None else result_from_json(data)


def _waits_from(items: Any) -> tuple[tuple[int, RuleId], ...]:
    return tuple([(seat, RuleId(rule)) for seat, rule in items])


_OWED: dict[str, Owed] = {owed.value: owed for owed in Owed}


def _owed_from(items: Any) -> tuple[Owed, ...]:
    """``owes_what``: each part its ``Owed`` member (``KeyError`` for a value outside the set)."""
    return tuple([_OWED[item] for item in items])


_PLAYER_SPECIAL: dict[str, Callable[[Any], Any]] = {
    "shown": _optional_tuple,
    "owes_what": _owed_from,
}
_SEAT_SPECIAL: dict[str, Callable[[Any], Any]] = {
    "status": SeatStatus,
    "missed_blind": _optional(MissedBlind),
    "waiting": _optional(RuleId),
}
_HAND_SPECIAL: dict[str, Callable[[Any], Any]] = {
    "phase": Phase,
    "waiting": _waits_from,
    "floor_wait": _optional(RuleId),
    "players": _players_from,
    "result": _result_from,
}


def _instructions_from(items: Any) -> tuple[Instruction, ...]:
    """The stored instructions, each a copy of its JSON object (the keys ``Instruction`` names)."""
    return tuple(cast(Instruction, dict(item)) for item in items)


_TABLE_SPECIAL: dict[str, Callable[[Any], Any]] = {
    "spec": _spec_from,
    "seats": _seats_from,
    "hand": _hand_from,
    "instructions": _instructions_from,
}
