"""Ante games with openers ("jackpots"): opening, nobody opens, splitting and proving openers,
a seat all in for the antes asked whether it opens (OPEN-02, 03, 05, 07, 08)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dealerassist.rules import betting
from dealerassist.rules.actions import Act, ActionKind, Mode, TableSpec
from dealerassist.rules.dealing import UNKNOWN
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.joker import JOKER
from dealerassist.rules.showdown import next_to_show
from dealerassist.rules.state import HandState, Phase, evolve
from dealerassist.rules.violations import Notice, RuleId, RuleViolation

SPLIT = "split"
_RANKS = "23456789TJQKA"
_JACK = _RANKS.index("J")


def has_openers(cards: Sequence[str]) -> bool:
    """OPEN-02: among these cards (five, or a hand plus split discards) there is a pair of jacks
    or better: a pair of jacks or higher, two pair, trips, a straight or a flush. The joker
    (DECK-02, the bug) counts as an ace, or as any card that completes a straight or a flush.

    >>> has_openers(["Jh", "Js", "2c", "5d", "9s"])
    True
    >>> has_openers(["Th", "Ts", "2c", "5d", "9s"])
    False
    >>> has_openers(["Th", "Ts", "2c", "2d", "9s"])
    True
    >>> has_openers(["Ah", "2s", "3c", "4d", "5s"])
    True
    >>> has_openers(["Jk", "Ah", "2c", "5d", "9s"]), has_openers(["Jk", "Jh", "2c", "5d", "9s"])
    (True, False)
    """
    known = [card for card in cards if card not in (UNKNOWN, JOKER) and card[0] in _RANKS]
    if JOKER not in cards:
        return _pair_of_jacks_or_better(known) or _straight_or_flush(known)
    if _pair_of_jacks_or_better(known) or _pair_of_jacks_or_better([*known, "As"]):
        return True  # the bug is an ace: with an ace held, a pair of aces
    return any(_straight_or_flush([*known, rank + suit]) for rank in _RANKS for suit in "cdhs")


def _pair_of_jacks_or_better(known: Sequence[str]) -> bool:
    counts = Counter(_RANKS.index(card[0]) for card in known)
    pairs = [rank for rank, n in counts.items() if n >= 2]
    return (
        any(rank >= _JACK for rank in pairs)
        or len(pairs) >= 2
        or max(counts.values(), default=0) >= 3
    )


def _straight_or_flush(known: Sequence[str]) -> bool:
    if max(Counter(card[1] for card in known).values(), default=0) >= 5:
        return True
    ranks = {_RANKS.index(card[0]) for card in known}
    ranks |= {-1} if _RANKS.index("A") in ranks else set()
    return any(all(r + step in ranks for step in range(5)) for r in ranks)


jackpots = betting.jackpots  # an ante game played with an opening requirement


def check_open(hand: HandState, act: Act, rules: HouseRules, mode: Mode) -> None:
    """OPEN-02: in card mode the engine sees the cards, so it refuses an opening bet from a
    seat without jacks or better (in count mode the opener proves them at showdown)."""
    opening = act.action is ActionKind.BET and hand.phase is Phase.BETTING_1
    if not (opening and jackpots(hand, rules) and hand.opener is None and mode is Mode.CARD):
        return
    cards = hand.player(act.seat).cards if hand.has(act.seat) else ()
    if UNKNOWN in cards or has_openers(cards):
        return
    raise RuleViolation(
        rule_id=RuleId.OPEN_02,
        message=f"Seat {act.seat} holds {' '.join(cards)}: no jacks or better to open. "
        "It may check (pass) or fold.",
        seat=act.seat,
        allowed=[{"action": "check"}, {"action": "fold"}],
    )


def opened_notice(before: HandState, after: HandState) -> list[Notice]:
    """OPEN-02/05: the opener is recorded and told to keep his openers."""
    if before.opener is not None or after.opener is None:
        return []
    seat = after.opener
    text = f"Seat {seat} opened: it must keep its openers to show them at the end of the hand"
    return [Notice(rule_id=RuleId.OPEN_02, message=text, seat=seat)]


def ask_all_in(hand: HandState, spec: TableSpec, rules: HouseRules) -> list[Notice]:
    """OPEN-08: the seat to act is all in for the antes; the dealer asks whether it opens."""
    seat = hand.to_act
    if seat is None or hand.phase is not Phase.BETTING_1 or not hand.player(seat).may_open:
        return []
    size = betting.opening_bet(hand, spec, rules)
    text = (
        f"Seat {seat} is all in for the antes: ask whether it opens. With openers it may declare "
        f"the pot open; every caller puts in the full opening bet of {size}, and it plays only "
        "for the antes it matched"
    )
    return [Notice(rule_id=RuleId.OPEN_08, message=text, seat=seat)]


def passed_out(hand: HandState, rules: HouseRules) -> bool:
    """OPEN-03: the first betting round ended and nobody opened."""
    first_round_over = hand.phase is Phase.BETTING_1 and hand.to_act is None
    return first_round_over and jackpots(hand, rules) and hand.opener is None


def antes_stopped(carried_pot: int, passed_out_deals: int, rules: HouseRules) -> bool:
    """OPEN-03 (RRoP: "most games stop adding antes after three consecutive deals"): after
    ``open.max_consecutive_antes`` passed-out deals in a row the next deal has no antes.

    >>> from dealerassist.rules.house_rules import OpenRules
    >>> three = HouseRules(open=OpenRules(max_consecutive_antes=3))
    >>> antes_stopped(18, 2, three), antes_stopped(27, 3, three), antes_stopped(27, 3, HouseRules())
    (False, True, False)
    """
    cap = rules.open.max_consecutive_antes
    return bool(cap) and carried_pot > 0 and passed_out_deals >= cap


def pass_out(hand: HandState) -> HandState:
    """OPEN-03: the cards are collected; the antes stay in the pot for the next deal."""
    players = tuple(evolve(p, committed=0, dead=0, bet=0, held=0, cards=()) for p in hand.players)
    result = {
        "pots": [],
        "passed_out": True,
        "carried": hand.pot,
        "stacks": {str(p.seat): p.stack for p in players},
    }
    return evolve(hand, players=players, phase=Phase.COMPLETE, to_act=None, result=result, dead=0)


def check_split(hand: HandState, act: Act, rules: HouseRules) -> None:
    """OPEN-07: only the opener splits openers, in a jackpots game, on the first draw."""
    if act.option != SPLIT:
        return
    if not jackpots(hand, rules) or act.seat != hand.opener or hand.phase is not Phase.DRAW_1:
        raise RuleViolation(
            rule_id=RuleId.OPEN_07,
            message=f"Seat {act.seat} did not open this pot: only the opener splits openers. "
            "Enter the draw without 'split'.",
            seat=act.seat,
            allowed=[{"action": "draw"}],
        )


def apply_split(hand: HandState, act: Act) -> HandState:
    """OPEN-07: the discards are kept aside under a chip to prove the openers later."""
    if act.option != SPLIT or not hand.has(act.seat):
        return hand
    player = hand.player(act.seat)
    return hand.with_player(evolve(player, split_discards=act.discards or ()))


def split_instruction(seat: int) -> dict[str, object]:
    text = f"Seat {seat} splits openers: keep its discards under a chip until the pot is decided"
    return {"code": "keep_discards", "seat": seat, "count": None, "text": text}


def prove(hand: HandState, seat: int, rules: HouseRules) -> tuple[HandState, list[Notice]]:
    """OPEN-05: the opener must show openers to win; a hand that cannot prove them (with the
    split discards, OPEN-07) is dead."""
    if seat != hand.opener or not jackpots(hand, rules) or not hand.has(seat):
        return hand, []
    player = hand.player(seat)
    cards = (*(player.shown or ()), *(player.split_discards or ()))
    if has_openers(cards):
        return hand, []
    hand = hand.with_player(evolve(player, mucked=True))
    text = (
        f"Seat {seat} opened but cannot show openers ({' '.join(cards)}): its hand is dead and "
        "cannot win the pot"
    )
    return evolve(hand, to_act=next_to_show(hand)), [
        Notice(rule_id=RuleId.OPEN_05, message=text, seat=seat)
    ]


def proof_reminder(hand: HandState, rules: HouseRules) -> list[dict[str, object]]:
    """OPEN-05 (USPCC): a pot won without a showdown: the opener still shows his openers."""
    result = hand.result
    if result is None or result.get("passed_out") or hand.phase is not Phase.COMPLETE:
        return []
    opener = hand.opener
    if opener is None or not jackpots(hand, rules) or not hand.has(opener):
        return []
    if hand.player(opener).shown is not None:
        return []
    text = f"Seat {opener} opened: it shows its openers to the table before the pot is pushed"
    return [{"code": "show_openers", "seat": opener, "count": None, "text": text}]
