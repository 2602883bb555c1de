"""The PHH model and its text, both ways (dealerassist.audit.phh.codec): a hand written and
read again is the same hand, and a file our writer wrote is written again byte for byte."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from fakes import fake_services
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phh_data import PHH_DATA

from dealerassist.audit.hands import hand_records
from dealerassist.audit.phh import toml
from dealerassist.audit.phh.codec import DECK, dumps, loads, parse_action
from dealerassist.audit.phh.model import HandHistory, Kill, PostPart
from dealerassist.audit.phh.reader import VARIANTS, to_commands
from dealerassist.audit.phh.writer import hand_to_phh, to_history
from dealerassist.errors import InvalidInput
from dealerassist.profiles import get_profile
from dealerassist.service import tables as use_cases
from dealerassist.service.ports import AnswerKind

RECORDED = Path(__file__).resolve().parents[3] / "hands" / "recorded"  # our own exports
ALL_FILES = sorted([*PHH_DATA.rglob("*.phh"), *RECORDED.glob("*.phh")])

CHIPS = st.integers(min_value=0, max_value=10**9)
NAMES = st.text(max_size=12)  # any name a player may have: JSON's escapes, DEL, quotes
CARD_TOKENS = st.sampled_from([*DECK, "??"])
CARDS = st.lists(CARD_TOKENS, min_size=1, max_size=5).map("".join)


def _action_texts(count: int) -> st.SearchStrategy[str]:
    word = st.integers(min_value=1, max_value=count).map(lambda n: f"p{n}")
    return st.one_of(
        st.builds(lambda p, cards: f"d dh {p} {cards}", word, CARDS),
        st.builds(lambda p, code: f"{p} {code}", word, st.sampled_from(["f", "cc", "sd", "sm"])),
        st.builds(lambda p, amount: f"{p} cbr {amount}", word, CHIPS),
        st.builds(
            lambda p, code, cards: f"{p} {code} {cards}", word, st.sampled_from(["sd", "sm"]), CARDS
        ),
        CARDS.map(lambda cards: f"d db {cards}"),
    )


def _per_player(count: int, values: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.tuples(*[values] * count)


@st.composite
def _posts(draw: st.DrawFn, count: int) -> tuple[tuple[PostPart, ...], ...]:
    """Our ``_posts``: one big blind, at most one small blind, any other parts."""
    others = [PostPart.RETURNING_BIG_BLIND, PostPart.ENTERING_BIG_BLIND]
    others += [PostPart.DEAD_SMALL_BLIND, PostPart.KILL]
    parts = [draw(st.lists(st.sampled_from(others), max_size=2, unique=True)) for _ in range(count)]
    big = draw(st.integers(min_value=0, max_value=count - 1))
    parts[big].insert(0, PostPart.BIG_BLIND)
    small = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=count - 1)))
    if small is not None and small != big:
        parts[small].insert(0, PostPart.SMALL_BLIND)
    return tuple(tuple(player) for player in parts)


@st.composite
def _ours(draw: st.DrawFn, count: int, actions: tuple[Any, ...]) -> dict[str, Any]:
    """Our own fields, each valid for a hand of ``count`` players and those actions."""
    player = st.integers(min_value=1, max_value=count)
    acted = [i for i, action in enumerate(actions) if action.player and action.code != "dh"]
    effect = st.fixed_dictionaries(
        {"effect": st.sampled_from(["kill_hand", "award", "adjust_stack"]), "player": player},
        optional={"amount": st.integers(-50, 50), "pots": st.lists(st.lists(player, max_size=2))},
    )
    ruling = st.fixed_dictionaries(
        {"decision": st.sampled_from(["custom", "no_redress"]), "effects": st.lists(effect)},
        optional={"rule_id": st.sampled_from(["IRREG-13", "SHOW-07"]), "note": NAMES},
    )
    kill_items = st.permutations(["big_bet", "blind", "seat", "small_bet"]).flatmap(
        lambda keys: st.tuples(*[st.tuples(st.just(key), CHIPS) for key in keys])
    )
    return {
        "dead_small_blind": draw(CHIPS),
        "posts": draw(st.one_of(st.none(), _posts(count))),
        "time_collected": draw(st.one_of(st.just(()), _per_player(count, CHIPS))),
        "dealt_in_turn": draw(st.booleans()),
        "early_fifths": tuple(draw(st.lists(st.tuples(player, player, player), max_size=2))),
        "exposed": tuple(
            draw(
                st.lists(
                    st.tuples(
                        player,
                        st.integers(0, 3),
                        st.sampled_from(DECK),
                        st.lists(st.sampled_from(DECK), min_size=1, max_size=3).map(tuple),
                    ),
                    max_size=2,
                )
            )
        ),
        "accepted": tuple(
            (index, draw(st.sampled_from(["OPEN-01", "BET-08"])))
            for index in draw(
                st.lists(st.sampled_from(acted), unique=True) if acted else st.just([])
            )
        ),
        "ruled": tuple(draw(st.lists(st.tuples(st.integers(0, len(actions)), ruling), max_size=2))),
        "boxed": tuple(draw(st.lists(st.tuples(st.integers(0, count), CARD_TOKENS), max_size=2))),
        "rake": draw(st.one_of(st.none(), CHIPS)),
        "jackpot_drop": draw(st.one_of(st.none(), CHIPS)),
        "pot_rake": draw(st.one_of(st.none(), st.lists(st.tuples(CHIPS, CHIPS, CHIPS)).map(tuple))),
        "cancelled": draw(st.booleans()),
        "chopped": draw(st.integers(0, count)),
        **{key: draw(st.one_of(st.none(), NAMES)) for key in _PROVENANCE},
        "first_seq": draw(st.one_of(st.none(), CHIPS)),
        "last_seq": draw(st.one_of(st.none(), CHIPS)),
        "kill": draw(
            st.one_of(
                st.none(),
                st.builds(
                    lambda items, p: Kill((*items, ("player", p))),
                    kill_items,
                    st.integers(0, count),
                ),
            )
        ),
        "rulings": tuple(draw(st.lists(NAMES, max_size=2))),
    }


_PROVENANCE = ("table_id", "profile_id", "profile_sha256", "started_at", "ended_at", "last_hash")
_VARIANTS = [
    "F2L3D",
    "N2L1D",
    "FB",
    "fixed_limit/five_card_draw",
    "no_limit/ace_to_five_single_draw",
]


@st.composite
def hand_histories(draw: st.DrawFn) -> HandHistory:
    """Any hand our model holds: the standard's fields and ours, each valid or absent."""
    count = draw(st.integers(min_value=2, max_value=6))
    actions = tuple(map(parse_action, draw(st.lists(_action_texts(count), max_size=12))))
    maybe = lambda values: st.one_of(st.none(), values)  # noqa: E731
    return HandHistory(
        variant=draw(st.sampled_from(_VARIANTS)),
        antes=draw(_per_player(count, CHIPS)),
        blinds_or_straddles=draw(_per_player(count, CHIPS)),
        starting_stacks=draw(_per_player(count, CHIPS)),
        actions=actions,
        ante_trimming_status=draw(st.booleans()),
        bring_in=draw(CHIPS),
        small_bet=draw(CHIPS),
        big_bet=draw(CHIPS),
        min_bet=draw(CHIPS),
        author=draw(maybe(NAMES)),
        event=draw(maybe(NAMES)),
        hand=draw(maybe(st.integers(-5, 10**6))),
        players=draw(maybe(_per_player(count, NAMES))),
        finishing_stacks=draw(maybe(_per_player(count, CHIPS))),
        winnings=draw(maybe(_per_player(count, CHIPS))),
        year=draw(maybe(st.integers(1970, 2100))),
        month=draw(maybe(st.integers(1, 12))),
        day=draw(maybe(st.integers(1, 31))),
        **draw(_ours(count, actions)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_histories())
def test_a_hand_written_and_read_again_is_the_same_hand(hand: HandHistory) -> None:
    """model -> dumps -> loads == model, for every field of the standard and of ours."""
    text = dumps(hand)
    assert loads(text) == hand
    assert toml.parse(text) == tomllib.loads(text)  # valid TOML, read alike by both readers


@pytest.mark.parametrize("path", sorted(RECORDED.glob("*.phh")), ids=lambda path: path.name)
def test_a_file_our_writer_wrote_is_written_again_byte_for_byte(path: Path) -> None:
    """The recorded exports (tests/hands/recorded: the dealer soak's, card and count mode, a
    kill, a dead small blind): loads -> dumps gives the file's bytes."""
    text = path.read_text(encoding="utf-8")
    assert dumps(loads(text)) == text


def test_every_stored_file_reads_as_its_toml_and_round_trips_as_a_model() -> None:
    """Every file of tests/data/phh and tests/hands/recorded: the fast reader gives tomllib's
    mapping, and the model written and read again is the same (other writers' files are not
    ours to keep byte for byte: their quotes, field order and fields we do not model)."""
    assert len(ALL_FILES) > 2800
    for path in ALL_FILES:
        text = path.read_text(encoding="utf-8")
        assert toml.parse(text) == tomllib.loads(text), path
        hand = loads(text)
        assert loads(dumps(hand)) == hand, path


def _exports(count: int) -> list[tuple[dict[str, Any], str]]:
    """Hand records and exports of the first generated hands played through the service."""
    profile = "replay-permissive"
    services = fake_services({profile: get_profile(profile)})
    paths = sorted((PHH_DATA / "generated" / "pokerkit-0.7.7" / "F2L3D").glob("*.phh"))[:count]
    actor, pre = use_cases.Actor("dealer-1", "dealer"), use_cases.Preconditions()
    for number, path in enumerate(paths):
        hand = loads(path.read_text(encoding="utf-8"))
        assert hand.variant in VARIANTS
        spec, commands = to_commands(hand, profile, f"G{number}", get_profile(profile))
        answer = use_cases.create_table(services, spec.to_dict(), actor, pre)
        assert answer.kind is not AnswerKind.REJECTED
        for command in commands:
            answer = use_cases.execute(services, spec.table_id, command, actor, pre)
            assert answer.kind is not AnswerKind.REJECTED, answer.body
    events = services.tables.staged  # type: ignore[attr-defined]
    return [(record, hand_to_phh(record)) for record in hand_records(events)]


def test_an_export_reads_as_the_model_the_writer_made_and_writes_again_as_itself() -> None:
    """Hands dealt through the service: the writer's model (``to_history``) is what its text
    reads as, and that text is written again byte for byte."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exports = _exports(8)
    assert len(exports) == 8
    for record, text in exports:
        assert loads(text) == to_history(record)
        assert dumps(loads(text)) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\nhand = 'x'", "hand"),
        ("variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\n_rake = -1", "_rake"),
        ("variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\nwinnings = [1]", "winnings"),
        ("variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\n_boxed = [[1]]", "_boxed"),
        (
            "variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\n_kill = {player = 1}",
            "_kill",
        ),
        ("variant = 'F2L3D'\nstarting_stacks = [1, 2]\nactions = []\n_table_id = 3", "_table_id"),
    ],
)
def test_loads_rejects_a_field_of_the_wrong_kind(text: str, words: str) -> None:
    """A field the model holds is checked when read: a clear InvalidInput naming it."""
    with pytest.raises(InvalidInput, match=words):
        loads(text)


def test_dumps_names_our_own_variant_in_a_comment_that_loads_ignores() -> None:
    """PHH has no code for five-card draw: our own name, and a comment saying so."""
    hand = HandHistory("fixed_limit/five_card_draw", (0, 0), (5, 10), (100, 100), ())
    text = dumps(hand)
    assert text.startswith("# PHH has no variant code for fixed_limit/five_card_draw;")
    assert "small_bet = 0\nbig_bet = 0\n" in text and "min_bet" not in text
    assert loads(text) == hand
