"""Builders shared by the engine tests: tables, seats and a short way to enter actions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dealerassist.json_codec import canonical, parse
from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import HandState, TableState

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
LIMIT = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
NO_LIMIT = Stakes(small_blind=5, big_blind=10)


class Table:
    """A table under test: enter commands, keep the last outcome."""

    def __init__(
        self,
        stacks: list[int],
        variant: Variant = Variant.FIVE_CARD_DRAW,
        structure: Structure = Structure.FIXED_LIMIT,
        stakes: Stakes = LIMIT,
        rules: HouseRules | None = None,
        mode: Mode = Mode.COUNT,
        max_seats: int = 6,
    ) -> None:
        spec = TableSpec("T1", variant, structure, stakes, "test", max_seats, mode)
        self.rules = rules or HouseRules()
        self.state: TableState = new_table(spec)
        self.outcome: Outcome | None = None
        for seat, stack in enumerate(stacks, start=1):
            if stack:
                self.run(SeatPlayer(seat, f"P{seat}", stack))

    def run(self, command: Any) -> Outcome:
        self.outcome = apply(self.state, command, self.rules, AT)
        self.state = self.outcome.state
        return self.outcome

    def start(
        self, button: int | None = None, post: bool = True, kill_seat: int | None = None
    ) -> Outcome:
        outcome = self.run(StartHand(button, kill_seat))
        while post and self.hand.phase.value == "posting":
            outcome = self.act(self.hand.to_act or 0, "post")
        return outcome

    def act(self, seat: int, action: str, **fields: Any) -> Outcome:
        for key in ("cards", "discards"):
            if isinstance(fields.get(key), str):
                fields[key] = tuple(fields[key].split())
        return self.run(Act(seat, ActionKind(action), **fields))

    @property
    def hand(self) -> Any:
        assert self.state.hand is not None
        return self.state.hand

    def legal(self) -> dict[str, Any] | None:
        return legal_actions(self.state, self.rules, AT)

    def stacks(self) -> dict[int, int]:
        return {seat.seat: seat.stack for seat in self.state.seats if seat.player}


class StoredTable(Table):
    """A table whose state is written and read back before every entry, as the Redis table
    store does when another API process wrote it last; each entry is also applied to the
    state kept in memory, and both answers must be the same bytes."""

    def run(self, command: Any) -> Outcome:
        stored = TableState.from_dict(parse(canonical(self.state.to_dict())))
        kept = apply(self.state, command, self.rules, AT)
        read = apply(stored, command, self.rules, AT)
        assert canonical(read.state.to_dict()) == canonical(kept.state.to_dict())
        assert canonical([read.events_json(), read.instructions, read.result_json()]) == canonical(
            [kept.events_json(), kept.instructions, kept.result_json()]
        )
        self.outcome, self.state = kept, kept.state
        return kept


def cards_accounted(hand: HandState) -> int:
    """Stub + hands + discard piles + burns + muck: the deck's size while cards are conserved."""
    held = sum(player.held + sum(player.pile) for player in hand.players)
    return hand.stub + held + hand.burns + hand.muck
