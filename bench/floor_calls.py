"""Floor-call benchmark: a console's poll of ``GET /v1/floor/calls`` with 3,000 open calls at
one table (the flood one dealer token made before calls were bounded), through the real app
(Flask test client: no network), with the production Redis store and a SQLite audit store.

Prints the size of the 3,000 call records (what every poll carried when the list was read
whole), then the size and the median and slowest time of the poll as it is now (one page of
50, newest first), and of a console on another table (which reads none of them).

    .venv/bin/python bench/floor_calls.py [--calls 3000] [--polls 20]

Redis: an embedded Redis in a temporary directory (``bench/embedded.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from api.conftest import SECRETS, TABLE_BODY, token_book  # noqa: E402
from embedded import embedded_settings  # noqa: E402

from dealerassist.api import create_app  # noqa: E402
from dealerassist.audit.envelope import format_at  # noqa: E402
from dealerassist.bootstrap import build_services  # noqa: E402
from dealerassist.service.floor_calls import FloorCall, FloorCallLimits  # noqa: E402
from dealerassist.settings import Settings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--polls", type=int, default=20)
    args = parser.parse_args()
    with embedded_settings() as settings:
        run(settings, args.calls, args.polls)


def run(settings: Settings, count: int, polls: int) -> None:
    services = build_services(settings)
    client = create_app(
        {"SETTINGS": settings, "SERVICES": services, "TOKENS": token_book()}
    ).test_client()

    def auth(who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {SECRETS[who]}"}

    for table_id in ("T1", "T2"):
        client.post("/v1/tables", json={**TABLE_BODY, "table_id": table_id}, headers=auth("admin"))
        for seat in (1, 2, 3):
            body = {"player": f"P{seat}", "stack": 100}
            client.put(f"/v1/tables/{table_id}/seats/{seat}", json=body, headers=auth("dealer"))
    table = client.get("/v1/tables/T1", headers=auth("floor")).get_json()
    assert services.floor_calls is not None
    now = services.clock.now()
    roomy = FloorCallLimits(per_table=count + 1, per_token=count + 1)
    whole = 0
    for n in range(count):
        opened = format_at(now - timedelta(seconds=n))
        call = FloorCall(f"{n:08x}", "T1", opened, "dealer", 1, None, "SHOW-04", table=table)
        services.floor_calls.reserve(call, roomy, now)
        whole += len(json.dumps(call.to_dict()))
    print(f"{count:,} open calls at T1: their records {whole / 1e6:.1f} MB (a poll read whole)")
    for label, query in (("console, every table", ""), ("console on T2", "?table_id=T2")):
        times, size, body = [], 0, {}
        for _ in range(polls):
            started = time.perf_counter()
            answer = client.get(f"/v1/floor/calls{query}", headers=auth("floor"))
            size = len(answer.get_data())
            times.append(time.perf_counter() - started)
            body = answer.get_json()
        print(
            f"{label}: {size:,} bytes, {body['count']} of {body['total']} calls, "
            f"median {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
