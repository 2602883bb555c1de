"""The posting phase: options, the live straddle, the full-blind call (BLIND-04, BLIND-14)."""

from __future__ import annotations

import pytest
from engine_table import Table

from dealerassist.rules.house_rules import BlindRules, HouseRules
from dealerassist.rules.violations import RuleId, RuleViolation

STRADDLE = HouseRules(blinds=BlindRules(straddle_allowed=True))


def test_BLIND_04_accepts_a_call_of_the_full_blind_after_a_short_big_blind() -> None:
    """The big blind is all in for 6; the next player calls the full 10."""
    table = Table([100, 100, 6])
    table.start(button=1)
    table.act(1, "call", amount=10)
    assert table.hand.player(1).bet == 10


def test_BLIND_04_rejects_a_call_of_only_the_short_blind() -> None:
    """Calling just the 6 chips of a short all-in big blind is refused."""
    table = Table([100, 100, 6])
    table.start(button=1)
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(1, "call", amount=6)
    assert error.value.rule_id is RuleId.BLIND_04
    assert error.value.allowed[0] == {"action": "call", "amount": 10}
    assert table.state is before


def test_BLIND_14_accepts_a_live_straddle_that_acts_last_with_the_option() -> None:
    """The seat left of the big blind straddles 20; action starts to its left and comes back."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 4
    assert {"action": "post", "option": "straddle", "amount": 20} in legal["legal"]
    table.act(4, "post", option="straddle")
    assert table.hand.straddle_seat == 4 and table.hand.player(4).bet == 20
    assert table.hand.to_act == 1
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "call")
    legal = table.legal()
    assert legal is not None and legal["seat"] == 4
    assert [a["action"] for a in legal["legal"]] == ["check", "raise", "fold"]


def test_BLIND_14_accepts_declining_the_straddle() -> None:
    """Declining leaves the normal order: first to act is left of the big blind."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "post", option="no_straddle")
    assert table.hand.phase.value == "betting_1" and table.hand.to_act == 4
    assert table.hand.straddle_seat is None


def test_BLIND_14_rejects_a_straddle_where_the_house_does_not_allow_it() -> None:
    """Without straddle_allowed no seat is offered a straddle."""
    table = Table([100] * 4)
    table.start(button=1, post=False)
    table.act(2, "post")
    with pytest.raises(RuleViolation) as error:
        table.act(3, "post", option="straddle")
    assert error.value.rule_id is RuleId.BLIND_14


def test_BLIND_14_rejects_a_straddle_from_another_seat() -> None:
    """Only the seat left of the big blind may straddle; the small blind may not."""
    table = Table([100] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post", option="straddle")
    assert error.value.rule_id is RuleId.BLIND_14


def test_wait_is_refused_for_an_ordinary_blind() -> None:
    """BLIND-01: the small blind owes its blind; it may not choose to wait."""
    table = Table([100] * 3)
    table.start(button=1, post=False)
    with pytest.raises(RuleViolation) as error:
        table.act(2, "post", option="wait")
    assert error.value.rule_id is RuleId.BLIND_01


def test_BLIND_14_accepts_a_straddle_counting_as_a_raise_toward_the_cap() -> None:
    """Fixed limit, bet + 3 raises: blind 10, straddle 20, then only 30 and 40 are left."""
    table = Table([200] * 4, rules=STRADDLE)
    table.start(button=1, post=False)
    table.act(2, "post")
    table.act(3, "post")
    table.act(4, "post", option="straddle")
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=40)
    legal = table.legal()
    assert legal is not None and legal["seat"] == 3
    assert [a["action"] for a in legal["legal"]] == ["call", "fold"]


def test_BLIND_14_guides_the_dealer_to_offer_the_straddle() -> None:
    """The start-of-hand instructions name the seat that may straddle and the amount."""
    table = Table([100] * 4, rules=STRADDLE)
    outcome = table.start(button=1, post=False)
    offers = [i for i in outcome.instructions if i["code"] == "straddle"]
    assert [(i["seat"], i["count"]) for i in offers] == [(4, 20)]
