"""/readyz with two Redis partitions (real redis-server processes, one killed -9): per
partition, fast, and saying what is not durable and what is not draining (issue 19,
point 11)."""

from __future__ import annotations

import time
from pathlib import Path

import redis
from api.conftest import TABLE_BODY, Api, token_book
from redis_servers import RedisServer, redis_servers

from dealerassist.adapters.redis_partitions import partition_of
from dealerassist.adapters.rq_audit_queue import beat, forget_beat
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE
from dealerassist.api import create_app
from dealerassist.settings import Settings

__all__ = ["redis_servers"]  # the fixture, from tests/redis_servers.py


def _table_on(partition: int) -> str:
    """A table ID that lives on ``partition`` (from 0) of two."""
    return next(f"P{n}" for n in range(100) if partition_of(f"P{n}", 2) == partition)


def test_readyz_reports_each_partition_and_fails_fast(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """Two Redis, the second with ``appendfsync everysec``: ready, with a warning that the
    second is not durable. Its drain worker gone: degraded, naming it. Killed -9: still 200
    (degraded) for the host, 503 for ``?partition=2``, 200 for ``?partition=1``, each in
    milliseconds; the dead partition's tables answer 503 at once while its Redis just
    failed, and the live partition's tables play on. Before, /readyz was 503 while either
    was down, and each 503 held a worker 0.3-0.5 s."""
    first = RedisServer(tmp_path / "r1").start()
    second = RedisServer(tmp_path / "r2", appendfsync="everysec").start()
    redis_servers.extend([first, second])
    clients = [redis.Redis.from_url(server.url) for server in (first, second)]
    for number, client in enumerate(clients):
        beat(client, "audit", f"drain-{number}", 60)
    beat(clients[0], VERIFY_QUEUE, "verify-0", 60)
    settings = Settings(
        data_dir=tmp_path,
        redis_url=f"{first.url},{second.url}",
        database_url=f"sqlite:///{tmp_path / 'audit.sqlite3'}",
    )
    api = Api(create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client())

    ready = api.call("GET", "/readyz", None)
    body = ready.get_json()
    assert ready.status_code == 200 and body["status"] == "ready"
    assert body["checks"]["redis 1"]["durable"] is True
    assert body["checks"]["redis 2"] == {
        "ok": True,
        "persistence": "aof everysec",
        "durable": False,
    }
    assert len(body["warnings"]) == 1 and body["warnings"][0].startswith("partition 2:")

    forget_beat(clients[1], "audit", "drain-1")  # partition 2 has no live drain worker
    degraded = api.call("GET", "/readyz", None)
    assert degraded.status_code == 200 and degraded.get_json()["status"] == "degraded"
    assert degraded.get_json()["checks"]["audit_worker 2"] == {"ok": False, "workers": 0}
    assert api.call("GET", "/readyz?partition=2", None).status_code == 503
    beat(clients[1], "audit", "drain-1", 60)

    live, dead = _table_on(0), _table_on(1)
    assert (
        api.call("POST", "/v1/tables", "admin", {**TABLE_BODY, "table_id": dead}).status_code == 201
    )
    clients[1].close()
    second.kill_9()
    started = time.monotonic()
    whole = api.call("GET", "/readyz", None)
    assert time.monotonic() - started < 0.25
    assert whole.status_code == 200 and whole.get_json()["status"] == "degraded"
    assert whole.get_json()["partitions"] == [
        {"partition": 1, "ok": True},
        {"partition": 2, "ok": False},
    ]
    assert whole.get_json()["checks"]["redis 2"]["ok"] is False
    assert "audit_worker 2" not in whole.get_json()["checks"]  # nothing more asked of it
    assert whole.get_json()["checks"]["audit_integrity"]["ok"] is True  # of partition 1
    started = time.monotonic()
    assert api.call("GET", "/readyz?partition=2", None).status_code == 503
    assert api.call("GET", "/readyz?partition=1", None).status_code == 200
    assert time.monotonic() - started < 0.25

    assert api.call("GET", f"/v1/tables/{dead}", "floor").status_code == 503
    started = time.monotonic()
    for _ in range(20):  # within FAIL_FAST_SECONDS: no connection attempt, no retries
        assert api.call("GET", f"/v1/tables/{dead}", "floor").status_code == 503
    assert (time.monotonic() - started) / 20 < 0.02
    assert (
        api.call("POST", "/v1/tables", "admin", {**TABLE_BODY, "table_id": live}).status_code == 201
    )
    clients[0].close()
