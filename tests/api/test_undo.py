"""POST /v1/tables/{table_id}/undo: the dealer takes back the entry just made, before the
next one, as a correction in the audit log (a void_last ruling by the dealer), never a
deletion; refused once anything else was entered or the hand is over."""

from __future__ import annotations

import json
from typing import Any

from api.conftest import Api
from dealerassist.settings import Settings
from dealerassist.worker import run_worker


def _posted(api: Api) -> int:
    api.ready_hand("T1")
    version = 0
    for seat in (2, 3):
        response = api.act("T1", seat=seat, action="post")
        assert response.status_code == 200
        version = response.get_json()["version"]
    return int(version)


def _undo(api: Api, version: int | None, who: str = "dealer", body: Any = None) -> Any:
    headers = {} if version is None else {"If-Match": f'"v{version}"'}
    return api.call("POST", "/v1/tables/T1/undo", who, body, headers=headers)


def test_the_dealer_takes_back_a_wrong_tap_as_a_correction(api: Api, settings: Settings) -> None:
    """Seat 1 folded by a wrong tap: the undo at the fold's version gives seat 1 the turn
    again, with its cards (not folded); the audit log keeps the fold and adds the dealer's
    void_last ruling after it, and the chain verifies."""
    _posted(api)
    fold = api.act("T1", seat=1, action="fold").get_json()
    response = _undo(api, fold["version"], body={"note": "wrong button"})
    assert response.status_code == 200, response.get_json()
    table = response.get_json()
    assert table["version"] == fold["version"] + 1
    assert table["next"]["seat"] == 1
    assert not next(p for p in table["hand"]["players"] if p["seat"] == 1)["folded"]
    assert api.act("T1", seat=1, action="call").status_code == 200  # the right entry now
    assert settings.redis_url is not None
    run_worker(settings.redis_url, settings.database_url, burst=True, with_scheduler=False)
    exported = api.call("GET", "/v1/audit/events?table_id=T1", "auditor").get_data(as_text=True)
    events = [json.loads(line) for line in exported.splitlines()]
    text = [json.dumps(e) for e in events]
    fold_at = next(i for i, t in enumerate(text) if '"fold"' in t)
    ruling_at = next(i for i, e in enumerate(events) if e["kind"] == "ruling")
    assert fold_at < ruling_at  # the fold stays; the correction comes after it
    assert "void_last" in text[ruling_at] and "wrong button" in text[ruling_at]
    assert "dealer" in text[ruling_at]  # who took it back
    report = api.call("GET", "/v1/audit/verify?table_id=T1", "auditor").get_json()
    assert report["ok"] is True, report["problems"]


def test_an_undo_after_the_next_entry_is_refused_and_changes_nothing(api: Api) -> None:
    """The undo names the version the entry produced: after the next entry it is a 412;
    without If-Match a 400; an auditor gets 403; none moves the table."""
    version = _posted(api)
    assert _undo(api, version - 1).status_code == 412  # seat 3's post came after seat 2's
    assert _undo(api, None).status_code == 400
    assert _undo(api, version, who="auditor").status_code == 403
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == version


def test_an_undo_of_a_hand_that_is_over_is_refused(api: Api) -> None:
    """Folded to the big blind, the hand is over: 409 (IRREG-15, call the floor)."""
    _posted(api)
    api.act("T1", seat=1, action="fold")
    last = api.act("T1", seat=2, action="fold").get_json()
    assert last["hand"]["phase"] == "complete"
    response = _undo(api, last["version"])
    assert response.status_code == 409
    assert response.get_json()["rule_id"] == "IRREG-15"
    assert api.call("GET", "/v1/tables/T1").get_json()["version"] == last["version"]
