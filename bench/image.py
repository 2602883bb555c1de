"""The container image's install and start, checked where no Docker engine runs.

Reads ``Dockerfile`` (its ``ENV``, ``COPY`` sources and ``CMD``), builds the
same build context from the committed files (``git archive`` of the copied paths: what
``.dockerignore`` leaves out is not committed either), installs it the way the image does
(``pip install .`` into a new virtual environment: not editable, so any file the package
forgot to ship is missing here too), starts the image's command with the image's
environment (the data dir and profile dir moved under a temporary folder, another port),
waits for the health check, plays a short dealer soak against it (``bench/soak.py --url``),
and stops it with SIGTERM as ``docker stop`` does. Prints the times and the soak's figures;
exit status 1 if any step fails.

    .venv/bin/python bench/image.py [--hands 4] [--seed 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from api import free_port  # bench/api.py

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Image:
    env: dict[str, str]
    sources: list[str]
    command: list[str]


LOCK = "requirements/runtime.txt"  # what the Dockerfile installs from


def read_dockerfile(path: Path) -> Image:
    """The ENV pairs, COPY sources and CMD of a simple Dockerfile (one stage, exec-form CMD)."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    env: dict[str, str] = {}
    sources: list[str] = []
    command: list[str] = []
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "ENV":
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                env[name] = value
        elif word == "COPY":
            sources += shlex.split(rest)[:-1]
        elif word == "CMD":
            command = json.loads(rest)
    return Image(env, sources, command)


def build_context(sources: list[str], into: Path) -> None:
    """The committed files of the Dockerfile's COPY sources, as ``docker build`` would see."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "HEAD", "--", *sources],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def wait_healthy(port: int, timeout: float) -> float:
    """Seconds until ``/healthz`` answers 200 (as the image's HEALTHCHECK asks)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=4) as answer:
                if answer.status == 200:
                    return time.monotonic() - start
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"/healthz did not answer 200 within {timeout:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4, help="soak hands per profile and mode")
    parser.add_argument("--seed", default="5")
    parser.add_argument("--keep", default="", help="keep the context, venv and data dir here")
    args = parser.parse_args(argv)
    image = read_dockerfile(REPO / "Dockerfile")
    root = Path(args.keep or tempfile.mkdtemp(prefix="dealerassist-image-"))
    context, venv, data = root / "app", root / "venv", root / "data"
    for folder in (context, data):
        folder.mkdir(parents=True, exist_ok=True)
    try:
        started = time.monotonic()
        build_context(image.sources, context)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = str(venv / "bin" / "pip")
        # as the Dockerfile: the locked versions first, then the package alone (not editable)
        subprocess.run([pip, "install", "-q", "-r", LOCK], cwd=context, check=True)
        subprocess.run([pip, "install", "-q", "--no-deps", "."], cwd=context, check=True)
        print(f"install: -r {LOCK}, then . (not editable) in {time.monotonic() - started:.1f} s")
        env = {**os.environ, **image.env}
        for name in ("REDIS_URL", "DATABASE_URL", "DEALERASSIST_TOKENS_FILE"):
            env.pop(name, None)  # the image sets none: embedded Redis, SQLite
        env["DEALERASSIST_DATA_DIR"] = str(data)
        env["DEALERASSIST_PROFILES_DIR"] = str(context / "config" / "house_rules")
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["DEALERASSIST_REFUSALS_PER_WINDOW"] = "1000000"  # the soak's token refuses at speed
        port = free_port()
        command = [str(port) if part == "8000" else part for part in image.command]
        log = (root / "serve.log").open("wb")
        server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=log)
        try:
            print(f"start: {' '.join(command)} healthy in {wait_healthy(port, 60):.1f} s")
            soak = subprocess.run(
                [
                    sys.executable, str(REPO / "bench" / "soak.py"),
                    "--url", f"http://127.0.0.1:{port}", "--tokens", str(data / "tokens.toml"),
                    "--hands", str(args.hands), "--seed", args.seed,
                ],
                capture_output=True,
                text=True,
            )  # fmt: skip
            keep = ("requests:", "findings:", "verify:", "PHH:", "failures:")
            for line in soak.stdout.splitlines():
                if line.startswith(keep):
                    print(f"soak: {line}")
        finally:
            stopping = time.monotonic()
            server.terminate()  # docker stop: SIGTERM, then SIGKILL after 10 s
            try:
                code = server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                code = server.wait()
                print("stop: not down within 10 s (docker stop would SIGKILL it)")
            print(f"stop: exit {code} after SIGTERM in {time.monotonic() - stopping:.1f} s")
        return 0 if soak.returncode == 0 and code == 0 else 1
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
