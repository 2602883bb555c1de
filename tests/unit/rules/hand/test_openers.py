"""Ante games with openers (jackpots): opening, nobody opens, proving and splitting openers, and
all in for the antes (OPEN-01..03, 05, 07, 08)."""

from __future__ import annotations

import pytest
from engine_table import AT, Table

from dealerassist.rules.engine import Outcome, view
from dealerassist.rules.hand.openers import has_openers
from dealerassist.rules.model.actions import (
    AddChips,
    ChangeSeat,
    Mode,
    RemovePlayer,
    ReturnToPlay,
    SeatPlayer,
    SitOut,
    Stakes,
    StartHand,
)
from dealerassist.rules.model.house_rules import (
    BettingRules,
    HouseRules,
    OpenRequirement,
    OpenRules,
    PassOutButton,
    PostDrawFirst,
)
from dealerassist.rules.model.ruling_commands import Ruling
from dealerassist.rules.model.violations import RuleId, RuleViolation

ANTES = Stakes(ante=2, small_bet=10, big_bet=20)


def jackpots(passout: PassOutButton = PassOutButton.ADVANCES) -> HouseRules:
    return HouseRules(
        open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER, passout_button=passout)
    )


def card_table(hands: dict[int, str]) -> Table:
    """A jackpots table in card mode, button 3, each seat dealt ``hands[seat]``."""
    table = Table([100] * len(hands), stakes=ANTES, rules=jackpots(), mode=Mode.CARD)
    table.start(button=len(hands))
    for seat in sorted(hands):
        table.act(seat, "deal", cards=hands[seat])
    return table


def refused(table: Table, seat: int, action: str, **fields: object) -> RuleViolation:
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.act(seat, action, **fields)
    assert table.state is before
    return error.value


def checked_around(table: Table) -> None:
    while table.hand.phase.value == "betting_1":
        table.act(table.hand.to_act, "check")


def test_openers_are_a_pair_of_jacks_or_better() -> None:
    """Jacks, two small pairs, trips, straights and flushes open; tens do not."""
    assert has_openers(["Jh", "Js", "2c", "5d", "9s"])
    assert has_openers(["2h", "2s", "3c", "3d", "9s"])
    assert has_openers(["2h", "4h", "6h", "8h", "Th"])
    assert has_openers(["9h", "Ts", "Jc", "Qd", "Ks"])
    assert not has_openers(["Th", "Ts", "2c", "5d", "9s"])
    assert not has_openers(["Ah", "Ks", "2c", "5d", "9s"])


def test_OPEN_02_accepts_an_opener_with_jacks_and_records_him() -> None:
    """Card mode: a pair of jacks opens; the opener is recorded and told to keep them."""
    table = card_table({1: "Jh Js 2c 5d 9s", 2: "Th Ts 3c 6d 8s", 3: "Ah Kd 4c 7d 2s"})
    assert table.hand.to_act == 1
    outcome = table.act(1, "bet", amount=10)
    assert table.hand.opener == 1
    assert [n.rule_id for n in outcome.notices] == [RuleId.OPEN_02]


def test_OPEN_02_rejects_opening_without_jacks_or_better() -> None:
    """Card mode: a pair of tens may not open; the seat may check or fold."""
    table = card_table({1: "Th Ts 3c 6d 8s", 2: "Jh Js 2c 5d 9s", 3: "Ah Kd 4c 7d 2s"})
    error = refused(table, 1, "bet", amount=10)
    assert error.rule_id is RuleId.OPEN_02
    assert error.allowed == [{"action": "check"}, {"action": "fold"}]


def test_OPEN_01_guides_the_opener_to_act_first_after_the_draw() -> None:
    """Ante game: left of the button first; after the draw the opener acts first (seed 000)."""
    rules = HouseRules(
        open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER),
        betting=BettingRules(post_draw_first=PostDrawFirst.OPENER),
    )
    table = Table([100, 100, 100], stakes=ANTES, rules=rules)
    table.start(button=3)
    table.act(1, "check")
    table.act(2, "bet", amount=10)
    table.act(3, "call")
    table.act(1, "call")
    for seat in (1, 2, 3):
        table.act(seat, "draw", count=1)
    assert table.hand.phase.value == "betting_2" and table.hand.to_act == 2


def test_OPEN_03_accepts_a_passed_out_deal_carrying_the_antes() -> None:
    """Nobody opens: the antes stay in the pot, everyone antes again, the button advances."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    outcome = table.act(1, "check")
    table.act(2, "check")
    outcome = table.act(3, "check")
    assert outcome.result is not None and outcome.result.to_json()["passed_out"]
    assert outcome.instructions[-1]["code"] == "passed_out"
    assert table.state.carried_pot == 6
    assert sum(table.stacks().values()) + table.state.carried_pot == 300
    table.start()
    assert table.state.button == 1
    assert table.hand.pot == 12 and table.state.carried_pot == 0
    table.act(2, "bet", amount=10)
    table.act(3, "fold")
    outcome = table.act(1, "fold")
    assert table.stacks() == {1: 96, 2: 108, 3: 96}


def test_OPEN_03_accepts_a_cancelled_deal_keeping_the_carried_antes() -> None:
    """A deal after a pass-out is cancelled (two of three sit out when asked for their ante):
    the posted ante goes back and the carried antes stay in the table's pot; no chip is lost
    (found by bench/soak.py: the carried 6 vanished)."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    checked_around(table)
    assert table.state.carried_pot == 6
    table.start(post=False)
    for _ in range(2):
        legal = table.legal()
        assert legal is not None
        table.act(legal["seat"], "sit_out")
    legal = table.legal()
    assert legal is not None
    outcome = table.act(legal["seat"], "post")
    assert outcome.result is not None and outcome.result.to_json()["cancelled"]
    assert outcome.result.to_json()["carried"] == 6
    assert table.state.carried_pot == 6
    assert sum(table.stacks().values()) + table.state.carried_pot == 300


def test_OPEN_03_accepts_the_same_dealer_dealing_again() -> None:
    """passout_button = same_dealer: the button stays after a passed-out deal."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots(PassOutButton.SAME_DEALER))
    table.start(button=3)
    checked_around(table)
    table.start()
    assert table.state.button == 3 and table.hand.pot == 12


def test_OPEN_03_rejects_moving_the_button_when_the_same_dealer_deals_again() -> None:
    """same_dealer: naming another button after a passed-out deal is refused."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots(PassOutButton.SAME_DEALER))
    table.start(button=3)
    checked_around(table)
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.run(StartHand(button=1))
    assert error.value.rule_id is RuleId.OPEN_03
    assert table.state is before


def capped_jackpots(cap: int) -> HouseRules:
    return HouseRules(
        open=OpenRules(requirement=OpenRequirement.JACKS_OR_BETTER, max_consecutive_antes=cap)
    )


def test_OPEN_03_accepts_a_deal_without_antes_after_the_house_limit_of_pass_outs() -> None:
    """max_consecutive_antes = 2: after two passed-out deals in a row the third deal has no
    antes (the dealer is told why), and the pot of the six antes plays as it is."""
    table = Table([100, 100, 100], stakes=ANTES, rules=capped_jackpots(2))
    table.start(button=3)
    checked_around(table)
    table.start()
    assert table.hand.pot == 12  # the second deal: everyone antes again
    checked_around(table)
    assert table.state.carried_pot == 12 and table.state.passed_out_deals == 2
    outcome = table.start(post=False)
    assert [n.rule_id for n in outcome.notices] == [RuleId.OPEN_03]
    assert "No antes this deal" in outcome.notices[0].message
    assert all(player.owes == 0 for player in table.hand.players)
    assert table.hand.phase.value != "posting" and table.hand.pot == 12
    assert sum(table.stacks().values()) == 300 - 12


def test_OPEN_03_refuses_an_ante_once_the_antes_have_stopped() -> None:
    """When the antes have stopped, an ante entered for a seat is refused and changes nothing;
    with the limit not reached (one pass-out of two) everyone still antes."""
    table = Table([100, 100, 100], stakes=ANTES, rules=capped_jackpots(2))
    table.start(button=3)
    checked_around(table)
    table.start(post=False)
    assert table.hand.phase.value == "posting" and table.hand.to_act is not None
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    checked_around(table)
    table.start(post=False)
    before = table.state
    with pytest.raises(RuleViolation):
        table.act(table.hand.to_act or 1, "post")
    assert table.state is before


def test_OPEN_03_counts_only_pass_outs_in_a_row() -> None:
    """An opened pot between two pass-outs starts the count again: the antes go on."""
    table = Table([100, 100, 100], stakes=ANTES, rules=capped_jackpots(2))
    table.start(button=3)
    checked_around(table)
    table.start()
    table.act(table.hand.to_act, "bet", amount=10)
    while table.hand.phase.value == "betting_1":
        table.act(table.hand.to_act, "fold")
    assert table.hand.phase.value == "complete" and table.state.carried_pot == 0
    table.start()
    checked_around(table)
    assert table.state.passed_out_deals == 1
    table.start(post=False)
    assert table.hand.phase.value == "posting"  # one pass-out in a row: everyone antes


def test_OPEN_03_without_a_limit_the_antes_never_stop() -> None:
    """max_consecutive_antes = 0 (the default): every deal is anted, however many pass out,
    and nothing is counted (the table stores exactly as before the option existed)."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    for _ in range(4):
        checked_around(table)
        table.start()
    assert table.hand.pot == 30 and table.state.passed_out_deals == 0
    assert "passed_out_deals" not in table.state.to_dict()


def opened_to_showdown(table: Table) -> None:
    """Seat 1 opens, seat 2 calls, seat 3 folds; both stand pat and check down."""
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    table.act(3, "fold")
    table.act(1, "draw", count=0)
    table.act(2, "draw", count=0)
    table.act(1, "check")
    table.act(2, "check")


def test_OPEN_05_accepts_an_opener_who_shows_openers() -> None:
    """The opener shows jacks and wins against ace high."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    opened_to_showdown(table)
    table.act(1, "show", cards="Jh Js 2c 5d 9s")
    outcome = table.act(2, "show", cards="Ah Kd 4c 7d 3s")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [1]


def test_OPEN_05_rejects_an_opener_who_cannot_show_openers() -> None:
    """Count mode: the opener's shown tens do not prove openers; his hand is dead."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    opened_to_showdown(table)
    outcome = table.act(1, "show", cards="Th Ts 2c 5d 9s")
    assert [n.rule_id for n in outcome.notices] == [RuleId.OPEN_05]
    assert table.hand.player(1).mucked
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [2]


def split_hands() -> Table:
    """Seat 1 opens with jacks and a four-flush; seats 2 and 3 call."""
    table = card_table({1: "Jh Js Th 9h 8h", 2: "Qc Qd 3c 6d 8s", 3: "Ac Kd 4c 7d 2s"})
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    table.act(3, "fold")
    return table


def test_OPEN_07_accepts_splitting_openers_proven_by_the_kept_discards() -> None:
    """The opener breaks his jacks to draw to the flush; his discards prove the openers."""
    table = split_hands()
    outcome = table.act(1, "draw", discards="Js", option="split")
    assert table.hand.player(1).split_discards == ("Js",)
    assert any(i["code"] == "keep_discards" for i in outcome.instructions)
    table.act(1, "deal", cards="2h")
    table.act(2, "draw", discards="3c 6d 8s")
    table.act(2, "deal", cards="4s 5s 7c")
    table.act(1, "check")
    table.act(2, "check")
    table.act(1, "show")
    outcome = table.act(2, "show")
    assert outcome.result is not None
    assert outcome.result.to_json()["pots"][0]["winners"] == [1]


def test_OPEN_07_rejects_splitting_by_a_player_who_did_not_open() -> None:
    """Only the opener can split openers."""
    table = split_hands()
    table.act(1, "draw", discards="8h")
    table.act(1, "deal", cards="2c")
    assert refused(table, 2, "draw", discards="3c", option="split").rule_id is RuleId.OPEN_07


def test_all_in_for_the_antes_plays_for_the_antes_it_matched() -> None:
    """OPEN-08: a seat with one chip antes it all and can win only the antes it matched."""
    table = Table([100, 100, 1], stakes=ANTES, rules=jackpots())
    table.start(button=2)
    assert table.hand.player(3).all_in
    table.act(3, "check")  # OPEN-08: asked first whether it opens; it passes
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    for seat in (3, 1, 2):
        table.act(seat, "draw", count=0)
    table.act(1, "check")
    table.act(2, "check")
    shown = {1: "Jh Js 2c 5d 9s", 2: "Th Ts 3c 6d 8s", 3: "Ah As Ac 7d 4s"}
    while table.hand.phase.value == "showdown":
        outcome = table.act(table.hand.to_act, "show", cards=shown[table.hand.to_act])
    assert outcome.result is not None
    assert [p["amount"] for p in outcome.result.to_json()["pots"]] == [3, 22]
    assert table.stacks() == {1: 110, 2: 88, 3: 3}


def all_in_table(button: int = 2, mode: Mode = Mode.COUNT) -> Table:
    """Seats 1 and 2 with 100, seat 3 with one chip: all in for part of its 2-chip ante."""
    table = Table([100, 100, 1], stakes=ANTES, rules=jackpots(), mode=mode)
    table.start(button=button)
    assert table.hand.player(3).all_in and table.hand.player(3).committed == 1
    return table


def show_down(table: Table, shown: dict[int, str]) -> Outcome:
    outcome = table.outcome
    while table.hand.phase.value == "showdown":
        outcome = table.act(table.hand.to_act, "show", cards=shown[table.hand.to_act])
    return outcome


def test_OPEN_08_accepts_an_open_declared_all_in_for_the_antes_callers_put_in_the_full_bet() -> (
    None
):
    """Seat 3, first left of the button, is asked first; it declares the pot open without
    putting anything in; the callers put in the full opening bet of 10; its aces win the main
    pot of the antes it matched (1 from each), the best caller the side pot."""
    table = all_in_table()
    assert table.legal() == {
        "seat": 3,
        "phase": "betting_1",
        "legal": [{"action": "check"}, {"action": "bet", "min": 10, "max": 10}, {"action": "fold"}],
    }
    assert [(n.rule_id, n.seat) for n in table.outcome.notices] == [(RuleId.OPEN_08, 3)]
    outcome = table.act(3, "bet")
    assert table.hand.opener == 3 and table.hand.current_bet == 10
    assert table.hand.player(3).stack == 0 and table.hand.player(3).committed == 1
    assert [n.rule_id for n in outcome.notices] == [RuleId.OPEN_02]
    legal = table.legal()
    assert legal is not None and legal["seat"] == 1
    assert {"action": "call", "amount": 10} in legal["legal"]
    table.act(1, "call")
    table.act(2, "call")
    assert table.hand.phase.value == "draw_1"
    for seat in (3, 1, 2):
        table.act(seat, "draw", count=0)
    assert table.hand.to_act == 1  # the opener acts first after the draw, but has no chips
    table.act(1, "check")
    table.act(2, "check")
    outcome = show_down(table, {1: "Kh Kd 2c 5d 9s", 2: "Qh Qd 3c 6d 8s", 3: "Ah As 4c 7d 2s"})
    assert outcome.result is not None
    assert [(p["amount"], p["winners"]) for p in outcome.result.to_json()["pots"]] == [
        (3, [3]),
        (22, [1]),
    ]
    assert table.stacks() == {1: 110, 2: 88, 3: 3}


def test_OPEN_08_accepts_an_open_from_the_last_seat_after_the_others_passed() -> None:
    """Button 3: seats 1 and 2 pass, the deal is not passed out until seat 3, all in, has been
    asked; it opens, both fold, and it takes the antes it matched (1 from each, the rest of the
    antes go back) after showing its openers."""
    table = all_in_table(button=3)
    table.act(1, "check")
    outcome = table.act(2, "check")
    assert table.hand.to_act == 3 and table.hand.phase.value == "betting_1"
    assert [(n.rule_id, n.seat) for n in outcome.notices] == [(RuleId.OPEN_08, 3)]
    table.act(3, "bet", amount=10)
    table.act(1, "fold")
    outcome = table.act(2, "fold")
    assert outcome.result is not None and outcome.result.to_json()["winnings"] == {"3": 3}
    assert outcome.result.to_json()["returned"] == {"1": 1, "2": 1}
    assert [i["code"] for i in outcome.instructions if i.get("seat") == 3][:1] == ["show_openers"]
    assert table.stacks() == {1: 99, 2: 99, 3: 3}


def test_OPEN_08_accepts_a_pass_and_asks_nobody_all_in_once_the_pot_is_open() -> None:
    """Seat 3 passes and the others open and call; with button 3 a seat all in is not asked
    once another seat has opened; everyone passing passes the deal out."""
    table = all_in_table(button=3)
    outcome = table.act(1, "bet", amount=10)
    assert [n.rule_id for n in outcome.notices] == [RuleId.OPEN_02]
    table.act(2, "call")
    assert table.hand.phase.value == "draw_1" and not table.hand.player(3).may_open
    passed = all_in_table()
    passed.act(3, "check")
    passed.act(1, "check")
    outcome = passed.act(2, "check")
    assert outcome.result is not None and outcome.result.to_json()["passed_out"]
    assert passed.state.carried_pot == 5


def test_OPEN_08_refuses_an_open_for_less_than_the_full_opening_bet() -> None:
    """The seat all in for the antes declares the full opening bet, not its all-in 0 or 1:
    refused with OPEN-08, the allowed entries listed; a call finds nothing to call."""
    table = all_in_table()
    error = refused(table, 3, "bet", amount=1)
    assert error.rule_id is RuleId.OPEN_08 and error.seat == 3
    assert "full opening bet of 10" in error.message
    assert error.allowed == [
        {"action": "check"},
        {"action": "bet", "min": 10, "max": 10},
        {"action": "fold"},
    ]
    assert refused(table, 3, "call").rule_id is RuleId.GAME_06
    assert refused(table, 1, "bet", amount=10).rule_id is RuleId.OPEN_01  # seat 3 first


def test_OPEN_08_refuses_an_all_in_open_without_openers_in_card_mode() -> None:
    """Card mode: the seat all in for the antes holds tens: it may only pass (or fold)."""
    table = all_in_table(mode=Mode.CARD)
    for seat, cards in ((3, "Th Ts 3c 6d 8s"), (1, "Jh Js 2c 5d 9s"), (2, "Ah Kd 4c 7d 2s")):
        table.act(seat, "deal", cards=cards)
    assert table.hand.to_act == 3
    error = refused(table, 3, "bet", amount=10)
    assert error.rule_id is RuleId.OPEN_02
    table.act(3, "check")
    table.act(1, "bet", amount=10)
    assert table.hand.opener == 1


def test_OPEN_08_an_all_in_false_opener_loses_the_antes() -> None:
    """Count mode: the seat all in for the antes opens and shows tens at showdown: its hand is
    dead (OPEN-05) and the caller wins the antes it matched too."""
    table = all_in_table()
    table.act(3, "bet")
    table.act(1, "call")
    table.act(2, "fold")
    for seat in (3, 1):
        table.act(seat, "draw", count=1)
    outcome = show_down(table, {1: "9h 8d 2c 5d 4s", 3: "Th Ts 3c 6d 8s"})
    assert RuleId.OPEN_05 in [n.rule_id for n in outcome.notices]
    assert outcome.result is not None
    assert table.stacks() == {1: 103, 2: 98, 3: 0}


def test_OPEN_08_is_not_asked_where_the_game_has_no_openers() -> None:
    """Ante game without an opening requirement: the seat all in for the antes is skipped."""
    table = Table([100, 100, 1], stakes=ANTES, rules=HouseRules())
    table.start(button=2)
    assert table.hand.player(3).all_in and table.hand.to_act == 1


def false_opener_table(stacks: list[int] | None = None) -> Table:
    """Count mode: seat 3, all in for part of its ante, declares the pot open; seat 1 calls,
    the others fold; at showdown seat 3 shows tens: its hand is dead (OPEN-05) and, all in for
    the antes, it sits out until a legally opened pot has been won (OPEN-08)."""
    table = Table(stacks or [100, 100, 1], stakes=ANTES, rules=jackpots())
    table.start(button=2)
    table.act(3, "bet")
    while table.hand.phase.value == "betting_1":  # seat 1 calls, the others fold
        seat = table.hand.to_act
        table.act(seat, "call" if seat == 1 else "fold")
    for seat in (3, 1):
        table.act(seat, "draw", count=1)
    outcome = show_down(table, {1: "9h 8d 2c 5d 4s", 3: "Th Ts 3c 6d 8s"})
    assert [(n.rule_id, n.seat) for n in outcome.notices][-2:] == [
        (RuleId.OPEN_05, 3),
        (RuleId.OPEN_08, 3),
    ]
    assert table.state.seat(3).false_opener and table.stacks()[3] == 0
    return table


def test_OPEN_08_accepts_the_false_opener_again_once_a_legally_opened_pot_is_won() -> None:
    """Seat 3 rebuys and waits (not dealt in, the view and the preview say OPEN-08); a
    passed-out deal does not end the wait; the next pot, opened by seat 1 and won, does: seat 3
    is dealt in the hand after."""
    table = false_opener_table()
    table.run(AddChips(3, 50))
    assert table.state.seat(3).false_opener
    seats = view(table.state, table.rules, AT)["seats"]
    assert seats[2]["false_opener"] is True and "false_opener" not in seats[0]
    preview = view(table.state, table.rules, AT)["next_hand"]
    assert preview is not None and preview["waiting"] == {"3": "OPEN-08"}
    outcome = table.start(post=False)
    assert [p.seat for p in table.hand.players] == [1, 2]
    assert table.hand.waiting == ((3, "OPEN-08"),)
    skip = [i for i in outcome.instructions if i["code"] == "skip"]
    assert skip and skip[0]["seat"] == 3 and "legally opened pot" in skip[0]["text"]
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    checked_around(table)  # passed out: no pot won
    assert table.outcome is not None and table.outcome.result is not None
    assert table.outcome.result.to_json()["passed_out"] and table.state.seat(3).false_opener
    table.start()
    assert not table.hand.has(3) and table.hand.waiting == ((3, "OPEN-08"),)
    first = table.hand.to_act
    other = 2 if first == 1 else 1
    table.act(first, "bet", amount=10)
    outcome = table.act(other, "fold")
    assert outcome.result is not None and outcome.result.to_json()["pots"]
    assert not table.state.seat(3).false_opener
    assert "false_opener" not in table.state.to_dict()["seats"][2]
    table.start()
    assert table.hand.has(3) and table.hand.waiting == ()


def test_OPEN_08_refuses_the_false_opener_posting_or_acting_while_he_waits() -> None:
    """While seat 3 waits, its post and any entry for it are refused with OPEN-08, saying
    until when; the table's state is unchanged."""
    table = false_opener_table()
    table.run(AddChips(3, 50))
    table.start(post=False)
    error = refused(table, 3, "post")
    assert error.rule_id is RuleId.OPEN_08 and error.seat == 3
    assert "until a legally opened pot has been won" in error.message
    while table.hand.phase.value == "posting":
        table.act(table.hand.to_act, "post")
    error = refused(table, 3, "check")
    assert error.rule_id is RuleId.OPEN_08
    assert "until a legally opened pot has been won (even if he rebuys)" in error.message
    assert error.allowed == table.legal()["legal"]  # type: ignore[index]
    assert refused(table, 3, "bet", amount=10).rule_id is RuleId.OPEN_08


def test_OPEN_08_refuses_to_deal_when_only_the_false_opener_and_one_other_have_chips() -> None:
    """Heads-up: seat 2 falsely opens all in; after a rebuy the next deal would need him, and
    is refused with OPEN-08 (he still waits) rather than dealing him in."""
    table = Table([100, 1], stakes=ANTES, rules=jackpots())
    table.start(button=1)
    table.act(2, "bet")
    table.act(1, "call")
    for seat in (2, 1):
        table.act(seat, "draw", count=0)
    show_down(table, {1: "9h 8d 2c 5d 4s", 2: "Th Ts 3c 6d 8s"})
    assert table.state.seat(2).false_opener
    table.run(AddChips(2, 50))
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.start()
    assert error.value.rule_id is RuleId.OPEN_08 and error.value.seat == 2
    assert "until a legally opened pot has been won" in error.value.message
    assert table.state is before


def test_OPEN_08_a_rebuy_or_leaving_and_sitting_down_again_keeps_him_waiting() -> None:
    """The wait belongs to the player: adding chips, sitting out and coming back, or leaving
    and sitting down again (another seat) keep it; a new player in his old seat does not
    wait."""
    table = false_opener_table([100, 100, 1, 100])
    table.run(AddChips(3, 40))
    table.run(SitOut(3))
    table.run(ReturnToPlay(3))
    assert table.state.seat(3).false_opener
    table.run(RemovePlayer(3))
    assert table.state.false_openers_away == ("P3",)
    table.run(SeatPlayer(3, "P9", 60))
    table.run(SeatPlayer(5, "P3", 60))
    assert not table.state.seat(3).false_opener and table.state.seat(5).false_opener
    assert table.state.false_openers_away == ()
    table.start()
    assert table.hand.waiting == ((5, "OPEN-08"),) and table.hand.has(3)


def test_OPEN_08_only_an_opener_all_in_for_the_antes_waits_after_a_false_open() -> None:
    """Seat 1 opens with chips behind and shows tens: its hand is dead (OPEN-05) but it plays
    the next hand; a table that never has a false opener encodes no OPEN-08 field."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    table.act(1, "bet", amount=10)
    table.act(2, "call")
    table.act(3, "fold")
    for seat in (1, 2):
        table.act(seat, "draw", count=0)
    table.act(1, "check")
    table.act(2, "check")
    outcome = show_down(table, {1: "Th Ts 3c 6d 8s", 2: "9h 8d 2c 5d 4s"})
    assert RuleId.OPEN_05 in [n.rule_id for n in outcome.notices]
    assert RuleId.OPEN_08 not in [n.rule_id for n in outcome.notices]
    assert not table.state.seat(1).false_opener
    data = table.state.to_dict()
    assert "false_openers_away" not in data
    assert all("false_opener" not in seat for seat in data["seats"])


def test_OPEN_08_the_floor_ruling_sits_out_an_all_in_false_opener() -> None:
    """Seat 3 declares open, both fold, and it cannot show openers: the floor rules OPEN-08
    false_open_all_in after the hand; the hand's opener waits from the next hand."""
    table = all_in_table()
    table.act(3, "bet")
    table.act(1, "fold")
    table.act(2, "fold")
    assert not table.state.seat(3).false_opener
    outcome = table.run(Ruling("false_open_all_in", rule_id="OPEN-08"))
    assert [(n.rule_id, n.seat) for n in outcome.notices] == [(RuleId.OPEN_08, 3)]
    assert table.state.seat(3).false_opener
    table.run(AddChips(3, 30))
    table.start()
    assert table.hand.waiting == ((3, "OPEN-08"),)


def test_OPEN_08_a_player_ruled_a_false_opener_keeps_his_wait_when_he_leaves() -> None:
    """The floor rules seat 3 a false opener after a hand everyone folded to; he leaves
    before the next deal. The hand he opened falsely is no legally opened pot: it must not
    end his wait once his seat is empty, nor when he sits down again elsewhere."""
    table = all_in_table()
    table.act(3, "bet")
    table.act(1, "fold")
    table.act(2, "fold")
    table.run(Ruling("false_open_all_in", rule_id="OPEN-08"))
    table.run(RemovePlayer(3))
    assert table.state.false_openers_away == ("P3",)
    table.run(SeatPlayer(5, "P3", 60))
    assert table.state.seat(5).false_opener and table.state.false_openers_away == ()


def test_OPEN_09_rejects_a_seat_change_while_passed_out_antes_wait() -> None:
    """No seat changes between deals while a passed-out deal's antes are in the pot."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    checked_around(table)
    before = table.state
    with pytest.raises(RuleViolation) as error:
        table.run(ChangeSeat(1, 5))
    assert error.value.rule_id is RuleId.OPEN_09
    assert table.state is before


def test_OPEN_09_accepts_a_seat_change_once_the_pot_is_won() -> None:
    """After the carried pot is won, players may change seats again."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    checked_around(table)
    table.start()
    table.act(2, "bet", amount=10)
    table.act(3, "fold")
    table.act(1, "fold")
    table.run(ChangeSeat(1, 5))
    assert table.state.seat(5).player == "P1"


def test_OPEN_05_guides_the_opener_to_show_openers_when_everyone_folds() -> None:
    """A pot won without a showdown: the opener is told to show his openers."""
    table = Table([100, 100, 100], stakes=ANTES, rules=jackpots())
    table.start(button=3)
    table.act(1, "bet", amount=10)
    table.act(2, "fold")
    outcome = table.act(3, "fold")
    assert outcome.result is not None
    assert [i["seat"] for i in outcome.instructions if i["code"] == "show_openers"] == [1]
