"""`dealerassist serve` looks after what it starts: a killed audit worker, verification
worker or embedded Redis is started again, and play and the drain go on (issue 19, point 7)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import urllib.error
from pathlib import Path
from typing import Any

from serving import call, start_serve, wait

from dealerassist.api.auth import read_plain_tokens

TABLE = {
    "table_id": "S1",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 1, "big_blind": 2, "small_bet": 2, "big_bet": 4},
    "profile": "casino-five-card-draw",
}


class Output:
    """serve's output, read as it comes by a thread."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.lines: list[str] = []
        assert process.stdout is not None
        self.stream = process.stdout
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for raw in self.stream:
            self.lines.append(raw.decode(errors="replace"))

    def pid(self, pattern: str, after: int = 0) -> int:
        """The pid in the first line from ``after`` on matching ``pattern`` (one group)."""

        def found() -> int | None:
            for line in self.lines[after:]:
                match = re.search(pattern, line)
                if match:
                    return int(match.group(1))
            return None

        return int(wait(found, 20))


def _status(url: str, token: str | None = None, body: Any = None, method: str = "GET") -> int:
    try:
        return int(call(url, token, body, method)[0])
    except urllib.error.HTTPError as error:
        return int(error.code)


def _stored(base: str, auditor: str) -> int:
    return len(call(f"{base}/v1/audit/events", auditor)[1].splitlines())


def test_serve_restarts_a_killed_worker_and_a_killed_embedded_redis(tmp_path: Path) -> None:
    """kill -9 of the audit and the verification worker: serve starts others, and the next
    events are stored.
    kill -9 of the embedded Redis: /readyz fails at once, serve starts Redis again on the
    same files, the workers ride the outage out, and play and the drain go on. Before,
    neither came back: /healthz stayed 200 and the backlog grew."""
    base, process = start_serve(tmp_path, workers=1)
    output = Output(process)
    try:
        wait(lambda: call(f"{base}/healthz")[0] == 200, 30)
        tokens = read_plain_tokens(tmp_path / "tokens.toml")
        dealer, auditor = tokens["dealer"], tokens["auditor"]
        assert call(f"{base}/v1/tables", tokens["admin"], TABLE, "POST")[0] == 201
        wait(lambda: _stored(base, auditor) == 1, 20)
        wait(lambda: _status(f"{base}/readyz") == 200, 20)

        worker = output.pid(r"audit worker \(pid (\d+)\)")
        verifier = output.pid(r"verification worker \(pid (\d+)\)")
        mark = len(output.lines)
        os.kill(worker, signal.SIGKILL)
        os.kill(verifier, signal.SIGKILL)
        assert output.pid(r"audit worker restarted \(pid (\d+)\)", mark) != worker
        assert output.pid(r"verification worker restarted \(pid (\d+)\)", mark) != verifier
        seat = {"player": "Ann", "stack": 50}
        assert call(f"{base}/v1/tables/S1/seats/1", dealer, seat, "PUT")[0] == 200
        wait(lambda: _stored(base, auditor) == 2, 20)

        redis_pid = output.pid(r"embedded Redis at \S+ \(pid (\d+);")
        mark = len(output.lines)
        os.kill(redis_pid, signal.SIGKILL)
        assert _status(f"{base}/readyz") == 503  # before the restart (a second's backoff)
        output.pid(r"embedded Redis restarted \(pid (\d+)\)", mark)
        seat = {"player": "Bob", "stack": 50}
        wait(lambda: _status(f"{base}/v1/tables/S1/seats/2", dealer, seat, "PUT") == 200, 20)
        wait(lambda: _stored(base, auditor) == 3, 30)
        wait(lambda: _status(f"{base}/readyz") == 200, 30)
        events = call(f"{base}/v1/audit/events", auditor)[1].splitlines()
        assert [json.loads(line)["seq"] for line in events] == [1, 2, 3]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=40) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        output.thread.join(5)
        output.stream.close()
