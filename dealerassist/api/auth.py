"""Bearer tokens from the tokens file (TOML), compared in constant time, and role checks.

File format (``DEALERASSIST_TOKENS_FILE``)::

    [[tokens]]
    name = "tablet-T7"
    role = "dealer"              # dealer | floor | auditor | admin | monitor
    sha256 = "9f86d0…"           # or: token = "plain secret"
    tables = ["T7"]              # optional: the only tables this token may touch
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import current_app, g, request

from dealerassist.api import messages as says
from dealerassist.api.errors import ShiftEnded, Unauthenticated
from dealerassist.api.http import services
from dealerassist.errors import Forbidden, InvalidInput
from dealerassist.rules.model.said import Join, Listed
from dealerassist.service.shifts import (
    DEVICE_PREFIX,
    SHIFT_PREFIX,
    Shift,
    Tablet,
    shift_for_token,
    tablet_for_credential,
    why_shift_ended,
)
from dealerassist.service.tables import Actor

TOKENS_EXTENSION = "dealerassist.tokens"


class Role(StrEnum):
    """Who may call what: the role a bearer token carries."""

    DEALER = "dealer"
    FLOOR = "floor"
    AUDITOR = "auditor"
    ADMIN = "admin"
    # reads GET /metrics and nothing else: what a Prometheus server holds (docs/security.md)
    MONITOR = "monitor"


@dataclass(frozen=True, slots=True)
class Token:
    """One token entry: its name, role, SHA-256 digest and optional table scope."""

    name: str
    role: Role
    digest: bytes
    tables: frozenset[str] | None = None
    # a dealer's shift session (``service.shifts``): his employee ID, and the session
    employee_id: str | None = None
    shift: Shift | None = None

    def may_touch(self, table_id: str) -> bool:
        return self.tables is None or table_id in self.tables

    @property
    def actor(self) -> Actor:
        return Actor(name=self.name, role=str(self.role), employee_id=self.employee_id)


def digest(secret: str) -> bytes:
    """SHA-256 of a token as bytes (what is compared)."""
    return hashlib.sha256(secret.encode()).digest()


class TokenBook:
    """The known tokens; ``find`` compares the presented token against every entry."""

    def __init__(self, tokens: Iterable[Token] = ()) -> None:
        self.tokens = tuple(tokens)

    def find(self, secret: str) -> Token | None:
        """The entry whose digest matches ``secret`` (every entry is compared, in constant time)."""
        presented = digest(secret)
        found = None
        for token in self.tokens:
            if hmac.compare_digest(presented, token.digest):
                found = token
        return found

    @classmethod
    def from_file(cls, path: Path) -> TokenBook:
        """Read a tokens file; InvalidInput names the entry that is wrong."""
        try:
            data = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise InvalidInput(f"tokens file {path}: {exc}") from exc
        entries = data.get("tokens", [])
        if not isinstance(entries, list):
            raise InvalidInput(f"tokens file {path}: [[tokens]] must be an array of tables")
        tokens = [_parse_entry(entry, index, path) for index, entry in enumerate(entries)]
        _refuse_duplicate_names(tokens, path)
        return cls(tokens)


def _refuse_duplicate_names(tokens: Iterable[Token], path: Path) -> None:
    """Each token's name is its identity: the Idempotency-Key space of its requests, the actor
    of its audit events, the key of its rate limits. Two entries with one name could not be
    told apart in the log, and one's retry could replay the other's answer: refused."""
    seen: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.name in seen:
            raise InvalidInput(
                f"tokens file {path}, tokens[{index}]: the name {token.name!r} is taken by "
                f"tokens[{seen[token.name]}]; give every token its own name"
            )
        seen[token.name] = index


def _parse_entry(entry: Any, index: int, path: Path) -> Token:
    where = f"tokens file {path}, tokens[{index}]"
    if not isinstance(entry, Mapping):
        raise InvalidInput(f"{where}: must be a table")
    unknown = set(entry) - {"name", "role", "token", "sha256", "tables"}
    if unknown:
        raise InvalidInput(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    raw_role = entry.get("role")
    if not isinstance(raw_role, str) or raw_role not in set(Role):
        raise InvalidInput(f"{where}.role: one of {', '.join(Role)}")
    role = Role(raw_role)
    return Token(
        name=str(entry.get("name") or f"{role}-{index}"),
        role=role,
        digest=_entry_digest(entry, where),
        tables=_entry_tables(entry, where),
    )


def _entry_digest(entry: Mapping[str, Any], where: str) -> bytes:
    if isinstance(entry.get("token"), str) and entry["token"]:
        return digest(entry["token"])
    text = entry.get("sha256")
    try:
        raw = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise InvalidInput(f"{where}: needs `token` or a 64-hex-digit `sha256`")
    return raw


def _entry_tables(entry: Mapping[str, Any], where: str) -> frozenset[str] | None:
    tables = entry.get("tables")
    if tables is None:
        return None
    if not isinstance(tables, list) or not all(isinstance(t, str) for t in tables):
        raise InvalidInput(f"{where}.tables: a list of table IDs")
    return frozenset(tables)


def generate_tokens_file(path: Path) -> dict[str, str]:
    """Write one fresh token per role to ``path`` (mode 0600); return ``{role: token}``."""
    tokens = {str(role): secrets.token_urlsafe(24) for role in Role}
    lines = ["# generated by `dealerassist serve`; one token per role", ""]
    for role, secret in tokens.items():
        lines += ["[[tokens]]", f'name = "{role}"', f'role = "{role}"', f'token = "{secret}"', ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    path.write_text("\n".join(lines))
    return tokens


def read_plain_tokens(path: Path) -> dict[str, str]:
    """``{name: token}`` for the entries of a tokens file that hold plain tokens."""
    data = tomllib.loads(path.read_text())
    return {
        str(entry.get("name")): str(entry["token"])
        for entry in data.get("tokens", [])
        if isinstance(entry, Mapping) and isinstance(entry.get("token"), str)
    }


# -- the request side ----------------------------------------------------------------------


def current_token() -> Token:
    """The token of this request (set by ``requires``)."""
    return cast(Token, g.token)


def authenticate() -> Token:
    """The caller's token from ``Authorization: Bearer …``, or Unauthenticated."""
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthenticated(says.SEND_BEARER())
    secret = secret.strip()
    if secret.startswith(SHIFT_PREFIX):
        return _shift_token(secret)
    if secret.startswith(DEVICE_PREFIX):
        if tablet_for_credential(services(), secret) is None:
            raise Unauthenticated(says.UNKNOWN_TABLET())
        raise Forbidden(says.TABLET_SIGNS_IN_ONLY())
    book = cast(TokenBook, current_app.extensions[TOKENS_EXTENSION])
    token = book.find(secret)
    if token is None:
        raise Unauthenticated(says.UNKNOWN_TOKEN())
    return token


def _shift_token(secret: str) -> Token:
    """A dealer's shift session as a token: role dealer, the registration's tables, the
    employee ID; the tablet's actor name (``tablet:<id>``)."""
    shift = shift_for_token(services(), secret)
    if shift is None:
        ended = why_shift_ended(services(), secret)
        if ended is not None:
            raise ShiftEnded(says.SHIFT_ENDED(why=ended.words()), ended.to_dict())
        raise Unauthenticated(says.SHIFT_EXPIRED())
    return Token(
        name=shift.actor_name,
        role=Role.DEALER,
        digest=digest(secret),
        tables=frozenset(shift.tables),
        employee_id=shift.employee_id,
        shift=shift,
    )


def current_tablet() -> Tablet:
    """The registered tablet whose device credential this request carries (401 if none)."""
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret.startswith(DEVICE_PREFIX):
        if scheme.lower() == "bearer" and secret:
            authenticate()  # 401 for an unknown token; a known one is authenticated, so:
            raise Forbidden(says.DEVICE_ONLY())
        raise Unauthenticated(says.SEND_DEVICE())
    tablet = tablet_for_credential(services(), secret)
    if tablet is None:
        raise Unauthenticated(says.UNKNOWN_TABLET_AGAIN())
    return tablet


def optional_token() -> Token | None:
    """The caller's token on a public route (``/readyz``), or None: an absent or unknown token
    is no error there, it only sees less (``errors.sees_backend_details``)."""
    try:
        token = authenticate()
    except Unauthenticated:
        return None
    g.token = token
    return token


F = TypeVar("F", bound=Callable[..., Any])


def requires(*roles: Role) -> Callable[[F], F]:
    """Decorate a view: the caller must hold one of ``roles`` (and be scoped to its table)."""
    allowed = frozenset(roles)

    def decorate(view: F) -> F:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            token = authenticate()
            if token.role not in allowed:
                names = Listed(tuple(sorted(allowed)), Join.COMMA)
                raise Forbidden(says.ROLE_MAY_NOT(role=str(token.role), roles=names))
            table_id = kwargs.get("table_id")
            if isinstance(table_id, str) and not token.may_touch(table_id):
                raise Forbidden(says.TABLE_NOT_ALLOWED(table=repr(table_id)))
            g.token = token
            return view(*args, **kwargs)

        return cast(F, guarded)

    return decorate


# every role that works the room (the monitor only reads /metrics)
ANY_ROLE = (Role.DEALER, Role.FLOOR, Role.AUDITOR, Role.ADMIN)
