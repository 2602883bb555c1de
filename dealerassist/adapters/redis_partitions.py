"""Tables partitioned across several Redis by table ID, when one Redis is not enough.

``REDIS_URL`` may list several Redis, comma-separated. Each table lives on one of them for
good, chosen by ``partition_of`` (SHA-256 of the table ID, modulo the number of Redis): its
state, chain head, idempotency records and staged audit events, so a commit stays one
compare-and-set on one server and the drain of that Redis stores them. Open floor calls and
verification jobs live on the first Redis. The list is part of the data: keep its order,
and do not add or remove a Redis while tables exist (their IDs would map elsewhere).

Each Redis has its own drain: ``dealerassist worker --partition N`` (1-based) for each.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from dealerassist.adapters.redis_connect import split_redis_urls
from dealerassist.adapters.redis_tables import RedisTableStore, RedisTransaction
from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.errors import InvalidInput, Unavailable
from dealerassist.service.ports import TableRecord


def redis_urls(value: str) -> list[str]:
    """The Redis that ``REDIS_URL`` names, in order (one, or several comma-separated).

    >>> redis_urls("redis://a:6379/0, redis://b:6379/0")
    ['redis://a:6379/0', 'redis://b:6379/0']
    """
    urls = split_redis_urls(value)
    if not all(urls):
        raise InvalidInput(f"REDIS_URL {value!r} has an empty entry; list Redis URLs by commas")
    if len(set(urls)) != len(urls):
        raise InvalidInput(f"REDIS_URL {value!r} names a Redis twice")
    return urls


def partition_url(value: str, partition: int | None) -> str:
    """The one Redis a worker serves: the only one, or the ``partition``-th (from 1).

    >>> partition_url("redis://a/0,redis://b/0", 2)
    'redis://b/0'
    """
    urls = redis_urls(value)
    if partition is None:
        if len(urls) > 1:
            raise InvalidInput(
                f"REDIS_URL lists {len(urls)} Redis (tables partitioned by ID): run one worker "
                f"for each, with --partition 1 to {len(urls)}"
            )
        return urls[0]
    if not 1 <= partition <= len(urls):
        raise InvalidInput(f"--partition must be 1 to {len(urls)} (REDIS_URL lists {len(urls)})")
    return urls[partition - 1]


def partition_of(table_id: str, count: int) -> int:
    """The index (from 0) of the Redis that holds ``table_id``: stable across processes and
    releases, spread evenly.

    >>> partition_of("T7", 1), partition_of("T7", 3), partition_of("T8", 3)
    (0, 0, 2)
    """
    digest = hashlib.sha256(table_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


# After a partition's Redis failed a request, its tables answer 503 at once for this long
# (then the next request tries it again): a down Redis costs its tables' requests no
# connection attempts and retries (0.3-0.5 s each), and the other partitions keep the
# workers' threads and CPU.
FAIL_FAST_SECONDS = 1.0


class PartitionedTableStore:
    """One ``RedisTableStore`` per Redis; each table's commands go to its own. A partition
    whose Redis just failed fails fast (``FAIL_FAST_SECONDS``)."""

    def __init__(
        self,
        stores: Sequence[RedisTableStore],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stores = list(stores)
        self.clock = clock
        self.down_until = [0.0] * len(self.stores)

    def store_of(self, table_id: str) -> RedisTableStore:
        return self.stores[partition_of(table_id, len(self.stores))]

    @contextmanager
    def _failing_fast(self, table_id: str) -> Iterator[RedisTableStore]:
        index = partition_of(table_id, len(self.stores))
        if self.clock() < self.down_until[index]:
            raise Unavailable(f"Redis partition {index + 1} is down; retry in a second")
        try:
            yield self.stores[index]
        except Unavailable:
            self.down_until[index] = self.clock() + FAIL_FAST_SECONDS
            raise

    @contextmanager
    def transaction(self, table_id: str, idempotency_key: str | None) -> Iterator[RedisTransaction]:
        with (
            self._failing_fast(table_id) as store,
            store.transaction(table_id, idempotency_key) as transaction,
        ):
            yield transaction

    def load(self, table_id: str) -> TableRecord | None:
        with self._failing_fast(table_id) as store:
            return store.load(table_id)

    def ping(self) -> None:
        """Raise ``errors.Unavailable`` if any of the Redis does not answer."""
        for store in self.stores:
            store.ping()

    def persistence(self) -> str:
        """What a restart keeps, the same for all (``aof always``) or Redis by Redis."""
        kept = [store.persistence() for store in self.stores]
        if len(set(kept)) == 1:
            return kept[0]
        return "; ".join(f"redis {number}: {value}" for number, value in enumerate(kept, 1))


class PartitionedAuditQueue:
    """The staged audit events of every Redis: their depth is the sum."""

    def __init__(self, queues: Sequence[RQAuditQueue]) -> None:
        self.queues = list(queues)

    def depth(self) -> int:
        return sum(queue.depth() for queue in self.queues)

    def pending(self, table_id: str) -> int:
        return self.queues[partition_of(table_id, len(self.queues))].pending(table_id)
