"""The floor use cases over fakes: rulings through the one write path, roles, and floor calls."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fakes import FakeAuditStore, FakeTableStore
from floor_fakes import floor_services

from dealerassist.audit.chain import event_hash
from dealerassist.audit.verify import verify
from dealerassist.errors import Forbidden, InvalidInput, NotFound, Unavailable
from dealerassist.service import audit
from dealerassist.service import rulings as floor
from dealerassist.service import tables as uc
from dealerassist.service.ports import AnswerKind, Services
from dealerassist.service.tables import Actor, Preconditions

ADMIN = Actor("boss", "admin")
DEALER = Actor("tablet-1", "dealer")
FLOOR = Actor("floor-anna", "floor")
AUDITOR = Actor("audit", "auditor")
NONE = Preconditions()
SPEC = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile_id": "test",
}


@pytest.fixture
def services() -> Services:
    built = floor_services()
    uc.create_table(built, SPEC, ADMIN, NONE)
    for seat in (1, 2, 3):
        uc.seat_player(built, "T1", seat, f"P{seat}", 100, DEALER, NONE)
    uc.start_hand(built, "T1", 1, DEALER, NONE)
    uc.submit_action(built, "T1", {"seat": 2, "action": "post"}, DEALER, NONE)
    uc.submit_action(built, "T1", {"seat": 3, "action": "post"}, DEALER, NONE)
    return built


def _staged(services: Services) -> list[dict[str, Any]]:
    assert isinstance(services.tables, FakeTableStore)
    return services.tables.staged


def seal_again(event: dict[str, Any]) -> dict[str, Any]:
    """The event with its hash recomputed (a forged but self-consistent record)."""
    return {**event, "hash": event_hash(event)}


def _kill(seat: int = 1, **fields: Any) -> dict[str, Any]:
    return {"decision": "no_redress", "rule_id": "IRREG-13",
            "effects": [{"effect": "kill_hand", "seat": seat}], **fields}  # fmt: skip


def test_a_ruling_is_an_audited_event_naming_the_floor_manager(services: Services) -> None:
    """The ruling commits like an action: kind "ruling", the floor's name and role, version + 1."""
    before = uc.get_table(services, "T1")["version"]
    answer = floor.issue_ruling(services, "T1", _kill(note="mucked into the discards"), FLOOR, NONE)
    assert answer.kind is AnswerKind.ACCEPTED and answer.version == before + 1
    event = _staged(services)[-1]
    assert event["kind"] == "ruling" and event["actor"] == "floor-anna" and event["role"] == "floor"
    assert event["payload"]["command"]["effects"] == [{"effect": "kill_hand", "seat": 1}]
    assert event["payload"]["events"][0]["type"] == "ruling"


@pytest.mark.parametrize("actor", [DEALER, AUDITOR, ADMIN])
def test_only_the_floor_may_rule(services: Services, actor: Actor) -> None:
    """A dealer, an auditor or an admin cannot rule; nothing is committed."""
    staged = len(_staged(services))
    with pytest.raises(Forbidden):
        floor.issue_ruling(services, "T1", _kill(), actor, NONE)
    assert len(_staged(services)) == staged


def test_a_refused_ruling_is_audited_as_rejected(services: Services) -> None:
    """A ruling the engine refuses (kill an unknown seat… here a second kill) is audited."""
    floor.issue_ruling(services, "T1", _kill(), FLOOR, NONE)
    answer = floor.issue_ruling(services, "T1", _kill(), FLOOR, NONE)
    assert answer.kind is AnswerKind.REJECTED and answer.body["rule_id"] == "IRREG-15"
    assert _staged(services)[-1]["kind"] == "rejected"


def test_a_ruling_with_an_unknown_decision_is_invalid(services: Services) -> None:
    """A decision the rule does not offer is InvalidInput (400) and is not audited."""
    staged = len(_staged(services))
    with pytest.raises(InvalidInput):
        floor.issue_ruling(services, "T1", {**_kill(), "decision": "coin_flip"}, FLOOR, NONE)
    assert len(_staged(services)) == staged


def test_a_refused_entry_becomes_a_floor_call_and_a_ruling_closes_it(services: Services) -> None:
    """The dealer's refused entry opens a call with its rule and the table; the floor accepts
    the entry as binding, which closes the call."""
    entry = {"seat": 3, "action": "check"}
    uc.submit_action(services, "T1", {"seat": 1, "action": "call"}, DEALER, NONE)
    refused = uc.submit_action(services, "T1", entry, DEALER, NONE)
    assert refused.kind is AnswerKind.REJECTED
    call = floor.open_floor_call(services, "T1", {"entry": entry}, DEALER)
    assert call["rule_id"] == "BET-08" and call["hand_no"] == 1 and call["table"]["hand"]
    assert call["allowed"] and call["allowed"][0]["seat"] == 2
    listed = floor.list_floor_calls(services)
    assert [c["call_id"] for c in listed["calls"]] == [call["call_id"]]
    body = {"decision": "action_stands", "call_id": call["call_id"],
            "effects": [{"effect": "accept_entry", "entry": entry, "waive": "BET-08"}]}  # fmt: skip
    answer = floor.issue_ruling(services, "T1", body, FLOOR, NONE)
    assert answer.kind is AnswerKind.ACCEPTED
    assert floor.list_floor_calls(services)["count"] == 0
    command = _staged(services)[-1]["payload"]["command"]
    assert command["rule_id"] == "BET-08" and command["hand_no"] == 1


def test_a_floor_call_by_the_refused_entrys_audit_seq(services: Services) -> None:
    """A call may name the refused entry by its audit seq (read from the audit store); it keeps
    that entry's hand, so once the next hand has started a ruling on it meets IRREG-14."""
    refused = uc.submit_action(services, "T1", {"seat": 2, "action": "check"}, DEALER, NONE)
    uc.submit_action(services, "T1", {"seat": 1, "action": "fold"}, DEALER, NONE)
    uc.submit_action(services, "T1", {"seat": 2, "action": "fold"}, DEALER, NONE)
    uc.start_hand(services, "T1", None, DEALER, NONE)
    assert isinstance(services.audit_store, FakeAuditStore)
    services.audit_store.events.extend(_staged(services))
    seq = refused.body["event"]["seq"]
    call = floor.open_floor_call(services, "T1", {"seq": seq}, DEALER)
    assert call["seq"] == seq and call["entry"]["action"] == "check" and call["hand_no"] == 1
    late = {"decision": "uphold", "call_id": call["call_id"], "effects": [{"effect": "void_last"}]}
    answer = floor.issue_ruling(services, "T1", late, FLOOR, NONE)
    assert answer.kind is AnswerKind.REJECTED and answer.body["rule_id"] == "IRREG-14"
    assert floor.list_floor_calls(services)["count"] == 1
    with pytest.raises(NotFound):
        floor.open_floor_call(services, "T1", {"seq": 1}, DEALER)


def test_a_floor_call_is_an_audit_event_of_its_table_that_changes_nothing(
    services: Services,
) -> None:
    """Who called, when and about what is sealed in the table's chain (kind floor_call), the
    version unchanged, and the log with it verifies by replay."""
    before = uc.get_table(services, "T1")["version"]
    last_seq = _staged(services)[-1]["seq"]
    call = floor.open_floor_call(services, "T1", {"rule_id": "SHOW-04", "note": "miscall"}, DEALER)
    event = _staged(services)[-1]
    assert (event["kind"], event["seq"], event["version"]) == ("floor_call", last_seq + 1, before)
    assert (event["actor"], event["role"]) == ("tablet-1", "dealer")
    assert event["payload"]["call"]["call_id"] == call["call_id"] == call["call_id"]
    assert event["payload"]["call"]["note"] == "miscall" and "table" not in event["payload"]["call"]
    assert call["audit_seq"] == event["seq"]
    assert uc.get_table(services, "T1")["version"] == before
    uc.submit_action(services, "T1", {"seat": 1, "action": "call"}, DEALER, NONE)
    assert isinstance(services.audit_store, FakeAuditStore)
    services.audit_store.events.extend(_staged(services))
    report = audit.verify_log(services, "T1")
    assert report["ok"], report["problems"]


def test_verify_refuses_a_floor_call_that_raises_the_version(services: Services) -> None:
    """A floor call leaves the version as it was: one recorded with version + 1 is a problem."""
    floor.open_floor_call(services, "T1", {"rule_id": "SHOW-04", "note": "miscall"}, DEALER)
    events = [dict(event) for event in _staged(services)]
    events[-1] = seal_again({**events[-1], "version": events[-1]["version"] + 1})
    report = verify(events, services.profiles.version)
    assert [p["seq"] for p in report["problems"]] == [events[-1]["seq"]]
    assert "expected" in report["problems"][0]["why"]


def test_a_floor_call_refuses_an_entry_the_table_accepts(services: Services) -> None:
    """An entry the engine accepts now is no refusal: record it instead."""
    with pytest.raises(InvalidInput):
        floor.open_floor_call(services, "T1", {"entry": {"seat": 1, "action": "call"}}, DEALER)


def test_a_dispute_call_needs_a_rule_and_a_note(services: Services) -> None:
    """Without an entry, a call is a dispute: rule_id and note are required."""
    with pytest.raises(InvalidInput):
        floor.open_floor_call(services, "T1", {"rule_id": "SHOW-04"}, DEALER)
    call = floor.open_floor_call(services, "T1", {"rule_id": "SHOW-04", "note": "miscall"}, FLOOR)
    assert call["status"] == "open" and call["opened_by"] == "floor-anna"
    with pytest.raises(Forbidden):
        floor.open_floor_call(services, "T1", {"rule_id": "SHOW-04", "note": "x"}, AUDITOR)


def test_a_ruling_names_a_call_of_its_own_table_only(services: Services) -> None:
    """A call ID of another table (or none) is NotFound."""
    with pytest.raises(NotFound):
        floor.issue_ruling(services, "T1", {**_kill(), "call_id": "nope"}, FLOOR, NONE)


def test_floor_calls_need_a_store(services: Services) -> None:
    """Without a floor-call store the call is Unavailable (503), not a crash."""
    bare = replace(services, floor_calls=None)
    with pytest.raises(Unavailable):
        floor.list_floor_calls(bare)


def test_options_list_the_catalog_choices() -> None:
    """ruling_options returns the rule's options with custom and discretionary last."""
    options = floor.ruling_options("DRAW-10")["options"]
    assert options[0]["decision"] == "give_card" and options[-1]["decision"] == "discretionary"
