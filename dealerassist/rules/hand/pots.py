"""Pots: main and side pots (SHOW-07), uncalled bets, and splits with odd chips (SHOW-06/09)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealerassist.rules.model.state import HandState, evolve


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(committed: Mapping[int, int], live: Sequence[int], dead: int = 0) -> list[Pot]:
    """SHOW-07: one pot per all-in level; a seat wins only what it matched from each opponent.

    >>> build_pots({1: 50, 2: 100, 3: 100}, [1, 2, 3])
    [Pot(amount=150, eligible=(1, 2, 3)), Pot(amount=100, eligible=(2, 3))]
    >>> build_pots({1: 20, 2: 20, 3: 10}, [1, 2], dead=5)
    [Pot(amount=55, eligible=(1, 2))]
    """
    levels = sorted({committed[seat] for seat in live if committed[seat] > 0})
    chips = [c for c in committed.values() if c > 0]
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        eligible = tuple([seat for seat in live if committed[seat] >= level])
        pots = _add(pots, Pot(_between(chips, previous, level), eligible))
        previous = level
    leftover = _between(chips, previous, max(chips, default=0)) + dead
    if not pots:
        return [Pot(leftover, tuple(live))] if leftover else []
    if leftover:
        pots[0] = evolve(pots[0], amount=pots[0].amount + dead)
        if leftover > dead:
            pots[-1] = evolve(pots[-1], amount=pots[-1].amount + leftover - dead)
    return pots


def _between(chips: list[int], low: int, high: int) -> int:
    """The chips put in above ``low`` and up to ``high`` (one plain loop: a showdown builds
    the pots at every show)."""
    total = 0
    for put in chips:
        if put > low:
            total += (put if put < high else high) - low
    return total


def _add(pots: list[Pot], pot: Pot) -> list[Pot]:
    if pots and pots[-1].eligible == pot.eligible:
        return [*pots[:-1], Pot(pots[-1].amount + pot.amount, pot.eligible)]
    return [*pots, pot]


def hand_pots(hand: HandState) -> list[Pot]:
    """The pots of a hand from its players' commitments and dead money."""
    committed = {player.seat: player.committed for player in hand.players}
    live = [player.seat for player in hand.players if not player.folded]
    return build_pots(committed, live, hand.dead + sum(player.dead for player in hand.players))


def uncalled(bets: Mapping[int, int]) -> tuple[int, int] | None:
    """The seat whose bet nobody matched and the excess to return to it, if any.

    >>> uncalled({1: 40, 2: 25, 3: 0})
    (1, 15)
    >>> uncalled({1: 40, 2: 40}) is None
    True
    """
    if not bets:
        return None
    ranked = sorted(bets.items(), key=lambda item: item[1], reverse=True)
    top_seat, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    return (top_seat, top - second) if top > second else None


def unmatched(hand: HandState) -> dict[int, int]:
    """SHOW-07 / IRREG-13: the chips of dead hands that no live hand matched, by seat: what
    each folded or killed seat put in above the highest commitment of a seat still in. Only
    a kill leaves any (a seat folds facing a bigger bet), e.g. every hand in a side pot killed
    with the short all-in left: he wins only what he matched, so they go back.

    >>> from dealerassist.rules.model.state import Phase, PlayerState
    >>> players = (PlayerState(1, 0, committed=30), PlayerState(2, 60, committed=40, folded=True),
    ...            PlayerState(3, 60, committed=40, folded=True))
    >>> unmatched(HandState(1, Phase.BETTING_2, 1, players))
    {2: 10, 3: 10}
    """
    live = [player.committed for player in hand.players if not player.folded]
    if not live:
        return {}
    top = max(live)
    return {p.seat: p.committed - top for p in hand.players if p.folded and p.committed > top}


def return_uncalled(hand: HandState) -> HandState:
    """Give back the chips no live hand matched (``unmatched``), then the part of the round's
    highest bet that nobody called."""
    dead = unmatched(hand)
    for seat, amount in dead.items():
        player = hand.player(seat)
        hand = hand.with_player(
            evolve(
                player,
                stack=player.stack + amount,
                committed=player.committed - amount,
                bet=player.bet - min(player.bet, amount),
                returned=player.returned + amount,
            )
        )
    if dead:
        hand = evolve(hand, current_bet=max(p.bet for p in hand.players))
    excess = uncalled({player.seat: player.bet for player in hand.players})
    if excess is None:
        return hand
    seat, amount = excess
    player = hand.player(seat)
    returned = evolve(
        player,
        stack=player.stack + amount,
        committed=player.committed - amount,
        bet=player.bet - amount,
        returned=player.returned + amount,
    )
    current = max((p.bet for p in hand.players if p.seat != seat), default=0)
    return evolve(hand.with_player(returned), current_bet=max(current, returned.bet))


def split(
    amount: int, winners: Sequence[int], order: Sequence[int], whole_remainder: bool = False
) -> dict[int, int]:
    """SHOW-09 / SHOW-06: equal shares; odd chips one each from the first winner in ``order``
    (``whole_remainder``, pokerkit: all of them to the first winner).

    ``order`` lists seats clockwise from the first seat left of the button.
    >>> split(51, [3, 1], [2, 3, 1])
    {3: 26, 1: 25}
    >>> split(50, [3, 1, 2], [2, 3, 1], whole_remainder=True)
    {2: 18, 3: 16, 1: 16}
    """
    ordered = [seat for seat in order if seat in winners]
    share, odd = divmod(amount, len(ordered))
    if whole_remainder:
        return {seat: share + (odd if index == 0 else 0) for index, seat in enumerate(ordered)}
    return {seat: share + (1 if index < odd else 0) for index, seat in enumerate(ordered)}
