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

The exposure is a fact, so it is accepted even when the stub and the reshuffle pool (DRAW-06)
can no longer supply the replacement; the hand then waits for the floor (``floor_wait``):
the dealer is told to call it, every entry is refused until a ruling, and the floor may let
the player take the exposed card as his replacement (``take_exposed``; Oaks lowball lets a
player accept an exposed card), or rule a misdeal, kill a hand, award the pot.
"""

from __future__ import annotations

from dealerassist.rules.floor.exposed import rank_of
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.dealing import HAND_SIZE, UNKNOWN, deck_cards
from dealerassist.rules.hand.drawing import deal_fifth_cards, finish_draw, next_in_draw, receive
from dealerassist.rules.hand.fifth_cards import deal_count
from dealerassist.rules.hand.stub import Step
from dealerassist.rules.model.actions import Act, ActionKind, Mode
from dealerassist.rules.model.house_rules import ExposedDrawCard, HouseRules
from dealerassist.rules.model.journal import read
from dealerassist.rules.model.messages import exposed as msg
from dealerassist.rules.model.messages import irregular
from dealerassist.rules.model.outcomes import Exposed, Instruction, LegalAction
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.rules.model.state import (
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
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation

# -- when ------------------------------------------------------------------------------------


def after_the_deal(hand: HandState) -> bool:
    """True once the first draw has begun: an exposed card is then IRREG-04's, not IRREG-03's."""
    phase = hand.phase
    return is_draw(phase) or phase_number(phase) >= 2 or phase is Phase.SHOWDOWN


def draw_round_open(hand: HandState, rules: HouseRules) -> int:
    """The draw whose last cards may still be entered as exposed, 0 when none: the draw in
    progress once a card was dealt, or the one just over until the first action after it;
    at the showdown none where ``exposed_draw_closes_at_showdown`` says so (issue 18: the
    hand never goes back to a draw whose betting is over)."""
    phase = hand.phase
    if hand.last_receiver is None:
        return 0
    if is_draw(phase):
        return phase_number(phase)
    if is_betting(phase) and phase_number(phase) >= 2:
        return 0 if any(p.acted for p in hand.players) else phase_number(phase) - 1
    if rules.irregularities.exposed_draw_closes_at_showdown:
        return 0
    if phase is Phase.SHOWDOWN and not any(p.shown or p.mucked for p in hand.players):
        return len(hand.player(hand.last_receiver).drawn)
    return 0


def exposed_draw_legal(hand: HandState | None, rules: HouseRules) -> LegalAction | None:
    """For the view: the seat whose just-dealt card may be entered as exposed, and where the
    house puts such a card."""
    if hand is None or hand.floor_wait or hand.pot_held or not draw_round_open(hand, rules):
        return None
    disposition = rules.irregularities.exposed_draw.value
    return {"action": "exposed", "seat": hand.last_receiver, "disposition": disposition}


# -- checks ----------------------------------------------------------------------------------


def check_exposed_draw(
    state: TableState, hand: HandState, act: Act, mode: Mode, rules: HouseRules
) -> str | None:
    """IRREG-04: refuse an exposed draw card outside the draw, for a seat other than the one
    just dealt, not among the cards just dealt to it (card mode) or of no rank of the deck, and
    any option (the player may not take it); the exposed card, its rank, or None (count mode,
    no rank entered)."""
    draw_round = draw_round_open(hand, rules)
    if not draw_round:
        raise _refuse(_closed_message(hand), act.seat)
    if act.option is not None:
        raise _refuse(msg.DRAW_NO_OPTION(), act.seat, _entry(hand))
    if act.seat != hand.last_receiver:
        last = hand.last_receiver
        assert last is not None  # draw_round_open: a card was dealt in this draw
        said = msg.DRAW_ONLY_JUST_DEALT(last=last)
        raise _refuse(said, act.seat, _entry(hand))
    if mode is Mode.CARD:
        return _card(state, hand, act)
    return _rank(hand, act)


def _closed_message(hand: HandState) -> Said:
    if is_draw(hand.phase):
        return msg.DRAW_NO_CARD_YET()
    return msg.DRAW_MOVED_ON(phase=irregular.PHASES[hand.phase]())


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
        raise _refuse(irregular.ENTER_ONE_EXPOSED_CARD(), act.seat)
    card = act.cards[0]
    dealt = just_dealt(state, act.seat)
    if card not in player.cards or (dealt is not None and card not in dealt):
        last = " ".join(c for c in dealt or player.cards if c in player.cards)
        said = msg.DRAW_NOT_JUST_DEALT(card=card, seat=act.seat, cards=last)
        raise _refuse(said, act.seat, _entry(hand))
    if act.rank is not None and act.rank != rank_of(card):
        raise _refuse(irregular.RANK_NOT_OF_CARD(rank=act.rank, card=card), act.seat)
    return card


def _rank(hand: HandState, act: Act) -> str | None:
    if act.cards:
        if len(act.cards) != 1 or act.rank is not None:
            raise _refuse(irregular.ENTER_EXPOSED_RANK(), act.seat)
        rank: str | None = rank_of(act.cards[0])
    else:
        rank = act.rank
    deck = deck_cards(hand.deck)
    if rank is not None and not any(rank_of(card) == rank for card in deck):
        raise _refuse(msg.DRAW_NO_SUCH_RANK(rank=rank, deck=hand.deck), act.seat)
    return rank


def _entry(hand: HandState) -> list[LegalAction]:
    return [{"action": "exposed", "seat": hand.last_receiver}]


def _refuse(said: Said, seat: int, allowed: list[LegalAction] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.IRREG_04, said=said, seat=seat, allowed=allowed or [])


# -- apply -----------------------------------------------------------------------------------


def apply_exposed_draw(
    hand: HandState, seat: int, exposed: str | None, rules: HouseRules, mode: Mode
) -> tuple[HandState, Exposed, list[Instruction], tuple[Step, ...]]:
    """IRREG-04: the card leaves the seat's hand for the discards or the burn pile; the seat is
    owed one more card after every other seat (back in the draw if it was over). The new hand,
    the event, the dealer's instruction, and the dealing script when the replacement is dealt
    at once (count mode, every other seat served)."""
    draw_round = draw_round_open(hand, rules)
    card = exposed if mode is Mode.CARD else None
    player = _without(hand.player(seat), card)
    disposition = rules.irregularities.exposed_draw
    if disposition is ExposedDrawCard.BECOMES_NEXT_BURN:
        where = _burn_text(hand)
        known = hand.burn_cards if card is None else (*hand.burn_cards, card)
        hand = evolve(hand, burns=hand.burns + 1, spare_burn=True, burn_cards=known)
    else:
        where = msg.TO_DISCARDS(seat=seat)
        player = _discarded(player, card, draw_round)
    hand = _owe(hand.with_player(player), seat, mode)
    if not is_draw(hand.phase):
        hand = evolve(hand, phase=draw_phase(draw_round))
    hand = evolve(hand, to_act=next_in_draw(hand, rules, draw_round))
    event = Exposed(seat, exposed, disposition.value)
    if exposed:
        taken = msg.NOT_TAKEN(seat=seat, card=exposed, where=where)
    else:
        taken = msg.NOT_TAKEN_UNNAMED(seat=seat, where=where)
    if not can_replace(hand, rules, draw_round):
        hand = evolve(hand, floor_wait=RuleId.IRREG_04, to_act=waiting_turn(hand))
        text = msg.CANNOT_REPLACE(taken=taken, seat=seat)
        return hand, event, [say.instruction("call_floor", seat, 1, text)], ()
    steps: tuple[Step, ...] = ()
    if hand.to_act is None:  # count mode, every other seat served: the replacement now
        hand, steps, _ = finish_draw(hand, rules, draw_round)
    text = msg.REPLACEMENT_OWED(taken=taken, seat=seat)
    return hand, event, [say.instruction("replacement_owed", seat, 1, text)], steps


def floor_notice(hand: HandState) -> list[Notice]:
    """IRREG-04: when the hand waits for the floor, tell the dealer why and to call it."""
    if hand.floor_wait != RuleId.IRREG_04.value:
        return []
    seat = hand.exposed_owed[-1] if hand.exposed_owed else None
    said = msg.FLOOR_WAIT_UNSEATED() if seat is None else msg.FLOOR_WAIT(seat=seat)
    return [Notice(rule_id=RuleId.IRREG_04, said=said, seat=seat)]


def can_replace(hand: HandState, rules: HouseRules, draw_round: int) -> bool:
    """IRREG-04 / DRAW-06: played out on a copy with nobody else drawing, the stub and a
    reshuffle give every seat still owed cards in this draw all of them (card mode: a seat
    that discarded and was not dealt yet first, then the cards owed after the others)."""
    owed = {p.seat for p in hand.players if p.pending} | set(hand.come_back)
    for player in hand.live():
        if not player.pending or player.seat in hand.come_back:
            continue
        count = deal_count(player, rules)
        try:
            hand, _ = receive(hand, player.seat, count, None, rules, draw_round)
        except RuleViolation:
            return False
        left = player.pending - count
        if left:
            hand = hand.with_player(evolve(hand.player(player.seat), pending=left))
            hand = evolve(hand, come_back=(*hand.come_back, player.seat))
    final, _ = deal_fifth_cards(hand, rules, draw_round)
    return all(
        final.player(seat).held == HAND_SIZE for seat in owed if not final.player(seat).folded
    )


def waiting_turn(hand: HandState) -> int | None:
    """The seat shown to act while the hand waits for the floor: the one owed a card."""
    if hand.to_act is not None:
        return hand.to_act
    live = [seat for seat in hand.come_back if not hand.player(seat).folded]
    return live[0] if live else None


def resume(
    hand: HandState, rules: HouseRules
) -> tuple[HandState, tuple[Step, ...], tuple[tuple[int, int], ...]]:
    """After the floor's ruling (IRREG-04): the draw goes on from the next seat, or ends
    (count mode: the cards owed after the others dealt now); the dealing script, fouled seats."""
    hand = evolve(hand, floor_wait=None)
    if not is_draw(hand.phase):
        return hand, (), ()
    draw_round = phase_number(hand.phase)
    hand = evolve(hand, to_act=next_in_draw(hand, rules, draw_round))
    if hand.to_act is not None:
        return hand, (), ()
    return finish_draw(hand, rules, draw_round)


# -- the floor lets the player take the exposed card --------------------------------------


def take_exposed(
    state: TableState, hand: HandState, seat: int, rules: HouseRules, mode: Mode
) -> tuple[HandState, str | None]:
    """IRREG-04 ruling ``take_exposed``: no replacement can be supplied, so the seat takes its
    exposed card back from the discards or the burn pile as its replacement; the new hand and
    the card (None in count mode)."""
    player = hand.player(seat)
    draw_round = len(player.drawn)
    to_burn = rules.irregularities.exposed_draw is ExposedDrawCard.BECOMES_NEXT_BURN
    card = _exposed_card(state, hand, seat, draw_round, to_burn) if mode is Mode.CARD else None
    if to_burn:
        burn_cards = list(hand.burn_cards)
        if card is not None:
            burn_cards.remove(card)
        spare = hand.spare_burn and bool(burn_cards)  # another exposed card still stands
        hand = evolve(hand, burns=hand.burns - 1, burn_cards=tuple(burn_cards), spare_burn=spare)
    else:
        player = _undiscarded(player, card, draw_round)
    cards = player.cards if card is None else (*player.cards, card)
    pending = max(0, player.pending - 1)
    player = evolve(player, held=player.held + 1, cards=cards, pending=pending)
    come_back = list(hand.come_back)
    if seat in come_back and (mode is Mode.COUNT or not pending):
        come_back.remove(seat)
    owed = list(hand.exposed_owed)
    owed.remove(seat)
    hand = evolve(hand.with_player(player), come_back=tuple(come_back), exposed_owed=tuple(owed))
    return hand, card


def check_take_exposed(hand: HandState, seat: int, rules: HouseRules) -> None:
    """IRREG-04: ``take_exposed`` only while the hand waits for the floor because the seat's
    replacement cannot be supplied, and with its exposed card still where the house put it."""
    if hand.floor_wait != RuleId.IRREG_04.value or seat not in hand.exposed_owed:
        owed = sorted(set(hand.exposed_owed)) if hand.floor_wait else []
        if owed:  # the seats as a list reads: "[3, 5]"
            said = msg.TAKE_NOT_WAITING_OWED(seat=seat, owed=Listed(tuple(owed), Join.COMMA))
        else:
            said = msg.TAKE_NOT_WAITING(seat=seat)
        raise _refuse(said, seat, [{"effect": "take_exposed", "seat": s} for s in owed])
    player = hand.player(seat)
    if rules.irregularities.exposed_draw is ExposedDrawCard.BECOMES_NEXT_BURN:
        there = hand.burns > 0
    else:
        there = len(player.pile) == len(player.drawn) and player.pile[-1] > 0
    if not there:
        raise _refuse(msg.TAKE_GONE(seat=seat), seat)


def _exposed_card(
    state: TableState, hand: HandState, seat: int, draw_round: int, to_burn: bool
) -> str:
    """Card mode: the latest card exposed from ``seat`` that is still where the house put it."""
    player = hand.player(seat)
    pile = player.pile_cards[draw_round - 1] if len(player.pile_cards) >= draw_round else ()
    where = hand.burn_cards if to_burn else pile
    for entry in reversed(state.hand_log):
        command = read(entry)[0]
        exposed = command.get("action") == ActionKind.EXPOSED.value
        if command.get("type") == "action" and exposed and command.get("seat") == seat:
            card = (command.get("cards") or [None])[0]
            if card in where:
                return str(card)
    raise _refuse(msg.TAKE_GONE(seat=seat), seat)


def _undiscarded(player: PlayerState, card: str | None, draw_round: int) -> PlayerState:
    """``to_discards``: the card leaves the seat's discards of this draw."""
    index = draw_round - 1
    pile = list(player.pile)
    pile[index] -= 1
    if card is None:
        return evolve(player, pile=tuple(pile))
    piles = list(player.pile_cards)
    piles[index] = tuple(c for c in piles[index] if c != card)
    return evolve(player, pile=tuple(pile), pile_cards=tuple(piles))


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


def _burn_text(hand: HandState) -> Said:
    if hand.spare_burn:
        return msg.TO_BURN_SPARE()
    return msg.TO_BURN_NEXT()


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
