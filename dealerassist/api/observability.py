"""What the API gives an operator: request IDs, the metrics of each answer, access lines, and
``GET /metrics`` (Prometheus's text format) for a ``monitor`` or ``admin`` token.

Every answer carries ``X-Request-ID``: the caller's (``REQUEST_ID``: up to 128 letters,
digits and ``._:-``; a proxy's or a tablet's ID is kept so one request is one ID from end
to end) or a new one. Each log line written while a request is served names it, with the
table, the seat and the token's name where they apply (``telemetry.logs``).

Each answer is counted in ``dealerassist_http_request_duration_seconds`` by method, the
route's *template* (``/v1/tables/<table_id>/actions``: table IDs would make a series per
table, without bound) and status; a 409 rule violation also in ``dealerassist_refusals``
by its rule ID (a replayed answer, ``Idempotent-Replayed``, is not counted again). An
unknown method counts as ``other``, a path no route matches (a 404, or a 405 for the
method) as ``unmatched``, a rule ID
the engine does not know (there is none) as ``other``: no label takes a caller's words.

``GET /metrics`` sums every process's counts (``telemetry.metrics``) and reads, for that
scrape, what lives in Redis and the store (``StateCollector``): the staged-event backlog
and its age, the failed jobs, the isolated and forked tables and the live workers of each
Redis, whether each Redis and the store answer, the open floor calls. It reads them through
the same probe clients as ``/readyz`` (short timeouts, no retries), so a dead Redis makes
its ``dealerassist_redis_up`` 0, never a slow scrape.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import redis
from flask import Blueprint, Flask, Response, current_app, g, has_request_context, request
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from rq.registry import FailedJobRegistry

from dealerassist import __version__
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, live_workers
from dealerassist.adapters.rq_verifications import VERIFY_QUEUE, RQVerificationQueue
from dealerassist.api.auth import Role, requires
from dealerassist.api.health import Node, _probe, nodes
from dealerassist.api.http import no_query, services
from dealerassist.errors import DealerAssistError
from dealerassist.rules.model.violations import RuleId
from dealerassist.service.ports import Services
from dealerassist.telemetry import logs
from dealerassist.telemetry.logs import AccessLog
from dealerassist.telemetry.metrics import CONTENT_TYPE, PREFIX, exposition, metrics

blueprint = Blueprint("metrics", __name__)
access = logging.getLogger("dealerassist.access")

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
METRICS_CONFIG = "DEALERASSIST_METRICS"
ACCESS_LOG_CONFIG = "DEALERASSIST_ACCESS_LOG"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"
RULE_IDS = frozenset(str(rule) for rule in RuleId)
RULE_VIOLATION = "/rule-violation"
_PROBLEM_ERRORS = (DealerAssistError, redis.RedisError, OSError)


def register_observability(app: Flask, with_metrics: bool, access_log: AccessLog) -> None:
    """Request IDs and access lines always; the counting and ``/metrics`` ``with_metrics``.
    Registered before the other hooks, so every answer gets its request ID."""
    app.config[METRICS_CONFIG] = with_metrics
    app.config[ACCESS_LOG_CONFIG] = access_log
    app.before_request(_start)
    app.after_request(_finish)
    logs.add_context_provider(request_context)
    if with_metrics:
        metrics()  # made now: the first answer does not pay for them
        app.register_blueprint(blueprint)


def request_id() -> str | None:
    """This request's ID (None outside a request)."""
    return g.get("request_id") if has_request_context() else None


def _start() -> None:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    g.request_id = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
    g.request_started = time.perf_counter()


def _finish(response: Response) -> Response:
    rid = g.get("request_id") or uuid.uuid4().hex
    response.headers[REQUEST_ID_HEADER] = rid
    started = g.get("request_started")
    elapsed = 0.0 if started is None else time.perf_counter() - started
    status = response.status_code
    route = request.url_rule.rule if request.url_rule is not None else UNMATCHED
    method = request.method if request.method in METHODS else "other"
    if current_app.config.get(METRICS_CONFIG):
        found = metrics()
        found.requests.labels(method, route, str(status)).observe(elapsed)
        if status == 409 and response.headers.get("Idempotent-Replayed") != "true":
            rule = _refused_rule(response)
            if rule is not None:
                found.refusals.labels(rule).inc()
    chosen = current_app.config.get(ACCESS_LOG_CONFIG, AccessLog.ERRORS)
    if isinstance(chosen, AccessLog) and chosen.logs(status):
        level = logging.ERROR if status >= 500 else logging.INFO
        extra = {
            "method": method,
            "route": route,
            "path": request.path,
            "status": status,
            "duration_ms": round(elapsed * 1000, 2),
        }
        access.log(level, "%s %s %d", request.method, request.path, status, extra=extra)
    return response


def _refused_rule(response: Response) -> str | None:
    """The rule ID of a rule-violation problem (``other`` for one the engine does not name)."""
    body = response.get_json(silent=True)
    if not isinstance(body, dict) or not str(body.get("type", "")).endswith(RULE_VIOLATION):
        return None
    rule = body.get("rule_id")
    return rule if isinstance(rule, str) and rule in RULE_IDS else "other"


def request_context() -> Mapping[str, Any]:
    """The log fields of the request being served: its ID, table, seat and token name."""
    if not has_request_context():
        return {}
    found: dict[str, Any] = {"request_id": g.get("request_id")}
    token = g.get("token")
    if token is not None:
        found["token"] = token.name
    view_args = request.view_args or {}
    table = view_args.get("table_id") or request.args.get("table_id")
    seat = view_args.get("seat")
    if request.is_json and (table is None or seat is None):
        body = request.get_json(silent=True)
        if isinstance(body, dict):
            table = table if table is not None else body.get("table_id")
            seat = seat if seat is not None else body.get("seat")
    found["table"] = table if isinstance(table, str) else None
    found["seat"] = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
    return found


@blueprint.get("/metrics")
@requires(Role.MONITOR, Role.ADMIN)
def metrics_route() -> Response:
    """Every process's counts and this scrape's readings, in Prometheus's text format."""
    no_query()
    try:
        ports: Services | None = services()
    except DealerAssistError:
        ports = None  # a backend is down: the counts are still worth a scrape
    body = exposition([StateCollector(ports, nodes(ports) if ports else [])])
    return Response(body, mimetype=None, content_type=CONTENT_TYPE)


def redis_label(node: Node) -> str:
    """The ``redis`` label of one Redis holding tables: its name as ``health.nodes`` gives it
    (``redis`` for the one Redis, a cluster primary's ``host:port``)."""
    return node.name or str(node.number)


class StateCollector:
    """What is read from Redis and the store for one scrape (see the module docstring)."""

    def __init__(self, ports: Services | None, parts: list[Node]) -> None:
        self.ports = ports
        self.parts = parts

    def collect(self) -> Iterator[Metric]:
        families = {
            name: GaugeMetricFamily(PREFIX + name, text, labels=labels)
            for name, text, labels in GAUGES
        }
        info = GaugeMetricFamily(PREFIX + "build_info", "The running version", labels=["version"])
        info.add_metric([__version__], 1)
        yield info
        up: dict[str, bool] = {}
        for part in self.parts:
            label = redis_label(part)
            up[label] = self._redis(part, label, families)
        if self.ports is not None:
            self._cluster_jobs(self.ports, families)
            families["audit_store_up"].add_metric([], _answers(self.ports.audit_store.ping))
            if self.parts and up.get(redis_label(self.parts[0])):
                self._floor_calls(self.ports, families)
        yield from families.values()

    def _redis(self, part: Node, label: str, families: dict[str, GaugeMetricFamily]) -> bool:
        probe = part.probe
        if probe is None:  # a fake without a Redis: what its own methods say
            families["audit_backlog_events"].add_metric([label], part.queue.depth())
            return True
        try:
            probe.ping()
            # a cluster primary's view reads its own lists; the jobs, the isolated and the
            # forked tables live on the jobs Redis then (RQ_REDIS_URL): not per node
            queue = part.queue if part.on_cluster else RQAuditQueue(probe)
            oldest = queue.oldest_staged_at()
            readings = [
                ("audit_backlog_events", [label], queue.depth()),
                ("audit_backlog_age_seconds", [label], _age(oldest)),
                ("workers_live", [label, "audit"], len(queue.live_workers())),
            ]
            if not part.on_cluster:
                readings += [
                    ("failed_jobs", [label, queue.queue.name], _failed(queue.queue)),
                    ("audit_isolated_tables", [label], len(queue.isolated())),
                    ("audit_forked_tables", [label], len(queue.forked())),
                ]
            if part.number == 1 and not part.on_cluster:  # the verification jobs' queue
                verify = RQVerificationQueue(probe).queue
                readings.append(("failed_jobs", [label, VERIFY_QUEUE], _failed(verify)))
                live = live_workers(probe, VERIFY_QUEUE)
                readings.append(("workers_live", [label, VERIFY_QUEUE], len(live)))
        except _PROBLEM_ERRORS:
            families["redis_up"].add_metric([label], 0)
            return False
        families["redis_up"].add_metric([label], 1)
        for name, labels, value in readings:
            families[name].add_metric(labels, value)
        return True

    def _cluster_jobs(self, ports: Services, families: dict[str, GaugeMetricFamily]) -> None:
        """On a cluster the RQ queues (the drain's, the verifications') are on the jobs Redis
        (RQ_REDIS_URL), not on a node: their failed jobs are read there, as ``redis="jobs"``."""
        queue = ports.audit_queue
        if not getattr(queue, "on_cluster", False):
            return
        probe = _probe(getattr(queue, "jobs", None))
        if probe is None:
            return
        try:
            name = str(getattr(getattr(queue, "queue", None), "name", "audit"))
            audit = RQAuditQueue(probe, name).queue
            readings = [
                ("failed_jobs", ["jobs", audit.name], _failed(audit)),
                ("failed_jobs", ["jobs", VERIFY_QUEUE], _failed(RQVerificationQueue(probe).queue)),
            ]
        except _PROBLEM_ERRORS:
            families["redis_up"].add_metric(["jobs"], 0)
            return
        families["redis_up"].add_metric(["jobs"], 1)
        for name, labels, value in readings:
            families[name].add_metric(labels, value)

    def _floor_calls(self, ports: Services, families: dict[str, GaugeMetricFamily]) -> None:
        if ports.floor_calls is None:
            return
        since = ports.floor_call_limits.open_since(ports.clock.now())
        try:
            total = ports.floor_calls.open_page(None, since, 1).total
        except _PROBLEM_ERRORS:
            return
        families["floor_calls_open"].add_metric([], total)


GAUGES: tuple[tuple[str, str, list[str]], ...] = (
    ("redis_up", "1 if the Redis answers a ping (through a probe: 1 s, no retries)", ["redis"]),
    ("audit_store_up", "1 if the audit store answers", []),
    ("audit_backlog_events", "Audit events staged in this Redis, not yet in the store", ["redis"]),
    (
        "audit_backlog_age_seconds",
        "How long the oldest staged event of this Redis has waited for the drain (0: none)",
        ["redis"],
    ),
    ("failed_jobs", "Jobs in RQ's failed-job registry, by queue", ["redis", "queue"]),
    (
        "audit_isolated_tables",
        "Tables whose events the store refuses (set apart, their events wait)",
        ["redis"],
    ),
    ("audit_forked_tables", "Tables the drain found forked or rewound", ["redis"]),
    ("workers_live", "Workers serving the queue whose heartbeat lives", ["redis", "queue"]),
    ("floor_calls_open", "Floor calls open (not ruled on, not expired)", []),
)


def _answers(ping: Any) -> int:
    try:
        ping()
    except _PROBLEM_ERRORS:
        return 0
    return 1


def _age(oldest: float | None) -> float:
    return 0.0 if oldest is None else max(0.0, time.time() - oldest)


def _failed(queue: Any) -> int:
    return int(FailedJobRegistry(queue=queue).count)
