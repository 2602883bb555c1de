"""Chopping the blinds: everyone else folded to the blinds before the draw, and the two blinds
agree to take their blinds back and end the hand (SHOW-08, WSOP 71; KILL-06, WSOP 204).

Players may not agree to split a pot (SHOW-08); the one exception, in button games, is the
blinds' chop. The dealer enters ``chop`` for the small blind, on its turn, only when both
blinds say they agree; the house allows it with ``[blinds] chop = true``. It is allowed only
when the pot holds nothing but the two live blinds:

- in the first betting round, on the small blind's turn, every other seat dealt in folded,
  nobody raised and the small blind has not completed (its first action is the chop);
- a small and a big blind both in the hand: no chop with a dead small blind (BLIND-03/07),
  in a single-blind game (BLIND-13), or in a hand dealt to two (heads-up the button is the
  small blind and nobody folded to the blinds: the hand is played out);
- no straddle (BLIND-14: the straddler is a third live hand that acts last) and no kill:
  KILL-06 refuses a chop with the kill in a blind, and a kill elsewhere acts last, as a
  straddle;
- nothing else in the pot: antes, a big-blind ante, a dead small blind, a missed blind made
  up or a newcomer's big blind of a seat that folded, a carried pot. The chop gives each blind
  back only what it put in; dead money would have no owner, so that pot is played out.

The hand then ends with ``result["chopped"]``: no pot, no showdown, no winner (a kill leg,
KILL-02/03, is neither won nor lost), and the button moves as after any hand.
"""

from __future__ import annotations

from typing import Any

from dealerassist.rules.hand import instructions as say
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import floor as words
from dealerassist.rules.model.outcomes import HandEnded, Instruction, LegalAction
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.rules.model.state import HandState, Phase, evolve
from dealerassist.rules.model.violations import RuleId

CHOP = "chop"


def chop_refusal(hand: HandState, seat: int, rules: HouseRules) -> tuple[RuleId, Said] | None:
    """SHOW-08, KILL-06, BET-08: why ``seat`` may not chop now (the rule and the reason), or
    None when the chop is allowed. The most specific rule first: the house rule, the kill in
    a blind, the state of the hand, then whose turn it is."""
    if not rules.blinds.chop:
        return RuleId.SHOW_08, words.CHOP_NOT_ALLOWED()
    small, big = hand.small_blind_seat, hand.big_blind_seat
    if hand.kill_seat is not None and hand.kill_seat in (small, big):
        return RuleId.KILL_06, words.CHOP_KILL_IN_BLIND(kill=hand.kill_seat)
    why = _hand_refusal(hand, small, big)
    if why is not None:
        return RuleId.SHOW_08, why
    if seat != small:
        return RuleId.BET_08, words.CHOP_SMALL_BLINDS_TURN(small=_seat(small), seat=seat)
    return None


def _seat(seat: int | None) -> int | str:
    """A seat as a parameter ("None" where there is none, as the engine always wrote it)."""
    return "None" if seat is None else seat


def _hand_refusal(hand: HandState, small: int | None, big: int | None) -> Said | None:
    """SHOW-08: why the hand as it stands allows no chop, or None."""
    if hand.phase is not Phase.BETTING_1:
        return words.CHOP_BEFORE_DRAW()
    if small is None or big is None or small == big or not (hand.has(small) and hand.has(big)):
        return words.CHOP_NEEDS_BLINDS()
    if len(hand.players) == 2:
        return words.CHOP_HEADS_UP()
    if hand.straddle_seat is not None:
        return words.CHOP_STRADDLE(seat=hand.straddle_seat)
    if hand.kill_seat is not None:
        return words.CHOP_KILL_POT(seat=hand.kill_seat)
    still_in = [p.seat for p in hand.players if not p.folded and p.seat not in (small, big)]
    if still_in:
        return words.CHOP_STILL_IN(seats=Listed(tuple(still_in), Join.COMMA))
    small_blind, big_blind = hand.player(small), hand.player(big)
    if small_blind.acted or big_blind.acted or hand.last_aggressor is not None:
        return words.CHOP_ALREADY_ACTED()
    if hand.pot != small_blind.bet + big_blind.bet:
        return words.CHOP_DEAD_MONEY()
    if hand.to_act != small:
        return words.CHOP_ON_SMALL_BLINDS_TURN(small=small)
    return None


def can_chop(hand: HandState, seat: int, rules: HouseRules) -> bool:
    """SHOW-08: ``seat`` may enter ``chop`` now (asked for every betting seat's legal actions:
    any seat but the small blind, or any round but the first, is a no at once)."""
    if seat != hand.small_blind_seat or hand.phase is not Phase.BETTING_1:
        return False
    return chop_refusal(hand, seat, rules) is None  # the house rule first


def chop_legal(hand: HandState) -> LegalAction:
    """The ``chop`` entry of the small blind's legal actions, with what each blind gets back."""
    back = {str(p.seat): p.bet for p in hand.players if p.bet}
    said = words.CHOP_OFFER().to_json()  # text_id and params: the API renders it
    text = words.CHOP_OFFER().english()
    return {
        "action": CHOP,
        "returns": back,
        "text": text,
        "text_id": said["id"],
        "params": said["params"],
    }


def apply_chop(hand: HandState) -> tuple[HandState, HandEnded, Instruction]:
    """SHOW-08: each blind takes back what it put in and the hand is over: the hand, its
    ``hand_ended`` event (``result["chopped"]``: no pot, the chips each blind took back) and
    the dealer's instruction."""
    back = {p.seat: p.committed + p.dead for p in hand.players if p.committed + p.dead}
    players = tuple(
        evolve(p, stack=p.stack + back.get(p.seat, 0), committed=0, dead=0, bet=0)
        for p in hand.players
    )
    result: dict[str, Any] = {
        "pots": [],
        "chopped": {str(seat): chips for seat, chips in back.items()},
        "stacks": {str(p.seat): p.stack for p in players},
    }
    hand = evolve(
        hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, current_bet=0
    )
    taken = Listed(
        tuple(words.TAKES_BACK(seat=seat, chips=chips) for seat, chips in back.items()), Join.COMMA
    )
    said = words.CHOPPED(taken=taken)
    return hand, HandEnded(result), say.instruction(CHOP, None, None, said)
