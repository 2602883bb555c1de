"""A commit is answered only once the replica holds it (``WAIT 1 <ms>``); one the replica
did not confirm is a 503, and its retry by the same Idempotency-Key answers it once."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from api.conftest import Api, token_book
from redis_servers import RedisServer, redis_server_executable, wait_until_online
from tablets import next_entry

from dealerassist.adapters.redis_replication import ReplicaWait
from dealerassist.adapters.redis_tables import RedisTableStore, table_key
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, pending_key
from dealerassist.api import create_app
from dealerassist.bootstrap import build_services
from dealerassist.profiles import default_profiles_dir
from dealerassist.settings import Settings

WAIT_MS = 200  # the replica is stopped: every commit waits this long
CONFIRM_MS = 3000  # the replica runs (on a loaded machine its fsync may be slow)


@pytest.fixture
def primary_and_replica(tmp_path: Path) -> Iterator[tuple[RedisServer, RedisServer]]:
    executable = redis_server_executable()
    # no 5 s wait for more replicas before the first sync
    primary = RedisServer(
        tmp_path / "primary", extra=("--repl-diskless-sync-delay", "0"), executable=executable
    ).start()
    replica = RedisServer(
        tmp_path / "replica",
        extra=("--replicaof", "127.0.0.1", str(primary.port)),
        executable=executable,
    ).start()
    wait_until_online(replica)
    yield primary, replica
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGCONT)
    replica.stop()
    primary.stop()


def _api(primary: RedisServer, tmp_path: Path) -> tuple[Api, RedisTableStore]:
    settings = Settings(
        data_dir=tmp_path,
        redis_url=primary.url,
        database_url=f"sqlite:///{tmp_path / 'audit.sqlite3'}",
        profiles_dir=default_profiles_dir(),
        redis_wait_replicas=1,
        redis_wait_ms=CONFIRM_MS,
    )
    services = build_services(settings)
    app = create_app({"SETTINGS": settings, "SERVICES": services, "TOKENS": token_book()})
    assert isinstance(services.tables, RedisTableStore)
    return Api(app.test_client()), services.tables


def _first_post(api: Api) -> tuple[dict[str, Any], str]:
    """The entry next to tap at T1, and the path to post it to."""
    entry = next_entry(api.call("GET", "/v1/tables/T1").get_json())
    assert entry is not None
    return entry, "/v1/tables/T1/actions"


def test_every_answered_commit_is_on_the_replica_when_it_is_answered(
    primary_and_replica: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    """Read the replica right after each answer: it holds the state the tablet was given
    (the answer waited for WAIT), on both commit paths (the first entry of a table enqueues
    a drain by MULTI/EXEC; the rest take the commit script)."""
    primary, replica = primary_and_replica
    api, _ = _api(primary, tmp_path)
    from_replica = redis.Redis(port=replica.port)
    api.ready_hand("T1")
    for _ in range(3):
        body, path = _first_post(api)
        answer = api.call("POST", path, "dealer", body)
        assert answer.status_code == 200, answer.get_json()
        on_replica = from_replica.get(table_key("T1"))
        assert on_replica is not None
        assert f'"version":{answer.get_json()["version"]}'.encode() in on_replica
        assert on_replica == redis.Redis(port=primary.port).get(table_key("T1"))
    from_replica.close()


@pytest.mark.parametrize("path_taken", ["commit script", "MULTI/EXEC"])
def test_a_commit_the_replica_did_not_confirm_is_a_503_and_its_retry_answers_it_once(
    primary_and_replica: tuple[RedisServer, RedisServer], tmp_path: Path, path_taken: str
) -> None:
    """With the replica stopped (SIGSTOP) an action is committed on the primary but not
    confirmed: 503 problem+json with Retry-After, after the WAIT timeout. A retry by the
    same Idempotency-Key while the replica is still stopped is a 503 too (an answer read
    back is confirmed like a commit); once the replica runs again the retry answers the
    committed entry (Idempotent-Replayed), and the table holds one entry for the two,
    one staged audit event."""
    primary, replica = primary_and_replica
    api, tables = _api(primary, tmp_path)
    api.ready_hand("T1")
    tables.replication = ReplicaWait(1, WAIT_MS)
    client = redis.Redis(port=primary.port)
    if path_taken == "MULTI/EXEC":  # no drain on: the commit must enqueue one
        client.delete(*RQAuditQueue(client).watch_keys("T1"))
    before = api.call("GET", "/v1/tables/T1").get_json()["version"]
    staged = client.llen(pending_key("T1"))
    body, path = _first_post(api)
    key = {"Idempotency-Key": "post-1"}
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    started = time.monotonic()
    refused = api.call("POST", path, "dealer", body, headers=key)
    assert refused.status_code == 503
    assert time.monotonic() - started >= WAIT_MS / 1000
    assert refused.content_type == "application/problem+json"
    assert refused.headers["Retry-After"]
    again = api.call("POST", path, "dealer", body, headers=key)
    assert again.status_code == 503
    os.kill(replica.process.pid, signal.SIGCONT)
    retried = api.call("POST", path, "dealer", body, headers=key)
    assert retried.status_code == 200, retried.get_json()
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.get_json()["version"] == before + 1
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == before + 1
    assert client.llen(pending_key("T1")) == staged + 1
    client.close()
