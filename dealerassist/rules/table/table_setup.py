"""A new table must fit its house-rule profile and have stakes that make a game.

The profile names the game it was written for (``[game]``: variant, structure, forced bets),
and its other options are checked against that game when it is loaded (openers only in an
ante game of five-card draw, the 36-card deck only in A-7 stripped, ...). A table dealing
another game under it would be adjudicated by rules written for a different game, so
``check_table_spec`` refuses it when the table is opened, with each field at fault named.

The engine itself does not call this: a table recorded before the check existed must still
replay, so the service checks each table it opens (``service/tables.py``).
"""

from __future__ import annotations

from typing import Any

from dealerassist.errors import InvalidFields
from dealerassist.rules.model.actions import Stakes, TableSpec
from dealerassist.rules.model.house_rules import ForcedBets, HouseRules, Structure
from dealerassist.rules.model.variants import big_bet, small_bet


def check_table_spec(spec: TableSpec, rules: HouseRules) -> None:
    """Refuse (``InvalidFields``, 400) a table whose game or stakes do not fit ``rules``."""
    errors: dict[str, Any] = {}
    game = rules.game
    if spec.variant is not game.variant:  # GAME-01..05
        errors["variant"] = [
            f"Profile {rules.profile_id} is written for {game.variant}; open this table as "
            f"{game.variant} or pick a profile for {spec.variant}."
        ]
    if spec.structure is not game.structure:  # GAME-06
        errors["structure"] = [
            f"Profile {rules.profile_id} is written for {game.structure}; open this table as "
            f"{game.structure} or pick a profile for {spec.structure}."
        ]
    stakes = stake_problems(spec.stakes, game.forced_bets, spec.structure)
    if stakes:
        errors["stakes"] = stakes
    if errors:
        raise InvalidFields("The table does not fit its house-rule profile.", errors)


def stake_problems(
    stakes: Stakes, forced_bets: ForcedBets, structure: Structure
) -> dict[str, list[str]]:
    """Each stake at fault with why: the forced bets the profile plays (BLIND-01, GAME-01),
    a small blind above the big blind (BLIND-01), limits out of order (GAME-06, BET-02).

    >>> stake_problems(Stakes(small_blind=1, big_blind=2), ForcedBets.BLINDS, Structure.NO_LIMIT)
    {}
    >>> stake_problems(Stakes(small_blind=5, big_blind=2), ForcedBets.BLINDS, Structure.NO_LIMIT)
    {'small_blind': ['The small blind (5) is at most the big blind (2) (BLIND-01).']}
    """
    problems: dict[str, list[str]] = {}
    blinds = forced_bets is not ForcedBets.ANTES
    antes = forced_bets is not ForcedBets.BLINDS
    if blinds and stakes.big_blind <= 0:
        problems["big_blind"] = [f"The profile plays {forced_bets}: set a big blind (BLIND-01)."]
    if not blinds and (stakes.small_blind or stakes.big_blind):
        name = "small_blind" if stakes.small_blind else "big_blind"
        problems[name] = ["The profile plays antes without blinds: leave the blinds at 0."]
    if antes and stakes.ante <= 0 and stakes.big_blind_ante <= 0:
        problems["ante"] = [f"The profile plays {forced_bets}: set an ante (GAME-01)."]
    if not antes and (stakes.ante or stakes.big_blind_ante):
        name = "ante" if stakes.ante else "big_blind_ante"
        problems[name] = ["The profile plays blinds without antes: leave the ante at 0."]
    if stakes.big_blind and stakes.small_blind > stakes.big_blind:
        problems["small_blind"] = [
            f"The small blind ({stakes.small_blind}) is at most the big blind "
            f"({stakes.big_blind}) (BLIND-01)."
        ]
    if structure is Structure.FIXED_LIMIT:
        problems.update(_limit_problems(stakes))
    return problems


def _limit_problems(stakes: Stakes) -> dict[str, list[str]]:
    """GAME-06/BET-02: fixed limit bets the small bet, then the big bet, and the big blind is
    at most the small bet (seed 003: it usually equals it)."""
    small, big = small_bet(stakes), big_bet(stakes)
    problems: dict[str, list[str]] = {}
    if big < small:
        problems["big_bet"] = [f"The big bet ({big}) is at least the small bet ({small}) (BET-02)."]
    if stakes.big_blind > small:
        problems["big_blind"] = [
            f"In fixed limit the big blind ({stakes.big_blind}) is at most the small bet "
            f"({small}) (BLIND-01)."
        ]
    return problems
