"""The state digest's two forms (``audit/replay.py``): every event recorded before message
IDs (no ``state_form``) digests the instructions' English only and must keep verifying;
a newer one says ``state_form: 2`` and digests their ``text_id`` and ``params`` too. Played
through the real engine, recorded both ways, replayed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from audit_chains import record

from dealerassist.audit.envelope import REJECTED
from dealerassist.audit.replay import (
    LEGACY_STATE_FORM,
    STATE_FORM,
    ReplayEngine,
    TableReplay,
    load_engine,
    state_sha256,
)
from dealerassist.profiles import default_profiles_dir, load_profiles
from dealerassist.rules.model.house_rules import HouseRules

AT = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
RULES: HouseRules = load_profiles(default_profiles_dir())["casino-five-card-draw"]
SPEC = {
    "table_id": "T7",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
    "profile_id": RULES.profile_id,
}
COMMANDS: list[dict[str, Any]] = [
    {"type": "create_table", "spec": SPEC},
    *({"type": "seat", "seat": s, "player": f"P{s}", "stack": 500} for s in (1, 2, 3)),
    {"type": "start_hand", "button": 1},
    {"type": "action", "seat": 1, "action": "fold"},  # out of turn: the blinds post first
]


@pytest.fixture(scope="module")
def engine() -> ReplayEngine:
    loaded = load_engine()
    assert loaded is not None
    return loaded


def _replay(engine: ReplayEngine, events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    replay = TableReplay(engine, lambda _profile, _sha: RULES)
    whys = [(event["seq"], replay.step(event)) for event in events]
    return [(seq, why) for seq, why in whys if why is not None]


def test_the_start_of_a_hand_instructs_with_message_ids(engine: ReplayEngine) -> None:
    """What makes the two forms differ: the posts' instructions carry text_id and params."""
    events = record(engine, COMMANDS, RULES)
    started = next(e for e in events if e["kind"] == "start_hand")
    assert started["payload"]["state_form"] == STATE_FORM
    replay = TableReplay(engine, lambda _profile, _sha: RULES)
    for event in events[:5]:
        assert replay.step(event) is None
    instructions = replay.state.instructions
    assert instructions and all("text_id" in item for item in instructions)
    assert state_sha256(replay.state) != state_sha256(replay.state, LEGACY_STATE_FORM)


def test_events_recorded_before_message_ids_still_verify(engine: ReplayEngine) -> None:
    legacy = record(engine, COMMANDS, RULES, state_form=LEGACY_STATE_FORM)
    assert not any("state_form" in e["payload"] for e in legacy)
    assert legacy[-1]["kind"] == REJECTED and "message_id" not in legacy[-1]["payload"]
    assert _replay(engine, legacy) == []


def test_events_recorded_now_verify_and_keep_the_refusal_as_its_id(
    engine: ReplayEngine,
) -> None:
    events = record(engine, COMMANDS, RULES)
    assert _replay(engine, events) == []
    refused = events[-1]["payload"]
    assert refused["message_id"] and isinstance(refused["params"], dict)


def test_a_legacy_digest_relabelled_as_form_2_does_not_verify(engine: ReplayEngine) -> None:
    """The form is part of the hashed payload: an insider cannot pick the one that matches."""
    legacy = record(engine, COMMANDS, RULES, state_form=LEGACY_STATE_FORM)
    started = next(e for e in legacy if e["kind"] == "start_hand")
    started["payload"]["state_form"] = STATE_FORM
    assert _replay(engine, legacy) == [
        (started["seq"], "state after replay differs from the recorded state_sha256")
    ]


def test_an_unknown_form_stops_the_replay(engine: ReplayEngine) -> None:
    events = record(engine, COMMANDS, RULES)
    events[1]["payload"]["state_form"] = 3
    assert _replay(engine, events) == [(2, "state_form 3 is not one this version knows")]
