"""Shift expiry sweep benchmark: what the audit worker pays each second for recording the
shift sessions that ran out (``service.shifts.expire_shifts``), with the production Redis
stores and a SQLite audit store.

Signs a dealer in at each of ``--tables`` tables, then times ``--sweeps`` sweeps with none
due (the worker's cost every second: one Redis read), then one sweep after the clock (a
fake one, moved past the 12th hour) made every session due (a table transaction each).

    .venv/bin/python bench/shift_expiry.py [--tables 100] [--sweeps 200]

Redis: an embedded Redis in a temporary directory (``bench/embedded.py``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from embedded import embedded_settings  # noqa: E402
from fakes import FakeClock, draw_table  # noqa: E402

from dealerassist.bootstrap import build_services  # noqa: E402
from dealerassist.service import shifts  # noqa: E402
from dealerassist.service import tables as uc  # noqa: E402
from dealerassist.service.ports import Services  # noqa: E402
from dealerassist.service.shifts import ShiftLimits  # noqa: E402
from dealerassist.service.tables import Actor, Preconditions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--sweeps", type=int, default=200)
    args = parser.parse_args()
    with embedded_settings() as settings:
        run(build_services(settings), args.tables, args.sweeps)


def run(built: Services, count: int, sweeps: int) -> None:
    clock = FakeClock()
    services = replace(built, clock=clock, shift_limits=ShiftLimits(scrypt_n=2**4))
    for number in range(count):
        table_id = f"T{number}"
        spec = draw_table(table_id, "casino-five-card-draw")
        uc.create_table(services, spec, Actor("boss", "admin"), Preconditions())
        shifts.set_dealer(services, f"E{number}", f"Dealer {number}", "4821")
        code = shifts.register_tablet(services, f"Tablet {number}", [table_id])["pairing_code"]
        paired = shifts.pair_tablet(services, code)["credential"]
        tablet = shifts.tablet_for_credential(services, paired)
        assert tablet is not None
        shifts.sign_in(services, tablet, table_id, f"E{number}", "4821")
    idle = []
    for _ in range(sweeps):
        started = time.perf_counter()
        assert not shifts.expire_shifts(services).recorded
        idle.append(time.perf_counter() - started)
    idle.sort()
    print(
        f"{count} dealers signed in, none due: a sweep {statistics.median(idle) * 1e3:.3f} ms "
        f"median, {idle[int(len(idle) * 0.9)] * 1e3:.3f} ms p90 ({sweeps} sweeps)"
    )
    clock.at += timedelta(hours=12, seconds=1)
    started = time.perf_counter()
    swept = shifts.expire_shifts(services, limit=count)
    took = time.perf_counter() - started
    assert len(swept.recorded) == count, swept
    print(f"all {count} due: one sweep recorded them in {took * 1e3:.1f} ms "
          f"({took / count * 1e3:.2f} ms each)")  # fmt: skip


if __name__ == "__main__":
    main()
