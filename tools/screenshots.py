"""Screenshots of the browser pages for the documentation (``docs/screenshots/*.png``).

Starts ``dealerassist serve`` in a temporary data directory on a free loopback port, opens
a five-card draw table and plays a hand to the draw through the API, then has headless
Debian chromium (selenium, the driver named explicitly) log in to each page and save:
``tablet-landscape.png`` (1280x800), ``tablet-portrait.png`` (800x1280), ``floor.png`` and
``audit.png``. Run it from the repository root after a change to the pages::

    .venv/bin/python tools/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dealerassist.api.auth import read_plain_tokens  # noqa: E402

TABLE = {
    "table_id": "T7",
    "variant": "five_card_draw",
    "structure": "fixed_limit",
    "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
    "profile": "casino-five-card-draw",
    "max_seats": 6,
    "mode": "count",
}
PLAYERS = [(1, "Ada", 500), (2, "Ben", 420), (3, "Cleo", 610), (4, "Dev", 380)]
HAND = [
    {"seat": 2, "action": "post"},
    {"seat": 3, "action": "post"},
    {"seat": 4, "action": "call"},
    {"seat": 1, "action": "raise", "amount": 20},
    {"seat": 2, "action": "fold"},
    {"seat": 3, "action": "call"},
    {"seat": 4, "action": "call"},
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _call(base: str, token: str, path: str, body: Any = None, method: str = "GET") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def _wait_healthy(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return
        except (OSError, urllib.error.URLError):
            time.sleep(0.3)
    raise SystemExit("dealerassist serve did not become healthy")


def _browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def _shoot(driver: Any, base: str, page: str, token: str, size: tuple[int, int], out: Path) -> None:
    driver.set_window_size(*size)
    driver.get(f"{base}/{page}")
    driver.execute_script("sessionStorage.clear()")
    driver.get(f"{base}/{page}")
    driver.find_element("id", "login-token").send_keys(token)
    tables = driver.find_elements("id", "login-table")
    if tables and tables[0].is_displayed():
        tables[0].send_keys(TABLE["table_id"])
    driver.find_element("css selector", "#login-form button[type=submit]").click()
    time.sleep(2.5)  # the first poll and the drawing of the table
    driver.save_screenshot(str(out))
    print(f"wrote {out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data_dir:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env["DEALERASSIST_DATA_DIR"] = data_dir
        serve = subprocess.Popen(
            [sys.executable, "-m", "dealerassist.cli", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(base)
            tokens = read_plain_tokens(Path(data_dir) / "tokens.toml")
            _call(base, tokens["admin"], "/v1/tables", TABLE, "POST")
            for seat, player, stack in PLAYERS:
                body = {"player": player, "stack": stack}
                _call(base, tokens["dealer"], f"/v1/tables/T7/seats/{seat}", body, "PUT")
            _call(base, tokens["dealer"], "/v1/tables/T7/hands", {"button": 1}, "POST")
            for action in HAND:
                _call(base, tokens["dealer"], "/v1/tables/T7/actions", action, "POST")
            driver = _browser()
            try:
                shots = [
                    ("tablet", "dealer", (1280, 800), "tablet-landscape.png"),
                    ("tablet", "dealer", (800, 1280), "tablet-portrait.png"),
                    ("floor", "floor", (1280, 900), "floor.png"),
                    ("audit", "auditor", (1280, 900), "audit.png"),
                ]
                for page, role, size, name in shots:
                    _shoot(driver, base, page, tokens[role], size, args.out / name)
            finally:
                driver.quit()
        finally:
            serve.terminate()
            serve.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
