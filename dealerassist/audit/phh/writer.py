"""PHH export: one audited hand as a Poker Hand History (TOML) that other tools can read.

``to_history(hand_record)`` makes the hand's ``HandHistory`` (``model``) and ``hand_to_phh``
writes it (``codec.dumps``). Both take the store's hand record (``SqlAuditStore.get_hand``):
the hand's events plus ``table``, the table as the hand began (``table_at_hand_start``
builds it from the table's earlier events: the spec of ``create_table``, the seats and
stacks after the last seat change or hand result; ``audit.hands``). Conventions are those
of ``numbering`` (the reader's and pokerkit's): players are numbered from the first seat dealt in
after the button (the small blind), heads-up player 1 is the big blind and player 2 the
small blind (the button, or the seat playing its part, BLIND-02); blinds and antes are
implied by ``blinds_or_straddles`` and ``antes`` (no post actions), built from what was posted
(``_forced_bets``: a dead small blind is our ``_dead_small_blind``; what PHH cannot say, a
missed blind made up (also by a big blind moved onto a returning seat, ``_moved_dead_small``),
a newcomer's or a kill blind, is our ``_posts``, and ``_kill`` names
the player who kills); ``cbr`` amounts are "to" amounts. Card mode names every card
dealt, discarded or shown (the ``deal`` entries); cards the service never saw are ``??``:
in count mode every hole card, every discard and every replacement. A muck at showdown is
``pN sm`` (no cards); when the mucks leave one live hand, which takes the pot unshown
(SHOW-02), card mode tables its cards in a last line for pokerkit and ``_won_unshown`` names the
player. Replacements dealt in turn are ``_dealt_in_turn`` (a fifth card
dealt first, ``_early_fifths``), a card the dealer exposed that was replaced (IRREG-03/04:
its replacement is in the deal line) ``_exposed`` (``_actions``), a hand called off
before the deal ``_cancelled``, and the blinds' chop (SHOW-08: the hand ends after the folds,
each blind taking its blind back) ``_chopped``, the player who entered it (``_dealt_in_turn``,
``_footer``), and the house's take (RAKE-01..03: PHH's post-rake ``winnings``, our ``_rake``,
``_jackpot_drop`` and ``_pot_rake``; RAKE-05's time charge, our ``_time_collected``: see
``_time_lines``). Refused entries are not
part of a hand history, unless the floor let one bind (a ruling's ``accept_entry``: an action
out of turn, OPEN-01/BET-08, or over a house limit): it is written where the engine applied
it, and ``_accepted`` names it and the rule waived, so the reader enters it as that ruling
(``_actions``). Nor are actions taken back later (a ruling's ``void_last``, a last
drawer's changed pat). The floor's other rulings that change the hand (a killed hand, an
award, a held and released pot, a stack adjusted, betting reopened) are ``_ruled``: each
with the index of the action it came before, its decision, rule, note and those effects,
seats named by player number, so the reader enters it there as the same ruling; every
ruling is also named in words in ``_rulings``.

PHH has variant codes only for ``F2L3D`` and ``N2L1D`` of the games we deal; other games
are written with our own variant name and a comment saying so.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from dealerassist.audit.envelope import REJECTED, dealer_of
from dealerassist.audit.phh.codec import action, dumps, parse_cards
from dealerassist.audit.phh.model import HAND_SIZE, HandHistory, Kill, PostPart
from dealerassist.audit.phh.model import UNKNOWN_CARD as UNKNOWN
from dealerassist.audit.phh.numbering import Numbering
from dealerassist.audit.replay import RulesFor
from dealerassist.errors import DealerAssistError
from dealerassist.rules.hand import kills

PHH_VARIANTS = {
    ("deuce_to_seven_triple_draw", "fixed_limit"): "F2L3D",
    ("deuce_to_seven_single_draw", "no_limit"): "N2L1D",
}


def to_phhs_lines(
    hands: Iterable[Mapping[str, Any]], rules_for: RulesFor | None = None
) -> Iterator[str]:
    """Several hands as one ``.phhs`` text (``[1]``, ``[2]`` … sections, as pokerkit reads)."""
    for number, hand in enumerate(hands, start=1):
        yield ("\n" if number > 1 else "") + f"[{number}]\n" + hand_to_phh(hand, rules_for)


def hand_to_phh(hand_record: Mapping[str, Any], rules_for: RulesFor | None = None) -> str:
    """The hand as PHH text (TOML); ``rules_for``: see ``to_history``."""
    return dumps(to_history(hand_record, rules_for))


def to_history(hand_record: Mapping[str, Any], rules_for: RulesFor | None = None) -> HandHistory:
    """The hand as a PHH ``HandHistory``: its players numbered as PHH numbers them
    (``_player_order``), its forced bets, stacks, actions and our own fields. ``rules_for``
    gives the profile version the hand names, where the events alone do not say what the
    house rules decided (``_kill_in_turn``)."""
    table = hand_record.get("table") or {"spec": {}, "seats": {}}
    spec = table.get("spec") or {}
    events = [e for e in hand_record.get("events", []) if e.get("kind") != REJECTED]
    seats = {int(seat): dict(info) for seat, info in (table.get("seats") or {}).items()}
    kill = _kill(events, _kill_in_turn(hand_record, rules_for))
    order = _player_order(events, seats, spec, kill)
    numbering = Numbering(tuple(order))
    actions, exposed, accepted, ruled = _actions(events, order, hand_record.get("hand_no"))
    posted, time_paid = _posted(events), _time_paid(events)
    short = _made_up_short(spec.get("stakes") or {}, order, seats, posted, kill, time_paid,
                           hand_record.get("result"))  # fmt: skip
    short |= _dead_short(spec.get("stakes") or {}, order, seats, posted, kill,
                         hand_record.get("result"))  # fmt: skip
    game = _game(spec, order, seats, posted, kill, time_paid, short)
    unshown = _won_unshown(events, actions, numbering, hand_record.get("result"))
    return HandHistory(
        **game,
        actions=tuple(map(action, actions)),
        won_unshown=unshown,
        **_deals_in_turn(events, numbering),
        exposed=tuple(exposed),
        accepted=tuple(accepted),
        ruled=tuple(ruled),
        boxed=tuple(_boxed(events, numbering)),
        **_footer(hand_record, order),
    )


def _deals_in_turn(events: list[Mapping[str, Any]], numbering: Numbering) -> dict[str, Any]:
    """Our ``_dealt_in_turn`` and ``_early_fifths`` (``_dealt_in_turn``), players numbered:
    PHH deals a round's replacements after its discards."""
    in_turn, early = _dealt_in_turn(events)
    if not in_turn:
        return {}
    fifths = [(numbering.player(seat), numbering.player(drawer), k) for seat, drawer, k in early]
    return {"dealt_in_turn": True, "early_fifths": tuple(fifths)}


# -- who the players are, in PHH order --------------------------------------------------------


def _dealt_seats(events: list[Mapping[str, Any]], seats: Mapping[int, Any]) -> list[int]:
    started = _started(events)
    if started is not None and "dealt" in started:  # seats sitting out or waiting are not dealt
        seats = {seat: seats[seat] for seat in started["dealt"] if seat in seats}
    sat_out = {
        int(command["seat"])
        for command in _commands(events)
        if command.get("type") == "action" and command.get("action") == "sit_out"
    }
    return sorted(seat for seat in seats if seat not in sat_out)


def _stacks(seats: Mapping[int, Any]) -> dict[int, int]:
    """Each seat's stack as the hand began."""
    return {int(seat): int(info["stack"]) for seat, info in seats.items()}


def _posted(events: list[Mapping[str, Any]]) -> list[tuple[int, int]]:
    return [
        (int(item["seat"]), int(item["amount"]))
        for event in events
        for item in event["payload"].get("events") or []
        if item.get("type") == "posted"
    ]


def _button(events: list[Mapping[str, Any]]) -> int | None:
    started = _started(events)
    if started is not None and started.get("button") is not None:
        return int(started["button"])
    return None


def _kill_in_turn(hand_record: Mapping[str, Any], rules_for: RulesFor | None) -> bool:
    """KILL-04: whether the hand's profile version (``rules_for``) has the kill act in turn
    (WSOP 194, ``kill.action = "in_turn"``); False when it is not known (no ``rules_for``, or
    a version this installation does not hold) or the kill acts last."""
    profile_id, sha256 = hand_record.get("profile_id"), hand_record.get("profile_sha256")
    if rules_for is None or not profile_id or not sha256:
        return False
    try:
        rules = rules_for(str(profile_id), str(sha256))
    except DealerAssistError:
        return False
    return kills.is_on(rules) and not kills.acts_last(rules)


def _kill(events: list[Mapping[str, Any]], in_turn: bool = False) -> Mapping[str, Any]:
    """KILL-01: the hand's kill (``seat``, ``blind``, limits) as ``hand_started`` recorded it;
    empty in a hand that is not a kill pot. With ``in_big_blind`` when the events show that
    the killer posted the big blind though no small blind was posted before it
    (``_killer_in_the_big_blind``, or under a profile whose kill acts in turn
    ``_killer_first_in_the_big_blind``): the posts alone do not tell it from a small blind's
    kill."""
    kill = dict((_started(events) or {}).get("kill") or {})
    killer = kill.get("seat")
    in_big_blind = _killer_in_the_big_blind(events, killer) or (
        in_turn and _killer_first_in_the_big_blind(events, killer)
    )
    if kill and in_big_blind:
        kill["in_big_blind"] = True
    elif kill and _killer_in_the_small_blind(events, killer):
        kill["in_small_blind"] = True
    elif kill and _killer_past_a_short_big_blind(events, killer):
        kill["past_the_big_blind"] = True
    return kill


def _from_the_button(events: list[Mapping[str, Any]], killer: Any) -> list[int]:
    """The seats ``hand_started`` dealt in, from the first after its button; none when it
    names no button or the hand has no killer."""
    started = _started(events)
    if started is None or started.get("button") is None or killer is None:
        return []
    button, dealt = int(started["button"]), sorted(int(s) for s in started.get("dealt") or ())
    return [seat for seat in dealt if seat > button] + [seat for seat in dealt if seat <= button]


def _killer_in_the_big_blind(events: list[Mapping[str, Any]], killer: Any) -> bool:
    """KILL-01/04: whether the killer is the big blind by what ``hand_started`` recorded (the
    button, the seats dealt in) and who sat out at the post. Dealt to two seats, the button
    one of them, the other seat is the big blind (BLIND-02: heads-up the button is in the
    small blind's place). Dealt to more, the seat due the small blind (the first dealt in after the
    button) sat out at the post (its ``sat_out`` event: it missed the small blind, BLIND-07)
    and the killer is the next seat dealt in; that seat sat out before the killer posted
    (BLIND-01: the small blind posts first), else it was a seat dealt in between a dead button
    and the small blind who owed a missed small blind (BLIND-09: its marker is "small" too)
    and the killer is the small blind. Either way its kill is the big blind's (WSOP
    194: under ``kill.action = "in_turn"`` the kill acts in turn as that blind), though the
    posts alone read as a small blind's kill: a kill posted first and a big blind's chips
    next, here a newcomer's entering big blind (BLIND-05) that nobody's small blind preceded.

    >>> started = {"type": "hand_started", "button": 1, "dealt": [3, 4, 1]}
    >>> sat_out = {"type": "sat_out", "seat": 3, "missed_blind": "small"}
    >>> _killer_in_the_big_blind([{"payload": {"events": [started]}},
    ...                           {"payload": {"events": [sat_out]}}], 4)
    True
    >>> _killer_in_the_big_blind([{"payload": {"events": [started]}}], 4)
    False
    >>> posted = {"type": "posted", "seat": 4, "amount": 20}
    >>> _killer_in_the_big_blind([{"payload": {"events": [started]}},
    ...                           {"payload": {"events": [posted]}},
    ...                           {"payload": {"events": [sat_out]}}], 4)
    False
    >>> heads_up = {"type": "hand_started", "button": 1, "dealt": [5, 1]}
    >>> [_killer_in_the_big_blind([{"payload": {"events": [heads_up]}}], s) for s in (5, 1)]
    [True, False]
    """
    ring = _from_the_button(events, killer)
    if len(ring) == 2:  # BLIND-02: [the big blind, the button]
        return ring[-1] == _button(events) and ring[0] == int(killer)
    if len(ring) < 3 or ring[1] != int(killer):
        return False
    posts = _posting_steps(events)
    return bool(posts) and posts[0] == ("sat_out", ring[0], "small")


def _killer_first_in_the_big_blind(events: list[Mapping[str, Any]], killer: Any) -> bool:
    """KILL-04, BLIND-03/05: under a profile whose kill acts in turn as the blind it is in
    (WSOP 194), whether the killer, the first seat dealt in after the button and the first
    to post, is the big blind with the small blind dead at a seat not dealt in: the next
    seat dealt in, a newcomer (or a returning seat) posting its big blind past the big
    blind, made the hand's first betting action. Had the killer been the small blind, that
    seat would have been the big blind and the seat after it would have acted first. (Where
    the kill acts last, the seat after the killer acts first either way: not read so.)

    >>> started = {"type": "hand_started", "button": 6, "dealt": [2, 3, 6]}
    >>> steps = [{"type": "posted", "seat": 2, "amount": 20},
    ...          {"type": "posted", "seat": 3, "amount": 10}]
    >>> first = [{"type": "action", "seat": seat, "action": "fold"} for seat in (3, 6)]
    >>> events = [{"payload": {"events": [item]}} for item in [started, *steps, first[0]]]
    >>> [_killer_first_in_the_big_blind(events, seat) for seat in (2, 3)]
    [True, False]
    >>> _killer_first_in_the_big_blind(events[:-1] + [{"payload": {"events": [first[1]]}}], 2)
    False
    """
    ring = _second_seat_first(events, killer, 0)
    return bool(ring) and _posting_steps(events)[:1] == [("posted", ring[0], None)]


def _second_seat_first(events: list[Mapping[str, Any]], killer: Any, at: int) -> list[int]:
    """The seats dealt in from the button (``_from_the_button``), three or more, when the
    killer is the ``at``-th of them (from 0) and the second made the hand's first betting
    action; else none."""
    ring = _from_the_button(events, killer)
    if len(ring) > 2 and ring[at] == int(killer) and _first_to_act(events) == ring[1]:
        return ring
    return []


def _killer_past_a_short_big_blind(events: list[Mapping[str, Any]], killer: Any) -> bool:
    """KILL-01/04, BLIND-03/04: whether the killer, the second seat dealt in after the
    button and the second to post, is in no blind, past a big blind all in for less than a
    small blind with the small blind dead at a seat not dealt in: the killer made the hand's
    first betting action. Had the first post been a small blind's, the killer would have been
    the big blind, who never acts first before the draw, the kill in turn or last (the seat
    after it would have). The posts alone (a small blind's chips or less, all in, then a
    kill) read as a small blind and the big blind's kill.

    >>> events = [{"payload": {"events": [item]}} for item in (
    ...     {"type": "hand_started", "button": 6, "dealt": [2, 3, 5]},
    ...     {"type": "posted", "seat": 2, "amount": 4}, {"type": "posted", "seat": 3, "amount": 20},
    ...     {"type": "action", "seat": 3, "action": "check"})]
    >>> _killer_past_a_short_big_blind(events, 3), _killer_past_a_short_big_blind(events[:3], 3)
    (True, False)
    """
    ring = _second_seat_first(events, killer, 1)
    return bool(ring) and [seat for _, seat, _ in _posting_steps(events)[:2]] == ring[:2]


def _killer_in_the_small_blind(events: list[Mapping[str, Any]], killer: Any) -> bool:
    """KILL-01/04, BLIND-07/08: whether the killer is the small blind though the posts alone
    read as the big blind's kill (a kill posted first, then a big blind with a dead small
    blind on top: a missed big blind made up after a big blind's kill, the small blind dead).
    By ``hand_started`` and the posting steps in their order (BLIND-01: the small blind
    first, then the big blind): the killer is the first seat dealt in after the button and
    posted first, and the next seat dealt in sat out at once missing the big blind (its
    ``sat_out``: "big"), so the big blind moved on at the post (BLIND-07) onto a seat making
    up a missed big blind, which posted it with its dead small blind (BLIND-08). The kill is
    the small blind's (WSOP 194: under ``kill.action = "in_turn"`` it acts in turn as the
    small blind). The same steps are those of a big blind's kill with the small blind dead
    at a seat not dealt in, a returning seat after it sitting out and the next making up a
    missed big blind: that seat, left of the big blind, acts first, so the kill is read as
    the small blind's only when another seat made the hand's first betting action (heads-up
    under ``kill.action = "last"`` the moved big blind acts first either way: not read so).

    >>> started = {"type": "hand_started", "button": 6, "dealt": [1, 2, 3]}
    >>> steps = [{"type": "posted", "seat": 1, "amount": 20},
    ...          {"type": "sat_out", "seat": 2, "missed_blind": "big"},
    ...          {"type": "posted", "seat": 3, "amount": 15}]
    >>> first = [{"type": "action", "seat": seat, "action": "check"} for seat in (1, 3)]
    >>> events = [{"payload": {"events": [item]}} for item in [started, *steps, first[0]]]
    >>> [_killer_in_the_small_blind(events, seat) for seat in (1, 3)]
    [True, False]
    >>> _killer_in_the_small_blind(events[:2] + events[3:], 1)
    False
    >>> _killer_in_the_small_blind(events[:-1] + [{"payload": {"events": [first[1]]}}], 1)
    False
    """
    ring = _from_the_button(events, killer)
    if len(ring) < 3 or ring[0] != int(killer):
        return False
    posts = _posting_steps(events)
    if posts[:2] != [("posted", ring[0], None), ("sat_out", ring[1], "big")]:
        return False
    moved = next((seat for step, seat, _ in posts[2:] if step == "posted"), None)
    return _first_to_act(events) not in (None, moved)


def _first_to_act(events: list[Mapping[str, Any]]) -> int | None:
    """The seat of the hand's first betting action (None if it has none)."""
    for event in events:
        for item in event["payload"].get("events") or []:
            if item.get("type") == "action" and item.get("action") in _BETTING:
                return int(item["seat"])
    return None


_BETTING = frozenset({"check", "call", "bet", "raise", "fold"})


def _posting_steps(events: list[Mapping[str, Any]]) -> list[tuple[str, int, Any]]:
    """The hand's posts and sit-outs at the post in their order (BLIND-01: the seat whose turn
    it is posts or sits out): ``("posted", seat, None)`` or ``("sat_out", seat, marker)``."""
    return [
        (str(item["type"]), int(item.get("seat", 0)), item.get("missed_blind"))
        for event in events
        for item in event["payload"].get("events") or []
        if item.get("type") in ("posted", "sat_out")
    ]


def _started(events: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The engine's ``hand_started`` record of the hand (button; seats dealt in)."""
    for event in events:
        for item in event["payload"].get("events") or []:
            if item.get("type") == "hand_started":
                return dict(item)
    return None


def _player_order(
    events: list[Mapping[str, Any]],
    seats: Mapping[int, Any],
    spec: Mapping[str, Any],
    kill: Mapping[str, Any],
) -> list[int]:
    """Seats as PHH players p1..pn, in the order they act after the draw: from the first seat
    dealt in after the button (the small blind, or the big blind when the small blind is
    dead). Heads-up, the big blind first and the small blind (the button) second, as pokerkit
    numbers them (the seat that posted the big blind, ``_blind_posters``); so too when a small
    blind was posted off the button (the big blind moved onto the button, BLIND-07, or a dead
    button, BLIND-03): heads-up the small blind plays the button's part and acts and draws
    last after the draw (BLIND-02). Heads-up when no small blind was posted and the button is
    not the other seat (a dead button and a small blind that sat out), the players are
    numbered from the first seat after the button as in a bigger game. ``kill``: ``_kill``."""
    dealt = _dealt_seats(events, seats)
    if not dealt:
        return []
    button = _button(events)
    stakes, stacks = spec.get("stakes") or {}, _stacks(seats)
    small, big = _blind_posters(stakes, dealt, _posted(events), kill, stacks)
    if len(dealt) == 2 and big is not None:
        other = next(seat for seat in dealt if seat != big)
        if button is None or button == other or small == other:
            return [big, other]
    if button is not None:
        return [seat for seat in dealt if seat > button] + [s for s in dealt if s <= button]
    posted = _posted(events)
    small = next((s for s, a in posted if a == stakes.get("small_blind")), None)
    start = dealt.index(small) if small in dealt else 0
    order = dealt[start:] + dealt[:start]
    if len(order) == 2:
        order = [order[1], order[0]]
    return order


# -- header, actions, footer ------------------------------------------------------------------


def _game(
    spec: Mapping[str, Any],
    order: list[int],
    seats: Mapping[int, Any],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any],
    time_paid: Mapping[int, int] | None = None,
    dead_first: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """The game, its forced bets (PHH's, our ``_dead_small_blind`` and ``_posts``), bet sizes
    and stacks. PHH has variant codes only for ``F2L3D`` and ``N2L1D`` of our games: the
    others are written with our own name (``structure/variant``). ``dead_first``: the seats
    that made up a missed big blind all in for less (``_made_up_short``)."""
    stakes = spec.get("stakes") or {}
    key = (spec.get("variant"), spec.get("structure"))
    code = PHH_VARIANTS.get(key)  # type: ignore[arg-type]
    if code is None:
        code = f"{spec.get('structure', 'unknown')}/{spec.get('variant', 'unknown')}"
    stacks = _stacks(seats)
    blinds, antes, dead_small = _forced_bets(stakes, order, posted, kill, stacks, dead_first)
    parts = _post_parts(stakes, order, posted, kill, stacks, dead_first)
    game: dict[str, Any] = {
        "variant": code,
        "antes": tuple(antes),
        "blinds_or_straddles": tuple(blinds),
        "dead_small_blind": dead_small,  # PHH has no dead blind: our own field
        "posts": _posts(parts, bool(dead_small)),
        **_bet_sizes(spec, stakes),
    }
    return game | _time_fields(seats, order, time_paid or {})


def _posts(parts: list[list[str]], dead_small: bool) -> tuple[tuple[PostPart, ...], ...] | None:
    """Our ``_posts`` when PHH's own fields do not say what was posted (``_posts_needed``)."""
    if not _posts_needed(parts, dead_small):
        return None
    return tuple(tuple(map(PostPart, player)) for player in parts)


def _bet_sizes(spec: Mapping[str, Any], stakes: Mapping[str, Any]) -> dict[str, Any]:
    """A fixed-limit game's ``small_bet`` and ``big_bet``, another's ``min_bet``."""
    if spec.get("structure") == "fixed_limit":
        return {"small_bet": stakes.get("small_bet", 0), "big_bet": stakes.get("big_bet", 0)}
    return {"min_bet": stakes.get("min_bet") or stakes.get("big_blind", 0)}


def _time_paid(events: list[Mapping[str, Any]]) -> dict[int, int]:
    """RAKE-05: what each seat paid in the engine's ``time_collected`` event of the hand (a
    hand that started a time period), {} in every other hand."""
    for event in events:
        for item in event["payload"].get("events") or []:
            if item.get("type") == "time_collected":
                return {int(seat): int(chips) for seat, chips in item["seats"].items()}
    return {}


def _time_fields(
    seats: Mapping[int, Any], order: list[int], paid: Mapping[int, int]
) -> dict[str, Any]:
    """``starting_stacks`` and, in a hand that paid time (RAKE-05), our ``_time_collected``.

    PHH's ``starting_stacks`` are the stacks the hand is played with: the engine takes the
    time after the posts and before the deal, so a timed hand's starting stacks are the stacks
    the table had when the hand began net of the time charge (what each player had when the
    cards were dealt), and pokerkit, which knows no time charge, replays them as they are to
    our finishing stacks. ``_time_collected`` (per player, in the players' order) is the
    charge: the table's stacks before it are ``starting_stacks`` plus it (``reader``
    seats those and lets the engine take the time again under a time profile).

    >>> _time_fields({1: {"stack": 500}, 2: {"stack": 4}}, [2, 1], {1: 6, 2: 4})
    {'starting_stacks': (0, 494), 'time_collected': (4, 6)}
    >>> _time_fields({1: {"stack": 500}, 2: {"stack": 4}}, [2, 1], {})
    {'starting_stacks': (4, 500)}
    """
    charge = tuple(paid.get(seat, 0) for seat in order)
    stacks = [seats[seat]["stack"] - chips for seat, chips in zip(order, charge, strict=True)]
    fields: dict[str, Any] = {"starting_stacks": tuple(stacks)}
    if paid:
        fields["time_collected"] = charge
    return fields


def _forced_bets(
    stakes: Mapping[str, Any],
    order: list[int],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None = None,
    stacks: Mapping[int, int] | None = None,
    dead_first: frozenset[int] = frozenset(),
) -> tuple[list[int], list[int], int]:
    """PHH ``blinds_or_straddles`` and ``antes`` from what was posted (``posted`` in the order
    of the posts), and the small blind that was dead this hand (0 if none was).

    The blinds post first (BLIND-01): the first post is the small blind, unless it is a big
    blind or more (no small blind this hand: its seat is empty or sat out, BLIND-03/07);
    the big blind is the next post. The small blind is written at its player and the big
    blind at its player, as the stakes say (a short all-in blind is capped by the stack).
    When player 1 posted the big blind, nobody posted a small blind: that small blind is our
    ``_dead_small_blind``. Heads-up PHH lists the small blind first, though player 1 is the
    big blind (pokerkit's convention). A big-blind ante is the big blind's. Posts of other
    seats (a missed blind made up, a newcomer's big blind, a kill blind) are written as they
    were made: the live part a blind of that player, a dead small blind an ante of that player,
    as pokerkit plays them; what each post was is our ``_posts`` (``_post_parts``); the
    posts of ``dead_first`` seats are a missed big blind made up all in for less, the dead
    small blind first (``_made_up_short``). A kill (``kill``, KILL-01) posted by a blind is
    written as that blind.

    >>> stakes = {"small_blind": 5, "big_blind": 10}
    >>> _forced_bets(stakes, [4, 1, 2], [(4, 10)])
    ([10, 0, 0], [0, 0, 0], 5)
    >>> _forced_bets(stakes, [2, 3, 1], [(2, 5), (3, 10)])
    ([5, 10, 0], [0, 0, 0], 0)
    >>> _forced_bets(stakes, [3, 1, 2], [(1, 10)])
    ([0, 10, 0], [0, 0, 0], 0)
    >>> _forced_bets(stakes, [4, 1, 2, 3], [(1, 5), (2, 10), (4, 15)])
    ([10, 5, 10, 0], [5, 0, 0, 0], 0)

    The small blind kills (a kill of 20 posted first, then the big blind):

    >>> _forced_bets(stakes, [2, 3, 1], [(2, 20), (3, 10)], {"seat": 2, "blind": 20})
    ([5, 10, 0], [0, 0, 0], 0)

    The big blind kills (the small blind dead) and the next player makes up a missed small
    blind, dead (his ante):

    >>> _forced_bets(stakes, [6, 1, 4], [(6, 20), (1, 5)], {"seat": 6, "blind": 20})
    ([10, 0, 0], [0, 5, 0], 5)

    Heads-up (player 1 the big blind; the lists begin with player 2's, as pokerkit reads them):

    >>> _forced_bets({**stakes, "big_blind_ante": 10}, [3, 1], [(1, 5), (3, 20)])
    ([5, 10], [0, 10], 0)
    >>> _forced_bets(stakes, [6, 1], [(6, 10), (1, 15)])
    ([10, 10], [5, 0], 0)
    """
    small, big = int(stakes.get("small_blind", 0)), int(stakes.get("big_blind", 0))
    ante, big_ante = int(stakes.get("ante", 0)), int(stakes.get("big_blind_ante", 0))
    blinds, antes = [0] * len(order), [ante] * len(order)
    if len(order) < 2:
        return blinds, antes, 0
    heads_up = len(order) == 2
    # by player (p1 first) here; heads-up pokerkit lists both the other way round (below)
    small_seat, big_seat = _blind_seats(stakes, order, posted, kill, stacks)
    dead_small = small if big_seat == order[0] and small_seat is None and not heads_up else 0
    places = {order.index(seat) for seat in (small_seat, big_seat) if seat is not None}
    if small_seat is not None:
        blinds[order.index(small_seat)] = small
    where = order.index(big_seat)
    blinds[where] = big
    antes[where] += big_ante + _moved_dead_small(stakes, big_seat, posted, kill)
    paid = [dict(posted).get(seat) for seat in order]
    killer = (kill or {}).get("seat")
    kill_at = order.index(killer) if killer in order else None
    kill_blind = int((kill or {}).get("blind", 0))
    short = {order.index(seat) for seat in dead_first if seat in order}
    _other_posts(blinds, antes, paid, places, stakes, kill_at, kill_blind, short)
    if heads_up:  # pokerkit: heads-up the lists begin with player 2's (the small blind's)
        blinds.reverse()
        antes.reverse()
    return blinds, antes, dead_small


def _blind_seats(
    stakes: Mapping[str, Any],
    order: list[int],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None = None,
    stacks: Mapping[int, int] | None = None,
) -> tuple[int | None, int]:
    """(small blind seat or None when it is dead, big blind seat) of a hand of two or more
    players: from the posts, or when nothing was posted the blinds of the stakes."""
    small_seat, big_seat = _blind_posters(stakes, order, posted, kill, stacks)
    small, big = int(stakes.get("small_blind", 0)), int(stakes.get("big_blind", 0))
    if big_seat is None or not small or small >= big:  # no posts: the blinds of the stakes
        heads_up = len(order) == 2
        return (order[1], order[0]) if heads_up else (order[0], order[1])
    return small_seat, big_seat


def _blind_posters(
    stakes: Mapping[str, Any],
    dealt: list[int],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None = None,
    stacks: Mapping[int, int] | None = None,
) -> tuple[int | None, int | None]:
    """(small blind seat, big blind seat) from the posts in their order: the blinds post first
    (BLIND-01); the first post is the small blind unless it is a big blind or more (no small
    blind this hand), or all its ``stacks`` and more than a small blind or the hand's only
    post (a short big blind all in, BLIND-04: a small blind posts no more than the small
    blind, and a big blind's post follows it), and the big blind is the next post. A kill
    posted first (KILL-01, a kill
    of the small blind) is the small blind when the next seat dealt in posts the big blind
    next (no more than a big blind, and not a small blind's chips alone unless they are all
    its ``stacks``: a short big blind all in, BLIND-04). A kill posted first and followed by
    a small blind's chips alone is the big blind's (the small blind dead, BLIND-03): the
    next seat made up a missed small blind, dead (BLIND-09). So is a kill posted first when
    the next seat dealt in posted nothing (no big blind there: it owed nothing, the small
    blind dead at an empty seat before the killer, BLIND-03). A kill the events show in the
    big blind (``kill["in_big_blind"]``, ``_killer_in_the_big_blind``: dealt heads-up, or the
    small blind sat out at the post) is the big blind's whatever comes next (KILL-04: it acts
    in turn as the big blind). Heads-up, the button may post the small blind after the big
    blind has posted (the seat due the small blind sat out at the post, BLIND-02): a small
    blind posted after a big blind by the other seat of two is the small blind.

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 2, 3], [(2, 5), (3, 10)])
    (2, 3)
    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 2, 3], [(3, 10), (1, 15)])
    (None, 3)
    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 2, 3], [(3, 20), (1, 10)],
    ...                {"seat": 3, "blind": 20})
    (3, 1)
    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [2, 3], [(2, 10), (3, 5)])
    (3, 2)

    The big blind kills (20) and the next seat makes up a missed small blind (5, dead); a
    big blind all in for 5 after a small blind's kill:

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 4, 6], [(6, 20), (1, 5)],
    ...                {"seat": 6, "blind": 20})
    (None, 6)
    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 4, 6], [(6, 20), (1, 5)],
    ...                {"seat": 6, "blind": 20}, {1: 5, 4: 100, 6: 100})
    (6, 1)

    The big blind kills (20) past a small blind dead at an empty seat, the next seat owes
    nothing and a newcomer past it posts its entering big blind (10, BLIND-05):

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 4, 5], [(4, 20), (1, 10)],
    ...                {"seat": 4, "blind": 20})
    (None, 4)

    The big blind all in for 9 past a small blind dead at an empty seat (BLIND-03/04):

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [6, 1, 2], [(6, 9)], None,
    ...                {6: 9, 1: 410, 2: 1129})
    (None, 6)

    The big blind all in for 5 past a small blind dead at an empty seat, the hand's only post:

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [6, 2, 3, 4], [(6, 5)], None,
    ...                {6: 5, 2: 440, 3: 845, 4: 70})
    (None, 6)

    Heads-up, the big blind kills (20), the small blind sat out at the post and the button
    posts its entering big blind (10, BLIND-05): the same posts as a small blind's kill and a
    big blind, told apart by the events only:

    >>> _blind_posters({"small_blind": 5, "big_blind": 10}, [1, 4], [(4, 20), (1, 10)],
    ...                {"seat": 4, "blind": 20, "in_big_blind": True})
    (None, 4)
    """
    seats = [seat for seat, _ in posted if seat in dealt]
    big, ante = int(stakes.get("big_blind", 0)), int(stakes.get("ante", 0))
    if not seats or not big:
        return None, None
    paid = dict(posted)
    first = paid[seats[0]] - ante
    limit = big + int(stakes.get("big_blind_ante", 0))
    killed_first = seats[0] == (kill or {}).get("seat")
    in_big_blind = killed_first and bool((kill or {}).get("in_big_blind"))
    if (kill or {}).get("past_the_big_blind") and not killed_first:
        return None, seats[0]  # BLIND-03/04: the big blind all in for less, the kill past it
    if killed_first and len(seats) > 1 and (kill or {}).get("in_small_blind"):
        return seats[0], seats[1]  # BLIND-07/08: the big blind moved onto a returning seat
    if killed_first and len(seats) > 1 and not in_big_blind:
        ring = sorted(dealt)
        after = ring[(ring.index(seats[0]) + 1) % len(ring)]
        if seats[1] == after:  # else it did not post next (here: nothing): no big blind there
            dead_small = paid[after] - ante == int(stakes.get("small_blind", 0))
            all_in = paid[after] >= (stacks or {}).get(after, paid[after] + 1)
            if paid[after] - ante <= limit and (all_in or not dead_small):
                return seats[0], after
    small = int(stakes.get("small_blind", 0))
    all_in = paid[seats[0]] >= (stacks or {}).get(seats[0], first + ante + 1)
    short_big = all_in and (first > small or len(seats) == 1)
    if first >= limit or in_big_blind or short_big:  # short_big: BLIND-04, all in for less
        later = seats[1] if len(dealt) == 2 and len(seats) > 1 else None
        if later is not None and paid[later] - ante == small:
            return later, seats[0]  # BLIND-02: heads-up, the button posts the small blind last
        return None, seats[0]
    return seats[0], next(iter(seats[1:]), None)


def _moved_dead_small(
    stakes: Mapping[str, Any],
    big_seat: int,
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None = None,
) -> int:
    """BLIND-07/08: the big blind moved at the post onto a seat making up a missed big blind
    posts its big blind and the small blind it missed, dead (``posting._move_big_blind``):
    the dead small blind it posted on top of the big blind (and its ante), else 0.

    >>> _moved_dead_small({"small_blind": 5, "big_blind": 10}, 5, [(3, 5), (5, 15)])
    5
    >>> _moved_dead_small({"small_blind": 5, "big_blind": 10}, 5, [(3, 5), (5, 10)])
    0
    """
    if big_seat == (kill or {}).get("seat"):
        return 0
    small, big = int(stakes.get("small_blind", 0)), int(stakes.get("big_blind", 0))
    ante = int(stakes.get("ante", 0)) + int(stakes.get("big_blind_ante", 0))
    paid = dict(posted).get(big_seat)
    return small if small and paid == ante + big + small else 0


def _made_up_short(
    stakes: Mapping[str, Any],
    order: list[int],
    seats: Mapping[int, Any],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None,
    time_paid: Mapping[int, int],
    result: Any,
) -> frozenset[int]:
    """The seats that made up a missed big blind all in for less (BLIND-08 with BLIND-04).

    A seat owing its missed big blind and the small blind dead (returning_big_blind,
    dead_small_blind) with fewer chips than both posts them all: the dead small blind first,
    the rest live (BLIND-01, ``posting.apply_post``: dead parts first, outside the side-pot
    levels). Its amount alone (all its chips, more than a small blind and less than both
    blinds) reads as a newcomer's big blind all in (BLIND-05, all live): only the pots tell
    them apart. Such a post is the made-up one when the pots the seat could win (those naming
    it ``eligible``) hold what they would with its small blind dead (the dead chips, and from
    each player at most the seat's live chips: ``pots.build_pots``) and not what they would
    with all of it live. Each player's chips come from the result (stack before, less stack
    after, plus what it won; less time paid, RAKE-05). A hand without pots, or pots neither
    reading gives, is written by the amounts as before (and heads-up, where every post is a
    blind's)."""
    pots, stacks, others = _other_posts_and_pots(stakes, order, seats, posted, kill, result)
    if not pots:
        return frozenset()
    small, big = int(stakes.get("small_blind", 0)), int(stakes.get("big_blind", 0))
    ante = int(stakes.get("ante", 0))
    final = {int(seat): int(chips) for seat, chips in (result.get("stacks") or {}).items()}
    won = {int(seat): int(chips) for seat, chips in (result.get("winnings") or {}).items()}
    put = {
        seat: stacks.get(seat, 0) - final.get(seat, 0) + won.get(seat, 0) - time_paid.get(seat, 0)
        for seat in order
    }
    dead = {seat: _live_and_dead(amount, stakes)[1] for seat, amount in others}
    short = set()
    for seat, amount in others:
        if amount != stacks.get(seat) or not small < amount - ante < small + big:
            continue
        held = sum(int(pot["amount"]) for pot in pots if seat in pot.get("eligible", ()))
        made_up, live = (_in_reach(seat, amount, own, put, dead) for own in (small, 0))
        if held == made_up != live:
            short.add(seat)
    return frozenset(short)


def _dead_short(
    stakes: Mapping[str, Any],
    order: list[int],
    seats: Mapping[int, Any],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None,
    result: Any,
) -> frozenset[int]:
    """The seats that made up a missed small blind all in for less (BLIND-09 with BLIND-04).

    A seat owing the small blind dead with fewer chips than it posts them all, dead
    (``posting.apply_post``: dead parts first; a dead small blind plays no part in the
    betting), so no pot names it ``eligible``. Its amount alone (all its chips, less than a
    small blind) reads as a live blind all in (a newcomer's big blind, BLIND-05), which would
    put it in the main pot: a seat, not a blind, all in on its post for less than a small
    blind and in no pot's ``eligible`` posted dead. A hand without pots is written by the
    amounts as before.

    >>> stakes, order = {"small_blind": 5, "big_blind": 10}, [6, 1, 2, 3]
    >>> seats = {6: {"stack": 450}, 1: {"stack": 96}, 2: {"stack": 4}, 3: {"stack": 907}}
    >>> posted = [(6, 5), (1, 10), (2, 4)]
    >>> pot = {"amount": 34, "eligible": [6, 1, 3]}
    >>> _dead_short(stakes, order, seats, posted, None, {"pots": [pot]})
    frozenset({2})
    >>> _dead_short(stakes, order, seats, posted, None, {"pots": [{**pot, "eligible": [2]}]})
    frozenset()
    """
    pots, stacks, others = _other_posts_and_pots(stakes, order, seats, posted, kill, result)
    small, ante = int(stakes.get("small_blind", 0)), int(stakes.get("ante", 0))
    eligible = {seat for pot in pots for seat in pot.get("eligible", ())}
    return frozenset(
        seat
        for seat, amount in others
        if seat not in eligible and amount == stacks.get(seat) and 0 < amount - ante < small
    )


def _other_posts_and_pots(
    stakes: Mapping[str, Any],
    order: list[int],
    seats: Mapping[int, Any],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None,
    result: Any,
) -> tuple[list[Mapping[str, Any]], dict[int, int], list[tuple[int, int]]]:
    """What ``_made_up_short`` and ``_dead_short`` read: the hand's pots, the stacks it
    started with, and the posts of seats that are neither a blind nor the kill; no pots
    (and no posts) for a hand without pots or a small blind, or of fewer than three."""
    pots = (result or {}).get("pots") if isinstance(result, Mapping) else None
    stacks = _stacks(seats)
    if not pots or not int(stakes.get("small_blind", 0)) or len(order) < 3:
        return [], stacks, []
    blinds = {*_blind_seats(stakes, order, posted, kill, stacks), (kill or {}).get("seat")}
    others = [(seat, amount) for seat, amount in posted if seat in order and seat not in blinds]
    return list(pots), stacks, others


def _in_reach(
    seat: int, amount: int, own_dead: int, put: Mapping[int, int], dead: Mapping[int, int]
) -> int:
    """The chips of the pots ``seat`` can win (``pots.build_pots``) when ``own_dead`` of its
    all-in post was dead: every dead chip, and from each player (``put``, less its ``dead``)
    at most the seat's live chips.

    >>> put, dead = {1: 10, 2: 10, 3: 10, 4: 10}, {}
    >>> _in_reach(1, 10, 5, put, dead), _in_reach(1, 10, 0, put, dead)
    (25, 40)
    """
    level = amount - own_dead
    others = [chips - dead.get(player, 0) for player, chips in put.items() if player != seat]
    dead_chips = sum(chips for player, chips in dead.items() if player != seat) + own_dead
    return dead_chips + level + sum(min(chips, level) for chips in others)


def _other_posts(
    blinds: list[int],
    antes: list[int],
    paid: list[int | None],
    blind_players: set[int],
    stakes: Mapping[str, Any],
    kill_at: int | None = None,
    kill_blind: int = 0,
    dead_first: set[int] | None = None,
) -> None:
    """Add the posts of players other than the blinds: live parts to ``blinds``, a dead
    small blind to ``antes`` (BLIND-08/09 a missed blind made up, BLIND-05/06 a newcomer;
    KILL-01 a kill, with a missed small blind owed on top; ``dead_first``, the players who
    made up a missed big blind all in for less)."""
    for index, amount in enumerate(paid):
        if amount is None or index in blind_players:
            continue
        short = index in (dead_first or set())
        live, dead = _live_and_dead(amount, stakes, kill_blind if index == kill_at else 0, short)
        antes[index] += dead
        blinds[index] += live


def _live_and_dead(
    amount: int, stakes: Mapping[str, Any], kill_blind: int = 0, short: bool = False
) -> tuple[int, int]:
    """A post of a seat that is not a blind, without the ante: (live part, dead small blind);
    ``kill_blind`` when the seat kills (KILL-01), a missed small blind owed on top;
    ``short``, a missed blind made up all in for less (``_made_up_short``, ``_dead_short``):
    the dead small blind first (BLIND-01, ``posting.apply_post``), the rest live.

    >>> _live_and_dead(15, {"small_blind": 5, "big_blind": 10})
    (10, 5)
    >>> _live_and_dead(25, {"small_blind": 5, "big_blind": 10}, kill_blind=20)
    (20, 5)
    >>> _live_and_dead(10, {"small_blind": 5, "big_blind": 10}), _live_and_dead(
    ...     10, {"small_blind": 5, "big_blind": 10}, short=True)
    ((10, 0), (5, 5))
    """
    small, big = int(stakes.get("small_blind", 0)), int(stakes.get("big_blind", 0))
    rest = max(0, amount - int(stakes.get("ante", 0)))
    made_up = (kill_blind + small,) if kill_blind else (small, small + big)
    dead = min(rest, small) if short else small if rest in made_up else 0
    return rest - dead, dead


def _post_parts(
    stakes: Mapping[str, Any],
    order: list[int],
    posted: list[tuple[int, int]],
    kill: Mapping[str, Any] | None = None,
    stacks: Mapping[int, int] | None = None,
    dead_first: frozenset[int] = frozenset(),
) -> list[list[str]]:
    """Our ``_posts``: for each player, what its forced bet was, by the engine's names:
    ``small_blind``/``big_blind`` (the blinds' places), ``kill`` (KILL-01: the kill blind,
    instead of a blind's live part), ``returning_big_blind`` with ``dead_small_blind``
    (BLIND-08, a missed big blind made up; all in for less, ``dead_first``),
    ``dead_small_blind`` alone (BLIND-09),
    ``entering_big_blind`` (BLIND-05, a newcomer). PHH cannot say these; the reader replays
    them (``audit.phh.reader``).

    >>> stakes = {"small_blind": 5, "big_blind": 10}
    >>> _post_parts(stakes, [4, 1, 2, 3], [(1, 5), (2, 10), (4, 15)])
    [['returning_big_blind', 'dead_small_blind'], ['small_blind'], ['big_blind'], []]
    >>> _post_parts(stakes, [1, 2, 3], [(1, 5), (2, 20), (3, 10)], {"seat": 2, "blind": 20})
    [['small_blind'], ['big_blind', 'kill'], ['entering_big_blind']]
    >>> _post_parts(stakes, [6, 1, 4], [(6, 20), (1, 5)], {"seat": 6, "blind": 20})
    [['big_blind', 'kill'], ['dead_small_blind'], []]
    """
    parts: list[list[str]] = [[] for _ in order]
    if len(order) < 2:
        return parts
    small_seat, big_seat = _blind_seats(stakes, order, posted, kill, stacks)
    killer = (kill or {}).get("seat")
    if small_seat is not None:
        parts[order.index(small_seat)].append("small_blind")
    parts[order.index(big_seat)].append("big_blind")
    if _moved_dead_small(stakes, big_seat, posted, kill):
        parts[order.index(big_seat)].append("dead_small_blind")
    big = int(stakes.get("big_blind", 0))
    for seat, amount in posted:
        if seat not in order or seat in (small_seat, big_seat):
            continue
        kill_blind = int((kill or {}).get("blind", 0)) if seat == killer else 0
        live, dead = _live_and_dead(amount, stakes, kill_blind, seat in dead_first)
        here = parts[order.index(seat)]
        if seat == killer:
            here.append("kill")
        elif dead and (live == big or (live and seat in dead_first)):
            here.append("returning_big_blind")
        elif live == big:
            here.append("entering_big_blind")
        if dead:
            here.append("dead_small_blind")
    if killer is not None and killer in (small_seat, big_seat):
        parts[order.index(killer)].append("kill")
    return parts


def _posts_needed(parts: list[list[str]], dead_small: bool) -> bool:
    """``_posts`` is written when PHH's own fields (and ``_dead_small_blind``) do not say
    what was posted: a post besides the blinds (a missed blind made up, a newcomer, a kill),
    or a small blind that is not player 1's (a dead button: players dealt in before it).
    Usually player 1 posts the small blind and player 2 the big blind (heads-up the other
    way round), player 1 the big blind of a dead small blind, or heads-up player 1 the big
    blind when the small blind sat out.

    >>> _posts_needed([["small_blind"], ["big_blind"], []], False)
    False
    >>> _posts_needed([[], ["small_blind"], ["big_blind"]], False)
    True
    >>> _posts_needed([["big_blind"], [], ["entering_big_blind"]], True)
    True
    >>> _posts_needed([[], ["big_blind"], []], False)
    False
    """
    if any(set(player) - {"small_blind", "big_blind"} for player in parts):
        return True
    small = next((n for n, player in enumerate(parts) if "small_blind" in player), None)
    if small is None:  # a dead small blind, or one that sat out (PHH blind 0)
        return False
    return small != (1 if len(parts) == 2 else 0)


def _footer(hand_record: Mapping[str, Any], order: list[int]) -> dict[str, Any]:
    """The players, the result (and the house's take), the date and our provenance fields."""
    events = hand_record.get("events") or []
    seats = (hand_record.get("table") or {}).get("seats") or {}
    players = {int(seat): info["player"] for seat, info in seats.items()}
    fields: dict[str, Any] = {
        "hand": hand_record.get("hand_no") or 0,
        "players": tuple(players.get(seat, f"seat {seat}") for seat in order),
        **_result(hand_record.get("result"), order),
        "chopped": _chopper(events, order),  # SHOW-08: PHH has no chop; for the reader
        **_date(str(hand_record.get("started_at") or "")),
        **_provenance(hand_record, events),
    }
    kill = dict((_started(events) or {}).get("kill") or {})
    if kill:  # KILL-01: PHH has no kill blind nor doubled limits; pokerkit plays normal stakes
        # the player who kills, for the reader (0: not dealt in)
        kill["player"] = order.index(kill["seat"]) + 1 if kill.get("seat") in order else 0
        fields["kill"] = Kill(tuple(kill.items()))
    # what PHH cannot say (a killed hand, an award, an adjusted stack) is named here
    fields["rulings"] = tuple(_ruling(event) for event in events if event.get("kind") == "ruling")
    # envelope 2: the dealers on duty during the hand, in order (employee IDs)
    fields["dealers"] = tuple(hand_dealers(hand_record.get("events") or []))
    return fields


def hand_dealers(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The employee IDs the hand's events name as the dealer on duty, in order, each once
    (a push during the hand names two; events of envelope 1 name none).

    >>> hand_dealers([{"dealer": "E1"}, {"dealer": "E1"}, {"dealer": None}, {"dealer": "E2"}])
    ['E1', 'E2']
    """
    named = (dealer_of(event) for event in events)
    return list(dict.fromkeys(dealer for dealer in named if dealer))


def _result(result: Any, order: list[int]) -> dict[str, Any]:
    """``finishing_stacks``, the house's take (``_rake_fields``), ``_cancelled``."""
    if not isinstance(result, Mapping):
        return {}
    fields: dict[str, Any] = {}
    if result.get("stacks"):
        stacks = {int(seat): stack for seat, stack in result["stacks"].items()}
        fields["finishing_stacks"] = tuple(stacks.get(seat, 0) for seat in order)
    if "rake" in result:  # RAKE-01..03: the house's take
        fields |= _rake_fields(result, order)
    if result.get("cancelled"):  # no hand was played
        fields["cancelled"] = True
    return fields


def _date(started: str) -> dict[str, int]:
    """PHH's ``year``, ``month`` and ``day`` of the hand's start (none without one).

    >>> _date("2026-12-01T17:25:38.841879Z"), _date("")
    ({'year': 2026, 'month': 12, 'day': 1}, {})
    """
    if len(started) < 10:
        return {}
    year, month, day = (int(part) for part in started[:10].split("-"))
    return {"year": year, "month": month, "day": day}


def _provenance(hand_record: Mapping[str, Any], events: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Our fields saying where the hand is in the audit log and which profile version dealt it."""
    fields: dict[str, Any] = {
        "table_id": str(hand_record.get("table_id")),
        "profile_id": str(hand_record.get("profile_id")),
        "profile_sha256": str(hand_record.get("profile_sha256")),
        "started_at": str(hand_record.get("started_at") or ""),
        "ended_at": str(hand_record.get("ended_at") or ""),
    }
    if events:
        fields |= {"first_seq": events[0]["seq"], "last_seq": events[-1]["seq"]}
        fields["last_hash"] = events[-1]["hash"]
    return fields


def _rake_fields(result: Mapping[str, Any], order: list[int]) -> dict[str, Any]:
    """RAKE-01..03: PHH has no rake field; its ``winnings`` are "the post-rake values", so they
    are written, with our ``_rake`` and ``_jackpot_drop`` (the hand's totals) and ``_pot_rake``
    (each pot, main pot first: its amount, rake and jackpot drop) for the reader and for a
    pokerkit rake function (``HandHistory.loads(text, rake=...)``) that takes them again.

    >>> _rake_fields({"rake": 4, "jackpot_drop": 1, "winnings": {"3": 65},
    ...              "pots": [{"amount": 70, "rake": 4, "jackpot_drop": 1}]}, [2, 3, 1])
    {'winnings': (0, 65, 0), 'rake': 4, 'jackpot_drop': 1, 'pot_rake': ((70, 4, 1),)}
    """
    won = {int(seat): chips for seat, chips in (result.get("winnings") or {}).items()}
    pots = [(pot["amount"], pot["rake"], pot["jackpot_drop"]) for pot in result.get("pots") or []]
    return {
        "winnings": tuple(won.get(seat, 0) for seat in order),
        "rake": result["rake"],
        "jackpot_drop": result.get("jackpot_drop", 0),
        "pot_rake": tuple(pots),
    }


def _chopper(events: list[Mapping[str, Any]], order: list[int]) -> int:
    """SHOW-08: the player (1..n) for whom the blinds' chop was entered (the small blind), 0
    when the hand was not chopped (or the chop was taken back by a ruling).

    >>> _chopper([{"payload": {"command": {"type": "action", "seat": 2, "action": "chop"}}}],
    ...          [2, 3, 1])
    1
    """
    for command in _commands(events):
        if command.get("type") == "action" and command.get("action") == "chop":
            seat = int(command["seat"])
            return order.index(seat) + 1 if seat in order else 0
    return 0


def _won_unshown(
    events: list[Mapping[str, Any]], lines: list[str], numbering: Numbering, result: Any
) -> int:
    """SHOW-02: the player whose hand took the pot unshown, the others having mucked (the hand
    ended on the last muck), 0 if none. pokerkit awards a pot only to a hand shown at the
    showdown: in card mode that hand's cards (dealt, less its discards, plus its
    replacements) are tabled in a last line ``pN sm`` after the mucks, which the reader
    does not enter (``_won_unshown``). In count mode they are unknown: no line."""
    commands = _commands(events)
    if not commands or commands[-1].get("action") != "muck" or not isinstance(result, Mapping):
        return 0
    shown = {int(seat) for seat in result.get("shown") or {}}
    won = [int(seat) for seat, chips in (result.get("winnings") or {}).items() if chips]
    unshown = [seat for seat in won if seat not in shown and seat in numbering]
    if len(unshown) != 1:
        return 0
    name = numbering.name(unshown[0])
    held = _held(lines, name)
    if len(held) != HAND_SIZE or UNKNOWN in held:
        return 0
    lines.append(f"{name} sm {''.join(held)}")
    return numbering.player(unshown[0])


def _held(lines: list[str], name: str) -> list[str]:
    """The cards ``name`` holds after ``lines``: those dealt to him less those he discarded.

    >>> _held(["d dh p1 2c3c4c5cKd", "p1 sd Kd", "d dh p1 7s", "p2 sd"], "p1")
    ['2c', '3c', '4c', '5c', '7s']
    """
    held: list[str] = []
    for line in lines:
        words = line.split()
        if words[:3] == ["d", "dh", name]:
            held += parse_cards(words[3])
        elif words[:2] == [name, "sd"] and len(words) > 2:
            for card in parse_cards(words[2]):
                if card in held:
                    held.remove(card)
    return held


def _ruling(event: Mapping[str, Any]) -> str:
    """One floor ruling of the hand, for the reader: seq, decision, rule, effects, floor
    person, and the floor's note (why), when it wrote one.

    >>> _ruling({"seq": 12, "actor": "floor-1", "payload": {"command": {"decision": "custom",
    ...     "rule_id": "IRREG-13", "effects": [{"effect": "kill_hand", "seat": 3}]}}})
    'seq 12: custom (IRREG-13) kill_hand seat 3, by floor-1'
    >>> _ruling({"seq": 3, "actor": "floor-1", "payload": {"command": {"decision": "custom",
    ...     "note": "Kc shown twice", "effects": []}}})
    'seq 3: custom , by floor-1; note: Kc shown twice'
    """
    command = (event.get("payload") or {}).get("command") or {}
    effects = ", ".join(
        " ".join(
            [str(effect.get("effect"))] + [f"{k} {v}" for k, v in effect.items() if k != "effect"]
        )
        for effect in command.get("effects") or ()
    )
    rule = f" ({command['rule_id']})" if command.get("rule_id") else ""
    decision = f"{command.get('decision')}{rule} {effects}"
    note = f"; note: {command['note']}" if command.get("note") else ""
    return f"seq {event.get('seq')}: {decision}, by {event.get('actor')}{note}"


# engine events that take recorded actions back: a ruling's void_last, a changed pat (DRAW-07)
_TAKEN_BACK = {"voided": "actions", "draw_changed": "was"}


def _commands(events: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The hand's commands as they stand: an action a later entry took back (``voided`` by a
    ruling, or a pat the last drawer changed) is left out, as the engine's journal leaves it
    out, so the history replays to the recorded result; so is a ruling made once the hand
    was over (IRREG-14: a late stack adjustment), which changed no chip of its result."""
    commands: list[Mapping[str, Any]] = []
    over = False  # the hand has its result (until a ruling takes the last action back)
    for event in events:
        payload = event.get("payload") or {}
        if event.get("kind") == REJECTED:
            continue
        command = payload.get("command") or {}
        for engine_event in payload.get("events") or ():
            key = _TAKEN_BACK.get(engine_event.get("type"))
            if key is not None:
                _take_back(commands, len(engine_event.get(key) or ()))
                over = False
            if engine_event.get("type") == "exposed":  # IRREG-03/04: kept or replaced
                command = {**command, "ruling": engine_event.get("ruling")}
        if not (over and command.get("type") == "ruling"):
            commands.append(command)
        over = over or payload.get("result") is not None
    return commands


# the ruling effects our ``_ruled`` names for the reader; the others are in the history already
# (accept_entry: the entry, ``_accepted``; void_last: the actions as they stand; take_exposed:
# ``_exposed``), end it (misdeal) or change only later hands (move_button, clear_false_opener)
_RULED_EFFECTS = frozenset(
    {"kill_hand", "award", "adjust_stack", "reopen_betting", "hold_pot", "release_pot"}
)


def _entries(events: list[Mapping[str, Any]]) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    """The hand's commands as they stand (``_commands``), each with the rule a floor ruling
    waived for it (``None``: an ordinary entry): a ruling's ``accept_entry`` effects, the
    refused entries the floor let bind (out of turn, OPEN-01/BET-08, or over a house limit),
    come in its place, as the engine applied them, then the ruling with its other effects
    that change the hand (``_RULED_EFFECTS``), if it has any.

    >>> ruling = {"type": "ruling", "effects": [{"effect": "accept_entry", "waive": "OPEN-01",
    ...     "entry": {"type": "action", "seat": 4, "action": "check"}},
    ...     {"effect": "adjust_stack", "seat": 2, "amount": -5}, {"effect": "move_button",
    ...     "seat": 3}]}
    >>> for entry in _entries([{"payload": {"command": ruling}}]):
    ...     print(entry)
    ({'type': 'action', 'seat': 4, 'action': 'check'}, 'OPEN-01')
    ({'type': 'ruling', 'effects': [{'effect': 'adjust_stack', 'seat': 2, 'amount': -5}]}, None)
    """
    for command in _commands(events):
        if command.get("type") != "ruling":
            yield command, None
            continue
        effects = command.get("effects") or ()
        for effect in effects:
            entry = effect.get("entry")
            if effect.get("effect") == "accept_entry" and isinstance(entry, Mapping):
                yield entry, str(effect.get("waive"))
        ruled = [effect for effect in effects if effect.get("effect") in _RULED_EFFECTS]
        if ruled:
            yield {**command, "effects": ruled}, None


def _take_back(commands: list[Mapping[str, Any]], count: int) -> None:
    """Remove the last ``count`` actions (rulings and other entries stay)."""
    for index in range(len(commands) - 1, -1, -1):
        if count == 0:
            return
        if commands[index].get("type") == "action":
            del commands[index]
            count -= 1


class _Deal:
    """One ``d dh`` line: ``count`` cards for a player, filled in as the hand's ``deal``
    entries name them (card mode); a card never named stays ``??`` (count mode).

    ``draw``: the player's draws before this line (0: the hole cards). ``exposed``: the
    cards exposed from it to be replaced (IRREG-03/04), each as (card, its place in the line,
    the cards dealt into the line after it, whether it is written back where it was if
    nothing replaced it: on the draw the floor may let the player take it, IRREG-04's
    ``take_exposed``; a card exposed on the deal and never replaced, a misdeal, stays ``??``)."""

    __slots__ = ("cards", "count", "draw", "exposed", "name")

    def __init__(self, name: str, count: int, cards: Iterable[str] = (), draw: int = 0) -> None:
        self.name, self.count, self.cards = name, count, list(cards)[:count]
        self.draw = draw
        self.exposed: list[tuple[str, int, list[str], bool]] = []

    def room(self) -> int:
        return self.count - len(self.cards)

    def text(self) -> str:
        cards = list(self.cards)
        for card, place, later, back in self.exposed:
            if back and not later:
                cards.insert(place, card)
        return f"d dh {self.name} " + "".join(cards) + UNKNOWN * (self.count - len(cards))

    def replaced(self) -> list[tuple[int, int, str, tuple[str, ...]]]:
        """``_exposed`` entries: (player number, draw, exposed card, cards dealt after it)."""
        number = int(self.name[1:])
        return [
            (number, self.draw, card, tuple(later)) for card, _, later, _ in self.exposed if later
        ]


# the rulings of an exposed card the player keeps (IRREG-03), or that is the floor's (IRREG-01)
_NOT_REPLACED = frozenset({"keep", "misdeal"})


def _actions(
    events: list[Mapping[str, Any]], order: list[int], hand_no: int | None = None
) -> tuple[
    list[str],
    list[tuple[int, int, str, tuple[str, ...]]],
    list[tuple[int, str]],
    list[tuple[int, Mapping[str, Any]]],
]:
    """Deals, then each action; a draw round's discards all come before its deals (PHH);
    our ``_exposed`` entries (``_Deal.replaced``); our ``_accepted`` entries: [the index
    (from 0) in ``actions`` of an entry the floor let bind (``accept_entry``), the rule it
    waived]. Such an entry is written where the engine applied it, like any action. And our
    ``_ruled`` entries: [the index in ``actions`` of the line the ruling came before (the
    number of lines: after them all), the ruling with its effects that change the hand
    (``_ruled_entry``)].

    Card mode names every card dealt (``deal`` entries): the first five to a seat are its hole
    cards, the cards after a discard its replacements; a five-card draw dealt four now and the
    fifth after the others (DRAW-03) is written as one deal of five, as PHH (and pokerkit)
    deal a draw. A card exposed by the dealer and replaced (IRREG-03 on the deal, IRREG-04 on
    the draw) leaves its line for the cards dealt after it, and ``_exposed`` names it, so the
    reader enters it as the dealer did (the engine took it from the stub). A muck at showdown
    is ``pN sm`` without cards."""
    lines = _Lines(Numbering(tuple(order)), hand_no)
    for command, waive in _entries(events):
        lines.enter(command, waive)
    return lines.finish()


class _Lines:
    """The ``actions`` lines of a hand as its entries are read (``_actions``): deal lines
    (``_Deal``) filled in as the cards are named, and our entries that point into them."""

    def __init__(self, numbering: Numbering, hand_no: int | None) -> None:
        self.numbering, self.hand_no = numbering, hand_no
        self.hole = {seat: _Deal(numbering.name(seat), HAND_SIZE) for seat in numbering.seats}
        self.actions: list[str | _Deal] = list(self.hole.values())
        self.owed: dict[int, _Deal] = {}  # a seat's replacements not (all) named yet
        self.deals: list[_Deal] = []  # this draw's deal lines, written once it is over
        self.drawn: set[int] = set()  # seats that declared their draw since the last betting
        self.draws = dict.fromkeys(numbering.seats, 0)  # each seat's draws so far
        self.accepted: list[tuple[int, str]] = []
        self.ruled: list[tuple[int, Mapping[str, Any]]] = []
        self.rulings: list[dict[str, Any]] = []  # the rulings made since the last line

    def enter(self, command: Mapping[str, Any], waive: str | None) -> None:
        """One entry of the hand (``_entries``): a ruling, or an action of a seat dealt in."""
        if command.get("type") == "ruling":
            self.rulings.extend(_ruled_entry(command, self.numbering, self.hand_no))
            return
        seat = int(command.get("seat", 0))
        if command.get("type") == "action" and seat in self.numbering:
            _LINE_OF.get(str(command.get("action")), _Lines.bet_or_show)(self, seat, command, waive)

    def draw(self, seat: int, command: Mapping[str, Any], waive: str | None) -> None:
        if seat in self.drawn:  # a new draw with no betting between (all in): the last deals first
            self.deals_done()
        self.line_starts(waive)
        self.drawn.add(seat)
        self.draws[seat] += 1
        discard, deal = _draw(self.numbering.name(seat), command, self.draws[seat])
        self.actions.append(discard)
        if deal is not None:
            self.deals.append(deal)
            self.owed[seat] = deal

    def deal(self, seat: int, command: Mapping[str, Any], waive: str | None) -> None:
        _named(command.get("cards") or (), self.owed.get(seat), self.hole[seat])

    def exposed(self, seat: int, command: Mapping[str, Any], waive: str | None) -> None:
        if command.get("ruling") not in (None, *_NOT_REPLACED):
            back = command.get("ruling") != "replace"  # IRREG-04: the floor may give it back
            _unnamed(command.get("cards") or (), back, self.owed.get(seat), self.hole[seat])

    def bet_or_show(self, seat: int, command: Mapping[str, Any], waive: str | None) -> None:
        lines = _action(self.numbering.name(seat), command)
        if lines:
            self.deals_done()
            self.line_starts(waive)
        self.actions.extend(lines)

    def deals_done(self) -> None:
        """The draw is over: its deal lines come now."""
        self.actions.extend(self.deals)
        self.deals, self.drawn = [], set()

    def line_starts(self, waive: str | None) -> None:
        """A line is written next: the rulings made since the last one come before it, and
        the floor let it bind when ``waive`` names a rule (``_accepted``)."""
        self.ruled += [(len(self.actions), ruling) for ruling in self.rulings]
        self.rulings = []
        if waive is not None:
            self.accepted.append((len(self.actions), waive))

    def finish(
        self,
    ) -> tuple[
        list[str],
        list[tuple[int, int, str, tuple[str, ...]]],
        list[tuple[int, str]],
        list[tuple[int, Mapping[str, Any]]],
    ]:
        self.ruled += [(len(self.actions) + len(self.deals), ruling) for ruling in self.rulings]
        items = [*self.actions, *self.deals]
        lines = [item if isinstance(item, str) else item.text() for item in items]
        exposed = [entry for deal in items if isinstance(deal, _Deal) for entry in deal.replaced()]
        return lines, exposed, self.accepted, self.ruled


_LINE_OF = {"draw": _Lines.draw, "deal": _Lines.deal, "exposed": _Lines.exposed}


def _boxed(events: list[Mapping[str, Any]], numbering: Numbering) -> list[tuple[int, str]]:
    """DECK-06: each card found face up in the stub, as (the player whose cards were being
    dealt, the card ("??" in count mode)); PHH has no boxed card: named so the reader refuses
    the file clearly."""
    found = []
    for command, _ in _entries(events):
        if command.get("type") == "action" and command.get("action") == "boxed_card":
            cards = command.get("cards") or [UNKNOWN]
            found.append((numbering.player(int(command.get("seat", 0))), str(cards[0])))
    return found


def _ruled_entry(
    command: Mapping[str, Any], numbering: Numbering, hand_no: int | None
) -> list[dict[str, Any]]:
    """A ruling on this hand as ``_ruled`` names it (none if it is about another hand, or
    changes nothing of this one): its decision, rule, note and the effects that change the
    hand, each seat named by its player number (``player``, ``players``, ``pots``). A stack
    adjustment for a seat not dealt in is left out: it changes no stack the file lists.

    >>> _ruled_entry({"decision": "custom", "rule_id": None, "note": "n", "hand_no": None,
    ...     "effects": [{"effect": "award", "pots": [[4], [4, 2]]}, {"effect": "adjust_stack",
    ...     "seat": 9, "amount": 5}]}, Numbering((2, 4)), 7)
    [{'decision': 'custom', 'note': 'n', 'effects': [{'effect': 'award', 'pots': [[2], [2, 1]]}]}]
    """
    if command.get("hand_no") not in (None, hand_no):
        return []
    effects = []
    for effect in command.get("effects") or ():
        pots = effect.get("pots") or ()
        seats = [effect.get("seat"), *effect.get("seats", ()), *(s for pot in pots for s in pot)]
        if any(seat not in numbering for seat in seats if seat is not None):
            continue
        named: dict[str, Any] = {"effect": effect["effect"]}
        if effect.get("seat") is not None:
            named["player"] = numbering.player(effect["seat"])
        if effect.get("seats"):
            named["players"] = [numbering.player(seat) for seat in effect["seats"]]
        if effect.get("pots"):
            named["pots"] = [[numbering.player(seat) for seat in pot] for pot in effect["pots"]]
        if "amount" in effect:
            named["amount"] = effect["amount"]
        effects.append(named)
    if not effects:
        return []
    ruling: dict[str, Any] = {"decision": command.get("decision")}
    if command.get("rule_id"):
        ruling["rule_id"] = command["rule_id"]
    if command.get("note"):
        ruling["note"] = command["note"]
    return [{**ruling, "effects": effects}]


def _dealt_in_turn(
    events: list[Mapping[str, Any]],
) -> tuple[bool, list[tuple[int, int, int]]]:
    """Card mode: whether each player's replacements were dealt before the next player drew
    (the fifth card of a five-card draw comes after the others, DRAW-03), as dealers deal a
    draw; and the fifth cards dealt early, as (seat, the seat that had just drawn, which of
    its draws): when the stub runs low the engine has the fifth cards owed dealt first
    (DRAW-06).

    PHH writes a draw round's discards before its deals (pokerkit reads no other order), and
    when the deck runs out the order decides which discards are reshuffled: our
    ``_dealt_in_turn = true`` (and ``_early_fifths``) tell the reader to replay the deals as
    they were. Not in turn when a player drew before the last one's cards were dealt: the
    reader then deals in PHH's order; nor when no replacement was dealt by name (count mode):
    the engine dealt them in turn itself, and the reader replays a count-mode export so
    (``HandHistory.count_mode``)."""
    owed: dict[int, int] = {}  # seat -> replacement cards still to deal
    fives: set[int] = set()  # seats that drew five: the fifth card may come later
    early: list[tuple[int, int, int]] = []
    named = False
    last = 0  # the seat that drew last
    draws: dict[int, int] = {}  # seat -> its draws so far
    for command, _ in _entries(events):
        if command.get("type") != "action":
            continue
        seat = int(command.get("seat", 0))
        waiting = [s for s, n in owed.items() if n and not (s in fives and n == 1) and s != seat]
        if command.get("action") == "draw":
            if waiting:
                return False, []
            discards = command.get("discards")
            count = len(discards) if discards is not None else int(command.get("count") or 0)
            owed[seat], last = count, seat
            draws[seat] = draws.get(seat, 0) + 1
            fives.discard(seat)
            if count == HAND_SIZE:
                fives.add(seat)
        elif command.get("action") == "deal" and owed.get(seat):
            if seat in fives and owed[seat] == 1 and waiting:
                early.append((seat, last, draws[last]))  # before the last drawer's cards
            owed[seat] = max(0, owed[seat] - len(command.get("cards") or ()))
            named = True
    return named, early


def _named(cards: Iterable[str], *deals: _Deal | None) -> None:
    """Card mode: fill the first deal line with room (the replacements owed, else the hole
    cards) with the cards a ``deal`` entry named (after an exposed card of the line, the
    cards that came after it, ``_Deal.exposed``)."""
    for card in cards:
        deal = next((d for d in deals if d is not None and d.room()), None)
        if deal is None:
            return  # more cards than the lines hold (a card replaced after an irregularity)
        deal.cards.append(str(card))
        if deal.exposed:
            deal.exposed[-1][2].append(str(card))


def _unnamed(cards: Iterable[str], back: bool, *deals: _Deal | None) -> None:
    """Card mode, IRREG-03/04: an exposed card that is replaced never was the player's: it
    leaves the deal line that named it, and the replacement dealt next takes its place; the
    line keeps it (``_Deal.exposed``) for our ``_exposed``."""
    for card in cards:
        for deal in deals:
            if deal is not None and card in deal.cards:
                deal.exposed.append((card, deal.cards.index(card), [], back))
                deal.cards.remove(card)
                break


def _action(name: str, command: Mapping[str, Any]) -> list[str]:
    match command.get("action"):
        case "fold":
            return [f"{name} f"]
        case "check" | "call":
            return [f"{name} cc"]
        case "bet" | "raise":
            amount = command.get("amount")
            return [f"{name} cbr {amount}" if amount is not None else f"{name} cbr"]
        case "show":
            cards = "".join(command.get("cards") or ()) or UNKNOWN * HAND_SIZE
            return [f"{name} sm {cards}"]
        case "muck":
            return [f"{name} sm"]  # PHH: show-or-muck without cards mucks
        case _:
            return []  # posts are implied by the blinds; time, an exposed card leave no line


def _draw(name: str, command: Mapping[str, Any], draw: int) -> tuple[str, _Deal | None]:
    """The discard line and the deal line (none when standing pat) of one draw, the
    player's ``draw``-th."""
    discards = command.get("discards")
    count = len(discards) if discards is not None else int(command.get("count") or 0)
    if count == 0:
        return f"{name} sd", None
    thrown = "".join(discards) if discards else UNKNOWN * count
    return f"{name} sd {thrown}", _Deal(name, count, command.get("cards") or (), draw)
