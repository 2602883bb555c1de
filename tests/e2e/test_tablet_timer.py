"""DRAW-11 on the dealer tablet: the draw timer's countdown, and the "Time (declare pat)"
button once it runs out, without a reload (the table's version, hence its ETag, does not
change when a deadline passes)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealerassist.settings import DEFAULT_PROFILES_DIR
from e2e.conftest import FIVE_CARD_DRAW, Page, Served

TIMER_SECONDS = 4


@pytest.fixture
def timer_profiles(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The shipped profiles and timer-five-card-draw: casino-five-card-draw with a
    TIMER_SECONDS draw timer (DRAW-11), for `serve` to read."""
    folder = tmp_path_factory.mktemp("profiles")
    for profile in DEFAULT_PROFILES_DIR.glob("*.toml"):
        shutil.copy(profile, folder / profile.name)
    text = (DEFAULT_PROFILES_DIR / "casino-five-card-draw.toml").read_text()
    timed = text.replace("timeout_seconds = 0 ", f"timeout_seconds = {TIMER_SECONDS} ", 1)
    timed = timed.replace('id = "casino-five-card-draw"', 'id = "timer-five-card-draw"', 1)
    assert timed.count("timer-five-card-draw") == 1 and f"= {TIMER_SECONDS} " in timed
    (folder / "timer-five-card-draw.toml").write_text(timed)
    monkeypatch.setenv("DEALERASSIST_PROFILES_DIR", str(folder))
    return folder


@pytest.fixture
def served(timer_profiles: Path, served: Any) -> Iterator[Any]:
    """`serve` started with the timer profile among its profiles."""
    yield served


def test_DRAW_11_the_timer_counts_down_and_offers_time_without_a_reload(
    page: Page, service: Served
) -> None:
    """DRAW-11 (a house draw timer, here 4 s): while seat 2 is to draw the tablet counts
    down; within 2 s of the deadline the "Time (declare pat)" button is on the page, with
    no reload; pressing it declares seat 2 pat."""
    timed = {**FIVE_CARD_DRAW, "profile": "timer-five-card-draw"}
    service.call("POST", "/v1/tables", "admin", {"table_id": "TT", **timed})
    for seat, player in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        service.call("PUT", f"/v1/tables/TT/seats/{seat}", body={"player": player, "stack": 100})
    service.call("POST", "/v1/tables/TT/hands", body={"button": 1})
    for seat, action in ((2, "post"), (3, "post"), (1, "call"), (2, "call")):
        service.act("TT", seat=seat, action=action)
    page.open("tablet", "dealer", "TT")
    table = service.act("TT", seat=3, action="check")  # the draw starts: seat 2's timer runs
    page.shows_version(table["version"])
    deadline = table["hand"]["draw_deadline"]
    assert deadline
    shown = page.until(lambda: page.text("draw-timer"), "the countdown")
    assert shown.startswith("Draw timer 0:0"), shown
    assert "Time (declare pat)" not in page.legal_buttons()
    marker = page.driver.execute_script("return window.performance.timeOrigin")
    page.until(
        lambda: "Time (declare pat)" in page.legal_buttons(),
        "the time button",
        seconds=TIMER_SECONDS + 2,
    )
    late = time.time() - _epoch(deadline)
    assert late < 2.0, late
    assert page.driver.execute_script("return window.performance.timeOrigin") == marker  # no reload
    assert page.text("draw-timer").startswith("Time is up")
    page.legal_buttons()["Time (declare pat)"].click()
    page.shows_version(table["version"] + 1)
    after = service.table("TT")
    assert after["hand"]["draws"]["2"] == 0 and after["next"]["seat"] == 3


def _epoch(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso).timestamp()
