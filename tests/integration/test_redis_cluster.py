"""Tables on a 3-primary Redis Cluster (Debian's redis-server on loopback ports): hands on
50 tables while a slot holding live tables migrates to another node; the cluster's drain
stores every answered action exactly once and every chain verifies (issue 24)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.crc import key_slot
from redis_servers import LocalCluster, RedisServer, local_cluster, redis_servers

from dealerassist import worker
from dealerassist.adapters.redis_cluster import (
    RETRIED,
    ClusterAuditQueue,
    dirty_bucket_key,
    slot_of,
)
from dealerassist.adapters.redis_tables import idempotency_key, table_key
from dealerassist.adapters.rq_audit_queue import pending_key, table_forked_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.verify import verify
from dealerassist.bootstrap import build_services
from dealerassist.errors import Unavailable
from dealerassist.profiles import default_profiles_dir
from dealerassist.rules.engine import legal_actions
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import Services
from dealerassist.settings import Settings

__all__ = ["local_cluster", "redis_servers"]  # the fixtures, from tests/redis_servers.py

PROFILE = "casino-five-card-draw"
TABLE_COUNT = 50
HANDS = 2
THREADS = 5
ACTOR = use_cases.Actor("dealer-1", "dealer")


def _table_ids() -> tuple[list[str], str]:
    """50 table IDs, three of which share one slot (the one the test migrates), and a
    fourth table in that slot (the probe) that only the test plays."""
    by_slot: dict[int, list[str]] = {}
    shared: list[str] = []
    number = 0
    while len(shared) < 4:
        shared = by_slot.setdefault(slot_of(f"C{number}"), [])
        shared.append(f"C{number}")
        number += 1
    *crowded, probe = shared
    others = [f"C{n}" for n in range(TABLE_COUNT * 2) if f"C{n}" not in shared]
    return crowded + others[: TABLE_COUNT - len(crowded)], probe


class Tablet:
    """Plays one table's hands through the service layer, every entry with its own
    Idempotency-Key, retried with the same key while the answer is a 503 (as a tablet
    does): the answered events it saw, by seq."""

    def __init__(self, services: Services, table_id: str) -> None:
        self.services = services
        self.table_id = table_id
        self.answered: dict[int, str] = {}
        self.entries = 0
        self.retries = 0
        self.hands = 0

    def _send(self, call: Callable[[use_cases.Preconditions], use_cases.Answer]) -> None:
        self.entries += 1
        pre = use_cases.Preconditions(idempotency_key=f"{self.table_id}-{self.entries}")
        for _ in range(200):
            try:
                answer = call(pre)
            except Unavailable:
                self.retries += 1
                time.sleep(0.05)
                continue
            event = answer.body.get("event")
            if event is not None:
                assert self.answered.setdefault(int(event["seq"]), str(event["hash"])) == str(
                    event["hash"]
                )
            return
        raise AssertionError(f"{self.table_id}: entry {self.entries} never answered")

    def _legal(self) -> dict[str, Any] | None:
        record = self.services.tables.load(self.table_id)
        assert record is not None
        rules = self.services.profiles.get(PROFILE)
        legal: dict[str, Any] | None = legal_actions(record.state, rules, self.services.clock.now())
        return legal

    def open(self) -> None:
        spec = {
            "table_id": self.table_id,
            "variant": "five_card_draw",
            "structure": "fixed_limit",
            "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
            "profile_id": PROFILE,
        }
        self._send(lambda pre: use_cases.create_table(self.services, spec, ACTOR, pre))
        for seat in (1, 2, 3):
            self._send(
                lambda pre, s=seat: use_cases.seat_player(  # type: ignore[misc]
                    self.services, self.table_id, s, f"P{s}", 500, ACTOR, pre
                )
            )

    def act(self, action: dict[str, Any]) -> None:
        self._send(
            lambda pre: use_cases.submit_action(self.services, self.table_id, action, ACTOR, pre)
        )

    def hand(self, first: bool) -> None:
        """Blinds, a raise, a refused check (audited as rejected), then folds to the raiser."""
        self.hands += 1
        button = 1 if first else None
        self._send(
            lambda pre: use_cases.start_hand(self.services, self.table_id, button, ACTOR, pre)
        )
        while (legal := self._legal()) is not None and legal["phase"] == "posting":
            self.act({"seat": legal["seat"], "action": "post"})
        legal = self._legal()
        assert legal is not None
        self.act({"seat": legal["seat"], "action": "raise", "amount": 20})
        legal = self._legal()
        assert legal is not None
        self.act({"seat": legal["seat"], "action": "check"})
        while (legal := self._legal()) is not None:
            self.act({"seat": legal["seat"], "action": "fold"})


@pytest.fixture
def jobs_redis(redis_servers: list[RedisServer], tmp_path: Path) -> RedisServer:
    server = RedisServer(tmp_path / "jobs", appendfsync="everysec").start()
    redis_servers.append(server)
    return server


@pytest.fixture
def services(
    local_cluster: LocalCluster, jobs_redis: RedisServer, sql_url: str, tmp_path: Path
) -> Iterator[Services]:
    """Services as ``serve`` builds them on the cluster (disposed at the end)."""
    built = _services(local_cluster, jobs_redis, sql_url, tmp_path)
    yield built
    built.audit_store.dispose()  # type: ignore[attr-defined]


def _services(
    cluster: LocalCluster, jobs: RedisServer, sql_url: str, tmp_path: Path, **asked: Any
) -> Services:
    settings = Settings(
        **asked,
        data_dir=tmp_path,
        redis_url=cluster.url,
        jobs_redis_url=jobs.url,
        database_url=sql_url,
        profiles_dir=default_profiles_dir(),
        refusals_per_window=10_000,  # one refused check a hand on every table, one token
    )
    return build_services(settings)


@pytest.fixture
def drain(local_cluster: LocalCluster, jobs_redis: RedisServer, sql_url: str) -> Iterator[Any]:
    """The cluster's drain (``worker.run_cluster_worker``) in a thread; stopped at the end.
    The store's schema is made first (a drain and the test creating it at once race on
    PostgreSQL)."""
    SqlAuditStore(sql_url).dispose()
    stop = threading.Event()
    thread = threading.Thread(
        target=worker.run_cluster_worker,
        args=(local_cluster.url, jobs_redis.url, sql_url),
        kwargs={"stop": stop},
        daemon=True,
    )
    thread.start()
    yield thread
    stop.set()
    thread.join(10)
    worker.configure(None)
    gc.collect()  # a connection the drain left open warns here, not in a later test


def test_keys_of_a_table_share_one_slot_and_the_commit_runs_there(
    local_cluster: LocalCluster, services: Services
) -> None:
    """A table's state, idempotency record and staged events are on the node of its slot
    (the commit is one script there), and the table is listed in its dirty bucket."""
    tablet = Tablet(services, "C7")
    tablet.open()
    keys = [table_key("C7"), idempotency_key("C7", "dealer-1:C7-1"), pending_key("C7")]
    assert {key_slot(key.encode()) for key in [*keys, table_forked_key("C7")]} == {slot_of("C7")}
    owner = local_cluster.client(local_cluster.owner(slot_of("C7")))
    assert all(owner.exists(key) for key in keys)
    assert owner.llen(pending_key("C7")) == 4  # created, three seated
    queue = services.audit_queue
    assert isinstance(queue, ClusterAuditQueue)
    assert queue.cluster.sismember(dirty_bucket_key("C7"), "C7")
    assert queue.depth() == 4 and queue.tables() == ["C7"]


def test_a_cluster_asked_to_wait_for_a_replica_answers_503_until_the_slot_s_owner_has_one(
    local_cluster: LocalCluster, jobs_redis: RedisServer, sql_url: str, tmp_path: Path
) -> None:
    """DEALERASSIST_REDIS_WAIT_REPLICAS=1 on the 3-primary cluster (no replica): the commit
    script writes on the slot's owner, then WAIT 1 there confirms nothing, so the answer is
    503; the retry by the same Idempotency-Key replays that one commit (no second event) and
    is 503 again, for the same reason. Unasked, the cluster waits for no replica."""
    waiting = _services(
        local_cluster, jobs_redis, sql_url, tmp_path, redis_wait_replicas=1, redis_wait_ms=50
    )
    pre = use_cases.Preconditions(idempotency_key="K1")
    spec = {
        "table_id": "C7", "variant": "five_card_draw", "structure": "fixed_limit",
        "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
        "profile_id": PROFILE,
    }  # fmt: skip
    try:
        for _attempt in (1, 2):
            with pytest.raises(Unavailable, match="0 of 1 replicas"):
                use_cases.create_table(waiting, spec, ACTOR, pre)
        owner = local_cluster.client(local_cluster.owner(slot_of("C7")))
        assert owner.exists(table_key("C7")) and owner.llen(pending_key("C7")) == 1
        with pytest.raises(Unavailable, match="0 of 1 replicas"):
            use_cases.seat_player(waiting, "C7", 1, "P1", 500, ACTOR, use_cases.Preconditions())
        assert owner.llen(pending_key("C7")) == 2  # written, only not confirmed
    finally:
        waiting.audit_store.dispose()  # type: ignore[attr-defined]
    plain = _services(local_cluster, jobs_redis, sql_url, tmp_path / "plain")
    try:
        answer = use_cases.seat_player(plain, "C7", 2, "P2", 500, ACTOR, use_cases.Preconditions())
        assert answer.body["event"]["seq"] == 3
    finally:
        plain.audit_store.dispose()  # type: ignore[attr-defined]


def test_hands_on_50_tables_while_a_live_slot_migrates_lose_and_double_nothing(
    local_cluster: LocalCluster, services: Services, sql_url: str, drain: Any
) -> None:
    """50 tables, 5 threads of tablets, the drain running: a slot holding three of the live
    tables moves to another node by IMPORTING/MIGRATING/MIGRATE/SETSLOT NODE, held split
    for at least a second, so their commits meet ASK and TRYAGAIN (their pending list,
    emptied by the drain, exists on neither or one side) and retry with backoff. So that
    one commit surely meets the split slot whatever the load, a probe table in the same
    slot, its pending list drained, starts a hand while the slot is split, and the slot
    stays split until that commit has waited out redis-py's own TRYAGAIN retries.
    Afterwards the tables are on the new node, every event a tablet was answered is in the
    store once with the hash it was answered, nothing else is, and every hand verifies with
    replay."""
    retried: list[str] = []
    plain_retry = services.tables.retry  # type: ignore[attr-defined]

    def counting(call: Callable[[], Any]) -> Any:
        try:
            return call()
        except RETRIED as error:  # TRYAGAIN past redis-py's own 16 tries: TTL exhausted
            retried.append(f"{type(error).__name__}: {error}")
            return plain_retry(call)

    services.tables.retry = counting  # type: ignore[attr-defined]
    table_ids, probe_id = _table_ids()
    tablets = [Tablet(services, table_id) for table_id in table_ids]
    migrated = slot_of(table_ids[0])
    assert {slot_of(t) for t in [*table_ids[:3], probe_id]} == {migrated}
    probe = Tablet(services, probe_id)
    probe.open()
    source = local_cluster.owner(migrated)
    target = next(port for port in local_cluster.ports if port != source)
    halfway = threading.Barrier(THREADS + 1)
    migrated_all = threading.Event()
    failures: list[BaseException] = []

    def play(mine: list[Tablet]) -> None:
        """A hand on each table, then more until the slot has moved (at least ``HANDS``)."""
        try:
            for tablet in mine:
                tablet.open()
            for tablet in mine:
                tablet.hand(first=True)
            halfway.wait(30)
            while not migrated_all.is_set() or mine[0].hands < HANDS:
                for tablet in mine:
                    tablet.hand(first=False)
        except BaseException as error:
            failures.append(error)
            halfway.abort()
            raise

    started = time.monotonic()
    threads = [
        threading.Thread(target=play, args=(tablets[index::THREADS],)) for index in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    halfway.wait(60)  # every table has played a hand and plays on
    owner = local_cluster.client(source)
    deadline = time.monotonic() + 20
    while owner.exists(pending_key(probe_id)) and time.monotonic() < deadline:
        time.sleep(0.05)  # the drain has taken the probe's events: its pending list is gone
    assert not owner.exists(pending_key(probe_id))
    probe_hand = threading.Thread(target=lambda: probe.hand(first=True))

    def while_split() -> None:
        split = time.monotonic()
        probe_hand.start()
        while not retried and time.monotonic() < split + 20:
            time.sleep(0.02)
        time.sleep(max(0.0, split + 1.0 - time.monotonic()))

    moved = local_cluster.migrate_slot(migrated, target, while_split=while_split)
    migrated_all.set()
    for thread in [*threads, probe_hand]:
        thread.join(60)
    assert not failures, failures
    assert probe.hands == 1 and not probe_hand.is_alive()
    tablets.append(probe)
    assert moved >= 3  # the crowded tables' keys and idempotency records
    assert local_cluster.owner(migrated) == target
    assert local_cluster.client(target).exists(table_key(table_ids[0]))
    assert local_cluster.client(source).cluster("countkeysinslot", migrated) == 0
    assert retried, "no commit waited out the migration (it should have met TRYAGAIN)"

    queue = services.audit_queue
    deadline = time.monotonic() + 20
    while queue.depth() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert queue.depth() == 0
    store = SqlAuditStore(sql_url)
    events = list(store.iter_events())
    store.dispose()
    stored = {(str(e["table_id"]), int(e["seq"])): str(e["hash"]) for e in events}
    answered = {
        (tablet.table_id, seq): digest
        for tablet in tablets
        for seq, digest in tablet.answered.items()
    }
    assert len(events) == len(stored)  # no (table, seq) twice
    assert stored == answered  # nothing lost, nothing doubled, nothing unanswered
    for tablet in tablets:
        record = services.tables.load(tablet.table_id)
        assert record is not None and record.head.seq == max(tablet.answered)
    report = verify(iter(events), services.profiles.version)
    hands = sum(tablet.hands for tablet in tablets)
    assert hands >= TABLE_COUNT * HANDS + 1
    assert report["ok"] and report["hands"] == hands, report["problems"]
    assert time.monotonic() - started < 60


def test_metrics_on_a_cluster_read_the_failed_jobs_from_the_jobs_redis(
    services: Services, jobs_redis: RedisServer, tmp_path: Path
) -> None:
    """On a cluster the RQ queues live on the jobs Redis (RQ_REDIS_URL): a job in its failed
    registry is counted by /metrics as redis="jobs", with that Redis up."""
    from api.conftest import Api, token_book
    from metrics_text import samples, value
    from rq.registry import FailedJobRegistry

    from dealerassist.adapters.rq_audit_queue import RQAuditQueue
    from dealerassist.api import create_app

    jobs = RQAuditQueue(redis.Redis.from_url(jobs_redis.url))
    job = jobs.queue.enqueue_call("dealerassist.worker.drain_tables")
    FailedJobRegistry(queue=jobs.queue).add(job, ttl=60, exc_string="boom")
    settings = Settings(data_dir=tmp_path, redis_url="unused")
    app = create_app({"SETTINGS": settings, "SERVICES": services, "TOKENS": token_book()})
    answer = Api(app.test_client()).call("GET", "/metrics", "monitor")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    found = samples(answer.get_data(as_text=True))
    assert value(found, "dealerassist_failed_jobs", {"redis": "jobs", "queue": "audit"}) == 1
    assert value(found, "dealerassist_failed_jobs", {"redis": "jobs", "queue": "audit-verify"}) == 0
    assert value(found, "dealerassist_redis_up", {"redis": "jobs"}) == 1
