"""House-rule profiles: config/house_rules/*.toml -> HouseRules (the only place TOML is read).

A profile file's tables and keys mirror the sections and fields of
:class:`~dealerassist.rules.model.house_rules.HouseRules` exactly; the loader is built from the
dataclass fields and their type hints, so a new field needs no change here. Every problem
is a :class:`~dealerassist.errors.ProfileError` that names the file and the field path::

    casino-five-card-draw.toml: draw.max_cards: must be an integer 0-5, got 7

Besides the sections a file holds ``name`` (required) and ``id`` (optional; when present it
must equal the file stem). ``profile_id`` is the file stem and ``sha256`` the SHA-256 of the
file's bytes, so a hand can record exactly which rules applied.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from dealerassist.errors import NotFound, ProfileError
from dealerassist.rules.floor.exposed import KEEP_ANY, KEEP_NONE, keep_ranks_problem
from dealerassist.rules.model.house_rules import (
    Collection,
    ExposedDrawCard,
    ForcedBets,
    HouseRules,
    KillMode,
    MisdealDeadline,
    OpenRequirement,
    PostDrawFirst,
    ShortAllInRule,
    Structure,
    Variant,
)

PROFILES_DIR_ENV = "DEALERASSIST_PROFILES_DIR"
PROFILE_SUFFIX = ".toml"
REPO_PROFILES_DIR = Path(__file__).resolve().parent.parent / "config" / "house_rules"
_PROFILE_ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
VERSIONS_DIR = "versions"  # every version of every profile: versions/<id>/<sha256>.toml

Table = Mapping[str, Any]
T = TypeVar("T")

# Allowed integer ranges by field path (inclusive; None = no upper bound). Integers not
# listed here must simply be non-negative (chip amounts, counts, seconds).
INT_RANGES: dict[str, tuple[int, int | None]] = {
    "table.max_players": (2, 10),  # GAME-07
    "betting.max_raises": (3, 4),  # BET-03: bet + 3 raises or bet + 4 raises
    "draw.max_cards": (0, 5),  # DRAW-02
    "draw.max_consecutive": (4, 5),  # DRAW-03: 4 = fifth card after the others, 5 = off
    "draw.timeout_seconds": (0, 600),  # DRAW-11: 0 = no draw timer
    "rake.percent": (0, 100),  # RAKE-01: a percent of the pot
    "rake.chip_unit": (1, None),  # RAKE-01: the smallest chip, at least 1
    "rake.jackpot_min_players": (0, 10),  # RAKE-03: 0 = any number dealt in
    "rake.time_period_minutes": (1, 1440),  # RAKE-05: a period of at most a day
}
# Strings with a form of their own, by field path: the check says what is wrong, or None.
STR_CHECKS: dict[str, Callable[[str], str | None]] = {
    "irregularities.exposed_keep_ranks": keep_ranks_problem,  # IRREG-03: "any", "none", "75432"
}
# Top-level fields a file may not set: the loader derives them.
_DERIVED = {
    "profile_id": "is the file name; write `id` to state it",
    "sha256": "is computed from the file's bytes",
}
_REQUIRED = ("name", "game.variant")


class _BadField(Exception):
    """A field-level problem; ``parse_profile`` prefixes the file name."""


# ---------------------------------------------------------------- public API


def default_profiles_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The profiles directory: ``$DEALERASSIST_PROFILES_DIR`` if set, else the repo's.

    Reads the environment, so call it from the edge (cli, settings, bootstrap) only.
    """
    env = os.environ if environ is None else environ
    configured = env.get(PROFILES_DIR_ENV, "").strip()
    if configured:
        return Path(configured)
    if REPO_PROFILES_DIR.is_dir():
        return REPO_PROFILES_DIR
    raise ProfileError(
        f"no house-rule profiles at {REPO_PROFILES_DIR}; set {PROFILES_DIR_ENV} to the "
        "directory holding the *.toml profiles"
    )


def load_profile(path: str | os.PathLike[str]) -> HouseRules:
    """Read and validate one profile file; its stem is the profile ID."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as error:
        raise ProfileError(f"{file}: cannot read: {error.strerror or error}") from None
    return parse_profile(file.stem, data, source=file.name)


def load_profiles(directory: str | os.PathLike[str]) -> dict[str, HouseRules]:
    """Every ``*.toml`` profile in ``directory`` by ID; one error lists every bad file."""
    folder = Path(directory)
    paths = _profile_paths(folder)
    profiles: dict[str, HouseRules] = {}
    problems: list[str] = []
    for path in paths:
        try:
            profiles[path.stem] = load_profile(path)
        except ProfileError as error:
            problems.append(str(error))
    if problems:
        raise ProfileError("\n".join(problems))
    return profiles


def get_profile(profile_id: str, directory: str | os.PathLike[str] | None = None) -> HouseRules:
    """The profile named ``profile_id`` (NotFound if there is none, ProfileError if bad)."""
    folder = default_profiles_dir() if directory is None else Path(directory)
    path = folder / f"{profile_id}{PROFILE_SUFFIX}"
    if not _PROFILE_ID.match(profile_id) or not path.is_file():
        known = ", ".join(p.stem for p in _profile_paths(folder))
        raise NotFound(f"no house-rule profile {profile_id!r}; known profiles: {known}")
    return load_profile(path)


def profile_version(
    profile_id: str, sha256: str, directory: str | os.PathLike[str] | None = None
) -> HouseRules:
    """The profile exactly as it was when an audit event recorded its SHA-256.

    The current file if it still has that hash, else the archived copy
    ``versions/<profile_id>/<sha256>.toml`` (see ``archive_profiles``), so a hand recorded
    before a profile was edited still replays under the rules it was dealt with. NotFound
    if neither holds that version; ProfileError if an archived copy does not hash to its
    name (it was altered).
    """
    folder = default_profiles_dir() if directory is None else Path(directory)
    if _PROFILE_ID.match(profile_id) and _SHA256.match(sha256):
        current = folder / f"{profile_id}{PROFILE_SUFFIX}"
        if current.is_file():
            data = current.read_bytes()
            if _digest(data) == sha256:
                return parse_profile(profile_id, data, source=current.name)
        archived = _version_path(folder, profile_id, sha256)
        if archived.is_file():
            data = archived.read_bytes()
            source = archived.relative_to(folder).as_posix()
            if _digest(data) != sha256:
                raise ProfileError(f"{source}: its SHA-256 is {_digest(data)}, not its name")
            return parse_profile(profile_id, data, source=source)
    raise NotFound(
        f"no version {sha256} of house-rule profile {profile_id!r}: neither "
        f"{profile_id}{PROFILE_SUFFIX} nor {VERSIONS_DIR}/{profile_id}/{sha256}{PROFILE_SUFFIX} "
        f"in {folder} has it"
    )


def archive_profiles(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """Copy every current profile to ``versions/<profile_id>/<sha256>.toml``; the new copies.

    Idempotent. Run it whenever a profile changes (a test fails until the current version of
    every profile is archived), so every version a hand was ever dealt under stays readable.
    """
    folder = default_profiles_dir() if directory is None else Path(directory)
    written: list[Path] = []
    for path in _profile_paths(folder):
        data = path.read_bytes()
        parse_profile(path.stem, data, source=path.name)  # only valid profiles are archived
        target = _version_path(folder, path.stem, _digest(data))
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written.append(target)
    return written


def _version_path(folder: Path, profile_id: str, sha256: str) -> Path:
    return folder / VERSIONS_DIR / profile_id / f"{sha256}{PROFILE_SUFFIX}"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_profile(profile_id: str, data: bytes, *, source: str) -> HouseRules:
    """Validate the bytes of a profile file named ``source`` into a HouseRules."""
    try:
        _check_profile_id(profile_id)
        raw = _decode(data)
        rules = _build(HouseRules, _top_level(raw, profile_id), "")
        _check_required(raw)
        _check_invariants(rules, raw)
    except _BadField as error:
        raise ProfileError(f"{source}: {error}") from None
    return replace(rules, profile_id=profile_id, sha256=_digest(data))


def summary(rules: HouseRules) -> str:
    """One line of the settings that tell profiles apart (for ``dealerassist profiles``)."""
    game, draw, betting = rules.game, rules.draw, rules.betting
    max_draw = f"{draw.max_cards}+ace" if draw.four_with_ace else str(draw.max_cards)
    cap = "-"
    if game.structure is Structure.FIXED_LIMIT:
        blind = "" if betting.blind_counts_as_bet else " (blind not a bet)"
        cap = f"bet+{betting.max_raises}{blind}"
    timer = f"{draw.timeout_seconds}s" if draw.timeout_seconds else "off"
    extras = []  # options off unless a profile sets them
    if rules.kill.mode is not KillMode.OFF:
        extras.append(f"kill {rules.kill.mode} {rules.kill.size}")
    if rules.open.max_consecutive_antes:
        extras.append(f"antes stop after {rules.open.max_consecutive_antes} pass-outs")
    if rules.irregularities.misdeal_deadline is not MisdealDeadline.NONE:
        extras.append(f"misdeal until {rules.irregularities.misdeal_deadline}")
    keep = rules.irregularities.exposed_keep_ranks
    if keep != KEEP_ANY:  # IRREG-03
        extras.append("exposed card replaced" if keep == KEEP_NONE else f"exposed card kept {keep}")
    if rules.irregularities.exposed_draw is not ExposedDrawCard.TO_DISCARDS:  # IRREG-04
        extras.append("card exposed on the draw is the next burn")
    if rules.showdown.side_pots_first:  # SHOW-01 (WSOP 149)
        extras.append("side pots shown first")
    if rules.blinds.new_game_orbit:  # BLIND-11 (c)
        extras.append("new game's first orbit free")
    if rules.blinds.chop:  # SHOW-08 (WSOP 71)
        extras.append("blinds may chop")
    extras.extend(_rake_summary(rules))
    return (
        f"{game.variant} {game.structure} {game.forced_bets}; players<={rules.table.max_players};"
        f" cap {cap}; draw<={max_draw} in-a-row<={draw.max_consecutive};"
        f" bottom {draw.bottom_card}; pool {draw.reshuffle_pool}; timer {timer};"
        f" button {rules.blinds.button_method}" + "".join(f"; {extra}" for extra in extras)
    )


def _rake_summary(rules: HouseRules) -> list[str]:
    """RAKE-01..05: the house's take, when the profile takes one."""
    rake, extras = rules.rake, []
    if rake.collection is Collection.PERCENT:
        cap = f" cap {rake.cap}" if rake.cap else ""
        extras.append(f"rake {rake.percent}%{cap}")
    elif rake.collection is Collection.PER_HAND:
        extras.append(f"rake {rake.per_hand} a hand")
    elif rake.collection is Collection.TIME:
        extras.append(f"time {rake.time_amount} a seat per {rake.time_period_minutes} min")
    if rake.no_draw_no_drop and rake.collection in (Collection.PERCENT, Collection.PER_HAND):
        extras.append("no draw no drop")
    if rake.jackpot_drop:
        extras.append(f"jackpot drop {rake.jackpot_drop} from {rake.jackpot_min_pot}")
    return extras


# ---------------------------------------------------------------- files and TOML


def _profile_paths(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise ProfileError(f"{folder}: not a directory of house-rule profiles")
    paths = sorted(folder.glob(f"*{PROFILE_SUFFIX}"))
    if not paths:
        raise ProfileError(f"{folder}: no *{PROFILE_SUFFIX} house-rule profiles")
    return paths


def _check_profile_id(profile_id: str) -> None:
    if not _PROFILE_ID.match(profile_id):
        raise _BadField(
            f"file name: profile ID {profile_id!r} must be lower-case letters, digits and dashes"
        )


def _decode(data: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise _BadField("not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise _BadField(f"not valid TOML: {error}") from None


def _top_level(raw: Table, profile_id: str) -> dict[str, Any]:
    """The file's top level without ``id`` (checked against the stem), derived keys refused."""
    for key, reason in _DERIVED.items():
        if key in raw:
            raise _BadField(f"{key}: not allowed in a profile file; it {reason}")
    stated = raw.get("id", profile_id)
    if stated != profile_id:
        raise _BadField(f"id: must match the file name {profile_id!r}, got {_show(stated)}")
    return {key: value for key, value in raw.items() if key != "id"}


def _check_required(raw: Table) -> None:
    for path in _REQUIRED:
        if not _present(raw, path):
            raise _BadField(f"{path}: required")
    if not raw["name"].strip():
        raise _BadField("name: must not be empty")


def _present(raw: Table, path: str) -> bool:
    """True when the dotted ``path`` is written in the file."""
    node: Any = raw
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


# ---------------------------------------------------------------- generic builder


def _build(cls: type[T], table: Table, path: str) -> T:
    """An instance of the dataclass ``cls`` from a TOML table, every key type-checked."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(set(table) - set(names))
    if unknown:
        where, known = (f"[{path}]", names) if path else ("the top level", ["id", *names])
        raise _BadField(
            f"{_join(path, unknown[0])}: unknown key; known keys in {where}: "
            + ", ".join(n for n in known if n not in _DERIVED)
        )
    values = {n: _convert(hints[n], table[n], _join(path, n)) for n in names if n in table}
    return cls(**values)


def _convert(hint: Any, value: Any, path: str) -> Any:
    if isinstance(hint, type) and is_dataclass(hint):
        if not isinstance(value, dict):
            raise _BadField(f"{path}: must be a table [{path}], got {_show(value)}")
        return _build(hint, value, path)
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return _to_enum(hint, value, path)
    converter = _SCALARS.get(hint)
    if converter is None:
        raise _BadField(f"{path}: the loader cannot read fields of type {hint!r}")
    return converter(value, path)


def _to_enum(enum: type[StrEnum], value: Any, path: str) -> StrEnum:
    allowed = [member.value for member in enum]
    if not isinstance(value, str) or value not in allowed:
        raise _BadField(f"{path}: must be one of {', '.join(allowed)}; got {_show(value)}")
    return enum(value)


def _to_int(value: Any, path: str) -> int:
    low, high = INT_RANGES.get(path, (0, None))
    if not (_is_int(value) and low <= value and (high is None or value <= high)):
        wanted = f"an integer {low}-{high}" if high is not None else f"an integer >= {low}"
        raise _BadField(f"{path}: must be {wanted}, got {_show(value)}")
    return int(value)


def _to_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _BadField(f"{path}: must be true or false, got {_show(value)}")
    return value


def _to_str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _BadField(f"{path}: must be a string, got {_show(value)}")
    check = STR_CHECKS.get(path)
    problem = None if check is None else check(value)
    if problem is not None:
        raise _BadField(f"{path}: {problem}")
    return value


_SCALARS: dict[Any, Callable[[Any, str], Any]] = {int: _to_int, bool: _to_bool, str: _to_str}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _show(value: Any) -> str:
    """A value as the file wrote it, with its TOML type.

    >>> _show(True), _show("3"), _show(7), _show([1])
    ('true (boolean)', '"3" (string)', '7', '[1] (array)')
    """
    if isinstance(value, bool):
        return f"{str(value).lower()} (boolean)"
    if isinstance(value, str):
        return f'"{value}" (string)'
    if _is_int(value):
        return str(value)
    kinds = {float: "float", list: "array", dict: "table"}
    return f"{value!r} ({kinds.get(type(value), type(value).__name__)})"


# ---------------------------------------------------------------- cross-field invariants


@dataclass(frozen=True, slots=True)
class Invariant:
    """A rule between fields: ``holds(rules, raw)`` is False -> ``path: message``."""

    path: str
    message: str
    holds: Callable[[HouseRules, Table], bool]


def _blind_game(rules: HouseRules) -> bool:
    return rules.game.forced_bets is not ForcedBets.ANTES


def _in_chips(rules: HouseRules) -> bool:
    """RAKE-01: every amount of the rake section is a whole number of the table's chip."""
    rake = rules.rake
    amounts = (rake.cap, rake.per_hand, rake.jackpot_drop, rake.time_amount, rake.min_pot)
    return all(amount % rake.chip_unit == 0 for amount in amounts)


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "stripped.flush_over_full_house",
        "the stripped deck ranks a flush over a full house (RANK-04: a flush is rarer there, "
        "seed 000, 32CD); false is not supported: the ranking has no such table",
        lambda r, _: r.stripped.flush_over_full_house,
    ),
    Invariant(
        "draw.four_with_ace",
        "four with an ace shown needs draw.max_cards = 3 (DRAW-02: three, or four with an ace)",
        lambda r, _: not r.draw.four_with_ace or r.draw.max_cards == 3,
    ),
    Invariant(
        "draw.timeout_effect",
        "needs a draw timer: set draw.timeout_seconds > 0 or drop timeout_effect (DRAW-11)",
        lambda r, raw: r.draw.timeout_seconds > 0 or not _present(raw, "draw.timeout_effect"),
    ),
    Invariant(
        "table.min_buy_in",
        "must not exceed table.max_buy_in",
        lambda r, _: (
            not (r.table.min_buy_in and r.table.max_buy_in)
            or r.table.min_buy_in <= r.table.max_buy_in
        ),
    ),
    Invariant(
        "table.max_players",
        "ace_to_seven_stripped deals at most five players (GAME-05, GAME-07)",
        lambda r, _: (
            r.game.variant is not Variant.ACE_TO_SEVEN_STRIPPED or r.table.max_players <= 5
        ),
    ),
    Invariant(
        "betting.short_all_in",
        "half_bet is the fixed-limit rule; pot_limit and no_limit need full_bet (BET-04, BET-05)",
        lambda r, _: (
            r.betting.short_all_in is not ShortAllInRule.HALF_BET
            or r.game.structure is Structure.FIXED_LIMIT
        ),
    ),
    Invariant(
        "betting.reopen_per_player",
        'does not apply with short_all_in = "pokerkit", which reopens as pokerkit does '
        "(BET-04, BET-05)",
        lambda r, _: (
            not r.betting.reopen_per_player or r.betting.short_all_in is not ShortAllInRule.POKERKIT
        ),
    ),
    Invariant(
        "blinds.button_straddle",
        "button straddles are not permitted in limit games: needs game.structure = no_limit or "
        "pot_limit (BLIND-14, WSOP 22)",
        lambda r, _: not r.blinds.button_straddle or r.game.structure is not Structure.FIXED_LIMIT,
    ),
    Invariant(
        "betting.pot_limit_round_blinds_up",
        "applies only when game.structure = pot_limit (BET-05)",
        lambda r, _: (
            not r.betting.pot_limit_round_blinds_up or r.game.structure is Structure.POT_LIMIT
        ),
    ),
    Invariant(
        "open.max_consecutive_antes",
        "stops the antes after passed-out deals, which only a game with openers has: set "
        "open.requirement (OPEN-02, OPEN-03)",
        lambda r, _: (
            not r.open.max_consecutive_antes or r.open.requirement is not OpenRequirement.NONE
        ),
    ),
    Invariant(
        "betting.post_draw_first",
        "opener acts first after the draw only in ante games: game.forced_bets = antes (OPEN-01)",
        lambda r, _: (
            r.betting.post_draw_first is not PostDrawFirst.OPENER
            or r.game.forced_bets is ForcedBets.ANTES
        ),
    ),
    Invariant(
        "open.requirement",
        "openers need an ante game of five_card_draw: game.forced_bets = antes (OPEN-02)",
        lambda r, _: (
            r.open.requirement is OpenRequirement.NONE
            or (r.game.forced_bets is ForcedBets.ANTES and r.game.variant is Variant.FIVE_CARD_DRAW)
        ),
    ),
    Invariant(
        "blinds.single_blind",
        "needs blinds: game.forced_bets = blinds or blinds_and_antes (BLIND-13)",
        lambda r, _: not r.blinds.single_blind or _blind_game(r),
    ),
    Invariant(
        "blinds.straddle_allowed",
        "needs blinds: game.forced_bets = blinds or blinds_and_antes (BLIND-14)",
        lambda r, _: not r.blinds.straddle_allowed or _blind_game(r),
    ),
    Invariant(
        "blinds.chop",
        "chopping needs a small and a big blind: game.forced_bets = blinds or blinds_and_antes "
        "and blinds.single_blind = false (SHOW-08)",
        lambda r, _: not r.blinds.chop or (_blind_game(r) and not r.blinds.single_blind),
    ),
    Invariant(
        "game.structure",
        "kill pots are a fixed-limit device: with kill.mode on, game.structure must be "
        'fixed_limit (or set kill.mode = "off") (KILL-01)',
        lambda r, _: r.kill.mode is KillMode.OFF or r.game.structure is Structure.FIXED_LIMIT,
    ),
    Invariant(
        "game.forced_bets",
        "the kill blind is a multiple of the big blind: with kill.mode on, game.forced_bets "
        'must be blinds or blinds_and_antes (or set kill.mode = "off") (KILL-01)',
        lambda r, _: r.kill.mode is KillMode.OFF or _blind_game(r),
    ),
    Invariant(
        "rake.percent",
        'collection = "percent" takes 1-100 percent of the pot: set rake.percent (RAKE-01)',
        lambda r, _: r.rake.collection is not Collection.PERCENT or r.rake.percent > 0,
    ),
    Invariant(
        "rake.per_hand",
        'collection = "per_hand" takes a fixed amount: set rake.per_hand > 0 (RAKE-01)',
        lambda r, _: r.rake.collection is not Collection.PER_HAND or r.rake.per_hand > 0,
    ),
    Invariant(
        "rake.time_amount",
        'collection = "time" charges each seat: set rake.time_amount > 0 (RAKE-05)',
        lambda r, _: r.rake.collection is not Collection.TIME or r.rake.time_amount > 0,
    ),
    Invariant(
        "rake.chip_unit",
        "must divide rake.cap, per_hand, min_pot, jackpot_drop and time_amount: the house "
        "takes whole chips (RAKE-01)",
        lambda r, _: _in_chips(r),
    ),
)


def _check_invariants(
    rules: HouseRules, raw: Table, checks: Iterable[Invariant] = INVARIANTS
) -> None:
    for check in checks:
        if not check.holds(rules, raw):
            raise _BadField(f"{check.path}: {check.message}")
