"""The PHH model: one hand history as typed, frozen values, in PHH's own terms.

``HandHistory`` holds the standard's fields (phh.readthedocs.io: the game, forced bets,
stacks, actions, players and the hand's place in an event) and the fields our exports add,
whose names in the file start with ``_`` (the field of the same name here without it, except
``kill`` for ``_kill``). ``codec.loads`` makes one from a file's text and ``codec.dumps``
writes it back; ``writer`` makes one from a hand record and ``reader`` replays one. Players
are PHH's numbers (p1..pn, ``numbering``), never our seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

UNKNOWN_CARD = "??"
HAND_SIZE = 5


class ActionCode(StrEnum):
    """The PHH action codes (``d dh``, ``pN cbr`` ...)."""

    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    FOLD = "f"
    CHECK_OR_CALL = "cc"
    COMPLETE_BET_OR_RAISE_TO = "cbr"
    STAND_PAT_OR_DISCARD = "sd"
    SHOW_OR_MUCK = "sm"
    POST_BRING_IN = "pb"


class PostPart(StrEnum):
    """Our ``_posts``: the engine's names of what a player posted (rules.blinds, rules.kills)."""

    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    RETURNING_BIG_BLIND = "returning_big_blind"
    ENTERING_BIG_BLIND = "entering_big_blind"
    DEAD_SMALL_BLIND = "dead_small_blind"
    KILL = "kill"


@dataclass(frozen=True, slots=True)
class Action:
    """One PHH action, and ``text``, the action as the file wrote it (``codec.action_text``).

    ``player`` is the PHH player number (from 1), None for a board deal. ``cards`` are
    the dealt, discarded or shown cards (``??`` for unknown ones); for ``sd`` an empty
    tuple stands pat; for ``sm`` None mucks and an empty tuple (``sm -``) shows the cards
    held without naming them.
    """

    code: ActionCode
    player: int | None
    amount: int | None = None
    cards: tuple[str, ...] | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class Kill:
    """Our ``_kill`` (KILL-01): the hand's kill record as the engine wrote it (``seat``, the
    kill ``blind``, the hand's ``small_bet``/``big_bet``) and ``player``, the player who
    kills (0: not dealt in), each (name, chips) in the file's order."""

    items: tuple[tuple[str, int], ...]

    def get(self, name: str, default: int = 0) -> int:
        return next((value for key, value in self.items if key == name), default)

    @property
    def player(self) -> int:
        return self.get("player")

    @property
    def blind(self) -> int:
        return self.get("blind") if self.player else 0


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One PHH hand. Fields with ``None`` (or an empty value for ours) are not in the file."""

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[Action, ...]
    ante_trimming_status: bool = False
    # the bet sizes: ``small_bet`` and ``big_bet`` of a fixed-limit game, written even when 0,
    # ``min_bet`` of the others, written even when 0 (``codec.fixed_limit``)
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0
    author: str | None = None
    event: str | None = None
    city: str | None = None
    region: str | None = None
    country: str | None = None
    hand: int | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    year: int | None = None
    month: int | None = None
    day: int | None = None
    # ``_dead_small_blind``: p1 posted the big blind and nobody the small blind (BLIND-03/07)
    dead_small_blind: int = 0
    # ``_posts``: each player's forced bet by the engine's names (writer._post_parts), when
    # it is more than PHH's blinds say (a missed blind made up, a newcomer, a kill)
    posts: tuple[tuple[PostPart, ...], ...] | None = None
    # ``_time_collected``: the time (RAKE-05) each player paid after the posts and before the
    # deal. ``starting_stacks`` are net of it
    time_collected: tuple[int, ...] = ()
    dealt_in_turn: bool = False  # ``_dealt_in_turn``: replacements dealt right after a discard
    # ``_early_fifths``: [p, q, k] a fifth card of p dealt once q had made its k-th draw,
    # before q's cards
    early_fifths: tuple[tuple[int, int, int], ...] = ()
    # ``_exposed``: (p, k, card, later) p's card exposed and replaced (IRREG-03/04) in its deal
    # line after its k-th draw (0: the hole cards), and the cards dealt into the line after it
    exposed: tuple[tuple[int, int, str, tuple[str, ...]], ...] = ()
    # ``_accepted``: (i, rule) the action at index i of ``actions`` was refused and the floor
    # let it bind, waiving ``rule`` (a ruling's ``accept_entry``: out of turn, OPEN-01/BET-08)
    accepted: tuple[tuple[int, str], ...] = ()
    # ``_ruled``: (i, ruling) the floor's ruling (decision, rule, note, the effects that change
    # the hand, seats named by player number) made before the action at index i of ``actions``
    # (i = the number of actions: after them all)
    ruled: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    # ``_boxed``: (player, card) a card found face up in the stub (DECK-06) as the player's
    # cards were dealt
    boxed: tuple[tuple[int, str], ...] = ()
    rake: int | None = None  # ``_rake``, ``_jackpot_drop``: the hand's totals (RAKE-01..03)
    jackpot_drop: int | None = None
    # ``_pot_rake``: each pot, main pot first: (amount, rake, jackpot drop)
    pot_rake: tuple[tuple[int, int, int], ...] | None = None
    cancelled: bool = False  # ``_cancelled``: the hand was called off before the deal
    chopped: int = 0  # ``_chopped``: the player who entered the blinds' chop (SHOW-08)
    # ``_won_unshown``: the player whose hand won at the showdown without being shown, the
    # others mucked (SHOW-02); the last action tables its cards for PHH readers
    won_unshown: int = 0
    # our exports: where the hand is in the audit log, and the profile version it was dealt
    # under (its id and SHA-256)
    table_id: str | None = None
    profile_id: str | None = None
    profile_sha256: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    last_hash: str | None = None
    kill: Kill | None = None  # ``_kill``
    rulings: tuple[str, ...] = ()  # ``_rulings``: every ruling of the hand, in words
    dealers: tuple[str, ...] = ()  # ``_dealers``: the dealers on duty (employee IDs), in order

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def kill_player(self) -> int:
        """The player who kills the hand (KILL-01), 0 if nobody."""
        return self.kill.player if self.kill is not None else 0

    @property
    def kill_blind(self) -> int:
        return self.kill.blind if self.kill is not None else 0

    @property
    def label(self) -> str:
        """The hand's event and number, as a reader names it (``event | hand N``)."""
        parts = [str(part) for part in (self.event, self.hand) if part is not None]
        return " | hand ".join(parts)

    @property
    def count_mode(self) -> bool:
        """Our export (it names its ``_profile_id``) of a count-mode hand: no dealt card is
        named. The dealer entered only how many cards each player drew, and the engine dealt
        them at once, before the next player drew (four of a five-card draw, the fifth after
        the others or first when the stub ran low, DRAW-03/06), burning and reshuffling as it
        went: PHH's order, every discard of a draw before its deals, would keep the later
        drawers' discards out of a reshuffle (DRAW-06) that took them."""
        if not self.profile_id:
            return False
        deals = [action.cards or () for action in self.actions if action.code is _DEAL_HOLE]
        return bool(deals) and all(card == UNKNOWN_CARD for cards in deals for card in cards)


_DEAL_HOLE = ActionCode.DEAL_HOLE
