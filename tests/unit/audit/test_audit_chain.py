"""Golden vectors pinning the hash-chain format (dealerassist.audit.chain and envelope)."""

from __future__ import annotations

from datetime import UTC, datetime

from dealerassist.audit.chain import GENESIS_HASH, canonical_json, event_hash, seal
from dealerassist.audit.envelope import build_event, format_at, parse_at

PROFILE_SHA = "cd" * 32
FIRST_CANONICAL = (
    '{"actor":"dealer-7","at":"2026-11-29T12:00:00.000005Z","hand_no":null,'
    '"kind":"create_table","payload":{"command":{"spec":{"max_seats":6,"table_id":"T7"},'
    '"type":"create_table"},"events":[],"result":null,"state_sha256":"' + "ab" * 32 + '"},'
    '"prev_hash":"' + "0" * 64 + '","profile_id":"house","profile_sha256":"' + PROFILE_SHA + '",'
    '"role":"dealer","seq":1,"table_id":"T7","version":1}'
)
# Computed once, independently, with `printf '%s' "$FIRST_CANONICAL" | sha256sum`.
FIRST_HASH = "70fc8ac0d95c0ed53c1087c268172b771cc551bcbe5ec6756ef885c658ab47ef"
SECOND_HASH = "ce49fbc7c52409354811f21bf4bbc17b042c33c9cbd52213c26e00576f407176"


def _first() -> dict[str, object]:
    return build_event(
        table_id="T7",
        seq=1,
        version=1,
        hand_no=None,
        at=datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC),
        actor="dealer-7",
        role="dealer",
        kind="create_table",
        payload={
            "command": {"type": "create_table", "spec": {"table_id": "T7", "max_seats": 6}},
            "events": [],
            "result": None,
            "state_sha256": "ab" * 32,
        },
        profile_id="house",
        profile_sha256=PROFILE_SHA,
        prev_hash=GENESIS_HASH,
    )


def _second(prev_hash: str) -> dict[str, object]:
    return build_event(
        table_id="T7",
        seq=2,
        version=1,
        hand_no=None,
        at=datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC),
        actor="dealer-7",
        role="dealer",
        kind="rejected",
        payload={
            "command": {"type": "start_hand", "button": None},
            "rule_id": "TABLE-01",
            "message": "Seat two players first — «€»",
            "seat": None,
        },
        profile_id="house",
        profile_sha256=PROFILE_SHA,
        prev_hash=prev_hash,
    )


def test_golden_first_event_canonical_json() -> None:
    """The first event's hash input is exactly the pinned canonical JSON bytes."""
    body = {key: value for key, value in _first().items() if key != "hash"}
    assert canonical_json(body) == FIRST_CANONICAL.encode()


def test_golden_first_event_hash() -> None:
    """A fixed event seals to a fixed hash string, linked to the 64-zero genesis hash."""
    event = _first()
    assert event["prev_hash"] == GENESIS_HASH == "0" * 64
    assert event["hash"] == FIRST_HASH


def test_golden_second_event_hash_with_non_ascii_text() -> None:
    """A rejection with non-ASCII text (kept as UTF-8, not escaped) seals to its fixed hash."""
    event = _second(FIRST_HASH)
    assert event["hash"] == SECOND_HASH
    assert "«€»".encode() in canonical_json(event)


def test_hash_leaves_out_its_own_member() -> None:
    """event_hash ignores an existing "hash" member, so resealing is stable."""
    event = _first()
    assert event_hash(event) == event_hash({**event, "hash": "x"}) == FIRST_HASH


def test_any_changed_field_changes_the_hash() -> None:
    """Changing one character of the payload gives another hash."""
    event = _first()
    changed = {**event, "payload": {**event["payload"], "state_sha256": "ab" * 31 + "ac"}}  # type: ignore[dict-item]
    assert event_hash(changed) != event["hash"]


def test_seal_links_and_does_not_mutate() -> None:
    """seal returns a linked copy and leaves its input alone."""
    raw = {"seq": 1}
    sealed = seal(raw, "f" * 64)
    assert raw == {"seq": 1}
    assert sealed["prev_hash"] == "f" * 64
    assert sealed["hash"] == event_hash(sealed)


def test_at_format_round_trips_with_microseconds() -> None:
    """format_at writes UTC with microseconds and Z; parse_at reads it back."""
    at = datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC)
    assert format_at(at) == "2026-11-29T12:00:00.000005Z"
    assert parse_at(format_at(at)) == at
