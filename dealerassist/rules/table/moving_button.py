"""BLIND-03 under a moving button: nobody skips the big blind (RRoP Button and Blind Use 2(a)).

With a moving button the button always advances one player and the blinds follow it. When last
hand's big blind is gone (he left or sat out), the small blind lands on the seat that was due
the big blind: it would pay the small blind and never the big blind this orbit. RRoP 2(a):
"There may be two big blinds": that seat posts a big blind (live) in the small blind's place,
and the seat after it the big blind as usual. ``blinds.moving_due_big_blind`` turns it on
(off: the small blind only, as profile versions before the option dealt it).
"""

from __future__ import annotations

from dealerassist.rules.model.actions import Stakes
from dealerassist.rules.model.house_rules import ButtonMethod, HouseRules
from dealerassist.rules.model.state import HandState, Owed, TableState, evolve
from dealerassist.rules.table.blinds import Positions, clockwise_after, eligible_seats

SMALL, BIG = Owed.SMALL_BLIND, Owed.BIG_BLIND


def due_big_blind(table: TableState, where: Positions, rules: HouseRules) -> int | None:
    """The seat of the coming hand's small blind when it was due last hand's next big blind
    (last hand's big blind is not dealt in any more), under the option; None otherwise."""
    blinds = rules.blinds
    moving = blinds.button_method is ButtonMethod.MOVING and not blinds.single_blind
    last_big, small = table.big_blind_position, where.small_blind
    if not (blinds.moving_due_big_blind and moving) or last_big is None or small is None:
        return None
    seats = eligible_seats(table)
    if last_big in seats or len(seats) < 3 or table.button is None:
        return None
    due = next(iter(clockwise_after(seats, last_big)), None)
    return small if due == small else None


def owe_big_blind(hand: HandState, seat: int | None, stakes: Stakes) -> HandState:
    """The seat due the big blind posts a big blind where it owed the small blind."""
    if seat is None or not hand.has(seat) or SMALL not in hand.player(seat).owes_what:
        return hand
    player = hand.player(seat)
    parts = tuple(BIG if part == SMALL else part for part in player.owes_what)
    owes = player.owes - stakes.small_blind + stakes.big_blind
    return hand.with_player(evolve(player, owes=owes, owes_what=parts))
