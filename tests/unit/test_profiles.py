"""House-rule profiles: loading, validation with field paths, invariants, and the CLI."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from dealerassist.cli import main
from dealerassist.errors import NotFound, ProfileError
from dealerassist.profiles import (
    INVARIANTS,
    PROFILES_DIR_ENV,
    REPO_PROFILES_DIR,
    default_profiles_dir,
    get_profile,
    load_profile,
    load_profiles,
    parse_profile,
    summary,
)
from dealerassist.rules.model.house_rules import (
    BlindRules,
    BottomCard,
    ButtonMethod,
    Collection,
    ExposedDrawCard,
    ForcedBets,
    HouseRules,
    IrregularityRules,
    KillMode,
    KillRules,
    KillSize,
    MisdealDeadline,
    OpenRequirement,
    OpenRules,
    PostDrawFirst,
    RakeRules,
    ReshufflePool,
    ShortAllInRule,
    ShowdownRules,
    StrippedDeckRule,
    StrippedRules,
    Structure,
    Variant,
)

SHIPPED = {
    "casino-five-card-draw",
    "casino-triple-draw-27",
    "single-draw-27-no-limit",
    "home-game-five-card-draw",
    "ace-to-seven-stripped",
    "replay-permissive",
    "casino-triple-draw-27-kill",  # KILL-01..06: required kills
    "casino-triple-draw-27-optional-kill",  # KILL-01, 04, 06: the voluntary kill
    "pot-limit-five-card-draw",  # GAME-06, BET-05: the pot-limit game
    "home-game-no-limit-draw",  # GAME-01/06: no limit, antes, no openers (the seed's example)
    "casino-five-card-draw-raked",  # RAKE-01..03: the casino draw game, raked
}
KILLS = {
    "casino-triple-draw-27-kill": KillMode.REQUIRED,
    "casino-triple-draw-27-optional-kill": KillMode.OPTIONAL,
}
BASE = 'name = "Test rules"\n[game]\nvariant = "five_card_draw"\n'


def _write(directory: Path, text: str, stem: str = "test") -> Path:
    path = directory / f"{stem}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(directory: Path, text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        load_profile(_write(directory, text))
    return str(caught.value)


def _with(sections: dict[str, str]) -> str:
    """BASE plus lines per section, e.g. {"draw": "max_cards = 3"}; a game `variant` replaces."""
    game = sections.get("game", "")
    default_variant = 'variant = "five_card_draw"'
    game_lines = game if game.startswith("variant") else f"{default_variant}\n{game}"
    text = f'name = "Test rules"\n[game]\n{game_lines}\n'
    for section, lines in sections.items():
        if section != "game":
            text += f"[{section}]\n{lines}\n"
    return text


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum | str):
        return f'"{value}"'
    return str(value)


# ---------------------------------------------------------------- shipped profiles


def test_every_shipped_profile_loads() -> None:
    """The six base profiles, the two kill-pot ones and the pot-limit one load from
    config/house_rules."""
    profiles = load_profiles(REPO_PROFILES_DIR)
    assert set(profiles) == SHIPPED
    assert all(rules.profile_id == profile_id for profile_id, rules in profiles.items())


def test_every_shipped_profile_opens_with_what_it_models_and_its_sources() -> None:
    """Each shipped file starts with a comment naming what it models and its sources."""
    for path in sorted(REPO_PROFILES_DIR.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# "), path.name
        assert "Sources" in text.split("\nid = ")[0], path.name


def test_casino_five_card_draw_is_robert_style() -> None:
    """Bet + 3 raises, three or four with an ace, no five in a row, bottom never, dead button."""
    rules = get_profile("casino-five-card-draw", REPO_PROFILES_DIR)
    assert rules.game.forced_bets is ForcedBets.BLINDS
    assert (rules.betting.max_raises, rules.draw.max_cards, rules.draw.four_with_ace) == (
        3,
        3,
        True,
    )
    assert rules.draw.max_consecutive == 4
    assert rules.draw.bottom_card is BottomCard.NEVER
    assert rules.blinds.button_method is ButtonMethod.DEAD


def test_casino_triple_draw_deals_five_but_never_five_in_a_row() -> None:
    """2-7 triple draw: draws of up to five, at most four consecutive, bottom card never dealt."""
    rules = get_profile("casino-triple-draw-27", REPO_PROFILES_DIR)
    assert rules.game.variant is Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
    assert (rules.draw.max_cards, rules.draw.max_consecutive) == (5, 4)
    assert rules.draw.bottom_card is BottomCard.NEVER


def test_single_draw_no_limit_uses_the_full_bet_rule() -> None:
    """No-limit 2-7 single draw: a short all-in reopens only as a full raise."""
    rules = get_profile("single-draw-27-no-limit", REPO_PROFILES_DIR)
    assert rules.game.variant is Variant.DEUCE_TO_SEVEN_SINGLE_DRAW
    assert rules.betting.short_all_in is ShortAllInRule.FULL_BET


def test_pot_limit_five_card_draw_rounds_the_blinds_up_and_uses_the_full_bet_rule() -> None:
    """Pot-limit five-card draw: blinds, the small blind counted as a big blind in the opening
    pot (WSOP 191), a short all-in reopens only as a full raise, the draw-high procedure."""
    rules = get_profile("pot-limit-five-card-draw", REPO_PROFILES_DIR)
    assert (rules.game.variant, rules.game.structure) == (
        Variant.FIVE_CARD_DRAW,
        Structure.POT_LIMIT,
    )
    assert rules.game.forced_bets is ForcedBets.BLINDS
    assert rules.betting.pot_limit_round_blinds_up
    assert rules.betting.short_all_in is ShortAllInRule.FULL_BET
    assert (rules.draw.max_cards, rules.draw.four_with_ace) == (3, True)
    assert rules.draw.bottom_card is BottomCard.NEVER


def test_home_game_has_antes_jacks_and_the_opener_first() -> None:
    """The home game: antes, jacks or better to open, the opener acts first after the draw."""
    rules = get_profile("home-game-five-card-draw", REPO_PROFILES_DIR)
    assert rules.game.forced_bets is ForcedBets.ANTES
    assert rules.open.requirement is OpenRequirement.JACKS_OR_BETTER
    assert rules.betting.post_draw_first is PostDrawFirst.OPENER


def test_stripped_profile_deals_by_players_to_five_with_flush_over_full_house() -> None:
    """A-7 stripped: 32/36 cards by players, five players, flush over full house, draw four."""
    rules = get_profile("ace-to-seven-stripped", REPO_PROFILES_DIR)
    assert rules.stripped.deck_rule is StrippedDeckRule.BY_PLAYERS
    assert rules.stripped.flush_over_full_house
    assert (rules.table.max_players, rules.draw.max_cards) == (5, 4)


def test_replay_permissive_matches_pokerkit() -> None:
    """Replay: any draw, five in a row, bottom card normal, all discards, capped heads-up."""
    rules = get_profile("replay-permissive", REPO_PROFILES_DIR)
    assert (rules.draw.max_cards, rules.draw.max_consecutive) == (5, 5)
    assert rules.draw.bottom_card is BottomCard.NORMAL_CARD
    assert rules.draw.reshuffle_pool is ReshufflePool.ALL_DISCARDS
    assert (rules.betting.max_raises, rules.betting.uncapped_heads_up) == (3, False)
    assert not rules.betting.blind_counts_as_bet
    assert rules.draw.timeout_seconds == 0
    assert rules.blinds.button_method is ButtonMethod.MOVING


def test_KILL_01_accepts_the_kill_profile_as_triple_draw_with_a_required_full_kill() -> None:
    """The kill profile is casino-triple-draw-27 with kill.mode required and a full kill."""
    kill = get_profile("casino-triple-draw-27-kill", REPO_PROFILES_DIR)
    plain = get_profile("casino-triple-draw-27", REPO_PROFILES_DIR)
    assert (kill.kill.mode, kill.kill.size) == (KillMode.REQUIRED, KillSize.FULL)
    assert replace(kill, kill=plain.kill, profile_id="", name="", sha256="") == replace(
        plain, profile_id="", name="", sha256=""
    )


def test_KILL_01_accepts_the_optional_kill_profile_as_triple_draw_with_a_voluntary_kill() -> None:
    """The optional-kill profile is casino-triple-draw-27 with kill.mode optional, a full kill."""
    kill = get_profile("casino-triple-draw-27-optional-kill", REPO_PROFILES_DIR)
    plain = get_profile("casino-triple-draw-27", REPO_PROFILES_DIR)
    assert (kill.kill.mode, kill.kill.size) == (KillMode.OPTIONAL, KillSize.FULL)
    assert replace(kill, kill=plain.kill, profile_id="", name="", sha256="") == replace(
        plain, profile_id="", name="", sha256=""
    )


def test_shipped_profiles_keep_kills_off_but_the_kill_profiles() -> None:
    """Kill pots are off in the six base profiles (their sources have none)."""
    for profile_id, rules in load_profiles(REPO_PROFILES_DIR).items():
        assert rules.kill.mode is KILLS.get(profile_id, KillMode.OFF), profile_id


def test_KILL_01_refuses_an_optional_kill_in_an_ante_profile(tmp_path: Path) -> None:
    """An optional kill needs a big blind to multiply: an ante-only profile is refused."""
    message = _error(
        tmp_path, _with({"game": 'forced_bets = "antes"', "kill": 'mode = "optional"'})
    )
    assert message.startswith("test.toml: game.forced_bets: the kill blind is a multiple")


def test_RANK_04_rejects_a_stripped_profile_with_a_full_house_over_a_flush(tmp_path: Path) -> None:
    """RANK-04 (seed 000, 32CD: in the stripped deck a flush beats a full house): the option
    was accepted and never read; ``false`` is now refused by name, ``true`` loads."""
    text = _with(
        {
            "game": 'variant = "ace_to_seven_stripped"',
            "stripped": "flush_over_full_house = false",
            "table": "max_players = 5",
        }
    )
    message = _error(tmp_path, text)
    assert message.startswith("test.toml: stripped.flush_over_full_house: the stripped deck ranks")
    good = _with(
        {
            "game": 'variant = "ace_to_seven_stripped"',
            "stripped": "flush_over_full_house = true",
            "table": "max_players = 5",
        }
    )
    assert load_profile(_write(tmp_path, good)).stripped.flush_over_full_house


def test_KILL_01_refuses_a_kill_in_a_no_limit_profile(tmp_path: Path) -> None:
    """A no-limit profile with kills on fails at validation, naming the field and the fix."""
    message = _error(tmp_path, _with(INVARIANT_CASES["game.structure"][0]))
    assert message == (
        "test.toml: game.structure: kill pots are a fixed-limit device: with kill.mode on, "
        'game.structure must be fixed_limit (or set kill.mode = "off") (KILL-01)'
    )


def test_sha256_is_the_hash_of_the_file_bytes() -> None:
    """Each profile carries the SHA-256 of its file's exact bytes."""
    for path in REPO_PROFILES_DIR.glob("*.toml"):
        assert load_profile(path).sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_sha256_changes_with_a_comment(tmp_path: Path) -> None:
    """Two files with the same rules but different bytes have different hashes."""
    first = load_profile(_write(tmp_path, BASE, "one"))
    second = load_profile(_write(tmp_path, "# edited\n" + BASE, "two"))
    assert first.draw == second.draw
    assert first.sha256 != second.sha256


# ---------------------------------------------------------------- the generic loader


def test_every_field_of_house_rules_is_a_key(tmp_path: Path) -> None:
    """A file that writes every HouseRules field (built from the dataclass) loads to it."""
    text = BASE.replace('[game]\nvariant = "five_card_draw"\n', "")
    defaults = HouseRules()
    for section in fields(HouseRules):
        value = getattr(defaults, section.name)
        if not is_dataclass(value):
            continue
        text += f"[{section.name}]\n"
        for item in fields(value):
            if section.name == "draw" and item.name == "timeout_effect":
                continue  # only with a draw timer (tested below)
            text += f"{item.name} = {_toml_value(getattr(value, item.name))}\n"
    rules = load_profile(_write(tmp_path, text))
    assert rules.draw == defaults.draw
    assert rules.game == defaults.game
    assert (rules.profile_id, rules.name) == ("test", "Test rules")


def test_unknown_section_key_names_its_path_and_the_known_keys(tmp_path: Path) -> None:
    """A misspelt key fails with its dotted path and the keys that section knows."""
    message = _error(tmp_path, _with({"draw": "max_card = 3"}))
    assert message.startswith("test.toml: draw.max_card: unknown key")
    assert "max_cards" in message


def test_unknown_top_level_key_is_rejected(tmp_path: Path) -> None:
    """An unknown top-level table is an error naming it."""
    message = _error(tmp_path, _with({"bring_in": "mode = 1"}))
    assert message.startswith("test.toml: bring_in: unknown key; known keys in the top level: id,")


def test_out_of_range_integer_names_the_range(tmp_path: Path) -> None:
    """draw.max_cards = 7 fails with the path, the allowed range and the value."""
    message = _error(tmp_path, _with({"draw": "max_cards = 7"}))
    assert message == "test.toml: draw.max_cards: must be an integer 0-5, got 7"


def test_string_for_an_integer_is_a_type_error(tmp_path: Path) -> None:
    """A quoted number is not an integer."""
    message = _error(tmp_path, _with({"draw": 'max_cards = "3"'}))
    assert message == 'test.toml: draw.max_cards: must be an integer 0-5, got "3" (string)'


def test_boolean_for_an_integer_is_a_type_error(tmp_path: Path) -> None:
    """true is not an integer even though Python's bool is an int."""
    message = _error(tmp_path, _with({"table": "max_buy_in = true"}))
    assert message == "test.toml: table.max_buy_in: must be an integer >= 0, got true (boolean)"


def test_integer_for_a_boolean_is_a_type_error(tmp_path: Path) -> None:
    """1 is not true."""
    message = _error(tmp_path, _with({"betting": "check_raise = 1"}))
    assert message == "test.toml: betting.check_raise: must be true or false, got 1"


def test_section_that_is_not_a_table_is_rejected(tmp_path: Path) -> None:
    """A section written as a value fails with its path."""
    message = _error(tmp_path, BASE.replace("[game]", "draw = 3\n[game]"))
    assert message == "test.toml: draw: must be a table [draw], got 3"


def test_bad_enum_lists_the_allowed_values(tmp_path: Path) -> None:
    """An unknown option value fails with every allowed string value."""
    message = _error(tmp_path, _with({"draw": 'bottom_card = "sometimes"'}))
    assert message == (
        "test.toml: draw.bottom_card: must be one of never, only_if_it_completes_all_draws,"
        ' normal_card; got "sometimes" (string)'
    )


def test_enum_is_read_by_its_value_not_its_name(tmp_path: Path) -> None:
    """The Python member name (NORMAL_CARD) is not accepted, only the value."""
    message = _error(tmp_path, _with({"draw": 'bottom_card = "NORMAL_CARD"'}))
    assert "draw.bottom_card: must be one of" in message


def test_name_and_variant_are_required(tmp_path: Path) -> None:
    """A file without name or game.variant fails naming the missing key."""
    assert (
        _error(tmp_path, BASE.replace('name = "Test rules"\n', "")) == "test.toml: name: required"
    )
    no_variant = 'name = "x"\n[game]\nstructure = "no_limit"\n'
    assert _error(tmp_path, no_variant) == "test.toml: game.variant: required"


def test_empty_name_is_rejected(tmp_path: Path) -> None:
    """A blank name fails."""
    assert (
        _error(tmp_path, BASE.replace('"Test rules"', '" "'))
        == "test.toml: name: must not be empty"
    )


def test_id_must_match_the_file_name(tmp_path: Path) -> None:
    """An `id` that differs from the file stem fails; an equal one is accepted."""
    message = _error(tmp_path, 'id = "other"\n' + BASE)
    assert message == "test.toml: id: must match the file name 'test', got \"other\" (string)"
    assert load_profile(_write(tmp_path, 'id = "test"\n' + BASE)).profile_id == "test"


@pytest.mark.parametrize("key", ["sha256", "profile_id"])
def test_derived_fields_cannot_be_written(tmp_path: Path, key: str) -> None:
    """sha256 and profile_id come from the file itself, never from its contents."""
    message = _error(tmp_path, f'{key} = "x"\n' + BASE)
    assert message.startswith(f"test.toml: {key}: not allowed in a profile file")


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    """A syntax error fails with the file name and the parser's position."""
    message = _error(tmp_path, BASE + "[draw\n")
    assert message.startswith("test.toml: not valid TOML:")
    assert "line" in message


def test_profile_id_must_be_a_slug() -> None:
    """A file stem with capitals or spaces is not a profile ID."""
    with pytest.raises(ProfileError, match=r"Bad Name\.toml: file name: profile ID"):
        parse_profile("Bad Name", BASE.encode(), source="Bad Name.toml")


# ---------------------------------------------------------------- cross-field invariants

INVARIANT_CASES = {
    # path: (sections that break the invariant, sections that satisfy it)
    "stripped.flush_over_full_house": (  # RANK-04: refused, never silently ignored
        {
            "game": 'variant = "ace_to_seven_stripped"',
            "stripped": "flush_over_full_house = false",
            "table": "max_players = 5",
        },
        {
            "game": 'variant = "ace_to_seven_stripped"',
            "stripped": "flush_over_full_house = true",
            "table": "max_players = 5",
        },
    ),
    "draw.four_with_ace": (
        {"draw": "four_with_ace = true\nmax_cards = 5"},
        {"draw": "four_with_ace = true\nmax_cards = 3"},
    ),
    "draw.timeout_effect": (
        {"draw": 'timeout_effect = "pat_no_aggression"'},
        {"draw": 'timeout_effect = "pat_no_aggression"\ntimeout_seconds = 30'},
    ),
    "table.min_buy_in": (
        {"table": "min_buy_in = 500\nmax_buy_in = 200"},
        {"table": "min_buy_in = 500\nmax_buy_in = 0"},
    ),
    "table.max_players": (
        {"game": 'variant = "ace_to_seven_stripped"', "table": "max_players = 6"},
        {"game": 'variant = "ace_to_seven_stripped"', "table": "max_players = 5"},
    ),
    "betting.short_all_in": (
        {"game": 'structure = "no_limit"'},
        {"game": 'structure = "no_limit"', "betting": 'short_all_in = "full_bet"'},
    ),
    "betting.reopen_per_player": (  # BET-04/05: pokerkit's rule reopens its own way
        {"betting": 'short_all_in = "pokerkit"\nreopen_per_player = true'},
        {"betting": 'short_all_in = "pokerkit"\nreopen_per_player = false'},
    ),
    "blinds.button_straddle": (  # BLIND-14 (WSOP 22): no button straddle in limit games
        {"blinds": "button_straddle = true"},
        {
            "game": 'structure = "no_limit"',
            "betting": 'short_all_in = "full_bet"',
            "blinds": "button_straddle = true",
        },
    ),
    "betting.pot_limit_round_blinds_up": (
        {"betting": "pot_limit_round_blinds_up = true"},
        {
            "game": 'structure = "pot_limit"',
            "betting": 'pot_limit_round_blinds_up = true\nshort_all_in = "full_bet"',
        },
    ),
    "betting.post_draw_first": (
        {"betting": 'post_draw_first = "opener"'},
        {"game": 'forced_bets = "antes"', "betting": 'post_draw_first = "opener"'},
    ),
    "open.requirement": (
        {"open": 'requirement = "jacks_or_better"'},
        {"game": 'forced_bets = "antes"', "open": 'requirement = "jacks_or_better"'},
    ),
    "blinds.single_blind": (
        {"game": 'forced_bets = "antes"', "blinds": "single_blind = true"},
        {"game": 'forced_bets = "blinds_and_antes"', "blinds": "single_blind = true"},
    ),
    "blinds.straddle_allowed": (
        {"game": 'forced_bets = "antes"', "blinds": "straddle_allowed = true"},
        {"blinds": "straddle_allowed = true"},
    ),
    "blinds.chop": (  # SHOW-08: a chop needs a small and a big blind
        {"blinds": "chop = true\nsingle_blind = true"},
        {"game": 'forced_bets = "blinds_and_antes"', "blinds": "chop = true"},
    ),
    "game.structure": (  # KILL-01: kill pots are fixed limit only
        {
            "game": 'structure = "no_limit"',
            "betting": 'short_all_in = "full_bet"',
            "kill": 'mode = "required"',
        },
        {"game": 'structure = "fixed_limit"', "kill": 'mode = "required"'},
    ),
    "game.forced_bets": (  # KILL-01: the kill blind is a multiple of the big blind
        {"game": 'forced_bets = "antes"', "kill": 'mode = "required"'},
        {"game": 'forced_bets = "blinds_and_antes"', "kill": 'mode = "required"'},
    ),
    "rake.percent": (  # RAKE-01: a percent collection names its percent
        {"rake": 'collection = "percent"'},
        {"rake": 'collection = "percent"\npercent = 10'},
    ),
    "rake.per_hand": (  # RAKE-01: a per-hand collection names its amount
        {"rake": 'collection = "per_hand"'},
        {"rake": 'collection = "per_hand"\nper_hand = 2'},
    ),
    "rake.time_amount": (  # RAKE-05: time collection names its amount
        {"rake": 'collection = "time"'},
        {"rake": 'collection = "time"\ntime_amount = 6'},
    ),
    "rake.chip_unit": (  # RAKE-01: whole chips
        {"rake": 'collection = "percent"\npercent = 10\nchip_unit = 5\ncap = 12'},
        {"rake": 'collection = "percent"\npercent = 10\nchip_unit = 5\ncap = 15'},
    ),
    "open.max_consecutive_antes": (  # OPEN-03: pass-outs happen only in games with openers
        {"game": 'forced_bets = "antes"', "open": "max_consecutive_antes = 3"},
        {
            "game": 'forced_bets = "antes"',
            "open": 'requirement = "jacks_or_better"\nmax_consecutive_antes = 3',
        },
    ),
}


def test_every_invariant_has_cases() -> None:
    """Each invariant in profiles.INVARIANTS is tested both ways below."""
    assert {invariant.path for invariant in INVARIANTS} == set(INVARIANT_CASES)


@pytest.mark.parametrize("path", sorted(INVARIANT_CASES))
def test_invariant_rejects(tmp_path: Path, path: str) -> None:
    """A profile that breaks a cross-field invariant fails with the invariant's field path."""
    message = _error(tmp_path, _with(INVARIANT_CASES[path][0]))
    assert message.startswith(f"test.toml: {path}: ")


@pytest.mark.parametrize("path", sorted(INVARIANT_CASES))
def test_invariant_accepts(tmp_path: Path, path: str) -> None:
    """The same field set consistently loads."""
    assert load_profile(_write(tmp_path, _with(INVARIANT_CASES[path][1])))


def test_four_with_ace_message_says_what_to_do(tmp_path: Path) -> None:
    """The invariant message tells the author which value is required."""
    message = _error(tmp_path, _with({"draw": "four_with_ace = true"}))
    assert message == (
        "test.toml: draw.four_with_ace: four with an ace shown needs draw.max_cards = 3"
        " (DRAW-02: three, or four with an ace)"
    )


# ---------------------------------------------------------------- directories and lookup


def test_load_profiles_reports_every_bad_file(tmp_path: Path) -> None:
    """One error lists each invalid file, so a start-up failure shows them all."""
    _write(tmp_path, BASE, "good")
    _write(tmp_path, _with({"draw": "max_cards = 9"}), "bad-one")
    _write(tmp_path, _with({"draw": "burn = true"}), "bad-two")
    with pytest.raises(ProfileError) as caught:
        load_profiles(tmp_path)
    lines = str(caught.value).splitlines()
    assert [line.split(":")[0] for line in lines] == ["bad-one.toml", "bad-two.toml"]


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_load_profiles_rejects_a_directory_without_profiles(tmp_path: Path, make: str) -> None:
    """A missing or empty profiles directory is a ProfileError, not an empty dict."""
    folder = tmp_path / "profiles"
    if make == "empty":
        folder.mkdir()
    with pytest.raises(ProfileError, match="profiles"):
        load_profiles(folder)


def test_get_profile_unknown_names_the_known_ones(tmp_path: Path) -> None:
    """An unknown profile ID is NotFound and lists the profiles that exist."""
    _write(tmp_path, BASE, "house")
    with pytest.raises(NotFound, match="known profiles: house"):
        get_profile("nope", tmp_path)


def test_get_profile_refuses_paths(tmp_path: Path) -> None:
    """A profile ID cannot climb out of the profiles directory."""
    _write(tmp_path, BASE, "secret")
    inner = tmp_path / "inner"
    inner.mkdir()
    _write(inner, BASE, "house")
    with pytest.raises(NotFound):
        get_profile("../secret", inner)


def test_default_dir_is_the_repo_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the environment variable the repo's config/house_rules is used."""
    monkeypatch.delenv(PROFILES_DIR_ENV, raising=False)
    assert default_profiles_dir() == REPO_PROFILES_DIR
    assert get_profile("replay-permissive").profile_id == "replay-permissive"


def test_environment_overrides_the_default_dir(tmp_path: Path) -> None:
    """DEALERASSIST_PROFILES_DIR wins over the repo directory."""
    assert default_profiles_dir({PROFILES_DIR_ENV: str(tmp_path)}) == tmp_path


# ---------------------------------------------------------------- the CLI


def test_cli_lists_every_shipped_profile_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """`dealerassist profiles` prints every profile with its hash prefix and exits 0."""
    assert main(["profiles", "--dir", str(REPO_PROFILES_DIR)]) == 0
    out = capsys.readouterr().out
    assert f"{len(SHIPPED)} profiles valid" in out
    for profile_id in SHIPPED:
        digest = hashlib.sha256((REPO_PROFILES_DIR / f"{profile_id}.toml").read_bytes())
        assert f"{profile_id} " in out
        assert digest.hexdigest()[:12] in out


def test_cli_shows_the_optional_kill_profile_in_the_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The optional-kill profile is listed with its kill, its id no wider than the column."""
    assert main(["profiles", "--dir", str(REPO_PROFILES_DIR)]) == 0
    lines = capsys.readouterr().out.splitlines()
    (index,) = [i for i, line in enumerate(lines) if line.startswith("casino-triple-draw-27-opt")]
    assert (
        "; kill optional full; misdeal until two_players_acted; exposed card kept 75432;"
        in lines[index + 1]
    )
    hash_columns = {line.index(f" {line.split()[1]} ") for line in lines[:-1:2]}
    summary_columns = {len(line) - len(line.lstrip()) for line in lines[1:-1:2]}
    assert len(hash_columns) == 1 and len(summary_columns) == 1


def test_cli_uses_the_default_dir(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --dir the command validates the default directory."""
    monkeypatch.delenv(PROFILES_DIR_ENV, raising=False)
    assert main(["profiles"]) == 0
    assert f"{len(SHIPPED)} profiles valid" in capsys.readouterr().out


def test_cli_exits_1_on_a_broken_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An invalid profile makes the command print the error and exit 1."""
    _write(tmp_path, _with({"draw": "max_cards = 7"}), "broken")
    assert main(["profiles", "--dir", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "broken.toml: draw.max_cards: must be an integer 0-5, got 7" in captured.err
    assert captured.out == ""


def test_the_summary_names_the_options_a_profile_turns_on() -> None:
    """`dealerassist profiles` shows kills, the ante limit and the misdeal deadline only when
    a profile sets them."""
    assert "kill" not in summary(HouseRules()) and "misdeal" not in summary(HouseRules())
    rules = HouseRules(
        kill=KillRules(mode=KillMode.REQUIRED),
        open=OpenRules(max_consecutive_antes=3),
        irregularities=IrregularityRules(MisdealDeadline.TWO_PLAYERS_ACTED),
    )
    line = summary(rules)
    assert line.endswith(
        "; kill required full; antes stop after 3 pass-outs; misdeal until two_players_acted"
    )
    assert "side pots" not in line and "first orbit" not in line
    rules = HouseRules(
        showdown=ShowdownRules(side_pots_first=True), blinds=BlindRules(new_game_orbit=True)
    )
    assert summary(rules).endswith("; side pots shown first; new game's first orbit free")
    assert "chop" not in summary(HouseRules())
    assert summary(HouseRules(blinds=BlindRules(chop=True))).endswith("; blinds may chop")


# -- IRREG-03: the ranks of an exposed card kept on the deal ---------------------------------------

EXPOSED_KEEP = {
    "casino-five-card-draw": "any",  # RRoP-DH #3
    "casino-five-card-draw-raked": "any",  # RRoP-DH #3
    "home-game-five-card-draw": "any",
    "home-game-no-limit-draw": "any",
    "ace-to-seven-stripped": "any",
    "replay-permissive": "any",
    "casino-triple-draw-27": "75432",  # RRoP-LB limit 2-7
    "casino-triple-draw-27-kill": "75432",
    "casino-triple-draw-27-optional-kill": "75432",
    "single-draw-27-no-limit": "none",  # WSOP lowball
    "pot-limit-five-card-draw": "any",  # RRoP-DH #3
}


def test_IRREG_03_accepts_the_shipped_profiles_keep_ranks() -> None:
    """Every shipped profile states its exposed-card rule, with its source."""
    assert set(EXPOSED_KEEP) == SHIPPED
    for profile_id, keep in EXPOSED_KEEP.items():
        path = REPO_PROFILES_DIR / f"{profile_id}.toml"
        assert load_profile(path).irregularities.exposed_keep_ranks == keep
        line = next(x for x in path.read_text().splitlines() if x.startswith("exposed_keep"))
        assert "# IRREG-03:" in line and "(" in line  # the comment cites its source


@pytest.mark.parametrize("value", ['"any"', '"none"', '"75432"', '"A2345"', '"5432A"'])
def test_IRREG_03_accepts_any_none_or_rank_symbols(tmp_path: Path, value: str) -> None:
    """The option is "any", "none" or distinct rank symbols, read as written."""
    rules = load_profile(
        _write(tmp_path, _with({"irregularities": f"exposed_keep_ranks = {value}"}))
    )
    assert rules.irregularities.exposed_keep_ranks == value.strip('"')


def test_IRREG_03_accepts_a_profile_without_the_option_as_keep_any() -> None:
    """Left out, the option keeps every exposed card: no entry asks for a replacement."""
    assert HouseRules().irregularities.exposed_keep_ranks == "any"
    assert "exposed" not in summary(HouseRules())


@pytest.mark.parametrize(
    ("value", "shown"),
    [('"76x"', '"76x" (string)'), ('"77"', '"77" (string)'), ("7", "7"), ('"t5"', '"t5" (string)')],
)
def test_IRREG_03_rejects_a_keep_ranks_that_is_no_set_of_ranks(
    tmp_path: Path, value: str, shown: str
) -> None:
    """A bad value names the field path and what is allowed."""
    error = _error(tmp_path, _with({"irregularities": f"exposed_keep_ranks = {value}"}))
    assert "test.toml: irregularities.exposed_keep_ranks: must be" in error
    if value.startswith('"'):
        assert 'must be "any", "none" or rank symbols from 23456789TJQKA' in error
    else:
        assert f"must be a string, got {shown}" in error


def test_the_summary_names_the_exposed_card_rule_when_cards_are_replaced() -> None:
    """`dealerassist profiles` shows the IRREG-03 rule unless every exposed card is kept."""
    limit = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="75432"))
    wsop = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="none"))
    assert summary(limit).endswith("; exposed card kept 75432")
    assert summary(wsop).endswith("; exposed card replaced")


# -- every shipped profile says what applies ---------------------------------------------------


def _not_applicable(rules: HouseRules) -> set[str]:
    """Options a profile may leave out because its game never reads them."""
    skipped: set[str] = set()
    if rules.game.variant is not Variant.ACE_TO_SEVEN_STRIPPED:
        skipped |= {f"stripped.{f.name}" for f in fields(StrippedRules)}
    if rules.game.structure is not Structure.FIXED_LIMIT:  # BET-03: the cap is fixed limit's
        skipped |= {
            "betting.max_raises",
            "betting.uncapped_heads_up",
            "betting.heads_up",
            "betting.blind_counts_as_bet",
        }
    if rules.draw.timeout_seconds == 0:  # DRAW-11: no timer, so no timeout effect
        skipped.add("draw.timeout_effect")
    return skipped | _rake_not_applicable(rules.rake)


def _rake_not_applicable(rake: RakeRules) -> set[str]:
    """RAKE-01..05: the options of a collection the profile does not take."""
    unused = {
        Collection.NONE: {"percent", "chip_unit", "cap", "min_pot", "per_hand", "no_draw_no_drop"},
        Collection.PERCENT: {"per_hand"},
        Collection.PER_HAND: {"percent", "cap"},
        Collection.TIME: {"percent", "cap", "min_pot", "per_hand", "no_draw_no_drop"},
    }[rake.collection]
    if rake.collection is not Collection.TIME:
        unused |= {"time_amount", "time_period_minutes"}
    if not rake.jackpot_drop:
        unused |= {"jackpot_min_pot", "jackpot_min_players"}
    return {f"rake.{name}" for name in unused}


@pytest.mark.parametrize("profile_id", sorted(SHIPPED))
def test_every_shipped_profile_writes_out_each_option_it_uses(profile_id: str) -> None:
    """The profiles' headers promise that the file alone (and its SHA-256) says what applied:
    no option the game reads is left to a code default that a later release could change
    (IRREG-01/02's misdeal deadline, IRREG-04, OPEN-03's ante limit and KILL-01 were)."""
    path = REPO_PROFILES_DIR / f"{profile_id}.toml"
    written = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = load_profile(path)
    missing = [
        f"{section.name}.{option.name}"
        for section in fields(HouseRules)
        if section.name not in ("profile_id", "name", "sha256")
        for option in fields(getattr(rules, section.name))
        if option.name not in written.get(section.name, {})
    ]
    assert sorted(set(missing) - _not_applicable(rules)) == []


def test_the_summary_names_the_IRREG_04_burn_rule_only_when_the_house_burns_it() -> None:
    """`dealerassist profiles` shows WSOP's "next burn" for a card exposed on the draw; the
    default (among the discards) is not shown."""
    wsop = HouseRules(
        irregularities=IrregularityRules(exposed_draw=ExposedDrawCard.BECOMES_NEXT_BURN)
    )
    assert summary(wsop).endswith("; card exposed on the draw is the next burn")
    assert "next burn" not in summary(HouseRules())


# -- SHOW-01 (WSOP 149): side-pot hands show before a main-pot-only all-in ------------------------

SIDE_POTS_FIRST = {
    "casino-five-card-draw": True,
    "casino-five-card-draw-raked": True,
    "casino-triple-draw-27": True,
    "casino-triple-draw-27-kill": True,
    "casino-triple-draw-27-optional-kill": True,
    "single-draw-27-no-limit": True,
    "pot-limit-five-card-draw": True,
    "ace-to-seven-stripped": True,
    "home-game-five-card-draw": False,  # seed 000 names no side-pot order
    "home-game-no-limit-draw": False,  # seed 000 names no side-pot order
    "replay-permissive": False,  # the PHH files' shows keep their recorded order
}


def test_SHOW_01_accepts_side_pots_first_as_each_shipped_profile_states_it() -> None:
    """The casino profiles show side pots first (WSOP 149); the home game and the replay
    profile keep one order; every file says so with the rule ID in its comment."""
    assert set(SIDE_POTS_FIRST) == SHIPPED
    for profile_id, expected in SIDE_POTS_FIRST.items():
        path = REPO_PROFILES_DIR / f"{profile_id}.toml"
        assert load_profile(path).showdown.side_pots_first is expected, profile_id
        line = next(x for x in path.read_text().splitlines() if x.startswith("side_pots_first"))
        assert "# SHOW-01" in line, profile_id


def test_SHOW_01_accepts_a_profile_without_side_pots_first_as_off() -> None:
    """Left out, the option is off: one SHOW-01 order, as every hand recorded before it."""
    assert HouseRules().showdown.side_pots_first is False
    text = _with({"showdown": 'odd_chip = "left_of_button"'})  # a [showdown] without the key
    rules = parse_profile("test", text.encode(), source="test.toml")
    assert rules.showdown.side_pots_first is False


@pytest.mark.parametrize("value", ["true", "false"])
def test_SHOW_01_accepts_side_pots_first_true_or_false(tmp_path: Path, value: str) -> None:
    """showdown.side_pots_first reads a TOML boolean."""
    rules = load_profile(_write(tmp_path, _with({"showdown": f"side_pots_first = {value}"})))
    assert rules.showdown.side_pots_first is (value == "true")


@pytest.mark.parametrize(
    ("value", "shown"), [('"yes"', '"yes" (string)'), ("1", "1"), ('"true"', '"true" (string)')]
)
def test_SHOW_01_rejects_a_side_pots_first_that_is_not_a_boolean(
    tmp_path: Path, value: str, shown: str
) -> None:
    """A string or a number is no boolean: the error names the field path and what is allowed."""
    message = _error(tmp_path, _with({"showdown": f"side_pots_first = {value}"}))
    assert message == f"test.toml: showdown.side_pots_first: must be true or false, got {shown}"


# -- SHOW-08 (WSOP 71): the blinds may chop when everyone else folds to them -------------------

CHOP = {
    "casino-five-card-draw": True,
    "casino-five-card-draw-raked": True,
    "casino-triple-draw-27": True,
    "casino-triple-draw-27-kill": True,  # KILL-06: never with the kill in a blind
    "casino-triple-draw-27-optional-kill": True,
    "single-draw-27-no-limit": True,
    "pot-limit-five-card-draw": True,
    "ace-to-seven-stripped": False,  # its sources (seed 000, online 32CD rooms) have no chop
    "home-game-five-card-draw": False,  # an ante game: no blinds
    "home-game-no-limit-draw": False,  # an ante game: no blinds
    "replay-permissive": False,  # pokerkit has no chop
}


def test_SHOW_08_accepts_chop_as_each_shipped_profile_states_it() -> None:
    """The casino blind games let the blinds chop (WSOP 71); the stripped-deck game, the ante
    game and the replay profile do not; every file says so with the rule ID in its comment."""
    assert set(CHOP) == SHIPPED
    for profile_id, expected in CHOP.items():
        path = REPO_PROFILES_DIR / f"{profile_id}.toml"
        assert load_profile(path).blinds.chop is expected, profile_id
        line = next(x for x in path.read_text().splitlines() if x.startswith("chop"))
        assert "# SHOW-08" in line, profile_id


def test_SHOW_08_accepts_a_profile_without_chop_as_off() -> None:
    """Left out, the option is off: the small blind plays it out, as before the option."""
    assert HouseRules().blinds.chop is False
    text = _with({"blinds": 'button_method = "dead"'})
    assert parse_profile("test", text.encode(), source="test.toml").blinds.chop is False


def test_SHOW_08_rejects_a_chop_in_an_ante_profile(tmp_path: Path) -> None:
    """An ante game has no blinds to chop: the error names the field and what it needs."""
    message = _error(tmp_path, _with({"game": 'forced_bets = "antes"', "blinds": "chop = true"}))
    assert message.startswith("test.toml: blinds.chop: chopping needs a small and a big blind")


# -- RAKE-01..05: the house's take, house policy posted at the table --------------------------


def test_RAKE_01_accepts_the_raked_profile_as_ten_percent_to_four_with_a_jackpot_drop() -> None:
    """casino-five-card-draw-raked is casino-five-card-draw (every other option the same) plus
    10% rounded down to 1 chip, at most 4 a hand, no draw no drop, a jackpot drop of 1 from a
    pot of 20 (issue 23: the rake is house policy; no rule book fixes it)."""
    raked = get_profile("casino-five-card-draw-raked", REPO_PROFILES_DIR)
    plain = get_profile("casino-five-card-draw", REPO_PROFILES_DIR)
    assert raked.rake == RakeRules(
        collection=Collection.PERCENT,
        percent=10,
        chip_unit=1,
        cap=4,
        no_draw_no_drop=True,
        jackpot_drop=1,
        jackpot_min_pot=20,
    )
    assert replace(raked, rake=plain.rake, profile_id="", name="", sha256="") == replace(
        plain, profile_id="", name="", sha256=""
    )
    assert summary(raked).endswith("; rake 10% cap 4; no draw no drop; jackpot drop 1 from 20")


def test_RAKE_01_accepts_every_other_shipped_profile_as_taking_no_rake() -> None:
    """Every other shipped profile says in its file that it takes no rake and no jackpot drop;
    a profile without the section takes none either (every version recorded before it)."""
    for profile_id in sorted(SHIPPED - {"casino-five-card-draw-raked"}):
        path = REPO_PROFILES_DIR / f"{profile_id}.toml"
        written = tomllib.loads(path.read_text(encoding="utf-8"))["rake"]
        assert written == {"collection": "none", "jackpot_drop": 0}, profile_id
        assert "rake" not in summary(load_profile(path)), profile_id
    assert parse_profile("test", BASE.encode(), source="test.toml").rake == RakeRules()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("percent = 101", "rake.percent: must be an integer 0-100, got 101"),
        ("percent = -1", "rake.percent: must be an integer 0-100, got -1"),
        ("cap = -4", "rake.cap: must be an integer >= 0, got -4"),
        ("jackpot_drop = -1", "rake.jackpot_drop: must be an integer >= 0, got -1"),
        ("chip_unit = 0", "rake.chip_unit: must be an integer >= 1, got 0"),
        ("percent = 4.5", "rake.percent: must be an integer 0-100, got 4.5 (float)"),
        ('collection = "drop"', "rake.collection: must be one of none, percent, per_hand, time"),
    ],
)
def test_RAKE_01_refuses_a_bad_rake_section_with_its_field_path(
    tmp_path: Path, lines: str, message: str
) -> None:
    """A percent outside 0-100, a negative cap or drop, a chip unit below 1: the profile is
    refused at start-up (load_profiles) with the field path."""
    base = 'collection = "percent"' if lines.startswith("percent") else "percent = 10"
    text = _with({"rake": lines if lines.startswith("collection") else f"{base}\n{lines}"})
    assert _error(tmp_path, text).startswith(f"test.toml: {message}")


def test_RAKE_05_accepts_time_collection_in_the_summary() -> None:
    """`dealerassist profiles` names a time collection and its period."""
    rules = HouseRules(rake=RakeRules(collection=Collection.TIME, time_amount=6))
    assert summary(rules).endswith("; time 6 a seat per 30 min")
