"""Tables on a Redis Cluster: ``REDIS_URL=redis+cluster://host1:port1,host2:port2,…``.

Every key of a table carries the hash tag ``{table_id}`` (``redis_tables.TABLE_KEY``), so
its state, head, idempotency records, staged events and fork mark sit in one slot and a
commit is one Lua script on the node that owns it (redis-py's ``RedisCluster`` routes it).
What cannot share a slot with every table is kept out of the commit:

* **the drain's work list**: the commit script stages the events in the table's pending
  list (atomic with the state); then, as a second command, the table is added to one of
  ``DIRTY_BUCKETS`` dirty sets (``da:audit:dirty:{b<n>}``, the bucket by the table's slot,
  so the sets spread over the nodes). The drain reads every bucket each round. A table
  leaves its bucket only through ``forget_if_empty``: removed first, then its list is
  read, and it goes back if anything is staged, so a staging that raced the removal is
  never forgotten (it adds after its events are in). Only a client that dies between its
  commit and that SADD leaves a table unmarked: ``sweep`` (at start and every
  ``SWEEP_SECONDS``) scans each primary for pending lists and marks them. Fixed buckets,
  not one set per node: a resharding moves their slots like any other, and no set is left
  behind on a node that no longer exists;
* **RQ** (it does not support Redis Cluster): verification jobs, open floor calls, rate
  limits and the workers' heartbeats live on an ordinary Redis, ``RQ_REDIS_URL``. The
  audit drain is no RQ job here: ``worker.run_cluster_worker`` drains in a loop (with no
  drain flag, a commit need not check one), and retries isolated tables itself.

During a slot migration (``redis-cli --cluster reshard``) a node answers ASK or MOVED,
which redis-py follows, or TRYAGAIN while a slot's keys are split between the two nodes:
a commit script whose pending list is empty (an emptied list is deleted, so only the
source or only the target holds some of the keys) meets it until the slot has moved.
``retrying`` retries those with backoff for up to ``TRYAGAIN_SECONDS``: the script checks
the head it read, so a retry that finds its own write already in place is a Conflict the
service answers from the idempotency record, never a second write.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

from dealerassist.adapters.redis_tables import REDIS_ERRORS
from dealerassist.adapters.rq_audit_queue import (
    FORKED_KEY,
    PENDING_KEY,
    RQAuditQueue,
    _as_bytes,
    _as_text,
    decode_event,
    live_workers,
    pending_key,
    table_forked_key,
)
from dealerassist.audit.envelope import parse_at
from dealerassist.errors import InvalidInput

CLUSTER_SCHEME = "redis+cluster"
DIRTY_BUCKETS = 16
DIRTY_BUCKET_KEY = "da:audit:dirty:{{b{bucket}}}"
SWEEP_SECONDS = 5.0
TRYAGAIN_SECONDS = 5.0
TRYAGAIN_BACKOFF = (0.02, 0.05, 0.1, 0.2, 0.5)
SCAN_COUNT = 1000
# The errors of a slot on the move or a cluster reconfiguring: worth a retry. redis-py
# follows ASK and MOVED and retries TRYAGAIN itself, 16 times in about 0.4 s, then raises
# ClusterError("TTL exhausted."); CLUSTERDOWN is a ClusterError too.
RETRIED = (
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterError,
    redis.exceptions.AskError,
    redis.exceptions.MovedError,
    redis.exceptions.SlotNotCoveredError,
)

T = TypeVar("T")
log = logging.getLogger(__name__)


def is_cluster_url(url: str | None) -> bool:
    """Whether ``url`` names a Redis Cluster.

    >>> is_cluster_url("redis+cluster://a:7000,b:7001"), is_cluster_url("redis://a/0")
    (True, False)
    """
    return url is not None and url.strip().lower().startswith(CLUSTER_SCHEME + "://")


@dataclass(frozen=True, slots=True)
class ClusterTarget:
    """What a ``redis+cluster://`` URL names: some of its nodes (any will do to find the
    others) and the credentials."""

    nodes: tuple[tuple[str, int], ...]
    username: str | None = None
    password: str | None = None


def parse_cluster_url(url: str) -> ClusterTarget:
    """The start-up nodes of a ``redis+cluster://[[user]:password@]h1:p1,h2:p2[/]`` URL.

    >>> parse_cluster_url("redis+cluster://:pw@h1:7000,h2:7001/")
    ClusterTarget(nodes=(('h1', 7000), ('h2', 7001)), username=None, password='pw')
    """
    parts = urlsplit(url.strip())
    if parts.scheme.lower() != CLUSTER_SCHEME:
        raise InvalidInput(f"not a {CLUSTER_SCHEME}:// URL")
    if parts.path.strip("/") or parts.query:
        raise InvalidInput(
            "a redis+cluster:// URL lists host:port of its nodes and nothing after them "
            "(a cluster has one database)"
        )
    userinfo, _, hosts = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    nodes = []
    for entry in hosts.split(","):
        host, _, port = entry.strip().rpartition(":")
        if not host or not port.isdigit():
            raise InvalidInput(f"REDIS_URL: {entry.strip()!r} is not host:port of a cluster node")
        nodes.append((host, int(port)))
    return ClusterTarget(tuple(nodes), unquote(username) or None, unquote(password) or None)


def cluster_client(url: str, **options: Any) -> RedisCluster:
    """A ``RedisCluster`` client for ``url``; ``options`` are redis-py's connection options."""
    target = parse_cluster_url(url)
    node: Any = ClusterNode
    return RedisCluster(
        startup_nodes=[node(host, port) for host, port in target.nodes],
        username=target.username,
        password=target.password,
        **options,
    )


def primaries(client: Any) -> list[Any]:
    """The cluster's primaries by name (``host:port``): the nodes readiness checks."""
    return sorted(client.get_primaries(), key=lambda node: str(node.name))


def node_names(client: Any) -> list[str]:
    """The names of the cluster's primaries (``host:port``), in ``primaries``' order."""
    return [str(node.name) for node in primaries(client)]


def slot_of(table_id: str) -> int:
    """The hash slot of every key of a table.

    >>> slot_of("T7") == key_slot(b"da:table:{T7}") == key_slot(b"da:idem:{T7}:tablet:k")
    True
    """
    return int(key_slot(table_id.encode()))


def dirty_bucket_key(table_id: str) -> str:
    """The dirty set a table is listed in while it has staged events.

    >>> dirty_bucket_key("T7")
    'da:audit:dirty:{b15}'
    """
    return DIRTY_BUCKET_KEY.format(bucket=slot_of(table_id) % DIRTY_BUCKETS)


DIRTY_BUCKET_KEYS = [DIRTY_BUCKET_KEY.format(bucket=b) for b in range(DIRTY_BUCKETS)]


def retrying(call: Callable[[], T], seconds: float = TRYAGAIN_SECONDS) -> T:
    """``call()``, again with backoff while the cluster answers TRYAGAIN, ASK, MOVED or
    CLUSTERDOWN (redis-py's own retries spent), for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    attempt = 0
    while True:
        try:
            return call()
        except RETRIED:
            if time.monotonic() >= deadline:
                raise
            time.sleep(TRYAGAIN_BACKOFF[min(attempt, len(TRYAGAIN_BACKOFF) - 1)])
            attempt += 1


# For each table (KEYS[i] its pending list): drop the stored prefix up to ARGV[2i - 1]
# (found in the first ARGV[2i]), as rq_audit_queue's trim script does, one table a call
# (a cluster script touches one slot). Returns how many went and how many are left.
_TRIM_ONE_SCRIPT = """
local removed = 0
if ARGV[1] ~= '' then
  local index = redis.call('LPOS', KEYS[1], ARGV[1], 'MAXLEN', tonumber(ARGV[2]))
  if index then
    redis.call('LTRIM', KEYS[1], index + 1, -1)
    removed = index + 1
  end
end
return {removed, redis.call('LLEN', KEYS[1])}
"""


class ClusterAuditQueue(RQAuditQueue):
    """The audit queue's staged events on a Redis Cluster (see the module docstring):
    the same interface the drain, readiness and the integrity report use."""

    on_cluster = True

    def __init__(self, cluster: RedisCluster, jobs: redis.Redis, queue_name: str = "audit") -> None:
        super().__init__(jobs, queue_name)  # the RQ queue (unused by the drain) and names
        self.cluster: Any = cluster  # redis-py's cluster client is untyped
        self.jobs = jobs
        self.shared = jobs
        self.connection = cluster  # type: ignore[assignment]
        self._trim_one = cluster.register_script(_TRIM_ONE_SCRIPT)

    # -- the table store's side --------------------------------------------------------

    def watch_keys(self, table_id: str) -> list[str]:
        return []  # no drain flag: the cluster's drain is a loop, always on

    def staging_keys(self, table_id: str) -> list[str]:
        return [pending_key(table_id)]

    def mark_dirty(self, table_id: str) -> None:
        """After a commit staged events: list the table for the drain (see the docstring).
        Never fails the commit, which is made: if the bucket's node does not answer (it is
        down while the table's is not), the drain's sweep finds the events instead."""
        try:
            retrying(lambda: self.cluster.sadd(dirty_bucket_key(table_id), table_id), 1.0)
        except REDIS_ERRORS as error:
            log.warning("table %r not listed for the drain (%s): the sweep will", table_id, error)

    def _each_bucket(self, command: str, *args: Any) -> Iterator[list[Any]]:
        """``command`` on every bucket; a bucket whose node does not answer is left out (its
        tables' events are found by the sweep; the other nodes drain on)."""
        for key in DIRTY_BUCKET_KEYS:
            try:
                yield list(self.cluster.execute_command(command, key, *args))
            except REDIS_ERRORS as error:
                log.debug("dirty bucket %s unreadable: %s", key, error)

    # -- the drain's side --------------------------------------------------------------

    def _dirty(self, limit: int) -> list[str]:
        per_bucket = max(1, limit // DIRTY_BUCKETS)
        found = {
            _as_text(m) for members in self._each_bucket("SRANDMEMBER", per_bucket) for m in members
        }
        return sorted(found)[:limit]

    def dirty_tables(self, limit: int) -> list[str]:
        return self._dirty(limit)

    def drainable_tables(self, limit: int) -> list[str]:
        tables = self._dirty(limit)
        if not tables:
            return []
        isolated = set(self.isolated())
        for table_id in tables:
            if table_id in isolated:
                self.cluster.srem(dirty_bucket_key(table_id), table_id)
        return [table_id for table_id in tables if table_id not in isolated]

    def peek(self, table_id: str, count: int) -> list[bytes]:
        key = pending_key(table_id)
        raw: list[bytes] = retrying(lambda: self.cluster.lrange(key, 0, count - 1))
        return [_as_bytes(item) for item in raw]

    def peek_tables(self, tables: Sequence[str], count: int) -> dict[str, list[bytes]]:
        return {table_id: self.peek(table_id, count) for table_id in tables}

    def _trim_lists(self, trims: Sequence[tuple[str, bytes, int]]) -> int:
        removed = 0
        for table_id, last, within in trims:
            trim = partial(self._trim_one, keys=[pending_key(table_id)], args=[last, within])
            gone, left = retrying(trim)
            removed += int(gone)
            if int(left) == 0:
                self.forget_if_empty(table_id)
        return removed

    def forget_if_empty(self, table_id: str) -> None:
        """Take the table off the drain's list unless something is staged: removed first,
        then read, so a staging that raced the removal puts it back (see the docstring)."""
        bucket = dirty_bucket_key(table_id)
        try:
            retrying(lambda: self.cluster.srem(bucket, table_id), 1.0)
        except REDIS_ERRORS:
            return  # its bucket's node is down: the table stays listed there, unread
        if retrying(lambda: self.cluster.llen(pending_key(table_id))):
            self.mark_dirty(table_id)

    # The isolated and forked tables' lists are on the jobs Redis: readiness and the alerts
    # read them whichever node is down. A table's own fork mark is in its slot (the commit
    # reads it with the table).

    def isolate(self, table_id: str, reason: str) -> None:
        """Set the table apart: the drain skips it; ``run_cluster_worker`` retries it every
        ``SWEEP_SECONDS`` (no RQ job: RQ cannot reach the cluster)."""
        self.jobs.hset(self.isolated_key, table_id, reason)
        retrying(lambda: self.cluster.srem(dirty_bucket_key(table_id), table_id))

    def lift_isolation(self, table_id: str) -> bool:
        lifted = bool(self.jobs.hdel(self.isolated_key, table_id))
        if lifted and self.pending(table_id):
            self.mark_dirty(table_id)
        return lifted

    def mark_forked(self, table_id: str, seq: int, stored_hash: str) -> None:
        value = json.dumps([seq, stored_hash])
        self.jobs.hset(FORKED_KEY, table_id, value)
        retrying(lambda: self.cluster.set(table_forked_key(table_id), value))

    def clear_forked(self, table_id: str) -> None:
        self.jobs.hdel(FORKED_KEY, table_id)
        retrying(lambda: self.cluster.delete(table_forked_key(table_id)))

    def release_drain(self) -> bool:
        return True  # no flag to release

    def renew_drain_flag(self) -> None:
        pass

    def hold_drain_flag(self, seconds: int) -> None:
        pass

    def enqueue_drain(self, pipe: redis.client.Pipeline | None = None) -> None:
        pass  # the drain is a loop (worker.run_cluster_worker), not a job

    # -- operations --------------------------------------------------------------------

    def _scan_primaries(self, pattern: str) -> Iterator[str]:
        """The keys matching ``pattern`` on every primary that answers."""
        for node in primaries(self.cluster):
            client = self.cluster.get_redis_connection(node)
            try:
                keys = list(client.scan_iter(match=pattern, count=SCAN_COUNT))
            except REDIS_ERRORS as error:
                log.warning("cluster node %s not scanned: %s", node.name, error)
                continue
            yield from (_as_text(key) for key in keys)

    def tables(self) -> list[str]:
        """Every table with a state on the cluster (a scan of each primary)."""
        prefix = "da:table:{"
        return sorted(
            {key[len(prefix) : key.rindex("}")] for key in self._scan_primaries(prefix + "*")}
        )

    def pending(self, table_id: str) -> int:
        key = pending_key(table_id)
        return int(retrying(lambda: self.cluster.llen(key)))

    def staged_tables(self) -> list[str]:
        """The tables with staged events (a scan of each primary for pending lists)."""
        prefix = PENDING_KEY.format(table_id="")[:-1]  # 'da:audit:pending:{'
        return sorted(
            {key[len(prefix) : key.rindex("}")] for key in self._scan_primaries(prefix + "*")}
        )

    def sweep(self, idle_only: bool = False) -> list[str]:
        """Mark every table with staged events dirty (a scan of each primary): the drain's
        safety net for a commit whose client died before its SADD, and for lists copied in
        by ``migrate-redis``. Returns the tables that were not marked."""
        staged = self.staged_tables()
        if not staged:
            return []
        listed = set(self._dirty_members())
        missing = [table_id for table_id in staged if table_id not in listed]
        for table_id in missing:
            self.mark_dirty(table_id)
        return missing

    def sweep_if_idle(self) -> list[str]:
        return self.sweep()

    def _dirty_members(self) -> list[str]:
        return [_as_text(m) for members in self._each_bucket("SMEMBERS") for m in members]

    def dirty_by_node(self) -> dict[str, list[str]]:
        """The dirty tables by the primary that holds them (``host:port``)."""
        found: dict[str, list[str]] = {name: [] for name in node_names(self.cluster)}
        for table_id in sorted(set(self._dirty_members())):
            node = self.cluster.nodes_manager.get_node_from_slot(slot_of(table_id))
            found.setdefault(str(node.name), []).append(table_id)
        return found

    def depth(self) -> int:
        tables = set(self._dirty_members()) | set(self.isolated())
        return sum(self.pending(table_id) for table_id in sorted(tables))

    def oldest_staged_at(self) -> float | None:
        return self._oldest(sorted(set(self._dirty_members())))

    def _oldest(self, tables: Sequence[str]) -> float | None:
        times = []
        for table_id in tables:
            raw = retrying(partial(self.cluster.lindex, pending_key(table_id), 0))
            if raw:
                times.append(parse_at(decode_event(raw)["at"]).timestamp())
        return min(times) if times else None

    def live_workers(self) -> list[str]:
        return live_workers(self.jobs, self.queue.name)


@dataclass
class ClusterNodeView:
    """One primary of the cluster as readiness sees it: its name, a plain client on it, and
    the cluster's queue. Its backlog is read on the node alone (a scan of its pending
    lists), so a dead node fails its own checks and no other's; a list whose slot is on
    the move meanwhile (MOVED, ASK) is left to the node it goes to."""

    name: str
    client: redis.Redis
    queue: ClusterAuditQueue

    def _pending_lists(self) -> list[str]:
        prefix = PENDING_KEY.format(table_id="")[:-1]
        return sorted(
            _as_text(key) for key in self.client.scan_iter(match=prefix + "*", count=SCAN_COUNT)
        )

    def _each(self, command: str) -> list[Any]:
        found = []
        for key in self._pending_lists():
            try:
                found.append(
                    self.client.llen(key) if command == "LLEN" else self.client.lindex(key, 0)
                )
            except redis.ResponseError:  # MOVED or ASK: the slot is leaving this node
                continue
        return found

    def depth(self) -> int:
        return sum(int(length) for length in self._each("LLEN"))

    def oldest_staged_at(self) -> float | None:
        times = [
            parse_at(decode_event(raw)["at"]).timestamp() for raw in self._each("LINDEX") if raw
        ]
        return min(times) if times else None

    def live_workers(self) -> list[str]:
        return self.queue.live_workers()


def node_views(
    queue: ClusterAuditQueue, client_for: Callable[[redis.Redis], redis.Redis | None] | None = None
) -> list[ClusterNodeView]:
    """Each primary of the queue's cluster (``primaries``' order), on a plain client of it
    (``client_for`` may swap it for a probe)."""
    views = []
    for node in primaries(queue.cluster):
        client = queue.cluster.get_redis_connection(node)
        if client_for is not None:
            client = client_for(client) or client
        views.append(ClusterNodeView(str(node.name), client, queue))
    return views
