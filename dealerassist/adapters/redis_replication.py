"""Waiting for the replica before a commit is answered (``WAIT numreplicas timeout``).

Redis replicates asynchronously: a write the primary answered can be lost if the primary
dies before its replica got it and Sentinel promotes the replica. So with a replica set up
(``DEALERASSIST_REDIS_WAIT_REPLICAS``, 1 by default behind Sentinel) a table's commit is
answered only after that many replicas confirmed it; one they did not confirm within
``DEALERASSIST_REDIS_WAIT_MS`` raises ``errors.Unavailable`` (503 with Retry-After). The
write may still be on the primary (and reach the replica later) or be lost with it: the
tablet's retry with the same Idempotency-Key answers the one that survived, exactly once.

``WAIT`` counts the writes of the connection it is sent on, so it goes on the connection of
the write: in one pipeline with the commit script (one round trip), or, after a MULTI/EXEC
or to confirm an answer read back, after a small write of its own on a key of the table
(``probe``): Redis replicates one ordered stream, so a replica that acknowledged the probe
has everything written before it.

On a Redis Cluster (``DEALERASSIST_REDIS_WAIT_REPLICAS`` set: a cluster waits for none by
default) the commit script runs as usual and then the probe and ``WAIT`` go, in one round
trip, to the primary that owns the table's slot (the probe key carries the table's hash
tag), on that node's own connection: ``WAIT`` there counts the replicas of that shard. A
slot that moved between the script and the probe (``MOVED``/``ASK``/``TRYAGAIN``) is not
confirmed: 503, and the retry by the same Idempotency-Key confirms the answer it replays on
the slot's new owner. (Redis 7.0 has no ``WAITAOF``; where the replica runs
``appendfsync always`` a confirmed write is also on its disk.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.commands.core import Script

from dealerassist.errors import Unavailable

PROBE_TTL_MS = 60_000  # the probe key is only ever written: it may expire


@dataclass(frozen=True, slots=True)
class ReplicaWait:
    """How many replicas must confirm a commit (0: none, answer at once), and how long to
    wait for them (``settings.DEFAULT_REDIS_WAIT_MS`` unless the operator chose)."""

    replicas: int = 0
    timeout_ms: int = 0

    @property
    def waits(self) -> bool:
        return self.replicas > 0

    def script_then_wait(
        self, connection: redis.Redis, script: Script, keys: Sequence[Any], args: Sequence[Any]
    ) -> tuple[Any, int]:
        """Run ``script`` and then ``WAIT`` on one connection, in one round trip: the
        script's answer and how many replicas confirmed what it wrote."""
        for attempt in (1, 2):
            pipe = connection.pipeline(transaction=False)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)  # type: ignore[no-untyped-call]
            pipe.execute_command("WAIT", self.replicas, self.timeout_ms)  # type: ignore[no-untyped-call]
            try:
                written, acked = pipe.execute()
            except redis.exceptions.NoScriptError:
                if attempt == 2:
                    raise
                script.sha = connection.script_load(script.script)  # a new or flushed primary
                continue
            return written, int(acked)
        raise AssertionError("unreachable")  # pragma: no cover

    def confirm(self, connection: redis.Redis, probe: str) -> None:
        """Wait until the replicas have everything the primary holds now (a write to
        ``probe``, then ``WAIT`` on its connection); ``Unavailable`` if they do not confirm
        in time. A no-op when no replica is to be waited for."""
        if not self.waits:
            return
        node = _slot_owner(connection, probe)
        pipe = node.pipeline(transaction=False)
        pipe.set(probe, b"1", px=PROBE_TTL_MS)
        pipe.execute_command("WAIT", self.replicas, self.timeout_ms)  # type: ignore[no-untyped-call]
        try:
            _, acked = pipe.execute()
        except (redis.exceptions.MovedError, redis.exceptions.AskError,
                redis.exceptions.TryAgainError) as moved:  # fmt: skip
            raise Unavailable(
                f"the table's slot moved before its replicas confirmed the commit ({moved}): "
                "retry with the same Idempotency-Key"
            ) from moved
        self.check(int(acked))

    def check(self, acked: int) -> None:
        """``Unavailable`` unless ``acked`` replicas are enough."""
        if acked < self.replicas:
            raise Unavailable(
                f"the commit is on the Redis primary but {acked} of {self.replicas} replicas "
                f"confirmed it within {self.timeout_ms} ms, so a failover could still lose it: "
                "retry with the same Idempotency-Key (the retry answers the entry that "
                "survived, once)"
            )


def _slot_owner(connection: Any, key: str) -> redis.Redis:
    """The client to send ``key``'s probe and its ``WAIT`` on: on a cluster the primary that
    owns the key's slot (its own ``redis.Redis``, so both go on one connection), else
    ``connection`` itself."""
    if isinstance(connection, redis.RedisCluster):
        node = connection.get_node_from_key(key)  # type: ignore[no-untyped-call]
        client = None if node is None else node.redis_connection
        if not isinstance(client, redis.Redis):
            raise Unavailable(f"no Redis Cluster node owns the slot of {key!r} now; retry")
        return client
    return connection  # type: ignore[no-any-return]
