"""The process's Prometheus metrics, in multi-process mode where several processes serve.

``dealerassist serve`` runs several processes that count: its gunicorn web workers and the
supervised audit and verification workers. prometheus_client's multi-process mode gives
each process its own memory-mapped files in one directory (``PROMETHEUS_MULTIPROC_DIR``);
whichever web worker answers ``GET /metrics`` reads them all and sums the counters and
histograms (``exposition``). ``serve`` points it at ``<data dir>/metrics``, empties it at
start (``prepare_multiprocess_dir``), and removes the live gauges of a process that died
(``mark_dead``: gunicorn's ``child_exit`` hook, and the supervisor for its workers); a
dead process's counts stay in the sums, as counters must.

Without the variable (a test, a single process, ``dealerassist worker`` on its own host)
the metrics are the process's own, in memory. The variable is read when the metrics are
made, on first use (``metrics()``), not when prometheus_client is imported: ``serve``
imports it before it knows its data directory.

What is read from Redis and the store at scrape time (backlogs, failed jobs, health) is
not here: ``api.observability`` collects it for each scrape.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import values as prometheus_values
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_DIR_NAME = "metrics"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
PREFIX = "dealerassist_"

# An answer of the API takes 1-5 ms; a verify within the request up to 20 s.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A drain that keeps up stores an event within ROUND_SECONDS (50 ms) of its staging; readiness
# fails a Redis at 30 s (DEALERASSIST_READY_MAX_BACKLOG_SECONDS).
DRAIN_LAG_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


@dataclass(frozen=True, slots=True)
class Metrics:
    """The metrics a process writes (each process its own; ``exposition`` sums them)."""

    requests: Histogram
    refusals: Counter
    verifications: Counter
    verification_last_failed: Gauge
    verification_last_time: Gauge
    drain_lag: Histogram
    drained_events: Counter
    registry: CollectorRegistry  # the process's own (used when not multi-process)


_lock = threading.Lock()
_metrics: Metrics | None = None


def multiprocess_dir() -> Path | None:
    """The directory of the multi-process files, if this process writes them."""
    value = os.environ.get(MULTIPROC_ENV)
    return Path(value) if value else None


def metrics() -> Metrics:
    """This process's metrics, made on first use (in the mode the environment says then)."""
    global _metrics
    if _metrics is None:
        with _lock:
            if _metrics is None:
                _metrics = _make()
    return _metrics


def _make() -> Metrics:
    if multiprocess_dir() is not None and not prometheus_values.ValueClass._multiprocess:
        # prometheus_client chose its value class when it was imported, before serve set
        # the directory: choose again, before the first metric is made
        prometheus_values.ValueClass = prometheus_values.get_value_class()  # type: ignore[no-untyped-call]
    registry = CollectorRegistry(auto_describe=True)
    return Metrics(
        requests=Histogram(
            PREFIX + "http_request_duration_seconds",
            "API answers by method, route template (never the raw path) and status: "
            "their _count is the request rate, their buckets the latency",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        ),
        refusals=Counter(
            PREFIX + "refusals",
            "Entries refused by a rule of the book (409 rule-violation answers, replays of a "
            "remembered answer not counted again), by rule ID",
            ["rule_id"],
            registry=registry,
        ),
        verifications=_with_every_result(
            Counter(
                PREFIX + "verifications",
                "Audit-chain verifications finished, within a request or as a job, by result",
                ["kind", "result"],
                registry=registry,
            )
        ),
        verification_last_failed=Gauge(
            PREFIX + "verification_last_failed",
            "1 if the last verification to finish (in any process) found a problem; 0 if it "
            "found the chain intact, or none finished yet (then the timestamp is 0)",
            multiprocess_mode="mostrecent",
            registry=registry,
        ),
        verification_last_time=Gauge(
            PREFIX + "verification_last_timestamp_seconds",
            "When the last verification finished (seconds since the epoch)",
            multiprocess_mode="mostrecent",
            registry=registry,
        ),
        drain_lag=Histogram(
            PREFIX + "drain_lag_seconds",
            "For each drain round, how long its oldest event waited between its sealing and "
            "its commit to the audit store",
            buckets=DRAIN_LAG_BUCKETS,
            registry=registry,
        ),
        drained_events=Counter(
            PREFIX + "drained_events",
            "Staged audit events the drain committed to the audit store (new to it)",
            registry=registry,
        ),
        registry=registry,
    )


def _with_every_result(counter: Counter) -> Counter:
    """The verification counters exist at 0 from the start, so a rate is defined at once."""
    for kind in ("request", "job"):
        for result in ("ok", "failed"):
            counter.labels(kind, result)
    return counter


def record_verification(kind: str, ok: bool, at: float) -> None:
    """Count a finished verification (``kind``: request or job) and note it as the last."""
    found = metrics()
    found.verifications.labels(kind, "ok" if ok else "failed").inc()
    found.verification_last_failed.set(0 if ok else 1)
    found.verification_last_time.set(at)


def record_drain_round(stored: int, oldest_at: float | None, now: float) -> None:
    """A drain round committed ``stored`` new events, the oldest it read sealed at
    ``oldest_at`` (POSIX seconds; None: it read nothing)."""
    found = metrics()
    if stored:
        found.drained_events.inc(stored)
    if oldest_at is not None:
        found.drain_lag.observe(max(0.0, now - oldest_at))


def prepare_multiprocess_dir(data_dir: Path) -> Path:
    """Point this process and its children at ``<data_dir>/metrics``, emptied: the files of
    an earlier run are counts of processes that are gone (their pids may be reused)."""
    directory = data_dir / METRICS_DIR_NAME
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    os.environ[MULTIPROC_ENV] = str(directory)
    return directory


def mark_dead(pid: int | None) -> None:
    """A process that wrote metrics has stopped: drop its live gauges (its counts stay)."""
    directory = multiprocess_dir()
    if pid is not None and directory is not None and directory.is_dir():
        mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]


class _Own:
    """The process's own metrics as a collector (single-process mode)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterable[Metric]:
        return self.registry.collect()


def exposition(collectors: Iterable[Collector] = ()) -> bytes:
    """The text format of every process's metrics (summed over the multi-process files, or
    this process's own) and of ``collectors`` (read now, by the process that answers)."""
    registry = CollectorRegistry(auto_describe=False)
    directory = multiprocess_dir()
    if directory is not None:
        MultiProcessCollector(registry, str(directory))  # type: ignore[no-untyped-call]
    else:
        registry.register(_Own(metrics().registry))
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry)
