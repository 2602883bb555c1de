"""The engine's public interface: new_table, apply, legal_actions, view."""

from __future__ import annotations

import json

import pytest
from engine_table import AT, Table

from dealerassist.rules.engine import view
from dealerassist.rules.model.actions import StartHand
from dealerassist.rules.model.state import TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation


def test_limit_hand_won_by_a_bet_after_the_draw() -> None:
    """A three-handed limit hand runs posting, betting, draw and ends when the last caller folds."""
    table = Table([200, 200, 200])
    table.start(button=1)
    assert table.legal() == {
        "seat": 1,
        "phase": "betting_1",
        "legal": [
            {"action": "call", "amount": 10},
            {"action": "raise", "min": 20, "max": 20},
            {"action": "fold"},
        ],
    }
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "raise", amount=20)
    table.act(1, "call")
    table.act(2, "fold")
    table.act(3, "draw", count=2)
    table.act(1, "draw", count=3)
    table.act(3, "bet", amount=20)
    outcome = table.act(1, "fold")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [3]
    assert table.stacks() == {1: 180, 2: 190, 3: 230}


def test_state_round_trips_through_json_at_every_step() -> None:
    """TableState.to_dict / from_dict is lossless through JSON text."""
    table = Table([100, 100])
    table.start(button=1, post=False)
    for _ in range(2):
        data = json.loads(json.dumps(table.state.to_dict()))
        assert TableState.from_dict(data) == table.state
        table.act(table.hand.to_act, "post")


def test_view_shows_the_public_shape() -> None:
    """view() carries the names the API documents and never a hole card."""
    table = Table([100, 100, 100])
    table.start(button=2)
    shown = view(table.state, table.rules, AT)
    assert shown["hand"]["phase"] == "betting_1"
    assert shown["hand"]["bets"] == {"3": 5, "1": 10}
    assert shown["next"]["seat"] == 2
    assert shown["hand"]["stub"] == 52 - 15
    assert "cards" not in json.dumps(shown["hand"]["players"])


def test_GAME_01_rejects_a_second_hand_while_one_is_in_progress() -> None:
    """StartHand during a hand is refused with GAME-01."""
    table = Table([100, 100])
    table.start(button=1)
    with pytest.raises(RuleViolation) as refused:
        table.run(StartHand())
    assert refused.value.rule_id is RuleId.GAME_01


def test_GAME_01_accepts_the_actions_of_the_current_phase() -> None:
    """Posting takes posts, betting takes bets, the draw takes draws, in that order."""
    table = Table([100, 100])
    table.start(button=1, post=False)
    table.act(1, "post")
    table.act(2, "post")
    table.act(1, "call")
    table.act(2, "check")
    table.act(2, "draw", count=1)
    assert table.hand.phase.value == "draw_1"


def test_GAME_01_rejects_an_action_of_another_phase() -> None:
    """A draw during the betting is refused with the legal betting actions."""
    table = Table([100, 100])
    table.start(button=1)
    with pytest.raises(RuleViolation) as refused:
        table.act(1, "draw", count=1)
    assert refused.value.rule_id is RuleId.GAME_01
    assert [a["action"] for a in refused.value.allowed] == ["call", "raise", "fold"]
