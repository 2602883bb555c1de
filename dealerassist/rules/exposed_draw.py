"""A replacement card exposed by the dealer during the draw: never taken, replaced last (IRREG-04).

The player may not take the exposed card. The dealer finishes serving every seat in order and
then gives the affected seat its replacement: the seat joins ``come_back`` like a deferred fifth
card (DRAW-03), so the replacement comes after every other seat, with a burn first when that
seat was the last to receive cards. The house option ``irregularities.exposed_draw`` says where
the card goes: ``to_discards`` (RRoP) puts it among the seat's discards of this draw, so it is
never dealt back to that seat (DRAW-06); ``becomes_next_burn`` (WSOP) puts it in the burn pile
where it stands for the next burn (no card is taken from the stub for that burn).

The dealer enters ``exposed`` for the seat that was just dealt cards (``last_receiver``), in
card mode with the exposed card, one of the cards of that seat's last deal; in count mode the
``rank`` may be given and is only recorded. It is accepted during the draw, and after the draw
until the first action that follows it (the hand goes back to the draw for the replacement).
"""

from __future__ import annotations

from typing import Any

from dealerassist.rules import instructions as say
from dealerassist.rules.actions import Act, ActionKind, Mode
from dealerassist.rules.dealing import UNKNOWN, deck_cards
from dealerassist.rules.drawing import finish_draw, next_in_draw
from dealerassist.rules.exposed import rank_of
from dealerassist.rules.house_rules import ExposedDrawCard, HouseRules
from dealerassist.rules.journal import read
from dealerassist.rules.state import (
    HandState,
    Phase,
    PlayerState,
    TableState,
    draw_phase,
    evolve,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.stub import Step
from dealerassist.rules.violations import RuleId, RuleViolation

# -- when ------------------------------------------------------------------------------------


def after_the_deal(hand: HandState) -> bool:
    """True once the first draw has begun: an exposed card is then IRREG-04's, not IRREG-03's."""
    phase = hand.phase
    return is_draw(phase) or phase_number(phase) >= 2 or phase is Phase.SHOWDOWN


def draw_round_open(hand: HandState) -> int:
    """The draw whose last cards may still be entered as exposed, 0 when none: the draw in
    progress once a card was dealt, or the one just over until the first action after it."""
    phase = hand.phase
    if hand.last_receiver is None:
        return 0
    if is_draw(phase):
        return phase_number(phase)
    if is_betting(phase) and phase_number(phase) >= 2:
        return 0 if any(p.acted for p in hand.players) else phase_number(phase) - 1
    if phase is Phase.SHOWDOWN and not any(p.shown or p.mucked for p in hand.players):
        return len(hand.player(hand.last_receiver).drawn)
    return 0


def exposed_draw_legal(hand: HandState | None, rules: HouseRules) -> dict[str, Any] | None:
    """For the view: the seat whose just-dealt card may be entered as exposed, and where the
    house puts such a card."""
    if hand is None or not draw_round_open(hand):
        return None
    disposition = rules.irregularities.exposed_draw.value
    return {"action": "exposed", "seat": hand.last_receiver, "disposition": disposition}


# -- checks ----------------------------------------------------------------------------------


def check_exposed_draw(state: TableState, hand: HandState, act: Act, mode: Mode) -> str | None:
    """IRREG-04: refuse an exposed draw card outside the draw, for a seat other than the one
    just dealt, not among the cards just dealt to it (card mode) or of no rank of the deck, and
    any option (the player may not take it); the exposed card, its rank, or None (count mode,
    no rank entered)."""
    draw_round = draw_round_open(hand)
    if not draw_round:
        raise _refuse(_closed_message(hand), act.seat)
    if act.option is not None:
        message = (
            "The player may not take a card exposed on the draw, nor choose anything (IRREG-04): "
            "enter it without option."
        )
        raise _refuse(message, act.seat, _entry(hand))
    if act.seat != hand.last_receiver:
        message = (
            f"Only a card just dealt can be entered as exposed, and the last cards went to seat "
            f"{hand.last_receiver} (IRREG-04). A card exposed earlier is the floor's."
        )
        raise _refuse(message, act.seat, _entry(hand))
    if mode is Mode.CARD:
        return _card(state, hand, act)
    return _rank(hand, act)


def _closed_message(hand: HandState) -> str:
    if is_draw(hand.phase):
        return (
            "No card has been dealt in this draw yet: a card exposed on the draw is entered "
            "right after the deal that exposed it (IRREG-04)."
        )
    return (
        f"An exposed draw card is entered right after it is dealt, before the first action "
        f"after the draw; the hand is in {hand.phase.value} and has moved on (IRREG-04): call "
        "the floor."
    )


def just_dealt(state: TableState, seat: int) -> tuple[str, ...] | None:
    """Card mode: the cards of the hand's last entry that dealt cards to ``seat`` (its ``deal``,
    or a ``draw`` entered with its cards); None without a journal."""
    for entry in reversed(state.hand_log):
        command = read(entry)[0]
        if command.get("type") != "action" or command.get("seat") != seat:
            continue
        dealt = command.get("action") in (ActionKind.DEAL.value, ActionKind.DRAW.value)
        if dealt and command.get("cards"):
            return tuple(command["cards"])
    return None


def _card(state: TableState, hand: HandState, act: Act) -> str:
    player = hand.player(act.seat)
    if not act.cards or len(act.cards) != 1 or act.cards[0] == UNKNOWN:
        raise _refuse("Card mode: enter the one exposed card as cards (e.g. '6h').", act.seat)
    card = act.cards[0]
    dealt = just_dealt(state, act.seat)
    if card not in player.cards or (dealt is not None and card not in dealt):
        last = " ".join(c for c in dealt or player.cards if c in player.cards)
        message = (
            f"{card} is not one of the cards just dealt to seat {act.seat} ({last}): enter the "
            "card that was exposed (IRREG-04)."
        )
        raise _refuse(message, act.seat, _entry(hand))
    if act.rank is not None and act.rank != rank_of(card):
        raise _refuse(f"The rank {act.rank} is not the rank of {card}.", act.seat)
    return card


def _rank(hand: HandState, act: Act) -> str | None:
    if act.cards:
        if len(act.cards) != 1 or act.rank is not None:
            raise _refuse("Count mode: enter the exposed card's rank (e.g. rank '6').", act.seat)
        rank: str | None = rank_of(act.cards[0])
    else:
        rank = act.rank
    deck = deck_cards(hand.deck)
    if rank is not None and not any(rank_of(card) == rank for card in deck):
        raise _refuse(f"{rank} is no rank of this {hand.deck}-card deck.", act.seat)
    return rank


def _entry(hand: HandState) -> list[dict[str, Any]]:
    return [{"action": "exposed", "seat": hand.last_receiver}]


def _refuse(message: str, seat: int, allowed: list[dict[str, Any]] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.IRREG_04, message=message, seat=seat, allowed=allowed or [])


# -- apply -----------------------------------------------------------------------------------


def apply_exposed_draw(
    hand: HandState, seat: int, exposed: str | None, rules: HouseRules, mode: Mode
) -> tuple[HandState, dict[str, Any], list[dict[str, Any]], tuple[Step, ...]]:
    """IRREG-04: the card leaves the seat's hand for the discards or the burn pile; the seat is
    owed one more card after every other seat (back in the draw if it was over). The new hand,
    the event, the dealer's instruction, and the dealing script when the replacement is dealt
    at once (count mode, every other seat served)."""
    draw_round = draw_round_open(hand)
    card = exposed if mode is Mode.CARD else None
    player = _without(hand.player(seat), card)
    disposition = rules.irregularities.exposed_draw
    if disposition is ExposedDrawCard.BECOMES_NEXT_BURN:
        where = _burn_text(hand)
        known = hand.burn_cards if card is None else (*hand.burn_cards, card)
        hand = evolve(hand, burns=hand.burns + 1, spare_burn=True, burn_cards=known)
    else:
        where = f"put it with the discards (seat {seat} may never get it back)"
        player = _discarded(player, card, draw_round)
    hand = _owe(hand.with_player(player), seat, mode)
    if not is_draw(hand.phase):
        hand = evolve(hand, phase=draw_phase(draw_round))
    hand = evolve(hand, to_act=next_in_draw(hand, rules, draw_round))
    steps: tuple[Step, ...] = ()
    if hand.to_act is None:  # count mode, every other seat served: the replacement now
        hand, steps, _ = finish_draw(hand, rules, draw_round)
    shown = exposed or "card"
    text = (
        f"Seat {seat} may not take the exposed {shown}: {where}. Replacement owed to seat "
        f"{seat} at the end of the draw"
    )
    event = {"type": "exposed", "seat": seat, "exposed": exposed, "ruling": disposition.value}
    return hand, event, [say.instruction("replacement_owed", seat, 1, text)], steps


def _without(player: PlayerState, card: str | None) -> PlayerState:
    cards = list(player.cards)
    if card is not None:
        cards.remove(card)
    return evolve(player, cards=tuple(cards), held=player.held - 1)


def _discarded(player: PlayerState, card: str | None, draw_round: int) -> PlayerState:
    """``to_discards``: the card joins the seat's discards of this draw (DRAW-06: never dealt
    back to it; in a reshuffle only when the pool takes that seat's discards)."""
    index = draw_round - 1
    pile = list(player.pile + (0,) * (draw_round - len(player.pile)))
    pile[index] += 1
    if card is None:
        return evolve(player, pile=tuple(pile))
    piles = list(player.pile_cards + ((),) * (draw_round - len(player.pile_cards)))
    piles[index] = (*piles[index], card)
    return evolve(player, pile=tuple(pile), pile_cards=tuple(piles))


def _burn_text(hand: HandState) -> str:
    if hand.spare_burn:
        return "put it in the burn pile (the exposed card already there is the next burn)"
    return "put it in the burn pile: it is the next burn (no other card is burned then)"


def _owe(hand: HandState, seat: int, mode: Mode) -> HandState:
    """The seat waits for one more card after every other seat (DRAW-03's ``come_back``):
    card mode one more pending card, count mode one more place in ``come_back``."""
    come_back = hand.come_back
    if mode is Mode.CARD:
        player = hand.player(seat)
        hand = hand.with_player(evolve(player, pending=player.pending + 1))
        come_back = come_back if seat in come_back else (*come_back, seat)
    else:
        come_back = (*come_back, seat)
    return evolve(hand, come_back=come_back, exposed_owed=(*hand.exposed_owed, seat))
