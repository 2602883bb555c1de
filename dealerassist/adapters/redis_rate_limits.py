"""Rate limits on Redis, shared by every web worker of the host (issue 19 point 10).

``RedisRefusalLimiter``: refused entries per token in fixed windows. A refused entry is
audited, and stored for good; a token that floods them (9,526 in 20 s were measured) would
grow the log without end. Up to ``limit`` per window are stored and answered 409 as always;
the next one is stored marked as the burst (``rate_limit`` in its payload) and answered 429;
the rest of the window's refusals are answered 429 and neither stored nor applied. Accepted
entries are never limited.

``RedisVerifyGate``: the synchronous verify (``GET /v1/audit/verify``) replays events on a
worker that serves tablets. At most ``slots`` run at once on the host (a sorted set of
leases that expire with the verify's time budget, so a killed worker's lease frees itself),
and each token verifies at most ``events_per_window`` events per window; past either, a 429
that names the verification jobs route, which runs on a worker of its own.

Both take the time as an argument (the service's clock) and count in Redis: one ``INCR``
(a refusal) or one script (a verify) each.
"""

from __future__ import annotations

import math
from datetime import datetime
from uuid import uuid4

import redis

from dealerassist.errors import RateLimited
from dealerassist.service import messages as told
from dealerassist.service.ports import Admission, RefusalAdmission, VerifyLease

REFUSALS_KEY = "da:limits:refusals:{token}:{window}"
VERIFY_SLOTS_KEY = "da:limits:verify:slots"
VERIFY_EVENTS_KEY = "da:limits:verify:events:{token}:{window}"

# KEYS: slots, events of this token's window. ARGV: now, lease id, lease end, slots, events,
# events per window, window seconds. Answers {0, 0} (granted), {1, seconds until the first
# lease ends} (every slot taken) or {2, seconds until the window ends} (events spent).
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, math.ceil(tonumber(first[2]) - tonumber(ARGV[1]))}
end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
if spent > 0 and spent + tonumber(ARGV[5]) > tonumber(ARGV[6]) then
  return {2, redis.call('TTL', KEYS[2])}
end
redis.call('INCRBY', KEYS[2], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return {0, 0}
"""


def _window(at: datetime, seconds: int) -> tuple[int, int]:
    """The fixed window ``at`` falls in, and the seconds until it ends (at least 1).

    >>> from datetime import UTC
    >>> _window(datetime(2026, 12, 1, 12, 0, 50, tzinfo=UTC), 60)[1]
    10
    """
    now = at.timestamp()
    number = int(now // seconds)
    return number, max(1, math.ceil((number + 1) * seconds - now))


class RedisRefusalLimiter:
    """The RefusalLimiter port: ``limit`` refused entries per token per ``window_seconds``."""

    def __init__(self, connection: redis.Redis, limit: int, window_seconds: int) -> None:
        self.connection = connection
        self.limit = limit
        self.window_seconds = window_seconds

    def admit(self, token: str, at: datetime) -> RefusalAdmission:
        number, retry_after = _window(at, self.window_seconds)
        key = REFUSALS_KEY.format(token=token, window=number)
        with self.connection.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, self.window_seconds + 1)
            count = int(pipe.execute()[0])
        if count <= self.limit:
            admission = Admission.ADMIT
        elif count == self.limit + 1:
            admission = Admission.BURST
        else:
            admission = Admission.REFUSE
        return RefusalAdmission(admission, self.limit, self.window_seconds, retry_after)


class RedisVerifyGate:
    """The VerifyGate port: ``slots`` synchronous verifies at once on the host, each lease
    ending ``lease_seconds`` after it began at the latest; ``events_per_window`` events per
    token per ``window_seconds``."""

    def __init__(
        self,
        connection: redis.Redis,
        slots: int,
        lease_seconds: float,
        events_per_window: int,
        window_seconds: int,
    ) -> None:
        self.connection = connection
        self.slots = slots
        self.lease_seconds = lease_seconds
        self.events_per_window = events_per_window
        self.window_seconds = window_seconds
        self._acquire = connection.register_script(_ACQUIRE)

    def acquire(self, token: str, events: int, at: datetime) -> VerifyLease:
        number, _ = _window(at, self.window_seconds)
        lease = VerifyLease(uuid4().hex)
        now = at.timestamp()
        keys = [VERIFY_SLOTS_KEY, VERIFY_EVENTS_KEY.format(token=token, window=number)]
        args: list[str | int | float] = [
            now, lease.id, now + self.lease_seconds, self.slots, max(events, 1),
            self.events_per_window, self.window_seconds,
        ]  # fmt: skip
        refused, seconds = (int(value) for value in self._acquire(keys=keys, args=args))
        if refused == 1:
            raise RateLimited(
                told.VERIFY_SLOTS(slots=self.slots),
                seconds,
                {"limit": "concurrent_verifies", "slots": self.slots},
            )
        if refused == 2:
            raise RateLimited(
                told.VERIFY_EVENTS(events=self.events_per_window, window=self.window_seconds),
                seconds,
                {"limit": "verify_events", "events_per_window": self.events_per_window},
            )
        return lease

    def release(self, lease: VerifyLease) -> None:
        self.connection.zrem(VERIFY_SLOTS_KEY, lease.id)
