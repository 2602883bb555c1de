"""What the audit pipeline found wrong, and what the store must hold: forked chains (in the
store) and isolated tables (in each Redis's audit queue), for ``/readyz``, the floor and the
auditor; and the anchors verify checks the store against (the latest signed checkpoint's
heads, and Redis's live head of every live table)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealerassist.adapters.redis_tables import table_key
from dealerassist.adapters.rq_audit_queue import RQAuditQueue, pending_key
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.checkpoints import (
    Anchor,
    CheckpointReport,
    anchors_from,
    live_anchor,
    verify_checkpoints,
)
from dealerassist.json_codec import parse

# The head of a stored table record fits in this many bytes (``redis_tables.stored_head``).
HEAD_BYTES = 160


class AuditIntegrityReport:
    """Forks from the store (the authority: a rewound Redis forgets), isolations from Redis."""

    def __init__(
        self,
        store: SqlAuditStore,
        queues: Sequence[RQAuditQueue],
        public_keys: Mapping[str, Ed25519PublicKey] | None = None,
    ) -> None:
        self.store = store
        self.queues = list(queues)
        self.public_keys = dict(public_keys or {})
        self._verified: CheckpointReport | None = None
        self._lock = threading.Lock()

    def forked_tables(self) -> list[dict[str, Any]]:
        """The store's forks, and the tables the worker found rewound in Redis before any
        entry reused a stored seq (nothing quarantined: their commits are refused)."""
        forked = self.store.forked_tables()
        known = {fork["table_id"] for fork in forked}
        for queue in self.queues:
            for table_id, (seq, _) in sorted(queue.forked().items()):
                if table_id not in known:
                    forked.append({"table_id": table_id, "from_seq": seq, "quarantined": 0})
                    known.add(table_id)
        return sorted(forked, key=lambda fork: str(fork["table_id"]))

    def isolated_tables(self) -> dict[str, str]:
        isolated: dict[str, str] = {}
        for queue in self.queues:
            isolated.update(queue.isolated())
        return isolated

    def checkpoint_report(self) -> CheckpointReport:
        """The checkpoint chain verified, from where this process last got (a good run is
        kept, so each verify checks only the checkpoints made since; the first pays for
        them all)."""
        with self._lock:
            start = self._verified
            after = 0 if start is None else start.last_n
            report = verify_checkpoints(self.store.iter_checkpoints(after), self.public_keys, start)
            if not report.problems:
                self._verified = report
            return report

    def checkpoints(self, after: int = 0) -> Iterator[dict[str, Any]]:
        return self.store.iter_checkpoints(after)

    def anchors(self, table_id: str | None = None) -> tuple[list[Anchor], dict[str, Any]]:
        """The anchors of ``table_id`` (None: every table), and what they come from."""
        found: list[Anchor] = []
        summary: dict[str, Any] = {}
        if self.public_keys:
            report = self.checkpoint_report()
            found += anchors_from(report)
            summary["checkpoints"] = report.to_dict()
        else:
            summary["checkpoints"] = {
                "checked": 0,
                "why": "no public key (DEALERASSIST_CHECKPOINT_PUBLIC_KEYS): not checked",
            }
        live = self.live_anchors(table_id)
        summary["live_tables"] = len(live)
        found += live
        return [a for a in found if table_id is None or a.table_id == table_id], summary

    def live_anchors(self, table_id: str | None = None) -> list[Anchor]:
        """Redis's live head of each table (read before the store, so a drain running
        meanwhile only makes the store hold more)."""
        anchors: list[Anchor] = []
        for queue in self.queues:
            connection = queue.connection
            names = [table_id] if table_id is not None else queue.tables()
            pipe = connection.pipeline(transaction=False)
            for name in names:
                pipe.getrange(table_key(name), 0, HEAD_BYTES)
                pipe.lindex(pending_key(name), 0)
            replies = pipe.execute()
            for index, name in enumerate(names):
                head, first = replies[2 * index], replies[2 * index + 1]
                if not head:
                    continue  # not on this Redis (partitions), or never created
                text = bytes(head)
                cut = text.find(b',"state":')
                if cut < 0:
                    continue
                record = parse(text[:cut] + b"}")
                first_seq = int(parse(first)["seq"]) if first else None
                anchors.append(
                    live_anchor(name, int(record["seq"]), str(record["last_hash"]), first_seq)
                )
        return anchors
