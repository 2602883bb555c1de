"""The audit subcommands: dealerassist worker, verify, export and requeue-failed."""

from __future__ import annotations

import csv
import json
import os
import pty
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa
from audit_chains import interleaved, stage

from dealerassist.adapters.rq_audit_queue import RQAuditQueue
from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.audit.chain import event_hash

REPO = Path(__file__).resolve().parents[2]


def _run(
    args: list[str], env: dict[str, str], stdout: int = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealerassist.cli", *args],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def stored(redis_client: redis.Redis, redis_url: str, tmp_path: Path) -> dict[str, str]:
    """60 events over 3 tables in a SQLite store; the environment that names it."""
    url = f"sqlite:///{tmp_path / 'audit.sqlite3'}"
    store = SqlAuditStore(url)
    store.append(interleaved(tables=3, per_table=20))
    store.dispose()
    return {"REDIS_URL": redis_url, "DATABASE_URL": url}


def test_worker_burst_drains_and_verify_says_ok(
    redis_client: redis.Redis, redis_url: str, tmp_path: Path
) -> None:
    """`worker --burst` drains what was staged; `verify --no-replay` prints ok and exits 0."""
    stage(RQAuditQueue(redis_client), redis_client, interleaved(tables=3, per_table=20))
    env = {"REDIS_URL": redis_url, "DATABASE_URL": f"sqlite:///{tmp_path / 'audit.sqlite3'}"}
    done = _run(["worker", "--burst", "--no-scheduler", "--log-level", "ERROR"], env)
    assert done.returncode == 0, done.stderr
    assert RQAuditQueue(redis_client).depth() == 0
    done = _run(["verify", "--no-replay"], env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"ok": True, "events": 60, "hands": 6, "problems": []}


def test_verify_exits_1_and_names_a_changed_event(stored: dict[str, str]) -> None:
    """A changed actor in one stored event makes verify exit 1 naming that table and seq."""
    store = SqlAuditStore(stored["DATABASE_URL"])
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE events SET actor = 'x' WHERE table_id = 'T01' AND seq = 4"))
    store.dispose()
    done = _run(["verify", "--no-replay"], stored)
    assert done.returncode == 1
    problems = json.loads(done.stdout)["problems"]
    assert [(p["table_id"], p["seq"]) for p in problems] == [("T01", 4)]


def test_verify_without_no_replay_reports_unreplayable_tables(stored: dict[str, str]) -> None:
    """Full verify replays: synthetic tables without create_table are problems, not a crash."""
    done = _run(["verify", "--table", "T00"], stored)
    assert done.returncode == 1
    [problem] = json.loads(done.stdout)["problems"]
    assert problem["table_id"] == "T00" and "create_table" in problem["why"]


def test_export_jsonl_to_a_file_then_verify_the_file(
    stored: dict[str, str], tmp_path: Path
) -> None:
    """export writes one event a line with hashes; verify --file checks the export offline."""
    out = tmp_path / "audit.jsonl"
    done = _run(["export", "--format", "jsonl", "-o", str(out)], stored)
    assert done.returncode == 0, done.stderr
    assert "exported 60 events" in done.stderr and done.stdout == ""
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 60
    assert all(event_hash(json.loads(line)) == json.loads(line)["hash"] for line in lines)
    checked = _run(["verify", "--no-replay", "--file", str(out)], {})
    assert checked.returncode == 0 and json.loads(checked.stdout)["events"] == 60


def test_export_csv_of_one_table_to_stdout(stored: dict[str, str]) -> None:
    """export --format csv --table T02 -o - writes the header and that table's rows."""
    done = _run(["export", "--format", "csv", "--table", "T02", "-o", "-"], stored)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(done.stdout.splitlines()))
    assert [row["seq"] for row in rows] == [str(seq) for seq in range(1, 21)]
    assert {row["table_id"] for row in rows} == {"T02"}


def test_export_shows_a_progress_bar_only_on_a_terminal(
    stored: dict[str, str], tmp_path: Path
) -> None:
    """With stdout a terminal (a pty) the export draws a bar there; piped, it does not."""
    controller, terminal = pty.openpty()
    try:
        done = _run(["export", "-o", str(tmp_path / "a.jsonl")], stored, stdout=terminal)
        assert done.returncode == 0
        shown = os.read(controller, 4096).decode()
    finally:
        os.close(controller)
        os.close(terminal)
    assert "[" + "#" * 30 + "] 60/60" in shown
    piped = _run(["export", "-o", str(tmp_path / "b.jsonl")], stored)
    assert "#" not in piped.stdout


def test_export_since_until_select_by_time(stored: dict[str, str]) -> None:
    """--since/--until take ISO 8601 times (UTC when no zone is given)."""
    args = [
        "export",
        "-o",
        "-",
        "--since",
        "2026-11-29T12:00:00.005",
        "--until",
        "2026-11-29T12:00:00.007Z",
    ]
    done = _run(args, stored)
    seqs = [json.loads(line)["seq"] for line in done.stdout.splitlines()]
    assert seqs == [5, 6, 5, 6, 5, 6]


def test_requeue_failed_reports_how_many(stored: dict[str, str]) -> None:
    """requeue-failed prints the number of failed jobs it put back (none here)."""
    done = _run(["requeue-failed"], stored)
    assert done.returncode == 0 and done.stdout.strip() == "requeued 0 failed audit jobs"


def test_an_unreachable_store_is_a_clean_error(tmp_path: Path) -> None:
    """verify against a store that cannot be opened exits 2 with one line, no traceback."""
    done = _run(["verify"], {"DATABASE_URL": f"sqlite:///{tmp_path / 'no' / 'a.sqlite3'}"})
    assert done.returncode == 2
    assert "audit store unavailable" in done.stderr and "Traceback" not in done.stderr


def test_export_phh_writes_one_section_per_finished_hand(stored: dict[str, str]) -> None:
    """export --format phh writes the finished hands of a table as .phhs sections."""
    done = _run(["export", "--format", "phh", "--table", "T01", "-o", "-"], stored)
    assert done.returncode == 0, done.stderr
    sections = tomllib.loads(done.stdout)
    assert sorted(sections) == ["1", "2"]
    assert [sections[key]["hand"] for key in ("1", "2")] == [1, 2]
    assert sections["2"]["_table_id"] == "T01"
