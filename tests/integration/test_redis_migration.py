"""``dealerassist migrate-redis``: the keys of an earlier version (no ``{table_id}`` hash
tag) renamed in place on one Redis, or copied from the retired modulo partitions onto a
Redis Cluster; the tables play on, their staged events drain and every hand verifies, and
an answer given before the move is replayed after it, not applied twice (issue 24)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
import redis
from audit_chains import play_hands
from redis_servers import LocalCluster, RedisServer, local_cluster, redis_servers

from dealerassist import worker
from dealerassist.adapters.redis_migration import legacy_keys
from dealerassist.adapters.redis_tables import idempotency_key, table_key
from dealerassist.adapters.rq_audit_queue import pending_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import build_services
from dealerassist.cli import main
from dealerassist.profiles import default_profiles_dir
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import Services
from dealerassist.settings import Settings

__all__ = ["local_cluster", "redis_servers"]  # the fixtures, from tests/redis_servers.py

PROFILE = "casino-five-card-draw"
ACTOR = use_cases.Actor("dealer-1", "dealer")


def _services(redis_url: str, sql_url: str, tmp_path: Path, jobs: str | None = None) -> Services:
    return build_services(
        Settings(
            data_dir=tmp_path,
            redis_url=redis_url,
            jobs_redis_url=jobs,
            database_url=sql_url,
            profiles_dir=default_profiles_dir(),
        )
    )


def _seat_with_key(services: Services, table_id: str) -> dict[str, object]:
    """A fourth player seated under an Idempotency-Key: its answer."""
    pre = use_cases.Preconditions(idempotency_key="seat-4")
    return dict(use_cases.seat_player(services, table_id, 4, "P4", 500, ACTOR, pre).body)


def _to_legacy(client: redis.Redis) -> int:
    """Rename this version's keys to the names of the version before (no hash tag): what
    an upgraded deployment finds in its Redis."""
    renamed = 0
    for raw in list(client.scan_iter(match="da:*{*}*")):
        name = raw.decode()
        head, _, rest = name.partition("{")
        table_id, _, tail = rest.partition("}")
        if head == "da:idem:":
            old = f"da:idem:{tail[1:]}"  # da:idem:{T}:token:key -> da:idem:token:key
        elif head.startswith("da:audit:dirty:"):
            continue
        else:
            old = f"{head}{table_id}{tail}"
        client.rename(name, old)
        renamed += 1
    return renamed


def _drained_and_verified(services: Services, sql_url: str, hands: int) -> None:
    store = SqlAuditStore(sql_url)
    events = list(store.iter_events())
    heads = {}
    for table_id in {str(event["table_id"]) for event in events}:
        record = services.tables.load(table_id)
        assert record is not None
        heads[table_id] = record.head.seq
    assert {(str(e["table_id"]), int(e["seq"])) for e in events} == {
        (table_id, seq) for table_id, last in heads.items() for seq in range(1, last + 1)
    }
    report = verify(iter(events), services.profiles.version)
    assert report["ok"] and report["hands"] == hands, report["problems"]
    store.dispose()


def test_migrate_redis_renames_an_upgraded_redis_in_place(
    redis_servers: list[RedisServer],
    sql_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two tables with staged events and an idempotency record under the old names: this
    version does not see them; after ``migrate-redis`` it does, the retried seating is
    replayed (not a second seat), the drain stores everything once and it verifies. A
    second run finds nothing; a key whose new name is taken is a conflict, exit 1."""
    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    services = _services(server.url, sql_url, tmp_path)
    for table_id in ("M1", "M2"):
        play_hands(services, table_id, hands=1, profile_id=PROFILE)
    first = _seat_with_key(services, "M1")
    client = redis.Redis.from_url(server.url)
    assert _to_legacy(client) == 5  # two tables, two pending lists, one idempotency record
    assert services.tables.load("M1") is None  # the old names are invisible to this version
    assert client.exists("da:table:M1", "da:audit:pending:M2", "da:idem:dealer-1:seat-4") == 3

    monkeypatch.setenv("REDIS_URL", server.url)
    assert main(["migrate-redis"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["tables"] == 2 and report["keys_moved"] == 5
    assert legacy_keys(client) == []
    assert (
        client.exists(table_key("M1"), pending_key("M2"), idempotency_key("M1", "dealer-1:seat-4"))
        == 3
    )
    assert _seat_with_key(services, "M1") == first  # replayed from the moved record
    worker.configure(sql_url)
    worker.make_worker(client).work(burst=True, logging_level="CRITICAL")
    _drained_and_verified(services, sql_url, hands=2)

    assert main(["migrate-redis"]) == 0
    assert json.loads(capsys.readouterr().out)["keys_moved"] == 0
    client.set("da:table:M1", b"old")  # an old key whose new name exists
    assert main(["migrate-redis"]) == 1
    assert "exists already" in json.loads(capsys.readouterr().out)["conflicts"][0]
    services.audit_store.dispose()  # type: ignore[attr-defined]
    worker.configure(None)
    client.close()


def test_migrate_redis_copies_the_old_partitions_onto_a_cluster(
    local_cluster: LocalCluster,
    redis_servers: list[RedisServer],
    sql_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Tables on two Redis under the old names (the modulo partitions of earlier versions,
    REDIS_URL listing both): ``migrate-redis --from`` copies every key onto the cluster and
    reads it back; the partitions keep theirs. On the cluster the tables play on, the
    cluster's drain stores every event once (the copied staged events too) and every hand
    verifies."""
    jobs = RedisServer(tmp_path / "jobs").start()
    partitions = [RedisServer(tmp_path / f"p{n}").start() for n in (1, 2)]
    redis_servers.extend([jobs, *partitions])
    for number, server in enumerate(partitions):
        old = _services(server.url, sql_url, tmp_path)
        play_hands(old, f"Q{number}", hands=1, profile_id=PROFILE)
        old.audit_store.dispose()  # type: ignore[attr-defined]
        _to_legacy(redis.Redis.from_url(server.url))
    monkeypatch.setenv("REDIS_URL", local_cluster.url)
    monkeypatch.setenv("RQ_REDIS_URL", jobs.url)
    old_list = ",".join(server.url for server in partitions)
    assert main(["migrate-redis", "--from", old_list]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["tables"] == 2
    assert report["keys_moved"] == report["keys_verified"] == 4  # two states, two pending lists
    assert all(legacy_keys(redis.Redis.from_url(server.url)) for server in partitions)

    services = _services(local_cluster.url, sql_url, tmp_path, jobs=jobs.url)
    for table_id in ("Q0", "Q1"):
        assert services.tables.load(table_id) is not None
        _seat_with_key(services, table_id)
    stop = threading.Event()
    drain = threading.Thread(
        target=worker.run_cluster_worker,
        args=(local_cluster.url, jobs.url, sql_url),
        kwargs={"burst": True, "stop": stop},
    )
    drain.start()
    drain.join(30)
    assert services.audit_queue.depth() == 0
    _drained_and_verified(services, sql_url, hands=2)
    services.audit_store.dispose()  # type: ignore[attr-defined]
    worker.configure(None)


def test_serve_renames_the_embedded_redis_keys_before_its_workers_start(
    redis_servers: list[RedisServer], tmp_path: Path
) -> None:
    """``serve`` migrates the embedded Redis in place at start (``migrate_embedded``): a
    line names what moved; a Redis with nothing of an earlier version gets no line."""
    from dealerassist.server import migrate_embedded

    server = RedisServer(tmp_path / "redis").start()
    redis_servers.append(server)
    client = redis.Redis.from_url(server.url)
    client.set("da:table:E1", b'{"seq":0}')
    client.rpush("da:audit:pending:E1", b"{}")
    line = migrate_embedded(server.url)
    assert line is not None and "keys of 1 tables renamed" in line
    assert client.exists(table_key("E1"), pending_key("E1")) == 2
    assert migrate_embedded(server.url) is None
    client.close()
