"""Liveness (/healthz: the process answers) and readiness (/readyz: can this host serve
tables, and is what they play reaching the audit store).

Readiness is a list of ``Check``: checks of the whole host (``HOST_CHECKS``: the audit
store, a live verification worker) and checks of each Redis partition
(``PARTITION_CHECKS``: the Redis answers and what its restart keeps, a live drain worker,
the age of the oldest event waiting for the drain). A new check is one function appended
to one of those lists. A partition's checks stop at its first failure, and every Redis
command of a check goes through a probe client with a short timeout and no retries, so a
dead Redis costs a readiness answer milliseconds, not the seconds of the request path's
retries.

* ``GET /readyz``: 200 ``ready`` when everything passes; 200 ``degraded`` when some
  partitions fail (a load balancer must not pull the whole host for one Redis: their
  tables answer 503 anyway, the others play on); 503 when a host check fails or no
  partition passes.
* ``GET /readyz?partition=N``: 200 or 503 for the tables of partition N (from 1) alone.

Both are public (a load balancer has no token). What a check shows anyone is its
``summary``; what names hosts, paths or errors is its ``detail``, kept apart
(``Check.detail``), logged when a check fails, and shown by ``render`` only to an admin or
auditor token (``errors.BACKEND_DETAIL_ROLES``). Not durable (``aof everysec``, ``rdb``) is
a warning, not a failure: the operator chose it, and the answer says what a crash of it
may lose.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import redis
from flask import Blueprint, Response, current_app, jsonify, request
from redis.backoff import NoBackoff
from redis.retry import Retry

from dealerassist.adapters.audit_integrity import AuditIntegrityReport
from dealerassist.adapters.redis_tables import DURABLE, persistence
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, live_workers
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE
from dealerassist.api.auth import optional_token
from dealerassist.api.errors import backend_detail, problem, sees_backend_details
from dealerassist.api.http import services
from dealerassist.errors import DealerAssistError
from dealerassist.service.audit import audit_alerts
from dealerassist.service.ports import Services

blueprint = Blueprint("health", __name__)
log = logging.getLogger(__name__)

# app.config key: the oldest staged event may wait this long for the drain before the
# partition is not ready (Settings.ready_max_backlog_seconds; a healthy drain keeps it
# under a second).
MAX_BACKLOG_CONFIG = "DEALERASSIST_READY_MAX_BACKLOG_SECONDS"
DEFAULT_MAX_BACKLOG_SECONDS = 30.0
PROBE_TIMEOUT_SECONDS = 1.0
PROBES_EXTENSION = "dealerassist.readiness_probes"


@dataclass
class Check:
    """One readiness check: its name, whether it passes, what it shows anyone (``summary``),
    what only the log and privileged readers see (``detail``), and a warning that does
    not fail it."""

    name: str
    ok: bool
    summary: dict[str, Any] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)
    warning: str | None = None


@dataclass
class Partition:
    """One Redis of ``REDIS_URL`` (number from 1), its table store and audit queue, and a
    probe client on it (None for test fakes without a Redis: their own methods answer)."""

    number: int
    tables: Any
    queue: Any
    probe: redis.Redis | None


# A host check gets the services and the partitions whose Redis answered (in order).
HostCheck = Callable[[Services, list[Partition]], Iterable[Check]]
PartitionCheck = Callable[[Partition, float], Iterable[Check]]


@blueprint.get("/healthz")
def healthz() -> Response:
    """The process is up (it checks nothing else)."""
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz() -> Response:
    """Every check of the host and of each Redis partition (or of ``?partition=N``)."""
    optional_token()
    try:
        ports = services()
    except DealerAssistError as error:
        log.warning("not ready: services could not be built: %s", error)
        shown = backend_detail(str(error))
        return problem(503, "Not ready", shown, "unavailable", checks={"services": shown})
    every = partitions = _partitions(ports)
    selected = request.args.get("partition")
    if selected is not None:
        if not selected.isdigit() or not 1 <= int(selected) <= len(partitions):
            detail = f"partition must be 1 to {len(partitions)}"
            return problem(400, "Bad partition", detail, "invalid-input")
        partitions = [partitions[int(selected) - 1]]
    max_backlog = float(current_app.config.get(MAX_BACKLOG_CONFIG, DEFAULT_MAX_BACKLOG_SECONDS))
    by_partition = [(part, list(_partition_checks(part, max_backlog))) for part in partitions]
    answering = _answering(every, by_partition, max_backlog)
    host = [check for run in HOST_CHECKS for check in run(ports, answering)]
    numbered = len(every) > 1
    checks = host + [
        _numbered(check, part.number) if numbered else check
        for part, found in by_partition
        for check in found
    ]
    failed = [check for check in checks if not check.ok]
    if failed:
        log.warning("readiness: failing %s", "; ".join(_log_line(check) for check in failed))
    passing = [part.number for part, found in by_partition if all(c.ok for c in found)]
    body = render(checks, with_detail=sees_backend_details())
    body["partitions"] = [
        {"partition": part.number, "ok": part.number in passing} for part, _ in by_partition
    ]
    if any(not check.ok for check in host) or not passing:
        return problem(503, "Not ready", _what_fails(failed), "unavailable", **body)
    status = "ready" if len(passing) == len(by_partition) else "degraded"
    return jsonify({"status": status, **body})


def render(checks: list[Check], with_detail: bool) -> dict[str, Any]:
    """The checks as the answer shows them: the one place that decides whether a check's
    ``detail`` (hosts, paths, errors: its fields beside the summary's) is shown."""
    shown: dict[str, Any] = {}
    for check in checks:
        entry: dict[str, Any] = {"ok": check.ok, **check.summary}
        if with_detail:
            entry.update(check.detail)
        shown[check.name] = entry
    return {"checks": shown, "warnings": [c.warning for c in checks if c.warning]}


def _what_fails(failed: list[Check]) -> str:
    return "failing: " + ", ".join(check.name for check in failed)


def _log_line(check: Check) -> str:
    return f"{check.name} {check.summary} {check.detail}"


def _numbered(check: Check, number: int) -> Check:
    warning = f"partition {number}: {check.warning}" if check.warning else None
    return Check(f"{check.name} {number}", check.ok, check.summary, check.detail, warning)


# -- the partitions ---------------------------------------------------------------------


def partitions(ports: Services) -> list[Partition]:
    """Each Redis of the services, with a probe client on it (readiness and ``/metrics``
    read them alike)."""
    return _partitions(ports)


def _partitions(ports: Services) -> list[Partition]:
    stores = list(getattr(ports.tables, "stores", [ports.tables]))
    queues = list(getattr(ports.audit_queue, "queues", [ports.audit_queue]))
    return [
        Partition(number, store, queue, _probe(store))
        for number, (store, queue) in enumerate(zip(stores, queues, strict=True), 1)
    ]


def _probe(store: Any) -> redis.Redis | None:
    """A client on the store's Redis with a short timeout and no retries (one per Redis and
    process, made on first use)."""
    connection = getattr(store, "connection", None)
    if not isinstance(connection, redis.Redis):
        return None
    probes: dict[int, redis.Redis] = current_app.extensions.setdefault(PROBES_EXTENSION, {})
    key = id(connection)
    if key not in probes:
        pool = connection.connection_pool
        kwargs = dict(pool.connection_kwargs)
        kwargs.update(
            socket_timeout=PROBE_TIMEOUT_SECONDS,
            socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 0),
        )
        probes[key] = redis.Redis(
            connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs)
        )
    return probes[key]


def _answering(
    every: list[Partition], checked: list[tuple[Partition, list[Check]]], max_backlog: float
) -> list[Partition]:
    """The partitions whose Redis answered (those not checked here, ``?partition=N``, are
    asked now)."""
    found = {part.number: checks for part, checks in checked}
    answering = []
    for part in every:
        checks = found.get(part.number)
        if checks is None:
            checks = list(check_redis(part, max_backlog))
        if all(check.ok for check in checks if check.name == "redis"):
            answering.append(part)
    return answering


def _partition_checks(partition: Partition, max_backlog: float) -> Iterator[Check]:
    """The partition's checks in order, up to the first function with a failing check (a
    Redis that does not answer is not asked anything more)."""
    for run in PARTITION_CHECKS:
        found = list(run(partition, max_backlog))
        yield from found
        if not all(check.ok for check in found):
            return


def _guarded(name: str, run: Callable[[], Check]) -> Check:
    try:
        return run()
    except (DealerAssistError, redis.RedisError, OSError) as error:
        return Check(name, False, {}, {"error": str(error)})


def check_redis(partition: Partition, max_backlog: float) -> Iterable[Check]:
    """The Redis answers; what its restart keeps (a warning unless ``aof always``)."""

    def run() -> Check:
        if partition.probe is None:
            kept = partition.tables.persistence()
        else:
            kept = persistence(partition.probe)
        summary = {"persistence": kept, "durable": kept == DURABLE}
        warning = None
        if kept != DURABLE:
            warning = (
                f"Redis persistence is {kept!r}: a crash of it may lose acknowledged entries "
                "and audit events not yet stored (set appendonly yes, appendfsync always)"
            )
        return Check("redis", True, summary, warning=warning)

    return [_guarded("redis", run)]


def check_drain(partition: Partition, max_backlog: float) -> Iterable[Check]:
    """A drain worker is live, and the oldest staged event is younger than ``max_backlog``
    seconds (a drain that keeps up keeps it under a second)."""
    queue = partition.queue if partition.probe is None else RQAuditQueue(partition.probe)

    def workers() -> Check:
        live = queue.live_workers()
        return Check("audit_worker", bool(live), {"workers": len(live)})

    def backlog() -> Check:
        summary: dict[str, Any] = {"depth": queue.depth()}
        if hasattr(queue, "oldest_staged_at"):
            oldest = queue.oldest_staged_at()
            age = 0.0 if oldest is None else max(0.0, time.time() - oldest)
            summary["backlog_age_seconds"] = round(age, 1)
            summary["max_backlog_age_seconds"] = max_backlog
            return Check("audit_queue", age <= max_backlog, summary)
        return Check("audit_queue", True, summary)

    found = [_guarded("audit_queue", backlog)]
    if hasattr(queue, "live_workers"):
        found.append(_guarded("audit_worker", workers))
    return found


def check_audit_store(ports: Services, answering: list[Partition]) -> Iterable[Check]:
    """The audit store answers."""

    def run() -> Check:
        ports.audit_store.ping()
        return Check("audit_store", True)

    return [_guarded("audit_store", run)]


def check_verify_worker(ports: Services, answering: list[Partition]) -> Iterable[Check]:
    """A verification worker is live (on the first Redis, where its jobs' queue is; if that
    Redis does not answer, its partition's check says so)."""
    if not answering or answering[0].number != 1 or answering[0].probe is None:
        return []
    probe = answering[0].probe

    def run() -> Check:
        live = live_workers(probe, VERIFY_QUEUE)
        return Check("verify_worker", bool(live), {"workers": len(live)})

    return [_guarded("verify_worker", run)]


def check_audit_integrity(ports: Services, answering: list[Partition]) -> Iterable[Check]:
    """No table's chain is forked and no table's events are refused by the store
    (``service.audit.audit_alerts``): either means a table is not being audited. Asked of
    the partitions whose Redis answers, through their probes (a dead one is reported by
    its own checks, and must not fail the host)."""
    if ports.integrity is None:
        return []
    report = ports.integrity
    if isinstance(report, AuditIntegrityReport) and all(p.probe for p in answering):
        queues = [RQAuditQueue(p.probe) for p in answering if p.probe is not None]
        report = AuditIntegrityReport(report.store, queues, report.public_keys)

    def run() -> Check:
        alerts = audit_alerts(replace(ports, integrity=report))
        summary = {key: value for key, value in alerts.items() if key != "ok"}
        return Check("audit_integrity", bool(alerts["ok"]), summary)

    return [_guarded("audit_integrity", run)]


HOST_CHECKS: list[HostCheck] = [check_audit_store, check_verify_worker, check_audit_integrity]
PARTITION_CHECKS: list[PartitionCheck] = [check_redis, check_drain]
