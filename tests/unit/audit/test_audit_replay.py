"""Replay of recorded commands (dealerassist.audit.replay) against a small fake engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from audit_chains import FAKE_ENGINE, RULES, fake_table, rules_for

from dealerassist.audit.replay import TableReplay, load_engine, state_sha256


def _replay(events: list[dict[str, Any]], rules: Any = rules_for) -> list[tuple[int, str]]:
    replay = TableReplay(FAKE_ENGINE, rules)
    whys = [(event["seq"], replay.step(event)) for event in events]
    return [(seq, why) for seq, why in whys if why is not None]


def test_a_faithful_record_replays_without_problems() -> None:
    """Accepted commands reproduce the recorded state hash, events and result."""
    assert _replay(fake_table()) == []


def test_a_refusal_must_still_be_refused_by_the_same_rule() -> None:
    """A recorded refusal whose rule ID differs from the replay's is reported."""
    events = fake_table()
    events[3]["payload"]["rule_id"] = "BET-01"
    assert _replay(events) == [(4, "recorded as refused by BET-01, replay refuses it by BET-02")]


def test_a_recorded_refusal_the_engine_accepts_is_reported() -> None:
    """A command recorded as refused but accepted on replay is reported."""
    events = fake_table()
    events[3]["payload"]["command"]["amount"] = 5
    assert _replay(events) == [(4, "recorded as refused by BET-02, replay accepts it")]


def test_a_different_state_stops_the_replay_of_the_table() -> None:
    """A changed recorded amount gives another state; later events are not re-reported."""
    events = fake_table()
    events[1]["payload"]["command"]["amount"] = 11
    assert _replay(events) == [(2, "state after replay differs from the recorded state_sha256")]


def test_a_different_result_is_reported() -> None:
    """A recorded result the replay does not reproduce is reported."""
    events = fake_table()
    events[-1]["payload"]["result"] = {"total": 99}
    assert _replay(events) == [(6, "hand result after replay differs from the recorded result")]


def test_a_table_must_start_with_create_table() -> None:
    """Without create_table first there is nothing to replay from."""
    assert _replay(fake_table()[1:]) == [(2, "the table's first command is add, not create_table")]


def test_an_unknown_profile_is_reported() -> None:
    """A profile the verifier cannot load stops the replay with its name."""

    def no_profiles(profile_id: str, sha256: str) -> Any:
        raise KeyError(profile_id)

    [(seq, why)] = _replay(fake_table(), no_profiles)
    assert seq == 1 and "'test' unavailable" in why


def test_a_changed_profile_file_is_reported() -> None:
    """Rules whose SHA-256 differs from the recorded one cannot vouch for the record (a
    profile source that answers another version than the one asked for)."""
    other = replace(RULES, sha256="f" * 64)
    [(seq, why)] = _replay(fake_table(), lambda _profile, _sha256: other)
    assert seq == 1 and "is not the recorded one" in why


def test_state_sha256_hashes_the_canonical_state_dict() -> None:
    """state_sha256 is the SHA-256 of the state's canonical JSON."""
    state = FAKE_ENGINE.new_table({"table_id": "X"})
    assert state_sha256(state) == state_sha256(FAKE_ENGINE.new_table({"table_id": "X"}))
    assert state_sha256(state) != state_sha256(FAKE_ENGINE.new_table({"table_id": "Y"}))


def test_load_engine_binds_the_real_engine_or_none() -> None:
    """load_engine returns the engine's functions when dealerassist.rules.engine imports."""
    engine = load_engine()
    try:
        import dealerassist.rules.engine as real
    except ImportError:
        assert engine is None
    else:
        assert engine is not None and engine.apply is real.apply
