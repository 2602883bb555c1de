"""/readyz on a 3-primary Redis Cluster (one node killed -9): per node, fast, saying which
node is not durable and which is down, while the other nodes' tables play on (issue 24;
before, the same per Redis partition, issue 19 point 11)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
from api.conftest import TABLE_BODY, Api, token_book
from redis_servers import CLUSTER_TOOLS_MISSING, LocalCluster, RedisServer, redis_servers

from dealerassist.adapters.redis_cluster import slot_of
from dealerassist.adapters.rq_audit_queue import beat, forget_beat
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE
from dealerassist.api import create_app
from dealerassist.settings import Settings

__all__ = ["redis_servers"]  # the fixture, from tests/redis_servers.py


@pytest.mark.skipif(CLUSTER_TOOLS_MISSING is not None, reason=str(CLUSTER_TOOLS_MISSING))
def test_readyz_reports_each_cluster_node_and_fails_fast(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """All nodes fsync every write but one (``everysec``): ready, one warning naming it.
    No drain worker: 503 (the cluster's one drain serves every node). One node killed -9
    (the cluster allows partial coverage): 200 degraded for the host, 503 for
    ``?node=<it>``, 200 for the others, in well under a second; its tables answer 503 and
    a table on a live node is opened."""
    cluster = LocalCluster(tmp_path / "cluster", appendfsync="always", full_coverage=False)
    try:
        cluster.start()
        _check_nodes(cluster, redis_servers, tmp_path)
    finally:
        cluster.stop()


def _check_nodes(cluster: LocalCluster, redis_servers: list[RedisServer], tmp_path: Path) -> None:
    jobs = RedisServer(tmp_path / "jobs").start()
    redis_servers.append(jobs)
    jobs_client = redis.Redis.from_url(jobs.url)
    beat(jobs_client, "audit", "drain-1", 60)
    beat(jobs_client, VERIFY_QUEUE, "verify-1", 60)
    ports = sorted(cluster.ports, key=lambda port: f"127.0.0.1:{port}")  # numbered by name
    lax = ports[1]
    cluster.client(lax).config_set("appendfsync", "everysec")
    settings = Settings(
        data_dir=tmp_path,
        redis_url=cluster.url,
        jobs_redis_url=jobs.url,
        database_url=f"sqlite:///{tmp_path / 'audit.sqlite3'}",
    )
    api = Api(create_app({"SETTINGS": settings, "TOKENS": token_book()}).test_client())

    ready = api.call("GET", "/readyz", None)
    body = ready.get_json()
    assert ready.status_code == 200 and body["status"] == "ready", body
    assert body["nodes"] == [{"node": n, "ok": True} for n in (1, 2, 3)]
    assert body["checks"]["redis 1"]["durable"] is True
    assert body["checks"]["redis 2"] == {
        "ok": True,
        "persistence": "aof everysec",
        "durable": False,
    }
    assert len(body["warnings"]) == 1 and body["warnings"][0].startswith("node 2:")
    assert body["checks"]["verify_worker"] == {"ok": True, "workers": 1}
    named = api.call("GET", "/readyz", "admin").get_json()["nodes"]  # names: to an admin only
    assert [node["name"] for node in named] == [f"127.0.0.1:{port}" for port in ports]

    forget_beat(jobs_client, "audit", "drain-1")
    assert api.call("GET", "/readyz", None).status_code == 503
    beat(jobs_client, "audit", "drain-1", 60)

    tables: dict[int, str] = {}
    for number in range(200):
        owner = cluster.owner(slot_of(f"R{number}"))
        tables.setdefault(owner, f"R{number}")
    dead_port = ports[2]
    created = api.call("POST", "/v1/tables", "admin", {**TABLE_BODY, "table_id": tables[dead_port]})
    assert created.status_code == 201
    cluster.kill_9(dead_port)
    started = time.monotonic()
    whole = api.call("GET", "/readyz", None)
    assert time.monotonic() - started < 0.5
    assert whole.status_code == 200 and whole.get_json()["status"] == "degraded", whole.get_json()
    assert whole.get_json()["nodes"] == [
        {"node": 1, "ok": True},
        {"node": 2, "ok": True},
        {"node": 3, "ok": False},
    ]
    assert whole.get_json()["checks"]["redis 3"]["ok"] is False
    assert "audit_queue 3" not in whole.get_json()["checks"]  # nothing more asked of it
    assert whole.get_json()["checks"]["audit_integrity"]["ok"] is True
    started = time.monotonic()
    assert api.call("GET", "/readyz?node=3", None).status_code == 503
    assert api.call("GET", "/readyz?node=1", None).status_code == 200
    assert time.monotonic() - started < 0.5
    assert api.call("GET", "/readyz?node=4", None).status_code == 400

    assert api.call("GET", f"/v1/tables/{tables[dead_port]}", "floor").status_code == 503
    live = {**TABLE_BODY, "table_id": tables[ports[0]]}
    assert api.call("POST", "/v1/tables", "admin", live).status_code == 201
    jobs_client.close()
