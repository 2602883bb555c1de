"""Integration fixtures: the real composition root over a real Redis and a real SQL store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from dealerassist import worker
from dealerassist.bootstrap import build_services
from dealerassist.profiles import default_profiles_dir
from dealerassist.service.ports import Services
from dealerassist.settings import Settings


@pytest.fixture
def services(
    redis_client: redis.Redis, redis_url: str, sql_url: str, tmp_path: Path
) -> Iterator[Services]:
    """Services as `serve` builds them, on the test Redis and the sql_url store."""
    settings = Settings(
        data_dir=tmp_path,
        redis_url=redis_url,
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
    )
    built = build_services(settings)
    yield built
    built.audit_store.dispose()  # type: ignore[attr-defined]
    worker.configure(None)
