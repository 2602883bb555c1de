"""Settings.from_env: defaults, overrides and refused values."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerassist.errors import InvalidInput
from dealerassist.settings import DEFAULT_PROFILES_DIR, Settings


def test_defaults_put_everything_under_var() -> None:
    """With an empty environment: ./var, embedded Redis, SQLite under ./var, 64 KB bodies."""
    settings = Settings.from_env({})
    assert settings.data_dir == Path("var")
    assert settings.redis_url is None and settings.tokens_file is None
    assert settings.database_url == f"sqlite:///{Path('var').resolve() / 'audit.sqlite3'}"
    assert settings.profiles_dir == DEFAULT_PROFILES_DIR
    assert settings.max_body_bytes == 64 * 1024 and settings.idempotency_ttl_seconds == 600


def test_environment_overrides() -> None:
    """Every variable the contract names is read."""
    settings = Settings.from_env(
        {
            "DEALERASSIST_DATA_DIR": "/srv/da",
            "REDIS_URL": "redis://r:6379/2",
            "DATABASE_URL": "postgresql+psycopg://db/audit",
            "DEALERASSIST_TOKENS_FILE": "/etc/da/tokens.toml",
            "DEALERASSIST_PROFILES_DIR": "/etc/da/profiles",
            "DEALERASSIST_IDEMPOTENCY_TTL": "3600",
        }
    )
    assert settings.data_dir == Path("/srv/da") and settings.redis_url == "redis://r:6379/2"
    assert settings.database_url == "postgresql+psycopg://db/audit"
    assert settings.tokens_file == Path("/etc/da/tokens.toml")
    assert settings.profiles_dir == Path("/etc/da/profiles")
    assert settings.idempotency_ttl_seconds == 3600


@pytest.mark.parametrize("value", ["soon", "0", "-5"])
def test_bad_ttl_is_refused(value: str) -> None:
    """A TTL that is not a positive whole number is InvalidInput naming the variable."""
    with pytest.raises(InvalidInput, match="DEALERASSIST_IDEMPOTENCY_TTL"):
        Settings.from_env({"DEALERASSIST_IDEMPOTENCY_TTL": value})


def test_the_floor_call_limits_come_from_the_environment() -> None:
    """Per table, per token and the expiry of open floor calls; a bad value is refused."""
    from dealerassist.service.floor_calls import FloorCallLimits

    env = {
        "DEALERASSIST_FLOOR_CALLS_PER_TABLE": "4",
        "DEALERASSIST_FLOOR_CALLS_PER_TOKEN": "9",
        "DEALERASSIST_FLOOR_CALL_TTL": "600",
    }
    limits = Settings.from_env(env).floor_call_limits
    assert (limits.per_table, limits.per_token, limits.ttl_seconds) == (4, 9, 600)
    assert Settings.from_env({}).floor_call_limits == FloorCallLimits()
    with pytest.raises(InvalidInput):
        Settings.from_env({"DEALERASSIST_FLOOR_CALLS_PER_TABLE": "0"})


def test_what_an_operator_watches_comes_from_the_environment() -> None:
    """Metrics on, access lines for errors and the log format chosen by the terminal unless
    the environment says otherwise; a value that means nothing is refused with its name."""
    from dealerassist.telemetry.logs import AccessLog, LogFormat

    default = Settings.from_env({})
    assert default.metrics is True and default.access_log is AccessLog.ERRORS
    assert default.log_format is LogFormat.AUTO and default.log_level == "INFO"
    chosen = Settings.from_env(
        {
            "DEALERASSIST_METRICS": "off",
            "DEALERASSIST_ACCESS_LOG": "ALL",
            "DEALERASSIST_LOG_FORMAT": "text",
            "DEALERASSIST_LOG_LEVEL": "warning",
        }
    )
    assert chosen.metrics is False and chosen.access_log is AccessLog.ALL
    assert chosen.log_format is LogFormat.TEXT and chosen.log_level == "WARNING"
    for name, value in (
        ("DEALERASSIST_METRICS", "maybe"),
        ("DEALERASSIST_ACCESS_LOG", "some"),
        ("DEALERASSIST_LOG_FORMAT", "xml"),
        ("DEALERASSIST_LOG_LEVEL", "loud"),
    ):
        with pytest.raises(InvalidInput, match=name):
            Settings.from_env({name: value})


def test_the_jobs_redis_is_the_tables_redis_or_rq_redis_url_beside_a_cluster() -> None:
    """RQ_REDIS_URL is read; it is required beside a cluster (RQ does not support one) and
    refused beside one Redis (the drain's jobs are enqueued in the commit's transaction);
    a comma-separated list (the retired modulo partitions) is refused, naming the move."""
    from dealerassist.bootstrap import jobs_redis_url

    cluster = "redis+cluster://a:7000,b:7001"
    settings = Settings.from_env({"REDIS_URL": cluster, "RQ_REDIS_URL": "redis://j:6379/0"})
    assert jobs_redis_url(settings) == "redis://j:6379/0"
    assert jobs_redis_url(Settings.from_env({"REDIS_URL": "redis://r/0"})) == "redis://r/0"
    with pytest.raises(InvalidInput, match="set RQ_REDIS_URL"):
        jobs_redis_url(Settings.from_env({"REDIS_URL": cluster}))
    with pytest.raises(InvalidInput, match="RQ_REDIS_URL is for a Redis Cluster"):
        jobs_redis_url(
            Settings.from_env({"REDIS_URL": "redis://r/0", "RQ_REDIS_URL": "redis://j/0"})
        )
    with pytest.raises(InvalidInput, match="migrate-redis --from"):
        jobs_redis_url(Settings.from_env({"REDIS_URL": "redis://a/0,redis://b/0"}))
    sentinel = "redis+sentinel://a:26379,b:26379/da/0"  # its commas list sentinels
    assert jobs_redis_url(Settings.from_env({"REDIS_URL": sentinel})) == sentinel


@pytest.mark.parametrize(
    "url", ["redis+cluster://a:7000/0", "redis+cluster://a", "redis+cluster://a:7000?x=1"]
)
def test_a_bad_cluster_url_is_refused(url: str) -> None:
    """A cluster URL lists host:port of its nodes and nothing else (one database)."""
    from dealerassist.adapters.redis_cluster import parse_cluster_url

    with pytest.raises(InvalidInput, match=r"redis\+cluster|host:port"):
        parse_cluster_url(url)


def test_the_replica_wait_comes_from_the_environment() -> None:
    """How many replicas confirm a commit (unset: decided by the URL, bootstrap.replica_wait)
    and how long a commit waits for them; 0 replicas is allowed, a wait past the Redis
    socket timeout is not."""
    from dealerassist.bootstrap import replica_wait

    unset = Settings.from_env({})
    assert unset.redis_wait_replicas is None and unset.redis_wait_ms == 500
    assert replica_wait(unset, "redis+sentinel://a:26379/da/0").replicas == 1
    assert replica_wait(unset, "redis://a:6379/0").replicas == 0
    env = {"DEALERASSIST_REDIS_WAIT_REPLICAS": "0", "DEALERASSIST_REDIS_WAIT_MS": "250"}
    chosen = Settings.from_env(env)
    assert replica_wait(chosen, "redis+sentinel://a:26379/da/0") == replica_wait(
        chosen, "redis://a/0"
    )
    assert (chosen.redis_wait_replicas, chosen.redis_wait_ms) == (0, 250)
    with pytest.raises(InvalidInput, match="DEALERASSIST_REDIS_WAIT_REPLICAS"):
        Settings.from_env({"DEALERASSIST_REDIS_WAIT_REPLICAS": "-1"})
    with pytest.raises(InvalidInput, match="at most 4000"):
        Settings.from_env({"DEALERASSIST_REDIS_WAIT_MS": "5000"})
