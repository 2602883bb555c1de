"""Seats between hands: seat a player (buy-in), leave, sit out, return, change seats, add chips,
and the next hand's preview (BLIND-05, 07, 08, 11, 12, 13, 15; OPEN-09)."""

from __future__ import annotations

from dealerassist.errors import InvalidInput
from dealerassist.rules.hand.flow import Log
from dealerassist.rules.model.actions import (
    AddChips,
    ChangeSeat,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
)
from dealerassist.rules.model.house_rules import HouseRules, MissedBlindsReturn
from dealerassist.rules.model.messages import table as told
from dealerassist.rules.model.outcomes import (
    AddedChips,
    ChangedSeat,
    Left,
    ReturnedToPlay,
    SatOut,
    Seated,
)
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import Phase, SeatState, SeatStatus, TableState, evolve
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation
from dealerassist.rules.table import moving_button
from dealerassist.rules.table.blinds import (
    STRADDLE_OFFER,
    clockwise_after,
    eligible_seats,
    mark_missed,
    new_hand,
    positions,
    unpassed_seats,
)

SeatCommand = SeatPlayer | RemovePlayer | SitOut | ReturnToPlay | ChangeSeat | AddChips


def in_hand(table: TableState, seat: int) -> bool:
    """The seat is dealt into the hand in progress."""
    hand = table.hand
    return hand is not None and hand.phase is not Phase.COMPLETE and hand.has(seat)


def check_seat(table: TableState, seat: int, stack: int, rules: HouseRules) -> None:
    """An empty seat and a buy-in within the profile's limits (``table.min_buy_in``/``max``)."""
    current = table.seat(seat)
    if current.status is not SeatStatus.EMPTY:
        raise InvalidInput(said=told.SEAT_TAKEN_BY(seat=seat, player=str(current.player)))
    if in_hand(table, seat):  # a player who folded and left: his dead hand is still in play
        raise RuleViolation(
            rule_id=RuleId.GAME_01,
            said=told.FOLDED_HAND_IN_PLAY(seat=seat),
            seat=seat,
        )
    _check_buy_in(seat, stack, rules)


def check_add_chips(table: TableState, seat: int, chips: int, rules: HouseRules) -> None:
    """A seated player adds chips between hands, up to the maximum buy-in; one who busted needs
    at least the minimum (BLIND-11 a: he keeps his seat and owes the blinds he missed)."""
    current = table.seat(seat)
    if current.status is SeatStatus.EMPTY:
        raise InvalidInput(said=told.SEAT_EMPTY(seat=seat))
    _check_between_hands(table, seat, RuleId.GAME_01, told.WHAT_ADD_CHIPS())
    high = rules.table.max_buy_in
    if high and current.stack + chips > high:
        room = high - current.stack
        raise InvalidInput(said=told.CHIPS_AT_MOST(seat=seat, high=high, room=room))
    if current.stack == 0:
        _check_buy_in(seat, chips, rules)


def _check_buy_in(seat: int, stack: int, rules: HouseRules) -> None:
    low, high = rules.table.min_buy_in, rules.table.max_buy_in
    if stack < low or (high and stack > high):
        limits = told.BUY_IN_RANGE(low=low, high=high) if high else told.BUY_IN_AT_LEAST(low=low)
        raise InvalidInput(said=told.BUY_IN(limits=limits, seat=seat, stack=stack))


def apply_seat(
    table: TableState, seat: int, player: str, stack: int, rules: HouseRules
) -> TableState:
    """BLIND-05: once the game has started a newcomer must post a big blind or wait for it
    (BLIND-11 c: the players of a new game need not, nor one who sits down where no blind has
    passed yet); BLIND-06: even where he need not post, he is not dealt in between the blinds
    and the button."""
    newcomer = (
        table.hand_no > 0
        and bool(table.spec.stakes.big_blind)
        and seat not in unpassed_seats(table)
    )
    seated = SeatState(seat, player, stack, SeatStatus.ACTIVE, new_player=newcomer)
    return table.with_seat(seated)


def check_leave(table: TableState, seat: int) -> None:
    """A player leaves between hands, or during one once he has folded: his chips in the pot
    stay there (his hand is dead), he takes the chips behind him. Not while his hand is live."""
    if table.seat(seat).status is SeatStatus.EMPTY:
        raise InvalidInput(said=told.SEAT_ALREADY_EMPTY(seat=seat))
    if folded_in_hand(table, seat):
        return
    _check_between_hands(table, seat, RuleId.GAME_01, told.WHAT_LEAVE())


def folded_in_hand(table: TableState, seat: int) -> bool:
    """The seat was dealt into the hand in progress and has folded (its hand is dead)."""
    hand = table.hand
    return in_hand(table, seat) and hand is not None and hand.player(seat).folded


def _check_between_hands(table: TableState, seat: int, rule: RuleId, what: Said) -> None:
    if in_hand(table, seat):
        raise RuleViolation(
            rule_id=rule,
            said=told.IN_THE_HAND(seat=seat, what=what),
            seat=seat,
        )


def check_sit_out(table: TableState, seat: int) -> None:
    """Only an active seat sits out, and not while it is dealt into the hand."""
    if table.seat(seat).status is not SeatStatus.ACTIVE:
        raise InvalidInput(said=told.NOT_ACTIVE(seat=seat))
    _check_between_hands(table, seat, RuleId.GAME_01, told.WHAT_SIT_OUT())


def apply_sit_out(table: TableState, seat: int, rules: HouseRules) -> TableState:
    """The seat sits out; BLIND-15 remembers it if a blind was due next hand."""
    current = table.seat(seat)
    due = due_a_blind(table, seat, rules)
    dodge = table.hand_no if due else current.dodge_from
    waiting = current.waiting if current.waiting == RuleId.BLIND_12 else None  # no way around it
    return table.with_seat(
        evolve(current, status=SeatStatus.SITTING_OUT, dodge_from=dodge, waiting=waiting)
    )


def due_a_blind(table: TableState, seat: int, rules: HouseRules) -> bool:
    """The seat would post the small or big blind in the next hand."""
    if len(eligible_seats(table)) < 2 or table.button is None or table.hand is None:
        return False
    try:
        where = positions(table, None, rules)
    except RuleViolation:
        return False
    return seat in (where.small_blind, where.big_blind)


def check_return(table: TableState, seat: int, wait: bool, rules: HouseRules) -> None:
    """BLIND-08/12/13: a seat that must wait for the big blind may not come back posting."""
    current = table.seat(seat)
    if current.status is SeatStatus.EMPTY or (
        current.status is SeatStatus.ACTIVE and current.waiting is None
    ):
        raise InvalidInput(said=told.NOT_SITTING_OUT(seat=seat))
    if wait:
        return
    rule, why = _must_wait(current, rules)
    if rule is not None and why is not None:
        raise RuleViolation(
            rule_id=rule,
            said=told.COMES_BACK_WAITING(seat=seat, why=why),
            seat=seat,
            allowed=[{"type": "return", "seat": seat, "wait": True}],
        )


def _must_wait(seat: SeatState, rules: HouseRules) -> tuple[RuleId | None, Said | None]:
    if seat.waiting == RuleId.BLIND_12:
        return RuleId.BLIND_12, told.WHY_CHANGED_SEATS()
    if seat.missed_blind and rules.blinds.single_blind:
        return RuleId.BLIND_13, told.WHY_SINGLE_BLIND()
    waits = rules.blinds.missed_blinds_return is MissedBlindsReturn.WAIT_FOR_BIG_BLIND
    if seat.missed_blind and waits:
        return RuleId.BLIND_08, told.WHY_MISSED_BLINDS_WAIT()
    return None, None


def apply_return(
    table: TableState, seat: int, wait: bool, rules: HouseRules
) -> tuple[TableState, list[Notice]]:
    """The seat is active again: it posts what it owes in the next hand, or waits for the big
    blind. BLIND-15: a seat that sat out due a blind and returns after it passed is flagged."""
    current = table.seat(seat)
    notices = _dodge_notice(table, current)
    waiting = RuleId.BLIND_08 if wait else None
    if current.waiting == RuleId.BLIND_12:
        waiting = current.waiting
    updated = evolve(current, status=SeatStatus.ACTIVE, waiting=waiting, dodge_from=None)
    return table.with_seat(updated), notices


def _dodge_notice(table: TableState, seat: SeatState) -> list[Notice]:
    """BLIND-15: sat out just before its blind and back within an orbit, the blind missed."""
    if seat.dodge_from is None or seat.missed_blind is None:
        return []
    occupied = sum(1 for s in table.seats if s.status is not SeatStatus.EMPTY)
    if table.hand_no - seat.dodge_from > occupied:
        return []
    text = told.BLIND_DODGING(seat=seat.seat, missed=told.missed(str(seat.missed_blind)))
    return [Notice(rule_id=RuleId.BLIND_15, said=text, seat=seat.seat)]


def check_change_seat(table: TableState, seat: int, to: int) -> None:
    """BLIND-12: a player moves between hands, to an empty seat; OPEN-09 not while a passed-out
    deal's antes wait in the pot."""
    if table.seat(seat).status is SeatStatus.EMPTY:
        raise InvalidInput(said=told.SEAT_EMPTY(seat=seat))
    if table.seat(to).status is not SeatStatus.EMPTY:
        raise InvalidInput(said=told.SEAT_TAKEN(seat=to))
    _check_between_hands(table, seat, RuleId.BLIND_12, told.WHAT_CHANGE_SEATS())
    if table.carried_pot:
        raise RuleViolation(
            rule_id=RuleId.OPEN_09,
            said=told.NO_SEAT_CHANGE_CARRIED_POT(carried=table.carried_pot),
            seat=seat,
        )


def apply_change_seat(table: TableState, seat: int, to: int, rules: HouseRules) -> TableState:
    """BLIND-12: the player, stack and markers move; if the new seat is further from the big
    blind than the old one, the player waits for the big blind (no free hands).

    BLIND-11 (c) ``new_game_orbit``: in a new game a player may change seats freely while no
    blind has passed the new seat: he is dealt in there like the game's first players (and a
    newcomer who had to post or wait no longer has to), as if he had left and sat down there.
    A missed blind he owes (BLIND-07/08) moves with him."""
    moving = table.seat(seat)
    if rules.blinds.new_game_orbit and to in unpassed_seats(table):
        waiting = None if moving.waiting in _FREE_IN_A_NEW_GAME else moving.waiting
        moved = evolve(moving, seat=to, waiting=waiting, new_player=False)
        return table.with_seat(SeatState(seat=seat)).with_seat(moved)
    farther = _hands_to_big_blind(table, to, seat) > _hands_to_big_blind(table, seat, seat)
    waiting = RuleId.BLIND_12 if farther and moving.status is SeatStatus.ACTIVE else moving.waiting
    moved = evolve(moving, seat=to, waiting=waiting)
    return table.with_seat(SeatState(seat=seat)).with_seat(moved)


# the waits a seat no blind has passed in a new game does not owe: a newcomer's (BLIND-05/06)
# and a seat change's (BLIND-12)
_FREE_IN_A_NEW_GAME = frozenset({RuleId.BLIND_05, RuleId.BLIND_06, RuleId.BLIND_12})


def _hands_to_big_blind(table: TableState, seat: int, leaving: int) -> int:
    """How many seats the big blind reaches before ``seat`` (0: it is next)."""
    last_big = table.big_blind_position
    if last_big is None:
        return 0
    others = [s for s in eligible_seats(table) if s not in (seat, leaving)]
    order = clockwise_after([*others, seat], last_big)
    return order.index(seat)


def apply_command(
    table: TableState, command: SeatCommand, rules: HouseRules, log: Log
) -> TableState:
    """Dispatch one between-hands seat command and log what happened."""
    match command:
        case SeatPlayer(seat=seat, player=player, stack=stack):
            check_seat(table, seat, stack, rules)
            table = apply_seat(table, seat, player, stack, rules)
            log.events.append(Seated(seat, player, stack))
        case RemovePlayer(seat=seat):
            check_leave(table, seat)
            current = table.seat(seat)
            stack = current.stack
            if table.hand is not None and folded_in_hand(table, seat):  # his chips behind
                folded = table.hand.player(seat)
                stack = folded.stack + folded.added
            log.events.append(Left(seat, current.player, stack))
            table = table.with_seat(SeatState(seat=seat))
        case SitOut(seat=seat):
            check_sit_out(table, seat)
            table = apply_sit_out(table, seat, rules)
            log.events.append(SatOut(seat, None))
        case ReturnToPlay(seat=seat, wait=wait):
            check_return(table, seat, wait, rules)
            table, notices = apply_return(table, seat, wait, rules)
            log.notices.extend(notices)
            log.events.append(ReturnedToPlay(seat, wait))
        case AddChips(seat=seat, chips=chips):
            check_add_chips(table, seat, chips, rules)
            current = table.seat(seat)
            table = table.with_seat(evolve(current, stack=current.stack + chips))
            log.events.append(AddedChips(seat, chips))
        case ChangeSeat(seat=seat, to=to):
            check_change_seat(table, seat, to)
            table = apply_change_seat(table, seat, to, rules)
            log.events.append(ChangedSeat(seat, to))
    return table


def next_hand_preview(table: TableState, rules: HouseRules) -> dict[str, object] | None:
    """Between hands: where the button and blinds go next and what each seat will owe or why it
    will wait, so the dealer sees every posting obligation before starting (BLIND-01..09)."""
    hand = table.hand
    if hand is not None and hand.phase is not Phase.COMPLETE:
        return None
    if table.button is None or len(eligible_seats(table)) < 2:
        return None
    where = positions(table, None, rules)
    upcoming = new_hand(mark_missed(table, where), where, rules)
    due = moving_button.due_big_blind(table, where, rules)  # BLIND-03 (RRoP 2(a))
    upcoming = moving_button.owe_big_blind(upcoming, due, table.spec.stakes)
    owes = {
        str(p.seat): {
            "amount": p.owes,
            "owes": [str(w) for w in p.owes_what if w != STRADDLE_OFFER],
        }
        for p in upcoming.players
        if p.owes
    }
    return {
        "button": where.button,
        "small_blind": upcoming.small_blind_seat,
        "big_blind": upcoming.big_blind_seat,
        "owes": owes,
        "waiting": {str(seat): rule for seat, rule in upcoming.waiting},
    }
