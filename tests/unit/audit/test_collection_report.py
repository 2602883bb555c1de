"""The cage's collection report from the audit log (RAKE-01..05): per gaming day, table and
dealer, the time collected, the jackpot's running total, and the check against the hands."""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from fakes import fake_services

from dealerassist.audit.collection_report import check_report, collection_report, to_csv_lines
from dealerassist.profiles import get_profile
from dealerassist.rules.model.house_rules import Collection
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import AnswerKind

LIMIT = {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20}
PRE = use_cases.Preconditions()
SHOWDOWN = [
    *["2 post", "3 post", "1 call", "2 call", "3 check", "2 draw 1", "3 draw 2", "1 draw 3"],
    *["2 check", "3 bet 20", "1 call", "2 fold", "3 show Ah Ad Kc Qs 2h", "1 muck"],
]
WALK = ["2 post", "3 post", "1 fold", "2 fold"]


def _ok(answer: Any) -> None:
    assert answer.kind is not AnswerKind.REJECTED, answer.body


def _session(profile_id: str = "casino-five-card-draw-raked", **rake: Any) -> Any:
    """Three hands at table C1 of a raked (or timed) profile: dealer-1 deals a pot of 70 at
    05:00 on Nov 29, dealer-2 a walk at 07:00 and the pot of 70 again at 12:00 (the seats
    named for the button on seat 1, turned with the button)."""
    rules = get_profile(profile_id)
    rules = replace(rules, rake=replace(rules.rake, **rake))
    services = fake_services({profile_id: rules})
    admin = use_cases.Actor("admin", "admin")
    spec = {"table_id": "C1", "variant": "five_card_draw", "structure": "fixed_limit"}
    spec |= {"stakes": LIMIT, "profile_id": profile_id, "mode": "count"}
    _ok(use_cases.create_table(services, spec, admin, PRE))
    for seat in (1, 2, 3):
        _ok(use_cases.seat_player(services, "C1", seat, f"P{seat}", 500, admin, PRE))
    hands = ((5, "dealer-1", SHOWDOWN), (7, "dealer-2", WALK), (12, "dealer-2", SHOWDOWN))
    for moved, (hour, dealer, steps) in enumerate(hands):  # the button moves one seat a hand
        services.clock.at = datetime(2026, 11, 29, hour, 0, tzinfo=UTC)
        actor = use_cases.Actor(dealer, "dealer")
        _ok(use_cases.start_hand(services, "C1", 1 if moved == 0 else None, actor, PRE))
        for step in steps:
            seat, action, *rest = step.split(maxsplit=2)
            body: dict[str, Any] = {"seat": (int(seat) + moved - 1) % 3 + 1, "action": action}
            if rest:
                key = {"bet": "amount", "draw": "count", "show": "cards"}[action]
                body[key] = int(rest[0]) if key != "cards" else rest[0]
            _ok(use_cases.submit_action(services, "C1", body, actor, PRE))
    return list(services.tables.staged)


def test_RAKE_03_accepts_the_report_by_gaming_day_dealer_and_the_jackpot_running_total() -> None:
    """The gaming day starts at 06:00: the 05:00 hand is Nov 28's. Each pot of 70 pays 4 rake
    and 1 jackpot drop; the walk pays nothing (no draw, no drop). The jackpot runs 1, then 2."""
    report = collection_report(_session(), day_start_hour=6)
    rows = [
        (r["gaming_day"], r["dealer"], r["hands"], r["rake"], r["jackpot_drop"])
        for r in report["rows"]
    ]
    assert rows == [("2026-11-28", "dealer-1", 1, 4, 1), ("2026-11-29", "dealer-2", 2, 4, 1)]
    assert report["by_dealer"]["dealer-2"] == {"hands": 2, "rake": 4, "jackpot_drop": 1, "time": 0}
    assert report["jackpot"]["by_day"] == [
        {"gaming_day": "2026-11-28", "drop": 1, "running": 1},
        {"gaming_day": "2026-11-29", "drop": 1, "running": 2},
    ]
    assert check_report(report, _session()) == {"ok": True, "hands": 3, "problems": []}
    assert next(to_csv_lines(report)) == "gaming_day,table_id,dealer,hands,rake,jackpot_drop,time\n"


def test_RAKE_05_accepts_time_collection_in_the_report() -> None:
    """Time, 6 a seat every 60 minutes, no rake: at 05:00 the three seats pay (18); at 07:00 a
    new period, 18 again; at 12:00 another, 18: 54 in all, 36 by dealer-2."""
    events = _session("casino-five-card-draw", collection=Collection.TIME, time_amount=6,
                      time_period_minutes=60)  # fmt: skip
    report = collection_report(events)
    assert report["total"] == {"hands": 3, "rake": 0, "jackpot_drop": 0, "time": 54}
    assert report["by_dealer"]["dealer-2"]["time"] == 36
    assert check_report(report, events)["ok"]


def test_RAKE_01_refuses_a_report_that_is_not_the_sum_of_the_hands() -> None:
    """A report altered after the fact (one more chip of rake) and a log whose recorded result
    disagrees with its pots are both named by the check."""
    events = _session()
    report = collection_report(events)
    altered = copy.deepcopy(report)
    altered["by_table"]["C1"]["rake"] += 1
    checked = check_report(altered, events)
    assert not checked["ok"] and checked["problems"][0].startswith("table C1: report")
    tampered = copy.deepcopy(events)
    last = next(e for e in reversed(tampered) if (e["payload"].get("result") or {}).get("rake"))
    last["payload"]["result"]["rake"] = 3
    problems = check_report(collection_report(tampered), tampered)["problems"]
    assert "hand 3: rake 3 recorded, its pots hold 4" in problems[0]
