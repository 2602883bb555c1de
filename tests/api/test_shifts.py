"""Registered tablets, dealers' PINs and shift sessions (issue 18: the dealer signs in once
per shift on a tablet registered to a table, and every audit event names the dealer on
duty by employee ID)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
import redis
from fakes import FakeClock
from flask import Flask
from werkzeug.test import TestResponse

from api.conftest import Api, token_book
from dealerassist.api import create_app
from dealerassist.service.ports import Services
from dealerassist.service.shifts import ShiftLimits
from dealerassist.settings import Settings
from dealerassist.worker import ShiftExpiry, WorkerDuties, run_worker

PIN = "4821"
LIMITS = ShiftLimits(max_pin_failures=3, scrypt_n=2**4)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def shift_app(settings: Settings, services: Services, clock: FakeClock) -> Flask:
    """The app with a clock the test moves and cheap PIN hashes (the lockout after 3)."""
    wired = replace(services, clock=clock, shift_limits=LIMITS)
    return create_app({"SETTINGS": settings, "SERVICES": wired, "TOKENS": token_book()})


@pytest.fixture
def api(shift_app: Flask) -> Api:
    return Api(shift_app.test_client())


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


class Room:
    """Tables T1..T3, dealers E1 and E2, and helpers to register and sign in."""

    def __init__(self, api: Api) -> None:
        self.api = api
        for table_id in ("T1", "T2", "T3"):
            assert api.create_table(table_id=table_id).status_code == 201
        for employee_id, name in (("E1", "Ada Lee"), ("E2", "Ben Ortiz")):
            answer = self.admin("PUT", f"/v1/dealers/{employee_id}", {"name": name, "pin": PIN})
            assert answer.status_code == 201, answer.get_json()

    def admin(self, method: str, path: str, body: Any = None) -> TestResponse:
        return self.api.call(method, path, "admin", body)

    def tablet(self, tables: list[str], name: str = "Tablet A") -> str:
        """Register and pair a tablet; its device credential."""
        registered = self.admin("POST", "/v1/tablets", {"name": name, "tables": tables})
        assert registered.status_code == 201, registered.get_json()
        code = registered.get_json()["pairing_code"]
        paired = self.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": code})
        assert paired.status_code == 200, paired.get_json()
        return str(paired.get_json()["credential"])

    def sign_in(self, credential: str, table_id: str, employee_id: str, pin: str = PIN) -> Any:
        body = {"table_id": table_id, "employee_id": employee_id, "pin": pin}
        return self.api.call("POST", "/v1/tablet/sign-in", None, body, headers=_bearer(credential))

    def session(self, credential: str, table_id: str, employee_id: str) -> str:
        answer = self.sign_in(credential, table_id, employee_id)
        assert answer.status_code == 200, answer.get_json()
        return str(answer.get_json()["token"])

    def as_(self, token: str, method: str, path: str, body: Any = None) -> TestResponse:
        return self.api.call(method, path, None, body, headers=_bearer(token))


@pytest.fixture
def room(api: Api) -> Room:
    return Room(api)


def _events(api: Api, settings: Settings, table_id: str) -> list[dict[str, Any]]:
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    text = api.call("GET", f"/v1/audit/events?table_id={table_id}", "auditor").get_data(True)
    return [json.loads(line) for line in text.splitlines()]


def _verified(api: Api, table_id: str) -> None:
    report = api.call("GET", f"/v1/audit/verify?table_id={table_id}", "auditor").get_json()
    assert report["ok"] is True, report["problems"]


def _problem(response: TestResponse, status: int, code: str) -> None:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == code


def test_a_dealer_signs_in_once_and_every_event_names_him(
    api: Api, room: Room, settings: Settings
) -> None:
    """Register, pair, sign in at T1: the shift session seats players, starts a hand and
    acts; the device credential alone records nothing; the sign-in and every later event
    of T1 name E1 (envelope 2), and the chain verifies with replay."""
    credential = room.tablet(["T1", "T2"])
    seat = {"player": "Ann", "stack": 100}
    refused = room.as_(credential, "PUT", "/v1/tables/T1/seats/1", seat)
    assert refused.status_code == 403  # a tablet's credential is no dealer
    status = room.as_(credential, "GET", "/v1/tablet").get_json()
    assert status["tables"] == ["T1", "T2"] and status["on_duty"] == {"T1": None, "T2": None}
    answer = room.sign_in(credential, "T1", "E1")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    shift = answer.get_json()
    assert (shift["employee_id"], shift["name"], shift["table_id"]) == ("E1", "Ada Lee", "T1")
    token = shift["token"]
    for number, player in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        seated = room.as_(token, "PUT", f"/v1/tables/T1/seats/{number}", {"player": player})
        assert seated.status_code == 400  # the schema still applies (no stack)
        body = {"player": player, "stack": 100}
        assert room.as_(token, "PUT", f"/v1/tables/T1/seats/{number}", body).status_code == 200
    assert room.as_(token, "POST", "/v1/tables/T1/hands", {"button": 1}).status_code == 200
    assert (
        room.as_(token, "POST", "/v1/tables/T1/actions", {"seat": 2, "action": "post"}).status_code
        == 200
    )
    refusal = room.as_(token, "POST", "/v1/tables/T1/actions", {"seat": 1, "action": "post"})
    assert refusal.status_code == 409  # audited, naming the dealer too
    assert room.as_(token, "GET", "/v1/shift").get_json()["employee_id"] == "E1"
    events = _events(api, settings, "T1")
    sign_in = next(i for i, e in enumerate(events) if e["kind"] == "dealer_on_duty")
    assert events[sign_in]["payload"]["employee_id"] == "E1"
    assert events[sign_in]["payload"]["reason"] == "sign_in"
    assert all(e["envelope"] == 2 for e in events)
    assert [e["dealer"] for e in events[:sign_in]] == [None] * sign_in
    after = events[sign_in:]
    assert {e["dealer"] for e in after} == {"E1"}
    assert {e["kind"] for e in after} >= {"seat", "start_hand", "action", "rejected"}
    assert all(e["actor"].startswith("tablet:") for e in after)
    _verified(api, "T1")


def test_scope_the_shift_acts_only_at_the_registrations_tables(room: Room) -> None:
    """A session of a tablet registered to T1 and T2 is 403 at T3, before and after the
    tablet moves to T2; moving to T3 is refused; signing in at T3 is refused."""
    credential = room.tablet(["T1", "T2"])
    token = room.session(credential, "T1", "E1")
    body = {"player": "Ann", "stack": 100}
    assert room.as_(token, "PUT", "/v1/tables/T3/seats/1", body).status_code == 403
    assert room.as_(token, "POST", "/v1/shift/table", {"table_id": "T3"}).status_code == 403
    assert room.sign_in(credential, "T3", "E1").status_code == 403
    assert room.as_(token, "POST", "/v1/shift/table", {"table_id": "T2"}).status_code == 200
    assert room.as_(token, "PUT", "/v1/tables/T3/seats/1", body).status_code == 403


def test_a_wrong_pin_is_401_and_three_lock_the_dealer_out(
    api: Api, room: Room, settings: Settings
) -> None:
    """A wrong PIN is a 401 problem with code wrong_pin, an unknown employee the same
    answer; the third wrong PIN locks E1 out (429, pin_locked, Retry-After), and then even
    the right PIN is refused; each failure and the lockout are audited at T1; the admin's
    new PIN lifts the lockout."""
    credential = room.tablet(["T1"])
    _problem(room.sign_in(credential, "T1", "E1", "1111"), 401, "wrong_pin")
    _problem(room.sign_in(credential, "T1", "NOBODY", PIN), 401, "wrong_pin")
    _problem(room.sign_in(credential, "T1", "E1", "2222"), 401, "wrong_pin")
    locked = room.sign_in(credential, "T1", "E1", "3333")
    _problem(locked, 429, "pin_locked")
    assert int(locked.headers["Retry-After"]) > 0
    _problem(room.sign_in(credential, "T1", "E1", PIN), 429, "pin_locked")
    assert room.sign_in(credential, "T1", "E2").status_code == 200  # E2 is not locked
    events = [e for e in _events(api, settings, "T1") if e["kind"] == "sign_in_refused"]
    reasons = [(e["payload"]["employee_id"], e["payload"]["reason"]) for e in events]
    assert reasons == [
        ("E1", "wrong_pin"),
        ("NOBODY", "unknown_employee"),
        ("E1", "wrong_pin"),
        ("E1", "locked_out"),
    ]
    assert "pin" not in json.dumps([e["payload"] for e in events]).replace("wrong_pin", "")
    listed = room.admin("GET", "/v1/dealers").get_json()["dealers"]
    assert next(d for d in listed if d["employee_id"] == "E1")["locked_for_seconds"] > 0
    assert "pin_hash" not in json.dumps(listed)
    reset = room.admin("PUT", "/v1/dealers/E1", {"name": "Ada Lee", "pin": "9090"})
    assert reset.status_code == 200
    assert room.sign_in(credential, "T1", "E1", "9090").status_code == 200
    _verified(api, "T1")


def test_a_push_names_the_next_dealer_from_the_next_event(
    api: Api, room: Room, settings: Settings
) -> None:
    """E2 pushes E1 out at T1 on the same tablet: E1's session ends (401); the push is one
    dealer_on_duty event naming E1 as previous; every event before it names E1, every one
    after it E2. A second tablet at T1: E1 signing in there pushes E2, whose session on the
    first tablet is then 403 not_on_duty."""
    credential = room.tablet(["T1"])
    first = room.session(credential, "T1", "E1")
    seat = {"player": "Ann", "stack": 100}
    assert room.as_(first, "PUT", "/v1/tables/T1/seats/1", seat).status_code == 200
    second = room.session(credential, "T1", "E2")
    assert room.as_(first, "GET", "/v1/shift").status_code == 401
    assert (
        room.as_(second, "PUT", "/v1/tables/T1/seats/2", seat | {"player": "Bo"}).status_code == 200
    )
    other = room.tablet(["T1"], name="Tablet B")
    room.session(other, "T1", "E1")
    _problem(
        room.as_(second, "PUT", "/v1/tables/T1/seats/3", seat | {"player": "Cy"}),
        403,
        "not_on_duty",
    )
    events = _events(api, settings, "T1")
    duty = [(e["dealer"], e["payload"]["previous"], e["payload"]["reason"])
            for e in events if e["kind"] == "dealer_on_duty"]  # fmt: skip
    assert duty == [("E1", None, "sign_in"), ("E2", "E1", "sign_in"), ("E1", "E2", "sign_in")]
    seats = [e for e in events if e["kind"] == "seat"]
    assert [e["dealer"] for e in seats] == ["E1", "E2"]
    _verified(api, "T1")


def test_the_tablet_moves_within_its_bank_without_a_new_sign_in(
    api: Api, room: Room, settings: Settings
) -> None:
    """POST /v1/shift/table: E1 is signed out at T1 (reason table_change) and on duty at
    T2 with the same token; at T1 he is then not on duty (403 not_on_duty)."""
    credential = room.tablet(["T1", "T2"])
    token = room.session(credential, "T1", "E1")
    moved = room.as_(token, "POST", "/v1/shift/table", {"table_id": "T2"})
    assert moved.status_code == 200 and moved.get_json()["table_id"] == "T2"
    seat = {"player": "Ann", "stack": 100}
    assert room.as_(token, "PUT", "/v1/tables/T2/seats/1", seat).status_code == 200
    _problem(room.as_(token, "PUT", "/v1/tables/T1/seats/1", seat), 403, "not_on_duty")
    status = room.as_(credential, "GET", "/v1/tablet").get_json()
    assert status["on_duty"] == {"T1": None, "T2": "E1"}
    left = [e for e in _events(api, settings, "T1") if e["kind"] == "dealer_on_duty"]
    assert [(e["dealer"], e["payload"]["reason"]) for e in left] == [
        ("E1", "sign_in"),
        (None, "table_change"),
    ]
    _verified(api, "T1")
    _verified(api, "T2")


def test_a_shift_expires_signs_out_and_ends_with_the_tablets_revocation(
    api: Api, room: Room, clock: FakeClock, settings: Settings
) -> None:
    """A session is over after 12 hours (401); sign-out ends one at once (204, audited);
    a revoked tablet's credential and session are 401 and its dealer is signed out by the
    admin; a pairing code works once."""
    credential = room.tablet(["T1"])
    token = room.session(credential, "T1", "E1")
    clock.at += timedelta(hours=12, seconds=1)
    assert room.as_(token, "GET", "/v1/shift").status_code == 401
    token = room.session(credential, "T1", "E1")
    assert room.as_(token, "POST", "/v1/shift/sign-out").status_code == 204
    assert room.as_(token, "GET", "/v1/shift").status_code == 401
    token = room.session(credential, "T1", "E2")
    tablets = room.admin("GET", "/v1/tablets").get_json()["tablets"]
    assert tablets[0]["shift"]["employee_id"] == "E2"
    assert "credential" not in json.dumps(tablets)
    assert room.admin("DELETE", f"/v1/tablets/{tablets[0]['tablet_id']}").status_code == 204
    assert room.as_(token, "GET", "/v1/shift").status_code == 401
    assert room.as_(credential, "GET", "/v1/tablet").status_code == 401
    events = [e for e in _events(api, settings, "T1") if e["kind"] == "dealer_on_duty"]
    assert [(e["dealer"], e["payload"]["reason"], e["actor"]) for e in events][-2:] == [
        ("E2", "sign_in", f"tablet:{tablets[0]['tablet_id']}"),
        (None, "tablet_revoked", "admin"),
    ]
    _verified(api, "T1")


def test_a_pairing_code_is_single_use_and_only_admins_register(room: Room) -> None:
    """The code trades once (then 401 bad_pairing_code); a dealer may not register a tablet
    or set a PIN; an unknown table is a 400."""
    registered = room.admin("POST", "/v1/tablets", {"name": "A", "tables": ["T1"]}).get_json()
    code = registered["pairing_code"]
    assert (
        room.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": code}).status_code == 200
    )
    again = room.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": code})
    _problem(again, 401, "bad_pairing_code")
    assert (
        room.api.call("POST", "/v1/tablets", "dealer", {"name": "B", "tables": ["T1"]}).status_code
        == 403
    )
    assert (
        room.api.call("PUT", "/v1/dealers/E9", "floor", {"name": "X", "pin": PIN}).status_code
        == 403
    )
    assert room.admin("POST", "/v1/tablets", {"name": "C", "tables": ["T9"]}).status_code == 400
    assert room.admin("PUT", "/v1/dealers/E9", {"name": "X", "pin": "12a4"}).status_code == 400


def test_the_phh_export_and_the_collection_report_name_the_dealers(
    api: Api, room: Room, settings: Settings
) -> None:
    """Hand 1 started by E1, E2 pushes in mid-hand and finishes it; hand 2 is E2's. The
    PHH of hand 1 says ``_dealers = ["E1", "E2"]``, of hand 2 ``["E2"]``; the collection
    report counts hand 1 for E1 (on duty at its start) and hand 2 for E2, by employee ID."""
    credential = room.tablet(["T1"])
    first = room.session(credential, "T1", "E1")
    for number, player in ((1, "Ann"), (2, "Bob")):
        body = {"player": player, "stack": 100}
        assert room.as_(first, "PUT", f"/v1/tables/T1/seats/{number}", body).status_code == 200
    assert room.as_(first, "POST", "/v1/tables/T1/hands", {"button": 1}).status_code == 200
    act = {"seat": 1, "action": "post"}  # heads-up: the button posts the small blind
    assert room.as_(first, "POST", "/v1/tables/T1/actions", act).status_code == 200
    second = room.session(credential, "T1", "E2")
    for entry in ({"seat": 2, "action": "post"}, {"seat": 1, "action": "fold"}):
        answer = room.as_(second, "POST", "/v1/tables/T1/actions", entry)
        assert answer.status_code == 200, answer.get_json()
    assert room.as_(second, "POST", "/v1/tables/T1/hands", {}).status_code == 200
    for entry in ({"seat": 2, "action": "post"}, {"seat": 1, "action": "post"}):
        assert room.as_(second, "POST", "/v1/tables/T1/actions", entry).status_code == 200
    assert (
        room.as_(second, "POST", "/v1/tables/T1/actions", {"seat": 2, "action": "fold"}).status_code
        == 200
    )
    events = _events(api, settings, "T1")
    hand1 = [e["dealer"] for e in events if e["hand_no"] == 1]
    assert hand1[:2] == ["E1", "E1"] and hand1[-1] == "E2"
    phh = {
        hand: api.call("GET", f"/v1/audit/hands/T1/{hand}?format=phh", "auditor").get_data(True)
        for hand in (1, 2)
    }
    assert '_dealers = ["E1", "E2"]' in phh[1]
    assert '_dealers = ["E2"]' in phh[2]
    report = api.call("GET", "/v1/audit/collections?table_id=T1", "auditor").get_json()
    assert {name: row["hands"] for name, row in report["by_dealer"].items()} == {"E1": 1, "E2": 1}
    _verified(api, "T1")


def test_the_floor_s_tables_name_the_dealer_on_duty_from_his_shift(
    api: Api, room: Room, clock: FakeClock, settings: Settings
) -> None:
    """GET /v1/floor/tables names each table's dealer on duty with employee ID and name:
    E1 at T1 after his sign-in, E2 after the push, nobody at T2 or after the sign-out; a
    session that expired without a sign-out still names him (the chain does), on_shift
    false, his name from the dealer's record."""

    def on_duty() -> dict[str, Any]:
        answer = room.admin("GET", "/v1/floor/tables")
        assert answer.status_code == 200, answer.get_json()
        floor = room.api.call("GET", "/v1/floor/tables", "floor").get_json()
        assert floor == answer.get_json() | {"now": floor["now"]}
        return {t["table_id"]: t["dealer"] for t in floor["tables"]}

    _events(api, settings, "T1")  # the tables' first events stored: the floor lists them
    assert on_duty() == {"T1": None, "T2": None, "T3": None}
    credential = room.tablet(["T1", "T2"])
    tablet_id = room.admin("GET", "/v1/tablets").get_json()["tablets"][0]["tablet_id"]
    first = room.session(credential, "T1", "E1")
    shift = room.as_(first, "GET", "/v1/shift").get_json()
    assert on_duty()["T1"] == {
        "employee_id": "E1",
        "name": "Ada Lee",
        "on_shift": True,
        "tablet_id": tablet_id,
        "shift_expires_at": shift["expires_at"],
    }
    second = room.session(credential, "T1", "E2")
    found = on_duty()
    assert (found["T1"]["employee_id"], found["T1"]["name"]) == ("E2", "Ben Ortiz")
    assert found["T2"] is None
    assert room.as_(second, "POST", "/v1/shift/table", {"table_id": "T2"}).status_code == 200
    found = on_duty()
    assert found["T1"] is None and found["T2"]["employee_id"] == "E2"
    assert room.as_(second, "POST", "/v1/shift/sign-out").status_code == 204
    assert on_duty()["T2"] is None
    room.session(credential, "T2", "E1")
    clock.at += timedelta(hours=12, seconds=1)
    assert on_duty()["T2"] == {
        "employee_id": "E1",
        "name": "Ada Lee",
        "on_shift": False,
        "tablet_id": None,
        "shift_expires_at": None,
    }


def test_a_session_ended_early_answers_401_shift_ended_saying_why(
    room: Room, clock: FakeClock
) -> None:
    """The token of a session that was ended is 401 shift_ended with the reason: the next
    dealer's push names him, a sign-in on another tablet names that tablet, then a sign-out
    and a revocation; one that only ran out its 12 hours is a plain 401."""

    def ended(token: str) -> dict[str, Any]:
        answer = room.as_(token, "GET", "/v1/tables/T1")
        _problem(answer, 401, "shift_ended")
        body = answer.get_json()
        return {key: body[key] for key in ("reason", "by_employee_id", "by_name", "by_tablet")}

    credential = room.tablet(["T1"])
    first = room.session(credential, "T1", "E1")
    second = room.session(credential, "T1", "E2")
    assert ended(first) == {"reason": "pushed", "by_employee_id": "E2", "by_name": "Ben Ortiz",
                            "by_tablet": None}  # fmt: skip
    detail = room.as_(first, "GET", "/v1/shift").get_json()["detail"]
    assert "Ben Ortiz (E2) signed in as the next dealer" in detail
    other = room.tablet(["T1"], name="Tablet B")
    room.session(other, "T1", "E2")
    assert ended(second) == {"reason": "signed_in_elsewhere", "by_employee_id": None,
                             "by_name": None, "by_tablet": "Tablet B"}  # fmt: skip
    third = room.session(credential, "T1", "E1")
    assert room.as_(third, "POST", "/v1/shift/sign-out").status_code == 204
    assert ended(third)["reason"] == "sign_out"
    fourth = room.session(credential, "T1", "E1")
    tablet_id = room.as_(fourth, "GET", "/v1/shift").get_json()["tablet_id"]
    assert room.admin("DELETE", f"/v1/tablets/{tablet_id}").status_code == 204
    assert ended(fourth)["reason"] == "tablet_revoked"
    fifth = room.session(other, "T1", "E1")
    clock.at += timedelta(hours=12, seconds=1)
    expired = room.as_(fifth, "GET", "/v1/tables/T1")
    assert expired.status_code == 401 and expired.get_json().get("code") is None


def test_the_floor_ends_a_named_dealers_shift(api: Api, room: Room, settings: Settings) -> None:
    """POST /v1/floor/dealers/{id}/sign-out: a dealer's token, his own session and an
    auditor are 403, a floor token of another table 404 (not even that he is signed in),
    and nothing changes; the floor token of his table signs him out (204), audited under it
    with reason ended_by_floor, and his session is 401 shift_ended saying so; then he, and
    an unknown ID, are 404 problem+json; an admin ends E2's at T2; the chains verify."""
    token = room.session(room.tablet(["T1"]), "T1", "E1")
    path = "/v1/floor/dealers/E1/sign-out"
    refusals = [api.call("POST", path, who) for who in ("dealer", "auditor")]
    for refused in [*refusals, room.as_(token, "POST", path)]:
        assert refused.status_code == 403 and refused.mimetype == "application/problem+json"
    elsewhere = api.call("POST", path, "floor@T2")
    assert elsewhere.status_code == 404 and elsewhere.mimetype == "application/problem+json"
    assert room.as_(token, "GET", "/v1/shift").status_code == 200
    assert api.call("POST", path, "floor@T1").status_code == 204
    ended = room.as_(token, "GET", "/v1/tables/T1")
    _problem(ended, 401, "shift_ended")
    assert ended.get_json()["reason"] == "ended_by_floor"
    assert "the floor (floor@T1) ended this shift" in ended.get_json()["detail"]
    for employee_id in ("E1", "E9"):
        missing = api.call("POST", f"/v1/floor/dealers/{employee_id}/sign-out", "floor")
        assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
        assert "not signed in" in missing.get_json()["detail"]
    room.session(room.tablet(["T2"], "Tablet B"), "T2", "E2")
    assert api.call("POST", "/v1/floor/dealers/E2/sign-out", "admin").status_code == 204
    for table_id, actor, role in (("T1", "floor@T1", "floor"), ("T2", "admin", "admin")):
        *_, last = [e for e in _events(api, settings, table_id) if e["kind"] == "dealer_on_duty"]
        assert (last["dealer"], last["actor"], last["role"]) == (None, actor, role)
        assert last["payload"]["reason"] == "ended_by_floor"
        _verified(api, table_id)


def test_the_workers_duties_sign_out_a_dealer_whose_session_ran_out(
    api: Api, room: Room, clock: FakeClock, services: Services, settings: Settings
) -> None:
    """The audit worker's duties with a clock the test moves: at the 12th hour less a
    second a step records nothing; past it one step signs E1 out at T1, dated at his
    session's end, and the floor's tables name nobody there; the chain verifies."""
    _events(api, settings, "T1")  # the tables' first events stored: the floor lists them
    token = room.session(room.tablet(["T1"]), "T1", "E1")
    shift = room.as_(token, "GET", "/v1/shift").get_json()
    wired = replace(services, clock=clock, shift_limits=LIMITS)
    assert settings.redis_url is not None
    connection = redis.Redis.from_url(settings.redis_url)
    duties = WorkerDuties(connection, "audit", "shift-test", expiries=ShiftExpiry(lambda: wired))

    def on_duty() -> Any:
        tables = room.api.call("GET", "/v1/floor/tables", "floor").get_json()["tables"]
        return {t["table_id"]: t["dealer"] for t in tables}["T1"]

    try:
        clock.at += timedelta(hours=11, minutes=59, seconds=59)
        duties.step()
        assert on_duty()["employee_id"] == "E1"
        clock.at += timedelta(seconds=2)
        duties.step()
        assert on_duty() is None
        *_, expired = [e for e in _events(api, settings, "T1") if e["kind"] == "dealer_on_duty"]
        assert (expired["at"], expired["payload"]["reason"]) == (shift["expires_at"], "expired")
        _verified(api, "T1")
    finally:
        connection.close()
