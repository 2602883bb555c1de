"""A hostile second read of the dealer sign-in routes: bad bodies are 4xx problems that change
nothing, pairing codes and PINs cannot be guessed without limit, an unknown employee costs
the scrypt a wrong PIN does, and an ended credential stays ended."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from api.conftest import Api, token_book
from api.test_shifts import PIN, Room, _bearer
from dealerassist.api import create_app
from dealerassist.service.ports import Services
from dealerassist.service.shifts import ShiftLimits
from dealerassist.settings import Settings

LIMITS = ShiftLimits(
    max_pin_failures=3, scrypt_n=2**4, max_pairing_failures=4, max_house_pairing_failures=6
)
PROBLEM = "application/problem+json"


@pytest.fixture
def api(settings: Settings, services: Services) -> Api:
    wired = replace(services, shift_limits=LIMITS)
    app: Flask = create_app({"SETTINGS": settings, "SERVICES": wired, "TOKENS": token_book()})
    return Api(app.test_client())


@pytest.fixture
def room(api: Api) -> Room:
    return Room(api)


def _state(room: Room) -> tuple[Any, Any, Any]:
    """What the routes could change: dealers, tablets, T1's chain head."""
    return (
        room.admin("GET", "/v1/dealers").get_json(),
        room.admin("GET", "/v1/tablets").get_json(),
        room.admin("GET", "/v1/tables/T1").get_json()["version"],
    )


def _is_problem(response: Any, statuses: tuple[int, ...] = (400, 413, 415)) -> None:
    assert response.status_code in statuses, (response.status_code, response.get_data(True))
    assert response.mimetype == PROBLEM


def _deep(levels: int) -> dict[str, Any]:
    nested: Any = []
    for _ in range(levels):
        nested = [nested]
    return {"a": nested}


BAD_TEXT = ["E\x00", "E\u202e1", "E\ud800", "", "x" * 5000, "E1\n", "E\x85"]
BAD_BODIES: list[Any] = [
    [],
    "E1",
    None,
    7,
    _deep(200),
]


def _bodies(field_values: dict[str, Any], fields: tuple[str, ...]) -> list[Any]:
    """Each field in turn replaced by a bad text or a wrong type; plus non-objects."""
    bodies: list[Any] = [*BAD_BODIES, {**field_values, "extra": 1}]
    for field in fields:
        for bad in [*BAD_TEXT, 7, None, ["E1"], {"x": 1}, True]:
            bodies.append({**field_values, field: bad})
        bodies.append({k: v for k, v in field_values.items() if k != field})
    return bodies


def test_bad_bodies_on_every_new_write_are_4xx_and_change_nothing(room: Room) -> None:
    """Control characters, bidi overrides, lone surrogates, empty and huge strings, wrong
    types, missing and extra fields, non-objects and deep nesting, in every field of every
    dealer/tablet/shift write: each a 400 problem (a PIN, which is only compared, may be a
    401 wrong_pin), and nothing changes."""
    credential = room.tablet(["T1"])
    session = room.session(credential, "T1", "E1")
    before = _state(room)
    writes: list[tuple[str, str, dict[str, str] | None, dict[str, Any], tuple[str, ...]]] = [
        ("PUT", "/v1/dealers/E1", None, {"name": "Ada Lee", "pin": PIN}, ("name", "pin")),
        ("POST", "/v1/tablets", None, {"name": "T", "tables": ["T1"]}, ("name", "tables")),
        ("POST", "/v1/tablets/pair", {}, {"pairing_code": "ABCD2345"}, ("pairing_code",)),
        ("POST", "/v1/tablet/sign-in", _bearer(credential),
         {"table_id": "T1", "employee_id": "E1", "pin": PIN}, ("table_id", "employee_id", "pin")),
        ("POST", "/v1/shift/table", _bearer(session), {"table_id": "T1"}, ("table_id",)),
    ]  # fmt: skip
    for method, path, headers, good, fields in writes:
        for body in _bodies(good, fields):
            sent = room.api.call(
                method, path, None if headers is not None else "admin", body, headers=headers
            )
            allowed = (
                (400, 401, 413, 415, 429) if path.endswith(("/pair", "/sign-in")) else (400, 415)
            )
            _is_problem(sent, allowed)
            if sent.status_code in (401, 429):  # a PIN or code is only compared: counted
                assert sent.get_json()["code"] in (
                    "wrong_pin",
                    "bad_pairing_code",
                    "pin_locked",
                    "pairing_limited",
                    "tablet_limited",
                ), body
        who = None if headers is not None else "admin"
        huge = room.api.call(method, path, who, headers=headers, data="[" * 200_000,
                             content_type="application/json")  # fmt: skip
        _is_problem(huge, (400, 413))
        text = room.api.call(method, path, None if headers is not None else "admin",
                             headers=headers, data="x", content_type="text/plain")  # fmt: skip
        _is_problem(text, (415,))
    after = _state(room)
    for dealer in after[0]["dealers"]:  # the wrong PINs' lockout is the one thing counted
        dealer["locked_for_seconds"] = 0
    assert after[:2] == before[:2]


@pytest.mark.parametrize("employee_id", ["E%00", "%ED%A0%80", "E%E2%80%AE1", "x" * 40, "-E"])
def test_a_bad_employee_id_in_the_path_is_400(room: Room, employee_id: str) -> None:
    """PUT /v1/dealers/{employee_id} with a control, surrogate or bidi character, too long
    or not starting with a letter or digit: 400, no dealer made."""
    before = _state(room)
    response = room.admin("PUT", f"/v1/dealers/{employee_id}", {"name": "Eve", "pin": PIN})
    _is_problem(response, (400, 404))
    assert _state(room) == before


def test_pairing_codes_cannot_be_guessed_without_limit(room: Room) -> None:
    """A 40-bit pairing code (8 of 32 letters) is a 401 bad_pairing_code when wrong; after
    ``max_pairing_failures`` misses from one address the next try, even with the right code,
    is a 429 pairing_limited (no code is tried); many addresses together stop at the house's
    limit."""
    code = room.admin("POST", "/v1/tablets", {"name": "A", "tables": ["T1"]}).get_json()
    for guess in range(LIMITS.max_pairing_failures):
        miss = room.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": f"AAAA{guess:04}"})
        assert miss.status_code == 401 and miss.get_json()["code"] == "bad_pairing_code"
    right = {"pairing_code": code["pairing_code"]}
    limited = room.api.call("POST", "/v1/tablets/pair", None, right)
    assert limited.status_code == 429 and limited.get_json()["code"] == "pairing_limited"
    assert int(limited.headers["Retry-After"]) > 0
    other = {"REMOTE_ADDR": "10.0.0.9"}
    miss = room.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": "ZZZZ2222"},
                         environ_base=other)  # fmt: skip
    assert miss.status_code == 401  # another address has its own count
    paired = room.api.call("POST", "/v1/tablets/pair", None, right, environ_base=other)
    assert paired.status_code == 200 and paired.get_json()["credential"].startswith("dat_")
    for n in range(LIMITS.max_house_pairing_failures):
        room.api.call("POST", "/v1/tablets/pair", None, {"pairing_code": "YYYY2222"},
                      environ_base={"REMOTE_ADDR": f"10.1.0.{n}"})  # fmt: skip
    fresh = room.api.call("POST", "/v1/tablets/pair", None, right,
                          environ_base={"REMOTE_ADDR": "10.2.0.1"})  # fmt: skip
    assert fresh.status_code == 429 and fresh.get_json()["code"] == "pairing_limited"


def test_an_unknown_employee_and_a_wrong_pin_each_cost_one_scrypt(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timing side channel: a sign-in with an unknown employee ID runs scrypt once, at
    the dealers' cost, as a wrong PIN does; and both answer alike (401 wrong_pin)."""
    credential = room.tablet(["T1"])
    calls: list[int] = []
    real = hashlib.scrypt

    def counted(password: bytes, **kwargs: Any) -> bytes:
        calls.append(kwargs["n"])
        return real(password, **kwargs)

    monkeypatch.setattr(hashlib, "scrypt", counted)
    unknown = room.sign_in(credential, "T1", "NOBODY", PIN)
    unknown_calls, calls[:] = list(calls), []
    wrong = room.sign_in(credential, "T1", "E1", "0000")
    assert unknown_calls == calls == [LIMITS.scrypt_n]
    assert unknown.get_json()["code"] == wrong.get_json()["code"] == "wrong_pin"
    assert unknown.status_code == wrong.status_code == 401


def test_an_unknown_employee_is_locked_out_like_a_real_one(room: Room) -> None:
    """Guessing PINs: the limit's miss locks the ID out (429 pin_locked) whether or not it
    is a dealer's, so the lockout does not tell real IDs from unknown ones; and a tablet is
    limited across employee IDs."""
    credential = room.tablet(["T1"])
    for employee_id in ("E1", "NOBODY"):
        answers = [room.sign_in(credential, "T1", employee_id, "0000").status_code
                   for _ in range(LIMITS.max_pin_failures)]  # fmt: skip
        assert answers == [401] * (LIMITS.max_pin_failures - 1) + [429], employee_id
        assert room.sign_in(credential, "T1", employee_id, PIN).get_json()["code"] == "pin_locked"


def test_a_tablet_is_limited_across_employee_ids(room: Room) -> None:
    """One tablet trying PINs over many employee IDs stops at ``max_tablet_failures`` (429
    tablet_limited), even for a right PIN; another tablet is not affected."""
    credential = room.tablet(["T1"])
    for n in range(LIMITS.max_tablet_failures):
        room.sign_in(credential, "T1", f"X{n}", "0000")
    limited = room.sign_in(credential, "T1", "E1")
    assert limited.status_code == 429 and limited.get_json()["code"] == "tablet_limited"
    other = room.tablet(["T1"], name="Tablet B")
    assert room.sign_in(other, "T1", "E1").status_code == 200


def test_ended_credentials_stay_ended(room: Room) -> None:
    """Replays: a revoked tablet's credential (401 at its routes, still 403 elsewhere would
    tell nothing: 401), a signed-out session, and a session whose dealer signed in on another
    tablet (signed_in_elsewhere) are all refused; none acts at T1."""
    first = room.tablet(["T1", "T2"])
    session = room.session(first, "T1", "E1")
    second = room.tablet(["T2"], name="Tablet B")
    elsewhere = room.session(second, "T2", "E1")  # E1 signs in on another tablet
    assert room.as_(session, "GET", "/v1/shift").status_code == 401
    seat = {"player": "Z", "stack": 10}
    assert room.as_(session, "PUT", "/v1/tables/T1/seats/4", seat).status_code == 401
    assert room.as_(elsewhere, "POST", "/v1/shift/sign-out").status_code == 204
    assert room.as_(elsewhere, "GET", "/v1/shift").status_code == 401
    assert room.as_(elsewhere, "POST", "/v1/shift/sign-out").status_code == 401
    tablet_id = room.as_(first, "GET", "/v1/tablet").get_json()["tablet_id"]
    assert room.admin("DELETE", f"/v1/tablets/{tablet_id}").status_code == 204
    assert room.as_(first, "GET", "/v1/tablet").status_code == 401
    assert room.sign_in(first, "T1", "E1").status_code == 401
    assert room.as_(first, "GET", "/v1/tables/T1").status_code == 401


@pytest.mark.parametrize("node", ["²", "٣", "9" * 5000, "-1", "0", "1.0", " 1", "x"])
def test_readyz_refuses_a_bad_node_with_a_400(api: Api, node: str) -> None:
    """/readyz?node= takes ASCII digits 1..N: a superscript or Arabic-Indic digit (which
    str.isdigit accepts and int may refuse) or a 5,000-digit number is a 400, never a 500."""
    response = api.call("GET", "/readyz", None, query_string={"node": node})
    _is_problem(response, (400,))


def test_a_scoped_admin_lists_only_its_tables_tablets(room: Room) -> None:
    """admin@T2 sees the T2 tablet, not the T1 one nor the bank that also serves T1; the
    house-wide admin sees all three."""
    room.tablet(["T1"], name="One")
    room.tablet(["T2"], name="Two")
    room.tablet(["T1", "T2"], name="Bank")
    names = [
        t["name"] for t in room.api.call("GET", "/v1/tablets", "admin@T2").get_json()["tablets"]
    ]
    assert names == ["Two"]
    assert len(room.admin("GET", "/v1/tablets").get_json()["tablets"]) == 3
