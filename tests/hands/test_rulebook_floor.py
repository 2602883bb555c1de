"""Floor-manager scenarios checking the engine's rulings against the rule book: misdeals and
their deadline (IRREG-01/02, DECK-01), exposed and extra cards on the deal (IRREG-03/06),
voided actions, killed hands, awards pot by pot, stack adjustments and held pots (IRREG-13,
IRREG-14, IRREG-15, SHOW-07, SHOW-11, KILL-07), under every shipped profile and the other
values the misdeal deadline can take."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "rules"))

from engine_table import LIMIT, NO_LIMIT, Table, cards_accounted
from profile_table import kills_as_before

from dealerassist.errors import InvalidInput
from dealerassist.profiles import load_profile
from dealerassist.rules.floor.ruling_options import options_for
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    SeatPlayer,
    Stakes,
    Structure,
    Variant,
)
from dealerassist.rules.model.house_rules import HouseRules, MisdealDeadline
from dealerassist.rules.model.ruling_commands import (
    AcceptEntry,
    AdjustStack,
    Award,
    Effect,
    HoldPot,
    KillHand,
    Misdeal,
    MoveButton,
    ReleasePot,
    Ruling,
    VoidLast,
)
from dealerassist.rules.model.state import Phase
from dealerassist.rules.model.violations import RuleId, RuleViolation

PROFILES = Path(__file__).parents[2] / "config" / "house_rules"
ANTES = Stakes(ante=2, small_bet=10, big_bet=20)
TRIPLE = Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW

# each shipped profile's game: variant, structure, stakes
GAMES: dict[str, tuple[Variant, Structure, Stakes]] = {
    "casino-five-card-draw": (Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, LIMIT),
    "casino-triple-draw-27": (TRIPLE, Structure.FIXED_LIMIT, LIMIT),
    "casino-triple-draw-27-kill": (TRIPLE, Structure.FIXED_LIMIT, LIMIT),
    "casino-triple-draw-27-optional-kill": (TRIPLE, Structure.FIXED_LIMIT, LIMIT),
    "ace-to-seven-stripped": (Variant.ACE_TO_SEVEN_STRIPPED, Structure.FIXED_LIMIT, LIMIT),
    "single-draw-27-no-limit": (Variant.DEUCE_TO_SEVEN_SINGLE_DRAW, Structure.NO_LIMIT, NO_LIMIT),
    "home-game-five-card-draw": (Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, ANTES),
    "replay-permissive": (TRIPLE, Structure.FIXED_LIMIT, LIMIT),
}
TWO_PLAYERS_ACTED = [
    "casino-five-card-draw",
    "casino-triple-draw-27",
    "casino-triple-draw-27-kill",
    "casino-triple-draw-27-optional-kill",
    "ace-to-seven-stripped",
]
NO_DEADLINE = ["home-game-five-card-draw", "replay-permissive"]


def profile(name: str) -> HouseRules:
    rules = load_profile(PROFILES / f"{name}.toml")
    return kills_as_before(rules) if "kill" in name else rules


def table_for(name: str, stacks: list[int], deadline: MisdealDeadline | None = None) -> Table:
    """A table of the profile's game; ``deadline`` overrides the profile's misdeal deadline."""
    rules = profile(name)
    if deadline is not None:
        irregularities = dataclasses.replace(rules.irregularities, misdeal_deadline=deadline)
        rules = dataclasses.replace(rules, irregularities=irregularities)
    variant, structure, stakes = GAMES[name]
    return Table(stacks, variant=variant, structure=structure, stakes=stakes, rules=rules)


def rule(table: Table, *effects: Effect, decision: str = "custom", **fields: Any) -> Any:
    fields.setdefault("note", "floor decided")
    return table.run(Ruling(decision=decision, effects=effects, **fields))


def misdeal(table: Table, rule_id: str = "IRREG-01", decision: str = "misdeal") -> Any:
    return rule(table, Misdeal(), rule_id=rule_id, decision=decision)


def refused_ruling(table: Table, *effects: Effect, **fields: Any) -> RuleViolation:
    """The violation a ruling raises; the table is left exactly as it was."""
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        rule(table, *effects, **fields)
    assert table.state is before
    return caught.value


def chips(table: Table) -> int:
    """Every chip at the table: the stacks behind (in the hand while one is in play), the
    middle, and antes carried to the next deal."""
    hand = table.state.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        return sum(table.stacks().values()) + table.state.carried_pot
    behind = sum(player.stack + player.added for player in hand.players)
    others = sum(s for seat, s in table.stacks().items() if not hand.has(seat))
    return behind + others + hand.pot


# --- IRREG-01/02: the misdeal deadline ------------------------------------------------------


@pytest.mark.parametrize("name", TWO_PLAYERS_ACTED)
def test_IRREG_02_accepts_a_misdeal_before_two_players_have_acted(name: str) -> None:
    """two_players_acted (RRoP): the posted blinds and one call are not two players acting;
    the misdeal gives every chip back and the redeal keeps the button and the blinds."""
    table = table_for(name, [100, 100, 100, 100])
    table.start(button=1)
    table.act(4, "call")
    outcome = misdeal(table)
    assert (
        outcome.result.to_json()["misdeal"] is True
        and outcome.result.to_json()["cancelled"] is True
    )
    assert table.stacks() == {1: 100, 2: 100, 3: 100, 4: 100}
    assert [i["code"] for i in outcome.instructions] == ["misdeal"]
    table.start()
    assert table.hand.hand_no == 2 and table.hand.button == 1
    assert (table.hand.small_blind_seat, table.hand.big_blind_seat) == (2, 3)


@pytest.mark.parametrize("name", TWO_PLAYERS_ACTED)
def test_IRREG_02_rejects_a_misdeal_once_two_players_have_acted(name: str) -> None:
    """two_players_acted: a call and a fold are two players acting; the misdeal is refused
    with IRREG-02 naming the house deadline, and a fouled deck is offered instead."""
    table = table_for(name, [100, 100, 100, 100])
    table.start(button=1)
    table.act(4, "call")
    table.act(1, "fold")
    refused = refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert refused.rule_id is RuleId.IRREG_02
    assert "two players have acted (house deadline two_players_acted)" in refused.message
    assert {"rule_id": "DECK-01", "decision": "void_refund"} in refused.allowed


def test_IRREG_02_two_players_acted_counts_players_not_actions() -> None:
    """casino-five-card-draw: seat 1's raise is one player acting, so the misdeal is still
    allowed and the raise goes back."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "raise", amount=20)
    assert misdeal(table).result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def nl_table(players: int = 4) -> Table:
    table = table_for("single-draw-27-no-limit", [100] * players)
    table.start(button=1)
    return table


def test_IRREG_02_substantial_action_accepts_a_misdeal_after_two_folds() -> None:
    """single-draw-27-no-limit (TDA 36 / WSOP 109): two folds are not substantial action."""
    table = nl_table()
    table.act(4, "fold")
    table.act(1, "fold")
    assert misdeal(table).result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100, 4: 100}


def test_IRREG_02_substantial_action_accepts_a_misdeal_after_one_raise() -> None:
    """A single action, even with chips, is not substantial action; the raise goes back."""
    table = nl_table()
    table.act(4, "raise", amount=30)
    assert misdeal(table).result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100, 4: 100}


def test_IRREG_02_substantial_action_rejects_a_fold_and_a_raise() -> None:
    """Two actions, one of them putting chips in, are substantial: the hand is played out."""
    table = nl_table()
    table.act(4, "fold")
    table.act(1, "raise", amount=30)
    refused = refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert refused.rule_id is RuleId.IRREG_02
    assert "substantial action (house deadline substantial_action)" in refused.message


def test_IRREG_02_substantial_action_rejects_three_folds() -> None:
    """Three folds are substantial action under both TDA 36 and WSOP 109."""
    table = nl_table(5)
    for seat in (4, 5, 1):
        table.act(seat, "fold")
    refused = refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert refused.rule_id is RuleId.IRREG_02


def ante_table(deadline: MisdealDeadline | None = None) -> Table:
    table = table_for("home-game-five-card-draw", [100, 100, 100], deadline)
    table.start(button=1)
    return table


def test_IRREG_02_substantial_action_is_not_a_check_and_a_fold_in_an_ante_game() -> None:
    """home-game-five-card-draw with the substantial_action value: a check and a fold put no
    chips in (TDA 36), so the misdeal is still allowed and the antes go back."""
    table = ante_table(MisdealDeadline.SUBSTANTIAL_ACTION)
    table.act(2, "check")
    table.act(3, "fold")
    assert misdeal(table).result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100} and table.state.carried_pot == 0


def test_IRREG_02_substantial_action_rejects_a_check_and_a_bet_in_an_ante_game() -> None:
    """A check then an opening bet: two actions, one with chips (posted antes never count)."""
    table = ante_table(MisdealDeadline.SUBSTANTIAL_ACTION)
    table.act(2, "check")
    table.act(3, "bet", amount=10)
    refused = refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal")
    assert refused.rule_id is RuleId.IRREG_02


def test_IRREG_02_two_players_acted_rejects_two_checks_in_an_ante_game() -> None:
    """The two_players_acted value on the ante game: two checks are two players acting."""
    table = ante_table(MisdealDeadline.TWO_PLAYERS_ACTED)
    table.act(2, "check")
    assert misdeal(table).result.to_json()["misdeal"] is True
    table.start()
    first = table.hand.to_act
    table.act(first, "check")
    table.act(table.hand.to_act, "check")
    assert refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal").rule_id == (
        RuleId.IRREG_02
    )


@pytest.mark.parametrize("name", NO_DEADLINE)
def test_IRREG_01_accepts_a_misdeal_at_any_point_without_a_house_deadline(name: str) -> None:
    """misdeal_deadline = none (home game, permissive replay): after the betting and the draw
    the floor may still void the hand; every chip goes back."""
    table = table_for(name, [100, 100, 100])
    table.start(button=1)
    while table.hand.phase.value == "betting_1":
        seat = table.hand.to_act
        kinds = {option["action"] for option in table.legal()["legal"]}  # type: ignore[index]
        table.act(
            seat,
            "call" if "call" in kinds else ("bet" if "bet" in kinds else "check"),
            **({"amount": 10} if "call" not in kinds and "bet" in kinds else {}),
        )
    table.act(table.hand.to_act, "draw", count=2)
    assert table.hand.phase is Phase.DRAW_1
    assert misdeal(table).result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


@pytest.mark.parametrize(
    ("name", "rule_id", "decision"),
    [
        ("casino-five-card-draw", "DECK-01", "void_refund"),
        ("casino-triple-draw-27", "IRREG-02", "fouled_deck"),
        ("single-draw-27-no-limit", "DECK-01", "void_refund"),
    ],
)
def test_DECK_01_accepts_a_fouled_deck_void_after_the_misdeal_deadline(
    name: str, rule_id: str, decision: str
) -> None:
    """DECK-01 / IRREG-02: a duplicate card or a different back voids the hand and returns
    every bet, whatever the action; the deadline that refuses a plain misdeal does not apply."""
    table = table_for(name, [100, 100, 100, 100])
    table.start(button=1)
    table.act(4, "fold")
    table.act(1, "raise", amount=20 if name != "single-draw-27-no-limit" else 30)
    table.act(2, "fold")
    assert refused_ruling(table, Misdeal(), rule_id="IRREG-01", decision="misdeal").rule_id == (
        RuleId.IRREG_02
    )
    outcome = misdeal(table, rule_id=rule_id, decision=decision)
    assert outcome.result.to_json()["misdeal"] is True
    assert table.stacks() == {1: 100, 2: 100, 3: 100, 4: 100}


def test_DECK_01_rejects_a_stands_ruling_that_names_the_misdeal_decision_elsewhere() -> None:
    """DECK-01's options are void_refund and stands; 'misdeal' is not one of them."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    with pytest.raises(InvalidInput, match="void_refund, stands"):
        misdeal(table, rule_id="DECK-01", decision="misdeal")


def test_IRREG_01_misdeal_after_a_passed_out_deal_keeps_the_carried_antes() -> None:
    """home-game-five-card-draw: nobody opens hand 1, its 6 in antes are carried; hand 2 is
    declared a misdeal: its antes go back but the 6 carried stay in the middle for hand 3."""
    table = ante_table()
    for seat in (2, 3, 1):
        table.act(seat, "check")
    assert table.hand.result.to_json()["passed_out"] and table.state.carried_pot == 6
    table.start()
    assert table.hand.pot == 12
    table.act(table.hand.to_act, "check")
    outcome = misdeal(table)
    assert outcome.result.to_json()["misdeal"] is True and table.state.carried_pot == 6
    assert table.stacks() == {1: 98, 2: 98, 3: 98}
    table.start()
    assert table.hand.hand_no == 3 and table.hand.pot == 12
    assert sum(table.stacks().values()) + 6 == 300


# --- IRREG-03 / IRREG-06: exposed and extra cards on the initial deal ------------------------


@pytest.mark.parametrize(
    ("name", "rank", "code"),
    [
        ("casino-five-card-draw", "K", "keep"),
        ("casino-triple-draw-27", "7", "keep"),
        ("casino-triple-draw-27", "6", "replace"),
        ("casino-triple-draw-27-kill", "A", "replace"),
        ("single-draw-27-no-limit", "2", "replace"),
        ("ace-to-seven-stripped", "A", "keep"),
    ],
)
def test_IRREG_03_guides_keep_or_replace_by_the_house_table(
    name: str, rank: str, code: str
) -> None:
    """IRREG-03: draw high keeps any card, limit 2-7 keeps 7-5-4-3-2 (a 6 is replaced), WSOP
    lowball replaces every exposed card; a replaced card is the burn, cards stay 52 (32)."""
    table = table_for(name, [100, 100, 100])
    table.start(button=1)
    deck = cards_accounted(table.hand)
    outcome = table.act(2, "exposed", rank=rank)
    event = next(e for e in outcome.events_json() if e["type"] == "exposed")
    assert event["ruling"] == code
    assert table.hand.burns == (1 if code == "replace" else 0)
    assert cards_accounted(table.hand) == deck


def test_IRREG_03_rejects_the_player_choosing_to_keep_a_replaced_card() -> None:
    """IRREG-03: the player never chooses; keeping a 6 in limit 2-7 is refused."""
    table = table_for("casino-triple-draw-27", [100, 100, 100])
    table.start(button=1)
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(2, "exposed", rank="6", option="keep")
    assert caught.value.rule_id is RuleId.IRREG_03 and table.state is before
    assert "The player never chooses" in caught.value.message


def test_IRREG_03_second_exposed_card_calls_for_a_misdeal_the_floor_then_declares() -> None:
    """Two dealer-exposed cards: the engine tells the dealer to call the floor (IRREG-01
    notice); before any action the misdeal is within the RRoP deadline and refunds the blinds."""
    table = table_for("casino-triple-draw-27", [100, 100, 100])
    table.start(button=1)
    table.act(2, "exposed", rank="9")
    outcome = table.act(3, "exposed", rank="7")
    assert [n.rule_id for n in outcome.notices] == [RuleId.IRREG_01]
    assert (
        misdeal(table, rule_id="IRREG-03", decision="misdeal").result.to_json()["misdeal"] is True
    )
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def test_IRREG_06_accepts_one_extra_card_as_the_burn_and_rejects_it_after_betting() -> None:
    """IRREG-06: one extra card before betting goes to the burn pile; once the betting
    started the entry is refused (too many cards on the draw is IRREG-07)."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    outcome = table.act(1, "extra_card")
    assert [i["code"] for i in outcome.instructions] == ["extra_card"]
    assert table.hand.burns == 1 and cards_accounted(table.hand) == 52
    table.act(1, "call")
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(2, "extra_card")
    assert caught.value.rule_id is RuleId.IRREG_06 and table.state is before


# --- void_last: each phase, twice in a row, after a draw was dealt ---------------------------


def played_to_showdown() -> tuple[Table, list[Any]]:
    """casino-five-card-draw, three players of 100: one state kept before each action from
    the first bet to the last check, so a void can be compared with the table as it was."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    states = []
    script = [(1, "raise", {"amount": 20}), (2, "call", {}), (3, "call", {}),
              (2, "draw", {"count": 3}), (3, "draw", {"count": 1}), (1, "draw", {"count": 0}),
              (2, "bet", {"amount": 20}), (3, "fold", {}), (1, "call", {})]  # fmt: skip
    for seat, action, fields in script:
        states.append(table.state)
        table.act(seat, action, **fields)
    return table, states


def same_hand(table: Table, state: Any) -> None:
    assert table.state.hand == state.hand and table.state.seats == state.seats
    assert table.state.hand_log == state.hand_log


@pytest.mark.parametrize("count", range(1, 10))
def test_void_last_rebuilds_the_hand_as_it_was_in_every_phase(count: int) -> None:
    """void_last n, from the showdown back into the first betting round: the hand is exactly
    as before the n-th last action (draws dealt and undealt, bets returned), and chips and
    cards are conserved."""
    table, states = played_to_showdown()
    assert table.hand.phase is Phase.SHOWDOWN
    outcome = rule(table, VoidLast(count), rule_id="SHOW-11", decision="correct_before_push")
    same_hand(table, states[-count])
    assert len(next(e for e in outcome.events_json() if e["type"] == "voided")["actions"]) == count
    assert chips(table) == 300 and cards_accounted(table.hand) == 52


def test_void_last_twice_in_a_row_is_the_same_as_voiding_two() -> None:
    """Two rulings voiding one action each leave the hand as one ruling voiding two."""
    table, states = played_to_showdown()
    rule(table, VoidLast(1))
    rule(table, VoidLast(1))
    same_hand(table, states[-2])
    twice = table.state.hand
    table, _ = played_to_showdown()
    rule(table, VoidLast(2))
    assert table.state.hand == twice


def test_void_last_after_a_draw_was_dealt_puts_the_cards_back_on_the_stub() -> None:
    """Seat 2's draw of three was dealt (burn and three cards): voiding it gives the stub back
    its four cards and seat 2 its discards; seat 2 is to draw again."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        table.act(seat, action)
    stub = table.hand.stub
    table.act(2, "draw", count=3)
    assert table.hand.stub == stub - 4
    rule(table, VoidLast(1), rule_id="SHOW-11", decision="correct_before_push")
    assert table.hand.stub == stub and table.hand.burns == 0 and table.hand.to_act == 2
    assert table.hand.player(2).held == 5 and cards_accounted(table.hand) == 52


def test_void_last_rejects_voiding_more_actions_than_the_hand_has() -> None:
    """The posts are not actions a void can reach past the first action: IRREG-15."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    refused = refused_ruling(table, VoidLast(4))
    assert refused.rule_id is RuleId.IRREG_15 and "void at most that many" in refused.message


def test_KILL_07_take_back_voids_a_call_made_without_knowing_of_the_kill() -> None:
    """casino-triple-draw-27-optional-kill: seat 1 kills (20). Seat 2 calls unaware; the kill
    was not announced, so the floor rules take_back: the call is voided and seat 2 acts
    again with its small blind only in."""
    table = table_for("casino-triple-draw-27-optional-kill", [100, 100, 100])
    table.start(button=1, kill_seat=1)
    table.act(2, "call")
    assert table.hand.player(2).committed == 20
    rule(table, VoidLast(1), rule_id="KILL-07", decision="take_back", note="kill not announced")
    assert table.hand.player(2).committed == 5 and table.hand.to_act == 2
    assert chips(table) == 300


# --- kill_hand and award pot by pot ------------------------------------------------------


def side_pots() -> Table:
    """Seat 1 (30, button) all in, seats 2, 3 and 4 in for 40 (the cap): main pot 120 (all
    four), side pot 30 (2, 3, 4); everyone has drawn and the betting after the draw is on."""
    table = table_for("casino-five-card-draw", [30, 100, 100, 100])
    table.start(button=1)
    table.act(4, "raise", amount=20)
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=40)
    table.act(3, "call")
    table.act(4, "call")
    assert table.hand.player(1).stack == 0 and table.hand.pot == 150
    for seat in (2, 3, 4, 1):
        table.act(seat, "draw", count=1)
    return table


def test_IRREG_13_killed_hand_leaves_its_chips_in_both_pots() -> None:
    """kill_hand on seat 3 (IRREG-13 thrown into another hand): its 40 stays in the main and
    side pots, it is eligible for neither, and the turn moves on to seat 4."""
    table = side_pots()
    assert table.hand.to_act == 2
    table.act(2, "check")
    outcome = rule(table, KillHand(3), rule_id="IRREG-13", decision="thrown_dead")
    assert table.hand.player(3).folded and table.hand.player(3).held == 0
    assert table.hand.to_act == 4 and table.hand.pot == 150
    assert {"type": "hand_killed", "seat": 3} in outcome.events_json()
    assert cards_accounted(table.hand) == 52 and chips(table) == 330


def test_SHOW_07_rejects_awarding_a_pot_to_the_killed_hand_or_the_short_all_in() -> None:
    """After the kill, the main pot cannot go to seat 3 (its hand is dead) and the side pot
    cannot go to seat 1 (all in for 30: it wins only what it matched)."""
    table = side_pots()
    rule(table, KillHand(3), rule_id="IRREG-13", decision="thrown_dead")
    dead = refused_ruling(table, Award(pots=((3,), (2,))))
    assert dead.rule_id is RuleId.SHOW_07 and "its hand is folded" in dead.message
    short = refused_ruling(table, Award(pots=((1,), (1,))))
    assert short.rule_id is RuleId.SHOW_07 and "put in 30 in all" in short.message
    assert short.allowed == [
        {"pot": "the main pot", "amount": 120, "eligible": [2, 4, 1]},
        {"pot": "side pot 1", "amount": 30, "eligible": [2, 4]},
    ]


def test_SHOW_07_accepts_an_award_pot_by_pot_after_a_kill_and_conserves_chips() -> None:
    """Main pot 120 to seat 1, side pot 30 split by seats 2 and 4 (15 each): the hand is
    complete and the 330 chips are all at the seats."""
    table = side_pots()
    rule(table, KillHand(3), rule_id="IRREG-13", decision="thrown_dead")
    outcome = rule(table, Award(pots=((1,), (2, 4))), rule_id="SHOW-04",
                   decision="share_remaining")  # fmt: skip
    assert table.hand.phase is Phase.COMPLETE
    assert outcome.result.to_json()["winnings"] == {"1": 120, "2": 15, "4": 15}
    assert all(pot["by_ruling"] for pot in outcome.result.to_json()["pots"])
    assert table.stacks() == {1: 120, 2: 75, 3: 60, 4: 75} and chips(table) == 330


def test_SHOW_07_accepts_a_side_pot_whose_every_hand_was_killed_going_back_to_them() -> None:
    """The floor kills seats 3, 4 and 2 (cards thrown together): seat 1, all in for 30, is the
    last live hand and wins the main pot of 120 (30 matched from each). The side pot of 30 was
    put in by the dead hands alone: no live hand matched it, so seat 1 cannot win it (SHOW-07)
    and it goes back 10 each, as an uncalled bet (IRREG-13). Before the fix seat 1 took 150."""
    table = side_pots()
    for seat in (3, 4, 2):
        outcome = rule(table, KillHand(seat), rule_id="IRREG-13", decision="thrown_dead")
    assert table.hand.phase is Phase.COMPLETE and outcome.result is not None
    assert [(pot["amount"], pot["winners"]) for pot in outcome.result.to_json()["pots"]] == [
        (120, [1])
    ]
    assert outcome.result.to_json()["winnings"] == {"1": 120}
    assert outcome.result.to_json()["returned"] == {"2": 10, "3": 10, "4": 10}
    assert table.stacks() == {1: 120, 2: 70, 3: 70, 4: 70} and chips(table) == 330


def test_SHOW_07_rejects_the_short_all_in_taking_a_side_pot_of_killed_hands() -> None:
    """With seats 3 and 4 killed, the floor cannot give seat 1 (all in for 30) the side pot
    by an award to seats; seat 2 still contests it, and awards pot by pot stand."""
    table = side_pots()
    for seat in (3, 4):
        rule(table, KillHand(seat), rule_id="IRREG-13", decision="thrown_dead")
    short = refused_ruling(table, Award((1,)))
    assert short.rule_id is RuleId.SHOW_07 and short.seat == 1
    assert "side pot 1" in short.message and "put in 30 in all" in short.message
    assert short.allowed == [
        {"pot": "the main pot", "amount": 120, "eligible": [2, 1]},
        {"pot": "side pot 1", "amount": 30, "eligible": [2]},
    ]
    outcome = rule(table, Award(pots=((1,), (2,))))
    assert outcome.result.to_json()["winnings"] == {"1": 120, "2": 30} and chips(table) == 330


def two_short_all_ins() -> Table:
    """Seat 1 (button) all in for 30 and seat 4 for 35; seats 2 and 3 in for 40 each. Both
    hands with chips behind are killed after the draw: the two all-ins are left."""
    table = table_for("casino-five-card-draw", [30, 100, 100, 35])
    table.start(button=1)
    table.act(4, "raise", amount=20)
    table.act(1, "raise", amount=30)
    table.act(2, "raise", amount=40)
    table.act(3, "call")
    table.act(4, "call")
    assert table.hand.player(4).all_in and table.hand.pot == 145
    for seat in (2, 3, 4, 1):
        table.act(seat, "draw", count=1)
    for seat in (2, 3):
        rule(table, KillHand(seat), rule_id="IRREG-13", decision="thrown_dead")
    return table


def test_SHOW_07_accepts_each_all_in_winning_only_what_it_matched_after_kills() -> None:
    """Main pot 120 (30 from each), side pot 1 of 15 (5 from seats 4, 2 and 3) for seat 4; the
    5 each that seats 2 and 3 put in over seat 4's 35 no live hand matched: they go back.
    Seat 1 wins the main pot with the better hand; seat 4 wins side pot 1 (not 25)."""
    table = two_short_all_ins()
    assert table.hand.phase.value == "showdown"
    shown = {1: "Ah As Ac 7d 4s", 4: "Kh Ks 2c 5d 9s"}
    while table.hand.phase is not Phase.COMPLETE:
        outcome = table.act(table.hand.to_act, "show", cards=shown[table.hand.to_act])
    assert [(pot["amount"], pot["winners"]) for pot in outcome.result.to_json()["pots"]] == [
        (120, [1]),
        (15, [4]),
    ]
    assert outcome.result.to_json()["returned"] == {"2": 5, "3": 5}
    assert table.stacks() == {1: 120, 2: 65, 3: 65, 4: 15} and chips(table) == 265


def test_SHOW_07_rejects_awarding_the_killed_hands_excess_to_an_all_in() -> None:
    """The floor's award sees the same pots: seat 1 cannot take side pot 1 (seat 4's), and the
    award names two pots, not a third of the dead hands' 10."""
    table = two_short_all_ins()
    short = refused_ruling(table, Award(pots=((1,), (1,))))
    assert short.rule_id is RuleId.SHOW_07 and "put in 30 in all" in short.message
    assert short.allowed == [
        {"pot": "the main pot", "amount": 120, "eligible": [4, 1]},
        {"pot": "side pot 1", "amount": 15, "eligible": [4]},
    ]
    three = refused_ruling(table, Award(pots=((1,), (4,), (4,))))
    assert three.rule_id is RuleId.SHOW_07 and "has 2" in three.message
    outcome = rule(table, Award(pots=((4,), (4,))))
    assert outcome.result.to_json()["winnings"] == {"4": 135} and outcome.result.to_json()[
        "returned"
    ] == {
        "2": 5,
        "3": 5,
    }
    assert chips(table) == 265


def test_SHOW_07_rejects_an_award_to_seats_not_eligible_for_every_pot() -> None:
    """An award to seats gives them every pot: after the kill of seat 3 it cannot name the
    dead seat 3, nor seat 1 (all in for 30, not in the side pot), even beside seat 2; the
    refusal lists the pots and who may win each."""
    table = side_pots()
    rule(table, KillHand(3), rule_id="IRREG-13", decision="thrown_dead")
    dead = refused_ruling(table, Award((3,)))
    assert dead.rule_id is RuleId.SHOW_07 and dead.seat == 3
    assert "its hand is folded" in dead.message and "award pot by pot" in dead.message
    for seats in ((1,), (2, 1)):
        short = refused_ruling(table, Award(seats))
        assert short.rule_id is RuleId.SHOW_07 and short.seat == 1
        assert "put in 30 in all" in short.message and "name seats among 2, 4" in short.message
        assert short.allowed == [
            {"pot": "the main pot", "amount": 120, "eligible": [2, 4, 1]},
            {"pot": "side pot 1", "amount": 30, "eligible": [2, 4]},
        ]


def test_SHOW_07_accepts_an_award_to_seats_eligible_for_every_pot() -> None:
    """Seats 2 and 4 are in both pots: an award to them shares all 150 (75 each)."""
    table = side_pots()
    rule(table, KillHand(3), rule_id="IRREG-13", decision="thrown_dead")
    outcome = rule(table, Award((2, 4)), rule_id="SHOW-04", decision="share_remaining")
    assert table.hand.phase is Phase.COMPLETE
    assert outcome.result.to_json()["winnings"] == {"2": 75, "4": 75}
    assert table.stacks() == {1: 0, 2: 135, 3: 60, 4: 135} and chips(table) == 330


def test_IRREG_15_rejects_killing_a_hand_before_the_deal_or_twice() -> None:
    """kill_hand while the blinds are posted, or on a hand already dead, is refused."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1, post=False)
    assert refused_ruling(table, KillHand(2)).rule_id is RuleId.IRREG_15
    table.act(2, "post")
    table.act(3, "post")
    table.act(1, "fold")
    assert refused_ruling(table, KillHand(1)).rule_id is RuleId.IRREG_15


# --- adjust_stack, holding the pot, the ruling's record ------------------------------------


def test_adjust_stack_changes_the_table_total_by_exactly_the_floors_amount() -> None:
    """Chips conserved up to the floor's adjustments: +25 to seat 2 in the hand and -10 to
    seat 3 between hands leave 315 chips at the table; each is recorded with the new stack."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    outcome = rule(table, AdjustStack(2, 25), rule_id="IRREG-14", decision="house_error",
                   note="short paid last hand")  # fmt: skip
    added = {"type": "stack_adjusted", "seat": 2, "amount": 25, "stack": 95, "added": 25}
    assert added in outcome.events_json()  # GAME-06: beside the stack, playing from the next hand
    assert chips(table) == 325
    table.act(2, "fold")
    table.act(3, "check")
    for seat in (3, 1):
        table.act(seat, "draw", count=1)
    table.act(3, "bet", amount=20)
    table.act(1, "fold")
    assert table.hand.phase is Phase.COMPLETE and chips(table) == 325
    rule(table, AdjustStack(3, -10), note="paid the wrong seat")
    assert chips(table) == 315


def test_adjust_stack_rejects_taking_more_than_the_seat_has() -> None:
    """A negative adjustment below zero is invalid input; the table is unchanged."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    before = table.state
    with pytest.raises(InvalidInput, match="seat 3 has 90; it cannot lose 91"):
        rule(table, AdjustStack(3, -91))
    assert table.state is before


def test_SHOW_11_held_pot_refuses_entries_kills_and_awards_until_released() -> None:
    """SHOW-11: while surveillance checks, the dealer's entries, a kill and an award are all
    refused with SHOW-11; a stack adjustment is still possible; after the release the hand
    goes on where it stopped."""
    table = table_for("casino-triple-draw-27", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    rule(table, HoldPot(), rule_id="SHOW-11", decision="hold", note="chips counted twice?")
    assert table.hand.pot_held
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(2, "call")
    assert caught.value.rule_id is RuleId.SHOW_11 and table.state is before
    for effect in (KillHand(2), Award((1,)), VoidLast(1)):
        assert refused_ruling(table, effect).rule_id is RuleId.SHOW_11
    rule(table, AdjustStack(1, 5))
    rule(table, ReleasePot(), rule_id="SHOW-11", decision="release")
    table.act(2, "call")
    assert table.hand.to_act == 3 and chips(table) == 305


def test_every_ruling_is_recorded_with_its_rule_decision_effects_and_note() -> None:
    """The ruling event names the rule, the decision and the effects; the hand's journal keeps
    the note (why) so a later void replays it (the floor manager, who, is the audit event's)."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    outcome = rule(table, KillHand(2), rule_id="IRREG-13", decision="no_redress",
                   note="cards fouled with the muck")  # fmt: skip
    assert outcome.events_json()[0] == {
        "type": "ruling", "rule_id": "IRREG-13", "decision": "no_redress",
        "effects": ["kill_hand"],
    }  # fmt: skip
    assert "cards fouled with the muck" in table.state.hand_log[-1]


# --- the redeal, the options the console offers, rulings that change nothing --------------


@pytest.mark.parametrize("name", ["casino-five-card-draw", "home-game-five-card-draw"])
def test_IRREG_01_misdeal_on_the_first_hand_redeals_with_the_button_the_dealer_named(
    name: str,
) -> None:
    """The table's first hand (button named by the dealer on seat 3) is misdealt: the redeal,
    hand 2, has the button on seat 3 again."""
    table = table_for(name, [100, 100, 100, 100])
    table.start(button=3)
    misdeal(table)
    table.start()
    assert (table.hand.hand_no, table.hand.button) == (2, 3)


def test_IRREG_01_the_redeal_deals_in_no_player_seated_during_the_misdealt_hand() -> None:
    """TDA 35-C, the redeal is an exact replay: after the floor moved the button (IRREG-12),
    seat 4's player sits down during hand 2, which is misdealt; the redeal keeps button 3 and
    deals seats 1-3 only, while seat 4 keeps its player and chips."""
    table = table_for("casino-five-card-draw", [100, 100, 100, 0])
    table.start(button=1)
    table.act(1, "fold")
    table.act(2, "fold")
    rule(table, MoveButton(3), rule_id="IRREG-12", decision="correct_next_hand")
    table.start()
    assert table.hand.button == 3
    table.run(SeatPlayer(4, "P4", 100))
    misdeal(table)
    assert table.stacks() == {1: 100, 2: 95, 3: 105, 4: 100}
    table.start()
    assert table.hand.button == 3 and [p.seat for p in table.hand.players] == [1, 2, 3]


def test_IRREG_12_rejects_moving_the_button_while_a_hand_is_in_play() -> None:
    """IRREG-12: the button is corrected between hands; mid-hand the floor must misdeal
    (misdeal_and_correct) or let the hand finish: IRREG-15 otherwise."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    refused = refused_ruling(table, MoveButton(2), rule_id="IRREG-12", decision="correct_next_hand")
    assert refused.rule_id is RuleId.IRREG_15 and "between hands" in refused.message
    rule(table, Misdeal(), MoveButton(2), rule_id="IRREG-12", decision="misdeal_and_correct")
    table.start()
    assert table.hand.button == 2


@pytest.mark.parametrize(
    ("rule_id", "decision", "effects"),
    [
        ("IRREG-01", "misdeal", ["misdeal"]),
        ("IRREG-02", "fouled_deck", ["misdeal"]),
        ("IRREG-02", "play_on", []),
        ("IRREG-03", "replace", []),
        ("IRREG-03", "misdeal", ["misdeal"]),
        ("IRREG-04", "take_exposed", ["take_exposed"]),
        ("IRREG-06", "misdeal", ["misdeal"]),
        ("IRREG-07", "fouled", ["kill_hand"]),
        ("IRREG-08", "fouled", ["kill_hand"]),
        ("IRREG-10", "dead_hand", ["kill_hand"]),
        ("IRREG-12", "misdeal_and_correct", ["misdeal", "move_button"]),
        ("IRREG-13", "no_redress", ["kill_hand"]),
        ("IRREG-14", "late_adjustment", ["adjust_stack"]),
        ("DECK-01", "void_refund", ["misdeal"]),
        ("DECK-01", "stands", []),
        ("SHOW-11", "hold", ["hold_pot"]),
        ("SHOW-11", "release", ["release_pot"]),
        ("KILL-07", "make_up_or_lose", ["adjust_stack"]),
        ("KILL-07", "take_back", ["void_last"]),
    ],
)
def test_the_floor_console_offers_the_rule_books_rulings(
    rule_id: str, decision: str, effects: list[str]
) -> None:
    """Each rule's standard rulings carry the effects the rule book's text implies, and
    custom and discretionary (IRREG-15) are always offered last."""
    options = {option.decision: option for option in options_for(rule_id)}
    assert list(options[decision].effects) == effects
    assert list(options)[-2:] == ["custom", "discretionary"]


def test_IRREG_15_accepts_a_discretionary_ruling_only_with_its_reason() -> None:
    """IRREG-15: a discretionary ruling without a reason is invalid input; with one it is
    recorded and applied (here seat 2 is paid 10 for a dealer's error)."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    with pytest.raises(InvalidInput, match="needs a note"):
        table.run(Ruling("discretionary", rule_id="IRREG-15", effects=(AdjustStack(2, 10),)))
    rule(table, AdjustStack(2, 10), decision="discretionary", rule_id="IRREG-15",
         note="dealer pushed seat 2's chips into the pot")  # fmt: skip
    assert (table.hand.player(2).stack, table.hand.player(2).added) == (95, 10)


def test_IRREG_02_play_on_records_the_ruling_and_leaves_the_hand_as_it_was() -> None:
    """A play_on ruling changes no chip, card or turn, and leaves the hand's journal as it was
    (nothing to replay); its event names the decision for the audit trail."""
    table = table_for("casino-triple-draw-27", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    hand, journal = table.state.hand, table.state.hand_log
    outcome = rule(table, rule_id="IRREG-02", decision="play_on")
    assert table.state.hand == hand and table.state.hand_log == journal
    assert outcome.events_json() == [
        {"type": "ruling", "rule_id": "IRREG-02", "decision": "play_on", "effects": []}
    ]


def test_void_last_in_card_mode_undoes_the_cards_dealt_then_the_draw_request() -> None:
    """Card mode: seat 2 throws the 7d and is dealt the 8d. Voiding one action takes the 8d
    back (the dealer re-enters the card owed); voiding one more takes back the request, the
    7d is in seat 2's hand again and nothing is burned; cards stay 52."""
    table = Table([100, 100, 100], rules=profile("casino-five-card-draw"), mode=Mode.CARD)
    table.start(button=1)
    for seat, cards in ((2, "2c 3c 4c 5c 7d"), (3, "2h 3h 4h 5h 7s"), (1, "As Ks Qs Js 9h")):
        table.act(seat, "deal", cards=cards)
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        table.act(seat, action)
    table.act(2, "draw", discards="7d")
    table.act(2, "deal", cards="8d")
    assert table.hand.player(2).cards[-1] == "8d" and table.hand.to_act == 3
    rule(table, VoidLast(1), rule_id="SHOW-11", decision="correct_before_push")
    assert table.legal() == {
        "seat": 2,
        "phase": "draw_1",
        "legal": [{"action": "deal", "count": 1}],
    }
    assert table.hand.player(2).cards == ("2c", "3c", "4c", "5c")
    rule(table, VoidLast(1), rule_id="SHOW-11", decision="correct_before_push")
    assert table.hand.player(2).cards == ("2c", "3c", "4c", "5c", "7d")
    assert table.hand.burns == 0 and table.hand.to_act == 2
    assert cards_accounted(table.hand) == 52


def test_void_last_undoes_a_reshuffle_in_the_third_draw() -> None:
    """casino-triple-draw-27 with five cards in a row allowed, the stub down to 5 in the
    third draw: seat 2's draw of two needed a reshuffle; voiding it gives back the stub as it
    was (one card, the bottom card) and the discards as they were."""
    table = table_for("casino-triple-draw-27", [500, 500, 500])
    table.rules = dataclasses.replace(
        table.rules, draw=dataclasses.replace(table.rules.draw, max_consecutive=5)
    )
    table.start(button=3)
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        table.act(seat, action)
    for _ in range(2):
        for seat in (1, 2, 3):
            table.act(seat, "draw", count=5)
        for seat in (1, 2, 3):
            table.act(seat, "check")
    table.act(1, "draw", count=3)
    before = table.state
    outcome = table.act(2, "draw", count=2)
    assert "reshuffle" in [i["code"] for i in outcome.instructions]
    rule(table, VoidLast(1))
    assert table.state.hand == before.hand and table.hand.stub == 1
    assert cards_accounted(table.hand) == 52


def test_IRREG_06_second_extra_card_calls_for_the_misdeal_the_floor_declares() -> None:
    """Two extra cards on the deal (IRREG-06 / IRREG-01): the second is accepted with an
    IRREG-01 notice to call the floor; the misdeal, before any action, refunds the blinds."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "extra_card")
    outcome = table.act(2, "extra_card")
    assert [(n.rule_id, n.seat) for n in outcome.notices] == [(RuleId.IRREG_01, 2)]
    assert "call the floor" in outcome.notices[0].message
    assert cards_accounted(table.hand) == 52
    assert (
        misdeal(table, rule_id="IRREG-06", decision="misdeal").result.to_json()["misdeal"] is True
    )
    assert table.stacks() == {1: 100, 2: 100, 3: 100}


def test_IRREG_03_rejects_an_exposed_card_entered_after_the_betting_began() -> None:
    """IRREG-03 covers the initial deal only: after the first betting action the entry is
    refused and the dealer is pointed to IRREG-04 for the draw."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    table.act(1, "call")
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(3, "exposed", rank="K")
    assert caught.value.rule_id is RuleId.IRREG_03 and "IRREG-04" in caught.value.message
    assert table.state is before


def test_void_last_of_a_passed_out_deal_takes_the_antes_back_from_the_carry() -> None:
    """home-game-five-card-draw: the last check passed the deal out and carried its 6 in
    antes; voiding that check puts the hand back in play with the 6 in its pot and nothing
    carried (never counted twice); checked again, the 6 are carried once more."""
    table = ante_table()
    for seat in (2, 3, 1):
        table.act(seat, "check")
    assert table.state.carried_pot == 6 and chips(table) == 300
    rule(table, VoidLast(1), rule_id="SHOW-11", decision="correct_before_push")
    assert table.hand.phase is Phase.BETTING_1 and table.hand.to_act == 1
    assert table.hand.pot == 6 and table.state.carried_pot == 0 and chips(table) == 300
    table.act(1, "check")
    assert table.state.carried_pot == 6 and chips(table) == 300


def test_IRREG_01_misdeal_of_a_kill_pot_returns_the_kill_and_keeps_it_owed() -> None:
    """casino-triple-draw-27-kill: seat 3 wins two pots running (the second with a big bet)
    and kills hand 3 for 20. A misdeal of hand 3 returns the kill and the blinds; seat 3 keeps
    its two legs, so the redeal has the same button and seat 3 kills it again."""
    table = table_for("casino-triple-draw-27-kill", [500] * 4)
    table.start(button=1)
    for seat in (4, 1, 2):
        table.act(seat, "fold")
    table.start()
    table.act(1, "fold")
    table.act(2, "fold")
    table.act(3, "raise", amount=20)
    table.act(4, "call")
    for draw in range(3):
        table.act(3, "draw", count=1)
        table.act(4, "draw", count=1)
        if draw < 2:
            table.act(3, "check")
            table.act(4, "check")
    table.act(3, "bet", amount=20)
    table.act(4, "fold")
    assert (table.state.kill_leg, table.state.kill_legs) == (3, 2)
    stacks = table.stacks()
    table.start()
    kills = [(p.seat, p.committed) for p in table.hand.players]
    assert (3, 20) in kills and table.hand.button == 3
    table.act(table.hand.to_act, "call")
    misdeal(table)
    assert table.stacks() == stacks and (table.state.kill_leg, table.state.kill_legs) == (3, 2)
    table.start()
    assert table.hand.button == 3 and [(p.seat, p.committed) for p in table.hand.players] == kills
    assert chips(table) == 2000


# -- found by this review, fixed in the engine --------------------------------------------------


def test_IRREG_01_misdeal_keeps_the_floors_late_adjustment() -> None:
    """Hand 1: seat 3 wins 105. During hand 2 the floor takes 5 back from seat 3 (IRREG-14
    late adjustment: the pot was miscounted), then declares hand 2 a misdeal. The misdeal
    returns the chips of hand 2's betting, but the correction of hand 1 must stand: seat 3
    has 100 and the table 395 chips, not 105 and 400."""
    table = Table([100, 100, 100, 100], rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    table.act(4, "fold")
    table.act(1, "fold")
    table.act(2, "fold")
    assert table.stacks() == {1: 100, 2: 95, 3: 105, 4: 100}
    table.start()
    table.run(
        Ruling("late_adjustment", rule_id="IRREG-14", hand_no=1, note="pot miscounted",
               effects=(AdjustStack(3, -5),))
    )  # fmt: skip
    assert table.hand.player(3).stack == 105 - 5 - table.hand.player(3).committed
    table.run(Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert table.stacks() == {1: 100, 2: 95, 3: 100, 4: 100}
    assert sum(table.stacks().values()) == 395


def test_IRREG_01_misdeal_keeps_chips_the_floor_added_during_the_hand() -> None:
    """adjust_stack +50 to seat 1 (say a house error repaid), then a misdeal: seat 1 keeps
    the 50; only the hand's posts and bets go back."""
    table = Table([100, 100, 100])
    table.start(button=1)
    table.run(
        Ruling("house_error", rule_id="IRREG-14", note="repaid", effects=(AdjustStack(1, 50),))
    )
    table.run(Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert table.stacks() == {1: 150, 2: 100, 3: 100}


def test_IRREG_02_counts_an_accepted_out_of_turn_action_toward_the_deadline() -> None:
    """casino-five-card-draw (two_players_acted): seat 1 calls, seat 3 checks out of turn and
    the floor rules the check binding (BET-08 action_stands). Two players have acted, so a
    misdeal is too late (IRREG-02) -- the engine accepts it and refunds everything."""
    table = Table([100, 100, 100], rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    table.act(1, "call")
    table.run(
        Ruling("action_stands", rule_id="BET-08",
               effects=(AcceptEntry(Act(3, ActionKind.CHECK), "BET-08"),))
    )  # fmt: skip
    assert table.hand.player(3).acted
    with pytest.raises(RuleViolation) as refused:
        table.run(Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert refused.value.rule_id is RuleId.IRREG_02


def after_the_draw_seat_2_bets() -> Table:
    table = Table([100, 100, 100], rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    table.act(1, "call")
    table.act(2, "call")
    table.act(3, "check")
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "bet", amount=20)
    table.run(Ruling("no_redress", rule_id="IRREG-13", note="hand fouled with the muck",
                     effects=(KillHand(2),)))  # fmt: skip
    return table


def test_IRREG_13_a_killed_hands_uncalled_bet_goes_back_at_once() -> None:
    """Seat 2 bets 20 after the draw and its hand is killed before anyone calls: the 20 go
    back to seat 2 (IRREG-13 "an uncalled bet is returned"), the pot is the 30 of the first
    round, and seat 3, next to act, faces no bet (check or bet 20)."""
    table = after_the_draw_seat_2_bets()
    assert table.hand.player(2).stack == 90
    assert table.hand.pot == 30
    legal = {option["action"] for option in table.legal()["legal"]}  # type: ignore[index]
    assert "check" in legal and "call" not in legal


def test_IRREG_13_live_players_never_pay_into_a_dead_hands_bet() -> None:
    """Seats 3 and 1 each take the cheapest option offered (check, else call): seat 2 (dead)
    has lost only the 10 it had in before its bet and ends with 90; before the fix both had to call
    20 into the dead bet, so seat 2 ended with 70 and the pot was 90."""
    table = after_the_draw_seat_2_bets()
    for _ in range(2):
        legal = {option["action"] for option in table.legal()["legal"]}  # type: ignore[index]
        table.act(table.hand.to_act, "check" if "check" in legal else "call")
    assert table.hand.phase.value == "showdown"
    assert table.hand.player(2).stack == 90 and table.hand.pot == 30


def test_GAME_06_chips_added_during_the_hand_do_not_play_in_it() -> None:
    """casino-five-card-draw: seat 1 (30) is all in before the draw. The floor adds 50 to seat 1
    (IRREG-14 house error: it was short paid on the last hand). Table stakes (GAME-06: only
    chips on the table at the start of the hand play): seat 1 stays all in, so after seat 2
    bets and seat 3 calls the betting round is over -- the engine instead gives seat 1 the
    turn with call 20 / raise 40, so the added chips are bet in a hand they were not in."""
    table = Table([30, 100, 100], rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    table.act(1, "raise", amount=20)
    table.act(2, "raise", amount=30)
    table.act(3, "call")
    table.act(1, "call")
    assert table.hand.player(1).stack == 0
    table.run(
        Ruling("house_error", rule_id="IRREG-14", note="short paid last hand",
               effects=(AdjustStack(1, 50),))
    )  # fmt: skip
    for seat in (2, 3, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "bet", amount=20)
    table.act(3, "call")
    assert table.hand.to_act != 1, "the all-in seat is asked to act with chips added mid-hand"
    assert table.hand.phase.value == "showdown"


def test_IRREG_14_a_seat_left_with_nothing_behind_is_all_in_and_the_turn_moves_on() -> None:
    """The floor takes every chip behind from the seat to act (it was owed to another table):
    facing the big blind with nothing left it is all in, so the turn goes to the next seat
    instead of offering it a check (found by this review)."""
    table = table_for("casino-five-card-draw", [100, 100, 100])
    table.start(button=1)
    assert table.hand.to_act == 1
    rule(table, AdjustStack(1, -100), rule_id="IRREG-14", decision="house_error",
         note="chips owed elsewhere")  # fmt: skip
    assert table.hand.player(1).all_in and table.hand.to_act == 2
    legal = {option["action"] for option in table.legal()["legal"]}  # type: ignore[index]
    assert legal == {"call", "raise", "fold"}


def after_the_draw_seat_3_raises_seat_2() -> Table:
    """casino-five-card-draw, four players of 100 in for 10 each: after the draw seat 2 bets
    20, seat 3 raises to 40 and its hand is killed before anyone acts on the raise."""
    table = Table([100] * 4, rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    for seat in (4, 1, 2):
        table.act(seat, "call")
    table.act(3, "check")
    for seat in (2, 3, 4, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "bet", amount=20)
    table.act(3, "raise", amount=40)
    table.run(Ruling("no_redress", rule_id="IRREG-13", note="hand fouled with the muck",
                     effects=(KillHand(3),)))  # fmt: skip
    return table


def test_IRREG_13_accepts_a_killed_raisers_uncalled_raise_going_back() -> None:
    """Seat 3's raise of 20 over seat 2's bet nobody called goes back (IRREG-13 "an uncalled
    bet is returned"); the 20 that matched seat 2's bet stays. Seat 4 faces seat 2's bet:
    call 20 or raise to 40, and seat 2, the last to bet, shows first."""
    table = after_the_draw_seat_3_raises_seat_2()
    hand = table.hand
    assert hand.player(3).stack == 70 and hand.player(3).committed == 30
    assert hand.pot == 80 and hand.current_bet == 20 and hand.to_act == 4
    assert hand.last_aggressor == 2 and hand.raises == 1
    assert table.legal()["legal"] == [  # type: ignore[index]
        {"action": "call", "amount": 20},
        {"action": "raise", "min": 40, "max": 40},
        {"action": "fold"},
    ]
    table.act(4, "call")
    table.act(1, "fold")
    assert table.hand.phase.value == "showdown" and table.hand.to_act == 2
    assert chips(table) == 400


def test_IRREG_13_rejects_a_call_of_the_killed_hands_raise() -> None:
    """Seat 4 may not call 40 into the dead raise, nor raise to 60 over it: the bet is 20."""
    table = after_the_draw_seat_3_raises_seat_2()
    call = refused_entry(table, 4, "call", amount=40)
    assert call.rule_id is RuleId.GAME_06 and "A call is 20" in call.message
    raise_ = refused_entry(table, 4, "raise", amount=60)
    assert raise_.rule_id is RuleId.BET_02
    assert {"action": "raise", "min": 40, "max": 40} in raise_.allowed


def test_IRREG_13_keeps_a_killed_raise_that_a_live_player_called() -> None:
    """Seat 4 calls the raise to 40 before seat 3 is killed: the raise was called, nothing goes
    back, and seat 1 still faces 40 (no redress for the killed hand)."""
    table = Table([100] * 4, rules=load_profile(PROFILES / "casino-five-card-draw.toml"))
    table.start(button=1)
    for seat in (4, 1, 2):
        table.act(seat, "call")
    table.act(3, "check")
    for seat in (2, 3, 4, 1):
        table.act(seat, "draw", count=1)
    table.act(2, "bet", amount=20)
    table.act(3, "raise", amount=40)
    table.act(4, "call")
    rule(table, KillHand(3), rule_id="IRREG-13", decision="no_redress")
    hand = table.hand
    assert hand.player(3).stack == 50 and hand.pot == 140 and hand.current_bet == 40
    assert hand.to_act == 1 and hand.player(3).returned == 0


def refused_entry(table: Table, seat: int, action: str, **fields: Any) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as caught:
        table.act(seat, action, **fields)
    assert table.state is before
    return caught.value
