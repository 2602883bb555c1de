"""`dealerassist serve` in a subprocess for the tests that need the whole stack (embedded
Redis, gunicorn workers, the child audit worker, generated tokens): the integration tests of
`serve` and the browser tests share the ``served`` fixture and these small HTTP helpers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(url: str, token: str | None = None, body: Any = None, method: str = "GET") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, response.read().decode()


def wait(predicate: Any, seconds: float) -> Any:
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


def start_serve(data_dir: Path, workers: int) -> tuple[str, subprocess.Popen[bytes]]:
    """``dealerassist serve`` on a free port with its embedded defaults under ``data_dir``
    (none of the caller's Redis, database or tokens), its output on a pipe; its base URL."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE")
    }
    env["DEALERASSIST_DATA_DIR"] = str(data_dir)
    command = [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--workers", str(workers)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    return f"http://127.0.0.1:{port}", process


@pytest.fixture
def served(tmp_path: Path) -> Any:
    base, process = start_serve(tmp_path, workers=2)
    try:
        wait(lambda: call(f"{base}/healthz")[0] == 200, 30)
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


def status(url: str, token: str, body: Any, method: str) -> int:
    try:
        return int(call(url, token, body, method)[0])
    except urllib.error.HTTPError as error:
        return int(error.code)
