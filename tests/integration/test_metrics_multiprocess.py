"""prometheus_client's multi-process mode as serve runs it: processes that share a
PROMETHEUS_MULTIPROC_DIR are summed by whichever one answers the scrape, whether or not
prometheus_client was imported before the directory was set."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from metrics_text import samples, value

from dealerassist.telemetry import metrics as telemetry

# One app instance in a process of its own: prometheus_client imported first (as serve's
# master does, before it knows its data directory), then the directory set, then the app.
CHILD = textwrap.dedent(
    """
    import os, sys
    import prometheus_client  # imported before the directory is known
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = sys.argv[1]
    from pathlib import Path
    from dealerassist.api import create_app
    from dealerassist.api.auth import TokenBook
    from dealerassist.settings import Settings
    from dealerassist.telemetry.metrics import record_verification
    app = create_app({"SETTINGS": Settings(data_dir=Path(sys.argv[1])), "TOKENS": TokenBook()})
    client = app.test_client()
    for _ in range(int(sys.argv[2])):
        assert client.get("/healthz").status_code == 200
    record_verification("job", sys.argv[3] == "ok", float(sys.argv[4]))
    print(os.getpid())
    """
)


def run_child(directory: Path, requests: int, result: str, at: float) -> int:
    env = {k: v for k, v in os.environ.items() if k != telemetry.MULTIPROC_ENV}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(directory), str(requests), result, str(at)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_two_processes_are_summed_and_the_last_result_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two app instances count 3 and 4 answers of /healthz: the scrape says 7. The second
    verification (failed, later) is the last result, though the first process is gone; a
    dead process's counts stay in the sums after ``mark_dead``."""
    directory = tmp_path / "metrics"
    directory.mkdir()
    first = run_child(directory, 3, "ok", 1000.0)
    second = run_child(directory, 4, "failed", 2000.0)
    assert first != second
    assert {f"counter_{first}.db", f"histogram_{second}.db"} <= {
        p.name for p in directory.iterdir()
    }
    monkeypatch.setenv(telemetry.MULTIPROC_ENV, str(directory))
    telemetry.mark_dead(first)
    found = samples(telemetry.exposition().decode())
    healthz = {"method": "GET", "route": "/healthz", "status": "200"}
    assert value(found, "dealerassist_http_request_duration_seconds_count", healthz) == 7
    job_ok = {"kind": "job", "result": "ok"}
    job_failed = {"kind": "job", "result": "failed"}
    assert value(found, "dealerassist_verifications_total", job_ok) == 1
    assert value(found, "dealerassist_verifications_total", job_failed) == 1
    assert value(found, "dealerassist_verification_last_failed") == 1
    assert value(found, "dealerassist_verification_last_timestamp_seconds") == 2000.0


def test_serve_empties_the_directory_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An earlier run's files are counts of processes that are gone (whose pids may be
    reused): serve starts from an empty <data dir>/metrics and its children inherit it."""
    monkeypatch.delenv(telemetry.MULTIPROC_ENV, raising=False)
    stale = tmp_path / "metrics" / "counter_1.db"
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    directory = telemetry.prepare_multiprocess_dir(tmp_path)
    assert directory == tmp_path / "metrics" and list(directory.iterdir()) == []
    assert os.environ[telemetry.MULTIPROC_ENV] == str(directory)
