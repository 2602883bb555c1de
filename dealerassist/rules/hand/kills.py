"""Kill pots in fixed-limit games: the kill blind, the multiplied limits, legs (KILL-01..06).

A house option (``HouseRules.kill``), off unless a profile sets ``kill.mode``: ``"required"``
(legs oblige a winner to kill) or ``"optional"`` (a seat kills voluntarily):

* KILL-01: a full kill is a kill blind of 2x the big blind and doubles the limits for the
  hand; a half kill is 1.5x and raises them by half. Chips are integers and nothing is
  rounded: a half-kill table needs an even big blind, small bet and big bet
  (``check_stakes`` refuses other stakes when the table is created).
* KILL-02: the table tracks the leg (``TableState.kill_leg``/``kill_legs``). A seat that wins
  a hand alone takes a leg; winning the next hand alone too makes it due to kill the hand
  after (``kill_legs = 2``), provided that second pot, the kill blind not counted, holds at
  least one big bet of the game (the table's unmultiplied ``big_bet``): the pot is read from
  the hand's result, so a walk or a small pot does not earn the kill (the leg is kept).
* KILL-03: the leg is neutral on the table's first hand, after its holder leaves the table,
  and after a split in which the holder won nothing. "Won alone" means every pot of the hand
  (main and side pots) went to that one seat; when the pots went to more than one seat (a
  split pot, or side pots won by different seats) it is a split: the holder keeps the leg if
  he won a share of any pot (and if he was the kill, he kills again), otherwise the leg is
  neutral. A player who leaves with a leg keeps it (``TableState.kill_leg_away``): he has it
  back when he sits down again, in any seat, unless a pot was won meanwhile (then the leg went
  on as it would have with him at the table: to that pot's winner, or neutral after a split).
  A misdeal puts the leg back as before the hand, following its holder through the seat
  changes that stand (``after_misdeal``).
* KILL-01 optional: the dealer names the seat that kills on ``start_hand`` (``kill_seat``),
  e.g. a newcomer killing to be dealt in at once instead of waiting for the big blind; the hand
  is then a kill pot exactly as a required one (the same kill post, limits, order, events).
  Legs are not tracked (nobody is ever due to kill); ``check_volunteer`` refuses a volunteer
  kill in a game without it, from a seat not dealt in or short of the kill, or beside a
  required kill (KILL-06, one kill per deal).
* KILL-05: the seat due to kill may neither sit out nor leave the table before it has posted
  the kill and played that hand (``check_sit_out``, ``check_leave``).
* KILL-04/05/06: see ``blinds.new_hand`` (the kill owed, no straddle offer), ``posting``
  (the kill post, no sit-out) and ``betting`` (the kill acts last before the draw).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dealerassist.rules.hand.instructions import instruction
from dealerassist.rules.model.actions import Stakes, Structure, TableSpec
from dealerassist.rules.model.house_rules import (
    HouseRules,
    KillAction,
    KillMode,
    KillSize,
    SecondLeg,
)
from dealerassist.rules.model.messages import kills as say
from dealerassist.rules.model.outcomes import Instruction, KillRecord
from dealerassist.rules.model.said import Message, Said
from dealerassist.rules.model.state import HandState, Phase, SeatStatus, TableState, evolve
from dealerassist.rules.model.variants import big_bet, small_bet
from dealerassist.rules.model.violations import RuleId, RuleViolation

KILL = "kill"  # the posting part of the seat that kills the hand
_RATIO = {KillSize.FULL: (2, 1), KillSize.HALF: (3, 2)}  # KILL-01: numerator, denominator


def is_on(rules: HouseRules) -> bool:
    """KILL-01: kill pots are played, required or optional."""
    return rules.kill.mode is not KillMode.OFF


def is_required(rules: HouseRules) -> bool:
    """KILL-02: legs are tracked and two pots in a row oblige the winner to kill."""
    return rules.kill.mode is KillMode.REQUIRED


def is_optional(rules: HouseRules) -> bool:
    """KILL-01: a seat may kill voluntarily; nobody is ever due to kill."""
    return rules.kill.mode is KillMode.OPTIONAL


def killer(table: TableState, volunteer: int | None, rules: HouseRules) -> int | None:
    """KILL-01/02: the seat that kills the next hand: the volunteer the dealer named (optional
    kills) or the seat due to kill (required kills); KILL-06 one kill per deal."""
    if is_optional(rules):
        return volunteer
    return due(table) if is_required(rules) else None


def killed(chips: int, rules: HouseRules) -> int:
    """KILL-01: an amount multiplied for a kill pot (2x full, 1.5x half; stakes divide).

    >>> from dealerassist.rules.model.house_rules import KillRules
    >>> half = replace(HouseRules(), kill=KillRules(size=KillSize.HALF))
    >>> killed(10, HouseRules()), killed(10, half)
    (20, 15)
    """
    numerator, denominator = _RATIO[rules.kill.size]
    return chips * numerator // denominator


def kill_blind(stakes: Stakes, rules: HouseRules) -> int:
    """KILL-01: the kill blind: 2x the big blind (full) or 1.5x (half)."""
    return killed(stakes.big_blind, rules)


def hand_stakes(hand: HandState, stakes: Stakes, rules: HouseRules) -> Stakes:
    """KILL-01: the stakes a hand's bets are sized by: in a kill pot the small and big bet are
    multiplied for the whole hand (so are the cap's raises, which are bets of that size)."""
    if hand.kill_seat is None:
        return stakes
    return replace(
        stakes,
        small_bet=killed(small_bet(stakes), rules),
        big_bet=killed(big_bet(stakes), rules),
    )


def kill_record(hand: HandState, stakes: Stakes, rules: HouseRules) -> KillRecord:
    """KILL-01 for the audit log: who kills, the kill blind and the hand's bet sizes."""
    sized = hand_stakes(hand, stakes, rules)
    return KillRecord(hand.kill_seat, kill_blind(stakes, rules), small_bet(sized), big_bet(sized))


def limits_text(stakes: Stakes, rules: HouseRules) -> Said:
    """The kill pot's limits for a dealer message, e.g. ``doubled to 20/40``."""
    how = say.LIMITS_DOUBLED if rules.kill.size is KillSize.FULL else say.LIMITS_RAISED_BY_HALF
    return how(low=killed(small_bet(stakes), rules), high=killed(big_bet(stakes), rules))


def size_note(hand: HandState, stakes: Stakes, rules: HouseRules) -> Said | str:
    """KILL-01: what a wrong bet size message adds in a kill pot ('' in any other hand)."""
    if hand.kill_seat is None:
        return ""
    return say.SIZE_NOTE(kill=hand.kill_seat, limits=limits_text(stakes, rules))


def check_stakes(spec: TableSpec, rules: HouseRules) -> None:
    """KILL-01: a kill-pot table is fixed limit with blinds, and a half kill multiplies its big
    blind, small bet and big bet by 1.5 without a fraction of a chip (no rounding)."""
    if not is_on(rules):
        return
    stakes = spec.stakes
    if spec.structure is not Structure.FIXED_LIMIT or not stakes.big_blind:
        raise RuleViolation(
            rule_id=RuleId.KILL_01, said=say.NOT_FIXED_LIMIT(profile=rules.profile_id)
        )
    if rules.kill.size is KillSize.HALF:
        sizes = (stakes.big_blind, small_bet(stakes), big_bet(stakes))
        if any(size % 2 for size in sizes):
            raise RuleViolation(
                rule_id=RuleId.KILL_01,
                said=say.HALF_KILL_ODD_STAKES(
                    big_blind=sizes[0], small_bet=sizes[1], big_bet=sizes[2]
                ),
            )


def start_instructions(hand: HandState, stakes: Stakes, rules: HouseRules) -> list[Instruction]:
    """KILL-02/04: at the start of a kill pot, who kills, for how much, and the new limits."""
    seat = hand.kill_seat
    if seat is None:
        return []
    amount = kill_blind(stakes, rules)
    starts = say.POT_STARTS_VOLUNTARY if is_optional(rules) else say.POT_STARTS
    # KILL-04 (WSOP 194): or the kill acts in turn, as a blind
    order = say.ORDER_ACTS_LAST if acts_last(rules) else say.ORDER_IN_TURN
    text = starts(
        seat=seat, amount=amount, limits=limits_text(stakes, rules), order=order(seat=seat)
    )
    return [instruction("kill_pot", seat, amount, text)]


# -- the voluntary kill (KILL-01 optional, KILL-06) ---------------------------------------------


def check_volunteer(
    table: TableState, hand: HandState, seat: int | None, rules: HouseRules
) -> None:
    """KILL-01/06: the seat the dealer named on ``start_hand`` may kill ``hand`` (already built
    with it as the kill): the game has optional kills, the seat is dealt in, and it can post
    the whole kill. A required-kill game takes no volunteer: one kill per deal, and that one is
    owed after two wins in a row, never chosen."""
    if seat is None:
        return
    if not is_optional(rules):
        raise _volunteer_refusal(*_wrong_mode(hand, seat, rules), seat)
    if not hand.has(seat):
        text = say.NOT_DEALT_IN(seat=seat, why=_not_dealt_in(table, seat))
        raise _volunteer_refusal(RuleId.KILL_01, text, seat)
    player = hand.player(seat)
    if player.stack < player.owes:
        blind = kill_blind(table.spec.stakes, rules)
        besides: Said | str = "" if player.owes == blind else say.BESIDES_OWED(blind=blind)
        text = say.SHORT_OF_THE_KILL(
            seat=seat, stack=player.stack, owes=player.owes, besides=besides
        )
        raise _volunteer_refusal(RuleId.KILL_01, text, seat)


def _wrong_mode(hand: HandState, seat: int, rules: HouseRules) -> tuple[RuleId, Said]:
    """KILL-01/06: why a game without optional kills refuses the volunteer."""
    profile = rules.profile_id
    if not is_required(rules):
        return RuleId.KILL_01, say.NO_KILL_POTS(profile=profile, seat=seat)
    due_seat = hand.kill_seat
    if due_seat is not None and due_seat != seat:
        return RuleId.KILL_06, say.ONE_PER_DEAL(due=due_seat, seat=seat)
    already: Said | str = say.ALREADY_DUE(seat=seat) if due_seat == seat else ""
    return RuleId.KILL_01, say.REQUIRED_ONLY(profile=profile, already=already)


def _not_dealt_in(table: TableState, seat: int) -> Said:
    state = table.seat(seat)
    if state.status is SeatStatus.EMPTY:
        return say.WHY_SEAT_EMPTY()
    if state.status is SeatStatus.SITTING_OUT:
        return say.WHY_SITTING_OUT()
    return say.WHY_NO_CHIPS() if state.stack == 0 else say.WHY_NOT_PLAYING()


def _volunteer_refusal(rule_id: RuleId, text: Said, seat: int) -> RuleViolation:
    return RuleViolation(rule_id=rule_id, said=text, seat=seat, allowed=[{"action": "start_hand"}])


# -- legs (KILL-02/03) --------------------------------------------------------------------------


def due(table: TableState) -> int | None:
    """KILL-02: the seat that must kill the next hand (it won the last two pots), if any."""
    return table.kill_leg if table.kill_legs >= 2 else None


def winners(result: dict[str, Any]) -> set[int]:
    """Every seat that won a share of any pot of the hand."""
    return {int(seat) for pot in result.get("pots", ()) for seat in pot.get("winners", ())}


def counts_as_second_leg(hand: HandState, stakes: Stakes, rules: HouseRules) -> bool:
    """KILL-02: the second pot holds at least one big bet of the game. ``kill.second_leg``
    says what counts: ``full_bet_beyond_blinds`` (WSOP 195, RRoP Kill Pots 3) the chips beyond
    the blind structure (the small and big blind, a dead small blind, a live blind posted to
    come in; the kill blind is no part of it, so it counts); ``pot_less_kill_blind`` (profile
    versions before the option) the pot less the kill blind, the blinds counted."""
    total = sum(int(pot["amount"]) for pot in (hand.result or {}).get("pots", ()))
    if rules.kill.second_leg is SecondLeg.FULL_BET_BEYOND_BLINDS:
        return total - blind_money(hand, stakes) >= big_bet(stakes)
    if hand.kill_seat is not None:
        total -= kill_blind(stakes, rules)
    return total >= big_bet(stakes)


# KILL-02 (WSOP 195): the posting parts that make up the blind structure, and their size in
# big blinds and small blinds (the kill blind and antes are not blinds)
_BLIND_PARTS = {
    "small_blind": (0, 1),
    "dead_small_blind": (0, 1),
    "big_blind": (1, 0),
    "returning_big_blind": (1, 0),
    "entering_big_blind": (1, 0),
}


def blind_money(hand: HandState, stakes: Stakes) -> int:
    """KILL-02: the chips of the hand that are part of the blind structure: each seat's posted
    blinds by the parts it posted (``owes_what``; read once the hand is over, when the chips
    are in the pots, so a blind posted short all in counts as a whole blind)."""
    big = small = 0
    for player in hand.players:
        for part in player.owes_what:
            bigs, smalls = _BLIND_PARTS.get(part, (0, 0))
            big, small = big + bigs, small + smalls
    return big * stakes.big_blind + small * stakes.small_blind


def acts_last(rules: HouseRules) -> bool:
    """KILL-04: the kill acts last before the draw (``kill.action = "last"``), or in turn."""
    return rules.kill.action is KillAction.LAST


def next_leg(
    leg: int | None, legs: int, won: set[int], second_leg_ok: bool
) -> tuple[int | None, int]:
    """KILL-02/03: the leg after a hand that ``won`` shared.

    >>> next_leg(None, 0, {3}, False)  # a first leg has no size requirement
    (3, 1)
    >>> next_leg(3, 1, {3}, True), next_leg(3, 1, {3}, False)
    ((3, 2), (3, 1))
    >>> next_leg(3, 2, {3, 5}, True), next_leg(3, 1, {4, 5}, True)  # splits
    ((3, 2), (None, 0))
    """
    if len(won) == 1:
        (seat,) = won
        if seat != leg:
            return seat, 1
        return seat, 2 if second_leg_ok else legs
    if leg in won:
        return leg, legs
    return None, 0


def settle(table: TableState, rules: HouseRules) -> tuple[TableState, list[Instruction]]:
    """KILL-02/03: once a hand is over, move the leg and tell the dealer where the kill button
    goes. The result records it (``kill_leg``), so a hand is settled once even when a ruling
    replays it; cancelled and passed-out deals change nothing."""
    hand = table.hand
    if not is_required(rules) or hand is None or hand.phase is not Phase.COMPLETE:
        return table, []
    result = hand.result
    if result is None or "kill_leg" in result or not result.get("pots"):
        return table, []
    stakes = table.spec.stakes
    leg, legs = next_leg(
        table.kill_leg, table.kill_legs, winners(result), counts_as_second_leg(hand, stakes, rules)
    )
    hand = evolve(hand, result={**result, "kill_leg": {"seat": leg, "legs": legs}})
    # KILL-03: a pot won while a leg-holder is away settles the leg without him
    table = evolve(table, hand=hand, kill_leg=leg, kill_legs=legs, kill_leg_away=None)
    return table, [_leg_instruction(leg, legs, stakes, rules)]


def _leg_instruction(leg: int | None, legs: int, stakes: Stakes, rules: HouseRules) -> Instruction:
    if leg is None:
        return instruction("kill_button", None, None, say.BUTTON_NEUTRAL())
    if legs == 1:
        return instruction("kill_button", leg, 1, say.LEG_UP(seat=leg))
    amount = kill_blind(stakes, rules)
    text = say.KILLS_NEXT(seat=leg, amount=amount, limits=limits_text(stakes, rules))
    return instruction("kill_button", leg, 2, text)


# -- between hands (KILL-03, KILL-05) -----------------------------------------------------------


def check_sit_out(table: TableState, seat: int, rules: HouseRules) -> None:
    """KILL-05: the seat due to kill posts the kill before it may sit out."""
    _check_not_due(table, seat, rules, say.DUE_BEFORE_SIT_OUT)


def check_leave(table: TableState, seat: int, rules: HouseRules) -> None:
    """KILL-05: the seat due to kill posts the kill, even if the player wants to quit, before it
    may leave the table. A player who is gone is not waited for: the dealer posts the kill from
    his chips, the floor kills his hand once it is dealt (``kill_hand``), and he leaves after
    the hand."""
    _check_not_due(table, seat, rules, say.DUE_BEFORE_LEAVING)


def _check_not_due(table: TableState, seat: int, rules: HouseRules, refusal: Message) -> None:
    """KILL-05 between hands (in the kill hand the seat is dealt in: GAME-01 keeps it there)."""
    hand = table.hand
    if hand is not None and hand.phase is not Phase.COMPLETE:
        return
    if is_required(rules) and due(table) == seat:
        amount = kill_blind(table.spec.stakes, rules)
        raise RuleViolation(
            rule_id=RuleId.KILL_05,
            said=refusal(seat=seat, amount=amount),
            seat=seat,
            allowed=[{"action": "start_hand"}],
        )


def after_leaving(table: TableState, seat: int, player: str | None) -> TableState:
    """KILL-03: the button is neutral once the leg's holder leaves, and the leg is kept for the
    player (one leg: KILL-05 keeps a seat due to kill at the table)."""
    if table.kill_leg != seat:
        return table
    return evolve(table, kill_leg=None, kill_legs=0, kill_leg_away=player)


def after_return(table: TableState, seat: int, player: str) -> TableState:
    """KILL-03: a player who left with a leg has it back when he sits down again, in any seat,
    if no pot was won meanwhile (``settle`` drops the kept leg with the first one)."""
    if table.kill_leg_away != player:
        return table
    return evolve(table, kill_leg=seat, kill_legs=1, kill_leg_away=None)


def after_seat_change(table: TableState, seat: int, to: int) -> TableState:
    """KILL-03: a leg belongs to the player, so it moves with him to his new seat."""
    if table.kill_leg != seat:
        return table
    return evolve(table, kill_leg=to)


def after_misdeal(before: TableState, table: TableState) -> TableState:
    """KILL-03 after a misdeal (IRREG-01): the leg is as it was before the hand (a pot won in
    it is void), following its holder through the seat changes that stand: in the seat he sits
    in now, kept for him while he is away (the button neutral), his again if he left with it
    and sat down during the hand. ``table`` has the seats after the misdeal."""
    leg, legs, away = before.kill_leg, before.kill_legs, before.kill_leg_away
    if leg is not None:
        holder = before.seat(leg).player
        where = _seat_of(table, holder)
        if where is None:
            leg, legs, away = None, 0, holder
        else:
            leg = where
    elif away is not None:
        where = _seat_of(table, away)
        if where is not None:
            leg, legs, away = where, 1, None
    return evolve(table, kill_leg=leg, kill_legs=legs, kill_leg_away=away)


def _seat_of(table: TableState, player: str | None) -> int | None:
    """The seat ``player`` sits in, if he is at the table."""
    if player is None:
        return None
    return next((s.seat for s in table.seats if s.player == player), None)


def leg_instructions(before: TableState, after: TableState, rules: HouseRules) -> list[Instruction]:
    """KILL-03: where the kill button goes when a seat command moved the leg: to the middle
    while its holder is away, back to him when he returns, with him when he changes seats."""
    leg, legs = after.kill_leg, after.kill_legs
    if (leg, legs) == (before.kill_leg, before.kill_legs):
        return []
    away = after.kill_leg_away
    if leg is None and away is not None:
        text = say.BUTTON_NEUTRAL_AWAY(player=away)
        return [instruction("kill_button", None, None, text)]
    return [_leg_instruction(leg, legs, after.spec.stakes, rules)]
