"""A whole six-handed 2-7 triple-draw hand in which everyone draws five every draw: the exact
dealing script, reshuffles included (DRAW-03/04/05/06/12, casino-triple-draw-27 profile)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dealerassist.profiles import load_profile
from dealerassist.rules.engine import Outcome, apply, legal_actions, new_table
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
)
from dealerassist.rules.model.house_rules import BottomCard, HouseRules, ReshufflePool
from dealerassist.rules.model.state import TableState

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

PROFILE = Path(__file__).parents[2] / "config" / "house_rules" / "casino-triple-draw-27.toml"
STAKES = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)

Script = list[tuple[str, int | None, int | None]]


def play_everyone_draws_five() -> list[tuple[str, int, Outcome, Any]]:
    """Post, check or call every betting round, draw five with every seat every draw; each draw
    entry with its outcome and the hand after it."""
    # the pool as the profile read it before DRAW-06 kept a later drawer's discards out: with
    # everyone drawing five every draw, that pool (burns only for the first drawer of draw 2)
    # could no longer complete these draws (docs/notes/rules-draw.md)
    rules = _before_later_drawers_out(load_profile(PROFILE))
    spec = TableSpec(
        "R1", Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Structure.FIXED_LIMIT, STAKES, rules.profile_id
    )
    state: TableState = new_table(spec)
    for seat in range(1, 7):
        state = apply(state, SeatPlayer(seat, f"P{seat}", 500), rules, AT).state
    state = apply(state, StartHand(6), rules, AT).state
    draws = []
    for _ in range(200):
        legal = legal_actions(state, rules, AT)
        if legal is None or legal["phase"] == "showdown":
            break
        names = [option["action"] for option in legal["legal"]]
        act = _next_act(legal["seat"], names)
        outcome = apply(state, act, rules, AT)
        state = outcome.state
        if act.action is ActionKind.DRAW:
            assert state.hand is not None
            draws.append((legal["phase"], act.seat, outcome, state.hand))
    return draws


def _before_later_drawers_out(rules: HouseRules) -> HouseRules:
    return replace(rules, draw=replace(rules.draw, reshuffle_keeps_out_later_drawers=False))


def _next_act(seat: int, names: list[str]) -> Act:
    if "post" in names:
        return Act(seat, ActionKind.POST)
    if "draw" in names:
        return Act(seat, ActionKind.DRAW, count=5)
    return Act(seat, ActionKind.CALL if "call" in names else ActionKind.CHECK)


def script(outcome: Outcome) -> Script:
    return [(i["code"], i["seat"], i["count"]) for i in outcome.instructions]


def fifths(*seats: int) -> Script:
    return [("deal", seat, 1) for seat in seats]


def four_and_come_back(seat: int) -> Script:
    return [("deal", seat, 4), ("come_back", seat, 1)]


# draw round -> seat -> the dealing script of that seat's "draw 5" entry
EXPECTED: dict[str, dict[int, Script]] = {
    "draw_1": {
        1: [("burn", None, 1), *four_and_come_back(1), ("ask_draw", 2, None)],
        2: [*four_and_come_back(2), ("ask_draw", 3, None)],
        3: [*four_and_come_back(3), ("ask_draw", 4, None)],
        4: [*four_and_come_back(4), ("ask_draw", 5, None)],
        5: [
            *fifths(1, 2, 3, 4),
            ("stop", 5, 1),
            ("reshuffle", 5, 22),
            *four_and_come_back(5),
            ("ask_draw", 6, None),
        ],
        6: [*four_and_come_back(6), *fifths(5, 6)],
    },
    "draw_2": {
        1: [("burn", None, 1), *four_and_come_back(1), ("ask_draw", 2, None)],
        2: [*four_and_come_back(2), ("ask_draw", 3, None)],
        3: [
            *fifths(1, 2),
            ("stop", 3, 1),
            ("reshuffle", 3, 22),
            *four_and_come_back(3),
            ("ask_draw", 4, None),
        ],
        4: [*four_and_come_back(4), ("ask_draw", 5, None)],
        5: [*four_and_come_back(5), ("ask_draw", 6, None)],
        6: [*four_and_come_back(6), *fifths(3, 4, 5, 6)],
    },
    "draw_3": {
        1: [
            ("stop", 1, 2),
            ("reshuffle", 1, 22),
            ("burn", None, 1),
            *four_and_come_back(1),
            ("ask_draw", 2, None),
        ],
        2: [*four_and_come_back(2), ("ask_draw", 3, None)],
        3: [*four_and_come_back(3), ("ask_draw", 4, None)],
        4: [*four_and_come_back(4), ("ask_draw", 5, None)],
        5: [
            *fifths(1, 2, 3, 4),
            ("stop", 5, 1),
            ("reshuffle", 5, 22),
            *four_and_come_back(5),
            ("ask_draw", 6, None),
        ],
        6: [*four_and_come_back(6), *fifths(5, 6)],
    },
}

# (draw round, seat) -> the pool of the reshuffle in that entry
POOLS = {
    ("draw_1", 5): {"stub": 1, "burns": 1, "discards": [1, 2, 3, 4], "kept_out": [5]},
    ("draw_2", 3): {"stub": 1, "burns": 1, "discards": [1, 2, 5, 6], "kept_out": [3]},
    ("draw_3", 1): {"stub": 2, "burns": 0, "discards": [3, 4, 5, 6], "kept_out": [1]},
    ("draw_3", 5): {"stub": 1, "burns": 1, "discards": [1, 2, 3, 4], "kept_out": [5]},
}


@pytest.fixture(scope="module")
def draws() -> list[tuple[str, int, Outcome, Any]]:
    return play_everyone_draws_five()


def test_DRAW_06_guides_the_exact_dealing_script_of_every_draw(draws: list[Any]) -> None:
    """All 18 draw entries (six seats, three draws) give exactly the expected script."""
    assert [(phase, seat) for phase, seat, _, _ in draws] == [
        (phase, seat) for phase in EXPECTED for seat in EXPECTED[phase]
    ]
    for phase, seat, outcome, _ in draws:
        assert script(outcome) == EXPECTED[phase][seat], (phase, seat)


def test_DRAW_06_guides_each_reshuffle_pool_never_with_the_drawer_s_own_discards(
    draws: list[Any],
) -> None:
    """Every reshuffle takes the stub's rest, the burns and five discards of four other seats
    (22 cards) and keeps the drawer's own five out."""
    found = {}
    for phase, seat, outcome, _ in draws:
        for item in outcome.instructions:
            if item["code"] == "reshuffle":
                pool = item["pool"]
                found[(phase, seat)] = {
                    "stub": pool["stub"],
                    "burns": pool["burns"],
                    "discards": sorted(int(s) for s in pool["discards"]),
                    "kept_out": sorted(int(s) for s in pool["kept_out"]),
                }
                assert set(pool["discards"].values()) == {5}
                assert pool["kept_out"] == {str(seat): 5}
                assert item["count"] == pool["stub"] + pool["burns"] + sum(
                    pool["discards"].values()
                )
    assert found == POOLS


def test_DRAW_06_guides_the_reshuffle_text_of_the_first_draw(draws: list[Any]) -> None:
    """The dealer reads exactly what to gather, how many cards that makes and what stays out."""
    outcome = draws[4][2]
    stop, reshuffle, deal = outcome.instructions[4:7]
    assert stop["text"] == (
        "Stop: the stub cannot complete seat 5's draw; the last card (the bottom card) is not "
        "dealt: it goes into the reshuffle"
    )
    assert reshuffle["text"] == (
        "Reshuffle for seat 5: shuffle face down and cut the 1 card left in the stub (the bottom "
        "card), 1 burn card and the discards of seat 1 (5), seat 2 (5), seat 3 (5) and seat 4 "
        "(5) into a new stub of 22 cards. Keep out the discards of seat 5 (5, its own)."
    )
    assert deal["text"] == "Deal 4 cards to seat 5 from the new stub"
    assert outcome.instructions[0]["text"] == (
        "Deal seat 1 its fifth card (owed since its five-card draw)"
    )


def test_DRAW_12_guides_five_cards_for_everyone_after_every_draw(draws: list[Any]) -> None:
    """After the last entry of each draw every seat holds five cards and nobody is owed one;
    the stub ends each draw at 12, 2 and 12 cards."""
    ends = [hand for phase, seat, _, hand in draws if seat == 6]
    for hand in ends:
        assert [p.held for p in hand.players] == [5] * 6
        assert hand.come_back == ()
    assert [hand.stub for hand in ends] == [12, 2, 12]
    assert ends[-1].reshuffles == 4


def test_the_profile_is_the_shipped_triple_draw_profile() -> None:
    """The scenario runs under the shipped profile: five-card draws split, burn, bottom card
    never dealt, the seed-000 pool."""
    rules: HouseRules = load_profile(PROFILE)
    assert (rules.draw.max_cards, rules.draw.max_consecutive) == (5, 4)
    assert rules.draw.bottom_card.value == "never"
    assert rules.draw.reshuffle_pool.value == "earlier_discards_bottom_burns"


def test_DRAW_06_guides_one_reshuffle_when_the_burn_itself_needs_one_in_card_mode() -> None:
    """Card mode, all discards in the pool: four seats draw five in the first draw, so the
    second draw starts with one card in the stub. Seat 1 draws five: stop, reshuffle, burn,
    deal five, all of them former discards. The script has one reshuffle, and the stub and
    burns the engine counts match the cards on the table (found by bench/soak.py: a second
    stop and reshuffle of the brand-new stub, stub one card too many, burns 0)."""
    rules = replace(load_profile(PROFILE), draw=replace(load_profile(PROFILE).draw,
        reshuffle_pool=ReshufflePool.ALL_DISCARDS, bottom_card=BottomCard.NORMAL_CARD,
        max_consecutive=5))  # fmt: skip
    spec = TableSpec(
        "R2", Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Structure.FIXED_LIMIT, STAKES,
        rules.profile_id, mode=Mode.CARD,
    )  # fmt: skip
    state = new_table(spec)
    for seat in range(1, 7):
        state = apply(state, SeatPlayer(seat, f"P{seat}", 500), rules, AT).state
    state = apply(state, StartHand(6), rules, AT).state
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]  # top first
    hands: dict[int, list[str]] = {}

    def go(act: Act) -> Outcome:
        nonlocal state
        outcome = apply(state, act, rules, AT)
        state = outcome.state
        return outcome

    def bet_round() -> None:
        while (legal := legal_actions(state, rules, AT)) and legal["phase"].startswith("betting"):
            names = [option["action"] for option in legal["legal"]]
            go(_next_act(legal["seat"], names))

    go(Act(1, ActionKind.POST))
    go(Act(2, ActionKind.POST))
    for seat in range(1, 7):
        hands[seat] = [deck.pop(0) for _ in range(5)]
        go(Act(seat, ActionKind.DEAL, cards=tuple(hands[seat])))
    bet_round()
    burns, discards = [deck.pop(0)], []
    for seat in (1, 2, 3, 4):
        go(Act(seat, ActionKind.DRAW, discards=tuple(hands[seat])))
        discards += hands[seat]
        hands[seat] = [deck.pop(0) for _ in range(5)]
        go(Act(seat, ActionKind.DEAL, cards=tuple(hands[seat])))
    go(Act(5, ActionKind.DRAW, discards=()))
    go(Act(6, ActionKind.DRAW, discards=()))
    bet_round()
    assert state.hand is not None and state.hand.stub == len(deck) == 1
    go(Act(1, ActionKind.DRAW, discards=tuple(hands[1])))
    # all_discards: the stub's card, the burn and every discard, seat 1's own included
    deck = sorted(deck + burns + discards + hands[1])  # the reshuffled stub: any order will do
    burns = [deck.pop(0)]
    outcome = go(Act(1, ActionKind.DEAL, cards=tuple(deck.pop(0) for _ in range(5))))
    codes = [line["code"] for line in outcome.instructions]
    assert codes.count("reshuffle") == 1, codes
    assert state.hand is not None
    assert (state.hand.stub, state.hand.burns) == (len(deck), len(burns))
