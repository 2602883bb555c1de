"""Card identities: the deck, where known cards are, checks on dealt cards (DEAL-01, DECK-01)."""

from __future__ import annotations

from functools import cache
from typing import Any

from dealerassist.rules.actions import Act
from dealerassist.rules.cards import DECKS_BY_SIZE
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.state import HandState, evolve
from dealerassist.rules.stub import in_pool, muck_in_pool
from dealerassist.rules.violations import RuleId, RuleViolation

HAND_SIZE = 5
UNKNOWN = "??"


@cache  # the same three decks every time; rebuilding one was 15% of a replayed hand
def deck_cards(deck: int) -> frozenset[str]:
    """DECK-01: the cards of a 52-, 36- or 32-card deck, as text.

    >>> len(deck_cards(32)), "6h" in deck_cards(36), "6h" in deck_cards(32)
    (32, True, False)
    """
    return frozenset(str(card) for card in DECKS_BY_SIZE[deck].cards)


def refuse(rule: RuleId, message: str, seat: int, allowed: list[dict[str, Any]]) -> RuleViolation:
    return RuleViolation(rule_id=rule, message=message, seat=seat, allowed=allowed)


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
        raise refuse(rule, message, seat, allowed)
    deck = deck_cards(hand.deck)
    where = card_locations(hand)
    from_pool = 0
    known = [card for card in cards if card != UNKNOWN]
    if len(set(known)) != len(known):
        raise refuse(RuleId.DECK_01, "The same card is entered twice.", seat, allowed)
    for card in known:
        if card not in deck:
            raise refuse(
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
            raise refuse(RuleId.DRAW_06, message, seat, allowed)
    if kind == "muck" and muck_in_pool(rules):
        return 1
    raise refuse(RuleId.DECK_01, f"{card} is already in play ({place}).", seat, allowed)


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
        raise refuse(RuleId.DEAL_01, message, act.seat, allowed)
    cards = act.cards or ()
    check_dealt(hand, act.seat, cards, HAND_SIZE, HouseRules(), 0, allowed)


def apply_initial_deal(hand: HandState, seat: int, cards: tuple[str, ...]) -> HandState:
    player = hand.player(seat)
    hand = hand.with_player(evolve(player, held=HAND_SIZE, cards=cards))
    return evolve(hand, stub=hand.stub - HAND_SIZE, to_act=next_to_deal(hand))


def deal_everyone(hand: HandState) -> HandState:
    """Count mode: every seat dealt in gets five cards."""
    players = tuple(evolve(p, held=HAND_SIZE) for p in hand.players)
    return evolve(hand, players=players, stub=hand.deck - HAND_SIZE * len(players))
