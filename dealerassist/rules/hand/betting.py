"""Betting rounds: who acts, what a seat may do, and applying it (BET-01..08, GAME-06, OPEN-01,
OPEN-08)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealerassist.rules.hand import kills
from dealerassist.rules.model.actions import Act, ActionKind, TableSpec
from dealerassist.rules.model.house_rules import (
    HeadsUp,
    HouseRules,
    OpenRequirement,
    PostDrawFirst,
    ShortAllInRule,
    Structure,
)
from dealerassist.rules.model.messages import betting as say
from dealerassist.rules.model.outcomes import LegalAction
from dealerassist.rules.model.said import Join, Listed, Message, Param, Said
from dealerassist.rules.model.state import (
    HandState,
    Phase,
    PlayerState,
    betting_phase,
    evolve,
    fill,
    phase_number,
)
from dealerassist.rules.model.variants import limit_bet_size, minimum_bet
from dealerassist.rules.model.violations import RuleId, RuleViolation


@dataclass(frozen=True, slots=True)
class Options:
    """What one seat may do now in a betting round."""

    seat: int
    to_call: int  # chips the seat puts in to call (its whole stack if it is short)
    raise_min: int | None  # total bet after the smallest legal bet/raise
    raise_max: int | None  # total bet after the largest
    word: str  # "bet" when nobody has bet this round, else "raise"
    blocked: tuple[RuleId, Said] | None  # why the seat may not bet or raise, if it has chips to
    limp_refused: bool  # BET-01: calling the big blind is not allowed

    def legal(self) -> list[LegalAction]:
        """The legal actions as JSON, in the order a tablet shows them."""
        actions: list[LegalAction] = []
        if self.to_call == 0:
            actions.append({"action": "check"})
        elif not self.limp_refused:
            actions.append({"action": "call", "amount": self.to_call})
        if self.raise_min is not None:
            actions.append({"action": self.word, "min": self.raise_min, "max": self.raise_max})
        actions.append({"action": "fold"})
        return actions


def is_blind_game(hand: HandState) -> bool:
    return hand.big_blind_seat is not None or hand.small_blind_seat is not None


def jackpots(hand: HandState, rules: HouseRules) -> bool:
    """An ante game played with an opening requirement (OPEN-02)."""
    return rules.open.requirement is OpenRequirement.JACKS_OR_BETTER and not is_blind_game(hand)


def needs_action(hand: HandState, player: PlayerState) -> bool:
    if player.may_open and not player.folded:  # OPEN-08: asked whether it opens
        return True
    return player.can_bet and (not player.acted or player.bet < hand.current_bet)


def round_complete(hand: HandState) -> bool:
    """Every seat that can bet has acted and matched the top bet, or no one is left to bet;
    OPEN-08: a seat all in for the antes has been asked whether it opens."""
    players = hand.players  # plain loops, no generators: after every bet
    # only the first round asks (``_start_first_round``), and it ends with every mark cleared
    if hand.phase is Phase.BETTING_1:
        for p in players:
            if p.may_open and not p.folded:
                return False
    current = hand.current_bet
    bettors, short, unacted = 0, False, False  # seats that ``can_bet`` (inline), and how
    for p in players:
        if not p.folded and p.stack > 0:
            bettors += 1
            short = short or p.bet < current
            unacted = unacted or not p.acted
    if bettors <= 1 and not short:
        return True
    return not (short or unacted)  # ``needs_action`` of none


def start_round(
    hand: HandState, betting_round: int, spec: TableSpec, rules: HouseRules
) -> HandState:
    """Betting round ``betting_round`` begins (its phase): OPEN-01 the round reset and the first
    seat to act named; BET-03 whether it is capped."""
    capped = not (rules.betting.uncapped_heads_up and _heads_up(hand, rules))
    if betting_round == 1:
        changes = _start_first_round(hand, spec, rules)
    else:
        players = tuple(_fresh(p, bet=0) for p in hand.players)
        changes = {"players": players, "current_bet": 0, "full_bet": 0, "raises": 0}
        changes["last_raise"] = 0
    if hand.acted_seats or hand.short_all_ins:  # pokerkit's round state starts afresh
        changes |= {"acted_seats": (), "short_all_ins": ()}
    phase = betting_phase(betting_round)  # the round, in one copy
    hand = evolve(hand, phase=phase, capped=capped, last_aggressor=None, **changes)
    order = first_order(hand, betting_round, rules)
    return fill(hand, to_act=_first_needing(hand, order))


def _heads_up(hand: HandState, rules: HouseRules) -> bool:
    """BET-03: the pot is heads-up for ``uncapped_heads_up``: two hands not folded (a hand all
    in counted: profile versions before ``heads_up``), or two players who are not all in
    (WSOP 130/131, RRoP)."""
    if rules.betting.heads_up is HeadsUp.ROUND_STARTS_TWO_LIVE:
        return sum(1 for _ in hand.live()) == 2
    return sum(1 for p in hand.players if p.can_bet) <= 2


def _fresh(player: PlayerState, bet: int) -> PlayerState:
    """The seat at the start of a round: its bet, no action yet, the betting open to it (the
    same value, not a copy, when it already is: a folded hand, or one all in)."""
    if player.bet == bet and not player.acted and player.may_raise and not player.checked:
        return player
    return evolve(player, bet=bet, acted=False, may_raise=True, checked=False)


def _start_first_round(hand: HandState, spec: TableSpec, rules: HouseRules) -> dict[str, Any]:
    """The first round's fields: the blinds' bet to call, its raise size and count."""
    stakes = spec.stakes
    players = tuple(_fresh(p, bet=p.bet) for p in hand.players)
    blind = stakes.big_blind if hand.big_blind_seat is not None else 0
    current = max([blind, *(p.bet for p in players)])
    if hand.kill_seat is not None and rules.blinds.short_kill_full_call:
        current = max(current, kills.kill_blind(stakes, rules))  # BLIND-04: the kill is a blind
    counts = 1 if blind and rules.betting.blind_counts_as_bet else 0
    straddled = hand.straddle_seat is not None
    if straddled and rules.blinds.straddle_in_cap:  # BLIND-14: a straddle is a raise
        counts += 1  # WSOP 130: "a straddle does not count as a bet" (straddle_in_cap = false)
    size = blind
    if straddled and rules.blinds.straddle_min_raise_doubles:  # WSOP 22, 165
        size = current if spec.structure is not Structure.FIXED_LIMIT else blind
    if rules.betting.short_all_in is ShortAllInRule.POKERKIT:
        size = 0  # pokerkit: the blinds are no bet or raise of the round
    if jackpots(hand, rules):  # OPEN-08: a seat all in for the antes may still open
        players = tuple(evolve(p, may_open=True) if p.all_in else p for p in players)
    return {
        "players": players,
        "current_bet": current,
        "full_bet": current,
        "raises": counts,
        "last_raise": size,
    }


def first_order(hand: HandState, betting_round: int, rules: HouseRules) -> list[int]:
    """OPEN-01: who acts first in a betting round.

    Blinds: left of the big blind first, later rounds left of the button. Antes: left of the
    button, and after the draw the opener (or the next seat after him) when the profile says so.
    KILL-04: in a kill pot the first round starts left of the kill, who acts last. BLIND-02: in a
    hand dealt to two whose small blind is not the button (e.g. the big blind moved onto the
    button at the post, BLIND-07), the small blind acts last after the draw, as a heads-up button.
    """
    order = [p.seat for p in hand.players]
    if betting_round == 1 and is_blind_game(hand):
        anchor = (
            hand.straddle_seat
            or (hand.kill_seat if kills.acts_last(rules) else None)  # KILL-04
            or hand.big_blind_seat
            or hand.small_blind_seat
            or hand.button
        )
        return hand.seats_from(anchor)
    small = small_blind_off_button(hand)
    if betting_round > 1 and small is not None:
        return hand.seats_from(small)
    opener_first = rules.betting.post_draw_first is PostDrawFirst.OPENER
    if betting_round > 1 and opener_first and not is_blind_game(hand) and hand.opener is not None:
        index = order.index(hand.opener)
        return order[index:] + order[:index]
    return order


def small_blind_off_button(hand: HandState) -> int | None:
    """BLIND-02: the small blind of a hand dealt to two when it is not on the button (e.g. the
    big blind moved onto the button at the post, BLIND-07): it plays the button's part, acting
    last after the draw and drawing last (``drawing.draw_order``); None otherwise."""
    small = hand.small_blind_seat
    if len(hand.players) != 2 or small is None or small == hand.button or not hand.has(small):
        return None
    return small


def _first_needing(hand: HandState, order: list[int]) -> int | None:
    if round_complete(hand):
        return None
    by_seat = {player.seat: player for player in hand.players}
    current = hand.current_bet
    for seat in order:  # ``needs_action``, inline
        player = by_seat[seat]
        if player.folded:
            continue
        if player.may_open or (player.stack > 0 and (not player.acted or player.bet < current)):
            return seat
    return None


def next_to_act(hand: HandState, after: int) -> int | None:
    """The next seat clockwise after ``after`` that must act, or None when the round is over."""
    return _first_needing(hand, hand.seats_from(after))


def options(hand: HandState, seat: int, spec: TableSpec, rules: HouseRules) -> Options:
    """Call amount, bet/raise range and what blocks a raise, for the seat to act (GAME-06)."""
    player = hand.player(seat)
    if player.may_open and not player.folded:
        size = opening_bet(hand, spec, rules)
        return Options(seat, 0, size, size, "bet", None, limp_refused=False)
    owed = max(0, hand.current_bet - player.bet)
    to_call = min(owed, player.stack)
    blocked = _raise_blocked(hand, player, spec, rules)
    word = "bet" if hand.current_bet == 0 else "raise"
    low, high = _raise_range(hand, player, spec, rules)
    can_raise = player.stack > owed and blocked is None
    limp_refused = _limp_refused(hand, player, spec, rules) and can_raise
    return Options(
        seat=seat,
        to_call=to_call,
        raise_min=low if can_raise else None,
        raise_max=high if can_raise else None,
        word=word,
        blocked=blocked if player.stack > owed else None,
        limp_refused=limp_refused,
    )


def opening_bet(hand: HandState, spec: TableSpec, rules: HouseRules) -> int:
    """OPEN-08: the full opening bet, which a seat all in for the antes declares (putting in
    nothing more) and every caller puts in: the round's limit bet, else the minimum bet."""
    if spec.structure is Structure.FIXED_LIMIT:
        return _limit_size(hand, spec, rules)
    return max(hand.last_raise, minimum_bet(spec.stakes))


def _raise_blocked(
    hand: HandState, player: PlayerState, spec: TableSpec, rules: HouseRules
) -> tuple[RuleId, Said] | None:
    limit = spec.structure is Structure.FIXED_LIMIT
    if player.timed_out:
        return RuleId.DRAW_11, say.BLOCKED_TIMED_OUT()
    if player.checked and not rules.betting.check_raise and hand.current_bet > 0:
        return RuleId.BET_06, say.BLOCKED_CHECK_RAISE()
    rule = RuleId.BET_04 if limit else RuleId.BET_05
    if rules.betting.short_all_in is ShortAllInRule.POKERKIT:
        closed = _pokerkit_closed(hand, player)
        if closed is not None:
            return rule, closed
    elif not player.may_raise and not _reopened(hand, player, spec, rules):
        return rule, say.BLOCKED_NOT_REOPENED()
    if limit and hand.capped and hand.raises >= rules.betting.max_raises + 1:
        return RuleId.BET_03, say.BLOCKED_CAP(raises=rules.betting.max_raises)
    return None


def _reopened(hand: HandState, player: PlayerState, spec: TableSpec, rules: HouseRules) -> bool:
    """BET-04/05 ``reopen_per_player`` (TDA 47-A Example 1, 47-B; WSOP 133, 177): a seat that
    has acted is reopened when what it faces since its last action (the round's bet less the
    bet it made or matched then) is a full bet or raise, or half a bet under the half-bet rule;
    short all-ins count together."""
    if not rules.betting.reopen_per_player:
        return False
    faced = hand.current_bet - player.bet
    if spec.structure is Structure.FIXED_LIMIT:
        size = _limit_size(hand, spec, rules)
        if rules.betting.short_all_in is ShortAllInRule.HALF_BET:
            return 2 * faced >= size
        return faced >= size
    return faced >= max(hand.last_raise, minimum_bet(spec.stakes))


def _pokerkit_closed(hand: HandState, player: PlayerState) -> Said | None:
    """BET-04/05 ``short_all_in = "pokerkit"``: why pokerkit 0.7.7 would refuse this seat a
    bet or raise (``State._verify_completion_betting_or_raising``), or None. ``last_raise`` is
    pokerkit's largest increment of the round, ``acted_seats`` and ``short_all_ins`` its
    ``acted_player_indices`` and ``consecutive_short_all_in_amounts``. A seat that acted and
    still has ``may_raise`` had BET-04/05 waived by the floor (``accept_entry``)."""
    if player.acted and player.may_raise:
        return None
    owed = min(player.stack, hand.current_bet - player.bet)
    if owed < hand.last_raise:
        return say.BLOCKED_POKERKIT_SHORT_CALL(owed=owed, largest=hand.last_raise)
    shorts = hand.short_all_ins
    if shorts and sum(shorts) < hand.last_raise and player.seat in hand.acted_seats:
        return say.BLOCKED_POKERKIT_SHORT_ALL_INS(shorts=sum(shorts), largest=hand.last_raise)
    others = [p for p in hand.players if p.seat != player.seat and not p.folded]
    if not any(p.stack + p.bet > hand.current_bet for p in others):
        return say.BLOCKED_POKERKIT_NOBODY_BEHIND()
    return None


def _raise_range(
    hand: HandState, player: PlayerState, spec: TableSpec, rules: HouseRules
) -> tuple[int, int]:
    all_in = player.bet + player.stack
    if spec.structure is Structure.FIXED_LIMIT:
        target = _limit_base(hand, rules) + _limit_size(hand, spec, rules)
        return min(target, all_in), min(target, all_in)
    increment = max(hand.last_raise, minimum_bet(spec.stakes))
    target = hand.current_bet + increment
    if spec.structure is Structure.NO_LIMIT:
        return min(target, all_in), all_in
    owed = max(0, hand.current_bet - player.bet)
    pot_after_call = hand.pot + owed + _rounded_blinds(hand, spec, rules)
    high = min(all_in, hand.current_bet + pot_after_call)
    return min(target, high), high


def _rounded_blinds(hand: HandState, spec: TableSpec, rules: HouseRules) -> int:
    """BET-05 (WSOP 191): pre-draw, a small blind counts as a big blind for the pot size."""
    if not rules.betting.pot_limit_round_blinds_up or hand.small_blind_seat is None:
        return 0
    if hand.last_aggressor is not None or hand.full_bet != spec.stakes.big_blind:
        return 0
    return max(0, spec.stakes.big_blind - spec.stakes.small_blind)


def _limit_base(hand: HandState, rules: HouseRules) -> int:
    """BET-04: what a limit raise adds a bet to. Half-bet rule: the last full bet (a smaller
    all-in is completed); full-bet rule (pokerkit): the current bet, short all-in or not."""
    if rules.betting.short_all_in is ShortAllInRule.HALF_BET:
        return hand.full_bet
    return hand.current_bet


def _limit_size(hand: HandState, spec: TableSpec, rules: HouseRules) -> int:
    """BET-02: the round's fixed-limit bet; KILL-01 multiplied in a kill pot."""
    betting_round = phase_number(hand.phase)
    return limit_bet_size(spec.variant, betting_round, kills.hand_stakes(hand, spec.stakes, rules))


def _limp_refused(hand: HandState, player: PlayerState, spec: TableSpec, rules: HouseRules) -> bool:
    """BET-01: in a no-limping game nobody may just call the big blind before the draw."""
    if rules.betting.allow_limp or not is_blind_game(hand) or hand.phase is not Phase.BETTING_1:
        return False
    untouched = hand.last_aggressor is None and hand.current_bet == spec.stakes.big_blind
    return untouched and player.seat != hand.big_blind_seat and player.bet < hand.current_bet


def check_bet_action(hand: HandState, act: Act, spec: TableSpec, rules: HouseRules) -> int:
    """BET-01..08, GAME-06, OPEN-01: refuse an entry the seat may not make; return its raise-to."""
    if act.seat != hand.to_act:
        raise _out_of_turn(hand, act.seat, spec, rules)
    if _plainly_legal(hand, act, spec, rules):
        return 0
    opts = options(hand, act.seat, spec, rules)
    match act.action:
        case ActionKind.CHECK:
            _require(opts.to_call == 0, opts, RuleId.GAME_06, say.FACES_A_BET, seat=act.seat)
        case ActionKind.CALL:
            _check_call(opts, act)
        case ActionKind.BET | ActionKind.RAISE:
            if hand.player(act.seat).may_open:
                return _check_declared_open(opts, act)
            note = kills.size_note(hand, spec.stakes, rules)
            return _check_raise(opts, act, spec, note, hand.current_bet)
        case ActionKind.FOLD:
            pass
    return 0


def _plainly_legal(hand: HandState, act: Act, spec: TableSpec, rules: HouseRules) -> bool:
    """A fold, a check with nothing to call, or a call of exactly what is owed where limping is
    allowed: accepted without working out the raise range (most entries are these). Anything
    else goes through ``options``, which accepts or explains the refusal."""
    action = act.action
    if action is ActionKind.FOLD:
        return True
    if action is not ActionKind.CHECK and action is not ActionKind.CALL:
        return False
    player = hand.player(act.seat)
    to_call = min(max(0, hand.current_bet - player.bet), player.stack)
    if action is ActionKind.CHECK:
        return to_call == 0
    exact = act.amount is None or act.amount == to_call
    return to_call > 0 and exact and not _limp_refused(hand, player, spec, rules)


def _out_of_turn(hand: HandState, seat: int, spec: TableSpec, rules: HouseRules) -> RuleViolation:
    nobody_acted = not any(p.acted for p in hand.players)
    rule = RuleId.OPEN_01 if nobody_acted else RuleId.BET_08
    expected = hand.to_act
    allowed = [] if expected is None else options(hand, expected, spec, rules).legal()
    why: Said | str = ""
    if hand.kill_seat is not None and hand.phase is Phase.BETTING_1:  # KILL-04
        rule = RuleId.KILL_04
        why = say.WHY_KILL_ACTS_LAST(kill=hand.kill_seat)
        if not kills.acts_last(rules):  # WSOP 194: the kill acts in turn
            why = say.WHY_KILL_IN_TURN(kill=hand.kill_seat)
    small = small_blind_off_button(hand)
    if small is not None and hand.phase is not Phase.BETTING_1:  # BLIND-02
        rule = RuleId.BLIND_02
        why = say.WHY_HEADS_UP_SMALL_BLIND(small=small)
    return RuleViolation(
        rule_id=rule,
        said=say.NOT_YOUR_TURN(expected=str(expected), why=why, seat=seat),
        seat=seat,
        allowed=[{"seat": expected, **a} for a in allowed],
    )


def _require(ok: bool, opts: Options, rule: RuleId, why: Message, /, **params: Param) -> None:
    """Refuse unless ``ok``, saying ``why`` with ``params``: the words are put together only
    for a refusal (every accepted bet passes four of these checks)."""
    if not ok:
        allowed = opts.legal()
        what = Listed(tuple(_describe(a) for a in allowed), Join.COMMA)
        raise RuleViolation(
            rule_id=rule,
            said=say.REFUSED(why=why(**params), seat=opts.seat, allowed=what),
            seat=opts.seat,
            allowed=allowed,
        )


def _describe(action: LegalAction) -> Said:
    """One legal action as the refusal lists it: "call 20", "raise to 40-80", "fold"."""
    name = _action(action["action"])
    if "amount" in action:
        return say.MAY_AMOUNT(action=name, amount=action["amount"])
    if "min" in action:
        low, high = action["min"], action["max"]
        if low == high or high is None:  # a range always has its top
            return say.MAY_TO(action=name, low=low)
        return say.MAY_RANGE(action=name, low=low, high=high)
    return name


def _action(name: str) -> Said:
    """A betting action's verb ("call", "raise"): the word the refusals say it with."""
    return say.ACTIONS[name]()


def _check_call(opts: Options, act: Act) -> None:
    _require(opts.to_call > 0, opts, RuleId.GAME_06, say.NOTHING_TO_CALL)
    _require(not opts.limp_refused, opts, RuleId.BET_01, say.NO_LIMPING)
    ok = act.amount is None or act.amount == opts.to_call
    _require(ok, opts, RuleId.GAME_06, say.CALL_IS, amount=opts.to_call)


def _check_raise(
    opts: Options, act: Act, spec: TableSpec, note: Said | str = "", facing: int = 0
) -> int:
    """BET-02/05 the size of a bet or raise; ``note`` says why in a kill pot (KILL-01), and an
    undersized no-limit or pot-limit raise says how the floor settles it (BET-09)."""
    if opts.blocked is not None:
        rule, why = opts.blocked
        _require(
            False, opts, rule, say.MAY_NOT, seat=opts.seat, action=_action(act.action), why=why
        )
    _require(opts.raise_min is not None, opts, RuleId.GAME_06, say.CANNOT_RAISE)
    assert opts.raise_min is not None and opts.raise_max is not None
    limit = spec.structure is Structure.FIXED_LIMIT
    amount = act.amount if act.amount is not None else (opts.raise_min if limit else None)
    rule = RuleId.BET_02 if limit else RuleId.BET_05
    _require(amount is not None, opts, rule, say.ENTER_AMOUNT, action=_action(opts.word))
    assert amount is not None
    if amount < opts.raise_min:
        short = "" if limit else _short_raise(opts, amount, facing)
        _require(False, opts, rule, say.BELOW_MINIMUM, amount=amount, note=note, short=short)
    over_stack = amount > opts.raise_max and amount > opts.raise_min
    _require(not over_stack or limit, opts, rule, say.ABOVE_MAXIMUM, amount=amount)
    _require(amount <= opts.raise_max, opts, rule, say.NOT_THE_BET_SIZE, amount=amount, note=note)
    return amount


def _short_raise(opts: Options, amount: int, facing: int) -> Said | str:
    """BET-09 (TDA 43, WSOP 140-142): chips put out for a raise short of the minimum, with no
    amount declared, are made a full raise when they add half the minimum raise or more, and
    stand as a call when they add less; the dealer enters what the floor settles on.

    >>> opts = Options(2, 30, 50, 500, "raise", None, limp_refused=False)
    >>> _short_raise(opts, 40, 30).english().endswith("made a full raise to 50 (BET-09)")
    True
    >>> _short_raise(opts, 35, 30).english().endswith("stands as a call of 30 (BET-09)")
    True
    """
    if opts.word != "raise" or amount <= facing or opts.raise_min is None:
        return ""
    needed = opts.raise_min - facing
    if 2 * (amount - facing) >= needed:
        return say.SHORT_RAISE_MADE_FULL(amount=amount, raise_to=opts.raise_min)
    return say.SHORT_RAISE_STANDS_AS_CALL(amount=amount, call=opts.to_call)


def _check_declared_open(opts: Options, act: Act) -> int:
    """OPEN-08: a seat all in for the antes opens only for the full opening bet."""
    assert opts.raise_min is not None
    size = opts.raise_min
    amount = size if act.amount is None else act.amount
    why = say.OPEN_ALL_IN_FULL_BET
    _require(amount == size, opts, RuleId.OPEN_08, why, seat=opts.seat, size=size, amount=amount)
    return size


def apply_bet_action(
    hand: HandState, act: Act, raise_to: int, spec: TableSpec, rules: HouseRules
) -> HandState:
    """Apply a checked betting action and move the turn on."""
    player = hand.player(act.seat)
    pokerkit = rules.betting.short_all_in is ShortAllInRule.POKERKIT
    passive = act.action not in (ActionKind.BET, ActionKind.RAISE)
    acted: dict[str, Any] = {}  # in the same copy as the player's action
    if pokerkit and passive and act.seat not in hand.acted_seats:  # ``acted_player_indices``
        acted["acted_seats"] = (*hand.acted_seats, act.seat)
    match act.action:
        case ActionKind.FOLD:
            hand = _fold(hand, player, acted)
        case ActionKind.CHECK:
            checked = evolve(player, acted=True, checked=True, may_raise=False)
            hand = hand.with_player(checked, **acted)
        case ActionKind.CALL:
            owed = min(hand.current_bet - player.bet, player.stack)
            hand = hand.with_player(_put(player, owed), **acted)
        case _:
            hand = _raise(hand, player, raise_to, spec, rules)
    if player.may_open or (hand.opener is not None and hand.phase is Phase.BETTING_1):
        hand = _asked(hand, act.seat)
    if hand.capped and rules.betting.heads_up is HeadsUp.BECOMES:
        hand = _uncapped_if_heads_up(hand, rules)
    return fill(hand, to_act=next_to_act(hand, act.seat))  # every action above copied the hand


def _uncapped_if_heads_up(hand: HandState, rules: HouseRules) -> HandState:
    """BET-03 ``heads_up = "becomes"`` (RRoP): the cap is lifted any time the action becomes
    heads-up before the raising has been capped; a round already capped stays capped."""
    if not rules.betting.uncapped_heads_up or hand.raises >= rules.betting.max_raises + 1:
        return hand
    return evolve(hand, capped=False) if _heads_up(hand, rules) else hand


def _asked(hand: HandState, seat: int) -> HandState:
    """OPEN-08: the seat all in for the antes has answered; once the pot is open nobody all in
    is asked any more."""
    opened = hand.opener is not None
    if not any(p.may_open for p in hand.players):
        return hand
    players = tuple(
        evolve(p, may_open=False) if p.may_open and (opened or p.seat == seat) else p
        for p in hand.players
    )
    return evolve(hand, players=players)


def _put(player: PlayerState, chips: int) -> PlayerState:
    return evolve(
        player,
        stack=player.stack - chips,
        committed=player.committed + chips,
        bet=player.bet + chips,
        acted=True,
        may_raise=False,
    )


def _fold(hand: HandState, player: PlayerState, changes: dict[str, Any]) -> HandState:
    folded = evolve(player, folded=True, acted=True, held=0, cards=())
    return hand.with_player(
        folded,
        muck=hand.muck + player.held,
        muck_cards=hand.muck_cards + player.cards,
        **changes,
    )


def _raise(
    hand: HandState, player: PlayerState, raise_to: int, spec: TableSpec, rules: HouseRules
) -> HandState:
    if rules.betting.short_all_in is ShortAllInRule.POKERKIT:
        return _pokerkit_raise(hand, player, raise_to)
    full = _is_full(hand, raise_to, spec, rules)
    declared = player.may_open  # OPEN-08: all in for the antes, it opens and puts in nothing
    hand = hand.with_player(_put(player, 0 if declared else raise_to - player.bet))
    if full and rules.betting.reopen_per_player:  # ``_reopened`` tells each seat
        increment = raise_to - hand.current_bet
        hand = evolve(
            hand,
            full_bet=raise_to,
            raises=hand.raises + 1,
            last_raise=max(increment, hand.last_raise),
        )
    elif full:
        players = tuple(
            evolve(p, may_raise=True) if p.seat != player.seat and p.can_bet else p
            for p in hand.players
        )
        increment = raise_to - hand.current_bet
        hand = evolve(
            hand,
            players=players,
            full_bet=raise_to,
            raises=hand.raises + 1,
            last_raise=max(increment, hand.last_raise),
        )
    opener = hand.opener
    if opener is None and hand.phase is Phase.BETTING_1 and not is_blind_game(hand):
        opener = player.seat
    current = max(hand.current_bet, raise_to)
    return evolve(hand, current_bet=current, last_aggressor=player.seat, opener=opener)


def _pokerkit_raise(hand: HandState, player: PlayerState, raise_to: int) -> HandState:
    """BET-04/05 ``short_all_in = "pokerkit"``: pokerkit 0.7.7's ``complete_bet_or_raise_to``.
    An increment at least the round's largest so far clears the seats that acted (the raiser
    stays in); every bet or raise counts toward the cap (``raises``); an all-in's increment
    joins the short all-ins in a row, a bet or raise with chips behind clears them, and so
    does their sum reaching the largest increment."""
    increment = raise_to - hand.current_bet
    acted = (
        hand.acted_seats if player.seat in hand.acted_seats else (*hand.acted_seats, player.seat)
    )
    if increment >= hand.last_raise:
        acted = (player.seat,)
    largest = max(hand.last_raise, increment)
    put = _put(player, raise_to - player.bet)
    shorts = () if put.stack else (*hand.short_all_ins, increment)
    if sum(shorts) >= largest:
        shorts = ()
    opener = hand.opener
    if opener is None and hand.phase is Phase.BETTING_1 and not is_blind_game(hand):
        opener = player.seat
    return hand.with_player(
        put,
        opener=opener,
        current_bet=max(hand.current_bet, raise_to),
        full_bet=max(hand.current_bet, raise_to),
        raises=hand.raises + 1,
        last_raise=largest,
        acted_seats=acted,
        short_all_ins=shorts,
        last_aggressor=player.seat,
    )


def _is_full(hand: HandState, raise_to: int, spec: TableSpec, rules: HouseRules) -> bool:
    """BET-04 / BET-05: does this bet or raise reopen the betting?"""
    if spec.structure is Structure.FIXED_LIMIT:
        size = _limit_size(hand, spec, rules)
        increment = raise_to - _limit_base(hand, rules)
        if rules.betting.short_all_in is ShortAllInRule.HALF_BET:
            return 2 * increment >= size
        return increment >= size
    needed = max(hand.last_raise, minimum_bet(spec.stakes))
    return raise_to - hand.current_bet >= needed
