"""The phase machine: posting, deal, betting, draws, showdown, complete."""

from __future__ import annotations

from engine_table import NO_LIMIT, Table

from dealerassist.rules.model.actions import Mode, Structure, Variant


def test_triple_draw_walks_through_every_phase_in_order() -> None:
    """betting_1, draw_1, betting_2, draw_2, betting_3, draw_3, betting_4, showdown, complete."""
    table = Table([100, 100], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW)
    table.start(button=1)
    phases = [table.hand.phase.value]
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(3):
        phases.append(table.hand.phase.value)
        table.act(2, "draw", count=0)
        table.act(1, "draw", count=0)
        phases.append(table.hand.phase.value)
        table.act(2, "check")
        table.act(1, "check")
    phases.append(table.hand.phase.value)
    assert phases == [
        "betting_1",
        "draw_1",
        "betting_2",
        "draw_2",
        "betting_3",
        "draw_3",
        "betting_4",
        "showdown",
    ]


def test_all_in_players_still_draw_but_no_betting_follows() -> None:
    """With everyone all in, the hand goes draw by draw straight to the showdown."""
    table = Table(
        [50, 50],
        variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        structure=Structure.NO_LIMIT,
        stakes=NO_LIMIT,
    )
    table.start(button=1)
    table.act(1, "raise", amount=50)
    table.act(2, "call")
    for phase in ("draw_1", "draw_2", "draw_3"):
        assert table.hand.phase.value == phase
        table.act(2, "draw", count=1)
        table.act(1, "draw", count=1)
    assert table.hand.phase.value == "showdown"


def test_card_mode_waits_for_the_deal_before_the_betting() -> None:
    """Card mode has a deal phase between posting and the first betting round."""
    table = Table([100, 100], mode=Mode.CARD)
    table.start(button=2)
    assert table.hand.phase.value == "deal"
    table.act(1, "deal", cards="2c 3c 4c 5c 7d")
    table.act(2, "deal", cards="Ah Ad Ac Kd Ks")
    assert table.hand.phase.value == "betting_1"
    assert table.hand.stub == 42
