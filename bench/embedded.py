"""What the benchmarks on the production stores share: settings for an embedded Redis and a
SQLite audit store in a temporary directory (the stores' Redis keys are fixed, so a shared
Redis is never used by them)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dealerassist.adapters.embedded_redis import start_embedded_redis
from dealerassist.settings import Settings


@contextmanager
def embedded_settings() -> Iterator[Settings]:
    """Settings on a fresh embedded Redis and SQLite file, both gone at the end."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        embedded = start_embedded_redis(data)
        try:
            yield Settings(
                data_dir=data, redis_url=embedded.url, database_url=f"sqlite:///{data / 'a.db'}"
            )
        finally:
            embedded.stop()
