"""Liveness (/healthz: the process answers) and readiness (/readyz: can this host serve
tables, and is what they play reaching the audit store).

Readiness is a list of ``Check``: checks of the whole host (``HOST_CHECKS``: the audit
store, a live verification worker) and checks of each Redis node holding tables
(``NODE_CHECKS``: the Redis answers and what its restart keeps, a live drain worker, the
age of the oldest event waiting for the drain). The nodes are the one Redis, or each
primary of a Redis Cluster (``adapters.redis_cluster``), numbered from 1 in the order of
their names. A new check is one function appended to one of those lists. A node's checks
stop at its first failure, and its ping and persistence go through a probe client with a
short timeout and no retries, so a dead Redis costs a readiness answer milliseconds, not
the seconds of the request path's retries.

* ``GET /readyz``: 200 ``ready`` when everything passes; 200 ``degraded`` when some nodes
  fail (a load balancer must not pull the whole host for one node: its tables answer 503
  anyway, and a cluster that allows partial coverage plays on elsewhere); 503 when a host
  check fails or no node passes.
* ``GET /readyz?node=N``: 200 or 503 for node N (from 1) alone.

Both are public (a load balancer has no token). What a check shows anyone is its
``summary``; what names hosts, paths or errors is its ``detail``, kept apart
(``Check.detail``), logged when a check fails, and shown by ``render`` only to an admin or
auditor token (``errors.BACKEND_DETAIL_ROLES``). Not durable (``aof everysec``, ``rdb``) is
a warning, not a failure: the operator chose it, and the answer says what a crash of it
may lose.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import redis
from flask import Blueprint, Response, current_app, jsonify, request
from redis.backoff import NoBackoff
from redis.retry import Retry

from dealerassist.adapters.audit_integrity import AuditIntegrityReport
from dealerassist.adapters.redis_cluster import ClusterAuditQueue, node_views
from dealerassist.adapters.redis_tables import DURABLE, REDIS_ERRORS, persistence
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
# node is not ready (Settings.ready_max_backlog_seconds; a healthy drain keeps it
# under a second).
MAX_BACKLOG_CONFIG = "DEALERASSIST_READY_MAX_BACKLOG_SECONDS"
DEFAULT_MAX_BACKLOG_SECONDS = 30.0
PROBE_TIMEOUT_SECONDS = 1.0
PROBES_EXTENSION = "dealerassist.readiness_probes"
# What a failing check raises (a Redis Cluster's errors are not all RedisErrors).
CHECK_ERRORS: tuple[type[BaseException], ...] = (DealerAssistError, *REDIS_ERRORS, OSError)


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
class Node:
    """One Redis holding tables (number from 1; its name, ``redis`` or a cluster primary's
    ``host:port``, is a detail), its table store, the audit queue's view of it (a cluster
    node's: ``redis_cluster.ClusterNodeView``), and a probe client on it (None for test
    fakes without a Redis: their own methods answer)."""

    number: int
    name: str
    tables: Any
    queue: Any
    probe: redis.Redis | None
    on_cluster: bool = False


# A host check gets the services and the nodes whose Redis answered (in order).
HostCheck = Callable[[Services, list[Node]], Iterable[Check]]
NodeCheck = Callable[[Node, float], Iterable[Check]]


@blueprint.get("/healthz")
def healthz() -> Response:
    """The process is up (it checks nothing else)."""
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz() -> Response:
    """Every check of the host and of each Redis node (or of ``?node=N``)."""
    optional_token()
    try:
        ports = services()
    except DealerAssistError as error:
        log.warning("not ready: services could not be built: %s", error)
        shown = backend_detail(str(error))
        return problem(503, "Not ready", shown, "unavailable", checks={"services": shown})
    try:
        every = nodes = _nodes(ports)
    except CHECK_ERRORS as error:  # a cluster none of whose nodes answers
        log.warning("not ready: the Redis nodes cannot be listed: %s", error)
        shown = backend_detail(str(error))
        return problem(503, "Not ready", shown, "unavailable", checks={"redis": shown})
    selected = request.args.get("node")
    if selected is not None:
        # ASCII digits only: str.isdigit takes "²" and int() a 5,000-digit string refuses
        if re.fullmatch("[0-9]{1,6}", selected) is None or not 1 <= int(selected) <= len(nodes):
            detail = f"node must be 1 to {len(nodes)}"
            return problem(400, "Bad node", detail, "invalid-input")
        nodes = [nodes[int(selected) - 1]]
    max_backlog = float(current_app.config.get(MAX_BACKLOG_CONFIG, DEFAULT_MAX_BACKLOG_SECONDS))
    by_node = [(node, list(_node_checks(node, max_backlog))) for node in nodes]
    answering = _answering(every, by_node, max_backlog)
    host = [check for run in HOST_CHECKS for check in run(ports, answering)]
    numbered = len(every) > 1
    checks = host + [
        _numbered(check, node.number) if numbered else check
        for node, found in by_node
        for check in found
    ]
    failed = [check for check in checks if not check.ok]
    if failed:
        log.warning("readiness: failing %s", "; ".join(_log_line(check) for check in failed))
    passing = [node.number for node, found in by_node if all(c.ok for c in found)]
    with_detail = sees_backend_details()
    body = render(checks, with_detail=with_detail)
    body["nodes"] = [
        {
            "node": node.number,
            "ok": node.number in passing,
            **({"name": node.name} if with_detail else {}),
        }
        for node, _ in by_node
    ]
    if any(not check.ok for check in host) or not passing:
        return problem(503, "Not ready", _what_fails(failed), "unavailable", **body)
    status = "ready" if len(passing) == len(by_node) else "degraded"
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
    warning = f"node {number}: {check.warning}" if check.warning else None
    return Check(f"{check.name} {number}", check.ok, check.summary, check.detail, warning)


# -- the nodes --------------------------------------------------------------------------


def nodes(ports: Services) -> list[Node]:
    """The Redis servers holding tables, by number and name (``Node.name``: ``redis``, or a
    cluster primary's ``host:port``), each with its probe client and the audit queue's view
    of it: what readiness checks, and what the metrics read per Redis."""
    return _nodes(ports)


def _nodes(ports: Services) -> list[Node]:
    """The one Redis of the table store, or each primary of its cluster."""
    store, queue = ports.tables, ports.audit_queue
    if not isinstance(queue, ClusterAuditQueue):
        return [Node(1, "redis", store, queue, _probe(getattr(store, "connection", None)))]
    return [
        Node(number, view.name, store, view, view.client, on_cluster=True)
        for number, view in enumerate(node_views(queue, _probe), 1)
    ]


def _probe(connection: Any) -> redis.Redis | None:
    """A client on ``connection``'s Redis with a short timeout and no retries (one per Redis
    and process, made on first use)."""
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
    every: list[Node], checked: list[tuple[Node, list[Check]]], max_backlog: float
) -> list[Node]:
    """The nodes whose Redis answered (those not checked here, ``?node=N``, are asked now)."""
    found = {node.number: checks for node, checks in checked}
    answering = []
    for node in every:
        checks = found.get(node.number)
        if checks is None:
            checks = list(check_redis(node, max_backlog))
        if all(check.ok for check in checks if check.name == "redis"):
            answering.append(node)
    return answering


def _node_checks(node: Node, max_backlog: float) -> Iterator[Check]:
    """The node's checks in order, up to the first function with a failing check (a Redis
    that does not answer is not asked anything more)."""
    for run in NODE_CHECKS:
        found = list(run(node, max_backlog))
        yield from found
        if not all(check.ok for check in found):
            return


def _guarded(name: str, run: Callable[[], Check]) -> Check:
    try:
        return run()
    except CHECK_ERRORS as error:
        return Check(name, False, {}, {"error": str(error)})


def check_redis(node: Node, max_backlog: float) -> Iterable[Check]:
    """The Redis answers; what its restart keeps (a warning unless ``aof always``)."""

    def run() -> Check:
        kept = node.tables.persistence() if node.probe is None else persistence(node.probe)
        summary = {"persistence": kept, "durable": kept == DURABLE}
        warning = None
        if kept != DURABLE:
            warning = (
                f"Redis persistence is {kept!r}: a crash of it may lose acknowledged entries "
                "and audit events not yet stored (set appendonly yes, appendfsync always)"
            )
        return Check("redis", True, summary, warning=warning)

    return [_guarded("redis", run)]


def check_drain(node: Node, max_backlog: float) -> Iterable[Check]:
    """A drain worker is live, and the oldest event staged on the node is younger than
    ``max_backlog`` seconds (a drain that keeps up keeps it under a second)."""
    queue = node.queue if node.probe is None or node.on_cluster else RQAuditQueue(node.probe)

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


def check_audit_store(ports: Services, answering: list[Node]) -> Iterable[Check]:
    """The audit store answers."""

    def run() -> Check:
        ports.audit_store.ping()
        return Check("audit_store", True)

    return [_guarded("audit_store", run)]


def check_verify_worker(ports: Services, answering: list[Node]) -> Iterable[Check]:
    """A verification worker is live (on the Redis of the jobs' queue: the tables' Redis,
    whose own check says when it does not answer, or ``RQ_REDIS_URL`` beside a cluster)."""
    probe = _probe(getattr(ports.verifications, "connection", None))
    if probe is None or (not answering and not getattr(ports.tables, "cluster", False)):
        return []

    def run() -> Check:
        live = live_workers(probe, VERIFY_QUEUE)
        return Check("verify_worker", bool(live), {"workers": len(live)})

    return [_guarded("verify_worker", run)]


def check_audit_integrity(ports: Services, answering: list[Node]) -> Iterable[Check]:
    """No table's chain is forked and no table's events are refused by the store
    (``service.audit.audit_alerts``): either means a table is not being audited. Asked of
    the one Redis through its probe when it answers (a dead one is reported by its own
    checks, and must not fail the host); a cluster's through its client."""
    if ports.integrity is None:
        return []
    report = ports.integrity
    plain = [node for node in answering if not node.on_cluster]
    if isinstance(report, AuditIntegrityReport) and plain and all(n.probe for n in plain):
        queues = [RQAuditQueue(n.probe) for n in plain if n.probe is not None]
        report = AuditIntegrityReport(report.store, queues, report.public_keys)
    elif isinstance(report, AuditIntegrityReport) and not answering:
        return []

    def run() -> Check:
        alerts = audit_alerts(replace(ports, integrity=report))
        summary = {key: value for key, value in alerts.items() if key != "ok"}
        return Check("audit_integrity", bool(alerts["ok"]), summary)

    return [_guarded("audit_integrity", run)]


HOST_CHECKS: list[HostCheck] = [check_audit_store, check_verify_worker, check_audit_integrity]
NODE_CHECKS: list[NodeCheck] = [check_redis, check_drain]
