"""Floor-manager scenarios checking the engine against the rule book: the draw (DRAW-01..13),
the deck (DECK-01..06), the showdown and pots (SHOW-01..11) and the betting limits
(BET-01..09), under the shipped profiles and the other values each house option can take."""

from __future__ import annotations

import dataclasses
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "rules"))

from engine_table import AT, NO_LIMIT, Table, cards_accounted

from dealerassist.profiles import load_profile
from dealerassist.rules.engine import apply, legal_actions
from dealerassist.rules.hand.pots import hand_pots
from dealerassist.rules.model.actions import Act, ActionKind, Mode, Stakes, Structure, Variant
from dealerassist.rules.model.house_rules import (
    BottomCard,
    HouseRules,
    ReshufflePool,
    ShortAllInRule,
    StrippedDeckRule,
)
from dealerassist.rules.model.violations import RuleId, RuleViolation

PROFILES = Path(__file__).parents[2] / "config" / "house_rules"
POT_LIMIT = Stakes(small_blind=5, big_blind=10)
TRIPLE = Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
SINGLE = Variant.DEUCE_TO_SEVEN_SINGLE_DRAW
STRIPPED = Variant.ACE_TO_SEVEN_STRIPPED


def profile(name: str) -> HouseRules:
    return load_profile(PROFILES / f"{name}.toml")


def with_draw(rules: HouseRules, **options: Any) -> HouseRules:
    return dataclasses.replace(rules, draw=dataclasses.replace(rules.draw, **options))


def with_betting(rules: HouseRules, **options: Any) -> HouseRules:
    return dataclasses.replace(rules, betting=dataclasses.replace(rules.betting, **options))


def refused(table: Table, seat: int, action: str, **fields: Any) -> RuleViolation:
    """The violation the engine raises for the entry; the table is left as it was."""
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, action, **fields)
    assert table.state is before
    return caught.value


def legal_of(table: Table, action: str) -> dict[str, Any] | None:
    legal = table.legal() or {"legal": []}
    return next((option for option in legal["legal"] if option["action"] == action), None)


def texts(table: Table, code: str | None = None) -> list[str]:
    assert table.outcome is not None
    return [i["text"] for i in table.outcome.instructions if code is None or i["code"] == code]


# --- DRAW-06 / DRAW-05 / DRAW-12: a triple-draw stub that runs out in the third draw -----------


def third_draw(pool: ReshufflePool, bottom: BottomCard = BottomCard.NEVER) -> Table:
    """Three seats, everyone checks and draws five in draws 1 and 2: 5 cards left for draw 3."""
    rules = with_draw(
        HouseRules(), max_cards=5, max_consecutive=5, bottom_card=bottom, reshuffle_pool=pool
    )
    table = Table([500, 500, 500], variant=TRIPLE, rules=rules)
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(2):
        for seat in (1, 2, 3):
            table.act(seat, "draw", count=5)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    assert table.hand.phase.value == "draw_3" and table.hand.stub == 5
    return table


@pytest.mark.parametrize(
    ("pool", "size", "kept"),
    [
        (
            ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS,
            27,
            "the discards of seat 1 (13) and seat 3 (10) into a new stub of 27 cards. "
            "Keep out the discards of seat 2 (12, its own).",
        ),
        (
            ReshufflePool.ALL_DISCARDS_EXCEPT_OWN,
            27,
            "the discards of seat 1 (13) and seat 3 (10) into a new stub of 27 cards. "
            "Keep out the discards of seat 2 (12, its own).",
        ),
        (
            ReshufflePool.ALL_DISCARDS,
            39,
            "the discards of seat 1 (13), seat 2 (12) and seat 3 (10) into a new stub of 39 cards.",
        ),
    ],
)
def test_DRAW_06_guides_the_reshuffle_pool_in_the_third_draw(
    pool: ReshufflePool, size: int, kept: str
) -> None:
    """Seat 1 takes the burn and the three cards above the bottom card; seat 2's two cards need a
    reshuffle of the bottom card, the three burns and the discards the house option names, never
    seat 2's own (except in the permissive replay pool), and cards stay conserved."""
    table = third_draw(pool)
    table.act(1, "draw", count=3)
    assert texts(table)[:2] == ["Burn one card", "Deal 3 cards to seat 1"]
    table.act(2, "draw", count=2)
    stop, reshuffle, deal = texts(table)[:3]
    assert stop.startswith("Stop: the stub cannot complete seat 2's draw; the last card")
    assert reshuffle.startswith(
        "Reshuffle for seat 2: shuffle face down and cut the 1 card left in the stub "
        "(the bottom card), 3 burn cards and "
    )
    assert reshuffle.endswith(kept)
    assert deal == "Deal 2 cards to seat 2 from the new stub"
    assert table.hand.stub == size - 2
    assert cards_accounted(table.hand) == 52
    table.act(3, "draw", count=5)
    assert texts(table) == ["Deal 5 cards to seat 3"]
    assert cards_accounted(table.hand) == 52


def test_DRAW_06_keeps_every_own_discard_out_in_the_casino_triple_draw_profile() -> None:
    """casino-triple-draw-27 (seed-000 pool, fifth cards after the others): the reshuffle for
    seat 2 in draw 3 leaves out all fourteen cards seat 2 ever threw, from all three draws, and
    the ten of seat 3, still to draw (``reshuffle_keeps_out_later_drawers``)."""
    table = Table([500, 500, 500], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(2):
        for seat in (1, 2, 3):
            table.act(seat, "draw", count=5)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    # 52 - 15 dealt - 2 burns - 30 drawn = 5 left
    assert table.hand.stub == 5
    table.act(1, "draw", count=3)
    table.act(2, "draw", count=4)
    assert texts(table)[1] == (  # seat 3, still to draw, keeps its discards out too (issue 20)
        "Reshuffle for seat 2: shuffle face down and cut the 1 card left in the stub (the "
        "bottom card), 3 burn cards and the discards of seat 1 (13) into a new stub of 17 "
        "cards. Keep out the discards of seat 2 (14, its own) and seat 3 (10)."
    )
    assert table.hand.player(2).pile == (5, 5, 4)
    assert cards_accounted(table.hand) == 52


@pytest.mark.parametrize(
    ("bottom", "usable", "first_drawer_reshuffles", "last_drawer_reshuffles"),
    [
        (BottomCard.NEVER, 3, True, True),
        (BottomCard.NORMAL_CARD, 4, False, False),
        (BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS, 3, True, False),
    ],
)
def test_DRAW_05_guides_the_bottom_card_by_option(
    bottom: BottomCard, usable: int, first_drawer_reshuffles: bool, last_drawer_reshuffles: bool
) -> None:
    """Five cards left, one burn: a four-card draw needs the bottom card. Never: always a
    reshuffle; normal card: dealt; only if it completes every draw: dealt to the last drawer
    (the others stood pat), not to the first one while others still draw."""
    table = third_draw(ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS, bottom)
    assert table.outcome is not None
    reach = table.outcome.notices[0]
    assert reach.rule_id is RuleId.DRAW_06
    assert reach.message.startswith(f"Draw 3: 5 cards in the stub; {usable} can be dealt")
    table.act(1, "draw", count=4)
    assert any(t.startswith("Reshuffle") for t in texts(table)) is first_drawer_reshuffles
    last = third_draw(ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS, bottom)
    last.act(1, "draw", count=0)
    last.act(2, "draw", count=0)
    last.act(3, "draw", count=4)
    assert any(t.startswith("Reshuffle") for t in texts(last)) is last_drawer_reshuffles
    assert cards_accounted(last.hand) == 52


def stripped_card_table() -> Table:
    """A-7 stripped (32 cards), four seats in card mode, everyone in for the big blind."""
    table = Table(
        [100] * 4, variant=STRIPPED, rules=profile("ace-to-seven-stripped"), mode=Mode.CARD
    )
    table.start(button=4)
    for seat, cards in (
        (1, "7c 7d 7h 7s 8c"),
        (2, "8d 8h 8s 9c 9d"),
        (3, "9h 9s Tc Td Th"),
        (4, "Ts Jc Jd Jh Js"),
    ):
        table.act(seat, "deal", cards=cards)
    table.act(3, "call")
    table.act(4, "call")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", discards="7c 7d 7h 7s", cards="Qc Qd Qh Qs")
    table.act(2, "draw", discards="8d 8h 8s 9c", cards="Kc Kd Kh Ks")
    return table


def test_DRAW_06_rejects_the_drawers_own_discard_after_a_reshuffle_in_card_mode() -> None:
    """32-card deck: seat 3's four-card draw meets a stub of 3 (bottom card kept): two cards,
    then a reshuffle without seat 3's own discards; its own 9h entered is refused."""
    table = stripped_card_table()
    violation = refused(table, 3, "draw", discards="9h 9s Tc Td", cards="Ac Ad 7c 9h")
    assert violation.rule_id is RuleId.DRAW_06
    assert str(violation) == "DRAW-06: 9h is seat 3's own discard and may not be dealt back to it."


def test_DRAW_06_accepts_an_earlier_drawers_discard_after_a_reshuffle_in_card_mode() -> None:
    """Seat 1's discards went into the new stub: seat 3 may receive them."""
    table = stripped_card_table()
    table.act(3, "draw", discards="9h 9s Tc Td", cards="Ac Ad 7c 7d")
    assert texts(table) == [
        "Deal 2 cards to seat 3",
        "Stop: the stub cannot complete seat 3's draw; the last card (the bottom card) is not "
        "dealt: it goes into the reshuffle",
        "Reshuffle for seat 3: shuffle face down and cut the 1 card left in the stub (the bottom "
        "card), 1 burn card and the discards of seat 1 (4) and seat 2 (4) into a new stub of 10 "
        "cards. Keep out the discards of seat 3 (4, its own).",
        "Deal 2 more cards to seat 3 from the new stub",
        "Seat 4: how many cards?",
    ]
    assert table.hand.stub == 8
    assert table.hand.player(3).cards[-4:] == ("Ac", "Ad", "7c", "7d")


# --- DRAW-02 / DRAW-03 / DRAW-11 ---------------------------------------------------------------


def five_card_draw(rules: HouseRules, stacks: list[int] | None = None) -> Table:
    table = Table(stacks or [200, 200, 200], rules=rules)
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    return table


def test_DRAW_02_rejects_four_without_the_ace_shown_in_the_casino_profile() -> None:
    """Three cards, or four with an ace shown: four without it is refused with what is allowed."""
    table = five_card_draw(profile("casino-five-card-draw"))
    violation = refused(table, 1, "draw", count=4)
    assert violation.rule_id is RuleId.DRAW_02
    assert "3" in str(violation) and "ace" in str(violation)
    assert legal_of(table, "draw") == {
        "action": "draw",
        "min": 0,
        "max": 3,
        "rap": "Pat (a rap on the table)",
        "max_with_ace_shown": 4,
    }


def test_DRAW_02_accepts_four_with_the_ace_shown_in_the_casino_profile() -> None:
    """The ace shown to the table allows the fourth card, never a fifth."""
    table = five_card_draw(profile("casino-five-card-draw"))
    assert refused(table, 1, "draw", count=5, ace_shown=True).rule_id is RuleId.DRAW_02
    table.act(1, "draw", count=4, ace_shown=True)
    assert table.hand.player(1).drawn == (4,)


def test_DRAW_02_rejects_a_five_card_draw_at_the_stripped_deck_table() -> None:
    """A-7 stripped draws at most four (32CD): five is refused, four is dealt at once."""
    table = Table([100, 100, 100], variant=STRIPPED, rules=profile("ace-to-seven-stripped"))
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    assert refused(table, 1, "draw", count=5).rule_id is RuleId.DRAW_02
    table.act(1, "draw", count=4)
    assert texts(table)[:2] == ["Burn one card", "Deal 4 cards to seat 1"]


def test_DRAW_03_guides_the_fifth_card_after_the_others_in_triple_draw() -> None:
    """casino-triple-draw-27: a five-card draw gets four now and the fifth after the others;
    two five-card draws interleave their fifth cards (no burn needed)."""
    table = Table([500, 500], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=5)
    assert texts(table, "deal") == ["Deal 4 cards to seat 1"]
    table.act(2, "draw", count=5)
    assert texts(table) == [
        "Deal 4 cards to seat 2",
        "Seat 2 gets four now: come back to it for the fifth card after every other seat has "
        "drawn (never five in a row)",
        "Deal seat 1 its fifth card (owed since its five-card draw)",
        "Deal seat 2 its fifth card (owed since its five-card draw)",
    ]
    assert table.hand.player(1).held == 5 and table.hand.player(2).held == 5
    assert cards_accounted(table.hand) == 52


def test_DRAW_03_guides_a_burn_before_the_last_drawers_fifth_card() -> None:
    """The last drawer drawing five gets four, then a burn, then the fifth (seed 000)."""
    table = Table([500, 500], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=2)
    table.act(2, "draw", count=5)
    assert [i["code"] for i in table.outcome.instructions] == [
        "deal",
        "come_back",
        "burn",
        "deal",
    ]
    assert table.hand.burns == 2
    assert cards_accounted(table.hand) == 52


def test_DRAW_03_accepts_five_in_a_row_under_the_wsop_profile() -> None:
    """single-draw-27-no-limit (WSOP 274): five consecutive cards are dealt at once."""
    table = Table(
        [500, 500], SINGLE, Structure.NO_LIMIT, NO_LIMIT, rules=profile("single-draw-27-no-limit")
    )
    table.start(button=2)
    table.act(2, "raise", amount=20)
    table.act(1, "call")
    table.act(1, "draw", count=5)
    assert texts(table)[:2] == ["Burn one card", "Deal 5 cards to seat 1"]


def test_DRAW_11_accepts_the_timeout_then_refuses_a_bet_in_the_stripped_profile() -> None:
    """30 s draw timer: after it, `time` stands the seat pat; it may check, call or fold only."""
    rules = profile("ace-to-seven-stripped")
    table = Table([100, 100], variant=STRIPPED, rules=rules)
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    later = AT + timedelta(seconds=31)
    assert {"action": "time"} in (legal_actions(table.state, rules, later) or {})["legal"]
    from dealerassist.rules.engine import apply
    from dealerassist.rules.model.actions import Act, ActionKind

    state = apply(table.state, Act(1, ActionKind.TIME), rules, later).state
    assert state.hand is not None and state.hand.player(1).drawn == (0,)
    state = apply(state, Act(2, ActionKind.DRAW, count=2), rules, later).state
    table.state = state
    assert table.legal() is not None and table.legal()["seat"] == 1  # type: ignore[index]
    assert refused(table, 1, "bet", amount=20).rule_id is RuleId.DRAW_11
    table.act(1, "check")
    table.act(2, "bet", amount=20)
    assert [o["action"] for o in (table.legal() or {})["legal"]] == ["call", "fold"]


# --- DECK-01 / DECK-05 / GAME-05: the stripped deck ---------------------------------------------


@pytest.mark.parametrize(
    ("deck_rule", "players", "deck", "stub"),
    [
        (StrippedDeckRule.BY_PLAYERS, 2, 32, 22),
        (StrippedDeckRule.BY_PLAYERS, 4, 32, 12),
        (StrippedDeckRule.BY_PLAYERS, 5, 36, 11),
        (StrippedDeckRule.FIXED_32, 5, 32, 7),
    ],
)
def test_DECK_01_guides_the_stripped_deck_size_by_players(
    deck_rule: StrippedDeckRule, players: int, deck: int, stub: int
) -> None:
    """ace-to-seven-stripped (by_players): 32 cards up to four players, 36 with a fifth; the
    online fixed_32 option keeps 32 cards for five players (a stub of 7)."""
    base = profile("ace-to-seven-stripped")
    rules = dataclasses.replace(
        base, stripped=dataclasses.replace(base.stripped, deck_rule=deck_rule)
    )
    table = Table([100] * players, variant=STRIPPED, rules=rules)
    table.start(button=players)
    assert (table.hand.deck, table.hand.stub) == (deck, stub)


def test_DECK_05_rejects_a_six_dealt_at_a_four_handed_stripped_table() -> None:
    """With 32 cards a six is a stripped rank: a blank to replace before the player acts."""
    table = Table(
        [100] * 4, variant=STRIPPED, rules=profile("ace-to-seven-stripped"), mode=Mode.CARD
    )
    table.start(button=4)
    violation = refused(table, 1, "deal", cards="6c 7d 8h 9s Tc")
    assert violation.rule_id is RuleId.DECK_05
    assert "blank" in str(violation)


def test_DECK_05_accepts_a_six_dealt_at_a_five_handed_stripped_table() -> None:
    """With five players the sixes are in (36 cards): a six is an ordinary card."""
    table = Table(
        [100] * 5, variant=STRIPPED, rules=profile("ace-to-seven-stripped"), mode=Mode.CARD
    )
    table.start(button=5)
    table.act(1, "deal", cards="6c 7d 8h 9s Tc")
    assert table.hand.player(1).cards == ("6c", "7d", "8h", "9s", "Tc")


def test_DECK_01_rejects_a_deuce_shown_at_a_stripped_table() -> None:
    """A 2 is in no stripped deck: a showdown hand with one is refused."""
    table = Table([100, 100], variant=STRIPPED, rules=profile("ace-to-seven-stripped"))
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=0)
    table.act(2, "draw", count=0)
    table.act(1, "check")
    table.act(2, "check")
    violation = refused(table, 1, "show", cards="2c 7d 8h 9s Tc")
    assert violation.rule_id in (RuleId.DECK_01, RuleId.DECK_05)


# --- SHOW-01..11: showdown order, pots, ties, odd chips -------------------------------------


def three_all_ins() -> Table:
    """single-draw-27-no-limit: seat 3 shoves 100, the button (200) calls, the blinds (21 and
    46) call all in: a main pot of 84, side pots of 75 (seats 2-4) and 108 (seats 3-4)."""
    table = Table(
        [21, 46, 100, 200],
        SINGLE,
        Structure.NO_LIMIT,
        NO_LIMIT,
        rules=profile("single-draw-27-no-limit"),
    )
    table.start(button=4)
    table.act(3, "raise", amount=100)
    table.act(4, "call")
    table.act(1, "call")
    table.act(2, "call")
    assert table.hand.phase.value == "draw_1"
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=0)
    assert table.hand.phase.value == "showdown"
    return table


def test_SHOW_07_guides_three_all_ins_with_an_odd_chip_in_a_side_pot() -> None:
    """Shown side pot 2 first (WSOP 149): seat 1 wins the main pot; seats 2 and 3 tie for side
    pot 1 (75): the odd chip goes to the first winner left of the button (seat 2); seat 3 alone
    takes side pot 2; chips conserved."""
    table = three_all_ins()
    for seat, cards in (
        (3, "8h 6c 4d 3s 2d"),
        (4, "Kh Kd 9c 8s 7c"),
        (2, "8d 6h 4c 3c 2h"),
        (1, "7h 5c 4s 3d 2c"),
    ):
        table.act(seat, "show", cards=cards)
    result = table.hand.result.to_json()
    assert [(p["amount"], p["eligible"], p["winners"]) for p in result["pots"]] == [
        (84, [1, 2, 3, 4], [1]),
        (75, [2, 3, 4], [2, 3]),
        (108, [3, 4], [3]),
    ]
    assert result["pots"][1]["shares"] == {"2": 38, "3": 37}
    assert result["pots"][1]["odd_chip"] == 2
    assert table.stacks() == {1: 84, 2: 38, 3: 145, 4: 100}
    assert sum(table.stacks().values()) == 367
    assert sorted(texts(table, "award")) == sorted(
        [
            "Push 84 from the main pot to seat 1",
            "Push 38 from side pot 1 to seat 2",
            "Push 37 from side pot 1 to seat 3",
            "Push 108 from side pot 2 to seat 3",
        ]
    )


def test_SHOW_07_rejects_a_muck_by_the_only_hand_left_for_a_side_pot() -> None:
    """Seat 4 mucks nothing away: once seat 3, first to show for side pot 2 (WSOP 149), mucked,
    seat 4 alone contests side pot 2; it shows, then seats 2 and 1 for the lower pots."""
    table = three_all_ins()
    table.act(3, "muck")
    assert table.hand.to_act == 4
    assert refused(table, 4, "muck").rule_id is RuleId.SHOW_02
    table.act(4, "show", cards="Kh Kd 9c 8s 7c")
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    table.act(1, "show", cards="7h 5c 4s 3d 2c")
    result = table.hand.result.to_json()
    assert [p["winners"] for p in result["pots"]] == [[1], [2], [4]]
    assert table.stacks() == {1: 84, 2: 75, 3: 0, 4: 208}


def heads_up_to_showdown(variant: Variant, rules: HouseRules, button: int = 2) -> Table:
    table = Table([100, 100], variant=variant, rules=rules)
    table.start(button=button)
    table.act(2, "call")
    table.act(1, "check")
    draws = {TRIPLE: 3}.get(variant, 1)
    for _ in range(draws):
        table.act(1, "draw", count=0)
        table.act(2, "draw", count=0)
        table.act(1, "bet", amount=20 if draws == 1 or _ > 0 else 10)
        table.act(2, "call")
    return table


def test_SHOW_09_guides_a_split_of_equal_deuce_to_seven_hands() -> None:
    """Two 8-6-4-3-2 in different suits tie in 2-7 single draw (suits never count, SHOW-10)."""
    table = heads_up_to_showdown(SINGLE, HouseRules())
    table.act(1, "show", cards="8h 6c 4d 3s 2d")
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    pot = table.hand.result.to_json()["pots"][0]
    assert (pot["amount"], pot["winners"], pot["shares"]) == (60, [1, 2], {"1": 30, "2": 30})
    assert table.stacks() == {1: 100, 2: 100}


def test_SHOW_09_guides_a_triple_draw_tie_with_an_odd_chip_left_of_the_button() -> None:
    """Triple draw, a dead small-blind chip makes the pot odd: a 2-7 tie gives it to the first
    winner left of the button."""
    table = Table([100, 100, 100], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "fold")  # the small blind's 5 stays in the pot
    table.act(2, "check")
    for _ in range(3):
        table.act(2, "draw", count=0)
        table.act(3, "draw", count=0)
        table.act(2, "check")
        table.act(3, "check")
    table.act(2, "show", cards="7h 5c 4s 3d 2c")
    table.act(3, "show", cards="7c 5d 4h 3c 2s")
    pot = table.hand.result.to_json()["pots"][0]
    assert (pot["amount"], pot["winners"], pot["odd_chip"]) == (25, [2, 3], 2)
    assert pot["shares"] == {"2": 13, "3": 12}
    assert table.stacks() == {1: 95, 2: 103, 3: 102}


def test_SHOW_04_guides_a_flush_over_a_full_house_at_the_stripped_deck_table() -> None:
    """RANK-04 (ace-to-seven-stripped): the flush wins against the full house."""
    table = heads_up_to_showdown(STRIPPED, profile("ace-to-seven-stripped"))
    table.act(1, "show", cards="Ah Ad Ac Kh Kd")
    table.act(2, "show", cards="7s 9s Js Qs Ks")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [2]


def test_SHOW_04_guides_a_full_house_over_a_flush_at_a_52_card_table() -> None:
    """Five-card draw high: the usual order, the full house wins."""
    table = heads_up_to_showdown(Variant.FIVE_CARD_DRAW, profile("casino-five-card-draw"))
    table.act(1, "show", cards="Ah Ad Ac Kh Kd")
    table.act(2, "show", cards="7s 9s Js Qs Ks")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [1]


def test_SHOW_10_guides_a_split_of_equal_flushes_at_the_stripped_deck_table() -> None:
    """Suits never break a tie for the pot: two A-Q-T-9-8 flushes split."""
    table = heads_up_to_showdown(STRIPPED, profile("ace-to-seven-stripped"))
    table.act(1, "show", cards="Ah Qh Th 9h 8h")
    table.act(2, "show", cards="As Qs Ts 9s 8s")
    pot = table.hand.result.to_json()["pots"][0]
    assert pot["winners"] == [1, 2] and pot["shares"] == {"1": 30, "2": 30}


def test_SHOW_04_guides_the_ace_low_straight_as_the_lowest_at_the_stripped_table() -> None:
    """A-7-8-9-T is a straight (beats three of a kind) and loses to 7-8-9-T-J."""
    table = heads_up_to_showdown(STRIPPED, profile("ace-to-seven-stripped"))
    table.act(1, "show", cards="Ac 7d 8h 9s Tc")
    table.act(2, "show", cards="Kc Kd Kh 9c 8c")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [1]
    other = heads_up_to_showdown(STRIPPED, profile("ace-to-seven-stripped"))
    other.act(1, "show", cards="Ac 7d 8h 9s Tc")
    other.act(2, "show", cards="7c 8d 9h Ts Jc")
    assert other.hand.result.to_json()["pots"][0]["winners"] == [2]


def test_SHOW_01_guides_the_last_bettor_to_show_first() -> None:
    """Seat 1 bet after the draw and was called: seat 2 may not show first."""
    table = heads_up_to_showdown(Variant.FIVE_CARD_DRAW, profile("casino-five-card-draw"))
    violation = refused(table, 2, "muck")
    assert violation.rule_id is RuleId.SHOW_01
    assert table.legal() == {
        "seat": 1,
        "phase": "showdown",
        "legal": [{"action": "show"}, {"action": "muck"}],
    }


def test_SHOW_01_guides_left_of_the_button_first_when_everyone_checked() -> None:
    """Button 1 heads-up, checked down after the draw: seat 2 (left of the button) shows first."""
    table = Table([100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "check")
    table.act(2, "draw", count=1)
    table.act(1, "draw", count=1)
    table.act(2, "check")
    table.act(1, "check")
    assert refused(table, 1, "muck").rule_id is RuleId.SHOW_01
    table.act(2, "show", cards="7s 9s Js Qs Ks")
    table.act(1, "muck")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [2]
    assert table.stacks() == {1: 90, 2: 110}


def side_pot_on_the_end(side_pots_first: bool) -> Table:
    """casino-triple-draw-27 (WSOP 149 on, or turned off), button 1: the big blind (seat 3) calls
    all in for 20 before the first draw; seats 1 and 2 bet on into a side pot and seat 2 bets
    the last round, seat 1 calls: a main pot of 60 (seats 1-3), a side pot of 100 (seats 1-2)."""
    rules = profile("casino-triple-draw-27")
    assert rules.showdown.side_pots_first  # the shipped casino profile shows side pots first
    showdown = dataclasses.replace(rules.showdown, side_pots_first=side_pots_first)
    table = Table([300, 300, 20], TRIPLE, rules=dataclasses.replace(rules, showdown=showdown))
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "call")
    table.act(3, "call")  # all in
    for bettor, amount in ((2, 10), (1, 20), (2, 20)):
        for seat in (2, 3, 1):
            table.act(seat, "draw", count=1)
        if bettor == 1:
            table.act(2, "check")
        table.act(bettor, "bet", amount=amount)
        table.act(3 - bettor, "call")
    assert table.hand.phase.value == "showdown" and table.hand.to_act == 2
    pots = [(pot.amount, sorted(pot.eligible)) for pot in hand_pots(table.hand)]
    assert pots == [(60, [1, 2, 3]), (100, [1, 2])]
    return table


def test_SHOW_01_accepts_the_side_pot_pair_showing_before_the_short_all_in() -> None:
    """WSOP 149 in the casino profile: the last bettor (seat 2) shows, then seat 1, the other
    side-pot hand, then the all-in seat 3 for the main pot; each pot goes to its best hand."""
    table = side_pot_on_the_end(side_pots_first=True)
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    assert table.legal() == {
        "seat": 1,
        "phase": "showdown",
        "legal": [{"action": "show"}, {"action": "muck"}],
    }
    table.act(1, "show", cards="9h 6c 4d 3s 2d")
    assert table.hand.to_act == 3
    table.act(3, "show", cards="7h 5c 4s 3d 2c")
    result = table.hand.result.to_json()
    assert [(p["amount"], p["winners"]) for p in result["pots"]] == [(60, [3]), (100, [2])]
    assert table.stacks() == {1: 230, 2: 330, 3: 60}


def test_SHOW_01_rejects_the_short_all_in_showing_before_the_side_pot_is_decided() -> None:
    """WSOP 149: after the bettor showed, the all-in seat 3 may neither show nor muck before
    seat 1; the refusal names seat 1 and the side pot, and offers seat 1's show or muck."""
    table = side_pot_on_the_end(side_pots_first=True)
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    violation = refused(table, 3, "muck")
    assert violation.rule_id is RuleId.SHOW_01 and violation.seat == 3
    assert violation.message.startswith("Seat 1 shows (or mucks) first: side pot 1 is shown")
    assert "WSOP 149" in violation.message and violation.message.endswith("seat 3 must wait.")
    assert violation.allowed == [{"action": "show"}, {"action": "muck"}]
    assert refused(table, 3, "muck").rule_id is RuleId.SHOW_01
    table.act(1, "muck")  # the side pot is decided before the all-in shows
    table.act(3, "show", cards="7h 5c 4s 3d 2c")
    assert [p["winners"] for p in table.hand.result.to_json()["pots"]] == [[3], [2]]


def test_SHOW_01_guides_the_old_order_past_the_short_all_in_without_the_option() -> None:
    """Option off: after the bettor, clockwise, the all-in seat 3 shows before seat 1 (the
    order recorded hands were played in); seat 1 showing first is refused."""
    table = side_pot_on_the_end(side_pots_first=False)
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    assert table.hand.to_act == 3
    violation = refused(table, 1, "muck")
    assert violation.rule_id is RuleId.SHOW_01
    assert violation.message == "Seat 3 shows (or mucks) first; seat 1 must wait."
    table.act(3, "show", cards="7h 5c 4s 3d 2c")
    table.act(1, "muck")
    assert [p["winners"] for p in table.hand.result.to_json()["pots"]] == [[3], [2]]


def test_SHOW_02_guides_an_uncalled_bet_back_and_the_pot_without_a_show() -> None:
    """An uncalled raise returns its uncalled part; the bettor wins without showing."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=3)
    table.act(3, "raise", amount=20)
    table.act(1, "fold")
    table.act(2, "fold")
    result = table.hand.result.to_json()
    assert table.hand.phase.value == "complete"
    assert result["pots"][0]["winners"] == [3]
    assert result["shown"] == {}
    assert table.stacks() == {1: 95, 2: 90, 3: 115}


def test_SHOW_03_rejects_a_four_card_show() -> None:
    """A winning hand is tabled with all five cards."""
    table = heads_up_to_showdown(Variant.FIVE_CARD_DRAW, profile("casino-five-card-draw"))
    violation = refused(table, 1, "show", cards="Ah Ad Ac Kh")
    assert violation.rule_id is RuleId.SHOW_03


# --- BET-01..06: limits, the cap, short all-ins, no-limit and pot-limit sizing -------------


def fixed_limit_short_all_in(rule: ShortAllInRule, all_in: int) -> Table:
    """casino-five-card-draw with the given short all-in rule: seat 3 raises to 20, the button
    (seat 4) goes all in to ``all_in`` before the blinds act."""
    rules = with_betting(profile("casino-five-card-draw"), short_all_in=rule)
    table = Table([200, 200, 200, all_in], rules=rules)
    table.start(button=4)
    table.act(3, "raise", amount=20)
    table.act(4, "raise", amount=all_in)
    return table


@pytest.mark.parametrize("rule", list(ShortAllInRule))
def test_BET_04_guides_the_blinds_to_complete_a_short_all_in(rule: ShortAllInRule) -> None:
    """All in for 24 over a raise to 20 (less than half a bet): the blinds, who have not acted,
    may call 24, fold or raise: to 30 (complete) under the half-bet rule, to 34 under the
    full-bet rule (the all-in plus a full bet)."""
    table = fixed_limit_short_all_in(rule, 24)
    raise_to = 30 if rule is ShortAllInRule.HALF_BET else 34
    assert table.legal() == {
        "seat": 1,
        "phase": "betting_1",
        "legal": [
            {"action": "call", "amount": 19},
            {"action": "raise", "min": raise_to, "max": raise_to},
            {"action": "fold"},
        ],
    }


@pytest.mark.parametrize("rule", [ShortAllInRule.FULL_BET, ShortAllInRule.HALF_BET])
def test_BET_04_rejects_a_raise_by_the_player_who_already_acted(rule: ShortAllInRule) -> None:
    """The blinds just call the 24: seat 3, who raised to 20, may only call 4 or fold (the
    pokerkit rule's own words: tests/hands/test_rulebook_betting.py)."""
    table = fixed_limit_short_all_in(rule, 24)
    table.act(1, "call")
    table.act(2, "call")
    violation = refused(table, 3, "raise", amount=34)
    assert violation.rule_id is RuleId.BET_04
    assert str(violation) == (
        "BET-04: Seat 3 may not raise: a short all-in raise did not reopen the betting. "
        "Seat 3 may call 4, fold."
    )


def test_BET_04_accepts_a_reraise_after_half_a_bet_under_the_half_bet_rule() -> None:
    """All in for 25 (half a bet over 20) counts as a raise: seat 3 may raise again, a full
    increment on top (35); it also counts toward the cap (bet + 3 raises)."""
    table = fixed_limit_short_all_in(ShortAllInRule.HALF_BET, 25)
    table.act(1, "raise", amount=35)  # the third raise: the cap
    assert legal_of(table, "raise") is None
    assert refused(table, 2, "raise", amount=45).rule_id is RuleId.BET_03
    table.act(2, "call")
    assert table.legal() == {
        "seat": 3,
        "phase": "betting_1",
        "legal": [{"action": "call", "amount": 15}, {"action": "fold"}],
    }


def test_BET_04_rejects_a_reraise_after_half_a_bet_under_the_full_bet_rule() -> None:
    """Under the full-bet rule 25 over 20 is no raise: seat 3, after the blinds call, may only
    call; the short all-in did not count toward the cap either."""
    table = fixed_limit_short_all_in(ShortAllInRule.FULL_BET, 25)
    table.act(1, "call")
    table.act(2, "call")
    assert refused(table, 3, "raise", amount=35).rule_id is RuleId.BET_04
    other = fixed_limit_short_all_in(ShortAllInRule.FULL_BET, 25)
    other.act(1, "raise", amount=35)
    assert legal_of(other, "raise") == {"action": "raise", "min": 45, "max": 45}


@pytest.mark.parametrize(
    ("rule", "all_in", "reopened"),
    [
        (ShortAllInRule.HALF_BET, 29, False),
        (ShortAllInRule.HALF_BET, 30, True),
        (ShortAllInRule.FULL_BET, 30, False),
        (ShortAllInRule.FULL_BET, 39, False),
    ],
)
def test_BET_04_guides_a_short_all_in_after_the_last_draw(
    rule: ShortAllInRule, all_in: int, reopened: bool
) -> None:
    """2-7 triple draw, last round (big bet 20): seat 1 bets, two calls, the button goes all in.
    Half a bet over (30) reopens under the half-bet rule: the three who acted may raise to 50."""
    rules = with_betting(profile("casino-triple-draw-27"), short_all_in=rule)
    table = Table([1000, 1000, 1000, all_in + 10], variant=TRIPLE, rules=rules)
    table.start(button=4)
    table.act(3, "call")
    table.act(4, "call")
    table.act(1, "call")
    table.act(2, "check")
    for betting_round in range(3):
        for seat in (1, 2, 3, 4):
            table.act(seat, "draw", count=1)
        if betting_round < 2:
            for seat in (1, 2, 3, 4):
                table.act(seat, "check")
    table.act(1, "bet", amount=20)
    table.act(2, "call")
    table.act(3, "call")
    table.act(4, "raise", amount=all_in)
    for seat in (1, 2, 3):
        assert table.hand.to_act == seat
        option = legal_of(table, "raise")
        assert option == ({"action": "raise", "min": 50, "max": 50} if reopened else None)
        assert legal_of(table, "call") == {"action": "call", "amount": all_in - 20}
        table.act(seat, "call")
    assert table.hand.phase.value == "showdown"


def test_BET_03_rejects_the_fifth_raise_in_triple_draw_three_handed() -> None:
    """casino-triple-draw-27: bet + 4 raises. A round that starts three-handed stays capped
    after a fold leaves two."""
    table = Table([1000, 1000, 1000], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=1)
    table.act(1, "bet", amount=10)
    table.act(2, "raise", amount=20)
    table.act(3, "fold")
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=40)
    table.act(1, "raise", amount=50)
    violation = refused(table, 2, "raise", amount=60)
    assert violation.rule_id is RuleId.BET_03
    assert "bet + 4 raises" in str(violation)


def test_BET_03_accepts_unlimited_raises_heads_up_in_triple_draw() -> None:
    """A round that starts heads-up is uncapped (WSOP 131): the sixth raise is allowed."""
    table = Table([1000, 1000], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=2)
    for amount in (20, 30, 40, 50, 60, 70):
        table.act(table.hand.to_act, "raise", amount=amount)
    assert legal_of(table, "raise") == {"action": "raise", "min": 80, "max": 80}


def test_BET_03_rejects_a_heads_up_raise_past_the_replay_cap() -> None:
    """replay-permissive (pokerkit): heads-up stays capped and the blind is not the bet, so
    before the draw the cap is 10-20-30-40-50."""
    table = Table([1000, 1000], variant=TRIPLE, rules=profile("replay-permissive"))
    table.start(button=2)
    for amount in (20, 30, 40, 50):
        table.act(table.hand.to_act, "raise", amount=amount)
    assert refused(table, 2, "raise", amount=60).rule_id is RuleId.BET_03


def test_BET_01_rejects_a_limp_in_the_no_limit_single_draw_profile() -> None:
    """single-draw-27-no-limit plays no limping (BARGE): the call of the big blind is refused."""
    table = Table(
        [1000, 1000, 1000],
        SINGLE,
        Structure.NO_LIMIT,
        NO_LIMIT,
        rules=profile("single-draw-27-no-limit"),
    )
    table.start(button=3)
    violation = refused(table, 3, "call")
    assert violation.rule_id is RuleId.BET_01
    assert (
        str(violation) == "BET-01: This game allows no limping. Seat 3 may raise to 20-1000, fold."
    )


def test_BET_05_guides_the_no_limit_minimum_raise_after_a_short_all_in() -> None:
    """No limit: raise to 50 (a raise of 40), an all-in to 70 (short): the next minimum is 110;
    the opener, who already acted, may only call 20 or fold."""
    table = Table(
        [1000, 1000, 1000, 70],
        SINGLE,
        Structure.NO_LIMIT,
        NO_LIMIT,
        rules=profile("single-draw-27-no-limit"),
    )
    table.start(button=4)
    table.act(3, "raise", amount=50)
    table.act(4, "raise", amount=70)
    assert legal_of(table, "raise") == {"action": "raise", "min": 110, "max": 1000}
    table.act(1, "call")
    table.act(2, "call")
    assert table.legal() == {
        "seat": 3,
        "phase": "betting_1",
        "legal": [{"action": "call", "amount": 20}, {"action": "fold"}],
    }
    assert refused(table, 3, "raise", amount=110).rule_id is RuleId.BET_05


def test_BET_05_guides_the_pot_limit_maximum_after_several_raises() -> None:
    """Pot limit, blinds 5/10: raise to 35 (pot), 120, 405; a caller's raise is capped by his
    stack; the minimum raise follows the last raise (405 + 285 = 690)."""
    rules = with_betting(HouseRules(), short_all_in=ShortAllInRule.FULL_BET)
    table = Table([1000] * 4, structure=Structure.POT_LIMIT, stakes=POT_LIMIT, rules=rules)
    table.start(button=4)
    assert legal_of(table, "raise") == {"action": "raise", "min": 20, "max": 35}
    violation = refused(table, 3, "raise", amount=40)
    assert violation.rule_id is RuleId.BET_05
    table.act(3, "raise", amount=35)
    assert legal_of(table, "raise") == {"action": "raise", "min": 60, "max": 120}
    table.act(4, "raise", amount=120)
    assert legal_of(table, "raise") == {"action": "raise", "min": 205, "max": 405}
    table.act(1, "raise", amount=405)
    assert legal_of(table, "raise") == {"action": "raise", "min": 690, "max": 1000}
    table.act(2, "call")
    assert table.legal() == {
        "seat": 3,
        "phase": "betting_1",
        "legal": [
            {"action": "call", "amount": 370},
            {"action": "raise", "min": 690, "max": 1000},
            {"action": "fold"},
        ],
    }


def test_BET_05_guides_the_rounded_up_pot_limit_opening() -> None:
    """pot_limit_round_blinds_up (WSOP 191): the small blind counts as a big blind, so the
    opening maximum is four big blinds (40), not 35."""
    rules = with_betting(HouseRules(), pot_limit_round_blinds_up=True)
    table = Table([1000] * 4, structure=Structure.POT_LIMIT, stakes=POT_LIMIT, rules=rules)
    table.start(button=4)
    assert legal_of(table, "raise") == {"action": "raise", "min": 20, "max": 40}
    table.act(3, "raise", amount=40)
    assert table.hand.player(3).bet == 40


def _pot_limit_draw() -> Table:
    """Four seats with 500 at the shipped pot-limit five-card draw (button 1, blinds 2, 3)."""
    rules = profile("pot-limit-five-card-draw")
    table = Table([500] * 4, structure=Structure.POT_LIMIT, stakes=POT_LIMIT, rules=rules)
    table.start(button=1)
    return table


def test_BET_05_refuses_an_opening_over_four_big_blinds_in_the_pot_limit_profile() -> None:
    """pot-limit-five-card-draw (WSOP 191): the first to act may raise to 40 at most (the
    small blind counted as a big blind: 20 in the pot, the call of 10, a raise of 30); 45 is
    refused with BET-05 and the range it may raise to."""
    table = _pot_limit_draw()
    violation = refused(table, 4, "raise", amount=45)
    assert violation.rule_id is RuleId.BET_05 and violation.seat == 4
    assert {"action": "raise", "min": 20, "max": 40} in violation.allowed


def test_BET_05_accepts_a_whole_pot_limit_hand_under_the_shipped_profile() -> None:
    """pot-limit-five-card-draw: seat 4 opens for the most, 40; seats 1 and 3 call (125 in the
    pot); after the draw (three cards at most) seat 3 checks and seat 4 bets the pot, 125, the
    largest bet; seat 1 folds, seat 3 calls, seat 4 shows first (the last aggressor) and its
    full house takes the 375."""
    table = _pot_limit_draw()
    for seat, action in ((4, "raise"), (1, "call"), (2, "fold"), (3, "call")):
        table.act(seat, action, **({"amount": 40} if action == "raise" else {}))
    for seat, count in ((3, 2), (4, 1), (1, 3)):
        table.act(seat, "draw", count=count)
    table.act(3, "check")
    assert legal_of(table, "bet") == {"action": "bet", "min": 10, "max": 125}
    table.act(4, "bet", amount=125)
    table.act(1, "fold")
    table.act(3, "call")
    assert table.hand.to_act == 4
    table.act(4, "show", cards="Ah Ad Ac Kh Kd")
    table.act(3, "show", cards="Qh Qd Qc 2h 2d")
    assert table.stacks() == {1: 460, 2: 495, 3: 335, 4: 710}


def test_BET_06_rejects_a_check_raise_where_the_house_forbids_it() -> None:
    """check_raise = false: a seat that checked after the draw may call or fold, not raise."""
    rules = with_betting(profile("casino-five-card-draw"), check_raise=False)
    table = five_card_draw(rules)
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=1)
    table.act(1, "check")
    table.act(2, "bet", amount=20)
    table.act(3, "call")
    violation = refused(table, 1, "raise", amount=40)
    assert violation.rule_id is RuleId.BET_06
    assert legal_of(table, "call") == {"action": "call", "amount": 20}


def test_BET_06_accepts_a_check_raise_in_the_casino_profile() -> None:
    """casino-five-card-draw (RRoP-DH #2): the checker may raise."""
    table = five_card_draw(profile("casino-five-card-draw"))
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=1)
    table.act(1, "check")
    table.act(2, "bet", amount=20)
    table.act(3, "call")
    table.act(1, "raise", amount=40)
    assert table.hand.current_bet == 40


def test_BET_02_rejects_a_small_bet_after_the_second_draw_in_triple_draw() -> None:
    """Triple draw: small bet in rounds 1-2, big bet in rounds 3-4."""
    table = Table([1000, 1000], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    assert refused(table, 1, "bet", amount=20).rule_id is RuleId.BET_02
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    assert refused(table, 1, "bet", amount=10).rule_id is RuleId.BET_02
    table.act(1, "bet", amount=20)
    assert table.hand.current_bet == 20


def test_SHOW_06_guides_two_odd_chips_one_each_from_the_left_of_the_button() -> None:
    """Three equal straights share 35 (a dead small blind): the two odd chips go one each to
    the first two winners left of the button (seats 4 and 1), none to the button (seat 2)."""
    table = Table([100] * 4, rules=profile("casino-five-card-draw"))
    table.start(button=2)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "fold")
    table.act(4, "check")
    for seat in (4, 1, 2):
        table.act(seat, "draw", count=0)
    for seat in (4, 1, 2):
        table.act(seat, "check")
    table.act(4, "show", cards="9h 8c 7d 6s 5h")
    table.act(1, "show", cards="9c 8d 7h 6c 5s")
    table.act(2, "show", cards="9d 8h 7s 6d 5c")
    pot = table.hand.result.to_json()["pots"][0]
    assert pot["shares"] == {"4": 12, "1": 12, "2": 11}
    assert table.stacks() == {1: 102, 2: 101, 3: 95, 4: 102}


def test_BET_05_guides_the_pot_limit_maximum_after_a_short_all_in() -> None:
    """Pot limit: raise to 35, a short all-in to 50: the next seat may raise from 75 (50 plus
    the last full raise of 25) to 195 (the pot of 100 after calling 45); the opener, who
    acted, may only call."""
    rules = with_betting(HouseRules(), short_all_in=ShortAllInRule.FULL_BET)
    table = Table(
        [1000, 1000, 1000, 50], structure=Structure.POT_LIMIT, stakes=POT_LIMIT, rules=rules
    )
    table.start(button=4)
    table.act(3, "raise", amount=35)
    table.act(4, "raise", amount=50)
    assert legal_of(table, "raise") == {"action": "raise", "min": 75, "max": 195}
    assert refused(table, 1, "raise", amount=200).rule_id is RuleId.BET_05
    table.act(1, "call")
    table.act(2, "call")
    assert table.legal() == {
        "seat": 3,
        "phase": "betting_1",
        "legal": [{"action": "call", "amount": 15}, {"action": "fold"}],
    }


def test_SHOW_02_guides_the_uncalled_part_of_the_deepest_all_in_back() -> None:
    """Seat 4 moves in for 200 over seat 3's 100: the 100 nobody can call goes back before the
    draw; the three pots are as if seat 4 had called 100."""
    table = Table(
        [21, 46, 100, 200],
        SINGLE,
        Structure.NO_LIMIT,
        NO_LIMIT,
        rules=profile("single-draw-27-no-limit"),
    )
    table.start(button=4)
    table.act(3, "raise", amount=100)
    table.act(4, "raise", amount=200)
    table.act(1, "call")
    table.act(2, "call")
    assert texts(table, "return") == ["Return 100 uncalled to seat 4"]
    assert table.hand.player(4).stack == 100
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=0)
    for seat, cards in (  # side pot 2 first (WSOP 149)
        (3, "9h 6c 4d 3s 2d"),
        (4, "7h 5c 4s 3d 2c"),
        (2, "8d 6h 4c 3c 2h"),
        (1, "Kh Kd 9c 8s 7c"),
    ):
        table.act(seat, "show", cards=cards)
    assert [p["amount"] for p in table.hand.result.to_json()["pots"]] == [84, 75, 108]
    assert table.hand.result.to_json()["returned"] == {"4": 100}
    assert table.stacks() == {1: 0, 2: 0, 3: 0, 4: 367}


@pytest.mark.parametrize(
    ("pool", "size", "muck_text"),
    [
        (ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS, 23, "2 burn cards and"),
        (
            ReshufflePool.ALL_DISCARDS_EXCEPT_OWN,
            28,
            "2 burn cards, the 5 mucked cards of folded hands and",
        ),
    ],
)
def test_DRAW_06_guides_the_muck_into_the_pool_only_where_the_house_says(
    pool: ReshufflePool, size: int, muck_text: str
) -> None:
    """Triple draw, the button folded before the draw: in draw 2 seat 3's five cards need a
    reshuffle; seed 000's pool leaves the folded hand out, the PokerStars pool takes it."""
    rules = with_draw(HouseRules(), max_cards=5, max_consecutive=5, reshuffle_pool=pool)
    table = Table([500] * 4, variant=TRIPLE, rules=rules)
    table.start(button=4)
    table.act(3, "call")
    table.act(4, "fold")
    table.act(1, "call")
    table.act(2, "check")
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=5)
    for seat in (1, 2, 3):
        table.act(seat, "check")
    table.act(1, "draw", count=5)
    table.act(2, "draw", count=5)
    assert table.hand.stub == 5
    table.act(3, "draw", count=5)
    reshuffle = texts(table)[2]
    assert reshuffle == (
        "Reshuffle for seat 3: shuffle face down and cut the 1 card left in the stub (the "
        f"bottom card), {muck_text} the discards of seat 1 (10) and seat 2 (10) into a new "
        f"stub of {size} cards. Keep out the discards of seat 3 (10, its own)."
    )
    assert table.hand.stub == size - 1
    assert cards_accounted(table.hand) == 52


def test_DRAW_07_accepts_the_last_drawers_pat_changed_to_five_cards() -> None:
    """Triple draw: the last drawer stood pat, then asks for five before any bet: four now, a
    burn (nobody else receives cards) and the fifth (never five in a row)."""
    table = Table([500, 500, 500], variant=TRIPLE, rules=profile("casino-triple-draw-27"))
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", count=2)
    table.act(2, "draw", count=1)
    table.act(3, "draw", count=0)
    assert table.hand.phase.value == "betting_2"
    outcome = table.act(3, "draw", count=5)
    assert outcome.events_json()[0]["type"] == "draw_changed"
    assert texts(table)[:4] == [
        "Deal 4 cards to seat 3",
        "Seat 3 gets four now: come back to it for the fifth card after every other seat has "
        "drawn (never five in a row)",
        "Burn one card",
        "Deal seat 3 its fifth card (owed since its five-card draw)",
    ]
    assert table.hand.player(3).drawn == (5,)
    assert cards_accounted(table.hand) == 52


def test_SHOW_04_guides_no_ace_low_straight_where_the_house_does_not_count_it() -> None:
    """stripped.ace_low_straight = false (Manila): A-7-8-9-T is ace high and loses to trips."""
    base = profile("ace-to-seven-stripped")
    rules = dataclasses.replace(
        base, stripped=dataclasses.replace(base.stripped, ace_low_straight=False)
    )
    table = heads_up_to_showdown(STRIPPED, rules)
    table.act(1, "show", cards="Ac 7d 8h 9s Tc")
    table.act(2, "show", cards="Kc Kd Kh 9c 8c")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [2]


# --- DECK-02..04: the joker -------------------------------------------------------------------


def with_joker(rules: HouseRules) -> HouseRules:
    return dataclasses.replace(rules, deck=dataclasses.replace(rules.deck, joker=True))


def test_DECK_02_guides_five_aces_over_a_straight_flush() -> None:
    """Draw high with the bug (53 cards): four aces and the joker are five aces, the top hand."""
    table = heads_up_to_showdown(
        Variant.FIVE_CARD_DRAW, with_joker(profile("casino-five-card-draw"))
    )
    assert table.hand.deck == 53
    table.act(1, "show", cards="Ah Ad Ac As Jk")
    table.act(2, "show", cards="9s Ts Js Qs Ks")
    assert table.hand.result.to_json()["pots"][0]["winners"] == [1]
    assert table.hand.result.to_json()["jokers"] == {"1": "A"}


def test_DECK_02_accepts_the_bug_as_the_highest_missing_card_of_a_flush() -> None:
    """2-5-7-9 of hearts and the bug: a flush with the ace of hearts, beating ace-king high."""
    table = heads_up_to_showdown(
        Variant.FIVE_CARD_DRAW, with_joker(profile("casino-five-card-draw"))
    )
    table.act(1, "show", cards="2h 5h 7h 9h Jk")
    table.act(2, "show", cards="Ah Kh 7s 9s 2s")
    assert table.hand.result.to_json()["jokers"] == {"1": "Ah"}
    assert table.hand.result.to_json()["pots"][0]["winners"] == [1]


def test_DECK_04_guides_the_joker_as_the_lowest_card_that_neither_pairs_nor_straightens() -> None:
    """2-7 with a joker: 6-5-4-3-Jk plays as 8-6-5-4-3 (not a 7 or a 2) and ties 8-6-5-4-3."""
    table = heads_up_to_showdown(SINGLE, with_joker(HouseRules()))
    table.act(1, "show", cards="6h 5c 4d 3s Jk")
    table.act(2, "show", cards="8c 6d 5h 4c 3h")
    pot = table.hand.result.to_json()["pots"][0]
    assert pot["winners"] == [1, 2] and pot["shares"] == {"1": 30, "2": 30}


# -- found by this review, fixed in the engine --------------------------------------------------


def _third_draw_table() -> Table:
    rules = with_draw(
        HouseRules(),
        max_cards=5,
        max_consecutive=5,
        bottom_card=BottomCard.NEVER,
        reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS,
    )
    table = Table([500, 500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules)
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(2):
        for seat in (1, 2, 3):
            table.act(seat, "draw", count=5)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    table.act(1, "draw", count=3)  # the stub (5) gives the burn and 3; the bottom card stays
    return table


def test_DRAW_06_keeps_the_drawers_earlier_discards_out_of_the_wsop_pool() -> None:
    """Seat 2 needs a reshuffle in the third draw: its ten discards of draws 1 and 2 stay out."""
    table = _third_draw_table()
    outcome = table.act(2, "draw", count=2)
    reshuffle = next(i for i in outcome.instructions if i["code"] == "reshuffle")
    assert "seat 2 (10)" not in reshuffle["text"]
    assert reshuffle["count"] == 24  # bottom 1 + burns 3 + seat 1 (10) + seat 3 (10)
    assert table.hand.player(2).pile[:2] == (5, 5)  # its own discards were kept out


def test_DRAW_06_rejects_the_drawers_earlier_discard_in_card_mode_under_the_wsop_pool() -> None:
    """Card mode, same hand: seat 2 may not be dealt the 3d it threw in draw 1 (it was, before
    the fix: the WSOP pool took every earlier discard, the drawer's own included)."""
    rules = with_draw(
        HouseRules(),
        max_cards=5,
        max_consecutive=5,
        reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS,
    )
    deck = iter(rank + suit for rank in "23456789TJQKA" for suit in "cdhs")

    def take(count: int) -> str:
        return " ".join(next(deck) for _ in range(count))

    table = Table(
        [500, 500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules, mode=Mode.CARD
    )
    table.start(button=3)
    for seat in (1, 2, 3):
        table.act(seat, "deal", cards=take(5))  # seat 2: 3d 3h 3s 4c 4d
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for _ in range(2):
        next(deck)  # the burn
        for seat in (1, 2, 3):
            table.act(seat, "draw", discards=" ".join(table.hand.player(seat).cards), cards=take(5))
        for seat in (1, 2, 3):
            table.act(seat, "check")
    next(deck)
    held = table.hand.player(1).cards
    table.act(1, "draw", discards=" ".join(held[:3]), cards=take(3))
    held = table.hand.player(2).cards
    with pytest.raises(RuleViolation) as refused:
        table.act(2, "draw", discards=" ".join(held[:2]), cards=f"{next(deck)} 3d")
    assert refused.value.rule_id is RuleId.DRAW_06


def test_DRAW_05_keeps_the_bottom_card_when_a_reshuffle_is_needed_anyway() -> None:
    """Under only_if_it_completes_all_draws a seat still owed its fifth card counts as a
    remaining draw: the bottom card stays when seat 3's draw needs a reshuffle anyway."""
    rules = with_draw(
        HouseRules(),
        max_cards=5,
        max_consecutive=4,
        bottom_card=BottomCard.ONLY_IF_IT_COMPLETES_ALL_DRAWS,
        reshuffle_pool=ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS,
    )
    table = Table([500, 500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules)
    table.start(button=3)
    table.act(3, "call")
    table.act(1, "call")
    table.act(2, "check")
    for counts in ((5, 5, 5), (5, 5, 3)):
        for seat, count in zip((1, 2, 3), counts, strict=True):
            table.act(seat, "draw", count=count)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    assert table.hand.stub == 7
    table.act(1, "draw", count=5)  # burn, four now, the fifth after the others
    table.act(2, "draw", count=1)  # one card left: the bottom card
    outcome = table.act(3, "draw", count=2)  # needs a reshuffle whatever happens
    texts = [i["text"] for i in outcome.instructions]
    # before the fix the bottom card went to seat 1 as its fifth, though seat 3's draw still
    # needed a reshuffle: the bottom card completes every remaining draw or is not dealt
    assert texts[0].startswith("Stop: the stub cannot complete seat 3's draw; the last card")


def test_DRAW_11_lifts_the_no_bet_restriction_once_the_seat_draws_in_time_again() -> None:
    """Triple draw with a timer: declared pat by the timer in draw 1, seat 1 only checks,
    calls or folds in that betting round; having drawn in time in draw 2, it may bet again."""
    base = load_profile(PROFILES / "casino-triple-draw-27.toml")
    rules = dataclasses.replace(base, draw=dataclasses.replace(base.draw, timeout_seconds=30))
    table = Table([500, 500], variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, rules=rules)
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    later = AT + timedelta(seconds=31)
    table.state = apply(table.state, Act(1, ActionKind.TIME), rules, later).state
    table.act(2, "draw", count=1)
    legal = table.legal() or {}
    assert [o["action"] for o in legal["legal"]] == ["check", "fold"]  # right after draw 1
    table.act(1, "check")
    table.act(2, "check")
    table.act(1, "draw", count=2)  # in time, by its own choice
    table.act(2, "draw", count=1)
    legal = table.legal() or {}
    assert legal["seat"] == 1
    assert "bet" in [o["action"] for o in legal["legal"]]


def test_SHOW_07_guides_the_last_side_pot_to_be_pushed_first() -> None:
    """Three all-ins of 21, 46 and 100 against a deep stack: side pot 2, then 1, then the main."""
    table = Table(
        [21, 46, 100, 200],
        Variant.DEUCE_TO_SEVEN_SINGLE_DRAW,
        Structure.NO_LIMIT,
        NO_LIMIT,
        rules=load_profile(PROFILES / "single-draw-27-no-limit.toml"),
    )
    table.start(button=4)
    table.act(3, "raise", amount=100)
    table.act(4, "call")
    table.act(1, "call")
    table.act(2, "call")
    for seat in (1, 2, 3, 4):
        table.act(seat, "draw", count=0)
    table.act(3, "show", cards="8h 6c 4d 3s 2d")  # side pot 2 shows first (WSOP 149)
    table.act(4, "show", cards="Kh Kd 9c 8s 7c")
    table.act(2, "show", cards="8d 6h 4c 3c 2h")
    outcome = table.act(1, "show", cards="7h 5c 4s 3d 2c")
    texts = [i["text"] for i in outcome.instructions if i["code"] == "award"]
    assert texts == [
        "Push 108 from side pot 2 to seat 3",
        "Push 38 from side pot 1 to seat 2",
        "Push 37 from side pot 1 to seat 3",
        "Push 84 from the main pot to seat 1",
    ]
