"""The embedded Redis: starts under the data dir, persists with append-only, is reused."""

from __future__ import annotations

from pathlib import Path

import redis

from dealerassist.adapters.embedded_redis import socket_path_for, start_embedded_redis


def test_embedded_redis_persists_across_restarts(tmp_path: Path) -> None:
    """A value written before a stop is there after the next start (appendonly yes)."""
    first = start_embedded_redis(tmp_path)
    try:
        client = redis.Redis.from_url(first.url)
        client.set("k", "v")
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        client.close()
    finally:
        first.stop()
    second = start_embedded_redis(tmp_path)
    try:
        client = redis.Redis.from_url(second.url)
        assert client.get("k") == b"v"
        client.close()
    finally:
        second.stop()
    assert any(tmp_path.glob("appendonly*"))


def test_a_running_embedded_redis_is_reused(tmp_path: Path) -> None:
    """Starting again while one runs returns the same socket and owns no process."""
    first = start_embedded_redis(tmp_path)
    try:
        again = start_embedded_redis(tmp_path)
        assert again.url == first.url and again.process is None
        again.stop()  # not the owner: does nothing
        assert redis.Redis.from_url(first.url).ping()
    finally:
        first.stop()


def test_long_data_dirs_get_a_short_socket(tmp_path: Path) -> None:
    """A data dir too deep for a unix socket path uses a socket in the temp dir."""
    deep = tmp_path / ("d" * 120)
    assert len(str(socket_path_for(deep))) <= 100
    assert socket_path_for(tmp_path) == tmp_path.resolve() / "redis.sock"
