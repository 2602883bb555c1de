"""Actions per second on a 3-primary Redis Cluster against one Redis, in the same run.

Starts one redis-server and a 3-primary cluster (Debian's redis-server, loopback ports,
``appendfsync always`` both, as the embedded Redis runs), plus an ordinary Redis for the
cluster's job queues. For each, in turns (one, cluster, one, cluster … so the load others
put on the machine falls on both alike), ``--clients`` processes play limit draw hands
through the service layer for ``--seconds`` (every entry a commit and an audit event),
with that deployment's drain running; then it prints the actions per second, the Redis
CPU per 1,000 actions (``INFO cpu``, summed over the nodes) and the share of it the
busiest node took, and the ratio of the cluster's throughput to one Redis's.

    .venv/bin/python bench/cluster.py [--clients 2] [--seconds 8] [--rounds 2]

Needs redis-server and redis-cli (``make redis``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from audit_chains import play_hands  # noqa: E402
from redis_servers import (  # noqa: E402
    CLUSTER_TOOLS_MISSING,
    REDIS_SERVER,
    LocalCluster,
    RedisServer,
)

from dealerassist import worker  # noqa: E402
from dealerassist.bootstrap import build_services  # noqa: E402
from dealerassist.profiles import default_profiles_dir  # noqa: E402
from dealerassist.settings import Settings  # noqa: E402

PROFILE = "casino-five-card-draw"


def _settings(redis_url: str, jobs_url: str | None, database_url: str, data_dir: str) -> Settings:
    return Settings(
        data_dir=Path(data_dir),
        redis_url=redis_url,
        jobs_redis_url=jobs_url,
        database_url=database_url,
        profiles_dir=default_profiles_dir(),
        refusals_per_window=1_000_000,
    )


def _client(args: tuple[str, str | None, str, str, str, float]) -> tuple[int, float]:
    """One client process: tables played hand after hand until the time is up; the
    actions it committed (each table's head seq: one audit event a commit) and the CPU
    seconds it spent (the service layer, the engine and the Redis client)."""
    redis_url, jobs_url, database_url, data_dir, prefix, seconds = args
    services = build_services(_settings(redis_url, jobs_url, database_url, data_dir))
    cpu = time.process_time()
    deadline = time.monotonic() + seconds
    actions = number = 0
    while time.monotonic() < deadline:
        table_id = f"{prefix}-{number}"
        play_hands(services, table_id, hands=3, profile_id=PROFILE)
        record = services.tables.load(table_id)
        assert record is not None
        actions += record.head.seq
        number += 1
    return actions, time.process_time() - cpu


def _cpu(clients: list[redis.Redis]) -> list[float]:
    return [
        float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        for info in (client.info("cpu") for client in clients)
    ]


def _drain_single(url: str, database_url: str, stop: Any) -> None:
    worker.configure(database_url, url)
    connection = redis.Redis.from_url(url)
    audit = worker.make_worker(connection, linger=0.2)
    while not stop.is_set():
        audit.work(burst=True, logging_level="CRITICAL")
        time.sleep(0.05)


def _drain_cluster(url: str, jobs_url: str, database_url: str, stop: Any) -> None:
    event = threading.Event()
    threading.Thread(target=lambda: (stop.wait(), event.set()), daemon=True).start()
    worker.run_cluster_worker(url, jobs_url, database_url, stop=event)


def run_one(
    label: str,
    redis_url: str,
    jobs_url: str | None,
    nodes: list[redis.Redis],
    clients: int,
    seconds: float,
    directory: Path,
    turn: int,
) -> tuple[float, float, float, float]:
    """One turn: actions/s, Redis CPU ms per 1,000 actions, busiest node's share, and the
    clients' CPU ms per action."""
    database_url = f"sqlite:///{directory / f'{label}-{turn}.sqlite3'}"
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    if jobs_url is None:
        drain = context.Process(target=_drain_single, args=(redis_url, database_url, stop))
    else:
        drain = context.Process(
            target=_drain_cluster, args=(redis_url, jobs_url, database_url, stop)
        )
    drain.start()
    before = _cpu(nodes)
    started = time.monotonic()
    work = [
        (redis_url, jobs_url, database_url, str(directory), f"{label}{turn}c{n}", seconds)
        for n in range(clients)
    ]
    with context.Pool(clients) as pool:
        done = pool.map(_client, work)
    actions = sum(count for count, _ in done)
    client_cpu = sum(cpu for _, cpu in done)
    elapsed = time.monotonic() - started
    used = [after - first for after, first in zip(_cpu(nodes), before, strict=True)]
    stop.set()
    drain.join(30)
    if drain.is_alive():
        drain.terminate()
    rate = actions / elapsed
    per_thousand = 1000 * 1000 * sum(used) / max(actions, 1)
    busiest = max(used) / sum(used) if sum(used) else 0.0
    return rate, per_thousand, busiest, 1000 * client_cpu / max(actions, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if CLUSTER_TOOLS_MISSING:
        print(CLUSTER_TOOLS_MISSING, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="da-cluster-bench-") as folder:
        directory = Path(folder)
        single = RedisServer(directory / "single", executable=REDIS_SERVER).start()
        jobs = RedisServer(directory / "jobs").start()
        cluster = LocalCluster(directory / "cluster", appendfsync="always").start()
        try:
            deployments = {
                "one": (single.url, None, [redis.Redis(port=single.port)]),
                "cluster": (cluster.url, jobs.url, [cluster.client(p) for p in cluster.ports]),
            }
            results: dict[str, list[tuple[float, float, float, float]]] = {
                "one": [],
                "cluster": [],
            }
            for turn in range(args.rounds):
                for label, (url, jobs_url, nodes) in deployments.items():
                    found = run_one(
                        label, url, jobs_url, nodes, args.clients, args.seconds, directory, turn
                    )
                    results[label].append(found)
                    rate, cpu, busiest, client = found
                    print(
                        f"turn {turn + 1} {label:<8} {rate:7.1f} actions/s  Redis CPU "
                        f"{cpu:6.1f} ms per 1,000 actions  busiest node {busiest:4.0%}  "
                        f"client CPU {client:4.2f} ms per action",
                        flush=True,
                    )
            mean = {
                label: [sum(column) / len(column) for column in zip(*rows, strict=True)]
                for label, rows in results.items()
            }
            print(
                f"mean: one Redis {mean['one'][0]:.1f} actions/s ({mean['one'][1]:.1f} ms Redis "
                f"CPU per 1,000); 3 primaries {mean['cluster'][0]:.1f} actions/s "
                f"({mean['cluster'][1]:.1f} ms per 1,000, busiest node "
                f"{mean['cluster'][2]:.0%}); cluster / one = "
                f"{mean['cluster'][0] / mean['one'][0]:.2f}; client CPU per action "
                f"{mean['one'][3]:.2f} ms one, {mean['cluster'][3]:.2f} ms cluster"
            )
        finally:
            cluster.stop()
            single.stop()
            jobs.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
