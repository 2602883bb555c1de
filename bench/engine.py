"""Engine benchmark: replay the shared PHH hands with our engine and with pokerkit in one run.

Prints hands per second for both and the ratio (goal: ours >= 5x pokerkit), then the cost
of one ``apply`` and of one state round trip through JSON (to_dict -> dumps -> loads ->
from_dict). Both replays start from the file's text, so both include parsing.

    .venv/bin/python bench/engine.py [--repeat 5] [PHH_DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tomllib
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pokerkit import HandHistory

from dealerassist.audit.phh.model import HandHistory as PhhHand
from dealerassist.audit.phh.reader import VARIANTS, parse_phh, to_commands
from dealerassist.errors import InvalidInput
from dealerassist.json_codec import canonical, parse
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT, finishing_stacks
from dealerassist.rules.batch import replay
from dealerassist.rules.engine import apply, new_table
from dealerassist.rules.model.actions import Command
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.state import TableState

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "phh"


def load_texts(root: Path) -> list[str]:
    """The text of every PHH file of a variant we deal (F2L3D, N2L1D) under ``root``: of
    the acceptance set when ``root`` lists one (tests/data/phh/ACCEPTANCE), else all."""
    if (root / "ACCEPTANCE").is_file():
        lines = (root / "ACCEPTANCE").read_text(encoding="utf-8").splitlines()
        folders = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        paths = sorted(path for folder in folders for path in (root / folder).rglob("*.phh"))
    else:
        paths = sorted(root.rglob("*.phh"))
    texts = [path.read_text(encoding="utf-8") for path in paths]
    return [text for text in texts if parse_phh(text).variant in VARIANTS]


def replay_pokerkit(histories: Iterable[HandHistory]) -> int:
    """Replay every hand with pokerkit; the number whose stacks differ from the record."""
    mismatches = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about reshuffled cards
        for history in histories:
            state = None
            for state in history:  # noqa: B007 - the last state holds the finishing stacks
                pass
            expected = history.finishing_stacks
            if state is not None and expected is not None and list(state.stacks) != list(expected):
                mismatches += 1
    return mismatches


def replay_ours(hands: Iterable[PhhHand], rules: HouseRules) -> int:
    """Replay every hand with our engine; the number that fail or differ from the record."""
    mismatches = 0
    for hand in hands:
        try:
            spec, commands = to_commands(hand, rules.profile_id)
            state = replay(new_table(spec), commands, rules, REPLAY_AT)  # apply, each command
            stacks = finishing_stacks(state, hand.player_count)
        except Exception:  # a failing hand counts as a mismatch; the replay tests say why
            mismatches += 1
            continue
        expected = hand.finishing_stacks
        mismatches += expected is not None and stacks != list(expected)
    return mismatches


def timed(run: Callable[[], object]) -> float:
    """CPU seconds of this process for one run, garbage collection off while timing.

    CPU time, not wall time: both engines are single-threaded Python, and on the shared dev
    box other jobs' load moved wall-clock figures by 2-3x between runs.
    """
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        run()
        return time.process_time() - start
    finally:
        gc.enable()


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    return min(timed(run) for _ in range(repeat))


def best_of_interleaved(
    repeat: int, first: Callable[[], object], second: Callable[[], object]
) -> tuple[float, float]:
    """The fastest of ``repeat`` rounds of each, alternating, so load spikes hit both alike."""
    times = [(timed(first), timed(second)) for _ in range(repeat)]
    return min(t for t, _ in times), min(t for _, t in times)


def apply_steps(texts: Sequence[str], rules: HouseRules) -> list[tuple[TableState, Command]]:
    """Every (state, command) pair the replays apply, to time ``apply`` alone."""
    steps: list[tuple[TableState, Command]] = []
    for text in texts:
        try:
            spec, commands = to_commands(parse_phh(text), rules.profile_id)
        except InvalidInput:  # a hand we cannot map; replay_ours counts it
            continue
        state = new_table(spec)
        try:
            for command in commands:
                steps.append((state, command))
                state = apply(state, command, rules, REPLAY_AT).state
        except Exception:  # keep the steps that were accepted
            steps.pop()
    return steps


def time_apply(
    steps: Sequence[tuple[TableState, Command]], rules: HouseRules, repeat: int
) -> float:
    """Microseconds per ``apply`` over the recorded steps."""

    def run() -> None:
        for state, command in steps:
            apply(state, command, rules, REPLAY_AT)

    return best_of(repeat, run) / len(steps) * 1e6


def time_round_trip(states: Sequence[TableState], repeat: int) -> tuple[float, float]:
    """Microseconds per state round trip through JSON: as the service stores a table
    (``to_dict``, canonical JSON, ``from_dict`` of the parsed text) and through the
    standard library's ``json``, for comparison."""

    def service() -> None:
        for state in states:
            TableState.from_dict(parse(canonical(state.to_dict())))

    def standard() -> None:
        for state in states:
            TableState.from_dict(json.loads(json.dumps(state.to_dict())))

    ours, stdlib = best_of(repeat, service), best_of(repeat, standard)
    return ours / len(states) * 1e6, stdlib / len(states) * 1e6


def print_breakdown(
    texts: Sequence[str], hands: Sequence[PhhHand], rules: HouseRules, repeat: int
) -> None:
    """Where a hand's time goes, in microseconds per hand: TOML alone (both readers use
    ``tomllib``), our reader, pokerkit's, our mapping to commands and our engine."""
    mapped = [to_commands(hand, rules.profile_id) for hand in hands]

    def engine() -> None:
        for spec, commands in mapped:
            replay(new_table(spec), commands, rules, REPLAY_AT)

    parts = {
        "tomllib.loads": lambda: [tomllib.loads(text) for text in texts],
        "parse_phh": lambda: [parse_phh(text) for text in texts],
        "pokerkit HandHistory.loads": lambda: [HandHistory.loads(text) for text in texts],
        "to_commands": lambda: [to_commands(hand, rules.profile_id) for hand in hands],
        "engine (replay of the commands)": engine,
    }
    line = ", ".join(
        f"{name} {best_of(repeat, run) / len(texts) * 1e6:.0f}" for name, run in parts.items()
    )
    print(f"per hand (us): {line}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", default="replay-permissive")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"no PHH directory at {args.root}", file=sys.stderr)
        return 1
    texts = load_texts(args.root)
    rules = get_profile(args.profile)
    hands = [parse_phh(text) for text in texts]
    histories = [HandHistory.loads(text) for text in texts]
    ours_bad, theirs_bad = replay_ours(hands, rules), replay_pokerkit(histories)
    print(f"{len(texts)} PHH hands (F2L3D, N2L1D) from {args.root}, best of {args.repeat} rounds")
    print("(CPU time of this process, so other jobs on the machine count less)")
    print(f"{'hands/s':>36} {'dealerassist':>12} {'pokerkit':>9} {'ratio':>6}")
    for label, ours_run, theirs_run in (
        (
            "from the file text (TOML parse incl.)",
            lambda: replay_ours(map(parse_phh, texts), rules),
            lambda: replay_pokerkit(map(HandHistory.loads, texts)),
        ),
        (
            "from parsed hands (engine only)",
            lambda: replay_ours(hands, rules),
            lambda: replay_pokerkit(histories),
        ),
    ):
        ours_s, theirs_s = best_of_interleaved(args.repeat, ours_run, theirs_run)
        ours, theirs = len(texts) / ours_s, len(texts) / theirs_s
        print(f"{label:>36} {ours:12.0f} {theirs:9.0f} {ours / theirs:5.2f}x  (goal >= 5x)")
    version = _pokerkit_version()
    print(f"not matching the record: dealerassist {ours_bad}, pokerkit {version} {theirs_bad}")
    print_breakdown(texts, hands, rules, args.repeat)
    steps = apply_steps(texts, rules)
    states = [state for state, _ in steps if state.hand is not None]
    apply_us = time_apply(steps, rules, args.repeat)
    round_trip_us, stdlib_us = time_round_trip(states, args.repeat)
    print(f"one apply: {apply_us:.1f} us (mean over {len(steps)} commands)")
    print(
        f"one state JSON round trip: {round_trip_us:.1f} us as the service stores it "
        f"(orjson), {stdlib_us:.1f} us with the json module (mean over {len(states)} states)"
    )
    return 0


def _pokerkit_version() -> str:
    from importlib.metadata import version

    return version("pokerkit")


if __name__ == "__main__":
    sys.exit(main())
