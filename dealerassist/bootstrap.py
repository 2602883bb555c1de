"""Composition root: picks the concrete adapters (the only place that does).

``build_services(settings)`` wires Redis (table store + audit queue + verification jobs +
rate limits),
the SQL audit store (and its event counter), the house-rule profiles and the system clock
into one ``Services``; the service tests build
``Services`` from the fakes in ``tests/fakes.py`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
from redis.backoff import ExponentialBackoff

from dealerassist.adapters.audit_integrity import AuditIntegrityReport
from dealerassist.adapters.checkpointing import public_keys
from dealerassist.adapters.redis_cluster import (
    ClusterAuditQueue,
    cluster_client,
    is_cluster_url,
    retrying,
)
from dealerassist.adapters.redis_connect import (
    CountingRetry,
    is_sentinel_url,
    redis_client,
    split_redis_urls,
)
from dealerassist.adapters.redis_floor_calls import RedisFloorCalls
from dealerassist.adapters.redis_rate_limits import RedisRefusalLimiter, RedisVerifyGate
from dealerassist.adapters.redis_replication import ReplicaWait
from dealerassist.adapters.redis_shifts import RedisShiftStore
from dealerassist.adapters.redis_tables import RedisTableStore
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.rq_verifications import RQVerificationQueue
from dealerassist.adapters.sql_catalog import SqlAuditCatalog
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.errors import InvalidInput, NotFound
from dealerassist.profiles import load_profiles, profile_version
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service.ports import Services, VerifyLimits
from dealerassist.settings import Settings

REDIS_SOCKET_TIMEOUT = 5.0
REDIS_RETRIES = 2  # then 503: a tablet retries with its Idempotency-Key
# a synchronous verify's slot outlives its time budget by this much at most (a worker killed
# mid-verify never releases it)
VERIFY_LEASE_MARGIN_SECONDS = 5.0


class SystemClock:
    """The Clock port on the system clock (UTC)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class ProfileDirectory:
    """The ProfileSource port on the validated profiles of one directory (read at start-up);
    earlier versions are read from its ``versions/`` archive when a replay asks for one."""

    profiles: dict[str, HouseRules]
    directory: Path | None = None
    _versions: dict[tuple[str, str], HouseRules] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, directory: Path) -> ProfileDirectory:
        return cls(load_profiles(directory), directory)

    def version(self, profile_id: str, sha256: str) -> HouseRules:
        current = self.profiles.get(profile_id)
        if current is not None and current.sha256 == sha256:
            return current
        key = (profile_id, sha256)
        if key not in self._versions:
            if self.directory is None:
                raise NotFound(f"no version {sha256} of house-rule profile {profile_id!r}")
            self._versions[key] = profile_version(profile_id, sha256, self.directory)
        return self._versions[key]

    def get(self, profile_id: str) -> HouseRules:
        try:
            return self.profiles[profile_id]
        except KeyError:
            known = ", ".join(sorted(self.profiles))
            raise NotFound(f"no house-rule profile {profile_id!r}; known: {known}") from None

    def ids(self) -> list[str]:
        return sorted(self.profiles)


def redis_connection(url: str) -> redis.Redis:
    """A Redis client with timeouts, so a dead server is a 503, not a hung request."""
    return redis_client(
        url,
        socket_timeout=REDIS_SOCKET_TIMEOUT,
        socket_connect_timeout=REDIS_SOCKET_TIMEOUT,
        health_check_interval=30,
        retry=CountingRetry(ExponentialBackoff(cap=0.2, base=0.02), REDIS_RETRIES),
    )


def replica_wait(settings: Settings, url: str) -> ReplicaWait:
    """How many replicas confirm each commit on the Redis at ``url``: the setting, else one
    behind Sentinel (its promoted replica must hold every answered commit) and none on a
    lone Redis or a cluster (whose shards may have no replica: the operator asks for it)."""
    replicas = settings.redis_wait_replicas
    if replicas is None:
        replicas = 1 if is_sentinel_url(url) else 0
    return ReplicaWait(replicas, settings.redis_wait_ms)


def build_services(settings: Settings) -> Services:
    """Wire the production adapters from ``settings`` (REDIS_URL must be set by now)."""
    if not settings.redis_url:
        raise InvalidInput("REDIS_URL is not set (`dealerassist serve` starts an embedded Redis)")
    if settings.database_url == settings.sqlite_url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    queue: RQAuditQueue
    if is_cluster_url(settings.redis_url):
        connection = redis_connection(jobs_redis_url(settings))
        cluster: Any = cluster_client(
            settings.redis_url,
            socket_timeout=REDIS_SOCKET_TIMEOUT,
            socket_connect_timeout=REDIS_SOCKET_TIMEOUT,
        )
        queue = ClusterAuditQueue(cluster, connection)
        replication = replica_wait(settings, settings.redis_url)
        store = RedisTableStore(
            cluster, queue, settings.idempotency_ttl_seconds, replication, retry=retrying
        )
    else:
        connection = redis_connection(jobs_redis_url(settings))
        queue = RQAuditQueue(connection)
        replication = replica_wait(settings, settings.redis_url)
        store = RedisTableStore(connection, queue, settings.idempotency_ttl_seconds, replication)
    audit_store = SqlAuditStore(settings.database_url)
    limits = VerifyLimits(max_events=settings.verify_sync_max_events)
    return Services(
        tables=store,
        audit_queue=queue,
        audit_store=audit_store,
        profiles=ProfileDirectory.load(settings.profiles_dir),
        clock=SystemClock(),
        floor_calls=RedisFloorCalls(connection),
        verifications=RQVerificationQueue(connection),
        event_counter=audit_store,
        verify_limits=limits,
        refusal_limiter=RedisRefusalLimiter(
            connection, settings.refusals_per_window, settings.refusal_window_seconds
        ),
        verify_gate=RedisVerifyGate(
            connection,
            slots=settings.verify_sync_concurrency,
            lease_seconds=limits.budget_seconds + VERIFY_LEASE_MARGIN_SECONDS,
            events_per_window=settings.verify_sync_events_per_minute,
            window_seconds=60,
        ),
        audit_catalog=SqlAuditCatalog(audit_store),
        floor_call_limits=settings.floor_call_limits,
        integrity=AuditIntegrityReport(audit_store, [queue], public_keys()),
        shifts=RedisShiftStore(connection),
    )


def jobs_redis_url(settings: Settings) -> str:
    """The ordinary Redis of RQ's queues, floor calls and rate limits: ``RQ_REDIS_URL`` with
    a cluster (required: RQ does not support Redis Cluster), else ``REDIS_URL`` itself (the
    drain's job is enqueued in the commit's transaction, so it must be the same Redis)."""
    url = settings.redis_url
    jobs = settings.jobs_redis_url
    if not url:
        raise InvalidInput("REDIS_URL is not set (`dealerassist serve` starts an embedded Redis)")
    if not is_cluster_url(url) and len(split_redis_urls(url)) > 1:
        raise InvalidInput(
            "REDIS_URL lists several Redis: the modulo partitions of earlier versions are gone; "
            "move their tables onto a Redis Cluster with `dealerassist migrate-redis --from "
            "<the old list>` (docs: Operating it, Redis Cluster)"
        )
    if is_cluster_url(url):
        if not jobs or is_cluster_url(jobs):
            raise InvalidInput(
                "REDIS_URL names a Redis Cluster: set RQ_REDIS_URL to an ordinary Redis for "
                "the job queues, floor calls and rate limits (RQ does not support a cluster)"
            )
        return jobs
    if jobs and jobs != url:
        raise InvalidInput(
            "RQ_REDIS_URL is for a Redis Cluster (REDIS_URL=redis+cluster://…); with one Redis "
            "leave it unset: the drain's jobs must be on the tables' Redis"
        )
    return url
