"""Floor-supervisor scenarios on the draw, the showdown, kills and the deck where the engine
ruled against the rule books (issue 20, the draw points; issue 18, IRREG-04): each whole hand
accepts the right entry and refuses the wrong one, under the shipped profiles or the option
value the test names. The readings are documented in docs/notes/rules-draw.md."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "rules"))

from engine_table import Table

from dealerassist.profiles import load_profile
from dealerassist.rules.actions import Variant
from dealerassist.rules.house_rules import HouseRules
from dealerassist.rules.violations import RuleId, RuleViolation

PROFILES = Path(__file__).parents[2] / "config" / "house_rules"
TRIPLE = Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
SINGLE = Variant.DEUCE_TO_SEVEN_SINGLE_DRAW


def profile(name: str) -> HouseRules:
    return load_profile(PROFILES / f"{name}.toml")


def with_section(rules: HouseRules, section: str, **options: Any) -> HouseRules:
    """``rules`` with ``options`` changed in one section (``draw``, ``kill``, ...)."""
    changed = dataclasses.replace(getattr(rules, section), **options)
    return dataclasses.replace(rules, **{section: changed})


def refused(table: Table, seat: int, action: str, **fields: Any) -> RuleViolation:
    """The violation the engine raises for the entry; the table is left as it was."""
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, action, **fields)
    assert table.state is before
    return caught.value


def offered(table: Table) -> list[str]:
    legal = table.legal() or {"legal": []}
    return [option["action"] for option in legal["legal"]]


# --- SHOW-01: a hand tabled before its turn ---------------------------------------------------


def bet_and_called(rules: HouseRules) -> Table:
    """casino-five-card-draw heads-up, button 2: seat 1 bets after the draw, seat 2 calls, so
    seat 1 (the last aggressor) shows first."""
    table = Table([100, 100], rules=rules)
    table.start(button=2)
    table.act(2, "call")
    table.act(1, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    table.act(1, "bet", amount=20)
    table.act(2, "call")
    assert table.hand.phase.value == "showdown" and table.hand.to_act == 1
    return table


def test_SHOW_01_accepts_a_winner_tabling_his_hand_before_his_turn() -> None:
    """WSOP 149 ("a participant holding a probable winner is encouraged to show the hand
    without delay"), RRoP, TDA 17-A (the order binds only "if cards are not spontaneously
    tabled"): the caller tables his winner first and the record shows it; the bettor, first
    in the order, still owes his show or muck, and mucks; the tabled hand wins."""
    table = bet_and_called(profile("casino-five-card-draw"))
    table.act(2, "show", cards="Ah Ad Ac Kd Ks")
    assert table.hand.to_act == 1 and offered(table) == ["show", "muck"]
    table.act(1, "muck")
    result = table.hand.result
    assert result["shown"] == {"2": "Ah Ad Ac Kd Ks"}
    assert result["pots"][0]["winners"] == [2]
    assert table.stacks() == {1: 70, 2: 130}


def test_SHOW_01_rejects_a_muck_out_of_turn_and_a_folded_seat_showing() -> None:
    """WSOP 149, TDA 17-A: the order still decides who must show: the caller may table his
    hand but may not muck before the last aggressor has shown (or mucked); a seat that folded
    has no hand to table."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"))
    table.start(button=3)
    table.act(3, "fold")
    table.act(1, "call")
    table.act(2, "check")
    table.act(1, "draw", count=1)
    table.act(2, "draw", count=1)
    table.act(1, "bet", amount=20)
    table.act(2, "call")
    assert refused(table, 2, "muck").rule_id is RuleId.SHOW_01
    assert refused(table, 3, "show", cards="Ah Ad Ac Kd Ks").rule_id is RuleId.SHOW_01
    table.act(1, "show", cards="7s 9s Js Qs Ks")
    table.act(2, "muck")
    assert table.hand.result["pots"][0]["winners"] == [1]
