"""A fingerprint of everything the engine answers, to prove a speed change changed nothing.

Replays the shared PHH hands under each named profile (by default six shipped ones) and
hashes, after every command, the table state's canonical JSON, the events, instructions,
notices and result, and the public view; a refusal hashes its rule, message and allowed
actions. Run it before and after a change: the same hash means the same answers.

    .venv/bin/python bench/engine_fingerprint.py [PROFILE ...]
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import load_texts  # bench/engine.py: the same hands

from dealerassist.audit.phh.reader import parse_phh, to_commands
from dealerassist.errors import DealerAssistError
from dealerassist.json_codec import canonical
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.engine import apply, new_table, view

PHH_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "phh"
PROFILES = (
    "replay-permissive",
    "casino-five-card-draw",
    "casino-triple-draw-27",
    "casino-triple-draw-27-kill",
    "single-draw-27-no-limit",
    "ace-to-seven-stripped",
)


def fingerprint(texts: Sequence[str], profiles: Sequence[str]) -> tuple[int, str]:
    """The number of commands accepted and the SHA-256 of every answer, in order."""
    digest, accepted = hashlib.sha256(), 0
    for profile in profiles:
        rules = get_profile(profile)
        for text in texts:
            try:
                spec, commands = to_commands(parse_phh(text), rules.profile_id)
            except DealerAssistError as refused:
                digest.update(repr(refused).encode())
                continue
            state = new_table(spec)
            for command in commands:
                try:
                    outcome = apply(state, command, rules, REPLAY_AT)
                except DealerAssistError as refused:
                    allowed = getattr(refused, "allowed", None)
                    digest.update(f"{type(refused).__name__}{refused}{allowed!r}".encode())
                    break
                state = outcome.state
                digest.update(canonical(state.to_dict()))
                answers = (
                    tuple(outcome.events_json()),
                    outcome.instructions,
                    outcome.notices,
                    outcome.result_json(),
                )
                digest.update(repr(answers).encode())
                digest.update(repr(view(state, rules, REPLAY_AT)).encode())
                accepted += 1
    return accepted, digest.hexdigest()


def main(argv: Sequence[str]) -> int:
    texts = load_texts(PHH_DIR)  # the acceptance set, as bench/engine.py replays it
    accepted, digest = fingerprint(texts, argv or PROFILES)
    print(f"{len(texts)} hands, {accepted} commands accepted, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
