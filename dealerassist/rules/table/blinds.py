"""Starting a hand: the button, who is dealt in, what each seat must post (BLIND-01..03, 05..09,
13, 14; OPEN-03 re-deal; OPEN-08 a false opener waits)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealerassist.rules.hand import kills
from dealerassist.rules.hand.openers import antes_stopped
from dealerassist.rules.model.actions import Stakes
from dealerassist.rules.model.house_rules import (
    ButtonMethod,
    HouseRules,
    MissedBlindsReturn,
    NewPlayerBetweenBlindsAndButton,
    PassOutButton,
    Structure,
    Variant,
)
from dealerassist.rules.model.messages import betting as say
from dealerassist.rules.model.messages import opening
from dealerassist.rules.model.said import Join, Listed
from dealerassist.rules.model.state import (
    HandState,
    MissedBlind,
    Phase,
    PlayerState,
    SeatState,
    SeatStatus,
    TableState,
    evolve,
)
from dealerassist.rules.model.variants import deck_size, game
from dealerassist.rules.model.violations import RuleId, RuleViolation

# What a seat may owe, by part: live parts are bets, dead parts go to the middle (BLIND-08)
LIVE_ENTRY = ("returning_big_blind", "entering_big_blind")  # BLIND-05/08: a live big blind
DEAD_SMALL = "dead_small_blind"  # BLIND-06 buy-button, BLIND-08/09: the small blind, dead
STRADDLE_OFFER = "straddle_offer"  # BLIND-14: the seat left of the big blind may straddle


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


def arc(start: int, end: int, max_seats: int) -> list[int]:
    """The seats strictly after ``start`` up to and including ``end``, clockwise.

    >>> arc(5, 2, 6)
    [6, 1, 2]
    >>> arc(2, 2, 6)
    []
    """
    seats = clockwise_after(list(range(1, max_seats + 1)), start)
    return seats[: seats.index(end) + 1] if end != start else []


def next_button(table: TableState, requested: int | None) -> int:
    """BLIND-03: the dealer names the first button; then it moves to the next seat dealt in."""
    seats = eligible_seats(table)
    if table.button is None:
        if requested is None:
            return seats[-1]
        if requested not in seats:
            raise RuleViolation(
                rule_id=RuleId.BLIND_03,
                said=say.BUTTON_CHOICE(seat=requested, seats=Listed(tuple(seats), Join.COMMA)),
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
    the small blind and the button follow it, even onto empty seats); BLIND-02 heads-up;
    BLIND-13 a single blind; OPEN-03 the same dealer after a passed-out deal."""
    seats = eligible_seats(table)
    same_dealer = rules.open.passout_button is PassOutButton.SAME_DEALER
    if table.button_stays and same_dealer and table.button in seats:
        return _same_dealer(seats, table.button, requested)
    dead = rules.blinds.button_method is ButtonMethod.DEAD and not rules.blinds.single_blind
    if dead and table.spec.stakes.big_blind and len(seats) > 2:
        planned = _dead_button(table, seats)
        if planned is not None:
            _check_requested(requested, planned.button)
            return planned
    button = _heads_up_button(table, seats, requested) or next_button(table, requested)
    if not table.spec.stakes.big_blind:
        return Positions(button, None, None, None)
    if rules.blinds.single_blind:
        big = clockwise_after(seats, button)[0]
        return Positions(button, None, big, None)
    small, big = blind_seats(clockwise_after(seats, button), button)
    return Positions(button, small, big, small)


def _same_dealer(seats: list[int], button: int | None, requested: int | None) -> Positions:
    """OPEN-03 (USPCC): nobody opened, so the same dealer deals again."""
    assert button is not None
    if requested is not None and requested != button:
        raise RuleViolation(
            rule_id=RuleId.OPEN_03,
            said=opening.SAME_DEALER(seat=button),
            seat=requested,
            allowed=[{"action": "start_hand", "button": button}],
        )
    return Positions(button, None, None, None)


def _heads_up_button(table: TableState, seats: list[int], requested: int | None) -> int | None:
    """BLIND-02: on becoming heads-up, last hand's big blind takes the button (the small blind)
    so that nobody takes the big blind twice running."""
    last_big = table.big_blind_position
    if len(seats) != 2 or table.button is None or last_big not in seats:
        return None
    assert last_big is not None
    if requested is not None and requested != last_big:
        raise RuleViolation(
            rule_id=RuleId.BLIND_02,
            said=say.HEADS_UP_BUTTON(seat=last_big),
            seat=requested,
            allowed=[{"action": "start_hand", "button": last_big}],
        )
    return last_big


def _dead_button(table: TableState, seats: list[int]) -> Positions | None:
    last_big, button = table.big_blind_position, table.small_blind_position
    if table.button is None or last_big is None or button is None or button == table.button:
        return None
    big = clockwise_after(seats, last_big)[0]
    if big == last_big:
        return None
    buyer = _button_buyer(table, seats)
    if buyer is not None and buyer != big:
        button = buyer  # BLIND-06 buy_button (WSOP 158): he bought the button last hand
    elif big == button:  # the big blind moved onto the button at the post (BLIND-07)
        button = (last_big - 2) % len(table.seats) + 1
    small = last_big if last_big in seats else None
    return Positions(button, small, big, last_big)


def _button_buyer(table: TableState, seats: list[int]) -> int | None:
    """BLIND-06 buy_button (WSOP 158): the newcomer who posted a big blind and a dead small
    blind between the button and the small blind in the last hand (not a misdeal) takes the
    button now, where the dead button would skip him."""
    hand = table.hand
    if hand is None or hand.button != table.button or (hand.result or {}).get("cancelled"):
        return None
    bought = [p.seat for p in hand.players if buys_button(p)]
    return next((s for s in clockwise_after(seats, hand.button) if s in bought), None)


def _check_requested(requested: int | None, button: int) -> None:
    if requested is not None and requested != button:
        raise RuleViolation(
            rule_id=RuleId.BLIND_03,
            said=say.BUTTON_MOVES(seat=button),
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


# -- missed blinds (BLIND-07) -----------------------------------------------------------------


def mark_missed(table: TableState, where: Positions) -> TableState:
    """BLIND-07: a seated player who is not dealt in when the big blind passes his seat gets
    the "big" marker (ML); when only the small blind passes it, "small" (MS). Heads-up the
    small blind stays on the button (BLIND-02), so last hand's big blind, whose small blind
    this hand was, is passed by it too when he is not dealt in."""
    last_big, last_small = table.big_blind_position, table.small_blind_position
    if last_big is None or where.big_blind is None:
        return table
    size = len(table.seats)
    passed_big = set(arc(last_big, where.big_blind, size)) - {where.big_blind}
    passed_small: set[int] = set()
    if last_small is not None and where.small_blind_position is not None:
        passed_small = set(arc(last_small, where.small_blind_position, size))
        if where.small_blind_position == where.button:  # BLIND-02: heads-up
            passed_small.add(last_big)
    seats = tuple(_marked(seat, passed_big, passed_small) for seat in table.seats)
    return evolve(table, seats=seats)


def _marked(seat: SeatState, passed_big: set[int], passed_small: set[int]) -> SeatState:
    absent = seat.status is SeatStatus.SITTING_OUT or (
        seat.status is SeatStatus.ACTIVE and seat.stack == 0
    )
    if not absent or seat.missed_blind == MissedBlind.BIG:
        return seat
    if seat.seat in passed_big:
        return evolve(seat, missed_blind=MissedBlind.BIG)
    if seat.seat in passed_small:
        return evolve(seat, missed_blind=MissedBlind.SMALL)
    return seat


# -- BLIND-11 (c): the first orbit of a new game ------------------------------------------------


def unpassed_seats(table: TableState) -> list[int]:
    """BLIND-11 (c): between hands of a new game, the seats no blind has passed yet, clockwise
    from the big blind, the first button last; empty once the blinds have gone round (or when
    the table cannot tell: a profile without ``new_game_orbit`` knows it only after hand 1).

    In hand 1 the table's hand is the first one: the seats after its big blind up to its
    button. Later ``table.first_orbit`` holds them as of the last hand's start; a big blind
    that moved on at the post (BLIND-07) has passed the seats up to its new seat, and one
    that moved past the end of the orbit has passed them all.
    """
    last_big, hand = table.big_blind_position, table.hand
    if last_big is None or hand is None:
        return []
    seats = table.first_orbit
    if seats:
        if last_big in seats:  # the big blind moved on at the post
            return list(seats[seats.index(last_big) + 1 :])
        started_on = (seats[0] - 2) % len(table.seats) + 1  # the arc starts after the blind
        return list(seats) if last_big == started_on else []
    if hand.hand_no == 1 and table.hand_no == 1:
        return arc(last_big, hand.button, len(table.seats))
    return []


def track_first_orbit(table: TableState, where: Positions, rules: HouseRules) -> TableState:
    """BLIND-11 (c) ``new_game_orbit``: as a hand starts with the big blind at ``where``, the
    seats of the first orbit it has not reached stay recorded (``first_orbit``); the blind on
    or past the first button ends the orbit. Kept only from hand 2 on (hand 1 is the table's
    hand until then; after a misdealt hand 1, from the deal that replaces it) and only under
    the option: a state recorded before it, or under a profile version without it, is the
    same state, with the same ``state_sha256``."""
    seats: tuple[int, ...] = ()
    if rules.blinds.new_game_orbit and where.big_blind is not None:
        before = unpassed_seats(table)
        if where.big_blind in before:
            seats = tuple(before[before.index(where.big_blind) + 1 :])
        elif _first_hand_misdealt(table):  # IRREG-01: this deal is the game's first hand
            seats = tuple(arc(where.big_blind, where.button, len(table.seats)))
    return table if seats == table.first_orbit else evolve(table, first_orbit=seats)


def _first_hand_misdealt(table: TableState) -> bool:
    """The table's only hand so far was misdealt (IRREG-01): the next deal starts the game."""
    hand = table.hand
    cancelled = hand is not None and bool((hand.result or {}).get("cancelled"))
    return cancelled and table.hand_no == 1


# -- who is dealt in and what each seat owes ---------------------------------------------------


def entry(
    table: TableState, seat: SeatState, where: Positions, rules: HouseRules
) -> RuleId | tuple[str, ...]:
    """What an eligible seat owes beyond its place in the blinds, or the rule ID it waits under.

    BLIND-05 a newcomer posts a big blind or waits; BLIND-06 not between the blinds and the
    button; BLIND-08/09 a returning seat posts what it missed (big live, small dead) or waits;
    BLIND-12/13 a seat that must wait for the big blind.
    """
    if seat.seat == where.big_blind or not table.spec.stakes.big_blind:
        return ()
    if seat.waiting is not None and not _waits_for_button(seat, rules):
        return seat.waiting
    if seat.seat == where.small_blind:
        if seat.new_player and rules.blinds.new_player_must_post:
            return RuleId.BLIND_05
        return RuleId.BLIND_08 if seat.missed_blind == MissedBlind.BIG else ()
    if seat.new_player:
        return _newcomer(table, seat.seat, where, rules)
    if seat.missed_blind is None:
        return ()
    if rules.blinds.single_blind:
        return RuleId.BLIND_13
    if rules.blinds.missed_blinds_return is MissedBlindsReturn.WAIT_FOR_BIG_BLIND:
        return RuleId.BLIND_08
    if seat.missed_blind == MissedBlind.SMALL and _button_to_pass(table, seat.seat, where, rules):
        return RuleId.BLIND_09
    big = seat.missed_blind == MissedBlind.BIG
    return ("returning_big_blind", DEAD_SMALL) if big else (DEAD_SMALL,)


def _button_to_pass(table: TableState, seat: int, where: Positions, rules: HouseRules) -> bool:
    """BLIND-09 option: the seat is on the button or between it and the small blind."""
    small = where.small_blind_position
    if not rules.blinds.sb_only_wait_for_button or small is None:
        return False
    return seat == where.button or seat in arc(where.button, small, len(table.seats))


_BUYS_BUTTON = ("entering_big_blind", DEAD_SMALL)  # BLIND-06 buy_button: big blind + dead small


def buys_button(player: PlayerState) -> bool:
    """BLIND-06 buy_button (WSOP 158): the newcomer between the blinds and the button owes (or
    posted) a big blind and a dead small blind for the button. He may instead post the big
    blind alone (``posting.BIG_BLIND_ONLY``): he plays, and the button skips him next hand."""
    return set(_BUYS_BUTTON) <= set(player.owes_what)


def _waits_for_button(seat: SeatState, rules: HouseRules) -> bool:
    """BLIND-06: a newcomer who need not post (WSOP 104-a) and chose to wait rather than buy
    the button waits only until the button has passed him, not for the big blind."""
    waits = seat.waiting == RuleId.BLIND_05
    return seat.new_player and waits and not rules.blinds.new_player_must_post


def _newcomer(
    table: TableState, seat: int, where: Positions, rules: HouseRules
) -> RuleId | tuple[str, ...]:
    """BLIND-05/06: post a big blind now, or play free where the house does not make newcomers
    post (WSOP 104-a); but not between the blinds and the button: wait, or buy the button."""
    small = where.small_blind_position
    between = small is not None and seat in arc(where.button, small, len(table.seats))
    if not between:
        return ("entering_big_blind",) if rules.blinds.new_player_must_post else ()
    buys = rules.blinds.between_blinds_and_button is NewPlayerBetweenBlindsAndButton.BUY_BUTTON
    if buys and not _waits_for_button(table.seat(seat), rules):
        return _BUYS_BUTTON
    return RuleId.BLIND_06


_OBLIGATIONS = frozenset({"small_blind", "big_blind", *LIVE_ENTRY, DEAD_SMALL, kills.KILL})


def settle_newcomers(table: TableState, hand: HandState) -> TableState:
    """BLIND-05/06/11: a newcomer dealt in without a blind to post (where the house does not
    make him post, or in a new game) is from then on a player like the others."""
    seats = tuple(
        evolve(seat, new_player=False, waiting=None)
        if seat.new_player
        and hand.has(seat.seat)
        and _OBLIGATIONS.isdisjoint(hand.player(seat.seat).owes_what)
        else seat
        for seat in table.seats
    )
    return table if seats == table.seats else evolve(table, seats=seats)


def new_hand(
    table: TableState,
    where: Positions,
    rules: HouseRules,
    volunteer: int | None = None,
    everyone: bool = False,
) -> HandState:
    """The posting phase of a new hand: every seat dealt in and what it owes; who waits, why.

    ``volunteer``: the seat that kills this hand by choice (KILL-01, optional kills only);
    ``everyone``: too few to wait, so nobody does (BLIND-11 (c), OPEN-09)."""
    stakes = table.spec.stakes
    volunteer = volunteer if kills.is_optional(rules) else None
    order = clockwise_after(eligible_seats(table), where.button)
    small, big = where.small_blind, where.big_blind
    if antes_stopped(table.carried_pot, table.passed_out_deals, rules):
        stakes = replace(stakes, ante=0)  # OPEN-03: the pot plays as it is
    players: list[PlayerState] = []
    waiting: list[tuple[int, RuleId]] = []
    # OPEN-09: only the players dealt in on the previous deal share the antes it carried
    previous = table.hand if table.carried_pot and not everyone else None
    killer = kills.killer(table, volunteer, rules)
    kill_in_blind = killer is not None and killer in (small, big)
    for seat in order:
        if table.seat(seat).false_opener:  # OPEN-08: until a legally opened pot is won
            waiting.append((seat, RuleId.OPEN_08))
            continue
        if previous is not None and not previous.has(seat):
            waiting.append((seat, RuleId.OPEN_09))
            continue
        extra = entry(table, table.seat(seat), where, rules)
        if kill_in_blind and extra == _BUYS_BUTTON:  # KILL-06: no buying the button then
            waiting.append((seat, RuleId.KILL_06))
            continue
        if seat == volunteer:
            extra = _killing_entry(table.seat(seat), extra)
        if isinstance(extra, str):  # a rule ID: the seat waits
            waiting.append((seat, extra))
            continue
        players.append(_player(table.seat(seat).stack, seat, stakes, small, big, extra))
    if small is not None and any(seat == small for seat, _ in waiting):
        small = None
    players, small = _heads_up_small_blind(table, where, rules, players, small)
    hand = HandState(
        hand_no=table.hand_no + 1,
        phase=Phase.POSTING,
        button=where.button,
        players=tuple(players),
        deck=deck_size(table.spec.variant, max(len(players), 2), rules),
        small_blind_seat=small,
        big_blind_seat=big,
        dead=table.carried_pot,
        waiting=tuple(waiting),
    )
    if len(players) < 2 and waiting and not everyone:  # OPEN-08: false openers still wait
        return _everyone_in(table, where, rules, volunteer)
    hand = _single_blind(hand, stakes, rules)
    hand = _kill_owed(hand, killer, stakes, rules)
    hand = _straddle_offer(hand, rules, table.spec.structure)
    return evolve(hand, to_act=next_to_post(hand))


def button_owes_small_blind(
    dealt: list[int], small: int | None, where: Positions, stakes: Stakes
) -> bool:
    """BLIND-02: only the button and the big blind are dealt in and no seat dealt in posts the
    small blind of a game that has one, so the button posts it (also after a sit-out at the
    post)."""
    button, big = where.button, where.big_blind
    if len(dealt) != 2 or small in dealt or where.small_blind_position is None:
        return False
    return big in dealt and button in dealt and button != big and bool(stakes.small_blind)


def _heads_up_small_blind(
    table: TableState,
    where: Positions,
    rules: HouseRules,
    players: list[PlayerState],
    small: int | None,
) -> tuple[list[PlayerState], int | None]:
    """BLIND-02: a hand dealt to two players has a small blind, posted by the button. When the
    small blind's seat waits (or the small blind is dead) and only the button and the big blind
    are dealt in, the button posts it, owing what a seat in the small blind owes (BLIND-08/09)."""
    button, big, stakes = where.button, where.big_blind, table.spec.stakes
    if not button_owes_small_blind([player.seat for player in players], small, where, stakes):
        return players, small
    extra = entry(table, table.seat(button), replace(where, small_blind=button), rules)
    if isinstance(extra, str):  # BLIND-05/08: a seat that could not take the small blind either
        return players, small
    posts = [
        _player(p.stack, button, stakes, button, big, extra) if p.seat == button else p
        for p in players
    ]
    return posts, button


def _everyone_in(
    table: TableState, where: Positions, rules: HouseRules, volunteer: int | None
) -> HandState:
    """BLIND-11 (c): with too few players to wait for the blinds, a new game deals everyone in."""
    seats = tuple(evolve(s, waiting=None, new_player=False, missed_blind=None) for s in table.seats)
    return new_hand(evolve(table, seats=seats), where, rules, volunteer, everyone=True)


def _killing_entry(seat: SeatState, extra: RuleId | tuple[str, ...]) -> tuple[str, ...]:
    """KILL-01 (RRoP lowball): a seat that kills by choice is dealt in at once instead of
    waiting for the big blind (BLIND-05/06/08/09/12/13); the kill replaces its live blind
    (``_kill_owed``), and a missed blind's dead small blind is still owed on top."""
    if not isinstance(extra, str):
        return extra
    return (DEAD_SMALL,) if seat.missed_blind is not None else ()


def _player(
    stack: int,
    seat: int,
    stakes: Stakes,
    small: int | None,
    big: int | None,
    extra: tuple[str, ...],
) -> PlayerState:
    owes_what: list[str] = []
    if seat == small and stakes.small_blind:
        owes_what.append("small_blind")
    if seat == big and stakes.big_blind_ante:
        owes_what.append("big_blind_ante")
    if seat == big:
        owes_what.append("big_blind")
    owes_what.extend(extra)
    if stakes.ante:
        owes_what.append("ante")
    owes = sum(part_amount(part, stakes) for part in owes_what)
    return PlayerState(seat=seat, stack=stack, owes=owes, owes_what=tuple(owes_what))


def part_amount(part: str, stakes: Stakes) -> int:
    """The chips of one posting obligation."""
    if part in ("small_blind", DEAD_SMALL):
        return stakes.small_blind
    if part in ("big_blind", *LIVE_ENTRY):
        return stakes.big_blind
    if part == "straddle":
        return 2 * stakes.big_blind
    return {"big_blind_ante": stakes.big_blind_ante, "ante": stakes.ante}.get(part, 0)


def _single_blind(hand: HandState, stakes: Stakes, rules: HouseRules) -> HandState:
    """BLIND-13: a blind with less than half a blind still plays, and the next seat takes the
    blind too; half a blind or more counts as a full blind."""
    big = hand.big_blind_seat
    if not rules.blinds.single_blind or big is None or not hand.has(big):
        return hand
    if 2 * hand.player(big).stack >= stakes.big_blind or len(hand.players) < 3:
        return hand
    following = hand.seats_from(big)[0]
    takes = take_big_blind(hand.player(following), stakes)
    return evolve(hand.with_player(takes), big_blind_seat=following)


def take_big_blind(
    player: PlayerState, stakes: Stakes, parts: tuple[str, ...] = ("big_blind",)
) -> PlayerState:
    """The seat that takes the hand's big blind (moved at the post, BLIND-07, or after a short
    single blind, BLIND-13) owes ``parts`` (the blind, and a big-blind ante, dead), except the
    blind itself where a live big blind it owes to come in (BLIND-05/08) or its kill (KILL-01,
    as ``_kill_owed``) stands for it: posted once (a dead small blind it owes stays, dead)."""
    stands = any(part == kills.KILL or part in LIVE_ENTRY for part in player.owes_what)
    takes = tuple(part for part in parts if not (stands and part == "big_blind"))
    amount = sum(part_amount(part, stakes) for part in takes)
    return evolve(player, owes=player.owes + amount, owes_what=(*takes, *player.owes_what))


_LIVE_BLINDS = ("small_blind", "big_blind", *LIVE_ENTRY)


def _kill_owed(hand: HandState, seat: int | None, stakes: Stakes, rules: HouseRules) -> HandState:
    """KILL-02: the seat that won the last two pots, or KILL-01 the seat that kills by choice,
    owes the kill blind (KILL-01), posted in its turn like any post. A kill seat in a blind
    posts the kill instead of its live blind (the blind is part of the kill); dead parts and an
    ante are owed on top. KILL-06: one kill per deal. A seat due to kill that is not dealt in
    misses it (not made up later: KILL-05's make-up rule is not built)."""
    if seat is None or not hand.has(seat):
        return hand
    player = hand.player(seat)
    kept = tuple(part for part in player.owes_what if part not in _LIVE_BLINDS)
    owes = kills.kill_blind(stakes, rules) + sum(part_amount(part, stakes) for part in kept)
    killer = evolve(player, owes=owes, owes_what=(kills.KILL, *kept))
    return evolve(hand.with_player(killer), kill_seat=seat)


def _straddle_offer(hand: HandState, rules: HouseRules, structure: Structure) -> HandState:
    """BLIND-14: the first seat left of the big blind is offered a live straddle, but never the
    button in a limit game (three-handed it is the button); KILL-06 never in a kill pot.
    ``button_straddle`` (WSOP 22, 165): in no limit and pot limit the button is offered one too,
    and answers first (``posting_order``): the button straddle takes precedence."""
    big = hand.big_blind_seat
    if not rules.blinds.straddle_allowed or big is None or len(hand.players) < 3:
        return hand
    if hand.kill_seat is not None:
        return hand
    if not hand.has(big):
        return hand
    seat = hand.seats_from(big)[0]
    limit = structure is Structure.FIXED_LIMIT
    offered = [] if seat == hand.button and limit else [seat]  # no button straddle in limit
    button = hand.button
    on_button = rules.blinds.button_straddle and not limit and hand.has(button)
    if on_button and button not in (big, hand.small_blind_seat, seat):
        offered.append(button)
    for offer in offered:
        player = hand.player(offer)
        hand = hand.with_player(evolve(player, owes_what=(*player.owes_what, STRADDLE_OFFER)))
    return hand


def button_straddle_offered(hand: HandState) -> bool:
    """BLIND-14 ``button_straddle``: the button holds a straddle offer (asked first)."""
    return hand.has(hand.button) and STRADDLE_OFFER in hand.player(hand.button).owes_what


def posting_order(hand: HandState) -> list[int]:
    """Small blind, big blind, then everyone else in dealing order; a button offered a
    straddle right after the blinds (BLIND-14, WSOP 22: the button straddle takes precedence)."""
    first = [s for s in (hand.small_blind_seat, hand.big_blind_seat) if s is not None]
    if button_straddle_offered(hand) and hand.button not in first:
        first.append(hand.button)
    return first + [p.seat for p in hand.players if p.seat not in first]


def next_to_post(hand: HandState) -> int | None:
    """The seat that owes a forced bet (or answers a straddle offer) now, if any."""
    for seat in posting_order(hand):
        if hand.has(seat):
            player = hand.player(seat)
            if player.owes > 0 or STRADDLE_OFFER in player.owes_what:
                return seat
    return None


def missed_marker(player: PlayerState) -> MissedBlind | None:
    """BLIND-07: the marker a seat gets for skipping a blind it owed."""
    if "big_blind" in player.owes_what or "returning_big_blind" in player.owes_what:
        return MissedBlind.BIG
    if "small_blind" in player.owes_what or DEAD_SMALL in player.owes_what:
        return MissedBlind.SMALL
    return None


def check_players(count: int, rules: HouseRules, table: TableState, most: bool = True) -> None:
    """DEAL-02 / GAME-07: two players at least; no more than the game and house allow
    (``most``: counted among the players dealt in, not the seats that wait)."""
    limit = min(rules.table.max_players, game(table.spec.variant).max_players)
    if count < 2:
        raise RuleViolation(
            rule_id=RuleId.DEAL_02,
            said=say.TOO_FEW_TO_DEAL(),
        )
    if not most:
        return
    if table.spec.variant is Variant.ACE_TO_SEVEN_STRIPPED and count > limit:
        raise RuleViolation(
            rule_id=RuleId.GAME_05,
            said=say.STRIPPED_MOST_PLAYERS(most=limit, count=count),
        )
    if count > limit:
        raise RuleViolation(
            rule_id=RuleId.GAME_07,
            said=say.TOO_MANY_PLAYERS(count=count, most=limit),
        )
