"""Tests for the PHH reader: parsing PHH text and mapping a hand to engine commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from phh_data import PHH_DATA, acceptance_files

from dealerassist.audit.phh import codec as phh_codec
from dealerassist.audit.phh import reader as phh_reader
from dealerassist.audit.phh.codec import parse_action, parse_cards
from dealerassist.audit.phh.model import ActionCode, HandHistory
from dealerassist.audit.phh.reader import (
    parse_phh,
    posting_seats,
    table_spec,
    to_commands,
)
from dealerassist.errors import InvalidInput
from dealerassist.profiles import profile_version
from dealerassist.replay import finishing_stacks, replay_hand
from dealerassist.rules.model.actions import (
    Act,
    ActionKind,
    Mode,
    SeatPlayer,
    StartHand,
    Structure,
    TableSpec,
    Variant,
    command_from_dict,
    command_to_dict,
)

RECORDED = Path(__file__).resolve().parents[3] / "hands" / "recorded"  # our own exports

TRIPLE_DRAW = """
variant = 'F2L3D'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [50, 60, 70]
actions = [
  'd dh p1 7h6c4c3d2c', 'd dh p2 ??????????', 'd dh p3 AsQs6s5c3c',
  'p3 cbr 4', 'p1 cc', 'p2 f',  # pre-draw
  'p1 sd', 'p3 sd AsQs', 'd dh p3 2hQh',
  'p1 cc', 'p3 cbr 2', 'p1 cbr 4', 'p3 cc',
  'p1 sd', 'p3 sd Qh', 'd dh p3 4d',
  'p1 cc', 'p3 cc',
  'p1 sd', 'p3 sd', 'p1 cc', 'p3 cc',
  'p1 sm 7h6c4c3d2c', 'p3 sm',
]
players = ['Yockey', 'Hui', 'Arieh']
finishing_stacks = [64, 58, 58]
"""

HEADS_UP = """
variant = 'N2L1D'
antes = 0
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [8, 15]
actions = ['d dh p1 5c7s6hJh5s', 'd dh p2 AsAd4d8h6s', 'p2 cbr 15', 'p1 cc',
           'p1 sd', 'p2 sd Ad', 'd dh p2 2d', 'p1 sm 5c7s6hJh5s', 'p2 sm As4d8h6s2d']
finishing_stacks = [0, 23]
"""


def _acts(text: str) -> list[Act]:
    _, commands = to_commands(parse_phh(text))
    return [command for command in commands if isinstance(command, Act)]


def test_parse_reads_game_stakes_stacks_and_names() -> None:
    """A PHH file's game, forced bets, bet sizes, stacks, names and result are all read."""
    hand = parse_phh(TRIPLE_DRAW)
    assert hand.variant == "F2L3D"
    assert hand.ante_trimming_status is True
    assert hand.antes == (0, 0, 0)
    assert hand.blinds_or_straddles == (1, 2, 0)
    assert (hand.small_bet, hand.big_bet, hand.min_bet) == (2, 4, 0)
    assert hand.starting_stacks == (50, 60, 70)
    assert hand.players == ("Yockey", "Hui", "Arieh")
    assert hand.finishing_stacks == (64, 58, 58)
    assert hand.player_count == 3


def test_parse_drops_comments_and_keeps_action_order() -> None:
    """Comments inside the action list are ignored and actions keep their recorded order."""
    hand = parse_phh(TRIPLE_DRAW)
    assert [a.code for a in hand.actions[:4]] == [
        ActionCode.DEAL_HOLE,
        ActionCode.DEAL_HOLE,
        ActionCode.DEAL_HOLE,
        ActionCode.COMPLETE_BET_OR_RAISE_TO,
    ]
    assert hand.actions[3].amount == 4
    assert hand.actions[3].player == 3


def test_parse_single_number_antes_apply_to_every_player() -> None:
    """PHH allows one number for the antes; it stands for every player."""
    assert parse_phh(HEADS_UP).antes == (0, 0)


def test_parse_without_finishing_stacks_or_players_leaves_them_none() -> None:
    """Optional fields missing from the file come back as None."""
    hand = parse_phh(HEADS_UP.replace("finishing_stacks = [0, 23]", ""))
    assert hand.finishing_stacks is None
    assert hand.players is None


def test_parse_action_forms() -> None:
    """Every PHH action form of the draw games is recognised."""
    assert parse_action("p2 sd").cards == ()
    assert parse_action("p2 sm").cards is None
    assert parse_action("p2 sm -").cards == ()
    assert parse_action("p4 sm 2h4d7c5c3c").cards == ("2h", "4d", "7c", "5c", "3c")
    assert parse_action("p1 f").code is ActionCode.FOLD
    assert parse_action("p1 cc").code is ActionCode.CHECK_OR_CALL
    assert parse_action("d dh p3 Kh??").cards == ("Kh", "??")


@pytest.mark.parametrize(
    "text",
    ["p1 xx", "q1 f", "p0 f", "p1 cbr ten", "d dh p1", "p1 cbr -5", "p1 sd Qd Jc", ""],
)
def test_parse_action_rejects_malformed(text: str) -> None:
    """Malformed actions raise InvalidInput naming the action."""
    with pytest.raises(InvalidInput):
        parse_action(text)


@pytest.mark.parametrize("text", ["Qd J", "1c", "Qx", "Zd"])
def test_parse_cards_rejects_non_cards(text: str) -> None:
    """Card text that is not two-character cards is refused."""
    with pytest.raises(InvalidInput):
        parse_cards(text)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("starting_stacks = [8, 15]", "starting_stacks = [8]"),
        ("starting_stacks = [8, 15]", "starting_stacks = [8, -15]"),
        ("blinds_or_straddles = [1, 2]", "blinds_or_straddles = [1, 2, 0]"),
        ("finishing_stacks = [0, 23]", "finishing_stacks = [0]"),
        ("variant = 'N2L1D'", "variant = 3"),
        ("'p1 cc'", "'p3 cc'"),
        ("min_bet = 2", "min_bet = 2.5"),
        ("min_bet = 2", "min_bet = = 2"),
    ],
)
def test_parse_rejects_bad_files(old: str, new: str) -> None:
    """A file with a missing player, negative or fractional chips, or bad TOML is refused."""
    assert old in HEADS_UP
    with pytest.raises(InvalidInput):
        parse_phh(HEADS_UP.replace(old, new))


def test_table_spec_is_card_mode_with_the_recorded_stakes() -> None:
    """The spec names our variant and structure, card mode, and the recorded stakes."""
    spec = table_spec(parse_phh(TRIPLE_DRAW), "replay-permissive")
    assert spec.variant is Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
    assert spec.structure is Structure.FIXED_LIMIT
    assert spec.mode is Mode.CARD
    assert spec.profile_id == "replay-permissive"
    assert (spec.stakes.small_blind, spec.stakes.big_blind) == (1, 2)
    assert (spec.stakes.small_bet, spec.stakes.big_bet) == (2, 4)
    assert spec.max_seats == 3
    no_limit = table_spec(parse_phh(HEADS_UP))
    assert no_limit.structure is Structure.NO_LIMIT
    assert no_limit.stakes.min_bet == 2


def test_table_spec_refuses_other_variants() -> None:
    """Badugi and other PHH variants are not games we deal."""
    with pytest.raises(InvalidInput, match="FB"):
        table_spec(parse_phh(HEADS_UP.replace("'N2L1D'", "'FB'")))


def test_seats_and_button_put_player_one_left_of_the_button() -> None:
    """Player N sits in seat N and the button is the last seat, so p1 is the small blind."""
    _, commands = to_commands(parse_phh(TRIPLE_DRAW))
    seats = [c for c in commands if isinstance(c, SeatPlayer)]
    assert [(s.seat, s.player, s.stack) for s in seats] == [
        (1, "Yockey", 50),
        (2, "Hui", 60),
        (3, "Arieh", 70),
    ]
    assert StartHand(button=3) in commands
    assert posting_seats(parse_phh(TRIPLE_DRAW)) == [1, 2]


def test_heads_up_player_two_is_button_and_small_blind() -> None:
    """Heads-up (pokerkit's convention) p2 is the button and posts the small blind first."""
    hand = parse_phh(HEADS_UP)
    _, commands = to_commands(hand)
    assert StartHand(button=2) in commands
    assert posting_seats(hand) == [2, 1]
    assert [c.player for c in commands if isinstance(c, SeatPlayer)] == ["p1", "p2"]


def test_check_or_call_and_bet_or_raise_follow_the_betting() -> None:
    """``cc`` is a call facing a bet and a check otherwise; ``cbr`` a raise over a bet."""
    kinds = [(a.seat, a.action, a.amount) for a in _acts(TRIPLE_DRAW)]
    betting = [k for k in kinds if k[1] not in (ActionKind.DEAL, ActionKind.DRAW, ActionKind.POST)]
    assert betting[:7] == [
        (3, ActionKind.RAISE, 4),
        (1, ActionKind.CALL, None),
        (2, ActionKind.FOLD, None),
        (1, ActionKind.CHECK, None),
        (3, ActionKind.BET, 2),
        (1, ActionKind.RAISE, 4),
        (3, ActionKind.CALL, None),
    ]
    assert betting[7:11] == [
        (1, ActionKind.CHECK, None),
        (3, ActionKind.CHECK, None),
        (1, ActionKind.CHECK, None),
        (3, ActionKind.CHECK, None),
    ]


def test_draws_name_discards_and_the_replacements_follow() -> None:
    """``pN sd`` becomes a draw with its discards and ``d dh pN`` the deal of replacements."""
    acts = _acts(TRIPLE_DRAW)
    draws = [a for a in acts if a.action is ActionKind.DRAW]
    assert [(a.seat, a.count, a.discards) for a in draws[:2]] == [
        (1, 0, ()),
        (3, 2, ("As", "Qs")),
    ]
    index = acts.index(draws[1])
    assert acts[index + 1] == Act(seat=3, action=ActionKind.DEAL, cards=("2h", "Qh"))


def test_unknown_cards_become_placeholders_that_appear_nowhere_else() -> None:
    """``??`` cards are replaced by distinct cards that the record never names."""
    hand = parse_phh(TRIPLE_DRAW)
    named = {card for a in hand.actions for card in a.cards or () if card != "??"}
    deal = next(a for a in _acts(TRIPLE_DRAW) if a.action is ActionKind.DEAL and a.seat == 2)
    assert deal.cards is not None
    assert len(set(deal.cards)) == 5
    assert not set(deal.cards) & named


def test_unknown_discards_name_the_placeholders_held() -> None:
    """A discard of ``??`` names a placeholder the player holds, never a known card."""
    text = HEADS_UP.replace("'d dh p1 5c7s6hJh5s'", "'d dh p1 5c7s6hJh??'").replace(
        "'p1 sd'", "'p1 sd ??', 'd dh p1 3c'"
    )
    text = text.replace("'p1 sm 5c7s6hJh5s'", "'p1 sm'")
    acts = _acts(text)
    deal = next(a for a in acts if a.action is ActionKind.DEAL and a.seat == 1)
    draw = next(a for a in acts if a.action is ActionKind.DRAW and a.seat == 1)
    assert deal.cards is not None and draw.discards is not None
    assert draw.discards == (deal.cards[4],)
    assert acts[-2] == Act(seat=1, action=ActionKind.MUCK)


def test_show_dash_shows_the_cards_held() -> None:
    """``pN sm -`` shows the cards the player holds after the draws."""
    text = HEADS_UP.replace("'p2 sm As4d8h6s2d'", "'p2 sm -'")
    show = _acts(text)[-1]
    assert show.action is ActionKind.SHOW
    assert show.cards is not None
    assert sorted(show.cards) == sorted(("As", "4d", "8h", "6s", "2d"))


def test_a_discard_without_its_replacement_is_refused() -> None:
    """A discard that is never followed by the replacement deal is an invalid record."""
    with pytest.raises(InvalidInput, match="replacement"):
        to_commands(parse_phh(HEADS_UP.replace("'d dh p2 2d', ", "")))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("antes = 0", "antes = [1, 2]"),
        ("blinds_or_straddles = [1, 2]", "blinds_or_straddles = [1, 2, 4]"),
    ],
)
def test_unequal_antes_and_straddles_are_refused(old: str, new: str) -> None:
    """Forced bets the games we deal do not have are refused with InvalidInput."""
    text = HEADS_UP.replace(old, new).replace(
        "starting_stacks = [8, 15]",
        "starting_stacks = " + ("[8, 15, 9]" if "4]" in new else "[8, 15]"),
    )
    text = text.replace("finishing_stacks = [0, 23]", "")
    with pytest.raises(InvalidInput):
        to_commands(parse_phh(text))


def test_ante_for_everyone_is_posted_by_every_seat() -> None:
    """Equal antes become the table ante; every seat posts, blinds first."""
    hand = parse_phh(TRIPLE_DRAW.replace("antes = [0, 0, 0]", "antes = [1, 1, 1]"))
    assert table_spec(hand).stakes.ante == 1
    assert table_spec(hand).stakes.big_blind_ante == 0
    assert posting_seats(hand) == [1, 2, 3]


def test_big_blind_ante_is_mapped_and_posted_with_the_big_blind() -> None:
    """PHH antes [0, A, 0] are the big blind's table ante, posted with its blind."""
    hand = parse_phh(TRIPLE_DRAW.replace("antes = [0, 0, 0]", "antes = [0, 3, 0]"))
    assert (table_spec(hand).stakes.ante, table_spec(hand).stakes.big_blind_ante) == (0, 3)
    assert posting_seats(hand) == [1, 2]
    heads_up = parse_phh(HEADS_UP.replace("antes = 0", "antes = [0, 3]"))
    assert table_spec(heads_up).stakes.big_blind_ante == 3
    assert posting_seats(heads_up) == [2, 1]


def test_a_short_big_blind_posts_what_is_left_after_its_ante() -> None:
    """A big blind of 4 chips with a 3 ante is all in for 1 live chip; the others still call
    the full big blind (BLIND-04), so the 1-chip small blind's ``cc`` is a call, not a check
    (the engine refuses a check there)."""
    text = HEADS_UP.replace("antes = 0", "antes = [0, 3]").replace("[8, 15]", "[4, 15]")
    text = text.replace("'p2 cbr 15', 'p1 cc'", "'p2 cc'").replace("finishing_stacks = [0, 23]", "")
    acts = _acts(text)
    assert posting_seats(parse_phh(text)) == [2, 1]
    assert Act(seat=2, action=ActionKind.CALL) in acts
    assert Act(seat=2, action=ActionKind.CHECK) not in acts


@pytest.mark.parametrize("action", ["'p1 pb'", "'d db AhKhQh'"])
def test_stud_and_board_actions_are_refused(action: str) -> None:
    """A bring-in or a board deal is not an action of the draw games we deal."""
    text = HEADS_UP.replace("'p2 cbr 15'", f"{action}, 'p2 cbr 15'")
    with pytest.raises(InvalidInput, match="not an action"):
        to_commands(parse_phh(text))


def _data_files() -> list[Path]:
    return sorted(PHH_DATA.rglob("*.phh"))


def test_every_phh_data_file_parses() -> None:
    """Every PHH file in tests/data/phh (all variants) parses into a HandHistory."""
    hands = [parse_phh(path.read_text(encoding="utf-8")) for path in _data_files()]
    assert len(hands) >= 300
    assert all(isinstance(hand, HandHistory) and hand.actions for hand in hands)
    assert {hand.variant for hand in hands} == {"F2L3D", "N2L1D", "FB"}


def test_every_mapped_command_survives_the_audit_json_round_trip() -> None:
    """Each command mapped from a recorded hand comes back equal from its JSON form."""
    mapped = 0
    for path in acceptance_files():
        hand = parse_phh(path.read_text(encoding="utf-8"))
        if hand.variant == "FB":
            continue
        spec, commands = to_commands(hand)
        assert TableSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
        for command in commands:
            assert command_from_dict(json.loads(json.dumps(command_to_dict(command)))) == command
        mapped += 1
    assert mapped == 215


def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Route the reader's caches to the general path they stand for."""
    monkeypatch.setattr(phh_codec, "_parse_action_cached", parse_action)
    monkeypatch.setattr(phh_reader, "_plain_act", Act)
    monkeypatch.setattr(
        phh_reader,
        "_stand_pat",
        lambda seat: Act(seat=seat, action=ActionKind.DRAW, count=0, discards=()),
    )
    monkeypatch.setattr(phh_reader, "_shared_table_spec", table_spec)


def _clear_caches() -> None:
    phh_codec._parse_action_cached.cache_clear()
    phh_reader._plain_act.cache_clear()
    phh_reader._stand_pat.cache_clear()
    phh_reader._TABLE_SPECS.clear()


def test_caches_give_what_the_general_path_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed actions, acts without cards and table specs are shared between hands; every
    recorded hand parses and maps to the same values with the caches cold, warm or bypassed."""
    texts = [path.read_text(encoding="utf-8") for path in acceptance_files()]
    texts = [text for text in texts if parse_phh(text).variant != "FB"]
    setups = [("replay-permissive", "phh"), ("replay-permissive", "T7"), ("strict", "T7")]

    def run() -> list[object]:
        results: list[object] = []
        for text in texts:
            hand = parse_phh(text)
            results.append(hand)
            results.extend(to_commands(hand, profile, table) for profile, table in setups)
        return results

    _clear_caches()
    cold = run()
    warm = run()
    with monkeypatch.context() as patched:
        _uncached(patched)
        general = run()
    assert cold == warm == general
    assert repr(cold) == repr(general)


def test_errors_are_not_cached() -> None:
    """A bad action or table is refused every time, not only the first."""
    bad_action = HEADS_UP.replace("'p2 cbr 15'", "'p2 cbr 1x'")
    bad_variant = parse_phh(HEADS_UP.replace("'N2L1D'", "'FB'"))
    for _ in range(2):
        with pytest.raises(InvalidInput, match="'1x' in 'p2 cbr 1x' is not a whole number"):
            parse_phh(bad_action)
        with pytest.raises(InvalidInput, match="variant 'FB' is not a game we deal"):
            to_commands(bad_variant)


@pytest.mark.parametrize(
    ("word", "player"), [("p1", 1), ("p9", 9), ("p10", 10), ("p99", 99), ("p100", 100), ("p01", 1)]
)
def test_player_numbers_in_and_beyond_the_lookup_table(word: str, player: int) -> None:
    """Players p1..p99 come from a table; others (p100, p01) from the general rule."""
    assert parse_action(f"{word} f").player == player


@pytest.mark.parametrize("text", ["\nd", "Td\n9", "?\n"])
def test_parse_cards_splits_every_character_into_pairs(text: str) -> None:
    """A newline in card text is a character like any other: the pair holding it is refused."""
    with pytest.raises(InvalidInput, match="is not a card like"):
        parse_cards(text)


FIVE_CARD_DRAW = """
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [50, 60, 70]
actions = [
  'd dh p1 KcKdQcQdJc', 'd dh p2 2d3d4d5dKh', 'd dh p3 2h3h4h5hKs',
  'p3 cc', 'p1 cc', 'p2 cc',
  'p1 sd KcKdQcQdJc', 'p2 sd Kh', 'p3 sd', 'd dh p1 2c3c4c5c7c', 'd dh p2 7d',
  'p1 cc', 'p2 f', 'p3 f',
]
"""


def test_a_five_card_draw_is_split_four_and_one_when_the_profile_splits_it() -> None:
    """DRAW-03: under a profile that splits five, the deal of five is four at once and the
    fifth just before the next betting action (after the others drew); otherwise one deal."""
    from dealerassist.profiles import get_profile

    hand = parse_phh(FIVE_CARD_DRAW)

    def deals(profile_id: str | None) -> list[tuple[int, tuple[str, ...] | None]]:
        rules = None if profile_id is None else get_profile(profile_id)
        _, commands = to_commands(hand, rules=rules)
        acts = [c for c in commands if isinstance(c, Act)]
        first_draw = next(i for i, a in enumerate(acts) if a.action is ActionKind.DRAW)
        return [
            (a.seat, a.cards)
            for a in acts[first_draw:]
            if a.action in (ActionKind.DEAL, ActionKind.CHECK, ActionKind.CALL)
        ][:4]

    split = [(1, ("2c", "3c", "4c", "5c")), (2, ("7d",)), (1, ("7c",)), (1, None)]
    assert deals("casino-triple-draw-27") == split
    whole = [(1, ("2c", "3c", "4c", "5c", "7c")), (2, ("7d",)), (1, None)]
    assert deals("replay-permissive") == deals(None) == whole


COUNT_MODE = """
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [50, 60, 70]
actions = [
  'd dh p1 ??????????', 'd dh p2 ??????????', 'd dh p3 ??????????',
  'p3 cc', 'p1 cc', 'p2 cc',
  'p1 sd ??????????', 'p2 sd ??', 'p3 sd ????', 'd dh p1 ??????????', 'd dh p2 ??',
  'd dh p3 ????', 'p1 cc', 'p2 f', 'p3 f',
]
_profile_id = 'casino-triple-draw-27'
"""


def test_a_count_mode_export_is_mapped_in_turn_with_a_split_fives_fifth_after_the_others() -> None:
    """DRAW-03/06: our count-mode export (``_profile_id``, no dealt card named) is mapped as
    the engine dealt it, each player's cards right after its discards (four of a five-card
    draw, the fifth after the others); a file that is not ours, or names its cards, keeps
    PHH's order, every discard first."""
    from dealerassist.profiles import get_profile

    rules = get_profile("casino-triple-draw-27")

    def order(text: str) -> list[tuple[int, str, int]]:
        _, commands = to_commands(parse_phh(text), rules.profile_id, rules=rules)
        return [
            (c.seat, c.action.value, len(c.cards or c.discards or ()))
            for c in commands
            if isinstance(c, Act) and c.action in (ActionKind.DRAW, ActionKind.DEAL)
        ][3:]  # after the hole cards

    in_turn = [
        (1, "draw", 5), (1, "deal", 4), (2, "draw", 1), (2, "deal", 1),
        (3, "draw", 2), (3, "deal", 2), (1, "deal", 1),
    ]  # fmt: skip
    assert parse_phh(COUNT_MODE).count_mode
    assert order(COUNT_MODE) == in_turn
    phh_order = [
        (1, "draw", 5), (2, "draw", 1), (3, "draw", 2),
        (1, "deal", 4), (2, "deal", 1), (3, "deal", 2), (1, "deal", 1),
    ]  # fmt: skip
    not_ours = COUNT_MODE.replace("_profile_id = 'casino-triple-draw-27'\n", "")
    named = COUNT_MODE.replace("'d dh p2 ??'", "'d dh p2 7c'")
    for text in (not_ours, named):
        assert not parse_phh(text).count_mode
        assert order(text) == phh_order


# A hand of the dealer soak (seed 41, casino-triple-draw-27-kill, card mode), as exported: in
# the second draw p2 and p4 each discard five (dealt four), p5 discards four, and the stub then
# holds too few cards for p5's four and both fifth cards, so both fifths came before p5's cards.
TWO_EARLY_FIFTHS = (RECORDED / "S41-ctd2k-card-512c-22.phh").read_text(encoding="utf-8")


def test_two_fifth_cards_dealt_early_at_the_same_draw_both_come_first() -> None:
    """DRAW-03/06: ``_early_fifths`` naming two players' fifth cards at the same draw of the
    same player deals both there (the reader dealt only the first, and the engine refused
    p5's cards: "Only the seat that has drawn (seat 4) receives cards now")."""
    hand = parse_phh(TWO_EARLY_FIFTHS)
    rules = profile_version(hand.profile_id, hand.profile_sha256)  # the version it was dealt
    state = replay_hand(hand, rules)
    assert finishing_stacks(state, hand.player_count) == [0, 740, 485, 171, 80]
    _, commands = to_commands(hand, rules.profile_id, rules=rules)
    deals = [(c.seat, c.cards) for c in commands if isinstance(c, Act) and c.action == "deal"]
    assert deals[12:15] == [(2, ("2h",)), (4, ("9d",)), (5, ("7d", "4s", "Tc", "Qs"))]


# A hand of the dealer soak (seed 71, casino-triple-draw-27, card mode), re-exported: p5's 6d
# was exposed on the deal and replaced by 4c (IRREG-03), and in the third draw p5 was dealt
# 6h Jd 2s from the stub and 5d from a reshuffle (DRAW-06).
EXPOSED_THEN_RESHUFFLED = (RECORDED / "S71-ctd2-card-a4d0-1.phh").read_text(encoding="utf-8")


def test_a_soak_hand_with_an_exposed_card_replays_to_its_stacks_through_a_reshuffle() -> None:
    """IRREG-03 then DRAW-06: ``_exposed`` has the reader deal p5 the 6d, enter it exposed as
    the dealer did, and deal the 4c once everyone has five; the engine burns the 6d, so the
    stub runs out where it did. The file as first exported, without ``_exposed``, was refused
    (the replay's stub held one card more)."""
    hand = parse_phh(EXPOSED_THEN_RESHUFFLED)
    assert hand.exposed == ((5, 0, "6d", ("4c",)),)
    rules = profile_version(hand.profile_id, hand.profile_sha256)
    assert finishing_stacks(replay_hand(hand, rules), 6) == [360, 350, 50, 780, 640, 140]
    _, commands = to_commands(hand, rules.profile_id, rules=rules)
    acts = [(c.seat, c.action, c.cards) for c in commands if isinstance(c, Act)]
    at = acts.index((5, ActionKind.EXPOSED, ("6d",)))
    assert acts[at - 1] == (5, ActionKind.DEAL, ("3h", "7c", "Qd", "4h", "6d"))
    assert acts[at + 1 : at + 3] == [
        (6, ActionKind.DEAL, ("8c", "3s", "Ac", "6c", "Kd")),
        (5, ActionKind.DEAL, ("4c",)),  # once every seat has five
    ]
    unnamed = parse_phh(EXPOSED_THEN_RESHUFFLED.replace('_exposed = [[5, 0, "6d", "4c"]]\n', ""))
    assert unnamed.exposed == ()
    with pytest.raises(InvalidInput, match="DRAW-06: 1 of these cards are discards, but the stub"):
        replay_hand(unnamed, rules)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('[[5, 2, "6d", "4c"]]', "_exposed: p5 has no deal line after its draw 2"),  # stood pat
        ('[[5, 0, "6d", "9s"]]', "_exposed: 9s is not in p5's deal 3h7cQd4h4c"),
    ],
)
def test_an_exposed_field_that_does_not_fit_the_deals_is_refused(entry: str, message: str) -> None:
    """``_exposed`` naming a deal line the player was never dealt, or a replacement not in
    that line, is InvalidInput naming the field, not a wrong replay."""
    text = EXPOSED_THEN_RESHUFFLED.replace('[[5, 0, "6d", "4c"]]', entry)
    rules = profile_version("casino-triple-draw-27", parse_phh(text).profile_sha256)
    with pytest.raises(InvalidInput, match=message):
        to_commands(parse_phh(text), rules.profile_id, rules=rules)


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("_posts = [['small_blind'], ['big_blind']]", "_posts must be a list of 3"),
        ("_posts = [['small_blind'], ['straddle'], []]", "is not a list of posts"),
        ("_posts = [['big_blind'], ['big_blind'], []]", "more than one player posts"),
        ("_posts = [['small_blind'], [], []]", "nobody posts the big blind"),
        ("_kill = {seat = 3, blind = 4}", "which player kills"),
        ("_kill = {player = 4, blind = 4}", "_kill: player 4 of 3"),
        ("_early_fifths = [[1, 2]]", "_early_fifths must be"),
        ("_early_fifths = [[1, 9, 1]]", "_early_fifths must be"),
        ("_exposed = [[4, 0, '7c', '9d']]", "_exposed must be"),
        ("_exposed = [[1, 0, '7c', '??']]", "_exposed must be"),
        ("_exposed = [[1, 0, '7c']]", "_exposed must be"),
    ],
)
def test_our_own_fields_that_make_no_sense_are_refused_with_the_reason(
    field: str, message: str
) -> None:
    """Our ``_posts``, ``_kill`` and ``_early_fifths`` (audit.phh.writer) are checked when read:
    a malformed one is InvalidInput naming the field, not a crash or a wrong replay."""
    with pytest.raises(InvalidInput, match=message):
        parse_phh(TRIPLE_DRAW + field + "\n")
