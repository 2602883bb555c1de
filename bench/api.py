"""API benchmark: our action endpoint against a bare Flask compare-and-set, same machine, same run.

Both run under gunicorn with ``--workers`` workers (default 2) of ``--worker-class`` (default
what ``dealerassist serve`` runs: gthread, ``--threads`` 128) on loopback:

* **bare**: ``POST /t/<table>/act`` parses the JSON body, then WATCH / GET / MULTI / SET of a
  2 KB value plus an RQ enqueue in the same pipeline / EXEC, and answers a small JSON;
* **ours**: ``POST /v1/tables/<table>/actions`` (and ``POST .../hands`` between hands) with a
  bearer token, ``If-Match`` and ``Idempotency-Key``, through schema, auth, engine, audit
  sealing and the Redis table store.

``--tablets`` client threads (default 8), each with its own table and a keep-alive
``http.client`` connection, play real hands (posts, calls, draws, showdowns) as fast as the
answers come (saturated: throughput), then again at one action per ``--pace-ms`` per tablet
(a busy room, not a saturated server: latency), then has each tablet poll its table with
``If-None-Match`` as the pages do between entries (a 304 while nothing changed; bare: a GET
of the value that compares its version). Prints actions (or polls)/s, p50 and p99 latency,
the servers' CPU per answer and the clients' (this process's) for both, and the ratios.
The clients share the 2 cores with the servers, so they are kept light, as wrk would be:
bodies are encoded and answers parsed with orjson (a 2 KB table answer costs the json
module ~4x as much, all of it CPU the servers then lack).

    .venv/bin/python bench/api.py [--tablets 8] [--seconds 5] [--rounds 3] [--workers 2]
                                  [--pace-ms 50] [--worker-class gthread] [--threads 128]

Redis: ``REDIS_URL`` if set (tables get fresh IDs; nothing is flushed), else an embedded
Redis in a temporary directory. No audit worker runs: both sides only enqueue.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import redis
from flask import Flask, jsonify, request
from rq import Queue
from rq.serializers import JSONSerializer

from dealerassist.adapters.embedded_redis import start_embedded_redis
from dealerassist.server import THREADS, WORKER_CLASS

REPO = Path(__file__).resolve().parents[1]
VALUE = "x" * 2048
CARDS = "As Ks Qs Js 9s"
PLAYERS = 3


# -- the bare baseline (gunicorn imports this module as ``api`` and calls make_bare_app) ----


def make_bare_app() -> Flask:
    """One endpoint: a WATCH/MULTI compare-and-set of a 2 KB value plus an RQ enqueue."""
    app = Flask("bare")
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    queue = Queue("bench-bare", connection=connection, serializer=JSONSerializer)

    @app.post("/t/<table_id>/act")
    def act(table_id: str) -> Any:
        body = request.get_json()
        key = f"bench:bare:{table_id}"
        with connection.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    version = int((pipe.get(key) or b"0")[:12] or 0)
                    pipe.multi()
                    pipe.set(key, f"{version + 1:012d}{VALUE}")
                    queue.enqueue_call("bench.noop", args=(table_id, body), pipeline=pipe)
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue
        return jsonify({"table_id": table_id, "version": version + 1})

    @app.get("/t/<table_id>")
    def look(table_id: str) -> Any:
        """A tablet's poll: 304 while the ETag (the version) is the one it holds."""
        raw = connection.get(f"bench:bare:{table_id}") or b"0"
        etag = f'"v{int(raw[:12] or 0)}"'
        if request.headers.get("If-None-Match") == etag:
            return "", 304, {"ETag": etag}
        return jsonify({"table_id": table_id, "value": raw[12:].decode()}), 200, {"ETag": etag}

    return app


# -- processes ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_gunicorn(
    app: str,
    port: int,
    workers: int,
    env: dict[str, str],
    worker_class: str = "sync",
    threads: int = 1,
) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "gunicorn", "--workers", str(workers),
        "--worker-class", worker_class, "--threads", str(threads), "--no-control-socket",
        "--bind", f"127.0.0.1:{port}", "--pythonpath", str(REPO / "bench"),
        "--log-level", "warning", app,
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"gunicorn for {app} did not start")


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """CPU time (user + system) of a gunicorn master and its workers so far (Linux /proc)."""
    pids = [process.pid]
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    if children.exists():
        pids += [int(pid) for pid in children.read_text().split()]
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# -- the client ---------------------------------------------------------------------------


@dataclass
class Tally:
    """Latencies (seconds) of answered actions, and the answers that were not 2xx."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, latencies: list[float], refused: int, errors: int) -> None:
        with self.lock:
            self.latencies.extend(latencies)
            self.refused += refused
            self.errors += errors


class Client:
    """One keep-alive connection (reopened when the server closes it)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.token = token

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else orjson.dumps(body)
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.connection.close()
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        raw = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, dict(response.getheaders()), orjson.loads(raw) if raw else None


def next_entry(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What a dealer enters next at this table: (path suffix, body)."""
    hand = state.get("hand")
    if hand is None or hand["phase"] == "complete" or state.get("next") is None:
        return "hands", ({"button": 1} if state.get("button") is None else {})
    nxt = state["next"]
    legal = {choice["action"]: choice for choice in nxt["legal"]}
    seat = nxt["seat"]
    if "post" in legal:
        return "actions", {"seat": seat, "action": "post"}
    for kind in ("check", "call"):
        if kind in legal:
            return "actions", {"seat": seat, "action": kind}
    if "draw" in legal:
        return "actions", {"seat": seat, "action": "draw", "count": 1}
    if "show" in legal:
        shown = any(player.get("shown") for player in hand.get("players", []))
        if shown and "muck" in legal:
            return "actions", {"seat": seat, "action": "muck"}
        return "actions", {"seat": seat, "action": "show", "cards": CARDS}
    return "actions", {"seat": seat, "action": "fold"}


class Pacer:
    """Holds a tablet to one request per ``interval`` seconds (0: as fast as answers come)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        # tablets start at random points of the interval, as at real tables (no lockstep)
        self.next_at = time.perf_counter() + random.uniform(0, interval)

    def wait(self) -> None:
        if self.interval <= 0:
            return
        self.next_at += self.interval
        time.sleep(max(0.0, self.next_at - time.perf_counter()))


def our_tablet(
    port: int,
    token: str,
    pace: float,
    table_id: str,
    deadline: float,
    tally: Tally,
    on_accepted: Callable[[str, Any, float], None] | None = None,
) -> None:
    """Play hands on one table until ``deadline``; ``on_accepted(table, answer, arrived)``
    is called with every 200 answer and the ``perf_counter`` time it arrived."""
    client = Client(port, token)
    pacer = Pacer(pace)
    status, headers, state = client.call("GET", f"/v1/tables/{table_id}")
    latencies: list[float] = []
    refused = errors = 0
    number, run = 0, f"{table_id[1:7]}-{uuid.uuid4().hex[:8]}"
    while time.perf_counter() < deadline:
        pacer.wait()
        suffix, body = next_entry(state)
        number += 1
        sent = {"If-Match": headers.get("ETag", "*"), "Idempotency-Key": f"{run}-{number}"}
        started = time.perf_counter()
        status, answer_headers, answer = client.call(
            "POST", f"/v1/tables/{table_id}/{suffix}", body, sent
        )
        arrived = time.perf_counter()
        elapsed = arrived - started
        if status == 200:
            latencies.append(elapsed)
            if on_accepted is not None:
                on_accepted(table_id, answer, arrived)
            state, headers = answer, answer_headers
            if os.environ.get("BENCH_DEBUG") and elapsed > 0.03:
                print(f"slow {elapsed * 1000:.0f} ms", suffix, body.get("action"), file=sys.stderr)
            continue
        refused += status == 409
        errors += status != 409
        if status != 409 and os.environ.get("BENCH_DEBUG"):
            print(status, suffix, body, answer, file=sys.stderr)
        status, headers, state = client.call("GET", f"/v1/tables/{table_id}")
    tally.add(latencies, refused, errors)


def bare_tablet(port: int, pace: float, table_id: str, deadline: float, tally: Tally) -> None:
    client = Client(port)
    pacer = Pacer(pace)
    latencies: list[float] = []
    errors = 0
    body = {"seat": 1, "action": "call", "amount": 10}
    while time.perf_counter() < deadline:
        pacer.wait()
        started = time.perf_counter()
        status, _, _ = client.call("POST", f"/t/{table_id}/act", body)
        if status == 200:
            latencies.append(time.perf_counter() - started)
        else:
            errors += 1
    tally.add(latencies, 0, errors)


def poller(
    port: int, token: str | None, path: str, table_id: str, deadline: float, tally: Tally
) -> None:
    """A tablet polling its table as the pages do between entries (``If-None-Match``: 304
    while nothing changed), as fast as the answers come; a 304 counts as answered."""
    client = Client(port, token)
    _, headers, _ = client.call("GET", path.format(table_id))
    etag = headers.get("ETag", "")
    latencies: list[float] = []
    errors = 0
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        status, _, _ = client.call("GET", path.format(table_id), None, {"If-None-Match": etag})
        if status == 304:
            latencies.append(time.perf_counter() - started)
        else:
            errors += 1
    tally.add(latencies, 0, errors)


def drive(tablet: Callable[[str, float, Tally], None], tables: list[str], seconds: float) -> Tally:
    """Run one thread per table for ``seconds``; return what they measured."""
    tally = Tally()
    deadline = time.perf_counter() + seconds
    threads = [threading.Thread(target=tablet, args=(t, deadline, tally)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


# -- setup and report -----------------------------------------------------------------------


def setup_tables(port: int, admin: str, dealer: str, tables: list[str]) -> None:
    admin_client, dealer_client = Client(port, admin), Client(port, dealer)
    for table_id in tables:
        body = {
            "table_id": table_id, "variant": "five_card_draw", "structure": "fixed_limit",
            "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
            "profile": "casino-five-card-draw",
        }  # fmt: skip
        status, _, answer = admin_client.call("POST", "/v1/tables", body)
        assert status == 201, answer
        for seat in range(1, PLAYERS + 1):
            player = {"player": f"P{seat}", "stack": 10**9}
            status, _, answer = dealer_client.call(
                "PUT", f"/v1/tables/{table_id}/seats/{seat}", player
            )
            assert status == 200, answer


def measure(
    name: str,
    server: subprocess.Popen[bytes],
    tablet: Callable[[str, float, Tally], None],
    tables: list[str],
    args: argparse.Namespace,
) -> dict[str, float]:
    """Drive the tablets for ``args.seconds`` and print what they and the server's CPU saw."""
    cpu, client = cpu_seconds(server), time.process_time()
    tally = drive(tablet, tables, args.seconds)
    client = time.process_time() - client
    return summary(name, tally, args.seconds, cpu_seconds(server) - cpu, client)


def summary(name: str, tally: Tally, seconds: float, cpu: float, client: float) -> dict[str, float]:
    """Print one run; ``cpu`` is the server's CPU seconds, ``client`` this process's (the
    tablets share the 2 cores with the servers, so a heavier client leaves them less)."""
    ordered = sorted(tally.latencies)
    rate = len(ordered) / seconds
    p50 = statistics.median(ordered) * 1000 if ordered else float("nan")
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000 if ordered else float("nan")
    answered = max(len(ordered), 1)
    print(
        f"{name:<11} {rate:6.0f} actions/s   p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   "
        f"server CPU {cpu / answered * 1000:5.2f} ms/action   "
        f"client CPU {client / answered * 1000:5.2f} ms/action   "
        f"({len(ordered)} answered, {tally.refused} refused 409, {tally.errors} errors)",
        flush=True,
    )
    return {"rate": rate, "p50": p50, "p99": p99}


def write_tokens(path: Path) -> tuple[str, str]:
    admin, dealer = uuid.uuid4().hex, uuid.uuid4().hex
    path.write_text(
        f'[[tokens]]\nname = "admin"\nrole = "admin"\ntoken = "{admin}"\n\n'
        f'[[tokens]]\nname = "tablet"\nrole = "dealer"\ntoken = "{dealer}"\n'
    )
    return admin, dealer


def clean_up(redis_url: str, run_id: str) -> int:
    """Delete what this run left in a shared Redis (its tables, records, events and jobs)."""
    connection = redis.Redis.from_url(redis_url)
    Queue("bench-bare", connection=connection, serializer=JSONSerializer).empty()
    audit = Queue("audit", connection=connection, serializer=JSONSerializer)
    for job in audit.jobs:
        if job.args and str(job.args[0]).startswith(f"B{run_id}"):
            job.delete()
    patterns = [
        f"da:table:{{B{run_id}*", f"da:audit:*:{{B{run_id}*", f"da:idem:{{B{run_id}*",
        f"bench:bare:B{run_id}*",
    ]  # fmt: skip
    keys = [key for pattern in patterns for key in connection.scan_iter(match=pattern)]
    if keys:
        connection.delete(*keys)
    connection.srem("da:audit:tables", *[f"B{run_id}{i}" for i in range(100)])
    connection.close()
    return len(keys)


def start_both(
    servers: dict[str, subprocess.Popen[bytes]],
    env: dict[str, str],
    workers: int,
    admin: str,
    dealer: str,
    tables: list[str],
    ports: dict[str, int] | None = None,
    worker_class: str = WORKER_CLASS,
    threads: int = THREADS,
) -> dict[str, Callable[..., None]]:
    """Start the bare and our gunicorn, set up our tables, warm both up; return the tablets."""
    tablets: dict[str, Callable[..., None]] = {}
    for name, app in (
        ("bare", "api:make_bare_app()"),
        ("ours", "dealerassist.api:create_served_app()"),
    ):
        port = free_port()
        if ports is not None:
            ports[name] = port
        servers[name] = start_gunicorn(app, port, workers, env, worker_class, threads)
        if name == "ours":
            setup_tables(port, admin, dealer, tables)
            tablets[name] = partial(our_tablet, port, dealer)
        else:
            tablets[name] = partial(bare_tablet, port)
        drive(partial(tablets[name], 0.0), tables, 1.0)
    return tablets


def compare(
    servers: dict[str, subprocess.Popen[bytes]],
    tablets: dict[str, Callable[..., None]],
    tables: list[str],
    args: argparse.Namespace,
) -> list[tuple[dict[str, float], dict[str, float]]]:
    """Saturated runs, bare and ours alternating, so a change in the machine's load hits both."""
    rounds = []
    for _ in range(args.rounds):
        bare = measure("bare", servers["bare"], partial(tablets["bare"], 0.0), tables, args)
        ours = measure("ours", servers["ours"], partial(tablets["ours"], 0.0), tables, args)
        rounds.append((bare, ours))
    return rounds


@dataclass
class Bench:
    """One benchmark run's surroundings: a temporary folder, Redis, tokens, the servers' env."""

    directory: Path
    redis_url: str
    embedded: bool
    admin: str
    dealer: str
    env: dict[str, str]
    run_id: str  # tables are named B<run_id>..., so a shared Redis is cleaned of them after

    @property
    def redis_label(self) -> str:
        return "embedded" if self.embedded else self.redis_url


@contextmanager
def bench_environment(prefix: str) -> Iterator[Bench]:
    """Redis (``REDIS_URL``, else an embedded one in a temporary folder) and a tokens file;
    on exit the embedded Redis stops, or this run's keys are deleted from the shared one."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        directory = Path(folder)
        embedded = None
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            embedded = start_embedded_redis(directory / "redis")
            redis_url = embedded.url
        admin, dealer = write_tokens(directory / "tokens.toml")
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "DEALERASSIST_TOKENS_FILE": str(directory / "tokens.toml"),
            "DEALERASSIST_DATA_DIR": str(directory),
            "BENCH_ADMIN_TOKEN": admin,
        }
        run_id = uuid.uuid4().hex[:6]
        try:
            yield Bench(directory, redis_url, embedded is not None, admin, dealer, env, run_id)
        finally:
            if embedded is not None:
                embedded.stop()
            else:
                clean_up(redis_url, run_id)


def run(args: argparse.Namespace) -> None:
    with bench_environment("da-bench-") as bench:
        bench.env["DATABASE_URL"] = f"sqlite:///{bench.directory / 'audit.sqlite3'}"
        tables = [f"B{bench.run_id}{index}" for index in range(args.tablets)]
        print(
            f"{args.tablets} tablets, {args.rounds} x {args.seconds:g} s each, "
            f"gunicorn {args.workers} {args.worker_class} workers ({args.threads} threads), "
            f"Redis {bench.redis_label}, {os.cpu_count()} cores",
            flush=True,
        )
        servers: dict[str, subprocess.Popen[bytes]] = {}
        try:
            servers_port: dict[str, int] = {}
            tablets = start_both(
                servers, bench.env, args.workers, bench.admin, bench.dealer, tables, servers_port,
                args.worker_class, args.threads,
            )  # fmt: skip
            rounds = compare(servers, tablets, tables, args)
            paced = {
                name: measure(f"{name} paced", servers[name],
                              partial(tablets[name], args.pace_ms / 1000), tables, args)
                for name in ("bare", "ours")
            }  # fmt: skip
            pollers = {
                "bare": partial(poller, servers_port["bare"], None, "/t/{}"),
                "ours": partial(poller, servers_port["ours"], bench.dealer, "/v1/tables/{}"),
            }
            polls = {
                name: measure(f"{name} polls", servers[name], pollers[name], tables, args)
                for name in ("bare", "ours")
            }
            ratios = sorted(ours["rate"] / bare["rate"] for bare, ours in rounds)
            print(
                f"ratio ours/bare: median {statistics.median(ratios):.2f} of {len(ratios)} "
                f"alternating rounds (range {ratios[0]:.2f}-{ratios[-1]:.2f}; goal >= 0.70); "
                f"ours p99 {paced['ours']['p99']:.2f} ms at one action per {args.pace_ms:g} ms "
                "per tablet (goal <= 15 ms)",
                flush=True,
            )
            print(
                f"polls answered 304 (If-None-Match, nothing changed): ours "
                f"{polls['ours']['rate']:.0f}/s against bare {polls['bare']['rate']:.0f}/s, "
                f"ratio {polls['ours']['rate'] / polls['bare']['rate']:.2f}",
                flush=True,
            )
        finally:
            for server in servers.values():
                stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="per run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating saturated runs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default=WORKER_CLASS, help="both servers' (sync: before)")
    parser.add_argument("--threads", type=int, default=THREADS, help="per gthread worker")
    parser.add_argument(
        "--pace-ms", type=float, default=50.0, help="per tablet, for the latency run"
    )
    run(parser.parse_args())


if __name__ == "__main__":
    main()
