"""A card exposed by the dealer during the initial deal: kept or replaced (IRREG-03, IRREG-01).

The house option ``irregularities.exposed_keep_ranks`` names the ranks the player keeps:
``"any"``, ``"none"`` or rank symbols (``"75432"``). A card of any other rank is replaced
once the deal is complete and the first exposed card becomes the burn: it goes to the burn
pile instead of another card, so the stub gives just the replacement. The player never
chooses. A second exposed card in the same deal is a misdeal (IRREG-01): the entry is taken
and the dealer is told to call the floor.

The dealer enters ``exposed`` for the seat: in card mode with the exposed card (after that
seat's ``deal``), the replacement then follows with ``deal`` once every seat has five; in
count mode with its ``rank`` after the automatic deal. Either before the first betting action.
"""

from __future__ import annotations

from dealerassist.rules.cards.cards import RANK_SYMBOLS
from dealerassist.rules.cards.joker import JOKER
from dealerassist.rules.hand import instructions as say
from dealerassist.rules.hand.dealing import UNKNOWN, deck_cards, next_to_deal
from dealerassist.rules.model.actions import Act, Mode
from dealerassist.rules.model.house_rules import HouseRules
from dealerassist.rules.model.messages import exposed as msg
from dealerassist.rules.model.messages import irregular
from dealerassist.rules.model.outcomes import Exposed, Instruction, LegalAction
from dealerassist.rules.model.said import Join, Listed, Said
from dealerassist.rules.model.state import HandState, Phase, evolve
from dealerassist.rules.model.violations import Notice, RuleId, RuleViolation

KEEP_ANY = "any"
KEEP_NONE = "none"
KEEP = "keep"
REPLACE = "replace"


def keep_ranks_problem(value: str) -> str | None:
    """Why ``value`` is not a valid ``exposed_keep_ranks``, or None when it is.

    >>> keep_ranks_problem("75432"), keep_ranks_problem("any"), keep_ranks_problem("none")
    (None, None, None)
    >>> keep_ranks_problem("7x")
    'must be "any", "none" or rank symbols from 23456789TJQKA such as "75432", got "7x"'
    """
    if value in (KEEP_ANY, KEEP_NONE):
        return None
    symbols = list(value)
    if symbols and all(s in RANK_SYMBOLS for s in symbols) and len(set(symbols)) == len(symbols):
        return None
    return (
        f'must be "{KEEP_ANY}", "{KEEP_NONE}" or rank symbols from {RANK_SYMBOLS} '
        f'such as "75432", got "{value}"'
    )


def keeps(rules: HouseRules, rank: str) -> bool:
    """IRREG-03: does the player keep an exposed card of ``rank`` (the joker: only "any")?

    >>> from dealerassist.rules.model.house_rules import IrregularityRules
    >>> lowball = HouseRules(irregularities=IrregularityRules(exposed_keep_ranks="75432"))
    >>> keeps(lowball, "7"), keeps(lowball, "6"), keeps(HouseRules(), "K")
    (True, False, True)
    """
    ranks = rules.irregularities.exposed_keep_ranks
    if ranks == KEEP_ANY:
        return True
    return ranks != KEEP_NONE and rank != JOKER and rank in ranks


def house_text(rules: HouseRules) -> Said:
    """The house rule in words, for instructions and refusals."""
    ranks = rules.irregularities.exposed_keep_ranks
    if ranks == KEEP_ANY:
        return msg.HOUSE_KEEPS_EVERY()
    if ranks == KEEP_NONE:
        return msg.HOUSE_REPLACES_EVERY()
    return msg.HOUSE_KEEPS_ONLY(ranks=Listed(tuple(ranks), Join.COMMA))


# -- when ------------------------------------------------------------------------------------


def in_initial_deal(hand: HandState) -> bool:
    """The deal (card mode) or the first betting round before anyone has acted."""
    if hand.phase is Phase.DEAL:
        return True
    return hand.phase is Phase.BETTING_1 and not any(p.acted for p in hand.players)


def exposed_legal(hand: HandState | None, rules: HouseRules) -> LegalAction | None:
    """For the view: the seats that may have a card exposed now, and the house's keep ranks."""
    if hand is None or not in_initial_deal(hand):
        return None
    seats = [p.seat for p in hand.players if p.held and not p.folded]
    if not seats:
        return None
    keep = rules.irregularities.exposed_keep_ranks
    return {"action": "exposed", "seats": seats, "keep_ranks": keep}


# -- checks ----------------------------------------------------------------------------------


def check_exposed(hand: HandState, act: Act, rules: HouseRules, mode: Mode) -> str:
    """IRREG-03: refuse an exposed card outside the initial deal, not in the seat's hand (card
    mode) or of no rank of the deck, and a keep or replace the house does not give (the
    player never chooses); the exposed card (card mode) or rank (count mode)."""
    if not in_initial_deal(hand):
        phase = irregular.PHASES[hand.phase]()
        raise _refuse(msg.EXPOSED_NOT_ON_DEAL(phase=phase), act.seat)
    if not hand.has(act.seat) or hand.player(act.seat).folded:
        raise _refuse(irregular.NOT_DEALT_IN(seat=act.seat), act.seat)
    exposed = _card(hand, act) if mode is Mode.CARD else _rank(hand, act)
    _check_choice(act, rules, rank_of(exposed))
    return exposed


def rank_of(exposed: str) -> str:
    """The rank of an exposed card (or the rank itself, count mode).

    >>> rank_of("7h"), rank_of("T"), rank_of("Jk")
    ('7', 'T', 'Jk')
    """
    return exposed if exposed == JOKER else exposed[0]


def _card(hand: HandState, act: Act) -> str:
    player = hand.player(act.seat)
    if not act.cards or len(act.cards) != 1:
        raise _refuse(irregular.ENTER_ONE_EXPOSED_CARD(), act.seat)
    card = act.cards[0]
    if card == UNKNOWN:
        raise _refuse(msg.EXPOSED_ITSELF(), act.seat)
    if not player.held:
        raise _refuse(msg.EXPOSED_NO_CARDS_YET(seat=act.seat), act.seat)
    if card not in player.cards:
        said = msg.EXPOSED_NOT_IN_HAND(card=card, seat=act.seat, cards=" ".join(player.cards))
        raise _refuse(said, act.seat)
    if act.rank is not None and act.rank != rank_of(card):
        raise _refuse(irregular.RANK_NOT_OF_CARD(rank=act.rank, card=card), act.seat)
    return card


def _rank(hand: HandState, act: Act) -> str:
    if act.rank is None and act.cards and len(act.cards) == 1:
        rank = rank_of(act.cards[0])  # the card itself was seen by all: its rank is enough
    elif act.rank is not None and not act.cards:
        rank = act.rank
    else:
        raise _refuse(irregular.ENTER_EXPOSED_RANK(), act.seat)
    deck = deck_cards(hand.deck)
    if not any(rank_of(card) == rank for card in deck):
        symbols = "".join(s for s in RANK_SYMBOLS if any(c[0] == s for c in deck))
        raise _refuse(msg.EXPOSED_NO_SUCH_RANK(rank=rank, ranks=symbols), act.seat)
    return rank


def _check_choice(act: Act, rules: HouseRules, rank: str) -> None:
    """IRREG-03 (V): the player never chooses; a keep or replace entered must be the house's."""
    if act.option is None:
        return
    if act.option not in (KEEP, REPLACE):
        raise _refuse(msg.EXPOSED_OPTION(option=act.option), act.seat)
    house = KEEP if keeps(rules, rank) else REPLACE
    if act.option != house:  # the option is the other one: the house's is said
        never = msg.NEVER_CHOOSES_KEEP if act.option == KEEP else msg.NEVER_CHOOSES_REPLACE
        said = never(rank=rank, house=house_text(rules))
        raise _refuse(said, act.seat, [{"action": "exposed", "seat": act.seat, "option": house}])


def _refuse(said: Said, seat: int, allowed: list[LegalAction] | None = None) -> RuleViolation:
    return RuleViolation(rule_id=RuleId.IRREG_03, said=said, seat=seat, allowed=allowed or [])


# -- apply -----------------------------------------------------------------------------------


def apply_exposed(
    hand: HandState, seat: int, exposed: str, rules: HouseRules, mode: Mode
) -> tuple[HandState, Exposed, list[Instruction], list[Notice]]:
    """IRREG-03: keep, or take the card out for the burn and owe (card mode) or deal (count
    mode) its replacement; IRREG-01: a second exposed card is the floor's (misdeal).

    The new hand, the event, the dealer's instructions and notices.
    """
    rank = rank_of(exposed)
    hand = evolve(hand, exposed=hand.exposed + 1)
    if hand.exposed > 1:
        return (
            hand,
            _event(seat, exposed, "misdeal"),
            [],
            [misdeal_notice(seat, irregular.MISDEAL_EXPOSED(count=hand.exposed))],
        )
    if keeps(rules, rank):
        text = msg.KEEPS(seat=seat, card=exposed, house=house_text(rules))
        return hand, _event(seat, exposed, KEEP), [say.instruction(KEEP, seat, None, text)], []
    if mode is Mode.COUNT:
        hand = evolve(hand, burns=hand.burns + 1, stub=hand.stub - 1)
        hand = _first_burn(hand, rules)
        text = msg.REPLACED_NOW(seat=seat, card=exposed, house=house_text(rules))
        return hand, _event(seat, exposed, REPLACE), [say.instruction(REPLACE, seat, 1, text)], []
    return _replace_card(hand, seat, exposed, rules)


def _replace_card(
    hand: HandState, seat: int, card: str, rules: HouseRules
) -> tuple[HandState, Exposed, list[Instruction], list[Notice]]:
    """Card mode: the card leaves the hand for the burn pile; the seat is owed one card,
    entered with ``deal`` once every seat has five (the hand goes back to the deal for it)."""
    player = hand.player(seat)
    cards = list(player.cards)
    cards.remove(card)
    owed = evolve(player, cards=tuple(cards), held=player.held - 1, pending=player.pending + 1)
    hand = evolve(hand.with_player(owed), burns=hand.burns + 1, exposed_burn=card)
    hand = _first_burn(hand, rules)
    hand = evolve(hand, phase=Phase.DEAL, to_act=next_to_deal(hand))
    text = msg.REPLACED_AFTER_DEAL(seat=seat, card=card, house=house_text(rules))
    return hand, _event(seat, card, REPLACE), [say.instruction(REPLACE, seat, 1, text)], []


def _first_burn(hand: HandState, rules: HouseRules) -> HandState:
    """IRREG-03 (RRoP lowball 3, WSOP 283), where ``exposed_is_first_burn`` says so: the
    exposed card in the burn pile stands for the burn before the first draw (``spare_burn``,
    as IRREG-06's extra card), so that draw burns nothing more."""
    if not rules.irregularities.exposed_is_first_burn or not rules.draw.burn_before:
        return hand
    return evolve(hand, spare_burn=True)


def _event(seat: int, exposed: str, ruling: str) -> Exposed:
    return Exposed(seat, exposed, ruling)


def misdeal_notice(seat: int, what: Said) -> Notice:
    """IRREG-01: two or more cards exposed by the dealer, or two or more extra cards, on one
    deal: a misdeal, which the floor declares (``what``: "2 cards exposed by the dealer")."""
    return Notice(rule_id=RuleId.IRREG_01, said=irregular.MISDEAL(what=what), seat=seat)
