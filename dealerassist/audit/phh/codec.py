"""PHH text and the model, both ways: ``loads(text) -> HandHistory``, ``dumps(hand) -> str``.

``loads`` reads the TOML (``toml.parse``), checks each field it knows (``InvalidInput`` says
what is wrong) and parses the actions; fields it does not know are left out. ``dumps`` writes
the fields a hand holds in the order our exports write them, each on one line as our writer
always has (JSON's text for values, an inline table for ``_kill`` and ``_ruled``): so
``dumps(loads(text)) == text`` for every file we wrote, and ``loads(dumps(hand)) == hand``
for every hand (tests/unit/audit/phh/test_codec.py).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import repeat
from typing import Any

from dealerassist.audit.phh import toml
from dealerassist.audit.phh.model import (
    UNKNOWN_CARD,
    Action,
    ActionCode,
    HandHistory,
    Kill,
    PostPart,
)
from dealerassist.audit.phh.numbering import player_number
from dealerassist.errors import InvalidInput
from dealerassist.rules.model.ruling_commands import RULE_ID_PATTERN

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)  # in placeholder order

# For parse_action: the codes of "pN f|cc|pb", and the others by name (looking a member up
# on an enum class costs more than reading a global).
_NO_ARGUMENT_CODES = {
    "f": ActionCode.FOLD,
    "cc": ActionCode.CHECK_OR_CALL,
    "pb": ActionCode.POST_BRING_IN,
}
_DEAL_HOLE = ActionCode.DEAL_HOLE
_DEAL_BOARD = ActionCode.DEAL_BOARD
_BET_OR_RAISE = ActionCode.COMPLETE_BET_OR_RAISE_TO
_DISCARD = ActionCode.STAND_PAT_OR_DISCARD
_SHOW = ActionCode.SHOW_OR_MUCK
_CARD_TOKENS = frozenset([*DECK, UNKNOWN_CARD])
_TWO_CHARACTERS = re.compile("..", re.DOTALL)


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidInput(f"{key} must be a string")
    return value


def parse_action(text: str) -> Action:
    """Parse one PHH action string (a ``# comment`` is dropped).

    >>> action = parse_action("p1 sd QdJc  # draws two")
    >>> action.code, action.player, action.cards
    (<ActionCode.STAND_PAT_OR_DISCARD: 'sd'>, 1, ('Qd', 'Jc'))
    >>> parse_action("d dh p3 ????").cards
    ('??', '??')
    """
    # Dispatch on the word count, then the action word; these shapes do not overlap.
    words = (text.partition("#")[0] if "#" in text else text).split()
    shape = _SHAPES.get(len(words))
    action = None if shape is None else shape(words, text)
    if action is None:
        raise InvalidInput(f"unknown PHH action {text!r}")
    return action


def _deal_hole(words: list[str], text: str) -> Action | None:
    """``d dh pN CARDS``."""
    if words[0] != "d" or words[1] != "dh":
        return None
    return Action(_DEAL_HOLE, _player(words[2], text), None, parse_cards(words[3]), text)


def _bare(words: list[str], text: str) -> Action | None:
    """``pN f``, ``pN cc``, ``pN pb``; ``pN sd`` stands pat, ``pN sm`` mucks."""
    player, word = words
    code = _NO_ARGUMENT_CODES.get(word)
    if code is not None:
        return Action(code, _player(player, text), None, None, text)
    if word == "sd":
        return Action(_DISCARD, _player(player, text), None, (), text)
    if word == "sm":
        return Action(_SHOW, _player(player, text), None, None, text)
    return None


def _with_argument(words: list[str], text: str) -> Action | None:
    """``pN cbr AMOUNT``, ``pN sd CARDS``, ``pN sm CARDS`` (``-``: the cards held, unnamed),
    ``d db CARDS``."""
    player, word, argument = words
    if word == "cbr":
        return Action(_BET_OR_RAISE, _player(player, text), _amount(argument, text), None, text)
    if word == "sd":
        held = parse_cards(argument)  # the cards are checked before the player
        return Action(_DISCARD, _player(player, text), None, held, text)
    if word == "sm":
        seat = _player(player, text)
        shown = () if argument == "-" else parse_cards(argument)
        return Action(_SHOW, seat, None, shown, text)
    if word == "db" and player == "d":
        return Action(_DEAL_BOARD, None, None, parse_cards(argument), text)
    return None


_SHAPES: dict[int, Callable[[list[str], str], Action | None]] = {
    2: _bare,
    3: _with_argument,
    4: _deal_hole,
}


# The same action strings ("p2 cc", "d dh p1 ??????????") recur across hands, and a
# Action is immutable, so one parsed value serves them all. Errors are not cached.
_parse_action_cached = lru_cache(maxsize=4096)(parse_action)


def action(text: str) -> Action:
    """``parse_action(text)``, one value for each action text (the cache above)."""
    return _parse_action_cached(text)


def parse_cards(text: str) -> tuple[str, ...]:
    """Split PHH card text (``QdJc``, ``????``) into two-character cards.

    >>> parse_cards("Td9s??")
    ('Td', '9s', '??')
    """
    if len(text) % 2 or not text:
        raise InvalidInput(f"{text!r} is not a list of two-character cards")
    cards = tuple(_TWO_CHARACTERS.findall(text))
    if not _CARD_TOKENS.issuperset(cards):
        bad = next(card for card in cards if card not in _CARD_TOKENS)
        raise InvalidInput(f"{bad!r} in {text!r} is not a card like 'Td' or '??'")
    return cards


def _player(word: str, text: str) -> int:
    number = player_number(word)
    if number is None:
        raise InvalidInput(f"{word!r} in {text!r} is not a player like 'p1'")
    return number


def _amount(word: str, text: str) -> int:
    if not word.isdigit():
        raise InvalidInput(f"{word!r} in {text!r} is not a whole number of chips")
    return int(word)


def _check_players(hand: HandHistory) -> None:
    count = hand.player_count
    for action in hand.actions:
        if action.player is not None and action.player > count:
            raise InvalidInput(f"{action.text!r}: there are only {count} players")


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidInput(f"{key} must be a non-empty string")
    return value


def _list(data: Mapping[str, Any], key: str, kind: type) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(kind))):
        raise InvalidInput(f"{key} must be a list of {kind.__name__}")
    return value


def _is_chips(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _chip_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    values = _list(data, key, int)
    if not all(map(_is_chips, values)):
        raise InvalidInput(f"{key} must be non-negative whole numbers of chips")
    return tuple(values)


def _per_player(data: Mapping[str, Any], key: str, count: int) -> tuple[int, ...]:
    value = data.get(key, 0)
    if _is_chips(value):  # PHH allows one number for every player
        return (int(value),) * count
    values = _chip_list(data, key)
    if len(values) != count:
        raise InvalidInput(f"{key} has {len(values)} entries for {count} players")
    return values


def _chips(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if not _is_chips(value):
        raise InvalidInput(f"{key} must be a non-negative whole number of chips")
    return int(value)


def _players(data: Mapping[str, Any], count: int) -> tuple[str, ...] | None:
    if "players" not in data:
        return None
    names = tuple(_list(data, "players", str))
    if len(names) != count:
        raise InvalidInput(f"players has {len(names)} names for {count} players")
    return names


def _finishing(data: Mapping[str, Any], count: int) -> tuple[int, ...] | None:
    if "finishing_stacks" not in data:
        return None
    stacks = _chip_list(data, "finishing_stacks")
    if len(stacks) != count:
        raise InvalidInput(f"finishing_stacks has {len(stacks)} entries for {count} players")
    return stacks


# ``_posts`` parts (the engine's names of what a seat owes, rules.blinds and rules.kills)
# ``_posts`` parts (the engine's names of what a seat owes, rules.blinds and rules.kills)
POST_PARTS = frozenset(PostPart)


def _posts(data: Mapping[str, Any], count: int) -> tuple[tuple[PostPart, ...], ...] | None:
    """Our ``_posts``: one list of parts per player (``writer._post_parts``)."""
    if "_posts" not in data:
        return None
    value = data["_posts"]
    if not isinstance(value, list) or len(value) != count:
        raise InvalidInput(f"_posts must be a list of {count} lists of posts, one per player")
    for parts in value:
        if not isinstance(parts, list) or not POST_PARTS.issuperset(parts):
            known = ", ".join(sorted(POST_PARTS))
            raise InvalidInput(f"_posts: {parts!r} is not a list of posts ({known})")
    for part in ("small_blind", "big_blind"):
        if sum(part in parts for parts in value) > 1:
            raise InvalidInput(f"_posts: more than one player posts the {part}")
    if not any("big_blind" in parts for parts in value):
        raise InvalidInput("_posts: nobody posts the big blind")
    return tuple(tuple(map(PostPart, parts)) for parts in value)


def _kill(data: Mapping[str, Any], count: int) -> Kill | None:
    """Our ``_kill`` (KILL-01): the kill record and the player who kills (0: nobody)."""
    kill = data.get("_kill")
    if kill is None:
        return None
    if not isinstance(kill, Mapping) or not _is_chips(kill.get("player")):
        raise InvalidInput("_kill must say which player kills (player = N, 0 for none)")
    if kill["player"] > count or not _is_chips(kill.get("blind")):
        raise InvalidInput(f"_kill: player {kill['player']} of {count}, blind {kill.get('blind')}")
    if not all(map(_is_chips, kill.values())):
        raise InvalidInput("_kill: each of its values must be a whole number of chips")
    return Kill(tuple((str(key), int(value)) for key, value in kill.items()))


def _time_collected(data: Mapping[str, Any], count: int) -> tuple[int, ...]:
    """Our ``_time_collected`` (RAKE-05): each player's time charge, () when there is none.

    The replay table seats each player with ``starting_stacks`` plus it (the stack before the
    charge) and, under a time profile, starts a time period with the hand so the engine takes
    it again, once; a hand without it starts none (``replay.replay_hand``).

    >>> _time_collected({"_time_collected": [4, 6]}, 2), _time_collected({}, 2)
    ((4, 6), ())
    >>> _time_collected({"_time_collected": [4]}, 2)
    Traceback (most recent call last):
    ...
    dealerassist.errors.InvalidInput: _time_collected has 1 entries for 2 players
    """
    if "_time_collected" not in data:
        return ()
    values = _chip_list(data, "_time_collected")
    if len(values) != count:
        raise InvalidInput(f"_time_collected has {len(values)} entries for {count} players")
    return values


def _chopped(data: Mapping[str, Any], count: int) -> int:
    """Our ``_chopped`` (SHOW-08): the player who entered the blinds' chop, 0 if none."""
    value = data.get("_chopped", 0)
    if not _is_chips(value) or value > count:
        raise InvalidInput(f"_chopped must be the player who chopped (1..{count}), got {value!r}")
    return int(value)


def _won_unshown(data: Mapping[str, Any], key: str, count: int, actions: Sequence[Action]) -> int:
    """Our ``_won_unshown`` (SHOW-02): the player whose hand won unshown after the others
    mucked, 0 if none; the file's last action must table that player's cards (``pN sm``).

    >>> actions = [parse_action(text) for text in ("p1 sm", "p2 sm 2c3c4c5c7d")]
    >>> _won_unshown({"_won_unshown": 2}, "_won_unshown", 2, actions)
    2
    >>> _won_unshown({"_won_unshown": 1}, "_won_unshown", 2, actions)
    Traceback (most recent call last):
    ...
    dealerassist.errors.InvalidInput: _won_unshown = 1: the last action must table p1's cards
    """
    value = data[key]
    if not _is_chips(value) or value > count:
        raise InvalidInput(f"_won_unshown must be a player (1..{count}), got {value!r}")
    last = actions[-1] if actions else None
    shows = last is not None and last.code is ActionCode.SHOW_OR_MUCK and bool(last.cards)
    if value and not (shows and last is not None and last.player == value):
        raise InvalidInput(f"_won_unshown = {value}: the last action must table p{value}'s cards")
    return int(value)


def _accepted(data: Mapping[str, Any], actions: Sequence[Action]) -> tuple[tuple[int, str], ...]:
    """Our ``_accepted``: [i, rule] (``writer._actions``): the action at index i (from 0)
    of ``actions``, a player's action, not a deal, was bound by the floor waiving ``rule``.

    >>> actions = [parse_action(text) for text in ("d dh p1 ??", "p2 cc")]
    >>> _accepted({"_accepted": [[1, "OPEN-01"]]}, actions)
    ((1, 'OPEN-01'),)
    """
    value = data.get("_accepted", [])
    ok = isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == 2
        and _is_chips(item[0])
        and item[0] < len(actions)
        and actions[item[0]].code is not _DEAL_HOLE
        and actions[item[0]].player is not None
        and isinstance(item[1], str)
        and RULE_ID_PATTERN.match(item[1]) is not None
        for item in value
    )
    if not ok or len({item[0] for item in value}) != len(value):
        raise InvalidInput(
            "_accepted must be [action index, rule ID] lists, each a player's action of "
            f"'actions' (0..{len(actions) - 1}) once"
        )
    return tuple((int(index), str(rule)) for index, rule in value)


def _ruled(
    data: Mapping[str, Any], actions: Sequence[Action]
) -> tuple[tuple[int, Mapping[str, Any]], ...]:
    """Our ``_ruled``: [i, ruling] (``writer._actions``): a floor ruling made before the
    action at index i (from 0) of ``actions``, or after them all (i = their number); its
    effects are checked when it is entered (``_ruling_command``).

    >>> _ruled({"_ruled": [[0, {"decision": "custom", "effects": []}]]}, [])
    ((0, {'decision': 'custom', 'effects': []}),)
    """
    value = data.get("_ruled", [])
    ok = isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == 2
        and _is_chips(item[0])
        and item[0] <= len(actions)
        and isinstance(item[1], dict)
        and isinstance(item[1].get("effects"), list)
        for item in value
    )
    if not ok:
        raise InvalidInput(
            f"_ruled must be [action index, ruling] lists: the index (0..{len(actions)}) of "
            "the action the ruling came before, and a table with its decision and effects"
        )
    return tuple((int(index), ruling) for index, ruling in value)


def _early_fifths(data: Mapping[str, Any], count: int) -> tuple[tuple[int, int, int], ...]:
    """Our ``_early_fifths``: [p, q, k] (``writer._dealt_in_turn``): p and q players, k
    the number of q's draw."""
    value = data.get("_early_fifths", [])
    ok = isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == 3
        and all(_is_chips(n) and n >= 1 for n in item)
        and max(item[:2]) <= count
        for item in value
    )
    if not ok:
        raise InvalidInput(f"_early_fifths must be [player, player, draw] lists (1..{count})")
    return tuple((int(p), int(q), int(k)) for p, q, k in value)


def _exposed(
    data: Mapping[str, Any], count: int
) -> tuple[tuple[int, int, str, tuple[str, ...]], ...]:
    """Our ``_exposed``: [p, k, card, cards] (``writer._Deal.replaced``): player p's card
    exposed and replaced in its deal line after its k-th draw (0: the hole cards), and the
    cards dealt into that line after it; all named."""
    value = data.get("_exposed", [])
    entries = [_exposed_entry(item, count) for item in value] if isinstance(value, list) else [None]
    if None in entries:
        raise InvalidInput(
            f"_exposed must be [player, draw, card, cards] lists (player 1..{count}; the "
            "exposed card and the cards dealt after it named)"
        )
    return tuple(entry for entry in entries if entry is not None)


def _exposed_entry(item: Any, count: int) -> tuple[int, int, str, tuple[str, ...]] | None:
    """One ``_exposed`` entry, None if it is not one."""
    if not isinstance(item, list) or len(item) != 4:
        return None
    player, draw, card, later = item
    if not (_is_chips(player) and 1 <= player <= count and _is_chips(draw)):
        return None
    if not isinstance(card, str) or card not in DECK or not isinstance(later, str):
        return None
    cards = parse_cards(later)
    return None if UNKNOWN_CARD in cards else (player, draw, card, cards)


def _optional_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"{key} must be a whole number")
    return value


def _optional_chip_list(data: Mapping[str, Any], key: str, count: int) -> tuple[int, ...] | None:
    if key not in data:
        return None
    values = _chip_list(data, key)
    if len(values) != count:
        raise InvalidInput(f"{key} has {len(values)} entries for {count} players")
    return values


def _rows(data: Mapping[str, Any], key: str, kinds: Sequence[type]) -> tuple[tuple[Any, ...], ...]:
    """A list of rows, each one value of each of ``kinds`` (our ``_boxed``, ``_pot_rake``)."""
    value = data.get(key, [])
    ok = isinstance(value, list) and all(
        isinstance(row, list)
        and len(row) == len(kinds)
        and all(map(isinstance, row, kinds))
        and not any(isinstance(item, bool) for item in row)
        for row in value
    )
    if not ok:
        names = ", ".join(kind.__name__ for kind in kinds)
        raise InvalidInput(f"{key} must be a list of [{names}] lists")
    return tuple(tuple(row) for row in value)


def _pot_rake(data: Mapping[str, Any]) -> tuple[tuple[int, int, int], ...] | None:
    if "_pot_rake" not in data:
        return None
    return tuple((a, r, j) for a, r, j in _rows(data, "_pot_rake", (int, int, int)))


def _strings(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    return tuple(_list(data, key, str)) if key in data else ()


def _true(data: Mapping[str, Any], key: str) -> bool:
    """One of our flags (``_dealt_in_turn``, ``_cancelled``): set only when ``true``."""
    return data.get(key) is True


def loads(text: str) -> HandHistory:
    """The hand of a ``.phh`` file's text; raises ``InvalidInput`` on a bad file.

    >>> hand = loads("variant='N2L1D'\\nantes=[0,0]\\nblinds_or_straddles=[1,2]\\n"
    ...              "min_bet=2\\nstarting_stacks=[10,10]\\nactions=['p2 f']")
    >>> hand.variant, hand.actions[0].code, hand.actions[0].player, hand.min_bet
    ('N2L1D', <ActionCode.FOLD: 'f'>, 2, 2)
    """
    try:
        data = toml.parse(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"not a PHH (TOML) file: {error}") from None
    return from_mapping(data)


def from_mapping(data: Mapping[str, Any]) -> HandHistory:
    """The hand of a PHH file's decoded TOML; raises ``InvalidInput`` on a bad field. The
    fields besides the game, forced bets, stacks and actions are read only when the file has
    them (``_FIELDS``); the model's defaults stand for the others."""
    stacks = _chip_list(data, "starting_stacks")
    count = len(stacks)
    actions = tuple(map(_parse_action_cached, _list(data, "actions", str)))
    fields: dict[str, Any] = {}
    for key in data:
        field = _FIELDS.get(key)
        if field is not None:
            fields[field[0]] = field[1](data, key, count, actions)
    hand = HandHistory(
        variant=_text(data, "variant"),
        antes=_per_player(data, "antes", count),
        blinds_or_straddles=_per_player(data, "blinds_or_straddles", count),
        starting_stacks=stacks,
        actions=actions,
        **fields,
    )
    _check_players(hand)
    return hand


# a field's reader: (the decoded file, the field's key, the number of players, the actions)
_Reader = Callable[[Mapping[str, Any], str, int, Sequence[Action]], Any]


def _by_key(read: Callable[[Mapping[str, Any], str], Any]) -> _Reader:
    return lambda data, key, count, actions: read(data, key)


def _by_count(read: Callable[[Mapping[str, Any], int], Any]) -> _Reader:
    return lambda data, key, count, actions: read(data, count)


def _by_actions(read: Callable[[Mapping[str, Any], Sequence[Action]], Any]) -> _Reader:
    return lambda data, key, count, actions: read(data, actions)


def _flag(data: Mapping[str, Any], key: str) -> bool:
    return bool(data[key])


def _boxed(data: Mapping[str, Any], key: str) -> tuple[tuple[Any, ...], ...]:
    return _rows(data, key, (int, str))


def _winnings(data: Mapping[str, Any], key: str, count: int, actions: Sequence[Action]) -> Any:
    return _optional_chip_list(data, key, count)


# our provenance fields' names in the model (in the file: with a leading ``_``)
_OUR_TEXTS = ("table_id", "profile_id", "profile_sha256", "started_at", "ended_at", "last_hash")

# the fields of a file other than the game, forced bets, stacks and actions: its key -> the
# model's field and its reader; the standard's first, then our own
_FIELDS: dict[str, tuple[str, _Reader]] = {
    "ante_trimming_status": ("ante_trimming_status", _by_key(_flag)),
    **{key: (key, _by_key(_chips)) for key in ("bring_in", "small_bet", "big_bet", "min_bet")},
    **{key: (key, _by_key(_optional_text)) for key in ("author", "event", "city", "region")},
    "country": ("country", _by_key(_optional_text)),
    **{key: (key, _by_key(_optional_int)) for key in ("hand", "year", "month", "day")},
    "players": ("players", _by_count(_players)),
    "finishing_stacks": ("finishing_stacks", _by_count(_finishing)),
    "winnings": ("winnings", _winnings),
    "_dead_small_blind": ("dead_small_blind", _by_key(_chips)),
    "_posts": ("posts", _by_count(_posts)),
    "_time_collected": ("time_collected", _by_count(_time_collected)),
    "_dealt_in_turn": ("dealt_in_turn", _by_key(_true)),
    "_early_fifths": ("early_fifths", _by_count(_early_fifths)),
    "_exposed": ("exposed", _by_count(_exposed)),
    "_accepted": ("accepted", _by_actions(_accepted)),
    "_ruled": ("ruled", _by_actions(_ruled)),
    "_boxed": ("boxed", _by_key(_boxed)),
    "_rake": ("rake", _by_key(_chips)),
    "_jackpot_drop": ("jackpot_drop", _by_key(_chips)),
    "_pot_rake": ("pot_rake", _by_key(lambda data, key: _pot_rake(data))),
    "_cancelled": ("cancelled", _by_key(_true)),
    "_chopped": ("chopped", _by_count(_chopped)),
    "_won_unshown": ("won_unshown", _won_unshown),
    **{f"_{key}": (key, _by_key(_optional_text)) for key in _OUR_TEXTS},
    "_first_seq": ("first_seq", _by_key(_optional_int)),
    "_last_seq": ("last_seq", _by_key(_optional_int)),
    "_kill": ("kill", _by_count(_kill)),
    "_rulings": ("rulings", _by_key(_strings)),
    "_dealers": ("dealers", _by_key(_strings)),
}


# -- dumps -------------------------------------------------------------------------------------

# our own variant names (``structure/variant``, the PHH standard has no code for the game)
_OWN_VARIANT = re.compile(r"[a-z_]+/[a-z_0-9]+")


def dumps(hand: HandHistory) -> str:
    """The hand as PHH text: each field it holds on one line, in our exports' order.

    >>> print(dumps(loads("variant='N2L1D'\\nstarting_stacks=[10,10]\\nactions=['p2 f']")), end="")
    variant = "N2L1D"
    antes = [0, 0]
    blinds_or_straddles = [0, 0]
    min_bet = 0
    starting_stacks = [10, 10]
    actions = ["p2 f"]
    """
    lines = [line for write in _WRITERS for line in write(hand)]
    return "\n".join(lines) + "\n"


def _game(hand: HandHistory) -> list[str]:
    lines = []
    if _OWN_VARIANT.fullmatch(hand.variant):
        lines.append(f"# PHH has no variant code for {hand.variant}; written with our own name")
    lines.append(toml.line("variant", hand.variant))
    if hand.ante_trimming_status:
        lines.append(toml.line("ante_trimming_status", True))
    lines.append(toml.line("antes", hand.antes))
    lines.append(toml.line("blinds_or_straddles", hand.blinds_or_straddles))
    if hand.dead_small_blind:
        lines.append(toml.line("_dead_small_blind", hand.dead_small_blind))
    if hand.posts is not None:
        lines.append(toml.line("_posts", hand.posts))
    if hand.bring_in:
        lines.append(toml.line("bring_in", hand.bring_in))
    fixed = fixed_limit(hand.variant)
    bets = [("small_bet", hand.small_bet, fixed), ("big_bet", hand.big_bet, fixed)]
    bets.append(("min_bet", hand.min_bet, not fixed))
    return lines + [toml.line(name, size) for name, size, always in bets if size or always]


def fixed_limit(variant: str) -> bool:
    """Whether ``variant`` is a fixed-limit game: a PHH code's first letter says so (``F2L3D``),
    and our own names begin with the structure (``fixed_limit/five_card_draw``). Our exports
    write a fixed-limit game's ``small_bet`` and ``big_bet`` and another's ``min_bet``, also
    when they are 0.

    >>> fixed_limit("F2L3D"), fixed_limit("N2L1D"), fixed_limit("fixed_limit/five_card_draw")
    (True, False, True)
    """
    return variant.startswith(("F", "fixed_limit/"))


def _stacks_and_actions(hand: HandHistory) -> list[str]:
    lines = [toml.line("starting_stacks", hand.starting_stacks)]
    if hand.time_collected:
        lines.append(toml.line("_time_collected", hand.time_collected))
    lines.append(toml.line("actions", [action.text for action in hand.actions]))
    if hand.dealt_in_turn:
        lines.append(toml.line("_dealt_in_turn", True))
    return lines + _nonempty(hand, ("early_fifths", "exposed", "accepted", "ruled", "boxed"))


def _outcome(hand: HandHistory) -> list[str]:
    lines = _present(hand, ("author", "event", "city", "region", "country", "hand", "players"))
    lines += _present(hand, ("finishing_stacks", "winnings"))
    lines += _present(hand, ("rake", "jackpot_drop", "pot_rake"), "_")
    if hand.cancelled:
        lines.append(toml.line("_cancelled", True))
    if hand.chopped:
        lines.append(toml.line("_chopped", hand.chopped))
    if hand.won_unshown:
        lines.append(toml.line("_won_unshown", hand.won_unshown))
    return lines + _present(hand, ("year", "month", "day"))


def _provenance(hand: HandHistory) -> list[str]:
    lines = _present(hand, (*_OUR_TEXTS[:-1], "first_seq", "last_seq", "last_hash"), "_")
    if hand.kill is not None:
        fields = ", ".join(f"{key} = {toml.toml_value(value)}" for key, value in hand.kill.items)
        lines.append(f"_kill = {{{fields}}}")  # a TOML inline table
    return lines + _nonempty(hand, ("rulings", "dealers"))


def _present(hand: HandHistory, names: Sequence[str], prefix: str = "") -> list[str]:
    """A line for each of the fields ``names`` the hand holds (not None)."""
    values = [(name, getattr(hand, name)) for name in names]
    return [toml.line(prefix + name, value) for name, value in values if value is not None]


def _nonempty(hand: HandHistory, names: Sequence[str]) -> list[str]:
    """A line for each of our fields ``names`` the hand holds (not empty)."""
    lines = []
    for name in names:
        value = getattr(hand, name)
        if value:
            lines.append(f"_{name} = {_ROW_WRITERS.get(name, toml.toml_value)(value)}")
    return lines


def _exposed_rows(exposed: Sequence[tuple[int, int, str, tuple[str, ...]]]) -> str:
    return toml.toml_value([[p, k, card, "".join(later)] for p, k, card, later in exposed])


_ROW_WRITERS: dict[str, Callable[[Any], str]] = {"exposed": _exposed_rows, "ruled": toml.inline}
_WRITERS: tuple[Callable[[HandHistory], list[str]], ...] = (
    _game,
    _stacks_and_actions,
    _outcome,
    _provenance,
)
