"""PHH's player numbers and our seats, both ways (dealerassist.audit.phh.numbering): the
convention the writer numbers players by is the one the reader seats them by."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from phh_data import acceptance_files

from dealerassist.audit.phh.numbering import (
    Numbering,
    from_button,
    from_phh_order,
    player_name,
    player_number,
    to_phh_order,
)
from dealerassist.audit.phh.reader import parse_phh, replay_seats

SEATS = st.lists(st.integers(min_value=1, max_value=10), min_size=2, max_size=10, unique=True)


@given(SEATS)
def test_a_seat_numbered_as_a_player_sits_in_that_seat_again(seats: list[int]) -> None:
    """seat -> player -> seat and player -> seat -> player are the identity."""
    numbering = Numbering(tuple(seats))
    assert [numbering.seat(numbering.player(seat)) for seat in seats] == seats
    players = range(1, len(seats) + 1)
    assert [numbering.player(numbering.seat(player)) for player in players] == list(players)
    assert [player_number(numbering.name(seat)) for seat in seats] == list(players)


@given(SEATS, st.integers(min_value=1, max_value=10))
def test_players_are_numbered_from_the_first_seat_after_the_button(
    seats: list[int], button: int
) -> None:
    """p1 is the first seat dealt in after the button (clockwise, seat numbers wrapping); the
    button, when dealt in, is the last player."""
    numbering = from_button(seats, button)
    ring = sorted(seats)
    first = next((seat for seat in ring if seat > button), ring[0])
    assert numbering.seat(1) == first
    assert sorted(numbering.seats) == ring
    if button in seats:
        assert numbering.seat(len(seats)) == button


@given(st.lists(st.integers(), max_size=7))
def test_phh_lists_heads_up_begin_with_player_two_and_read_back(values: list[int]) -> None:
    """pokerkit: heads-up PHH lists p2's value first; any other size lists p1 first."""
    listed = to_phh_order(values)
    assert list(from_phh_order(listed)) == values
    assert listed == (values[::-1] if len(values) == 2 else values)


def test_the_reader_seats_each_player_where_the_writer_numbers_him() -> None:
    """Every acceptance hand: the replay seats (pN at seat N, the button last) numbered from
    the button as the writer numbers a table give the players back in their order."""
    for path in acceptance_files():
        hand = parse_phh(path.read_text(encoding="utf-8"))
        seats = replay_seats(hand)
        assert from_button(seats, seats[-1]).seats == seats, path


def test_player_words() -> None:
    """``p1`` names player 1; a word that is no player is none."""
    assert [player_name(n) for n in (1, 12)] == ["p1", "p12"]
    assert [player_number(word) for word in ("p1", "p120", "p0", "p", "d", "px")] == [
        1,
        120,
        None,
        None,
        None,
        None,
    ]
