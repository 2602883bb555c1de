"""Bearer tokens: the tokens file, 401/403, the role matrix and table-scoped dealer tokens."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from api.conftest import TABLE_BODY, Api, token_book
from dealerassist.api import create_app
from dealerassist.api.auth import Role, TokenBook, generate_tokens_file, read_plain_tokens
from dealerassist.errors import InvalidInput
from dealerassist.service.ports import Services
from dealerassist.service.shifts import ShiftLimits
from dealerassist.settings import Settings

ANY = {"admin", "dealer", "floor", "auditor"}  # not the monitor: it reads /metrics alone
AUDITORS = {"auditor", "admin"}
PIN = "4821"
# the "table" of a route that is the house's, not a table's: a table-scoped token gets 403
HOUSE = "(house-wide)"
# Besides the roles, two credential kinds of service.shifts: "tablet" is a registered
# tablet's device credential (dat_…), "shift" a dealer's shift session (das_…; it also acts
# as a dealer scoped to T1, its tablet's registration).
# (method, path, body, roles allowed, the table the request touches: None for a route that
# names none, whose answer a scoped token gets for its own tables); T1 exists, hand 1 in play,
# dealer E1 signed in at T1 on tablet {tablet}, floor call {call} and verification
# {verification} of T1 open (``_room``)
ENDPOINTS = [
    ("POST", "/v1/tables", {**TABLE_BODY, "table_id": "T5"}, {"admin"}, "T5"),
    ("GET", "/v1/tables/T1", None, ANY, "T1"),
    ("PUT", "/v1/tables/T1/seats/5", {"player": "E", "stack": 10}, {"dealer", "floor"}, "T1"),
    ("DELETE", "/v1/tables/T1/seats/6", None, {"dealer", "floor"}, "T1"),
    ("POST", "/v1/tables/T1/seats/6/changes", {"change": "sit_out"}, {"dealer", "floor"}, "T1"),
    ("POST", "/v1/tables/T1/hands", {}, {"dealer"}, "T1"),
    ("POST", "/v1/tables/T1/actions", {"seat": 2, "action": "post"}, {"dealer"}, "T1"),
    ("GET", "/v1/tables/T1/hands/1", None, ANY, "T1"),
    ("POST", "/v1/tables/T1/rulings", {"decision": "custom", "effects": []}, {"floor"}, "T1"),
    ("POST", "/v1/tables/T1/floor-calls", {"rule_id": "BET-01"}, {"dealer", "floor"}, "T1"),
    ("GET", "/v1/floor/calls", None, {"floor", "admin"}, None),
    ("GET", "/v1/floor/calls?table_id=T1", None, {"floor", "admin"}, "T1"),
    ("GET", "/v1/rulings/options?rule_id=BET-01", None, ANY, None),
    ("GET", "/v1/profiles/casino-five-card-draw", None, ANY, None),
    ("GET", "/v1/audit/events", None, AUDITORS, None),
    ("GET", "/v1/audit/events?format=csv", None, AUDITORS, None),
    ("GET", "/v1/audit/events?table_id=T1", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/events?table_id=T1&format=csv", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/hands/T1/1", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/hands/T1/1?format=phh", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/verify", None, AUDITORS, None),
    ("GET", "/v1/audit/verify?table_id=T1", None, AUDITORS, "T1"),
    ("POST", "/v1/audit/verifications", {}, AUDITORS, None),
    ("POST", "/v1/audit/verifications", {"table_id": "T1"}, AUDITORS, "T1"),
    ("POST", "/v1/tables/T1/actions", {"seat": 1, "action": "boxed_card"}, {"dealer"}, "T1"),
    ("GET", "/v1/audit/alerts", None, {"floor", *AUDITORS}, None),
    ("GET", "/v1/audit/checkpoints", None, AUDITORS, None),
    ("GET", "/v1/audit/tables", None, AUDITORS, None),
    ("GET", "/v1/audit/hands", None, AUDITORS, None),
    ("GET", "/v1/audit/hands?table_id=T1&hand_no=1", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/hands/T1/1/replay", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/collections", None, AUDITORS, None),
    ("GET", "/v1/audit/collections?table_id=T1", None, AUDITORS, "T1"),
    ("GET", "/v1/audit/collections?table_id=T1&format=csv", None, AUDITORS, "T1"),
    ("GET", "/v1/floor/tables", None, {"floor", "admin"}, None),
    ("GET", "/v1/floor/calls?table_id=T1&limit=1", None, {"floor", "admin"}, "T1"),
    ("GET", "/metrics", None, {"monitor", "admin"}, None),
    # a scoped token gets 404 for another table's call: not even that it exists
    ("GET", "/v1/floor/calls/{call}", None, {"floor", "admin"}, None),
    ("GET", "/v1/tables/T1/floor-calls/{call}", None, {"dealer", "floor", "admin"}, "T1"),
    ("GET", "/v1/audit/verifications/{verification}", None, AUDITORS, "T1"),
    ("POST", "/v1/tables/T1/undo", {}, {"dealer", "floor"}, "T1"),
    ("PUT", "/v1/dealers/E9", {"name": "Eve Ng", "pin": "5150"}, {"admin"}, HOUSE),
    ("GET", "/v1/dealers", None, {"admin"}, HOUSE),
    ("POST", "/v1/tablets", {"name": "Tablet B", "tables": ["T1"]}, {"admin"}, "T1"),
    ("GET", "/v1/tablets", None, {"admin"}, None),
    ("DELETE", "/v1/tablets/{tablet}", None, {"admin"}, "T1"),
    ("GET", "/v1/tablet", None, {"tablet"}, None),
    (
        "POST",
        "/v1/tablet/sign-in",
        {"table_id": "T1", "employee_id": "E1", "pin": PIN},
        {"tablet"},
        None,
    ),
    ("GET", "/v1/shift", None, {"shift"}, None),
    ("POST", "/v1/shift/table", {"table_id": "T1"}, {"shift"}, None),
    ("POST", "/v1/shift/sign-out", None, {"shift"}, None),
    # a scoped floor gets 404 for a dealer at another table: not even that he is signed in
    ("POST", "/v1/floor/dealers/E1/sign-out", None, {"floor", "admin"}, None),
]
# Routes that need no token, each for its reason (test_exempt_routes_answer_without_a_token);
# every other route of the app must have a row in ENDPOINTS (test_every_route_is_in_the_matrix)
PUBLIC = {
    "health.healthz": "/healthz",  # a liveness probe
    "health.readyz": "/readyz?node=1",  # readiness: a token only shows more detail
    "docs.openapi_json": "/openapi.json",  # the API's contract
    "docs.docs": "/docs",
    "shifts.pair_tablet": None,  # the pairing code is the secret (test_pairing_* below)
    # the pages are shells: their scripts send the token the user enters to /v1
    "web.index": "/",
    "web.admin": "/admin",
    "web.audit": "/audit",
    "web.floor": "/floor",
    "web.tablet": "/tablet",
    "web.favicon": "/favicon.ico",
    "web.catalog": "/i18n/es.json",  # the scripts' translated strings, the same for everyone
    "web.static": None,  # the pages' scripts and styles
    "static": None,
}
SCOPES = ["every table", "T1", "T2"]
PROBLEM = "application/problem+json"


@pytest.fixture
def app(settings: Settings, services: Services) -> Flask:
    """The app with cheap PIN hashes (the matrix signs a dealer in for every row)."""
    wired = replace(services, shift_limits=ShiftLimits(scrypt_n=2**4))
    return create_app({"SETTINGS": settings, "SERVICES": wired, "TOKENS": token_book()})


def _room(api: Api) -> dict[str, str]:
    """T1 with hand 1 in play, dealer E1 signed in at T1 on a tablet registered to T1, a
    floor call and a verification of T1: the IDs the rows' paths name, the tablet's
    credential and E1's shift session."""
    api.ready_hand()
    dealer = api.call("PUT", "/v1/dealers/E1", "admin", {"name": "Ada Lee", "pin": PIN})
    assert dealer.status_code == 201
    registered = api.call("POST", "/v1/tablets", "admin", {"name": "Tablet A", "tables": ["T1"]})
    code = registered.get_json()["pairing_code"]
    paired = api.call("POST", "/v1/tablets/pair", None, {"pairing_code": code})
    credential = paired.get_json()["credential"]
    body = {"table_id": "T1", "employee_id": "E1", "pin": PIN}
    signed_in = api.call("POST", "/v1/tablet/sign-in", None, body, headers=_bearer(credential))
    assert signed_in.status_code == 200, signed_in.get_json()
    call = api.call(
        "POST", "/v1/tables/T1/floor-calls", "dealer", {"rule_id": "IRREG-01", "note": "x"}
    )
    assert call.status_code == 201, call.get_json()
    job = api.call("POST", "/v1/audit/verifications", "auditor", {"table_id": "T1"})
    return {
        "tablet": registered.get_json()["tablet_id"],
        "call": call.get_json()["call_id"],
        "verification": job.get_json()["id"],
        "credential": credential,
        "session": signed_in.get_json()["token"],
    }


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def _refused(response: TestResponse) -> bool:
    return response.status_code == 403 and response.mimetype == PROBLEM


def _answered(response: TestResponse) -> bool:
    return response.status_code not in (401, 403) and response.status_code < 500


@pytest.mark.parametrize(("method", "path", "body", "allowed", "table"), ENDPOINTS)
def test_role_matrix(
    api: Api, method: str, path: str, body: object, allowed: set[str], table: str | None
) -> None:
    """Each role × scope gets 403 exactly where the contract does not list the role, or
    the request touches a table outside the token's scope (issue 19 point 2); a route that
    names no table answers a scoped token too, for its own tables (test_audit_routes).
    One table for the twelve tokens: what one of them changes leaves the next a 4xx at
    worst, never a 403 it should not get."""
    path = path.format_map(_room(api))
    wrong = []
    for role in (str(role) for role in Role):
        for scope in SCOPES:
            who = role if scope == "every table" else f"{role}@{scope}"
            response = api.call(method, path, who, body)
            response.get_data()  # a streamed export is read to its end before the next call
            in_scope = table is None or scope in ("every table", table)
            if role in allowed and in_scope:
                if response.status_code in (401, 403) or response.status_code >= 500:
                    wrong.append((who, response.status_code, response.get_json()))
            elif response.status_code != 403 or response.mimetype != PROBLEM:
                wrong.append((who, response.status_code, "expected a 403 problem"))
    assert not wrong


@pytest.mark.parametrize(("method", "path", "body", "allowed", "table"), ENDPOINTS)
def test_no_token_is_401_everywhere(
    api: Api, method: str, path: str, body: object, allowed: set[str], table: str | None
) -> None:
    """Every /v1 route needs a bearer token; 401 says how to send one."""
    response = api.call(method, path.format(tablet="t-0", call="0", verification="0"), None, body)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.mimetype == "application/problem+json"


def test_unknown_token_is_401(api: Api) -> None:
    """A token that is not in the file is a 401."""
    response = api.call("GET", "/v1/tables/T1", None, headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401


def test_basic_auth_is_401(api: Api) -> None:
    """Another scheme than Bearer is a 401."""
    response = api.call("GET", "/v1/tables/T1", None, headers={"Authorization": "Basic eDp5"})
    assert response.status_code == 401


def test_dealer_token_limited_to_its_tables(api: Api) -> None:
    """A dealer token scoped to T2 may work T2 but gets 403 at T1."""
    api.create_table()
    api.create_table(table_id="T2")
    assert api.call("GET", "/v1/tables/T1", "t2-dealer").status_code == 403
    response = api.call("PUT", "/v1/tables/T2/seats/1", "t2-dealer", {"player": "A", "stack": 9})
    assert response.status_code == 200
    denied = api.call("PUT", "/v1/tables/T1/seats/1", "t2-dealer", {"player": "A", "stack": 9})
    assert denied.status_code == 403


def test_public_routes_need_no_token(api: Api) -> None:
    """Health, the spec and the docs page answer without a token."""
    for path in ("/healthz", "/readyz", "/openapi.json", "/docs"):
        assert api.call("GET", path, None).status_code == 200, path


def test_tokens_file_plain_and_sha256(tmp_path: Path) -> None:
    """A tokens file may hold plain tokens or their SHA-256; both authenticate."""
    path = tmp_path / "tokens.toml"
    hashed = hashlib.sha256(b"floor-token").hexdigest()
    path.write_text(
        '[[tokens]]\nname = "tab"\nrole = "dealer"\ntoken = "dealer-token"\ntables = ["T7"]\n\n'
        f'[[tokens]]\nname = "boss"\nrole = "floor"\nsha256 = "{hashed}"\n'
    )
    book = TokenBook.from_file(path)
    dealer = book.find("dealer-token")
    assert dealer is not None and dealer.role is Role.DEALER and dealer.tables == {"T7"}
    floor = book.find("floor-token")
    assert floor is not None and floor.name == "boss"
    assert book.find("guess") is None


@pytest.mark.parametrize(
    "text",
    [
        '[[tokens]]\nrole = "king"\ntoken = "x"\n',
        '[[tokens]]\nrole = "dealer"\n',
        '[[tokens]]\nrole = "dealer"\nsha256 = "abc"\n',
        '[[tokens]]\nrole = "dealer"\ntoken = "x"\ncolour = "red"\n',
        '[[tokens]]\nrole = "dealer"\ntoken = "x"\ntables = "T1"\n',
        "tokens = 3\n",
        "not toml [",
    ],
)
def test_bad_tokens_file_is_invalid_input(tmp_path: Path, text: str) -> None:
    """A wrong role, a missing or short secret, an unknown key or bad TOML is refused."""
    path = tmp_path / "tokens.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput):
        TokenBook.from_file(path)


def test_generated_tokens_file_has_one_token_per_role(tmp_path: Path) -> None:
    """`serve` without a tokens file writes one private token per role and can read them back."""
    path = tmp_path / "var" / "tokens.toml"
    tokens = generate_tokens_file(path)
    assert set(tokens) == {str(role) for role in Role}
    assert read_plain_tokens(path) == tokens
    assert path.stat().st_mode & 0o077 == 0
    book = TokenBook.from_file(path)
    assert all(book.find(secret) is not None for secret in tokens.values())


@pytest.mark.parametrize(
    "text",
    [
        '[[tokens]]\nname = "tab"\nrole = "dealer"\ntoken = "a"\n\n'
        '[[tokens]]\nname = "tab"\nrole = "floor"\ntoken = "b"\n',
        # an unnamed entry is named "<role>-<index>": a named entry may not take that name
        '[[tokens]]\nrole = "dealer"\ntoken = "a"\n\n'
        '[[tokens]]\nname = "dealer-0"\nrole = "dealer"\ntoken = "b"\n',
    ],
)
def test_duplicate_token_names_are_refused(tmp_path: Path, text: str) -> None:
    """Two tokens with one name would share the Idempotency-Key space and could not be told
    apart in the audit log: the tokens file is refused, naming both entries."""
    path = tmp_path / "tokens.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=r"tokens\[1\].*tokens\[0\]"):
        TokenBook.from_file(path)


@pytest.mark.parametrize(("method", "path", "body", "allowed", "table"), ENDPOINTS)
def test_tablet_credential_and_shift_session(
    api: Api, method: str, path: str, body: object, allowed: set[str], table: str | None
) -> None:
    """A registered tablet's device credential is 403 on every route but its own
    (GET /v1/tablet, its sign-in); a shift session is a dealer scoped to its registration's
    tables (T1): 403 where a dealer may not go, or at another table, or on the tablet's own
    routes; it may use the /v1/shift routes, which no tokens-file token may."""
    ids = _room(api)
    path = path.format_map(ids)
    as_shift = api.call(method, path, None, body, headers=_bearer(ids["session"]))
    as_shift.get_data()
    shift_may = "shift" in allowed or ("dealer" in allowed and table in (None, "T1"))
    assert _answered(as_shift) if shift_may else _refused(as_shift), as_shift.get_json()
    # the shift session first: the tablet's sign-in would push E1 out
    as_tablet = api.call(method, path, None, body, headers=_bearer(ids["credential"]))
    as_tablet.get_data()
    assert _answered(as_tablet) if "tablet" in allowed else _refused(as_tablet)


SHIFT_WRITES = [
    row for row in ENDPOINTS if row[0] != "GET" and "dealer" in row[3] and row[4] == "T1"
]


@pytest.mark.parametrize(("method", "path", "body", "allowed", "table"), SHIFT_WRITES)
def test_a_pushed_shift_session_is_not_on_duty(
    api: Api, method: str, path: str, body: object, allowed: set[str], table: str | None
) -> None:
    """E2 signs in at T1 on another tablet: E1's session on his tablet still lives (his
    tablet is registered to T1) but enters nothing at T1 (403 not_on_duty); the table is
    unchanged."""
    ids = _room(api)
    if path.endswith("/undo"):  # an action of E1's to take back
        post = {"seat": 2, "action": "post"}
        posted = api.call(
            "POST", "/v1/tables/T1/actions", None, post, headers=_bearer(ids["session"])
        )
        assert posted.status_code == 200, posted.get_json()
    api.call("PUT", "/v1/dealers/E2", "admin", {"name": "Ben Ortiz", "pin": PIN})
    other = api.call("POST", "/v1/tablets", "admin", {"name": "Tablet B", "tables": ["T1"]})
    code = other.get_json()["pairing_code"]
    credential = api.call("POST", "/v1/tablets/pair", None, {"pairing_code": code}).get_json()
    pushed = api.call(
        "POST",
        "/v1/tablet/sign-in",
        None,
        {"table_id": "T1", "employee_id": "E2", "pin": PIN},
        headers=_bearer(credential["credential"]),
    )
    assert pushed.status_code == 200
    before = api.call("GET", "/v1/tables/T1", "floor").get_json()
    headers = _bearer(ids["session"])
    if path.endswith("/floor-calls"):  # a call the schema accepts: only the duty refuses it
        body = {"rule_id": "IRREG-01", "note": "six cards"}
    if path.endswith("/undo"):
        headers["If-Match"] = f'"v{before["version"]}"'
    response = api.call(method, path.format_map(ids), None, body, headers=headers)
    assert _refused(response) and response.get_json()["code"] == "not_on_duty", response.get_json()
    assert api.call("GET", "/v1/tables/T1", "floor").get_json() == before


def test_every_route_is_in_the_matrix(app: Flask) -> None:
    """Each route of the app (each method of it) has a row in ENDPOINTS, or is PUBLIC with
    its reason: a new route cannot ship without its roles and scopes being tested."""
    adapter = app.url_map.bind("localhost")
    covered = set()
    for method, path, *_ in ENDPOINTS:
        endpoint, _args = adapter.match(path.split("?")[0].format(
            tablet="t-0", call="0", verification="0"), method)  # fmt: skip
        covered.add((endpoint, method))
    missing = [
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        if rule.endpoint not in PUBLIC and (rule.endpoint, method) not in covered
    ]
    assert not missing
    assert set(PUBLIC) <= {rule.endpoint for rule in app.url_map.iter_rules()}


def test_exempt_routes_answer_without_a_token(api: Api) -> None:
    """The PUBLIC routes do answer without a token (the pages with their HTML)."""
    for endpoint, path in PUBLIC.items():
        if path is not None:
            response = api.call("GET", path, None)
            # / sends the browser on to a page, /favicon.ico is empty, /readyz may be 503
            assert response.status_code in (200, 204, 302, 503), (endpoint, response.status_code)
