"""`dealerassist serve` facing the network: slow clients, and one serve beside another."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from serving import call, free_port, wait

from dealerassist.api.auth import read_plain_tokens
from dealerassist.server import control_socket_path

TABLE = {
    "table_id": "S1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}
SLOW_CLIENTS = 50
SLOW_SECONDS = 20.0
TRICKLE_SECONDS = 2.0
ANSWER_WITHIN_SECONDS = 1.0


@contextmanager
def serving(
    data_dir: Path, home: Path, *extra: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`serve` with its defaults (two web workers) under ``data_dir``, ``HOME`` at ``home``."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE", "XDG_RUNTIME_DIR")
    }
    env.update(DEALERASSIST_DATA_DIR=str(data_dir), HOME=str(home))
    command = [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port), *extra]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait(lambda: call(f"{base}/healthz")[0] == 200, 30)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _trickle(port: int, until: float, opened: threading.Barrier) -> None:
    """A slowloris client: a request line, then one header line every TRICKLE_SECONDS."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: tablet\r\n")
        opened.wait()
        while time.monotonic() < until:
            time.sleep(TRICKLE_SECONDS)
            try:
                client.sendall(b"X-Slow: 1\r\n")
            except OSError:
                return


def test_fifty_slow_clients_do_not_stop_healthz_or_a_dealers_action(tmp_path: Path) -> None:
    """Issue 19 point 1: with SLOW_CLIENTS connections trickling their headers for
    SLOW_SECONDS (sync workers: four of them stopped the API), /healthz and a dealer's
    action (seat, unseat) each answer within a second, every time."""
    home = tmp_path / "home"
    home.mkdir()
    with serving(tmp_path / "var", home) as (base, _process):
        tokens = read_plain_tokens(tmp_path / "var" / "tokens.toml")
        assert call(f"{base}/v1/tables", tokens["admin"], TABLE, "POST")[0] == 201
        port = int(base.rsplit(":", 1)[1])
        until = time.monotonic() + SLOW_SECONDS
        opened = threading.Barrier(SLOW_CLIENTS + 1)
        slow = [
            threading.Thread(target=_trickle, args=(port, until, opened), daemon=True)
            for _ in range(SLOW_CLIENTS)
        ]
        for thread in slow:
            thread.start()
        opened.wait(timeout=30)  # every slow client connected and sent its first line
        slowest = {"healthz": 0.0, "dealer": 0.0}
        answers = 0
        seated = False
        seat = f"{base}/v1/tables/S1/seats/1"
        while time.monotonic() < until - 1:
            started = time.monotonic()
            assert call(f"{base}/healthz")[0] == 200
            slowest["healthz"] = max(slowest["healthz"], time.monotonic() - started)
            started = time.monotonic()
            if seated:
                assert call(seat, tokens["dealer"], None, "DELETE")[0] == 200
            else:
                assert call(seat, tokens["dealer"], {"player": "Ann", "stack": 50}, "PUT")[0] == 200
            seated = not seated
            slowest["dealer"] = max(slowest["dealer"], time.monotonic() - started)
            answers += 1
            time.sleep(0.25)
        for thread in slow:
            thread.join(TRICKLE_SECONDS + 5)
    assert answers >= 20
    assert max(slowest.values()) < ANSWER_WITHIN_SECONDS, slowest


def test_each_serve_has_its_own_control_socket_under_its_data_dir(tmp_path: Path) -> None:
    """Issue 19 point 20: gunicorn's control socket defaulted to one per user
    (~/.gunicorn/gunicorn.ctl), so a second serve took it over from the first; each is now
    in its own data directory and nothing is made under HOME."""
    home = tmp_path / "home"
    home.mkdir()
    first, second = tmp_path / "one", tmp_path / "two"
    with serving(first, home, "--workers", "1"), serving(second, home, "--workers", "1"):
        for data_dir in (first, second):
            path = control_socket_path(data_dir)
            assert path.parent == data_dir.resolve()
            wait(path.exists, 10)
        assert not (home / ".gunicorn").exists()
