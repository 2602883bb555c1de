"""Instructions per replayed hand by callgrind, which do not swing with the machine's load.

Runs ``valgrind --tool=callgrind`` on this script twice, replaying the hands of
``bench/engine.py`` (mapping to commands included, as in its engine-only run) once and
three times, with ``PYTHONHASHSEED=0``; the difference over two passes and the number of
hands is the cost of one hand without the start-up (imports, parsing, lookup tables).

    .venv/bin/python bench/engine_instructions.py            # needs valgrind
    .venv/bin/python bench/engine_instructions.py --passes 3   # the replay alone, no valgrind
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from engine import DEFAULT_DIR, load_texts  # bench/engine.py: the same hands

from dealerassist.audit.phh.reader import parse_phh, to_commands
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.batch import replay
from dealerassist.rules.engine import new_table


def replay_passes(passes: int) -> int:
    """Replay every hand ``passes`` times (mapping included); the number of hands."""
    rules = get_profile("replay-permissive")
    hands = [parse_phh(text) for text in load_texts(DEFAULT_DIR)]
    for _ in range(passes):
        for hand in hands:
            spec, commands = to_commands(hand, rules.profile_id)
            replay(new_table(spec), commands, rules, REPLAY_AT)
    return len(hands)


def instructions(passes: int) -> int:
    """Instructions callgrind counts for a run of ``passes`` replay passes."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        command += [sys.executable, __file__, "--passes", str(passes)]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(command, check=True, env=env, capture_output=True)
        found = re.search(r"^summary: (\d+)", out.read_text(), re.MULTILINE)
        assert found, "no summary line in the callgrind output"
        return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, help="only replay, this many passes")
    args = parser.parse_args(argv)
    if args.passes is not None:
        replay_passes(args.passes)
        return 0
    hands = len(load_texts(DEFAULT_DIR))
    one, three = instructions(1), instructions(3)
    print(f"{(three - one) / 2 / hands / 1e6:.2f} M instructions a hand ({hands} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
