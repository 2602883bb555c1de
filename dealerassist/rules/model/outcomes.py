"""What the engine answers, listed in one place: every event it emits (a frozen slotted
dataclass each), the dealer's instructions, the legal actions, the notices (``Notice``, a
frozen dataclass of ``violations.py``, listed here with the rest) and the closed sets they name.

``EVENT_TYPES`` lists the events; ``Event`` is their union. Each encodes with ``to_json()`` to
the dict the audit chain stores, key for key and in the same key order as the dict literals
it replaced (an optional key is written only when set, as before), so every chain recorded
by an earlier version hashes and replays as it did (``tests/unit/audit``'s golden vectors;
``bench/engine_fingerprint.py``). ``event_from_json`` reads one back (dispatch by its
``type``, from a table).

The objects carry no validation and build nothing until encoded: the engine makes one or
two per command on its hot path. A hand's ``result`` is a ``HandResult`` (one frozen
dataclass per way a hand ends, ``hand_result.py``, listed here with the rest); a journal entry
(the commands a ``voided`` or ``draw_changed`` took back) stays the JSON object the journal
already holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, NotRequired, TypedDict

from dealerassist.rules.model.actions import Act, command_from_dict
from dealerassist.rules.model.hand_result import (
    AwardedResult,
    CancelledResult,
    ChoppedResult,
    HandResult,
    JsonObject,
    KillLeg,
    PassedOutResult,
    PotAward,
    result_from_json,
)
from dealerassist.rules.model.instruction import Instruction
from dealerassist.rules.model.state import MissedBlind, Owed, Phase
from dealerassist.rules.model.violations import Notice

__all__ = [
    "EVENT_TYPES",
    "HAND_OVER",
    "ActionTaken",
    "AddedChips",
    "AwardedResult",
    "BettingReopened",
    "BoxedCard",
    "ButtonMoved",
    "CancelledResult",
    "ChangedSeat",
    "ChoppedResult",
    "DrawChanged",
    "EntryAccepted",
    "EntryOption",
    "Event",
    "Exposed",
    "ExposedTaken",
    "ExtraCard",
    "FalseOpenerCleared",
    "FloorWaitOver",
    "HandCancelled",
    "HandEnded",
    "HandKilled",
    "HandResult",
    "HandStarted",
    "Instruction",
    "JsonObject",
    "KillLeg",
    "KillRecord",
    "Left",
    "LegalAction",
    "MissedBlind",
    "Next",
    "Notice",
    "Owed",
    "PassedOut",
    "PassedOutResult",
    "PhaseEntered",
    "Posted",
    "PotAward",
    "PotHeld",
    "PotReleased",
    "Returned",
    "ReturnedToPlay",
    "RulingMade",
    "SatOut",
    "Seated",
    "StackAdjusted",
    "TimeCollected",
    "Voided",
    "WaitsForBigBlind",
    "event_from_json",
    "events_json",
    "result_from_json",
]


class LegalAction(TypedDict, total=False):
    """One thing the seat to act (or, for an irregularity, a seat) may enter now, as the
    engine lists it in ``legal_actions``, the table's view and a refusal's ``allowed``: the
    ``action`` and what bounds it. A typed dict: it is answered as JSON, these keys only."""

    action: str
    effect: str  # a floor ruling's effect the refusal names instead (IRREG-04)
    seat: int | None
    seats: list[int]
    player: str  # a player away from the table (OPEN-08's false openers)
    pot: str  # a pot the floor may award (SHOW-07), named as ``ruling_commands.pot_name``
    eligible: list[int]
    amount: int
    min: int
    max: int | None
    max_with_ace_shown: int
    count: int
    option: str
    owes: list[str]
    rap: str
    disposition: str
    keep_ranks: str
    returns: dict[str, int]
    text: str
    text_id: str  # what ``text`` says (``model/said.py``): the API renders it
    params: dict[str, Any]
    button: int | None


class Next(TypedDict):
    """``legal_actions``: the seat to act, the phase and its legal actions; ``floor`` the rule
    the hand waits on the floor for (IRREG-04, SHOW-11), when it does."""

    seat: int
    phase: str
    legal: list[LegalAction]
    floor: NotRequired[str]


# -- closed sets (``MissedBlind`` and ``Owed`` are the state's, listed here with the rest) ----


class EntryOption(StrEnum):
    """``Act.option``: a post's choice (BLIND-05/06/14), the draw's split (OPEN-07), the
    dealer's keep or replace of an exposed card (IRREG-03)."""

    WAIT = "wait"
    STRADDLE = "straddle"
    NO_STRADDLE = "no_straddle"
    BIG_BLIND_ONLY = "big_blind_only"
    SPLIT = "split"
    KEEP = "keep"
    REPLACE = "replace"


# -- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """``action``: the dealer's entry for a seat, with each detail entered with it."""

    TYPE: ClassVar[str] = "action"
    act: Act

    def to_json(self) -> JsonObject:
        act = self.act
        record: JsonObject = {"type": "action", "seat": act.seat, "action": str(act.action)}
        if act.amount is not None:
            record["amount"] = act.amount
        if act.count is not None:
            record["count"] = act.count
        if act.cards is not None:
            record["cards"] = list(act.cards)
        if act.discards is not None:
            record["discards"] = list(act.discards)
        if act.rank is not None:
            record["rank"] = act.rank
        if act.ace_shown:
            record["ace_shown"] = True
        if act.option is not None:
            record["option"] = act.option
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ActionTaken:
        act = command_from_dict(data)
        assert isinstance(act, Act)
        return cls(act)


@dataclass(frozen=True, slots=True)
class PhaseEntered:
    """``phase``: the hand moved to this phase (GAME-01/03)."""

    TYPE: ClassVar[str] = "phase"
    phase: Phase

    def to_json(self) -> JsonObject:
        return {"type": "phase", "phase": self.phase.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PhaseEntered:
        return cls(Phase(data["phase"]))


@dataclass(frozen=True, slots=True)
class Posted:
    """``posted``: a blind, ante, straddle or kill blind put in (BLIND-01..14, KILL-01)."""

    TYPE: ClassVar[str] = "posted"
    seat: int
    amount: int
    option: EntryOption | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {"type": "posted", "seat": self.seat, "amount": self.amount}
        if self.option:
            record["option"] = self.option.value
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Posted:
        option = data.get("option")
        return cls(data["seat"], data["amount"], None if option is None else EntryOption(option))


@dataclass(frozen=True, slots=True)
class WaitsForBigBlind:
    """``waits_for_big_blind``: the seat waits for the big blind instead of posting (BLIND-05)."""

    TYPE: ClassVar[str] = "waits_for_big_blind"
    seat: int

    def to_json(self) -> JsonObject:
        return {"type": "waits_for_big_blind", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class SatOut:
    """``sat_out``: the seat sat out, and the blind it missed by it (BLIND-07/08)."""

    TYPE: ClassVar[str] = "sat_out"
    seat: int
    missed_blind: MissedBlind | None

    def to_json(self) -> JsonObject:
        missed = None if self.missed_blind is None else self.missed_blind.value
        return {"type": "sat_out", "seat": self.seat, "missed_blind": missed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SatOut:
        missed = data["missed_blind"]
        return cls(data["seat"], None if missed is None else MissedBlind(missed))


@dataclass(frozen=True, slots=True)
class Seated:
    """``seated``: a player took the seat with this stack."""

    TYPE: ClassVar[str] = "seated"
    seat: int
    player: str
    stack: int

    def to_json(self) -> JsonObject:
        return {"type": "seated", "seat": self.seat, "player": self.player, "stack": self.stack}


@dataclass(frozen=True, slots=True)
class Left:
    """``left``: the player left the seat with this stack."""

    TYPE: ClassVar[str] = "left"
    seat: int
    player: str | None
    stack: int

    def to_json(self) -> JsonObject:
        return {"type": "left", "seat": self.seat, "player": self.player, "stack": self.stack}


@dataclass(frozen=True, slots=True)
class ReturnedToPlay:
    """``returned_to_play``: a seat sitting out came back (``wait``: for the big blind)."""

    TYPE: ClassVar[str] = "returned_to_play"
    seat: int
    wait: bool

    def to_json(self) -> JsonObject:
        return {"type": "returned_to_play", "seat": self.seat, "wait": self.wait}


@dataclass(frozen=True, slots=True)
class AddedChips:
    """``added_chips``: chips added to a stack between hands (GAME-06)."""

    TYPE: ClassVar[str] = "added_chips"
    seat: int
    chips: int

    def to_json(self) -> JsonObject:
        return {"type": "added_chips", "seat": self.seat, "chips": self.chips}


@dataclass(frozen=True, slots=True)
class ChangedSeat:
    """``changed_seat``: the player moved to seat ``to`` (BLIND-12)."""

    TYPE: ClassVar[str] = "changed_seat"
    seat: int
    to: int

    def to_json(self) -> JsonObject:
        return {"type": "changed_seat", "seat": self.seat, "to": self.to}


@dataclass(frozen=True, slots=True)
class KillRecord:
    """KILL-01 for the audit log: who kills, the kill blind and the hand's bet sizes."""

    seat: int | None
    blind: int
    small_bet: int
    big_bet: int

    def to_json(self) -> JsonObject:
        return {
            "seat": self.seat,
            "blind": self.blind,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }


@dataclass(frozen=True, slots=True)
class HandStarted:
    """``hand_started``: the hand's number, button and the seats dealt in; ``kill`` only in a
    kill pot (KILL-01), so other hands record as before."""

    TYPE: ClassVar[str] = "hand_started"
    hand_no: int
    button: int | None
    dealt: tuple[int, ...]
    kill: KillRecord | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {
            "type": "hand_started",
            "hand_no": self.hand_no,
            "button": self.button,
            "dealt": list(self.dealt),
        }
        if self.kill is not None:
            record["kill"] = self.kill.to_json()
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandStarted:
        kill = data.get("kill")
        dealt = tuple(data["dealt"])
        return cls(data["hand_no"], data["button"], dealt, None if kill is None else _kill(kill))


def _kill(data: Mapping[str, Any]) -> KillRecord:
    return KillRecord(data["seat"], data["blind"], data["small_bet"], data["big_bet"])


@dataclass(frozen=True, slots=True)
class HandEnded:
    """``hand_ended``: every pot awarded (or chopped, SHOW-08); ``result`` is the hand's."""

    TYPE: ClassVar[str] = "hand_ended"
    result: HandResult

    def to_json(self) -> JsonObject:
        return {"type": "hand_ended", "result": self.result.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandEnded:
        return cls(result_from_json(data["result"]))


@dataclass(frozen=True, slots=True)
class HandCancelled:
    """``hand_cancelled``: fewer than two dealt in, or a misdeal; every chip goes back."""

    TYPE: ClassVar[str] = "hand_cancelled"
    result: CancelledResult

    def to_json(self) -> JsonObject:
        return {"type": "hand_cancelled", "result": self.result.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandCancelled:
        return cls(CancelledResult.from_json(data["result"]))


@dataclass(frozen=True, slots=True)
class PassedOut:
    """``passed_out``: nobody opened (OPEN-03); the antes carry to the next deal."""

    TYPE: ClassVar[str] = "passed_out"
    result: PassedOutResult | None

    def to_json(self) -> JsonObject:
        result = None if self.result is None else self.result.to_json()
        return {"type": "passed_out", "result": result}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PassedOut:
        result = data["result"]
        return cls(None if result is None else PassedOutResult.from_json(result))


@dataclass(frozen=True, slots=True)
class Returned:
    """``returned``: an uncalled bet went back to its seat (SHOW-05)."""

    TYPE: ClassVar[str] = "returned"
    seat: int
    amount: int

    def to_json(self) -> JsonObject:
        return {"type": "returned", "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class TimeCollected:
    """``time_collected``: RAKE-05's time charge, each seat's part and the total."""

    TYPE: ClassVar[str] = "time_collected"
    seats: dict[str, int]
    amount: int

    def to_json(self) -> JsonObject:
        return {"type": "time_collected", "seats": self.seats, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class DrawChanged:
    """``draw_changed``: DRAW-07, the entries taken back (journal entries) before the new one."""

    TYPE: ClassVar[str] = "draw_changed"
    seat: int
    was: list[JsonObject]

    def to_json(self) -> JsonObject:
        return {"type": "draw_changed", "seat": self.seat, "was": self.was}


@dataclass(frozen=True, slots=True)
class Exposed:
    """``exposed``: a card exposed in the deal or the draw and the dealer's ruling (IRREG-03/04)."""

    TYPE: ClassVar[str] = "exposed"
    seat: int
    exposed: str | None
    ruling: str

    def to_json(self) -> JsonObject:
        return {
            "type": "exposed",
            "seat": self.seat,
            "exposed": self.exposed,
            "ruling": self.ruling,
        }


@dataclass(frozen=True, slots=True)
class ExtraCard:
    """``extra_card``: IRREG-06, a seat dealt one card too many (burned, or a misdeal)."""

    TYPE: ClassVar[str] = "extra_card"
    seat: int
    card: str | None
    ruling: str

    def to_json(self) -> JsonObject:
        return {"type": "extra_card", "seat": self.seat, "card": self.card, "ruling": self.ruling}


@dataclass(frozen=True, slots=True)
class BoxedCard:
    """``boxed_card``: DECK-06, a card found face up in the stub, and how many so far."""

    TYPE: ClassVar[str] = "boxed_card"
    seat: int
    card: str | None
    boxed: int

    def to_json(self) -> JsonObject:
        return {"type": "boxed_card", "seat": self.seat, "card": self.card, "boxed": self.boxed}


@dataclass(frozen=True, slots=True)
class RulingMade:
    """``ruling``: the floor's decision, the rule it decides and its effects by kind."""

    TYPE: ClassVar[str] = "ruling"
    rule_id: str | None
    decision: str
    effects: tuple[str, ...]

    def to_json(self) -> JsonObject:
        return {
            "type": "ruling",
            "rule_id": self.rule_id,
            "decision": self.decision,
            "effects": list(self.effects),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RulingMade:
        return cls(data["rule_id"], data["decision"], tuple(data["effects"]))


@dataclass(frozen=True, slots=True)
class EntryAccepted:
    """``entry_accepted``: the floor waived the rule that refused the seat's entry."""

    TYPE: ClassVar[str] = "entry_accepted"
    waived: str
    seat: int

    def to_json(self) -> JsonObject:
        return {"type": "entry_accepted", "waived": self.waived, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Voided:
    """``voided``: the actions a ruling took back (journal entries), the hand replayed without."""

    TYPE: ClassVar[str] = "voided"
    actions: list[JsonObject]

    def to_json(self) -> JsonObject:
        return {"type": "voided", "actions": self.actions}


@dataclass(frozen=True, slots=True)
class HandKilled:
    """``hand_killed``: the floor killed the seat's hand."""

    TYPE: ClassVar[str] = "hand_killed"
    seat: int

    def to_json(self) -> JsonObject:
        return {"type": "hand_killed", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class StackAdjusted:
    """``stack_adjusted``: the floor corrected a stack; ``added`` only for chips beside the
    stack in a hand in play (GAME-06)."""

    TYPE: ClassVar[str] = "stack_adjusted"
    seat: int
    amount: int
    stack: int
    added: int | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {
            "type": "stack_adjusted",
            "seat": self.seat,
            "amount": self.amount,
            "stack": self.stack,
        }
        if self.added is not None:
            record["added"] = self.added
        return record


@dataclass(frozen=True, slots=True)
class ButtonMoved:
    """``button_moved``: the floor set the next hand's button."""

    TYPE: ClassVar[str] = "button_moved"
    next_button: int

    def to_json(self) -> JsonObject:
        return {"type": "button_moved", "next_button": self.next_button}


@dataclass(frozen=True, slots=True)
class BettingReopened:
    """``betting_reopened``: the floor reopened the betting for the seat."""

    TYPE: ClassVar[str] = "betting_reopened"
    seat: int

    def to_json(self) -> JsonObject:
        return {"type": "betting_reopened", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class PotHeld:
    """``pot_held``: the floor holds the pot (SHOW-11)."""

    TYPE: ClassVar[str] = "pot_held"

    def to_json(self) -> JsonObject:
        return {"type": "pot_held"}


@dataclass(frozen=True, slots=True)
class PotReleased:
    """``pot_released``: the floor released the pot it held (SHOW-11)."""

    TYPE: ClassVar[str] = "pot_released"

    def to_json(self) -> JsonObject:
        return {"type": "pot_released"}


@dataclass(frozen=True, slots=True)
class FalseOpenerCleared:
    """``false_opener_cleared``: OPEN-08's sitting out lifted for the player."""

    TYPE: ClassVar[str] = "false_opener_cleared"
    seat: int | None
    player: str

    def to_json(self) -> JsonObject:
        return {"type": "false_opener_cleared", "seat": self.seat, "player": self.player}


@dataclass(frozen=True, slots=True)
class ExposedTaken:
    """``exposed_taken``: IRREG-04, the floor gave the seat its exposed card."""

    TYPE: ClassVar[str] = "exposed_taken"
    seat: int
    card: str | None

    def to_json(self) -> JsonObject:
        return {"type": "exposed_taken", "seat": self.seat, "card": self.card}


@dataclass(frozen=True, slots=True)
class FloorWaitOver:
    """``floor_wait_over``: the hand no longer waits for the floor on this rule (IRREG-04)."""

    TYPE: ClassVar[str] = "floor_wait_over"
    rule_id: str | None

    def to_json(self) -> JsonObject:
        return {"type": "floor_wait_over", "rule_id": self.rule_id}


Event = (
    ActionTaken
    | PhaseEntered
    | Posted
    | WaitsForBigBlind
    | SatOut
    | Seated
    | Left
    | ReturnedToPlay
    | AddedChips
    | ChangedSeat
    | HandStarted
    | HandEnded
    | HandCancelled
    | PassedOut
    | Returned
    | TimeCollected
    | DrawChanged
    | Exposed
    | ExtraCard
    | BoxedCard
    | RulingMade
    | EntryAccepted
    | Voided
    | HandKilled
    | StackAdjusted
    | ButtonMoved
    | BettingReopened
    | PotHeld
    | PotReleased
    | FalseOpenerCleared
    | ExposedTaken
    | FloorWaitOver
)

EVENT_TYPES: tuple[type[Event], ...] = (
    ActionTaken,
    PhaseEntered,
    Posted,
    WaitsForBigBlind,
    SatOut,
    Seated,
    Left,
    ReturnedToPlay,
    AddedChips,
    ChangedSeat,
    HandStarted,
    HandEnded,
    HandCancelled,
    PassedOut,
    Returned,
    TimeCollected,
    DrawChanged,
    Exposed,
    ExtraCard,
    BoxedCard,
    RulingMade,
    EntryAccepted,
    Voided,
    HandKilled,
    StackAdjusted,
    ButtonMoved,
    BettingReopened,
    PotHeld,
    PotReleased,
    FalseOpenerCleared,
    ExposedTaken,
    FloorWaitOver,
)

# the events that end a hand (``Outcome.result`` is set with one of them)
HAND_OVER: tuple[type[Event], ...] = (HandEnded, HandCancelled, PassedOut)


def _plain(cls: type[Event]) -> Callable[[Mapping[str, Any]], Event]:
    names = tuple(field.name for field in fields(cls))

    def read(data: Mapping[str, Any]) -> Event:
        return cls(**{name: data[name] for name in names if name in data})

    return read


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    cls.TYPE: getattr(cls, "from_json", None) or _plain(cls) for cls in EVENT_TYPES
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event a stored ``{"type": ...}`` dict encodes; ``KeyError`` for an unknown type.

    >>> event = event_from_json({"type": "posted", "seat": 2, "amount": 1})
    >>> event, event.to_json()
    (Posted(seat=2, amount=1, option=None), {'type': 'posted', 'seat': 2, 'amount': 1})
    """
    return _READERS[data["type"]](data)


def events_json(events: tuple[Event, ...] | list[Event]) -> list[JsonObject]:
    """The stored form of a run of events (what the audit chain's ``events`` holds)."""
    return [event.to_json() for event in events]
