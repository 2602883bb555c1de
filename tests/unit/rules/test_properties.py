"""Property tests: random legal play conserves chips and cards; illegal entries change nothing."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from engine_table import AT, LIMIT, StoredTable, Table, cards_accounted
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from dealerassist.errors import InvalidInput
from dealerassist.rules.engine import legal_actions, view
from dealerassist.rules.floor.exposed_draw import after_the_deal
from dealerassist.rules.hand import betting
from dealerassist.rules.hand.dealing import deck_cards
from dealerassist.rules.hand.drawing import next_to_declare
from dealerassist.rules.hand.stub import in_pool, muck_in_pool, owed_seats
from dealerassist.rules.model.actions import Act, ActionKind, Mode, Stakes, Structure, Variant
from dealerassist.rules.model.house_rules import (
    BettingRules,
    BlindRules,
    BottomCard,
    ButtonMethod,
    Collection,
    DrawRules,
    ExposedDrawCard,
    HouseRules,
    IrregularityRules,
    PostDrawFirst,
    RakeRules,
    ReshufflePool,
    ShortAllInRule,
    ShowdownRules,
)
from dealerassist.rules.model.ruling_commands import Effect, KillHand, Ruling, TakeExposed
from dealerassist.rules.model.state import HandState, Phase, TableState, is_draw, phase_number
from dealerassist.rules.model.violations import RuleId, RuleViolation
from dealerassist.rules.table.blinds import eligible_seats

STAKES = {
    Structure.FIXED_LIMIT: LIMIT,
    Structure.NO_LIMIT: Stakes(small_blind=5, big_blind=10),
    Structure.POT_LIMIT: Stakes(small_blind=5, big_blind=10),
}
ANTES = Stakes(ante=5, small_bet=10, big_bet=20, min_bet=10)
GAMES = [(variant, structure) for variant in Variant for structure in Structure]
TRIPLE = Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW
TO_DISCARDS = ExposedDrawCard.TO_DISCARDS


def chips_in_play(state: TableState) -> int:
    """Stacks of seats not in the hand plus everything of the seats in it, plus what the house
    took from a finished hand (RAKE-01..03: stacks + rake + drops = start)."""
    hand = state.hand
    done = hand is None or hand.phase is Phase.COMPLETE
    in_hand = set() if done or hand is None else {p.seat for p in hand.players}
    total = sum(seat.stack for seat in state.seats if seat.seat not in in_hand)
    if in_hand and hand is not None:
        total += sum(p.stack + p.committed + p.dead for p in hand.players) + hand.dead
    return total + house_take(state)


def house_take(state: TableState) -> int:
    """What the house took from the table's hand: the time collected as it started (RAKE-05)
    and, once it is over, its rake and jackpot drop (0 when it took none)."""
    hand = state.hand
    if hand is None:
        return 0
    if hand.phase is not Phase.COMPLETE:
        return hand.time_collected
    result = hand.result.to_json() if hand.result else {}
    taken = int(result.get("rake", 0)) + int(result.get("jackpot_drop", 0))
    return hand.time_collected + taken


def check_invariants(table: Table, total: int) -> None:
    state = table.state
    assert chips_in_play(state) == total
    hand = state.hand
    if (
        hand is None
        or hand.phase is Phase.POSTING
        or (hand.result.to_json() if hand.result else {}).get("cancelled")
    ):
        return
    if hand.phase is not Phase.DEAL:
        assert cards_accounted(hand) == hand.deck
    if state.spec.mode is Mode.CARD:
        check_cards_in_one_place(hand)
    if hand.to_act is not None:
        player = hand.player(hand.to_act)
        assert not player.folded
        if hand.phase.value.startswith("betting"):
            assert player.stack > 0


def check_cards_in_one_place(hand: HandState) -> None:
    """Card mode: every known card is in one place only (a hand, a discard pile, the muck or
    the burn pile), and no pile lists more cards than it counts."""
    burned = hand.burn_cards + ((hand.exposed_burn,) if hand.exposed_burn else ())
    places = [*hand.muck_cards, *burned]
    for player in hand.players:
        assert len(player.cards) == player.held
        assert [len(pile) for pile in player.pile_cards] <= list(player.pile)
        places += [*player.cards, *(c for pile in player.pile_cards for c in pile)]
    twice = [card for card, times in Counter(places).items() if times > 1]
    assert not twice, f"cards in two places: {twice}"
    assert len(hand.muck_cards) <= hand.muck and len(burned) <= hand.burns


def choose(legal: dict[str, Any], rng: random.Random, table: Table) -> Act:
    """A random legal action from legal_actions, with a random legal amount."""
    seat = legal["seat"]
    options = legal["legal"]
    rare = {"sit_out", "fold"}
    common = [o for o in options if o["action"] not in rare]
    option = rng.choice(common if common and rng.random() < 0.8 else options)
    kind = ActionKind(option["action"])
    hand = table.hand
    if kind in (ActionKind.BET, ActionKind.RAISE):
        low, high = option["min"], option["max"]
        amount = rng.choice([low, high, rng.randint(low, high)])
        return Act(seat, kind, amount=amount)
    if kind is ActionKind.DRAW:
        return _draw(seat, rng.randint(0, option["max"]), table, rng)
    if kind is ActionKind.DEAL:
        return Act(seat, kind, cards=_fresh_cards(table, option["count"], rng))
    if kind is ActionKind.SHOW:
        player = hand.player(seat)
        if table.state.spec.mode is Mode.CARD:
            return Act(seat, kind)
        shown = {c for p in hand.players if p.shown for c in p.shown}
        free = sorted(deck_cards(hand.deck) - shown)
        assert player.held == 5
        tie = _same_ranks(shown, set(free), rng) if shown and rng.random() < 0.5 else None
        return Act(seat, kind, cards=tie or tuple(rng.sample(free, 5)))
    return Act(seat, kind)


def _same_ranks(shown: set[str], free: set[str], rng: random.Random) -> tuple[str, ...] | None:
    """The ranks of a hand already shown in other suits, to make ties (SHOW-09) likely."""
    ranks = sorted({c[0] for c in shown})[:5]
    cards = []
    for rank in rng.sample(ranks, len(ranks)):
        options = sorted(c for c in free if c[0] == rank and c not in cards)
        if not options:
            return None
        cards.append(rng.choice(options))
    return tuple(cards) if len(cards) == 5 else None


def _draw(seat: int, count: int, table: Table, rng: random.Random) -> Act:
    if table.state.spec.mode is Mode.COUNT:
        return Act(seat, ActionKind.DRAW, count=count)
    held = table.hand.player(seat).cards
    if count > table.rules.draw.max_cards:  # DRAW-02: four only while keeping an ace (or joker)
        ace = next(card for card in held if card[0] == "A" or card == "Jk")
        held = tuple(card for card in held if card != ace)
    discards = tuple(rng.sample(held, count))
    return Act(seat, ActionKind.DRAW, discards=discards)


def _fresh_cards(table: Table, count: int, rng: random.Random) -> tuple[str, ...]:
    """Cards from the stub, else also from the piles a reshuffle may use (never held ones)."""
    hand = table.hand
    seat = hand.to_act
    draw_round = int(hand.phase.value.split("_")[1]) if "_" in hand.phase.value else 0
    held = {c for p in hand.players for c in p.cards}
    piles = {
        c: in_pool(p.seat, index, seat, table.rules, draw_round, owed_seats(hand, seat))
        for p in hand.players
        for index, pile in enumerate(p.pile_cards, start=1)
        for c in pile
    }
    piles.update({c: muck_in_pool(table.rules) for c in hand.muck_cards})
    if hand.exposed_burn is not None:  # IRREG-03: the exposed card is a burn: in every pool
        piles[hand.exposed_burn] = draw_round > 0
    piles.update({c: draw_round > 0 for c in hand.burn_cards})  # IRREG-04: burns as well
    stub = sorted(deck_cards(hand.deck) - held - set(piles))
    picked = rng.sample(stub, min(count, len(stub)))  # the stub first (DRAW-06)
    pool = sorted(c for c, usable in piles.items() if usable)
    return tuple(picked + rng.sample(pool, count - len(picked)))


@dataclass
class DrawExposures:
    """IRREG-04 in random play: the cards of the last deal of the seat last dealt to (card
    mode) or how many it got (count mode), and every card exposed on the draw."""

    rng: random.Random
    rules_pool: ReshufflePool
    disposition: ExposedDrawCard
    fresh: list[str] = field(default_factory=list)
    fresh_count: int = 0
    # card mode: (seat, card, draw round, reshuffles so far) of each exposed card
    exposed: list[tuple[int, str, int, int]] = field(default_factory=list)
    entered: int = 0
    expose: float = 0.4  # how often an offered exposure is made
    most: int = 10**6  # exposures in all (one after another they could go on for ever)
    floor_rulings: int = 0

    def note(self, before: HandState, after: HandState, act: Act) -> None:
        """After an entry: what the last receiver was just dealt; an exposed card dealt back
        to its seat only after a reshuffle whose pool may take it (DRAW-06)."""
        seat = after.last_receiver
        if seat is None or not after.has(seat) or not before.has(seat):
            self.fresh, self.fresh_count = [], 0
            return
        discarded = act.count or 0 if act.seat == seat and act.action is ActionKind.DRAW else 0
        gained = after.player(seat).held - before.player(seat).held + discarded
        if seat != before.last_receiver or gained > 0:
            self.fresh_count = max(gained, 0)
            self.fresh = list(act.cards or ()) if act.seat == seat else []
        if act.action in (ActionKind.DEAL, ActionKind.DRAW) and act.cards and is_draw(before.phase):
            self._check_dealt_back(before, after, act.seat, act.cards)

    def _check_dealt_back(
        self, before: HandState, after: HandState, seat: int, cards: tuple[str, ...]
    ) -> None:
        """A card exposed from ``seat`` comes back to it only through a reshuffle: from its own
        discards only where the pool takes them (DRAW-06), from the burns any time."""
        own = {c for pile in before.player(seat).pile_cards for c in pile}
        for owner, card, draw_round, reshuffles in self.exposed:
            if owner != seat or card not in cards:
                continue
            assert after.reshuffles > reshuffles, f"{card} dealt back to seat {seat}"
            if card in own:
                assert after.reshuffles > before.reshuffles
                later = phase_number(before.phase) > draw_round
                pool = self.rules_pool
                assert pool is ReshufflePool.ALL_DISCARDS or (
                    pool is ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS and later
                ), f"seat {seat} got back its exposed {card} from its own discards"


def play_hand(
    table: Table,
    rng: random.Random,
    illegal: bool = False,
    expose: random.Random | None = None,
    expose_draw: DrawExposures | None = None,
) -> None:
    total = chips_in_play(table.state) - house_take(table.state)
    table.start(button=None if table.state.button else 1, post=False)
    if expose_draw is not None:
        expose_draw.exposed, expose_draw.fresh, expose_draw.fresh_count = [], [], 0
    for _ in range(400):
        check_invariants(table, total)
        if expose is not None and expose_card(table, expose):
            continue
        if expose_draw is not None and expose_draw_card(table, expose_draw):
            check_invariants(table, total)
            continue
        legal = legal_actions(table.state, table.rules, AT)
        if legal is None:
            break
        if illegal:
            try_illegal(table, legal, rng)
        before = table.hand
        act = choose(legal, rng, table)
        table.run(act)
        check_turn_order(before, table.hand, legal["seat"])
        if expose_draw is not None:
            expose_draw.note(before, table.hand, act)
            check_no_foul(table)
    assert table.hand.phase is Phase.COMPLETE
    assert sum(seat.stack for seat in table.state.seats) + house_take(table.state) == total
    check_rake(table)


def check_rake(table: Table) -> None:
    """RAKE-01..04: each pot's rake is at most its percent (rounded down to the chip), the total
    at most the cap, the drops whole chips, and the winners share what is left of each pot."""
    rake, result = table.rules.rake, table.hand.result.to_json() if table.hand.result else {}
    if "rake" not in result:
        return
    limit = rake.cap if rake.collection is Collection.PERCENT else rake.per_hand
    assert result["rake"] <= (limit or result["rake"])
    for pot in result["pots"]:
        assert sum(pot["shares"].values()) == pot["amount"] - pot["rake"] - pot["jackpot_drop"]
        assert pot["rake"] % rake.chip_unit == 0 and pot["jackpot_drop"] >= 0
        if rake.collection is Collection.PERCENT:
            assert pot["rake"] <= pot["amount"] * rake.percent // 100


def expose_card(table: Table, rng: random.Random) -> bool:
    """IRREG-03: now and then, while the view offers it, a dealer-exposed card (at most one)."""
    offered = view(table.state, table.rules, AT)["exposed"]
    if offered is None or table.hand.exposed or rng.random() > 0.3:
        return False
    seat = rng.choice(offered["seats"])
    if table.state.spec.mode is Mode.CARD:
        table.run(Act(seat, ActionKind.EXPOSED, cards=(rng.choice(table.hand.player(seat).cards),)))
    else:
        rank = rng.choice(sorted({card[0] for card in deck_cards(table.hand.deck)}))
        table.run(Act(seat, ActionKind.EXPOSED, rank=rank))
    return True


def expose_draw_card(table: Table, seen: DrawExposures) -> bool:
    """IRREG-04: while the view offers a seat, illegal exposures are refused; now and then the
    dealer exposes one of the cards just dealt to it (count mode: with or without a rank)."""
    if not after_the_deal(table.hand) or table.hand.phase is Phase.COMPLETE:
        return False
    offered = view(table.state, table.rules, AT)["exposed_draw"]
    rng = seen.rng
    if rng.random() < 0.3:
        try_illegal_exposures(table, seen, None if offered is None else offered["seat"])
    if offered is None or rng.random() > seen.expose or seen.entered >= seen.most:
        return False
    seat, hand = offered["seat"], table.hand
    assert offered["disposition"] == table.rules.irregularities.exposed_draw.value
    if table.state.spec.mode is Mode.CARD:
        fresh = [card for card in seen.fresh if card in hand.player(seat).cards]
        if not fresh:
            return False
        card = rng.choice(fresh)
        act = Act(seat, ActionKind.EXPOSED, cards=(card,))
        seen.exposed.append((seat, card, _draw_round_of(hand), hand.reshuffles))
        seen.fresh.remove(card)
    else:
        if seen.fresh_count < 1:
            return False
        rank = rng.choice([None, *sorted({card[0] for card in deck_cards(hand.deck)})])
        act = Act(seat, ActionKind.EXPOSED, rank=rank)
        seen.fresh_count -= 1
    table.run(act)
    seen.entered += 1
    after = table.hand
    assert seat in after.exposed_owed or after.player(seat).held == hand.player(seat).held
    if after.floor_wait:
        floor_rules_on_a_stuck_replacement(table, seen)
        return True
    if (
        is_draw(after.phase)
        and after.to_act == seat
        and next_to_declare(after, _draw_round_of(after))
    ):
        # replaced after every other seat, unless the stub is running out (DRAW-03/06: owed
        # cards go first so their seat's discards may join the reshuffle)
        assert after.stub < sum(p.pending for p in after.players) + 2
    check_no_foul(table)
    return True


def floor_rules_on_a_stuck_replacement(table: Table, seen: DrawExposures) -> None:
    """IRREG-04: an exposure the stub and the pool cannot replace comes with a notice to call
    the floor; the hand waits (no legal action, every entry refused) until the floor lets the
    player take the exposed card, or now and then kills that hand; then the draw goes on."""
    assert table.outcome is not None
    assert [n for n in table.outcome.notices if n.rule_id is RuleId.IRREG_04]
    event("draw exposure the stub and the pool cannot replace: floor ruling")
    legal = legal_actions(table.state, table.rules, AT)
    assert legal is not None and legal["legal"] == [] and legal["floor"] == "IRREG-04"
    before = table.state.to_dict()
    with pytest.raises(RuleViolation) as refused:
        table.run(Act(legal["seat"] or 1, ActionKind.DRAW, count=0))
    assert refused.value.rule_id is RuleId.IRREG_04 and table.state.to_dict() == before
    for _ in range(6):
        hand = table.hand
        if not hand.floor_wait:
            break
        seat = hand.exposed_owed[-1]
        if seen.rng.random() < 0.2 and len(list(hand.live())) > 2:
            effect: Effect = KillHand(seat)
        else:
            effect = TakeExposed(seat)
        table.run(Ruling("take_exposed", "IRREG-04", effects=(effect,)))
        if isinstance(effect, TakeExposed) and table.state.spec.mode is Mode.CARD:
            taken = table.hand.player(seat).cards[-1]
            seen.exposed = [e for e in seen.exposed if e[1] != taken]
    assert not table.hand.floor_wait
    seen.fresh, seen.fresh_count = [], 0
    seen.floor_rulings += 1


def _draw_round_of(hand: HandState) -> int:
    """The draw a card exposed now belongs to: the one in progress or the one just over."""
    return phase_number(hand.phase) if is_draw(hand.phase) else phase_number(hand.phase) - 1


def check_no_foul(table: Table) -> None:
    """No hand is fouled for lack of a replacement: every live hand has five after a draw."""
    assert table.outcome is not None
    assert not [n for n in table.outcome.notices if n.rule_id is RuleId.DRAW_10]
    hand = table.hand
    if hand.phase.value.startswith(("betting", "showdown")):
        assert all(p.held == 5 for p in hand.live()), [(p.seat, p.held) for p in hand.live()]


def try_illegal_exposures(table: Table, seen: DrawExposures, seat: int | None) -> None:
    """IRREG-04: an exposure for a seat not just dealt, of a card not just dealt, with an
    option, or once the window closed is refused with IRREG-04 and changes nothing."""
    hand, rng = table.hand, seen.rng
    card_mode = table.state.spec.mode is Mode.CARD
    entries: list[Act] = []
    others = [p for p in hand.players if p.seat != seat and p.cards]
    if not card_mode:
        others = [p for p in hand.players if p.seat != seat]
    if others:
        other = rng.choice(others)
        cards = (rng.choice(other.cards),) if card_mode else None
        entries.append(Act(other.seat, ActionKind.EXPOSED, cards=cards))
    if seat is not None:
        player = hand.player(seat)
        option = rng.choice(["keep", "replace"])
        fresh = [c for c in seen.fresh if c in player.cards] if card_mode else []
        cards = (rng.choice(fresh),) if fresh else None
        if card_mode and fresh:
            entries.append(Act(seat, ActionKind.EXPOSED, cards=cards, option=option))
            kept = [c for c in player.cards if c not in seen.fresh]
            if kept:
                entries.append(Act(seat, ActionKind.EXPOSED, cards=(rng.choice(kept),)))
        if not card_mode:
            entries.append(Act(seat, ActionKind.EXPOSED, option=option))
    before = table.state.to_dict()
    for entry in entries:
        with pytest.raises(RuleViolation) as refused:
            table.run(entry)
        assert refused.value.rule_id is RuleId.IRREG_04, (entry, refused.value.message)
        assert table.state.to_dict() == before


def check_turn_order(before: Any, after: Any, actor: int) -> None:
    """Within a betting round the turn passes clockwise to the next seat that still has to act."""
    if before.phase != after.phase or not after.phase.value.startswith("betting"):
        return
    if after.to_act is None:
        return
    for seat in after.seats_from(actor):
        player = after.player(seat)
        if player.can_bet and (not player.acted or player.bet < after.current_bet):
            assert after.to_act == seat
            return
    raise AssertionError("a seat is to act though nobody needs to")


def try_illegal(table: Table, legal: dict[str, Any], rng: random.Random) -> None:
    """An entry out of turn, out of phase or with a wrong amount is refused, state unchanged."""
    before = table.state.to_dict()
    seat = legal["seat"]
    others = [s.seat for s in table.state.seats if s.seat != seat]
    entries = [Act(rng.choice(others), ActionKind.CHECK), Act(seat, ActionKind.SHOW)]
    if table.hand.phase is Phase.SHOWDOWN:
        entries[1] = Act(seat, ActionKind.DRAW, count=1)
    for option in legal["legal"]:
        if option["action"] in ("bet", "raise"):
            entries.append(Act(seat, ActionKind(option["action"]), amount=option["max"] + 1))
        if option["action"] == "draw":
            entries.append(Act(seat, ActionKind.DRAW, count=6))
    for entry in entries:
        with pytest.raises((RuleViolation, InvalidInput)) as refused:
            table.run(entry)
        if isinstance(refused.value, RuleViolation):
            assert refused.value.rule_id
        assert table.state.to_dict() == before


def make_table(variant: Variant, structure: Structure, seed: int, mode: Mode, antes: bool) -> Table:
    rng = random.Random(seed)
    players = rng.randint(2, 5 if variant is Variant.ACE_TO_SEVEN_STRIPPED else 6)
    stacks = [rng.choice([15, 40, 100, 300]) for _ in range(players)]
    stakes = ANTES if antes else STAKES[structure]
    return Table(stacks, variant, structure, stakes, random_rules(rng), mode)


def random_rules(rng: random.Random) -> HouseRules:
    """A house-rule profile with every betting, draw and button option picked at random."""
    betting = BettingRules(
        max_raises=rng.choice([3, 4]),
        uncapped_heads_up=rng.random() < 0.5,
        short_all_in=rng.choice(list(ShortAllInRule)),
        check_raise=rng.random() < 0.7,
        post_draw_first=rng.choice(list(PostDrawFirst)),
        allow_limp=rng.random() < 0.7,
        pot_limit_round_blinds_up=rng.random() < 0.5,
        blind_counts_as_bet=rng.random() < 0.5,
    )
    max_cards = rng.choice([3, 4, 5])
    draw = DrawRules(
        max_cards=max_cards,
        four_with_ace=max_cards == 3 and rng.random() < 0.5,
        ace_must_be_shown=rng.random() < 0.5,
        max_consecutive=rng.choice([4, 5]),
        burn_before=rng.random() < 0.8,
        bottom_card=rng.choice(list(BottomCard)),
        reshuffle_pool=rng.choice(list(ReshufflePool)),
    )
    # the options added later draw from their own generator, so every seed above (and the
    # pinned examples) still gets the same betting and draw rules
    later = random.Random(rng.random())
    blinds = BlindRules(
        button_method=rng.choice(list(ButtonMethod)),
        chop=later.random() < 0.5,  # SHOW-08: the blinds may chop when folded to
        new_game_orbit=later.random() < 0.5,  # BLIND-11 (c)
    )
    showdown = ShowdownRules(side_pots_first=later.random() < 0.5)  # SHOW-01 (WSOP 149)
    return HouseRules(betting=betting, draw=draw, blinds=blinds, showdown=showdown)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(list(Mode)),
    antes=st.booleans(),
)
def test_random_legal_play_conserves_chips_and_cards(
    game: tuple[Variant, Structure], seed: int, mode: Mode, antes: bool
) -> None:
    """Two hands of random legal actions keep stacks + pot and stub + hands + piles constant."""
    table = make_table(game[0], game[1], seed, mode, antes)
    rng = random.Random(seed)
    play_hand(table, rng)
    if len(eligible_seats(table.state)) >= 2:
        play_hand(table, rng)


def random_rake(rng: random.Random) -> RakeRules:
    """A random ``[rake]`` section: percent, per hand or time, a cap, a minimum pot, no draw no
    drop, a jackpot drop; in chips of 1 or 5 (every stake of these tables is a multiple of 5)."""
    unit = rng.choice([1, 5])
    return RakeRules(
        collection=rng.choice([Collection.PERCENT, Collection.PER_HAND, Collection.TIME]),
        percent=rng.choice([5, 10, 50, 100]),
        chip_unit=unit,
        cap=unit * rng.choice([0, 1, 4]),
        min_pot=unit * rng.choice([0, 4]),
        per_hand=unit * rng.choice([1, 3]),
        no_draw_no_drop=rng.random() < 0.5,
        jackpot_drop=unit * rng.choice([0, 1]),
        jackpot_min_pot=rng.choice([0, 20, 100]),
        jackpot_min_players=rng.choice([0, 3]),
        time_amount=unit * rng.choice([1, 20]),  # RAKE-05: 20 takes a 15-chip stack whole
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(list(Mode)),
    antes=st.booleans(),
)
# RAKE-01 (TDA 2024 Rule 20: chips are broken into the smallest denomination in play, never
# below it): hand 2 has a pot of 3 from short all-in blinds under a rake of 15 a hand in chips
# of 5; the whole 3 went to the rake slot, part of a chip: a pot below the chip gives nothing
@example(
    game=(Variant.FIVE_CARD_DRAW, Structure.POT_LIMIT), seed=39679, mode=Mode.CARD, antes=False
)
def test_RAKE_01_accepts_random_play_with_a_rake_as_stacks_plus_rake_plus_drops(
    game: tuple[Variant, Structure], seed: int, mode: Mode, antes: bool
) -> None:
    """RAKE-01..04 (house policy, issue 23): two hands of random legal play under a random rake
    keep stacks + pot constant during the hand and stacks + rake + jackpot drops = the start
    after it; each pot's rake is within its percent and the cap."""
    table = make_table(game[0], game[1], seed, mode, antes)
    rng = random.Random(seed)
    table.rules = replace(table.rules, rake=random_rake(rng))
    play_hand(table, rng)
    if len(eligible_seats(table.state)) >= 2:
        play_hand(table, rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(list(Mode)),
    keep=st.sampled_from(["any", "none", "75432", "A2345"]),
)
def test_IRREG_03_accepts_random_exposed_cards_and_conserves_chips_and_cards(
    game: tuple[Variant, Structure], seed: int, mode: Mode, keep: str
) -> None:
    """A card exposed at random on the deal, kept or replaced by the house rule, and random
    legal play after it keep stacks + pot and stub + hands + piles + burns constant."""
    table = make_table(game[0], game[1], seed, mode, antes=False)
    table.rules = replace(table.rules, irregularities=IrregularityRules(exposed_keep_ranks=keep))
    rng, expose = random.Random(seed), random.Random(seed + 1)
    play_hand(table, rng, expose=expose)
    if len(eligible_seats(table.state)) >= 2:
        play_hand(table, rng, expose=expose)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(list(Mode)),
    disposition=st.sampled_from(list(ExposedDrawCard)),
    keep=st.sampled_from([None, "any", "none", "75432"]),
)
# IRREG-04 / DRAW-06: the seed-000 pool, the stub short, a seat owed four exposed cards ahead
# of one owed a single card; every discard belongs to a seat still owed cards, so the four
# cannot be dealt first (a reshuffle would hold the bottom card alone): the one card goes first
@example(
    game=(TRIPLE, Structure.FIXED_LIMIT),
    seed=264,
    mode=Mode.CARD,
    disposition=TO_DISCARDS,
    keep=None,
)
@example(
    game=(TRIPLE, Structure.FIXED_LIMIT),
    seed=426,
    mode=Mode.CARD,
    disposition=TO_DISCARDS,
    keep=None,
)
@example(
    game=(TRIPLE, Structure.POT_LIMIT), seed=426, mode=Mode.CARD, disposition=TO_DISCARDS, keep=None
)
def test_IRREG_04_random_draw_exposures_conserve_chips_and_cards_and_are_replaced_last(
    game: tuple[Variant, Structure],
    seed: int,
    mode: Mode,
    disposition: ExposedDrawCard,
    keep: str | None,
) -> None:
    """Cards exposed at random on the draw (to the discards or as the next burn), with every
    random house option and maybe an exposure on the deal too, keep chips and cards constant,
    each card in one place, an exposed card away from its seat but through a reshuffle that
    may take it, every hand at five after the draw; illegal exposures change nothing."""
    table = make_table(game[0], game[1], seed, mode, antes=seed % 3 == 0)
    irregularities = IrregularityRules(exposed_keep_ranks=keep or "any", exposed_draw=disposition)
    table.rules = replace(table.rules, irregularities=irregularities)
    rng = random.Random(seed)
    seen = DrawExposures(random.Random(seed + 2), table.rules.draw.reshuffle_pool, disposition)
    expose = random.Random(seed + 1) if keep else None
    for _ in range(3):
        if len(eligible_seats(table.state)) < 2:
            break
        play_hand(table, rng, expose=expose, expose_draw=seen)
    event(f"draw exposures: {min(seen.entered, 3)}{'+' if seen.entered > 3 else ''}")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from([Variant.DEUCE_TO_SEVEN_TRIPLE_DRAW, Variant.ACE_TO_SEVEN_STRIPPED]),
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(list(Mode)),
    disposition=st.sampled_from(list(ExposedDrawCard)),
)
# DRAW-06 / IRREG-04: two seats owed four exposed replacements each, the stub at five; the draw
# of the third seat offered 0 to 5 but refused 2 (the supply check is not monotone in the
# count there): what is offered is what is accepted
@example(variant=TRIPLE, seed=554696, mode=Mode.CARD, disposition=TO_DISCARDS)
def test_IRREG_04_guides_the_dealer_to_the_floor_when_no_replacement_can_be_supplied(
    variant: Variant, seed: int, mode: Mode, disposition: ExposedDrawCard
) -> None:
    """Many exposures in one draw, with a reshuffle pool of earlier rounds, muck and burns only:
    once the stub and the pool cannot replace an exposed card the dealer is told to call the
    floor and the hand waits; after the floor's ruling the hand reaches its end, chips and
    cards conserved (the property test above, exposing every card it may)."""
    table = make_table(variant, Structure.POT_LIMIT, seed, mode, antes=False)
    draw = replace(table.rules.draw, reshuffle_pool=ReshufflePool.PREVIOUS_ROUNDS_MUCK_BURNS)
    irregularities = IrregularityRules(exposed_draw=disposition)
    table.rules = replace(table.rules, draw=draw, irregularities=irregularities)
    rng = random.Random(seed)
    seen = DrawExposures(
        random.Random(seed + 2), draw.reshuffle_pool, disposition, expose=0.9, most=30
    )
    for _ in range(2):
        if len(eligible_seats(table.state)) < 2:
            break
        play_hand(table, rng, expose_draw=seen)
    event(f"floor rulings: {min(seen.floor_rulings, 2)}{'+' if seen.floor_rulings > 2 else ''}")


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), mode=st.sampled_from(list(Mode)))
def test_illegal_entries_are_refused_with_a_rule_id_and_change_nothing(
    game: tuple[Variant, Structure], seed: int, mode: Mode
) -> None:
    """Out-of-turn, out-of-phase and oversized entries raise and leave the state as it was."""
    table = make_table(game[0], game[1], seed, mode, antes=False)
    play_hand(table, random.Random(seed), illegal=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), mode=st.sampled_from(list(Mode)))
def test_a_table_read_back_from_its_json_plays_on_exactly_as_one_kept_in_memory(
    game: tuple[Variant, Structure], seed: int, mode: Mode
) -> None:
    """Three hands where every entry meets the state both decoded from its stored JSON and
    as kept in memory: the same state, events, instructions and result, byte for byte (what
    verify's replay, which keeps the table in memory, relies on)."""
    rng = random.Random(seed)
    players = rng.randint(2, 5 if game[0] is Variant.ACE_TO_SEVEN_STRIPPED else 6)
    stacks = [rng.choice([40, 100, 300]) for _ in range(players)]
    table = StoredTable(stacks, game[0], game[1], STAKES[game[1]], random_rules(rng), mode)
    for _ in range(3):
        if len(eligible_seats(table.state)) < 2:
            break
        play_hand(table, rng)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), antes=st.booleans())
def test_the_quick_accept_of_folds_checks_and_calls_matches_the_full_betting_check(
    game: tuple[Variant, Structure], seed: int, antes: bool
) -> None:
    """GAME-06 / BET-01: at every betting turn of random play, each check, call and fold by each
    seat gets the same answer (accepted, or the same refusal) with the quick accept path as
    through the full options check alone."""
    table = make_table(game[0], game[1], seed, Mode.COUNT, antes)
    rng = random.Random(seed)
    table.start(button=1, post=False)
    spec = table.state.spec
    for _ in range(200):
        legal = legal_actions(table.state, table.rules, AT)
        if legal is None:
            break
        hand = table.hand
        if hand.phase.value.startswith("betting"):
            for player in hand.players:
                owed = hand.current_bet - player.bet
                for entry in (
                    Act(player.seat, ActionKind.CHECK),
                    Act(player.seat, ActionKind.CALL),
                    Act(player.seat, ActionKind.CALL, amount=owed),
                    Act(player.seat, ActionKind.CALL, amount=owed + 1),
                    Act(player.seat, ActionKind.FOLD),
                ):
                    quick = _betting_answer(hand, entry, spec, table.rules, quick=True)
                    full = _betting_answer(hand, entry, spec, table.rules, quick=False)
                    assert quick == full, entry
        table.run(choose(legal, rng, table))


def _betting_answer(
    hand: Any, entry: Act, spec: Any, rules: HouseRules, *, quick: bool
) -> tuple[Any, ...]:
    with pytest.MonkeyPatch.context() as patch:
        if not quick:
            patch.setattr(betting, "_plainly_legal", lambda *_: False)
        try:
            return ("accepted", betting.check_bet_action(hand, entry, spec, rules))
        except RuleViolation as refusal:
            return ("refused", refusal.rule_id, refusal.message, refusal.allowed)
