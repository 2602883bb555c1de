"""The hand's phase machine: posting, deal, betting, draw, …, showdown, complete (GAME-01/03)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.betting import start_round
from dealerassist.rules.hand.dealing import deal_everyone, next_to_deal
from dealerassist.rules.hand.drawing import next_to_draw
from dealerassist.rules.hand.openers import ask_all_in
from dealerassist.rules.hand.pots import return_uncalled
from dealerassist.rules.hand.rake import collect_time, drop_instruction
from dealerassist.rules.hand.showdown import award, next_to_show
from dealerassist.rules.hand.stub import off_limits_notice, reach_notice
from dealerassist.rules.model.actions import Mode, TableSpec
from dealerassist.rules.model.house_rules import HouseRules, OddChipMethod
from dealerassist.rules.model.messages import dealing as say_deal
from dealerassist.rules.model.outcomes import (
    CancelledResult,
    Event,
    HandCancelled,
    HandEnded,
    Instruction,
    PhaseEntered,
    Returned,
)
from dealerassist.rules.model.state import (
    HandState,
    Phase,
    PlayerState,
    SeatStatus,
    TableState,
    draw_phase,
    evolve,
    fill,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.model.variants import deck_size, game, ranking_name
from dealerassist.rules.model.violations import Notice, RuleId


@dataclass(slots=True)
class Log:
    """What one command produced: events and dealer instructions, in order."""

    events: list[Event] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


def advance(hand: HandState, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    """Move the hand on through every phase that needs no further entry."""
    while hand.phase is not Phase.COMPLETE and hand.to_act is None:
        before = hand.phase
        hand = _step(hand, spec, rules, log)
        if hand.phase is not before:
            log.events.append(PhaseEntered(hand.phase))
    if hand.phase is not Phase.COMPLETE and _one_left(hand):
        hand = finish(hand, spec, rules, log)
    return hand


def _one_left(hand: HandState) -> bool:
    if hand.phase is Phase.POSTING:
        return False
    live = 0
    for player in hand.players:  # counted, and only to the second: several times an entry
        if not player.folded:
            live += 1
            if live > 1:
                return False
    return True


def _step(hand: HandState, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    if hand.phase is Phase.POSTING:
        return _after_posting(hand, spec, rules, log)
    if hand.phase is Phase.DEAL:
        return _start_betting(hand, 1, spec, rules, log)
    if is_betting(hand.phase):
        return _after_betting(hand, spec, rules, log)
    if is_draw(hand.phase):
        return _start_betting(hand, phase_number(hand.phase) + 1, spec, rules, log)
    return finish(hand, spec, rules, log)


def _after_posting(hand: HandState, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    if len(hand.players) < 2:
        return cancel(hand, log)
    hand, collected, collect = collect_time(hand)  # RAKE-05: a new period's time, if due
    log.events.extend(collected)
    log.instructions.extend(collect)
    seats = [player.seat for player in hand.players]
    deck = deck_size(spec.variant, len(seats), rules)  # GAME-05 after sit-outs
    if deck != hand.deck:  # never silently: the hand was announced with the other deck
        log.notices.append(_deck_changed(hand.deck, deck, len(seats)))
    if spec.mode is Mode.CARD:
        hand = evolve(hand, deck=deck, phase=Phase.DEAL, stub=deck)
        return fill(hand, to_act=next_to_deal(hand))
    hand = evolve(hand, deck=deck)
    log.instructions.append(say.deal_hands(seats))
    hand = deal_everyone(hand)
    return _start_betting(hand, 1, spec, rules, log)


def _deck_changed(announced: int, deck: int, players: int) -> Notice:
    """GAME-05: a sit-out at the post changed the number dealt in, and with it the deck."""
    change = say_deal.TAKE_SIXES_OUT() if deck < announced else say_deal.ADD_SIXES()
    said = say_deal.DECK_CHANGES(players=players, deck=deck, announced=announced, change=change)
    return Notice(rule_id=RuleId.GAME_05, said=said)


def _start_betting(
    hand: HandState, betting_round: int, spec: TableSpec, rules: HouseRules, log: Log
) -> HandState:
    if _one_left(hand):
        return finish(hand, spec, rules, log)
    hand = start_round(hand, betting_round, spec, rules)  # in its phase
    log.notices.extend(ask_all_in(hand, spec, rules))  # OPEN-08
    return hand


def _after_betting(hand: HandState, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    hand = _collect(hand, log)
    if _one_left(hand):
        return finish(hand, spec, rules, log)
    betting_round = phase_number(hand.phase)
    if betting_round >= game(spec.variant).betting_rounds:  # _collect's copy, set in place
        hand = fill(hand, phase=Phase.SHOWDOWN)
        hand = fill(hand, to_act=next_to_show(hand, rules))
        if hand.to_act is not None:
            log.instructions.append(say.show_first(hand.to_act))
        return hand
    hand = fill(
        hand,
        phase=draw_phase(betting_round),
        burned_this_draw=False,
        come_back=(),
        last_receiver=None,
        exposed_owed=(),  # IRREG-04: every replacement was dealt in the draw before
    )
    hand = fill(hand, to_act=next_to_draw(hand, betting_round))
    if hand.to_act is not None:
        log.notices.append(stub_notice(hand, rules, betting_round))
        log.notices.append(off_limits_notice())
        log.instructions.append(say.ask_draw(hand.to_act))
    return hand


def stub_notice(hand: HandState, rules: HouseRules, draw_round: int) -> Notice:
    """DRAW-05/06: before the draw, how far the stub reaches without a reshuffle."""
    return reach_notice(hand, rules, draw_round)


def _collect(hand: HandState, log: Log) -> HandState:
    """End of a betting round: return the uncalled part, then the bets join the pot (in a
    copy of the hand of its own, which ``_after_betting`` moves on in place)."""
    hand = _returned(hand, log)
    players = tuple([evolve(p, bet=0) if p.bet else p for p in hand.players])  # copy only bets
    return evolve(hand, players=players, current_bet=0)


def _returned(hand: HandState, log: Log) -> HandState:
    after = return_uncalled(hand)
    if after is hand:  # every chip was matched: nothing went back
        return hand
    for player, before in zip(after.players, hand.players, strict=True):  # the same order
        amount = player.returned - before.returned
        if amount:
            log.instructions.append(say.return_bet(player.seat, amount))
            log.events.append(Returned(player.seat, amount))
    return after


def finish(hand: HandState, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    """SHOW-02/06/07/09: award every pot and close the hand."""
    hand = _returned(hand, log)
    ranking = ranking_name(spec.variant, hand.deck)
    pokerkit = rules.showdown.odd_chip is OddChipMethod.POKERKIT
    result = award(hand, ranking, rules.stripped.ace_low_straight, pokerkit, rules)
    winnings = result.winnings
    players = tuple(
        evolve(p, stack=p.stack + winnings.get(p.seat, 0), bet=0, committed=0, dead=0)
        for p in hand.players
    )
    result = evolve(result, stacks={p.seat: p.stack for p in players})
    # SHOW-07: each pot awarded separately, the last-formed side pot first (the result lists
    # the main pot first, as rulings and awards name them); RAKE-01/03: the drop comes first
    dropped = drop_instruction(result)
    if dropped is not None:
        log.instructions.append(dropped)
    for index, pot in reversed(list(enumerate(result.pots))):
        for seat, chips in pot.shares.items():
            log.instructions.append(say.award(seat, chips, index))
    log.events.append(HandEnded(result))
    return evolve(
        hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, current_bet=0
    )


def cancel(hand: HandState, log: Log) -> HandState:
    """Fewer than two players are left to deal in: every post goes back, and the antes carried
    from a passed-out deal (OPEN-03, the hand's ``dead``) wait for the next deal in
    ``result.carried``, which the table keeps as its carried pot (``engine._act``)."""
    players = tuple(
        evolve(p, stack=p.stack + p.committed + p.dead, committed=0, dead=0, bet=0)
        for p in hand.players
    )
    stacks = {p.seat: p.stack for p in players}
    # carried only when there is some, so other cancelled hands record as before
    result = CancelledResult(stacks, carried=hand.dead or None)
    log.events.append(HandCancelled(result))
    return evolve(hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, dead=0)


def store_hand(state: TableState, hand: HandState) -> TableState:
    """Keep the hand on the table; when it is over, its final stacks go back to the seats, and
    the antes a cancelled deal carried (OPEN-03, ``cancel``) stay in the table's pot."""
    if hand.phase is Phase.COMPLETE:
        seats = tuple(  # a seat left empty by a player who folded and left keeps nothing
            evolve(seat, stack=_behind(hand.player(seat.seat)))
            if hand.has(seat.seat) and seat.status is not SeatStatus.EMPTY
            else seat
            for seat in state.seats
        )
        state = evolve(state, seats=seats)
        result = hand.result
        if result is not None:
            stacks = {s.seat: s.stack for s in state.seats if s.status is not SeatStatus.EMPTY}
            hand = evolve(hand, result=evolve(result, stacks=stacks))
            if isinstance(result, CancelledResult) and result.carried:
                state = evolve(state, carried_pot=result.carried)
    return evolve(state, hand=hand)


def _behind(player: PlayerState) -> int:
    """A seat's chips once its hand is over: its stack and what the floor added during the
    hand (GAME-06: kept aside until then)."""
    return player.stack + player.added
