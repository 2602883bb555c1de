"""A fingerprint of everything the engine answers, to prove a speed change changed nothing.

Replays the shared PHH hands under each named profile (by default six shipped ones) and
hashes, after every command, the table state's canonical JSON, the events, instructions,
notices and result, and the public view; a refusal hashes its rule, message and allowed
actions. Run it before and after a change: the same hash means the same answers.

``--legacy`` leaves out what the engine says as message IDs (an instruction's ``text_id``
and ``params``, a notice's ``said``), which the engine gained after the fingerprint
56961402…cd79: the same hash then means the same words, states and answers as before.

    .venv/bin/python bench/engine_fingerprint.py [--legacy] [PROFILE ...]
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import load_texts  # bench/engine.py: the same hands

from dealerassist.audit.phh.reader import parse_phh, to_commands
from dealerassist.errors import DealerAssistError
from dealerassist.json_codec import canonical
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.engine import apply, new_table, view
from dealerassist.rules.model.violations import Notice, RuleId

PHH_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "phh"
PROFILES = (
    "replay-permissive",
    "casino-five-card-draw",
    "casino-triple-draw-27",
    "casino-triple-draw-27-kill",
    "single-draw-27-no-limit",
    "ace-to-seven-stripped",
)


_SAID_KEYS = ("text_id", "params")


def _without_said(value: Any) -> Any:
    """``value`` as the engine answered before message IDs."""
    if isinstance(value, Notice):
        return _OldNotice(value.rule_id, value.message, value.seat)
    if isinstance(value, dict):
        return {k: _without_said(v) for k, v in value.items() if k not in _SAID_KEYS}
    if isinstance(value, list | tuple):
        return type(value)(_without_said(item) for item in value)
    return value


@dataclass(frozen=True)
class _OldNotice:  # its repr is the Notice's before it had ``said``
    rule_id: RuleId
    message: str
    seat: int | None


_OldNotice.__qualname__ = _OldNotice.__name__ = "Notice"


def fingerprint(
    texts: Sequence[str], profiles: Sequence[str], legacy: bool = False
) -> tuple[int, str]:
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
                answers = (
                    tuple(outcome.events_json()),
                    outcome.instructions,
                    outcome.notices,
                    outcome.result_json(),
                )
                seen = view(state, rules, REPLAY_AT)
                state_json = state.to_dict()
                if legacy:
                    answers, seen, state_json = _without_said((answers, seen, state_json))
                digest.update(canonical(state_json))
                digest.update(repr(answers).encode())
                digest.update(repr(seen).encode())
                accepted += 1
    return accepted, digest.hexdigest()


def main(argv: Sequence[str]) -> int:
    legacy = "--legacy" in argv
    profiles = [name for name in argv if name != "--legacy"]
    texts = load_texts(PHH_DIR)  # the acceptance set, as bench/engine.py replays it
    accepted, digest = fingerprint(texts, profiles or PROFILES, legacy)
    print(f"{len(texts)} hands, {accepted} commands accepted, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
