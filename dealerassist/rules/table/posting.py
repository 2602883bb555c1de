"""The posting phase: post, sit out, wait for the big blind, straddle (BLIND-01, 04, 05, 07..09,
14); and the full-blind call (BLIND-04)."""

from __future__ import annotations

from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.flow import Log
from dealerassist.rules.hand.kills import KILL, due
from dealerassist.rules.model.actions import Act, ActionKind, Stakes
from dealerassist.rules.model.messages import table as told
from dealerassist.rules.model.outcomes import (
    EntryOption,
    Instruction,
    LegalAction,
    MissedBlind,
    Posted,
    SatOut,
    WaitsForBigBlind,
)
from dealerassist.rules.model.said import Listed, Param, Said
from dealerassist.rules.model.state import (
    HandState,
    Owed,
    Phase,
    PlayerState,
    SeatStatus,
    TableState,
    evolve,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table.blinds import (
    DEAD_SMALL,
    LIVE_ENTRY,
    STRADDLE_OFFER,
    Positions,
    button_owes_small_blind,
    buys_button,
    missed_marker,
    next_to_post,
    part_amount,
    posting_order,
    take_big_blind,
)

WAIT = "wait"
STRADDLE = "straddle"
NO_STRADDLE = "no_straddle"
BIG_BLIND_ONLY = "big_blind_only"  # BLIND-06 buy_button: the big blind alone, the button skips
POST_OPTIONS = (WAIT, STRADDLE, NO_STRADDLE, BIG_BLIND_ONLY)


def post_amount(player: PlayerState) -> int:
    """BLIND-04: what the seat puts in now: what it owes, or all it has."""
    return min(player.owes, player.stack)


def may_wait(player: PlayerState) -> bool:
    """BLIND-05/08/09: a newcomer or a returning seat may wait for the big blind instead."""
    return any(part in LIVE_ENTRY or part == DEAD_SMALL for part in player.owes_what)


def posting_legal(hand: HandState, stakes: Stakes) -> list[LegalAction]:
    """The seat to post, what it owes (each part named) and its other choices."""
    if hand.to_act is None:
        return []
    player = hand.player(hand.to_act)
    owes = [part for part in player.owes_what if part != STRADDLE_OFFER]
    legal: list[LegalAction] = []
    if STRADDLE_OFFER in player.owes_what:
        straddle = min(player.stack, player.owes + 2 * stakes.big_blind)
        legal.append({"action": "post", "option": STRADDLE, "amount": straddle})
        legal.append({"action": "post", "option": NO_STRADDLE, "amount": post_amount(player)})
    else:
        owed = [str(part) for part in owes]
        legal.append({"action": "post", "amount": post_amount(player), "owes": owed})
    if buys_button(player):
        amount = _expected(player, BIG_BLIND_ONLY, stakes)
        legal.append({"action": "post", "option": BIG_BLIND_ONLY, "amount": amount})
    if may_wait(player):
        legal.append({"action": "post", "option": WAIT})
    if KILL not in player.owes_what:  # KILL-05: the kill is posted, never skipped
        legal.append({"action": "sit_out"})
    return legal


def check_post(hand: HandState, act: Act, stakes: Stakes, volunteered: bool = False) -> None:
    """BLIND-01: only the seat whose turn it is posts, exactly what it owes; BLIND-05/08/09 the
    wait option; BLIND-14 the straddle only for the seat it is offered to; BLIND-06 the big
    blind alone only for a newcomer buying the button. ``volunteered``: the
    hand's kill was chosen (KILL-01 optional), not owed after two wins (KILL-02)."""
    seat = act.seat
    waits = dict(hand.waiting)
    if seat in waits:
        why = say.why_waiting(waits[seat])
        text = told.NOT_DEALT_IN(seat=seat, why=why, rule=str(waits[seat]))
        raise _refuse(hand, RuleId(waits[seat]), text, seat, stakes)
    if hand.to_act != seat:
        text = told.POSTS_FIRST(expected=str(hand.to_act), seat=seat)
        raise _refuse(hand, RuleId.BLIND_01, text, seat, stakes)
    player = hand.player(seat)
    _check_kill(hand, act, player, stakes, volunteered)
    if act.option in (STRADDLE, NO_STRADDLE) and STRADDLE_OFFER not in player.owes_what:
        text = told.STRADDLE_NOT_OFFERED(seat=seat)
        if hand.straddle_seat is not None:
            text = told.STRADDLE_TAKEN(seat=seat, straddle=hand.straddle_seat)
        raise _refuse(hand, RuleId.BLIND_14, text, seat, stakes)
    if act.option == WAIT and not may_wait(player):
        rule = RuleId.BLIND_01
        text = told.OWES_BLIND_NO_WAIT(seat=seat, amount=post_amount(player))
        raise _refuse(hand, rule, text, seat, stakes)
    if act.option == BIG_BLIND_ONLY and not buys_button(player):
        text = told.BIG_BLIND_ALONE_REFUSED(seat=seat, amount=post_amount(player))
        raise _refuse(hand, RuleId.BLIND_06, text, seat, stakes)
    if act.option is not None and act.option not in POST_OPTIONS:
        text = told.UNKNOWN_POST_OPTION(option=repr(act.option))
        raise _refuse(hand, RuleId.BLIND_01, text, seat, stakes)
    expected = _expected(player, act.option, stakes)
    if act.action is ActionKind.POST and act.option != WAIT and act.amount not in (None, expected):
        rule = _amount_rule(player)
        owed = _owed_text(player, stakes, expected)
        text = told.POST_EXACTLY(seat=seat, owed=owed, amount=expected)
        if act.option == BIG_BLIND_ONLY:
            rule = RuleId.BLIND_06
            text = told.POST_BIG_BLIND_ALONE_EXACTLY(seat=seat, amount=expected)
        raise _refuse(hand, rule, text, seat, stakes)


def _check_kill(
    hand: HandState, act: Act, player: PlayerState, stakes: Stakes, volunteered: bool
) -> None:
    """KILL-05: the seat due to kill, or that announced a kill by choice, posts it: no sit-out,
    no waiting; KILL-06: no straddle in a kill pot."""
    seat = act.seat
    if KILL in player.owes_what and (act.action is ActionKind.SIT_OUT or act.option == WAIT):
        why = told.WHY_KILL_CHOSEN() if volunteered else told.WHY_KILL_DUE()
        text = told.KILL_NO_SIT_OUT(seat=seat, why=why, amount=post_amount(player))
        raise _refuse(hand, RuleId.KILL_05, text, seat, stakes)
    if hand.kill_seat is not None and act.option == STRADDLE:
        amount = post_amount(player)
        text = told.NO_STRADDLE_IN_KILL_POT(kill=hand.kill_seat, seat=seat, amount=amount)
        raise _refuse(hand, RuleId.KILL_06, text, seat, stakes)


def _expected(player: PlayerState, option: str | None, stakes: Stakes) -> int:
    if option == STRADDLE:
        return min(player.stack, player.owes + 2 * stakes.big_blind)
    if option == BIG_BLIND_ONLY:
        return min(player.stack, player.owes - part_amount(DEAD_SMALL, stakes))
    return post_amount(player)


def _amount_rule(player: PlayerState) -> RuleId:
    if KILL in player.owes_what:
        return RuleId.KILL_01
    if Owed.ENTERING_BIG_BLIND in player.owes_what:
        return RuleId.BLIND_05
    if Owed.RETURNING_BIG_BLIND in player.owes_what:
        return RuleId.BLIND_08
    if DEAD_SMALL in player.owes_what:
        return RuleId.BLIND_09
    return RuleId.BLIND_01


def _owed_text(player: PlayerState, stakes: Stakes, total: int) -> Param:
    """What the seat owes in words: the total, and the kill blind's parts or the dead part."""
    dead = sum(part_amount(p, stakes) for p in player.owes_what if p == DEAD_SMALL)
    if KILL in player.owes_what:
        others = tuple(told.part(p) for p in player.owes_what if p != KILL)
        if not others:
            return told.OWED_KILL(total=total)
        return told.OWED_KILL_AND(total=total, others=Listed(others))
    if not dead:
        return total
    return told.OWED_LIVE_DEAD(total=total, live=total - dead, dead=dead)


def _refuse(hand: HandState, rule: RuleId, text: Said, seat: int, stakes: Stakes) -> RuleViolation:
    return RuleViolation(rule_id=rule, said=text, seat=seat, allowed=posting_legal(hand, stakes))


def apply_post(
    hand: HandState, act: Act, stakes: Stakes, big_blind_first: bool = False
) -> HandState:
    """Move the forced bet into the pot (BLIND-01): dead parts first (big-blind ante, a dead
    small blind), outside the side-pot levels; then the ante (in the pot, not a bet); the rest is
    the live blind or straddle (BLIND-08: only the big-blind part of a return is live). BLIND-06:
    a newcomer who buys the button with the big blind alone owes no dead small blind (and is no
    buyer for ``blinds._button_buyer``: the button skips him next hand).
    ``big_blind_first`` (TDA 2024 RP-11): a seat that owes a big-blind ante posts the live part
    first and the dead parts from what is left. BLIND-14 ``button_straddle``: once the button
    straddles, the offer to the seat left of the big blind goes (one straddle)."""
    player = hand.player(act.seat)
    parts = tuple(p for p in player.owes_what if p != STRADDLE_OFFER)
    if act.option == BIG_BLIND_ONLY:
        parts = tuple(p for p in parts if p != DEAD_SMALL)
        player = evolve(player, owes=player.owes - part_amount(DEAD_SMALL, stakes))
    if act.option == STRADDLE:
        parts = (*parts, Owed.STRADDLE)
        player = evolve(player, owes=player.owes + 2 * stakes.big_blind)
        hand = evolve(hand, straddle_seat=act.seat)
    amount = post_amount(player)
    dead_owed = sum(part_amount(p, stakes) for p in parts if p in (Owed.BIG_BLIND_ANTE, DEAD_SMALL))
    dead = min(dead_owed, amount)
    ante = min(stakes.ante, amount - dead) if Owed.ANTE in parts else 0
    live = amount - dead - ante
    if big_blind_first and Owed.BIG_BLIND_ANTE in parts:  # TDA 2024 RP-11
        ante_owed = stakes.ante if Owed.ANTE in parts else 0
        live = min(player.owes - dead_owed - ante_owed, amount)
        dead = min(dead_owed, amount - live)
        ante = amount - live - dead
    posted = evolve(
        player,
        stack=player.stack - amount,
        committed=player.committed + ante + live,
        dead=player.dead + dead,
        bet=player.bet + live,
        owes=0,
        owes_what=parts,
    )
    hand = hand.with_player(posted)
    if act.option == STRADDLE:
        hand = _offers_withdrawn(hand)
    return evolve(hand, to_act=next_to_post(hand))


def _offers_withdrawn(hand: HandState) -> HandState:
    """BLIND-14: one straddle a hand: the other seats' straddle offers go."""
    players = tuple(
        evolve(p, owes_what=tuple(part for part in p.owes_what if part != STRADDLE_OFFER))
        if STRADDLE_OFFER in p.owes_what
        else p
        for p in hand.players
    )
    return evolve(hand, players=players)


def apply_sit_out(
    hand: HandState, seat: int, stakes: Stakes, small_blind_position: int | None
) -> HandState:
    """The seat is not dealt in; a big blind it owed moves to the next seat that has not posted
    (BLIND-07); if only the button and the big blind are left, the button posts the small blind
    (BLIND-02). ``wait`` (BLIND-05/08) takes the same way out of the hand.
    ``small_blind_position``: where this hand's small blind is (None: the game has none)."""
    player = hand.player(seat)
    hand = evolve(hand, players=tuple(p for p in hand.players if p.seat != seat))
    if hand.small_blind_seat == seat:
        hand = evolve(hand, small_blind_seat=None)
    if hand.big_blind_seat == seat and _holds_big_blind(player):
        hand = _move_big_blind(hand, seat, stakes)
    hand = _heads_up_small_blind(hand, stakes, small_blind_position)
    return evolve(hand, to_act=next_to_post(hand))


def _holds_big_blind(player: PlayerState) -> bool:
    """The seat owes the hand's big blind: the blind itself, or a live big blind to come in
    that stands for it (BLIND-05/08, once the big blind moved onto it, ``_move_big_blind``)."""
    return any(part == Owed.BIG_BLIND or part in LIVE_ENTRY for part in player.owes_what)


def _heads_up_small_blind(
    hand: HandState, stakes: Stakes, small_blind_position: int | None
) -> HandState:
    """BLIND-02: with two players the button posts the small blind, as at the deal
    (``blinds.new_hand``); it posts it live instead of a dead small blind it owed (BLIND-09),
    and the straddle offer goes (BLIND-14: three players or more). A button that owes a big
    blind to come in (BLIND-05/08), or that has posted, does not take it: the small blind stays
    dead as before. A button that kills posts the kill, which stands for its blind (KILL-01)."""
    where = Positions(hand.button, None, hand.big_blind_seat, small_blind_position)
    dealt = [player.seat for player in hand.players]
    if not button_owes_small_blind(dealt, hand.small_blind_seat, where, stakes):
        return hand
    player = hand.player(hand.button)
    if player.committed or player.dead or any(part in LIVE_ENTRY for part in player.owes_what):
        return hand
    dropped = [part for part in player.owes_what if part in (DEAD_SMALL, STRADDLE_OFFER)]
    kept = tuple(part for part in player.owes_what if part not in dropped)
    blind = () if KILL in kept else (Owed.SMALL_BLIND,)
    change = sum(part_amount(part, stakes) for part in blind)
    change -= sum(part_amount(part, stakes) for part in dropped)
    posts = evolve(player, owes=player.owes + change, owes_what=(*blind, *kept))
    return evolve(hand.with_player(posts), small_blind_seat=hand.button)


def _move_big_blind(hand: HandState, seat: int, stakes: Stakes) -> HandState:
    """BLIND-07: the next seat that has not posted takes the big blind (and its ante). KILL-01:
    the seat that kills posts the kill instead; BLIND-05/08: a live big blind it owes to come in
    is the one it takes (``blinds.take_big_blind``)."""
    owes = (Owed.BIG_BLIND_ANTE, Owed.BIG_BLIND) if stakes.big_blind_ante else (Owed.BIG_BLIND,)
    for candidate in hand.seats_from(seat):
        player = hand.player(candidate)
        unposted = player.committed == 0 and player.dead == 0
        if unposted and candidate != hand.small_blind_seat:
            moved = take_big_blind(player, stakes, owes)
            return evolve(hand.with_player(moved), big_blind_seat=candidate)
    return evolve(hand, big_blind_seat=None)


def check_full_blind_call(
    hand: HandState, act: Act, stakes: Stakes, kill_blind: int | None = None
) -> None:
    """BLIND-04: after a short all-in big blind the others call the full blind, not the short
    amount; ``kill_blind`` (``short_kill_full_call``, WSOP 154): so after a short kill, whose
    full kill blind the others call."""
    if act.action is not ActionKind.CALL or act.amount is None or hand.phase is not Phase.BETTING_1:
        return
    kill = hand.kill_seat
    if kill_blind is not None and kill is not None and hand.has(kill) and hand.has(act.seat):
        short = hand.player(kill).bet
        player = hand.player(act.seat)
        if short < kill_blind and player.bet + act.amount == short < hand.current_bet:
            owed = min(hand.current_bet - player.bet, player.stack)
            raise RuleViolation(
                rule_id=RuleId.BLIND_04,
                said=told.KILL_FULL_CALL(
                    short=short, kill_blind=kill_blind, seat=act.seat, owed=owed
                ),
                seat=act.seat,
                allowed=[{"action": "call", "amount": owed}, {"action": "fold"}],
            )
    big = hand.big_blind_seat
    if big is None or not hand.has(big) or not hand.has(act.seat):
        return
    short = hand.player(big).bet
    player = hand.player(act.seat)
    full = min(stakes.big_blind, player.bet + player.stack)
    if short < stakes.big_blind and player.bet + act.amount == short and short < full:
        owed = hand.current_bet - player.bet
        raise RuleViolation(
            rule_id=RuleId.BLIND_04,
            said=told.BIG_BLIND_FULL_CALL(short=short, seat=act.seat, owed=owed),
            seat=act.seat,
            allowed=[{"action": "call", "amount": owed}, {"action": "fold"}],
        )


def apply_act(
    state: TableState, hand: HandState, act: Act, log: Log, big_blind_first: bool = False
) -> tuple[TableState, HandState]:
    """A ``post`` (with its option) or ``sit_out`` during the posting phase, checked and applied;
    the seat's markers clear once it has posted."""
    stakes = state.spec.stakes
    check_post(hand, act, stakes, volunteered=hand.kill_seat not in (None, due(state)))
    player = hand.player(act.seat)
    seat = state.seat(act.seat)
    if act.action is ActionKind.POST and act.option != WAIT:
        amount = _expected(player, act.option, stakes)
        log.events.append(Posted(act.seat, amount, EntryOption(act.option) if act.option else None))
        settled = evolve(seat, new_player=False, waiting=None, missed_blind=None, dodge_from=None)
        return state.with_seat(settled), apply_post(hand, act, stakes, big_blind_first)
    if act.option == WAIT:
        rule = RuleId.BLIND_05 if Owed.ENTERING_BIG_BLIND in player.owes_what else RuleId.BLIND_08
        seat = evolve(seat, waiting=rule)
        log.events.append(WaitsForBigBlind(act.seat))
    else:
        marker = missed_marker(player)
        big = seat.missed_blind == MissedBlind.BIG
        marker = MissedBlind.BIG if big else (marker or seat.missed_blind)
        dodge = hand.hand_no if missed_marker(player) else seat.dodge_from
        seat = evolve(seat, status=SeatStatus.SITTING_OUT, missed_blind=marker, dodge_from=dodge)
        log.events.append(SatOut(act.seat, MissedBlind(marker) if marker else None))
    hand = apply_sit_out(hand, act.seat, stakes, state.small_blind_position)
    state = evolve(state.with_seat(seat), big_blind_position=hand.big_blind_seat)
    return state, hand


def start_instructions(hand: HandState, stakes: Stakes) -> list[Instruction]:
    """What the dealer collects before the deal: each seat's posts in order, the straddle
    offer (BLIND-14), the big blind alone for a newcomer buying the button (BLIND-06), and the
    seated players not dealt in and why (BLIND-05/06/08/12/13)."""
    result = []
    for seat in posting_order(hand):
        player = hand.player(seat)
        if player.owes:
            owes = [part for part in player.owes_what if part != STRADDLE_OFFER]
            result.append(say.post(seat, post_amount(player), owes))
        if buys_button(player):
            amount = _expected(player, BIG_BLIND_ONLY, stakes)
            text = told.BUYS_BUTTON(seat=seat, amount=amount)
            result.append(say.instruction(BIG_BLIND_ONLY, seat, amount, text))
        if STRADDLE_OFFER in player.owes_what:
            amount = min(player.stack, player.owes + 2 * stakes.big_blind)
            text = told.MAY_STRADDLE(seat=seat)
            result.append(say.instruction("straddle", seat, amount, text))
    return result + [say.waits(seat, rule) for seat, rule in hand.waiting]
