"""What the metrics cost: our API with /metrics on against the same API with it off, same
machine, same run, as a ratio.

Two gunicorn servers of ``dealerassist.api:create_served_app()`` (``--workers`` 2 gthread
workers each, as ``dealerassist serve`` runs them) share one Redis, each with tables of its
own:

* **on**: ``PROMETHEUS_MULTIPROC_DIR`` set, as serve sets it: every answer is counted in
  the latency histogram (a lock and two writes to the process's memory-mapped file), and a
  refusal by its rule;
* **off**: ``DEALERASSIST_METRICS=off``: no counting, no /metrics. Both write request IDs
  and the same (default: errors only) access lines, so the ratio is the metrics' alone.

``--tablets`` client threads play hands as fast as the answers come, on then off, for
``--rounds`` alternating rounds (a change in the machine's load hits both), then poll
their tables with ``If-None-Match`` (a 304 is the cheapest answer, so the counting is the
largest share of it). Prints each round, the median ratios on/off of answers per second
and of the servers' CPU per answer, and what one scrape of /metrics costs after the run.

On a shared, loaded machine the servers' rates swing more between rounds than the metrics
cost, so ``--in-process`` measures the same two apps in this one process instead (Flask's
test client, no HTTP, no gunicorn): blocks of polls (304) and of entries on each, on and off
alternating, CPU time per answer (``time.process_time``), which the machine's load disturbs
far less. It prints the microseconds the counting adds to an answer and the ratios.

    .venv/bin/python bench/metrics_overhead.py [--tablets 8] [--seconds 5] [--rounds 5]
    .venv/bin/python bench/metrics_overhead.py --in-process [--rounds 7] [--requests 2000]
    .venv/bin/python bench/metrics_overhead.py --callgrind [--requests 2000]

``--callgrind`` counts instructions instead (valgrind's callgrind; the load changes none):
for each side a child process answers ``--requests``/10 polls or /40 entries after the same
setup as a child that answers none, and the difference, per answer, is the answers' cost.

Redis: ``REDIS_URL`` if set (fresh table IDs, cleaned after), else an embedded one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from api import (
    Client,
    Tally,
    bench_environment,
    cpu_seconds,
    drive,
    free_port,
    next_entry,
    our_tablet,
    poller,
    setup_tables,
    start_gunicorn,
    stop,
)

from dealerassist.server import THREADS, WORKER_CLASS

APP = "dealerassist.api:create_served_app()"


def run_once(
    server: subprocess.Popen[bytes], tablet: Any, tables: list[str], seconds: float
) -> tuple[float, float]:
    """Answers per second and server CPU milliseconds per answer of one run."""
    cpu = cpu_seconds(server)
    tally: Tally = drive(tablet, tables, seconds)
    used = cpu_seconds(server) - cpu
    answered = max(len(tally.latencies), 1)
    return len(tally.latencies) / seconds, used / answered * 1000


def warm_up(port: int, token: str, workers: int, seconds: float = 120.0) -> None:
    """Have each worker build its services (a second or ten on a loaded machine) before the
    tables are set up: a few reads that need them, retried while they time out."""
    deadline = time.monotonic() + seconds
    answered = 0
    while answered < 4 * workers:
        try:
            status, _, _ = Client(port, token).call("GET", "/v1/profiles/casino-five-card-draw")
        except (TimeoutError, OSError):
            if time.monotonic() > deadline:
                raise
            continue
        assert status == 200, status
        answered += 1


def scrape_cost(port: int, token: str, times: int = 20) -> tuple[float, int]:
    """Median milliseconds of one GET /metrics, and the samples it carries."""
    client = Client(port, token)
    spent = []
    lines = 0
    for _ in range(times):
        client.connection.request("GET", "/metrics", headers={"Authorization": f"Bearer {token}"})
        started = time.perf_counter()
        response = client.connection.getresponse()
        body = response.read()
        spent.append(time.perf_counter() - started)
        assert response.status == 200, body[:200]
        lines = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    return statistics.median(spent) * 1000, lines


class Side:
    """One app (metrics on or off) in this process, through Flask's test client, with a
    table of three players of its own."""

    DEALER: ClassVar[dict[str, str]] = {"Authorization": "Bearer d"}

    def __init__(self, name: str, bench: Any) -> None:
        from dealerassist.api import create_app
        from dealerassist.api.auth import Role, Token, TokenBook, digest
        from dealerassist.settings import Settings

        book = TokenBook(
            [Token("tablet", Role.DEALER, digest("d")), Token("a", Role.ADMIN, digest("a"))]
        )
        settings = Settings(
            data_dir=bench.directory,
            redis_url=bench.redis_url,
            database_url=f"sqlite:///{bench.directory / 'audit.sqlite3'}",
            metrics=name == "on",
        )
        self.client = create_app({"SETTINGS": settings, "TOKENS": book}).test_client()
        self.table = f"B{bench.run_id}{name}"
        body = {
            "table_id": self.table, "variant": "five_card_draw", "structure": "fixed_limit",
            "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
            "profile": "casino-five-card-draw",
        }  # fmt: skip
        admin = {"Authorization": "Bearer a"}
        assert self.client.post("/v1/tables", json=body, headers=admin).status_code == 201
        for seat in (1, 2, 3):
            player = {"player": f"P{seat}", "stack": 10**9}
            path = f"/v1/tables/{self.table}/seats/{seat}"
            assert self.client.put(path, json=player, headers=self.DEALER).status_code == 200

    def state(self) -> Any:
        return self.client.get(f"/v1/tables/{self.table}", headers=self.DEALER)

    def polls(self, count: int) -> None:
        """``count`` polls answered 304 (nothing changed)."""
        sent = {**self.DEALER, "If-None-Match": self.state().headers["ETag"]}
        for _ in range(count):
            self.client.get(f"/v1/tables/{self.table}", headers=sent)

    def entries(self, count: int) -> None:
        """``count`` entries of real hands (posts, calls, draws, showdowns)."""
        state = self.state().get_json()
        for _ in range(count):
            suffix, body = next_entry(state)
            path = f"/v1/tables/{self.table}/{suffix}"
            answer = self.client.post(path, json=body, headers=self.DEALER)
            state = (answer if answer.status_code == 200 else self.state()).get_json()


def in_process(rounds: int, requests: int) -> None:
    """Both apps in this process: CPU microseconds per poll and per entry, on and off."""
    with bench_environment("da-metrics-inproc-") as bench:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(bench.directory)  # as serve sets it
        sides = {name: Side(name, bench) for name in ("on", "off")}
        for kind in ("polls", "entries"):
            count = requests if kind == "polls" else max(1, requests // 4)

            def measure(name: str, kind: str = kind, count: int = count) -> float:
                started = time.process_time()
                getattr(sides[name], kind)(count)
                return (time.process_time() - started) / count * 1e6

            measure("on"), measure("off")  # warm both
            found: dict[str, list[float]] = {"on": [], "off": []}
            for number in range(rounds):
                for name in ("on", "off") if number % 2 == 0 else ("off", "on"):
                    found[name].append(measure(name))
            on, off = statistics.median(found["on"]), statistics.median(found["off"])
            ratios = [a / b for a, b in zip(found["on"], found["off"], strict=True)]
            print(
                f"{kind:<7} CPU per answer: metrics on {on:7.1f} us, off {off:7.1f} us "
                f"(medians of {rounds}); on - off {on - off:+6.1f} us; ratio on/off median "
                f"{statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f})",
                flush=True,
            )


def child(side: str, kind: str, count: int) -> None:
    """One side's setup, then ``count`` answers of ``kind`` (run under callgrind)."""
    with bench_environment("da-metrics-child-") as bench:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(bench.directory)
        app = Side(side, bench)
        app.polls(3)
        app.entries(3)  # every code path warm (imports, scripts loaded) before counting
        if count:
            getattr(app, kind)(count)


def instructions(side: str, kind: str, count: int, directory: Path) -> int:
    """Instructions callgrind counts in a child of ``side`` that answers ``count`` ``kind``."""
    out = directory / f"callgrind.{side}.{kind}.{count}"
    command = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
        sys.executable, __file__, "--child", side, kind, str(count),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    subprocess.run(command, check=True, env=env, capture_output=True)
    for line in out.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {out}")


def callgrind(polls: int, entries: int) -> None:
    """Instructions per poll and per entry, on and off: each the difference between a child
    that answers that many and one that answers none (the same setup), so the count is the
    answers' alone, and the machine's load does not change it."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="da-metrics-callgrind-") as folder:
        directory = Path(folder)
        per: dict[tuple[str, str], float] = {}
        for side in ("on", "off"):
            base = instructions(side, "polls", 0, directory)
            for kind, count in (("polls", polls), ("entries", entries)):
                per[side, kind] = (instructions(side, kind, count, directory) - base) / count
        for kind, count in (("polls", polls), ("entries", entries)):
            on, off = per["on", kind], per["off", kind]
            print(
                f"{kind:<7} instructions per answer (callgrind, {count}): metrics on {on:,.0f}, "
                f"off {off:,.0f}; on - off {on - off:+,.0f}; ratio on/off {on / off:.3f}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="per run")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of each")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--in-process", action="store_true", help="CPU per answer, no HTTP")
    parser.add_argument("--requests", type=int, default=2000, help="polls per block")
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions per answer under valgrind"
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    if args.callgrind:
        callgrind(max(1, args.requests // 10), max(1, args.requests // 40))
        return
    if args.in_process:
        in_process(args.rounds, args.requests)
        return
    with bench_environment("da-metrics-bench-") as bench:
        bench.env["DATABASE_URL"] = f"sqlite:///{bench.directory / 'audit.sqlite3'}"
        multiproc = bench.directory / "metrics"
        multiproc.mkdir()
        envs = {
            "on": {**bench.env, "PROMETHEUS_MULTIPROC_DIR": str(multiproc)},
            "off": {**bench.env, "DEALERASSIST_METRICS": "off"},
        }
        envs["off"].pop("PROMETHEUS_MULTIPROC_DIR", None)
        print(
            f"{args.tablets} tablets, {args.rounds} x {args.seconds:g} s each side, gunicorn "
            f"{args.workers} {WORKER_CLASS} workers ({THREADS} threads), Redis "
            f"{bench.redis_label}, {os.cpu_count()} cores",
            flush=True,
        )
        servers: dict[str, subprocess.Popen[bytes]] = {}
        ports: dict[str, int] = {}
        tables: dict[str, list[str]] = {}
        try:
            for name, env in envs.items():
                ports[name] = free_port()
                servers[name] = start_gunicorn(
                    APP, ports[name], args.workers, env, WORKER_CLASS, THREADS
                )
                warm_up(ports[name], bench.admin, args.workers)
                tables[name] = [f"B{bench.run_id}{name}{index}" for index in range(args.tablets)]
                setup_tables(ports[name], bench.admin, bench.dealer, tables[name])
                drive(partial(our_tablet, ports[name], bench.dealer, 0.0), tables[name], 1.0)
            rates: dict[str, list[float]] = {"on": [], "off": []}
            cpus: dict[str, list[float]] = {"on": [], "off": []}
            for number in range(args.rounds):
                for name in ("on", "off") if number % 2 == 0 else ("off", "on"):
                    tablet = partial(our_tablet, ports[name], bench.dealer, 0.0)
                    rate, cpu = run_once(servers[name], tablet, tables[name], args.seconds)
                    rates[name].append(rate)
                    cpus[name].append(cpu)
                    print(
                        f"round {number + 1} metrics {name:<3} {rate:6.0f} actions/s   "
                        f"server CPU {cpu:5.2f} ms/action",
                        flush=True,
                    )
            polls = {}
            for name in ("on", "off"):
                tablet = partial(poller, ports[name], bench.dealer, "/v1/tables/{}")
                polls[name] = run_once(servers[name], tablet, tables[name], args.seconds)
                print(
                    f"polls   metrics {name:<3} {polls[name][0]:6.0f} polls/s     "
                    f"server CPU {polls[name][1]:5.2f} ms/poll",
                    flush=True,
                )
            rate_ratios = [on / off for on, off in zip(rates["on"], rates["off"], strict=True)]
            cpu_ratios = [on / off for on, off in zip(cpus["on"], cpus["off"], strict=True)]
            print(
                f"ratio on/off: actions/s median {statistics.median(rate_ratios):.3f} of "
                f"{args.rounds} rounds (range {min(rate_ratios):.3f}-{max(rate_ratios):.3f}), "
                f"server CPU per action {statistics.median(cpu_ratios):.3f}; polls/s "
                f"{polls['on'][0] / polls['off'][0]:.3f}, CPU per poll "
                f"{polls['on'][1] / polls['off'][1]:.3f}",
                flush=True,
            )
            spent, lines = scrape_cost(ports["on"], bench.admin)
            print(f"one GET /metrics: {spent:.1f} ms median, {lines} samples", flush=True)
        finally:
            for server in servers.values():
                stop(server)


if __name__ == "__main__":
    main()
