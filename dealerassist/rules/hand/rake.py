"""The house's take at the pot: rake and jackpot drop (RAKE-01..RAKE-04), and the stakes check.

No rule book fixes the rake: it is house policy, posted at the table, set by a profile's
``[rake]`` section (``HouseRules.rake``). Off by default, so a profile without the section
settles every pot exactly as before.

- RAKE-01 ``collection = "percent"``: ``percent`` of each pot, rounded down to the table's
  smallest chip (``chip_unit``), at most ``cap`` a hand across all pots, taken from the main
  pot first, then the side pots in order; ``collection = "per_hand"``: a fixed ``per_hand``
  from the main pot first. Nothing when the pots total less than ``min_pot``. Every take
  (rake and drop) from a pot is whole chips of ``chip_unit``, at most what the pot holds in
  such chips (TDA 2024 Rule 20: chips are "broken into the smallest denomination in play",
  never below it): a pot of 3 at a table of 5-chips gives nothing.
- RAKE-02 ``no_draw_no_drop``: a hand over before the first draw pays no rake.
- RAKE-03 the jackpot drop: ``jackpot_drop`` chips, after the rake, when the pots total at least
  ``jackpot_min_pot``, only when there was a draw, and with ``jackpot_min_players`` dealt in.
- RAKE-05 ``collection = "time"`` instead of a rake: ``time_amount`` from each seat dealt in
  on the first hand of each ``time_period_minutes`` period, the periods counted from the
  table's first hand (:func:`start_period`, the time being the ``at`` the engine is given),
  taken once the posts are made, before the deal (:func:`collect_time`).
- RAKE-04 what is never raked: an uncalled bet (returned before the pots are built) and a
  chopped pot (SHOW-08: the blinds take their chips back; ``rules/hand/chop.py`` builds no pot).

The settlement (``showdown.award``) calls :func:`collect` with the pots it pushes; each winner's
share is split from what is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from dealerassist.rules.hand.instructions import instruction
from dealerassist.rules.hand.pots import Pot
from dealerassist.rules.model.actions import TableSpec
from dealerassist.rules.model.house_rules import Collection, HouseRules, RakeRules
from dealerassist.rules.model.messages import rake as say
from dealerassist.rules.model.outcomes import Instruction, TimeCollected
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.rules.model.state import HandState, Phase, TableState, evolve
from dealerassist.rules.model.violations import RuleId, RuleViolation

_BEFORE_THE_DRAW = (Phase.POSTING, Phase.DEAL, Phase.BETTING_1)
DROP = "drop"  # the instruction code: chips to the rake slot and the jackpot before the push
COLLECT_TIME = "collect_time"  # the instruction code: time collected as a hand starts
TIME_COLLECTED = "time_collected"  # the engine event of a time collection


@dataclass(frozen=True, slots=True)
class Take:
    """What the house takes from one pot."""

    rake: int = 0
    jackpot_drop: int = 0


def takes_at_pot(rake: RakeRules) -> bool:
    """True when the profile takes anything from a pot (a rake or a jackpot drop): only then
    does the result carry ``rake`` and ``jackpot_drop``."""
    return rake.collection in (Collection.PERCENT, Collection.PER_HAND) or rake.jackpot_drop > 0


def drawn(hand: HandState) -> bool:
    """RAKE-02/03: the hand reached its first draw (the draw game's "flop").

    >>> from dealerassist.rules.model.state import PlayerState
    >>> drawn(HandState(1, Phase.BETTING_1, 1, ())), drawn(HandState(1, Phase.DRAW_1, 1, ()))
    (False, True)
    """
    return hand.phase not in _BEFORE_THE_DRAW


def percent_of(amount: int, percent: int, chip_unit: int) -> int:
    """RAKE-01: ``percent`` of ``amount`` rounded down to a multiple of ``chip_unit``.

    >>> percent_of(69, 10, 1), percent_of(69, 10, 5), percent_of(9, 10, 1)
    (6, 5, 0)
    """
    raw = amount * percent // 100
    return raw - raw % chip_unit


def collect(hand: HandState, pots: Sequence[Pot], rules: HouseRules) -> list[Take] | None:
    """RAKE-01..04: what the house takes from each of ``pots`` (main pot first), or None when
    the profile takes nothing at the pot.

    >>> from dealerassist.rules.model.house_rules import RakeRules
    >>> from dealerassist.rules.model.state import PlayerState
    >>> rules = HouseRules(rake=RakeRules(collection=Collection.PERCENT, percent=10, cap=4))
    >>> hand = HandState(1, Phase.SHOWDOWN, 1, ())
    >>> collect(hand, [Pot(30, (1, 2, 3)), Pot(20, (2, 3))], rules)
    [Take(rake=3, jackpot_drop=0), Take(rake=1, jackpot_drop=0)]
    """
    rake = rules.rake
    if not takes_at_pot(rake):
        return None
    total = sum(pot.amount for pot in pots)
    raked = _rake(pots, rake, total) if _rakes(hand, rake, total) else [0] * len(pots)
    left = [pot.amount - taken for pot, taken in zip(pots, raked, strict=True)]
    drops = _drops(hand, rake, total)
    dropped = _from_first(left, rake.jackpot_drop, rake.chip_unit) if drops else [0] * len(pots)
    return [Take(r, d) for r, d in zip(raked, dropped, strict=True)]


def _rakes(hand: HandState, rake: RakeRules, total: int) -> bool:
    if rake.collection not in (Collection.PERCENT, Collection.PER_HAND):
        return False
    if rake.no_draw_no_drop and not drawn(hand):  # RAKE-02
        return False
    return total > 0 and total >= rake.min_pot


def _rake(pots: Sequence[Pot], rake: RakeRules, total: int) -> list[int]:
    if rake.collection is Collection.PER_HAND:
        return _from_first([pot.amount for pot in pots], rake.per_hand, rake.chip_unit)
    left = rake.cap if rake.cap else total
    taken = []
    for pot in pots:  # the main pot first, then the side pots in order, until the cap
        amount = min(percent_of(pot.amount, rake.percent, rake.chip_unit), left)
        taken.append(amount)
        left -= amount
    return taken


def _drops(hand: HandState, rake: RakeRules, total: int) -> bool:
    """RAKE-03: a jackpot drop only when there was a draw, the pot reached its size and enough
    players were dealt in."""
    if not rake.jackpot_drop or not drawn(hand) or total < max(rake.jackpot_min_pot, 1):
        return False
    return len(hand.players) >= rake.jackpot_min_players


def _from_first(amounts: Sequence[int], wanted: int, chip_unit: int = 1) -> list[int]:
    """``wanted`` chips taken from ``amounts`` in order, each at most what it holds in whole
    chips of ``chip_unit`` (RAKE-01: the house takes the smallest chip in play, never part of
    one, so a pot holding less than a chip gives nothing and the rest comes from the next).

    >>> _from_first([3, 10], 5), _from_first([3, 12], 5, 5), _from_first([3], 15, 5)
    ([3, 2], [0, 5], [0])
    """
    taken = []
    for amount in amounts:
        part = min(amount - amount % chip_unit, wanted)
        taken.append(part)
        wanted -= part
    return taken


def result_fields(pots: list[dict[str, Any]]) -> dict[str, int]:
    """The hand result's totals, from the pots' ``rake`` and ``jackpot_drop``."""
    return {
        "rake": sum(pot.get("rake", 0) for pot in pots),
        "jackpot_drop": sum(pot.get("jackpot_drop", 0) for pot in pots),
    }


def drop_instruction(result: dict[str, Any]) -> Instruction | None:
    """The dealer's instruction before the pot is pushed: what goes to the rake slot and the
    jackpot, then the pushes ("Drop 4 to the rake slot and 1 to the jackpot; push 65 to seat
    1"); None when nothing is dropped."""
    raked, dropped = result.get("rake", 0), result.get("jackpot_drop", 0)
    if not raked and not dropped:
        return None
    parts = []
    if raked:
        parts.append(say.TO_RAKE_SLOT(chips=raked))
    if dropped:
        parts.append(say.TO_JACKPOT(chips=dropped))
    pots = result["pots"]
    text = say.DROP(parts=Listed(tuple(parts), Join.AND))
    for index, pot in reversed(list(enumerate(pots))):
        for seat, chips in pot["shares"].items():
            text = say.THEN(before=text, after=_push(chips, int(seat), index, len(pots)))
    return instruction(DROP, None, raked + dropped, text)


def _push(chips: int, seat: int, index: int, pots: int) -> Said:
    """A push after the drop: from which pot, when there are side pots."""
    if pots == 1:
        return say.PUSH(chips=chips, seat=seat)
    pot = say.MAIN_POT() if index == 0 else say.SIDE_POT(index=index)
    return say.PUSH_FROM(chips=chips, pot=pot, seat=seat)


def check_stakes(spec: TableSpec, rules: HouseRules) -> None:
    """RAKE-01: the rake is rounded to the table's smallest chip, so that chip must divide the
    blinds, antes and bets the table is created with."""
    unit = rules.rake.chip_unit
    if unit == 1:
        return
    stakes = spec.stakes.to_dict()
    odd = [say.STAKE(name=name, amount=amount) for name, amount in stakes.items() if amount % unit]
    if odd:
        raise RuleViolation(
            rule_id=RuleId.RAKE_01,
            said=say.CHIP_UNIT(
                profile=rules.profile_id, unit=unit, odd=Listed(tuple(odd), Join.COMMA)
            ),
        )


def start_period(
    state: TableState, hand: HandState, rules: HouseRules, at: datetime
) -> tuple[TableState, HandState]:
    """RAKE-05: when ``hand`` starts (at ``at``) a new period, ``time_amount`` is due from each
    seat dealt in (``collect_time`` takes it once the posts are made).

    The first period starts with the table's first hand; period ``n`` starts
    ``n * time_period_minutes`` later; a period in which no hand starts is not collected.
    """
    rake = rules.rake
    if rake.collection is not Collection.TIME:
        return state, hand
    started = datetime.fromisoformat(state.time_started) if state.time_started else at
    period = max(0, (at - started) // timedelta(minutes=rake.time_period_minutes))
    if state.time_started is not None and period < state.time_periods:
        return state, hand
    state = evolve(state, time_started=started.isoformat(), time_periods=period + 1)
    return state, evolve(hand, time_due=rake.time_amount)


def collect_time(hand: HandState) -> tuple[HandState, list[TimeCollected], list[Instruction]]:
    """RAKE-05: the posts made, the time due from each seat dealt in (all it has left, if
    less); the hand, the ``time_collected`` event and the dealer's instruction.

    >>> from dealerassist.rules.model.state import PlayerState
    >>> hand = HandState(1, Phase.POSTING, 1, (PlayerState(1, 95), PlayerState(2, 4)), time_due=6)
    >>> hand, events, _ = collect_time(hand)
    >>> [p.stack for p in hand.players], events[0].seats, hand.time_collected
    ([89, 0], {'1': 6, '2': 4}, 10)
    """
    due = hand.time_due
    if not due:
        return hand, [], []
    paid = {player.seat: min(due, player.stack) for player in hand.players}
    players = tuple(evolve(p, stack=p.stack - paid[p.seat]) for p in hand.players)
    total = sum(paid.values())
    hand = evolve(hand, players=players, time_due=0, time_collected=total)
    event = TimeCollected({str(seat): chips for seat, chips in paid.items()}, total)
    seats = Listed(tuple(paid), Join.COMMA)
    text = say.COLLECT_TIME(due=due, seats=seats, total=total)
    return hand, [event], [instruction(COLLECT_TIME, None, total, text)]
