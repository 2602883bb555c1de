// dealerassist: draws a table (the "table" route) and keeps it fresh by polling with
// If-None-Match (the API answers 304 while the version is unchanged).
import { call, session } from "./api.js";
import { $, append, clear, el, showProblem, tokenRefused } from "./ui.js";
import { chips, locale, t } from "./i18n.js";
import { handWords } from "./hand_words.js";

const PHASES = {
  posting: t("Posting blinds"), deal: t("Dealing"), showdown: t("Showdown"), complete: t("Hand over"),
};

export function phaseLabel(phase) {
  if (!phase) return t("Between hands");
  if (PHASES[phase]) return PHASES[phase];
  const [kind, n] = phase.split("_");
  if (kind === "betting") return t("Betting round {n}", { n });
  if (kind === "draw") return t("Draw {n}", { n });
  return phase;
}

const words = (text) => String(text || "").replace(/_/g, " ");

// The games and structures by their names at the table, not their codes.
export const VARIANT_NAMES = {
  five_card_draw: t("Five-card draw"),
  deuce_to_seven_single_draw: t("2-7 single draw"),
  deuce_to_seven_triple_draw: t("2-7 triple draw"),
  ace_to_seven_stripped: t("A-7 stripped deck"),
};
export const STRUCTURE_NAMES = { fixed_limit: t("Fixed limit"), pot_limit: t("Pot limit"), no_limit: t("No limit") };

// What a seat owes (the view's owes_what, a post's owes) in words.
const OWED = {
  small_blind: t("small blind"), big_blind: t("big blind"), ante: t("ante"),
  returning_big_blind: t("returning big blind"), entering_big_blind: t("entering big blind"),
  dead_small_blind: t("dead small blind"), straddle_offer: t("straddle offer"), kill: t("kill"),
};
export function owedWords(part) {
  return OWED[part] || words(part);
}

// A seat's missed blind ("small", "big") and its wait for the big blind (the rule behind it).
export function missedBlindNote(missed) {
  if (missed === "small") return t("missed small blind");
  if (missed === "big") return t("missed big blind");
  return t("missed {blind} blind", { blind: words(missed) });
}
export function waitingNote(waiting) {
  return t("waits for the big blind ({rule})", { rule: waiting });
}

// Where the button is: the hand's while one is in play; between hands the seat it is on for
// the next hand (next_hand.button: the same seat after a misdeal, the floor's seat after a
// move_button), else the table's.
export function buttonSeat(table) {
  const hand = table.hand;
  if (hand && hand.phase !== "complete") return hand.button;
  if (table.next_hand && table.next_hand.button) return table.next_hand.button;
  return table.button;
}

export function renderSummary(table) {
  const box = clear($("table-summary"));
  const hand = table.hand;
  const live = hand && hand.phase !== "complete";
  const stakes = table.stakes || {};
  const stakeText = [
    stakes.small_blind ? t("blinds {small}/{big}", { small: chips(stakes.small_blind), big: chips(stakes.big_blind) }) : null,
    stakes.ante ? t("ante {chips}", { chips: chips(stakes.ante) }) : null,
    table.structure === "fixed_limit" && stakes.small_bet ? t("limit {small}/{big}", { small: chips(stakes.small_bet), big: chips(stakes.big_bet) }) : null,
    stakes.min_bet ? t("min bet {chips}", { chips: chips(stakes.min_bet) }) : null,
  ].filter(Boolean).join(", ");
  append(box,
    el("div", { class: "title-line" },
      el("span", { class: "table-id", text: t("Table {table}", { table: table.table_id }) }),
      el("span", { class: "chip", text: VARIANT_NAMES[table.variant] || words(table.variant) }),
      el("span", { class: "chip", text: STRUCTURE_NAMES[table.structure] || words(table.structure) }),
      table.mode === "card" ? el("span", { class: "chip", text: t("card mode") }) : null,
      el("span", { class: "version", text: `v${table.version}` })),
    el("div", { class: "facts" },
      el("div", {}, el("span", { class: "label", text: t("Hand") }), el("span", { class: "value", text: hand ? `#${hand.hand_no}` : "—" })),
      el("div", {}, el("span", { class: "label", text: t("Phase") }), el("span", { class: "value", text: hand ? phaseLabel(hand.phase) : t("Between hands") })),
      el("div", { class: "pot" }, el("span", { class: "label", text: t("Pot") }),
        el("span", { class: "value", text: live ? chips(hand.total_pot) : (table.carried_pot ? t("{chips} carried", { chips: chips(table.carried_pot) }) : "0") })),
      live && hand.pot !== hand.total_pot
        ? el("div", {}, el("span", { class: "label", text: t("Middle / bets") }), el("span", { class: "value", text: `${chips(hand.pot)} / ${chips(hand.total_pot - hand.pot)}` }))
        : null,
      live && hand.current_bet ? el("div", {}, el("span", { class: "label", text: t("To call") }), el("span", { class: "value", text: chips(hand.current_bet) })) : null,
      live ? el("div", {}, el("span", { class: "label", text: t("Stub") }), el("span", { class: "value", text: String(hand.stub) })) : null,
      el("div", {}, el("span", { class: "label", text: t("Button") }), el("span", { class: "value", text: buttonSeat(table) ? t("seat {seat}", { seat: buttonSeat(table) }) : "—" }))),
    stakeText ? el("p", { class: "hint", text: `${stakeText} · ${t("profile {profile}", { profile: table.profile })}` }) : null,
    live && hand.kill_seat ? el("p", { class: "held kill-line", text: t("Kill pot: seat {seat} kills this hand (KILL-01); the limits are raised for it", { seat: hand.kill_seat }) }) : null,
    !live && table.kill_leg && table.kill_leg.kills_next ? el("p", { class: "hint", text: t("Next hand: seat {seat} kills it (KILL-02)", { seat: table.kill_leg.seat }) }) : null,
    hand && hand.pot_held ? el("p", { class: "held", text: t("Pot held by the floor (SHOW-11): no entries until released") }) : null,
    table.next && table.next.floor ? el("p", { class: "held", text: t("Waiting for the floor ({rule}): call the floor; no entries until it rules", { rule: table.next.floor }) }) : null,
  );
}

// OPEN-08: an all-in player who opened falsely sits out until a legally opened pot has been
// won, even if he rebuys (the seat's false_opener, shown only while set); the floor may lift it.
export const FALSE_OPENER_NOTE = t("waits as a false opener until a legally opened pot is won (OPEN-08)");

// The seat markers written under a seat: its player's state in the hand in play (p, from
// hand.players; none when it is not dealt in) and the seat's own (sitting out, missed blinds,
// waiting for the big blind, a false opener's wait, a new player).
export function seatNotes(seat, p, hand, names = {}) {
  const notes = [];
  if (p) {
    if (p.folded) notes.push(t("folded"));
    if (p.all_in) notes.push(t("all in"));
    if (p.owes) notes.push(`${t("owes {chips}", { chips: chips(p.owes) })}${p.owes_what.length ? ` (${p.owes_what.map(owedWords).join(", ")})` : ""}`);
    if (hand.draws && hand.draws[String(seat.seat)] !== undefined) notes.push(t("drew {count}", { count: hand.draws[String(seat.seat)] }));
    // the hand's name in the page's language (hand_words.js; the view names it in English)
    const named = names[String(seat.seat)] ? handWords(names[String(seat.seat)]) : "";
    if (p.shown) notes.push(`${t("shows {cards}", { cards: p.shown })}${named ? `: ${named}` : ""}`);
    if (p.mucked) notes.push(t("mucked"));
    if (p.added) notes.push(t("+{chips} added, plays from the next hand", { chips: chips(p.added) })); // GAME-06
  }
  if (seat.status === "sitting_out") notes.push(t("sitting out"));
  if (seat.missed_blind) notes.push(missedBlindNote(seat.missed_blind));
  if (seat.waiting) notes.push(waitingNote(seat.waiting));
  if (seat.false_opener) notes.push(FALSE_OPENER_NOTE);
  if (seat.new_player) notes.push(t("new player"));
  return notes;
}

// The seat map: where each seat's tile goes around the oval table, as at a real table seen
// from above with the dealer at the bottom: seat 1 on the dealer's left (bottom left), then
// clockwise up the left side, across the top and down the right side, the last seat on the
// dealer's right. A 10-column grid, a tile two columns wide; the rows are 1 (top) to
// sides + 2 (the dealer's row). Answers {row, col} per seat index, and the grid's rows.
export function seatSlots(count) {
  const sides = count >= 8 ? 2 : 1; // the most tiles a side holds
  const bottom = Math.min(count, 2); // seat 1 and the last seat, either side of the dealer
  const rest = count - bottom;
  const left = Math.min(sides, Math.ceil(rest / 2));
  const right = Math.min(sides, Math.floor(rest / 2));
  const top = rest - left - right;
  const last = sides + 2;
  const slots = [];
  if (count >= 1) slots.push({ row: last, col: 2 });
  for (let i = 0; i < left; i += 1) slots.push({ row: last - 1 - i, col: 1 });
  const start = 1 + (10 - 2 * top) / 2;
  for (let i = 0; i < top; i += 1) slots.push({ row: 1, col: start + 2 * i });
  for (let i = 0; i < right; i += 1) slots.push({ row: last - right + i, col: 9 });
  if (count >= 2) slots.push({ row: last, col: 8 });
  return { slots, rows: last };
}

// options.onSeat(seatNo): a seat can be tapped (the tablet: an occupied seat's seat changes;
// with options.onEmpty(seatNo) an empty seat seats a player); options.selected: the seat
// number to mark as chosen.
export function renderSeats(table, options = {}) {
  const list = clear($("seats"));
  const { onSeat, onEmpty, selected } = options;
  const { slots, rows } = seatSlots(table.seats.length);
  // the tablet's seat map (the list's box) draws the table's felt, the pot and the dealer
  const map = list.parentElement;
  map.style.setProperty("--rows", String(rows));
  map.dataset.pot = table.hand && table.hand.phase !== "complete" ? t("Pot {chips}", { chips: chips(table.hand.total_pot) }) : "";
  const hand = table.hand && table.hand.phase !== "complete" ? table.hand : null;
  const players = new Map((hand ? hand.players : []).map((p) => [p.seat, p]));
  const toAct = table.next ? table.next.seat : null;
  table.seats.forEach((seat, index) => {
    const p = players.get(seat.seat);
    const slot = slots[index];
    const classes = ["seat", `status-${seat.status}`];
    if (seat.seat === toAct) classes.push("to-act");
    if (p && p.folded) classes.push("folded");
    const empty = seat.status === "empty";
    const pickable = Boolean(empty ? onEmpty : onSeat);
    const pick = empty ? onEmpty : onSeat;
    if (pickable) classes.push("pickable");
    if (pickable && seat.seat === selected) classes.push("selected");
    const badges = [];
    // the badges' short words as the room writes them (SB/BB: CP/CG in Spanish, PB/GB in French)
    if (seat.seat === buttonSeat(table)) badges.push(el("span", { class: "badge button", text: t("D"), title: t("Button") }));
    if (hand && seat.seat === hand.small_blind_seat) badges.push(el("span", { class: "badge", text: t("SB"), title: t("small blind") }));
    if (hand && seat.seat === hand.big_blind_seat) badges.push(el("span", { class: "badge", text: t("BB"), title: t("big blind") }));
    if (hand && seat.seat === hand.kill_seat) badges.push(el("span", { class: "badge kill", text: t("KILL") }));
    if (hand && seat.seat === hand.straddle_seat) badges.push(el("span", { class: "badge straddle", text: t("STRADDLE") }));
    if (table.kill_leg && seat.seat === table.kill_leg.seat) {
      badges.push(el("span", { class: "badge leg", text: table.kill_leg.kills_next ? t("KILLS NEXT") : t("LEG UP") }));
    }
    if (seat.seat === toAct) badges.push(el("span", { class: "badge act", text: t("TO ACT") }));
    if (seat.status === "sitting_out") badges.push(el("span", { class: "badge out", text: t("OUT") }));
    const notes = seatNotes(seat, p, hand, table.shown_as || {});
    const bet = p && p.bet ? el("span", { class: "bet", text: t("bet {chips}", { chips: chips(p.bet) }) }) : null;
    // the tile's name for a screen reader: seat, player, stack, bet and turn
    const name = [t("Seat {seat}", { seat: seat.seat }), seat.player || t("empty"),
      seat.status !== "empty" ? t("stack {chips}", { chips: chips(seat.stack) }) : null, p && p.bet ? t("bet {chips}", { chips: chips(p.bet) }) : null,
      seat.seat === toAct ? t("to act") : null, ...notes].filter(Boolean).join(", ");
    // a tap anywhere on the tile picks it; its content is the button for the keyboard and
    // a screen reader (the list item keeps its role). The button's name is its visible text
    // ("4 TO ACT Dee 100": what a speech user reads out, WCAG 2.5.3), its description the
    // tile in words (seat, player, stack, bet, turn, notes) and what a tap does.
    const described = `seat-about-${seat.seat}`;
    const picking = pickable ? {
      role: "button", tabindex: "0", "aria-describedby": described,
      onkeydown: (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(seat.seat); }
      },
    } : {};
    const item = el("li", { class: classes.join(" "), "aria-label": pickable ? undefined : name,
      onclick: pickable ? () => pick(seat.seat) : undefined },
    pickable ? el("span", { id: described, hidden: true, text: `${name}. ${empty ? t("Seat a player") : t("Seat changes")}` }) : null,
    el("div", { class: "seat-tap", ...picking },
      el("div", { class: "seat-head" }, el("span", { class: "seat-no", text: String(seat.seat) }), badges),
      el("div", { class: "player", text: seat.player || t("empty") }),
      seat.status !== "empty" ? el("div", { class: "stack", text: chips(seat.stack) }) : null,
      bet,
      notes.length ? el("div", { class: "notes", text: notes.join(" · ") }) : null));
    if (slot) { item.style.setProperty("--row", String(slot.row)); item.style.setProperty("--col", String(slot.col)); }
    list.append(item);
  });
}

export function renderInstructions(table) {
  const list = clear($("instructions"));
  for (const step of table.instructions || []) {
    list.append(el("li", { class: `instr code-${step.code}`, text: step.text }));
  }
  if (!list.firstChild) list.append(el("li", { class: "instr none", text: t("No instructions.") }));
}

export function renderResult(table) {
  const box = clear($("result"));
  const result = table.result;
  if (!result || !table.hand || table.hand.phase !== "complete") { box.hidden = true; return; }
  box.append(el("h2", { text: t("Hand #{hand} result", { hand: table.hand.hand_no }) }));
  if (result.misdeal) box.append(el("p", { class: "big-text", text: t("Misdeal: the hand is cancelled, chips returned.") }));
  if (result.chopped) { // SHOW-08: the blinds agreed to take their blinds back
    const back = Object.entries(result.chopped).map(([s, c]) => `${t("seat {seat}", { seat: s })}: ${chips(c)}`).join(", ");
    box.append(el("p", { class: "big-text", text: t("Chopped: the blinds took their blinds back ({back}); no pot.", { back }) }));
  }
  (result.pots || []).forEach((pot, i) => {
    const shares = Object.entries(pot.shares || {}).map(([seat, n]) => t("seat {seat} gets {chips}", { seat, chips: chips(n) })).join(", ");
    box.append(el("p", { class: "big-text" },
      `${i === 0 ? t("Main pot") : t("Side pot {n}", { n: i })} ${chips(pot.amount)}: `,
      el("strong", { text: shares || t("winners {seats}", { seats: (pot.winners || []).join(", ") }) }),
      pot.odd_chip ? ` ${t("(odd chip to seat {seat})", { seat: pot.odd_chip })}` : ""));
  });
  const returned = Object.entries(result.returned || {});
  const back = returned.map(([s, c]) => `${t("seat {seat}", { seat: s })} ${chips(c)}`).join(", ");
  if (returned.length) box.append(el("p", { text: t("Returned: {back}", { back }) }));
  box.hidden = false;
}

export function renderTable(table, options = {}) {
  renderSummary(table);
  renderSeats(table, options);
  renderInstructions(table);
  renderResult(table);
}

// Whether two answers show the same state of the table (a change's answer is the table plus
// its audit event and notices).
export function sameState(a, b) {
  if (!a || !b) return false;
  const state = ({ event, notices, ...table }) => JSON.stringify(table);
  return state(a) === state(b);
}

// Polls the table; onTable(table) after each change. reload() fetches now.
export class TablePoller {
  constructor(onTable, intervalMs = 1500) {
    this.onTable = onTable;
    this.intervalMs = intervalMs;
    this.etag = null;
    this.table = null;
    this.timer = null;
    this.busy = false;
  }

  start() {
    this.reload();
    this.timer = setInterval(() => this.poll(), this.intervalMs);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.poll(); });
  }

  async reload() {
    this.etag = null;
    await this.poll(true);
  }

  async poll(force = false) {
    if (this.busy && !force) return;
    if (document.hidden && !force) return;
    this.busy = true;
    try {
      const headers = this.etag ? { "If-None-Match": this.etag } : {};
      const asked = session.table;
      const answer = await call("table", { params: { table_id: asked }, headers });
      if (this.onReach) this.onReach(answer.status !== 0); // the tablet's offline indicator
      const status = $("poll-status");
      if (answer.status === 304) {
        if (status) status.textContent = `${t("Up to date (v{version})", { version: this.table ? this.table.version : "?" })} · ${new Date().toLocaleTimeString(locale)}`;
        return;
      }
      if (answer.status === 401) { this.stop(); tokenRefused(answer.problem, answer.status); return; }
      if (!answer.ok) {
        const why = answer.status || t("offline"); // a t() within t()'s arguments is not extracted
        if (status) status.textContent = t("Cannot load the table ({status})", { status: why });
        if (force || !this.table) showProblem(answer.problem, answer.status);
        return;
      }
      if (this.overtaken(asked, answer.body)) return;
      // the same state again (a poll sent just before an entry and answered after it): the
      // page is not redrawn, so a field being typed in or a button under the finger stays
      if (!sameState(answer.body, this.table)) this.show(answer.body, answer.etag);
      if (status) status.textContent = `${t("Up to date (v{version})", { version: answer.body.version })} · ${new Date().toLocaleTimeString(locale)}`;
    } finally {
      this.busy = false;
    }
  }

  // A poll's answer that came after a newer state was drawn (the poll was sent before an
  // entry and answered after the entry's own answer), or for a table no longer shown (the
  // floor opened another one meanwhile), is not drawn: it would bring an old state back, and
  // with it a new 400 ms hold of the tablet's buttons.
  overtaken(asked, table) {
    if (asked !== session.table) return true;
    const shown = this.table;
    return Boolean(shown && shown.table_id === table.table_id && table.version < shown.version);
  }

  // A change's answer carries the new table: show it without waiting for the next poll.
  show(table, etag) {
    this.table = table;
    this.etag = etag || `"v${table.version}"`;
    this.onTable(table);
  }

  stop() {
    clearInterval(this.timer);
  }
}
