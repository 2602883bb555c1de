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

from dealerassist.rules.floor.exposed import in_initial_deal
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.dealing import UNKNOWN, card_locations, deck_cards
from dealerassist.rules.model.actions import Act, Mode
from dealerassist.rules.model.messages import irregular as msg
from dealerassist.rules.model.outcomes import BoxedCard, Instruction, LegalAction
from dealerassist.rules.model.said import Said
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
        raise _refuse(msg.BOXED_NOT_DEALING(phase=msg.PHASES[hand.phase]()), act.seat)
    if hand.stub < 1:
        raise _refuse(msg.BOXED_STUB_EMPTY(), act.seat)
    if act.seat not in boxed_card_seats(hand):
        raise _refuse(msg.BOXED_SEAT_NOT_IN_HAND(seat=act.seat), act.seat, _entry(hand))
    extras = (act.amount, act.count, act.discards, act.option, act.rank)
    if any(value is not None for value in extras) or act.ace_shown:
        raise _refuse(msg.BOXED_NOTHING_ELSE(), act.seat, _entry(hand))
    if mode is Mode.COUNT:
        if act.cards:
            raise _refuse(msg.BOXED_SEAT_ALONE(), act.seat, _entry(hand))
        return None
    if not act.cards or len(act.cards) != 1 or act.cards[0] == UNKNOWN:
        raise _refuse(msg.BOXED_ONE_CARD(), act.seat, _entry(hand))
    card = act.cards[0]
    if card not in deck_cards(hand.deck):
        raise _refuse(msg.NOT_A_CARD_OF_DECK(card=card, deck=hand.deck), act.seat)
    place = card_locations(hand, frozenset({card})).get(card)
    if place is not None:  # the place is the engine's code: "hand:2", "pile:3:1", "muck", "burn"
        raise _refuse(msg.BOXED_IN_PLAY(card=card, place=place), act.seat, _entry(hand))
    return card


def apply_boxed_card(
    hand: HandState, seat: int, card: str | None
) -> tuple[HandState, BoxedCard, list[Instruction], list[Notice]]:
    """DECK-06: the card leaves the stub for the burn pile (out of play until a reshuffle); a
    second one is the floor's (the hand is void). The new hand, the event, the dealer's
    instruction and notices."""
    known = hand.burn_cards if card is None else (*hand.burn_cards, card)
    hand = evolve(
        hand, stub=hand.stub - 1, burns=hand.burns + 1, burn_cards=known, boxed=hand.boxed + 1
    )
    event = BoxedCard(seat, card, hand.boxed)
    text = msg.BOXED_BLANK(card=card, seat=seat) if card else msg.BOXED_BLANK_UNNAMED(seat=seat)
    instruction = say.instruction("boxed_card", seat, 1, text)
    notices: list[Notice] = []
    if hand.boxed > 1:
        said = msg.BOXED_VOID(count=hand.boxed)
        notices.append(Notice(rule_id=RuleId.DECK_06, said=said, seat=seat))
    return hand, event, [instruction], notices


def boxed_card_legal(hand: HandState | None) -> LegalAction | None:
    """For a refusal: the seats a boxed card may be entered for now."""
    seats = boxed_card_seats(hand)
    return {"action": "boxed_card", "seats": seats} if seats else None


def _entry(hand: HandState) -> list[LegalAction]:
    legal = boxed_card_legal(hand)
    return [legal] if legal else []


def _refuse(said: Said, seat: int, allowed: list[LegalAction] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.DECK_06, said=said, seat=seat, allowed=allowed or [])
