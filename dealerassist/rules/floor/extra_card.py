"""An extra card dealt on the initial deal: it goes back as the burn; two are a misdeal (IRREG-06).

One extra card, identifiable and dealt before the betting starts, is returned face down to the
burn pile and is the burn: it stands for the burn before the first draw (``spare_burn``, as a
card exposed on the draw does under IRREG-04), so the stub gives no other card for that burn.
Two or more extra cards in the same deal are a misdeal (IRREG-01): the entry is taken as is
and the dealer is told to call the floor, whose ``misdeal`` ruling voids the hand. A card the
dealer exposed (IRREG-03) is counted apart: the catalog's misdeal is two of the same kind.

The dealer enters ``extra_card`` for the seat that got six cards, before the first betting
action: in card mode with the extra card, the one dealt last and not among the seat's five
(it becomes a known burn, ``burn_cards``, never dealt again until a reshuffle); in count mode
with the seat alone. Either way the card left the stub for the burn pile (stub - 1, burns + 1).
"""

from __future__ import annotations

from dealerassist.rules.floor.exposed import in_initial_deal, misdeal_notice
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.dealing import UNKNOWN, card_locations, deck_cards
from dealerassist.rules.model.actions import Act, Mode
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import irregular as msg
from dealerassist.rules.model.outcomes import ExtraCard, Instruction, LegalAction
from dealerassist.rules.model.said import Said
from dealerassist.rules.model.state import HandState, evolve
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation

BURN = "burn"
MISDEAL = "misdeal"

# -- when ------------------------------------------------------------------------------------


def extra_card_seats(hand: HandState | None) -> list[int]:
    """The seats an extra card may be entered for now: every seat dealt in, during the deal."""
    if hand is None or not in_initial_deal(hand):
        return []
    return [player.seat for player in hand.players if not player.folded]


def extra_card_legal(hand: HandState | None) -> LegalAction | None:
    """For the view: the seats that may be entered as dealt an extra card now."""
    seats = extra_card_seats(hand)
    return {"action": "extra_card", "seats": seats} if seats else None


# -- checks ----------------------------------------------------------------------------------


def check_extra_card(hand: HandState, act: Act, mode: Mode) -> str | None:
    """IRREG-06: refuse an extra card outside the initial deal, for a seat not dealt in, with
    fields it does not take, and in card mode a card that is unknown, of another deck or in
    play; the extra card (card mode) or None (count mode)."""
    if not in_initial_deal(hand):
        raise _refuse(msg.EXTRA_NOT_ON_DEAL(phase=msg.PHASES[hand.phase]()), act.seat)
    if act.seat not in extra_card_seats(hand):
        raise _refuse(msg.EXTRA_SEAT_NOT_DEALT_IN(seat=act.seat), act.seat, _entry(hand))
    if _other_fields(act):
        raise _refuse(msg.EXTRA_NOTHING_ELSE(), act.seat, _entry(hand))
    if mode is Mode.COUNT:
        if act.cards:
            raise _refuse(msg.EXTRA_SEAT_ALONE(), act.seat, _entry(hand))
        return None
    return _card(hand, act)


def _other_fields(act: Act) -> bool:
    """Anything an extra card does not take: an amount, a count, discards, an option, a rank."""
    extras = (act.amount, act.count, act.discards, act.option, act.rank)
    return any(value is not None for value in extras) or act.ace_shown


def _card(hand: HandState, act: Act) -> str:
    if not act.cards or len(act.cards) != 1:
        raise _refuse(msg.EXTRA_ONE_CARD(), act.seat, _entry(hand))
    card = act.cards[0]
    if card == UNKNOWN:
        raise _refuse(msg.EXTRA_NAME_IT(), act.seat, _entry(hand))
    if card not in deck_cards(hand.deck):
        raise _refuse(msg.NOT_A_CARD_OF_DECK(card=card, deck=hand.deck), act.seat)
    place = card_locations(hand, frozenset({card})).get(card)
    if place == f"hand:{act.seat}":
        raise _refuse(msg.EXTRA_AMONG_FIVE(card=card, seat=act.seat), act.seat, _entry(hand))
    if place is not None:  # the place is the engine's code: "hand:2", "pile:3:1", "muck", "burn"
        said = msg.EXTRA_IN_PLAY(card=card, place=place, seat=act.seat)
        raise _refuse(said, act.seat, _entry(hand))
    return card


def _entry(hand: HandState) -> list[LegalAction]:
    return [{"action": "extra_card", "seats": extra_card_seats(hand)}]


def _refuse(said: Said, seat: int, allowed: list[LegalAction] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.IRREG_06, said=said, seat=seat, allowed=allowed or [])


# -- apply -----------------------------------------------------------------------------------


def apply_extra_card(
    hand: HandState, seat: int, card: str | None, rules: HouseRules
) -> tuple[HandState, ExtraCard, list[Instruction], list[Notice]]:
    """IRREG-06: the first extra card goes from the stub to the burn pile and is the next burn;
    IRREG-01: a second one is the floor's (misdeal), nothing moves.

    The new hand, the event, the dealer's instructions and notices.
    """
    hand = evolve(hand, extra_cards=hand.extra_cards + 1)
    if hand.extra_cards > 1:
        event = _event(seat, card, MISDEAL)
        return hand, event, [], [misdeal_notice(seat, msg.MISDEAL_EXTRA(count=hand.extra_cards))]
    known = hand.burn_cards if card is None else (*hand.burn_cards, card)
    burn_before = rules.draw.burn_before  # DRAW-04: the extra card is that burn
    hand = evolve(
        hand,
        stub=hand.stub - 1,
        burns=hand.burns + 1,
        burn_cards=known,
        spare_burn=hand.spare_burn or burn_before,
    )
    return hand, _event(seat, card, BURN), [_instruction(seat, card, burn_before)], []


def _instruction(seat: int, card: str | None, burn_before: bool) -> Instruction:
    """The dealer's step: the extra card back face down to the burn pile, where it is the burn.

    >>> _instruction(3, "9d", False)["text"]
    'Seat 3 was dealt an extra card (9d): return it face down to the burn pile; it is the burn'
    """
    rest: Said | str = msg.EXTRA_BURN_NOTHING_MORE() if burn_before else ""
    if card is None:
        text = msg.EXTRA_TO_BURN_UNNAMED(seat=seat, rest=rest)
    else:
        text = msg.EXTRA_TO_BURN(seat=seat, card=card, rest=rest)
    return say.instruction("extra_card", seat, 1, text)


def _event(seat: int, card: str | None, ruling: str) -> ExtraCard:
    return ExtraCard(seat, card, ruling)
