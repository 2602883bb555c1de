"""Floor calls bounded (issue 19 point 9), on the fakes: a call past a limit audits nothing,
a call whose audit event cannot be committed is taken back, an open call expires, and the
list is newest first with each call's wait by the service's clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fakes import FakeClock, FakeTableStore
from floor_fakes import floor_services
from unit.service.test_rulings import ADMIN, DEALER, FLOOR, NONE, SPEC

from dealerassist.errors import Conflict, NotFound
from dealerassist.service import rulings as floor
from dealerassist.service import tables as uc
from dealerassist.service.floor_calls import FloorCallLimits, TooManyFloorCalls
from dealerassist.service.ports import Services

DISPUTE = {"rule_id": "SHOW-04", "note": "miscall"}


@pytest.fixture
def services() -> Services:
    """T1 with three players, hand 1 started and both blinds posted."""
    built = floor_services()
    uc.create_table(built, SPEC, ADMIN, NONE)
    for seat in (1, 2, 3):
        uc.seat_player(built, "T1", seat, f"P{seat}", 100, DEALER, NONE)
    uc.start_hand(built, "T1", 1, DEALER, NONE)
    for seat in (2, 3):
        uc.submit_action(built, "T1", {"seat": seat, "action": "post"}, DEALER, NONE)
    return built


def _bounded(base: Services, **limits: int) -> Services:
    return replace(base, floor_call_limits=FloorCallLimits(**limits))


def test_a_call_past_the_table_s_limit_audits_nothing(services: Services) -> None:
    """Two open at T1 (per_table 2): the third caller is refused and the chain unchanged."""
    bounded = _bounded(services, per_table=2, per_token=10)
    floor.open_floor_call(bounded, "T1", DISPUTE, DEALER)
    floor.open_floor_call(bounded, "T1", DISPUTE, FLOOR)
    assert isinstance(bounded.tables, FakeTableStore)
    staged = len(bounded.tables.staged)
    with pytest.raises(TooManyFloorCalls) as refused:
        floor.open_floor_call(bounded, "T1", DISPUTE, DEALER)
    assert refused.value.scope == "table" and refused.value.retry_after > 0
    assert len(bounded.tables.staged) == staged
    assert floor.list_floor_calls(bounded)["total"] == 2


def test_a_call_whose_audit_event_is_not_committed_is_taken_back(
    services: Services,
) -> None:
    """The table moves under every attempt: the call fails and no reservation is left."""
    assert isinstance(services.tables, FakeTableStore)

    def moved() -> None:
        raise Conflict("the table changed", 1)

    services.tables.before_commit = moved
    with pytest.raises(Conflict):
        floor.open_floor_call(services, "T1", DISPUTE, DEALER)
    services.tables.before_commit = None
    assert floor.list_floor_calls(services)["total"] == 0


def test_an_open_call_expires_and_is_reported_so(services: Services) -> None:
    """Past its ttl a call is off the list and frees its place; read alone it is expired."""
    bounded = _bounded(services, per_table=1, per_token=10, ttl_seconds=600)
    call = floor.open_floor_call(bounded, "T1", DISPUTE, DEALER)
    assert floor.floor_call(bounded, call["call_id"])["status"] == "open"
    assert isinstance(bounded.clock, FakeClock)
    bounded.clock.at += timedelta(seconds=601)
    assert floor.list_floor_calls(bounded)["total"] == 0
    assert floor.floor_call(bounded, call["call_id"])["status"] == "expired"
    floor.open_floor_call(bounded, "T1", DISPUTE, DEALER)  # the place is free again
    with pytest.raises(NotFound):
        floor.floor_call(bounded, "nope")


def test_open_calls_are_listed_newest_first_with_their_wait(services: Services) -> None:
    """Newest first; each call's wait is by the service's clock; the list leaves out the
    table view and the hand's entries, which the call read alone has."""
    first = floor.open_floor_call(services, "T1", DISPUTE, DEALER)
    second = floor.open_floor_call(services, "T1", DISPUTE, FLOOR)
    assert isinstance(services.clock, FakeClock)
    services.clock.at += timedelta(seconds=30)
    listed = floor.list_floor_calls(services)
    assert [c["call_id"] for c in listed["calls"]] == [second["call_id"], first["call_id"]]
    assert all(30 <= c["waited_seconds"] <= 31 for c in listed["calls"])
    assert "table" not in listed["calls"][0] and "actions" not in listed["calls"][0]
    whole = floor.floor_call(services, first["call_id"])
    assert [a["command"]["type"] for a in whole["actions"]] == ["start_hand", "action", "action"]
