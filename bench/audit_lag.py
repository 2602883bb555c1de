"""Audit lag through HTTP: accepted (the tablet has its 200) -> stored (visible in the store).

For each store (a SQLite file; PostgreSQL in a fresh schema if reachable) this starts our API
under gunicorn (``--workers`` sync workers) and one ``dealerassist worker`` process, then
drives ``--tablets`` tablets from ``bench/api.py`` (real hands, ``If-Match``,
``Idempotency-Key``), each paced so that together they offer ``--rates`` actions/s, for
``--seconds``. Every 200 records its table, its audit ``seq`` (the answer's ``event``) and
the client time it arrived; a poller reads ``max(seq)`` per table from the store every
``--poll-ms`` and records when each (table, seq) first shows (the drain stores a table's
events in seq order, so ``max(seq)`` covers the ones below it). lag = visible - accepted;
the poll interval bounds its error. The backlog is the staged events of our tables (LLEN).

Rates are tried highest first; the stepping stops at the first one whose achieved rate
is >= 95 % of the offered one (the highest rate this machine sustained). The peer, in the
same run: the same paced load with the worker paused (SIGSTOP) and the poller polling, i.e.
the API's own latency with everything but the drain, so the lag reads against the request
latency and the accepted rates differ only by the worker. It runs just before the lag run at
each rate, so both see the same machine load; the worker drains what it staged first.

    .venv/bin/python bench/audit_lag.py [--rates 500,450,...,200] [--seconds 10]
                                        [--tablets 16] [--workers 2] [--poll-ms 10]

Redis: ``REDIS_URL`` (fresh table IDs; what the run staged is deleted after) or an
embedded Redis. PostgreSQL: ``DEALERASSIST_TEST_POSTGRES_URL``, else
postgresql+psycopg://postgres@127.0.0.1:5432/test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import redis
import sqlalchemy as sa
from api import (
    Tally,
    bench_environment,
    clean_up,
    cpu_seconds,
    drive,
    free_port,
    our_tablet,
    setup_tables,
    start_gunicorn,
    stop,
)
from audit import (
    _reachable,
    _wait_for_worker,
    postgres_url,
    sqlite_url,
    start_worker,
    worker_jobs,
)

from dealerassist.adapters.rq_audit_queue import RQAuditQueue, pending_key
from dealerassist.adapters.sql_store import SqlAuditStore

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SUSTAINED = 0.95


@dataclass
class Accepted:
    """(table, seq) -> perf_counter time the 200 arrived, filled by the tablets."""

    at: dict[tuple[str, int], float] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, table_id: str, answer: Any, arrived: float) -> None:
        event = answer.get("event") if isinstance(answer, dict) else None
        if event:
            with self.lock:
                self.at[(table_id, int(event["seq"]))] = arrived


class Poller:
    """Reads max(seq) per table from the store, and our tables' backlog, in its own process
    (so its queries take no GIL from the tablets; ``perf_counter`` is the system's monotonic
    clock, the same in both processes)."""

    def __init__(
        self, database_url: str, redis_url: str, tables: list[str], interval: float
    ) -> None:
        self.database_url, self.redis_url = database_url, redis_url
        self.tables, self.interval = tables, interval
        self.visible: dict[tuple[str, int], float] = {}
        self.backlog_peak = self.polls = 0
        self.parent, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=self.run, args=(child,), daemon=True
        )

    def start(self) -> None:
        self.process.start()
        if not self.parent.poll(30):  # its first read (the heads before the run) is done
            raise TimeoutError("the poller did not start")
        self.parent.recv()

    def run(self, pipe: Connection) -> None:
        """Child: poll until told the heads to wait for, then until they show; report."""
        # One driver connection for the whole run, in autocommit, and one query text: the
        # SQLAlchemy checkout, execute and rollback per poll cost 10-15 % of a core (as much
        # as the audit worker), taken from the API it measures. One max() per table, each an
        # index lookup: a GROUP BY over the tables reads every row of them, and grew to a
        # third of a core on SQLite as the runs added rows.
        engine = sa.create_engine(self.database_url, isolation_level="AUTOCOMMIT")
        store = engine.connect()
        cursor = store.connection.driver_connection.cursor()  # type: ignore[union-attr]
        connection = redis.Redis.from_url(self.redis_url)
        query = " UNION ALL ".join(  # table IDs are ours: letters and digits
            f"SELECT '{table_id}', (SELECT max(seq) FROM events WHERE table_id = '{table_id}')"
            for table_id in self.tables
        )
        heads = dict.fromkeys(self.tables, 0)
        shown: list[tuple[str, int, int, float]] = []  # table, seqs (from, to], when
        expected: dict[str, int] | None = None
        deadline, peak, polls = time.perf_counter() + 600, 0, 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()  # rows seen were committed before the query started
            cursor.execute(query)
            rows = cursor.fetchall()
            for table_id, head in rows:
                if head is not None and int(head) > heads[table_id]:
                    shown.append((table_id, heads[table_id], int(head), started))
                    heads[table_id] = int(head)
            polls += 1
            if polls == 1:
                pipe.send("ready")
                shown.clear()  # what was there before the run is not this run's
            if polls % 5 == 0:
                peak = max(peak, _backlog(connection, self.tables))
            if expected is None and pipe.poll():
                expected = pipe.recv()
                deadline = min(deadline, time.perf_counter() + 60)
            if expected is not None and all(heads[t] >= n for t, n in expected.items()):
                break
            time.sleep(max(0.0, self.interval - (time.perf_counter() - started)))
        pipe.send((shown, peak, polls))
        store.close()
        engine.dispose()
        connection.close()

    def finish(self, accepted: dict[tuple[str, int], float]) -> None:
        """Tell the child the heads to wait for; collect what it saw (60 s at most)."""
        expected: dict[str, int] = {}
        for table_id, seq in accepted:
            expected[table_id] = max(expected.get(table_id, 0), seq)
        self.parent.send(expected)
        if self.parent.poll(90):
            shown, self.backlog_peak, self.polls = self.parent.recv()
            for table_id, after, head, when in shown:
                for seq in range(after + 1, head + 1):
                    self.visible[(table_id, seq)] = when
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _backlog(connection: redis.Redis, tables: list[str]) -> int:
    pipe = connection.pipeline(transaction=False)
    for table_id in tables:
        pipe.llen(pending_key(table_id))
    return sum(int(length) for length in pipe.execute())


def percentile(ordered: list[float], share: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * share + 0.5) - 1))]


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:7.1f}"


# -- one store ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rig:
    """What a store's runs share: the API's port, its tablets, their tables, the URLs."""

    port: int
    dealer: str
    tables: list[str]
    redis_url: str
    database_url: str


def wait_backlog_empty(rig: Rig, timeout: float = 120.0) -> None:
    connection = redis.Redis.from_url(rig.redis_url)
    deadline = time.perf_counter() + timeout
    try:
        while time.perf_counter() < deadline:
            if sum(connection.llen(pending_key(t)) for t in rig.tables) == 0:
                return
            time.sleep(0.05)
        raise TimeoutError("the worker did not drain the warm-up events")
    finally:
        connection.close()


def paced_run(
    rig: Rig,
    rate: float,
    seconds: float,
    poll: float,
    processes: dict[str, subprocess.Popen[bytes]],
    lag: bool = True,
) -> dict[str, Any]:
    """``rate`` actions/s over the tablets for ``seconds``, the poller polling every
    ``poll`` seconds; with ``lag``, wait for every accepted event to show and measure the lag.

    Also the CPU (share of one core) each of ``processes``, the poller and this client
    process (the tablets) used meanwhile."""
    accepted = Accepted()
    tablet: Callable[..., None] = partial(
        our_tablet, rig.port, rig.dealer, len(rig.tables) / rate, on_accepted=accepted.record
    )
    poller = Poller(rig.database_url, rig.redis_url, rig.tables, poll)
    poller.start()
    processes = {**processes, "poller": poller.process}  # type: ignore[dict-item]
    cpu = {name: cpu_seconds(process) for name, process in processes.items()}
    client = time.process_time()
    jobs, working = worker_jobs(rig.redis_url)
    tally: Tally = drive(tablet, rig.tables, seconds)
    cpu = {name: (cpu_seconds(processes[name]) - used) / seconds for name, used in cpu.items()}
    cpu["client"] = (time.process_time() - client) / seconds
    jobs_after, working_after = worker_jobs(rig.redis_url)
    result: dict[str, Any] = {
        "offered": rate,
        "achieved": len(tally.latencies) / seconds,
        "latency": sorted(tally.latencies),
        "refused": tally.refused,
        "errors": tally.errors,
        "load": os.getloadavg()[0],
        "cpu": cpu,
        "events_per_s": (len(tally.latencies) + tally.refused) / seconds,
        "jobs_per_s": (jobs_after - jobs) / seconds,
        "job_ms": (working_after - working) / max(1, jobs_after - jobs) * 1000,
    }
    poller.finish(accepted.at if lag else {})
    if lag:
        lags = [
            poller.visible[key] - at for key, at in accepted.at.items() if key in poller.visible
        ]
        result |= {
            "lag": sorted(lags),
            "missing": len(accepted.at) - len(lags),
            "backlog_peak": poller.backlog_peak,
            "polls": poller.polls,
        }
    return result


def print_run(name: str, result: dict[str, Any]) -> None:
    latency = result["latency"]
    line = (
        f"{name:<34} offered {result['offered']:4.0f}/s  accepted {result['achieved']:4.0f}/s  "
        f"API p50 {ms(latency, 0.5)} p99 {ms(latency, 0.99)} ms"
    )
    if "lag" in result:
        lag = result["lag"]
        line += (
            f"  | lag p50 {ms(lag, 0.5)} p95 {ms(lag, 0.95)} p99 {ms(lag, 0.99)}"
            f" max {ms(lag, 1.0)} ms  backlog peak {result['backlog_peak']}"
            f"  ({len(lag)} events, {result['missing']} not seen)"
        )
        line += (
            f"  drain jobs {result['jobs_per_s']:.1f}/s for {result['events_per_s']:.0f} events/s"
            f" ({result['job_ms']:.1f} ms each)"
        )
    cpu = ", ".join(f"{name} {share:.0%}" for name, share in result["cpu"].items())
    line += (
        f"  [CPU {cpu}; {result['refused']} refused, {result['errors']} errors,"
        f" load {result['load']:.1f}]"
    )
    print(line, flush=True)


def print_verdict(name: str, last: dict[str, Any]) -> None:
    sustained = last["achieved"] >= SUSTAINED * last["offered"]
    lag_p99 = percentile(last["lag"], 0.99)
    print(
        f"{name}: {'sustained' if sustained else 'NOT sustained, lowest tried'} "
        f"{last['offered']:.0f} actions/s offered ({last['achieved']:.0f} accepted): lag p99 "
        f"{lag_p99 * 1000:.0f} ms ({'meets' if lag_p99 <= 1.0 else 'misses'} the 1 s goal), "
        f"API p99 {percentile(last['latency'], 0.99) * 1000:.1f} ms with the worker, "
        f"{percentile(last['peer']['latency'], 0.99) * 1000:.1f} ms with it paused",
        flush=True,
    )


def measure_store(
    name: str, database_url: str, env: dict[str, str], rig_args: tuple[str, list[str]], args: Any
) -> list[dict[str, Any]]:
    """API + worker on this store: peer and lag run at each rate, down to a sustained one."""
    dealer, tables = rig_args
    admin = env["BENCH_ADMIN_TOKEN"]
    SqlAuditStore(database_url).ping()  # the schema exists before anything polls it
    env = {**env, "DATABASE_URL": database_url}
    port = free_port()
    server = start_gunicorn("dealerassist.api:create_served_app()", port, args.workers, env)
    worker: subprocess.Popen[bytes] | None = None
    results = []
    try:
        setup_tables(port, admin, dealer, tables)
        rig = Rig(port, dealer, tables, env["REDIS_URL"], database_url)
        drive(partial(our_tablet, port, dealer, 0.0), tables, 1.0)  # warm-up
        worker = start_worker(rig.redis_url, database_url)
        _wait_for_worker(RQAuditQueue(redis.Redis.from_url(rig.redis_url)))
        wait_backlog_empty(rig)
        poll = args.poll_ms / 1000
        for rate in args.rates:
            # the peer first, the worker paused (SIGSTOP), so both see the same machine load
            worker.send_signal(signal.SIGSTOP)
            try:
                peer = paced_run(rig, rate, args.seconds, poll, {"API": server}, lag=False)
            finally:
                worker.send_signal(signal.SIGCONT)
            wait_backlog_empty(rig)  # the peer's staged events are not this run's lag
            result = paced_run(rig, rate, args.seconds, poll, {"API": server, "worker": worker})
            print_run(f"{name}, peer: worker paused", peer)
            print_run(f"{name}, worker draining", result)
            results.append(result | {"peer": peer})
            if result["achieved"] >= SUSTAINED * rate:
                break
    finally:
        if worker is not None:
            stop(worker)
        stop(server)
    return results


def stores(directory: Path) -> Iterator[tuple[str, AbstractContextManager[str]]]:
    yield "SQLite", sqlite_url(directory)
    postgres = os.environ.get("DEALERASSIST_TEST_POSTGRES_URL", POSTGRES)
    if _reachable(postgres):
        yield "PostgreSQL", postgres_url(postgres)
    else:
        print(f"PostgreSQL: not reachable at {postgres}", flush=True)


def run(args: argparse.Namespace) -> None:
    with bench_environment("da-lag-") as bench:
        print(
            f"{args.tablets} tablets, {args.seconds:g} s per run, gunicorn {args.workers} sync "
            f"workers, one `dealerassist worker`, poll every {args.poll_ms:g} ms, "
            f"Redis {bench.redis_label}, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        for number, (name, database) in enumerate(stores(bench.directory)):
            tables = [f"B{bench.run_id}{number * 20 + index}" for index in range(args.tablets)]
            with database as url:
                results = measure_store(name, url, bench.env, (bench.dealer, tables), args)
            print_verdict(name, results[-1])
            if not bench.embedded:
                clean_up(bench.redis_url, bench.run_id)  # each store starts from a clean Redis
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rates",
        type=lambda text: [float(rate) for rate in text.split(",")],
        default=[500.0, 450.0, 400.0, 350.0, 300.0, 250.0, 200.0],
        help="offered actions/s, highest first",
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--tablets", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--poll-ms", type=float, default=10.0)
    args = parser.parse_args()
    if args.tablets > 20:
        parser.error("at most 20 tablets (table IDs per store)")
    run(args)


if __name__ == "__main__":
    main()
