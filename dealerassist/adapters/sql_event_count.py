"""The EventCounter port on the SQL audit store: how many events a scope holds, bounded.

A count stops at ``at_most`` (a ``LIMIT`` under the ``COUNT``), so asking whether a table
is small enough to verify within a request costs the same on a store of any size: an
index range scan of at most that many keys of ``(table_id, seq)``.
"""

from __future__ import annotations

import sqlalchemy as sa

from dealerassist.adapters.sql_store import SqlAuditStore, events_table
from dealerassist.errors import Unavailable


class SqlEventCounter:
    """Counts the stored events of one table, or of all, up to a bound."""

    def __init__(self, store: SqlAuditStore) -> None:
        self.store = store

    def count_events(self, table_id: str | None = None, at_most: int | None = None) -> int:
        """How many events ``table_id`` (``None``: every table) holds, at most ``at_most``."""
        rows = sa.select(events_table.c.seq)
        if table_id is not None:
            rows = rows.where(events_table.c.table_id == table_id)
        if at_most is not None:
            rows = rows.limit(at_most)
        query = sa.select(sa.func.count()).select_from(rows.subquery())
        self.store.ping()  # creates the schema on first use, like every store read
        try:
            with self.store.engine.connect() as conn:
                return int(conn.execute(query).scalar_one())
        except (sa.exc.OperationalError, sa.exc.InterfaceError) as error:
            raise Unavailable(f"audit store unavailable: {error.orig or error}") from error
