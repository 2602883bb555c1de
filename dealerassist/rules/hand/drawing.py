"""The draw: order, how many, changing a request, receiving cards (DRAW-01/02/03/06/07/12).

Seams for the house rules of issue 4: ``rule_max`` (DRAW-02), ``can_change`` (DRAW-07); the
five-card split and the end of a draw live in ``fifth_cards`` (DRAW-03/10), the stub and
reshuffles in ``stub`` (DRAW-04/05/06), card checks in ``dealing``.
"""

from __future__ import annotations

from typing import Any

from dealerassist.rules.cards.joker import JOKER
from dealerassist.rules.hand.betting import small_blind_off_button
from dealerassist.rules.hand.dealing import HAND_SIZE, UNKNOWN, check_dealt, refuse
from dealerassist.rules.hand.fifth_cards import (
    can_serve,
    deal_count,
    owed_count,
    serve_owed_first,
    splits,
    stub_fits,
)

# re-exported: the engine and rulings finish a draw through this module
from dealerassist.rules.hand.fifth_cards import deal_fifth_cards as deal_fifth_cards
from dealerassist.rules.hand.fifth_cards import finish_draw as finish_draw
from dealerassist.rules.hand.fifth_cards import fouled_notice as fouled_notice
from dealerassist.rules.hand.stub import Step, burn_due, deliverable, reserve, supplies
from dealerassist.rules.model.actions import Act, ActionKind, Mode
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.journal import read
from dealerassist.rules.model.messages import drawing as say
from dealerassist.rules.model.outcomes import LegalAction
from dealerassist.rules.model.said import Param, Said
from dealerassist.rules.model.state import (
    HandState,
    PlayerState,
    TableState,
    evolve,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation

RAP_LABEL = "Pat (a rap on the table)"  # DRAW-08: in the draw a rap means no cards

# -- order -----------------------------------------------------------------------------------


def next_to_draw(hand: HandState, draw_round: int) -> int | None:
    """DRAW-01: a seat waiting for its cards (card mode) first, else the first seat in the
    draw order (``draw_order``) that has not declared its draw yet; a deferred fifth card
    (DRAW-03) last."""
    order = draw_order(hand)  # once, for both questions
    pending = _first_pending(order, hand.come_back)
    return pending or _first_to_declare(order, draw_round) or _deferred(hand)


def next_in_draw(hand: HandState, rules: HouseRules, draw_round: int) -> int | None:
    """``next_to_draw``, except that in card mode a fifth card still owed is dealt before the
    stub runs out on the seat waiting for its cards (DRAW-03/06, as ``serve_owed_first``).

    Only a seat whose whole deal can be supplied goes first: the stub gives it a card and, if
    a reshuffle must complete it, the pool has enough. A seat owed several cards (IRREG-04)
    whose pool would leave out every discard (all of them still owed) waits, and the next
    owed seat the stub can serve goes first, as ``serve_owed_first`` does in count mode.
    """
    seat = next_to_draw(hand, draw_round)
    if seat is None or seat in hand.come_back or not hand.player(seat).pending:
        return seat
    waiting = [other for other in hand.come_back if hand.player(other).pending]
    if not waiting:
        return seat
    burn = 1 if hand.last_receiver in waiting else 0
    owed = sum(hand.player(other).pending for other in waiting)  # IRREG-04: maybe two a seat
    needed = deal_count(hand.player(seat), rules) + owed + burn
    if stub_fits(hand, seat, needed, rules, draw_round):
        return seat
    for owed in dict.fromkeys(waiting):
        ready = evolve(hand, burned_this_draw=False) if hand.last_receiver == owed else hand
        if not stub_fits(ready, owed, 1, rules, draw_round):
            break
        if can_serve(ready, owed, rules, draw_round):
            return owed
    return seat


def _deferred(hand: HandState) -> int | None:
    waiting = [seat for seat in hand.come_back if hand.player(seat).pending]
    return waiting[0] if waiting else None


def draw_order(hand: HandState) -> list[PlayerState]:
    """DRAW-01: the live players in the order they draw, from the first seat left of the
    button. BLIND-02: in a hand dealt to two whose small blind is not the button (the big
    blind moved onto the button at the post, BLIND-07, or a dead button, BLIND-03), the small
    blind plays the button's part: it draws last, as it acts last after the draw."""
    live = list(hand.live())
    small = small_blind_off_button(hand)
    if small is None:
        return live
    order = hand.seats_from(small)
    return sorted(live, key=lambda player: order.index(player.seat))


def next_to_declare(hand: HandState, draw_round: int) -> int | None:
    """The first seat in the draw order (``draw_order``) that has not said how many it draws."""
    return _first_to_declare(draw_order(hand), draw_round)


def _first_to_declare(order: list[PlayerState], draw_round: int) -> int | None:
    for player in order:
        if len(player.drawn) < draw_round:
            return player.seat
    return None


def first_pending(hand: HandState) -> int | None:
    """Card mode: the first seat that has discarded but not yet received its cards."""
    return _first_pending(draw_order(hand), hand.come_back)


def _first_pending(order: list[PlayerState], come_back: tuple[int, ...]) -> int | None:
    for player in order:
        if player.pending and player.seat not in come_back:
            return player.seat
    return None


# -- how many --------------------------------------------------------------------------------


def rule_max(rules: HouseRules, ace_shown: bool) -> int:
    """DRAW-02: the most cards the house lets a seat draw (four with an ace shown, if allowed)."""
    limit = rules.draw.max_cards
    if rules.draw.four_with_ace and limit < 4 and (ace_shown or not rules.draw.ace_must_be_shown):
        return 4
    return limit


def draw_limit_message(seat: int, rules: HouseRules, player: PlayerState) -> Said:
    """DRAW-02: what the seat may draw, in the house's words.

    >>> from dealerassist.rules.model.house_rules import DrawRules
    >>> rules = HouseRules(draw=DrawRules(max_cards=3, four_with_ace=True))
    >>> draw_limit_message(2, rules, PlayerState(seat=2, stack=0, held=5)).english()
    'Seat 2 may draw 0 to 3 cards, or 4 with an ace shown to the table.'
    """
    plain = min(rule_max(rules, ace_shown=False), player.held)
    with_ace = min(rule_max(rules, ace_shown=True), player.held)
    ace: Param = say.LIMIT_WITH_ACE(with_ace=with_ace) if with_ace > plain else ""
    return say.LIMIT(seat=seat, plain=plain, ace=ace)


def max_draw(hand: HandState, seat: int, rules: HouseRules, draw_round: int, ace: bool) -> int:
    """The largest legal draw now: the house maximum, the cards held, and what the stub can give.

    DRAW-06: every draw from one card up to it can be supplied (``can_supply``), so the range
    ``legal_actions`` offers (0 to this) is exactly what ``check_draw`` accepts: both ask this
    function. Counted up from one, not down from the top: a larger draw the stub could give
    while a smaller one fails would otherwise be offered above a hole."""
    player = hand.player(seat)
    top = min(rule_max(rules, ace), player.held, HAND_SIZE)
    if _plainly_supplied(hand, seat, top, rules, draw_round):
        return top  # the usual case: the stub covers the largest draw, so every smaller one
    for count in range(1, top + 1):
        if not can_supply(hand, seat, count, rules, draw_round):
            return count - 1
    return top


def can_supply(hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int) -> bool:
    """DRAW-03/06: the stub (and a reshuffle) can give ``count`` cards now and still every fifth
    card owed to five-card draws (this one's included) if nobody else draws: the draw and the
    fifth cards are played out on a copy of the hand (unless the stub plainly covers it all,
    burns included: the usual case, kept cheap for ``legal_actions``)."""
    if _plainly_supplied(hand, seat, count, rules, draw_round):
        return True
    owed = sum(owed_count(hand, other) for other in set(hand.come_back))  # IRREG-04: 2+ a seat
    owed += 1 if splits(count, rules) else 0
    if not owed:
        return supplies(hand, seat, count, rules, draw_round)
    try:
        after, _ = apply_draw(
            hand, Act(seat, ActionKind.DRAW, count=count), count, rules, Mode.COUNT, draw_round
        )
    except RuleViolation:
        return False
    final, _ = deal_fifth_cards(after, rules, draw_round)
    return all(final.player(owed).held == HAND_SIZE for owed in after.come_back)


def _plainly_supplied(
    hand: HandState, seat: int, count: int, rules: HouseRules, draw_round: int
) -> bool:
    """The stub alone covers ``count`` cards and every card owed after them, a burn before
    each (so it covers any smaller draw too)."""
    owed = sum(owed_count(hand, other) for other in set(hand.come_back))  # IRREG-04: 2+ a seat
    owed += 1 if splits(count, rules) else 0
    return stub_fits(hand, seat, count + 2 * owed + 1, rules, draw_round)


def draw_legal(hand: HandState, seat: int, rules: HouseRules, draw_round: int) -> list[LegalAction]:
    player = hand.player(seat)
    if player.pending:
        return [{"action": "deal", "count": deal_count(player, rules)}]
    most = max_draw(hand, seat, rules, draw_round, ace=False)
    ace = holds_ace(player)
    if ace is False:  # DRAW-02, card mode: no ace (or joker) to keep, so no fourth card
        most = min(most, rules.draw.max_cards)
    legal: LegalAction = {"action": "draw", "min": 0, "max": most, "rap": RAP_LABEL}
    if ace is False or rule_max(rules, ace_shown=True) <= rule_max(rules, ace_shown=False):
        return [legal]
    with_ace = max_draw(hand, seat, rules, draw_round, ace=True)
    if with_ace > most:
        legal["max_with_ace_shown"] = with_ace
    return [legal]


# -- checks ----------------------------------------------------------------------------------


def legal_now(hand: HandState, rules: HouseRules, draw_round: int) -> list[LegalAction]:
    """What the seat to act may do in the draw, named by seat (for a refusal's ``allowed``)."""
    if hand.to_act is None:
        return []
    return [{"seat": hand.to_act, **a} for a in draw_legal(hand, hand.to_act, rules, draw_round)]


def check_draw(hand: HandState, act: Act, rules: HouseRules, mode: Mode, draw_round: int) -> int:
    """DRAW-01/02/06: refuse a draw out of turn, over the limit or beyond the stub; the count.

    The legal actions for a refusal are computed only when something is refused.
    """
    try:
        return _check_draw(hand, act, rules, mode, draw_round)
    except RuleViolation as refusal:
        refusal.allowed = legal_now(hand, rules, draw_round)
        raise


def _check_draw(hand: HandState, act: Act, rules: HouseRules, mode: Mode, draw_round: int) -> int:
    allowed: list[LegalAction] = []
    declaring = next_to_declare(hand, draw_round)
    if act.seat != declaring:
        small = small_blind_off_button(hand)
        why: Param = "" if small is None else say.WHY_HEADS_UP_SMALL_BLIND(small=small)
        said = say.NOT_NEXT(declaring=_seat(declaring), why=why, seat=act.seat)
        raise refuse(RuleId.DRAW_01, said, act.seat, allowed)
    player = hand.player(act.seat)
    count = _draw_count(act, mode, allowed)
    limit = rule_max(rules, act.ace_shown)
    if count > limit or count > player.held:
        raise refuse(RuleId.DRAW_02, draw_limit_message(act.seat, rules, player), act.seat, allowed)
    most = max_draw(hand, act.seat, rules, draw_round, act.ace_shown) if count else 0
    if count > most:  # DRAW-06: the very bound ``draw_legal`` offers
        raise refuse(RuleId.DRAW_06, say.STUB_GIVES_ONLY(most=most), act.seat, allowed)
    if mode is Mode.CARD:
        _check_discards(player, act.discards or (), allowed)
        _check_ace_kept(player, act.discards or (), rules, allowed)
        if act.cards is not None and splits(count, rules):
            raise refuse(RuleId.DRAW_03, say.NO_FIVE_IN_A_ROW(), act.seat, allowed)
    return count


def _seat(seat: int | None) -> Param:
    """A seat as a parameter ("None" when there is none, as the words always said)."""
    return "None" if seat is None else seat


def _draw_count(act: Act, mode: Mode, allowed: list[LegalAction]) -> int:
    count = act.count
    named = len(act.discards or ())
    if mode is Mode.CARD or named:  # count mode names discards only to split openers
        if count is not None and count != named:
            said = say.COUNT_MISMATCH(count=count, named=named)
            raise refuse(RuleId.DRAW_01, said, act.seat, allowed)
        count = named
    if count is None or not 0 <= count <= HAND_SIZE:
        raise refuse(RuleId.DRAW_01, say.ENTER_COUNT(), act.seat, allowed)
    return count


def _check_discards(
    player: PlayerState, discards: tuple[str, ...], allowed: list[LegalAction]
) -> None:
    held = list(player.cards)
    for card in discards:
        if card not in held:
            said = say.DISCARD_NOT_HELD(card=card, seat=player.seat)
            raise refuse(RuleId.DRAW_01, said, player.seat, allowed)
        held.remove(card)


def holds_ace(player: PlayerState) -> bool | None:
    """DRAW-02: whether the seat holds an ace or the joker; None when its cards are not known
    (count mode, or a card not entered).

    >>> holds_ace(PlayerState(seat=1, stack=0, cards=("Ah", "2c")))
    True
    >>> holds_ace(PlayerState(seat=1, stack=0, cards=("Kh", "2c"))), holds_ace(PlayerState(1, 0))
    (False, None)
    """
    cards = player.cards
    if not cards or UNKNOWN in cards:
        return None
    return any(card[0] == "A" or card == JOKER for card in cards)


def _check_ace_kept(
    player: PlayerState, discards: tuple[str, ...], rules: HouseRules, allowed: list[LegalAction]
) -> None:
    """DRAW-02: more than ``max_cards`` (four of three) only while keeping an ace or the joker
    (seed 000); card mode sees the cards kept, so a claimed ace must be one of them."""
    if not rules.draw.four_with_ace or len(discards) <= rules.draw.max_cards:
        return
    kept = list(player.cards)
    for card in discards:
        kept.remove(card)
    if holds_ace(evolve(player, cards=tuple(kept))) is not False:
        return
    joker: Param = say.OR_THE_JOKER() if rules.deck.joker else ""
    said = say.ACE_KEPT(
        seat=player.seat,
        kept=" ".join(kept),
        count=len(discards),
        joker=joker,
        most=rules.draw.max_cards,
    )
    raise refuse(RuleId.DRAW_02, said, player.seat, allowed)


# -- applying --------------------------------------------------------------------------------


def apply_draw(
    hand: HandState, act: Act, count: int, rules: HouseRules, mode: Mode, draw_round: int
) -> tuple[HandState, tuple[Step, ...]]:
    """DRAW-01: the seat discards, then receives as many cards (card mode: now or with ``deal``)."""
    player = hand.player(act.seat)
    # count mode knows no cards: discards named there are only split openers kept under a
    # chip (OPEN-07, ``openers.apply_split``), not cards leaving a known hand
    discards = act.discards or () if mode is Mode.CARD else ()
    held_cards = list(player.cards)
    for card in discards:
        held_cards.remove(card)
    pile = player.pile + (0,) * (draw_round - len(player.pile))
    pile_cards = player.pile_cards + ((),) * (draw_round - len(player.pile_cards))
    pile = (*pile[:-1], pile[-1] + count)
    pile_cards = (*pile_cards[:-1], pile_cards[-1] + tuple(discards))
    player = evolve(
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
        hand = hand.with_player(evolve(hand.player(act.seat), pending=0))
        come_back = Step("come_back", 1, act.seat)
        return evolve(hand, come_back=(*hand.come_back, act.seat)), (*steps, come_back)
    return receive(hand, act.seat, count, act.cards, rules, draw_round)


def can_change(hand: HandState, seat: int, draw_round: int) -> bool:
    """DRAW-07: a request may change while no card (the burn included, or a card exposed and
    not taken, IRREG-04) was dealt in response and no later seat has declared its draw."""
    player = hand.player(seat)
    if len(player.drawn) < draw_round or player.timed_out:
        return False
    dealt = player.pending < player.drawn[-1] or seat in hand.exposed_owed  # IRREG-04
    order = [p.seat for p in draw_order(hand)]
    later = order[order.index(seat) + 1 :]
    acted_after = any(len(hand.player(s).drawn) >= draw_round for s in later)
    return not dealt and not acted_after


def check_change(hand: HandState, seat: int, draw_round: int) -> None:
    """DRAW-07: refuse to change a request that is locked."""
    if not can_change(hand, seat, draw_round):
        allowed: list[LegalAction] = []
        if hand.to_act is not None:
            allowed = [{"seat": hand.to_act, "action": "draw"}]
        raise refuse(RuleId.DRAW_07, say.LOCKED(seat=seat), seat, allowed)


_DRAW_ENTRIES = (ActionKind.DRAW.value, ActionKind.DEAL.value, ActionKind.TIME.value)


def _pat_of(entry: dict[str, Any]) -> int | None:
    """The seat of a journaled pat (a draw of no cards), None for any other entry."""
    if entry.get("action") != ActionKind.DRAW.value or entry.get("count") or entry.get("discards"):
        return None
    return int(entry["seat"])


def changeable_pat(state: TableState) -> int | None:
    """DRAW-07: the seat whose pat may still become a draw: the hand's last entry is the last
    drawer's pat and the betting after the draw has no entry yet (None otherwise). Cheap
    enough for every table view: one journal entry is read, and only in such a betting round.
    """
    hand = state.hand
    if hand is None or not is_betting(hand.phase) or phase_number(hand.phase) < 2:
        return None
    if not state.hand_log or hand.current_bet or any(p.acted for p in hand.players):
        return None
    seat = _pat_of(read(state.hand_log[-1])[0])
    return None if seat is None or not hand.has(seat) or hand.player(seat).timed_out else seat


def changeable_draw(state: TableState) -> int | None:
    """DRAW-07 in count mode (RRoP: a draw may be changed until a card or the burn is dealt or
    a later seat acts; WSOP 276): the seat whose draw is the hand's last entry, in the draw in
    progress or, for the last drawer, before the first entry of the betting after it (None
    otherwise). Count mode records no card, so the next entry is what locks the request: the
    dealer may not have burned or dealt yet. A draw the timer declared (``time``) is no
    request and is never changed."""
    hand = state.hand
    if hand is None or state.spec.mode is not Mode.COUNT or not state.hand_log:
        return None
    phase = hand.phase
    after = is_betting(phase) and phase_number(phase) >= 2
    if after and (hand.current_bet or any(p.acted for p in hand.players)):
        return None
    if not (after or is_draw(phase)):
        return None
    entry = read(state.hand_log[-1])[0]
    if entry.get("type") != "action" or entry.get("action") != ActionKind.DRAW.value:
        return None
    seat = int(entry["seat"])
    if not hand.has(seat) or hand.player(seat).folded or hand.player(seat).timed_out:
        return None
    return seat


def pat_change_legal(state: TableState, rules: HouseRules) -> LegalAction | None:
    """DRAW-07 for the tablet: who may still turn a pat into a draw, and how many cards."""
    seat = changeable_pat(state)
    if seat is None or state.hand is None:
        return None
    (legal,) = draw_legal(state.hand, seat, rules, phase_number(state.hand.phase) - 1)
    legal = legal.copy()
    legal.pop("rap", None)
    return {"seat": seat, **legal, "min": 1}


def can_change_pat(state: TableState, seat: int) -> bool:
    """DRAW-07 after the draw: True when ``seat`` is the one ``changeable_pat`` names. When
    that seat's pat was the last draw but an entry has come since (or it was the timer's),
    the request is locked: ``RuleViolation`` DRAW-07. False otherwise (the entry is not
    about a last pat at all)."""
    if changeable_pat(state) == seat:
        return True
    hand = state.hand
    if hand is None or not is_betting(hand.phase) or phase_number(hand.phase) < 2:
        return False
    entries = [read(entry)[0] for entry in state.hand_log]
    draws = [i for i, entry in enumerate(entries) if entry.get("action") in _DRAW_ENTRIES]
    if not draws:
        return False
    if _pat_of(entries[draws[-1]]) != seat:
        return False
    allowed: list[LegalAction] = []
    if hand.to_act is not None:
        allowed = [{"seat": hand.to_act, "action": "bet"}]
    raise refuse(RuleId.DRAW_07, say.PAT_STANDS(seat=seat), seat, allowed)


def undo_draw(hand: HandState, seat: int) -> HandState:
    """DRAW-07: take back a request that was not acted on (its discards return to the hand)."""
    player = hand.player(seat)
    count = player.drawn[-1]
    discards = player.pile_cards[-1][len(player.pile_cards[-1]) - player.pending :]
    keep = player.pile_cards[-1][: len(player.pile_cards[-1]) - player.pending]
    restored = evolve(
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
    from_pool: int | None = None,
) -> tuple[HandState, tuple[Step, ...]]:
    """Deal the replacement cards from the stub (burning and reshuffling as needed).

    ``from_pool``: how many of ``cards`` come from a reshuffle, when ``check_replacements``
    has already checked them; otherwise they are checked here (``check_dealt``).
    """
    early: tuple[Step, ...] = ()
    if cards is None:
        from_pool = 0
        hand, early = serve_owed_first(hand, seat, count, rules, draw_round)
    else:
        if from_pool is None:
            from_pool = check_dealt(hand, seat, cards, count, rules, draw_round, [])
        _check_stub_first(hand, seat, count, from_pool, rules, draw_round)
    planned = deliverable(hand, seat, count, rules, draw_round, from_pool)
    if planned is None:
        raise refuse(RuleId.DRAW_06, say.CANNOT_SUPPLY(), seat, [])
    hand, steps = planned
    steps = (*early, *steps)
    player = hand.player(seat)
    received = evolve(
        player,
        held=player.held + count,
        cards=player.cards + (cards or ()),
        pending=0,
    )
    if count:
        return hand.with_player(received, last_receiver=seat), steps
    return hand.with_player(received), steps


def _check_stub_first(
    hand: HandState, seat: int, count: int, from_pool: int, rules: HouseRules, draw_round: int
) -> None:
    """DRAW-06 (card mode): discards come back only through a reshuffle, once the stub is out."""
    usable = max(0, hand.stub - burn_due(hand, rules) - reserve(hand, seat, rules, draw_round))
    if from_pool and count - from_pool < min(count, usable):
        said = say.STUB_FIRST(from_pool=from_pool, usable=usable)
        raise refuse(RuleId.DRAW_06, said, seat, [])


def receive_dealt(
    hand: HandState,
    seat: int,
    cards: tuple[str, ...],
    rules: HouseRules,
    draw_round: int,
    from_pool: int,
) -> tuple[HandState, tuple[Step, ...]]:
    """Card mode ``deal`` during a draw: four of a split five (DRAW-03), a deferred fifth card
    (burned for first if nobody received cards since), or the whole request. ``from_pool``
    is what ``check_replacements`` returned for these cards."""
    player = hand.player(seat)
    if seat in hand.come_back:
        if hand.last_receiver == seat:
            hand = evolve(hand, burned_this_draw=False)
        hand, steps = receive(hand, seat, len(cards), cards, rules, draw_round, from_pool)
        left = player.pending - len(cards)
        if left:  # IRREG-04: five owed (a split five, four exposed): the fifth after a burn
            hand = hand.with_player(evolve(hand.player(seat), pending=left))
            return hand, (*steps, Step("come_back", left, seat))
        owed = tuple(s for s in hand.exposed_owed if s != seat)  # IRREG-04: replacement dealt
        served = tuple(s for s in hand.come_back if s != seat)
        return evolve(hand, come_back=served, exposed_owed=owed), steps
    if splits(player.pending, rules):
        hand, steps = receive(hand, seat, len(cards), cards, rules, draw_round, from_pool)
        hand = hand.with_player(evolve(hand.player(seat), pending=1))
        return evolve(hand, come_back=(*hand.come_back, seat)), (
            *steps,
            Step("come_back", 1, seat),
        )
    return receive(hand, seat, len(cards), cards, rules, draw_round, from_pool)


def check_replacements(hand: HandState, act: Act, rules: HouseRules, draw_round: int) -> int:
    """Card mode: the ``deal`` that completes a seat's draw (DRAW-01/03/06/10, DECK-01); how
    many of its cards come from a reshuffle (for ``receive_dealt``)."""
    try:
        return _check_replacements(hand, act, rules, draw_round)
    except RuleViolation as refusal:
        refusal.allowed = legal_now(hand, rules, draw_round)
        raise


def _check_replacements(hand: HandState, act: Act, rules: HouseRules, draw_round: int) -> int:
    allowed: list[LegalAction] = []
    player = hand.player(act.seat) if hand.has(act.seat) else None
    if act.seat in hand.come_back and act.seat != hand.to_act:
        said = say.FIFTH_COMES_AFTER(seat=act.seat, to_act=_seat(hand.to_act))
        raise refuse(RuleId.DRAW_03, said, act.seat, allowed)
    if act.seat != hand.to_act or player is None or not player.pending:
        said = say.ONLY_DRAWER_RECEIVES(to_act=_seat(hand.to_act))
        raise refuse(RuleId.DRAW_01, said, act.seat, allowed)
    count = deal_count(player, rules)
    if splits(player.pending, rules) and len(act.cards or ()) == player.pending:
        raise refuse(RuleId.DRAW_03, say.NO_FIVE_IN_A_ROW(), act.seat, allowed)
    return check_dealt(hand, act.seat, act.cards or (), count, rules, draw_round, allowed)
