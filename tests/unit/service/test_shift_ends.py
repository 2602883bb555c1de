"""The two ends of a shift nobody signed out of (service.shifts over fakes, a fake clock):
a session that ran out its 12 hours is recorded by the expiry sweep at its true time, and
the floor ends one named dealer's shift."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from fakes import FakeClock, FakeShiftStore, FakeTableStore, draw_table, fake_services

from dealerassist.audit.envelope import DEALER_ON_DUTY, format_at, parse_at
from dealerassist.errors import NotFound
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service import shifts
from dealerassist.service import tables as uc
from dealerassist.service.ports import Services
from dealerassist.service.shifts import Shift, ShiftEndReason, ShiftLimits
from dealerassist.service.tables import Actor, Preconditions

ADMIN = Actor("boss", "admin")
FLOOR = Actor("floor-anna", "floor")
PIN = "4821"


@pytest.fixture
def services() -> Services:
    built = fake_services({"test": HouseRules(profile_id="test", sha256="ab" * 32)})
    built = replace(built, shifts=FakeShiftStore(), shift_limits=ShiftLimits(scrypt_n=2**4))
    for table_id in ("T1", "T2"):
        uc.create_table(built, draw_table(table_id), ADMIN, Preconditions())
    for employee_id, name in (("E1", "Ada Lee"), ("E2", "Ben Ortiz")):
        shifts.set_dealer(built, employee_id, name, PIN)
    return built


def _clock(services: Services) -> FakeClock:
    assert isinstance(services.clock, FakeClock)
    return services.clock


def _tables(services: Services) -> FakeTableStore:
    assert isinstance(services.tables, FakeTableStore)
    return services.tables


def _tablet(services: Services, tables: list[str], name: str = "Tablet A") -> shifts.Tablet:
    code = shifts.register_tablet(services, name, tables)["pairing_code"]
    credential = shifts.pair_tablet(services, code)["credential"]
    tablet = shifts.tablet_for_credential(services, credential)
    assert tablet is not None
    return tablet


def _sign_in(services: Services, tablet: shifts.Tablet, table_id: str, who: str) -> Shift:
    return shifts.sign_in(services, tablet, table_id, who, PIN)[1]


def _duty(services: Services, table_id: str) -> list[dict[str, Any]]:
    """The table's dealer_on_duty events staged so far, oldest first."""
    staged = _tables(services).staged
    return [e for e in staged if e["table_id"] == table_id and e["kind"] == DEALER_ON_DUTY]


def _on_duty(services: Services, table_id: str) -> str | None:
    record = services.tables.load(table_id)
    assert record is not None
    return record.head.dealer


def test_a_session_that_ran_out_is_signed_out_at_the_moment_it_expired(
    services: Services,
) -> None:
    """Nothing is due before the 12th hour; a sweep an hour after it clears the dealer at
    his table with one dealer_on_duty event dated at the session's end (reason expired,
    noticed_at the sweep's time, the expiry's actor), linked into the chain; a second
    sweep records nothing more."""
    shift = _sign_in(services, _tablet(services, ["T1"]), "T1", "E1")
    _clock(services).at += timedelta(hours=11, minutes=59)
    assert shifts.expire_shifts(services) == shifts.Expiries()
    assert _on_duty(services, "T1") == "E1"
    _clock(services).at += timedelta(hours=1, minutes=1)
    swept = shifts.expire_shifts(services)
    assert swept.recorded == (shift,) and not swept.skipped and not swept.failed
    *_, signed_in, expired = _duty(services, "T1")
    assert expired["at"] == shift.expires_at == format_at(parse_at(shift.started_at)
                                                          + timedelta(hours=12))  # fmt: skip
    assert parse_at(expired["payload"]["noticed_at"]) > parse_at(expired["at"])
    assert expired["payload"] | {"noticed_at": None} == {
        "employee_id": None, "name": None, "previous": "E1", "reason": "expired",
        "tablet_id": shift.tablet_id, "noticed_at": None,
    }  # fmt: skip
    assert (expired["actor"], expired["role"]) == ("shift-expiry", "system")
    assert expired["dealer"] is None
    assert expired["prev_hash"] == _tables(services).staged[-2]["hash"]
    assert signed_in["dealer"] == "E1"
    assert _on_duty(services, "T1") is None
    assert shifts.expire_shifts(services) == shifts.Expiries()
    assert len(_duty(services, "T1")) == 2


def test_two_sweeps_that_saw_the_same_expiry_record_it_once(services: Services) -> None:
    """A second worker that read the due sessions before the first recorded them: its
    commit finds the dealer no longer on duty and records nothing."""
    shift = _sign_in(services, _tablet(services, ["T1"]), "T1", "E1")
    _clock(services).at += timedelta(hours=12, seconds=1)
    store = services.shifts
    assert isinstance(store, FakeShiftStore)
    seen_by_second = store.due_shifts(services.clock.now(), 10)
    assert shifts.expire_shifts(services).recorded == (shift,)
    store.expiring[shift.token_sha256] = seen_by_second[0]  # as the second still sees it
    assert shifts.expire_shifts(services).skipped == (shift,)
    assert [e["payload"]["reason"] for e in _duty(services, "T1")] == ["sign_in", "expired"]


def test_a_dealer_who_signed_in_again_is_not_signed_out_by_his_old_session(
    services: Services,
) -> None:
    """E1's session at T1 ran out with no worker running and he signed in at T1 again: the
    late sweep leaves him on duty. His session at T2 ran out and he signed in at T1 since:
    T2 still named him, so the sweep clears him there (not at T1)."""
    tablet = _tablet(services, ["T1", "T2"])
    _sign_in(services, tablet, "T1", "E1")
    _clock(services).at += timedelta(hours=12, seconds=1)
    store = services.shifts
    assert isinstance(store, FakeShiftStore)
    store.shifts.clear()  # the sessions' own keys are gone at their end (Redis's TTL)
    other = _tablet(services, ["T1"], "Tablet B")
    _sign_in(services, other, "T1", "E1")
    assert not shifts.expire_shifts(services).recorded
    assert _on_duty(services, "T1") == "E1"
    assert [e["payload"]["reason"] for e in _duty(services, "T1")] == ["sign_in", "sign_in"]
    _sign_in(services, tablet, "T2", "E1")  # signed out at T1 (signed_in_elsewhere)
    _clock(services).at += timedelta(hours=12, seconds=1)
    store.shifts.clear()
    _sign_in(services, other, "T1", "E1")
    swept = shifts.expire_shifts(services)
    assert [s.table_id for s in swept.recorded] == ["T2"]
    assert (_on_duty(services, "T1"), _on_duty(services, "T2")) == ("E1", None)


def test_a_session_that_ended_early_has_no_expiry_to_record(services: Services) -> None:
    """Signed out, pushed or moved: the sweep at the 12th hour records only what is still
    due: the pushed dealer's successor is left on duty at the table he moved to."""
    tablet = _tablet(services, ["T1", "T2"])
    first = _sign_in(services, tablet, "T1", "E1")
    shifts.sign_out(services, first)
    pushed = _sign_in(services, tablet, "T1", "E1")
    second = _sign_in(services, tablet, "T1", "E2")
    moved = shifts.take_table(services, second, "T2")
    _clock(services).at += timedelta(hours=12, seconds=1)
    swept = shifts.expire_shifts(services)
    assert swept.recorded == (moved,) and pushed not in swept.skipped
    assert (_on_duty(services, "T1"), _on_duty(services, "T2")) == (None, None)
    assert _duty(services, "T2")[-1]["payload"]["previous"] == "E2"


def test_an_expiry_the_table_store_refuses_stays_due(services: Services) -> None:
    """The table store down: the sweep says which it could not record, and the next sweep
    records it, still dated at the session's end."""
    shift = _sign_in(services, _tablet(services, ["T1"]), "T1", "E1")
    _clock(services).at += timedelta(hours=12, seconds=1)
    _tables(services).down = True
    swept = shifts.expire_shifts(services)
    assert [s for s, _why in swept.failed] == [shift] and "down" in swept.failed[0][1]
    _tables(services).down = False
    _clock(services).at += timedelta(minutes=5)
    assert shifts.expire_shifts(services).recorded == (shift,)
    assert _duty(services, "T1")[-1]["at"] == shift.expires_at


def test_the_floor_ends_a_named_dealers_shift(services: Services) -> None:
    """The floor signs E1 out at his table: a dealer_on_duty event naming the floor
    actor, reason ended_by_floor; his token's session is over, saying so; nothing is left
    for the expiry sweep. He is then not signed in: NotFound, as for an unknown ID."""
    shift = _sign_in(services, _tablet(services, ["T1"]), "T1", "E1")
    assert shifts.end_shift_by_floor(services, "E1", FLOOR) == shift
    event = _duty(services, "T1")[-1]
    assert (event["actor"], event["role"], event["dealer"]) == ("floor-anna", "floor", None)
    assert event["payload"]["reason"] == "ended_by_floor" and event["payload"]["previous"] == "E1"
    store = services.shifts
    assert isinstance(store, FakeShiftStore)
    ended = store.shift_end(shift.token_sha256)
    assert ended is not None and ended.reason is ShiftEndReason.ENDED_BY_FLOOR
    assert ended.words().english() == "the floor (floor-anna) ended this shift"
    assert store.get_shift(shift.token_sha256) is None
    _clock(services).at += timedelta(hours=12, seconds=1)
    assert shifts.expire_shifts(services) == shifts.Expiries()
    for employee_id in ("E1", "E9", "not an id"):
        with pytest.raises(NotFound):
            shifts.end_shift_by_floor(services, employee_id, FLOOR)


def test_the_floor_ends_only_shifts_at_its_tables_and_only_live_ones(
    services: Services,
) -> None:
    """A floor allowed only at T2 is told E1 at T1 is not signed in, the same NotFound as
    for an unknown ID (not even that he is), and nothing is recorded; a session that ran
    out is not signed in (NotFound: the sweep records it)."""
    _sign_in(services, _tablet(services, ["T1"]), "T1", "E1")
    at_t2 = lambda table_id: table_id == "T2"  # noqa: E731
    with pytest.raises(NotFound) as scoped:
        shifts.end_shift_by_floor(services, "E1", FLOOR, at_t2)
    with pytest.raises(NotFound) as unknown:
        shifts.end_shift_by_floor(services, "E1" + "0", FLOOR, at_t2)
    assert str(scoped.value) == str(unknown.value).replace("E10", "E1")
    assert _on_duty(services, "T1") == "E1"
    _clock(services).at += timedelta(hours=12)
    with pytest.raises(NotFound):
        shifts.end_shift_by_floor(services, "E1", FLOOR)
