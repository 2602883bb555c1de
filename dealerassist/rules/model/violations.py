"""Rule IDs from the rules catalog, the RuleViolation error and advisory Notices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealerassist.errors import DealerAssistError
from dealerassist.rules.model.said import Said


class RuleId(StrEnum):
    """Rule IDs (docs/rules.md lists each) that the code enforces, guides or rules on.

    Only IDs that the code really uses belong here: a meta-test fails when an ID has no
    accepting and no rejecting (or guiding) test named after it.
    """

    # GAME
    GAME_01 = "GAME-01"
    GAME_03 = "GAME-03"
    GAME_05 = "GAME-05"
    GAME_06 = "GAME-06"
    GAME_07 = "GAME-07"
    # DEAL
    DEAL_01 = "DEAL-01"
    DEAL_02 = "DEAL-02"
    # DECK
    DECK_01 = "DECK-01"
    # BET
    BET_01 = "BET-01"
    BET_02 = "BET-02"
    BET_03 = "BET-03"
    BET_04 = "BET-04"
    BET_05 = "BET-05"
    BET_06 = "BET-06"
    BET_08 = "BET-08"
    # DRAW
    DRAW_01 = "DRAW-01"
    DRAW_02 = "DRAW-02"
    DRAW_03 = "DRAW-03"
    DRAW_04 = "DRAW-04"
    DRAW_05 = "DRAW-05"
    DRAW_06 = "DRAW-06"
    DRAW_07 = "DRAW-07"
    DRAW_09 = "DRAW-09"
    DRAW_10 = "DRAW-10"
    DRAW_11 = "DRAW-11"
    DRAW_12 = "DRAW-12"
    # SHOW
    RANK_05 = "RANK-05"
    SHOW_01 = "SHOW-01"
    SHOW_02 = "SHOW-02"
    SHOW_03 = "SHOW-03"
    SHOW_05 = "SHOW-05"
    SHOW_06 = "SHOW-06"
    SHOW_07 = "SHOW-07"
    SHOW_08 = "SHOW-08"  # no split by agreement; the blinds may chop (rules/hand/chop.py)
    SHOW_09 = "SHOW-09"
    # RANK
    RANK_01 = "RANK-01"
    RANK_02 = "RANK-02"
    RANK_03 = "RANK-03"
    RANK_04 = "RANK-04"
    # engine (issue 3)
    BLIND_01 = "BLIND-01"
    BLIND_03 = "BLIND-03"
    OPEN_01 = "OPEN-01"
    # the table between hands (issue 5)
    BLIND_02 = "BLIND-02"
    BLIND_04 = "BLIND-04"
    BLIND_05 = "BLIND-05"
    BLIND_06 = "BLIND-06"
    BLIND_08 = "BLIND-08"
    BLIND_09 = "BLIND-09"
    BLIND_12 = "BLIND-12"
    BLIND_13 = "BLIND-13"
    BLIND_14 = "BLIND-14"
    BLIND_15 = "BLIND-15"
    OPEN_02 = "OPEN-02"
    OPEN_03 = "OPEN-03"
    OPEN_05 = "OPEN-05"
    OPEN_07 = "OPEN-07"
    OPEN_08 = "OPEN-08"
    OPEN_09 = "OPEN-09"
    # floor rulings (issue 8)
    IRREG_14 = "IRREG-14"
    IRREG_15 = "IRREG-15"
    SHOW_11 = "SHOW-11"
    # draw and deck house rules (issue 4)
    DRAW_13 = "DRAW-13"
    DECK_05 = "DECK-05"
    IRREG_02 = "IRREG-02"
    IRREG_07 = "IRREG-07"
    IRREG_08 = "IRREG-08"
    # kill pots, a fixed-limit house option (rules/hand/kills.py)
    KILL_01 = "KILL-01"
    KILL_02 = "KILL-02"
    KILL_03 = "KILL-03"
    KILL_04 = "KILL-04"
    KILL_05 = "KILL-05"
    KILL_06 = "KILL-06"
    # a card exposed by the dealer on the initial deal (rules/floor/exposed.py)
    IRREG_01 = "IRREG-01"
    IRREG_03 = "IRREG-03"
    # a replacement card exposed by the dealer during the draw (rules/floor/exposed_draw.py)
    IRREG_04 = "IRREG-04"
    # an extra card dealt on the initial deal (rules/floor/extra_card.py)
    IRREG_06 = "IRREG-06"
    # a card found face up in the stub (rules/floor/boxed_card.py)
    DECK_06 = "DECK-06"
    # the house's take, a house policy no rule book fixes (rules/hand/rake.py, issue 23)
    RAKE_01 = "RAKE-01"  # percent rounded down to the chip, capped per hand; or per hand
    RAKE_02 = "RAKE-02"  # no draw, no drop
    RAKE_03 = "RAKE-03"  # the jackpot drop: a pot size, a draw, players dealt in
    RAKE_04 = "RAKE-04"  # never raked: an uncalled bet, a chopped pot (SHOW-08)
    RAKE_05 = "RAKE-05"  # time collection: per seat dealt in when a period starts


@dataclass(frozen=True, slots=True)
class Notice:
    """Advisory information for the dealer (a guide rule), returned as data, never raised.

    ``said`` is what it says (a message ID and its parameters, ``model/said.py``);
    ``message`` its English words."""

    rule_id: RuleId
    said: Said
    seat: int | None = None
    message: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", self.said.english())

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"rule_id": str(self.rule_id), "message": self.message}
        _said_json(data, self.said)
        data["seat"] = self.seat
        return data


@dataclass(eq=False)
class RuleViolation(DealerAssistError):
    """An entry the house rules forbid: carries the rule ID, the seat and what is allowed.

    ``said`` is why (a message ID and its parameters, ``model/said.py``); ``message`` its
    English words, as the audit log has always recorded them."""

    rule_id: RuleId
    said: Said
    seat: int | None = None
    allowed: Sequence[Mapping[str, Any]] = field(default_factory=tuple)
    message: str = field(init=False)

    def __post_init__(self) -> None:
        self.message = self.said.english()
        DealerAssistError.__init__(self, f"{self.rule_id}: {self.message}")

    def __str__(self) -> str:
        return f"{self.rule_id}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"rule_id": str(self.rule_id), "message": self.message}
        _said_json(data, self.said)
        data["seat"] = self.seat
        data["allowed"] = [dict(a) for a in self.allowed]
        return data


def _said_json(data: dict[str, Any], said: Said) -> None:
    """``message_id`` and ``params`` beside the English ``message``: the API renders them in
    the dealer's language, the audit log keeps them."""
    data["message_id"] = said.message.id
    data["params"] = said.to_json()["params"]
