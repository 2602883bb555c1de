"""Whole hands under the raked casino profile (RAKE-01..RAKE-04): the rake and the jackpot drop
taken from the pots before they are pushed, every chip accounted for.

No rule book fixes the rake: it is house policy, posted at the table (issue 23).
``casino-five-card-draw-raked`` takes 10% of each pot rounded down to 1 chip, at most 4 a
hand, no draw no drop, and a jackpot drop of 1 when the pot reaches 20. Blinds 5/10, limits
10/20 (``profile_table``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from profile_table import AT, STAKES, ProfileTable, entry

from dealerassist.errors import ProfileError
from dealerassist.profiles import REPO_PROFILES_DIR, get_profile, load_profile
from dealerassist.rules.engine import Outcome, apply, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    CreateTable,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.model.house_rules import Collection, HouseRules
from dealerassist.rules.model.ruling_commands import Award, Ruling
from dealerassist.rules.model.state import Phase, SeatStatus
from dealerassist.rules.model.violations import RuleId, RuleViolation

RAKED = get_profile("casino-five-card-draw-raked", REPO_PROFILES_DIR)
PLAIN = get_profile("casino-five-card-draw", REPO_PROFILES_DIR)
FIVE = Variant.FIVE_CARD_DRAW
SHOWDOWN = ["1 call", "2 call", "3 check", "2 draw 1", "3 draw 2", "1 draw 3", "2 check"]


def _rake(rules: HouseRules, **options: Any) -> HouseRules:
    return replace(rules, rake=replace(rules.rake, **options))


def _table(rules: HouseRules, stacks: dict[int, int]) -> ProfileTable:
    table = ProfileTable(rules, FIVE, ())
    for seat, stack in stacks.items():
        table.run(SeatPlayer(seat, f"P{seat}", stack))
    return table


def _texts(table: ProfileTable) -> list[str]:
    assert table.outcome is not None
    return [instruction["text"] for instruction in table.outcome.instructions]


def _result(table: ProfileTable) -> dict[str, Any]:
    assert table.outcome is not None and table.outcome.result is not None
    return table.outcome.result_json()


def test_RAKE_01_accepts_ten_percent_capped_at_four_and_the_jackpot_drop_before_the_push() -> None:
    """A pot of 70 after the draw: 10% is 7, capped at 4; the pot reached 20 after a draw, so
    1 goes to the jackpot; seat 3 is pushed 65. The dealer is told to drop before pushing."""
    table = _table(RAKED, {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 call", "2 fold"], button=1)
    table.run(entry("3 show Ah Ad Kc Qs 2h"))
    table.run(entry("1 muck"))
    result = _result(table)
    assert (result["rake"], result["jackpot_drop"]) == (4, 1)
    assert [(p["amount"], p["rake"], p["jackpot_drop"]) for p in result["pots"]] == [(70, 4, 1)]
    assert result["winnings"] == {"3": 65}
    assert _texts(table)[:2] == [
        "Drop 4 to the rake slot and 1 to the jackpot; push 65 to seat 3",
        "Push 65 from the main pot to seat 3",
    ]
    assert table.stacks() == {1: 470, 2: 490, 3: 535}
    assert sum(table.stacks().values()) + 4 + 1 == 1500


def test_RAKE_01_accepts_a_cap_taken_from_the_main_pot_first_then_the_side_pot() -> None:
    """Seat 1 is all in for 10 before the draw: a main pot of 30 (all three) and, after the
    draw, a side pot of 40 (seats 2 and 3). 10% of the main pot is 3; 10% of the side pot is 4
    but only 1 is left under the cap of 4. The jackpot's 1 comes from the main pot."""
    table = _table(RAKED, {1: 10, 2: 500, 3: 500})
    table.hand([*SHOWDOWN[:-1], "2 bet 20", "3 call"], button=1)
    for step in ["2 show 2c 3d 4h 5s 7c", "3 show Kh Kd 9c 8s 2h", "1 show Ah As Ac 9h 8d"]:
        table.run(entry(step))
    result = _result(table)
    pots = [(p["amount"], p["rake"], p["jackpot_drop"], p["shares"]) for p in result["pots"]]
    assert pots == [(30, 3, 1, {"1": 26}), (40, 1, 0, {"3": 39})]
    assert (result["rake"], result["jackpot_drop"]) == (4, 1)
    assert _texts(table)[0] == (
        "Drop 4 to the rake slot and 1 to the jackpot; push 39 from side pot 1 to seat 3; "
        "push 26 from the main pot to seat 1"
    )
    assert table.stacks() == {1: 26, 2: 470, 3: 509}
    assert sum(table.stacks().values()) + 5 == 1010


def test_RAKE_01_refuses_to_rake_a_pot_below_min_pot() -> None:
    """With ``min_pot = 80`` the same pot of 70 pays no rake (the jackpot drop still falls)."""
    table = _table(_rake(RAKED, min_pot=80), {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 call", "2 fold"], button=1)
    table.run(entry("3 show Ah Ad Kc Qs 2h"))
    table.run(entry("1 muck"))
    result = _result(table)
    assert (result["rake"], result["jackpot_drop"], result["winnings"]) == (0, 1, {"3": 69})
    assert _texts(table)[0] == "Drop 1 to the jackpot; push 69 to seat 3"


def test_RAKE_01_accepts_a_fixed_rake_per_hand_from_the_main_pot_first() -> None:
    """``collection = "per_hand"``, 5 a hand from a pot of 30: 5 from the main pot of 30, the
    side pot untouched; the jackpot drop of 1 follows from the main pot."""
    rules = _rake(RAKED, collection=Collection.PER_HAND, per_hand=5, min_pot=30, percent=0)
    table = _table(rules, {1: 10, 2: 500, 3: 500})
    table.hand([*SHOWDOWN[:-1], "2 bet 20", "3 call"], button=1)
    for step in ["2 show 2c 3d 4h 5s 7c", "3 show Kh Kd 9c 8s 2h", "1 show Ah As Ac 9h 8d"]:
        table.run(entry(step))
    pots = [(p["rake"], p["jackpot_drop"], p["shares"]) for p in _result(table)["pots"]]
    assert pots == [(5, 1, {"1": 24}), (0, 0, {"3": 40})]


def test_RAKE_01_refuses_a_table_whose_blinds_the_chip_unit_does_not_divide() -> None:
    """``chip_unit = 5`` and a 5/10 table is accepted; a 2/4 table is refused with RAKE-01 and
    the field path, nothing created."""
    rules = _rake(RAKED, chip_unit=5)
    spec = TableSpec("R1", FIVE, Structure.FIXED_LIMIT, STAKES, rules.profile_id)
    assert apply(new_table(spec), CreateTable(spec), rules, AT).state.table_id == "R1"
    bad = replace(spec, stakes=replace(STAKES, small_blind=2, big_blind=4))
    with pytest.raises(RuleViolation) as refused:
        apply(new_table(bad), CreateTable(bad), rules, AT)
    assert refused.value.rule_id is RuleId.RAKE_01
    assert "rake.chip_unit 5 does not divide the stakes (small_blind 2, big_blind 4)" in str(
        refused.value
    )


def test_RAKE_02_refuses_a_rake_from_a_walk() -> None:
    """Folded to the big blind: the uncalled 5 goes back and the pot of 10 is pushed whole, no
    draw, no drop (and no jackpot before a draw); without no_draw_no_drop it pays 10% = 1."""
    table = _table(RAKED, {1: 500, 2: 500, 3: 500})
    table.hand(["1 fold", "2 fold"], button=1)
    result = _result(table)
    assert (result["rake"], result["jackpot_drop"], result["winnings"]) == (0, 0, {"3": 10})
    assert not any(text.startswith("Drop") for text in _texts(table))
    assert table.stacks() == {1: 500, 2: 495, 3: 505}
    table = _table(_rake(RAKED, no_draw_no_drop=False), {1: 500, 2: 500, 3: 500})
    table.hand(["1 fold", "2 fold"], button=1)
    assert (_result(table)["rake"], _result(table)["jackpot_drop"]) == (1, 0)
    assert _texts(table)[1] == "Drop 1 to the rake slot; push 9 to seat 3"
    assert table.stacks() == {1: 500, 2: 495, 3: 504}


def test_RAKE_02_accepts_a_rake_once_the_draw_is_reached() -> None:
    """Everyone folds after the draw: the hand reached the draw, so the pot of 30 pays 3 and
    the jackpot 1 (it reached 20); the bet nobody called goes back unraked (RAKE-04)."""
    table = _table(RAKED, {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 fold", "2 fold"], button=1)
    result = _result(table)
    assert (result["rake"], result["jackpot_drop"], result["winnings"]) == (3, 1, {"3": 26})
    assert result["returned"] == {"3": 20}


def test_RAKE_03_refuses_the_jackpot_drop_below_its_pot_or_players() -> None:
    """``jackpot_min_pot = 40``: a pot of 30 drops nothing; ``jackpot_min_players = 4`` with
    three dealt in: nothing either (the rake is taken all the same)."""
    for options in ({"jackpot_min_pot": 40}, {"jackpot_min_players": 4}):
        table = _table(_rake(RAKED, **options), {1: 500, 2: 500, 3: 500})
        table.hand([*SHOWDOWN, "3 bet 20", "1 fold", "2 fold"], button=1)
        assert (_result(table)["rake"], _result(table)["jackpot_drop"]) == (3, 0), options


def test_RAKE_03_accepts_the_jackpot_drop_alone_without_a_rake() -> None:
    """A profile that takes no rake may still drop for the jackpot: 1 from the pot of 30."""
    rules = _rake(RAKED, collection=Collection.NONE)
    table = _table(rules, {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 fold", "2 fold"], button=1)
    assert (_result(table)["rake"], _result(table)["jackpot_drop"]) == (0, 1)
    assert _result(table)["winnings"] == {"3": 29}


def test_RAKE_04_refuses_to_rake_an_uncalled_bet() -> None:
    """Seat 3 bets 20 after the draw and nobody calls: the 20 goes back to him before the pot
    is raked, so the rake is 10% of 30 (3), never of 50 (4, the cap)."""
    table = _table(RAKED, {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 fold", "2 fold"], button=1)
    texts = _texts(table)
    assert texts.index("Return 20 uncalled to seat 3") < texts.index(
        "Drop 3 to the rake slot and 1 to the jackpot; push 26 to seat 3"
    )
    assert table.stacks() == {1: 490, 2: 490, 3: 516}


def test_RAKE_04_accepts_a_chopped_pot_as_paying_nothing() -> None:
    """SHOW-08 (WSOP 71): folded to the blinds, they chop: each takes his blind back, there is
    no pot, so nothing is raked or dropped, even with no_draw_no_drop off."""
    table = _table(_rake(RAKED, no_draw_no_drop=False), {1: 500, 2: 500, 3: 500})
    table.hand(["1 fold", "2 chop"], button=1)
    result = _result(table)
    assert result["chopped"] == {"2": 5, "3": 10}
    assert result.get("rake", 0) == 0 and result.get("jackpot_drop", 0) == 0
    assert table.stacks() == {1: 500, 2: 500, 3: 500}


def test_RAKE_04_accepts_the_unraked_profile_settling_as_before() -> None:
    """casino-five-card-draw (no rake): the same hand's result has no rake fields at all and the
    whole pot of 70 is pushed, as every hand recorded before the option."""
    table = _table(PLAIN, {1: 500, 2: 500, 3: 500})
    table.hand([*SHOWDOWN, "3 bet 20", "1 call", "2 fold"], button=1)
    table.run(entry("3 show Ah Ad Kc Qs 2h"))
    table.run(entry("1 muck"))
    result = _result(table)
    assert "rake" not in result and "rake" not in result["pots"][0]
    assert result["winnings"] == {"3": 70}
    assert not any(text.startswith("Drop") for text in _texts(table))


def _at(minutes: int) -> datetime:
    return AT + timedelta(minutes=minutes)


def _walk(table: ProfileTable, minutes: int) -> list[Outcome]:
    """Start a hand at AT + ``minutes``, make the posts, then everyone folds to the big blind;
    every command's outcome."""
    outcomes = [apply(table.state, StartHand(None), table.rules, _at(minutes))]
    table.state = outcomes[0].state
    while table.state.hand is not None and table.state.hand.phase is not Phase.COMPLETE:
        hand = table.state.hand
        kind = ActionKind.POST if hand.phase is Phase.POSTING else ActionKind.FOLD
        outcomes.append(apply(table.state, Act(hand.to_act or 0, kind), table.rules, _at(minutes)))
        table.state = outcomes[-1].state
    return outcomes


def test_RAKE_05_accepts_time_collected_once_a_period_from_the_seats_dealt_in() -> None:
    """``collection = "time"``, 6 a seat every 30 minutes, over a session of four hands from
    12:00: the first hand's three seats pay 6 each (period 1), once the posts are made and
    before the deal; a hand at 12:10 pays nothing; at 12:31 period 2 has begun, seat 3 sits
    out, so seats 1 and 2 pay; no hand starts in period 3; at 13:45 (period 4) the three seats
    dealt in pay. Every chip is accounted for: stacks + time = the chips they sat down with."""
    rules = _rake(PLAIN, collection=Collection.TIME, time_amount=6)
    table = _table(rules, {1: 500, 2: 500, 3: 500})
    collected = []
    for minutes, away in ((0, None), (10, None), (31, 3), (105, None)):
        if away is not None:
            table.run(SitOut(away))
        elif table.state.seat(3).status is SeatStatus.SITTING_OUT:
            table.run(ReturnToPlay(3))
        outcomes = _walk(table, minutes)
        events = [e for o in outcomes for e in o.events_json() if e["type"] == "time_collected"]
        collected.append(events[0]["seats"] if events else {})
        if events:  # once the posts are made, before the deal
            posted = next(o for o in outcomes if "time_collected" in str(o.events_json()))
            codes = [instruction["code"] for instruction in posted.instructions]
            assert codes[:2] == ["collect_time", "deal"], codes
    assert collected == [
        {"1": 6, "2": 6, "3": 6},
        {},
        {"1": 6, "2": 6},
        {"1": 6, "2": 6, "3": 6},
    ]
    assert sum(table.stacks().values()) + 6 * 8 == 1500
    assert (table.state.time_periods, table.state.time_started) == (4, AT.isoformat())


def test_RAKE_05_refuses_a_time_collection_without_an_amount(tmp_path: Path) -> None:
    """A time collection must say what each seat pays: the profile is refused with the path."""
    path = tmp_path / "timed.toml"
    path.write_text('name = "T"\n[game]\nvariant = "five_card_draw"\n[rake]\ncollection = "time"\n')
    with pytest.raises(ProfileError, match=r"timed.toml: rake.time_amount: collection = \"time\""):
        load_profile(path)


def test_RAKE_05_accepts_no_time_and_no_rake_under_a_profile_without_the_section() -> None:
    """casino-five-card-draw (no collection): the same session collects nothing, and the table
    state records no time fields (every state recorded before the option encodes as before)."""
    table = _table(PLAIN, {1: 500, 2: 500, 3: 500})
    for minutes in (0, 31):
        outcomes = _walk(table, minutes)
        assert not any(e["type"] == "time_collected" for o in outcomes for e in o.events_json())
    assert "time_started" not in table.state.to_dict()
    assert sum(table.stacks().values()) == 1500


def test_RAKE_01_accepts_the_take_from_a_pot_the_floor_awards() -> None:
    """The floor awards the pot of 70 to seat 1 at the showdown (an award ruling): the house
    takes 4 and 1 from it first, as at a showdown, and the dealer is told so before the push;
    under the unraked profile the same ruling pushes all 70."""
    ruling = Ruling(decision="custom", note="seat 3 fouled his hand", effects=(Award((1,)),))
    for rules, pushed in ((RAKED, 65), (PLAIN, 70)):
        table = _table(rules, {1: 500, 2: 500, 3: 500})
        table.hand([*SHOWDOWN, "3 bet 20", "1 call", "2 fold"], button=1)
        result = table.run(ruling).result_json()
        assert result is not None and result["winnings"] == {"1": pushed}
        assert (result.get("rake"), result.get("jackpot_drop")) == (
            (4, 1) if rules is RAKED else (None, None)
        )
        texts = _texts(table)
        assert texts[-1] == f"Push {pushed} from the main pot to seat 1"
        if rules is RAKED:
            assert texts[-2] == "Drop 4 to the rake slot and 1 to the jackpot; push 65 to seat 1"
