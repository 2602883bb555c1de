"""Whole scripted hands, one per game and structure, replayed through the engine to exact stacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from dealerassist.rules.engine import apply, new_table
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
from dealerassist.rules.model.house_rules import (
    BettingRules,
    ExposedDrawCard,
    HouseRules,
    IrregularityRules,
    PostDrawFirst,
)
from dealerassist.rules.model.state import HandState, Phase, TableState

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
BLINDS_LIMIT = Stakes(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
BLINDS = Stakes(small_blind=5, big_blind=10)


@dataclass(frozen=True)
class Script:
    """A hand: the table, the entries in order, and the stacks (and pots) it must end with."""

    name: str
    variant: Variant
    structure: Structure
    stakes: Stakes
    stacks: list[int]
    button: int
    steps: list[str]
    final: dict[int, int]
    pots: list[tuple[int, list[int]]] | None = None
    mode: Mode = Mode.COUNT
    rules: HouseRules = field(default_factory=HouseRules)


def entry(step: str, mode: Mode) -> Act:
    """``"3 raise 20"``, ``"2 draw 3"``, ``"2 draw 7h Kd | 2c 3c"``, ``"1 show 7h 5s 4d 3c 2d"``."""
    seat, kind, *rest = step.split()
    action = ActionKind(kind)
    if action in (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL) and rest:
        return Act(int(seat), action, amount=int(rest[0]))
    if action is ActionKind.EXPOSED and mode is Mode.COUNT:
        return Act(int(seat), action, rank=rest[0])
    if action is ActionKind.DRAW and mode is Mode.COUNT:
        return Act(int(seat), action, count=int(rest[0]))
    if action is ActionKind.DRAW:
        text = " ".join(rest)
        discards, _, cards = text.partition("|")
        return Act(
            int(seat),
            action,
            discards=tuple(discards.split()),
            cards=tuple(cards.split()) if cards.strip() else None,
        )
    if rest:
        return Act(int(seat), action, cards=tuple(rest))
    return Act(int(seat), action)


def play(script: Script, after_each: Callable[[str, HandState], None] | None = None) -> TableState:
    """The script's hand from the seating on; ``after_each(step, hand)`` runs after each step."""
    spec = TableSpec("H1", script.variant, script.structure, script.stakes, "test", 6, script.mode)
    state = new_table(spec)
    for seat, stack in enumerate(script.stacks, start=1):
        state = apply(state, SeatPlayer(seat, f"P{seat}", stack), script.rules, AT).state
    state = apply(state, StartHand(script.button), script.rules, AT).state
    while state.hand is not None and state.hand.phase is Phase.POSTING:
        seat = state.hand.to_act or 0
        state = apply(state, Act(seat, ActionKind.POST), script.rules, AT).state
    for step in script.steps:
        state = apply(state, entry(step, script.mode), script.rules, AT).state
        if after_each is not None:
            assert state.hand is not None
            after_each(step, state.hand)
    return state


def check_cards_accounted(step: str, hand: HandState) -> None:
    """Past the deal stub + hands + discards + burns + muck is the deck, and no known card
    (hands, discard piles, muck, burned exposed or extra cards) is in two places."""
    if hand.phase is not Phase.DEAL:
        held = sum(p.held + sum(p.pile) for p in hand.players)
        assert hand.stub + held + hand.burns + hand.muck == hand.deck, step
    known = [
        c for p in hand.players for c in (*p.cards, *(x for pile in p.pile_cards for x in pile))
    ]
    known += [
        *hand.muck_cards,
        *hand.burn_cards,
        *([hand.exposed_burn] if hand.exposed_burn else []),
    ]
    assert len(known) == len(set(known)), step


SCRIPTS = [
    Script(
        "five-card draw, fixed limit: a walk to the big blind",
        Variant.FIVE_CARD_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        1,
        ["1 fold", "2 fold"],
        {1: 100, 2: 95, 3: 105},
        [(10, [3])],
    ),
    Script(
        "five-card draw, fixed limit: a split pot with an odd chip left of the button",
        Variant.FIVE_CARD_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        1,
        [
            "1 call",
            "2 fold",
            "3 raise 20",
            "1 call",
            "3 draw 3",
            "1 draw 1",
            "3 bet 20",
            "1 call",
            "3 show Ah Kd Qc Js 9h",
            "1 show As Kh Qd Jc 9s",
        ],
        {1: 102, 2: 95, 3: 103},
        [(85, [1, 3])],
    ),
    Script(
        "2-7 single draw, no limit: side pots with three all-ins",
        Variant.DEUCE_TO_SEVEN_SINGLE_DRAW,
        Structure.NO_LIMIT,
        BLINDS,
        [20, 50, 100, 300],
        4,
        [
            "3 raise 100",
            "4 call",
            "1 call",
            "2 call",
            "1 draw 1",
            "2 draw 1",
            "3 draw 1",
            "4 draw 1",
            "1 show 7h 5c 4s 3d 2c",
            "2 show 8h 6c 4d 3s 2d",
            "3 show 9h 7c 5s 3h 2h",
            "4 show Ah Ad Kc Qs Js",
        ],
        {1: 80, 2: 90, 3: 100, 4: 200},
        [(80, [1]), (90, [2]), (100, [3])],
    ),
    Script(
        "2-7 triple draw, fixed limit: heads-up through three draws",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100],
        2,
        [
            "2 call",
            "1 check",
            "1 draw 2",
            "2 draw 3",
            "1 bet 10",
            "2 raise 20",
            "1 call",
            "1 draw 1",
            "2 draw 1",
            "1 check",
            "2 bet 20",
            "1 call",
            "1 draw 0",
            "2 draw 1",
            "1 bet 20",
            "2 raise 40",
            "1 call",
            "2 show 7h 5c 4s 3d 2c",
            "1 muck",
        ],
        {1: 10, 2: 190},
        [(180, [2])],
    ),
    Script(
        "2-7 triple draw, pot limit: the hand ends before the first draw",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.POT_LIMIT,
        BLINDS,
        [100, 100, 100, 100],
        1,
        ["4 raise 35", "1 fold", "2 fold", "3 fold"],
        {1: 100, 2: 95, 3: 90, 4: 115},
        [(25, [4])],
    ),
    Script(
        "A-7 stripped, pot limit: raised and taken before the draw",
        Variant.ACE_TO_SEVEN_STRIPPED,
        Structure.POT_LIMIT,
        BLINDS,
        [100, 100, 100],
        3,
        ["3 raise 35", "1 fold", "2 fold"],
        {1: 95, 2: 90, 3: 115},
    ),
    Script(
        "A-7 stripped, fixed limit, five players and 36 cards: a flush beats a full house",
        Variant.ACE_TO_SEVEN_STRIPPED,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100, 100, 100],
        5,
        [
            "3 call",
            "4 fold",
            "5 fold",
            "1 fold",
            "2 check",
            "2 draw 1",
            "3 draw 2",
            "2 check",
            "3 check",
            "2 show Ah Kh 9h 8h 7h",
            "3 show Ac Ad As Kc Kd",
        ],
        {1: 95, 2: 115, 3: 90, 4: 100, 5: 100},
        [(25, [2])],
    ),
    Script(
        "five-card draw, pot limit with antes: the opener acts first after the draw",
        Variant.FIVE_CARD_DRAW,
        Structure.POT_LIMIT,
        Stakes(ante=5, min_bet=10),
        [100, 100, 100],
        1,
        [
            "2 check",
            "3 bet 15",
            "1 call",
            "2 fold",
            "3 draw 2",
            "1 draw 3",
            "3 check",
            "1 bet 20",
            "3 call",
            "1 show Ah Ad Ac 2h 2d",
            "3 show Kh Kd Kc Ks 3h",
        ],
        {1: 60, 2: 95, 3: 145},
        [(85, [3])],
        rules=HouseRules(betting=BettingRules(post_draw_first=PostDrawFirst.OPENER)),
    ),
    Script(
        "2-7 single draw, no limit, card mode: every card checked",
        Variant.DEUCE_TO_SEVEN_SINGLE_DRAW,
        Structure.NO_LIMIT,
        BLINDS,
        [200, 200, 200],
        3,
        [
            "1 deal 7h 5c 4s 3d Kc",
            "2 deal 8h 6c 4d 3s 2d",
            "3 deal Ah Ad Qc Qs Js",
            "3 raise 30",
            "1 call",
            "2 fold",
            "1 draw Kc | 2c",
            "3 draw Ah Ad Qc | 9c 8c 7c",
            "1 check",
            "3 bet 50",
            "1 call",
            "3 show",
            "1 show",
        ],
        {1: 290, 2: 190, 3: 120},
        [(170, [1])],
        mode=Mode.CARD,
    ),
    Script(
        "five-card draw, no limit: an all-in caller still draws and the cards decide",
        Variant.FIVE_CARD_DRAW,
        Structure.NO_LIMIT,
        BLINDS,
        [40, 200],
        1,
        [
            "1 raise 40",
            "2 call",
            "2 draw 2",
            "1 draw 1",
            "2 show 2c 2d 7h 8s 9c",
            "1 show Kh Kd 3c 4s 6d",
        ],
        {1: 80, 2: 160},
        [(80, [1])],
    ),
]


LIMIT_27 = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="75432"))  # RRoP-LB
EXPOSED_SCRIPTS = [
    Script(
        "2-7 triple draw, card mode: a 6 exposed on the deal is the burn and is replaced",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "1 deal 7h 5c 4s 3d 6c",
            "1 exposed 6c",
            "2 deal 8h 6d 4d 3s 2d",
            "3 deal Ah Ad Qc Qs Js",
            "1 deal 2c",
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw",
            "2 draw 8h | 7c",
            "3 draw Ah Ad Qc | 9c 8c 5h",
            "1 bet 10",
            "2 call",
            "3 fold",
            "1 draw",
            "2 draw",
            "1 check",
            "2 check",
            "1 draw",
            "2 draw",
            "1 check",
            "2 check",
            "1 show",
            "2 show",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
        mode=Mode.CARD,
        rules=LIMIT_27,
    ),
    Script(
        "2-7 triple draw, count mode: an exposed 6 is the burn and is replaced",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "1 exposed 6",
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw 0",
            "2 draw 1",
            "3 draw 3",
            "1 bet 10",
            "2 call",
            "3 fold",
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 show 7h 5c 4s 3d 2c",
            "2 show 7c 6d 4d 3s 2d",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
        rules=LIMIT_27,
    ),
]
SCRIPTS += EXPOSED_SCRIPTS

RRoP_DRAW = HouseRules(irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.TO_DISCARDS))
WSOP_DRAW = HouseRules(
    irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.BECOMES_NEXT_BURN)
)
_AFTER_THE_FIRST_DRAW = [
    "1 bet 10",
    "2 call",
    "3 fold",
]
_PAT_TO_SHOWDOWN = ["1 draw", "2 draw", "1 check", "2 check", "1 draw", "2 draw"]
DRAW_EXPOSED_SCRIPTS = [
    Script(
        "2-7 triple draw, card mode: seat 2's Kc exposed on the draw goes to the discards and "
        "seat 2 gets its replacement after seat 3",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "1 deal 7h 5c 4s 3d 2c",
            "2 deal 8h 6d 4d 3s 2d",
            "3 deal Ah Ad Qc Qs Js",
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw",
            "2 draw 8h | Kc",
            "2 exposed Kc",
            "3 draw Ah Ad Qc | 9c 8c 5h",
            "2 deal 7c",
            *_AFTER_THE_FIRST_DRAW,
            *_PAT_TO_SHOWDOWN,
            "1 check",
            "2 check",
            "1 show",
            "2 show",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
        mode=Mode.CARD,
        rules=RRoP_DRAW,
    ),
    Script(
        "2-7 triple draw, count mode: the last drawer's exposed 9 is the next burn, then its "
        "replacement",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw 0",
            "2 draw 1",
            "3 draw 3",
            "3 exposed 9",
            *_AFTER_THE_FIRST_DRAW,
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 show 7h 5c 4s 3d 2c",
            "2 show 7c 6d 4d 3s 2d",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
        rules=WSOP_DRAW,
    ),
]
SCRIPTS += DRAW_EXPOSED_SCRIPTS

EXTRA_CARD_SCRIPTS = [
    Script(
        "2-7 triple draw, card mode: seat 2's extra Kh goes back as the burn of the first draw",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "1 deal 7h 5c 4s 3d 2c",
            "2 deal 8h 6d 4d 3s 2d",
            "2 extra_card Kh",
            "3 deal Ah Ad Qc Qs Js",
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw",
            "2 draw 8h | 7c",
            "3 draw Ah Ad Qc | 9c 8c 5h",
            *_AFTER_THE_FIRST_DRAW,
            *_PAT_TO_SHOWDOWN,
            "1 check",
            "2 check",
            "1 show",
            "2 show",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
        mode=Mode.CARD,
    ),
    Script(
        "2-7 triple draw, count mode: the button's extra card goes back as the burn",
        Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW,
        Structure.FIXED_LIMIT,
        BLINDS_LIMIT,
        [100, 100, 100],
        3,
        [
            "3 extra_card",
            "3 raise 20",
            "1 call",
            "2 call",
            "1 draw 0",
            "2 draw 1",
            "3 draw 3",
            *_AFTER_THE_FIRST_DRAW,
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 draw 0",
            "2 draw 0",
            "1 check",
            "2 check",
            "1 show 7h 5c 4s 3d 2c",
            "2 show 7c 6d 4d 3s 2d",
        ],
        {1: 150, 2: 70, 3: 80},
        [(80, [1])],
    ),
]
SCRIPTS += EXTRA_CARD_SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_scripted_hand_ends_with_the_recorded_stacks(script: Script) -> None:
    """The hand completes with exactly the expected stacks and pots, chips conserved."""
    state = play(script)
    assert state.hand is not None and state.hand.phase is Phase.COMPLETE
    stacks = {seat.seat: seat.stack for seat in state.seats if seat.player}
    assert stacks == script.final
    assert sum(stacks.values()) == sum(script.stacks)
    if script.pots is not None:
        result: dict[str, Any] = state.hand.result.to_json() if state.hand.result else {}
        pots = [(pot["amount"], pot["winners"]) for pot in result["pots"]]
        assert pots == script.pots


def test_every_variant_and_structure_has_a_scripted_hand() -> None:
    """Each variant and each structure appears in at least one script."""
    assert {s.variant for s in SCRIPTS} == set(Variant)
    assert {s.structure for s in SCRIPTS} == set(Structure)


@pytest.mark.parametrize("script", EXPOSED_SCRIPTS, ids=[s.name for s in EXPOSED_SCRIPTS])
def test_IRREG_03_accepts_an_exposed_card_in_a_whole_hand(script: Script) -> None:
    """After every entry past the deal stub + hands + discards + burns + muck is the deck; the
    exposed card's burn is counted once, and in card mode no card is in two places."""
    state = play(script, check_cards_accounted)
    # the exposed card and the first draw's burn: everyone stood pat in the later draws
    assert state.hand is not None and state.hand.burns == 2
    assert state.hand.exposed == 1


@pytest.mark.parametrize("script", DRAW_EXPOSED_SCRIPTS, ids=[s.name for s in DRAW_EXPOSED_SCRIPTS])
def test_IRREG_04_accepts_a_card_exposed_on_the_draw_in_a_whole_hand(script: Script) -> None:
    """After every entry past the deal stub + hands + discards + burns + muck is the deck, and
    in card mode no card is in two places; the exposed card is never in a hand."""
    exposed_seen = False

    def check(step: str, hand: HandState) -> None:
        nonlocal exposed_seen
        check_cards_accounted(step, hand)
        exposed_seen = exposed_seen or " exposed " in step
        assert not exposed_seen or all("Kc" not in p.cards for p in hand.players), step

    state = play(script, check)
    assert state.hand is not None and state.hand.exposed_owed == ()
    if script.mode is Mode.CARD:  # to_discards: the draw's one burn; Kc among seat 2's discards
        assert state.hand.burns == 1 and "Kc" in state.hand.player(2).pile_cards[0]
    else:  # becomes_next_burn: the draw's burn and the exposed 9, which was the next burn
        assert state.hand.burns == 2 and not state.hand.spare_burn


@pytest.mark.parametrize("script", EXTRA_CARD_SCRIPTS, ids=[s.name for s in EXTRA_CARD_SCRIPTS])
def test_IRREG_06_accepts_an_extra_card_in_a_whole_hand(script: Script) -> None:
    """After every entry past the deal stub + hands + discards + burns + muck is the deck, and
    in card mode no card is in two places and the extra Kh is never in a hand; the extra card
    is the first draw's burn, so the hand ends with that one burn."""

    def check(step: str, hand: HandState) -> None:
        check_cards_accounted(step, hand)
        assert all("Kh" not in p.cards for p in hand.players), step

    state = play(script, check)
    assert state.hand is not None and state.hand.phase is Phase.COMPLETE
    assert (state.hand.burns, state.hand.extra_cards, state.hand.spare_burn) == (1, 1, False)
    if script.mode is Mode.CARD:
        assert state.hand.burn_cards == ("Kh",)
