"""Chopping the blinds (rules/hand/chop.py): SHOW-08's one exception, KILL-06, BET-08."""

from __future__ import annotations

from typing import Any

import pytest
from engine_table import LIMIT, Table

from dealerassist.rules.model.actions import Stakes, Structure
from dealerassist.rules.model.house_rules import (
    BlindRules,
    ForcedBets,
    GameRules,
    HouseRules,
    KillMode,
    KillRules,
)
from dealerassist.rules.model.ruling_commands import Ruling, VoidLast
from dealerassist.rules.model.state import Phase, TableState
from dealerassist.rules.model.violations import RuleId, RuleViolation

CHOP = HouseRules(blinds=BlindRules(chop=True))
START = {1: 500, 2: 500, 3: 500, 4: 500}


def _four_handed(rules: HouseRules = CHOP, stakes: Stakes = LIMIT) -> Table:
    """Button 1, small blind 2, big blind 3, seat 4 first to act; blinds posted."""
    table = Table([500, 500, 500, 500], rules=rules, stakes=stakes)
    table.start(button=1)
    return table


def _folded_to_the_blinds(rules: HouseRules = CHOP, stakes: Stakes = LIMIT) -> Table:
    table = _four_handed(rules, stakes)
    table.act(4, "fold")
    table.act(1, "fold")
    return table


def _actions(table: Table) -> list[str]:
    legal = table.legal()
    assert legal is not None
    return [option["action"] for option in legal["legal"]]


def _refusal(table: Table, seat: int = 2) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, "chop")
    return caught.value


def test_SHOW_08_accepts_a_chop_when_everyone_folds_to_the_blinds() -> None:
    """Folded to the blinds, both agree: each takes back its blind, the hand ends chopped with
    no pot and no showdown, and every stack is as it was before the hand."""
    table = _folded_to_the_blinds()
    outcome = table.act(2, "chop")
    assert table.hand.phase is Phase.COMPLETE and table.hand.to_act is None
    assert table.stacks() == START
    result = outcome.result_json()
    assert result is not None
    assert result["pots"] == [] and result["chopped"] == {"2": 5, "3": 10}
    assert result["stacks"] == {str(seat): 500 for seat in START}
    assert [event["type"] for event in outcome.events_json()] == ["action", "hand_ended"]
    assert outcome.events_json()[0] == {"type": "action", "seat": 2, "action": "chop"}
    (step,) = outcome.instructions
    assert step["code"] == "chop"
    assert "seat 2 takes back 5, seat 3 takes back 10" in step["text"]
    assert "showdown" in step["text"] and table.legal() is None


def test_SHOW_08_accepts_chop_in_the_legal_actions_exactly_on_the_small_blinds_turn() -> None:
    """``legal_actions`` offers the chop only to the small blind once all others folded, says
    the blinds must agree and what each gets back; not before, and not once it has called."""
    table = _four_handed()
    assert "chop" not in _actions(table)  # seat 4 to act
    table.act(4, "fold")
    assert "chop" not in _actions(table)  # the button to act
    table.act(1, "fold")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 2
    assert _actions(table) == ["call", "raise", "fold", "chop"]
    chop = legal["legal"][-1]
    assert chop["returns"] == {"2": 5, "3": 10}
    assert chop["text"].startswith("Only when both blinds agree")
    table.act(2, "call")
    assert "chop" not in _actions(table)  # the big blind's option


def test_SHOW_08_accepts_a_chop_and_the_button_moves_as_after_any_hand() -> None:
    """The next hand moves the button to seat 2; seat 3 posts the small blind."""
    table = _folded_to_the_blinds()
    table.act(2, "chop")
    table.start()
    assert table.state.button == 2
    assert (table.hand.small_blind_seat, table.hand.big_blind_seat) == (3, 4)


def test_SHOW_08_accepts_a_chopped_state_through_json() -> None:
    """The chopped table encodes and decodes to the same state."""
    table = _folded_to_the_blinds()
    table.act(2, "chop")
    assert TableState.from_dict(table.state.to_dict()) == table.state


def test_SHOW_08_rejects_a_chop_at_a_table_whose_profile_does_not_allow_it() -> None:
    """Without ``[blinds] chop`` the small blind plays it out: the refusal says the rule and
    what the seat may do."""
    table = _folded_to_the_blinds(HouseRules())
    assert "chop" not in _actions(table)
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and refusal.seat == 2
    assert "house rules do not allow chopping" in refusal.message
    assert refusal.message.endswith("seat 2 may call 5, raise to 20 or fold.")
    assert [a["action"] for a in refusal.allowed] == ["call", "raise", "fold"]


def test_SHOW_08_rejects_a_chop_after_a_raise() -> None:
    """Seat 4 raised and the button folded: the raiser is still in, no chop."""
    table = _four_handed()
    table.act(4, "raise", amount=20)
    table.act(1, "fold")
    assert "chop" not in _actions(table)
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08
    assert "seat(s) 4 still in the hand" in refusal.message


def test_SHOW_08_rejects_a_chop_with_three_players_still_in() -> None:
    """Seat 4 called: three hands are in."""
    table = _four_handed()
    table.act(4, "call")
    table.act(1, "fold")
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and "seat(s) 4 still in" in refusal.message


def test_SHOW_08_rejects_a_chop_once_the_small_blind_has_acted() -> None:
    """The small blind completed and the big blind raised: the small blind's turn again, but
    its first action was not the chop."""
    table = _folded_to_the_blinds()
    table.act(2, "call")
    table.act(3, "raise", amount=20)
    assert "chop" not in _actions(table)
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and "already acted" in refusal.message


def test_SHOW_08_rejects_a_chop_after_the_draw() -> None:
    """The blinds played to the draw: a chop now is an agreement to split a pot."""
    table = _folded_to_the_blinds()
    table.act(2, "call")
    table.act(3, "check")
    assert table.hand.phase is Phase.DRAW_1
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and "only before the draw" in refusal.message
    assert [a["action"] for a in refusal.allowed] == ["draw"]


def test_SHOW_08_rejects_a_chop_in_a_hand_dealt_to_two() -> None:
    """Heads-up the button is the small blind and nobody folded to the blinds: played out."""
    table = Table([500, 500], rules=CHOP)
    table.start(button=1)
    assert table.hand.to_act == 1 and "chop" not in _actions(table)
    refusal = _refusal(table, seat=1)
    assert refusal.rule_id is RuleId.SHOW_08 and "dealt to two" in refusal.message


@pytest.mark.parametrize(
    ("stakes", "forced"),
    [
        (Stakes(small_blind=5, big_blind=10, ante=1, small_bet=10, big_bet=20), "antes"),
        (Stakes(small_blind=5, big_blind=10, big_blind_ante=10, small_bet=10, big_bet=20), "bba"),
    ],
)
def test_SHOW_08_rejects_a_chop_with_antes_in_the_pot(stakes: Stakes, forced: str) -> None:
    """Antes (or a big-blind ante) of the seats that folded have no owner in a chop: the pot
    is played out."""
    game = GameRules(forced_bets=ForcedBets.BLINDS_AND_ANTES)
    rules = HouseRules(game=game, blinds=BlindRules(chop=True))
    table = _folded_to_the_blinds(rules, stakes)
    assert "chop" not in _actions(table), forced
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08
    assert "more than the two blinds is in the pot" in refusal.message


def test_SHOW_08_rejects_a_chop_in_a_straddled_pot() -> None:
    """BLIND-14: the straddler acts last, a third live hand: no chop."""
    rules = HouseRules(blinds=BlindRules(chop=True, straddle_allowed=True))
    table = Table([500, 500, 500, 500], rules=rules, structure=Structure.NO_LIMIT)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "post", option="straddle")
    table.act(1, "fold")
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and "straddled" in refusal.message


def test_KILL_06_rejects_a_chop_when_the_kill_sits_in_a_blind() -> None:
    """An optional kill by the big blind: folded to the blinds, still no chop (WSOP 204)."""
    rules = HouseRules(kill=KillRules(mode=KillMode.OPTIONAL), blinds=BlindRules(chop=True))
    table = Table([500, 500, 500, 500], rules=rules)
    table.start(button=1, kill_seat=3)
    table.act(4, "fold")
    table.act(1, "fold")
    assert table.hand.to_act == 2 and "chop" not in _actions(table)
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.KILL_06
    assert "kill sits in a blind (seat 3 kills" in refusal.message


def test_BET_08_rejects_a_chop_entered_for_the_big_blind() -> None:
    """Folded to the blinds, but the chop is the small blind's entry on its turn."""
    table = _folded_to_the_blinds()
    refusal = _refusal(table, seat=3)
    assert refusal.rule_id is RuleId.BET_08 and refusal.seat == 3
    assert "it is seat 2's turn" in refusal.message
    assert "chop" in [a["action"] for a in refusal.allowed]
    assert table.hand.to_act == 2  # nothing changed


def test_SHOW_08_rejects_a_chop_before_the_others_have_folded() -> None:
    """Entered for the small blind while seat 4 is still to act: refused, the hand goes on."""
    table = _four_handed()
    refusal = _refusal(table)
    assert refusal.rule_id is RuleId.SHOW_08 and "still in the hand" in refusal.message
    assert refusal.message.endswith("seat 4 may call 10, raise to 20 or fold.")


def _chop_text(result: dict[str, Any]) -> str:
    return ", ".join(f"{seat}:{chips}" for seat, chips in result["chopped"].items())


def test_SHOW_08_accepts_a_chop_with_a_short_big_blind() -> None:
    """A big blind all in for 4 (less than the small blind): each still takes back its own."""
    table = Table([500, 500, 4, 500], rules=CHOP)
    table.start(button=1)
    table.act(4, "fold")
    table.act(1, "fold")
    outcome = table.act(2, "chop")
    assert outcome.result is not None and _chop_text(outcome.result_json()) == "2:5, 3:4"
    assert table.stacks() == {1: 500, 2: 500, 3: 4, 4: 500}


def test_SHOW_08_accepts_a_chop_voided_by_the_floor_and_the_hand_played_on() -> None:
    """A chop entered by mistake (one blind did not agree): the floor's ``void_last`` puts
    the hand back on the small blind's turn with the blinds in, chop offered again."""
    table = _folded_to_the_blinds()
    table.act(2, "chop")
    table.run(Ruling(decision="custom", effects=(VoidLast(1),), note="seat 3 did not agree"))
    assert table.hand.phase is Phase.BETTING_1 and table.hand.to_act == 2
    assert table.hand.result is None and table.hand.pot == 15
    assert "chop" in _actions(table)
    table.act(2, "call")
    assert table.hand.to_act == 3
