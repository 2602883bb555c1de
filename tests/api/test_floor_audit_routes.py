"""The floor's and the auditor's browsing routes over the real app (Redis, SQLite): floor
calls bounded (per table, per token: 429 with Retry-After, nothing audited), paged newest
first and read by table (3,000 calls), one call whole; the audit store's tables and hands;
one hand replayed step by step; the floor's tables with their pace. A token limited to some
tables sees only those on every one of these routes."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from api.conftest import SECRETS, Api, token_book
from dealerassist.api import create_app
from dealerassist.api.auth import Role, Token, TokenBook, digest
from dealerassist.audit.envelope import format_at
from dealerassist.service.floor_calls import FloorCall, FloorCallLimits
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

SCOPED = {"t2-floor": Role.FLOOR, "t2-auditor": Role.AUDITOR, "t2-admin": Role.ADMIN}
LIMITS = FloorCallLimits(per_table=3, per_token=5, ttl_seconds=3600)
DISPUTE = {"rule_id": "SHOW-04", "note": "miscalled hand"}
PATHS = ("/v1/floor/calls", "/v1/floor/tables", "/v1/audit/tables", "/v1/audit/hands")


@pytest.fixture
def api(settings: Settings, services: Services) -> Api:
    """The app with the test tokens and a floor, an auditor and an admin limited to T2."""
    for name in SCOPED:
        SECRETS.setdefault(name, f"{name}-secret")
    scoped = [Token(n, r, digest(SECRETS[n]), frozenset({"T2"})) for n, r in SCOPED.items()]
    book = TokenBook([*token_book().tokens, *scoped])
    bounded = replace(services, floor_call_limits=LIMITS)
    app: Flask = create_app({"SETTINGS": settings, "SERVICES": bounded, "TOKENS": book})
    return Api(app.test_client())


def _tables(api: Api, *table_ids: str) -> None:
    for table_id in table_ids:
        assert api.create_table(table_id=table_id).status_code == 201
        for seat in (1, 2, 3):
            assert api.seat(table_id, seat, f"P{seat}").status_code == 200


def _call(api: Api, table_id: str, who: str = "dealer") -> Any:
    return api.call("POST", f"/v1/tables/{table_id}/floor-calls", who, DISPUTE)


def _events(api: Api, table_id: str) -> list[dict[str, Any]]:
    text = api.call("GET", f"/v1/audit/events?table_id={table_id}", "auditor").get_data(as_text=1)
    return [json.loads(line) for line in text.splitlines()]


def _drain(settings: Settings) -> None:
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)


def test_a_table_s_open_calls_are_bounded_429_with_retry_after_nothing_audited(
    api: Api, settings: Settings
) -> None:
    """At its third open call a table refuses a fourth, whoever calls: 429 problem+json
    naming the limit, with Retry-After; no audit event, no call stored."""
    _tables(api, "T1")
    for who in ("dealer", "floor", "dealer"):
        assert _call(api, "T1", who).status_code == 201
    _drain(settings)
    before = len(_events(api, "T1"))
    refused = _call(api, "T1", "floor")
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert (body["scope"], body["limit"]) == ("table", 3) and "'T1' has 3 open" in body["detail"]
    assert 3500 < int(refused.headers["Retry-After"]) <= 3600
    _drain(settings)
    assert len(_events(api, "T1")) == before
    assert api.call("GET", "/v1/floor/calls?table_id=T1", "floor").get_json()["total"] == 3


def test_one_token_s_open_calls_are_bounded_across_tables(api: Api) -> None:
    """The dealer token's sixth open call (at a table with room) is a 429 naming the token."""
    _tables(api, "T1", "T3", "T4")
    for table_id in ("T1", "T1", "T3", "T3", "T4"):
        assert _call(api, table_id).status_code == 201
    refused = _call(api, "T4")
    assert refused.status_code == 429 and refused.get_json()["scope"] == "token"
    assert _call(api, "T4", "floor").status_code == 201  # another token: the table has room


def test_a_ruling_on_a_call_frees_its_place(api: Api) -> None:
    """A closed call no longer counts: the table may be called again."""
    _tables(api, "T1")
    ids = [_call(api, "T1").get_json()["call_id"] for _ in range(3)]
    assert _call(api, "T1").status_code == 429
    ruling = {"decision": "custom", "note": "heard both", "call_id": ids[0], "effects": []}
    assert api.call("POST", "/v1/tables/T1/rulings", "floor", ruling).status_code == 200
    assert _call(api, "T1").status_code == 201


def test_open_calls_list_newest_first_a_page_at_a_time_with_how_long_each_waited(
    api: Api,
) -> None:
    """Newest first; limit and the page's next cursor walk the rest; each call says how
    long it has waited by the service's clock; a list leaves out table and actions."""
    _tables(api, "T1", "T3")
    made = [_call(api, t).get_json()["call_id"] for t in ("T1", "T3", "T1", "T3")]
    first = api.call("GET", "/v1/floor/calls?limit=3", "floor").get_json()
    assert [c["call_id"] for c in first["calls"]] == made[::-1][:3]
    assert first["total"] == 4 and first["count"] == 3 and first["next"]
    assert all(c["waited_seconds"] >= 0 and "table" not in c for c in first["calls"])
    rest = api.call("GET", "/v1/floor/calls", "floor", query_string={"cursor": first["next"]})
    assert [c["call_id"] for c in rest.get_json()["calls"]] == [made[0]]
    assert rest.get_json()["next"] is None
    bad = api.call("GET", "/v1/floor/calls?cursor=nonsense", "floor")
    assert bad.status_code == 400


def test_one_call_whole_has_the_table_and_the_hand_s_entries_cards_included(api: Api) -> None:
    """GET /v1/floor/calls/{id}: the refused entry, and the hand's entries so far."""
    _tables(api, "T1")
    assert api.start("T1").status_code == 200
    for seat in (2, 3):
        assert api.act("T1", seat=seat, action="post").status_code == 200
    refused = {"seat": 2, "action": "check"}
    assert api.act("T1", **refused).status_code == 409
    made = api.call("POST", "/v1/tables/T1/floor-calls", "dealer", {"entry": refused})
    call_id = made.get_json()["call_id"]
    whole = api.call("GET", f"/v1/floor/calls/{call_id}", "floor").get_json()
    assert whole["entry"] == {"type": "action", **refused} and whole["table"]["hand"]
    commands = [a["command"] for a in whole["actions"]]
    assert [c["type"] for c in commands] == ["start_hand", "action", "action"]
    assert [c.get("action") for c in commands[1:]] == ["post", "post"]
    assert whole["status"] == "open" and whole["expires_at"] > whole["opened_at"]
    assert api.call("GET", "/v1/floor/calls/abc123", "floor").status_code == 404
    assert api.call("GET", f"/v1/floor/calls/{call_id}", "t2-floor").status_code == 404
    assert api.call("GET", f"/v1/floor/calls/{call_id}", "dealer").status_code == 403


def test_3000_open_calls_the_console_s_poll_stays_small_and_by_table(
    api: Api, services: Services
) -> None:
    """3,000 open calls at T1 (the flood one dealer token made before the limits): the
    console's poll is one page of 50 (a few KB each, not 13 MB); a console on T2 reads none
    of T1's; paging walks all 3,000 exactly once."""
    _tables(api, "T1", "T2")
    assert services.floor_calls is not None
    roomy = FloorCallLimits(per_table=10_000, per_token=10_000)
    now = services.clock.now()
    table = api.call("GET", "/v1/tables/T1", "floor").get_json()
    for n in range(3000):
        opened = format_at(now - timedelta(seconds=n))
        call = FloorCall(f"{n:08x}", "T1", opened, "dealer", 1, None, "SHOW-04", table=table)
        services.floor_calls.reserve(call, roomy, now)
    started = time.perf_counter()
    poll = api.call("GET", "/v1/floor/calls", "floor")
    elapsed = time.perf_counter() - started
    body = poll.get_json()
    assert body["count"] == 50 and body["total"] == 3000
    assert len(poll.get_data()) < 50_000 and elapsed < 1.0, (len(poll.get_data()), elapsed)
    assert body["calls"][0]["call_id"] == f"{0:08x}"
    assert api.call("GET", "/v1/floor/calls?table_id=T2", "floor").get_json()["total"] == 0
    assert api.call("GET", "/v1/floor/calls", "t2-floor").get_json()["total"] == 0
    seen, cursor = [], None
    while True:
        query = {"limit": 200, **({"cursor": cursor} if cursor else {})}
        page = api.call("GET", "/v1/floor/calls", "floor", query_string=query).get_json()
        seen += [c["call_id"] for c in page["calls"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 3000


def _played(api: Api, settings: Settings, table_id: str) -> None:
    """Hand 1 at ``table_id``: blinds, a raise, folds to the raiser; a ruling in hand 2."""
    assert api.start(table_id).status_code == 200
    for seat, action, extra in ((2, "post", {}), (3, "post", {}), (1, "raise", {"amount": 4}),
                                (2, "fold", {}), (3, "fold", {})):  # fmt: skip
        assert api.act(table_id, seat=seat, action=action, **extra).status_code == 200
    assert api.start(table_id, None).status_code == 200
    assert api.act(table_id, seat=3, action="check").status_code == 409  # refused: not its turn
    ruling = {"decision": "custom", "note": "dealer pushed the wrong stack", "effects": []}
    ruled = api.call("POST", f"/v1/tables/{table_id}/rulings", "floor", ruling)
    assert ruled.status_code == 200
    _drain(settings)


def test_the_audit_store_s_tables_and_hands_by_table_date_and_hand_number(
    api: Api, settings: Settings
) -> None:
    """The tables with their counts and pace; the hands newest first per table, by hand
    number and by the UTC day they started; a scoped auditor sees only its table."""
    _tables(api, "T1", "T2")
    _played(api, settings, "T1")
    _played(api, settings, "T2")
    tables = api.call("GET", "/v1/audit/tables", "auditor").get_json()["tables"]
    assert [t["table_id"] for t in tables] == ["T1", "T2"]
    t1 = tables[0]
    assert t1["hands_ended"] == 1 and t1["last_hand_no"] == 2 and t1["events"] > 8
    assert t1["pace"]["hands"] == 1 and t1["pace"]["hands_last_hour"] == 1
    hands = api.call("GET", "/v1/audit/hands?table_id=T1", "auditor").get_json()
    assert [(h["hand_no"], h["complete"]) for h in hands["hands"]] == [(2, False), (1, True)]
    assert hands["hands"][1]["winners"] == {"1": 5}  # 1 + 2 + 2 called of the 4
    one = api.call("GET", "/v1/audit/hands?hand_no=1", "auditor").get_json()
    assert [(h["table_id"], h["hand_no"]) for h in one["hands"]] == [("T1", 1), ("T2", 1)]
    day = hands["hands"][0]["started_at"][:10]
    assert api.call("GET", f"/v1/audit/hands?date={day}", "auditor").get_json()["total"] == 4
    assert api.call("GET", "/v1/audit/hands?date=2001-01-01", "auditor").get_json()["total"] == 0
    assert api.call("GET", "/v1/audit/hands?date=yesterday", "auditor").status_code == 400
    scoped = api.call("GET", "/v1/audit/tables", "t2-auditor").get_json()["tables"]
    assert [t["table_id"] for t in scoped] == ["T2"]
    mine = api.call("GET", "/v1/audit/hands", "t2-auditor").get_json()["hands"]
    assert {h["table_id"] for h in mine} == {"T2"}


def test_a_hand_replayed_step_by_step(api: Api, settings: Settings) -> None:
    """Each event of hand 1 with the entry, replayed as recorded, the table after it and the
    instructions; hand 2's refusal and ruling (decision, note) among its steps."""
    _tables(api, "T1")
    _played(api, settings, "T1")
    replay = api.call("GET", "/v1/audit/hands/T1/1/replay", "auditor").get_json()
    assert replay["verified"] is True and replay["complete"] is True
    steps = replay["steps"]
    assert [s["kind"] for s in steps] == ["start_hand"] + ["action"] * 5
    assert [s["command"].get("action") for s in steps[1:]] == ["post", "post", "raise", "fold",
                                                                "fold"]  # fmt: skip
    assert all(s["verified"] and s["table"]["hand"]["hand_no"] == 1 for s in steps)
    assert steps[0]["instructions"] and steps[2]["table"]["hand"]["total_pot"] == 3
    assert steps[-1]["result"] is not None and steps[-1]["table"]["result"]
    second = api.call("GET", "/v1/audit/hands/T1/2/replay", "auditor").get_json()
    kinds = [s["kind"] for s in second["steps"]]
    assert second["complete"] is False  # hand 2 is still played
    assert kinds[-2:] == ["rejected", "ruling"] and second["rulings"] == [
        second["steps"][-1]["seq"]
    ]
    assert second["steps"][-2]["refused"]["rule_id"]
    # the refusal as recorded (English) and what it said, read in the auditor's language
    refused = second["steps"][-2]["refused"]
    spanish = api.call(
        "GET", "/v1/audit/hands/T1/2/replay", "auditor", headers={"Accept-Language": "es"}
    ).get_json()["steps"][-2]["refused"]
    assert refused["message_id"] == spanish["message_id"] and refused["params"] == spanish["params"]
    assert spanish["rule_id"] == refused["rule_id"] and spanish["message"] != refused["message"]
    assert second["steps"][-1]["ruling"]["note"] == "dealer pushed the wrong stack"
    assert api.call("GET", "/v1/audit/hands/T1/9/replay", "auditor").status_code == 404
    assert api.call("GET", "/v1/audit/hands/T1/1/replay", "floor").status_code == 403
    assert api.call("GET", "/v1/audit/hands/T1/1/replay", "t2-auditor").status_code == 403


def test_a_replay_past_the_request_s_limit_is_a_422(
    api: Api, settings: Settings, services: Services
) -> None:
    """A table whose history up to the hand is longer than one request replays: 422."""
    _tables(api, "T1")
    _played(api, settings, "T1")
    small = replace(services, verify_limits=replace(services.verify_limits, max_events=5))
    app = create_app({"SETTINGS": settings, "SERVICES": small, "TOKENS": token_book()})
    answer = Api(app.test_client()).call("GET", "/v1/audit/hands/T1/2/replay", "auditor")
    assert answer.status_code == 422 and answer.get_json()["limit"] == 5


def test_the_floor_s_tables_with_open_calls_hand_and_pace(api: Api, settings: Settings) -> None:
    """Every table the floor may rule on, with its open calls and hand in play; the scoped
    floor sees T2 only."""
    _tables(api, "T1", "T2")
    _played(api, settings, "T1")
    assert _call(api, "T2").status_code == 201
    found = api.call("GET", "/v1/floor/tables", "floor").get_json()["tables"]
    by_id = {t["table_id"]: t for t in found}
    assert set(by_id) == {"T1", "T2"}
    assert (by_id["T1"]["hand_no"], by_id["T1"]["open_calls"]) == (2, 0)
    assert by_id["T2"]["open_calls"] == 1 and by_id["T2"]["newest_call_at"]
    assert by_id["T1"]["pace"]["hands"] == 1
    scoped = api.call("GET", "/v1/floor/tables", "t2-floor").get_json()["tables"]
    assert [t["table_id"] for t in scoped] == ["T2"]


@pytest.mark.parametrize("path", PATHS)
def test_a_scoped_token_naming_another_table_is_refused(api: Api, path: str) -> None:
    """On the routes that take a table ID a scoped token naming another is a 403."""
    _tables(api, "T1")
    who = "t2-floor" if path.startswith("/v1/floor") else "t2-auditor"
    if path.endswith("tables"):
        found = api.call("GET", path, who).get_json()["tables"]
        assert "T1" not in [t["table_id"] for t in found]
    else:
        assert api.call("GET", f"{path}?table_id=T1", who).status_code == 403
        assert api.call("GET", f"{path}?table_id=T2", who).status_code == 200


@pytest.mark.parametrize("path", PATHS)
def test_roles_on_the_browsing_routes(api: Api, path: str) -> None:
    """Floor routes: floor and admin; audit routes: auditor and admin; the rest 403."""
    allowed = {"floor", "admin"} if path.startswith("/v1/floor") else {"auditor", "admin"}
    for who in ("dealer", "floor", "auditor", "admin"):
        status = api.call("GET", path, who).status_code
        assert (status == 200) == (who in allowed), (who, status)
    assert api.call("GET", path, None).status_code == 401
