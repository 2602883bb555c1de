"""Starting a hand: the button, who is dealt in, what each seat must post (BLIND-01..03)."""

from __future__ import annotations

from dataclasses import dataclass

from dealerassist.rules.actions import Stakes, Variant
from dealerassist.rules.house_rules import ButtonMethod, HouseRules
from dealerassist.rules.state import HandState, Phase, PlayerState, SeatStatus, TableState, evolve
from dealerassist.rules.variants import deck_size, game
from dealerassist.rules.violations import RuleId, RuleViolation


def eligible_seats(table: TableState) -> list[int]:
    """DEAL-02: active seats with chips, in seat order."""
    return [s.seat for s in table.seats if s.status is SeatStatus.ACTIVE and s.stack > 0]


def clockwise_after(seats: list[int], seat: int) -> list[int]:
    """``seats`` rotated to start with the first seat after ``seat``.

    >>> clockwise_after([1, 3, 5], 3)
    [5, 1, 3]
    """
    ordered = sorted(seats)
    return [s for s in ordered if s > seat] + [s for s in ordered if s <= seat]


def next_button(table: TableState, requested: int | None) -> int:
    """BLIND-03: the dealer names the first button; then it moves to the next seat dealt in."""
    seats = eligible_seats(table)
    if table.button is None:
        if requested is None:
            return seats[-1]
        if requested not in seats:
            raise RuleViolation(
                rule_id=RuleId.BLIND_03,
                message=f"Seat {requested} cannot take the button: give it to one of {seats}.",
                seat=requested,
                allowed=[{"action": "start_hand", "button": s} for s in seats],
            )
        return requested
    moved = clockwise_after(seats, table.button)[0]
    _check_requested(requested, moved)
    return moved


@dataclass(frozen=True, slots=True)
class Positions:
    """BLIND-01..03: where the button and the blinds are for the next hand."""

    button: int
    small_blind: int | None  # the seat that posts the small blind (None: a dead small blind)
    big_blind: int | None
    small_blind_position: int | None  # where the small blind is, even when nobody posts it


def positions(table: TableState, requested: int | None, rules: HouseRules) -> Positions:
    """BLIND-03: moving button, or dead button (the big blind moves to the next active seat,
    the small blind and the button follow it, even onto empty seats)."""
    seats = eligible_seats(table)
    dead = rules.blinds.button_method is ButtonMethod.DEAD
    if dead and table.spec.stakes.big_blind and len(seats) > 2:
        planned = _dead_button(table, seats)
        if planned is not None:
            _check_requested(requested, planned.button)
            return planned
    button = next_button(table, requested)
    if not table.spec.stakes.big_blind:
        return Positions(button, None, None, None)
    small, big = blind_seats(clockwise_after(seats, button), button)
    return Positions(button, small, big, small)


def _dead_button(table: TableState, seats: list[int]) -> Positions | None:
    last_big, button = table.big_blind_position, table.small_blind_position
    if table.button is None or last_big is None or button is None or button == table.button:
        return None
    big = clockwise_after(seats, last_big)[0]
    if big in (last_big, button):
        return None
    small = last_big if last_big in seats else None
    return Positions(button, small, big, last_big)


def _check_requested(requested: int | None, button: int) -> None:
    if requested is not None and requested != button:
        raise RuleViolation(
            rule_id=RuleId.BLIND_03,
            message=f"The button moves to seat {button}; start the hand without naming a button.",
            seat=requested,
            allowed=[{"action": "start_hand", "button": button}],
        )


def blind_seats(order: list[int], button: int) -> tuple[int, int]:
    """BLIND-01/02: small and big blind seats; heads-up the button posts the small blind.

    ``order`` starts with the first seat left of the button.
    >>> blind_seats([2, 3, 1], 1)
    (2, 3)
    >>> blind_seats([2, 1], 1)
    (1, 2)
    """
    if len(order) == 2:
        return button, order[0]
    return order[0], order[1]


def new_hand(table: TableState, where: Positions, rules: HouseRules) -> HandState:
    """The posting phase of a new hand: every seat dealt in and what it owes."""
    stakes = table.spec.stakes
    order = clockwise_after(eligible_seats(table), where.button)
    small, big = where.small_blind, where.big_blind
    players = tuple(_player(table.seat(seat).stack, seat, stakes, small, big) for seat in order)
    hand = HandState(
        hand_no=table.hand_no + 1,
        phase=Phase.POSTING,
        button=where.button,
        players=players,
        deck=deck_size(table.spec.variant, len(players), rules),
        small_blind_seat=small,
        big_blind_seat=big,
    )
    return evolve(hand, to_act=next_to_post(hand))


def _player(
    stack: int, seat: int, stakes: Stakes, small: int | None, big: int | None
) -> PlayerState:
    owes_what: list[str] = []
    owes = 0
    if seat == small and stakes.small_blind:
        owes_what.append("small_blind")
        owes += stakes.small_blind
    if seat == big and stakes.big_blind_ante:
        owes_what.append("big_blind_ante")
        owes += stakes.big_blind_ante
    if seat == big:
        owes_what.append("big_blind")
        owes += stakes.big_blind
    if stakes.ante:
        owes_what.append("ante")
        owes += stakes.ante
    return PlayerState(seat=seat, stack=stack, owes=owes, owes_what=tuple(owes_what))


def posting_order(hand: HandState) -> list[int]:
    """Small blind, big blind, then everyone else in dealing order."""
    first = [s for s in (hand.small_blind_seat, hand.big_blind_seat) if s is not None]
    return first + [p.seat for p in hand.players if p.seat not in first]


def next_to_post(hand: HandState) -> int | None:
    """The seat that owes a forced bet now, if any."""
    for seat in posting_order(hand):
        if hand.has(seat) and hand.player(seat).owes > 0:
            return seat
    return None


def post_amount(player: PlayerState) -> int:
    """BLIND-04: what the seat puts in now: what it owes, or all it has."""
    return min(player.owes, player.stack)


def check_post(hand: HandState, seat: int, amount: int | None) -> None:
    """BLIND-01: only the seat whose turn it is posts, and exactly what it owes."""
    expected = hand.to_act
    if expected != seat:
        raise RuleViolation(
            rule_id=RuleId.BLIND_01,
            message=f"Seat {expected} posts first; seat {seat} must wait.",
            seat=seat,
            allowed=posting_legal(hand),
        )
    owed = post_amount(hand.player(seat))
    if amount is not None and amount != owed:
        raise RuleViolation(
            rule_id=RuleId.BLIND_01,
            message=f"Seat {seat} owes {owed}; post exactly {owed} or sit out.",
            seat=seat,
            allowed=posting_legal(hand),
        )


def posting_legal(hand: HandState) -> list[dict[str, object]]:
    if hand.to_act is None:
        return []
    player = hand.player(hand.to_act)
    return [
        {"action": "post", "amount": post_amount(player), "owes": list(player.owes_what)},
        {"action": "sit_out"},
    ]


def apply_post(hand: HandState, seat: int, stakes: Stakes) -> HandState:
    """Move the forced bet into the pot (BLIND-01): a big-blind ante first, as dead money outside
    the side-pot levels; then the ante (in the pot, not a bet); the rest is the live blind."""
    player = hand.player(seat)
    amount = post_amount(player)
    table_ante = min(stakes.big_blind_ante, amount) if "big_blind_ante" in player.owes_what else 0
    ante = min(stakes.ante, amount - table_ante) if "ante" in player.owes_what else 0
    live = amount - table_ante - ante
    posted = evolve(
        player,
        stack=player.stack - amount,
        committed=player.committed + ante + live,
        dead=player.dead + table_ante,
        bet=player.bet + live,
        owes=0,
    )
    hand = hand.with_player(posted)
    return evolve(hand, to_act=next_to_post(hand))


def apply_sit_out(hand: HandState, seat: int, stakes: Stakes) -> HandState:
    """The seat is not dealt in; a big blind it owed moves to the next seat that has not posted."""
    player = hand.player(seat)
    hand = evolve(hand, players=tuple(p for p in hand.players if p.seat != seat))
    if hand.small_blind_seat == seat:
        hand = evolve(hand, small_blind_seat=None)
    if hand.big_blind_seat == seat and "big_blind" in player.owes_what:
        hand = _move_big_blind(hand, seat, stakes)
    return evolve(hand, to_act=next_to_post(hand))


def _move_big_blind(hand: HandState, seat: int, stakes: Stakes) -> HandState:
    """BLIND-07: the next seat that has not posted takes the big blind (and its ante)."""
    amount = stakes.big_blind + stakes.big_blind_ante
    owes = ("big_blind_ante", "big_blind") if stakes.big_blind_ante else ("big_blind",)
    for candidate in hand.seats_from(seat):
        player = hand.player(candidate)
        unposted = player.committed == 0 and player.dead == 0
        if unposted and candidate != hand.small_blind_seat:
            moved = evolve(player, owes=player.owes + amount, owes_what=(*owes, *player.owes_what))
            return evolve(hand.with_player(moved), big_blind_seat=candidate)
    return evolve(hand, big_blind_seat=None)


def missed_marker(player: PlayerState) -> str | None:
    """BLIND-07: the marker a seat gets for skipping a blind it owed."""
    if "big_blind" in player.owes_what:
        return "big"
    if "small_blind" in player.owes_what:
        return "small"
    return None


def check_players(count: int, rules: HouseRules, table: TableState) -> None:
    """DEAL-02 / GAME-07: two players at least; no more than the game and house allow."""
    limit = min(rules.table.max_players, game(table.spec.variant).max_players)
    if count < 2:
        raise RuleViolation(
            rule_id=RuleId.DEAL_02,
            message="At least two active seats with chips are needed to deal a hand.",
        )
    if table.spec.variant is Variant.ACE_TO_SEVEN_STRIPPED and count > limit:
        raise RuleViolation(
            rule_id=RuleId.GAME_05,
            message=f"A-7 stripped deals at most {limit} players ({count} are active); "
            "sit someone out first.",
        )
    if count > limit:
        raise RuleViolation(
            rule_id=RuleId.GAME_07,
            message=f"{count} players are active but this game deals at most {limit}; "
            "sit someone out first.",
        )
