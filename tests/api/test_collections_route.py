"""GET /v1/audit/collections: the cage's report of rake, jackpot drop and time per gaming
day, table and dealer, over a real Redis, RQ worker and SQLite store (RAKE-01..05)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask

from api.conftest import SECRETS, Api, token_book
from dealerassist.api import create_app
from dealerassist.api.auth import Role, Token, TokenBook, digest
from dealerassist.service.ports import Services
from dealerassist.settings import Settings
from dealerassist.worker import run_worker

RAKED = {
    "profile": "casino-five-card-draw-raked",
    "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
}
STEPS: list[dict[str, Any]] = [
    {"seat": 2, "action": "post"},
    {"seat": 3, "action": "post"},
    {"seat": 1, "action": "call"},
    {"seat": 2, "action": "call"},
    {"seat": 3, "action": "check"},
    {"seat": 2, "action": "draw", "count": 1},
    {"seat": 3, "action": "draw", "count": 2},
    {"seat": 1, "action": "draw", "count": 3},
    {"seat": 2, "action": "check"},
    {"seat": 3, "action": "bet", "amount": 20},
    {"seat": 1, "action": "call"},
    {"seat": 2, "action": "fold"},
    {"seat": 3, "action": "show", "cards": "Ah Ad Kc Qs 2h"},
    {"seat": 1, "action": "muck"},
]
T2_AUDITOR = "t2-auditor-secret"


@pytest.fixture
def scoped_app(settings: Settings, services: Services) -> Flask:
    """The app with one more token: an auditor limited to table T2."""
    scoped = Token("t2-auditor", Role.AUDITOR, digest(T2_AUDITOR), frozenset({"T2"}))
    tokens = TokenBook([*token_book().tokens, scoped])
    return create_app({"SETTINGS": settings, "SERVICES": services, "TOKENS": tokens})


def _raked_hand(api: Api, table_id: str) -> None:
    """A pot of 70 after the draw: rake 4, jackpot 1 (casino-five-card-draw-raked)."""
    assert api.create_table(table_id=table_id, **RAKED).status_code == 201
    for seat in (1, 2, 3):
        assert api.seat(table_id, seat, f"P{seat}", 500).status_code == 200
    assert api.start(table_id).status_code == 200
    for step in STEPS:
        response = api.act(table_id, **step)
        assert response.status_code == 200, response.get_json()


def _report(client: Any, query: str, secret: str) -> Any:
    headers = {"Authorization": f"Bearer {secret}"}
    return client.get(f"/v1/audit/collections{query}", headers=headers)


def test_RAKE_01_accepts_the_collection_report_as_the_sum_of_the_hands(
    scoped_app: Flask, settings: Settings
) -> None:
    """Two tables each take 4 rake and 1 jackpot drop: one row per gaming day, table and
    dealer, totals by table, dealer and day, the jackpot's running total (2), and the check
    against the hands ok; CSV gives the rows. A token scoped to T2 sees only T2 and is
    refused T1 (403); a bad day_start_hour is a 400 problem."""
    api = Api(scoped_app.test_client())
    _raked_hand(api, "T1")
    _raked_hand(api, "T2")
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    client = scoped_app.test_client()
    report = _report(client, "", SECRETS["auditor"]).get_json()
    day = report["rows"][0]["gaming_day"]
    row = {"gaming_day": day, "dealer": "dealer", "hands": 1, "rake": 4, "jackpot_drop": 1}
    row["time"] = 0
    assert report["rows"] == [row | {"table_id": "T1"}, row | {"table_id": "T2"}]
    assert report["total"] == {"hands": 2, "rake": 8, "jackpot_drop": 2, "time": 0}
    assert report["by_dealer"] == {"dealer": report["total"]}
    by_day = [{"gaming_day": day, "drop": 2, "running": 2}]
    assert report["jackpot"] == {"total": 2, "by_day": by_day}
    assert report["check"] == {"ok": True, "hands": 2, "problems": []}
    as_csv = _report(client, "?format=csv", SECRETS["admin"])
    assert as_csv.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(as_csv.get_data(as_text=True))))
    assert [(r["table_id"], r["rake"], r["jackpot_drop"]) for r in rows] == [
        ("T1", "4", "1"),
        ("T2", "4", "1"),
    ]
    scoped = _report(client, "", T2_AUDITOR).get_json()
    assert [r["table_id"] for r in scoped["rows"]] == ["T2"] and scoped["check"]["ok"]
    assert _report(client, "?table_id=T1", T2_AUDITOR).status_code == 403
    assert _report(client, "", SECRETS["dealer"]).status_code == 403
    bad = _report(client, "?day_start_hour=24", SECRETS["auditor"])
    assert bad.status_code == 400 and bad.mimetype == "application/problem+json"
