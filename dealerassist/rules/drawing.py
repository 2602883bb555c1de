"""The draw: order, how many, burns, stub, reshuffles, card-mode dealing (DRAW-01..06, DEAL-01).

Seams for the house rules of issue 4: ``rule_max`` (DRAW-02), ``reserve`` (DRAW-05),
``in_pool`` / ``muck_in_pool`` (DRAW-06) and ``draw_steps`` (the dealing script, DRAW-03/04).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from dealerassist.rules.actions import Act, ActionKind, Mode
from dealerassist.rules.cards import DECKS_BY_SIZE
from dealerassist.rules.house_rules import BottomCard, HouseRules, ReshufflePool
from dealerassist.rules.state import HandState, PlayerState
from dealerassist.rules.violations import RuleId, RuleViolation

HAND_SIZE = 5
UNKNOWN = "??"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the dealing script: ``burn``, ``deal`` (to ``seat``) or ``reshuffle``."""

    code: str
    count: int
    seat: int | None = None


@cache  # the same three decks every time; rebuilding one was 15% of a replayed hand
def deck_cards(deck: int) -> frozenset[str]:
    """DECK-01: the cards of a 52-, 36- or 32-card deck, as text.

    >>> len(deck_cards(32)), "6h" in deck_cards(36), "6h" in deck_cards(32)
    (32, True, False)
    """
    return frozenset(str(card) for card in DECKS_BY_SIZE[deck].cards)


# -- order -----------------------------------------------------------------------------------


def next_to_draw(hand: HandState, draw_round: int) -> int | None:
    """DRAW-01: a seat waiting for its cards (card mode) first, else the first seat left of
    the button that has not declared its draw yet; a deferred fifth card (DRAW-03) last."""
    return first_pending(hand) or next_to_declare(hand, draw_round) or _deferred(hand)


def _deferred(hand: HandState) -> int | None:
    waiting = [seat for seat in hand.come_back if hand.player(seat).pending]
    return waiting[0] if waiting else None


def next_to_declare(hand: HandState, draw_round: int) -> int | None:
    """The first seat, clockwise from the button, that has not said how many it draws."""
    for player in hand.live():
        if len(player.drawn) < draw_round:
            return player.seat
    return None


def first_pending(hand: HandState) -> int | None:
    """Card mode: the first seat that has discarded but not yet received its cards."""
    for player in hand.live():
        if player.pending and player.seat not in hand.come_back:
            return player.seat
    return None


# -- how many --------------------------------------------------------------------------------


def rule_max(rules: HouseRules, ace_shown: bool) -> int:
    """DRAW-02: the most cards the house lets a seat draw (four with an ace shown, if allowed)."""
    limit = rules.draw.max_cards
    if rules.draw.four_with_ace and limit < 4 and (ace_shown or not rules.draw.ace_must_be_shown):
        return 4
    return limit


def max_draw(hand: HandState, seat: int, rules: HouseRules, draw_round: int, ace: bool) -> int:
    """The largest legal draw now: the house maximum, the cards held, and what the stub can give."""
    player = hand.player(seat)
    top = min(rule_max(rules, ace), player.held, HAND_SIZE)
    while top > 0 and deliverable(hand, seat, top, rules, draw_round) is None:
        top -= 1
    return top


def draw_legal(
    hand: HandState, seat: int, rules: HouseRules, draw_round: int
) -> list[dict[str, Any]]:
    player = hand.player(seat)
    if player.pending:
        return [{"action": "deal", "count": deal_count(player, rules)}]
    most = max_draw(hand, seat, rules, draw_round, ace=False)
    legal: dict[str, Any] = {"action": "draw", "min": 0, "max": most}
    with_ace = max_draw(hand, seat, rules, draw_round, ace=True)
    if with_ace > most:
        legal["max_with_ace_shown"] = with_ace
    return [legal]


# -- the stub --------------------------------------------------------------------------------


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
    return replace(
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
    return replace(player, pile=pile, pile_cards=cards)


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
        hand = replace(hand, stub=hand.stub - 1, burns=hand.burns + 1, burned_this_draw=True)
        steps.append(Step("burn", 1))
    available = max(0, hand.stub - reserve(hand, seat, rules, draw_round))
    first = min(count - from_pool, available)
    hand = replace(hand, stub=hand.stub - first)
    if first:
        steps.append(Step("deal", first, seat))
    rest = count - first
    if rest:
        steps.append(Step("stop", hand.stub, seat))
        hand = reshuffle(hand, seat, rules, draw_round)
        steps.append(Step("reshuffle", hand.stub))
        if hand.stub < rest:
            return None
        hand = replace(hand, stub=hand.stub - rest)
        steps.append(Step("deal", rest, seat))
    return hand, tuple(steps)


# -- checks ----------------------------------------------------------------------------------


def _refuse(rule: RuleId, message: str, seat: int, allowed: list[dict[str, Any]]) -> RuleViolation:
    return RuleViolation(rule_id=rule, message=message, seat=seat, allowed=allowed)


def check_draw(hand: HandState, act: Act, rules: HouseRules, mode: Mode, draw_round: int) -> int:
    """DRAW-01/02/06: refuse a draw out of turn, over the limit or beyond the stub; the count."""
    allowed = [] if hand.to_act is None else draw_legal(hand, hand.to_act, rules, draw_round)
    declaring = next_to_declare(hand, draw_round)
    if act.seat != declaring:
        message = f"Seat {declaring} draws next; seat {act.seat} must wait."
        raise _refuse(
            RuleId.DRAW_01, message, act.seat, [{"seat": hand.to_act, **a} for a in allowed]
        )
    player = hand.player(act.seat)
    count = _draw_count(act, mode, allowed)
    limit = rule_max(rules, act.ace_shown)
    if count > limit or count > player.held:
        rule = RuleId.DRAW_02
        raise _refuse(
            rule, f"Seat {act.seat} may draw at most {min(limit, player.held)}.", act.seat, allowed
        )
    extra = 1 if splits(count, rules, mode) else 0
    if deliverable(hand, act.seat, count + extra, rules, draw_round) is None:
        most = max_draw(hand, act.seat, rules, draw_round, act.ace_shown)
        message = f"The stub and a reshuffle can give only {most} card(s); draw at most {most}."
        raise _refuse(RuleId.DRAW_06, message, act.seat, allowed)
    if mode is Mode.CARD:
        _check_discards(player, act.discards or (), allowed)
        if act.cards is not None and splits(count, rules):
            message = (
                "Five cards in a row are not dealt: enter four now, the fifth after the others."
            )
            raise _refuse(RuleId.DRAW_03, message, act.seat, allowed)
    return count


def _draw_count(act: Act, mode: Mode, allowed: list[dict[str, Any]]) -> int:
    count = act.count
    if mode is Mode.CARD:
        discarded = len(act.discards or ())
        if count is not None and count != discarded:
            message = f"{count} cards requested but {discarded} discarded; they must match."
            raise _refuse(RuleId.DRAW_01, message, act.seat, allowed)
        count = discarded
    if count is None or not 0 <= count <= HAND_SIZE:
        message = "Enter how many cards the seat draws (0 to stand pat)."
        raise _refuse(RuleId.DRAW_01, message, act.seat, allowed)
    return count


def _check_discards(
    player: PlayerState, discards: tuple[str, ...], allowed: list[dict[str, Any]]
) -> None:
    held = list(player.cards)
    for card in discards:
        if card not in held:
            message = f"{card} is not in seat {player.seat}'s hand; discard cards it holds."
            raise _refuse(RuleId.DRAW_01, message, player.seat, allowed)
        held.remove(card)


def card_locations(hand: HandState) -> dict[str, str]:
    """Where each known card is: ``hand:<seat>``, ``pile:<seat>:<round>`` or ``muck``."""
    where: dict[str, str] = {}
    for player in hand.players:
        for card in player.cards:
            where[card] = f"hand:{player.seat}"
        for index, pile in enumerate(player.pile_cards, start=1):
            for card in pile:
                where[card] = f"pile:{player.seat}:{index}"
    for card in hand.muck_cards:
        where[card] = "muck"
    where.pop(UNKNOWN, None)
    return where


def check_dealt(
    hand: HandState,
    seat: int,
    cards: tuple[str, ...],
    count: int,
    rules: HouseRules,
    draw_round: int,
    allowed: list[dict[str, Any]],
) -> int:
    """DEAL-01 / DRAW-10 / DECK-01 / DRAW-06: exactly the cards that make five, each from the
    deck, none in play, never the drawer's own discard; how many come from a reshuffle."""
    if len(cards) != count:
        message = f"Seat {seat} receives {count} card(s), not {len(cards)}: a hand has five."
        rule = RuleId.DRAW_10 if draw_round else RuleId.DEAL_01
        raise _refuse(rule, message, seat, allowed)
    deck = deck_cards(hand.deck)
    where = card_locations(hand)
    from_pool = 0
    known = [card for card in cards if card != UNKNOWN]
    if len(set(known)) != len(known):
        raise _refuse(RuleId.DECK_01, "The same card is entered twice.", seat, allowed)
    for card in known:
        if card not in deck:
            raise _refuse(
                RuleId.DECK_01, f"{card} is not in this {hand.deck}-card deck.", seat, allowed
            )
        place = where.get(card)
        if place is None:
            continue
        from_pool += _check_place(card, place, seat, rules, draw_round, allowed)
    return from_pool


def _check_place(
    card: str,
    place: str,
    seat: int,
    rules: HouseRules,
    draw_round: int,
    allowed: list[dict[str, Any]],
) -> int:
    kind, _, rest = place.partition(":")
    if kind == "pile":
        owner, _, pile_round = rest.partition(":")
        if in_pool(int(owner), int(pile_round), seat, rules, draw_round):
            return 1
        if int(owner) == seat:
            message = f"{card} is seat {seat}'s own discard and may not be dealt back to it."
            raise _refuse(RuleId.DRAW_06, message, seat, allowed)
    if kind == "muck" and muck_in_pool(rules):
        return 1
    raise _refuse(RuleId.DECK_01, f"{card} is already in play ({place}).", seat, allowed)


# -- applying --------------------------------------------------------------------------------


def apply_draw(
    hand: HandState, act: Act, count: int, rules: HouseRules, mode: Mode, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """DRAW-01: the seat discards, then receives as many cards (card mode: now or with ``deal``)."""
    player = hand.player(act.seat)
    discards = act.discards or ()
    held_cards = list(player.cards)
    for card in discards:
        held_cards.remove(card)
    pile = player.pile + (0,) * (draw_round - len(player.pile))
    pile_cards = player.pile_cards + ((),) * (draw_round - len(player.pile_cards))
    pile = (*pile[:-1], pile[-1] + count)
    pile_cards = (*pile_cards[:-1], pile_cards[-1] + tuple(discards))
    player = replace(
        player,
        drawn=(*player.drawn, count),
        pile=pile,
        pile_cards=pile_cards,
        cards=tuple(held_cards),
        held=player.held - count,
        pending=count,
    )
    hand = hand.with_player(player)
    if mode is Mode.CARD and act.cards is None:
        return hand, ()
    if splits(count, rules, mode):
        hand, steps = receive(hand, act.seat, count - 1, None, rules, draw_round)
        hand = hand.with_player(replace(hand.player(act.seat), pending=0))
        come_back = Step("come_back", 1, act.seat)
        return replace(hand, come_back=(*hand.come_back, act.seat)), (*steps, come_back)
    return receive(hand, act.seat, count, act.cards, rules, draw_round)


def splits(count: int, rules: HouseRules, mode: Mode = Mode.COUNT) -> bool:
    """DRAW-03: a five-card draw is dealt four now and the fifth after the others."""
    return count == HAND_SIZE and rules.draw.max_consecutive < HAND_SIZE


def deal_count(player: PlayerState, rules: HouseRules) -> int:
    """Card mode: how many cards the next ``deal`` gives the seat (four of a split five)."""
    return HAND_SIZE - 1 if splits(player.pending, rules) else player.pending


def deal_fifth_cards(
    hand: HandState, rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """DRAW-03: once the others have drawn, each seat owed a fifth card gets it; if nobody
    received cards after that seat, a card is burned first."""
    steps: list[Step] = []
    for seat in hand.come_back:
        if hand.last_receiver == seat:
            hand = replace(hand, burned_this_draw=False)
        planned = deliverable(hand, seat, 1, rules, draw_round)
        if planned is None:
            steps.append(Step("stop", 0, seat))
            continue
        hand, dealt = planned
        player = hand.player(seat)
        hand = hand.with_player(replace(player, held=player.held + 1))
        hand = replace(hand, last_receiver=seat)
        steps.extend(dealt)
    return replace(hand, come_back=()), tuple(steps)


def can_change(hand: HandState, seat: int, draw_round: int) -> bool:
    """DRAW-07: a request may change while no card (the burn included) was dealt in response
    and no later seat has declared its draw."""
    player = hand.player(seat)
    if len(player.drawn) < draw_round or player.timed_out:
        return False
    dealt = player.pending < player.drawn[-1]
    order = [p.seat for p in hand.live()]
    later = order[order.index(seat) + 1 :]
    acted_after = any(len(hand.player(s).drawn) >= draw_round for s in later)
    return not dealt and not acted_after


def check_change(hand: HandState, seat: int, draw_round: int) -> None:
    """DRAW-07: refuse to change a request that is locked."""
    if not can_change(hand, seat, draw_round):
        message = f"Seat {seat}'s draw is locked: cards were dealt or a later seat has acted on it."
        allowed = [] if hand.to_act is None else [{"seat": hand.to_act, "action": "draw"}]
        raise _refuse(RuleId.DRAW_07, message, seat, allowed)


def undo_draw(hand: HandState, seat: int) -> HandState:
    """DRAW-07: take back a request that was not acted on (its discards return to the hand)."""
    player = hand.player(seat)
    count = player.drawn[-1]
    discards = player.pile_cards[-1][len(player.pile_cards[-1]) - player.pending :]
    keep = player.pile_cards[-1][: len(player.pile_cards[-1]) - player.pending]
    restored = replace(
        player,
        drawn=player.drawn[:-1],
        pile=(*player.pile[:-1], player.pile[-1] - count),
        pile_cards=(*player.pile_cards[:-1], keep),
        cards=player.cards + discards,
        held=player.held + player.pending,
        pending=0,
    )
    return hand.with_player(restored)


def receive(
    hand: HandState,
    seat: int,
    count: int,
    cards: tuple[str, ...] | None,
    rules: HouseRules,
    draw_round: int,
) -> tuple[HandState, tuple[Step, ...]]:
    """Deal the replacement cards from the stub (burning and reshuffling as needed)."""
    from_pool = 0
    if cards is not None:
        from_pool = check_dealt(hand, seat, cards, count, rules, draw_round, [])
    planned = deliverable(hand, seat, count, rules, draw_round, from_pool)
    if planned is None:
        message = "The stub and a reshuffle cannot supply these cards."
        raise _refuse(RuleId.DRAW_06, message, seat, [])
    hand, steps = planned
    if count:
        hand = replace(hand, last_receiver=seat)
    player = hand.player(seat)
    received = replace(
        player,
        held=player.held + count,
        cards=player.cards + (cards or ()),
        pending=0,
    )
    return hand.with_player(received), steps


def receive_dealt(
    hand: HandState, seat: int, cards: tuple[str, ...], rules: HouseRules, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """Card mode ``deal`` during a draw: four of a split five (DRAW-03), a deferred fifth card
    (burned for first if nobody received cards since), or the whole request."""
    player = hand.player(seat)
    if seat in hand.come_back:
        if hand.last_receiver == seat:
            hand = replace(hand, burned_this_draw=False)
        hand, steps = receive(hand, seat, len(cards), cards, rules, draw_round)
        return replace(hand, come_back=tuple(s for s in hand.come_back if s != seat)), steps
    if splits(player.pending, rules):
        hand, steps = receive(hand, seat, len(cards), cards, rules, draw_round)
        hand = hand.with_player(replace(hand.player(seat), pending=1))
        return replace(hand, come_back=(*hand.come_back, seat)), (
            *steps,
            Step("come_back", 1, seat),
        )
    return receive(hand, seat, len(cards), cards, rules, draw_round)


def check_replacements(hand: HandState, act: Act, rules: HouseRules, draw_round: int) -> None:
    """Card mode: the ``deal`` that completes a seat's draw."""
    allowed = [] if hand.to_act is None else draw_legal(hand, hand.to_act, rules, draw_round)
    player = hand.player(act.seat) if hand.has(act.seat) else None
    if act.seat != hand.to_act or player is None or not player.pending:
        message = f"Only the seat that has drawn (seat {hand.to_act}) receives cards now."
        raise _refuse(RuleId.DRAW_01, message, act.seat, allowed)
    count = deal_count(player, rules)
    if splits(player.pending, rules) and len(act.cards or ()) == player.pending:
        message = "Five cards in a row are not dealt: enter four now, the fifth after the others."
        raise _refuse(RuleId.DRAW_03, message, act.seat, allowed)
    check_dealt(hand, act.seat, act.cards or (), count, rules, draw_round, allowed)


# -- the initial deal (card mode) ----------------------------------------------------------------


def next_to_deal(hand: HandState) -> int | None:
    """DEAL-01: the next seat, left of the button first, still without its five cards."""
    for player in hand.players:
        if player.held == 0:
            return player.seat
    return None


def check_initial_deal(hand: HandState, act: Act) -> None:
    """DEAL-01 / DECK-01: five cards to the seat whose turn it is, none already dealt."""
    allowed = [{"action": "deal", "seat": hand.to_act, "count": HAND_SIZE}]
    if act.seat != hand.to_act:
        message = f"Deal to seat {hand.to_act} next (clockwise from the button)."
        raise _refuse(RuleId.DEAL_01, message, act.seat, allowed)
    cards = act.cards or ()
    check_dealt(hand, act.seat, cards, HAND_SIZE, HouseRules(), 0, allowed)


def apply_initial_deal(hand: HandState, seat: int, cards: tuple[str, ...]) -> HandState:
    player = hand.player(seat)
    hand = hand.with_player(replace(player, held=HAND_SIZE, cards=cards))
    return replace(hand, stub=hand.stub - HAND_SIZE, to_act=next_to_deal(hand))


def deal_everyone(hand: HandState) -> HandState:
    """Count mode: every seat dealt in gets five cards."""
    players = tuple(replace(p, held=HAND_SIZE) for p in hand.players)
    return replace(hand, players=players, stub=hand.deck - HAND_SIZE * len(players))


def is_draw_action(kind: ActionKind) -> bool:
    return kind in (ActionKind.DRAW, ActionKind.DEAL, ActionKind.TIME)
