"""`dealerassist serve` end to end: embedded Redis, gunicorn workers, child audit worker, tokens."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dealerassist.adapters.embedded_redis import socket_path_for
from dealerassist.api.auth import read_plain_tokens

BODY = {
    "table_id": "S1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _call(url: str, token: str | None = None, body: Any = None, method: str = "GET") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, response.read().decode()


def _wait(predicate: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (OSError, urllib.error.URLError):
            value = None
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


@pytest.fixture
def served(tmp_path: Path) -> Any:
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE")
    }
    env["DEALERASSIST_DATA_DIR"] = str(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: _call(f"{base}/healthz")[0] == 200, 30)
        yield base, tmp_path, process
    finally:
        if process.poll() is None:  # SIGTERM first: serve then stops its embedded Redis too
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        assert process.stdout is not None
        process.stdout.close()


def test_serve_runs_the_whole_stack_and_stops_cleanly(served: Any) -> None:
    """Tokens are created, a table is created, the audit worker stores its events, and
    SIGTERM stops gunicorn, the worker and the embedded Redis."""
    base, data_dir, process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    assert set(tokens) == {"dealer", "floor", "auditor", "admin"}
    status, _ = _call(f"{base}/v1/tables", tokens["admin"], BODY, "POST")
    assert status == 201
    seat = {"player": "Ann", "stack": 50}
    assert _call(f"{base}/v1/tables/S1/seats/1", tokens["dealer"], seat, "PUT")[0] == 200
    events = _wait(
        lambda: (
            lines
            if len(lines := _call(f"{base}/v1/audit/events", tokens["auditor"])[1].splitlines())
            == 2
            else None
        ),
        20,
    )
    assert [json.loads(line)["seq"] for line in events] == [1, 2]
    assert _call(f"{base}/readyz")[0] == 200
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    output = process.stdout.read().decode()
    assert "serving on" in output and tokens["admin"] in output
    assert not socket_path_for(data_dir).exists()
    assert (data_dir / "audit.sqlite3").exists()


def _status(url: str, token: str, body: Any, method: str) -> int:
    try:
        return int(_call(url, token, body, method)[0])
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_many_tablets_on_one_table_across_processes_stay_consistent(served: Any) -> None:
    """Six threads seat and unseat their own seat on one table through two gunicorn workers:
    every 200 is exactly one version, losers get 412, and the audit chain verifies."""
    base, data_dir, _process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    assert _call(f"{base}/v1/tables", tokens["admin"], BODY, "POST")[0] == 201
    statuses: list[int] = []

    def tablet(seat: int) -> None:
        for _ in range(6):
            path = f"{base}/v1/tables/S1/seats/{seat}"
            seated = _status(path, tokens["dealer"], {"player": "P", "stack": 9}, "PUT")
            statuses.append(seated)
            if seated == 200:  # a seat lost to 412 is still empty: leaving it would be a 400
                statuses.append(_status(path, tokens["dealer"], None, "DELETE"))

    threads = [threading.Thread(target=tablet, args=(seat,)) for seat in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert set(statuses) <= {200, 409, 412}, statuses
    table = json.loads(_call(f"{base}/v1/tables/S1", tokens["floor"])[1])
    assert table["version"] == 1 + statuses.count(200)
    report = _wait(
        lambda: (
            json.loads(body)
            if (body := _call(f"{base}/v1/audit/verify", tokens["auditor"])[1])
            and json.loads(body)["events"] == 1 + statuses.count(200) + statuses.count(409)
            else None
        ),
        30,
    )
    assert report["ok"] is True, report["problems"]
