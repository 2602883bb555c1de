"""Audit integrity against bad data and a bad night: a poison event isolated to its table,
and a Redis that rewinds (an older RDB restored) forking a chain, caught by the drain."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from audit_chains import interleaved, play_hands, rules_for, stage, synthetic_events
from rq.registry import FailedJobRegistry

from dealerassist import worker
from dealerassist.adapters import rq_audit_queue
from dealerassist.adapters.rq_audit_queue import TABLE_DRAIN_JOB, RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import build_services
from dealerassist.cli import main
from dealerassist.errors import Conflict
from dealerassist.profiles import default_profiles_dir
from dealerassist.service import audit as audit_cases
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import Services
from dealerassist.settings import Settings

PROFILE = "casino-five-card-draw"
DEADLINE_SECONDS = 20


@pytest.fixture(autouse=True)
def _reset_worker_context() -> Iterator[None]:
    yield
    worker.configure(None)


def _work(connection: redis.Redis) -> bool:
    return worker.make_worker(connection).work(burst=True, logging_level="CRITICAL")


def test_a_poison_event_waits_isolated_while_every_other_table_drains(
    redis_client: redis.Redis, sql_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One round stores every dirty table in one transaction, so one event the store refuses
    (here an unreadable time; on PostgreSQL also an ID longer than varchar(64)) stopped the
    drain for the whole room. Now the refused table is isolated with its reason, its events
    wait in Redis and its own job in the failed registry, and the other tables drain on."""
    monkeypatch.setattr(rq_audit_queue, "RETRY_INTERVALS", ())  # no retries: failed at once
    queue = RQAuditQueue(redis_client)
    good = interleaved(tables=2, per_table=20)
    bad = {**next(synthetic_events("BAD", 1)), "at": "yesterday"}
    long_id = list(synthetic_events("P" * 64 + "\n", 3))
    stage(queue, redis_client, [*good[:10], bad, *long_id, *good[10:30]])
    worker.configure(sql_url)
    _work(redis_client)
    store = SqlAuditStore(sql_url)
    on_postgres = store.engine.dialect.name == "postgresql"
    poisoned = {"BAD", "P" * 64 + "\n"} if on_postgres else {"BAD"}
    isolated = queue.isolated()
    assert set(isolated) == poisoned
    assert isolated["BAD"].startswith("InvalidInput: audit event time 'yesterday'")
    assert queue.pending("BAD") == 1
    failed = FailedJobRegistry(queue=queue.queue)
    jobs = [queue.queue.fetch_job(job_id) for job_id in failed.get_job_ids()]
    assert sorted(job.args[0] for job in jobs if job is not None) == sorted(poisoned)
    assert all(job is not None and job.func_name == TABLE_DRAIN_JOB for job in jobs)
    # The rest of the room drains on, in this drain and in the next ones.
    stage(queue, redis_client, good[30:])
    _work(redis_client)
    assert store.count_events("T00") == store.count_events("T01") == 20
    assert queue.depth() == 1 + (3 if on_postgres else 0)  # only the isolated tables wait
    assert verify(store.iter_events("T00"), rules_for, replay=False)["ok"] is True
    store.dispose()


def test_an_isolated_table_drains_again_once_requeued_and_its_isolation_lifts(
    redis_client: redis.Redis, sql_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An isolation that was not for good (a store error since mended): requeue-failed runs
    the table's own job, which stores its events and gives the table back to the drain."""
    monkeypatch.setattr(rq_audit_queue, "RETRY_INTERVALS", ())
    queue = RQAuditQueue(redis_client)
    stage(queue, redis_client, list(synthetic_events("T1", 5)))
    queue.isolate("T1", "OperationalError: disk full")
    worker.configure(sql_url)
    store = SqlAuditStore(sql_url)
    assert worker.drain_rounds(queue, store) == 0  # skipped while isolated
    assert queue.pending("T1") == 5
    worker.requeue_failed(redis_client)
    _work(redis_client)
    assert store.count_events("T1") == 5 and queue.isolated() == {} and queue.depth() == 0
    store.dispose()


# -- a Redis that rewinds -----------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """A redis-server process of the test's own, RDB only (Redis's stock persistence)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", str(self.directory), "--dbfilename", "dump.rdb", "--save", ""]
        command += ["--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + DEADLINE_SECONDS
        while True:
            try:
                if redis.Redis.from_url(self.url).ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def snapshot(self) -> Path:
        """SAVE now, and keep a copy of the RDB file (what a backup or a replica holds)."""
        redis.Redis.from_url(self.url).save()
        kept = self.directory / "snapshot.rdb"
        shutil.copy(self.directory / "dump.rdb", kept)
        return kept

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def restore(self, rdb: Path) -> None:
        """kill -9, put the older RDB in place, start again on the same port: a rewind."""
        self.kill()
        shutil.copy(rdb, self.directory / "dump.rdb")
        self.start()


@pytest.fixture
def rewinding_redis(tmp_path: Path) -> Iterator[RedisServer]:
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(directory)
    server.start()
    yield server
    server.kill()


def _services(server: RedisServer, sql_url: str, data_dir: Path) -> Services:
    settings = Settings(
        data_dir=data_dir,
        redis_url=server.url,
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
    )
    return build_services(settings)


def test_a_redis_rewound_to_an_older_rdb_forks_the_chain_and_both_branches_are_kept(
    rewinding_redis: RedisServer, sql_url: str, tmp_path: Path
) -> None:
    """Redis restored from an RDB older than what the store holds: the live table goes back
    to the snapshot's seq, and the entries played after the restart seal *different* events
    at seqs the store holds. ``ON CONFLICT DO NOTHING`` dropped them without a word; now the
    drain keeps the stored chain, quarantines the newcomers (and the table's later events),
    logs, notes the fork, and readiness and the alerts route name the table."""
    services = _services(rewinding_redis, sql_url, tmp_path)
    connection = redis.Redis.from_url(rewinding_redis.url)
    worker.configure(sql_url)
    play_hands(services, "K1", hands=1, profile_id=PROFILE)
    _work(connection)
    snapshot = rewinding_redis.snapshot()
    snapshot_seq = services.tables.load("K1").head.seq  # type: ignore[union-attr]
    actor, pre = use_cases.Actor("dealer-1", "dealer"), use_cases.Preconditions()
    for _ in range(2):
        use_cases.start_hand(services, "K1", None, actor, pre)
        use_cases.submit_action(services, "K1", {"seat": 2, "action": "post"}, actor, pre)
    _work(connection)
    store = SqlAuditStore(sql_url)
    stored_seq = store.count_events("K1")
    assert stored_seq > snapshot_seq

    rewinding_redis.restore(snapshot)
    services.audit_store.dispose()  # type: ignore[attr-defined]
    services = _services(rewinding_redis, sql_url, tmp_path)
    connection = redis.Redis.from_url(rewinding_redis.url)
    assert services.tables.load("K1").head.seq == snapshot_seq  # type: ignore[union-attr]
    use_cases.start_hand(services, "K1", None, actor, pre)  # acknowledged, at a stored seq
    use_cases.submit_action(services, "K1", {"seat": 2, "action": "post"}, actor, pre)
    _work(connection)

    assert store.count_events("K1") == stored_seq  # the stored branch is kept as it was
    assert verify(store.iter_events("K1"), services.profiles.version)["ok"] is True
    quarantined = list(store.iter_quarantine("K1"))
    assert [event["seq"] for event in quarantined] == [snapshot_seq + 1, snapshot_seq + 2]
    assert quarantined[0]["stored_hash"] not in (None, quarantined[0]["hash"])
    assert store.forked_tables() == [
        {"table_id": "K1", "from_seq": snapshot_seq + 1, "quarantined": 2}
    ]
    assert RQAuditQueue(connection).forked()["K1"][0] == snapshot_seq + 1
    alerts = audit_cases.audit_alerts(services)
    assert alerts["ok"] is False and alerts["forked"][0]["table_id"] == "K1"
    assert RQAuditQueue(connection).depth() == 0  # nothing left waiting, nothing dropped
    # the commit path refuses to build on the rewound head any longer
    with pytest.raises(Conflict, match="audit chain forked"):
        use_cases.submit_action(services, "K1", {"seat": 3, "action": "post"}, actor, pre)
    # verify against Redis's live head: the store holds more than the rewound Redis
    report = audit_cases.verify_scope(store, services.profiles, "K1", integrity=services.integrity)
    assert any("Redis lost what the store has" in p["why"] for p in report["problems"]), report
    services.audit_store.dispose()  # type: ignore[attr-defined]
    store.dispose()


def test_a_rewound_table_is_refused_before_it_forks(
    rewinding_redis: RedisServer, sql_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewound with nothing played since: the worker's first drain compares Redis's live
    heads with the store and suspends the table, so no acknowledged entry reuses a seq."""
    services = _services(rewinding_redis, sql_url, tmp_path)
    connection = redis.Redis.from_url(rewinding_redis.url)
    worker.configure(sql_url)
    play_hands(services, "K1", hands=1, profile_id=PROFILE)
    _work(connection)
    snapshot = rewinding_redis.snapshot()
    snapshot_seq = services.tables.load("K1").head.seq  # type: ignore[union-attr]
    actor, pre = use_cases.Actor("dealer-1", "dealer"), use_cases.Preconditions()
    use_cases.start_hand(services, "K1", None, actor, pre)
    _work(connection)
    rewinding_redis.restore(snapshot)
    services.audit_store.dispose()  # type: ignore[attr-defined]
    services = _services(rewinding_redis, sql_url, tmp_path)
    connection = redis.Redis.from_url(rewinding_redis.url)
    worker.configure(sql_url)  # a worker process starting after the restore
    RQAuditQueue(connection).enqueue_drain()
    _work(connection)
    with pytest.raises(Conflict, match="audit chain forked"):
        use_cases.start_hand(services, "K1", None, actor, pre)
    assert services.audit_store.forked_tables() == []  # type: ignore[attr-defined]
    alerts = audit_cases.audit_alerts(services)
    assert alerts["forked"] == [{"table_id": "K1", "from_seq": snapshot_seq + 1, "quarantined": 0}]
    # an operator closes the table and says so: the suspension is lifted
    monkeypatch.setenv("DATABASE_URL", sql_url)
    monkeypatch.setenv("REDIS_URL", rewinding_redis.url)
    assert main(["resolve-fork", "K1", "--note", "closed, reopened as K2"]) == 0
    assert audit_cases.audit_alerts(services)["ok"] is True
    services.audit_store.dispose()  # type: ignore[attr-defined]
