"""Settings.from_env(): DEALERASSIST_*, REDIS_URL, DATABASE_URL, read once at the edge."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from dealerassist.errors import InvalidInput
from dealerassist.service.ports import SYNC_VERIFY_MAX_EVENTS

DEFAULT_PROFILES_DIR = Path(__file__).resolve().parent.parent / "config" / "house_rules"
# A tablet retries within seconds; ten minutes covers a reconnect. Each record holds a whole
# answer (~2 KB), so a room at 20 actions/s keeps ~24 MB of them in Redis at this TTL.
DEFAULT_IDEMPOTENCY_TTL = 600
DEFAULT_MAX_BODY = 64 * 1024
# GET /v1/audit/verify answers within the request up to this many events in scope (above
# it: 422, start a verification job); sized from the measured verify rate (service.ports).
DEFAULT_VERIFY_SYNC_MAX_EVENTS = SYNC_VERIFY_MAX_EVENTS
# /readyz fails for a Redis partition whose oldest staged audit event waited longer than
# this for the drain (a drain that keeps up keeps it under a second).
DEFAULT_READY_MAX_BACKLOG_SECONDS = 30


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the process reads from its environment, as plain values."""

    data_dir: Path = Path("var")
    redis_url: str | None = None
    database_url: str = ""
    tokens_file: Path | None = None
    profiles_dir: Path = DEFAULT_PROFILES_DIR
    idempotency_ttl_seconds: int = DEFAULT_IDEMPOTENCY_TTL
    max_body_bytes: int = DEFAULT_MAX_BODY
    verify_sync_max_events: int = DEFAULT_VERIFY_SYNC_MAX_EVENTS
    ready_max_backlog_seconds: int = DEFAULT_READY_MAX_BACKLOG_SECONDS

    @property
    def sqlite_url(self) -> str:
        """The default audit store: SQLite under the data directory."""
        return f"sqlite:///{(self.data_dir / 'audit.sqlite3').resolve()}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``env`` (default: ``os.environ``)."""
        env = os.environ if env is None else env
        data_dir = Path(env.get("DEALERASSIST_DATA_DIR") or "var")
        tokens = env.get("DEALERASSIST_TOKENS_FILE")
        settings = cls(
            data_dir=data_dir,
            redis_url=env.get("REDIS_URL") or None,
            tokens_file=Path(tokens) if tokens else None,
            profiles_dir=Path(env.get("DEALERASSIST_PROFILES_DIR") or DEFAULT_PROFILES_DIR),
            idempotency_ttl_seconds=_positive(
                env, "DEALERASSIST_IDEMPOTENCY_TTL", DEFAULT_IDEMPOTENCY_TTL
            ),
            max_body_bytes=_positive(env, "DEALERASSIST_MAX_BODY_BYTES", DEFAULT_MAX_BODY),
            verify_sync_max_events=_positive(
                env, "DEALERASSIST_VERIFY_SYNC_MAX_EVENTS", DEFAULT_VERIFY_SYNC_MAX_EVENTS
            ),
            ready_max_backlog_seconds=_positive(
                env, "DEALERASSIST_READY_MAX_BACKLOG_SECONDS", DEFAULT_READY_MAX_BACKLOG_SECONDS
            ),
        )
        database_url = env.get("DATABASE_URL") or settings.sqlite_url
        return settings.replace(database_url=database_url)

    def replace(self, **changes: object) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise InvalidInput(f"{name} must be a whole number, not {text!r}") from None
    if value <= 0:
        raise InvalidInput(f"{name} must be positive, not {value}")
    return value
