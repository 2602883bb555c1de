"""Signed checkpoints (dealerassist.audit.checkpoints) and verify against them.

The store verified only against itself: deleting a table's newest events, a whole table,
or rewriting an event and re-sealing every hash after it still verified ok (issue 19). The
golden vector pins the checkpoint format (version 1), as the chain's vectors pin events.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from audit_chains import rules_for, synthetic_events
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealerassist.audit.chain import seal
from dealerassist.audit.checkpoints import (
    Head,
    anchors_from,
    key_id,
    leaf,
    live_anchor,
    make_checkpoint,
    redact,
    report_from_state,
    report_to_state,
    verify_checkpoints,
)
from dealerassist.audit.verify import verify

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
KEYS = {key_id(KEY.public_key()): KEY.public_key()}
AT = "2026-12-01T12:00:00.000000Z"


def _tables() -> dict[str, list[dict[str, Any]]]:
    return {table: list(synthetic_events(table, 30)) for table in ("T1", "T2")}


def _checkpointed(tables: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Two checkpoints: T1 and T2 at seq 20, then T1 at 30 and T2 at 30."""
    first = make_checkpoint(None, [Head.of(chain[19]) for chain in tables.values()], AT, KEY)
    second = make_checkpoint(first, [Head.of(chain[-1]) for chain in tables.values()], AT, KEY)
    return [first, second]


def _verify(events: list[dict[str, Any]], records: list[dict[str, Any]]) -> dict[str, Any]:
    report = verify_checkpoints(records, KEYS)
    assert report.problems == []
    return verify(iter(events), rules_for, replay=False, anchors=anchors_from(report))


def test_golden_vector_pins_the_checkpoint_format() -> None:
    """Version 1: leaves, body hash and Ed25519 signature of a fixed key and head."""
    head = Head("T1", 7, "ab" * 32, AT)
    record = make_checkpoint(None, [head], AT, KEY)
    assert record["key_id"] == "56475aa75463474c"
    assert leaf(head) == "755d1a7dd9ba2347459a18702c4a7490564f69ee330dcbbb77fb736144d7f460"
    assert record["hash"] == "51f8a34ba7fe2be13e62a62dfa0d8ba02785ff8b603e0fb8e5f714b6a8bee3b4"
    assert record["signature"] == (
        "4d399ee87fada5069dfec0f5835f1d89e838dffb8d2078dc02c03d2205207aba"
        "33bf0723576ecef43728800a5e2703d58298ef518326741078e9a68f76a3b501"
    )
    # the documented format, recomputed with the standard library alone
    body = {name: record[name] for name in ("v", "n", "at", "key_id", "prev_hash", "leaves")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(text.encode()).hexdigest() == record["hash"]
    opening = json.dumps(["T1", 7, "ab" * 32, AT], separators=(",", ":"))
    assert body["leaves"] == [hashlib.sha256(opening.encode()).hexdigest()]
    assert body["v"] == 1 and body["n"] == 1 and body["prev_hash"] == "0" * 64


def test_a_deleted_tail_verified_ok_alone_and_is_reported_against_the_checkpoint() -> None:
    """``DELETE ... WHERE seq > 25`` of T1: the store alone still verifies; against the
    latest checkpoint (T1 at 30) the missing tail is named."""
    tables = _tables()
    records = _checkpointed(tables)
    events = tables["T1"][:25] + tables["T2"]
    assert verify(iter(events), rules_for, replay=False)["ok"] is True  # the old blind spot
    answer = _verify(events, records)
    assert answer["ok"] is False
    assert answer["problems"] == [
        {
            "table_id": "T1",
            "seq": 26,
            "why": "seq 26..30 missing at the tail: checkpoint 2 has the table at seq 30",
        }
    ]


def test_a_deleted_table_is_reported_against_the_checkpoint() -> None:
    tables = _tables()
    answer = _verify(tables["T1"], _checkpointed(tables))
    assert [problem["table_id"] for problem in answer["problems"]] == ["T2"]
    assert answer["problems"][0]["why"].startswith("the table is missing: checkpoint 2")


def test_a_rewritten_and_re_sealed_chain_is_reported_against_the_checkpoint() -> None:
    """An insider changes T1's event 10 and re-seals every hash after it: every link
    holds, only the checkpoint's signed head no longer matches."""
    tables = _tables()
    records = _checkpointed(tables)
    chain = tables["T1"]
    forged = [*chain[:9]]
    for event in chain[9:]:
        body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
        if event["seq"] == 10:
            body["actor"] = "insider"
        forged.append(seal(body, forged[-1]["hash"]))
    assert verify(iter(forged), rules_for, replay=False)["ok"] is True  # the old blind spot
    answer = _verify(forged + tables["T2"], records)
    assert len(answer["problems"]) == 1
    assert answer["problems"][0]["seq"] == 30
    assert "re-sealed" in answer["problems"][0]["why"]


def test_a_checkpoint_changed_forged_or_missing_breaks_the_trust_from_there() -> None:
    tables = _tables()
    first, second = _checkpointed(tables)
    changed = {**second, "heads": [{**second["heads"][0], "seq": 29}, second["heads"][1]]}
    assert "not among the signed leaves" in verify_checkpoints([first, changed], KEYS).problems[0]
    other = Ed25519PrivateKey.generate()
    forged = make_checkpoint(first, [Head.of(tables["T1"][-1])], AT, other)
    assert "not among the public keys" in verify_checkpoints([first, forged], KEYS).problems[0]
    resigned = {**forged, "key_id": first["key_id"]}
    report = verify_checkpoints([first, resigned], KEYS)
    assert report.last_n == 1 and report.problems  # its hash no longer matches, or the signature
    assert "checkpoints are missing" in verify_checkpoints([second], KEYS).problems[0]


def test_a_redacted_checkpoint_still_verifies_and_shows_only_its_tables() -> None:
    """A token limited to T2 downloads checkpoints with T2's heads only; they verify."""
    records = [redact(record, lambda table: table == "T2") for record in _checkpointed(_tables())]
    report = verify_checkpoints(records, KEYS)
    assert report.problems == [] and set(report.heads) == {"T2"}


def test_verify_resumes_from_a_saved_checkpoint_state() -> None:
    """Incremental: the state saved after checkpoint 1 (seq 20 of each table); verify reads
    each table from seq 20, checks the resumed head, and the rest against checkpoint 2."""
    tables = _tables()
    first, second = _checkpointed(tables)
    state = report_to_state(verify_checkpoints([first], KEYS))
    start = report_from_state(state)
    resume = {table: head for table, (head, _) in start.heads.items()}
    report = verify_checkpoints([second], KEYS, start)
    new = tables["T1"][19:] + tables["T2"][19:]
    answer = verify(iter(new), rules_for, replay=False, anchors=anchors_from(report), resume=resume)
    assert answer == {"ok": True, "events": 22, "hands": 4, "problems": []}
    changed = [{**new[0], "actor": "insider"}, *new[1:]]
    answer = verify(iter(changed), rules_for, replay=False, resume=resume)
    assert answer["ok"] is False and answer["problems"][0]["seq"] == 20


def test_a_store_ahead_of_redis_live_head_is_reported() -> None:
    """Redis's live head at seq 25 while the store holds 30: Redis rewound."""
    chain = list(synthetic_events("T1", 30))
    anchor = live_anchor("T1", 25, chain[24]["hash"], None)
    answer = verify(iter(chain), rules_for, replay=False, anchors=[anchor])
    assert [problem["seq"] for problem in answer["problems"]] == [26]
    assert "Redis lost what the store has" in answer["problems"][0]["why"]
    behind = live_anchor("T1", 35, "f" * 64, 31)  # 31..35 still staged: nothing missing
    assert verify(iter(chain), rules_for, replay=False, anchors=[behind])["ok"] is True
