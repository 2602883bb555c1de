"""The stub: reserve, reshuffle pools and the dealing script of one request (DRAW-04/05/06)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerassist.rules.hand.stub import (
    Step,
    deliverable,
    in_pool,
    owed_seats,
    pool_parts,
    pool_size,
    reserve,
    reshuffle,
    supplies,
)
from dealerassist.rules.model.house_rules import BottomCard, DrawRules, HouseRules, ReshufflePool
from dealerassist.rules.model.state import HandState, Phase, PlayerState


def rules(**draw: object) -> HouseRules:
    return HouseRules(draw=replace(DrawRules(), **draw))  # type: ignore[arg-type]


def hand(stub: int, piles: dict[int, tuple[int, ...]], muck: int = 0, burns: int = 1) -> HandState:
    """A draw-2 hand: seats 1-3 with the given discard piles per draw round."""
    players = tuple(
        PlayerState(seat=seat, stack=100, held=5, drawn=(0,) * len(pile), pile=pile)
        for seat, pile in piles.items()
    )
    return HandState(
        hand_no=1,
        phase=Phase.DRAW_2,
        button=3,
        players=players,
        stub=stub,
        burns=burns,
        muck=muck,
        burned_this_draw=True,
    )


def test_pools_follow_the_house_option() -> None:
    """DRAW-06: which piles join the reshuffle for seat 2 drawing in draw 2."""
    state = hand(2, {1: (3, 2), 2: (4, 1), 3: (0, 5)}, muck=5)
    sizes = {pool: pool_size(state, 2, rules(reshuffle_pool=pool), 2) for pool in ReshufflePool}
    assert sizes == {
        ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS: 1 + 3 + 2 + 0 + 5,
        ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS: 1 + 5 + 3 + 0,  # never seat 2's own 4
        ReshufflePool.ALL_DISCARDS_EXCEPT_OWN: 1 + 5 + 3 + 2 + 0 + 5,
        ReshufflePool.ALL_DISCARDS: 1 + 5 + 3 + 2 + 4 + 1 + 0 + 5,
    }
    assert not in_pool(2, 1, 2, rules(), 2)


def test_reshuffle_empties_the_pool_into_a_new_stub() -> None:
    """The seat's own discards stay out; the rest and the leftover stub make the new stub."""
    state = reshuffle(hand(1, {1: (3, 2), 2: (4, 1)}), 2, rules(), 2)
    assert state.stub == 1 + 1 + 5
    assert state.burns == 0
    assert state.player(1).pile == (0, 0)
    assert state.player(2).pile == (4, 1)


def test_reserve_keeps_the_bottom_card_unless_the_house_deals_it() -> None:
    """DRAW-05: never -> 1, normal_card -> 0."""
    state = hand(5, {1: (0, 0), 2: (0,)})
    assert reserve(state, 1, rules(), 2) == 1
    assert reserve(state, 1, rules(bottom_card=BottomCard.NORMAL_CARD), 2) == 0


def test_deliverable_scripts_the_reshuffle_when_the_stub_runs_out() -> None:
    """Three cards from a stub of two (one is the bottom card): one, stop, reshuffle, two."""
    planned = deliverable(hand(2, {1: (3, 0), 2: (0,)}), 2, 3, rules(), 2)
    assert planned is not None
    state, steps = planned
    assert steps == (
        Step("deal", 1, 2),
        Step("stop", 1, 2),
        Step("reshuffle", 1 + 1 + 3, 2, (("stub", 1), ("burns", 1), ("seat:1", 3))),
        Step("deal", 2, 2),
    )
    assert state.stub == 3


def test_deliverable_is_none_when_even_a_reshuffle_is_short() -> None:
    """Nothing to reshuffle: the request cannot be met."""
    assert deliverable(hand(2, {1: (0, 0), 2: (0,)}, burns=0), 2, 3, rules(), 2) is None


def test_a_seat_owed_cards_keeps_its_discards_out_of_every_live_pool() -> None:
    """DRAW-03/06: seat 1 waits for its fifth card; a reshuffle for seat 2 leaves its piles
    out under every pool but the permissive replay pool."""
    state = hand(1, {1: (3, 5), 2: (0, 2), 3: (0, 4)})
    state = replace(state, come_back=(1,))
    assert owed_seats(state, 2) == frozenset({1, 2})
    sizes = {pool: pool_size(state, 2, rules(reshuffle_pool=pool), 2) for pool in ReshufflePool}
    assert sizes[ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS] == 1 + 4
    assert sizes[ReshufflePool.ALL_DISCARDS_EXCEPT_OWN] == 1 + 4
    assert sizes[ReshufflePool.ALL_DISCARDS] == 1 + 8 + 2 + 4
    after = reshuffle(state, 2, rules(), 2)
    assert after.player(1).pile == (3, 5) and after.player(3).pile == (0, 0)


def test_pool_parts_name_every_pile_taken_and_kept() -> None:
    """DRAW-06: the parts of a reshuffle for seat 2: stub, burns, seat 1's and 3's discards;
    seat 2's own kept out; the muck only where the pool takes it."""
    state = hand(1, {1: (3,), 2: (2,), 3: (4,)}, muck=5)
    assert pool_parts(state, 2, rules(), 1) == (
        ("stub", 1),
        ("burns", 1),
        ("seat:1", 3),
        ("kept:2", 2),
        ("seat:3", 4),
    )
    wsop = rules(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)
    assert ("muck", 5) in pool_parts(state, 2, wsop, 1)
    assert ("kept:1", 3) in pool_parts(state, 2, wsop, 1)


def test_deliverable_stops_and_reshuffles_before_the_burn_when_only_the_bottom_card_is_left() -> (
    None
):
    """DRAW-04/05/06: no card to burn but the bottom one: stop, reshuffle, burn, deal."""
    state = replace(hand(1, {1: (3,), 2: (0,)}), burned_this_draw=False)
    planned = deliverable(state, 2, 2, rules(), 1)
    assert planned is not None
    assert [(s.code, s.count) for s in planned[1]] == [
        ("stop", 1),
        ("reshuffle", 5),
        ("burn", 1),
        ("deal", 2),
    ]


_PILES = st.tuples(st.integers(0, 4), st.integers(0, 4))


@settings(max_examples=400, deadline=None)
@given(
    stub=st.integers(0, 6),
    burns=st.integers(0, 3),
    muck=st.integers(0, 6),
    piles=st.tuples(_PILES, _PILES, _PILES),
    pending=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
    come_back=st.lists(st.integers(1, 3), max_size=2),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    bottom=st.sampled_from(BottomCard),
    pool=st.sampled_from(ReshufflePool),
    seat=st.integers(1, 3),
    count=st.integers(0, 5),
    from_pool=st.integers(0, 3),
    draw_round=st.integers(1, 2),
)
def test_supplies_answers_as_deliverable_does(
    stub: int,
    burns: int,
    muck: int,
    piles: tuple[tuple[int, int], ...],
    pending: tuple[int, ...],
    come_back: list[int],
    flags: tuple[bool, bool, bool, bool],
    bottom: BottomCard,
    pool: ReshufflePool,
    seat: int,
    count: int,
    from_pool: int,
    draw_round: int,
) -> None:
    """DRAW-04/05/06: the what-if answer in numbers is the dealing script's, in every case."""
    burn_before, burned, spare, later = flags
    players = tuple(
        PlayerState(
            seat=n, stack=100, held=5, drawn=(0,) * (draw_round - 1), pile=pile, pending=owed
        )
        for n, pile, owed in zip((1, 2, 3), piles, pending, strict=True)
    )
    state = replace(
        hand(stub, {}, muck=muck, burns=burns),
        players=players,
        come_back=tuple(come_back),
        burned_this_draw=burned,
        spare_burn=spare,
    )
    house = rules(
        burn_before=burn_before,
        bottom_card=bottom,
        reshuffle_pool=pool,
        reshuffle_keeps_out_later_drawers=later,
    )
    want = deliverable(state, seat, count, house, draw_round, from_pool) is not None
    assert supplies(state, seat, count, house, draw_round, from_pool) is want
