"""PHH exports before and after a change: save hand records with their exports, check them later.

    .venv/bin/python bench/phh_exports.py save OUT.pickle [PHH_DIR ...]
    .venv/bin/python bench/phh_exports.py check OUT.pickle

``save`` plays the F2L3D and N2L1D files under the folders (default: tests/data/phh) through
the service on the test fakes (F2L3D under ``replay-permissive``, N2L1D under
``single-draw-27-no-limit``; a hand the profile refuses is counted and left out), and saves
each finished hand's record (``audit.hands.hand_records``) with its export, from the staged
events and from the same events through JSON with sorted keys (as the SQL store returns
them). ``check``, run on the changed code, writes every saved record again and compares the
text byte for byte (exit 1 and the first differences if any differs).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import pickle
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fakes import fake_services  # noqa: E402

from dealerassist.audit.hands import hand_records  # noqa: E402
from dealerassist.audit.phh.reader import VARIANTS, parse_phh, to_commands  # noqa: E402
from dealerassist.audit.phh.writer import hand_to_phh  # noqa: E402
from dealerassist.errors import DealerAssistError  # noqa: E402
from dealerassist.profiles import get_profile  # noqa: E402
from dealerassist.service import tables as use_cases  # noqa: E402
from dealerassist.service.ports import AnswerKind, Services  # noqa: E402

PROFILES = {"F2L3D": "replay-permissive", "N2L1D": "single-draw-27-no-limit"}
ACTOR = use_cases.Actor("dealer-1", "dealer")
PRE = use_cases.Preconditions()
Pair = tuple[dict[str, Any], str]


def play(path: Path, services: Services, table_id: str) -> bool:
    """Play one file's hand at a new table; whether every command was accepted."""
    hand = parse_phh(path.read_text(encoding="utf-8"))
    if hand.variant not in VARIANTS:
        return False
    profile = PROFILES[hand.variant]
    spec, commands = to_commands(hand, profile, table_id, get_profile(profile))
    if use_cases.create_table(services, spec.to_dict(), ACTOR, PRE).kind is AnswerKind.REJECTED:
        return False
    return all(
        use_cases.execute(services, table_id, command, ACTOR, PRE).kind is not AnswerKind.REJECTED
        for command in commands
    )


def save(out: Path, folders: Sequence[Path]) -> int:
    services = fake_services({name: get_profile(name) for name in PROFILES.values()})
    paths = sorted(path for folder in folders for path in folder.rglob("*.phh"))
    played = 0
    for number, path in enumerate(paths):
        with contextlib.suppress(DealerAssistError):  # a hand the profile refuses
            played += play(path, services, f"G{number}")
    events = list(services.tables.staged)  # type: ignore[attr-defined]
    stored = [json.loads(json.dumps(event, sort_keys=True)) for event in events]
    pairs = [
        (record, hand_to_phh(record)) for log in (events, stored) for record in hand_records(log)
    ]
    out.write_bytes(pickle.dumps(pairs))
    print(f"{len(paths)} files, {played} played, {len(pairs)} exports saved to {out}")
    return 0


def check(saved: Path) -> int:
    pairs: list[Pair] = pickle.loads(saved.read_bytes())  # our own file
    different = [(record, text) for record, text in pairs if hand_to_phh(record) != text]
    for record, text in different[:3]:
        now = hand_to_phh(record).splitlines(keepends=True)
        print("".join(difflib.unified_diff(text.splitlines(keepends=True), now)))
    print(f"{len(pairs) - len(different)}/{len(pairs)} exports identical")
    return 1 if different else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["save", "check"])
    parser.add_argument("pickle", type=Path)
    parser.add_argument("folders", nargs="*", type=Path, default=[ROOT / "tests" / "data" / "phh"])
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the replays' reshuffle warnings
        if args.command == "save":
            return save(args.pickle, args.folders)
        return check(args.pickle)


if __name__ == "__main__":
    raise SystemExit(main())
