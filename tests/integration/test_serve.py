"""`dealerassist serve` end to end: embedded Redis, gunicorn workers, child audit worker, tokens."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from serving import call, free_port, served, status, wait

from dealerassist.adapters.embedded_redis import socket_path_for
from dealerassist.api.auth import read_plain_tokens

__all__ = ["served"]  # the fixture, from tests/serving.py

BODY = {
    "table_id": "S1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}


def test_serve_runs_the_whole_stack_and_stops_cleanly(served: Any) -> None:
    """Tokens are created, a table is created, the audit worker stores its events, and
    SIGTERM stops gunicorn, the worker and the embedded Redis."""
    base, data_dir, process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    assert set(tokens) == {"dealer", "floor", "auditor", "admin", "monitor"}
    status, _ = call(f"{base}/v1/tables", tokens["admin"], BODY, "POST")
    assert status == 201
    seat = {"player": "Ann", "stack": 50}
    assert call(f"{base}/v1/tables/S1/seats/1", tokens["dealer"], seat, "PUT")[0] == 200
    events = wait(
        lambda: (
            lines
            if len(lines := call(f"{base}/v1/audit/events", tokens["auditor"])[1].splitlines()) == 2
            else None
        ),
        20,
    )
    assert [json.loads(line)["seq"] for line in events] == [1, 2]
    # ready once both workers have said they live (on a loaded machine the verify worker
    # may come up after the drain has already stored the events)
    assert wait(lambda: call(f"{base}/readyz")[0] == 200, 20)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    output = process.stdout.read().decode()
    assert "serving on" in output and tokens["admin"] in output
    assert "Traceback" not in output, output  # a clean stop: no error from any process
    assert not socket_path_for(data_dir).exists()
    assert (data_dir / "audit.sqlite3").exists()


def test_many_tablets_on_one_table_across_processes_stay_consistent(served: Any) -> None:
    """Six threads seat and unseat their own seat on one table through two gunicorn workers:
    every 200 is exactly one version, losers get 412, and the audit chain verifies."""
    base, data_dir, _process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    assert call(f"{base}/v1/tables", tokens["admin"], BODY, "POST")[0] == 201
    statuses: list[int] = []

    def tablet(seat: int) -> None:
        # An entry lost to 412 changed nothing: a seat whose PUT lost is still empty, one
        # whose DELETE lost is still taken (sitting down there again would be a 400), so
        # each tablet enters what its seat's true state calls for next.
        path = f"{base}/v1/tables/S1/seats/{seat}"
        seated = False
        for _ in range(6):
            if not seated:
                answered = status(path, tokens["dealer"], {"player": "P", "stack": 9}, "PUT")
                statuses.append(answered)
                seated = answered == 200
            if seated:
                answered = status(path, tokens["dealer"], None, "DELETE")
                statuses.append(answered)
                seated = answered != 200

    threads = [threading.Thread(target=tablet, args=(seat,)) for seat in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert set(statuses) <= {200, 409, 412}, statuses
    table = json.loads(call(f"{base}/v1/tables/S1", tokens["floor"])[1])
    assert table["version"] == 1 + statuses.count(200)
    report = wait(
        lambda: (
            json.loads(body)
            if (body := call(f"{base}/v1/audit/verify", tokens["auditor"])[1])
            and json.loads(body)["events"] == 1 + statuses.count(200) + statuses.count(409)
            else None
        ),
        30,
    )
    assert report["ok"] is True, report["problems"]


@pytest.mark.parametrize("workers_started", [True, False], ids=["workers-running", "early"])
def test_ctrl_c_in_the_terminal_stops_serve_its_workers_and_redis_without_a_traceback(
    tmp_path: Path, workers_started: bool
) -> None:
    """A Ctrl-C sends SIGINT to the terminal's whole process group: serve, its web and RQ
    workers. The embedded Redis runs in its own session, so it does not die under the workers
    still draining into it; serve stops it last. Nothing prints a traceback, also when the
    Ctrl-C comes while the RQ workers are still importing or starting (``early``: they
    ignore it until RQ's own handlers are in place, and serve stops them)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env["DEALERASSIST_DATA_DIR"] = str(tmp_path)
    env.pop("DEALERASSIST_TOKENS_FILE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a process group of its own, as a terminal gives it
    )
    try:
        wait(lambda: call(f"http://127.0.0.1:{port}/healthz")[0] == 200, 30)
        if workers_started:  # both RQ workers registered, RQ's signal handlers (nearly) set
            client = redis.Redis(unix_socket_path=str(socket_path_for(tmp_path)))
            wait(lambda: client.scard("rq:workers") == 2, 30)
            client.close()
        else:  # the answer to the last /healthz poll on its way out first, not the children
            time.sleep(0.3)
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=40) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.stdout is not None
    output = process.stdout.read().decode()
    process.stdout.close()
    assert "Traceback" not in output, output
    assert not socket_path_for(tmp_path).exists()  # Redis stopped, after the workers
