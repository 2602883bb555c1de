"""The SQL audit store (adapters.sql_store) on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from audit_chains import T0, interleaved, synthetic_events

from dealerassist.adapters.sql_store import SqlAuditStore
from dealerassist.errors import InvalidInput, Unavailable


def test_append_stores_events_and_reads_them_back_identically(sql_url: str) -> None:
    """Events come back equal to what was appended (hash input unchanged), ordered by table, seq."""
    store = SqlAuditStore(sql_url)
    events = interleaved(tables=3, per_table=12)
    assert store.append(events) == 36
    back = list(store.iter_events())
    assert back == sorted(events, key=lambda e: (e["table_id"], e["seq"]))
    store.dispose()


def test_append_is_idempotent(sql_url: str) -> None:
    """Appending the same and overlapping batches again stores only the new events."""
    store = SqlAuditStore(sql_url)
    events = list(synthetic_events("T1", 30))
    assert store.append(events[:20]) == 20
    assert store.append(events[:20]) == 0
    assert store.append(events[10:]) == 10
    assert store.count_events() == 30
    assert [e["seq"] for e in store.iter_events("T1")] == list(range(1, 31))
    store.dispose()


def test_hands_are_written_for_events_that_finish_a_hand(sql_url: str) -> None:
    """A finishing event writes its hand row: start, end, profile and result."""
    store = SqlAuditStore(sql_url)
    events = list(synthetic_events("T1", 25))
    store.append(events[:5])
    store.append(events[5:])
    hand = store.get_hand("T1", 2)
    assert hand is not None
    assert hand["started_at"] == events[10]["at"] and hand["ended_at"] == events[19]["at"]
    assert hand["result"] == {"winners": [1], "pot": 20}
    assert [e["seq"] for e in hand["events"]] == list(range(11, 21))
    assert hand["profile_id"] == "test"
    store.dispose()


def test_a_hand_in_play_has_no_result_and_an_unknown_hand_is_none(sql_url: str) -> None:
    """get_hand of a hand still in play has ended_at/result None; of no hand, None."""
    store = SqlAuditStore(sql_url)
    store.append(list(synthetic_events("T1", 25)))
    in_play = store.get_hand("T1", 3)
    assert in_play is not None and in_play["result"] is None and len(in_play["events"]) == 5
    assert store.get_hand("T1", 9) is None
    store.dispose()


def test_iter_events_filters_by_table_and_time(sql_url: str) -> None:
    """table_id, since (inclusive) and until (exclusive) select events."""
    store = SqlAuditStore(sql_url)
    store.append(interleaved(tables=2, per_table=10))
    since, until = T0 + timedelta(milliseconds=3), T0 + timedelta(milliseconds=6)
    selected = list(store.iter_events("T01", since=since, until=until))
    assert [(e["table_id"], e["seq"]) for e in selected] == [("T01", 3), ("T01", 4), ("T01", 5)]
    store.dispose()


def test_nothing_is_ever_updated(sql_url: str) -> None:
    """A second append with the same (table, seq) but other content keeps the first."""
    store = SqlAuditStore(sql_url)
    first = next(synthetic_events("T1", 1))
    store.append([first])
    store.append([{**first, "actor": "intruder"}])
    assert [e["actor"] for e in store.iter_events()] == ["dealer-1"]
    store.dispose()


def test_malformed_events_are_refused(sql_url: str) -> None:
    """An event with a missing or an extra field is InvalidInput, and nothing is stored."""
    store = SqlAuditStore(sql_url)
    event = next(synthetic_events("T1", 1))
    with pytest.raises(InvalidInput):
        store.append([{**event, "extra": 1}])
    with pytest.raises(InvalidInput):
        store.append([{k: v for k, v in event.items() if k != "actor"}])
    assert store.count_events() == 0
    store.dispose()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    """The SQLite store switches the database to write-ahead logging."""
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar_one() == "wal"
    store.dispose()


def test_a_missing_directory_is_unavailable_until_it_exists(tmp_path: Path) -> None:
    """A SQLite path in a missing directory raises Unavailable; once created, it works."""
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'later' / 'a.sqlite3'}")
    with pytest.raises(Unavailable):
        store.ping()
    with pytest.raises(Unavailable):
        store.append(list(synthetic_events("T1", 2)))
    (tmp_path / "later").mkdir()
    store.ping()
    assert store.append(list(synthetic_events("T1", 2))) == 2
    store.dispose()


def test_a_closed_postgresql_port_is_unavailable() -> None:
    """A PostgreSQL URL to a closed port raises Unavailable (HTTP 503), not a driver error."""
    store = SqlAuditStore("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=2")
    with pytest.raises(Unavailable):
        store.ping()
    with pytest.raises(Unavailable):
        list(store.iter_events())
    store.dispose()


def test_other_databases_are_refused() -> None:
    """Only SQLite and PostgreSQL URLs are accepted."""
    with pytest.raises(InvalidInput):
        SqlAuditStore("mysql+pymysql://u@localhost/x")


def test_a_reader_that_stops_early_leaves_no_cursor_open(sql_url: str) -> None:
    """Abandoning the event stream after one event closes its (server-side) cursor."""
    import gc

    store = SqlAuditStore(sql_url)
    store.append(list(synthetic_events("T1", 30)))
    stream = store.iter_events()
    assert next(stream)["seq"] == 1
    del stream
    gc.collect()
    assert store.count_events() == 30
    store.dispose()


def test_a_time_out_of_range_in_utc_is_invalid_input(tmp_path: Path) -> None:
    """A since/until that cannot be expressed in UTC is InvalidInput, not a crash."""
    store = SqlAuditStore(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    early = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))
    with pytest.raises(InvalidInput):
        list(store.iter_events(since=early))
    naive = datetime(2026, 11, 29, 12, 0, 0, 3000)
    store.append(list(synthetic_events("T1", 5)))
    assert [e["seq"] for e in store.iter_events(until=naive)] == [1, 2]
    assert [e["seq"] for e in store.iter_events(since=naive.replace(tzinfo=UTC))] == [3, 4, 5]
    store.dispose()
