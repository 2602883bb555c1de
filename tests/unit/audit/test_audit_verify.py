"""verify(): every hash, every link, no gap in seq, versions, and replay problems reported."""

from __future__ import annotations

import copy
from typing import Any

from audit_chains import FAKE_ENGINE, fake_table, interleaved, rules_for, synthetic_events
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerassist.audit.chain import seal
from dealerassist.audit.replay import ReplayEngine
from dealerassist.audit.verify import finishes_hand, verify


def _hash_only(events: list[dict[str, Any]]) -> dict[str, Any]:
    return verify(events, rules_for, replay=False)


def _whys(answer: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(p["table_id"], p["seq"], p["why"]) for p in answer["problems"]]


def test_a_valid_log_of_several_tables_verifies() -> None:
    """Interleaved tables, each a valid chain, give ok with event and hand counts."""
    answer = _hash_only(interleaved(tables=3, per_table=25))
    assert answer == {"ok": True, "events": 75, "hands": 6, "problems": []}


def test_an_empty_log_verifies() -> None:
    """No events is a valid (empty) log."""
    assert _hash_only([]) == {"ok": True, "events": 0, "hands": 0, "problems": []}


def test_a_changed_payload_names_table_and_seq() -> None:
    """One changed character in one payload is reported at that table and seq only."""
    events = interleaved(tables=2, per_table=10)
    target = next(e for e in events if e["table_id"] == "T01" and e["seq"] == 7)
    target["payload"]["events"][0]["amount"] = 21
    answer = _hash_only(events)
    assert answer["ok"] is False
    assert [(t, s) for t, s, _ in _whys(answer)] == [("T01", 7)]
    assert "the event changed" in answer["problems"][0]["why"]


def test_a_resealed_event_breaks_the_next_link() -> None:
    """An event changed and resealed keeps its own hash valid but breaks the next prev_hash."""
    events = list(synthetic_events("T1", 5))
    changed = {k: v for k, v in events[2].items() if k not in ("hash", "prev_hash")}
    changed["actor"] = "someone-else"
    events[2] = seal(changed, events[1]["hash"])
    assert [(s, "prev_hash" in why) for _, s, why in _whys(_hash_only(events))] == [(4, True)]


def test_a_missing_event_is_a_gap() -> None:
    """A deleted event shows as the missing seq range at the next event."""
    events = list(synthetic_events("T1", 6))
    del events[2:4]
    assert _whys(_hash_only(events)) == [("T1", 5, "seq 3..4 missing")]


def test_a_first_event_not_seq_one_is_a_gap() -> None:
    """A table whose log starts at seq 3 misses 1..2."""
    events = list(synthetic_events("T1", 5))[2:]
    assert _whys(_hash_only(events))[0] == ("T1", 3, "seq 1..2 missing")


def test_a_repeated_seq_is_reported() -> None:
    """The same seq twice is reported as a repeat."""
    events = list(synthetic_events("T1", 3))
    events.append(copy.deepcopy(events[1]))
    assert _whys(_hash_only(events)) == [("T1", 2, "seq 2 repeats or goes back (last was 3)")]


def test_a_first_event_not_linked_to_genesis_is_reported() -> None:
    """Seq 1 must link to the genesis hash."""
    first = next(synthetic_events("T1", 1))
    body = {k: v for k, v in first.items() if k not in ("hash", "prev_hash")}
    answer = _hash_only([seal(body, "1" * 64)])
    assert "does not link" in answer["problems"][0]["why"]


def test_a_version_that_does_not_follow_is_reported() -> None:
    """An accepted event must raise the version by one, a rejection leave it unchanged."""
    events = list(synthetic_events("T1", 3))
    body = {k: v for k, v in events[2].items() if k not in ("hash", "prev_hash")}
    events[2] = seal({**body, "version": 7}, events[1]["hash"])
    assert _whys(_hash_only(events)) == [("T1", 3, "version 7 recorded, 3 expected")]


def test_a_malformed_event_is_a_problem_not_a_crash() -> None:
    """An event missing its fields is reported."""
    answer = _hash_only([{"table_id": "T1", "seq": 1}])
    assert answer["ok"] is False
    assert "malformed" in answer["problems"][0]["why"]


def test_verify_consumes_a_generator_once() -> None:
    """verify reads an iterator (a stream from the store), not only a list."""
    answer = verify(synthetic_events("T1", 40), rules_for, replay=False)
    assert answer["events"] == 40 and answer["ok"] is True


def test_replay_of_a_recorded_table_verifies() -> None:
    """A table recorded through an engine replays to the same states, events and refusals."""
    answer = verify(fake_table(), rules_for, engine=FAKE_ENGINE)
    assert answer == {"ok": True, "events": 6, "hands": 0, "problems": []}


def test_replay_problem_is_reported_with_the_table_and_seq() -> None:
    """An engine that now decides otherwise makes verify fail at the first differing seq."""

    def stingy_apply(state: Any, command: Any, rules: Any, at: Any) -> Any:
        outcome = FAKE_ENGINE.apply(state, command, rules, at)
        return outcome if command.amount != 30 else type(outcome)(state, outcome.events, None)

    engine = ReplayEngine(FAKE_ENGINE.new_table, stingy_apply, FAKE_ENGINE.command_from_dict)
    answer = verify(fake_table("F9"), rules_for, engine=engine)
    assert [(p["table_id"], p["seq"]) for p in answer["problems"]] == [("F9", 5)]


def test_an_engine_that_raises_is_reported_not_a_crash() -> None:
    """An engine bug (any exception) becomes one problem per table; hash checks go on."""

    def broken_apply(*_: Any) -> Any:
        raise ZeroDivisionError("engine bug")

    engine = ReplayEngine(FAKE_ENGINE.new_table, broken_apply, FAKE_ENGINE.command_from_dict)
    answer = verify(fake_table("A") + fake_table("B"), rules_for, engine=engine)
    assert [(p["table_id"], p["seq"]) for p in answer["problems"]] == [("A", 1), ("B", 1)]
    assert "ZeroDivisionError" in answer["problems"][0]["why"]


def test_finishes_hand_needs_a_result_and_a_hand() -> None:
    """Only an accepted event with a hand number and a result finishes a hand."""
    assert finishes_hand({"kind": "action", "hand_no": 1, "payload": {"result": {}}})
    assert not finishes_hand({"kind": "action", "hand_no": 1, "payload": {"result": None}})
    assert not finishes_hand({"kind": "action", "hand_no": None, "payload": {"result": {}}})


MUTABLE = ("actor", "role", "at", "kind", "profile_id", "profile_sha256", "hand_no", "version")


@settings(max_examples=60, deadline=None)
@given(
    position=st.integers(min_value=0, max_value=29),
    field=st.sampled_from((*MUTABLE, "payload")),
    text=st.text(min_size=1, max_size=5),
)
def test_any_single_change_is_named_by_its_table_and_seq(
    position: int, field: str, text: str
) -> None:
    """Changing any one field of any one event (not resealed) is reported there and only there."""
    events = interleaved(tables=3, per_table=10)
    target = events[position]
    if field == "payload":
        target["payload"]["events"][0]["note"] = text
    elif target[field] == text:
        target[field] = text + "x"
    else:
        target[field] = text
    answer = _hash_only(events)
    assert answer["ok"] is False
    assert {(p["table_id"], p["seq"]) for p in answer["problems"]} == {
        (target["table_id"], target["seq"])
    }
