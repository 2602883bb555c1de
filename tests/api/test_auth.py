"""Bearer tokens: the tokens file, 401/403, the role matrix and table-scoped dealer tokens."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from api.conftest import TABLE_BODY, Api
from dealerassist.api.auth import Role, TokenBook, generate_tokens_file, read_plain_tokens
from dealerassist.errors import InvalidInput

# (method, path, body, roles allowed); table T1 exists with hand 1 in play
ENDPOINTS = [
    ("POST", "/v1/tables", {**TABLE_BODY, "table_id": "T5"}, {"admin"}),
    ("GET", "/v1/tables/T1", None, {"admin", "dealer", "floor", "auditor"}),
    ("PUT", "/v1/tables/T1/seats/5", {"player": "E", "stack": 10}, {"dealer", "floor"}),
    ("DELETE", "/v1/tables/T1/seats/6", None, {"dealer", "floor"}),
    ("POST", "/v1/tables/T1/hands", {}, {"dealer"}),
    ("POST", "/v1/tables/T1/actions", {"seat": 2, "action": "post"}, {"dealer"}),
    ("GET", "/v1/tables/T1/hands/1", None, {"admin", "dealer", "floor", "auditor"}),
    ("GET", "/v1/audit/events", None, {"auditor", "admin"}),
    ("GET", "/v1/audit/hands/T1/1", None, {"auditor", "admin"}),
    ("GET", "/v1/audit/verify", None, {"auditor", "admin"}),
]


@pytest.mark.parametrize("role", [str(role) for role in Role])
@pytest.mark.parametrize(("method", "path", "body", "allowed"), ENDPOINTS)
def test_role_matrix(
    api: Api, role: str, method: str, path: str, body: object, allowed: set[str]
) -> None:
    """Each role gets 403 exactly where the contract does not list it."""
    api.ready_hand()
    response = api.call(method, path, role, body)
    if role in allowed:
        assert response.status_code not in (401, 403), response.get_json()
        assert response.status_code < 500
    else:
        assert response.status_code == 403
        assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize(("method", "path", "body", "allowed"), ENDPOINTS)
def test_no_token_is_401_everywhere(
    api: Api, method: str, path: str, body: object, allowed: set[str]
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
    """Health, the spec and the docs page answer without a token (readiness: 503 here,
    no worker runs, but not 401)."""
    for path in ("/healthz", "/openapi.json", "/docs"):
        assert api.call("GET", path, None).status_code == 200, path
    assert api.call("GET", "/readyz", None).status_code == 503


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
