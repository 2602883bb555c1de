"""Audit reads over fakes: export order, one hand, verify by replay."""

from __future__ import annotations

import pytest
from fakes import FakeAuditStore, FakeTableStore, fake_services

from dealerassist.errors import NotFound, Unavailable
from dealerassist.rules.house_rules import HouseRules
from dealerassist.service import audit, tables
from dealerassist.service.ports import Services
from dealerassist.service.tables import Actor, Preconditions

SPEC = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile_id": "test",
}


@pytest.fixture
def services() -> Services:
    built = fake_services({"test": HouseRules(profile_id="test", sha256="cd" * 32)})
    tables.create_table(built, SPEC, Actor("a", "admin"), Preconditions())
    tables.seat_player(built, "T1", 1, "A", 10, Actor("d", "dealer"), Preconditions())
    tables.submit_action(
        built, "T1", {"seat": 1, "action": "fold"}, Actor("d", "dealer"), Preconditions()
    )
    store = built.audit_store
    assert isinstance(store, FakeAuditStore) and isinstance(built.tables, FakeTableStore)
    store.events.extend(built.tables.staged)
    return built


def test_events_come_in_seq_order(services: Services) -> None:
    """The export yields the staged events of the table in seq order."""
    seqs = [event["seq"] for event in audit.audit_events(services, "T1")]
    assert seqs == [1, 2, 3]


def test_verify_replays_the_staged_chain(services: Services) -> None:
    """What the service sealed verifies: hashes, links and the engine replay agree."""
    report = audit.verify_log(services, "T1")
    assert report["ok"] is True, report["problems"]
    assert report["events"] == 3


def test_verify_finds_a_tampered_event(services: Services) -> None:
    """Changing a stored payload is reported as a problem."""
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    store.events[1]["payload"]["command"]["stack"] = 1000
    assert audit.verify_log(services, "T1")["ok"] is False


def test_missing_hand_is_not_found(services: Services) -> None:
    """A hand the store does not hold raises NotFound."""
    with pytest.raises(NotFound):
        audit.audit_hand(services, "T1", 1)


def test_store_down_is_unavailable_before_streaming(services: Services) -> None:
    """An unreachable store raises Unavailable when the export is asked for."""
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    store.down = True
    with pytest.raises(Unavailable):
        audit.audit_events(services)
