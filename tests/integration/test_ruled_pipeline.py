"""Ruled hands through the real pipeline: Redis table store and floor calls, worker, SQL store,
and verify with replay."""

from __future__ import annotations

from typing import Any

import redis

from dealerassist import worker
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.hands import hand_records
from dealerassist.audit.verify import verify
from dealerassist.service import rulings as floor
from dealerassist.service import tables as uc
from dealerassist.service.ports import AnswerKind, Services
from dealerassist.service.tables import Actor, Preconditions

ADMIN = Actor("boss", "admin")
DEALER = Actor("tablet-1", "dealer")
FLOOR = Actor("floor-anna", "floor")
NONE = Preconditions()
SPEC = {
    "table_id": "R1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile_id": "casino-five-card-draw",
}


def _act(services: Services, *steps: str) -> uc.Answer:
    answer = None
    for step in steps:
        seat, action, *rest = step.split()
        body: dict[str, Any] = {"seat": int(seat), "action": action}
        if action == "draw":
            body["count"] = int(rest[0])
        answer = uc.submit_action(services, "R1", body, DEALER, NONE)
    assert answer is not None
    return answer


def _rule(services: Services, decision: str, *effects: dict[str, Any], **fields: Any) -> Any:
    body = {"decision": decision, "note": "floor", "effects": list(effects), **fields}
    answer = floor.issue_ruling(services, "R1", body, FLOOR, NONE)
    assert answer.kind is AnswerKind.ACCEPTED, answer.body
    return answer


def test_ruled_hands_are_stored_and_verify_with_replay(
    services: Services, redis_client: redis.Redis, sql_url: str
) -> None:
    """A misdeal, a floor call closed by accepting the entry, a killed hand and a void after
    the hand ended: stored by the worker, every hand recorded once, the log verifies."""
    uc.create_table(services, SPEC, ADMIN, NONE)
    for seat in (1, 2, 3):
        uc.seat_player(services, "R1", seat, f"P{seat}", 100, DEALER, NONE)
    uc.start_hand(services, "R1", 1, DEALER, NONE)
    _act(services, "2 post", "3 post", "1 call")
    _rule(services, "misdeal", {"effect": "misdeal"}, rule_id="IRREG-01")
    uc.start_hand(services, "R1", None, DEALER, NONE)
    _act(services, "2 post", "3 post", "1 call")
    refused = _act(services, "3 check")
    assert refused.kind is AnswerKind.REJECTED
    call = floor.open_floor_call(services, "R1", {"entry": {"seat": 3, "action": "check"}}, DEALER)
    accept = {"effect": "accept_entry", "entry": {"seat": 3, "action": "check"}, "waive": "BET-08"}
    _rule(services, "action_stands", accept, call_id=call["call_id"])
    assert floor.list_floor_calls(services)["count"] == 0
    _rule(services, "no_redress", {"effect": "kill_hand", "seat": 1}, rule_id="IRREG-13")
    ended = _act(services, "2 fold")
    assert ended.body["result"]["pots"][0]["winners"] == [3]
    _rule(services, "custom", {"effect": "void_last"})
    _act(services, "2 call", "2 draw 1", "3 draw 2", "2 check", "3 check")
    shows = {2: "Qh Qd 9h 5s 3c", 3: "Jh Jd 8c 6s 4d"}
    for seat in (2, 3):
        body = {"seat": seat, "action": "show", "cards": shows[seat]}
        final = uc.submit_action(services, "R1", body, DEALER, NONE)
    assert final.body["result"]["pots"][0]["winners"] == [2]
    worker.configure(sql_url)
    worker.make_worker(redis_client).work(burst=True, logging_level="CRITICAL")
    store = SqlAuditStore(sql_url)
    events = list(store.iter_events("R1"))
    assert sum(1 for e in events if e["kind"] == "ruling") == 4
    (called,) = [e for e in events if e["kind"] == "floor_call"]
    assert called["payload"]["call"]["call_id"] == call["call_id"] and called["role"] == "dealer"
    answer = verify(store.iter_events(), services.profiles.version)
    assert answer["ok"], answer["problems"]
    misdealt, second = store.get_hand("R1", 1), store.get_hand("R1", 2)
    assert misdealt is not None and misdealt["result"]["misdeal"] is True
    # the hand ended twice (the fold, then the showdown after the void): its record is the last
    assert second is not None and second["result"]["pots"][0]["winners"] == [2]
    assert second["ended_at"] == next(e["at"] for e in reversed(events) if e["hand_no"] == 2)
    exported = list(hand_records(store.iter_events("R1")))
    assert [(h["hand_no"], h["result"].get("misdeal")) for h in exported][:1] == [(1, True)]
    assert [h["result"]["pots"][0]["winners"] for h in exported[1:]] == [[2]]
    assert exported[1]["events"][0]["kind"] == "start_hand"
    results = [
        e["payload"]["result"] for e in events if e["hand_no"] == 2 and e["payload"].get("result")
    ]
    assert [r["pots"][0]["winners"] for r in results] == [[3], [2]]
    store.dispose()
