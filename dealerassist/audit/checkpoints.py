"""Signed checkpoints: the tables' chain heads, anchored outside the store that holds them.

The store checks only against itself: an insider who deletes a table's newest events, a
whole table, or rewrites an event and recomputes every hash after it leaves a store that
verifies. A checkpoint names heads (``table_id``, ``seq``, ``hash``, ``at`` of the head
event) at a time, signed with an Ed25519 key the store's writer does not hold; verify
then reports a tail, a table or a re-sealed chain that no longer matches the latest
signed head (``anchors_from``), and the verifier needs only the public key.

Format (version 1; pinned by golden vectors in ``tests/unit/audit/test_checkpoints.py``):

* a head's *leaf* is ``sha256(canonical_json([table_id, seq, hash, at]))`` in hex;
* the signed *body* is ``{"v": 1, "n", "at", "key_id", "prev_hash", "leaves"}``: ``n``
  counts checkpoints from 1, ``prev_hash`` is the previous checkpoint's ``hash`` (the
  first links to 64 zeros), ``leaves`` the sorted leaves of the heads that moved since the
  previous checkpoint (a checkpoint holds the heads that changed, not every table);
* ``hash = sha256(canonical_json(body))``; ``signature`` is Ed25519 over
  ``canonical_json(body)``, in hex; ``key_id`` is the first 16 hex digits of the SHA-256
  of the raw 32-byte public key;
* the record is the body plus ``hash``, ``signature`` and ``heads`` (the openings of the
  leaves: ``[{"table_id", "seq", "hash", "at"}]``). An export for a token limited to some
  tables carries only their heads (``redact``): the leaves still prove the signature, and
  say nothing of the other tables but their number.

Checkpoints form their own hash chain, so one deleted or reordered is seen; a verifier
that keeps its own copy of them (every audit download carries them) also sees the newest
ones deleted from the store.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from dealerassist.audit.chain import GENESIS_HASH, canonical_json

VERSION = 1
BODY_FIELDS = ("v", "n", "at", "key_id", "prev_hash", "leaves")


@dataclass(frozen=True, slots=True)
class Head:
    """The last event of a table's chain as a checkpoint names it."""

    table_id: str
    seq: int
    hash: str
    at: str

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "seq": self.seq, "hash": self.hash, "at": self.at}

    @staticmethod
    def of(event: Mapping[str, Any]) -> Head:
        """The head an event makes (its table, seq, hash and time)."""
        return Head(str(event["table_id"]), int(event["seq"]), str(event["hash"]), str(event["at"]))


def leaf(head: Head) -> str:
    """The digest a checkpoint signs for one head.

    >>> leaf(Head("T1", 1, "0" * 64, "2026-11-29T12:00:00.000000Z"))[:16]
    'ed3c5766b347cb05'
    """
    opening = [head.table_id, head.seq, head.hash, head.at]
    return hashlib.sha256(canonical_json(opening)).hexdigest()


def raw_public_key(public_key: Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of a public key."""
    return public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key: names the signer."""
    return hashlib.sha256(raw_public_key(public_key)).hexdigest()[:16]


def public_key_from_hex(text: str) -> Ed25519PublicKey:
    """A public key from its 64 hex digits (``ValueError`` if it is not one)."""
    raw = bytes.fromhex(text.strip())
    if len(raw) != 32:
        raise ValueError(f"an Ed25519 public key is 32 bytes (64 hex digits), not {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def _body(record: Mapping[str, Any]) -> dict[str, Any]:
    return {name: record[name] for name in BODY_FIELDS}


def checkpoint_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a checkpoint's signed body."""
    return hashlib.sha256(canonical_json(_body(record))).hexdigest()


def make_checkpoint(
    previous: Mapping[str, Any] | None,
    heads: Iterable[Head],
    at: str,
    key: Ed25519PrivateKey,
) -> dict[str, Any]:
    """The signed checkpoint after ``previous`` (``None``: the first) of these heads."""
    opened = sorted(heads, key=lambda head: head.table_id)
    body = {
        "v": VERSION,
        "n": 1 if previous is None else int(previous["n"]) + 1,
        "at": at,
        "key_id": key_id(key.public_key()),
        "prev_hash": GENESIS_HASH if previous is None else str(previous["hash"]),
        "leaves": sorted(leaf(head) for head in opened),
    }
    signature = key.sign(canonical_json(body)).hex()
    digest = hashlib.sha256(canonical_json(body)).hexdigest()
    return {
        **body,
        "hash": digest,
        "signature": signature,
        "heads": [head.to_dict() for head in opened],
    }


def redact(record: Mapping[str, Any], may_see: Callable[[str], bool]) -> dict[str, Any]:
    """The checkpoint with only the heads of the tables ``may_see`` (still verifiable)."""
    return {**record, "heads": [head for head in record["heads"] if may_see(head["table_id"])]}


@dataclass
class CheckpointReport:
    """What a run over the checkpoint chain found: the latest checkpoint it trusts, the heads
    they sign (the newest of each table), and what was wrong."""

    checked: int = 0
    last_n: int = 0
    last_hash: str = GENESIS_HASH
    last_at: str | None = None
    heads: dict[str, tuple[Head, int]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "latest": self.last_n or None,
            "latest_at": self.last_at,
            "tables": len(self.heads),
            "problems": list(self.problems),
        }


def verify_checkpoints(
    records: Iterable[Mapping[str, Any]],
    public_keys: Mapping[str, Ed25519PublicKey],
    start: CheckpointReport | None = None,
) -> CheckpointReport:
    """Check each checkpoint's signature, hash, number and link, and fold its heads.

    ``start``: the state after the checkpoints verified before (incremental); the records
    then begin after ``start.last_n``. The first bad checkpoint ends the trust: later ones
    are not folded (they cannot be told from forgeries), and the report says so.
    """
    report = CheckpointReport() if start is None else copy.deepcopy(start)  # start stays
    for record in records:
        why = _why_bad(record, report, public_keys)
        if why is not None:
            report.problems.append(f"checkpoint {record.get('n')!r}: {why}")
            report.problems.append(
                f"checkpoints after {report.last_n} are not trusted: the latest good one is "
                f"{report.last_n or 'none'}"
            )
            return report
        report.checked += 1
        report.last_n, report.last_hash = int(record["n"]), str(record["hash"])
        report.last_at = str(record["at"])
        for opened in record["heads"]:
            head = Head(
                str(opened["table_id"]), int(opened["seq"]), str(opened["hash"]), str(opened["at"])
            )
            known = report.heads.get(head.table_id)
            if known is not None and known[0].seq > head.seq:
                report.problems.append(
                    f"checkpoint {record['n']}: table {head.table_id!r} goes back from seq "
                    f"{known[0].seq} to {head.seq}"
                )
                continue
            report.heads[head.table_id] = (head, report.last_n)
    return report


def _why_bad(
    record: Mapping[str, Any],
    report: CheckpointReport,
    public_keys: Mapping[str, Ed25519PublicKey],
) -> str | None:
    try:
        if record["v"] != VERSION:
            return f"version {record['v']!r} is not {VERSION}"
        if int(record["n"]) != report.last_n + 1:
            return f"number {record['n']} follows {report.last_n}: checkpoints are missing"
        if record["prev_hash"] != report.last_hash:
            return "prev_hash does not link to the previous checkpoint"
        if checkpoint_hash(record) != record["hash"]:
            return "hash does not match its body: the checkpoint changed"
        public_key = public_keys.get(str(record["key_id"]))
        if public_key is None:
            return f"signed by key {record['key_id']!r}, which is not among the public keys"
        public_key.verify(bytes.fromhex(record["signature"]), canonical_json(_body(record)))
        leaves = set(record["leaves"])
        for opened in record["heads"]:
            head = Head(
                str(opened["table_id"]), int(opened["seq"]), str(opened["hash"]), str(opened["at"])
            )
            if leaf(head) not in leaves:
                return f"head of table {head.table_id!r} is not among the signed leaves"
    except InvalidSignature:
        return "the signature does not verify: forged or changed"
    except (KeyError, TypeError, ValueError) as error:
        return f"malformed ({type(error).__name__}: {error})"
    return None


@dataclass(frozen=True, slots=True)
class Anchor:
    """What the store must hold for one table, and who says so.

    ``seq``: the store must hold the table's chain through it; ``hash``: the hash of the
    event at ``seq`` when it is known (``None``: only the length is); ``beyond``: the store
    must hold nothing after it (Redis's live head: a store ahead of it means Redis lost
    what the store has, a rewind); ``source`` names the witness in the report.
    """

    table_id: str
    seq: int
    hash: str | None
    source: str
    beyond: int | None = None


def anchors_from(report: CheckpointReport) -> list[Anchor]:
    """The heads of the latest trusted checkpoints, as anchors."""
    return [
        Anchor(head.table_id, head.seq, head.hash, f"checkpoint {n}")
        for head, n in sorted(report.heads.values(), key=lambda pair: pair[0].table_id)
    ]


def live_anchor(table_id: str, live_seq: int, live_hash: str, first_pending: int | None) -> Anchor:
    """Redis's live head of a table: the store holds the chain up to the first event still
    staged (all of it if none is), that event's hash where it is the head, and nothing
    beyond the live head."""
    through = live_seq if first_pending is None else first_pending - 1
    return Anchor(
        table_id,
        through,
        live_hash if through == live_seq else None,
        f"Redis live head (seq {live_seq})",
        beyond=live_seq,
    )


def anchor_problems(
    anchors: Sequence[Anchor],
    seen: Mapping[str, int],
    hashes: Mapping[tuple[str, int], str],
) -> list[dict[str, Any]]:
    """What the store lacks against each anchor: ``seen`` is each table's last stored seq,
    ``hashes`` the stored hash at each anchored ``(table_id, seq)``."""
    problems: list[dict[str, Any]] = []
    for anchor in anchors:
        last = seen.get(anchor.table_id)
        if last is None:
            if anchor.seq > 0:
                why = f"the table is missing: {anchor.source} has it at seq {anchor.seq}"
                problems.append({"table_id": anchor.table_id, "seq": None, "why": why})
            continue
        if last < anchor.seq:
            why = (
                f"seq {last + 1}..{anchor.seq} missing at the tail: {anchor.source} has the "
                f"table at seq {anchor.seq}"
            )
            problems.append({"table_id": anchor.table_id, "seq": last + 1, "why": why})
        elif anchor.hash is not None and hashes.get((anchor.table_id, anchor.seq)) != anchor.hash:
            why = (
                f"hash {hashes.get((anchor.table_id, anchor.seq))} stored, {anchor.hash} in "
                f"{anchor.source}: the chain was rewritten (re-sealed) or forked"
            )
            problems.append({"table_id": anchor.table_id, "seq": anchor.seq, "why": why})
        if anchor.beyond is not None and last > anchor.beyond:
            why = (
                f"the store holds seq {last}, beyond {anchor.source}: Redis lost what the "
                "store has (rewound: a snapshot restore or a lagging replica)"
            )
            problems.append({"table_id": anchor.table_id, "seq": anchor.beyond + 1, "why": why})
    return problems


def report_to_state(report: CheckpointReport) -> dict[str, Any]:
    """What an incremental verify resumes from: the latest good checkpoint and its heads
    (write it only after a verify that was ok)."""
    return {
        "v": VERSION,
        "checkpoint": {"n": report.last_n, "hash": report.last_hash, "at": report.last_at},
        "heads": {
            table_id: {**head.to_dict(), "checkpoint": n}
            for table_id, (head, n) in sorted(report.heads.items())
        },
    }


def report_from_state(state: Mapping[str, Any]) -> CheckpointReport:
    """Inverse of ``report_to_state``."""
    latest = state["checkpoint"]
    heads = {
        str(table_id): (
            Head(str(table_id), int(opened["seq"]), str(opened["hash"]), str(opened["at"])),
            int(opened["checkpoint"]),
        )
        for table_id, opened in state["heads"].items()
    }
    return CheckpointReport(
        last_n=int(latest["n"]),
        last_hash=str(latest["hash"]),
        last_at=latest.get("at"),
        heads=heads,
    )
