"""PHH's player numbers and our seats, both ways, in one place.

PHH numbers the players dealt in ``p1..pn`` in the order they act after the draw: from the
first seat dealt in after the button (the small blind), the button last; heads-up (pokerkit's
convention) p1 is the big blind and p2 the button and small blind, and PHH's per-player lists
(``antes``, ``blinds_or_straddles``) begin with p2's. ``Numbering`` is one hand's seats by
player: the writer makes it from the recorded table (``from_button``), the reader from the
replay table it seats (pN at seat N, the button last, ``reader.replay_seats``), and both turn
seats into players and players into seats through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Numbering:
    """The seat of each PHH player: ``seats[n - 1]`` is the seat of pn.

    >>> numbering = Numbering((4, 6, 1))
    >>> numbering.player(6), numbering.seat(2), numbering.name(1), numbering.player(5)
    (2, 6, 'p3', 0)
    """

    seats: tuple[int, ...]
    _players: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = {seat: number for number, seat in enumerate(self.seats, start=1)}
        if len(players) != len(self.seats):
            raise ValueError(f"a seat holds two players: {self.seats}")
        object.__setattr__(self, "_players", players)

    def __len__(self) -> int:
        return len(self.seats)

    def __contains__(self, seat: object) -> bool:
        return seat in self._players

    def player(self, seat: int) -> int:
        """The player number of ``seat``, 0 when the seat was not dealt in."""
        return self._players.get(seat, 0)

    def seat(self, player: int) -> int:
        """The seat of player ``player`` (1..n)."""
        if not 1 <= player <= len(self.seats):
            raise ValueError(f"player {player} of {len(self.seats)}")
        return self.seats[player - 1]

    def name(self, seat: int) -> str:
        """The player's word in a PHH action (``p3``)."""
        return player_name(self._players[seat])

    def by_player(self, by_seat: Mapping[int, T], default: T) -> list[T]:
        """A value of each seat (``default`` for a seat without one), as a list by player."""
        return [by_seat.get(seat, default) for seat in self.seats]


def from_button(dealt: Iterable[int], button: int) -> Numbering:
    """The players of the seats ``dealt`` in, numbered from the first seat after ``button``.

    >>> from_button([1, 3, 5, 8], 3).seats
    (5, 8, 1, 3)
    """
    ring = sorted(dealt)
    after = [seat for seat in ring if seat > button]
    return Numbering(tuple(after + [seat for seat in ring if seat <= button]))


def to_phh_order(by_player: Sequence[T]) -> list[T]:
    """A list by player (p1 first) in PHH's order: heads-up pokerkit lists p2's first.

    >>> to_phh_order([10, 5]), to_phh_order([5, 10, 0])
    ([5, 10], [5, 10, 0])
    """
    return list(by_player[::-1] if len(by_player) == 2 else by_player)


def from_phh_order(listed: Sequence[T]) -> tuple[T, ...]:
    """A PHH per-player list by player (p1 first); ``to_phh_order`` undone.

    >>> from_phh_order((5, 10))
    (10, 5)
    """
    return tuple(listed[::-1] if len(listed) == 2 else listed)


def player_name(number: int) -> str:
    """Player ``number``'s word in a PHH action: ``p1`` for 1."""
    return f"p{number}"


_NUMBERS = {player_name(number): number for number in range(1, 100)}  # the usual ones, at once


def player_number(word: str) -> int | None:
    """The number of a PHH player word (``p3`` -> 3), None if ``word`` names no player.

    >>> player_number("p12"), player_number("p0"), player_number("d")
    (12, None, None)
    """
    number = _NUMBERS.get(word)
    if number is not None:
        return number
    if word[:1] != "p" or not word[1:].isdigit() or int(word[1:]) < 1:
        return None
    return int(word[1:])
