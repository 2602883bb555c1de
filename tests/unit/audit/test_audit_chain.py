"""Golden vectors pinning the hash-chain format (dealerassist.audit.chain and envelope).

Envelope version 1 (every event stored before the dealer sign-in) keeps its vectors: an
event stored then is the dict ``_first_v1`` builds, and it must still seal to ``FIRST_HASH``
and verify. Version 2 (``envelope`` and ``dealer``) has its own, ``V2_*``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from dealerassist.audit.chain import GENESIS_HASH, canonical_json, event_hash, seal
from dealerassist.audit.checkpoints import Anchor
from dealerassist.audit.envelope import (
    ENVELOPE_V2,
    V1_FIELDS,
    build_event,
    envelope_whys,
    format_at,
    parse_at,
)
from dealerassist.audit.verify import verify

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


FIRST_PAYLOAD = {
    "command": {"type": "create_table", "spec": {"table_id": "T7", "max_seats": 6}},
    "events": [],
    "result": None,
    "state_sha256": "ab" * 32,
}
SECOND_PAYLOAD = {
    "command": {"type": "start_hand", "button": None},
    "rule_id": "TABLE-01",
    "message": "Seat two players first — «€»",
    "seat": None,
}


def _v1(seq: int, at: datetime, kind: str, payload: object, prev_hash: str) -> dict[str, object]:
    """A version 1 event as the service sealed it before envelope 2 (its eleven members)."""
    return seal(
        {
            "table_id": "T7",
            "seq": seq,
            "version": 1,
            "hand_no": None,
            "at": format_at(at),
            "actor": "dealer-7",
            "role": "dealer",
            "kind": kind,
            "payload": payload,
            "profile_id": "house",
            "profile_sha256": PROFILE_SHA,
        },
        prev_hash,
    )


def _first() -> dict[str, object]:
    at = datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC)
    return _v1(1, at, "create_table", FIRST_PAYLOAD, GENESIS_HASH)


def _second(prev_hash: str) -> dict[str, object]:
    at = datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC)
    return _v1(2, at, "rejected", SECOND_PAYLOAD, prev_hash)


# Envelope 2: the same two events built by today's build_event, the dealer on duty named.
V2_FIRST_CANONICAL = (
    '{"actor":"dealer-7","at":"2026-11-29T12:00:00.000005Z","dealer":null,"envelope":2,'
    '"hand_no":null,'
    '"kind":"create_table","payload":{"command":{"spec":{"max_seats":6,"table_id":"T7"},'
    '"type":"create_table"},"events":[],"result":null,"state_sha256":"' + "ab" * 32 + '"},'
    '"prev_hash":"' + "0" * 64 + '","profile_id":"house","profile_sha256":"' + PROFILE_SHA + '",'
    '"role":"dealer","seq":1,"table_id":"T7","version":1}'
)
# Computed once, independently: the first with `printf "%s" "$V2_FIRST_CANONICAL" | sha256sum`,
# the second with the standard library's json.dumps (sort_keys, compact, ensure_ascii=False).
V2_FIRST_HASH = "c9af08f2187c835e6a95a4a45403ebc243156b0081994ebfd031936a199f18c0"
V2_SECOND_HASH = "f36981ebfcbbe4200679e6e1b9d10c43905db7192be455adb534546acb68e59d"


V2_SIGN_IN = {
    "employee_id": "E1042",
    "name": "Dana Ünal",
    "previous": None,
    "reason": "sign_in",
    "tablet_id": "t-0a1b2c3d",
}


def _v2_first() -> dict[str, object]:
    return build_event(
        table_id="T7",
        seq=1,
        version=1,
        hand_no=None,
        at=datetime(2026, 11, 29, 12, 0, 0, 5, tzinfo=UTC),
        actor="dealer-7",
        role="dealer",
        kind="create_table",
        payload=FIRST_PAYLOAD,
        profile_id="house",
        profile_sha256=PROFILE_SHA,
        prev_hash=GENESIS_HASH,
        dealer=None,
    )


def _v2_second(prev_hash: str) -> dict[str, object]:
    return build_event(
        table_id="T7",
        seq=2,
        version=1,
        hand_no=None,
        at=datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC),
        actor="tablet:t-0a1b2c3d",
        role="dealer",
        kind="dealer_on_duty",
        payload=V2_SIGN_IN,
        profile_id="house",
        profile_sha256=PROFILE_SHA,
        prev_hash=prev_hash,
        dealer="E1042",
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


def test_version_1_events_keep_their_members_and_verify() -> None:
    """A stored version 1 chain has no envelope member and verifies unchanged (no replay:
    the payloads are not a real table)."""
    first = _first()
    chain = [first, _second(FIRST_HASH)]
    assert tuple(sorted(first)) == tuple(sorted(V1_FIELDS))
    assert envelope_whys(first) == []
    assert verify(chain, lambda *version: None, replay=False)["ok"] is True


def test_golden_v2_first_event_canonical_json() -> None:
    """Envelope 2's hash input: the version 1 members plus ``envelope`` 2 and ``dealer``."""
    body = {key: value for key, value in _v2_first().items() if key != "hash"}
    assert canonical_json(body) == V2_FIRST_CANONICAL.encode()


def test_golden_v2_hashes() -> None:
    """A fixed envelope 2 event seals to a fixed hash; the second, a sign-in, names the
    dealer it puts on duty."""
    first = _v2_first()
    second = _v2_second(V2_FIRST_HASH)
    assert first["hash"] == V2_FIRST_HASH
    assert second["hash"] == V2_SECOND_HASH
    assert second["envelope"] == ENVELOPE_V2 and second["dealer"] == "E1042"
    assert verify([first, second], lambda *version: None, replay=False)["ok"] is True


def test_a_chain_from_version_1_goes_on_in_version_2_and_verifies() -> None:
    """Events stored before the upgrade, then events of envelope 2 linked to them."""
    old = [_first(), _second(FIRST_HASH)]
    new = build_event(
        table_id="T7", seq=3, version=1, hand_no=None, at=datetime(2026, 12, 2, tzinfo=UTC),
        actor="dealer-7", role="dealer", kind="rejected", payload=SECOND_PAYLOAD,
        profile_id="house", profile_sha256=PROFILE_SHA, prev_hash=SECOND_HASH, dealer=None,
    )  # fmt: skip
    assert verify([*old, new], lambda *version: None, replay=False)["ok"] is True


def test_an_envelope_member_dropped_or_a_version_unknown_is_a_problem() -> None:
    """A v2 event without its dealer, or an envelope 3, is reported even when resealed."""
    first = _v2_first()
    stripped = seal({k: v for k, v in first.items() if k not in ("dealer", "hash")}, GENESIS_HASH)
    future = seal({**{k: v for k, v in first.items() if k != "hash"}, "envelope": 3}, GENESIS_HASH)
    for event in (stripped, future):
        report = verify([event], lambda *version: None, replay=False)
        assert report["ok"] is False
        assert "envelope" in report["problems"][0]["why"]


def _v2_chain(dealers: list[tuple[str, str | None]]) -> list[dict[str, object]]:
    """Envelope 2 events of kinds and named dealers, linked (versions unchanged: refusals
    and sign-ins only, so no replay is needed)."""
    chain: list[dict[str, object]] = []
    prev = GENESIS_HASH
    for seq, (kind, dealer) in enumerate(dealers, start=1):
        payload = (
            {**V2_SIGN_IN, "employee_id": dealer} if kind == "dealer_on_duty" else SECOND_PAYLOAD
        )
        event = build_event(
            table_id="T7", seq=seq, version=0, hand_no=None,
            at=datetime(2026, 12, 2, 0, 0, seq, tzinfo=UTC), actor="dealer-7", role="dealer",
            kind=kind, payload=payload, profile_id="house", profile_sha256=PROFILE_SHA,
            prev_hash=prev, dealer=dealer,
        )  # fmt: skip
        prev = str(event["hash"])
        chain.append(event)
    return chain


def _whys(chain: list[dict[str, object]]) -> list[str]:
    return [p["why"] for p in verify(chain, lambda *version: None, replay=False)["problems"]]


def test_each_event_must_name_the_dealer_the_last_sign_in_put_on_duty() -> None:
    """E1 signs in, a refusal names E1, E2 pushes in, a refusal names E2, E2 signs out, a
    refusal names nobody: verifies. An event naming a dealer nobody put on duty, or the one
    pushed out, is reported even though its hash is right (it was sealed so)."""
    good = [
        ("dealer_on_duty", "E1"),
        ("rejected", "E1"),
        ("dealer_on_duty", "E2"),
        ("rejected", "E2"),
        ("dealer_on_duty", None),
        ("rejected", None),
    ]
    assert _whys(_v2_chain(good)) == []
    assert _whys(_v2_chain([("rejected", "E1")])) == ["dealer 'E1' named, None on duty"]
    pushed_out = [("dealer_on_duty", "E1"), ("dealer_on_duty", "E2"), ("rejected", "E1")]
    assert _whys(_v2_chain(pushed_out)) == ["dealer 'E1' named, 'E2' on duty"]


def test_an_envelope_1_event_after_envelope_2_is_reported() -> None:
    """Dropping back to envelope 1 would leave the dealer out: a problem, even resealed."""
    first = _v2_first()
    old = _v1(2, datetime(2026, 11, 29, 12, 0, 1, tzinfo=UTC), "rejected", SECOND_PAYLOAD,
              str(first["hash"]))  # fmt: skip
    assert _whys([first, old]) == ["envelope 1 after envelope 2: the dealer is left out"]


# -- an insider who edits the store ------------------------------------------------------------


def _reseal(events: list[dict[str, object]]) -> list[dict[str, object]]:
    """What an insider with write access does after an edit: renumber and relink."""
    chain: list[dict[str, object]] = []
    prev = GENESIS_HASH
    for seq, event in enumerate(events, start=1):
        sealed = seal({**{k: v for k, v in event.items() if k != "hash"}, "seq": seq}, prev)
        prev = str(sealed["hash"])
        chain.append(sealed)
    return chain


ON_DUTY = [("dealer_on_duty", "E1"), ("rejected", "E1"), ("dealer_on_duty", "E2"),
           ("rejected", "E2")]  # fmt: skip


def test_an_event_s_dealer_changed_in_the_store_is_reported() -> None:
    """The envelope 2 hash covers ``dealer``: an event edited to name another dealer is
    reported as changed, and resealed it names a dealer nobody put on duty."""
    chain = _v2_chain(ON_DUTY)
    assert _whys(chain) == []
    chain[1] = {**chain[1], "dealer": "E2"}
    assert event_hash(chain[1]) != chain[1]["hash"]
    assert any(why.endswith("the event changed") for why in _whys(chain))
    assert _whys(_reseal(chain)) == ["dealer 'E2' named, 'E1' on duty"]


def test_a_dealer_on_duty_event_dropped_from_the_store_is_reported() -> None:
    """Deleting E2's sign-in leaves a gap in seq and link; resealed to close the gap, E2's
    later events name a dealer the chain never put on duty."""
    chain = _v2_chain(ON_DUTY)
    dropped = [event for event in chain if event["seq"] != 3]
    assert _whys(dropped) != []
    assert _whys(_reseal(dropped)) == ["dealer 'E2' named, 'E1' on duty"]


def test_a_chain_resealed_down_to_envelope_1_is_caught_by_its_checkpoint() -> None:
    """Rewriting a whole table as envelope 1 (``envelope`` and ``dealer`` removed, every
    event resealed) is a chain verify alone cannot tell from one stored before the sign-in:
    the signed checkpoint of its head, which names the envelope 2 hash, catches it."""
    chain = _v2_chain(ON_DUTY)
    anchor = Anchor("T7", 4, str(chain[-1]["hash"]), "checkpoint 1")
    downgraded = _reseal(
        [{k: v for k, v in event.items() if k not in ("envelope", "dealer")} for event in chain]
    )
    assert _whys(downgraded) == []  # by itself, a good envelope 1 chain
    assert verify(chain, lambda *version: None, replay=False, anchors=[anchor])["ok"]
    report = verify(downgraded, lambda *version: None, replay=False, anchors=[anchor])
    assert not report["ok"]
    assert report["problems"][0]["why"].endswith("re-sealed) or forked")
