"""Shift sessions that ran out, recorded by real audit worker processes on a real Redis
(``worker.ShiftExpiry`` in the worker's duties; ``service.shifts.expire_shifts``). The
sessions here last 2 seconds of the real clock, so their Redis keys really expire too: the
sweep works from its own index, and a worker started after the end records it at its
true time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from fakes import draw_table
from rq import Worker

from dealerassist import worker
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.envelope import DEALER_ON_DUTY, parse_at
from dealerassist.audit.verify import verify
from dealerassist.service import shifts
from dealerassist.service import tables as uc
from dealerassist.service.ports import Services
from dealerassist.service.shifts import Shift, ShiftLimits
from dealerassist.service.tables import Actor, Preconditions

REPO = Path(__file__).resolve().parents[2]
ADMIN = Actor("boss", "admin")
SHORT = ShiftLimits(shift_seconds=2, scrypt_n=2**4)
PIN = "4821"
PROFILE = "casino-five-card-draw"


@pytest.fixture
def room(services: Services) -> Services:
    """Tables T1-T3 and dealers E1, E2; sessions of 2 seconds."""
    short = replace(services, shift_limits=SHORT)
    for table_id in ("T1", "T2", "T3"):
        uc.create_table(short, draw_table(table_id, PROFILE), ADMIN, Preconditions())
    for employee_id, name in (("E1", "Ada Lee"), ("E2", "Ben Ortiz")):
        shifts.set_dealer(short, employee_id, name, PIN)
    return short


@pytest.fixture
def workers(redis_url: str, sql_url: str, tmp_path: Path) -> Iterator[Callable[[int], list[Any]]]:
    """Start ``n`` audit worker processes (``dealerassist worker``); all stopped at the end."""
    started: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": sql_url}
    command = [sys.executable, "-m", "dealerassist.cli", "worker", "--log-level", "ERROR"]

    def start(count: int) -> list[Any]:
        batch = [subprocess.Popen(command, cwd=REPO, env=env) for _ in range(count)]
        started.extend(batch)
        return batch

    yield start
    for process in started:
        process.kill()
        process.wait(timeout=30)


def _stop(processes: list[Any], connection: redis.Redis) -> None:
    """SIGTERM once RQ's loop of each runs (its warm shutdown: exit 0); the worker's
    duties start before that loop, so an earlier signal would find no handler yet."""
    _wait(lambda: len(Worker.all(connection=connection)) >= len(processes))
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        assert process.wait(timeout=30) == 0


def _sign_in(services: Services, table_id: str, employee_id: str, name: str) -> Shift:
    code = shifts.register_tablet(services, name, [table_id])["pairing_code"]
    tablet = shifts.tablet_for_credential(
        services, shifts.pair_tablet(services, code)["credential"]
    )
    assert tablet is not None
    return shifts.sign_in(services, tablet, table_id, employee_id, PIN)[1]


def _on_duty(services: Services, table_id: str) -> str | None:
    record = services.tables.load(table_id)
    assert record is not None
    return record.head.dealer


def _wait(done: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def _duty(store: SqlAuditStore, table_id: str) -> list[dict[str, Any]]:
    return [e for e in store.iter_events(table_id) if e["kind"] == DEALER_ON_DUTY]


def test_expiries_are_recorded_once_at_their_true_time_across_a_worker_restart(
    room: Services,
    workers: Callable[[int], list[Any]],
    redis_url: str,
    sql_url: str,
    redis_client: redis.Redis,
) -> None:
    """A running worker clears E1 at T1 within seconds of his session's end. With no worker
    running, E2's session at T2 and E1's at T3 run out; a floor entry at T2 meanwhile still
    names E2 (nothing can clear him before a worker runs); E1 signs in at T3 again. Two
    workers started then record E2's end once, dated at the session's end (before that
    entry, noticed after it), and leave E1 on duty at T3. The chains verify, replay included."""
    first = workers(1)
    at_t1 = _sign_in(room, "T1", "E1", "Tablet A")
    _wait(lambda: _on_duty(room, "T1") is None)
    _stop(first, redis_client)

    at_t2 = _sign_in(room, "T2", "E2", "Tablet B")
    at_t3 = _sign_in(room, "T3", "E1", "Tablet C")
    _wait(lambda: datetime.now(UTC) > parse_at(at_t3.expires_at), 10)
    assert redis_client.exists(f"da:shift:{at_t2.token_sha256}") == 0  # Redis's TTL ended it
    meanwhile = uc.seat_player(room, "T2", 1, "Ann", 100, Actor("floor-anna", "floor"),
                               Preconditions())  # fmt: skip
    assert meanwhile.version == 2 and _on_duty(room, "T2") == "E2"
    twelve_hours = replace(room, shift_limits=replace(SHORT, shift_seconds=12 * 3600))
    again = _sign_in(twelve_hours, "T3", "E1", "Tablet D")
    assert _on_duty(room, "T3") == "E1"

    later = workers(2)
    _wait(lambda: _on_duty(room, "T2") is None)
    store = SqlAuditStore(sql_url)
    try:
        _wait(lambda: len(_duty(store, "T2")) == 2)
        time.sleep(1.5)  # a second worker's sweep would have come by now
        _stop(later, redis_client)
        worker.run_worker(redis_url, sql_url, burst=True, with_scheduler=False)  # the rest
        expired = [e for e in _duty(store, "T2") if e["payload"]["reason"] == "expired"]
        assert len(expired) == 1 and expired[0]["at"] == at_t2.expires_at
        seated = next(e for e in store.iter_events("T2") if e["kind"] == "seat")
        assert seated["dealer"] == "E2" and seated["seq"] < expired[0]["seq"]
        assert parse_at(expired[0]["at"]) < parse_at(seated["at"])
        assert parse_at(expired[0]["payload"]["noticed_at"]) > parse_at(seated["at"])
        (t1_expired,) = [e for e in _duty(store, "T1") if e["payload"]["reason"] == "expired"]
        assert t1_expired["at"] == at_t1.expires_at and t1_expired["payload"]["previous"] == "E1"
        assert [e["payload"]["reason"] for e in _duty(store, "T3")] == ["sign_in", "sign_in"]
        assert _on_duty(room, "T3") == "E1" and shifts.shift_is_live(room, again)
        assert redis_client.zcard("da:shift-expiries") == 1  # E1's live session only
        answer = verify(store.iter_events(), room.profiles.version)
        assert answer["ok"], answer["problems"]
    finally:
        store.dispose()
