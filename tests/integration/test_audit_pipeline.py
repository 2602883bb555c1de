"""The whole audit pipeline: service, Redis table store and queue, worker, store, verify."""

from __future__ import annotations

import tomllib

import redis
import sqlalchemy as sa
from audit_chains import play_hands

from dealerassist import worker
from dealerassist.adapters.redis_tables import DecodedCache, RedisTableStore
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.phh.writer import hand_to_phh
from dealerassist.audit.verify import verify
from dealerassist.service.ports import Services

PROFILE = "casino-five-card-draw"


def _drain(redis_client: redis.Redis, sql_url: str) -> SqlAuditStore:
    worker.configure(sql_url)
    worker.make_worker(redis_client).work(burst=True, logging_level="CRITICAL")
    return SqlAuditStore(sql_url)


def test_played_hands_verify_with_replay(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """Hands played through the service land in the store and replay through the engine."""
    play_hands(services, "A1", hands=3, profile_id=PROFILE)
    play_hands(services, "B2", hands=2, profile_id=PROFILE)
    store = _drain(redis_client, sql_url)
    events = list(store.iter_events())
    assert {e["kind"] for e in events} >= {
        "create_table",
        "seat",
        "start_hand",
        "action",
        "rejected",
    }
    answer = verify(store.iter_events(), services.profiles.version)
    assert answer == {"ok": True, "events": len(events), "hands": 5, "problems": []}
    hand = store.get_hand("A1", 2)
    assert hand is not None and hand["result"]["winnings"]
    store.dispose()


def test_hands_whose_every_read_decodes_the_stored_json_verify_with_replay(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """As with several API processes, where a table was mostly written by another one: no
    read is served from the decode cache, and the hands still replay to the recorded
    state_sha256 (the next start_hand snapshots a table holding the last hand's result)."""
    assert isinstance(services.tables, RedisTableStore)
    services.tables.cache = DecodedCache(size=0)
    play_hands(services, "C3", hands=3, profile_id=PROFILE)
    store = _drain(redis_client, sql_url)
    answer = verify(store.iter_events(), services.profiles.version)
    assert answer["problems"] == [] and answer["ok"] is True
    assert answer["hands"] == 3
    store.dispose()


def test_a_changed_byte_in_a_stored_payload_names_table_and_seq(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """One byte changed in one stored payload: verify names that table and seq (and only it)."""
    play_hands(services, "A1", hands=2, profile_id=PROFILE)
    play_hands(services, "B2", hands=1, profile_id=PROFILE)
    store = _drain(redis_client, sql_url)
    target = next(
        e
        for e in store.iter_events("A1")
        if e["kind"] == "action" and e["payload"]["command"].get("amount") == 20
    )
    _change_one_byte(store, "A1", target["seq"], '"raise", "amount": 20', '"raise", "amount": 30')
    answer = verify(store.iter_events(), services.profiles.version)
    assert answer["ok"] is False
    assert {(p["table_id"], p["seq"]) for p in answer["problems"]} == {("A1", target["seq"])}
    assert any("the event changed" in p["why"] for p in answer["problems"])
    assert verify(store.iter_events("B2"), services.profiles.version)["ok"] is True
    store.dispose()


def _change_one_byte(store: SqlAuditStore, table_id: str, seq: int, old: str, new: str) -> None:
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1
    key = {"table_id": table_id, "seq": seq}
    with store.engine.begin() as conn:
        text = conn.execute(
            sa.text(
                "SELECT CAST(payload AS TEXT) FROM events WHERE table_id = :table_id AND seq = :seq"
            ),
            key,
        ).scalar_one()
        assert old in text
        cast = "CAST(:payload AS JSON)" if store.engine.dialect.name == "postgresql" else ":payload"
        conn.execute(
            sa.text(
                f"UPDATE events SET payload = {cast} WHERE table_id = :table_id AND seq = :seq"
            ),
            {**key, "payload": text.replace(old, new, 1)},
        )


def test_a_stored_hand_exports_to_phh_with_the_stacks_it_began_with(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """get_hand carries the table as the hand began: hand 2 starts from hand 1's stacks."""
    play_hands(services, "A1", hands=2, profile_id=PROFILE)
    store = _drain(redis_client, sql_url)
    first, second = store.get_hand("A1", 1), store.get_hand("A1", 2)
    assert first is not None and second is not None
    assert second["table"]["spec"]["variant"] == "five_card_draw"
    after_first = {int(seat): stack for seat, stack in first["result"]["stacks"].items()}
    assert {seat: info["stack"] for seat, info in second["table"]["seats"].items()} == after_first
    data = tomllib.loads(hand_to_phh(second))
    seats = [int(name[1:]) for name in data["players"]]
    assert data["starting_stacks"] == [after_first[seat] for seat in seats]
    store.dispose()
