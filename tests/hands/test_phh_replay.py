"""Recorded PHH hands replay through the engine to the recorded finishing stacks (issue 3).

The acceptance test: every real and generated F2L3D / N2L1D hand in ``tests/data/phh``
replays in card mode under ``replay-permissive``, and so do fresh hands of the seeded
generator kept beside the generated ones (``tests/data/phh/generated/gen_phh.py``). A file
without finishing stacks is compared with pokerkit's own replay of it. Minimal hands pin
the three pokerkit behaviours the first engine cut lacked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from phh_data import PHH_DATA, acceptance_files
from pokerkit import HandHistory

from dealerassist.audit.phh.reader import parse_phh
from dealerassist.cli import main
from dealerassist.profiles import get_profile
from dealerassist.replay import finishing_stacks, replay_hand, replay_paths
from dealerassist.rules.model.house_rules import HouseRules

RECORDED = Path(__file__).resolve().parent / "recorded"  # hands our service exported
OUR_VARIANTS = ("F2L3D", "N2L1D")


def _recorded_files() -> list[object]:
    params: list[object] = []
    for path in acceptance_files(PHH_DATA):
        name = path.relative_to(PHH_DATA).as_posix()
        if not set(OUR_VARIANTS) & set(path.parts):
            continue
        params.append(pytest.param(path, id=name))
    return params


@pytest.fixture(scope="module")
def rules() -> HouseRules:
    return get_profile("replay-permissive")


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about cards dealt after a reshuffle
        states = list(HandHistory.loads(text))
    return list(states[-1].stacks)


def _replayed_stacks(text: str, rules: HouseRules) -> list[int]:
    hand = parse_phh(text)
    return finishing_stacks(replay_hand(hand, rules), hand.player_count)


@pytest.mark.parametrize("path", _recorded_files())
def test_recorded_hand_replays_to_the_recorded_finishing_stacks(
    path: Path, rules: HouseRules
) -> None:
    """A real or generated F2L3D / N2L1D hand ends with its recorded (or pokerkit's) stacks."""
    text = path.read_text(encoding="utf-8")
    recorded = parse_phh(text).finishing_stacks
    expected = list(recorded) if recorded is not None else _pokerkit_stacks(text)
    assert _replayed_stacks(text, rules) == expected


def test_the_data_set_has_every_recorded_hand_of_our_variants() -> None:
    """All 215 F2L3D / N2L1D hands (15 real, 200 generated) are in the acceptance set."""
    assert len(_recorded_files()) == 215


def test_the_seeded_generator_writes_hands_that_replay_to_pokerkits_stacks(
    tmp_path: Path, rules: HouseRules
) -> None:
    """gen_phh.py writes the same bytes for the same seed, and its F2L3D / N2L1D hands
    (pokerkit's own adjudication) replay through our engine to pokerkit's finishing stacks."""
    script = PHH_DATA / "generated" / "gen_phh.py"
    for out in ("a", "b"):
        args = [sys.executable, str(script), "--out", str(tmp_path / out), "--hands", "4"]
        subprocess.run(args, check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    first = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*.phh")}
    again = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*.phh")}
    assert first == again
    hands = sorted((tmp_path / "a").rglob("*.phh"))
    assert len(hands) == 12
    for path in hands:
        if path.parent.name in OUR_VARIANTS:
            text = path.read_text(encoding="utf-8")
            assert _replayed_stacks(text, rules) == list(parse_phh(text).finishing_stacks or ()), (
                path.name
            )


# -- minimal hands for what pokerkit's recorded hands need (each checked against pokerkit) ---

SHORT_ALL_IN = """
variant = 'F2L3D'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [50, 50, 50, 5]
actions = ['d dh p1 7h6c4c3d2c', 'd dh p2 KsKdTs9c8s', 'd dh p3 QhQcJd8c3h',
  'd dh p4 AhAdQs9h4d', 'p3 cbr 4', 'p4 cbr 5', 'p1 cbr 7', 'p2 f', 'p3 cc',
  'p1 sd', 'p3 sd', 'p4 sd', 'p1 cc', 'p3 cc', 'p1 sd', 'p3 sd', 'p4 sd', 'p1 cc', 'p3 cc',
  'p1 sd', 'p3 sd', 'p4 sd', 'p1 cc', 'p3 cc',
  'p1 sm 7h6c4c3d2c', 'p3 sm QhQcJd8c3h', 'p4 sm AhAdQs9h4d']
finishing_stacks = [64, 48, 43, 0]
"""

SAME_ROUND_RESHUFFLE = """
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [20, 20, 20]
actions = ['d dh p1 2c2d2h2s3c', 'd dh p2 3d3h3s4c4d', 'd dh p3 4h4s5c5d5h',
  'p3 cc', 'p1 cc', 'p2 cc',
  'p1 sd 2c2d2h2s3c', 'p2 sd 3d3h3s4c4d', 'p3 sd 4h4s5c5d5h',
  'd dh p1 5s6c6d6h6s', 'd dh p2 7c7d7h7s8c', 'd dh p3 8d8h8s9c9d', 'p1 cc', 'p2 cc', 'p3 cc',
  'p1 sd 5s6c6d6h6s', 'p2 sd 7c7d7h7s8c', 'p3 sd 8d8h8s9c9d',
  'd dh p1 9h9sTcTdTh', 'd dh p2 TsJcJdJhJs', 'd dh p3 QcQdQhQsKc', 'p1 cc', 'p2 cc', 'p3 cc',
  'p1 sd 9h9sTcTdTh', 'p2 sd TsJcJdJhJs', 'p3 sd QcQdQhQsKc',
  'd dh p1 KdKhKsAcQc', 'd dh p2 2c2d2h2s3c', 'd dh p3 3d3h3s4c4d', 'p1 cc', 'p2 cc', 'p3 cc',
  'p1 sm KdKhKsAcQc', 'p2 sm 2c2d2h2s3c', 'p3 sm 3d3h3s4c4d']
finishing_stacks = [24, 18, 18]
"""

BIG_BLIND_ANTE = """
variant = 'N2L1D'
antes = [0, 3, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [20, 20, 20]
actions = ['d dh p1 7h6c4c3d2c', 'd dh p2 KsKdTs9c8s', 'd dh p3 QhQcJd8c3h',
  'p3 cbr 6', 'p1 f', 'p2 f']
finishing_stacks = [19, 15, 26]
"""


@pytest.mark.parametrize("text", [SHORT_ALL_IN, SAME_ROUND_RESHUFFLE, BIG_BLIND_ANTE])
def test_minimal_hands_are_what_pokerkit_plays(text: str) -> None:
    """The minimal hands below are legal pokerkit hands with these finishing stacks."""
    recorded = parse_phh(text).finishing_stacks
    assert recorded is not None
    assert _pokerkit_stacks(text) == list(recorded)


def test_fixed_limit_raise_over_a_short_all_in_is_a_full_bet_over_it(rules: HouseRules) -> None:
    """Bet 4, short all-in to 5: the next raise is to 5 + 2 = 7 under the full-bet rule."""
    assert _replayed_stacks(SHORT_ALL_IN, rules) == [64, 48, 43, 0]


def test_reshuffle_takes_later_discards_of_the_same_round(rules: HouseRules) -> None:
    """All discard before any deal, so seat 1's third-draw reshuffle may give seat 3's Qc."""
    assert _replayed_stacks(SAME_ROUND_RESHUFFLE, rules) == [24, 18, 18]


def test_big_blind_ante_is_posted_by_the_big_blind(rules: HouseRules) -> None:
    """PHH antes [0, 3, 0]: the big blind posts a dead ante of 3 with its blind of 2."""
    assert _replayed_stacks(BIG_BLIND_ANTE, rules) == [19, 15, 26]


# -- replay_paths and the CLI -----------------------------------------------------------------

HEADS_UP = """
variant = 'N2L1D'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [8, 15]
actions = ['d dh p1 5c7s6hJh5s', 'd dh p2 AsAd4d8h6s', 'p2 cbr 15', 'p1 cc',
           'p1 sd', 'p2 sd Ad', 'd dh p2 2d', 'p1 sm 5c7s6hJh5s', 'p2 sm As4d8h6s2d']
finishing_stacks = [0, 23]
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_heads_up_all_in_hand_replays(rules: HouseRules) -> None:
    """Heads-up, p2 (button, small blind) shoves, p1 calls; A-8-6-4-2 beats a pair of fives."""
    assert _replayed_stacks(HEADS_UP, rules) == [0, 23]


def test_replay_paths_reports_each_file_under_a_directory(tmp_path: Path) -> None:
    """A directory yields one result per .phh file: matches, mismatches and refusals."""
    _write(tmp_path, "a.phh", HEADS_UP)
    _write(tmp_path, "b.phh", HEADS_UP.replace("[0, 23]", "[1, 22]"))
    _write(tmp_path, "c.phh", HEADS_UP.replace("'p2 cbr 15'", "'p2 cbr 16'"))
    _write(tmp_path, "d.phh", HEADS_UP.replace("'N2L1D'", "'FB'"))
    _write(tmp_path, "notes.txt", "not a hand")
    results = {Path(r["file"]).name: r for r in replay_paths([tmp_path])}
    assert sorted(results) == ["a.phh", "b.phh", "c.phh", "d.phh"]
    assert results["a.phh"] == {
        "file": str(tmp_path / "a.phh"),
        "ok": True,
        "finishing_stacks": [0, 23],
        "expected": [0, 23],
        "error": None,
        "profile": "replay-permissive",  # the file names no profile of ours
    }
    assert results["b.phh"]["ok"] is False
    assert results["b.phh"]["finishing_stacks"] == [0, 23]
    assert results["b.phh"]["expected"] == [1, 22]
    assert results["c.phh"]["ok"] is False
    assert "command" in results["c.phh"]["error"] and "16" in results["c.phh"]["error"]
    assert "FB" in results["d.phh"]["error"]


def test_cli_replay_prints_json_lines_and_exits_zero_when_all_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`dealerassist replay FILE` prints one JSON object per hand and exits 0 if all match."""
    path = _write(tmp_path, "a.phh", HEADS_UP)
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["ok"] for line in lines] == [True]


def test_cli_replay_exits_one_on_a_mismatch_or_no_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Any hand that does not match, or no hand at all, makes the exit status 1."""
    good = _write(tmp_path, "a.phh", HEADS_UP)
    bad = _write(tmp_path, "b.phh", HEADS_UP.replace("[0, 23]", "[1, 22]"))
    assert main(["replay", str(good), str(bad)]) == 1
    assert len(capsys.readouterr().out.splitlines()) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["replay", str(empty)]) == 1


def test_cli_replay_unknown_profile_exits_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown --profile is reported on stderr with exit status 2."""
    path = _write(tmp_path, "a.phh", HEADS_UP)
    assert main(["replay", str(path), "--profile", "no-such-profile"]) == 2
    assert "no-such-profile" in capsys.readouterr().err


def test_an_inconsistent_file_among_good_ones_is_that_files_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A discard of a card the player was never dealt is an InvalidInput for that file only:
    the CLI prints one line per file (the others still replayed) and exits 1, no traceback."""
    _write(tmp_path, "a.phh", HEADS_UP)
    _write(tmp_path, "b.phh", HEADS_UP.replace("'p2 sd Ad'", "'p2 sd Kd'"))
    _write(tmp_path, "c.phh", HEADS_UP)
    assert main(["replay", str(tmp_path)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["file"]).name for line in lines] == ["a.phh", "b.phh", "c.phh"]
    assert [line["ok"] for line in lines] == [True, False, True]
    assert lines[1]["error"].startswith("InvalidInput: ")
    assert "Kd" in lines[1]["error"] and "does not hold" in lines[1]["error"]
    assert lines[1]["expected"] == [0, 23]


def test_an_unforeseen_error_in_one_file_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the reader raises for one file becomes that file's ok: false line."""
    import dealerassist.replay as replay_module

    real = replay_module.to_commands

    def failing(hand, *args, **kwargs):  # type: ignore[no-untyped-def]
        if hand.starting_stacks == (9, 14):
            raise KeyError("boom")
        return real(hand, *args, **kwargs)

    monkeypatch.setattr(replay_module, "to_commands", failing)
    _write(tmp_path, "a.phh", HEADS_UP.replace("[8, 15]", "[9, 14]"))
    _write(tmp_path, "b.phh", HEADS_UP)
    results = list(replay_paths([tmp_path]))
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["error"].startswith("InvalidInput: ") and "KeyError" in results[0]["error"]


# -- our exports replay under the profile version they were dealt with ------------------------

# dealt under casino-triple-draw-27-kill before its showdown.side_pots_first (SHOW-01, WSOP 149):
# p1, all in for the main pot only, mucked before the side-pot pair showed down
EXPORTED = RECORDED / "S41-ctd2k-card-512c-22.phh"
DEALT_UNDER = (
    "casino-triple-draw-27-kill@8852339340be0efe08c2e2ebbbc7f1ce26919eb89ec7ffb9e18741d5eb1d0f14"
)


def test_an_export_replays_under_the_profile_version_it_names() -> None:
    """Without --profile, a file naming ``_profile_id`` and ``_profile_sha256`` replays under
    that version (the archived copy once the profile was edited), and the line says which;
    under today's profile the same hand is refused (the kill now acts in turn, KILL-04; the
    side pots would show first too, SHOW-01)."""
    [result] = replay_paths([EXPORTED])
    assert result["ok"] is True, result["error"]
    assert result["profile"] == DEALT_UNDER
    assert result["finishing_stacks"] == [0, 740, 485, 171, 80]
    [today] = replay_paths([EXPORTED], "casino-triple-draw-27-kill")
    assert today["ok"] is False and "KILL-04" in today["error"]  # the kill now acts in turn
    assert today["profile"] == "casino-triple-draw-27-kill"


def test_an_export_naming_a_version_we_do_not_hold_replays_under_replay_permissive(
    tmp_path: Path,
) -> None:
    """A profile version this installation never had (another casino's export) falls back to
    ``replay-permissive``, as for any PHH file, and the line says so."""
    text = HEADS_UP + '_profile_id = "casino-house-x"\n_profile_sha256 = "' + "0" * 64 + '"\n'
    [result] = replay_paths([_write(tmp_path, "x.phh", text)])
    assert result["ok"] is True and result["profile"] == "replay-permissive"


def test_an_export_whose_profile_fields_are_not_text_is_that_files_error(tmp_path: Path) -> None:
    """``_profile_id`` that is not a string is InvalidInput for that file, not a crash."""
    [result] = replay_paths([_write(tmp_path, "x.phh", HEADS_UP + "_profile_id = 3\n")])
    assert result["ok"] is False and "_profile_id must be a string" in result["error"]
