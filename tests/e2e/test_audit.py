"""The audit page (/audit) in a browser: verify a table's chain, and download its events
(JSONL, CSV) and a hand (JSON, PHH), each file the bytes the API answers."""

from __future__ import annotations

import csv
import json
import time
import tomllib
from pathlib import Path

from e2e.conftest import HAND, Page, Served


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


def test_verify_and_the_downloads_of_a_played_hand(page: Page, service: Served) -> None:
    """After a whole hand, verify of the table says verified with the API's counts; the
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
        lambda: page.by_id("report").is_displayed() and page.text("report"), "report"
    )
    assert shown.splitlines()[0] == "✔ Audit log verified"
    rows = {
        row.find_element("css selector", "th").text: row.find_element("css selector", "td").text
        for row in page.css("#report tr")
    }
    assert rows["Scope"] == "table A1" and rows["Events checked"] == str(seq)
    assert rows["Hands replayed"] == "1" and rows["Problems"] == "0"

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
