"""The audit page (/audit) in a browser: verify a table's chain as a verification job (run by
serve's verification worker), and download its events (JSONL, CSV) and a hand (JSON, PHH),
each file the bytes the API answers."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import time
import tomllib
from pathlib import Path
from typing import Any

from e2e.conftest import (
    HAND,
    LANDSCAPE,
    PORTRAIT,
    SCREENSHOTS,
    Page,
    Served,
    fits_width,
    serious_accessibility_findings,
    set_viewport,
)


def _downloaded(page: Page, prefix: str, suffix: str) -> Path:
    """The finished download whose name starts with ``prefix`` and ends with ``suffix``."""

    def finished() -> Path | None:
        found = [
            p for p in page.downloads.iterdir() if p.name.startswith(prefix) and p.suffix == suffix
        ]
        return found[0] if len(found) == 1 and found[0].stat().st_size else None

    path: Path = page.until(finished, f"the download {prefix}*{suffix}")
    time.sleep(0.1)  # chromium renames the finished file into place: let it settle
    return path


def _the_verification_job(page: Page, service: Served) -> Any:
    """The one verification job the page started (POST) and polled (GET by its ID), as the
    API answers it now: read from the browser's own record of the requests it made."""
    fetched: list[str] = page.driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
    )
    polled = {
        url.rsplit("/", 1)[1]
        for url in fetched
        if re.search(r"/v1/audit/verifications/[0-9a-f]{32}$", url)
    }
    assert len(polled) == 1, fetched
    assert not [url for url in fetched if "/v1/audit/verify" in url and "verifications" not in url]
    return service.call("GET", f"/v1/audit/verifications/{polled.pop()}", "auditor")


def test_verify_and_the_downloads_of_a_played_hand(page: Page, service: Served) -> None:
    """After a whole hand, verify of the table (a job the page starts and polls) says
    verified with the API's counts; the
    events download as JSONL (every stored event, in seq order) and CSV, and the hand as
    JSON and PHH, each file byte for byte what the API exports."""
    service.start_hand("A1")
    for seat, _label, entry in HAND:
        last = service.act("A1", seat=seat, **entry)
    seq = last["event"]["seq"]
    service.stored_events("A1", lambda events: bool(events) and events[-1]["seq"] == seq)
    report = service.call("GET", "/v1/audit/verify?table_id=A1", "auditor")
    assert report["ok"] is True and report["events"] == seq and report["hands"] == 1

    page.open("audit", "auditor")
    page.type("verify-table", "A1")
    page.driver.find_element("css selector", "#verify-form button[type=submit]").click()
    shown = page.until(
        lambda: page.by_id("report").is_displayed() and page.text("report"), "report", 30
    )
    assert shown.splitlines()[0] == "✔ Audit log verified"
    rows = {
        row.find_element("css selector", "th").text: row.find_element("css selector", "td").text
        for row in page.css("#report tr")
    }
    assert rows["Scope"] == "table A1" and rows["Events checked"] == str(seq)
    assert rows["Hands replayed"] == "1" and rows["Problems"] == "0"
    assert not page.by_id("verify-status").is_displayed()
    job = _the_verification_job(page, service)
    assert job["status"] == "finished" and job["table_id"] == "A1"
    assert job["result"] == report

    page.type("events-table", "A1")
    for fmt, suffix in (("jsonl", ".jsonl"), ("csv", ".csv")):
        page.driver.find_element("css selector", f'#events-form button[value="{fmt}"]').click()
        saved = _downloaded(page, "audit-events-A1-", suffix)
        expected = service.text(f"/v1/audit/events?table_id=A1&format={fmt}", "auditor")
        assert saved.read_text() == expected
        assert page.message().startswith(f"Saved {saved.name} (")
    jsonl = _downloaded(page, "audit-events-A1-", ".jsonl").read_text().splitlines()
    assert [json.loads(line)["seq"] for line in jsonl] == list(range(1, seq + 1))
    with _downloaded(page, "audit-events-A1-", ".csv").open(newline="") as saved_csv:
        rows_csv = list(csv.DictReader(saved_csv))
    assert [int(row["seq"]) for row in rows_csv] == list(range(1, seq + 1))
    assert rows_csv[-1]["hash"] == json.loads(jsonl[-1])["hash"]

    page.type("hand-table", "A1")
    page.type("hand-no", "1")
    for fmt in ("json", "phh"):
        page.driver.find_element("css selector", f'#hand-form button[value="{fmt}"]').click()
        saved = _downloaded(page, "hand-A1-1", f".{fmt}")
        assert saved.read_text() == service.text(f"/v1/audit/hands/A1/1?format={fmt}", "auditor")
    hand = json.loads(_downloaded(page, "hand-A1-1", ".json").read_text())["hand"]
    assert hand["result"]["stacks"] == {"1": 109, "2": 99, "3": 92}
    phh = tomllib.loads(_downloaded(page, "hand-A1-1", ".phh").read_text())
    assert phh["players"] == ["Bob", "Cy", "Ann"]  # from the small blind
    assert phh["finishing_stacks"] == [99, 92, 109]


def test_verify_of_every_table_shows_a_tampered_event(
    page: Page, service: Served, served: Any
) -> None:
    """An event rewritten in the SQLite store behind the service: verify of all tables (no
    table ID) runs as a job and the page lists the problem with its table and seq."""
    _base, data_dir, _process = served
    service.create_table("A2", {1: "Ann", 2: "Bob"})
    service.create_table("A3", {1: "Cy"})
    service.stored_events("A2", lambda events: len(events) == 3)
    service.stored_events("A3", lambda events: len(events) == 2)
    with sqlite3.connect(data_dir / "audit.sqlite3") as store:
        store.execute(
            "UPDATE events SET payload = json_set(payload, '$.command.stack', 99999)"
            " WHERE table_id = 'A2' AND seq = 2"
        )
    page.open("audit", "auditor")
    page.driver.find_element("css selector", "#verify-form button[type=submit]").click()
    shown = page.until(
        lambda: page.by_id("report").is_displayed() and page.text("report"), "report", 30
    )
    assert shown.splitlines()[0] == "✘ Problems found"
    tables = page.css("#report table")
    rows = {
        row.find_element("css selector", "th").text: row.find_element("css selector", "td").text
        for row in tables[0].find_elements("css selector", "tr")
    }
    assert rows["Scope"] == "all tables" and rows["Events checked"] == "5"
    problems = [
        [cell.text for cell in row.find_elements("css selector", "td")]
        for row in tables[1].find_elements("css selector", "tr")[1:]
    ]
    assert problems and {(table, seq) for table, seq, _why in problems} == {("A2", "2")}
    job = _the_verification_job(page, service)
    assert job["table_id"] is None and len(job["result"]["problems"]) == len(problems)


def test_a_hand_replay_on_the_audit_page(page: Page, service: Served) -> None:
    """The auditor lists the tables, finds table R's hands (by table, by hand number, by
    date), and replays hand 1 step by step: each entry with "replays as recorded", the
    table after it and the instructions given, the floor's ruling with its note; the arrow
    keys step too. Verify of a table with no events is not a green "verified". The page
    fits 1024 px and 768 px and axe finds nothing serious or critical."""
    service.start_hand("R")
    for seat, _label, entry in HAND[:3]:
        service.act("R", seat=seat, **entry)
    ruling = {"decision": "custom", "note": "seat 2 asked for time: none taken", "effects": []}
    last = service.call("POST", "/v1/tables/R/rulings", "floor", ruling)
    for seat, _label, entry in HAND[3:]:
        last = service.act("R", seat=seat, **entry)
    seq = last["event"]["seq"]
    service.stored_events("R", lambda events: bool(events) and events[-1]["seq"] == seq)
    set_viewport(page.driver, LANDSCAPE)
    try:
        page.open("audit", "auditor")
        page.until(lambda: page.css("#audit-tables th[scope=row]"), "the tables")
        assert "R" in [c.text for c in page.css("#audit-tables th[scope=row]")]
        page.by_id("hands-no").send_keys("1")
        page.driver.find_element("css selector", "#hands-form button[type=submit]").click()
        page.until(lambda: page.text("hands-status") == "1 hand found (hand #1).", "by number")
        assert page.css('#hands button[data-hand="R/1"]')
        page.type("hands-table", "R")
        page.by_id("hands-no").clear()
        page.driver.execute_script(
            "document.getElementById('hands-date').value = new Date().toISOString().slice(0, 10)"
        )
        page.driver.find_element("css selector", "#hands-form button[type=submit]").click()
        day = page.driver.execute_script("return document.getElementById('hands-date').value")
        found = f"1 hand found (table R, {day})."
        page.until(lambda: page.text("hands-status") == found, "by table and date")
        page.css('#hands button[data-hand="R/1"]')[0].click()

        title = page.until(
            lambda: page.by_id("replay").is_displayed() and page.text("replay-title"), "replay"
        )
        assert title == "Table R, hand #1: 14 entries, 1 ruling · every step replays as recorded"
        assert page.text("replay-position") == "Step 1 of 14"
        assert "Hand started, button seat 1" in page.text("replay-step")
        assert "Deal five cards" not in page.text("instructions")
        page.by_id("replay-next").click()
        page.by_id("replay-next").click()
        page.until(lambda: page.text("replay-position") == "Step 3 of 14", "step 3")
        assert "seat 3 post" in page.text("replay-step")
        assert "✔ Replays as recorded" in page.text("replay-step")
        assert "Deal five cards to each of seats 2, 3, 1" in page.text("instructions")
        assert page.stacks()[3] == 98
        page.driver.find_element("css selector", "body").send_keys("\ue014\ue014")  # → →
        page.until(lambda: page.text("replay-position") == "Step 5 of 14", "step 5 by keys")
        assert "Ruling: custom — “seat 2 asked for time: none taken”" in page.text("replay-step")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.driver.execute_script("document.getElementById('replay').scrollIntoView()")
        page.driver.save_screenshot(str(SCREENSHOTS / "audit.png"))
        page.by_id("replay-last").click()
        page.until(lambda: "seat 3 show" in page.text("replay-step"), "the last step")
        assert "Main pot 17: seat 1 gets 17" in page.text("result")
        assert fits_width(page.driver)
        assert serious_accessibility_findings(page.driver) == []

        page.type("verify-table", "NOPE")
        page.driver.find_element("css selector", "#verify-form button[type=submit]").click()
        verdict = page.until(
            lambda: page.by_id("report").is_displayed() and page.text("report"), "report", 30
        )
        assert (
            verdict.splitlines()[0]
            == "⚠ Nothing verified: the audit store has no events of table NOPE"
        )
        assert not page.css("#report .verdict.ok")
        set_viewport(page.driver, PORTRAIT)
        assert page.until(lambda: fits_width(page.driver), "the audit page in 768 px")
    finally:
        set_viewport(page.driver, None)
