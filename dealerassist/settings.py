"""Settings.from_env(): DEALERASSIST_*, REDIS_URL, DATABASE_URL, read once at the edge."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from dealerassist.errors import InvalidInput
from dealerassist.service.floor_calls import (
    DEFAULT_PER_TABLE,
    DEFAULT_PER_TOKEN,
    DEFAULT_TTL_SECONDS,
    FloorCallLimits,
)
from dealerassist.service.ports import SYNC_VERIFY_MAX_EVENTS
from dealerassist.telemetry.logs import AccessLog, LogFormat, format_from_env, level_from_env

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
# Refused entries one token may have recorded per window (each is stored for good); past
# them one more is recorded as the burst and the rest of the window's refusals are 429s.
DEFAULT_REFUSALS_PER_WINDOW = 60
DEFAULT_REFUSAL_WINDOW_SECONDS = 60
# The synchronous verify runs on the workers that serve the tablets: this many at once on
# the host, and this many events per token per minute (one verify at the request limit).
DEFAULT_VERIFY_SYNC_CONCURRENCY = 1
DEFAULT_VERIFY_SYNC_EVENTS_PER_MINUTE = SYNC_VERIFY_MAX_EVENTS
# A commit waits this long at most for its replica's confirmation (then 503): under the API's
# Redis socket timeout (bootstrap.REDIS_SOCKET_TIMEOUT, 5 s), so a WAIT is never cut off.
DEFAULT_REDIS_WAIT_MS = 500
MAX_REDIS_WAIT_MS = 4000


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the process reads from its environment, as plain values."""

    data_dir: Path = Path("var")
    redis_url: str | None = None
    # The ordinary Redis of RQ's queues, open floor calls and rate limits where REDIS_URL is
    # a Redis Cluster (RQ does not support one); with one Redis, that Redis (unset).
    jobs_redis_url: str | None = None
    database_url: str = ""
    tokens_file: Path | None = None
    profiles_dir: Path = DEFAULT_PROFILES_DIR
    idempotency_ttl_seconds: int = DEFAULT_IDEMPOTENCY_TTL
    max_body_bytes: int = DEFAULT_MAX_BODY
    verify_sync_max_events: int = DEFAULT_VERIFY_SYNC_MAX_EVENTS
    ready_max_backlog_seconds: int = DEFAULT_READY_MAX_BACKLOG_SECONDS
    floor_call_limits: FloorCallLimits = field(default_factory=FloorCallLimits)
    refusals_per_window: int = DEFAULT_REFUSALS_PER_WINDOW
    refusal_window_seconds: int = DEFAULT_REFUSAL_WINDOW_SECONDS
    verify_sync_concurrency: int = DEFAULT_VERIFY_SYNC_CONCURRENCY
    verify_sync_events_per_minute: int = DEFAULT_VERIFY_SYNC_EVENTS_PER_MINUTE
    metrics: bool = True  # GET /metrics and the counting behind it
    access_log: AccessLog = AccessLog.ERRORS
    log_format: LogFormat = LogFormat.AUTO
    log_level: str = "INFO"
    # replicas that must confirm a commit before it is answered; None: 1 behind Sentinel
    # (a redis+sentinel:// REDIS_URL), else 0
    redis_wait_replicas: int | None = None
    redis_wait_ms: int = DEFAULT_REDIS_WAIT_MS

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
            jobs_redis_url=env.get("RQ_REDIS_URL") or None,
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
            floor_call_limits=FloorCallLimits(
                per_table=_positive(env, "DEALERASSIST_FLOOR_CALLS_PER_TABLE", DEFAULT_PER_TABLE),
                per_token=_positive(env, "DEALERASSIST_FLOOR_CALLS_PER_TOKEN", DEFAULT_PER_TOKEN),
                ttl_seconds=_positive(env, "DEALERASSIST_FLOOR_CALL_TTL", DEFAULT_TTL_SECONDS),
            ),
            refusals_per_window=_positive(
                env, "DEALERASSIST_REFUSALS_PER_WINDOW", DEFAULT_REFUSALS_PER_WINDOW
            ),
            refusal_window_seconds=_positive(
                env, "DEALERASSIST_REFUSAL_WINDOW_SECONDS", DEFAULT_REFUSAL_WINDOW_SECONDS
            ),
            verify_sync_concurrency=_positive(
                env, "DEALERASSIST_VERIFY_SYNC_CONCURRENCY", DEFAULT_VERIFY_SYNC_CONCURRENCY
            ),
            verify_sync_events_per_minute=_positive(
                env,
                "DEALERASSIST_VERIFY_SYNC_EVENTS_PER_MINUTE",
                DEFAULT_VERIFY_SYNC_EVENTS_PER_MINUTE,
            ),
            metrics=_switch(env, "DEALERASSIST_METRICS", True),
            access_log=_choice(env, "DEALERASSIST_ACCESS_LOG", AccessLog, AccessLog.ERRORS),
            log_format=format_from_env(env),
            log_level=level_from_env(env),
            redis_wait_replicas=_count(env, "DEALERASSIST_REDIS_WAIT_REPLICAS"),
            redis_wait_ms=_positive(
                env, "DEALERASSIST_REDIS_WAIT_MS", DEFAULT_REDIS_WAIT_MS, MAX_REDIS_WAIT_MS
            ),
        )
        database_url = env.get("DATABASE_URL") or settings.sqlite_url
        return settings.replace(database_url=database_url)

    def replace(self, **changes: object) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _positive(env: Mapping[str, str], name: str, default: int, maximum: int | None = None) -> int:
    text = env.get(name)
    if not text:
        return default
    value = _whole(name, text)
    if value <= 0:
        raise InvalidInput(f"{name} must be positive, not {value}")
    if maximum is not None and value > maximum:
        raise InvalidInput(f"{name} must be at most {maximum}, not {value}")
    return value


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    text = (env.get(name) or "").strip().lower()
    if not text:
        return default
    if text in ("on", "1", "true", "yes"):
        return True
    if text in ("off", "0", "false", "no"):
        return False
    raise InvalidInput(f"{name} must be on or off, not {text!r}")


def _choice(
    env: Mapping[str, str], name: str, kind: type[AccessLog], default: AccessLog
) -> AccessLog:
    text = (env.get(name) or "").strip().lower()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise InvalidInput(f"{name} must be one of {', '.join(kind)}, not {text!r}") from None


def _count(env: Mapping[str, str], name: str) -> int | None:
    """A whole number from 0 (None when unset)."""
    text = env.get(name)
    if not text:
        return None
    value = _whole(name, text)
    if value < 0:
        raise InvalidInput(f"{name} must be 0 or more, not {value}")
    return value


def _whole(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInput(f"{name} must be a whole number, not {text!r}") from None
