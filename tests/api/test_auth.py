"""Bearer tokens: the tokens file, 401/403, the role matrix and table-scoped dealer tokens."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from api.conftest import TABLE_BODY, Api
from dealerassist.api.auth import Role, TokenBook, generate_tokens_file, read_plain_tokens
from dealerassist.errors import InvalidInput

ANY = {"admin", "dealer", "floor", "auditor"}  # not the monitor: it reads /metrics alone
AUDITORS = {"auditor", "admin"}
# (method, path, body, roles allowed, the table the request touches: None for a route that
# names none, whose answer a scoped token gets for its own tables); T1 exists, hand 1 in play
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
]
SCOPES = ["every table", "T1", "T2"]
PROBLEM = "application/problem+json"


@pytest.mark.parametrize(("method", "path", "body", "allowed", "table"), ENDPOINTS)
def test_role_matrix(
    api: Api, method: str, path: str, body: object, allowed: set[str], table: str | None
) -> None:
    """Each role × scope gets 403 exactly where the contract does not list the role, or
    the request touches a table outside the token's scope (issue 19 point 2); a route that
    names no table answers a scoped token too, for its own tables (test_audit_routes).
    One table for the twelve tokens: what one of them changes leaves the next a 4xx at
    worst, never a 403 it should not get."""
    api.ready_hand()
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
    response = api.call(method, path, None, body)
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
