"""The five-card split and the end of a draw: fifth cards owed, fouled hands (DRAW-03/10).

A five-card draw is dealt four now and the fifth after every other seat (``splits``); when
the stub is about to run out, owed fifth cards go first so no seat is ever dealt its own
discards (DRAW-06); after the draw a hand that is not five cards is foul.
"""

from __future__ import annotations

from dealerassist.rules.hand.dealing import HAND_SIZE
from dealerassist.rules.hand.stub import Step, burn_due, deliverable, reserve, supplies
from dealerassist.rules.model.actions import Mode
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import irregular as msg
from dealerassist.rules.model.state import HandState, PlayerState, evolve
from dealerassist.rules.model.violations import Notice, RuleId


def splits(count: int, rules: HouseRules, mode: Mode = Mode.COUNT) -> bool:
    """DRAW-03: a five-card draw is dealt four now and the fifth after the others."""
    return count == HAND_SIZE and rules.draw.max_consecutive < HAND_SIZE


def deal_count(player: PlayerState, rules: HouseRules) -> int:
    """Card mode: how many cards the next ``deal`` gives the seat (four of a split five)."""
    return HAND_SIZE - 1 if splits(player.pending, rules) else player.pending


def finish_draw(
    hand: HandState, rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...], tuple[tuple[int, int], ...]]:
    """Everyone has drawn: the deferred fifth cards (DRAW-03), then any hand that is not five
    cards is fouled (DRAW-10); the hand, the dealing script and the fouled seats."""
    hand, steps = deal_fifth_cards(hand, rules, draw_round)
    hand, fouled = foul_short_hands(hand)
    return hand, steps, fouled


def stub_fits(hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int) -> bool:
    """DRAW-04/05: can the stub give ``count`` cards to ``seat`` (after a burn still owed)
    without a reshuffle?"""
    return hand.stub - burn_due(hand, rules) - reserve(hand, seat, rules, draw_round) >= count


def serve_owed_first(
    hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """DRAW-03/06: when the stub cannot give ``seat``'s request and the fifth cards still owed
    to earlier five-card draws, those fifth cards are dealt from the stub first. Those seats
    then hold five, so their discards may join the reshuffle and no seat is ever dealt its own
    discard."""
    steps: list[Step] = []
    waiting = [other for other in hand.come_back if other != seat]
    burn = 1 if hand.last_receiver in waiting else 0
    if not waiting or stub_fits(hand, seat, count + len(waiting) + burn, rules, draw_round):
        return hand, ()
    for owed in dict.fromkeys(waiting):
        ready = evolve(hand, burned_this_draw=False) if hand.last_receiver == owed else hand
        if not stub_fits(ready, owed, 1, rules, draw_round):
            break
        if not can_serve(ready, owed, rules, draw_round):
            continue  # IRREG-04: its cards need a reshuffle with too few cards: it waits
        hand, dealt = _give_fifth(ready, owed, rules, draw_round)
        steps.extend(dealt)
    return hand, tuple(steps)


def owed_count(hand: HandState, seat: int) -> int:
    """DRAW-03 / IRREG-04: cards ``seat`` is owed after the others: its place(s) in
    ``come_back`` (count mode: once per card) or its pending cards (card mode)."""
    return max(hand.come_back.count(seat), hand.player(seat).pending)


def owed_deal(hand: HandState, seat: int, rules: HouseRules) -> int:
    """Cards the next deal gives ``seat`` of those owed after the others (never five in a row:
    four of five owed, the last one after the others again)."""
    owed_cards = owed_count(hand, seat) if seat in hand.come_back else 0
    return HAND_SIZE - 1 if splits(owed_cards, rules) else owed_cards


def can_serve(hand: HandState, seat: int, rules: HouseRules, draw_round: int) -> bool:
    """DRAW-06 / IRREG-04: can the stub (and, to complete it, a reshuffle) give ``seat`` its
    next owed deal now? Not when the pool would leave out every discard that could fill it
    (those of the seat itself and of every other seat still owed cards)."""
    return supplies(hand, seat, owed_deal(hand, seat, rules), rules, draw_round)


def _give_fifth(
    hand: HandState, seat: int, rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    owed_cards = owed_count(hand, seat) if seat in hand.come_back else 0
    if not owed_cards:
        return hand, ()
    count = owed_deal(hand, seat, rules)
    planned = deliverable(hand, seat, count, rules, draw_round)
    if planned is None:
        return hand, (Step("stop", 0, seat),)
    hand, dealt = planned
    player = hand.player(seat)
    hand = hand.with_player(evolve(player, held=player.held + count, pending=0))
    served = tuple(other for other in hand.come_back if other != seat)
    replaced = seat in hand.exposed_owed
    left = owed_cards - count  # IRREG-04: five owed (a split five, four exposed): one after
    owed = hand.exposed_owed if left else tuple(s for s in hand.exposed_owed if s != seat)
    hand = evolve(hand, last_receiver=seat, come_back=(*served, *(seat,) * left), exposed_owed=owed)
    parts = (("replacement", 1),) if replaced else (("fifth", 1),)
    return hand, tuple(
        Step("deal", step.count, seat, parts) if step.code == "deal" else step for step in dealt
    )


def deal_fifth_cards(
    hand: HandState, rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """DRAW-03: once the others have drawn, each seat owed a fifth card gets it; if nobody
    received cards after that seat, a card is burned first. A seat still owed its card keeps
    its discards out of any reshuffle (DRAW-06)."""
    steps: list[Step] = []
    queue = list(dict.fromkeys(hand.come_back))  # IRREG-04: a seat may be owed two cards
    while queue:
        seat = queue.pop(0)
        if hand.last_receiver == seat:
            hand = evolve(hand, burned_this_draw=False)
        hand, dealt = _give_fifth(hand, seat, rules, draw_round)
        steps.extend(dealt)
        if seat in hand.come_back and dealt and dealt[-1].code != "stop":
            queue.append(seat)  # four of five owed dealt: the last one after the others
    return evolve(hand, come_back=()), tuple(steps)


def foul_short_hands(hand: HandState) -> tuple[HandState, tuple[tuple[int, int], ...]]:
    """DRAW-10 / IRREG-10: after the draw a hand of more or fewer than five cards is foul:
    the seat is out of the hand, its chips stay in the pot and its cards go to the muck.
    Returns the hand and each fouled seat with the number of cards it held."""
    fouled = tuple((p.seat, p.held) for p in hand.live() if p.held != HAND_SIZE)
    for seat, _ in fouled:
        player = hand.player(seat)
        hand = evolve(
            hand.with_player(evolve(player, folded=True, held=0, cards=())),
            muck=hand.muck + player.held,
            muck_cards=hand.muck_cards + player.cards,
        )
    return hand, fouled


def fouled_notice(seat: int, held: int) -> Notice:
    """DRAW-10: tell the dealer the hand is dead and why."""
    return Notice(rule_id=RuleId.DRAW_10, said=msg.FOULED(seat=seat, held=held), seat=seat)
