"""Abuse benchmark (issue 19 point 10): what one token's flood of refused entries stores, and
what two auditors looping the synchronous verify do to a tablet, with the rate limits off
and on (same code, same data; "off" sets the limits out of reach).

It runs ``dealerassist serve`` (embedded Redis, SQLite, 2 sync workers, the audit and
verification workers) on a free loopback port in a temporary data directory:

1. **flood**: one dealer token posts an out-of-turn fold as fast as answers come for
   ``--seconds``; printed: refusals sent, and events the table stored (its chain head).
2. **verify load**: the flooded table of phase 1 with the limits off (every refusal stored)
   is verified by two auditor tokens in a loop, while a tablet reads its own table
   (``GET /v1/tables/{id}``) every 20 ms; printed: the tablet's p50/p99/max latency, and
   the auditors' answers by status (200, 429).

    .venv/bin/python bench/abuse.py [--seconds 20]
"""

from __future__ import annotations

import argparse
import json
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

REPO = Path(__file__).resolve().parents[1]
TOKENS = {"admin": "admin", "dealer": "dealer", "dealer-2": "dealer", "tablet": "dealer",
          "auditor-a": "auditor", "auditor-b": "auditor"}  # fmt: skip
OFF = {
    "DEALERASSIST_REFUSALS_PER_WINDOW": str(10**9),
    "DEALERASSIST_VERIFY_SYNC_CONCURRENCY": "1000",
    "DEALERASSIST_VERIFY_SYNC_EVENTS_PER_MINUTE": str(10**12),
}
TABLE = {"variant": "five_card_draw", "structure": "fixed_limit",
         "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
         "profile": "casino-five-card-draw"}  # fmt: skip


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _call(base: str, who: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {who}-secret")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Serve:
    """``dealerassist serve`` over ``data_dir`` with or without the rate limits."""

    def __init__(self, data_dir: Path, limits: bool) -> None:
        tokens = data_dir / "bench-tokens.toml"
        tokens.write_text("".join(
            f'[[tokens]]\nname = "{name}"\nrole = "{role}"\ntoken = "{name}-secret"\n\n'
            for name, role in TOKENS.items()
        ))  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env |= {"DEALERASSIST_DATA_DIR": str(data_dir), "DEALERASSIST_TOKENS_FILE": str(tokens)}
        if not limits:
            env |= OFF
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port)],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if _call(self.base, "admin", "GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("serve did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


def _table(base: str, table_id: str) -> None:
    status, _ = _call(base, "admin", "POST", "/v1/tables", {**TABLE, "table_id": table_id})
    if status == 409:  # there already (the second serve, on the same data)
        return
    assert status == 201
    for seat in (1, 2, 3):
        body = {"player": f"P{seat}", "stack": 500}
        _call(base, "dealer", "PUT", f"/v1/tables/{table_id}/seats/{seat}", body)
    _call(base, "dealer", "POST", f"/v1/tables/{table_id}/hands", {"button": 1})


def _head(base: str, table_id: str) -> int:
    """Events the table's chain holds (the audit store's count once drained)."""
    status, found = _call(base, "admin", "GET", f"/v1/audit/verify?table_id={table_id}")
    assert status == 200, found
    return int(found["events"])


def flood(base: str, who: str, table_id: str, seconds: float) -> tuple[int, int]:
    """One token's refusals for ``seconds``: (sent, events stored once drained). (A token's
    count outlives a restart of serve within its window: each run floods with its own.)"""
    _table(base, table_id)
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        _call(base, who, "POST", f"/v1/tables/{table_id}/actions",
              {"seat": 1, "action": "fold"})  # fmt: skip
        sent += 1
    time.sleep(3)  # the drain
    return sent, _head(base, table_id)


def verify_load(base: str, table_id: str, seconds: float) -> dict[str, Any]:
    """Two auditors loop verify of ``table_id`` while a tablet reads its table every 20 ms."""
    _table(base, "TAB")
    stop = threading.Event()
    statuses: dict[int, int] = {}
    latencies: list[float] = []

    def audit(who: str) -> None:
        while not stop.is_set():
            status, _ = _call(base, who, "GET", f"/v1/audit/verify?table_id={table_id}")
            statuses[status] = statuses.get(status, 0) + 1
            if status == 429:
                time.sleep(0.05)

    def tablet() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            _call(base, "tablet", "GET", "/v1/tables/TAB")
            latencies.append(time.perf_counter() - started)
            time.sleep(0.02)

    threads = [threading.Thread(target=audit, args=(who,)) for who in ("auditor-a", "auditor-b")]
    threads.append(threading.Thread(target=tablet))
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    ms = sorted(latency * 1000 for latency in latencies)
    return {"reads": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p99_ms": round(ms[int(len(ms) * 0.99) - 1], 1), "max_ms": round(ms[-1], 1),
            "auditors": dict(sorted(statuses.items()))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dealerassist-abuse-") as tmp:
        data = Path(tmp)
        serve = Serve(data, limits=False)
        try:
            sent, stored = flood(serve.base, "dealer", "BIG", args.seconds)
            print(f"limits off: flood {sent} refusals in {args.seconds:g} s -> {stored} events")
            print(f"limits off: verify load over {stored} events:",
                  verify_load(serve.base, "BIG", args.seconds))  # fmt: skip
        finally:
            serve.stop()
        serve = Serve(data, limits=True)
        try:
            sent, stored_on = flood(serve.base, "dealer-2", "FLOOD2", args.seconds)
            print(f"limits on:  flood {sent} refusals in {args.seconds:g} s -> {stored_on} events")
            print(f"limits on:  verify load over {stored} events:",
                  verify_load(serve.base, "BIG", args.seconds))  # fmt: skip
        finally:
            serve.stop()


if __name__ == "__main__":
    main()
