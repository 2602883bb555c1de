"""The SQL audit store: append-only ``events`` and ``hands`` tables (SQLAlchemy Core).

SQLite (WAL, the default) or PostgreSQL, chosen by URL. Writes are idempotent inserts
(``INSERT ... ON CONFLICT DO NOTHING`` on the unique ``(table_id, seq)``), batched, so a
retried or duplicated drain can neither duplicate nor reorder the log. Nothing is ever
updated or deleted: corrections are new events (rulings). Reads stream.

A conflict is only a duplicate when the stored event has the same hash. A *different*
event reusing a stored ``(table_id, seq)`` is a fork of the chain (a Redis that rewound:
a snapshot restore, a failover to a lagging replica): ``append_checked`` keeps the stored
event, puts the newcomer and every later event of that table in ``quarantine`` (nothing
is dropped) and reports the fork; the table stays forked until a ``fork_resolutions``
row says an operator dealt with it. ``checkpoints`` holds the signed checkpoints of the
tables' heads (``audit.checkpoints``), in their own hash chain.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from dealerassist.audit.envelope import ENVELOPE_V1, envelope_of, fields_of, format_at, parse_at
from dealerassist.audit.hands import last_result, table_at_hand_start
from dealerassist.audit.verify import finishes_hand
from dealerassist.errors import InvalidInput, Unavailable

INSERT_BATCH = 500
READ_BATCH = 1000
SQLITE_BUSY_TIMEOUT_MS = 15_000

metadata = sa.MetaData()


def _event_columns() -> list[sa.Column[Any]]:
    """The columns of a stored event (fresh objects: a column belongs to one table)."""
    return [
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("version", sa.BigInteger, nullable=False),
        sa.Column("hand_no", sa.Integer, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(128), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("profile_id", sa.String(128), nullable=False),
        sa.Column("profile_sha256", sa.String(64), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        *_envelope_v2_columns(),
    ]


def _envelope_v2_columns() -> list[sa.Column[Any]]:
    """What envelope 2 added (NULL in the rows of version 1 events): its number and the
    dealer on duty. Last, so a store created before them gets them by ALTER TABLE ADD."""
    return [
        sa.Column("envelope", sa.SmallInteger, nullable=True),
        sa.Column("dealer", sa.String(64), nullable=True),
    ]


events_table = sa.Table(
    "events",
    metadata,
    *_event_columns(),
    sa.PrimaryKeyConstraint("table_id", "seq", name="events_table_seq"),
    sa.Index("events_at", "at"),
    sa.Index("events_hand", "table_id", "hand_no"),
)

hands_table = sa.Table(
    "hands",
    metadata,
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("hand_no", sa.Integer, nullable=False),
    sa.Column("profile_id", sa.String(128), nullable=False),
    sa.Column("profile_sha256", sa.String(64), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("result", sa.JSON, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "hand_no", name="hands_table_hand"),
)

# The newcomers of a fork (and the later events of a forked table), kept beside the stored
# chain: the same columns as ``events``, plus when the fork was seen and the hash of the
# event the store holds at that (table_id, seq) (NULL: the store holds none there).
quarantine_table = sa.Table(
    "quarantine",
    metadata,
    *_event_columns(),
    sa.Column("stored_hash", sa.String(64), nullable=True),
    sa.Column("detected_at", sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq", "hash", name="quarantine_table_seq_hash"),
)

# An operator's word that a forked table was dealt with (closed, moved to a new table ID):
# the table counts as forked again only if something is quarantined after it.
fork_resolutions_table = sa.Table(
    "fork_resolutions",
    metadata,
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "resolved_at", name="fork_resolutions_key"),
)

# Signed checkpoints (``audit.checkpoints``): ``record`` is the whole signed record as JSON.
checkpoints_table = sa.Table(
    "checkpoints",
    metadata,
    sa.Column("n", sa.BigInteger, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("record", sa.JSON, nullable=False),
    sa.PrimaryKeyConstraint("n", name="checkpoints_n"),
)

_PG_INSERT_EVENTS = sa.text(
    "INSERT INTO events SELECT * FROM json_populate_recordset(NULL::events, CAST(:rows AS json))"
    " ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq"
)


@dataclass(frozen=True, slots=True)
class Fork:
    """A different event met a stored one at the same ``(table_id, seq)``."""

    table_id: str
    seq: int
    stored_hash: str
    new_hash: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "stored_hash": self.stored_hash,
            "new_hash": self.new_hash,
        }


@dataclass(frozen=True, slots=True)
class Appended:
    """What ``append_checked`` did: events new to the store, forks it found in this call,
    and how many events went to quarantine (those of forked tables)."""

    stored: int
    forks: tuple[Fork, ...] = ()
    quarantined: int = 0
    quarantined_tables: frozenset[str] = frozenset()


class _ForksFound(Exception):
    """Raised inside the insert transaction to roll it back: retry with these tables
    (first forked seq of each) sent to quarantine."""

    def __init__(self, forks: list[Fork]) -> None:
        super().__init__(forks)
        self.forks = forks


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


def _build_engine(url: str) -> Engine:
    try:
        backend = sa.engine.make_url(url).get_backend_name()
    except sa.exc.ArgumentError as error:
        raise InvalidInput(f"audit store URL {url!r} cannot be read: {error}") from error
    if backend not in ("sqlite", "postgresql"):
        raise InvalidInput(f"audit store supports sqlite and postgresql URLs, not {url!r}")
    engine = sa.create_engine(url, pool_pre_ping=True)
    if backend == "sqlite":
        sa_event.listen(engine, "connect", _sqlite_pragmas)
    return engine


@contextmanager
def _guard() -> Iterator[None]:
    """Turn a lost or refused database connection into ``Unavailable`` (HTTP 503)."""
    try:
        yield
    except (sa.exc.OperationalError, sa.exc.InterfaceError) as error:
        raise Unavailable(f"audit store unavailable: {error.orig or error}") from error


def _parse_at(text: str) -> datetime:
    """The envelope's ``at`` as a UTC datetime (``fromisoformat``: 10x ``strptime``'s speed)."""
    try:
        parsed = datetime.fromisoformat(text)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"audit event time {text!r} is not ISO 8601 UTC") from error
    if parsed.tzinfo is None:
        raise InvalidInput(f"audit event time {text!r} has no time zone")
    return parsed.astimezone(UTC)


def _bound(value: datetime) -> datetime:
    """A query time in UTC (a naive one is taken as UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise InvalidInput(f"time {value.isoformat()} is out of range in UTC") from None


def _utc(value: datetime) -> datetime:
    """A stored timestamp as aware UTC (SQLite gives naive UTC back)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def event_to_row(event: Mapping[str, Any]) -> dict[str, Any]:
    """The ``events`` row of one sealed event (``at`` parsed to a UTC datetime); a version 1
    event's row has NULL ``envelope`` and ``dealer``."""
    fields = fields_of(envelope_of(event))
    missing = [field for field in fields if field not in event]
    extra = sorted(set(event) - set(fields))
    if missing or extra:
        raise InvalidInput(f"audit event fields: missing {missing}, unexpected {extra}")
    row: dict[str, Any] = {"envelope": None, "dealer": None}
    row.update({field: event[field] for field in fields})
    row["at"] = _parse_at(event["at"])
    return row


def row_to_event(row: Mapping[Any, Any]) -> dict[str, Any]:
    """The sealed event of one ``events`` row (the inverse of ``event_to_row``): exactly the
    members of its envelope version, so its hash is recomputed over what was sealed."""
    envelope = row["envelope"]
    event = {
        field: row[field] for field in fields_of(ENVELOPE_V1 if envelope is None else envelope)
    }
    event["at"] = format_at(_utc(row["at"]))
    return event


def _add_envelope_v2_columns(engine: Engine) -> None:
    """A store created before envelope 2 gets its two columns (nullable: the rows it holds
    are version 1 events, NULL there); nothing else is changed."""
    inspector = sa.inspect(engine)
    for table in (events_table, quarantine_table):
        present = {column["name"] for column in inspector.get_columns(table.name)}
        for column in _envelope_v2_columns():
            if column.name in present:
                continue
            kind = column.type.compile(dialect=engine.dialect)
            with engine.begin() as conn:
                conn.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))


class SqlAuditStore:
    """The append-only audit log in SQLite or PostgreSQL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _build_engine(url)
        self._insert = (
            postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        )
        self._schema_ready = False
        # An unreachable store is created on first use; until then every call raises Unavailable.
        with suppress(Unavailable):
            self._ensure_schema()

    def _ensure_schema(self) -> None:
        if self._schema_ready:
            return
        with _guard():
            metadata.create_all(self.engine)
            _add_envelope_v2_columns(self.engine)
        self._schema_ready = True

    def ping(self) -> None:
        """Raise ``Unavailable`` unless the store answers a query."""
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    def append(self, events: Sequence[Mapping[str, Any]]) -> int:
        """Store the events not stored yet (and the hands they finish); return how many.
        Forks go to quarantine as ``append_checked`` says (it tells them; this does not)."""
        return self.append_checked(events).stored

    def append_checked(
        self, events: Sequence[Mapping[str, Any]], now: datetime | None = None
    ) -> Appended:
        """Store the events not stored yet (and the hands they finish) in one transaction.

        An event whose ``(table_id, seq)`` is stored with another hash is a fork: it, and
        every later event of its table (here and in later calls, until the fork is
        resolved), goes to ``quarantine`` instead, and the fork is returned.
        """
        if not events:
            return Appended(0)
        rows = [event_to_row(event) for event in events]
        self._ensure_schema()
        detected_at = _bound(now) if now is not None else datetime.now(UTC)
        found: list[Fork] = []
        while True:
            with _guard():
                try:
                    return self._append_once(events, rows, found, detected_at)
                except _ForksFound as forks:
                    found += forks.forks

    def _append_once(
        self,
        events: Sequence[Mapping[str, Any]],
        rows: list[dict[str, Any]],
        found: list[Fork],
        detected_at: datetime,
    ) -> Appended:
        with self.engine.begin() as conn:
            forked = self._forked_since(conn, {row["table_id"] for row in rows})
            for fork in found:
                forked.setdefault(fork.table_id, fork.seq)
            keep = [
                index
                for index, row in enumerate(rows)
                if row["table_id"] not in forked or row["seq"] < forked[row["table_id"]]
            ]
            kept_events = [events[index] for index in keep]
            kept_rows = [rows[index] for index in keep]
            stored = 0
            for start in range(0, len(kept_rows), INSERT_BATCH):
                chunk = slice(start, start + INSERT_BATCH)
                stored += self._insert_events(conn, kept_events[chunk], kept_rows[chunk])
            if stored < len(kept_rows):
                forks = self._forks_among(conn, kept_rows)
                if forks:
                    raise _ForksFound(forks)  # roll back: the forked tables' later events
            self._insert_hands(conn, [event for event in kept_events if finishes_hand(event)])
            kept = set(keep)
            quarantined = [row for index, row in enumerate(rows) if index not in kept]
            self._quarantine(conn, quarantined, found, detected_at)
        tables = frozenset(row["table_id"] for row in quarantined)
        return Appended(stored, tuple(found), len(quarantined), tables)

    def _insert_events(
        self, conn: Connection, events: Sequence[Mapping[str, Any]], rows: list[dict[str, Any]]
    ) -> int:
        if self.engine.dialect.name == "postgresql":
            # One JSON parameter instead of 13 per row: psycopg parses a 6,500-placeholder
            # statement in Python (30 ms a batch); this is 10x faster and counts exactly.
            text = json.dumps(list(events), ensure_ascii=False)
            return len(conn.execute(_PG_INSERT_EVENTS, {"rows": text}).all())
        statement = self._insert(events_table).on_conflict_do_nothing(
            index_elements=["table_id", "seq"]
        )
        # SQLite's executemany rowcount is the number of rows inserted (conflicts count 0).
        return int(conn.execute(statement, rows).rowcount)

    def _forks_among(self, conn: Connection, rows: list[dict[str, Any]]) -> list[Fork]:
        """The rows whose (table_id, seq) the store holds with another hash: the first of
        each table (its later events follow it into quarantine)."""
        wanted = {(row["table_id"], row["seq"]): row["hash"] for row in rows}
        first: dict[str, Fork] = {}
        keys = list(wanted)
        for start in range(0, len(keys), INSERT_BATCH):
            query = sa.select(
                events_table.c.table_id, events_table.c.seq, events_table.c.hash
            ).where(
                sa.tuple_(events_table.c.table_id, events_table.c.seq).in_(
                    keys[start : start + INSERT_BATCH]
                )
            )
            for table_id, seq, stored_hash in conn.execute(query):
                new_hash = wanted[(table_id, seq)]
                if stored_hash != new_hash and (table_id not in first or seq < first[table_id].seq):
                    first[table_id] = Fork(table_id, int(seq), stored_hash, new_hash)
        return sorted(first.values(), key=lambda fork: fork.table_id)

    def _forked_since(self, conn: Connection, table_ids: set[str]) -> dict[str, int]:
        """Of these tables, those forked and not resolved since: the first quarantined seq."""
        if not table_ids:
            return {}
        forked = self._forked_query().where(quarantine_table.c.table_id.in_(sorted(table_ids)))
        return {table_id: int(seq) for table_id, seq, _ in conn.execute(forked)}

    def _forked_query(self) -> sa.Select[Any]:
        resolved = (
            sa.select(sa.func.max(fork_resolutions_table.c.resolved_at))
            .where(fork_resolutions_table.c.table_id == quarantine_table.c.table_id)
            .scalar_subquery()
        )
        return (
            sa.select(
                quarantine_table.c.table_id,
                sa.func.min(quarantine_table.c.seq),
                sa.func.count(),
            )
            .where(sa.or_(resolved.is_(None), quarantine_table.c.detected_at > resolved))
            .group_by(quarantine_table.c.table_id)
        )

    def _quarantine(
        self,
        conn: Connection,
        rows: list[dict[str, Any]],
        found: list[Fork],
        detected_at: datetime,
    ) -> None:
        if not rows:
            return
        stored = {(fork.table_id, fork.seq): fork.stored_hash for fork in found}
        missing = [
            (row["table_id"], row["seq"])
            for row in rows
            if (row["table_id"], row["seq"]) not in stored
        ]
        for start in range(0, len(missing), INSERT_BATCH):
            query = sa.select(
                events_table.c.table_id, events_table.c.seq, events_table.c.hash
            ).where(
                sa.tuple_(events_table.c.table_id, events_table.c.seq).in_(
                    missing[start : start + INSERT_BATCH]
                )
            )
            stored.update({(t, int(q)): h for t, q, h in conn.execute(query)})
        quarantined = [
            {
                **row,
                "stored_hash": stored.get((row["table_id"], row["seq"])),
                "detected_at": detected_at,
            }
            for row in rows
        ]
        statement = self._insert(quarantine_table).on_conflict_do_nothing(
            index_elements=["table_id", "seq", "hash"]
        )
        conn.execute(statement, quarantined)

    def forked_tables(self) -> list[dict[str, Any]]:
        """Every table forked and not resolved since: its first quarantined seq and how
        many events wait in quarantine (for /readyz, the floor and the auditor)."""
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            found = conn.execute(self._forked_query().order_by(quarantine_table.c.table_id))
            return [
                {"table_id": table_id, "from_seq": int(seq), "quarantined": int(count)}
                for table_id, seq, count in found
            ]

    def iter_quarantine(self, table_id: str | None = None) -> Iterator[dict[str, Any]]:
        """The quarantined events (the other branch of each fork), by (table_id, seq)."""
        query = sa.select(quarantine_table).order_by(
            quarantine_table.c.table_id, quarantine_table.c.seq, quarantine_table.c.detected_at
        )
        if table_id is not None:
            query = query.where(quarantine_table.c.table_id == table_id)
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            for row in conn.execute(query).mappings():
                event = row_to_event(row)
                event["stored_hash"] = row["stored_hash"]
                event["detected_at"] = format_at(_utc(row["detected_at"]))
                yield event

    # -- checkpoints (``audit.checkpoints``) -------------------------------------------

    def append_checkpoint(self, record: Mapping[str, Any]) -> bool:
        """Store a signed checkpoint; False if its number is taken (another worker made one:
        read ``latest_checkpoint`` and build on it)."""
        self._ensure_schema()
        row = {
            "n": int(record["n"]),
            "at": _parse_at(str(record["at"])),
            "hash": str(record["hash"]),
            "record": dict(record),
        }
        statement = self._insert(checkpoints_table).on_conflict_do_nothing(index_elements=["n"])
        with _guard(), self.engine.begin() as conn:
            return bool(conn.execute(statement, row).rowcount)

    def latest_checkpoint(self) -> dict[str, Any] | None:
        """The checkpoint with the highest number, or None."""
        self._ensure_schema()
        query = sa.select(checkpoints_table.c.record).order_by(checkpoints_table.c.n.desc())
        with _guard(), self.engine.connect() as conn:
            found = conn.execute(query.limit(1)).scalar()
        return dict(found) if found is not None else None

    def iter_checkpoints(self, after: int = 0) -> Iterator[dict[str, Any]]:
        """The checkpoints numbered above ``after``, in order."""
        query = (
            sa.select(checkpoints_table.c.record)
            .where(checkpoints_table.c.n > after)
            .order_by(checkpoints_table.c.n)
        )
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            result = conn.execution_options(yield_per=READ_BATCH).execute(query)
            try:
                for (record,) in result:
                    yield dict(record)
            finally:
                result.close()

    def last_seqs(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The last stored seq of each of these tables that has events (an index lookup
        a table)."""
        if not table_ids:
            return {}
        self._ensure_schema()
        found: dict[str, int] = {}
        with _guard(), self.engine.connect() as conn:
            for start in range(0, len(table_ids), INSERT_BATCH):
                query = (
                    sa.select(events_table.c.table_id, sa.func.max(events_table.c.seq))
                    .where(events_table.c.table_id.in_(table_ids[start : start + INSERT_BATCH]))
                    .group_by(events_table.c.table_id)
                )
                found.update({str(t): int(seq) for t, seq in conn.execute(query)})
        return found

    def table_ids(self) -> list[str]:
        """Every table the store holds events of."""
        self._ensure_schema()
        query = sa.select(events_table.c.table_id).distinct().order_by(events_table.c.table_id)
        with _guard(), self.engine.connect() as conn:
            return [str(table_id) for (table_id,) in conn.execute(query)]

    def iter_events_from(
        self, starts: Mapping[str, int], table_id: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """Each table's events from seq ``starts[table]`` on (1 for a table not named), in
        (table_id, seq) order: what an incremental verify reads (an index range a table)."""
        tables = [table_id] if table_id is not None else self.table_ids()
        for name in tables:
            query = (
                sa.select(events_table)
                .where(events_table.c.table_id == name, events_table.c.seq >= starts.get(name, 1))
                .order_by(events_table.c.seq)
            )
            yield from self._stream(query)

    def resolve_fork(self, table_id: str, note: str, now: datetime | None = None) -> None:
        """Record that an operator dealt with the table's fork (its quarantine stays)."""
        at = _bound(now) if now is not None else datetime.now(UTC)
        self._ensure_schema()
        with _guard(), self.engine.begin() as conn:
            conn.execute(
                sa.insert(fork_resolutions_table),
                {"table_id": table_id, "resolved_at": at, "note": note},
            )

    def _insert_hands(self, conn: Connection, finishing: list[Mapping[str, Any]]) -> None:
        if not finishing:
            return
        keys = {(event["table_id"], event["hand_no"]) for event in finishing}
        starts = dict(
            ((table_id, hand_no), started_at)
            for table_id, hand_no, started_at in conn.execute(
                sa.select(
                    events_table.c.table_id, events_table.c.hand_no, sa.func.min(events_table.c.at)
                )
                .where(sa.tuple_(events_table.c.table_id, events_table.c.hand_no).in_(keys))
                .group_by(events_table.c.table_id, events_table.c.hand_no)
            )
        )
        rows = [
            _hand_row(event, starts[(event["table_id"], event["hand_no"])]) for event in finishing
        ]
        statement = self._insert(hands_table).on_conflict_do_nothing(
            index_elements=["table_id", "hand_no"]
        )
        conn.execute(statement, rows)

    def iter_events(
        self,
        table_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Stream events ordered by (table_id, seq); ``since`` inclusive, ``until`` exclusive."""
        query = sa.select(events_table).order_by(events_table.c.table_id, events_table.c.seq)
        if table_id is not None:
            query = query.where(events_table.c.table_id == table_id)
        if since is not None:
            query = query.where(events_table.c.at >= _bound(since))
        if until is not None:
            query = query.where(events_table.c.at < _bound(until))
        yield from self._stream(query)

    def _stream(self, query: sa.Select[Any]) -> Iterator[dict[str, Any]]:
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            result = conn.execution_options(yield_per=READ_BATCH).execute(query)
            try:
                for row in result.mappings():
                    yield row_to_event(row)
            finally:  # a reader that stops early must not leave a server-side cursor open
                result.close()

    def get_hand(self, table_id: str, hand_no: int) -> dict[str, Any] | None:
        """The hand's record, its events and ``table`` as it began; ``None`` if no such hand.

        A hand still in play (no ``hands`` row yet) comes back with ``ended_at`` and
        ``result`` set to ``None``.
        """
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            record = (
                conn.execute(
                    sa.select(hands_table).where(
                        hands_table.c.table_id == table_id, hands_table.c.hand_no == hand_no
                    )
                )
                .mappings()
                .first()
            )
        query = (
            sa.select(events_table)
            .where(events_table.c.table_id == table_id, events_table.c.hand_no == hand_no)
            .order_by(events_table.c.seq)
        )
        hand_events = list(self._stream(query))
        if record is None and not hand_events:
            return None
        hand = _hand_record(table_id, hand_no, record, hand_events)
        hand["table"] = table_at_hand_start(self._stream(self._before(table_id, hand_events)))
        return hand

    def _before(self, table_id: str, hand_events: list[dict[str, Any]]) -> sa.Select[Any]:
        """The table's events before the hand (for its seats and stacks as the hand began)."""
        first = hand_events[0]["seq"] if hand_events else 0
        return (
            sa.select(events_table)
            .where(events_table.c.table_id == table_id, events_table.c.seq < first)
            .order_by(events_table.c.seq)
        )

    def count_events(self, table_id: str | None = None, at_most: int | None = None) -> int:
        """How many events ``table_id`` (``None``: every table) holds, counting at most
        ``at_most``: a ``LIMIT`` under the ``COUNT``, so asking whether a scope is small enough
        to verify within a request costs the same on a store of any size (an index range scan
        of at most that many keys of ``(table_id, seq)``)."""
        rows = sa.select(events_table.c.seq)
        if table_id is not None:
            rows = rows.where(events_table.c.table_id == table_id)
        if at_most is not None:
            rows = rows.limit(at_most)
        query = sa.select(sa.func.count()).select_from(rows.subquery())
        self._ensure_schema()
        with _guard(), self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def dispose(self) -> None:
        """Close pooled connections (before a fork, or at shutdown)."""
        self.engine.dispose()


def _hand_row(event: Mapping[str, Any], started_at: datetime) -> dict[str, Any]:
    return {
        "table_id": event["table_id"],
        "hand_no": event["hand_no"],
        "profile_id": event["profile_id"],
        "profile_sha256": event["profile_sha256"],
        "started_at": started_at,
        "ended_at": _parse_at(event["at"]),
        "result": event["payload"]["result"],
    }


def _hand_record(
    table_id: str,
    hand_no: int,
    record: Mapping[Any, Any] | None,
    hand_events: list[dict[str, Any]],
) -> dict[str, Any]:
    first = hand_events[0] if hand_events else {}
    ended = last_result(hand_events)
    if record is not None and ended is not None:  # the last result, after any reopening ruling
        record = {
            **record,
            "ended_at": parse_at(ended["at"]),
            "result": ended["payload"]["result"],
        }
    elif record is not None:  # reopened by a ruling and not finished again: in play
        record = None
    if record is None:
        return {
            "table_id": table_id,
            "hand_no": hand_no,
            "profile_id": first.get("profile_id"),
            "profile_sha256": first.get("profile_sha256"),
            "started_at": first.get("at"),
            "ended_at": None,
            "result": None,
            "events": hand_events,
        }
    return {
        "table_id": table_id,
        "hand_no": hand_no,
        "profile_id": record["profile_id"],
        "profile_sha256": record["profile_sha256"],
        "started_at": format_at(_utc(record["started_at"])),
        "ended_at": format_at(_utc(record["ended_at"])),
        "result": record["result"],
        "events": hand_events,
    }
