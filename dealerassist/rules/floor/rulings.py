"""Floor rulings applied through the engine's state values (IRREG-14 deadline, IRREG-15, SHOW-11).

``apply_ruling`` checks the decision against the rule's options and the deadline, then
applies each effect in order. ``void_last`` and ``misdeal`` go through the hand's journal
(``journal.py``); ``accept_entry`` lifts one check (``waivers.py``). The engine calls
``check_released`` and ``record`` for every command and ``apply_ruling`` for a ``Ruling``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from dealerassist.errors import InvalidInput
from dealerassist.rules.floor import exposed_draw, waivers
from dealerassist.rules.floor.ruling_options import decisions_for, options_for
from dealerassist.rules.hand import betting, drawing, kills, openers, rake, showdown
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.flow import Log, advance, store_hand
from dealerassist.rules.hand.pots import Pot, hand_pots, return_uncalled, split, uncalled
from dealerassist.rules.model import journal
from dealerassist.rules.model.actions import Act, Command
from dealerassist.rules.model.house_rules import HouseRules, MisdealDeadline
from dealerassist.rules.model.journal import Replay
from dealerassist.rules.model.messages import floor as words
from dealerassist.rules.model.outcomes import (
    AwardedResult,
    BettingReopened,
    ButtonMoved,
    CancelledResult,
    EntryAccepted,
    ExposedTaken,
    FalseOpenerCleared,
    FloorWaitOver,
    HandCancelled,
    HandEnded,
    HandKilled,
    LegalAction,
    PotAward,
    PotHeld,
    PotReleased,
    RulingMade,
    StackAdjusted,
    Voided,
)
from dealerassist.rules.model.ruling_commands import (
    AcceptEntry,
    AdjustStack,
    Award,
    ClearFalseOpener,
    Effect,
    HoldPot,
    KillHand,
    Misdeal,
    MoveButton,
    ReleasePot,
    ReopenBetting,
    Ruling,
    TakeExposed,
    VoidLast,
    effect_kind,
    pot_name,
    pot_said,
)
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.rules.model.state import (
    HandState,
    Phase,
    SeatState,
    SeatStatus,
    TableState,
    evolve,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation
from dealerassist.rules.table import blinds

NOTE_REQUIRED = ("custom", "discretionary")


# -- the engine's hooks ----------------------------------------------------------------------

record = journal.record  # the engine's hook: keep the hand's journal


def check_released(state: TableState, command: Command) -> None:
    """SHOW-11: while the floor holds the pot, the dealer enters nothing for the hand; nor
    while the hand waits for the floor's ruling (IRREG-04: no replacement can be supplied)."""
    hand = state.hand
    if isinstance(command, Act) and hand is not None and hand.floor_wait:
        options = [o.decision for o in options_for(hand.floor_wait)]
        raise RuleViolation(
            rule_id=RuleId(hand.floor_wait),
            said=words.WAIT_FOR_RULING(),
            seat=command.seat,
            allowed=[{"rule_id": hand.floor_wait, "decision": option} for option in options],
        )
    if isinstance(command, Act) and hand is not None and hand.pot_held:
        raise RuleViolation(
            rule_id=RuleId.SHOW_11,
            said=words.POT_HELD_WAIT(),
            seat=command.seat,
        )


# -- the ruling ------------------------------------------------------------------------------


def apply_ruling(
    state: TableState, ruling: Ruling, rules: HouseRules, at: datetime, log: Log, replay: Replay
) -> TableState:
    """Check the decision and the IRREG-14 deadline, then apply each effect in order."""
    check_decision(ruling)
    check_deadline(state, ruling)
    if any(isinstance(effect, Misdeal) for effect in ruling.effects):
        check_misdeal_deadline(state, ruling, rules)
    kinds = tuple(effect_kind(effect) for effect in ruling.effects)
    log.events.append(RulingMade(ruling.rule_id, ruling.decision, kinds))
    for effect in ruling.effects:
        _check_hold(state, effect)
        state = _apply_effect(state, effect, rules, at, log, replay)
    killed = [effect.seat for effect in ruling.effects if isinstance(effect, KillHand)]
    state, sits_out = openers.ruled_false_opener(state, ruling, killed)
    log.notices.extend(sits_out)  # OPEN-08: the floor found an all-in false opener
    return _after_floor_wait(state, rules, log)


def check_decision(ruling: Ruling) -> None:
    """The decision is one of the rule's options; custom and discretionary need a note."""
    allowed = decisions_for(ruling.rule_id)
    if ruling.decision not in allowed:
        rule = ruling.rule_id or words.NO_RULE()
        decisions = Listed(tuple(allowed), Join.COMMA)
        raise InvalidInput(said=words.DECISION_NOT_AN_OPTION(rule=rule, decisions=decisions))
    if ruling.decision in NOTE_REQUIRED and not ruling.note.strip():
        raise InvalidInput(said=words.NOTE_REQUIRED(decision=ruling.decision))


def check_deadline(state: TableState, ruling: Ruling) -> None:
    """IRREG-14: a hand may be ruled on until the next hand starts; after that only a stack
    adjustment with a note."""
    current = state.hand.hand_no if state.hand is not None else None
    if ruling.hand_no is None or ruling.hand_no == current:
        return
    if ruling.hand_no > state.hand_no:
        raise InvalidInput(said=words.HAND_NOT_DEALT(hand=ruling.hand_no))
    late = any(not isinstance(effect, AdjustStack) for effect in ruling.effects)
    if late or not ruling.note.strip():
        closed = (
            words.HAND_CLOSED_NO_HAND(hand=ruling.hand_no)
            if current is None
            else words.HAND_CLOSED(hand=ruling.hand_no, current=current)
        )
        raise RuleViolation(
            rule_id=RuleId.IRREG_14,
            said=closed,
            allowed=[{"effect": "adjust_stack", "note": "required"}],
        )


def can_rule(state: TableState, ruling: Ruling) -> bool:
    """Whether the decision and the deadline allow this ruling now."""
    try:
        check_decision(ruling)
        check_deadline(state, ruling)
    except (RuleViolation, InvalidInput):
        return False
    return True


def _check_hold(state: TableState, effect: Effect) -> None:
    hand = state.hand
    held = hand is not None and hand.pot_held
    if held and not isinstance(effect, ReleasePot | AdjustStack):
        raise RuleViolation(
            rule_id=RuleId.SHOW_11,
            said=words.POT_HELD_RELEASE_FIRST(effect=effect_kind(effect)),
            allowed=[{"effect": "release_pot"}, {"effect": "adjust_stack"}],
        )


def _apply_effect(
    state: TableState, effect: Effect, rules: HouseRules, at: datetime, log: Log, replay: Replay
) -> TableState:
    match effect:
        case AcceptEntry():
            return _accept(state, effect, rules, at, log, replay)
        case VoidLast(count=count):
            return _void_last(state, count, rules, log, replay)
        case Misdeal():
            return _misdeal(state, rules, log)
        case KillHand(seat=seat):
            return _kill(state, seat, rules, log, replay)
        case Award():
            return _award(state, effect, log, rules)
        case AdjustStack(seat=seat, amount=amount):
            return _adjust(state, seat, amount, rules, log)
        case MoveButton(seat=seat):
            return _move_button(state, seat, log)
        case ReopenBetting(seat=seat):
            return _reopen(state, seat, log)
        case HoldPot() | ReleasePot():
            return _hold(state, isinstance(effect, HoldPot), log)
        case TakeExposed(seat=seat):
            return _take_exposed(state, seat, rules, log)
        case ClearFalseOpener():
            return _clear_false_opener(state, effect, log)


def _refuse(said: Said, seat: int | None = None) -> RuleViolation:
    """IRREG-15: the floor's effect cannot be carried out on the table as it is."""
    return RuleViolation(rule_id=RuleId.IRREG_15, said=said, seat=seat)


def _live_hand(state: TableState, effect: str) -> HandState:
    hand = state.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        raise _refuse(words.NEEDS_LIVE_HAND(effect=effect))
    return hand


# -- accept the refused entry ----------------------------------------------------------------


def _accept(
    state: TableState, effect: AcceptEntry, rules: HouseRules, at: datetime, log: Log,
    replay: Replay,
) -> TableState:  # fmt: skip
    """The refused entry binds: applied by the engine with the one check of ``waive`` lifted."""
    hand = _live_hand(state, "accept_entry")
    entry = effect.entry
    if not isinstance(entry, Act) or not hand.has(entry.seat):
        raise _refuse(words.ACCEPT_NEEDS_ACTION())
    ready, relaxed = waivers.waived(state, hand, entry, effect.waive, rules)
    outcome = replay(ready, entry, relaxed, at)
    log.events.append(EntryAccepted(effect.waive, entry.seat))
    log.events.extend(outcome.events)
    log.instructions.extend(outcome.instructions)
    after = evolve(outcome.state, hand_log=state.hand_log)
    return waivers.back_to_skipped(after, hand.phase, hand.to_act, entry.seat)


# -- void and misdeal ------------------------------------------------------------------------


def _void_last(
    state: TableState, count: int, rules: HouseRules, log: Log, replay: Replay
) -> TableState:
    """Rebuild the hand from its start, replaying the journal without its last ``count`` actions."""
    if state.before_hand is None or not state.hand_log:
        raise _refuse(words.NO_HAND_TO_VOID())
    table, dropped = journal.without_last_actions(state, count, rules, replay)
    log.events.append(Voided(dropped))
    return table


_VOLUNTARY = frozenset({"check", "call", "bet", "raise", "fold", "draw"})  # posts are no action
_WITH_CHIPS = frozenset({"call", "bet", "raise"})


def check_misdeal_deadline(state: TableState, ruling: Ruling, rules: HouseRules) -> None:
    """IRREG-02: past the house's misdeal deadline (IRREG-01) the hand is played out, no
    misdeal, unless the deck is fouled (a ruling on DECK-01, or IRREG-02's fouled_deck)."""
    deadline = rules.irregularities.misdeal_deadline
    fouled = ruling.rule_id == RuleId.DECK_01.value or ruling.decision == "fouled_deck"
    if deadline is MisdealDeadline.NONE or fouled or state.hand is None:
        return
    acts = [a for a in _entries(state) if a.get("action") in _VOLUNTARY]
    if deadline is MisdealDeadline.TWO_PLAYERS_ACTED:
        passed = len({a.get("seat") for a in acts}) >= 2
        why = words.WHY_TWO_PLAYERS_ACTED()
    else:  # TDA 36: any two actions, at least one with chips, or any three actions
        passed = len(acts) >= 3 or (
            len(acts) >= 2 and any(a["action"] in _WITH_CHIPS for a in acts)
        )
        why = words.WHY_SUBSTANTIAL_ACTION()
    if passed:
        raise RuleViolation(
            rule_id=RuleId.IRREG_02,
            said=words.TOO_LATE_FOR_MISDEAL(why=why, deadline=deadline.value),
            allowed=[{"decision": "play_on"}, {"rule_id": "DECK-01", "decision": "void_refund"}],
        )


def _entries(state: TableState) -> list[dict[str, Any]]:
    """The hand's accepted actions in order, those the floor let stand (``accept_entry``,
    BET-08) included: an entry made binding counts as action like any other."""
    entries: list[dict[str, Any]] = []
    for command, _ in map(journal.read, state.hand_log):
        if command.get("type") == "action":
            entries.append(command)
        elif command.get("type") == "ruling":
            accepted = (e.get("entry") for e in command.get("effects", ()))
            entries.extend(e for e in accepted if isinstance(e, dict) and e.get("type") == "action")
    return entries


def _misdeal(state: TableState, rules: HouseRules, log: Log) -> TableState:
    """IRREG-01: chips back as at the hand's start; the table is as before the hand (button,
    blind positions, carried antes), so the next hand, under a new number, is dealt the same way.
    Seats whose player changed during the hand keep their new player, and the kill leg follows
    its holder through those changes (KILL-03, ``kills.after_misdeal``); the dealer is told
    where the kill button goes if that moves it (a pot won in the hand is void)."""
    hand = state.hand
    if hand is None or state.before_hand is None:
        raise _refuse(words.NO_HAND_TO_MISDEAL())
    before = journal.table_at_start(state)
    adjusted = _adjustments(state)  # IRREG-14: the floor's stack corrections stand
    start = {
        seat.seat: evolve(seat, stack=seat.stack + adjusted.get(seat.seat, 0))
        for seat in before.seats
    }
    seats = tuple(
        start[s.seat] if s.player is not None and start[s.seat].player == s.player else s
        for s in state.seats
    )
    seats, away = _cleared_again(state, seats, before.false_openers_away)
    before = evolve(before, false_openers_away=away)
    stacks = {s.seat: s.stack for s in seats if s.status is not SeatStatus.EMPTY}
    result = CancelledResult(stacks, misdeal=True)
    players = tuple(
        evolve(p, stack=start[p.seat].stack, committed=0, dead=0, bet=0) for p in hand.players
    )
    hand = evolve(
        hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, dead=0,
        current_bet=0, pot_held=False,
    )  # fmt: skip
    log.events.append(HandCancelled(result))
    log.instructions.append(say.instruction("misdeal", None, None, words.MISDEAL()))
    table = kills.after_misdeal(
        before, evolve(before, seats=seats, hand=hand, hand_no=state.hand_no)
    )
    log.instructions.extend(kills.leg_instructions(state, table, rules))  # a void pot's leg
    state = table
    if before.button is None:  # the table's first hand: the dealer had named the button
        return _button_next(state, hand.button)
    return state


def _adjustments(state: TableState) -> dict[int, int]:
    """The chips the floor added to or took from each seat during the hand (``adjust_stack``
    rulings in its journal): a misdeal returns the hand's bets, not the floor's corrections."""
    adjusted: dict[int, int] = {}
    for effect in _journaled_effects(state, "adjust_stack"):
        seat = int(effect["seat"])
        adjusted[seat] = adjusted.get(seat, 0) + int(effect["amount"])
    return adjusted


def _journaled_effects(state: TableState, name: str) -> Iterator[dict[str, Any]]:
    """The ``name`` effects of the floor's rulings in the hand's journal, in order: what a
    misdeal keeps (IRREG-14 stack corrections, OPEN-08 lifted waits)."""
    for command, _ in map(journal.read, state.hand_log):
        if command.get("type") == "ruling":
            yield from (e for e in command.get("effects", ()) if e.get("effect") == name)


def _cleared_again(
    state: TableState, seats: tuple[SeatState, ...], away: tuple[str, ...]
) -> tuple[tuple[SeatState, ...], tuple[str, ...]]:
    """OPEN-08: the false openers' waits the floor lifted during the hand (``clear_false_opener``
    rulings in its journal) stay lifted after a misdeal: they were judgements on the players,
    not chips of the hand."""
    cleared: set[str] = set()
    for effect in _journaled_effects(state, "clear_false_opener"):
        if "player" in effect:
            cleared.add(str(effect["player"]))
        elif (player := state.seat(int(effect["seat"])).player) is not None:
            cleared.add(player)
    if not cleared:
        return seats, away
    seats = tuple(
        evolve(s, false_opener=False) if s.false_opener and s.player in cleared else s
        for s in seats
    )
    return seats, tuple(p for p in away if p not in cleared)


# -- kill, award, stacks, button, betting, hold ----------------------------------------------


def _kill(state: TableState, seat: int, rules: HouseRules, log: Log, replay: Replay) -> TableState:
    """The seat's hand is dead (IRREG-13, DRAW-10 …): its chips stay in the pot, but for the
    part of its bet nobody called."""
    hand = _live_hand(state, "kill_hand")
    if hand.phase in (Phase.POSTING, Phase.DEAL):
        raise _refuse(words.KILL_NOT_DEALT(), seat)
    if hand.player(seat).folded:
        raise _refuse(words.ALREADY_DEAD(seat=seat), seat)
    hand = _uncalled_back(state, hand, seat, rules, log, replay)
    player = hand.player(seat)
    dead = evolve(player, folded=True, acted=True, held=0, cards=(), pending=0)
    hand = evolve(
        hand.with_player(dead),
        muck=hand.muck + player.held,
        muck_cards=hand.muck_cards + player.cards,
        come_back=tuple(s for s in hand.come_back if s != seat),
    )
    turn = _next_turn(hand, seat, rules)
    if hand.floor_wait and is_draw(hand.phase):  # IRREG-04: still waiting for the floor
        turn = exposed_draw.waiting_turn(evolve(hand, to_act=turn))
    hand = evolve(hand, to_act=turn)
    if is_draw(hand.phase) and hand.to_act is None and hand.come_back:
        hand, steps = drawing.deal_fifth_cards(hand, rules, phase_number(hand.phase))
        log.instructions.extend(say.dealing_script(steps))
    log.events.append(HandKilled(seat))
    log.instructions.append(say.instruction("kill", seat, None, words.KILL(seat=seat)))
    return store_hand(state, advance(hand, state.spec, rules, log))


def _uncalled_back(
    state: TableState, hand: HandState, seat: int, rules: HouseRules, log: Log, replay: Replay
) -> HandState:
    """IRREG-13 (WSOP 111-112; TDA 15-B "the uncalled amount will be returned"): the part of a
    killed hand's bet that nobody called goes back to it. When it is the round's only bet the
    round is as before that bet (an opener's bet in jackpots opens nothing any more); a raise
    over another bet goes back down to that bet, which stands (``_round_before``)."""
    player = hand.player(seat)
    excess = uncalled({p.seat: p.bet for p in hand.players})
    aggressor = hand.last_aggressor == seat  # a blind nobody raised is no uncalled bet
    if not is_betting(hand.phase) or not aggressor or excess is None or excess[0] != seat:
        return hand
    back = excess[1]
    log.instructions.append(say.return_bet(seat, back))
    player = evolve(player, stack=player.stack + back, bet=player.bet - back,
                    committed=player.committed - back)  # fmt: skip
    if player.bet:  # a raise over another bet: that bet stands
        return _round_before(state, hand.with_player(player), seat, rules, replay)
    opener = None if hand.opener == seat and hand.phase is Phase.BETTING_1 else hand.opener
    return evolve(
        hand.with_player(player), current_bet=0, full_bet=0, raises=0, last_raise=0,
        last_aggressor=None, opener=opener,
    )  # fmt: skip


def _round_before(
    state: TableState, hand: HandState, seat: int, rules: HouseRules, replay: Replay
) -> HandState:
    """The betting round as it was before ``seat``'s uncalled raise (rebuilt from the journal
    without it and the folds after it): the bet it raised is the round's bet again, with its
    bettor, raise count and size; seats that have not acted since are no longer reopened."""
    current = max(p.bet for p in hand.players)
    hand = evolve(hand, current_bet=current)
    earlier = _before_last_raise(state, seat, rules, replay)
    if earlier is None or earlier.phase is not hand.phase or earlier.current_bet > current:
        return hand
    players = tuple(
        evolve(p, may_raise=earlier.player(p.seat).may_raise)
        if p.seat != seat and earlier.has(p.seat) and p.bet == earlier.player(p.seat).bet
        else p
        for p in hand.players
    )
    return evolve(
        hand, players=players, full_bet=earlier.full_bet, raises=earlier.raises,
        last_raise=earlier.last_raise, last_aggressor=earlier.last_aggressor,
    )  # fmt: skip


def _before_last_raise(
    state: TableState, seat: int, rules: HouseRules, replay: Replay
) -> HandState | None:
    """The hand just before ``seat``'s last bet or raise, or None if the journal has none."""
    actions = [c for c, _ in map(journal.read, state.hand_log) if c.get("type") == "action"]
    raised = [
        i for i, c in enumerate(actions)
        if c.get("seat") == seat and c.get("action") in ("bet", "raise")
    ]  # fmt: skip
    if not raised:
        return None
    try:
        table, _ = journal.without_last_actions(state, len(actions) - raised[-1], rules, replay)
    except (RuleViolation, InvalidInput):
        return None
    return table.hand


def _next_turn(hand: HandState, killed: int, rules: HouseRules) -> int | None:
    if is_betting(hand.phase):
        if hand.to_act in (killed, None):
            return betting.next_to_act(hand, killed)
        return None if betting.round_complete(hand) else hand.to_act
    if is_draw(hand.phase):
        return drawing.next_to_draw(hand, phase_number(hand.phase))
    return showdown.next_to_show(hand, rules)  # SHOW-01 in the profile's order


def _award(state: TableState, award: Award, log: Log, rules: HouseRules) -> TableState:
    """SHOW-06/07/09: an uncalled bet goes back, then every chip in the middle goes to
    ``award.seats``, or each pot to its seats in ``award.pots`` (each eligible for it); shares
    split as at a showdown, odd chips one each from the first winner left of the button. The
    hand is complete. RAKE-01..04: the house takes its rake and jackpot drop first, as at a
    showdown."""
    hand = _live_hand(state, "award")
    if hand.phase is Phase.POSTING:
        raise _refuse(words.AWARD_NOT_DEALT())
    if award.pots:
        excess = uncalled({player.seat: player.bet for player in hand.players})
        hand = return_uncalled(hand)
        awarded = check_pots_awarded(hand, award.pots, excess)
    else:
        for seat in award.seats:
            hand.player(seat)
        hand = return_uncalled(hand)
        check_seats_awarded(hand, award.seats)
        awarded = [(Pot(hand.pot, award.seats), award.seats)]
    result = _awarded_result(hand, awarded, log, rules)
    winnings = result.winnings
    players = tuple(
        evolve(p, stack=p.stack + winnings.get(p.seat, 0), bet=0, committed=0, dead=0)
        for p in hand.players
    )
    log.events.append(HandEnded(result))
    hand = evolve(
        hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, dead=0,
        current_bet=0,
    )  # fmt: skip
    return store_hand(state, hand)


Awarded = list[tuple[Pot, tuple[int, ...]]]  # each pot and the seats the floor gives it to


def check_pots_awarded(
    hand: HandState, named: tuple[tuple[int, ...], ...], excess: tuple[int, int] | None = None
) -> Awarded:
    """SHOW-07: an award pot by pot names every pot of the hand (main pot first, as
    ``hand_pots`` builds them, after the uncalled bet ``excess`` went back) and only seats
    eligible for each pot: a seat wins only what it matched from each opponent."""
    pots = hand_pots(hand)
    if len(named) != len(pots):
        back = words.AFTER_UNCALLED(amount=excess[1], seat=excess[0]) if excess else ""
        listed = _semicolons(
            [
                words.POT_SEATS(pot=pot_said(index), amount=pot.amount, seats=_seats(pot.eligible))
                for index, pot in enumerate(pots)
            ]
        )
        raise RuleViolation(
            rule_id=RuleId.SHOW_07,
            said=words.AWARD_POT_COUNT(
                named=len(named),
                pots=len(pots),
                back=back,
                listed=listed if listed is not None else words.NO_CHIPS_IN_MIDDLE(),
            ),
            allowed=_pot_list(pots),
        )
    for index, (pot, seats) in enumerate(zip(pots, named, strict=True)):
        for seat in seats:
            if seat not in pot.eligible:
                raise _not_eligible(hand, pots, index, seat)
    return list(zip(pots, named, strict=True))


def check_seats_awarded(hand: HandState, seats: tuple[int, ...]) -> None:
    """SHOW-07: an award to ``seats`` gives them every pot, so each of them must be eligible
    for every pot of the hand (after the uncalled bet went back): a folded or killed seat
    wins nothing, and an all-in seat only what it matched; otherwise award pot by pot. A seat
    with chips behind may still match any bet, so it is eligible for every pot."""
    pots = hand_pots(hand)
    for index, pot in enumerate(pots):
        for seat in seats:
            player = hand.player(seat)
            capped = player.folded or player.all_in
            if capped and seat not in pot.eligible:
                raise _not_eligible(hand, pots, index, seat, every_pot=True)


def _not_eligible(
    hand: HandState, pots: list[Pot], index: int, seat: int, every_pot: bool = False
) -> RuleViolation:
    pot = pots[index]
    if not hand.has(seat):
        why = words.WHY_NOT_IN_HAND()
    elif hand.player(seat).folded:
        why = words.WHY_FOLDED()
    else:
        why = words.WHY_MATCHED_ONLY(committed=hand.player(seat).committed)
    name = pot_said(index)
    advice = words.AWARD_AMONG(pot=name, seats=_seats(pot.eligible))
    if every_pot:  # an award to seats gives them every pot
        everywhere = [
            s for s in pots[0].eligible
            if not hand.player(s).all_in or all(s in p.eligible for p in pots)
        ]  # fmt: skip
        each = [
            words.POT_TO_SEATS(pot=pot_said(i), amount=p.amount, seats=_seats(p.eligible))
            for i, p in enumerate(pots)
        ]
        advice = words.AWARD_EVERY_POT(
            seats=_seats(tuple(everywhere)), pots=_semicolons(each) or ""
        )
    return RuleViolation(
        rule_id=RuleId.SHOW_07,
        said=words.CANNOT_SHARE(
            seat=seat,
            pot=name,
            amount=pot.amount,
            seats=_seats(pot.eligible),
            why=why,
            advice=advice,
        ),
        seat=seat,
        allowed=_pot_list(pots),
    )


def _pot_list(pots: list[Pot]) -> list[LegalAction]:
    return [
        {"pot": pot_name(index), "amount": pot.amount, "eligible": list(pot.eligible)}
        for index, pot in enumerate(pots)
    ]


def _seats(seats: tuple[int, ...]) -> Listed:
    """Seats as the floor reads them.

    >>> Said(words.AWARD_AMONG, {"pot": pot_said(0), "seats": _seats((2, 3, 5))}).english()
    'Award the main pot to seats among 2, 3, 5.'
    """
    return Listed(seats, Join.COMMA)


def _semicolons(items: list[Said]) -> Said | None:
    """``items`` said as "a; b; c" (None for no items): the core's lists join with "and" or
    a comma only, so each "; " is a message of its own."""
    if not items:
        return None
    said = items[-1]
    for item in reversed(items[:-1]):
        said = words.SEMICOLON(first=item, rest=said)
    return said


def _awarded_result(
    hand: HandState, awarded: Awarded, log: Log, rules: HouseRules
) -> AwardedResult:
    """The hand's result, one entry per pot as a showdown writes it, marked ``by_ruling``;
    each pot split with the showdown's seat order (SHOW-06/09), after the house's take where
    the profile takes one (RAKE-01..04, with the drop instruction first)."""
    order = [player.seat for player in hand.players]
    pots = []
    winnings: dict[int, int] = {}
    takes = rake.collect(hand, [pot for pot, _ in awarded], rules)
    pushes = []
    for index, (pot, winners) in enumerate(awarded):
        take = None if takes is None else takes[index]
        net = pot.amount if take is None else pot.amount - take.rake - take.jackpot_drop
        shares = split(net, winners, order)
        for seat, chips in shares.items():
            winnings[seat] = winnings.get(seat, 0) + chips
            pushes.append(say.award(seat, chips, index))
        odd = next(iter(shares)) if net % len(winners) else None
        raked, drop = (None, None) if take is None else (take.rake, take.jackpot_drop)
        won = tuple(sorted(winners))
        pots.append(PotAward(pot.amount, pot.eligible, won, shares, odd, True, raked, drop))
    result = showdown.awarded(hand, pots, winnings, takes is not None)
    dropped = rake.drop_instruction(result)
    log.instructions.extend([dropped, *pushes] if dropped is not None else pushes)
    return result


def _adjust(state: TableState, seat: int, amount: int, rules: HouseRules, log: Log) -> TableState:
    """Chips added to (or taken from) a seat: in the hand if it plays one, else at the seat."""
    hand = state.hand
    if hand is not None and hand.phase is not Phase.COMPLETE and hand.has(seat):
        player = hand.player(seat)
        if amount > 0:  # GAME-06 table stakes: only chips on the table at the start play
            player, stack = evolve(player, added=player.added + amount), player.stack
            log.notices.append(
                Notice(
                    rule_id=RuleId.GAME_06,
                    seat=seat,
                    said=words.ADDED_CHIPS_NEXT_HAND(seat=seat, amount=amount),
                )
            )
        else:
            stack = _adjusted(player.stack, amount, seat)
            player = evolve(player, stack=stack)
        state = evolve(state, hand=hand.with_player(player))
    else:
        current = state.seat(seat)
        if current.status is SeatStatus.EMPTY:
            raise InvalidInput(said=words.NO_STACK_TO_ADJUST(seat=seat))
        stack = _adjusted(current.stack, amount, seat)
        state = state.with_seat(evolve(current, stack=stack))
    hand = state.hand
    added = None
    if amount > 0 and hand is not None and hand.phase is not Phase.COMPLETE and hand.has(seat):
        added = hand.player(seat).added  # GAME-06: beside the stack until the hand ends
    log.events.append(StackAdjusted(seat, amount, stack, added))
    if hand is not None and hand.to_act == seat and is_betting(hand.phase) and stack == 0:
        # nothing left behind: the seat is all in and no longer acts this round
        hand = evolve(hand, to_act=_next_turn(hand, seat, rules))
        state = store_hand(state, advance(hand, state.spec, rules, log))
    return state


def _adjusted(stack: int, amount: int, seat: int) -> int:
    if stack + amount < 0:
        raise InvalidInput(said=words.STACK_CANNOT_LOSE(seat=seat, stack=stack, amount=-amount))
    return stack + amount


def _move_button(state: TableState, seat: int, log: Log) -> TableState:
    """IRREG-12: the next hand's button goes to ``seat`` (between hands only)."""
    if state.hand is not None and state.hand.phase is not Phase.COMPLETE:
        raise _refuse(words.BUTTON_BETWEEN_HANDS())
    seats = blinds.eligible_seats(state)
    if seat not in seats:
        raise RuleViolation(
            rule_id=RuleId.BLIND_03,
            said=words.BUTTON_NOT_ELIGIBLE(seat=seat, seats=Listed(tuple(seats), Join.COMMA)),
            seat=seat,
            allowed=[{"effect": "move_button", "seat": s} for s in seats],
        )
    log.events.append(ButtonMoved(seat))
    return _button_next(state, seat)


def _button_next(state: TableState, seat: int) -> TableState:
    """Set the table so that the next ``start_hand`` moves the button onto ``seat``."""
    seats = blinds.eligible_seats(state)
    if seat not in seats:
        return state
    before = blinds.clockwise_after(seats, seat)[-2] if len(seats) > 1 else seat
    return evolve(state, button=before, small_blind_position=None, big_blind_position=None)


def _reopen(state: TableState, seat: int, log: Log) -> TableState:
    """DRAW-08 / BET-08: the betting round is open again for ``seat``, which acts now."""
    hand = _live_hand(state, "reopen_betting")
    if not is_betting(hand.phase):
        raise _refuse(words.REOPEN_NOT_BETTING(), seat)
    player = hand.player(seat)
    if not player.can_bet:
        raise _refuse(words.REOPEN_CANNOT_BET(seat=seat), seat)
    player = evolve(player, acted=False, may_raise=True, checked=False)
    log.events.append(BettingReopened(seat))
    return evolve(state, hand=evolve(hand.with_player(player), to_act=seat))


def _hold(state: TableState, hold: bool, log: Log) -> TableState:
    """SHOW-11: impound the pot (nothing more is entered for the hand) or release it."""
    hand = _live_hand(state, "hold_pot" if hold else "release_pot")
    if hand.pot_held is hold:
        raise _refuse(words.POT_HELD_ALREADY() if hold else words.POT_NOT_HELD())
    log.events.append(PotHeld() if hold else PotReleased())
    return evolve(state, hand=evolve(hand, pot_held=hold))


# -- OPEN-08: the floor lifts a false opener's wait -------------------------------------------


def _clear_false_opener(state: TableState, effect: ClearFalseOpener, log: Log) -> TableState:
    """OPEN-08: the floor finds the open was legal (or the mark a mistake): the seat, or the
    player by ID (seated or away), no longer waits for a legally opened pot to be won and is
    dealt in from the next hand. At any time: a seat waiting in the hand in play still has no
    cards in it."""
    seat: int | None
    if effect.seat is not None:
        current = state.seat(effect.seat)
        if not current.false_opener or current.player is None:
            raise _not_marked(state, words.SEAT_NOT_FALSE_OPENER(seat=effect.seat), effect.seat)
        seat, player = effect.seat, current.player
    else:
        player = str(effect.player)
        marked = [s for s in state.seats if s.false_opener and s.player == player]
        if not marked and player not in state.false_openers_away:
            raise _not_marked(state, words.PLAYER_NOT_FALSE_OPENER(player=player))
        seat = marked[0].seat if marked else None
    if seat is not None:
        state = state.with_seat(evolve(state.seat(seat), false_opener=False))
    away = tuple(p for p in state.false_openers_away if p != player)
    if away != state.false_openers_away:
        state = evolve(state, false_openers_away=away)
    log.events.append(FalseOpenerCleared(seat, player))
    return state


def _not_marked(state: TableState, what: Said, seat: int | None = None) -> RuleViolation:
    """OPEN-08: only a seat (or player) marked as an all-in false opener can be cleared."""
    marked = [s for s in state.seats if s.false_opener and s.player is not None]
    allowed = [LegalAction(effect="clear_false_opener", seat=s.seat) for s in marked] + [
        LegalAction(effect="clear_false_opener", player=p) for p in state.false_openers_away
    ]
    waiting = [words.WAITING_SEAT(seat=s.seat, player=str(s.player)) for s in marked] + [
        words.WAITING_AWAY(player=p) for p in state.false_openers_away
    ]
    listed = Listed(tuple(waiting), Join.COMMA)
    return RuleViolation(
        rule_id=RuleId.OPEN_08,
        said=words.NOTHING_TO_CLEAR(
            what=what,
            waiting=words.WAITING_FALSE_OPENERS(waiting=listed)
            if waiting
            else words.NOBODY_WAITS(),
        ),
        seat=seat,
        allowed=allowed,
    )


# -- IRREG-04: the hand waits for the floor --------------------------------------------------


def _take_exposed(state: TableState, seat: int, rules: HouseRules, log: Log) -> TableState:
    """IRREG-04: no replacement can be supplied; the seat takes its exposed card (back from the
    discards or the burn pile) as its replacement, and the draw goes on."""
    hand = _live_hand(state, "take_exposed")
    exposed_draw.check_take_exposed(hand, seat, rules)
    hand, card = exposed_draw.take_exposed(state, hand, seat, rules, state.spec.mode)
    log.events.append(ExposedTaken(seat, card))
    text = words.GIVE_EXPOSED_CARD(seat=seat, card=card) if card else words.GIVE_EXPOSED(seat=seat)
    log.instructions.append(say.instruction("take_exposed", seat, 1, text))
    return store_hand(state, hand)


def _after_floor_wait(state: TableState, rules: HouseRules, log: Log) -> TableState:
    """IRREG-04: once a ruling leaves the owed cards deliverable (or ends the draw or the
    hand), the hand stops waiting for the floor and the draw goes on."""
    hand = state.hand
    if hand is None or not hand.floor_wait:
        return state
    live = hand.phase is not Phase.COMPLETE and is_draw(hand.phase)
    if live and not exposed_draw.can_replace(hand, rules, phase_number(hand.phase)):
        log.notices.extend(exposed_draw.floor_notice(hand))
        return state
    log.events.append(FloorWaitOver(hand.floor_wait))
    hand, steps, fouled = exposed_draw.resume(hand, rules)
    log.instructions.extend(say.dealing_script(steps))
    log.notices.extend(drawing.fouled_notice(seat, held) for seat, held in fouled)
    if hand.phase is not Phase.COMPLETE:
        hand = advance(hand, state.spec, rules, log)
    return store_hand(state, hand)
