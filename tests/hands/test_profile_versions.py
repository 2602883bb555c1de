"""A hand recorded under one version of its house-rule profile still verifies after the
profile file is edited: the verifier reads the recorded version from ``versions/``.

Every audit event names the profile's SHA-256 (``profile_sha256``). Editing a profile gives
it a new hash; ``dealerassist profiles --archive`` (``profiles.archive_profiles``) keeps each
version as ``versions/<profile_id>/<sha256>.toml``, and ``ProfileDirectory.version`` hands
the replay the rules the hand was really dealt with.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeTableStore, fake_services

from dealerassist.audit.verify import verify
from dealerassist.bootstrap import ProfileDirectory
from dealerassist.errors import NotFound, ProfileError
from dealerassist.profiles import (
    REPO_PROFILES_DIR,
    VERSIONS_DIR,
    archive_profiles,
    load_profiles,
    profile_version,
)
from dealerassist.service import tables as uc
from dealerassist.service.ports import AnswerKind
from dealerassist.service.tables import Actor, Preconditions

PROFILE = "casino-five-card-draw"
ADMIN, DEALER, NONE = Actor("boss", "admin"), Actor("tablet-1", "dealer"), Preconditions()


def _profiles_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "house_rules"
    folder.mkdir()
    shutil.copy(REPO_PROFILES_DIR / f"{PROFILE}.toml", folder)
    return folder


def _record_a_hand(folder: Path) -> list[dict[str, Any]]:
    """A table under the profile in ``folder``: one hand, ended by folds; its audit events."""
    services = replace(fake_services(), profiles=ProfileDirectory.load(folder))
    spec = {
        "table_id": "T1",
        "variant": "five_card_draw",
        "structure": "fixed_limit",
        "stakes": {"small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20},
        "profile_id": PROFILE,
    }
    uc.create_table(services, spec, ADMIN, NONE)
    for seat in (1, 2, 3):
        uc.seat_player(services, "T1", seat, f"P{seat}", 200, DEALER, NONE)
    assert uc.start_hand(services, "T1", 1, DEALER, NONE).kind is AnswerKind.ACCEPTED
    while (table := uc.get_table(services, "T1"))["next"] is not None:
        seat, legal = table["next"]["seat"], table["next"]["legal"]
        action = next(a for a in legal if a["action"] in ("post", "bet", "fold"))
        body = {"seat": seat, **{k: v for k, v in action.items() if k in ("action", "amount")}}
        if action["action"] == "bet":
            body["amount"] = action["min"]
        answer = uc.submit_action(services, "T1", body, DEALER, NONE)
        assert answer.kind is AnswerKind.ACCEPTED, answer.body
    assert isinstance(services.tables, FakeTableStore)
    return list(services.tables.staged)


def _edit(folder: Path) -> None:
    path = folder / f"{PROFILE}.toml"
    path.write_bytes(path.read_bytes() + b"# edited after the hand\n")


def test_a_hand_verifies_under_its_archived_profile_after_the_profile_is_edited(
    tmp_path: Path,
) -> None:
    """Archived before the edit: the replay takes the recorded version and every event
    checks; the current file has another hash."""
    folder = _profiles_dir(tmp_path)
    events = _record_a_hand(folder)
    recorded = {event["profile_sha256"] for event in events}
    assert len(events) > 5 and len(recorded) == 1
    archive_profiles(folder)
    _edit(folder)
    edited = ProfileDirectory.load(folder)
    assert edited.get(PROFILE).sha256 not in recorded
    answer = verify(events, edited.version)
    assert answer["ok"] is True, answer["problems"]
    assert answer["events"] == len(events) and answer["hands"] == 1


def test_without_the_archived_version_the_replay_stops_and_says_which_version(
    tmp_path: Path,
) -> None:
    """Edited without archiving first: the verifier cannot vouch for the hand and says so."""
    folder = _profiles_dir(tmp_path)
    events = _record_a_hand(folder)
    _edit(folder)
    answer = verify(events, ProfileDirectory.load(folder).version)
    assert answer["ok"] is False
    [problem] = answer["problems"]
    assert "unavailable" in problem["why"] and events[0]["profile_sha256"] in problem["why"]


def test_profile_version_reads_the_current_file_or_the_archive(tmp_path: Path) -> None:
    """The current file when it has the hash; else versions/<id>/<sha256>.toml; else
    NotFound; an archived copy that does not hash to its name is refused."""
    folder = _profiles_dir(tmp_path)
    first = load_profiles(folder)[PROFILE]
    assert profile_version(PROFILE, first.sha256, folder) == first
    assert archive_profiles(folder) == [folder / VERSIONS_DIR / PROFILE / f"{first.sha256}.toml"]
    assert archive_profiles(folder) == []  # idempotent
    _edit(folder)
    second = load_profiles(folder)[PROFILE]
    assert profile_version(PROFILE, first.sha256, folder).sha256 == first.sha256
    assert profile_version(PROFILE, second.sha256, folder) == second
    with pytest.raises(NotFound, match="no version"):
        profile_version(PROFILE, "0" * 64, folder)
    with pytest.raises(NotFound):
        profile_version("../" + PROFILE, first.sha256, folder)  # never a path outside
    archived = folder / VERSIONS_DIR / PROFILE / f"{first.sha256}.toml"
    archived.write_bytes(archived.read_bytes().replace(b"max_cards = 3", b"max_cards = 4"))
    with pytest.raises(ProfileError, match="not its name"):
        profile_version(PROFILE, first.sha256, folder)


def test_every_shipped_profile_version_is_archived() -> None:
    """The current version of every shipped profile is in config/house_rules/versions (run
    ``dealerassist profiles --archive`` after editing one), and every archived file is the
    version its name says and still loads."""
    for profile_id, rules in load_profiles(REPO_PROFILES_DIR).items():
        archived = REPO_PROFILES_DIR / VERSIONS_DIR / profile_id / f"{rules.sha256}.toml"
        current = (REPO_PROFILES_DIR / f"{profile_id}.toml").read_bytes()
        assert archived.is_file(), f"run `dealerassist profiles --archive` for {profile_id}"
        assert archived.read_bytes() == current
    for path in sorted((REPO_PROFILES_DIR / VERSIONS_DIR).glob("*/*.toml")):
        assert hashlib.sha256(path.read_bytes()).hexdigest() == path.stem
        assert profile_version(path.parent.name, path.stem, REPO_PROFILES_DIR).sha256 == path.stem


def test_cli_profiles_archive_copies_each_new_version_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`dealerassist profiles --archive` writes the current versions that are not archived."""
    from dealerassist.cli import main

    folder = _profiles_dir(tmp_path)
    assert main(["profiles", "--dir", str(folder), "--archive"]) == 0
    assert capsys.readouterr().out.count("archived ") == 1
    assert main(["profiles", "--dir", str(folder), "--archive"]) == 0
    assert "archived " not in capsys.readouterr().out
    _edit(folder)
    assert main(["profiles", "--dir", str(folder), "--archive"]) == 0
    assert capsys.readouterr().out.count("archived ") == 1
    assert len(list((folder / VERSIONS_DIR / PROFILE).glob("*.toml"))) == 2
