"""PHH hand histories replayed: a ``HandHistory`` (``codec.loads``) mapped to engine commands.

PHH (phh.readthedocs.io) is TOML; we replay the variants we deal, ``F2L3D`` (fixed-limit 2-7
triple draw) and ``N2L1D`` (no-limit 2-7 single draw). Players are numbered from the small
blind; heads-up (pokerkit's convention) player 1 posts the big blind and player 2, the button,
the small blind (``numbering``). Each PHH player ``pN`` sits in our seat ``N`` and the button
goes to the last seat, which places player 1 left of it (small blind), or heads-up makes player
2 the button and small blind; a small blind dead at an empty seat between players (a dead
button) keeps that seat empty, the players after it one seat further on (``replay_seats``), as
does heads-up a big blind moved onto a dead button (a stand-in due the big blind sits out);
heads-up a button coming in with a big blind seats a stand-in in the small blind's place who
waits (``_small_blind_waits``). Unknown cards (``??``) are replaced by placeholder cards that
appear nowhere in the record, so that card mode can still check every card; a seat that later
shows named cards (a count-mode export) was holding those cards, so its placeholders are renamed
to them; when more cards are unknown than unused (reshuffles), the rest stay ``??``, which the
engine takes as a card not entered. Such a count-mode export of ours
(``HandHistory.count_mode``: it names its ``_profile_id`` and no dealt card) is replayed in
turn, as the engine dealt it, so a reshuffle takes the discards the engine's did (DRAW-06).

Our own exports (``audit.phh.writer``) add fields PHH has none for: ``_dead_small_blind``,
``_posts`` and ``_kill`` (what each player posted; ``prepare_table`` seats the replay table
so the engine asks for those posts), ``_dealt_in_turn`` and ``_early_fifths`` (the order the
dealer dealt a draw's replacements in, ``_interleaved_order``), ``_exposed`` (a card the dealer
exposed and replaced, entered again as the dealer did, ``_Mapper._expose``),
``_cancelled``, ``_chopped`` (SHOW-08: the blinds chopped after the folds; the reader
enters the chop for that player, so a profile that does not allow it refuses the hand),
``_won_unshown`` (SHOW-02: the others mucked and that player's hand took the pot unshown; the
last action tables its cards for other readers, and the reader enters no show for it), and
``_accepted`` (an action the floor let bind, out of turn or over a house limit: the reader
enters it as the floor's ``accept_entry`` ruling, waiving the same rule, ``to_commands``), and
``_ruled`` (the floor's other rulings that change the hand, a kill, an award, a stack
adjusted, each entered again as that ruling before the action it came before, its players'
numbers turned into replay seats, ``_ruling_command``), and ``_time_collected`` (RAKE-05: the
time each player paid before the deal; ``starting_stacks`` are net of it, so the reader seats
each player with both and lets the engine take the time again, ``_time_collected``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from dealerassist.audit.phh.codec import DECK, loads, parse_action
from dealerassist.audit.phh.model import (
    UNKNOWN_CARD,
    Action,
    ActionCode,
    HandHistory,
    PostPart,
)
from dealerassist.audit.phh.numbering import Numbering, from_phh_order
from dealerassist.errors import InvalidInput
from dealerassist.rules.floor.exposed import keeps, rank_of
from dealerassist.rules.hand import kills
from dealerassist.rules.hand.dealing import HAND_SIZE
from dealerassist.rules.hand.fifth_cards import splits
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Command,
    Mode,
    SeatPlayer,
    Stakes,
    StartHand,
    Structure,
    TableSpec,
    Variant,
    command_from_dict,
)
from dealerassist.rules.model.house_rules import ButtonMethod, HouseRules
from dealerassist.rules.model.ruling_commands import AcceptEntry, Ruling
from dealerassist.rules.model.state import MissedBlind, Owed, TableState, evolve
from dealerassist.rules.model.violations import RuleId
from dealerassist.rules.table.blinds import LIVE_ENTRY
from dealerassist.rules.table.posting import BIG_BLIND_ONLY

__all__ = ["VARIANTS", "parse_action", "parse_phh", "replay_seats", "to_commands"]

REPLAY_PROFILE = "replay-permissive"
DEAD_SEAT_NAME = "(dead small blind)"  # the stand-in seat of a dead small blind (to_commands)
WAITING_SEAT_NAME = "(waiting)"  # heads-up, the button not the small blind (_waiting_seat)
SAT_OUT_SEAT_NAME = "(sat out in the big blind)"  # heads-up, _big_blind_on_the_button
SMALL_BLIND_WAITS_NAME = "(waiting in the small blind)"  # heads-up, _small_blind_waits
# the stand-ins that wait for the big blind (not dealt in); the others sit out (to_commands)
_WAITING_NAMES = frozenset({WAITING_SEAT_NAME, SMALL_BLIND_WAITS_NAME})

# PHH variant code -> the game we deal and its betting structure.
VARIANTS: dict[str, tuple[Variant, Structure]] = {
    "F2L3D": (Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Structure.FIXED_LIMIT),
    "N2L1D": (Variant.DEUCE_TO_SEVEN_SINGLE_DRAW, Structure.NO_LIMIT),
}

_DEAL_HOLE = ActionCode.DEAL_HOLE
_DISCARD = ActionCode.STAND_PAT_OR_DISCARD


def parse_phh(text: str) -> HandHistory:
    """The hand of a ``.phh`` file's text (``codec.loads``), refused with ``InvalidInput``
    when it is a bad file or one that cannot be replayed: a hand called off before the deal
    (our ``_cancelled``), a card found face up in the stub (our ``_boxed``), fewer than two
    players.

    >>> hand = parse_phh("variant='N2L1D'\\nantes=[0,0]\\nblinds_or_straddles=[1,2]\\n"
    ...                  "min_bet=2\\nstarting_stacks=[10,10]\\nactions=['p2 f']")
    >>> hand.variant, hand.actions[0].code, hand.actions[0].player
    ('N2L1D', <ActionCode.FOLD: 'f'>, 2)
    """
    hand = loads(text)
    check_replayable(hand)
    return hand


def check_replayable(hand: HandHistory) -> None:
    """Raise ``InvalidInput`` when the hand is one no replay plays (``parse_phh``)."""
    if hand.cancelled:  # our own exports: the deal was called off
        raise InvalidInput(
            "the hand was cancelled before it was played (_cancelled: too few players posted, "
            "the posts were returned): there is nothing to replay"
        )
    if hand.boxed:  # our own exports: DECK-06, a card found face up in the stub
        raise InvalidInput(
            "_boxed: a card was found face up in the stub (DECK-06) and set aside, which PHH "
            "cannot say and this reader does not re-enter (the stub would be one card off): "
            "the hand's audit log replays it (dealerassist verify)"
        )
    if hand.player_count < 2:
        raise InvalidInput("starting_stacks: a hand needs at least two players")


def seated_stacks(hand: HandHistory) -> tuple[int, ...]:
    """Each player's stack as the hand began: ``starting_stacks`` plus its time charge.

    >>> seated_stacks(parse_phh("variant='F2L3D'\\nstarting_stacks=[0,494]\\nactions=[]\\n"
    ...                         "_time_collected=[4,6]"))
    (4, 500)
    """
    if not hand.time_collected:
        return hand.starting_stacks
    return tuple(map(sum, zip(hand.starting_stacks, hand.time_collected, strict=True)))


# ---------------------------------------------------------------- mapping to engine commands


def to_commands(
    hand: HandHistory,
    profile_id: str = REPLAY_PROFILE,
    table_id: str = "phh",
    rules: HouseRules | None = None,
) -> tuple[TableSpec, list[Command]]:
    """The table spec and the card-mode commands that replay ``hand`` from an empty table.

    Seats ``1..n`` are PHH players ``p1..pn``; the button is seat ``n``. A dead small blind
    (our ``_dead_small_blind``) is an empty small blind: an extra seat ``n + 1``, between the
    button and p1, takes the small blind's place and sits out before posting it, so p1 posts
    the big blind and nobody a small blind (BLIND-07), as on the recorded table. A small blind
    dead at an empty seat between players (``_empty_small_blind``) keeps that seat empty: the
    big blind and the players after it sit one seat further on (``replay_seats``), and the
    last player holds the button, or when he is the big blind an empty seat after him
    (``_button_past_the_big_blind``). ``rules``, the profile the hand is replayed under: where it
    splits a five-card draw (DRAW-03), PHH's one deal of five replacements is dealt four at
    once and the fifth after the others.

    >>> hand = parse_phh('''
    ... variant = 'N2L1D'
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [8, 15]
    ... actions = ['d dh p1 5c7s6hJh5s', 'd dh p2 AsAd4d8h6s', 'p2 cbr 15', 'p1 cc', 'p1 sd',
    ...            'p2 sd Ad', 'd dh p2 2d', 'p1 sm 5c7s6hJh5s', 'p2 sm As4d8h6s2d']
    ... ''')
    >>> spec, commands = to_commands(hand)
    >>> spec.variant, spec.mode, len(commands)
    (<Variant.DEUCE_TO_SEVEN_SINGLE_DRAW: 'deuce_to_seven_single_draw'>, <Mode.CARD: 'card'>, 14)
    >>> commands[:3]  # doctest: +NORMALIZE_WHITESPACE
    [SeatPlayer(seat=1, player='p1', stack=8), SeatPlayer(seat=2, player='p2', stack=15),
     StartHand(button=2, kill_seat=None)]
    """
    spec = _shared_table_spec(hand, profile_id, table_id)
    numbering = Numbering(replay_seats(hand))
    commands = _seating(hand, numbering, rules)
    live_blinds = _live_blinds(hand)
    by_player: list[Act] = [_post(hand, seat) for seat in _posting_order(hand, live_blinds)]
    split_five = rules is not None and splits(HAND_SIZE, rules)
    mapper = _Mapper(hand, _opening_bets(hand, live_blinds), split_five, rules)
    posts = len(by_player)
    by_player += mapper.commands()
    if hand.chopped:  # SHOW-08: folded to the blinds, they chopped
        by_player.append(Act(seat=hand.chopped, action=ActionKind.CHOP))
    if numbering.seats[-1] != hand.player_count:  # by player number above: to the replay's seats
        by_player = [replace(act, seat=numbering.seat(act.seat)) for act in by_player]
    accepted = {posts + i: rule for i, rule in mapper.accepted.items()}
    ruled: dict[int, list[Command]] = {}
    for at, ruling in mapper.ruled:
        ruled.setdefault(posts + at, []).append(_ruling_command(ruling, numbering))
    return spec, commands + _rulings(by_player, accepted, ruled)


def _seating(hand: HandHistory, numbering: Numbering, rules: HouseRules | None) -> list[Command]:
    """The players seated at their replay seats (``numbering``), the stand-ins for seats the
    file does not list (``_stand_ins``), the hand started (with the volunteer who kills, where
    kills are optional) and the stand-ins that are not dealt in sat out."""
    stacks = seated_stacks(hand)
    commands: list[Command] = [
        SeatPlayer(seat=seat, player=name, stack=stack)
        for seat, name, stack in zip(numbering.seats, _names(hand), stacks, strict=True)
    ]
    stand_ins = _stand_ins(hand)
    if stand_ins:
        stack = max(hand.starting_stacks)
        commands += [SeatPlayer(seat=seat, player=name, stack=stack) for seat, name in stand_ins]
    volunteer = hand.kill_player if rules is not None and kills.is_optional(rules) else 0
    killer = numbering.seat(volunteer) if volunteer else None
    commands.append(StartHand(button=_button_seat(hand), kill_seat=killer))
    for seat, name in stand_ins:
        if name not in _WAITING_NAMES:  # BLIND-07: not dealt in; a big blind moves on
            commands.append(Act(seat=seat, action=ActionKind.SIT_OUT))
    return commands


def _rulings(
    acts: list[Act], accepted: Mapping[int, str], ruled: Mapping[int, list[Command]]
) -> list[Command]:
    """``acts``, each at an index of ``accepted`` entered as the floor's ruling that let it
    bind (``_accepted``): ``accept_entry`` waiving the same rule, as the engine applied it live
    (the turn set to the entry's seat for OPEN-01/BET-08, then back to the seat skipped); and
    the floor's other rulings (``_ruled``) before the act at their index (at ``len(acts)``:
    after them all).

    >>> check = Act(seat=2, action=ActionKind.CHECK)
    >>> ruling = _rulings([check], {0: "OPEN-01"}, {})[0]
    >>> ruling.decision, ruling.rule_id, ruling.effects == (AcceptEntry(check, "OPEN-01"),)
    ('accept_entry', 'OPEN-01', True)
    >>> hold = Ruling(decision="custom", note="surveillance")
    >>> _rulings([check], {}, {1: [hold]}) == [check, hold]
    True
    """
    if not accepted and not ruled:
        return list(acts)
    commands: list[Command] = []
    for index, act in enumerate(acts):
        commands += ruled.get(index, ())
        if index not in accepted:
            commands.append(act)
            continue
        effect = AcceptEntry(entry=act, waive=accepted[index])
        commands.append(Ruling(decision="accept_entry", rule_id=accepted[index], effects=(effect,)))
    return commands + list(ruled.get(len(acts), ()))


def _ruling_command(ruling: Mapping[str, Any], numbering: Numbering) -> Command:
    """One ``_ruled`` ruling as the engine's command, each player number (``player``,
    ``players``, ``pots``) turned into the player's replay seat (``replay_seats``).

    >>> _ruling_command({"decision": "no_redress", "rule_id": "IRREG-13", "effects": [
    ...     {"effect": "kill_hand", "player": 2}]}, Numbering((1, 3))).effects
    (KillHand(seat=3),)
    """

    def seat(player: Any) -> int:
        if type(player) is not int or not 1 <= player <= len(numbering):
            raise InvalidInput(f"_ruled names player {player!r}; the hand has 1..{len(numbering)}")
        return numbering.seat(player)

    effects = []
    for effect in ruling["effects"]:
        if not isinstance(effect, dict):
            raise InvalidInput("_ruled: each effect must be a table with an 'effect' name")
        named = {key: value for key, value in effect.items() if key not in _PLAYER_KEYS}
        if "player" in effect:
            named["seat"] = seat(effect["player"])
        if "players" in effect:
            named["seats"] = [seat(player) for player in _numbers(effect["players"])]
        if "pots" in effect:
            named["pots"] = [[seat(p) for p in _numbers(pot)] for pot in _numbers(effect["pots"])]
        effects.append(named)
    return command_from_dict({**ruling, "type": "ruling", "effects": effects})


_PLAYER_KEYS = frozenset({"player", "players", "pots"})  # _ruled effects naming players


def _numbers(value: Any) -> list[Any]:
    """A ``_ruled`` list (of player numbers, or an award's pots of them)."""
    if not isinstance(value, list):
        raise InvalidInput(f"_ruled: {value!r} must be a list of player numbers")
    return value


def _stand_ins(hand: HandHistory) -> list[tuple[int, str]]:
    """The replay seats of players who stand in for seats the file does not list, and their
    names: a dead small blind's (``_dead_seat``), a waiting player on the button
    (``_waiting_seat``), and heads-up the seat due the big blind that sat out at the post
    (``_big_blind_on_the_button``) or a waiting player in the small blind's place
    (``_small_blind_waits``). All but the waiting players sit out once the hand starts."""
    stand_ins: list[tuple[int, str]] = []
    if hand.posts is None and hand.player_count > 2 and not hand.dead_small_blind:
        return stand_ins  # the usual file, at once
    if hand.dead_small_blind:
        stand_ins.append((_dead_seat(hand), DEAD_SEAT_NAME))
    if _waiting_seat(hand):
        stand_ins.append((_waiting_seat(hand), WAITING_SEAT_NAME))
    if _big_blind_on_the_button(hand):
        stand_ins.append((_ON_THE_BUTTON_SAT_OUT, SAT_OUT_SEAT_NAME))
    if _small_blind_waits(hand):
        stand_ins.append((_dead_seat(hand), SMALL_BLIND_WAITS_NAME))
    return stand_ins


def replay_seats(hand: HandHistory) -> tuple[int, ...]:
    """The replay table's seat of each PHH player, p1 first: seat ``N`` for ``pN``, but when
    the small blind was dead at an empty seat between players (``_empty_small_blind``), that
    seat stays empty and the big blind and the players after it sit one seat further on.

    >>> replay_seats(parse_phh("variant='N2L1D'\\nstarting_stacks=[9,9,9]\\nactions=[]\\n"
    ...     "antes=[5,0,0]\\nblinds_or_straddles=[10,10,0]\\n_posts=[['returning_big_blind',"
    ...     "'dead_small_blind'],['big_blind'],[]]"))
    (1, 3, 4)
    """
    empty = _empty_small_blind(hand)
    if empty:
        return tuple(
            player + 1 if player >= empty else player for player in range(1, hand.player_count + 1)
        )
    if _big_blind_on_the_button(hand):
        return _ON_THE_BUTTON_SEATS
    return tuple(range(1, hand.player_count + 1))


def _post(hand: HandHistory, seat: int) -> Act:
    """The post of ``seat``. BLIND-06 (WSOP 158): a newcomer dealt in between the button and
    the small blind (a dead button) who posted a big blind without the dead small blind
    bought in with the big blind alone (``big_blind_only``): a plain post would charge him
    the dead small blind too where the profile sells the button."""
    newcomer = _parts(hand, seat) == ("entering_big_blind",)
    if newcomer and _before_the_small_blind(hand, seat):
        return Act(seat=seat, action=_POST, option=BIG_BLIND_ONLY)
    return _plain_act(seat, _POST)


def table_spec(
    hand: HandHistory, profile_id: str = REPLAY_PROFILE, table_id: str = "phh"
) -> TableSpec:
    """The card-mode ``TableSpec`` of the hand's game and stakes.

    >>> hand = parse_phh('''
    ... variant = 'N2L1D'
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [8, 15]
    ... actions = ['d dh p1 5c7s6hJh5s', 'd dh p2 AsAd4d8h6s', 'p2 cbr 15', 'p1 cc', 'p1 sd',
    ...            'p2 sd Ad', 'd dh p2 2d', 'p1 sm 5c7s6hJh5s', 'p2 sm As4d8h6s2d']
    ... ''')
    >>> spec = table_spec(hand, "replay-permissive", "T9")
    >>> spec.table_id, spec.structure, spec.max_seats
    ('T9', <Structure.NO_LIMIT: 'no_limit'>, 2)
    """
    if hand.variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise InvalidInput(f"variant {hand.variant!r} is not a game we deal (we read {known})")
    variant, structure = VARIANTS[hand.variant]
    return TableSpec(
        table_id=table_id,
        variant=variant,
        structure=structure,
        stakes=stakes(hand),
        profile_id=profile_id,
        max_seats=max(
            _waiting_seat(hand),
            _button_seat(hand),
            hand.player_count
            + bool(hand.dead_small_blind or _empty_small_blind(hand) or _small_blind_waits(hand)),
        ),
        mode=Mode.CARD,
    )


# Hands of one game and stakes share one (immutable) TableSpec. Errors are not kept.
_TABLE_SPECS: dict[tuple[object, ...], TableSpec] = {}


def _shared_table_spec(hand: HandHistory, profile_id: str, table_id: str) -> TableSpec:
    """``table_spec(hand, profile_id, table_id)``, made once per game and stakes.

    The key holds every field of the hand that ``table_spec`` reads (keep them in step).
    """
    key = (
        hand.variant,
        hand.player_count,
        hand.antes,
        hand.blinds_or_straddles,
        hand.bring_in,
        hand.small_bet,
        hand.big_bet,
        hand.min_bet,
        hand.dead_small_blind,
        hand.posts,
        hand.kill_blind,
        profile_id,
        table_id,
    )
    spec = _TABLE_SPECS.get(key)
    if spec is None:
        if len(_TABLE_SPECS) >= 256:
            _TABLE_SPECS.clear()
        spec = _TABLE_SPECS[key] = table_spec(hand, profile_id, table_id)
    return spec


def stakes(hand: HandHistory) -> Stakes:
    """Blinds, ante (or big-blind ante) and bet sizes; straddles and bring-ins are refused.

    PHH antes ``[0, A, 0, ...]`` in a blind game are the big blind's table ante (WSOP). With
    our ``_posts`` the blinds are those of the players it names, and the other players' posts
    must be what it says they were (a big blind made up or entering, a kill blind).

    >>> hand = parse_phh('''
    ... variant = 'N2L1D'
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [8, 15]
    ... actions = ['d dh p1 5c7s6hJh5s', 'd dh p2 AsAd4d8h6s', 'p2 cbr 15', 'p1 cc', 'p1 sd',
    ...            'p2 sd Ad', 'd dh p2 2d', 'p1 sm 5c7s6hJh5s', 'p2 sm As4d8h6s2d']
    ... ''')
    >>> stakes(hand)
    Stakes(small_blind=1, big_blind=2, ante=0, small_bet=0, big_bet=0, min_bet=2, big_blind_ante=0)
    """
    small, big = _blind_amounts(hand)
    if hand.posts is None:
        blinds = hand.blinds_or_straddles
        if hand.dead_small_blind:  # p1 posted the big blind; the small blind was dead
            blinds = (hand.dead_small_blind, *blinds)
        others_posted = any(blinds[2:]) and not _empty_small_blind(hand)
    else:
        by_player = from_phh_order(hand.blinds_or_straddles)
        others_posted = any(
            by_player[player - 1] > _live_part(hand, player, big)
            for player in range(1, hand.player_count + 1)
            if player not in blind_seats(hand)
        )
    if others_posted or hand.bring_in:
        raise InvalidInput(
            f"blinds_or_straddles {list(hand.blinds_or_straddles)}: only a small and a big "
            "blind are replayed, and posts our _posts names (a straddle, a bring-in, or a "
            "post _posts does not name cannot be posted at a table that starts empty)"
        )
    ante, big_blind_ante = _antes(hand)
    return Stakes(
        small_blind=small,
        big_blind=big,
        ante=ante,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        min_bet=hand.min_bet,
        big_blind_ante=big_blind_ante,
    )


def _parts(hand: HandHistory, player: int) -> tuple[str, ...]:
    """What ``_posts`` says ``player`` posted (nothing when the file has no ``_posts``)."""
    return hand.posts[player - 1] if hand.posts is not None else ()


def _blind_amounts(hand: HandHistory) -> tuple[int, int]:
    """(small blind, big blind) of the stakes."""
    if hand.posts is None:
        blinds = hand.blinds_or_straddles
        if hand.dead_small_blind:
            return hand.dead_small_blind, blinds[0]
        if _big_blind_on_the_button(hand):  # no post was the small blind's: none is replayed
            return 0, blinds[0]
        if _empty_small_blind(hand):  # the same: only the big blind was posted
            return 0, blinds[_empty_small_blind(hand) - 1]
        return blinds[0], blinds[1]
    small, big = blind_seats(hand)
    by_player = from_phh_order(hand.blinds_or_straddles)
    if small <= hand.player_count:
        return by_player[small - 1], by_player[big - 1]
    return hand.dead_small_blind or _made_up_small_blind(hand), by_player[big - 1]


def _made_up_small_blind(hand: HandHistory) -> int:
    """The small blind of a hand whose small blind was dead at an empty seat between players
    (``_empty_small_blind``), which no field states: a player who made up a missed small
    blind posted it dead, written as his ante, so it is that ante less the others' (those who
    made none up). 0 when nobody made one up: then no post of the hand was the small blind's.
    """
    dead: list[int] = []
    plain: list[int] = []
    for player, ante in enumerate(from_phh_order(hand.antes), 1):
        (dead if "dead_small_blind" in _parts(hand, player) else plain).append(ante)
    return max(0, min(dead) - min(plain, default=0)) if dead else 0


def _live_part(hand: HandHistory, player: int, big: int) -> int:
    """The live chips ``_posts`` says a player who is not a blind posted: a kill blind
    (KILL-01), a big blind made up (BLIND-08) or entering (BLIND-05), else none."""
    parts = _parts(hand, player)
    if "kill" in parts:
        return hand.kill_blind
    if "returning_big_blind" in parts or "entering_big_blind" in parts:
        return big
    return 0


def _dead_part(hand: HandHistory, player: int) -> int:
    """A missed small blind ``player`` posted dead (BLIND-08/09), written as its ante: all of
    that ante when it is less (all in for less, BLIND-04)."""
    if "dead_small_blind" not in _parts(hand, player):
        return 0
    return min(_blind_amounts(hand)[0], from_phh_order(hand.antes)[player - 1])


def _antes(hand: HandHistory) -> tuple[int, int]:
    """(ante for everyone, big-blind ante) of the recorded antes (a dead small blind made up,
    in a player's ante, left out)."""
    count = hand.player_count
    if hand.posts is None and len(set(hand.antes)) == 1:  # the usual case, at once
        return hand.antes[0], 0
    antes = [
        ante - _dead_part(hand, player) for player, ante in enumerate(from_phh_order(hand.antes), 1)
    ]
    if len(set(antes)) == 1:
        return antes[0], 0
    big = blind_seats(hand)[1] - 1
    blinds = from_phh_order(hand.blinds_or_straddles)
    if blinds[big] and antes[big] and not any(antes[:big] + antes[big + 1 : count]):
        return 0, antes[big]
    raise InvalidInput(
        f"antes {list(hand.antes)}: only an ante for everyone or a big-blind ante (a dead "
        "blind made up that our _posts does not name cannot be posted at a table that starts "
        "empty)"
    )


def blind_seats(hand: HandHistory) -> tuple[int, int]:
    """(small blind seat, big blind seat): p1 and p2, or heads-up p2 (button) and p1; with a
    dead small blind, the empty seat after the button and p1; or the players our ``_posts``
    names, with ``n + 1`` for a small blind dead at an empty seat between players (no
    player's seat: ``replay_seats`` leaves that seat empty, ``_empty_small_blind``); heads-up
    with the big blind moved onto a dead button, ``n + 1`` and p2
    (``_big_blind_on_the_button``), and with p2 coming in with a big blind, ``n + 1`` (a
    stand-in who waits) and p1 (``_small_blind_waits``)."""
    if hand.posts is not None:
        holders = {part: player for player, parts in enumerate(hand.posts, 1) for part in parts}
        big = holders[PostPart.BIG_BLIND]
        small = holders.get(PostPart.SMALL_BLIND)
        if small is not None:
            return small, big
        if hand.dead_small_blind:
            return _dead_seat(hand), big
        if hand.player_count == 2:
            if _small_blind_waits(hand):  # nobody's seat: the stand-in's, who waits
                return _dead_seat(hand), big
            if _big_blind_on_the_button(hand):  # p2 the big blind, the small blind dead
                return _dead_seat(hand), big
            small = 2 if big == 1 else 1
            if small == 1 and _parts(hand, small):  # the first after the button made up a blind
                raise InvalidInput(
                    f"_posts: heads-up, the small blind was dead and p{small} posted "
                    f"{' and '.join(_parts(hand, small))}: such a hand is not replayed"
                )
            return small, big
        if _empty_small_blind(hand):  # no player's seat: an empty one before the big blind
            return _dead_seat(hand), big
        raise InvalidInput("_posts: nobody posts the small blind, and it is not dead")
    if hand.dead_small_blind:
        return _dead_seat(hand), 1
    if _big_blind_on_the_button(hand):  # p2 the big blind, the small blind dead
        return _dead_seat(hand), 2
    if _empty_small_blind(hand):  # the only blind posted, past players dealt in free
        return _dead_seat(hand), _empty_small_blind(hand)
    return (2, 1) if hand.player_count == 2 else (1, 2)


def _button_seat(hand: HandHistory) -> int:
    """The button: seat n (the last player); heads-up with the small blind first after the
    button (our ``_posts``: p1 the small blind), the waiting seat n + 1 (``_waiting_seat``);
    with players dealt in between the button and the small blind, the empty seat n + 1
    (``_dead_button``). Whether the recorded button was the last player's seat or a seat
    not dealt in, the players act in the same order. With a small blind dead at an empty seat
    between players, the last player holds it (seat n + 1 of the replay, ``replay_seats``),
    unless he is the big blind: then the button is the empty seat after him
    (``_button_past_the_big_blind``). A replay seat, as all the seats this returns."""
    count = hand.player_count
    if _waiting_seat(hand) or _dead_button(hand):
        return count + 1
    empty = _empty_small_blind(hand)
    if empty:  # the last player sits at n + 1 (replay_seats); the big blind (n): after him
        return count + 2 if empty == count else count + 1
    return _ON_THE_BUTTON_SEATS[-1] if _big_blind_on_the_button(hand) else count


def _waiting_seat(hand: HandHistory) -> int:
    """Heads-up, our ``_posts`` names player 1 the small blind: the button was not the small
    blind (an empty seat, a seat not dealt in), so the small blind is the first seat after it.
    The replay seats a player at n + 1 who takes the button and waits for the big blind (not
    dealt in), which the engine allows whether the button moves or is dead; 0 otherwise. The
    engine then has the small blind, off the button, play the button's part (BLIND-02): it
    draws and acts last after the draw. ``audit.phh.writer`` no longer writes such files
    (heads-up it numbers the big blind player 1 whenever a small blind was posted); earlier
    exports of a
    hand whose small blind acted first after the draw do not replay."""
    if hand.posts is None or hand.player_count != 2:
        return 0
    return hand.player_count + 1 if blind_seats(hand)[0] == 1 else 0


def _dead_button(hand: HandHistory) -> bool:
    """Our ``_posts`` places the small blind after player 1: players were dealt in between
    the button and the small blind, which only a dead button does (BLIND-03)."""
    if hand.posts is None or hand.player_count < 3:
        return False
    return blind_seats(hand)[0] not in (1, _dead_seat(hand))


def _dead_seat(hand: HandHistory) -> int:
    """The seat that stands for a dead small blind: after the button (seat n), before p1."""
    return hand.player_count + 1


def _empty_small_blind(hand: HandHistory) -> int:
    """BLIND-03 dead button: our ``_posts`` names no small blind, and the big blind is not
    player 1. So the players before the big blind were dealt in past the button, whether they
    posted something (a missed blind made up, a bought button, a kill) or nothing (free after
    a seat change, BLIND-12), and the small blind was dead at an empty seat between them and
    the big blind (its player had left or sat out at the post: the big blind moved on to the
    next player, and the small blind stayed where the last big blind was). Without
    ``_posts``, when the big blind (p3 or later) is the only blind posted
    (``_only_the_big_blind_posted``). The big blind's player number (``replay_seats`` leaves
    that seat empty); 0 for any other hand. Heads-up such a hand is refused (``blind_seats``).

    >>> hand = parse_phh("variant='N2L1D'\\nstarting_stacks=[9,9,9]\\nactions=[]\\n"
    ...     "_posts=[['dead_small_blind'],['big_blind'],[]]")
    >>> _empty_small_blind(hand), blind_seats(hand)
    (2, (4, 2))
    >>> _empty_small_blind(parse_phh("variant='N2L1D'\\nstarting_stacks=[9,9,9]\\n"
    ...     "actions=[]\\n_posts=[[],['big_blind'],['dead_small_blind']]"))
    2
    """
    posts = hand.posts
    if hand.player_count < 3 or hand.dead_small_blind:
        return 0
    if posts is None:
        return _only_the_big_blind_posted(hand)
    if any("small_blind" in parts for parts in posts):
        return 0
    big = next(player for player, parts in enumerate(posts, 1) if "big_blind" in parts)
    return big if big > 1 else 0


def _only_the_big_blind_posted(hand: HandHistory) -> int:
    """``_empty_small_blind`` of a file without ``_posts`` (nobody made up a blind): the only
    blind PHH lists is a big blind of p3 or later, so p1 and p2 posted nothing. They were
    dealt in past a dead button (BLIND-03; players who changed seats, BLIND-12) and the small
    blind was dead at an empty seat (or one whose player sat out at the post) before the big
    blind: the big blind's player number; 0 for any other hand (PHH blinds ``[SB, BB, …]``,
    ``[0, BB, …]``: p1 in without a blind).

    >>> _only_the_big_blind_posted(parse_phh("variant='F2L3D'\\nstarting_stacks=[9,9,9,9]\\n"
    ...     "actions=[]\\nblinds_or_straddles=[0,0,10,0]"))
    3
    """
    blinds = hand.blinds_or_straddles
    if blinds[0] or blinds[1]:
        return 0
    live = [player for player, blind in enumerate(blinds, 1) if blind]
    return live[0] if len(live) == 1 else 0


def _button_past_the_big_blind(hand: HandHistory) -> bool:
    """BLIND-03 dead button: the small blind was dead at an empty seat before the big blind
    (``_empty_small_blind``) and the big blind is the last player. The button, which comes
    after the last player, cannot be his (the big blind, BLIND-01): it was a seat not dealt
    in after him. So it is at a redeal (IRREG-01: the button stays where the misdealt hand had
    it) whose small blind's player left before it, or where the players of the last hand's
    button and blinds all left or changed seats. The replay keeps the button on an empty seat
    after the last player (``_button_seat``).

    >>> _button_past_the_big_blind(parse_phh("variant='N2L1D'\\nstarting_stacks=[9,9,9]\\n"
    ...     "actions=[]\\n_posts=[[],['dead_small_blind'],['big_blind']]"))
    True
    """
    return _empty_small_blind(hand) == hand.player_count


# Heads-up with the big blind moved onto a dead button (``_big_blind_on_the_button``): the
# replay seats of p1 and p2 (the button), of the stand-in due the big blind, who sits out at
# the post, and of the last hand's big blind, this hand's small blind, dead at an empty seat.
_ON_THE_BUTTON_SEATS = (1, 4)
_ON_THE_BUTTON_SAT_OUT = 3
_ON_THE_BUTTON_EMPTY = 2


def _big_blind_on_the_button(hand: HandHistory) -> bool:
    """Heads-up, no ``_posts``: p2 posted the only blind and p1 nothing (PHH blinds
    ``[BB, 0]``, p2's first). Heads-up the button posts the small blind (BLIND-02) unless it
    is the big blind, so p2 is the button and took the big blind there at the post: the seat
    due it sat out and the big blind moved onto the next seat, the button (BLIND-07). Nobody
    posted a small blind, so it was dead at an empty seat (the last hand's big blind's, a
    dead button, BLIND-03), and p1, dealt in past the button, owed nothing (such as a player
    who changed seats having paid his blinds, BLIND-12). p1 acts first in every round:
    before the draw after the big blind, and after it after the button. The replay seats the
    hand so (``_ON_THE_BUTTON_SEATS``, ``prepare_table``). So too with our ``_posts`` naming
    p2 the big blind alone and p1 a missed big blind made up with its dead small blind
    (``_made_up_past_the_button``).

    >>> _big_blind_on_the_button(parse_phh("variant='F2L3D'\\nstarting_stacks=[9,9]\\n"
    ...     "actions=[]\\nblinds_or_straddles=[10,0]"))
    True
    """
    if hand.player_count != 2 or hand.dead_small_blind:
        return False
    if hand.posts is not None:
        return _made_up_past_the_button(hand)
    to_p2, to_p1 = hand.blinds_or_straddles  # pokerkit lists a heads-up p2's first
    return to_p2 > 0 and not to_p1


def _made_up_past_the_button(hand: HandHistory) -> bool:
    """BLIND-03/07/08 heads-up: our ``_posts`` names p2 the big blind alone and p1, dealt in
    past the button, a missed big blind made up with the small blind it missed, dead
    (``returning_big_blind``, ``dead_small_blind``), and nobody the small blind. The writer
    numbers p1 the first seat after the button when the big blind is not the other seat's
    and no small blind was posted, so p2 held the button and took the big blind there at the
    post (BLIND-07: the seat due it sat out), and the small blind was dead at an empty seat
    (the last hand's big blind's, a dead button); the button, now the big blind, owes no
    small blind (BLIND-02). p1 acts first in every round, as in ``_big_blind_on_the_button``,
    whose replay seats it takes, p1 with his missed big blind's marker (``_owing_players``).
    The small blind is the dead part of p1's post (his ante, ``_made_up_small_blind``); a
    file without it there is refused (``blind_seats``).

    >>> _made_up_past_the_button(parse_phh("variant='F2L3D'\\nstarting_stacks=[9,9]\\n"
    ...     "actions=[]\\nantes=[0,5]\\nblinds_or_straddles=[10,10]\\n"
    ...     "_posts=[['returning_big_blind','dead_small_blind'],['big_blind']]"))
    True
    """
    made_up, big = hand.posts or ((), ())
    if big != (PostPart.BIG_BLIND,) or made_up != _RETURNING:
        return False
    return _made_up_small_blind(hand) > 0  # p1's dead small blind is his ante, as we write it


_RETURNING = (PostPart.RETURNING_BIG_BLIND, PostPart.DEAD_SMALL_BLIND)  # BLIND-08


def _small_blind_waits(hand: HandHistory) -> bool:
    """BLIND-02/05/08 heads-up: our ``_posts`` names p1 the big blind and nobody the small
    blind, and p2 posted a big blind to come in (a missed big blind made up, with the small
    blind it missed dead, or a newcomer's). The seat in the small blind's place was not dealt
    in (it waited for the big blind or sat out at the post), and the button, owing a big blind
    to come in, does not take the small blind instead (BLIND-02), so nobody posted one: p2
    held the button, or played its part with the button on a seat not dealt in before p1 (a
    dead button); it acts first before the draw, and p1 after it. The replay seats p1, p2 on
    the button and a stand-in in the small blind's place (``_dead_seat``), who waits for the
    big blind (``prepare_table``). The small blind is the dead part of p2's post
    (``_made_up_small_blind``; none for a newcomer, whose big blind is all live).

    >>> _small_blind_waits(parse_phh("variant='F2L3D'\\nstarting_stacks=[9,9]\\nactions=[]\\n"
    ...     "_posts=[['big_blind'],['returning_big_blind','dead_small_blind']]"))
    True
    """
    if hand.posts is None or hand.player_count != 2 or hand.dead_small_blind:
        return False
    big, comes_in = hand.posts
    if "big_blind" not in big or "small_blind" in comes_in:
        return False
    return any(Owed(part) in LIVE_ENTRY for part in comes_in)


def _before_the_small_blind(hand: HandHistory, player: int) -> bool:
    """BLIND-03: ``player`` was dealt in between the button and the small blind (a dead
    button), before a small blind posted (``_dead_button``) or dead at an empty seat
    (``_empty_small_blind``)."""
    if _dead_button(hand):
        return player < blind_seats(hand)[0]
    return player < _empty_small_blind(hand)


def posting_seats(hand: HandHistory) -> list[int]:
    """Seats that owe a forced bet, in posting order (small blind, big blind, then the others
    in seat order: antes, and what our ``_posts`` names), by PHH player number
    (``replay_seats`` places them).

    A big-blind ante is posted by the big blind together with its blind.
    """
    return _posting_order(hand, _live_blinds(hand))


def _posting_order(hand: HandHistory, live_blinds: dict[int, int]) -> list[int]:
    """``posting_seats`` given the hand's ``_live_blinds``: as the engine asks for them
    (``rules.blinds.posting_order``), the small and the big blind first, then every other
    seat that posts in dealing order (p1 first), whether its post is live (a kill, a big blind
    made up or entering) or only dead or an ante."""
    small, big = blind_seats(hand)
    seats = [seat for seat in (small, big) if live_blinds.get(seat)]
    antes = _antes(hand)[0]
    others = range(1, hand.player_count + 1)
    seats += [
        seat
        for seat in others
        if seat not in seats and (live_blinds.get(seat) or antes or _dead_part(hand, seat))
    ]
    return seats


def _ante(hand: HandHistory, seat: int) -> int:
    """The ante PHH charges ``seat``; heads-up pokerkit swaps them like the blinds."""
    return min(from_phh_order(hand.antes)[seat - 1], hand.starting_stacks[seat - 1])


def _live_blinds(hand: HandHistory) -> dict[int, int]:
    """Seat -> the live blind it posts (what is left after its ante, at most): the small
    blind first, the big blind, then the live posts our ``_posts`` names (a kill blind
    instead of a blind's live part); the other seats post no blind."""
    small, big = blind_seats(hand)
    stacks = hand.starting_stacks
    if hand.posts is None:  # PHH's own fields: the small blind and the big blind
        recorded = hand.blinds_or_straddles
        if hand.dead_small_blind or _big_blind_on_the_button(hand) or _empty_small_blind(hand):
            blind = from_phh_order(recorded)[big - 1]  # only the big blind is posted
            return {big: min(blind, stacks[big - 1] - _ante(hand, big))}
        return {
            small: min(recorded[0], stacks[small - 1] - _ante(hand, small)),
            big: min(recorded[1], stacks[big - 1] - _ante(hand, big)),
        }

    def live(seat: int, amount: int) -> int:
        if "kill" in _parts(hand, seat):
            amount = hand.kill_blind
        return min(amount, stacks[seat - 1] - _ante(hand, seat))

    small_blind, big_blind = _blind_amounts(hand)
    blinds = {} if small > hand.player_count else {small: live(small, small_blind)}
    blinds[big] = live(big, big_blind)
    for seat in range(1, hand.player_count + 1):
        if seat not in blinds and _live_part(hand, seat, big_blind):
            blinds[seat] = live(seat, _live_part(hand, seat, big_blind))
    return blinds


def _opening_bets(hand: HandHistory, live_blinds: dict[int, int]) -> dict[int, int]:
    """The bets the first betting round opens with: the live blinds, but a big blind short
    and all in still makes the others call the full big blind (BLIND-04)."""
    big = blind_seats(hand)[1]
    if not live_blinds.get(big):
        return live_blinds
    return {**live_blinds, big: max(live_blinds[big], _blind_amounts(hand)[1])}


def prepare_table(hand: HandHistory, table: TableState, rules: HouseRules) -> TableState:
    """The replay table, its players seated, as the recorded one was when the hand began,
    so that the engine asks for the posts our ``_posts`` and ``_kill`` name: a player who
    made up a missed big blind carries its marker (BLIND-07/08), one who posted a missed
    small blind dead the small one (BLIND-09), a newcomer who posted the big blind is new
    (BLIND-05); players dealt in between the button and the small blind (a dead button,
    BLIND-03) sit there because the last hand's blinds are placed so, also when the small
    blind was dead at an empty seat between them and the big blind (``_empty_small_blind``);
    the player who kills has won two pots in a row (KILL-02) where kills are required
    (``to_commands`` names a volunteer on ``start_hand`` where they are optional). A file
    without those fields is the table as seated. The players sit in their ``replay_seats``.
    """
    moved = _big_blind_on_the_button(hand) or _empty_small_blind(hand)
    if hand.posts is None and not hand.kill_player and not moved:
        return table
    numbering = Numbering(replay_seats(hand))
    table = _owing_players(hand, table, numbering)
    small, big = blind_seats(hand)
    if _empty_small_blind(hand):
        table = _empty_small_blind_before(hand, table, rules)
    elif _big_blind_on_the_button(hand):
        table = _big_blind_on_the_button_before(hand, table, rules)
    elif small == _dead_seat(hand) and big != 1:
        raise InvalidInput("_posts: a dead small blind is replayed only with p1 the big blind")
    if _waiting_seat(hand) or _small_blind_waits(hand):  # BLIND-08: waits for the big blind
        waits = evolve(table.seat(_dead_seat(hand)), waiting=RuleId.BLIND_08)
        table = table.with_seat(waits)
    if _dead_button(hand):
        table = _dead_button_before(hand, table, rules, small, big)
    return _killer(hand, table, rules, numbering) if hand.kill_player else table


def _owing_players(hand: HandHistory, table: TableState, numbering: Numbering) -> TableState:
    """Each player as our ``_posts`` says he posted: a missed big blind made up (its marker,
    BLIND-07/08), a missed small blind posted dead (BLIND-09), a newcomer's big blind
    (BLIND-05), a big blind with the small blind he missed dead in the middle."""
    for player in range(1, hand.player_count + 1):
        parts = _parts(hand, player)
        seat = table.seat(numbering.seat(player))
        if "big_blind" in parts and "dead_small_blind" in parts:
            table = _dead_small_in_the_middle(hand, table, player, seat.seat)
        if "small_blind" in parts or "big_blind" in parts:
            continue
        if "returning_big_blind" in parts:
            table = table.with_seat(evolve(seat, missed_blind=MissedBlind.BIG))
        elif "entering_big_blind" in parts:
            table = table.with_seat(evolve(seat, new_player=True))
        elif "dead_small_blind" in parts:
            table = table.with_seat(evolve(seat, missed_blind=MissedBlind.SMALL))
    return table


def _killer(
    hand: HandHistory, table: TableState, rules: HouseRules, numbering: Numbering
) -> TableState:
    """KILL-01/02: where kills are required, the player who kills has won the last two pots;
    where they are optional ``to_commands`` names him on ``start_hand``; elsewhere the hand
    is refused."""
    if kills.is_required(rules):  # KILL-02: it won the last two pots
        return evolve(table, kill_leg=numbering.seat(hand.kill_player), kill_legs=2)
    if not kills.is_optional(rules):
        raise InvalidInput(
            f"p{hand.kill_player} kills this hand (_kill, KILL-01): replay it under a "
            f"profile with kill pots ({rules.profile_id} has none)"
        )
    return table


def _dead_small_in_the_middle(
    hand: HandHistory, table: TableState, player: int, seat_number: int
) -> TableState:
    """BLIND-07/08: the big blind moved at the post onto a player making up a missed big blind,
    who posted the small blind he missed dead on top of it (``writer._moved_dead_small``).
    PHH lists only the players dealt in, not the seat that sat out in the big blind, so the
    replay deals the player the big blind, which owes the blind alone; his dead small blind
    is in the middle before the deal (out of his stack, in the pot as the antes of a deal
    nobody opened are, OPEN-03), as the recorded hand had it. ``seat_number``: his replay
    seat."""
    seat = table.seat(seat_number)
    dead = min(_dead_part(hand, player), seat.stack)
    table = table.with_seat(evolve(seat, stack=seat.stack - dead))
    return evolve(table, carried_pot=table.carried_pot + dead)


def _dead_button_before(
    hand: HandHistory, table: TableState, rules: HouseRules, small: int, big: int
) -> TableState:
    """BLIND-03 dead button: players p1..p(small - 1) were dealt in between the button and
    the small blind. The last hand's small blind was the button (the empty seat n + 1,
    ``_button_seat``) and its big blind the small blind, so the engine places this hand's
    blinds where they were. So too when the small blind is the last player and the big blind
    p1, the button dead between them (``_button_between_the_blinds``)."""
    if rules.blinds.button_method is not ButtonMethod.DEAD:
        raise InvalidInput(
            f"p1 is dealt in between the button and the small blind (p{small}), which only a "
            f"dead button does (BLIND-03); {rules.profile_id} moves the button"
        )
    if big != small + 1 and not _button_between_the_blinds(hand, small, big):
        raise InvalidInput(f"_posts: the big blind (p{big}) is not next to the small (p{small})")
    last_button = small  # any seat but the button: the button then moves by the dead-button plan
    return evolve(
        table,
        button=last_button,
        small_blind_position=_button_seat(hand),
        big_blind_position=small,
    )


def _button_between_the_blinds(hand: HandHistory, small: int, big: int) -> bool:
    """BLIND-03/07 dead button: the small blind is the last player and the big blind p1, the
    button dead on the empty seat between them (n + 1). The last hand's big blind moved at
    the post onto its button (BLIND-07) and is this hand's small blind; that hand's small
    blind, where this hand's button goes, left its seat, so the big blind moved on past it
    to the next player (the engine's dead-button plan, ``blinds.positions``). p1, past the
    button, acts first after the draw, the small blind last."""
    return small == hand.player_count and big == 1


def _empty_small_blind_before(
    hand: HandHistory, table: TableState, rules: HouseRules
) -> TableState:
    """BLIND-03 dead button: players were dealt in past the button, and the small blind was
    dead at an empty seat between them and the big blind (``_empty_small_blind``): the last
    hand's big blind sat there (its player has left) and its small blind on this hand's
    button. The replay leaves that seat empty (``replay_seats``), the last player holds the
    button, and the last hand's blinds are placed so: the engine moves the big blind to the
    next player, leaves the small blind dead at the empty seat and deals in the players
    before it with what they owe (BLIND-05/06/08/09)."""
    big = blind_seats(hand)[1]
    if rules.blinds.button_method is not ButtonMethod.DEAD:
        raise InvalidInput(
            f"p1 is dealt in between the button and the small blind, dead at an empty seat "
            f"before the big blind (p{big}), which only a dead button does (BLIND-03); "
            f"{rules.profile_id} moves the button"
        )
    button = _button_seat(hand)
    return evolve(
        table,
        button=button - 1,  # any seat but the button: the button then moves by the dead-button plan
        small_blind_position=button,
        big_blind_position=_empty_small_blind(hand),
    )


def _big_blind_on_the_button_before(
    hand: HandHistory, table: TableState, rules: HouseRules
) -> TableState:
    """BLIND-03/07, heads-up: p2 took the big blind on a dead button at the post and p1, past
    the button, posted nothing (``_big_blind_on_the_button``) or made up a missed big blind
    (``_made_up_past_the_button``: ``_owing_players`` gives him its marker). The replay
    seats p1, an empty seat (the last hand's big blind, now the small blind, dead), the
    stand-in due the big blind and p2 on the button, and places the last hand's blinds so:
    the engine's dead-button plan gives the stand-in the big blind and leaves the small blind
    dead, the stand-in sits out at the post (``to_commands``) and the big blind moves onto
    the button, who then owes no small blind (BLIND-02), as at the recorded table."""
    if rules.blinds.button_method is not ButtonMethod.DEAD:
        p1 = "a missed big blind made up" if hand.posts is not None else "nothing"
        raise InvalidInput(
            f"heads-up, p2 posted the big blind on the button and p1 {p1}: the big blind "
            "moved onto a dead button at the post, the small blind dead (BLIND-03/07), which "
            f"only a dead button does; {rules.profile_id} moves the button"
        )
    button = _button_seat(hand)
    return evolve(
        table,
        button=_ON_THE_BUTTON_SAT_OUT,  # any seat but the button: it then moves by the plan
        small_blind_position=button,
        big_blind_position=_ON_THE_BUTTON_EMPTY,
    )


def _names(hand: HandHistory) -> tuple[str, ...]:
    if hand.players is not None:
        return tuple(name or f"p{seat}" for seat, name in enumerate(hand.players, 1))
    return tuple(f"p{seat}" for seat in range(1, hand.player_count + 1))


def check_replacements(actions: Sequence[Action]) -> None:
    """Every discard (``pN sd CARDS``) is followed by that player's replacements (``d dh pN``).

    PHH may record every discard of a draw before the replacements (pokerkit does); the
    engine takes them in that order, so the actions are mapped as recorded.
    """
    waiting: dict[int | None, int] = {}
    for action in actions:
        code = action.code
        if code is _DISCARD:
            if action.cards:
                waiting[action.player] = waiting.get(action.player, 0) + 1
        elif code is _DEAL_HOLE and waiting.get(action.player):
            waiting[action.player] -= 1
    for player, count in waiting.items():
        if count:
            raise InvalidInput(f"p{player} discarded but was never dealt the replacement cards")


# Acts without cards ("seat 3 calls", "seat 1 raises to 40", "seat 2 stands pat") recur
# across hands; an Act is immutable, so one value serves them all. Acts with cards are made
# anew (they rarely repeat).
_plain_act = lru_cache(maxsize=4096)(Act)


@lru_cache(maxsize=64)
def _stand_pat(seat: int) -> Act:
    """The (shared) act of ``seat`` standing pat."""
    return Act(seat=seat, action=ActionKind.DRAW, count=0, discards=())


_POST = ActionKind.POST
_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_DRAW = ActionKind.DRAW
_SHOW_CARDS = ActionKind.SHOW
_MUCK = ActionKind.MUCK
_DEAL = ActionKind.DEAL


def _ruled_before(hand: HandHistory) -> dict[int, list[Mapping[str, Any]]]:
    """Our ``_ruled`` by the index of the action each ruling came before."""
    ruled: dict[int, list[Mapping[str, Any]]] = {}
    for before, ruling in hand.ruled:
        ruled.setdefault(before, []).append(ruling)
    return ruled


class _Mapper:
    """Walks the PHH actions once, keeping what the mapping needs: bets and held cards."""

    def __init__(
        self,
        hand: HandHistory,
        live_blinds: dict[int, int],
        split_five: bool = False,
        rules: HouseRules | None = None,
    ) -> None:
        self.hand = hand
        self.split_five = split_five  # DRAW-03: five replacements dealt four, then one
        self.owed: dict[int, int] = {}  # seat -> replacements owed for its last discard
        self.fifths: list[Act] = []  # fifth cards (and replacements) dealt after the others
        self.draws: dict[int | None, int] = {}  # player -> draws so far
        self.exposures = _exposures(hand, rules)
        count = hand.player_count
        self.bets = [0] * count
        for seat, amount in live_blinds.items():
            self.bets[seat - 1] = amount
        self.held: dict[int, list[str]] = {seat: [] for seat in range(1, count + 1)}
        self.spare: Iterator[str] | None = None  # made at the first unknown card
        self.placeholders: set[str] = set()
        self.acts: list[Act] = []  # the acts so far (a show may rename placeholders in them)
        self.accepted: dict[int, str] = {}  # index in the acts -> rule waived (``_accepted``)
        self.ruled: list[tuple[int, Mapping[str, Any]]] = []  # (index in the acts, ``_ruled``)
        self.raisers: list[int] = []  # who bet or raised in this betting round, in turn
        self.drawn: set[int | None] = set()  # players that declared in this draw round
        self.early: list[tuple[int, int, int]] = []  # ``_early_fifths`` still to come

    def commands(self) -> list[Act]:
        check_replacements(self.hand.actions)
        hand = self.hand
        acts = self.acts = []
        self.early = list(hand.early_fifths) if hand.dealt_in_turn else []
        accepted = dict(hand.accepted)
        ruled = _ruled_before(hand)
        actions = hand.actions
        in_turn = hand.dealt_in_turn or hand.count_mode
        tabled = len(actions) - 1 if hand.won_unshown else None  # SHOW-02: no show entered
        for index in _interleaved_order(actions) if in_turn else range(len(actions)):
            action = actions[index]
            handler = _HANDLERS.get(action.code)
            if handler is None:
                raise InvalidInput(f"{action.text!r}: not an action of the games we deal")
            self._draw_round(action)
            for ruling in ruled.pop(index, ()):  # the floor's rulings (``_ruled``) come before
                self._enter_ruling(len(acts), ruling)
            if index == tabled:
                continue
            acts.append(handler(self, action.player or 0, action))
            if index in accepted:
                self.accepted[len(acts) - 1] = accepted[index]
            if action.code is _DISCARD:
                self._discarded(action.player or 0)
        if self.exposures:
            player, draw = next(iter(self.exposures))
            raise InvalidInput(f"_exposed: p{player} has no deal line after its draw {draw}")
        for ruling in ruled.pop(len(actions), []):  # after every action
            self._enter_ruling(len(acts) + len(self.fifths), ruling)
        return acts + self.fifths

    def _draw_round(self, action: Action) -> None:
        """A discard of a player who declared in this draw round starts a new one (no betting
        between); any action but a deal ends it. Then the fifth cards owed come (DRAW-03)."""
        if action.code is _DISCARD:
            if action.player in self.drawn:
                self._fifths_now()
            self.drawn.add(action.player)
        elif action.code is not _DEAL_HOLE:
            self._fifths_now()

    def _fifths_now(self) -> None:
        self.acts.extend(self.fifths)
        self.fifths, self.drawn = [], set()

    def _discarded(self, player: int) -> None:
        """``player`` made a draw: the fifth cards ``_early_fifths`` says came then."""
        draws, early = self.draws, self.early
        draws[player] = draws.get(player, 0) + 1
        while early and early[0][1:] == (player, draws[player]):
            self._fifth_now(early.pop(0)[0])  # one or more players' fifth cards

    def _enter_ruling(self, at: int, ruling: Mapping[str, Any]) -> None:
        """A ``_ruled`` ruling, entered before the act at index ``at``; a killed hand's bet
        nobody called goes back (IRREG-13, ``rulings._uncalled_back``), so the bets that a
        later ``cc`` calls or checks are the engine's: a raise goes down to the bet it raised
        (that bettor the aggressor again), the round's only bet to nothing."""
        self.ruled.append((at, ruling))
        killed = [
            effect.get("player")
            for effect in ruling["effects"]
            if isinstance(effect, dict) and effect.get("effect") == "kill_hand"
        ]
        for player in killed:
            bets, raisers = self.bets, self.raisers
            if not raisers or raisers[-1] != player:  # not the aggressor: nothing goes back
                continue
            others = max((bet for number, bet in enumerate(bets, 1) if number != player), default=0)
            if bets[player - 1] > others:
                bets[player - 1] = others
                raisers.pop()

    def _fifth_now(self, seat: int) -> None:
        """DRAW-03/06 (``_early_fifths``): the stub ran low as the last player drew, so the
        fifth card owed to ``seat`` was dealt now, before that player's cards."""
        fifth = next((act for act in self.fifths if act.seat == seat), None)
        if fifth is None:
            raise InvalidInput(f"_early_fifths: p{seat} is owed no fifth card there")
        self.fifths.remove(fifth)
        self.acts.append(fifth)

    def _deal(self, seat: int, action: Action) -> Act:
        dealt = action.cards or ()
        if UNKNOWN_CARD in dealt:
            dealt = tuple(self._placeholder() if card == UNKNOWN_CARD else card for card in dealt)
        self.held[seat].extend(dealt)
        owed = self.owed.pop(seat, 0)
        exposures = self.exposures.pop((seat, self.draws.get(seat, 0)), None)
        if exposures is not None:
            dealt = _before_exposed(seat, dealt, exposures)
        if self.split_five and owed == len(dealt) == HAND_SIZE:
            self.fifths.append(Act(seat=seat, action=_DEAL, cards=dealt[HAND_SIZE - 1 :]))
            dealt = dealt[: HAND_SIZE - 1]
        act = Act(seat=seat, action=_DEAL, cards=dealt)
        return act if exposures is None else self._expose(seat, act, exposures)

    def _expose(self, seat: int, act: Act, exposures: list[tuple[str, tuple[str, ...]]]) -> Act:
        """IRREG-03/04 (``_exposed``): the exposed card is entered right after the deal that
        brought it (``act``, which the acts get first), as the dealer entered it, so the engine
        takes it out for the burn pile or the seat's discards; its replacement is dealt with
        the cards owed after the others (``fifths``): on the deal once every seat has five,
        on the draw after the other seats' cards. A replacement exposed in turn follows it.
        When the exposed card was a split five's fifth card (DRAW-03), it all follows that
        card."""
        steps: list[Act] = []
        for card, later in exposures:
            steps.append(Act(seat=seat, action=ActionKind.EXPOSED, cards=(card,)))
            steps.append(Act(seat=seat, action=_DEAL, cards=later))
        if exposures[0][0] not in (act.cards or ()):
            self.fifths.extend(steps)
            return act
        self.acts.append(act)
        self.fifths.extend(steps[1:])
        return steps[0]

    def _fold(self, seat: int, action: Action) -> Act:
        return _plain_act(seat, _FOLD)

    def _check_or_call(self, seat: int, action: Action) -> Act:
        bets = self.bets
        highest = max(bets)
        kind = _CALL if bets[seat - 1] < highest else _CHECK
        bets[seat - 1] = highest
        return _plain_act(seat, kind)

    def _bet_or_raise(self, seat: int, action: Action) -> Act:
        amount = action.amount or 0
        kind = _RAISE if max(self.bets) else _BET
        self.bets[seat - 1] = amount
        self.raisers.append(seat)
        return _plain_act(seat, kind, amount)

    def _draw(self, seat: int, action: Action) -> Act:
        self.bets = [0] * len(self.bets)  # a draw ends the betting round
        self.raisers = []
        held = self.held[seat]
        discards = action.cards or ()
        if not discards:
            return _stand_pat(seat)
        if UNKNOWN_CARD in discards:
            discards = self._resolve(seat, discards)
        for card in discards:
            if card not in held:
                text = f"{action.text!r}: p{seat} discards {card}, a card it does not hold"
                raise InvalidInput(text)
            held.remove(card)
        self.owed[seat] = len(discards)
        return Act(seat=seat, action=_DRAW, count=len(discards), discards=discards)

    def _show_or_muck(self, seat: int, action: Action) -> Act:
        cards = action.cards
        if cards is None:
            return _plain_act(seat, _MUCK)
        held = self.held[seat]
        if not cards:
            cards = tuple(held)
        elif UNKNOWN_CARD in cards:
            cards = self._resolve(seat, cards)
        else:
            self._rename(seat, cards)
        return Act(seat=seat, action=_SHOW_CARDS, cards=cards)

    def _rename(self, seat: int, shown: tuple[str, ...]) -> None:
        """The seat shows cards it was dealt as ``??``: the placeholders it holds were those
        cards all along, so they are renamed in every act so far (count-mode exports)."""
        held = self.held[seat]
        new = [card for card in shown if card not in held]
        stand_ins = [card for card in held if card in self.placeholders]
        if not new or not stand_ins:
            return  # nothing to rename; the engine judges the show
        names = dict(zip(stand_ins, new, strict=False))
        self.placeholders -= names.keys()
        self.held[seat] = [names.get(card, card) for card in held]
        for index, act in enumerate(self.acts):
            cards, discards = act.cards or (), act.discards or ()
            if not names.keys().isdisjoint(cards) or not names.keys().isdisjoint(discards):
                self.acts[index] = replace(
                    act,
                    cards=_renamed(act.cards, names),
                    discards=_renamed(act.discards, names),
                )

    def _resolve(self, seat: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Name each ``??`` in a discard or show by a placeholder the seat holds."""
        held = self.held[seat]
        unnamed = [card for card in held if card in self.placeholders and card not in cards]
        unnamed += [card for card in held if card == UNKNOWN_CARD]  # dealt once the deck ran out
        resolved = []
        for card in cards:
            if card != UNKNOWN_CARD:
                resolved.append(card)
            elif unnamed:
                resolved.append(unnamed.pop(0))
            else:
                raise InvalidInput(f"p{seat} names an unknown card it was not dealt")
        return tuple(resolved)

    def _placeholder(self) -> str:
        if self.spare is None:
            self.spare = _placeholders(self.hand.actions)
        card = next(self.spare, None)
        if card is None:  # more unknown cards than unused ones (reshuffles): the engine's own ??
            return UNKNOWN_CARD
        self.placeholders.add(card)
        return card


_HANDLERS: dict[ActionCode, Callable[[_Mapper, int, Action], Act]] = {
    ActionCode.DEAL_HOLE: _Mapper._deal,
    ActionCode.FOLD: _Mapper._fold,
    ActionCode.CHECK_OR_CALL: _Mapper._check_or_call,
    ActionCode.COMPLETE_BET_OR_RAISE_TO: _Mapper._bet_or_raise,
    ActionCode.STAND_PAT_OR_DISCARD: _Mapper._draw,
    ActionCode.SHOW_OR_MUCK: _Mapper._show_or_muck,
}


def _interleaved_order(actions: Sequence[Action]) -> Sequence[int]:
    """The indexes of ``actions`` in the order they are replayed: each discard followed at once
    by that player's replacements, for a hand our ``_dealt_in_turn`` says was dealt so
    (``writer._dealt_in_turn``), and for our count-mode exports (``HandHistory.count_mode``:
    the engine dealt so).

    PHH writes a draw round's discards before its deals (pokerkit deals once everyone has
    declared, and reshuffles them all); a dealer deals each player's replacements in turn,
    before the next player draws. The order matters when the deck runs out: a discard of
    a player still owed cards stays out of the reshuffle (DRAW-06), so replayed with every
    discard first, a reshuffle would leave out cards the dealer dealt. A five-card draw
    split four and one (DRAW-03) still gets its fifth card after the others (``_Mapper``).

    >>> actions = [parse_action(text) for text in ("p1 sd 2c", "p2 sd 3c", "d dh p1 4c",
    ...            "d dh p2 5c", "p1 cc")]
    >>> [actions[index].text for index in _interleaved_order(actions)]
    ['p1 sd 2c', 'd dh p1 4c', 'p2 sd 3c', 'd dh p2 5c', 'p1 cc']
    """
    if not any(action.code is _DISCARD for action in actions):
        return range(len(actions))
    result: list[int] = []
    moved: set[int] = set()  # indexes of deals already placed after their discard
    for index, action in enumerate(actions):
        if index in moved:
            continue
        result.append(index)
        if action.code is not _DISCARD or not action.cards:
            continue
        for later in range(index + 1, len(actions)):
            other = actions[later]
            if other.code is _DEAL_HOLE and other.player == action.player and later not in moved:
                result.append(later)
                moved.add(later)
                break
            if other.code is not _DISCARD and other.code is not _DEAL_HOLE:
                break  # the round ended before the replacements (check_replacements says so)
    return result


def _exposures(
    hand: HandHistory, rules: HouseRules | None
) -> dict[tuple[int, int], list[tuple[str, tuple[str, ...]]]]:
    """Our ``_exposed`` by (player, draw): the cards exposed from that deal line, and those
    that replaced each. A card exposed on the deal (IRREG-03) is entered only where the
    replay's house replaces it too (not with ``rules`` unknown): where the house keeps it, the
    line is dealt as written, its replacement in its place, as before ``_exposed`` existed."""
    exposures: dict[tuple[int, int], list[tuple[str, tuple[str, ...]]]] = {}
    for player, draw, card, later in hand.exposed:
        if draw == 0 and (rules is None or keeps(rules, rank_of(card))):
            continue
        exposures.setdefault((player, draw), []).append((card, later))
    return exposures


def _before_exposed(
    seat: int, dealt: tuple[str, ...], exposures: list[tuple[str, tuple[str, ...]]]
) -> tuple[str, ...]:
    """The deal line as the dealer dealt it: the cards dealt after each exposed card taken
    out (the last exposure first), the exposed card back in (last: a split five's fifth)."""
    cards = list(dealt)
    for card, later in reversed(exposures):
        for replacement in later:
            if replacement not in cards:
                text = "".join(dealt)
                raise InvalidInput(f"_exposed: {replacement} is not in p{seat}'s deal {text}")
            cards.remove(replacement)
        cards.append(card)
    return tuple(cards)


def _renamed(cards: tuple[str, ...] | None, names: Mapping[str, str]) -> tuple[str, ...] | None:
    return None if cards is None else tuple(names.get(card, card) for card in cards)


def _placeholders(actions: Sequence[Action]) -> Iterator[str]:
    """Cards that appear nowhere in the record, to stand for the unknown ones (``??``)."""
    named = {card for action in actions for card in action.cards or () if card != UNKNOWN_CARD}
    return iter([card for card in DECK if card not in named])
