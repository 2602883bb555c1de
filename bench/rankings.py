"""Hand-ranking benchmark: ours against treys, eval7 and pokerkit on the same random hands.

Every evaluator gets the same seeded five-card hands, converted to its own card type
before the clock starts, and is called once per hand in a plain ``for`` loop. Runs are
interleaved (round robin, best of ``--rounds``) so a busy machine hurts everyone alike.
treys and eval7 have no deuce-to-seven evaluator: their high evaluators stand in as the
peer figure for that row. Also prints import time, table build time and table memory.

    .venv/bin/python bench/rankings.py [--hands 200000] [--rounds 5] [--seed 2026]
"""

from __future__ import annotations

import argparse
import gc
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import eval7
from pokerkit import StandardHighHand, StandardLowHand
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from dealerassist.rules.cards.cards import ALL_CARDS
from dealerassist.rules.cards.rankings import Ranking, evaluator, hand_value, lookup_table

Runner = Callable[[], None]
GOAL = 2.0
POKERKIT_SAMPLE = 20_000  # pokerkit is ~100x slower; time it on the first 20k hands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    seconds = import_seconds()
    print(
        f"import dealerassist.rules.cards.rankings: {seconds * 1000:.0f} ms"
        " (new process, best of 3)"
    )
    build_report()
    memory_report()
    hands = random_hands(args.hands, args.seed)
    check_agreement(hands)
    failures = 0
    for ranking in (Ranking.HIGH, Ranking.DEUCE_TO_SEVEN):
        failures += report(ranking, runners(ranking, hands), len(hands), args.rounds)
    return 1 if failures else 0


def import_seconds() -> float:
    code = (
        "import time; t = time.perf_counter(); import dealerassist.rules.cards.rankings; "
        "print(time.perf_counter() - t)"
    )
    runs = [
        float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3)
    ]
    return min(runs)


def build_report() -> None:
    """Time each table as it is built (lazily, on first use, in this process)."""
    total = 0.0
    for ranking in Ranking:
        for ace_low in (True, False) if ranking.deck.size < 52 else (True,):
            started = time.perf_counter()
            table = lookup_table(ranking, ace_low_straight=ace_low)
            seconds = time.perf_counter() - started
            total += seconds
            option = "" if ranking.deck.size == 52 else f" ace_low_straight={ace_low}"
            print(
                f"  build {ranking}{option}: {seconds * 1000:.0f} ms, "
                f"{table.value_count} values, rows {table.nbytes() / 1e6:.2f} MB"
            )
    print(f"all seven tables built in {total * 1000:.0f} ms")


MEMORY_PROBE = """
import tracemalloc
tracemalloc.start()
from dealerassist.rules.cards.rankings import Ranking, lookup_table
imported = tracemalloc.get_traced_memory()[0]
for ranking in Ranking:
    for ace_low in (True, False):
        lookup_table(ranking, ace_low_straight=ace_low)
current, peak = tracemalloc.get_traced_memory()
print(imported, current - imported, peak)
"""


def memory_report() -> None:
    """Memory of all tables, traced in a fresh interpreter (tracing slows the build)."""
    output = subprocess.check_output([sys.executable, "-c", MEMORY_PROBE], text=True)
    imported, tables, peak = (int(part) / 1e6 for part in output.split())
    print(
        f"memory: import {imported:.1f} MB, all tables {tables:.1f} MB held, "
        f"peak while building {peak:.1f} MB (tracemalloc)"
    )


def random_hands(count: int, seed: int) -> list[tuple[int, ...]]:
    generator = random.Random(seed)
    return [tuple(generator.sample(range(52), 5)) for _ in range(count)]


def treys_cards(hands: Sequence[tuple[int, ...]]) -> list[list[int]]:
    codes = [TreysCard.new(str(card)) for card in ALL_CARDS]
    return [[codes[index] for index in hand] for hand in hands]


def eval7_cards(hands: Sequence[tuple[int, ...]]) -> list[list[Any]]:
    cards = [eval7.Card(str(card)) for card in ALL_CARDS]
    return [[cards[index] for index in hand] for hand in hands]


def pokerkit_text(hands: Sequence[tuple[int, ...]]) -> list[str]:
    return ["".join(str(ALL_CARDS[index]) for index in hand) for hand in hands]


def check_agreement(hands: Sequence[tuple[int, ...]]) -> None:
    """Sanity: sorted by our high value, treys' rank (lower = better) never goes up."""
    ours = evaluator(Ranking.HIGH)
    treys = TreysEvaluator()
    pairs = sorted(
        (ours(hand), treys.evaluate([], cards))
        for hand, cards in zip(hands, treys_cards(hands), strict=True)
    )
    agree = all(later[1] <= earlier[1] for earlier, later in pairwise(pairs))
    print(f"ours vs treys order on {len(hands):,} hands: {'agree' if agree else 'DISAGREE'}")


def runners(ranking: Ranking, hands: Sequence[tuple[int, ...]]) -> dict[str, tuple[Runner, int]]:
    """name -> (a function that evaluates its hands once, how many hands it evaluates)."""
    ours = evaluator(ranking)
    cards = [tuple(ALL_CARDS[index] for index in hand) for hand in hands]
    treys = TreysEvaluator()
    treys_hands = treys_cards(hands)
    treys_split = [(hand[:2], hand[2:]) for hand in treys_hands]
    seven = eval7_cards(hands)
    oracle = StandardHighHand if ranking is Ranking.HIGH else StandardLowHand
    texts = pokerkit_text(hands[:POKERKIT_SAMPLE])

    def run_ours() -> None:
        for hand in hands:
            ours(hand)

    def run_ours_checked() -> None:
        for hand in cards:
            hand_value(hand, ranking)

    def run_treys() -> None:
        evaluate = treys.evaluate
        for hole, board in treys_split:
            evaluate(hole, board)

    def run_treys_five() -> None:
        five = treys._five  # internal 5-card path, no list concatenation
        for hand in treys_hands:
            five(hand)

    def run_eval7() -> None:
        evaluate = eval7.evaluate
        for hand in seven:
            evaluate(hand)

    def run_pokerkit() -> None:
        for text in texts:
            oracle(text)

    peer = "" if ranking is Ranking.HIGH else " (high evaluator as peer: no 2-7)"
    return {
        "ours evaluator(indices)": (run_ours, len(hands)),
        "ours hand_value(Cards), checked": (run_ours_checked, len(hands)),
        f"treys Evaluator.evaluate{peer}": (run_treys, len(hands)),
        f"treys Evaluator._five{peer}": (run_treys_five, len(hands)),
        f"eval7.evaluate (C){peer}": (run_eval7, len(hands)),
        f"pokerkit {oracle.__name__} ({POKERKIT_SAMPLE:,} hands)": (run_pokerkit, len(texts)),
    }


def report(ranking: Ranking, named: dict[str, tuple[Runner, int]], count: int, rounds: int) -> int:
    rates = {name: 0.0 for name in named}
    for round_number in range(rounds):
        for name, (run, evaluated) in named.items():
            if name.startswith("pokerkit") and round_number:
                continue
            gc.collect()
            started = time.perf_counter()
            run()
            rates[name] = max(rates[name], evaluated / (time.perf_counter() - started))
    treys_public = next(
        rate for name, rate in rates.items() if name.startswith("treys Evaluator.evaluate")
    )
    treys_five = next(
        rate for name, rate in rates.items() if name.startswith("treys Evaluator._five")
    )
    print(f"\n{ranking}: {count:,} seeded random hands, best of {rounds} rounds")
    for name, rate in rates.items():
        print(f"  {name:58s} {rate / 1e6:6.2f} M/s  {rate / treys_public:5.2f}x treys")
    ours = rates["ours evaluator(indices)"]
    ratio, strict = ours / treys_public, ours / treys_five
    verdict = "PASS" if ratio >= GOAL else "FAIL"
    print(f"  goal ours >= {GOAL:.0f}x treys: {ratio:.2f}x evaluate(), {strict:.2f}x _five", end="")
    print(f" -> {verdict}")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
