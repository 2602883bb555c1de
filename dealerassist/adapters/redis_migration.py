"""Moving tables' keys to the names this version uses, on the same Redis or onto another.

Since 0.x every key of a table carries the hash tag ``{table_id}`` (``redis_tables.
TABLE_KEY``), so a Redis Cluster keeps a table's keys in one slot. Keys written before have
no tag (``LEGACY_*``): this version does not read them. ``migrate`` moves them:

* **in place** (``sources`` is the target itself, a plain Redis): each table's keys are
  renamed in one MULTI/EXEC (``RENAMENX``: atomic per table, and a key that already has its
  new name is left alone and reported as a conflict);
* **copied** from other Redis (the modulo partitions of earlier versions, or a single Redis
  moving onto a cluster): each key is copied with DUMP/RESTORE under its new name, with its
  TTL, then read back from the target and compared with the source; the sources are not
  changed (retire them once the report says every key verified).

Per table: its state (``da:table:``), its staged audit events (``da:audit:pending:``) and
its fork mark (``da:audit:forked:``). An idempotency record (``da:idem:<token>:<key>``) was
not scoped by table: it moves to the table its answer names (``body.table_id``), and one
that names none is left to expire (its TTL is minutes). The queue's shared sets and hashes
(tables that staged, the dirty set, isolated and forked tables) are merged into the
target's. Run it with the API and the workers stopped (nothing writes meanwhile); it is
idempotent: a second run finds nothing left to move.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis

from dealerassist.adapters.redis_tables import (
    LEGACY_IDEMPOTENCY_KEY,
    LEGACY_TABLE_KEY,
    idempotency_key,
    table_key,
)
from dealerassist.adapters.rq_audit_queue import (
    FORKED_KEY,
    LEGACY_PENDING_KEY,
    LEGACY_TABLE_FORKED_KEY,
    TABLES_KEY,
    dirty_key,
    isolated_key,
    pending_key,
    table_forked_key,
)

SCAN_COUNT = 1000
# (legacy name, new name) of each key of a table, by what it is
_TABLE_KEYS = (
    (LEGACY_TABLE_KEY, table_key),
    (LEGACY_PENDING_KEY, pending_key),
    (LEGACY_TABLE_FORKED_KEY, table_forked_key),
)


@dataclass
class MigrationReport:
    """What ``migrate`` did: tables and keys moved, keys it could not (and why)."""

    tables: set[str] = field(default_factory=set)
    moved: int = 0
    verified: int = 0
    conflicts: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.conflicts and not self.mismatches

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "tables": len(self.tables),
            "keys_moved": self.moved,
            "keys_verified": self.verified,
            "conflicts": self.conflicts,
            "mismatches": self.mismatches,
            "idempotency_records_left_to_expire": len(self.unplaced),
        }


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _legacy(prefix: str, name: str) -> str | None:
    """The table ID (or idempotency scope) of a legacy key name, None if it is not one.

    >>> _legacy("da:table:", "da:table:T7"), _legacy("da:table:", "da:table:{T7}")
    ('T7', None)
    """
    if not name.startswith(prefix) or name.startswith(prefix + "{"):
        return None
    rest = name[len(prefix) :]
    return rest or None


def _scan(connection: redis.Redis, pattern: str) -> Iterator[str]:
    for key in connection.scan_iter(match=pattern, count=SCAN_COUNT):
        yield _text(key)


def legacy_keys(connection: redis.Redis) -> list[tuple[str, str]]:
    """Every legacy key of ``connection`` with the name it moves to, in a stable order (an
    idempotency record whose answer names no table gets '' as its new name)."""
    found: list[tuple[str, str]] = []
    for legacy, new in _TABLE_KEYS:
        prefix = legacy.format(table_id="")
        for name in _scan(connection, prefix + "*"):
            table_id = _legacy(prefix, name)
            if table_id is not None:
                found.append((name, new(table_id)))
    prefix = LEGACY_IDEMPOTENCY_KEY.format(key="")
    for name in _scan(connection, prefix + "*"):
        scoped = _legacy(prefix, name)
        if scoped is None:
            continue
        table_id = _answer_table(connection.get(name))
        found.append((name, idempotency_key(table_id, scoped) if table_id else ""))
    return sorted(found)


def _answer_table(raw: Any) -> str | None:
    """The table an idempotency record's answer names."""
    if raw is None:
        return None
    try:
        table_id = json.loads(raw)["body"]["table_id"]
    except (ValueError, KeyError, TypeError):
        return None
    return table_id if isinstance(table_id, str) and table_id else None


def _table_of(new_name: str) -> str:
    return new_name[new_name.index("{") + 1 : new_name.index("}")]


def _read(connection: Any, key: str) -> Any:
    """A key's value, comparable across servers (by its type)."""
    kind = _text(connection.type(key))
    if kind == "string":
        return connection.get(key)
    if kind == "list":
        return connection.lrange(key, 0, -1)
    if kind == "hash":
        return connection.hgetall(key)
    if kind == "set":
        return sorted(connection.smembers(key))
    if kind == "zset":
        return connection.zrange(key, 0, -1, withscores=True)
    return kind  # 'none', or a type this module never writes


def migrate(
    sources: Sequence[redis.Redis], target: Any, in_place: bool = False, shared: Any = None
) -> MigrationReport:
    """Move every legacy key of ``sources`` to its new name on ``target`` (see the module
    docstring); ``in_place``: ``sources`` is ``[target]``, a plain Redis, and keys are
    renamed, not copied. The queue's shared keys go to ``shared`` (a cluster's jobs Redis;
    default ``target``)."""
    report = MigrationReport()
    for source in sources:
        found = legacy_keys(source)
        moves = [(old, new) for old, new in found if new]
        report.unplaced += [old for old, new in found if not new]
        if in_place:
            _rename(source, moves, report)
        else:
            _copy(source, target, moves, report)
        _merge_shared(source, target if shared is None else shared)
    return report


def _by_table(moves: list[tuple[str, str]]) -> dict[str, list[tuple[str, str]]]:
    tables: dict[str, list[tuple[str, str]]] = {}
    for old, new in moves:
        tables.setdefault(_table_of(new), []).append((old, new))
    return tables


def _rename(connection: redis.Redis, moves: list[tuple[str, str]], report: MigrationReport) -> None:
    for table_id, keys in _by_table(moves).items():
        pipe = connection.pipeline(transaction=True)
        for old, new in keys:
            pipe.renamenx(old, new)
        for (old, new), renamed in zip(keys, pipe.execute(), strict=True):
            if renamed:
                report.moved += 1
                report.verified += 1
            else:
                report.conflicts.append(f"{new} exists already; {old} left as it is")
        report.tables.add(table_id)


def _copy(
    source: redis.Redis, target: Any, moves: list[tuple[str, str]], report: MigrationReport
) -> None:
    for table_id, keys in _by_table(moves).items():
        for old, new in keys:
            dumped = source.dump(old)
            if dumped is None:  # expired meanwhile
                continue
            ttl = int(source.pttl(old))
            expected = _read(source, old)
            try:
                target.restore(new, max(ttl, 0), dumped)
            except redis.ResponseError as error:
                if "BUSYKEY" not in str(error):
                    raise
                if _read(target, new) != expected:
                    report.conflicts.append(f"{new} exists already with another value")
                    continue
            else:
                report.moved += 1
            if _read(target, new) == expected:
                report.verified += 1
            else:
                report.mismatches.append(f"{new} differs from {old} after the copy")
        report.tables.add(table_id)


def _merge_shared(source: redis.Redis, target: Any) -> None:
    """The queue's shared keys: members and fields of the source's added to the target's."""
    tables = [_text(member) for member in source.smembers(TABLES_KEY)]
    if tables:
        target.sadd(TABLES_KEY, *tables)
    for name in (isolated_key(), FORKED_KEY):
        fields = source.hgetall(name)
        if fields:
            target.hset(name, mapping=fields)
    dirty = [_text(member) for member in source.smembers(dirty_key())]
    if dirty and target is not source:
        target.sadd(dirty_key(), *dirty)
