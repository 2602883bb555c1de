"""Redis Sentinel processes for the failover test: each on a free loopback port with its
own (rewritable) configuration file, monitoring one primary under ``SERVICE``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import redis
from redis_servers import free_port, stop_process, wait_for_ping

SERVICE = "da"
QUORUM = 2
# quick for a test (production: the defaults, 30 s and 3 min, or a few seconds on a LAN)
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 4000


class SentinelServer:
    """``redis-server --sentinel`` on 127.0.0.1:``port`` watching the primary at
    ``primary_port``."""

    def __init__(self, directory: Path, executable: str, primary_port: int) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.executable = executable
        self.port = free_port()
        self.config = directory / "sentinel.conf"
        self.config.write_text(
            f"port {self.port}\n"
            "bind 127.0.0.1\n"
            f"dir {directory}\n"
            f"logfile {directory / 'sentinel.log'}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {primary_port} {QUORUM}\n"
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> SentinelServer:
        command = [self.executable, str(self.config), "--sentinel"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        wait_for_ping(self.port, "sentinel")
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=1, decode_responses=True)

    def primary_port(self) -> int | None:
        """The port of the primary this sentinel names now."""
        client = self.client()
        try:
            address = client.execute_command("SENTINEL", "get-master-addr-by-name", SERVICE)
        except redis.RedisError:
            return None
        finally:
            client.close()
        return None if not address else int(address[1])

    def knows(self, replicas: int, sentinels: int) -> bool:
        """Whether this sentinel sees ``replicas`` live replicas and ``sentinels`` others."""
        client = self.client()
        try:
            seen_replicas = client.execute_command("SENTINEL", "replicas", SERVICE)
            seen_sentinels = client.execute_command("SENTINEL", "sentinels", SERVICE)
        except redis.RedisError:
            return False
        finally:
            client.close()
        live = [entry for entry in seen_replicas if "s_down" not in _flags(entry)]
        return len(live) >= replicas and len(seen_sentinels) >= sentinels

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)


def _flags(entry: object) -> str:
    if isinstance(entry, dict):
        return str(entry.get("flags", ""))
    items = list(entry) if isinstance(entry, list | tuple) else []
    fields = dict(zip(items[::2], items[1::2], strict=False))
    return str(fields.get("flags", ""))
