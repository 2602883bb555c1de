"""The stub: burns, the bottom card, reshuffles and what goes into them (DRAW-04/05/06).

Seams for the house rules of issue 4: ``reserve`` (DRAW-05), ``in_pool`` / ``muck_in_pool``
(DRAW-06) and ``deliverable`` (the dealing script of one request).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealerassist.rules.model.house_rules import BottomCard, HouseRules, ReshufflePool
from dealerassist.rules.model.messages import drawing as say
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import HandState, PlayerState, evolve
from dealerassist.rules.model.violations import Notice, RuleId


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the dealing script: ``burn``, ``deal`` (to ``seat``), ``come_back``,
    ``stop`` or ``reshuffle`` (for ``seat``; ``parts`` says what went into the new stub)."""

    code: str
    count: int
    seat: int | None = None
    parts: tuple[tuple[str, int], ...] = ()


def burn_due(hand: HandState, rules: HouseRules) -> int:
    """DRAW-04: the card a burn still owed in this draw takes from the stub (0 or 1): none when
    the house does not burn, the burn was made, or a card exposed on the draw stands for it
    (IRREG-04, ``becomes_next_burn``)."""
    due = rules.draw.burn_before and not hand.burned_this_draw and not hand.spare_burn
    return 1 if due else 0


def reserve(hand: HandState, seat: int, rules: HouseRules, draw_round: int) -> int:
    """DRAW-05: cards at the bottom of the stub that may not be dealt (0 or 1)."""
    match rules.draw.bottom_card:
        case BottomCard.NORMAL_CARD:
            return 0
        case BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS:
            # seats still to declare, and seats still owed cards (a deferred fifth card)
            later = [
                p
                for p in hand.live()
                if p.seat != seat
                and (len(p.drawn) < draw_round or p.pending or p.seat in hand.come_back)
            ]
            return 1 if later else 0
    return 1


def owed_seats(
    hand: HandState, drawer: int, rules: HouseRules | None = None, draw_round: int = 0
) -> frozenset[int]:
    """DRAW-03/06: the drawer and every seat still owed cards in this draw (a deferred fifth
    card, or card-mode discards not yet answered): their discards stay out of a reshuffle.
    With ``draw.reshuffle_keeps_out_later_drawers`` (the seed-000 pool) also every live seat
    still to declare its draw ``draw_round``: it would otherwise be dealt its own discards of
    an earlier draw."""
    waiting = {p.seat for p in hand.players if p.pending}
    if rules is not None and _keeps_out_later_drawers(rules):
        waiting |= {p.seat for p in hand.live() if len(p.drawn) < draw_round}
    return frozenset({drawer, *hand.come_back, *waiting})


def _keeps_out_later_drawers(rules: HouseRules) -> bool:
    pool = rules.draw.reshuffle_pool
    return (
        rules.draw.reshuffle_keeps_out_later_drawers
        and pool is ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS
    )


def in_pool(
    owner: int,
    pile_round: int,
    drawer: int,
    rules: HouseRules,
    draw_round: int,
    owed: frozenset[int] = frozenset(),
) -> bool:
    """DRAW-06: does the discard pile of ``owner`` from draw ``pile_round`` go into a reshuffle?

    Never the drawer's own discards, nor those of a seat still owed cards in this draw
    (``owed``), except in the permissive replay pool (pokerkit reuses every discard).

    >>> from dealerassist.rules.model.house_rules import HouseRules
    >>> in_pool(3, 1, 5, HouseRules(), 1), in_pool(5, 1, 5, HouseRules(), 1)
    (True, False)
    """
    match rules.draw.reshuffle_pool:
        case ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS:  # earlier draws only, never one's own
            # WSOP 274 with no earlier round (the first draw): the seats already served in it
            first = draw_round == 1 and rules.draw.reshuffle_first_draw_served
            earlier = pile_round < draw_round or first
            return earlier and owner != drawer and owner not in owed
        case ReshufflePool.ALL_DISCARDS:
            return True
    return owner != drawer and owner not in owed


def muck_in_pool(rules: HouseRules) -> bool:
    """DRAW-06: do folded hands go into a reshuffle?"""
    return rules.draw.reshuffle_pool is not ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS


def pool_parts(
    hand: HandState, drawer: int, rules: HouseRules, draw_round: int
) -> tuple[tuple[str, int], ...]:
    """DRAW-06: what a reshuffle for ``drawer`` takes, pile by pile: ``stub`` (what is left,
    the bottom card included), ``burns``, ``muck``, ``seat:N`` (seat N's discards); and what
    stays out: ``kept:N`` (discards of the drawer or of a seat still owed cards)."""
    owed = owed_seats(hand, drawer, rules, draw_round)
    parts: list[tuple[str, int]] = [("stub", hand.stub), ("burns", hand.burns)]
    if muck_in_pool(rules):
        parts.append(("muck", hand.muck))
    for player in hand.players:
        taken = kept = 0
        for index, count in enumerate(player.pile, start=1):
            if in_pool(player.seat, index, drawer, rules, draw_round, owed):
                taken += count
            else:
                kept += count
        if taken:
            parts.append((f"seat:{player.seat}", taken))
        if kept:
            parts.append((f"kept:{player.seat}", kept))
    return tuple(parts)


def pool_size(hand: HandState, drawer: int, rules: HouseRules, draw_round: int) -> int:
    """Cards a reshuffle adds to what is left of the stub (burns, discards, maybe the muck)."""
    parts = pool_parts(hand, drawer, rules, draw_round)
    return sum(count for name, count in parts if name != "stub" and not name.startswith("kept"))


def reshuffle(hand: HandState, drawer: int, rules: HouseRules, draw_round: int) -> HandState:
    """DRAW-06: the pool joins what is left of the stub to make a new stub."""
    size = hand.stub + pool_size(hand, drawer, rules, draw_round)
    owed = owed_seats(hand, drawer, rules, draw_round)
    players = tuple(_clear_piles(p, drawer, rules, draw_round, owed) for p in hand.players)
    muck = muck_in_pool(rules)
    return evolve(
        hand,
        players=players,
        stub=size,
        burns=0,
        exposed_burn=None,  # IRREG-03: the exposed card went in with the other burns
        burn_cards=(),  # IRREG-04: so did the cards exposed on the draw
        spare_burn=False,
        muck=0 if muck else hand.muck,
        muck_cards=() if muck else hand.muck_cards,
        reshuffles=hand.reshuffles + 1,
    )


def _reshuffle_step(hand: HandState, drawer: int, rules: HouseRules, draw_round: int) -> Step:
    parts = pool_parts(hand, drawer, rules, draw_round)
    size = sum(count for name, count in parts if not name.startswith("kept"))
    return Step("reshuffle", size, drawer, parts)


def _clear_piles(
    player: PlayerState, drawer: int, rules: HouseRules, draw_round: int, owed: frozenset[int]
) -> PlayerState:
    if not player.pile and not player.pile_cards:  # nothing discarded: nothing to take
        return player
    keep = [
        not in_pool(player.seat, index, drawer, rules, draw_round, owed)
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
    burn: dict[str, Any] = {}
    if count == 0:
        return hand, ()
    if rules.draw.burn_before and not hand.burned_this_draw and hand.spare_burn:
        # IRREG-04: the card exposed on the draw, already in the burn pile, is this burn
        hand = evolve(hand, spare_burn=False, burned_this_draw=True)
        steps.append(Step("burn", 0))
    if rules.draw.burn_before and not hand.burned_this_draw:
        # a burn that would leave nothing to deal waits for a new stub (if a reshuffle adds any)
        short = hand.stub - reserve(hand, seat, rules, draw_round) < 2
        if (short and pool_size(hand, seat, rules, draw_round) > 0) or hand.stub < 1:
            steps.append(Step("stop", hand.stub, seat))
            steps.append(_reshuffle_step(hand, seat, rules, draw_round))
            hand = reshuffle(hand, seat, rules, draw_round)
            from_pool = 0  # every card now comes from the new stub: no second reshuffle
        if hand.stub < 1:
            return None
        burn = {"burns": hand.burns + 1, "burned_this_draw": True}  # in the deal's copy
        steps.append(Step("burn", 1))
    stub = hand.stub - 1 if burn else hand.stub
    available = max(0, stub - reserve(hand, seat, rules, draw_round))  # the stub's size aside
    first = min(count - from_pool, available)
    hand = evolve(hand, stub=stub - first, **burn)
    if first:
        steps.append(Step("deal", first, seat))
    rest = count - first
    if rest:
        steps.append(Step("stop", hand.stub, seat))
        steps.append(_reshuffle_step(hand, seat, rules, draw_round))
        hand = reshuffle(hand, seat, rules, draw_round)
        if hand.stub < rest:
            return None
        hand = evolve(hand, stub=hand.stub - rest)
        steps.append(Step("deal", rest, seat))
    return hand, tuple(steps)


def supplies(
    hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int, from_pool: int = 0
) -> bool:
    """``deliverable(...) is not None``, worked out in numbers: the what-if questions
    (``can_supply``, ``can_serve``) build no hand. A burn and the deal change only the stub
    and the burns; a reshuffle adds the burns, the muck (if it goes in) and the discards
    taken, and leaves only its own later burns to a second one. The seats' draws, the
    pending cards and ``come_back`` (all ``reserve`` and ``owed_seats`` read) do not move."""
    if count == 0:
        return True
    burn_before = rules.draw.burn_before
    burned = hand.burned_this_draw or (burn_before and hand.spare_burn)  # IRREG-04
    stub, burns = hand.stub, hand.burns
    held_out = reserve(hand, seat, rules, draw_round)
    others: int | None = None  # the pool beyond the burns, until a reshuffle takes it
    if burn_before and not burned:
        short = stub - held_out < 2
        if short or stub < 1:
            others = pool_size(hand, seat, rules, draw_round) - burns
        if (short and burns + (others or 0) > 0) or stub < 1:
            stub, burns, others, from_pool = stub + burns + (others or 0), 0, 0, 0
        if stub < 1:
            return False
        stub, burns = stub - 1, burns + 1
    first = min(count - from_pool, max(0, stub - held_out))
    rest = count - first
    if not rest:
        return True
    if others is None:
        others = pool_size(hand, seat, rules, draw_round) - hand.burns
    return stub - first + burns + others >= rest


_POOL_WORDS = {
    ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS: say.POOL_EARLIER_DISCARDS_BOTTOM_BURNS,
    ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS: say.POOL_PREVIOUS_ROUNDS_MUCK_BURNS,
    ReshufflePool.ALL_DISCARDS_EXCEPT_OWN: say.POOL_ALL_DISCARDS_EXCEPT_OWN,
    ReshufflePool.ALL_DISCARDS: say.POOL_ALL_DISCARDS,
}


def pool_text(rules: HouseRules) -> Said:
    """DRAW-06: what a reshuffle takes, in the dealer's words, as the house options say."""
    if _keeps_out_later_drawers(rules):
        return say.POOL_LATER_DRAWERS()
    pool = rules.draw.reshuffle_pool
    if pool is ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS and rules.draw.reshuffle_first_draw_served:
        return say.POOL_FIRST_DRAW()
    return _POOL_WORDS[pool]()


_BOTTOM_WORDS = {
    BottomCard.NEVER: say.BOTTOM_NEVER,
    BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS: say.BOTTOM_IF_IT_COMPLETES,
    BottomCard.NORMAL_CARD: say.BOTTOM_NORMAL,
}


def reach_notice(hand: HandState, rules: HouseRules, draw_round: int) -> Notice:
    """DRAW-04/05/06: before the draw, how far the stub reaches and what a reshuffle takes."""
    burn = 1 if rules.draw.burn_before and not hand.spare_burn else 0
    usable = max(0, hand.stub - burn - reserve(hand, -1, rules, draw_round))
    said = say.REACH(
        round=draw_round,
        stub=hand.stub,
        usable=usable,
        burn=say.ONE_BURN() if burn else "",
        bottom=_BOTTOM_WORDS[rules.draw.bottom_card](),
        pool=pool_text(rules),
    )
    return Notice(rule_id=RuleId.DRAW_06, said=said)


def off_limits_notice() -> Notice:
    """DRAW-13 / DECK-06: the discards and the stub are off limits; a boxed card is a blank."""
    return Notice(rule_id=RuleId.DRAW_13, said=say.OFF_LIMITS())
