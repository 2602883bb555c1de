"""Verify's replay: events per second that ``GET /v1/audit/verify`` checks, hands of real play.

Records the hands of ``bench/engine.py`` (215 PHH hands, each its own table: ``create_table``
then every command) as the service seals them (``state_sha256`` of each new state, the
events, the result; one command a second), through JSON as the store gives them back; then
times ``audit.verify.verify`` over them, the function the route runs once it has read the
events: every hash and link, and the replay of every command through the engine. The peer in
the same run is the same verify without the replay (hashes and links only), so the ratio
shows what the engine's share costs.

    .venv/bin/python bench/verify.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from engine import DEFAULT_DIR, best_of_interleaved, load_texts  # bench/engine.py

from dealerassist.audit.chain import GENESIS_HASH
from dealerassist.audit.envelope import build_event
from dealerassist.audit.phh.reader import parse_phh, to_commands
from dealerassist.audit.replay import STATE_FORM, state_sha256
from dealerassist.audit.verify import verify
from dealerassist.json_codec import canonical, parse
from dealerassist.profiles import get_profile
from dealerassist.replay import REPLAY_AT
from dealerassist.rules.engine import apply, new_table
from dealerassist.rules.model.actions import Command, CreateTable, command_to_dict
from dealerassist.rules.model.house_rules import HouseRules


def record_table(table_id: int, commands: Sequence[Command], rules: HouseRules) -> list[Any]:
    """One table's sealed events, as the service records accepted commands."""
    events: list[dict[str, Any]] = []
    state: Any = None
    prev_hash = GENESIS_HASH
    for seq, command in enumerate(commands, start=1):
        at = REPLAY_AT + timedelta(seconds=seq)
        before = state if state is not None else new_table(command.spec)  # type: ignore[attr-defined]
        outcome = apply(before, command, rules, at)
        state = outcome.state.__class__.from_dict(
            {**outcome.state.to_dict(), "version": before.version + 1}
        )
        data = command_to_dict(command)
        payload = {
            "command": data,
            "events": outcome.events_json(),
            "result": outcome.result_json(),
            "state_sha256": state_sha256(state),
            "state_form": STATE_FORM,  # instructions with their message IDs, as the service seals
        }
        hand = state.hand
        event = build_event(
            table_id=f"V{table_id:03d}",
            seq=seq,
            version=state.version,
            hand_no=None if hand is None else hand.hand_no,
            at=at,
            actor="dealer-1",
            role="dealer",
            dealer=None,  # no dealer signed in at these tables
            kind=str(data["type"]),
            payload=payload,
            profile_id=rules.profile_id,
            profile_sha256=rules.sha256,
            prev_hash=prev_hash,
        )
        prev_hash = event["hash"]
        events.append(parse(canonical(event)))  # as the store gives it back
    return events


def record_all(rules: HouseRules) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for number, text in enumerate(load_texts(DEFAULT_DIR)):
        spec, commands = to_commands(parse_phh(text), rules.profile_id)
        events += record_table(number, [CreateTable(spec), *commands], rules)
    return events


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rules = get_profile("replay-permissive")
    events = record_all(rules)
    report = verify(events, lambda profile_id, sha256: rules)
    assert report["ok"], report["problems"][:3]
    replayed, chained = best_of_interleaved(
        args.repeat,
        lambda: verify(events, lambda profile_id, sha256: rules),
        lambda: verify(events, lambda profile_id, sha256: rules, replay=False),
    )
    count = len(events)
    print(f"{count} events of {report['hands']} hands, best of {args.repeat} (CPU time)")
    print(
        f"verify with replay: {count / replayed:,.0f} events/s; hashes and links only: "
        f"{count / chained:,.0f} events/s (replay {replayed / chained:.1f}x the time)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
