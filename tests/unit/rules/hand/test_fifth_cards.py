"""The end of a draw: owed fifth cards and fouled hands (DRAW-03, DRAW-10)."""

from __future__ import annotations

from engine_table import Table

from dealerassist.rules.hand.drawing import can_supply
from dealerassist.rules.hand.fifth_cards import finish_draw, fouled_notice, splits
from dealerassist.rules.hand.stub import Step
from dealerassist.rules.model.actions import Mode, Variant
from dealerassist.rules.model.house_rules import DrawRules, HouseRules, ReshufflePool
from dealerassist.rules.model.state import HandState, Phase, PlayerState
from dealerassist.rules.model.violations import RuleId


def test_DRAW_10_rejects_a_hand_left_short_after_the_draw() -> None:
    """Count mode: a seat whose fifth card cannot be dealt is fouled, with a notice; its
    cards go to the muck and its chips stay in the pot."""
    players = (
        PlayerState(seat=1, stack=90, committed=10, held=4, drawn=(5,), pile=(5,)),
        PlayerState(seat=2, stack=90, committed=10, held=5, drawn=(0,)),
        PlayerState(seat=3, stack=90, committed=10, held=5, drawn=(0,)),
    )
    hand = HandState(
        hand_no=1, phase=Phase.DRAW_1, button=3, players=players, come_back=(1,), stub=0
    )
    after, steps, fouled = finish_draw(hand, HouseRules(), 1)
    assert steps == (Step("stop", 0, 1),)
    assert fouled == ((1, 4),)
    assert after.player(1).folded and after.player(1).held == 0
    assert (after.muck, after.pot) == (4, 30)
    notice = fouled_notice(1, 4)
    assert notice.rule_id is RuleId.DRAW_10 and "foul" in notice.message


def test_DRAW_10_accepts_five_card_hands_after_the_draw() -> None:
    """Nobody is fouled when every live hand has five cards."""
    players = tuple(PlayerState(seat=s, stack=90, held=5, drawn=(1,)) for s in (1, 2))
    hand = HandState(hand_no=1, phase=Phase.DRAW_1, button=2, players=players, stub=20)
    after, steps, fouled = finish_draw(hand, HouseRules(), 1)
    assert (steps, fouled) == ((), ())
    assert not any(p.folded for p in after.players)


def test_DRAW_03_splits_only_five_card_draws_where_the_house_splits_them() -> None:
    """max_consecutive 4 splits a five-card draw; four cards or max_consecutive 5 do not."""
    five_in_a_row = HouseRules(draw=DrawRules(max_consecutive=5))
    assert (splits(5, HouseRules()), splits(4, HouseRules()), splits(5, five_in_a_row)) == (
        True,
        False,
        False,
    )


def _five_card_draw_all_exposed(mode: Mode) -> Table:
    """2-7 triple draw, three players, button 3: seat 1 draws five (four now, DRAW-03) and the
    dealer exposes all four (IRREG-04): five cards are owed to seat 1 after the others."""
    table = Table([100, 100, 100], Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, mode=mode)
    table.start(button=3)
    if mode is Mode.CARD:
        for seat, cards in {1: "7h 5c 4s 3d 2c", 2: "8h 6d 4d 3s 2d", 3: "Ah Ad Qc Qs Js"}.items():
            table.act(seat, "deal", cards=cards)
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    if mode is Mode.CARD:
        table.act(1, "draw", discards="7h 5c 4s 3d 2c")
        table.act(1, "deal", cards="Kd Kh Ks Kc")
        for card in ("Kd", "Kh", "Ks", "Kc"):
            table.act(1, "exposed", cards=card)
    else:
        table.act(1, "draw", count=5)
        for _ in range(4):
            table.act(1, "exposed")
    if mode is Mode.CARD:
        table.act(2, "draw", discards="")
    else:
        table.act(2, "draw", count=0)
    return table


def test_IRREG_04_DRAW_03_card_mode_deals_five_owed_cards_four_then_one_after_a_burn() -> None:
    """Card mode: seat 1, owed five cards, gets four, then (burned for, being the last to
    receive) the fifth: it holds five after the draw and is not fouled."""
    table = _five_card_draw_all_exposed(Mode.CARD)
    table.act(3, "draw", discards="")
    assert table.hand.to_act == 1 and table.hand.player(1).pending == 5
    table.act(1, "deal", cards="Qd Qh Td Tc")
    assert table.hand.phase is Phase.DRAW_1 and table.hand.to_act == 1
    assert table.hand.player(1).pending == 1 and table.hand.come_back == (1,)
    burns = table.hand.burns
    table.act(1, "deal", cards="Jd")
    assert table.hand.burns == burns + 1  # DRAW-03: the last to receive: a burn first
    assert table.hand.phase is Phase.BETTING_2 and table.hand.player(1).held == 5
    assert not table.hand.player(1).folded and table.hand.exposed_owed == ()


def test_IRREG_04_DRAW_03_count_mode_never_deals_five_owed_cards_in_a_row() -> None:
    """Count mode: the script deals seat 1 four of its five owed cards, burns, then one."""
    table = _five_card_draw_all_exposed(Mode.COUNT)
    table.act(3, "draw", count=0)
    assert table.hand.phase is Phase.BETTING_2 and table.hand.player(1).held == 5
    assert table.outcome is not None
    texts = [item["text"] for item in table.outcome.instructions]
    deals = [text for text in texts if text.startswith("Deal") and "seat 1" in text]
    assert len(deals) == 2 and "4 card" in deals[0] and "1 card" in deals[1], texts
    assert any(text == "Burn one card" for text in texts), texts


def test_IRREG_04_DRAW_06_refuses_a_draw_that_leaves_no_card_for_five_owed_ones() -> None:
    """Card mode: seat 1 is owed five cards (a split five, four exposed), the stub has eight
    and this draw's discards stay out of a reshuffle: seat 2 may draw two, not four (the quick
    check counted one card for each seat owed cards)."""
    players = (
        PlayerState(seat=1, stack=90, held=0, drawn=(5,), pile=(9,), pending=5),
        PlayerState(seat=2, stack=90, held=5, cards=("2c", "3c", "4c", "5c", "7d")),
    )
    hand = HandState(
        hand_no=1,
        phase=Phase.DRAW_1,
        button=2,
        players=players,
        stub=8,
        burned_this_draw=True,
        come_back=(1,),
        last_receiver=1,
        exposed_owed=(1, 1, 1, 1),
    )
    wsop = HouseRules(draw=DrawRules(reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS))
    assert not can_supply(hand, 2, 4, wsop, 1)  # 4 + 5 > 8 - 1 (bottom), no pool this draw
    assert can_supply(hand, 2, 2, wsop, 1)  # 2 + 5 = 8 - 1
