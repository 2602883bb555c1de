"""The stub: burns, the bottom card, reshuffles and what goes into them (DRAW-04/05/06).

Seams for the house rules of issue 4: ``reserve`` (DRAW-05), ``in_pool`` / ``muck_in_pool``
(DRAW-06) and ``deliverable`` (the dealing script of one request).
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerassist.rules.house_rules import BottomCard, HouseRules, ReshufflePool
from dealerassist.rules.state import HandState, PlayerState, evolve


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the dealing script: ``burn``, ``deal`` (to ``seat``) or ``reshuffle``."""

    code: str
    count: int
    seat: int | None = None


def reserve(hand: HandState, seat: int, rules: HouseRules, draw_round: int) -> int:
    """DRAW-05: cards at the bottom of the stub that may not be dealt (0 or 1)."""
    match rules.draw.bottom_card:
        case BottomCard.NORMAL_CARD:
            return 0
        case BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS:
            later = [p for p in hand.live() if p.seat != seat and len(p.drawn) < draw_round]
            return 1 if later else 0
    return 1


def in_pool(owner: int, pile_round: int, drawer: int, rules: HouseRules, draw_round: int) -> bool:
    """DRAW-06: does the discard pile of ``owner`` from draw ``pile_round`` go into a reshuffle?"""
    match rules.draw.reshuffle_pool:
        case ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS:
            return pile_round < draw_round
        case ReshufflePool.ALL_DISCARDS:
            return True
    return owner != drawer


def muck_in_pool(rules: HouseRules) -> bool:
    """DRAW-06: do folded hands go into a reshuffle?"""
    return rules.draw.reshuffle_pool is not ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS


def pool_size(hand: HandState, drawer: int, rules: HouseRules, draw_round: int) -> int:
    """Cards a reshuffle adds to what is left of the stub (burns, discards, maybe the muck)."""
    piles = sum(
        count
        for player in hand.players
        for index, count in enumerate(player.pile, start=1)
        if in_pool(player.seat, index, drawer, rules, draw_round)
    )
    return hand.burns + piles + (hand.muck if muck_in_pool(rules) else 0)


def reshuffle(hand: HandState, drawer: int, rules: HouseRules, draw_round: int) -> HandState:
    """DRAW-06: the pool joins what is left of the stub to make a new stub."""
    size = hand.stub + pool_size(hand, drawer, rules, draw_round)
    players = tuple(_clear_piles(p, drawer, rules, draw_round) for p in hand.players)
    muck = muck_in_pool(rules)
    return evolve(
        hand,
        players=players,
        stub=size,
        burns=0,
        muck=0 if muck else hand.muck,
        muck_cards=() if muck else hand.muck_cards,
        reshuffles=hand.reshuffles + 1,
    )


def _clear_piles(
    player: PlayerState, drawer: int, rules: HouseRules, draw_round: int
) -> PlayerState:
    keep = [
        not in_pool(player.seat, index, drawer, rules, draw_round)
        for index in range(1, len(player.pile) + 1)
    ]
    pile = tuple(count if kept else 0 for count, kept in zip(player.pile, keep, strict=True))
    cards = tuple(
        pile_cards if kept else ()
        for pile_cards, kept in zip(player.pile_cards, keep, strict=False)
    )
    return evolve(player, pile=pile, pile_cards=cards)


def deliverable(
    hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int, from_pool: int = 0
) -> tuple[HandState, tuple[Step, ...]] | None:
    """DRAW-04/05/06: the hand after giving ``count`` cards to ``seat``, and the dealing script.

    None if even a reshuffle cannot supply them. ``from_pool`` cards come after a reshuffle.
    """
    steps: list[Step] = []
    if count == 0:
        return hand, ()
    if rules.draw.burn_before and not hand.burned_this_draw:
        if hand.stub - reserve(hand, seat, rules, draw_round) < 1:
            hand = reshuffle(hand, seat, rules, draw_round)
            steps.append(Step("reshuffle", hand.stub))
        if hand.stub < 1:
            return None
        hand = evolve(hand, stub=hand.stub - 1, burns=hand.burns + 1, burned_this_draw=True)
        steps.append(Step("burn", 1))
    available = max(0, hand.stub - reserve(hand, seat, rules, draw_round))
    first = min(count - from_pool, available)
    hand = evolve(hand, stub=hand.stub - first)
    if first:
        steps.append(Step("deal", first, seat))
    rest = count - first
    if rest:
        steps.append(Step("stop", hand.stub, seat))
        hand = reshuffle(hand, seat, rules, draw_round)
        steps.append(Step("reshuffle", hand.stub))
        if hand.stub < rest:
            return None
        hand = evolve(hand, stub=hand.stub - rest)
        steps.append(Step("deal", rest, seat))
    return hand, tuple(steps)
