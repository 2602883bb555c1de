"""Dealers on shift: registered tablets, dealers' PINs, shift sessions, the dealer on duty.

* An admin **registers a tablet** to one table or a bank of tables (``register_tablet``): the
  answer carries a short single-use pairing code; the tablet trades it once for its device
  credential (``pair_tablet``) and keeps that. The credential alone records nothing: it may
  only read its registration and sign a dealer in.
* An admin sets each **dealer**'s employee ID, name and PIN (``set_dealer``); only a salted
  scrypt hash of the PIN is kept.
* A dealer **signs in** at a registered tablet with employee ID and PIN (``sign_in``): the
  answer is a shift session, a token of role dealer scoped to the registration's tables and
  naming the employee, valid ``SHIFT_HOURS`` (or until sign-out, the next dealer's sign-in on
  that tablet, the dealer's sign-in elsewhere, or the tablet's revocation). The dealer is then
  **on duty** at that table: the table's chain records a ``dealer_on_duty`` event, and every
  later event of the table names him (``ChainHead.dealer``) until the next one.
* A wrong PIN is audited at the table (``sign_in_refused``); ``MAX_PIN_FAILURES`` within
  ``PIN_WINDOW_SECONDS`` lock the employee out for ``LOCKOUT_SECONDS`` (audited too), and a
  tablet may fail ``MAX_TABLET_FAILURES`` sign-ins per window, whatever the employee IDs.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from dealerassist.audit.envelope import DEALER_ON_DUTY, SIGN_IN_REFUSED, format_at, parse_at
from dealerassist.errors import (
    Conflict,
    DealerAssistError,
    Forbidden,
    InvalidInput,
    NotFound,
    RateLimited,
    SignInRefused,
)
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.service import messages as told
from dealerassist.service.ports import ChainHead, Services, TableRecord
from dealerassist.service.tables import Actor, _rules_of, seal_event

SHIFT_HOURS = 12
MAX_PIN_FAILURES = 5
PIN_WINDOW_SECONDS = 15 * 60
LOCKOUT_SECONDS = 15 * 60
MAX_TABLET_FAILURES = 20
# pairing codes are 40 bits (8 of 32 letters): a client may miss MAX_PAIRING_FAILURES times
# per PIN_WINDOW_SECONDS, and the house MAX_HOUSE_PAIRING_FAILURES (many addresses)
MAX_PAIRING_FAILURES = 10
MAX_HOUSE_PAIRING_FAILURES = 100
PAIRING_SECONDS = 15 * 60
DUTY_RETRIES = 8

SHIFT_PREFIX = "das_"  # a shift session token
DEVICE_PREFIX = "dat_"  # a registered tablet's device credential
PAIRING_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I
PAIRING_LENGTH = 8
EMPLOYEE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
PIN = re.compile(r"^[0-9]{4,12}$")

# scrypt (RFC 7914) at 16 MiB: ~50 ms a check on one core; slow enough that a stolen hash
# of a 6-digit PIN costs hours, fast enough for a sign-in (the lockout bounds guessing).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


@dataclass(frozen=True, slots=True)
class Tablet:
    """A registered tablet: the tables it serves and its device credential's SHA-256."""

    tablet_id: str
    name: str
    tables: tuple[str, ...]
    registered_at: str
    credential_sha256: str = ""
    paired_at: str | None = None
    revoked_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tables": list(self.tables)}

    def public(self) -> dict[str, Any]:
        """What the API shows of it (never the credential's digest)."""
        data = self.to_dict()
        del data["credential_sha256"]
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Tablet:
        return Tablet(**{**data, "tables": tuple(data["tables"])})


@dataclass(frozen=True, slots=True)
class Dealer:
    """A dealer: employee ID, name, the PIN's salted hash."""

    employee_id: str
    name: str
    pin_hash: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Dealer:
        return Dealer(**data)


@dataclass(frozen=True, slots=True)
class Shift:
    """A dealer's shift session on one tablet (``token_sha256`` names it; the token is never
    kept) and the table where he is on duty."""

    token_sha256: str
    employee_id: str
    name: str
    tablet_id: str
    tables: tuple[str, ...]
    table_id: str
    started_at: str
    expires_at: str

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tables": list(self.tables)}

    def public(self) -> dict[str, Any]:
        data = self.to_dict()
        del data["token_sha256"]
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Shift:
        return Shift(**{**data, "tables": tuple(data["tables"])})

    @property
    def actor_name(self) -> str:
        return tablet_actor(self.tablet_id)


class ShiftEndReason(StrEnum):
    """Why a shift session ended (its ``dealer_on_duty`` reason too). All but ``EXPIRED``
    end it before its time, and its token answers 401 ``shift_ended`` with the reason."""

    PUSHED = "pushed"  # the next dealer signed in on the same tablet
    SIGNED_IN_ELSEWHERE = "signed_in_elsewhere"  # the same dealer signed in on another tablet
    SIGN_OUT = "sign_out"  # the dealer signed out (another tab of the tablet, or this one)
    TABLET_REVOKED = "tablet_revoked"  # an admin revoked the tablet
    ENDED_BY_FLOOR = "ended_by_floor"  # the floor ended this dealer's shift
    EXPIRED = "expired"  # it ran out its time (recorded by the worker: ``expire_shifts``)


@dataclass(frozen=True, slots=True)
class ShiftEnd:
    """What a tablet is told when it uses a session that ended: why, when, and who or which
    tablet took over (the next dealer; the tablet where he signed in)."""

    reason: ShiftEndReason
    ended_at: str
    by_employee_id: str | None = None
    by_name: str | None = None
    by_tablet: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "reason": self.reason.value}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ShiftEnd:
        return ShiftEnd(**{**data, "reason": ShiftEndReason(data["reason"])})

    def words(self) -> Said:
        """The reason in a sentence, for the 401's detail."""
        if self.reason is ShiftEndReason.PUSHED:
            who = told.ANOTHER_DEALER()
            if self.by_employee_id:
                who = told.DEALER_NAMED(name=str(self.by_name), employee=self.by_employee_id)
            return told.ENDED_PUSHED(who=who)
        if self.reason is ShiftEndReason.SIGNED_IN_ELSEWHERE:
            return told.ENDED_ELSEWHERE(tablet=self.by_tablet or told.ANOTHER_TABLET())
        if self.reason is ShiftEndReason.ENDED_BY_FLOOR:
            return told.ENDED_BY_FLOOR(name=str(self.by_name))
        return {
            ShiftEndReason.SIGN_OUT: told.ENDED_SIGN_OUT,
            ShiftEndReason.TABLET_REVOKED: told.ENDED_REVOKED,
            ShiftEndReason.EXPIRED: told.ENDED_EXPIRED,
        }[self.reason]()


class ShiftStore(Protocol):
    """Where tablets, dealers, pairing codes, PIN failures and shift sessions are kept.

    Besides each session (gone at its end), the store keeps an index of the sessions not
    ended early, by their end (``put_shift`` adds or updates it, ``end_shift`` and
    ``forget_expiry`` remove it): ``due_shifts`` reads the ones whose end is at or before
    ``until``, soonest first, for the expiry sweep (``expire_shifts``)."""

    def put_tablet(self, tablet: Tablet) -> None: ...
    def get_tablet(self, tablet_id: str) -> Tablet | None: ...
    def tablets(self) -> list[Tablet]: ...
    def tablet_by_credential(self, credential_sha256: str) -> Tablet | None: ...
    def put_pairing(self, code: str, tablet_id: str, ttl_seconds: int) -> None: ...
    def take_pairing(self, code: str) -> str | None: ...
    def put_dealer(self, dealer: Dealer) -> None: ...
    def get_dealer(self, employee_id: str) -> Dealer | None: ...
    def dealers(self) -> list[Dealer]: ...
    def count_failure(self, key: str, window_seconds: int) -> int: ...
    def failures(self, key: str) -> int: ...
    def clear_failures(self, key: str) -> None: ...
    def lock(self, employee_id: str, seconds: int) -> None: ...
    def locked_for(self, employee_id: str) -> int: ...
    def unlock(self, employee_id: str) -> None: ...
    def put_shift(self, shift: Shift, ttl_seconds: int) -> None: ...
    def get_shift(self, token_sha256: str) -> Shift | None: ...
    def end_shift(self, shift: Shift, ended: ShiftEnd, keep_seconds: int) -> None: ...
    def shift_end(self, token_sha256: str) -> ShiftEnd | None: ...
    def shift_of_tablet(self, tablet_id: str) -> Shift | None: ...
    def shift_of_employee(self, employee_id: str) -> Shift | None: ...
    def due_shifts(self, until: datetime, limit: int) -> list[Shift]: ...
    def forget_expiry(self, token_sha256: str) -> None: ...


@dataclass(frozen=True, slots=True)
class ShiftLimits:
    """The lockout and the session's length (tests shorten them)."""

    max_pin_failures: int = MAX_PIN_FAILURES
    pin_window_seconds: int = PIN_WINDOW_SECONDS
    lockout_seconds: int = LOCKOUT_SECONDS
    max_tablet_failures: int = MAX_TABLET_FAILURES
    max_pairing_failures: int = MAX_PAIRING_FAILURES
    max_house_pairing_failures: int = MAX_HOUSE_PAIRING_FAILURES
    shift_seconds: int = SHIFT_HOURS * 3600
    scrypt_n: int = SCRYPT_N


def tablet_actor(tablet_id: str) -> str:
    """The actor name a tablet's entries are recorded under (a tokens-file name has no ':').

    >>> tablet_actor("t-3f2a")
    'tablet:t-3f2a'
    """
    return f"tablet:{tablet_id}"


def secret_sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# -- PINs ---------------------------------------------------------------------------------


def hash_pin(pin: str, n: int = SCRYPT_N) -> str:
    """A PIN's salted scrypt hash, self-describing (``scrypt$n$r$p$salt$hash``).

    >>> stored = hash_pin("4821", n=2**4)
    >>> stored.startswith("scrypt$16$8$1$"), check_pin("4821", stored), check_pin("4822", stored)
    (True, True, False)
    """
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` matches a ``hash_pin`` value (compared in constant time)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        computed = hashlib.scrypt(
            pin.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(computed, bytes.fromhex(digest))


# -- admin: dealers and tablets ------------------------------------------------------------


def _limits(services: Services) -> ShiftLimits:
    limits = services.shift_limits
    return limits if isinstance(limits, ShiftLimits) else ShiftLimits()


def _listed(tables: Sequence[str]) -> Listed:
    """Table IDs as the service lists them ("T1, T2")."""
    return Listed(tuple(tables), Join.COMMA)


def _store(services: Services) -> ShiftStore:
    store = services.shifts
    if store is None:
        raise NotFound(told.NO_SIGN_IN())
    return store  # type: ignore[no-any-return]


def set_dealer(services: Services, employee_id: str, name: str, pin: str) -> dict[str, Any]:
    """Create a dealer or change his name and PIN (a new PIN lifts a lockout)."""
    store = _store(services)
    if not EMPLOYEE_ID.match(employee_id):
        raise InvalidInput(told.EMPLOYEE_ID_FORM())
    if not PIN.match(pin):
        raise InvalidInput(told.PIN_FORM())
    created = store.get_dealer(employee_id) is None
    store.put_dealer(Dealer(employee_id, name, hash_pin(pin, _limits(services).scrypt_n)))
    store.unlock(employee_id)
    store.clear_failures(f"pin:{employee_id}")
    return {"employee_id": employee_id, "name": name, "created": created}


def list_dealers(services: Services) -> list[dict[str, Any]]:
    store = _store(services)
    answer = []
    for dealer in sorted(store.dealers(), key=lambda d: d.employee_id):
        shift = store.shift_of_employee(dealer.employee_id)
        answer.append(
            {
                "employee_id": dealer.employee_id,
                "name": dealer.name,
                "locked_for_seconds": store.locked_for(dealer.employee_id),
                "on_duty_at": None if shift is None else shift.table_id,
            }
        )
    return answer


def register_tablet(services: Services, name: str, tables: Sequence[str]) -> dict[str, Any]:
    """Register a tablet to ``tables`` (each must exist); the answer's pairing code is
    shown once and trades for the device credential within ``PAIRING_SECONDS``."""
    store = _store(services)
    if not tables:
        raise InvalidInput(told.TABLET_NEEDS_TABLE())
    for table_id in tables:
        if services.tables.load(table_id) is None:
            raise InvalidInput(told.NO_TABLE(table=repr(table_id)))
    now = services.clock.now()
    tablet = Tablet(
        tablet_id="t-" + secrets.token_hex(4),
        name=name,
        tables=tuple(dict.fromkeys(tables)),
        registered_at=format_at(now),
    )
    store.put_tablet(tablet)
    code = "".join(secrets.choice(PAIRING_ALPHABET) for _ in range(PAIRING_LENGTH))
    store.put_pairing(code, tablet.tablet_id, PAIRING_SECONDS)
    expires = format_at(now + timedelta(seconds=PAIRING_SECONDS))
    return {**tablet.public(), "pairing_code": code, "pairing_expires_at": expires}


def pair_tablet(services: Services, code: str, client: str = "") -> dict[str, Any]:
    """Trade a pairing code (once) for the tablet's device credential. ``client`` (the
    caller's address) may miss ``max_pairing_failures`` times per window, the house
    ``max_house_pairing_failures``: past either, 429 ``pairing_limited`` (no code is tried)."""
    store = _store(services)
    limits = _limits(services)
    keys = {
        f"pair:{client}": limits.max_pairing_failures,
        "pair:*": limits.max_house_pairing_failures,
    }
    if any(store.failures(key) >= limit for key, limit in keys.items()):
        raise RateLimited(
            told.PAIRING_LIMITED(),
            limits.pin_window_seconds,
            {"code": "pairing_limited"},
        )
    normalized = code.strip().upper().replace("-", "").replace(" ", "")
    tablet_id = store.take_pairing(normalized) if normalized else None
    tablet = None if tablet_id is None else store.get_tablet(tablet_id)
    if tablet is None or tablet.revoked_at is not None:
        for key in keys:
            store.count_failure(key, limits.pin_window_seconds)
        raise SignInRefused(told.BAD_PAIRING_CODE(), "bad_pairing_code")
    credential = DEVICE_PREFIX + secrets.token_urlsafe(32)
    paired = replace(
        tablet,
        credential_sha256=secret_sha256(credential),
        paired_at=format_at(services.clock.now()),
    )
    store.put_tablet(paired)
    return {**paired.public(), "credential": credential}


def list_tablets(services: Services) -> list[dict[str, Any]]:
    store = _store(services)
    answer = []
    for tablet in sorted(store.tablets(), key=lambda t: t.registered_at):
        shift = store.shift_of_tablet(tablet.tablet_id)
        answer.append({**tablet.public(), "shift": None if shift is None else shift.public()})
    return answer


def revoke_tablet(
    services: Services,
    tablet_id: str,
    actor: Actor,
    may_touch: Callable[[str], bool] = lambda _table_id: True,
) -> None:
    """Revoke a tablet: its credential stops working and its shift ends (the dealer is
    signed out at his table, audited). Forbidden unless ``may_touch`` every table it serves."""
    store = _store(services)
    tablet = store.get_tablet(tablet_id)
    if tablet is None:
        raise NotFound(told.NO_TABLET(tablet=repr(tablet_id)))
    if not all(may_touch(table_id) for table_id in tablet.tables):
        raise Forbidden(told.TABLET_OUT_OF_SCOPE(tablet=repr(tablet_id)))
    shift = store.shift_of_tablet(tablet_id)
    if shift is not None:
        _end(services, shift, ShiftEnd(ShiftEndReason.TABLET_REVOKED, _now(services)), actor)
    store.put_tablet(replace(tablet, revoked_at=format_at(services.clock.now())))


def tablet_for_credential(services: Services, credential: str) -> Tablet | None:
    """The live tablet a device credential names (None: unknown or revoked)."""
    store: ShiftStore | None = services.shifts
    if store is None:
        return None
    tablet = store.tablet_by_credential(secret_sha256(credential))
    if tablet is None or tablet.revoked_at is not None:
        return None
    return tablet


def shift_for_token(services: Services, token: str) -> Shift | None:
    """The live shift a session token names (None: unknown, ended, expired, tablet revoked)."""
    store: ShiftStore | None = services.shifts
    if store is None:
        return None
    shift = store.get_shift(secret_sha256(token))
    return shift if shift is not None and shift_is_live(services, shift) else None


def why_shift_ended(services: Services, token: str) -> ShiftEnd | None:
    """Why the session ``token`` names ended early (None: unknown, or it ran out its time)."""
    store: ShiftStore | None = services.shifts
    return None if store is None else store.shift_end(secret_sha256(token))


def shift_is_live(services: Services, shift: Shift) -> bool:
    """Whether a stored shift session still works: not past its end, its tablet not revoked."""
    if format_at(services.clock.now()) >= shift.expires_at:
        return False
    tablet = _store(services).get_tablet(shift.tablet_id)
    return tablet is not None and tablet.revoked_at is None


def dealer_on_duty(
    services: Services, table_id: str, employee_id: str | None
) -> dict[str, Any] | None:
    """Who the table's chain names on duty (``employee_id``, its head's ``dealer``), with his
    name: from his live shift session when it is at ``table_id`` (``on_shift`` true, its
    tablet and end), else from the dealer's record (``on_shift`` false: the session expired
    without a sign-out, so the chain still names him). None: no dealer on duty."""
    if employee_id is None:
        return None
    store: ShiftStore | None = services.shifts
    shift = None if store is None else store.shift_of_employee(employee_id)
    if shift is not None and shift.table_id == table_id and shift_is_live(services, shift):
        return {
            "employee_id": employee_id,
            "name": shift.name,
            "on_shift": True,
            "tablet_id": shift.tablet_id,
            "shift_expires_at": shift.expires_at,
        }
    dealer = None if store is None else store.get_dealer(employee_id)
    return {
        "employee_id": employee_id,
        "name": None if dealer is None else dealer.name,
        "on_shift": False,
        "tablet_id": None,
        "shift_expires_at": None,
    }


def tablet_status(services: Services, tablet: Tablet) -> dict[str, Any]:
    """What a tablet reads of itself: its registration and who is on duty at its tables."""
    duty = {}
    for table_id in tablet.tables:
        record = services.tables.load(table_id)
        duty[table_id] = None if record is None else record.head.dealer
    return {**tablet.public(), "on_duty": duty}


# -- the dealer's side ---------------------------------------------------------------------


def sign_in(
    services: Services, tablet: Tablet, table_id: str, employee_id: str, pin: str
) -> tuple[str, Shift]:
    """Sign ``employee_id`` in at ``table_id`` with his PIN; his shift session (the token
    and its record). He goes on duty there; the tablet's earlier session and his own
    earlier one end."""
    store = _store(services)
    limits = _limits(services)
    if table_id not in tablet.tables:
        raise Forbidden(told.TABLET_NOT_AT(tables=_listed(tablet.tables), table=table_id))
    if services.tables.load(table_id) is None:
        raise NotFound(told.NO_TABLE(table=repr(table_id)))
    tablet_key = f"tablet:{tablet.tablet_id}"
    if store.failures(tablet_key) >= limits.max_tablet_failures:
        raise RateLimited(
            told.TABLET_LIMITED(),
            limits.pin_window_seconds,
            {"code": "tablet_limited"},
        )
    locked = store.locked_for(employee_id)
    if locked > 0:
        raise RateLimited(
            told.PIN_LOCKED(employee=employee_id, limit=limits.max_pin_failures),
            locked,
            {"code": "pin_locked"},
        )
    dealer = store.get_dealer(employee_id) if EMPLOYEE_ID.match(employee_id) else None
    if dealer is None or not check_pin(pin, dealer.pin_hash):
        if dealer is None:  # spend the same time, so a timing does not tell IDs apart
            check_pin(pin, _dummy_hash(limits.scrypt_n))
        _refused(services, store, tablet, table_id, employee_id, dealer is not None)
    store.clear_failures(f"pin:{employee_id}")
    assert dealer is not None
    actor = Actor(tablet_actor(tablet.tablet_id), "dealer")
    for earlier in _earlier_shifts(store, tablet.tablet_id, employee_id):
        if earlier.employee_id == employee_id and earlier.tablet_id != tablet.tablet_id:
            elsewhere = ShiftEndReason.SIGNED_IN_ELSEWHERE
            why = ShiftEnd(elsewhere, _now(services), by_tablet=tablet.name)
        else:  # this tablet's earlier session (his own too: he signed in again)
            why = ShiftEnd(ShiftEndReason.PUSHED, _now(services), employee_id, dealer.name)
        _end(services, earlier, why, actor, record=earlier.table_id != table_id)
    now = services.clock.now()
    token = SHIFT_PREFIX + secrets.token_urlsafe(32)
    shift = Shift(
        token_sha256=secret_sha256(token),
        employee_id=employee_id,
        name=dealer.name,
        tablet_id=tablet.tablet_id,
        tables=tablet.tables,
        table_id=table_id,
        started_at=format_at(now),
        expires_at=format_at(now + timedelta(seconds=limits.shift_seconds)),
    )
    store.put_shift(shift, limits.shift_seconds)
    record_duty(services, table_id, shift, "sign_in", actor)
    return token, shift


def _dummy_hash(n: int) -> str:
    """A hash no PIN matches, at the cost a dealer's own hash has (``ShiftLimits.scrypt_n``)."""
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}$" + "00" * 16 + "$" + "00" * 32


def _earlier_shifts(store: ShiftStore, tablet_id: str, employee_id: str) -> list[Shift]:
    found = {}
    for shift in (store.shift_of_tablet(tablet_id), store.shift_of_employee(employee_id)):
        if shift is not None:
            found[shift.token_sha256] = shift
    return list(found.values())


def _refused(
    services: Services,
    store: ShiftStore,
    tablet: Tablet,
    table_id: str,
    employee_id: str,
    known: bool,
) -> None:
    """Count and audit a failed sign-in; lock the employee out at the limit; raise."""
    limits = _limits(services)
    store.count_failure(f"tablet:{tablet.tablet_id}", limits.pin_window_seconds)
    failures = store.count_failure(f"pin:{employee_id}", limits.pin_window_seconds)
    # an unknown ID locks out too: were only real IDs ever locked, a 429 would tell them apart
    locked = failures >= limits.max_pin_failures
    payload: dict[str, Any] = {
        "employee_id": employee_id,
        "tablet_id": tablet.tablet_id,
        "reason": "unknown_employee" if not known else ("locked_out" if locked else "wrong_pin"),
        "failures": failures,
    }
    if locked:
        store.lock(employee_id, limits.lockout_seconds)
        store.clear_failures(f"pin:{employee_id}")
        payload["locked_for_seconds"] = limits.lockout_seconds
    _audit_unchanged(services, table_id, SIGN_IN_REFUSED, payload, tablet_actor(tablet.tablet_id))
    if locked:
        raise RateLimited(
            told.PIN_LOCKS(limit=limits.max_pin_failures, employee=employee_id),
            limits.lockout_seconds,
            {"code": "pin_locked"},
        )
    raise SignInRefused(told.WRONG_PIN(), "wrong_pin")


def take_table(services: Services, shift: Shift, table_id: str) -> Shift:
    """The tablet moved to another table of its registration: the dealer goes on duty
    there (signed out where he was). Nothing happens if he is on duty there already."""
    if table_id not in shift.tables:
        raise Forbidden(told.SHIFT_NOT_AT(tables=_listed(shift.tables), table=table_id))
    record = services.tables.load(table_id)
    if record is None:
        raise NotFound(told.NO_TABLE(table=repr(table_id)))
    actor = Actor(shift.actor_name, "dealer", shift.employee_id)
    if shift.table_id == table_id and record.head.dealer == shift.employee_id:
        return shift
    if shift.table_id != table_id:
        _off_duty(services, shift, shift.table_id, "table_change", actor)
    moved = replace(shift, table_id=table_id)
    _store(services).put_shift(moved, _remaining(services, moved))
    record_duty(services, table_id, moved, "table_change", actor)
    return moved


def sign_out(services: Services, shift: Shift) -> None:
    """The dealer's shift ends: signed out at his table (audited)."""
    why = ShiftEnd(ShiftEndReason.SIGN_OUT, _now(services))
    _end(services, shift, why, Actor(shift.actor_name, "dealer", shift.employee_id))


# -- the floor's side ----------------------------------------------------------------------


def end_shift_by_floor(
    services: Services,
    employee_id: str,
    actor: Actor,
    may_touch: Callable[[str], bool] = lambda _table_id: True,
) -> Shift:
    """The floor ends ``employee_id``'s shift (he walked off, a tablet was left signed in):
    signed out at his table, audited under ``actor``; his token answers 401
    ``shift_ended`` ``ended_by_floor``. NotFound unless he is signed in at a table the
    caller ``may_touch``: a token limited to other tables is not even told that he is
    signed in (as it is not told of their floor calls)."""
    store = _store(services)
    shift = store.shift_of_employee(employee_id) if EMPLOYEE_ID.match(employee_id) else None
    live = shift is not None and shift_is_live(services, shift)
    if shift is None or not live or not may_touch(shift.table_id):
        raise NotFound(told.NOT_SIGNED_IN(dealer=repr(employee_id)))
    why = ShiftEnd(ShiftEndReason.ENDED_BY_FLOOR, _now(services), by_name=actor.name)
    _end(services, shift, why, actor)
    return shift


# -- sessions that ran out their time -------------------------------------------------------

# What records an expiry in the chain: no token did it, the worker noticed the time.
EXPIRY_ACTOR = Actor("shift-expiry", "system")
EXPIRY_BATCH = 100


@dataclass(frozen=True, slots=True)
class Expiries:
    """What one expiry sweep did: the shifts whose dealer it signed out at his table, those
    it had nothing to record for (he signed in there again, or another dealer is on duty
    there, or the table is gone), and those it could not record (each with why: they stay
    due, the next sweep tries again)."""

    recorded: tuple[Shift, ...] = ()
    skipped: tuple[Shift, ...] = ()
    failed: tuple[tuple[Shift, str], ...] = ()


def expire_shifts(services: Services, limit: int = EXPIRY_BATCH) -> Expiries:
    """Sign out, at his table, the dealer of every shift session that ran out its time
    without an earlier end: a ``dealer_on_duty`` event clearing him, reason ``expired``,
    dated at the session's end (``noticed_at`` says when this sweep saw it).

    Run often by the worker (``worker.WorkerDuties``), so it happens though nobody touches
    the table, and costs the dealers' entries nothing. Safe to run in several processes at
    once: the event is committed with the table's compare-and-set and only while that
    dealer is still the one on duty, so it is written once; and not if he signed in at that
    table again since (a newer live session of his there)."""
    store = _store(services)
    recorded: list[Shift] = []
    skipped: list[Shift] = []
    failed: list[tuple[Shift, str]] = []
    for shift in store.due_shifts(services.clock.now(), limit):
        try:
            done = _expire(services, store, shift)
        except DealerAssistError as error:
            failed.append((shift, str(error)))
            continue
        (recorded if done else skipped).append(shift)
        store.forget_expiry(shift.token_sha256)
    return Expiries(tuple(recorded), tuple(skipped), tuple(failed))


def _expire(services: Services, store: ShiftStore, shift: Shift) -> bool:
    def signed_in_again() -> bool:
        latest = store.shift_of_employee(shift.employee_id)
        return (
            latest is not None
            and latest.token_sha256 != shift.token_sha256
            and latest.table_id == shift.table_id
            and shift_is_live(services, latest)
        )

    return _commit_duty(
        services,
        shift.table_id,
        None,
        shift,
        ShiftEndReason.EXPIRED.value,
        EXPIRY_ACTOR,
        only_if=shift.employee_id,
        unless=signed_in_again,
        at=parse_at(shift.expires_at),
        noted={"noticed_at": _now(services)},
    )


def _remaining(services: Services, shift: Shift) -> int:
    left = (parse_at(shift.expires_at) - services.clock.now()).total_seconds()
    return max(1, int(left))


def _now(services: Services) -> str:
    return format_at(services.clock.now())


def _end(
    services: Services, shift: Shift, why: ShiftEnd, actor: Actor, record: bool = True
) -> None:
    """End ``shift`` (its token answers ``why`` for a shift's length), signing its dealer
    out at his table when ``record``."""
    _store(services).end_shift(shift, why, _limits(services).shift_seconds)
    if record:
        _off_duty(services, shift, shift.table_id, why.reason.value, actor)


def _off_duty(services: Services, shift: Shift, table_id: str, reason: str, actor: Actor) -> None:
    """Sign the shift's dealer out at ``table_id`` if he is still the one on duty there."""
    _commit_duty(services, table_id, None, shift, reason, actor, only_if=shift.employee_id)


def record_duty(services: Services, table_id: str, shift: Shift, reason: str, actor: Actor) -> None:
    """Put the shift's dealer on duty at ``table_id`` (a ``dealer_on_duty`` event)."""
    _commit_duty(services, table_id, shift.employee_id, shift, reason, actor)


def _commit_duty(
    services: Services,
    table_id: str,
    employee_id: str | None,
    shift: Shift,
    reason: str,
    actor: Actor,
    only_if: str | None = None,
    unless: Callable[[], bool] = lambda: False,
    at: datetime | None = None,
    noted: Mapping[str, Any] | None = None,
) -> bool:
    """Record ``employee_id`` (None: nobody) on duty at ``table_id``; whether it was
    recorded. Nothing is if the table is gone, if ``only_if`` is not the one on duty there,
    or if ``unless()`` says so (asked after the table was read: a commit that overtook it
    makes this one retry and ask again). ``at``: the event's time (default now)."""
    for _attempt in range(DUTY_RETRIES):
        try:
            with services.tables.transaction(table_id, None) as tx:
                current = tx.record
                if current is None:
                    return False
                previous = current.head.dealer
                if only_if is not None and previous != only_if:
                    return False  # someone else took the table meanwhile: nothing to sign out
                if unless():
                    return False
                payload = {
                    "employee_id": employee_id,
                    "name": shift.name if employee_id is not None else None,
                    "previous": previous,
                    "reason": reason,
                    "tablet_id": shift.tablet_id,
                    **(noted or {}),
                }
                _commit_unchanged(
                    services, tx, current, DEALER_ON_DUTY, payload, actor, employee_id, at
                )
            return True
        except Conflict:
            continue
    raise Conflict(told.DUTY_BUSY(table=repr(table_id)))


def _audit_unchanged(
    services: Services, table_id: str, kind: str, payload: Mapping[str, Any], actor_name: str
) -> None:
    actor = Actor(actor_name, "dealer")
    for _attempt in range(DUTY_RETRIES):
        try:
            with services.tables.transaction(table_id, None) as tx:
                current = tx.record
                if current is None:
                    return
                _commit_unchanged(services, tx, current, kind, payload, actor, current.head.dealer)
            return
        except Conflict:
            continue


def _commit_unchanged(
    services: Services,
    tx: Any,
    current: TableRecord,
    kind: str,
    payload: Mapping[str, Any],
    actor: Actor,
    dealer: str | None,
    at: datetime | None = None,
) -> None:
    """Seal one event that leaves the table as it was (its version too), naming ``dealer``,
    at ``at`` (default now)."""
    state = current.state
    rules = _rules_of(services, state)
    head = ChainHead(current.head.seq, current.head.last_hash, dealer)
    when = services.clock.now() if at is None else at
    event = seal_event(state, state, head, kind, payload, rules, actor, when)
    tx.commit(TableRecord(state=state, head=ChainHead.after(event)), [event], None)
