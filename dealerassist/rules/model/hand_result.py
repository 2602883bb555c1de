"""A hand's result: how it ended and where every chip went (``HandState.result``, and the
``result`` of the ``hand_ended``, ``hand_cancelled`` and ``passed_out`` events).

``HandResult`` is a closed union, one frozen dataclass per way a hand ends: its pots awarded
(at the showdown, to the last live hand, or by a floor ruling: ``AwardedResult``), cancelled
or declared a misdeal (``CancelledResult``), passed out (OPEN-03, ``PassedOutResult``) or
chopped (SHOW-08, ``ChoppedResult``). Each encodes with ``to_json()`` to the dict the state
and the audit chain stored before it was typed, key for key and in the same key order, an
optional key written only when set; ``result_from_json`` reads one back. Seats are ``int``
here and the JSON object keys they were (``"3"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

JsonObject = dict[str, Any]  # a JSON object: an event's, a result's, or a journal entry
__all__ = [
    "AwardedResult",
    "CancelledResult",
    "ChoppedResult",
    "HandResult",
    "KillLeg",
    "PassedOutResult",
    "PotAward",
    "result_from_json",
]


def _by_seat(values: Mapping[int, Any]) -> JsonObject:
    return {str(seat): value for seat, value in values.items()}


def _seats(data: Mapping[str, Any]) -> dict[int, Any]:
    return {int(seat): value for seat, value in data.items()}


@dataclass(frozen=True, slots=True)
class PotAward:
    """SHOW-06/07/09: one pot (the main pot first), the seats it was contested by, its
    winners and each one's share in push order (the odd chip's seat first, ``odd_chip``);
    ``by_ruling`` when the floor awarded it; RAKE-01..04 its ``rake`` and ``jackpot_drop``
    where the profile takes them (both, or neither)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]
    odd_chip: int | None
    by_ruling: bool = False
    rake: int | None = None
    jackpot_drop: int | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": _by_seat(self.shares),
            "odd_chip": self.odd_chip,
        }
        if self.by_ruling:
            record["by_ruling"] = True
        if self.rake is not None:
            record["rake"] = self.rake
        if self.jackpot_drop is not None:
            record["jackpot_drop"] = self.jackpot_drop
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PotAward:
        return cls(
            data["amount"],
            tuple(data["eligible"]),
            tuple(data["winners"]),
            _seats(data["shares"]),
            data["odd_chip"],
            bool(data.get("by_ruling", False)),
            data.get("rake"),
            data.get("jackpot_drop"),
        )


@dataclass(frozen=True, slots=True)
class KillLeg:
    """KILL-02/03: the leg once the hand was settled (``kills.settle``): its seat and legs."""

    seat: int | None
    legs: int

    def to_json(self) -> JsonObject:
        return {"seat": self.seat, "legs": self.legs}


@dataclass(frozen=True, slots=True)
class AwardedResult:
    """Every pot awarded: ``pots``, RAKE-01..04's totals (where the profile takes them), the
    chips each seat won, the uncalled chips returned (SHOW-05), the hands shown (cards joined
    by spaces), DECK-02..04 what each shown joker played as (only when one was shown), the
    stacks once the hand is stored (``flow.store_hand``) and KILL-02/03 the leg it settled."""

    pots: tuple[PotAward, ...]
    winnings: dict[int, int]
    returned: dict[int, int]
    shown: dict[int, str]
    rake: int | None = None
    jackpot_drop: int | None = None
    jokers: dict[int, str] | None = None
    stacks: dict[int, int] | None = None
    kill_leg: KillLeg | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {"pots": [pot.to_json() for pot in self.pots]}
        if self.rake is not None:
            record["rake"] = self.rake
        if self.jackpot_drop is not None:
            record["jackpot_drop"] = self.jackpot_drop
        record["winnings"] = _by_seat(self.winnings)
        record["returned"] = _by_seat(self.returned)
        record["shown"] = _by_seat(self.shown)
        if self.jokers is not None:
            record["jokers"] = _by_seat(self.jokers)
        if self.stacks is not None:
            record["stacks"] = _by_seat(self.stacks)
        if self.kill_leg is not None:
            record["kill_leg"] = self.kill_leg.to_json()
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AwardedResult:
        jokers, stacks, leg = data.get("jokers"), data.get("stacks"), data.get("kill_leg")
        return cls(
            tuple([PotAward.from_json(pot) for pot in data["pots"]]),
            _seats(data["winnings"]),
            _seats(data["returned"]),
            _seats(data["shown"]),
            data.get("rake"),
            data.get("jackpot_drop"),
            None if jokers is None else _seats(jokers),
            None if stacks is None else _seats(stacks),
            None if leg is None else KillLeg(leg["seat"], leg["legs"]),
        )


@dataclass(frozen=True, slots=True)
class CancelledResult:
    """Fewer than two dealt in, or a misdeal (``misdeal``, IRREG-01..06): every chip goes
    back (the ``stacks``); OPEN-03 the antes a passed-out deal carried in wait for the next
    deal (``carried``, only when there were some)."""

    pots: ClassVar[tuple[PotAward, ...]] = ()
    stacks: dict[int, int]
    misdeal: bool = False
    carried: int | None = None

    def to_json(self) -> JsonObject:
        record: JsonObject = {"pots": [], "cancelled": True}
        if self.misdeal:
            record["misdeal"] = True
        record["stacks"] = _by_seat(self.stacks)
        if self.carried is not None:
            record["carried"] = self.carried
        return record

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CancelledResult:
        return cls(_seats(data["stacks"]), bool(data.get("misdeal", False)), data.get("carried"))


@dataclass(frozen=True, slots=True)
class PassedOutResult:
    """OPEN-03: nobody opened; the pot (``carried``) stays for the next deal."""

    pots: ClassVar[tuple[PotAward, ...]] = ()
    carried: int
    stacks: dict[int, int]

    def to_json(self) -> JsonObject:
        return {
            "pots": [],
            "passed_out": True,
            "carried": self.carried,
            "stacks": _by_seat(self.stacks),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PassedOutResult:
        return cls(data["carried"], _seats(data["stacks"]))


@dataclass(frozen=True, slots=True)
class ChoppedResult:
    """SHOW-08: the blinds chopped: no pot; the chips each blind took back (``chopped``)."""

    pots: ClassVar[tuple[PotAward, ...]] = ()
    chopped: dict[int, int]
    stacks: dict[int, int]

    def to_json(self) -> JsonObject:
        return {"pots": [], "chopped": _by_seat(self.chopped), "stacks": _by_seat(self.stacks)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChoppedResult:
        return cls(_seats(data["chopped"]), _seats(data["stacks"]))


HandResult = AwardedResult | CancelledResult | PassedOutResult | ChoppedResult


def result_from_json(data: Mapping[str, Any]) -> HandResult:
    """The result a stored dict encodes, by the key that marks how the hand ended.

    >>> result = result_from_json({"pots": [], "chopped": {"2": 1}, "stacks": {"2": 9}})
    >>> result, result.to_json()["chopped"]
    (ChoppedResult(chopped={2: 1}, stacks={2: 9}), {'2': 1})
    """
    if data.get("cancelled"):
        return CancelledResult.from_json(data)
    if data.get("passed_out"):
        return PassedOutResult.from_json(data)
    if "chopped" in data:
        return ChoppedResult.from_json(data)
    return AwardedResult.from_json(data)
