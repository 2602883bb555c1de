"""Ante games with openers ("jackpots"): opening, nobody opens, splitting and proving openers,
a seat all in for the antes asked whether it opens, and one that opened falsely sitting out
until a legally opened pot has been won (OPEN-02, 03, 05, 07, 08)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dealerassist.rules.cards.joker import JOKER
from dealerassist.rules.hand import betting
from dealerassist.rules.hand.dealing import UNKNOWN
from dealerassist.rules.hand.instructions import instruction
from dealerassist.rules.hand.showdown import next_to_show
from dealerassist.rules.model.actions import Act, ActionKind, Mode, TableSpec
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import opening as say
from dealerassist.rules.model.outcomes import Instruction
from dealerassist.rules.model.ruling_commands import Ruling
from dealerassist.rules.model.said import Join, Listed
from dealerassist.rules.model.state import HandState, Phase, PlayerState, TableState, evolve
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation

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
        said=say.NO_OPENERS(seat=act.seat, cards=" ".join(cards)),
        seat=act.seat,
        allowed=[{"action": "check"}, {"action": "fold"}],
    )


def opened_notice(before: HandState, after: HandState) -> list[Notice]:
    """OPEN-02/05: the opener is recorded and told to keep his openers."""
    if before.opener is not None or after.opener is None:
        return []
    seat = after.opener
    return [Notice(rule_id=RuleId.OPEN_02, said=say.OPENED_KEEP_OPENERS(seat=seat), seat=seat)]


def ask_all_in(hand: HandState, spec: TableSpec, rules: HouseRules) -> list[Notice]:
    """OPEN-08: the seat to act is all in for the antes; the dealer asks whether it opens."""
    seat = hand.to_act
    if seat is None or hand.phase is not Phase.BETTING_1 or not hand.player(seat).may_open:
        return []
    size = betting.opening_bet(hand, spec, rules)
    return [Notice(rule_id=RuleId.OPEN_08, said=say.ASK_ALL_IN(seat=seat, size=size), seat=seat)]


def passed_out(hand: HandState, rules: HouseRules) -> bool:
    """OPEN-03: the first betting round ended and nobody opened."""
    first_round_over = hand.phase is Phase.BETTING_1 and hand.to_act is None
    return first_round_over and jackpots(hand, rules) and hand.opener is None


def antes_stopped(carried_pot: int, passed_out_deals: int, rules: HouseRules) -> bool:
    """OPEN-03 (RRoP: "most games stop adding antes after three consecutive deals"): after
    ``open.max_consecutive_antes`` passed-out deals in a row the next deal has no antes.

    >>> from dealerassist.rules.model.house_rules import OpenRules
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
            said=say.ONLY_OPENER_SPLITS(seat=act.seat),
            seat=act.seat,
            allowed=[{"action": "draw"}],
        )


def apply_split(hand: HandState, act: Act) -> HandState:
    """OPEN-07: the discards are kept aside under a chip to prove the openers later."""
    if act.option != SPLIT or not hand.has(act.seat):
        return hand
    player = hand.player(act.seat)
    return hand.with_player(evolve(player, split_discards=act.discards or ()))


def split_instruction(seat: int) -> Instruction:
    return instruction("keep_discards", seat, None, say.SPLITS_OPENERS(seat=seat))


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
    text = say.CANNOT_SHOW_OPENERS(seat=seat, cards=" ".join(cards))
    turn = next_to_show(hand, rules)  # SHOW-01
    return evolve(hand, to_act=turn), [Notice(rule_id=RuleId.OPEN_05, said=text, seat=seat)]


def proof_reminder(hand: HandState, rules: HouseRules) -> list[Instruction]:
    """OPEN-05 (USPCC): a pot won without a showdown: the opener still shows his openers."""
    result = hand.result
    if result is None or result.get("passed_out") or hand.phase is not Phase.COMPLETE:
        return []
    opener = hand.opener
    if opener is None or not jackpots(hand, rules) or not hand.has(opener):
        return []
    if hand.player(opener).shown is not None:
        return []
    return [instruction("show_openers", opener, None, say.SHOW_OPENERS(seat=opener))]


# -- OPEN-08: an all-in false opener sits out until a legally opened pot has been won ----------

FALSE_OPEN_ALL_IN = "false_open_all_in"  # the floor's OPEN-08 ruling (ruling_options.py)
_UNTIL = say.UNTIL_LEGAL_POT()


def all_in_for_the_antes(player: PlayerState, ante: int) -> bool:
    """OPEN-08: the seat antes and has put in no more than its ante, nothing behind: it declared
    its open without putting in the opening bet."""
    return player.stack == 0 and "ante" in player.owes_what and player.committed <= ante


def mark_false_opener(
    table: TableState, hand: HandState, seat: int, proof: Sequence[Notice]
) -> tuple[TableState, list[Notice]]:
    """OPEN-08: the opener all in for the antes could not prove openers (OPEN-05): besides
    losing the antes, his seat sits out until a legally opened pot has been won."""
    if not proof or seat != hand.opener:
        return table, []
    if not all_in_for_the_antes(hand.player(seat), table.spec.stakes.ante):
        return table, []
    return sit_out_false_opener(table, seat)


def sit_out_false_opener(table: TableState, seat: int) -> tuple[TableState, list[Notice]]:
    """OPEN-08: mark the seat (kept over hands, a rebuy, a sit-out and a seat change)."""
    current = table.seat(seat)
    if current.player is None:
        return table, []
    text = say.FALSE_OPENER_SITS_OUT(seat=seat, until=_UNTIL)
    notice = Notice(rule_id=RuleId.OPEN_08, said=text, seat=seat)
    return table.with_seat(evolve(current, false_opener=True)), [notice]


def ruled_false_opener(
    table: TableState, ruling: Ruling, killed: Sequence[int]
) -> tuple[TableState, list[Notice]]:
    """OPEN-08: the floor's ``false_open_all_in`` ruling on the current hand sits out the seat
    whose hand it killed, or without a kill (the hand is over) the hand's opener."""
    hand = table.hand
    if ruling.rule_id != RuleId.OPEN_08.value or ruling.decision != FALSE_OPEN_ALL_IN:
        return table, []
    if hand is None or ruling.hand_no not in (None, hand.hand_no):
        return table, []
    seats = list(killed) or ([hand.opener] if hand.opener is not None else [])
    notices: list[Notice] = []
    for seat in seats:
        table, notice = sit_out_false_opener(table, seat)
        notices.extend(notice)
    return table, notices


def legally_opened_and_won(table: TableState, hand: HandState, rules: HouseRules) -> bool:
    """OPEN-08: the hand was opened, its opener not found to have opened falsely (OPEN-05 at
    the showdown, or the floor's OPEN-08 ruling), and its pot was won (not passed out, not a
    misdeal)."""
    result = hand.result
    if hand.phase is not Phase.COMPLETE or result is None or not result.get("pots"):
        return False
    opener = hand.opener
    if opener is None or not jackpots(hand, rules) or not hand.has(opener):
        return False
    if table.seat(opener).false_opener:
        return False
    player = hand.player(opener)
    return player.shown is None or has_openers((*player.shown, *(player.split_discards or ())))


def settle_false_openers(table: TableState, rules: HouseRules) -> TableState:
    """OPEN-08: once a legally opened pot has been won, the false openers who sat it out (or
    were away, or had no chips) are dealt in again."""
    waiting = [s for s in table.seats if s.false_opener]
    if not waiting and not table.false_openers_away:
        return table
    hand = table.hand
    if hand is None or not legally_opened_and_won(table, hand, rules):
        return table
    for seat in waiting:
        if not hand.has(seat.seat):
            table = table.with_seat(evolve(seat, false_opener=False))
    return evolve(table, false_openers_away=()) if table.false_openers_away else table


def check_not_waiting(hand: HandState, seat: int) -> None:
    """OPEN-08: a false opener who waits is not dealt in: no entry for his seat this hand."""
    if (seat, RuleId.OPEN_08) not in hand.waiting:
        return
    if hand.to_act is None:
        text = say.FALSE_OPENER_NO_CARDS(seat=seat, until=_UNTIL)
    else:
        text = say.FALSE_OPENER_NO_CARDS_NEXT(seat=seat, until=_UNTIL, to_act=hand.to_act)
    raise RuleViolation(rule_id=RuleId.OPEN_08, said=text, seat=seat)


def check_enough_dealt(hand: HandState) -> None:
    """OPEN-08: the false openers still sit out when too few others are left to deal."""
    sitting = [seat for seat, rule in hand.waiting if rule == RuleId.OPEN_08]
    if len(hand.players) >= 2 or not sitting:
        return
    seats = Listed(tuple(sitting), Join.COMMA)
    raise RuleViolation(
        rule_id=RuleId.OPEN_08,
        said=say.FALSE_OPENERS_TOO_FEW(seats=seats, until=_UNTIL),
        seat=sitting[0],
    )


def after_leaving(before: TableState, table: TableState, seat: int) -> TableState:
    """OPEN-08: a false opener who leaves keeps his wait: it is his again if he sits down
    before a legally opened pot has been won."""
    player = before.seat(seat).player
    if not before.seat(seat).false_opener or player is None:
        return table
    return evolve(table, false_openers_away=(*table.false_openers_away, player))


def after_return(table: TableState, seat: int, player: str) -> TableState:
    """OPEN-08: a false opener who left sits down again (a rebuy): he still waits."""
    if player not in table.false_openers_away:
        return table
    away = tuple(p for p in table.false_openers_away if p != player)
    table = table.with_seat(evolve(table.seat(seat), false_opener=True))
    return evolve(table, false_openers_away=away)
