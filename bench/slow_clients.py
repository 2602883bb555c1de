"""Slow-client benchmark: ``dealerassist serve`` while ``--clients`` connections trickle their
headers (one line every ``--trickle`` seconds, never finishing the request) for ``--seconds``.

Meanwhile one client, every 0.2 s, asks ``/healthz`` and makes a dealer's action (seat a
player, unseat him, in turn) and records how long each took; a request not answered
within 5 s counts as timed out. Prints, per worker class, the answers, p50 and the
slowest of each, and the time-outs. The embedded Redis and SQLite live in a temporary
directory; nothing else is touched.

    .venv/bin/python bench/slow_clients.py [--clients 50] [--seconds 20] [--trickle 2]
        [--serve gthread:128 --serve sync:1 --serve gevent:1]

``--serve CLASS:THREADS`` may be repeated (default: what serve runs, gthread:128). gevent
needs the gevent package, which the project does not install. Note that gunicorn runs
gthread when ``sync`` is given more than one thread.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import orjson

from dealerassist.api.auth import read_plain_tokens
from dealerassist.server import THREADS, WORKER_CLASS

TABLE = {
    "table_id": "S1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}
TIMEOUT_SECONDS = 5.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(url: str, token: str | None = None, body: Any = None, method: str = "GET") -> int:
    data = None if body is None else orjson.dumps(body)
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
        response.read()
        return int(response.status)


def trickle(port: int, until: float, every: float) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_SECONDS) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: tablet\r\n")
        while time.monotonic() < until:
            time.sleep(every)
            try:
                client.sendall(b"X-Slow: 1\r\n")
            except OSError:
                return


def run(worker_class: str, threads: int, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="da-slow-") as directory:
        port = free_port()
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE")
        }
        env["DEALERASSIST_DATA_DIR"] = directory
        command = [
            sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port),
            "--worker-class", worker_class, "--threads", str(threads),
        ]  # fmt: skip
        server = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    call(f"{base}/healthz")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            tokens = read_plain_tokens(Path(directory) / "tokens.toml")
            call(f"{base}/v1/tables", tokens["admin"], TABLE, "POST")
            until = time.monotonic() + args.seconds
            slow = [
                threading.Thread(target=trickle, args=(port, until, args.trickle), daemon=True)
                for _ in range(args.clients)
            ]
            for thread in slow:
                thread.start()
            time.sleep(1)
            took: dict[str, list[float]] = {"healthz": [], "dealer": []}
            timeouts = {"healthz": 0, "dealer": 0}
            seated = False
            seat = f"{base}/v1/tables/S1/seats/1"
            while time.monotonic() < until - 0.5:
                for name in ("healthz", "dealer"):
                    started = time.monotonic()
                    try:
                        if name == "healthz":
                            call(f"{base}/healthz")
                        elif seated:
                            call(seat, tokens["dealer"], None, "DELETE")
                        else:
                            call(seat, tokens["dealer"], {"player": "Ann", "stack": 50}, "PUT")
                    except (OSError, urllib.error.URLError):
                        timeouts[name] += 1
                        continue
                    if name == "dealer":
                        seated = not seated
                    took[name].append(time.monotonic() - started)
                time.sleep(0.2)
            for thread in slow:
                thread.join(args.trickle + TIMEOUT_SECONDS)
        finally:
            server.terminate()
            server.wait(timeout=60)
    for name, times in took.items():
        shown = (
            f"p50 {statistics.median(times) * 1000:6.1f} ms  slowest {max(times) * 1000:6.1f} ms"
            if times
            else "no answer"
        )
        print(
            f"{worker_class}:{threads:<4} {args.clients} slow clients  {name:<8} "
            f"{len(times):3d} answered  {shown}  {timeouts[name]} timed out",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--trickle", type=float, default=2.0, help="seconds between lines")
    parser.add_argument("--serve", action="append", metavar="CLASS:THREADS")
    args = parser.parse_args()
    for spec in args.serve or [f"{WORKER_CLASS}:{THREADS}"]:
        worker_class, _, threads = spec.partition(":")
        run(worker_class, int(threads or 1), args)


if __name__ == "__main__":
    main()
