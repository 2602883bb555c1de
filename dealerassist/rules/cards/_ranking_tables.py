"""Lookup tables that turn five card indices into a hand value with one addition chain.

How a lookup works: every card carries a code ``rank_weight + (suit_lane << 19)``. The
rank weights are chosen so that the sum of any five of them (no rank more than four
times) is unique — a perfect hash of the rank multiset that stays below 2**19 — and the
suit lanes ``(0, 1, 6, 7)`` sum to 0, 5, 30 or 35 only when all five suits agree. So
for ``x = sum(codes)``, ``x >> 19`` says "flush or not" and ``x & 0x7FFFF`` names the
ranks; ``tables[x >> 19][x & 0x7FFFF]`` is the value. Tables are ``array('H')`` rows
(2 bytes an entry, about 0.7 MB a row); all 32 non-flush lanes share one row.

The builder is generic: the caller supplies the ranks of the deck and a function that
reads a rank multiset (plus a flush flag) into a sortable strength key and a category.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

# Greedy Sidon-style weights: every 5-card rank multiset over the first n ranks has a
# distinct weight sum (checked in tests/unit/rules/cards/test_rankings.py). Max sum 360,918.
RANK_WEIGHTS: tuple[int, ...] = (
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
)  # fmt: skip
SUIT_LANES: tuple[int, ...] = (0, 1, 6, 7)
LANE_SHIFT = 19
RANK_MASK = (1 << LANE_SHIFT) - 1
FLUSH_LANES = frozenset(5 * lane for lane in SUIT_LANES)
LANE_COUNT = 5 * max(SUIT_LANES) + 1
OUT_OF_DECK = 1 << 40  # a card outside the deck pushes the lane out of range: IndexError

# (multiset of rank positions, highest first; all suits alike) -> (strength key, category)
ShapeReader = Callable[[tuple[int, ...], bool], tuple[tuple[int, ...], int]]


@dataclass(frozen=True, slots=True)
class LookupTable:
    """Card codes and value rows for one ranking; values are dense, 1 = weakest."""

    card_codes: tuple[int, ...]
    rank_codes: tuple[int, ...]
    lanes: tuple[array[int], ...]
    plain: array[int]
    category_of_value: tuple[int, ...]

    @property
    def value_count(self) -> int:
        return len(self.category_of_value) - 1

    def nbytes(self) -> int:
        """Bytes held by the value rows (shared rows counted once)."""
        rows = {id(row): row for row in (*self.lanes, self.plain)}
        return sum(row.itemsize * len(row) for row in rows.values())


def build_table(
    deck_positions: Sequence[int | None], read_shape: ShapeReader, *, flushes: bool
) -> LookupTable:
    """Build the table for a deck.

    ``deck_positions[card_index]`` is the rank position of that card within the deck
    (0 = the deck's lowest rank) or None when the deck does not hold it.
    """
    rank_count = 1 + max(p for p in deck_positions if p is not None)
    entries = [
        (multiset, flush, *read_shape(multiset, flush))
        for multiset in _multisets(rank_count)
        for flush in ((False, True) if flushes and len(set(multiset)) == 5 else (False,))
    ]
    keys = sorted({key for _, _, key, _ in entries})
    value_of_key = {key: value for value, key in enumerate(keys, start=1)}
    size = 4 * RANK_WEIGHTS[rank_count - 1] + RANK_WEIGHTS[rank_count - 2]  # largest sum
    plain = array("H", bytes(2 * (size + 1)))
    flush_row = array("H", plain) if flushes else plain
    categories = [0] * (len(keys) + 1)
    for multiset, flush, key, category in entries:
        value = value_of_key[key]
        (flush_row if flush else plain)[sum(RANK_WEIGHTS[p] for p in multiset)] = value
        categories[value] = category
    return LookupTable(
        card_codes=_card_codes(deck_positions, with_lanes=True),
        rank_codes=_card_codes(deck_positions, with_lanes=False),
        lanes=tuple(flush_row if lane in FLUSH_LANES else plain for lane in range(LANE_COUNT)),
        plain=plain,
        category_of_value=tuple(categories),
    )


def _multisets(rank_count: int) -> list[tuple[int, ...]]:
    """All five-card rank multisets (highest position first), no rank five times."""
    return [
        multiset[::-1]
        for multiset in combinations_with_replacement(range(rank_count), 5)
        if multiset[0] != multiset[4]
    ]


def _card_codes(deck_positions: Sequence[int | None], *, with_lanes: bool) -> tuple[int, ...]:
    codes = []
    for index, position in enumerate(deck_positions):
        if position is None:
            codes.append(OUT_OF_DECK)
            continue
        lane = SUIT_LANES[index % 4] << LANE_SHIFT if with_lanes else 0
        codes.append(RANK_WEIGHTS[position] + lane)
    return tuple(codes)
