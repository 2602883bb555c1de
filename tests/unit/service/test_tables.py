"""The table use cases over fakes: audit events, versions, rejections, preconditions, retries."""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

import pytest
from fakes import FakeAuditStore, FakeTableStore, fake_services

from dealerassist.audit.chain import GENESIS_HASH, canonical_json, event_hash
from dealerassist.errors import (
    AlreadyExists,
    Conflict,
    IdempotencyMismatch,
    InvalidInput,
    NotFound,
    ProfileError,
)
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.service import tables as uc
from dealerassist.service.ports import AnswerKind, Services
from dealerassist.service.tables import Actor, Preconditions

ADMIN = Actor("boss", "admin")
DEALER = Actor("tablet-1", "dealer")
NONE = Preconditions()
SPEC = {
    "table_id": "T1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile_id": "test",
}


@pytest.fixture
def services() -> Services:
    return fake_services({"test": HouseRules(profile_id="test", sha256="ab" * 32)})


def _store(services: Services) -> FakeTableStore:
    assert isinstance(services.tables, FakeTableStore)
    return services.tables


def _ready(services: Services, players: int = 3) -> uc.Answer:
    uc.create_table(services, SPEC, ADMIN, NONE)
    for seat in range(1, players + 1):
        uc.seat_player(services, "T1", seat, f"P{seat}", 100, DEALER, NONE)
    return uc.start_hand(services, "T1", 1, DEALER, NONE)


def test_create_table_seals_the_first_event_on_genesis(services: Services) -> None:
    """Creating a table answers version 1 and stages seq 1 linked to the genesis hash."""
    answer = uc.create_table(services, SPEC, ADMIN, NONE)
    assert answer.kind is AnswerKind.CREATED and answer.version == 1
    (event,) = _store(services).staged
    assert event["seq"] == 1 and event["version"] == 1 and event["kind"] == "create_table"
    assert event["prev_hash"] == GENESIS_HASH and event["hash"] == event_hash(event)
    assert event["actor"] == "boss" and event["role"] == "admin"
    assert event["profile_id"] == "test" and event["profile_sha256"] == "ab" * 32
    assert answer.body["event"] == {"seq": 1, "hash": event["hash"]}


def test_accepted_event_records_command_and_state_digest(services: Services) -> None:
    """The payload holds the command, the engine events and the digest of the new state."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    uc.seat_player(services, "T1", 2, "Bob", 50, DEALER, NONE)
    event = _store(services).staged[-1]
    assert event["payload"]["command"] == {"type": "seat", "seat": 2, "player": "Bob", "stack": 50}
    state = _store(services).records["T1"].state
    digest = hashlib.sha256(canonical_json(state.to_dict())).hexdigest()
    assert event["payload"]["state_sha256"] == digest
    assert state.version == 2


def test_events_form_one_chain(services: Services) -> None:
    """Each event links to the one before; seq and version climb together while accepted."""
    _ready(services)
    staged = _store(services).staged
    assert [e["seq"] for e in staged] == [1, 2, 3, 4, 5]
    assert [e["version"] for e in staged] == [1, 2, 3, 4, 5]
    for earlier, later in itertools.pairwise(staged):
        assert later["prev_hash"] == earlier["hash"]
    assert staged[-1]["hand_no"] == 1 and staged[1]["hand_no"] is None


def test_rejection_is_audited_with_a_seq_but_no_new_version(services: Services) -> None:
    """A refused entry is answered REJECTED, takes seq 6 and leaves version 5."""
    _ready(services)
    answer = uc.submit_action(services, "T1", {"seat": 1, "action": "fold"}, DEALER, NONE)
    assert answer.kind is AnswerKind.REJECTED
    assert answer.body["rule_id"] and answer.body["allowed"] and answer.body["version"] == 5
    event = _store(services).staged[-1]
    assert event["kind"] == "rejected" and event["seq"] == 6 and event["version"] == 5
    said = {"message_id", "params"}  # what the refusal said, as its ID and parameters
    assert set(event["payload"]) - said == {"command", "rule_id", "message", "seat"}
    record = _store(services).records["T1"]
    assert record.version == 5 and record.head.seq == 6 and record.head.last_hash == event["hash"]


def test_unknown_profile_is_invalid_input(services: Services) -> None:
    """A table cannot name a profile the house does not have."""
    with pytest.raises(InvalidInput, match="no house-rule profile"):
        uc.create_table(services, {**SPEC, "profile_id": "other"}, ADMIN, NONE)


def test_create_twice_is_already_exists(services: Services) -> None:
    """A table ID is taken once."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    with pytest.raises(AlreadyExists):
        uc.create_table(services, SPEC, ADMIN, NONE)


def test_commands_on_a_missing_table_are_not_found(services: Services) -> None:
    """Seating, starting, acting and reading at an unknown table raise NotFound."""
    with pytest.raises(NotFound):
        uc.seat_player(services, "T9", 1, "A", 5, DEALER, NONE)
    with pytest.raises(NotFound):
        uc.start_hand(services, "T9", None, DEALER, NONE)
    with pytest.raises(NotFound):
        uc.get_table(services, "T9")
    assert _store(services).staged == []


def test_stale_if_match_is_conflict_with_current_version(services: Services) -> None:
    """If-Match on an old version raises Conflict carrying the current version."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    uc.seat_player(services, "T1", 1, "A", 5, DEALER, NONE)
    with pytest.raises(Conflict) as raised:
        uc.seat_player(services, "T1", 2, "B", 5, DEALER, Preconditions(if_match=1))
    assert raised.value.current_version == 2


def test_idempotent_replay_and_mismatch(services: Services) -> None:
    """The same key and command replays the first answer; another command is a mismatch."""
    _ready(services)
    pre = Preconditions(idempotency_key="k1")
    first = uc.submit_action(services, "T1", {"seat": 2, "action": "post"}, DEALER, pre)
    again = uc.submit_action(services, "T1", {"seat": 2, "action": "post"}, DEALER, pre)
    assert again.replayed and not first.replayed and again.body == first.body
    assert len(_store(services).staged) == 6
    with pytest.raises(IdempotencyMismatch):
        uc.submit_action(services, "T1", {"seat": 3, "action": "post"}, DEALER, pre)


def test_idempotency_keys_are_scoped_by_token(services: Services) -> None:
    """Two tablets may use the same key for different commands."""
    _ready(services)
    pre = Preconditions(idempotency_key="0001")
    uc.submit_action(services, "T1", {"seat": 2, "action": "post"}, DEALER, pre)
    other = uc.submit_action(
        services, "T1", {"seat": 3, "action": "post"}, Actor("tablet-2", "dealer"), pre
    )
    assert other.kind is AnswerKind.ACCEPTED and not other.replayed


def _interfere_once(services: Services) -> None:
    """Make the next commit lose to a concurrent seat change."""
    store = _store(services)

    def hook() -> None:
        store.before_commit = None
        record = store.records["T1"]
        store.records["T1"] = type(record)(state=record.state, head=record.head)
        raise Conflict("lost", record.version)

    store.before_commit = hook


def test_lost_race_without_if_match_is_retried(services: Services) -> None:
    """Without If-Match a lost compare-and-set is re-run and applied."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    _interfere_once(services)
    answer = uc.seat_player(services, "T1", 1, "A", 5, DEALER, NONE)
    assert answer.kind is AnswerKind.ACCEPTED and answer.version == 2


def test_lost_race_with_if_match_is_conflict(services: Services) -> None:
    """With If-Match a lost compare-and-set is a Conflict (412)."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    _interfere_once(services)
    with pytest.raises(Conflict):
        uc.seat_player(services, "T1", 1, "A", 5, DEALER, Preconditions(if_match=1))


def test_lost_race_to_the_same_key_replays_the_winner(services: Services) -> None:
    """If the winner used the same Idempotency-Key, the loser gets the winner's answer."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    pre = Preconditions(if_match=1, idempotency_key="dup")
    store = _store(services)
    winner: dict[str, Any] = {}

    def hook() -> None:
        store.before_commit = None
        winner["answer"] = uc.seat_player(services, "T1", 1, "A", 5, DEALER, pre)
        raise Conflict("lost", 2)

    store.before_commit = hook
    answer = uc.seat_player(services, "T1", 1, "A", 5, DEALER, pre)
    assert answer.replayed and answer.body == winner["answer"].body


def test_get_hand_live_stored_and_missing(services: Services) -> None:
    """The live hand comes from the table, a finished one from the audit store, else NotFound."""
    _ready(services)
    assert uc.get_hand(services, "T1", 1)["live"] is True
    store = services.audit_store
    assert isinstance(store, FakeAuditStore)
    store.hands[("T1", 0)] = {"hand_no": 0, "result": {}}
    assert uc.get_hand(services, "T1", 0)["hand"] == {"hand_no": 0, "result": {}}
    with pytest.raises(NotFound):
        uc.get_hand(services, "T1", 5)


def test_invalid_action_shape_is_invalid_input(services: Services) -> None:
    """A command the engine cannot read is InvalidInput, and nothing is audited."""
    _ready(services)
    with pytest.raises(InvalidInput):
        uc.submit_action(services, "T1", {"seat": 2, "action": "dance"}, DEALER, NONE)
    assert len(_store(services).staged) == 5


def test_a_table_whose_profile_is_gone_is_a_profile_error(services: Services) -> None:
    """A stored table naming a profile the house no longer has cannot be read or changed."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    services.profiles.profiles.clear()  # type: ignore[attr-defined]
    with pytest.raises(ProfileError):
        uc.get_table(services, "T1")
    with pytest.raises(ProfileError):
        uc.seat_player(services, "T1", 1, "A", 5, DEALER, NONE)


def test_encode_body_is_the_compact_json_of_the_body() -> None:
    """The pre-encoded answer decodes to the body and has no spaces between tokens."""
    body = {"table_id": "T1", "version": 7, "seats": [{"seat": 1, "player": "\u00e9"}]}
    encoded = uc.encode_body(body)
    assert json.loads(encoded) == body
    assert b": " not in encoded and b", " not in encoded
