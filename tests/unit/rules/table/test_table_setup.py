"""A new table fits its house-rule profile: its game, and stakes that make that game."""

from __future__ import annotations

from typing import Any

import pytest

from dealerassist.errors import InvalidFields
from dealerassist.profiles import get_profile
from dealerassist.rules.model.actions import Stakes, TableSpec
from dealerassist.rules.model.house_rules import ForcedBets, Structure, Variant
from dealerassist.rules.table.table_setup import check_table_spec, stake_problems

LIMIT = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)


def _spec(**changes: Any) -> TableSpec:
    values: dict[str, Any] = {
        "table_id": "T1",
        "variant": Variant.FIVE_CARD_DRAW,
        "structure": Structure.FIXED_LIMIT,
        "stakes": LIMIT,
        "profile_id": "casino-five-card-draw",
    }
    return TableSpec(**{**values, **changes})


def _refusal(spec: TableSpec, profile: str = "casino-five-card-draw") -> dict[str, Any]:
    with pytest.raises(InvalidFields) as refused:
        check_table_spec(spec, get_profile(profile))
    return refused.value.errors


@pytest.mark.parametrize(
    ("profile", "variant", "structure", "stakes"),
    [
        ("casino-five-card-draw", Variant.FIVE_CARD_DRAW, Structure.FIXED_LIMIT, LIMIT),
        ("casino-triple-draw-27", Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Structure.FIXED_LIMIT, LIMIT),
        (
            "single-draw-27-no-limit",
            Variant.DEUCE_TO_SEVEN_SINGLE_DRAW,
            Structure.NO_LIMIT,
            Stakes(small_blind=1, big_blind=2),
        ),
        (
            "home-game-five-card-draw",
            Variant.FIVE_CARD_DRAW,
            Structure.FIXED_LIMIT,
            Stakes(ante=1, small_bet=2, big_bet=4),
        ),
        ("ace-to-seven-stripped", Variant.ACE_TO_SEVEN_STRIPPED, Structure.FIXED_LIMIT, LIMIT),
    ],
)
def test_GAME_06_accepts_a_table_of_its_profiles_game(
    profile: str, variant: Variant, structure: Structure, stakes: Stakes
) -> None:
    """The game the profile was written for, with the forced bets it plays: accepted."""
    rules = get_profile(profile)
    assert (rules.game.variant, rules.game.structure) == (variant, structure)
    check_table_spec(_spec(variant=variant, structure=structure, stakes=stakes), rules)


def test_GAME_06_rejects_a_table_of_another_game_than_its_profiles() -> None:
    """A 2-7 table under the five-card-draw profile, or a no-limit one under a fixed-limit
    profile, would be adjudicated by rules written for another game: refused, both named."""
    errors = _refusal(_spec(variant=Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW))
    assert list(errors) == ["variant"]
    assert "written for five_card_draw" in errors["variant"][0]
    errors = _refusal(_spec(structure=Structure.NO_LIMIT))
    assert list(errors) == ["structure"]
    assert "written for fixed_limit" in errors["structure"][0]


def test_BLIND_01_rejects_a_small_blind_above_the_big_blind() -> None:
    errors = _refusal(_spec(stakes=Stakes(small_blind=5, big_blind=2, small_bet=2, big_bet=4)))
    assert errors == {
        "stakes": {"small_blind": ["The small blind (5) is at most the big blind (2) (BLIND-01)."]}
    }


def test_BLIND_01_accepts_a_small_blind_equal_to_the_big_blind() -> None:
    """Some rooms post two equal blinds: not above, so accepted."""
    assert (
        stake_problems(Stakes(small_blind=2, big_blind=2), ForcedBets.BLINDS, Structure.NO_LIMIT)
        == {}
    )


def test_BLIND_01_rejects_a_blind_game_without_a_big_blind_and_an_ante_game_with_blinds() -> None:
    errors = _refusal(_spec(stakes=Stakes(ante=1, small_bet=2, big_bet=4)))
    assert set(errors["stakes"]) == {"big_blind", "ante"}  # no big blind; an ante it does not play
    errors = _refusal(
        _spec(stakes=Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)),
        "home-game-five-card-draw",
    )
    assert set(errors["stakes"]) == {"small_blind", "ante"}  # blinds it does not play; no ante


def test_BLIND_01_rejects_a_fixed_limit_big_blind_above_the_small_bet() -> None:
    """Seed 003: the big blind usually equals the small bet; above it, the first raise would
    be smaller than the blind."""
    errors = _refusal(_spec(stakes=Stakes(small_blind=5, big_blind=10, small_bet=2, big_bet=4)))
    assert list(errors["stakes"]) == ["big_blind"]
    assert "at most the small bet (2)" in errors["stakes"]["big_blind"][0]


def test_BET_02_rejects_a_big_bet_below_the_small_bet() -> None:
    errors = _refusal(_spec(stakes=Stakes(small_blind=1, big_blind=2, small_bet=4, big_bet=2)))
    assert errors == {
        "stakes": {"big_bet": ["The big bet (2) is at least the small bet (4) (BET-02)."]}
    }


def test_BET_02_accepts_limits_left_to_the_blinds() -> None:
    """Fixed limit without small and big bets plays the big blind and twice it (variants)."""
    assert (
        stake_problems(Stakes(small_blind=1, big_blind=2), ForcedBets.BLINDS, Structure.FIXED_LIMIT)
        == {}
    )
