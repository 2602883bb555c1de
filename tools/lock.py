"""The lock of exact versions: written by pip-tools from pyproject.toml, checked offline.

Two files under ``requirements/``:

* ``runtime.txt``: what the service needs (``[project] dependencies``), for the Dockerfile;
* ``dev.txt``: that plus the ``test`` and ``docs`` extras, for ``make run`` and ``make test``,
  compiled with ``runtime.txt`` as constraints so both name the same versions.

``python tools/lock.py refresh [--upgrade]`` (``make lock``; needs pip-tools) rewrites both:
it keeps every existing pin that still fits and resolves only what changed, unless
``--upgrade``. Each file's first line records the SHA-256 of the dependency tables of
pyproject.toml it was compiled from. ``python tools/lock.py check`` (``make lock-check``, in
``make test``) needs no network: it fails when pyproject.toml's dependencies changed since
(a dependency added, removed or its range changed), when a requirement is not pinned in a
file or its pin does not satisfy the range, or when the two files disagree.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
RUNTIME = ROOT / "requirements" / "runtime.txt"
DEV = ROOT / "requirements" / "dev.txt"
DEV_EXTRAS = ("test", "docs")
MARK = "# pyproject.toml dependencies sha256: "
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")
COMPILE = [
    "--quiet",
    "--no-emit-index-url",
    "--no-emit-find-links",
    "--no-emit-trusted-host",
    "--strip-extras",
    "--allow-unsafe",
]


def _project() -> dict[str, object]:
    return dict(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"])


def dependency_digest() -> str:
    """SHA-256 of what the lock depends on: Python, the dependencies and the extras."""
    project = _project()
    tables = {
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    return hashlib.sha256(json.dumps(tables, sort_keys=True).encode()).hexdigest()


def pins(path: Path) -> dict[str, str]:
    """Package name (canonical) → pinned version."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            found[canonicalize_name(match.group(1))] = match.group(2)
    return found


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    project = _project()
    listed = list(project.get("dependencies", []))  # type: ignore[call-overload]
    optional = project.get("optional-dependencies", {})
    assert isinstance(optional, dict)
    for extra in extras:
        listed += optional.get(extra, [])
    return [Requirement(text) for text in listed]


def problems() -> list[str]:
    """What is wrong with the lock, in words (empty: it matches pyproject.toml)."""
    found = []
    digest = dependency_digest()
    for path, extras in ((RUNTIME, ()), (DEV, DEV_EXTRAS)):
        name = path.relative_to(ROOT)
        if not path.is_file():
            found.append(f"{name} is missing")
            continue
        first = path.read_text(encoding="utf-8").splitlines()[:1]
        if first != [MARK + digest]:
            found.append(f"{name} was compiled from other pyproject.toml dependencies")
        pinned = pins(path)
        for requirement in _requirements(extras):
            version = pinned.get(canonicalize_name(requirement.name))
            if version is None:
                found.append(f"{name} does not pin {requirement.name}")
            elif not requirement.specifier.contains(version, prereleases=True):
                found.append(f"{name} pins {requirement.name}=={version}, not {requirement}")
    if RUNTIME.is_file() and DEV.is_file():
        dev = pins(DEV)
        for package, version in pins(RUNTIME).items():
            if dev.get(package) != version:
                found.append(f"dev.txt has {package} {dev.get(package)}, runtime.txt {version}")
    return found


def _compile(output: Path, extra_args: list[str]) -> None:
    args = [sys.executable, "-m", "piptools", "compile", *COMPILE, *extra_args]
    relative = str(output.relative_to(ROOT))
    subprocess.run([*args, "--output-file", relative, "pyproject.toml"], check=True, cwd=ROOT)
    text = output.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith(MARK)]
    output.write_text("\n".join([MARK + dependency_digest(), *lines]) + "\n", encoding="utf-8")


def refresh(upgrade: bool) -> None:
    RUNTIME.parent.mkdir(exist_ok=True)
    more = ["--upgrade"] if upgrade else []
    _compile(RUNTIME, more)
    extras = [arg for extra in DEV_EXTRAS for arg in ("--extra", extra)]
    _compile(DEV, [*more, *extras, "--constraint", str(RUNTIME.relative_to(ROOT))])


def main(argv: list[str]) -> int:
    if argv[:1] == ["refresh"]:
        refresh(upgrade="--upgrade" in argv)
        argv = ["check"]
    if argv[:1] == ["check"]:
        wrong = problems()
        for problem in wrong:
            print(f"lock: {problem}", file=sys.stderr)
        if wrong:
            print("lock: run `make lock` and commit requirements/", file=sys.stderr)
            return 1
        print(f"lock: requirements/ matches pyproject.toml ({len(pins(DEV))} pinned)")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
