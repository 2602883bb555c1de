"""Property tests of rulings: voiding actions and entering them again gives back the very same
table; a misdeal at any point gives every chip back."""

from __future__ import annotations

import random

from engine_table import StoredTable, Table
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dealerassist.rules.hand.dealing import deck_cards
from dealerassist.rules.model.actions import Act, ActionKind, command_from_dict
from dealerassist.rules.model.ruling_commands import Misdeal, Ruling, VoidLast
from dealerassist.rules.model.state import Phase
from dealerassist.rules.table.blinds import eligible_seats

STACKS = [100, 60, 100, 40]


def _random_entry(table: Table, rng: random.Random) -> Act | None:
    """A random legal entry for the seat to act, or None when nobody is to act."""
    legal = table.legal()
    if legal is None:
        return None
    seat = legal["seat"]
    option = rng.choice(legal["legal"])
    kind = ActionKind(option["action"])
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Act(seat, kind, amount=rng.randint(option["min"], option["max"]))
    if kind is ActionKind.DRAW:
        return Act(seat, kind, count=rng.randint(0, option["max"]))
    if kind is ActionKind.SHOW:
        shown = {c for p in table.hand.players if p.shown for c in p.shown}
        free = sorted(deck_cards(table.hand.deck) - shown)
        return Act(seat, kind, cards=tuple(rng.sample(free, 5)))
    if kind is ActionKind.SIT_OUT:
        return Act(seat, ActionKind.POST)
    return Act(seat, kind)


def _played(seed: int, steps: int) -> tuple[Table, int]:
    """A four-handed hand played ``steps`` random legal entries in (or to its end)."""
    rng = random.Random(seed)
    table = Table(STACKS)
    table.start(button=1 + seed % 4, post=False)
    entered = 0
    for _ in range(steps):
        entry = _random_entry(table, rng)
        if entry is None:
            break
        table.run(entry)
        entered += 1
    return table, entered


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 40), back=st.integers(1, 6))
def test_void_then_reenter_gives_back_the_same_table(seed: int, steps: int, back: int) -> None:
    """void_last k then the same k entries again: the table is identical, journal included."""
    table, entered = _played(seed, steps)
    back = min(back, entered)
    original = table.state
    outcome = table.run(Ruling("custom", note="re-enter", effects=(VoidLast(back),)))
    voided = next(e for e in outcome.events if e["type"] == "voided")["actions"]
    assert len(voided) == back
    for command in voided:
        table.run(command_from_dict(command))
    assert table.state.to_dict() == original.to_dict()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_a_misdeal_at_any_point_gives_every_chip_back(seed: int, steps: int) -> None:
    """Wherever the hand stands (even finished), a misdeal restores the starting stacks."""
    table, _ = _played(seed, steps)
    table.run(Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    assert list(table.stacks().values()) == STACKS
    assert table.hand.phase is Phase.COMPLETE and table.state.hand_log == ()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 30),
    back=st.integers(1, 4),
    misdeal=st.booleans(),
)
def test_a_ruling_on_a_table_read_back_from_its_json_is_the_ruling_on_the_one_in_memory(
    seed: int, steps: int, back: int, misdeal: bool
) -> None:
    """A finished hand, a second one played in, a void_last or a misdeal, and play after it:
    at every entry the table decoded from its stored JSON answers byte for byte as the one
    kept in memory (rulings rebuild the hand from the journal's snapshot of the table)."""
    rng = random.Random(seed)
    table = StoredTable(STACKS)
    table.start(button=1 + seed % 4, post=False)
    while (entry := _random_entry(table, rng)) is not None:
        table.run(entry)
    # one seat may win every chip in the first hand (DEAL-02 then refuses a second one)
    assume(len(eligible_seats(table.state)) >= 2)
    table.start(post=False)
    entered = 0
    for _ in range(steps):
        if (entry := _random_entry(table, rng)) is None:
            break
        table.run(entry)
        entered += 1
    if misdeal:
        table.run(Ruling("misdeal", rule_id="IRREG-01", effects=(Misdeal(),)))
    elif entered:
        table.run(Ruling("custom", note="void", effects=(VoidLast(min(back, entered)),)))
    for _ in range(10):
        if (entry := _random_entry(table, rng)) is None:
            break
        table.run(entry)
