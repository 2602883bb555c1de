"""The engine's public interface: ``new_table``, ``apply``, ``legal_actions``, ``view`` (pure)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from dealerassist.rules.floor import boxed_card, exposed, exposed_draw, extra_card, rulings
from dealerassist.rules.hand import (
    betting,
    chop,
    dealing,
    drawing,
    hand_names,
    kills,
    openers,
    rake,
    showdown,
)
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.flow import Log, advance, store_hand
from dealerassist.rules.model import journal
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    AddChips,
    ChangeSeat,
    Command,
    CreateTable,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    StartHand,
    TableSpec,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import betting as bet_words
from dealerassist.rules.model.messages import engine as told
from dealerassist.rules.model.outcomes import (
    HAND_OVER,
    ActionTaken,
    DrawChanged,
    Event,
    HandResult,
    HandStarted,
    Instruction,
    LegalAction,
    Next,
    PassedOut,
    PassedOutResult,
    PhaseEntered,
    events_json,
)
from dealerassist.rules.model.ruling_commands import Ruling
from dealerassist.rules.model.said import Join, Listed, Param
from dealerassist.rules.model.state import (
    HandState,
    Phase,
    SeatState,
    TableState,
    evolve,
    fill,
    is_betting,
    is_draw,
    phase_number,
)
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation
from dealerassist.rules.table import blinds, moving_button, posting, seating

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one accepted command."""

    state: TableState
    events: tuple[Event, ...]
    instructions: tuple[Instruction, ...]
    notices: tuple[Notice, ...]
    result: HandResult | None

    def events_json(self) -> list[dict[str, Any]]:
        """The events as the audit chain stores them (``outcomes.events_json``)."""
        return events_json(self.events)

    def result_json(self) -> dict[str, Any] | None:
        """The hand's result as the state and the audit chain store it."""
        return None if self.result is None else self.result.to_json()


def new_table(spec: TableSpec) -> TableState:
    """A table with every seat empty and no hand.

    >>> from dealerassist.rules.model.actions import Stakes, TableSpec
    >>> from dealerassist.rules.model.house_rules import Structure, Variant
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT,
    ...                  Stakes(small_blind=1, big_blind=2), "house", max_seats=3)
    >>> table = new_table(spec)
    >>> [seat.player for seat in table.seats], table.hand
    ([None, None, None], None)
    """
    seats = tuple(SeatState(seat=seat) for seat in range(1, spec.max_seats + 1))
    return TableState(table_id=spec.table_id, spec=spec, seats=seats)


def apply(state: TableState, command: Command, rules: HouseRules, at: datetime) -> Outcome:
    """Apply one command; a refusal raises ``RuleViolation`` or ``InvalidInput``.

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules.model.actions import Act, ActionKind, SeatPlayer, StartHand, Stakes
    >>> from dealerassist.rules.model.actions import TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> from dealerassist.rules.batch import replay
    >>> stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "house")
    >>> rules, at = HouseRules(), datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> seated = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), SeatPlayer(3, "Cleo", 100)]
    >>> table = replay(new_table(spec), [*seated, StartHand(button=1)], rules, at)
    >>> outcome = apply(table, Act(2, ActionKind.POST), rules, at)
    >>> outcome.events_json()
    [{'type': 'action', 'seat': 2, 'action': 'post'}, {'type': 'posted', 'seat': 2, 'amount': 1}]
    >>> apply(outcome.state, Act(1, ActionKind.POST), rules, at)
    Traceback (most recent call last):
    ...
    dealerassist.rules.model.violations.RuleViolation: BLIND-01: Seat 3 posts first; seat 1 must wait.
    """  # noqa: E501
    log = Log()
    rulings.check_released(state, command)
    match command:  # the dealer's actions first: most commands are
        case Act():
            table, hand = _act(state, command, rules, at, log)
            if hand is not None and hand.phase is not Phase.COMPLETE:  # the hand goes on
                return _entered(table, hand, command, at, log)
            table = table if hand is None else store_hand(table, hand)
        case CreateTable(spec=spec):
            kills.check_stakes(spec, rules)
            rake.check_stakes(spec, rules)
            table = new_table(spec)
        case SeatPlayer() | RemovePlayer() | SitOut() | ReturnToPlay() | ChangeSeat() | AddChips():
            table = _seat_command(state, command, rules, log)
        case StartHand(button=button, kill_seat=kill_seat):
            table = _start(state, button, rules, log, kill_seat, at)
        case Ruling():
            table = rulings.apply_ruling(state, command, rules, at, log, apply)
    return _settled(state, table, command, rules, at, log)


def _entered(table: TableState, hand: HandState, act: Act, at: datetime, log: Log) -> Outcome:
    """An entry after which the hand goes on: the working hand is frozen into the table once,
    with the entry's journal line and instructions (what ``_settled`` gives such an entry:
    nothing settles, no result)."""
    changes: dict[str, Any] = {"hand": hand}
    if table.before_hand is not None:
        changes["hand_log"] = (*table.hand_log, journal.entry(act, at))
    instructions = tuple(log.instructions)  # the table's and the outcome's: one tuple
    if table.instructions or instructions:
        changes["instructions"] = instructions
    table = evolve(table, **changes)
    return Outcome(table, tuple(log.events), instructions, tuple(log.notices), None)


def _settled(
    state: TableState,
    table: TableState,
    command: Command,
    rules: HouseRules,
    at: datetime,
    log: Log,
) -> Outcome:
    """Every other command's table settled (KILL-02/03, OPEN-08 once the hand ends), journaled,
    and its outcome."""
    table, kill_button = kills.settle(table, rules)
    log.instructions.extend(kill_button)
    if _ended_now(state.hand, table.hand):  # OPEN-08: once, when the hand ends (its opener
        table = openers.settle_false_openers(table, rules)  # may leave after it)
    table = rulings.record(state, table, command, at)
    if table.instructions or log.instructions:
        table = evolve(table, instructions=tuple(log.instructions))
    hand = table.hand
    ended = (
        hand is not None
        and hand.phase is Phase.COMPLETE
        and any(isinstance(event, HAND_OVER) for event in log.events)
    )
    return Outcome(
        state=table,
        events=tuple(log.events),
        instructions=tuple(log.instructions),
        notices=tuple(log.notices),
        result=hand.result if ended and hand is not None else None,
    )


def _ended_now(before: HandState | None, after: HandState | None) -> bool:
    """The command ended the hand (a hand over already, e.g. ruled on afterwards, does not)."""
    if after is None or after.phase is not Phase.COMPLETE:
        return False
    return before is None or before.hand_no != after.hand_no or before.phase is not Phase.COMPLETE


def _seat_command(
    state: TableState,
    command: SeatPlayer | RemovePlayer | SitOut | ReturnToPlay | ChangeSeat | AddChips,
    rules: HouseRules,
    log: Log,
) -> TableState:
    """A between-hands seat command; KILL-05 the seat due to kill may neither sit out nor leave;
    KILL-03 the leg is neutral while its holder is away (his again if he sits down before the
    next pot is won) and moves with him when he changes seats."""
    match command:
        case SitOut(seat=seat):
            kills.check_sit_out(state, seat, rules)
        case RemovePlayer(seat=seat):
            kills.check_leave(state, seat, rules)
    table = seating.apply_command(state, command, rules, log)
    match command:
        case RemovePlayer(seat=seat):
            table = kills.after_leaving(table, seat, state.seat(seat).player)
            table = openers.after_leaving(state, table, seat)  # OPEN-08
        case SeatPlayer(seat=seat, player=player):
            table = kills.after_return(table, seat, player)
            table = openers.after_return(table, seat, player)  # OPEN-08
        case ChangeSeat(seat=seat, to=to):
            table = kills.after_seat_change(table, seat, to)
    log.instructions.extend(kills.leg_instructions(state, table, rules))
    return table


# -- hands -----------------------------------------------------------------------------------


def _start(
    state: TableState,
    button: int | None,
    rules: HouseRules,
    log: Log,
    kill_seat: int | None,
    at: datetime,
) -> TableState:
    """Start the next hand; ``kill_seat`` is the seat that kills it by choice (KILL-01)."""
    if state.hand is not None and state.hand.phase is not Phase.COMPLETE:
        raise RuleViolation(
            rule_id=RuleId.GAME_01,
            said=told.HAND_IN_PROGRESS(hand_no=state.hand.hand_no),
        )
    for named in (button, kill_seat):
        if named is not None:
            state.seat(named)
    if not state.carried_pot and state.passed_out_deals:
        state = evolve(state, passed_out_deals=0)  # OPEN-03: the run of pass-outs ended
    if openers.antes_stopped(state.carried_pot, state.passed_out_deals, rules):
        deals, carried = state.passed_out_deals, state.carried_pot
        text = told.NO_ANTES_THIS_DEAL(deals=deals, carried=carried)
        log.notices.append(Notice(rule_id=RuleId.OPEN_03, said=text))
    blinds.check_players(len(blinds.eligible_seats(state)), rules, state, most=False)
    where = blinds.positions(state, button, rules)
    state = blinds.mark_missed(state, where)
    state = blinds.track_first_orbit(state, where, rules)  # BLIND-11 (c)
    hand = blinds.new_hand(state, where, rules, kill_seat)
    due = moving_button.due_big_blind(state, where, rules)  # BLIND-03 (RRoP 2(a))
    hand = moving_button.owe_big_blind(hand, due, state.spec.stakes)
    state = blinds.settle_newcomers(state, hand)
    kills.check_volunteer(state, hand, kill_seat, rules)
    openers.check_enough_dealt(hand)  # OPEN-08: a false opener waits even then
    blinds.check_players(len(hand.players), rules, state)
    moved = where.button
    dealt = tuple(player.seat for player in hand.players)
    kill = None  # KILL-01: only in a kill pot, so other hands record as before
    if hand.kill_seat is not None:
        kill = kills.kill_record(hand, state.spec.stakes, rules)
    log.events.append(HandStarted(hand.hand_no, moved, dealt, kill))
    state, hand = rake.start_period(state, hand, rules, at)  # RAKE-05
    if hand.deck != 52:
        text = told.DECK_FOR_THIS_HAND(deck=hand.deck, players=len(hand.players))
        log.notices.append(Notice(rule_id=RuleId.GAME_05, said=text))
    log.instructions.extend(kills.start_instructions(hand, state.spec.stakes, rules))
    log.instructions.extend(posting.start_instructions(hand, state.spec.stakes))
    hand = advance(hand, state.spec, rules, log)
    state = evolve(
        state,
        button=moved,
        hand_no=hand.hand_no,
        small_blind_position=where.small_blind_position,
        big_blind_position=where.big_blind,
        carried_pot=0,
        button_stays=False,
    )
    return store_hand(state, hand)


def _phase_refusal(
    hand: HandState, act: Act, state: TableState, rules: HouseRules
) -> RuleViolation:
    legal = _legal(state, hand, rules)
    return RuleViolation(
        rule_id=RuleId.GAME_01,
        said=told.NOT_THIS_PHASE(action=told.action(act.action), phase=told.phase(hand.phase)),
        seat=act.seat,
        allowed=legal,
    )


# One dealer entry, checked and applied to the working table and hand; a hand of None means
# the table is final (a changed pat: the hand was rebuilt from its journal).
Entered = tuple[TableState, HandState | None]
Entry = Callable[[TableState, HandState, Act, HouseRules, datetime, Log], Entered]


def _act(state: TableState, act: Act, rules: HouseRules, at: datetime, log: Log) -> Entered:
    """A dealer entry, dispatched by the hand's phase and the action (``_ENTRIES``)."""
    hand = state.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        raise RuleViolation(
            rule_id=RuleId.GAME_01,
            said=told.NO_HAND_IN_PROGRESS(),
            seat=act.seat,
        )
    if hand.waiting and act.action is not ActionKind.POST:  # check_post names a post's wait
        waits = hand  # OPEN-08: a false opener sitting out makes no entry
        _checked(state, hand, rules, lambda: openers.check_not_waiting(waits, act.seat))
    if act.action is ActionKind.DRAW and drawing.changeable_draw(state) == act.seat:
        return _change_pat(state, act, rules, at, log), None  # DRAW-07: until the next entry
    entry = _ENTRIES.get((hand.phase, act.action), _refused)
    state, entered = entry(state, hand, act, rules, at, log)
    if entered is None:
        return state, None
    log.events.insert(0, ActionTaken(act))
    return _after_entry(state, entered, rules, at, log)


def _after_entry(
    state: TableState, hand: HandState, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    """The hand moved on past every step that needs no entry; OPEN-05's reminder; OPEN-03 a
    passed-out deal's antes carried on the table."""
    hand = advance(hand, state.spec, rules, log)
    hand = _set_draw_deadline(hand, rules, at)
    reminder = openers.proof_reminder(hand, rules)
    if reminder:  # OPEN-05: shown before the pot is pushed
        pushes = [i for i, step in enumerate(log.instructions) if step["code"] in _PUSHES]
        at_push = pushes[0] if pushes else len(log.instructions)
        log.instructions[at_push:at_push] = reminder
    if isinstance(hand.result, PassedOutResult):
        state = evolve(
            state,
            carried_pot=hand.result.carried,
            button_stays=True,
            # counted only where the house limits the antes, so other tables store as before
            passed_out_deals=state.passed_out_deals + bool(rules.open.max_consecutive_antes),
        )
    return state, hand


def _refused(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    raise _phase_refusal(hand, act, state, rules)


def _post(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    return posting.apply_act(state, hand, act, log, rules.blinds.big_blind_first)


def _initial_deal(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    dealing.check_initial_deal(hand, act)
    return state, dealing.apply_initial_deal(hand, act.seat, act.cards or ())


def _betting(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    return state, _bet(hand, act, state.spec, rules, log)


def _drawing(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    openers.check_split(hand, act, rules)
    hand = _draw(openers.apply_split(hand, act), act, state.spec, rules, at, log)
    if act.option == openers.SPLIT:
        log.instructions.append(openers.split_instruction(act.seat))
    return state, hand


def _pat_after_draw(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    """DRAW-07: a draw outside the draw changes the last drawer's pat, or is refused."""
    if drawing.can_change_pat(state, act.seat):
        return _change_pat(state, act, rules, at, log), None
    raise _phase_refusal(hand, act, state, rules)


def _show(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    spec = state.spec
    cards = showdown.check_show(hand, act, spec.mode, rules)
    hand = showdown.apply_show(hand, act.seat, cards, rules)
    log.notices.extend(showdown.pair_notice(hand, act.seat, spec.variant))
    log.notices.extend(showdown.number_notice(hand, act.seat, spec.variant))
    hand, proof = openers.prove(hand, act.seat, rules)
    log.notices.extend(proof)
    state, sits_out = openers.mark_false_opener(state, hand, act.seat, proof)  # OPEN-08
    log.notices.extend(sits_out)
    return state, hand


def _muck(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> Entered:
    showdown.check_muck(hand, act.seat, rules)
    return state, showdown.apply_muck(hand, act.seat, rules)


def _irregularity(
    handle: Callable[[TableState, HandState, Act, HouseRules, Log], HandState],
) -> Entry:
    """An entry allowed in every phase (IRREG-03/04/06, DECK-06, SHOW-08): its own checks."""

    def entry(
        state: TableState, hand: HandState, act: Act, rules: HouseRules, at: datetime, log: Log
    ) -> Entered:
        return state, handle(state, hand, act, rules, log)

    return entry


def _chop(state: TableState, hand: HandState, act: Act, rules: HouseRules, log: Log) -> HandState:
    """SHOW-08: the blinds chop (both agreed; entered for the small blind): each takes back its
    blind and the hand ends; refused with SHOW-08, KILL-06 (the kill in a blind) or BET-08
    (not the small blind's turn), naming what the seat to act may do instead."""
    refusal = chop.chop_refusal(hand, act.seat, rules)
    if refusal is not None:
        rule, why = refusal
        allowed = _legal(state, hand, rules)
        split: Param = told.NO_SPLIT_BY_AGREEMENT() if rule is RuleId.SHOW_08 else ""
        instead: Param = ""
        if hand.to_act is not None and allowed:
            instead = told.CHOP_INSTEAD(seat=hand.to_act, options=_options_text(allowed))
        text = told.NO_CHOP(why=why, split=split, instead=instead)
        raise RuleViolation(rule_id=rule, said=text, seat=act.seat, allowed=allowed)
    hand, ended, instruction = chop.apply_chop(hand)
    log.events.append(ended)
    log.instructions.append(instruction)
    return hand


def _options_text(allowed: list[LegalAction]) -> Param:
    """The legal actions in words: ``call 5, raise to 20 or fold``.

    >>> _options_text([{"action": "call", "amount": 5}, {"action": "raise", "min": 20,
    ...     "max": 20}, {"action": "fold"}]).english()
    'call 5, raise to 20 or fold'
    """
    words: list[Param] = []
    for option in allowed:
        name = str(option["action"])
        word = told.action(name)
        if "amount" in option:
            word = bet_words.MAY_AMOUNT(action=word, amount=_said_number(option["amount"]))
        elif name in ("bet", "raise") and "min" in option:
            low, high = _said_number(option["min"]), _said_number(option["max"])
            if low == high:
                word = bet_words.MAY_TO(action=word, low=low)
            else:
                word = bet_words.MAY_RANGE(action=word, low=low, high=high)
        words.append(word)
    if len(words) == 1:
        return words[0]
    return told.OPTIONS_OR(others=Listed(tuple(words[:-1]), Join.COMMA), last=words[-1])


def _said_number(value: object) -> Param:
    """A legal action's amount as a message parameter (an int; anything else as written)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _change_pat(
    state: TableState, act: Act, rules: HouseRules, at: datetime, log: Log
) -> TableState:
    """DRAW-07: the last drawer's pat, or in count mode the draw that is the hand's last entry,
    is taken back (the hand rebuilt from its journal without it) and the new request applied,
    as if the first request had never been entered."""
    rebuilt, dropped = journal.without_last_actions(state, 1, rules, apply)
    outcome = apply(rebuilt, act, rules, at)
    log.events.append(DrawChanged(act.seat, dropped))
    log.events.extend(outcome.events)
    log.instructions.extend(outcome.instructions)
    log.notices.extend(outcome.notices)
    # the outer apply journals this entry; drop the inner apply's record of it
    return evolve(outcome.state, hand_log=outcome.state.hand_log[:-1])


def _exposed(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, log: Log
) -> HandState:
    """IRREG-03: a card the dealer exposed on the initial deal, kept or replaced by the house
    rule (card mode: the hand goes back to the deal for the replacement); IRREG-01 on a second.
    Once the draw has begun, IRREG-04 (``_exposed_draw``)."""
    if exposed_draw.after_the_deal(hand):
        return _exposed_draw(state, hand, act, rules, log)
    card = _checked(
        state, hand, rules, lambda: exposed.check_exposed(hand, act, rules, state.spec.mode)
    )
    after, event, instructions, notices = exposed.apply_exposed(
        hand, act.seat, card, rules, state.spec.mode
    )
    _log_irregularity(log, hand, after, event, instructions, notices)
    return after


def _extra_card(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, log: Log
) -> HandState:
    """IRREG-06: an extra card dealt on the initial deal goes to the burn pile and is the burn;
    IRREG-01 on a second."""
    card = _checked(
        state, hand, rules, lambda: extra_card.check_extra_card(hand, act, state.spec.mode)
    )
    after, event, instructions, notices = extra_card.apply_extra_card(hand, act.seat, card, rules)
    _log_irregularity(log, hand, after, event, instructions, notices)
    return after


def _boxed_card(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, log: Log
) -> HandState:
    """DECK-06: a card found face up in the stub is a blank: it leaves the stub for the burn
    pile (a reshuffle takes it); a second one voids the hand (the floor's misdeal)."""
    card = _checked(
        state, hand, rules, lambda: boxed_card.check_boxed_card(hand, act, state.spec.mode)
    )
    after, event, instructions, notices = boxed_card.apply_boxed_card(hand, act.seat, card)
    _log_irregularity(log, hand, after, event, instructions, notices)
    return after


def _exposed_draw(
    state: TableState, hand: HandState, act: Act, rules: HouseRules, log: Log
) -> HandState:
    """IRREG-04: a card the dealer exposed on the draw is not taken; the seat's replacement
    comes after every other seat (back in the draw if it was over)."""
    card = _checked(
        state,
        hand,
        rules,
        lambda: exposed_draw.check_exposed_draw(state, hand, act, state.spec.mode, rules),
    )
    after, event, instructions, steps = exposed_draw.apply_exposed_draw(
        hand, act.seat, card, rules, state.spec.mode
    )
    notices = exposed_draw.floor_notice(after)
    _log_irregularity(log, hand, after, event, [*instructions, *say.dealing_script(steps)], notices)
    if not after.floor_wait:
        _next_in_draw(after, log)
    return after


def _checked(state: TableState, hand: HandState, rules: HouseRules, check: Callable[[], _T]) -> _T:
    """An irregularity entry's check; a refusal that names no allowed entry gets the legal
    actions of the seat to act, as every other refusal does."""
    try:
        return check()
    except RuleViolation as refusal:
        refusal.allowed = refusal.allowed or _legal(state, hand, rules)
        raise


def _log_irregularity(
    log: Log,
    before: HandState,
    after: HandState,
    event: Event,
    instructions: list[Instruction],
    notices: list[Notice],
) -> None:
    """An irregularity's event (and the phase it moved the hand to), instructions, notices."""
    log.events.append(event)
    if after.phase is not before.phase:
        log.events.append(PhaseEntered(after.phase))
    log.instructions.extend(instructions)
    log.notices.extend(notices)


def _next_in_draw(hand: HandState, log: Log) -> None:
    """The dealer's next step in a draw: ask the next seat, or deal what a seat is owed."""
    seat = hand.to_act
    if seat is not None and not hand.player(seat).pending:
        log.instructions.append(say.ask_draw(seat))
    elif seat is not None and seat in hand.exposed_owed:  # IRREG-04
        log.instructions.append(say.deal_replacement(seat, hand.player(seat).pending))
    elif seat in hand.come_back:
        log.instructions.append(say.deal_fifth(seat))


def _bet(hand: HandState, act: Act, spec: TableSpec, rules: HouseRules, log: Log) -> HandState:
    """A betting action; BLIND-04 full-blind call, OPEN-02 openers, OPEN-03 a passed-out deal,
    OPEN-08 the seat all in for the antes asked whether it opens."""
    kill_blind = kills.kill_blind(spec.stakes, rules) if rules.blinds.short_kill_full_call else None
    posting.check_full_blind_call(hand, act, spec.stakes, kill_blind)
    openers.check_open(hand, act, rules, spec.mode)
    raise_to = betting.check_bet_action(hand, act, spec, rules)
    after = betting.apply_bet_action(hand, act, raise_to, spec, rules)
    log.notices.extend(openers.opened_notice(hand, after))
    log.notices.extend(openers.ask_all_in(after, spec, rules))  # OPEN-08: its turn now
    if openers.passed_out(after, rules):
        after = openers.pass_out(after)
        passed = after.result if isinstance(after.result, PassedOutResult) else None
        log.instructions.append(say.passed_out(passed))
        log.events.append(PassedOut(passed))
    return after


# the entries of each phase (kept here: a tuple display of enum members costs a lookup each)
_POSTING = (ActionKind.POST, ActionKind.SIT_OUT)
_PUSHES = ("award",)  # the instructions that push a pot to its winner
_BETTING = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.FOLD)
_DRAWING = (ActionKind.DRAW, ActionKind.DEAL, ActionKind.TIME)


def _entries() -> dict[tuple[Phase, ActionKind], Entry]:
    """Which handler takes each (phase, action); a pair not listed is refused (GAME-01)."""
    entries: dict[tuple[Phase, ActionKind], Entry] = {}
    anywhere = {
        ActionKind.EXPOSED: _irregularity(_exposed),
        ActionKind.EXTRA_CARD: _irregularity(_extra_card),
        ActionKind.BOXED_CARD: _irregularity(_boxed_card),
        ActionKind.CHOP: _irregularity(_chop),
    }
    for phase in Phase:
        entries |= {(phase, action): entry for action, entry in anywhere.items()}
        if is_betting(phase):
            entries |= {(phase, action): _betting for action in _BETTING}
        entries[phase, ActionKind.DRAW] = _drawing if is_draw(phase) else _pat_after_draw
        if is_draw(phase):
            entries |= {(phase, action): _drawing for action in _DRAWING}
    entries |= {(Phase.POSTING, action): _post for action in _POSTING}
    entries[Phase.DEAL, ActionKind.DEAL] = _initial_deal
    entries[Phase.SHOWDOWN, ActionKind.SHOW] = _show
    entries[Phase.SHOWDOWN, ActionKind.MUCK] = _muck
    return entries


_ENTRIES = _entries()


def _draw(
    hand: HandState, act: Act, spec: TableSpec, rules: HouseRules, at: datetime, log: Log
) -> HandState:
    draw_round, entered = phase_number(hand.phase), hand
    if act.action is ActionKind.DEAL:
        from_pool = drawing.check_replacements(hand, act, rules, draw_round)
        cards = act.cards or ()
        hand, steps = drawing.receive_dealt(hand, act.seat, cards, rules, draw_round, from_pool)
    elif act.action is ActionKind.TIME:
        _check_time(hand, act, rules, at)
        player = hand.player(act.seat)
        hand = hand.with_player(evolve(player, drawn=(*player.drawn, 0), timed_out=True))
        text = told.PAT_AFTER_TIME(seat=act.seat)
        log.notices.append(Notice(rule_id=RuleId.DRAW_11, said=text, seat=act.seat))
        steps = ()
    else:
        if len(hand.player(act.seat).drawn) >= draw_round if hand.has(act.seat) else False:
            drawing.check_change(hand, act.seat, draw_round)
            hand = drawing.undo_draw(hand, act.seat)
        count = drawing.check_draw(hand, act, rules, spec.mode, draw_round)
        hand, steps = drawing.apply_draw(hand, act, count, rules, spec.mode, draw_round)
        if hand.player(act.seat).timed_out:  # DRAW-11: the timer's limit held one betting round
            hand = hand.with_player(evolve(hand.player(act.seat), timed_out=False))
    to_act = drawing.next_in_draw(hand, rules, draw_round)  # in the entry's own copy, if made
    hand = evolve(hand, to_act=to_act) if hand is entered else fill(hand, to_act=to_act)
    if hand.to_act is None:
        hand, fifth, fouled = drawing.finish_draw(hand, rules, draw_round)
        steps = (*steps, *fifth)
        log.notices.extend(drawing.fouled_notice(seat, held) for seat, held in fouled)
    log.instructions.extend(say.dealing_script(steps))
    _next_in_draw(hand, log)
    return hand


def _check_time(hand: HandState, act: Act, rules: HouseRules, at: datetime) -> None:
    """DRAW-11: ``time`` declares the seat pat only after its draw deadline has passed."""
    deadline = hand.draw_deadline
    too_early = deadline is None or at < datetime.fromisoformat(deadline)
    if act.seat == hand.to_act and _declared(hand, act.seat, rules):
        raise RuleViolation(
            rule_id=RuleId.DRAW_11,
            said=told.DRAW_DECLARED(seat=act.seat),
            seat=act.seat,
            allowed=drawing.legal_now(hand, rules, phase_number(hand.phase)),
        )
    if act.seat != hand.to_act or rules.draw.timeout_seconds <= 0 or too_early:
        raise RuleViolation(
            rule_id=RuleId.DRAW_11,
            said=told.DRAW_TIME_LEFT(seat=act.seat),
            seat=act.seat,
            allowed=drawing.draw_legal(
                hand, hand.to_act or act.seat, rules, phase_number(hand.phase)
            ),
        )


def _declared(hand: HandState, seat: int, rules: HouseRules) -> bool:
    """DRAW-11 with ``timer_stops_at_declaration``: the seat has declared its draw and waits
    only for the dealer's cards (or a fifth card), so no timer runs on it."""
    if not rules.draw.timer_stops_at_declaration or not hand.has(seat):
        return False
    player = hand.player(seat)
    return bool(player.pending) or seat in hand.come_back


def _set_draw_deadline(hand: HandState, rules: HouseRules, at: datetime) -> HandState:
    """DRAW-11: the seat to draw has ``timeout_seconds`` from the previous entry."""
    if rules.draw.timeout_seconds <= 0 or not is_draw(hand.phase) or hand.to_act is None:
        return evolve(hand, draw_deadline=None) if hand.draw_deadline else hand
    deadline = at + timedelta(seconds=rules.draw.timeout_seconds)
    return evolve(hand, draw_deadline=deadline.isoformat())


# -- queries ---------------------------------------------------------------------------------


def _legal(state: TableState, hand: HandState, rules: HouseRules) -> list[LegalAction]:
    seat = hand.to_act
    if seat is None:
        return []
    phase = hand.phase
    if phase is Phase.POSTING:
        return posting.posting_legal(hand, state.spec.stakes)
    if phase is Phase.DEAL:
        return [{"action": "deal", "count": dealing.to_deal(hand, seat)}]
    if is_betting(phase):
        legal = betting.options(hand, seat, state.spec, rules).legal()
        if rules.blinds.chop and chop.can_chop(hand, seat, rules):  # SHOW-08
            legal.append(chop.chop_legal(hand))
        return legal
    if is_draw(phase):
        return drawing.draw_legal(hand, seat, rules, phase_number(phase))
    return showdown.showdown_legal(hand)


def legal_actions(state: TableState, rules: HouseRules, at: datetime) -> Next | None:
    """The seat to act and its legal actions with amounts, or None when nobody is to act; while
    the hand waits for the floor (IRREG-04) no legal action and the rule in ``floor``.

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules.model.actions import Act, ActionKind, SeatPlayer, StartHand, Stakes
    >>> from dealerassist.rules.model.actions import TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> from dealerassist.rules.batch import replay
    >>> stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "house")
    >>> rules, at = HouseRules(), datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> seated = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), SeatPlayer(3, "Cleo", 100)]
    >>> table = replay(new_table(spec), [*seated, StartHand(button=1)], rules, at)
    >>> table = replay(table, [Act(2, ActionKind.POST), Act(3, ActionKind.POST)], rules, at)
    >>> legal_actions(table, rules, at)  # doctest: +NORMALIZE_WHITESPACE
    {'seat': 1, 'phase': 'betting_1', 'legal': [{'action': 'call', 'amount': 2},
     {'action': 'raise', 'min': 4, 'max': 4}, {'action': 'fold'}]}
    """
    hand = state.hand
    if hand is None or hand.to_act is None or hand.phase is Phase.COMPLETE:
        return None
    if hand.floor_wait or hand.pot_held:  # IRREG-04, SHOW-11: no entry until the floor rules
        return {
            "seat": hand.to_act,
            "phase": hand.phase.value,
            "legal": [],
            "floor": hand.floor_wait or RuleId.SHOW_11.value,
        }
    legal = _legal(state, hand, rules)
    if (
        is_draw(hand.phase)
        and hand.draw_deadline
        and at >= datetime.fromisoformat(hand.draw_deadline)
        and not _declared(hand, hand.to_act, rules)
    ):
        legal = [*legal, {"action": "time"}]
    return {"seat": hand.to_act, "phase": hand.phase.value, "legal": legal}


def view(state: TableState, rules: HouseRules, at: datetime) -> dict[str, Any]:
    """The public JSON of a table (what GET /v1/tables/{id} answers); never a hole card.

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules.model.actions import Act, ActionKind, SeatPlayer, StartHand, Stakes
    >>> from dealerassist.rules.model.actions import TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> from dealerassist.rules.batch import replay
    >>> stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "house")
    >>> rules, at = HouseRules(), datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> seated = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), SeatPlayer(3, "Cleo", 100)]
    >>> table = replay(new_table(spec), [*seated, StartHand(button=1)], rules, at)
    >>> shown = view(table, rules, at)
    >>> shown["table_id"], shown["hand"]["hand_no"], shown["next"]["seat"]
    ('T1', 1, 2)
    """
    spec = state.spec
    hand = state.hand
    return {
        "table_id": state.table_id,
        "version": state.version,
        "variant": spec.variant.value,
        "structure": spec.structure.value,
        "profile": spec.profile_id,
        "mode": spec.mode.value,
        "stakes": spec.stakes.to_dict(),
        "max_seats": spec.max_seats,
        "button": state.button,
        "seats": _seats_view(state),
        "hand": None if hand is None else _hand_view(hand),
        "next": legal_actions(state, rules, at),
        "instructions": list(state.instructions),
        "carried_pot": state.carried_pot,
        "next_hand": seating.next_hand_preview(state, rules),
        "kill_leg": _kill_leg_view(state),
        "pat_change": drawing.pat_change_legal(state, rules),  # DRAW-07, for a seat not to act
        "exposed": exposed.exposed_legal(hand, rules),  # IRREG-03, for any seat dealt in
        "exposed_draw": exposed_draw.exposed_draw_legal(hand, rules),  # IRREG-04, last dealt
        "extra_card": extra_card.extra_card_legal(hand),  # IRREG-06, for any seat dealt in
        "boxed_card": boxed_card.boxed_card_legal(hand),  # DECK-06, while the stub is dealt
        "result": None if hand is None or hand.result is None else hand.result.to_json(),
        "shown_as": hand_names.shown_names(state, rules),  # the shown hands in words
    }


def _kill_leg_view(state: TableState) -> dict[str, Any] | None:
    """KILL-02/03: who has a leg up, and whether that seat kills the next hand."""
    if state.kill_leg is None:
        return None
    return {"seat": state.kill_leg, "legs": state.kill_legs, "kills_next": state.kill_legs >= 2}


def _seats_view(state: TableState) -> list[dict[str, Any]]:
    """Every seat; a seat in the hand in play shows its chips behind, not its stack at the
    start of the hand."""
    hand = state.hand
    live = hand is not None and hand.phase is not Phase.COMPLETE
    behind = {p.seat: p.stack for p in hand.players} if live and hand is not None else {}
    return [
        {
            "seat": seat.seat,
            "player": seat.player,
            "stack": behind.get(seat.seat, seat.stack) if seat.player else seat.stack,
            "status": seat.status.value,
            "missed_blind": seat.missed_blind,
            "new_player": seat.new_player,
            "waiting": seat.waiting,
            **({"false_opener": True} if seat.false_opener else {}),  # OPEN-08: sits out
        }
        for seat in state.seats
    ]


def _hand_view(hand: HandState) -> dict[str, Any]:
    bets = {str(p.seat): p.bet for p in hand.players if p.bet}
    total_pot = hand.pot
    return {
        "hand_no": hand.hand_no,
        "phase": hand.phase.value,
        "button": hand.button,
        "small_blind_seat": hand.small_blind_seat,
        "big_blind_seat": hand.big_blind_seat,
        "pot": total_pot - sum(bets.values()),
        "total_pot": total_pot,
        "bets": bets,
        "to_act": hand.to_act,
        "current_bet": hand.current_bet,
        "draws": draw_counts(hand),
        "stub": hand.stub,
        "deck": hand.deck,
        "burns": hand.burns,
        "players": [_player_view(p) for p in hand.players],
        "draw_deadline": hand.draw_deadline,
        "pot_held": hand.pot_held,  # rulings: the floor holds the pot (SHOW-11)
        "waiting": {str(seat): rule for seat, rule in hand.waiting},
        "straddle_seat": hand.straddle_seat,
        "kill_seat": hand.kill_seat,  # KILL-01..06: the seat that killed this hand
    }


def draw_counts(hand: HandState) -> dict[str, int]:
    """DRAW-09: how many each seat drew in the last draw, shown until the first action after it.

    >>> from datetime import UTC, datetime
    >>> from dealerassist.rules.model.actions import Act, ActionKind, SeatPlayer, StartHand, Stakes
    >>> from dealerassist.rules.model.actions import TableSpec
    >>> from dealerassist.rules.model.house_rules import HouseRules, Structure, Variant
    >>> from dealerassist.rules.batch import replay
    >>> stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    >>> spec = TableSpec("T1", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, stakes, "house")
    >>> rules, at = HouseRules(), datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> seated = [SeatPlayer(1, "Ada", 100), SeatPlayer(2, "Ben", 100), SeatPlayer(3, "Cleo", 100)]
    >>> table = replay(new_table(spec), [*seated, StartHand(button=1)], rules, at)
    >>> entries = [Act(2, ActionKind.POST), Act(3, ActionKind.POST), Act(1, ActionKind.CALL),
    ...            Act(2, ActionKind.CALL), Act(3, ActionKind.CHECK),
    ...            Act(2, ActionKind.DRAW, count=3)]
    >>> draw_counts(replay(table, entries, rules, at).hand)
    {'2': 3}
    """
    last_draw = phase_number(hand.phase) - 1 if is_betting(hand.phase) else phase_number(hand.phase)
    acted = is_betting(hand.phase) and any(p.acted for p in hand.players)
    if last_draw < 1 or acted or hand.phase is Phase.COMPLETE:
        return {}
    return {str(p.seat): p.drawn[last_draw - 1] for p in hand.live() if len(p.drawn) >= last_draw}


def _player_view(player: Any) -> dict[str, Any]:
    return {
        "seat": player.seat,
        "stack": player.stack,
        "added": player.added,  # GAME-06: the floor's chips, behind from the next hand
        "bet": player.bet,
        "committed": player.committed,
        "owes": player.owes,
        "owes_what": [str(part) for part in player.owes_what],
        "folded": player.folded,
        "all_in": player.all_in,
        "held": player.held,
        "shown": None if player.shown is None else " ".join(player.shown),
        "mucked": player.mucked,
    }
