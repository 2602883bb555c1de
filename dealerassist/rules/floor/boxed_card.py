"""A card found face up in the stub: a blank, set aside for a reshuffle; two are void (DECK-06).

WSOP 23: "A boxed card is a card discovered face up in the deck. It will be treated as a
meaningless scrap of paper. A boxed card will be replaced by the next card below it in the
deck ... If 2 or more boxed cards appear as any of the cards needed to play the hand, the hand
in progress will be void." RRoP's misdeal list has the same two-card limit.

The dealer enters ``boxed_card`` while the stub is being dealt (the initial deal, before the
first betting action, or a draw) for the seat whose cards were being dealt: in card mode with
the card, which must be one nobody has seen; in count mode with the seat alone. The card
leaves the stub (stub - 1) and goes face down to the burn pile, so it joins a reshuffle like
the other burns, never stands for a burn (the burn owed is still taken), and the stub's count
and "the last card is the bottom card" stay true. A second one in the hand is accepted as a
fact and the dealer is told to call the floor: the hand is void, which the floor declares with
the ``misdeal`` ruling.
"""

from __future__ import annotations

from typing import Any

from dealerassist.rules.floor.exposed import in_initial_deal
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.dealing import UNKNOWN, card_locations, deck_cards
from dealerassist.rules.model.actions import Act, Mode
from dealerassist.rules.model.state import HandState, evolve, is_draw
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation


def boxed_card_seats(hand: HandState | None) -> list[int]:
    """The seats a boxed card may be entered for now: every live seat, while the stub is being
    dealt (the initial deal, or a draw) and holds a card."""
    if hand is None or hand.floor_wait or hand.pot_held or hand.stub < 1:
        return []
    if not (in_initial_deal(hand) or is_draw(hand.phase)):
        return []
    return [player.seat for player in hand.players if not player.folded]


def check_boxed_card(hand: HandState, act: Act, mode: Mode) -> str | None:
    """DECK-06: refuse a boxed card outside the deal and the draws, with an empty stub, for a
    seat not in the hand, with fields it does not take, and in card mode a card that is not
    named, not of the deck or already seen; the card (card mode) or None (count mode)."""
    if not (in_initial_deal(hand) or is_draw(hand.phase)):
        message = (
            "A card found face up in the stub is entered while the stub is being dealt: on "
            f"the deal (before the first betting action) or in a draw; the hand is in "
            f"{hand.phase.value}. Call the floor."
        )
        raise _refuse(message, act.seat)
    if hand.stub < 1:
        raise _refuse("The stub is empty: no card can be found face up in it.", act.seat)
    if act.seat not in boxed_card_seats(hand):
        message = f"Seat {act.seat} is not in the hand: enter the seat whose cards were dealt."
        raise _refuse(message, act.seat, _entry(hand))
    extras = (act.amount, act.count, act.discards, act.option, act.rank)
    if any(value is not None for value in extras) or act.ace_shown:
        message = "Enter boxed_card with the seat and, in card mode, the card found; nothing else."
        raise _refuse(message, act.seat, _entry(hand))
    if mode is Mode.COUNT:
        if act.cards:
            message = "Count mode tracks no cards: enter boxed_card with the seat alone."
            raise _refuse(message, act.seat, _entry(hand))
        return None
    if not act.cards or len(act.cards) != 1 or act.cards[0] == UNKNOWN:
        message = "Card mode: enter the one card found face up as cards (e.g. 'Qh')."
        raise _refuse(message, act.seat, _entry(hand))
    card = act.cards[0]
    if card not in deck_cards(hand.deck):
        raise _refuse(f"{card} is not a card of this {hand.deck}-card deck.", act.seat)
    place = card_locations(hand, frozenset({card})).get(card)
    if place is not None:
        message = f"{card} is already in play ({place}): a card in the stub has not been seen."
        raise _refuse(message, act.seat, _entry(hand))
    return card


def apply_boxed_card(
    hand: HandState, seat: int, card: str | None
) -> tuple[HandState, dict[str, Any], list[dict[str, Any]], list[Notice]]:
    """DECK-06: the card leaves the stub for the burn pile (out of play until a reshuffle); a
    second one is the floor's (the hand is void). The new hand, the event, the dealer's
    instruction and notices."""
    known = hand.burn_cards if card is None else (*hand.burn_cards, card)
    hand = evolve(
        hand, stub=hand.stub - 1, burns=hand.burns + 1, burn_cards=known, boxed=hand.boxed + 1
    )
    event = {"type": "boxed_card", "seat": seat, "card": card, "boxed": hand.boxed}
    named = f" ({card})" if card else ""
    text = (
        f"The card found face up in the stub{named} is a blank: put it face down with the burn "
        f"cards (it goes into a reshuffle, never to seat {seat}'s hand now) and deal seat "
        f"{seat} the next card"
    )
    instruction = say.instruction("boxed_card", seat, 1, text)
    notices: list[Notice] = []
    if hand.boxed > 1:
        message = (
            f"{hand.boxed} cards found face up in the stub in this hand: the hand is void "
            "(WSOP 23; RRoP: a misdeal). Leave the cards as they are and call the floor; the "
            "floor declares it with the misdeal ruling."
        )
        notices.append(Notice(rule_id=RuleId.DECK_06, message=message, seat=seat))
    return hand, event, [instruction], notices


def boxed_card_legal(hand: HandState | None) -> dict[str, Any] | None:
    """For a refusal: the seats a boxed card may be entered for now."""
    seats = boxed_card_seats(hand)
    return {"action": "boxed_card", "seats": seats} if seats else None


def _entry(hand: HandState) -> list[dict[str, Any]]:
    legal = boxed_card_legal(hand)
    return [legal] if legal else []


def _refuse(message: str, seat: int, allowed: list[dict[str, Any]] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.DECK_06, message=message, seat=seat, allowed=allowed or [])
