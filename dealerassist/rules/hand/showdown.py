"""Showdown: who shows first, show or muck, cards speak, and awarding every pot (SHOW-01..09)."""

from __future__ import annotations

from dealerassist.rules.cards import rankings
from dealerassist.rules.cards.cards import DECK_52, DECKS_BY_SIZE, RANK_SYMBOLS, Card, parse_cards
from dealerassist.rules.cards.joker import JOKER, joker_cards, joker_value
from dealerassist.rules.hand.betting import first_order
from dealerassist.rules.hand.dealing import HAND_SIZE, JOKER_DECK, UNKNOWN
from dealerassist.rules.hand.pots import Pot, hand_pots, split
from dealerassist.rules.hand.rake import collect, result_fields
from dealerassist.rules.model.actions import Act, Mode, Variant
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import floor as words
from dealerassist.rules.model.outcomes import AwardedResult, LegalAction, PotAward
from dealerassist.rules.model.ruling_commands import pot_said
from dealerassist.rules.model.said import Param, Said
from dealerassist.rules.model.state import HandState, evolve, fill
from dealerassist.rules.model.variants import game
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation


def showdown_order(
    hand: HandState,
    rules: HouseRules | None = None,
    *,
    side_pots_first: bool | None = None,
    pots: list[Pot] | None = None,
) -> list[int]:
    """SHOW-01: the last aggressor of the final round first; if everyone checked, the seat that
    acted first in that round: left of the button, or in an ante game whose profile lets the
    opener act first after the draw, the opener (or the next live seat after him; TDA 17-A).

    WSOP 149, where ``side_pots_first`` says so (by default the profile's
    ``showdown.side_pots_first``; off without a profile): the seats contesting the highest side
    pot show first, in that order among them, then those of the next pot down, the seats all in
    for the main pot only last (``pots``: the hand's pots, where the caller built them)."""
    order = _round_order(hand, rules)
    if side_pots_first is None:
        side_pots_first = rules is not None and rules.showdown.side_pots_first
    if not side_pots_first:
        return order
    depth = contested_depth(hand_pots(hand) if pots is None else pots)
    return sorted(order, key=lambda seat: -depth.get(seat, -1))


def _round_order(hand: HandState, rules: HouseRules | None) -> list[int]:
    live = [player.seat for player in hand.live()]
    if hand.last_aggressor in live:
        index = live.index(hand.last_aggressor)
        return live[index:] + live[:index]
    if rules is not None:
        return [seat for seat in first_order(hand, 2, rules) if seat in live]
    return live


def contested_depth(pots: list[Pot]) -> dict[int, int]:
    """SHOW-01 (WSOP 149): for each seat, the highest pot it contests with another seat
    (0 = the main pot, 1 = side pot 1, ...); a pot one seat alone may win is no contest.

    >>> contested_depth([Pot(90, (1, 2, 3)), Pot(140, (1, 2)), Pot(20, (2,))])
    {1: 1, 2: 1, 3: 0}
    """
    depth: dict[int, int] = {}
    for index, pot in enumerate(pots):
        if len(pot.eligible) >= 2:
            depth |= dict.fromkeys(pot.eligible, index)
    return dict(sorted(depth.items()))


def _contenders(hand: HandState, pot: Pot) -> list[int]:
    return [seat for seat in pot.eligible if not hand.player(seat).mucked]


def _undecided(pot: Pot, contesting: set[int], to_show: set[int]) -> bool:
    """A pot still to be decided: a seat in it has neither shown nor mucked, and two seats
    still contest it (``contesting``: seats not mucked; ``to_show``: not shown either)."""
    eligible = pot.eligible
    if to_show.isdisjoint(eligible):
        return False
    return sum(seat in contesting for seat in eligible) >= 2


def next_to_show(
    hand: HandState, rules: HouseRules | None = None, *, side_pots_first: bool | None = None
) -> int | None:
    """The next seat in showing order (``showdown_order``) that still contests an undecided
    pot. Each player is read once, the pots built once."""
    pots = hand_pots(hand)
    contesting = {player.seat for player in hand.players if not player.mucked}
    to_show = {player.seat for player in hand.players if player.shown is None} & contesting
    open_seats = {
        seat for pot in pots if _undecided(pot, contesting, to_show) for seat in pot.eligible
    }
    for seat in showdown_order(hand, rules, side_pots_first=side_pots_first, pots=pots):
        if seat in open_seats and seat in to_show:
            return seat
    return None


def showdown_legal(hand: HandState) -> list[LegalAction]:
    legal: list[LegalAction] = [{"action": "show"}]
    if hand.to_act is not None and not _sole_contender(hand, hand.to_act):
        legal.append({"action": "muck"})
    return legal


def _sole_contender(hand: HandState, seat: int) -> bool:
    return any(_contenders(hand, pot) == [seat] for pot in hand_pots(hand) if seat in pot.eligible)


def _refuse(hand: HandState, rule: RuleId, said: Said, seat: int) -> RuleViolation:
    return RuleViolation(rule_id=rule, said=said, seat=seat, allowed=showdown_legal(hand))


def check_turn(hand: HandState, seat: int, rules: HouseRules | None = None) -> None:
    """SHOW-01: hands are shown in order (side pots first where the profile says so)."""
    if seat != hand.to_act:
        expected: Param = hand.to_act if hand.to_act is not None else "None"
        why = _why_first(hand, seat, rules)
        said = words.SHOWS_FIRST(expected=expected, why=why, seat=seat)
        raise _refuse(hand, RuleId.SHOW_01, said, seat)


def _why_first(hand: HandState, seat: int, rules: HouseRules | None) -> Said | str:
    """WSOP 149: the reason a side-pot hand shows before ``seat``, if that is the reason."""
    if hand.to_act is None or rules is None or not rules.showdown.side_pots_first:
        return ""
    depth = contested_depth(hand_pots(hand))
    first = depth.get(hand.to_act, -1)
    if first <= depth.get(seat, -1):
        return ""
    return words.WHY_SIDE_POT_FIRST(pot=pot_said(first))


def may_table(hand: HandState, seat: int) -> bool:
    """SHOW-01: ``seat`` holds a live hand not yet shown or mucked, so it may table it now,
    in its turn or before it (WSOP 149: "a participant holding a probable winner is
    encouraged to show the hand without delay")."""
    if not hand.has(seat):
        return False
    player = hand.player(seat)
    return not player.folded and not player.mucked and player.shown is None


def check_muck(hand: HandState, seat: int, rules: HouseRules | None = None) -> None:
    """SHOW-02: a seat may muck unless it alone is left to claim a pot."""
    check_turn(hand, seat, rules)
    if _sole_contender(hand, seat):
        raise _refuse(hand, RuleId.SHOW_02, words.ONLY_HAND_LEFT(seat=seat), seat)


def check_show(
    hand: HandState, act: Act, mode: Mode, rules: HouseRules | None = None
) -> tuple[str, ...]:
    """SHOW-01 (the turn), SHOW-03 / DECK-01: five cards from the deck, none shown by another
    seat; the cards. A live hand may be tabled before its turn (WSOP 149, RRoP, TDA 17-A: the
    order binds only "if cards are not spontaneously tabled"): the order still decides who
    must show (or muck) next, and a muck out of turn is refused (``check_muck``)."""
    if not may_table(hand, act.seat):
        check_turn(hand, act.seat, rules)
    player = hand.player(act.seat)
    cards = act.cards
    if cards is None and mode is Mode.CARD and UNKNOWN not in player.cards:
        cards = player.cards
    if cards is None or len(cards) != HAND_SIZE or UNKNOWN in cards:
        raise _refuse(hand, RuleId.SHOW_03, words.TABLE_FIVE_CARDS(seat=act.seat), act.seat)
    _parse_shown(cards, hand.deck, act.seat)
    known = [card for card in player.cards if card != UNKNOWN]
    if mode is Mode.CARD and not set(known) <= set(cards):
        said = words.SHOW_HELD_CARDS(seat=act.seat, cards=" ".join(player.cards))
        raise _refuse(hand, RuleId.SHOW_03, said, act.seat)
    shown_elsewhere = {c for p in hand.players if p.shown and p.seat != act.seat for c in p.shown}
    if shown_elsewhere & set(cards):
        raise _refuse(hand, RuleId.DECK_01, words.SHOWN_ELSEWHERE(), act.seat)
    return cards


def _parse_shown(cards: tuple[str, ...], deck: int, seat: int) -> tuple[Card, ...]:
    """DECK-01 (DECK-02..04 with the joker): the shown cards other than the joker."""
    if deck != JOKER_DECK:
        return parse_cards(" ".join(cards), DECKS_BY_SIZE[deck], HAND_SIZE, seat=seat)
    others = [card for card in cards if card != JOKER]
    return parse_cards(" ".join(others), DECK_52, len(others), seat=seat)


def apply_show(
    hand: HandState, seat: int, cards: tuple[str, ...], rules: HouseRules | None = None
) -> HandState:
    player = hand.player(seat)
    hand = hand.with_player(evolve(player, shown=cards, cards=cards))
    return fill(hand, to_act=next_to_show(hand, rules))  # the show's own copy


def _lowball(variant: Variant) -> bool:
    """A game won by the lowest hand (the 2-7 games): its ranking says so."""
    return game(variant).ranking == rankings.Ranking.DEUCE_TO_SEVEN


def pair_notice(hand: HandState, seat: int, variant: Variant) -> list[Notice]:
    """SHOW-05 (lowball): a paired hand spread at the showdown must be announced as "pair";
    the dealer is reminded when one is entered (a player who fouls his own hand because a
    pair went unannounced is a matter for the floor)."""
    shown = hand.player(seat).shown or ()
    ranks = [card[0] for card in shown if card not in (JOKER, UNKNOWN)]
    if not _lowball(variant) or len(set(ranks)) == len(ranks):
        return []
    return [Notice(rule_id=RuleId.SHOW_05, said=words.SAY_PAIR(seat=seat), seat=seat)]


def number_notice(hand: HandState, seat: int, variant: Variant) -> list[Notice]:
    """RANK-05 (2-7): a strong low shown goes by its number ("number one" is 7-5-4-3-2), so
    the dealer can read it out as the players do."""
    shown = hand.player(seat).shown or ()
    if not _lowball(variant) or len(shown) != HAND_SIZE or JOKER in shown or UNKNOWN in shown:
        return []
    number = rankings.lowball_number(parse_cards(" ".join(shown), DECK_52))
    if number is None:
        return []
    ranks = sorted((card[0] for card in shown), key=RANK_SYMBOLS.index, reverse=True)
    said = words.LOW_NUMBER(seat=seat, ranks="-".join(ranks), number=number)
    return [Notice(rule_id=RuleId.RANK_05, said=said, seat=seat)]


def apply_muck(hand: HandState, seat: int, rules: HouseRules | None = None) -> HandState:
    hand = hand.with_player(evolve(hand.player(seat), mucked=True))
    return fill(hand, to_act=next_to_show(hand, rules))  # the muck's own copy


def hand_strength(cards: tuple[str, ...], ranking: str, ace_low_straight: bool) -> int:
    """Cards speak (SHOW-04): a shown hand's value under the game's ranking, higher is better."""

    parsed = parse_cards(" ".join(card for card in cards if card != JOKER), DECK_52)
    if len(parsed) < HAND_SIZE:
        return joker_value(parsed, rankings.Ranking(ranking))  # DECK-02..04
    value: int = rankings.hand_value(
        parsed, rankings.Ranking(ranking), ace_low_straight=ace_low_straight
    )
    return value


def award(
    hand: HandState,
    ranking: str,
    ace_low_straight: bool,
    pokerkit: bool = False,
    rules: HouseRules | None = None,
) -> AwardedResult:
    """SHOW-06/07/09: each pot to its best eligible hand, ties split, odd chips left of button;
    ``pokerkit`` (``odd_chip = "pokerkit"``): pokerkit's pots and split (``_pokerkit_pots``).
    RAKE-01..04: where ``rules`` take a rake or a jackpot drop, each pot's share of them is
    taken first (the pot's ``rake`` and ``jackpot_drop``) and the rest split."""
    order = [player.seat for player in hand.players]
    pots = []
    winnings: dict[int, int] = {}
    contested = hand_pots(hand)
    strengths: dict[int, int] = {}  # each shown hand valued once, for every pot it is in
    if pokerkit:
        contested = _pokerkit_pots(hand, contested, ranking, ace_low_straight, strengths)
    takes = None if rules is None else collect(hand, contested, rules)
    for index, pot in enumerate(contested):
        winners = _pot_winners(hand, pot, ranking, ace_low_straight, strengths)
        take = None if takes is None else takes[index]
        net = pot.amount if take is None else pot.amount - take.rake - take.jackpot_drop
        shares = split(net, winners, order, whole_remainder=pokerkit)
        for seat, chips in shares.items():
            winnings[seat] = winnings.get(seat, 0) + chips
        odd = next(iter(shares)) if net % len(winners) else None
        raked, dropped = (None, None) if take is None else (take.rake, take.jackpot_drop)
        won = tuple(sorted(winners))
        pots.append(PotAward(pot.amount, pot.eligible, won, shares, odd, False, raked, dropped))
    return awarded(hand, pots, winnings, takes is not None, _jokers(hand, ranking))


def awarded(
    hand: HandState,
    pots: list[PotAward],
    winnings: dict[int, int],
    taken: bool,
    jokers: dict[int, str] | None = None,
) -> AwardedResult:
    """The hand's result once its pots are split (at the showdown, or by the floor's award):
    RAKE-01..04 the totals where the house took its share (``taken``), the winnings by seat, the
    uncalled chips returned and the hands shown."""
    raked, dropped = result_fields(pots) if taken else (None, None)
    return AwardedResult(
        pots=tuple(pots),
        rake=raked,
        jackpot_drop=dropped,
        winnings=dict(sorted(winnings.items())),
        returned={p.seat: p.returned for p in hand.players if p.returned},
        shown={p.seat: " ".join(p.shown) for p in hand.players if p.shown},
        jokers=jokers,
    )


def _pokerkit_pots(
    hand: HandState,
    pots: list[Pot],
    ranking: str,
    ace_low_straight: bool,
    strengths: dict[int, int],
) -> list[Pot]:
    """SHOW-06 ``odd_chip = "pokerkit"``: pokerkit 0.7.7 kills the hands that win no pot
    before it pushes the chips, so pots whose remaining hands are the same are one pot (its
    odd chips split once); WSOP 153 keeps "side pots and the main pot ... split as separate
    pots"."""
    keep = {
        s for pot in pots for s in _pot_winners(hand, pot, ranking, ace_low_straight, strengths)
    }
    merged: list[Pot] = []
    for pot in pots:
        remaining = tuple(seat for seat in pot.eligible if seat in keep)
        if merged and tuple(s for s in merged[-1].eligible if s in keep) == remaining:
            merged[-1] = Pot(merged[-1].amount + pot.amount, merged[-1].eligible)
        else:
            merged.append(pot)
    return merged


def _jokers(hand: HandState, ranking: str) -> dict[int, str] | None:
    """DECK-02..04: what each shown joker played as (``{3: "Ac"}``), if any."""
    played = {
        p.seat: joker_plays_as(p.shown, rankings.Ranking(ranking))
        for p in hand.players
        if p.shown and JOKER in p.shown
    }
    return played or None


def joker_plays_as(cards: tuple[str, ...], ranking: rankings.Ranking) -> str:
    """The card a shown joker stands for; four aces and the bug are five aces ("A")."""
    held = parse_cards(" ".join(card for card in cards if card != JOKER), DECK_52)
    played = joker_cards(held, ranking)
    return str(played[-1]) if len(played) == HAND_SIZE else "A"


def _pot_winners(
    hand: HandState, pot: Pot, ranking: str, ace_low_straight: bool, strengths: dict[int, int]
) -> list[int]:
    """The best shown hands among the pot's contenders; ``strengths`` keeps the award's values."""
    contenders = _contenders(hand, pot) or list(pot.eligible)
    if len(contenders) == 1:
        return contenders
    values: dict[int, int] = {}
    for seat in contenders:
        if seat in strengths:
            values[seat] = strengths[seat]
            continue
        shown = hand.player(seat).shown
        if shown is not None:
            values[seat] = strengths[seat] = hand_strength(shown, ranking, ace_low_straight)
    if not values:
        return contenders
    best = max(values.values())
    return [seat for seat, value in values.items() if value == best]
