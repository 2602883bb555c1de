// dealerassist: the pots of the hand in a table view (SHOW-07), built as the engine builds them
// for an award pot by pot (rules/pots.py: return_uncalled, then hand_pots / build_pots): the
// chips of killed or folded hands that no live hand matched go back first, then an uncalled
// bet, then one pot per all-in level of the live seats, main pot first, each seat eligible
// only for what it matched; dead money is in the main pot.
// tests/api/test_web.py checks this against the engine's hand_pots on real views.

import { t } from "./i18n.js";

// "the main pot", "side pot 1", ... as the engine's messages name them (pot_name), in the
// page's language.
export function potName(index) {
  return index === 0 ? t("the main pot") : t("side pot {n}", { n: index });
}

// The seat whose bet nobody matched and the excess it gets back, or null (pots.uncalled):
// the highest bet (the first seat in the view's order on a tie) over the second highest.
export function uncalledBet(players) {
  const ranked = [...players].sort((a, b) => b.bet - a.bet); // stable, as Python's sorted
  if (!ranked.length) return null;
  const second = ranked.length > 1 ? ranked[1].bet : 0;
  return ranked[0].bet > second ? { seat: ranked[0].seat, amount: ranked[0].bet - second } : null;
}

// SHOW-07 / IRREG-13 (pots.unmatched): Map seat -> what each folded or killed seat put in
// above the highest commitment of a seat still in; only a kill leaves any, e.g. every hand in
// a side pot killed: the short all-in wins only what he matched, so those chips go back.
export function unmatchedChips(players) {
  const live = players.filter((p) => !p.folded).map((p) => p.committed);
  if (!live.length) return new Map();
  const top = Math.max(...live);
  return new Map(players.filter((p) => p.folded && p.committed > top).map((p) => [p.seat, p.committed - top]));
}

// [{amount, eligible: [seat, ...]}, ...] for the view's hand (view.hand), main pot first;
// [] without a hand or without chips in the middle. The dead money is what the view's
// total_pot holds beyond the players' committed chips.
export function handPots(hand) {
  if (!hand) return [];
  const players = hand.players || [];
  const dead = hand.total_pot - players.reduce((sum, p) => sum + p.committed, 0);
  const unmatched = unmatchedChips(players);
  const returned = players.map((p) => {
    const amount = unmatched.get(p.seat) || 0;
    return { ...p, committed: p.committed - amount, bet: p.bet - Math.min(p.bet, amount) };
  });
  const committed = new Map(returned.map((p) => [p.seat, p.committed]));
  const back = uncalledBet(returned);
  if (back) committed.set(back.seat, committed.get(back.seat) - back.amount);
  const live = players.filter((p) => !p.folded).map((p) => p.seat);
  return buildPots(committed, live, dead);
}

// pots.build_pots: committed is a Map seat -> chips put in (folded seats too), live the seats
// still in, in the hand's order.
function buildPots(committed, live, dead) {
  const chips = [...committed.values()];
  const levels = [...new Set(live.map((seat) => committed.get(seat)).filter((c) => c > 0))].sort((a, b) => a - b);
  const pots = [];
  let previous = 0;
  for (const level of levels) {
    const amount = chips.reduce((sum, c) => sum + Math.min(c, level) - Math.min(c, previous), 0);
    const eligible = live.filter((seat) => committed.get(seat) >= level);
    const last = pots[pots.length - 1];
    if (last && last.eligible.join() === eligible.join()) last.amount += amount;
    else pots.push({ amount, eligible });
    previous = level;
  }
  const leftover = chips.reduce((sum, c) => sum + Math.max(0, c - previous), 0) + dead;
  if (!pots.length) return leftover ? [{ amount: leftover, eligible: live }] : [];
  if (leftover) {
    pots[0].amount += dead;
    if (leftover > dead) pots[pots.length - 1].amount += leftover - dead;
  }
  return pots;
}
