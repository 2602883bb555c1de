"""`dealerassist serve`'s /metrics and log lines: the gunicorn workers' and the audit
worker's counts summed in one scrape, and JSON log lines carrying the request ID."""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request
from typing import Any

from metrics_text import samples, value
from serving import call, served, status, wait

from dealerassist.api.auth import read_plain_tokens

__all__ = ["served"]  # the fixture, from tests/serving.py

TABLE = {
    "table_id": "M1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}
READS = 30


def test_one_scrape_sums_every_process_of_serve(served: Any) -> None:
    """Thirty reads spread over the two web workers are thirty in the scrape; the audit
    worker's drain (a process of its own) is in it too, as are its files; a request's
    X-Request-ID is in serve's JSON log line of its answer; SIGTERM then stops it all."""
    base, data_dir, process = served
    tokens = read_plain_tokens(data_dir / "tokens.toml")
    assert call(f"{base}/v1/tables", tokens["admin"], TABLE, "POST")[0] == 201
    seat = {"player": "Ann", "stack": 50}
    assert call(f"{base}/v1/tables/M1/seats/1", tokens["dealer"], seat, "PUT")[0] == 200
    for _ in range(READS):  # a new connection each: the kernel spreads them over the workers
        assert call(f"{base}/v1/tables/M1", tokens["dealer"])[0] == 200
    request = urllib.request.Request(f"{base}/v1/tables/M1", headers={"X-Request-ID": "scrape-77"})
    assert status_of(request) == 401
    assert status(f"{base}/metrics", tokens["dealer"], None, "GET") == 403

    def drained() -> Any:
        found = samples(call(f"{base}/metrics", tokens["monitor"])[1])
        return found if value(found, "dealerassist_drained_events_total") >= 2 else None

    found = wait(drained, 30)
    reads = {"method": "GET", "route": "/v1/tables/<table_id>", "status": "200"}
    assert value(found, "dealerassist_http_request_duration_seconds_count", reads) == READS
    assert value(found, "dealerassist_drain_lag_seconds_count") >= 1
    assert value(found, "dealerassist_audit_backlog_events", {"redis": "redis"}) == 0
    assert value(found, "dealerassist_workers_live", {"redis": "redis", "queue": "audit"}) == 1
    pids = {path.stem.rsplit("_", 1)[1] for path in (data_dir / "metrics").glob("*.db")}
    assert len(pids) >= 3, pids  # two web workers and the audit worker at least
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    output = process.stdout.read().decode()
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    mine = [line for line in lines if line.get("request_id") == "scrape-77"]
    assert len(mine) == 1, output
    assert mine[0]["status"] == 401 and mine[0]["table"] == "M1"
    assert any(line["logger"] == "gunicorn.error" for line in lines)  # gunicorn's too


def status_of(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
