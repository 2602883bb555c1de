"""HouseRules: the frozen value of a house-rule profile, one field per catalog option.

Profiles are read from TOML by ``dealerassist.profiles`` (the only place TOML is read);
the TOML tables and keys mirror the sections and fields below exactly
(``[draw] max_cards = 3`` sets ``HouseRules.draw.max_cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class ButtonMethod(StrEnum):
    """BLIND-03: how the button moves between hands."""

    DEAD = "dead"
    MOVING = "moving"


class ShortAllInRule(StrEnum):
    """BET-04/BET-05: when a short all-in raise reopens the betting."""

    FULL_BET = "full_bet"  # only a full raise reopens (no-limit rule, TDA 47-A)
    HALF_BET = "half_bet"  # fixed limit: half a bet or more counts as a full bet (WSOP 133)
    # pokerkit 0.7.7 exactly (``State._verify_completion_betting_or_raising``): any bet or
    # raise at least the largest increment of the round so far reopens (an all-in opening bet
    # after checks too, whatever its size); short all-ins in a row reopen once they add up to
    # it; every bet and raise counts toward the cap. For ``replay-permissive`` only
    POKERKIT = "pokerkit"


class HeadsUp(StrEnum):
    """BET-03: when a fixed-limit round counts as heads-up for ``uncapped_heads_up``."""

    # profile versions before the option: two hands not folded when the round starts, a hand
    # all in counted among them
    ROUND_STARTS_TWO_LIVE = "round_starts_two_live"
    # WSOP 130/131: the round begins with two players who are not all in; a round that begins
    # with more and becomes heads-up keeps the cap
    ROUND_STARTS = "round_starts"
    # RRoP (Betting and Raising 4): any time the action becomes heads-up (two players not all
    # in) before the raising has been capped; once capped, a fold does not lift it
    BECOMES = "becomes"


class PostDrawFirst(StrEnum):
    """OPEN-01: who acts first after the draw."""

    LEFT_OF_BUTTON = "left_of_button"
    OPENER = "opener"


class OpenRequirement(StrEnum):
    """OPEN-02: what a player needs to make the first bet."""

    NONE = "none"
    JACKS_OR_BETTER = "jacks_or_better"


class PassOutButton(StrEnum):
    """OPEN-03: where the button goes when nobody opens."""

    ADVANCES = "advances"
    SAME_DEALER = "same_dealer"


class BottomCard(StrEnum):
    """DRAW-05: may the last card of the stub be dealt."""

    NEVER = "never"
    ONLY_IF_IT_COMPLETES_ALL_DRAWS = "only_if_it_completes_all_draws"
    NORMAL_CARD = "normal_card"


class ReshufflePool(StrEnum):
    """DRAW-06: what goes into the new stub when the old one runs out."""

    # seed 000: bottom card + burns + discards of players who drew earlier (never the drawer's own)
    EARLIER_DISCARDS_BOTTOM_BURNS = "earlier_discards_bottom_burns"
    # WSOP: discards of previous rounds + muck + burns; the current round's discards stay out
    PREVIOUS_ROUNDS_MUCK_BURNS = "previous_rounds_muck_burns"
    # PokerStars / pokerkit: every discard and burn so far except the drawer's own
    ALL_DISCARDS_EXCEPT_OWN = "all_discards_except_own"
    # pokerkit replay: every discard and burn so far, the drawer's own included
    ALL_DISCARDS = "all_discards"


class DrawTimeoutEffect(StrEnum):
    """DRAW-11: what a draw timeout does."""

    PAT_NO_AGGRESSION = "pat_no_aggression"


class MissedBlindsReturn(StrEnum):
    """BLIND-08: how a player who missed blinds comes back."""

    POST_OR_WAIT = "post_or_wait"  # post all missed blinds now, or wait for the big blind
    WAIT_FOR_BIG_BLIND = "wait_for_big_blind"


class NewPlayerBetweenBlindsAndButton(StrEnum):
    """BLIND-06: a newcomer seated between the small blind and the button."""

    WAIT = "wait"
    BUY_BUTTON = "buy_button"


class StrippedDeckRule(StrEnum):
    """GAME-05: the deck size of A-7 stripped-deck draw."""

    BY_PLAYERS = "by_players"  # 32 cards for up to four players, 36 with five
    FIXED_32 = "fixed_32"


class OddChipMethod(StrEnum):
    """SHOW-06: who gets an odd chip."""

    LEFT_OF_BUTTON = "left_of_button"
    # pokerkit 0.7.7 (``replay-permissive``): the hands that win no pot are killed first, pots
    # whose remaining hands are the same are split as one, and the whole remainder of a split
    # goes to its first winner (left of the button); WSOP 153 splits every pot apart
    POKERKIT = "pokerkit"


class MisdealDeadline(StrEnum):
    """IRREG-01/02: after when a misdeal may no longer be declared (the deck fouled aside)."""

    NONE = "none"  # no deadline is checked: the floor alone decides
    TWO_PLAYERS_ACTED = "two_players_acted"  # RRoP: before two players have acted
    SUBSTANTIAL_ACTION = "substantial_action"  # TDA 36: two actions, one with chips, or three


class ExposedDrawCard(StrEnum):
    """IRREG-04: where a replacement card the dealer exposed during the draw goes."""

    TO_DISCARDS = "to_discards"  # RRoP (silent on it): among the discards, never the seat's
    BECOMES_NEXT_BURN = "becomes_next_burn"  # WSOP: it is the next burn, none is taken then


class KillMode(StrEnum):
    """KILL-01/02: whether kill pots are played."""

    OFF = "off"
    # KILL-01: a seat may kill a hand voluntarily (a newcomer killing to be dealt in at once),
    # named by the dealer on start_hand; no legs, nobody is ever due to kill
    OPTIONAL = "optional"
    REQUIRED = "required"  # KILL-02: two pots in a row oblige the winner to kill the next


class KillSize(StrEnum):
    """KILL-01: a full kill (2x the big blind, limits doubled) or a half kill (1.5x)."""

    FULL = "full"
    HALF = "half"


class SecondLeg(StrEnum):
    """KILL-02: what the second pot of a leg must hold to oblige its winner to kill."""

    # the pot less the kill blind holds a big bet, the blinds counted (profile versions before
    # the option: their recorded hands replay to the same legs)
    POT_LESS_KILL_BLIND = "pot_less_kill_blind"
    # WSOP 195, RRoP Kill Pots 3: a full bet won that is no part of the blind structure; the
    # kill blind is not part of the blind structure, so it counts
    FULL_BET_BEYOND_BLINDS = "full_bet_beyond_blinds"


class KillAction(StrEnum):
    """KILL-04: where the kill acts in the betting before the draw."""

    LAST = "last"  # the action starts left of the kill, who acts last (a house choice)
    IN_TURN = "in_turn"  # WSOP 194, RRoP Kill Pots 2: the kill acts in turn, as a blind


class Variant(StrEnum):
    """GAME-01..GAME-05: the draw games dealt (a profile's game and a table's spec)."""

    FIVE_CARD_DRAW = "five_card_draw"  # GAME-01
    DEUCE_TO_SEVEN_SINGLE_DRAW = "deuce_to_seven_single_draw"  # GAME-02
    DEUCE_TO_SEVEN_TRIPLE_DRAW = "deuce_to_seven_triple_draw"  # GAME-03
    ACE_TO_SEVEN_STRIPPED = "ace_to_seven_stripped"  # GAME-05


class Structure(StrEnum):
    """GAME-06: fixed limit, pot limit or no limit."""

    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


class ForcedBets(StrEnum):
    """GAME-01 / OPEN-01: blinds, antes, or both."""

    BLINDS = "blinds"
    ANTES = "antes"
    BLINDS_AND_ANTES = "blinds_and_antes"


@dataclass(frozen=True, slots=True)
class TableRules:
    """GAME-07: how many players may be dealt in."""

    max_players: int = 6
    min_buy_in: int = 0  # chips; 0 = no minimum
    max_buy_in: int = 0  # chips; 0 = no maximum


@dataclass(frozen=True, slots=True)
class BettingRules:
    """BET-01..BET-06 and OPEN-01."""

    max_raises: int = 3  # BET-03: bet + N raises in fixed limit
    uncapped_heads_up: bool = True  # BET-03: cap lifted when the round starts heads-up
    heads_up: HeadsUp = HeadsUp.ROUND_STARTS_TWO_LIVE  # BET-03: what counts as heads-up
    short_all_in: ShortAllInRule = ShortAllInRule.HALF_BET  # BET-04 in fixed limit
    check_raise: bool = True  # BET-06
    post_draw_first: PostDrawFirst = PostDrawFirst.LEFT_OF_BUTTON  # OPEN-01
    allow_limp: bool = True  # BET-01: may players just call the big blind before the draw
    pot_limit_round_blinds_up: bool = False  # BET-05 (WSOP 191)
    # BET-03: the big blind counts as the round's bet before the draw (casino norm); pokerkit
    # does not count it, so its fixed-limit cap before the draw is blind + 4 raises (2-4-6-8-10)
    blind_counts_as_bet: bool = True
    # BET-04/05 (TDA 47-A and its Example 1, 47-B; WSOP 133, 177): a player who has acted is
    # reopened when what he faces since his last action is at least a full bet or raise (half a
    # bet under the half-bet rule), short all-ins added up; off (profile versions before the
    # option): only one full raise reopens the betting, for every player at once
    reopen_per_player: bool = False


@dataclass(frozen=True, slots=True)
class OpenRules:
    """OPEN-02..OPEN-03: openers in ante games."""

    requirement: OpenRequirement = OpenRequirement.NONE
    passout_button: PassOutButton = PassOutButton.ADVANCES
    # OPEN-03 (RRoP): after this many passed-out deals in a row nobody antes again and the
    # pot plays as it is; 0 = everyone antes on every deal
    max_consecutive_antes: int = 0


@dataclass(frozen=True, slots=True)
class DrawRules:
    """DRAW-02..DRAW-11."""

    max_cards: int = 5  # DRAW-02
    four_with_ace: bool = False  # DRAW-02: four allowed when an ace is shown
    ace_must_be_shown: bool = True  # DRAW-02
    max_consecutive: int = 4  # DRAW-03: 4 = the fifth card comes after the others; 5 = off
    burn_before: bool = True  # DRAW-04
    bottom_card: BottomCard = BottomCard.NEVER  # DRAW-05
    reshuffle_pool: ReshufflePool = ReshufflePool.EARLIER_DISCARDS_BOTTOM_BURNS  # DRAW-06
    # DRAW-06, the seed-000 pool: the discards of a seat still to draw in this draw stay out
    # of a reshuffle too (it would be dealt its own; issue 20); off: only the drawer's own and
    # those of seats still owed cards (profile versions before the option)
    reshuffle_keeps_out_later_drawers: bool = False
    # DRAW-06, the WSOP pool: in the first draw, which has no earlier round (single draw), the
    # discards of the seats already served in it join the reshuffle (never the drawer's own),
    # so every legal draw is completed (WSOP 274); off: the muck and burns only
    reshuffle_first_draw_served: bool = False
    timeout_seconds: int = 0  # DRAW-11: 0 = no draw timer
    timeout_effect: DrawTimeoutEffect = DrawTimeoutEffect.PAT_NO_AGGRESSION
    # DRAW-11: the timer runs on the player's choice, not on the dealer's entry of the cards:
    # once a seat has declared its draw (card mode: discards entered, cards to come), `time`
    # is refused and not offered; off: accepted (profile versions before the option)
    timer_stops_at_declaration: bool = False


@dataclass(frozen=True, slots=True)
class BlindRules:
    """BLIND-01..BLIND-15."""

    button_method: ButtonMethod = ButtonMethod.DEAD  # BLIND-03
    # BLIND-03, a moving button (RRoP Button and Blind Use 2(a): "there may be two big
    # blinds"): when last hand's big blind is gone, the seat due the big blind posts one in the
    # small blind's place (rules/table/moving_button.py); off: it posts the small blind only
    # (profile versions before the option)
    moving_due_big_blind: bool = False
    missed_blinds_return: MissedBlindsReturn = MissedBlindsReturn.POST_OR_WAIT  # BLIND-08
    new_player_must_post: bool = True  # BLIND-05: post a big blind or wait for it
    between_blinds_and_button: NewPlayerBetweenBlindsAndButton = (
        NewPlayerBetweenBlindsAndButton.WAIT
    )  # BLIND-06
    single_blind: bool = False  # BLIND-13
    straddle_allowed: bool = False  # BLIND-14
    # BLIND-14 / BET-03 (WSOP 130): the straddle counts as a raise toward the fixed-limit cap;
    # WSOP: "a straddle does not count as a bet" for the number of bets (false)
    straddle_in_cap: bool = True
    # BLIND-14 / BET-05 (WSOP 22, 165): in no limit and pot limit the minimum raise after a
    # live straddle is twice the straddle; off (profile versions before it): the blind's size
    straddle_min_raise_doubles: bool = False
    # BLIND-14 (WSOP 22, 165): in no limit and pot limit the button may straddle too, and is
    # asked first (the button straddle takes precedence); never in fixed limit
    button_straddle: bool = False
    # BLIND-04 (WSOP 154): the kill is a blind: posted all in short, the others still call the
    # full kill blind; off (profile versions before it): the short kill is the bet to call
    short_kill_full_call: bool = False
    # BLIND-04 (TDA 2024 RP-11, big-blind-first): a big blind short of his blind and the
    # big-blind ante posts the blind first, live, and the ante from what is left; off
    # (profile versions before it, and pokerkit): the dead ante first
    big_blind_first: bool = False
    # BLIND-09 (seed 003): a seat that missed only the small blind comes back once the button
    # has passed its seat (it may not post in at or between the button and the small blind)
    sb_only_wait_for_button: bool = False
    # BLIND-11 (c) (RRoP-BB, WSOP 162): the table remembers a new game's first orbit, so a
    # newcomer who sits down (or a player who moves) where no blind has passed yet is dealt in
    # without posting until the blinds reach him, whenever in that orbit he comes. Off: only
    # after the first hand, and a seat change there waits as BLIND-12 says (profile versions
    # before the option: their recorded hands replay to the same states)
    new_game_orbit: bool = False
    # SHOW-08 (WSOP 71): when everyone else folds to the blinds before the draw and only the
    # two blinds are in the pot, the blinds may agree to take them back and end the hand (the
    # dealer enters ``chop``, rules/hand/chop.py); off: the small blind plays it out. KILL-06: never
    # with the kill in a blind
    chop: bool = False


@dataclass(frozen=True, slots=True)
class StrippedRules:
    """GAME-05 / RANK-04: the A-7 stripped-deck game."""

    deck_rule: StrippedDeckRule = StrippedDeckRule.BY_PLAYERS
    ace_low_straight: bool = True
    flush_over_full_house: bool = True  # RANK-04 (seed 000, 32CD)


@dataclass(frozen=True, slots=True)
class ShowdownRules:
    """SHOW-01..SHOW-10."""

    odd_chip: OddChipMethod = OddChipMethod.LEFT_OF_BUTTON
    # SHOW-01 (WSOP 149): the hands contesting the highest side pot are shown first (in the
    # usual SHOW-01 order among them), then the next pot down, a hand all in for the main pot
    # only last; off = one SHOW-01 order for every live hand whatever pots it contests
    side_pots_first: bool = False


@dataclass(frozen=True, slots=True)
class GameRules:
    """GAME-01..GAME-06: the game a profile deals, its betting structure and forced bets."""

    variant: Variant = Variant.FIVE_CARD_DRAW  # GAME-01..GAME-05
    structure: Structure = Structure.FIXED_LIMIT  # GAME-06
    forced_bets: ForcedBets = ForcedBets.BLINDS  # GAME-01, OPEN-01


@dataclass(frozen=True, slots=True)
class DeckRules:
    """DECK-01..DECK-04: the deck beyond the game's own cards."""

    joker: bool = False  # DECK-02..04: a 53rd card, the joker ("bug"); never in A-7 stripped


@dataclass(frozen=True, slots=True)
class IrregularityRules:
    """IRREG-01/02: the misdeal deadline (posted blinds and antes never count as action);
    IRREG-03: the ranks of a card exposed by the dealer on the initial deal that the player
    keeps (``rules/floor/exposed.py``); IRREG-04: where a card exposed on the draw goes."""

    misdeal_deadline: MisdealDeadline = MisdealDeadline.NONE
    # IRREG-03: "any" (keep every exposed card: draw high, RRoP-DH #3), "none" (replace every
    # one: WSOP lowball) or the rank symbols kept, e.g. "75432" (limit 2-7, RRoP-LB); any other
    # exposed card is replaced after the deal and becomes the burn
    exposed_keep_ranks: str = "any"
    # IRREG-03 (RRoP lowball 3, WSOP 283): the replaced exposed card is the burn, so the first
    # draw burns nothing more (as IRREG-06's extra card); off: the first draw burns another
    # card too (profile versions before the option)
    exposed_is_first_burn: bool = False
    # IRREG-04: a replacement card exposed by the dealer during the draw is never taken; it
    # goes to the discards (RRoP) or becomes the next burn (WSOP); the seat's replacement is
    # dealt after every other seat (``rules/floor/exposed_draw.py``)
    exposed_draw: ExposedDrawCard = ExposedDrawCard.TO_DISCARDS
    # IRREG-04: at the showdown the betting after the last draw is over, so a card exposed on
    # that draw is the floor's, never a new entry that sends the hand back to the draw (issue
    # 18). Off: accepted at the showdown until the first show (profile versions before the
    # option, whose recorded hands replay to the same states)
    exposed_draw_closes_at_showdown: bool = False


@dataclass(frozen=True, slots=True)
class KillRules:
    """KILL-01..KILL-06: kill pots in fixed-limit games (off unless a profile turns them on)."""

    mode: KillMode = KillMode.OFF  # KILL-01/02
    size: KillSize = KillSize.FULL  # KILL-01
    # KILL-02: the defaults keep the readings of profile versions written before the options
    second_leg: SecondLeg = SecondLeg.POT_LESS_KILL_BLIND
    action: KillAction = KillAction.LAST  # KILL-04


class Collection(StrEnum):
    """RAKE-01..RAKE-05: how the house collects at the table (house policy, posted at the
    table; no rule book fixes it)."""

    NONE = "none"  # no collection (every profile version before the option)
    PERCENT = "percent"  # RAKE-01: a percent of each pot, rounded down, capped per hand
    PER_HAND = "per_hand"  # RAKE-01: a fixed amount from each pot that reaches a size
    TIME = "time"  # RAKE-05: an amount per seat per period instead of a rake


@dataclass(frozen=True, slots=True)
class RakeRules:
    """RAKE-01..RAKE-05: the house's take (``rules/hand/rake.py``); off by default, so every profile
    version written before the section deals exactly as it did."""

    collection: Collection = Collection.NONE
    percent: int = 0  # RAKE-01: percent of each pot (0-100), rounded down to chip_unit
    chip_unit: int = 1  # RAKE-01: the table's smallest chip; it must divide the blinds
    cap: int = 0  # RAKE-01: most taken in one hand across all pots, main pot first; 0 = none
    min_pot: int = 0  # RAKE-01: a hand whose pots total less pays no rake
    per_hand: int = 0  # RAKE-01: collection = "per_hand": the fixed amount taken
    no_draw_no_drop: bool = False  # RAKE-02: a hand over before the first draw pays nothing
    jackpot_drop: int = 0  # RAKE-03: chips dropped for the jackpot (only with a draw)
    jackpot_min_pot: int = 0  # RAKE-03: ... when the pots total at least this
    jackpot_min_players: int = 0  # RAKE-03: ... with at least this many dealt in; 0 = any
    time_amount: int = 0  # RAKE-05: chips due from each seat dealt in when a period starts
    time_period_minutes: int = 30  # RAKE-05: the length of a period


@dataclass(frozen=True, slots=True)
class HouseRules:
    """A complete house-rule profile. ``profile_id`` and ``sha256`` identify its source file."""

    profile_id: str = "default"
    name: str = "Default casino rules"
    sha256: str = ""
    table: TableRules = field(default_factory=TableRules)
    betting: BettingRules = field(default_factory=BettingRules)
    open: OpenRules = field(default_factory=OpenRules)
    draw: DrawRules = field(default_factory=DrawRules)
    blinds: BlindRules = field(default_factory=BlindRules)
    stripped: StrippedRules = field(default_factory=StrippedRules)
    showdown: ShowdownRules = field(default_factory=ShowdownRules)
    game: GameRules = field(default_factory=GameRules)  # GAME-01..GAME-06
    deck: DeckRules = field(default_factory=DeckRules)  # DECK-02..04
    kill: KillRules = field(default_factory=KillRules)  # KILL-01..06
    irregularities: IrregularityRules = field(default_factory=IrregularityRules)  # IRREG-01..04
    rake: RakeRules = field(default_factory=RakeRules)  # RAKE-01..05
