"""What the audit pipeline found wrong: forked chains (in the store) and isolated tables
(in each Redis's audit queue), for ``/readyz``, the floor and the auditor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore


class AuditIntegrityReport:
    """Forks from the store (the authority: a rewound Redis forgets), isolations from Redis."""

    def __init__(self, store: SqlAuditStore, queues: Sequence[RQAuditQueue]) -> None:
        self.store = store
        self.queues = list(queues)

    def forked_tables(self) -> list[dict[str, Any]]:
        return self.store.forked_tables()

    def isolated_tables(self) -> dict[str, str]:
        isolated: dict[str, str] = {}
        for queue in self.queues:
            isolated.update(queue.isolated())
        return isolated
