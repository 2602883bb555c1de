"""Card identities: the deck, where known cards are, checks on dealt cards (DEAL-01, DECK-01)."""

from __future__ import annotations

from functools import cache

from dealerassist.rules.cards.cards import DECKS_BY_SIZE
from dealerassist.rules.cards.joker import JOKER
from dealerassist.rules.hand.stub import in_pool, muck_in_pool, owed_seats
from dealerassist.rules.model.actions import Act
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import dealing as say
from dealerassist.rules.model.outcomes import LegalAction
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import HandState, evolve, fill
from dealerassist.rules.model.violations import RuleId, RuleViolation

HAND_SIZE = 5
JOKER_DECK = 53  # DECK-02..04: 52 cards and the joker, entered as "Jk"
UNKNOWN = "??"


@cache  # the same three decks every time; rebuilding one was 15% of a replayed hand
def deck_cards(deck: int) -> frozenset[str]:
    """DECK-01: the cards of a 52-, 36- or 32-card deck, or 53 with the joker, as text.

    >>> len(deck_cards(32)), "6h" in deck_cards(36), "6h" in deck_cards(32), len(deck_cards(53))
    (32, True, False, 53)
    """
    if deck == JOKER_DECK:
        return deck_cards(52) | {JOKER}
    return frozenset(str(card) for card in DECKS_BY_SIZE[deck].cards)


def refuse(rule: RuleId, said: Said, seat: int, allowed: list[LegalAction]) -> RuleViolation:
    return RuleViolation(rule_id=rule, said=said, seat=seat, allowed=allowed)


def card_locations(hand: HandState, among: frozenset[str] | None = None) -> dict[str, str]:
    """Where each known card is (or each of ``among``): ``hand:<seat>``, ``pile:<seat>:<round>``,
    ``muck`` or ``burn`` (a card exposed on the deal or the draw and burned, IRREG-03/04, or
    an extra card dealt on the deal, IRREG-06).

    ``among`` keeps the scan to the cards entered: a deal checks five cards, not every card in
    play (this map was the largest single cost of a replayed deal).
    """
    where: dict[str, str] = {}
    for player in hand.players:
        if among is None or not among.isdisjoint(player.cards):
            for card in player.cards:
                if among is None or card in among:
                    where[card] = f"hand:{player.seat}"
        for index, pile in enumerate(player.pile_cards, start=1):
            if among is None or not among.isdisjoint(pile):
                for card in pile:
                    if among is None or card in among:
                        where[card] = f"pile:{player.seat}:{index}"
    if among is None or not among.isdisjoint(hand.muck_cards):
        for card in hand.muck_cards:
            if among is None or card in among:
                where[card] = "muck"
    burned = hand.exposed_burn
    if burned is not None and (among is None or burned in among):
        where[burned] = "burn"
    for card in hand.burn_cards:  # IRREG-04/06: cards exposed on the draw or dealt extra
        if among is None or card in among:
            where[card] = "burn"
    where.pop(UNKNOWN, None)
    return where


def check_dealt(
    hand: HandState,
    seat: int,
    cards: tuple[str, ...],
    count: int,
    rules: HouseRules,
    draw_round: int,
    allowed: list[LegalAction],
) -> int:
    """DEAL-01 / DRAW-10 / DECK-01 / DRAW-06: exactly the cards that make five, each from the
    deck, none in play, never the drawer's own discard; how many come from a reshuffle."""
    if len(cards) != count:
        raise _wrong_count(seat, count, len(cards), draw_round, allowed)
    deck = deck_cards(hand.deck)
    from_pool = 0
    known = [card for card in cards if card != UNKNOWN]
    entered = frozenset(known)
    if len(entered) != len(known):
        raise refuse(RuleId.DECK_01, say.SAME_CARD_TWICE(), seat, allowed)
    where = card_locations(hand, entered)
    owed = owed_seats(hand, seat, rules, draw_round) if where else frozenset()
    for card in known:
        if card not in deck:
            raise _foreign_card(card, hand.deck, seat, allowed)
        place = where.get(card)
        if place is None:
            continue
        from_pool += _check_place(card, place, seat, rules, (draw_round, owed), allowed)
    return from_pool


def _wrong_count(
    seat: int, count: int, entered: int, draw_round: int, allowed: list[LegalAction]
) -> RuleViolation:
    """DEAL-01 on the deal; on the draw IRREG-07 (too many) or IRREG-08 (too few)."""
    if not draw_round:
        said = say.WRONG_COUNT(seat=seat, count=count, entered=entered)
        return refuse(RuleId.DEAL_01, said, seat, allowed)
    if entered > count:
        said = say.TOO_MANY_ON_DRAW(seat=seat, count=count, entered=entered)
        return refuse(RuleId.IRREG_07, said, seat, allowed)
    said = say.TOO_FEW_ON_DRAW(seat=seat, count=count, entered=entered)
    return refuse(RuleId.IRREG_08, said, seat, allowed)


_HOUSE_DEFAULTS = HouseRules()  # the first deal has no discards: the pool rules never apply
JOKERS = frozenset({JOKER, "Xx", "Jo"})  # ways a stray joker may be entered (DECK-05)


def _foreign_card(card: str, deck: int, seat: int, allowed: list[LegalAction]) -> RuleViolation:
    """DECK-05: a joker or a stripped rank is a blank, replaced before the player acts;
    anything else is not a card of any deck (DECK-01)."""
    if deck == JOKER_DECK and card in JOKERS:
        return refuse(RuleId.DECK_01, say.JOKER_ENTRY(joker=JOKER, card=card), seat, allowed)
    if card in JOKERS or card in deck_cards(52):
        return refuse(RuleId.DECK_05, say.BLANK_CARD(card=card, deck=deck), seat, allowed)
    return refuse(RuleId.DECK_01, say.NOT_IN_DECK(card=card, deck=deck), seat, allowed)


def _check_place(
    card: str,
    place: str,
    seat: int,
    rules: HouseRules,
    when: tuple[int, frozenset[int]],
    allowed: list[LegalAction],
) -> int:
    draw_round, owed = when
    kind, _, rest = place.partition(":")
    if kind == "pile":
        owner, _, pile_round = rest.partition(":")
        if in_pool(int(owner), int(pile_round), seat, rules, draw_round, owed):
            return 1
        if int(owner) == seat:
            raise refuse(RuleId.DRAW_06, say.OWN_DISCARD(card=card, seat=seat), seat, allowed)
        if int(owner) in owed:
            said = say.DISCARD_OF_OWED_SEAT(card=card, owner=int(owner))
            raise refuse(RuleId.DRAW_06, said, seat, allowed)
    if kind == "muck" and muck_in_pool(rules):
        return 1
    if kind == "burn":  # IRREG-03/06: exposed or extra; every reshuffle pool takes the burns
        if draw_round:
            return 1
        raise refuse(RuleId.DECK_01, say.IN_BURN_PILE(card=card), seat, allowed)
    raise refuse(RuleId.DECK_01, say.IN_PLAY(card=card, place=place), seat, allowed)


def next_to_deal(hand: HandState) -> int | None:
    """DEAL-01: the next seat, left of the button first, still without its five cards; once
    every seat has them, a seat owed the replacement of an exposed card (IRREG-03)."""
    for player in hand.players:
        if player.held == 0:
            return player.seat
    for player in hand.players:
        if player.pending:
            return player.seat
    return None


def to_deal(hand: HandState, seat: int | None) -> int:
    """How many cards the seat is dealt now: five, or the replacement of an exposed card."""
    return HAND_SIZE if seat is None else HAND_SIZE - hand.player(seat).held


def check_initial_deal(hand: HandState, act: Act) -> None:
    """DEAL-01 / DECK-01: five cards (or an exposed card's replacement, IRREG-03) to the seat
    whose turn it is, none already dealt."""
    count = to_deal(hand, hand.to_act)
    allowed: list[LegalAction] = [{"action": "deal", "seat": hand.to_act, "count": count}]
    if act.seat != hand.to_act:
        said = say.DEAL_NEXT(seat="None" if hand.to_act is None else hand.to_act)
        raise refuse(RuleId.DEAL_01, said, act.seat, allowed)
    cards = act.cards or ()
    check_dealt(hand, act.seat, cards, count, _HOUSE_DEFAULTS, 0, allowed)


def apply_initial_deal(hand: HandState, seat: int, cards: tuple[str, ...]) -> HandState:
    player = hand.player(seat)
    dealt = evolve(player, held=player.held + len(cards), cards=player.cards + cards, pending=0)
    hand = hand.with_player(dealt)  # the deal's own copy: the stub and the turn set in place
    return fill(hand, stub=hand.stub - len(cards), to_act=next_to_deal(hand))


def deal_everyone(hand: HandState) -> HandState:
    """Count mode: every seat dealt in gets five cards."""
    players = tuple(evolve(p, held=HAND_SIZE) for p in hand.players)
    return evolve(hand, players=players, stub=hand.deck - HAND_SIZE * len(players))
