// dealerassist dealer tablet: the table, the dealing instructions, and the legal actions of
// the seat to act as big buttons (Chop when the blinds may chop, SHOW-08); starting a hand
// (with a voluntary kill where the table's profile has optional kills, KILL-01); a card the
// dealer exposed (IRREG-03 on the deal, IRREG-04 on the draw); seating and the between-hands
// seat changes. Every entry goes through change() with If-Match and a fresh Idempotency-Key;
// a refusal is shown with its rule ID.
import { call, newKey, serverClock, session } from "./api.js";
import { chips, locale, t } from "./i18n.js";
import { $, append, clear, describeAction, el, setupLogin, showMessage, showProblem, tokenRefused } from "./ui.js";
import { startTablet } from "./shift.js";
import { FALSE_OPENER_NOTE, TablePoller, missedBlindNote, owedWords, renderTable, waitingNote } from "./table_view.js";
import { handPots } from "./pots.js";
import { CARD_FORMS, readCards, renderPicker } from "./card_picker.js";

const poller = new TablePoller(render);
let sending = false;
let lastRefused = null; // the entry of the last 409, for the banner's "Send this entry to the floor"
// The entry this tablet made last and the version it produced: "Undo" is offered while the
// table is still at that version (nothing entered since), as the dealer's own correction.
let lastEntry = null;

// In the page's language (i18n.js has its catalog before this module runs): the room's words.
const LABELS = {
  check: t("Check"), call: t("Call"), fold: t("Fold"), bet: t("Bet"), raise: t("Raise to"), post: t("Post"),
  sit_out: t("Sits out"), draw: t("Draw"), time: t("Time (declare pat)"), show: t("Show"), muck: t("Muck"),
  deal: t("Dealt"), chop: t("Chop (both blinds agree)"),
};
// The desktop keyboard's shortcuts for the acting seat's buttons (a draw's count: its digit,
// 0 pat) and Undo; shown on each button as a hint (CSS, a fine pointer only).
export const KEYS = {
  fold: "F", check: "C", call: "C", bet: "B", raise: "R", post: "P", time: "T", show: "S",
  muck: "M", deal: "D", undo: "U",
};
const OPTION_LABELS = {
  wait: t("Wait for the big blind"),
  straddle: t("Straddle"),
  no_straddle: t("No straddle"),
  big_blind_only: t("Big blind only (button skips him)"), // BLIND-06 buy_button (WSOP 158)
};

// The seat changes the tablet offers (the "seatChange" route's "change" kinds) and the body
// fields each may carry; tests/api/test_web.py checks both against the API's schema.
const SEAT_CHANGES = {
  sit_out: { fields: [] },
  return: { fields: ["wait"] },
  change_seat: { fields: ["to"] },
  add_chips: { fields: ["chips"] },
};
const SEAT_STATUS = { active: t("active"), sitting_out: t("sitting out"), empty: t("empty") };
let changeSeat = null; // the seat chosen in the seat-changes panel
// KILL-01: each profile's kill.mode ("off", "optional", "required"), read once per profile
// through the "profile" route (null while it is asked); "kill by seat" is offered only for
// "optional" (a required kill is the table's to decide, KILL-02).
const killModes = new Map();

// The version a refusal was shown at: once the table has moved on, it no longer applies.
let problemVersion = null;
function refused(problem, status, extra) {
  showProblem(problem, status, extra);
  problemVersion = poller.table ? poller.table.version : null;
}

function render(table) {
  if (!refusalRestored) restoreRefusal(table);
  if (problemVersion !== null && table.version !== problemVersion) {
    showProblem(null);
    problemVersion = null;
  }
  // the seat chosen for seat changes is marked only while that panel is open
  renderTable(table, { onSeat: pickSeat, onEmpty: seatAt, selected: $("changes-panel").open ? changeSeat : null });
  renderKeptInstructions(table);
  renderPots(table);
  renderSessionClock(table);
  renderActions(table);
  // a new version, or new buttons at the same version (the draw timer's "time")
  settle(`${table.version}|${table.next ? table.next.legal.map((l) => l.action).join() : ""}`);
  renderExposed(table);
  renderExtra(table);
  renderStart(table);
  renderChanges(table);
}

// -- card mode: the card fields of the action area and their picker ---------------------------

// The cards this tablet entered in the hand (its own deal, draw and show entries): which
// seat holds which, and what was shown; the picker greys out what is in play and offers a
// seat only its own cards for its discards and its show.
let known = { hand: null, held: {}, shown: [] };

export function learnEntry(before, handNo, entry) {
  const base = before.hand === handNo ? before : { hand: handNo, held: {}, shown: [] };
  const held = { ...base.held };
  const mine = held[entry.seat] || [];
  const cards = readCards(entry.cards).cards;
  if (entry.action === "deal" && cards.length) held[entry.seat] = [...mine, ...cards];
  if (entry.action === "draw" && entry.discards) {
    const out = new Set(readCards(entry.discards).cards);
    held[entry.seat] = mine.filter((c) => !out.has(c));
  }
  const shown = entry.action === "show" && cards.length ? [...base.shown, ...cards] : base.shown;
  return { hand: handNo, held, shown };
}

// Whether the picker offers ``card`` for the field: a deal never offers a card in play; a
// seat's discards or show offer its own cards when the tablet knows all five.
export function offeredCard(knownCards, purpose, seat, card) {
  const own = knownCards.held[seat] || [];
  if ((purpose === "discards" || purpose === "show") && own.length >= 5) return own.includes(card);
  const others = Object.entries(knownCards.held).filter(([s]) => Number(s) !== seat).flatMap(([, c]) => c);
  if (knownCards.shown.includes(card) || others.includes(card)) return false;
  return purpose !== "deal" || !own.includes(card);
}

let cardFields = []; // {input, seat, purpose, submit} of the action area now
let activeField = null; // the id of the field the picker serves

function cardsInput(id, placeholder, { seat = null, purpose = "deal", label = t("Cards") } = {}) {
  const input = el("input", {
    type: "text", id, class: "cards", placeholder, spellcheck: "false", autocomplete: "off",
    autocapitalize: "off", "aria-label": label, enterkeyhint: "done",
  });
  const field = { input, seat, purpose, submit: null };
  input.addEventListener("focus", () => { if (activeField !== id) { activeField = id; drawPicker(); } });
  input.addEventListener("keydown", (event) => { // Enter sends the entry the field is for
    if (event.key === "Enter" && field.submit) { event.preventDefault(); field.submit(); }
  });
  input.addEventListener("input", () => drawPicker());
  cardFields.push(field);
  return input;
}

function fieldOf(input) {
  return cardFields.find((f) => f.input === input);
}

// The field's cards as the engine reads them, or undefined after saying which card is not
// one (nothing is sent).
function cardsValue(input, what) {
  const { cards, bad } = readCards(input.value);
  if (bad.length) {
    refused({ title: t("\"{card}\" is not a card", { card: bad[0] }), detail: t("{what}: write each card as {forms}.", { what, forms: CARD_FORMS }) });
    input.focus();
    return undefined;
  }
  return cards.join(" ");
}

function drawPicker() {
  const box = $("picker");
  if (!box) return;
  const field = cardFields.find((f) => f.input.id === activeField) || cardFields[0];
  if (!field) { box.hidden = true; return; }
  activeField = field.input.id;
  for (const f of cardFields) f.input.classList.toggle("picking", f === field);
  renderPicker(box, field.input, {
    offered: (card) => offeredCard(known, field.purpose, field.seat, card),
    onChange: () => drawPicker(),
  });
}

function setupPicker(table) {
  if (!cardFields.length) return; // count mode too: the cards of a show
  const handNo = table.hand ? table.hand.hand_no : null;
  if (known.hand !== handNo) known = { hand: handNo, held: {}, shown: [] };
  for (const f of cardFields) { // a show: the cards this tablet dealt the seat, to confirm
    const own = known.held[f.seat] || [];
    if (f.purpose === "show" && !f.input.value && own.length === 5) f.input.value = own.join(" ");
  }
  $("actions").append(el("div", { id: "picker", class: "picker" }));
  drawPicker();
  const field = cardFields.find((f) => f.input.id === activeField);
  if (field && globalThis.matchMedia && matchMedia("(pointer: fine)").matches
      && !document.querySelector("dialog[open]")) field.input.focus({ preventScroll: true });
}

// A double tap must record one entry: the second tap of a double tap lands ~200 ms later on
// whatever button the accepted entry redrew under the finger (the next seat's). After every
// new state of the table the action buttons ignore taps until it has been on screen for
// SETTLE_MS (counted from the frame that painted it); each button also names its seat.
export const SETTLE_MS = 400;

export class TapGuard {
  constructor(settleMs = SETTLE_MS, now = () => performance.now()) {
    this.settleMs = settleMs;
    this.now = now;
    this.until = 0;
    this.shown = null; // the table version the action buttons were last drawn for
  }

  // A new table version is drawn: taps wait until it has been seen. The same version drawn
  // again (a profile read, a seat picked) does not hold the buttons.
  drawn(version, paintedAt = this.now()) {
    if (version === this.shown) return false;
    this.shown = version;
    this.until = paintedAt + this.settleMs;
    return true;
  }

  accepts(at = this.now()) {
    return at >= this.until;
  }
}

const tapGuard = new TapGuard();

function settle(version) {
  if (!tapGuard.drawn(version)) return;
  $("actions").classList.add("settling");
  // the guard runs from the frame that shows the new buttons, not from the script's render
  requestAnimationFrame(() => {
    tapGuard.until = performance.now() + tapGuard.settleMs;
    liftWhenSettled();
  });
}

// The buttons look held exactly as long as the guard holds them: one timer, re-armed for the
// newest state. (Each state had its own timer: a state drawn less than 400 ms after the one
// before lost its dimmed look with the earlier state's timer, and a tap that then looked
// welcome was dropped.)
let settleTimer = null;
function liftWhenSettled() {
  clearTimeout(settleTimer);
  const left = tapGuard.until - performance.now();
  if (left > 0) settleTimer = setTimeout(liftWhenSettled, left);
  else $("actions").classList.remove("settling");
}

// A tap the hold turns away is said so in the message slot, never dropped unseen: the
// dealer taps again once the buttons have settled (a double tap's second tap reads the same,
// after the first tap's "Recorded").
let recorded = null; // {text, version}: the "Recorded" message of the entry just made
function heldTap(button) {
  const before = recorded && poller.table && recorded.version === poller.table.version ? `${recorded.text} ` : "";
  showMessage(`${before}${t("Not entered: \"{button}\" was tapped as the buttons changed; tap again if you meant it.", { button: button.textContent })}`);
}

// "Seat 5 · Call 10": the seat's part and the action's part as spans (the tests find a button
// by its action part); a tap while the guard holds is ignored.
// key: its keyboard shortcut (KEYS), for the acting seat's buttons only (not a DRAW-07 pat
// change's, drawn while `keying` is false).
let keying = true;
function actionButton(text, classes, onclick, seat, key = null) {
  const guarded = (event) => {
    if (!tapGuard.accepts()) { event.preventDefault(); heldTap(event.currentTarget); return; }
    onclick(event);
  };
  const keyed = key && keying ? { "data-key": key, "aria-keyshortcuts": key } : {};
  return el("button", { type: "button", class: `act ${classes}`, onclick: guarded, ...keyed },
    seat !== undefined && seat !== null ? el("span", { class: "act-seat", text: `${t("Seat {seat}", { seat })} · ` }) : null,
    el("span", { class: "act-label", text }));
}

function renderActions(table) {
  const box = clear($("actions"));
  const who = clear($("to-act"));
  cardFields = [];
  const next = table.next;
  if (!next) { renderUndo(table); return; }
  const seat = table.seats.find((s) => s.seat === next.seat);
  const showing = next.phase === "showdown";
  append(who, el("span", { class: "label", text: showing ? t("Shows or mucks next") : t("Seat to act") }),
    el("span", { class: "to-act-seat", text: t("Seat {seat}", { seat: next.seat }) }),
    seat && seat.player ? el("span", { class: "to-act-player", text: seat.player }) : null);
  renderUndo(table);
  if (drawDeadline(table) !== null) who.append(el("span", { id: "draw-timer", class: "draw-timer", role: "timer" }));
  tickTimer();
  const cardMode = table.mode === "card";
  for (const legal of next.legal) {
    box.append(renderLegal(next.seat, legal, cardMode, table.hand));
  }
  const pat = table.pat_change; // DRAW-07: the last drawer's pat may still become a draw
  if (pat) {
    keying = false;
    box.append(el("div", { class: "legal group pat-change" },
      el("span", { class: "label", text: t("Seat {seat} stood pat and may still draw (DRAW-07)", { seat: pat.seat }) }),
      renderLegal(pat.seat, pat, cardMode)));
    keying = true;
  }
  setupPicker(table);
}

function renderLegal(seat, legal, cardMode, hand = null) {
  const kind = legal.action;
  const entry = { seat, action: kind };
  if (kind === "bet" || kind === "raise") {
    const input = el("input", {
      type: "number", class: "amount", min: legal.min, max: legal.max, step: 1, value: legal.min,
      inputmode: "numeric", "aria-label": t("Seat {seat}: amount ({action})", { seat, action: LABELS[kind] }),
    });
    const fixed = legal.min === legal.max;
    if (!fixed && poller.table && poller.table.structure !== "fixed_limit") {
      return amountGroup(seat, legal, hand, input, () => {
        const amount = Number(input.value);
        if (!Number.isInteger(amount) || amount < legal.min || amount > legal.max) {
          refused({ title: t("Amount out of range"), detail: t("{action} between {min} and {max}.", { action: LABELS[kind], min: chips(legal.min), max: chips(legal.max) }) });
          return;
        }
        submit({ ...entry, amount });
      });
    }
    const send = () => {
      const amount = Number(input.value);
      if (!Number.isInteger(amount) || amount < legal.min || amount > legal.max) {
        showProblem({ title: t("Amount out of range"), detail: t("{action} between {min} and {max}.", { action: LABELS[kind], min: chips(legal.min), max: chips(legal.max) }) });
        return;
      }
      submit({ ...entry, amount });
    };
    return el("div", { class: fixed ? "legal" : "legal group" },
      actionButton(fixed ? `${LABELS[kind]} ${chips(legal.min)}` : LABELS[kind], "primary", send, seat, KEYS[kind]),
      fixed ? null : el("span", { class: "range" },
        el("button", { type: "button", class: "small", text: t("min {amount}", { amount: chips(legal.min) }), onclick: () => { input.value = legal.min; } }),
        input,
        el("button", { type: "button", class: "small", text: t("max {amount}", { amount: chips(legal.max) }), onclick: () => { input.value = legal.max; } })));
  }
  if (kind === "draw") {
    const group = el("div", { class: "legal group draw" });
    const ace = legal.max_with_ace_shown !== undefined
      ? el("input", { type: "checkbox", id: "ace-shown" }) : null;
    const discards = cardMode
      ? cardsInput(seat === (poller.table && poller.table.next && poller.table.next.seat) ? "discards" : "pat-discards",
        t("discards, e.g. 7h 2c"), { seat, purpose: "discards", label: t("Seat {seat} discards", { seat }) }) : null;
    const counts = el("div", { class: "counts" });
    const drawCounts = () => {
      clear(counts);
      const most = ace && ace.checked ? legal.max_with_ace_shown : legal.max;
      for (let n = legal.min; n <= most; n += 1) {
        // DRAW-08's rap: the view names it in English; the page says it in its own words
        const text = n === 0 ? (legal.rap ? t("Pat (a rap on the table)") : t("Pat")) : t("Draws {count}", { count: n });
        counts.append(actionButton(text, n === 0 ? "pat" : "primary", () => {
          const body = { ...entry, count: n };
          if (ace && ace.checked) body.ace_shown = true;
          if (discards) {
            const value = cardsValue(discards, t("Seat {seat}'s discards", { seat }));
            if (value === undefined) return;
            if (value) body.discards = value;
          }
          submit(body);
        }, seat, n <= 9 ? String(n) : null));
      }
    };
    if (discards) { // Enter: the draw of as many cards as the discards entered
      fieldOf(discards).submit = () => {
        const n = readCards(discards.value).cards.length;
        const button = [...counts.querySelectorAll("button.act")][n - legal.min];
        if (button) button.click();
      };
    }
    if (ace) ace.addEventListener("change", drawCounts);
    drawCounts();
    group.append(counts);
    if (ace) group.append(el("label", { class: "check" }, ace, ` ${t("Ace shown (up to {count})", { count: legal.max_with_ace_shown })}`));
    if (discards) group.append(el("label", { class: "block" }, `${t("Discards")} `, discards));
    return group;
  }
  if (kind === "show") {
    const cards = cardsInput("show-cards", t("cards shown, e.g. 7h 5s 4d 3c 2d"),
      { seat, purpose: "show", label: t("Seat {seat} shows", { seat }) });
    const send = () => {
      const body = { ...entry };
      const value = cardsValue(cards, t("Seat {seat}'s shown cards", { seat }));
      if (value === undefined) return;
      if (value) body.cards = value;
      submit(body);
    };
    fieldOf(cards).submit = send;
    return el("div", { class: "legal group" }, cards, // the cards first, then Show
      actionButton(LABELS.show, "primary", send, seat, KEYS.show));
  }
  if (kind === "deal") {
    const cards = cardMode ? cardsInput("deal-cards", t("the {count} cards dealt", { count: legal.count }),
      { seat, purpose: "deal", label: t("Seat {seat} is dealt {count}", { seat, count: legal.count }) }) : null;
    const send = () => {
      const body = { ...entry, count: legal.count };
      if (cards) {
        const value = cardsValue(cards, t("The cards dealt to seat {seat}", { seat }));
        if (value === undefined) return;
        if (value) body.cards = value;
      }
      submit(body);
    };
    if (cards) fieldOf(cards).submit = send;
    return el("div", { class: "legal group" }, cards, // the cards first, then the entry
      actionButton(t("Dealt {count} cards", { count: legal.count }), "primary", send, seat, KEYS.deal));
  }
  if (kind === "post") {
    let text = legal.option ? OPTION_LABELS[legal.option] || legal.option : LABELS.post;
    if (legal.amount !== undefined) text += ` ${chips(legal.amount)}`;
    if (legal.owes && legal.owes.length) text += ` (${legal.owes.map(owedWords).join(", ")})`;
    const body = { ...entry };
    if (legal.option) body.option = legal.option;
    if (legal.amount !== undefined && legal.option !== "wait") body.amount = legal.amount;
    return el("div", { class: "legal" }, actionButton(text, "primary", () => submit(body), seat, legal.option ? null : KEYS.post));
  }
  if (kind === "chop") { // SHOW-08: folded to the blinds; entered only when both blinds agree
    const back = Object.entries(legal.returns || {}).map(([s, n]) => t("seat {seat} gets {chips}", { seat: s, chips: chips(n) })).join(", ");
    return el("div", { class: "legal group chop" },
      actionButton(LABELS.chop, "primary", () => submit(entry), seat),
      el("span", { class: "hint", text: back ? `${legal.text}. ${t("Back: {back}.", { back })}` : legal.text }));
  }
  if (kind === "call") {
    const player = hand && (hand.players || []).find((p) => p.seat === seat);
    const allIn = player && legal.amount >= player.stack;
    return el("div", { class: "legal" }, actionButton(`${LABELS.call} ${chips(legal.amount)}${allIn ? ` · ${t("all in")}` : ""}`, "primary", () => submit(entry), seat, KEYS.call));
  }
  const danger = kind === "fold" || kind === "muck" || kind === "sit_out";
  return el("div", { class: "legal" },
    actionButton(LABELS[kind] || kind, danger ? "danger" : "primary", () => submit(entry), seat, KEYS[kind]));
}

// -- no-limit and pot-limit amounts -----------------------------------------------------------

// The quick amounts for a bet or a raise ("raise to": the seat's whole bet), as the
// structure allows: the minimum, half the pot, the pot (a raise: the call, then the pot
// after the call) and all in, each within [min, max]; the same amount once only.
export function quickAmounts(legal, hand, seat) {
  const player = hand && (hand.players || []).find((p) => p.seat === seat);
  const current = (hand && hand.current_bet) || 0;
  const mine = player ? player.bet : 0;
  const toCall = Math.max(0, current - mine);
  const pot = ((hand && hand.total_pot) || 0) + toCall;
  const clamp = (n) => Math.min(legal.max, Math.max(legal.min, Math.floor(n)));
  const allIn = player ? player.stack + mine : null;
  const out = [[t("Min"), legal.min]];
  if (legal.action === "bet" || current === 0) {
    out.push([t("½ Pot"), clamp(pot / 2)], [t("Pot"), clamp(pot)]);
  } else {
    out.push([t("½ Pot"), clamp(current + pot / 2)], [t("Pot"), clamp(current + pot)]);
  }
  if (allIn !== null && allIn <= legal.max) out.push([t("All in"), allIn]);
  else out.push([t("Max"), legal.max]);
  const seen = new Set();
  return out.filter(([, amount]) => !seen.has(amount) && seen.add(amount));
}

function amountGroup(seat, legal, hand, input, send) {
  const kind = legal.action;
  const player = hand && (hand.players || []).find((p) => p.seat === seat);
  const allIn = player ? player.stack + player.bet : null;
  const main = actionButton("", "primary", send, seat, KEYS[kind]);
  const label = main.querySelector(".act-label");
  const show = () => {
    const amount = Number(input.value);
    label.textContent = `${LABELS[kind]} ${Number.isFinite(amount) ? chips(amount) : ""}${amount === allIn ? ` · ${t("all in")}` : ""}`;
  };
  input.addEventListener("input", show);
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); send(); } });
  show();
  const quick = el("div", { class: "quick" }, quickAmounts(legal, hand, seat).map(([text, amount]) =>
    el("button", { type: "button", class: "small quick-amount", text: `${text} ${chips(amount)}`,
      onclick: () => { input.value = amount; show(); } })));
  return el("div", { class: "legal group amounts" }, main, input, quick);
}

// -- instructions stay until done ------------------------------------------------------------

// An entry's answer carries only the instructions of that entry: the deal list, the
// reshuffle or "push 50" would vanish at the next entry though not yet done. The tablet
// keeps every instruction of the hand's current phase (the hand's last phase once it is
// over, until the next hand starts), the newest first in bold, the earlier ones under them.
let kept = { key: null, version: null, steps: [] };

export function keepInstructions(before, table) {
  const hand = table.hand;
  const key = hand ? `${hand.hand_no}|${hand.phase}` : "between";
  const now = table.instructions || [];
  if (before.key !== key) return { key, version: table.version, steps: now.map((s) => ({ ...s, current: true })) };
  if (before.version === table.version) return before;
  const texts = new Set(now.map((s) => s.text));
  const earlier = before.steps.filter((s) => !texts.has(s.text)).map((s) => ({ ...s, current: false }));
  return { key, version: table.version, steps: [...now.map((s) => ({ ...s, current: true })), ...earlier] };
}

function renderKeptInstructions(table) {
  kept = keepInstructions(kept, table);
  const list = clear($("instructions"));
  for (const step of kept.steps) {
    list.append(el("li", { class: `instr code-${step.code}${step.current ? "" : " earlier"}`, text: step.text }));
  }
  if (!list.firstChild) list.append(el("li", { class: "instr none", text: t("No instructions.") }));
}

// -- the pots while the hand is played (SHOW-07): amounts and the seats eligible ------------

export function potsText(hand) {
  const pots = handPots(hand);
  if (pots.length < 2 && !(hand && String(hand.phase) === "showdown")) return "";
  return pots.map((pot, i) => t("{pot} {amount}: seats {seats}", {
    pot: i === 0 ? t("Main pot") : t("Side pot {n}", { n: i }), amount: chips(pot.amount), seats: pot.eligible.join(", "),
  })).join(" · ");
}

function renderPots(table) {
  const box = $("table-summary");
  const hand = table.hand && table.hand.phase !== "complete" ? table.hand : null;
  const text = hand ? potsText(hand) : "";
  if (text) box.append(el("p", { class: "pots-line", id: "pots-line", text }));
}

// -- undo: the dealer takes back the entry just made, before the next ---------------------

function renderUndo(table) {
  const who = $("to-act");
  const stale = !lastEntry || lastEntry.version !== table.version
    || !table.hand || table.hand.phase === "complete";
  if (stale) return;
  who.append(el("button", {
    type: "button", class: "undo", id: "undo",
    text: t("Undo: {entry}", { entry: entryText(lastEntry.entry) }),
    "data-key": KEYS.undo, "aria-keyshortcuts": KEYS.undo,
    onclick: (event) => {
      if (tapGuard.accepts()) undoLast();
      else { event.preventDefault(); heldTap(event.currentTarget); }
    },
  }));
}

// "Seat 5 · Call" for the entry {seat: 5, action: "call"}; the amount or count if any.
export function entryText(entry) {
  const words = { draw: entry.count === 0 ? t("Pat") : t("Draws {count}", { count: entry.count }), post: LABELS.post, time: t("Time") };
  let text = words[entry.action] || (LABELS[entry.action] || entry.action).replace(/ \(.*\)$/, "");
  if (entry.amount !== undefined && entry.action !== "draw") text += ` ${chips(entry.amount)}`;
  return `${t("Seat {seat}", { seat: entry.seat })} · ${text}`;
}

async function undoLast() {
  const taken = lastEntry;
  const answer = await change("undo", { body: { note: "wrong tap" } });
  if (answer && answer.ok) {
    lastEntry = null;
    showMessage(t("Taken back: {entry}. Enter the right action.", { entry: entryText(taken.entry) }));
    render(poller.table);
  } else if (answer && (answer.status === 409 || answer.status === 412)) {
    lastEntry = null;
    offerFloorUndo(taken);
  }
}

// Past the dealer's own correction (something was entered since, or the hand is over): the
// floor decides (void_last is among its options); the call names the entry and its audit seq.
function offerFloorUndo(taken) {
  offer(el("button", {
    type: "button", class: "primary", text: t("Call the floor to take it back"),
    onclick: async (event) => {
      event.target.disabled = true;
      const audit = taken.seq ? ` (${t("audit #{seq}", { seq: taken.seq })})` : "";
      const body = {
        rule_id: "IRREG-15", seat: taken.entry.seat,
        note: t("Undo requested: {entry}{audit} was a wrong entry", { entry: entryText(taken.entry), audit }),
      };
      const answer = await call("floorCall", { params: { table_id: session.table }, body });
      if (answer.ok) showProblem(null);
      calledFloor(answer, t("take back {entry}", { entry: entryText(taken.entry) }));
    },
  }));
}

// An offer of the banner (send again, the floor): the last of its buttons, after Dismiss,
// so it is the one at the slot's bottom right, where the "Recorded"/"Floor called" message
// shows once the banner is gone (a second tap of a double tap lands on that message)
function offer(button) {
  const box = $("problem");
  (box.querySelector(".problem-actions") || box).append(button);
}

// -- the draw timer (DRAW-11) ------------------------------------------------------------------

// The deadline (ms, service clock) of the seat to draw, or null: set only where the profile
// has a draw timer, while a draw is in progress.
export function drawDeadline(table) {
  const hand = table && table.hand;
  if (!hand || !hand.draw_deadline || !String(hand.phase || "").startsWith("draw")) return null;
  const at = Date.parse(hand.draw_deadline);
  return Number.isFinite(at) ? at : null;
}

// "0:07" for 7 s left (rounded up); "0:00" once it has run out.
export function countdown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The answer's ETag is the table's version, which the deadline passing does not change (the
// polls get 304): from half a second before the deadline the tablet asks for the table
// outright, twice a second, until "time" is among the legal actions (for 20 s at most).
let timerAsked = 0;
function tickTimer() {
  const table = poller.table;
  const deadline = drawDeadline(table);
  const shown = $("draw-timer");
  if (deadline === null) return;
  const left = deadline - serverClock.now();
  if (shown) {
    shown.textContent = left > 0 ? t("Draw timer {time}", { time: countdown(left) }) : t("Time is up: the seat may be declared pat");
    shown.classList.toggle("late", left <= 5000);
  }
  const timeOffered = table.next && table.next.legal.some((l) => l.action === "time");
  const now = Date.now();
  if (!timeOffered && left <= 500 && left > -20000 && now - timerAsked >= 500 && !poller.busy && !sending) {
    timerAsked = now;
    poller.reload();
  }
}

// -- a card the dealer exposed (IRREG-03 on the initial deal, IRREG-04 on the draw) ---------

// The seats whose exposed card the dealer may enter, as [value, text] options: the seats the
// view offers while the deal lasts (view.exposed), and in a draw the seats served in it so
// far (dealt cards in this draw: the seat being served is one of them). The engine has the
// last word on the seat (409).
export function exposedSeats(table) {
  let seats = [];
  if (table.exposed) seats = table.exposed.seats || []; // IRREG-03: the initial deal
  else if (table.exposed_draw && table.exposed_draw.seat != null) seats = [table.exposed_draw.seat]; // IRREG-04: the seat just dealt
  const players = new Map((table.seats || []).map((s) => [s.seat, s.player]));
  return seats.map((seat) => [String(seat), seatText(seat, players.get(seat))]);
}

// "Seat 3 · Dee", or "Seat 3" without a player.
function seatText(seat, player) {
  return player ? `${t("Seat {seat}", { seat })} · ${player}` : t("Seat {seat}", { seat });
}

// The exposed entry from the fields shown: the rank (count mode) or the card (card mode) as
// typed, trimmed; blank is left out (the engine says what it needs). Never a keep or
// replace: the house decides, the player never chooses (IRREG-03).
export function exposedBody({ seat = "", value = "" } = {}, mode = "count") {
  const body = { seat: Number(seat), action: "exposed" };
  const text = String(value).trim();
  if (text) body[mode === "card" ? "cards" : "rank"] = text;
  return body;
}

const DRAW_TEXT = { to_discards: t("it goes to the seat's discards"), becomes_next_burn: t("it is the next burn") };
const KEEP_TEXT = { any: t("this house keeps every exposed card"), none: t("this house replaces every exposed card") };

// (each t() on its own: Babel's extractor does not see a t() within another t()'s arguments)
function keepText(ranks) {
  return KEEP_TEXT[ranks] || t("this house keeps only {ranks}", { ranks: String(ranks).split("").join(", ") });
}
function drawText(exposed) {
  return DRAW_TEXT[exposed && exposed.disposition] || t("the house decides where it goes");
}

function renderExposed(table) {
  const options = exposedSeats(table);
  const panel = $("exposed-panel");
  panel.hidden = !options.length;
  if (panel.hidden) return;
  const select = $("exposed-seat");
  const keep = options.some(([value]) => value === select.value) ? select.value : options[0][0];
  fillSelect(select, options, keep);
  const cardMode = table.mode === "card";
  $("exposed-rank-field").hidden = cardMode;
  $("exposed-card-field").hidden = !cardMode;
  const ranks = table.exposed ? table.exposed.keep_ranks : null;
  $("exposed-hint").textContent = table.exposed
    ? t("IRREG-03: {keep}; the player never chooses.", { keep: keepText(ranks) })
    : t("IRREG-04: a card exposed on the draw is not taken ({where}); the seat gets its replacement after the other seats.", { where: drawText(table.exposed_draw) });
}

async function sendExposed() {
  const cardMode = poller.table && poller.table.mode === "card";
  const input = $(cardMode ? "exposed-card" : "exposed-rank");
  const body = exposedBody({ seat: $("exposed-seat").value, value: input.value }, cardMode ? "card" : "count");
  if (!body.seat) { showProblem({ title: t("Which seat?"), detail: t("Choose the seat whose card was exposed.") }); return; }
  const answer = await submit(body); // instructions (keep / replace), notices (IRREG-01) or the refusal
  if (answer && answer.ok) input.value = "";
}

// -- an extra card dealt on the initial deal (IRREG-06) ---------------------------------------

// The seats the view's extra_card entry offers (while the deal lasts), as [value, text].
export function extraSeats(table) {
  const seats = (table.extra_card && table.extra_card.seats) || [];
  const players = new Map((table.seats || []).map((s) => [s.seat, s.player]));
  return seats.map((seat) => [String(seat), seatText(seat, players.get(seat))]);
}

// The extra-card entry: the seat, and in card mode the extra card as typed (blank is left
// out: the engine says what it needs).
export function extraBody({ seat = "", card = "" } = {}, mode = "count") {
  const body = { seat: Number(seat), action: "extra_card" };
  const text = String(card).trim();
  if (mode === "card" && text) body.cards = text;
  return body;
}

function renderExtra(table) {
  const options = extraSeats(table);
  const panel = $("extra-panel");
  panel.hidden = !options.length;
  if (panel.hidden) return;
  const select = $("extra-seat");
  fillSelect(select, options, options.some(([value]) => value === select.value) ? select.value : options[0][0]);
  $("extra-card-field").hidden = table.mode !== "card";
}

async function sendExtra() {
  const cardMode = poller.table && poller.table.mode === "card";
  const body = extraBody({ seat: $("extra-seat").value, card: $("extra-card").value }, cardMode ? "card" : "count");
  if (!body.seat) { showProblem({ title: t("Which seat?"), detail: t("Choose the seat that got six cards.") }); return; }
  const answer = await submit(body); // the extra_card instruction, an IRREG-01 notice, or the refusal
  if (answer && answer.ok) $("extra-card").value = "";
}

function renderStart(table) {
  const box = $("start");
  const between = !table.hand || table.hand.phase === "complete";
  box.hidden = !between;
  if (!between) return;
  $("button-field").hidden = table.button !== null && table.button !== undefined;
  const preview = table.next_hand;
  $("next-hand").textContent = preview && preview.button
    ? t("Next hand: button seat {seat}", { seat: preview.button })
      + (preview.small_blind ? t(", small blind seat {seat}", { seat: preview.small_blind }) : "")
      + (preview.big_blind ? t(", big blind seat {seat}", { seat: preview.big_blind }) : "")
    : "";
  renderKill(table);
}

// The seats the dealer may name as the voluntary kill (KILL-01), as [value, text] options:
// the active players (a seat sitting out is not dealt in), none unless the profile's
// kill.mode is "optional". The engine has the last word (a short stack is refused, 409).
export function killSeats(table, killMode) {
  if (killMode !== "optional") return [];
  return (table.seats || []).filter((s) => s.status === "active").map((s) =>
    [String(s.seat), `${seatText(s.seat, s.player)}${s.waiting ? ` · ${t("waits for the big blind")}` : ""}`]);
}

// The start-hand body from the fields shown: the button (the table's first hand) and the
// seat that kills the hand by choice (kill_seat); blank fields are left out.
export function startHandBody({ button = "", kill = "" } = {}) {
  const body = {};
  if (String(button).trim()) body.button = Number(button);
  if (String(kill).trim()) body.kill_seat = Number(kill);
  return body;
}

function renderKill(table) {
  const mode = killModes.get(table.profile);
  if (mode === undefined && table.profile) loadKillMode(table.profile);
  const field = $("kill-field");
  field.hidden = mode !== "optional";
  if (field.hidden) return;
  const select = $("start-kill");
  const options = [["", t("No kill")], ...killSeats(table, mode)];
  const keep = options.some(([value]) => value === select.value) ? select.value : "";
  fillSelect(select, options, keep);
}

async function loadKillMode(profile) {
  killModes.set(profile, null);
  const answer = await call("profile", { params: { profile_id: profile } });
  if (!answer.ok) {
    killModes.delete(profile); // asked again at the table's next change; no kill offered meanwhile
    return;
  }
  killModes.set(profile, answer.body && answer.body.kill ? answer.body.kill.mode : "off");
  if (poller.table && poller.table.profile === profile) render(poller.table);
}

// While an entry is on its way every button waits; the ones disabled for their own reason
// (a card in play in the picker) stay disabled after.
function setBusy(busy) {
  sending = busy;
  for (const button of document.querySelectorAll("#main button")) {
    if (busy && !button.disabled) { button.disabled = true; button.dataset.busy = "1"; }
    if (!busy && button.dataset.busy) { button.disabled = false; delete button.dataset.busy; }
  }
}

// One change: If-Match on the version shown, a fresh Idempotency-Key; the answer's table is
// shown at once; 409 shows the rule; 412 reloads and says so.
async function change(route, { params = {}, body, key = newKey(), version } = {}) {
  if (sending || !poller.table) return null;
  setBusy(true);
  const sentVersion = version !== undefined ? version : poller.table.version;
  try {
    const answer = await call(route, {
      params: { table_id: session.table, ...params }, body, version: sentVersion,
      headers: { "Idempotency-Key": key },
    });
    reached(answer.status !== 0);
    if (answer.status === 0) { // no answer: recorded or not, the same key sends it once only
      refused(answer.problem);
      offerResend(route, { params, body, key, version: sentVersion });
      return answer;
    }
    if (answer.ok) {
      showProblem(null);
      if (route === "action" && answer.body.hand) known = learnEntry(known, answer.body.hand.hand_no, body);
      if (route === "action") { // offered as "Undo" until the next change
        lastEntry = { entry: body, version: answer.body.version, seq: answer.body.event && answer.body.event.seq };
      } else if (route !== "undo") lastEntry = null;
      poller.show(answer.body, answer.etag);
      const notices = answer.body.notices || [];
      const box = clear($("notices"));
      box.hidden = !notices.length;
      for (const n of notices) box.append(el("p", {}, n.rule_id ? el("span", { class: "rule-id", text: n.rule_id }) : null, ` ${n.message || n.text || JSON.stringify(n)}`));
      const seq = answer.body.event ? ` (${t("audit #{seq}", { seq: answer.body.event.seq })})` : "";
      if (route === "action") {
        recorded = { text: t("Recorded: {entry}{audit}.", { entry: entryText(body), audit: seq }), version: answer.body.version };
        showMessage(recorded.text);
      }
      else if (route !== "undo") showMessage(t("Recorded{audit}.", { audit: seq }));
      return answer;
    }
    if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return answer; }
    if (answer.status === 412) {
      await poller.reload();
      refused(answer.problem, 412,
        t("The table changed on another device. It has been reloaded: check it and enter again."));
      return answer;
    }
    refused(answer.problem, answer.status);
    if (answer.status === 409 && route === "action" && answer.problem && answer.problem.rule_id) {
      lastRefused = body;
      offerFloorCall();
      keepRefusal({ problem: answer.problem, status: answer.status, entry: body, version: sentVersion });
    }
    if (answer.status === 409 && route === "seatChange" && answer.problem) offerAllowedChanges(answer.problem);
    return answer;
  } finally {
    setBusy(false);
  }
}

// -- offline: shown at once; a resend carries the same Idempotency-Key ------------------------

function reached(ok) {
  $("net").hidden = ok;
  document.body.classList.toggle("offline", !ok);
}

function offerResend(route, sent) {
  offer(el("button", {
    type: "button", class: "primary", text: t("Send again (recorded once only)"),
    onclick: () => change(route, sent), // the service answers a repeat of the same key as before
  }));
}

// -- the session clock: hands dealt and hands per hour since this tablet opened the table ----

const SESSION_KEY = () => `dealerassist.session.${session.table}`;

export function sessionFigures(start, now) {
  const hours = Math.max(0, now.at - start.at) / 3600000;
  const hands = Math.max(0, now.hand - start.hand);
  const minutes = Math.floor(hours * 60);
  return {
    clock: `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`,
    hands,
    perHour: hours >= 1 / 60 ? Math.round((hands / hours) * 10) / 10 : null,
  };
}

function renderSessionClock(table) {
  let start = null;
  try { start = JSON.parse(sessionStorage.getItem(SESSION_KEY()) || "null"); } catch { start = null; }
  const handNo = table.hand ? table.hand.hand_no - (table.hand.phase === "complete" ? 0 : 1) : 0;
  if (!start) {
    start = { at: Date.now(), hand: handNo };
    sessionStorage.setItem(SESSION_KEY(), JSON.stringify(start));
  }
  const figures = sessionFigures(start, { at: Date.now(), hand: handNo });
  const text = `${t("Session {clock}", { clock: figures.clock })} · ${figures.hands === 1 ? t("1 hand") : t("{count} hands", { count: chips(figures.hands) })}`
    + (figures.perHour !== null ? ` · ${t("{rate} hands/h", { rate: chips(figures.perHour) })}` : "");
  const box = $("table-summary");
  const line = box.querySelector(".title-line");
  if (line) line.append(el("span", { class: "session-clock", id: "session-clock", text }));
}

// -- seat changes (sit out, return, move, add chips) ----------------------------------------

function changeBody(kind, values = {}) {
  const body = { change: kind };
  for (const field of SEAT_CHANGES[kind].fields) {
    if (values[field] !== undefined && values[field] !== null) body[field] = values[field];
  }
  return body;
}

async function sendChange(seat, kind, values) {
  const answer = await change("seatChange", { params: { seat }, body: changeBody(kind, values) });
  if (answer && answer.ok && kind === "change_seat") {
    changeSeat = values.to; // the panel follows the player to the new seat
    render(poller.table);
  }
  if (answer && answer.ok && kind === "add_chips") $("change-chips").value = "";
  return answer;
}

function pickSeat(seat) {
  changeSeat = seat;
  const panel = $("changes-panel");
  panel.open = true;
  if (poller.table) render(poller.table);
  panel.scrollIntoView({ block: "nearest" });
}

// A tap on an empty seat of the map: the seat form, for that seat, the player's name next.
function seatAt(seat) {
  const panel = $("seating-panel");
  panel.open = true;
  $("seat-no").value = String(seat);
  panel.scrollIntoView({ block: "nearest" });
  $("seat-player").focus({ preventScroll: true });
}

// A <select>'s options are rebuilt only when they change, so the poll does not close a
// list the dealer has open.
function fillSelect(select, options, value) {
  const signature = JSON.stringify(options);
  if (select.dataset.options !== signature) {
    clear(select);
    for (const [optionValue, text] of options) select.append(el("option", { value: optionValue, text }));
    select.dataset.options = signature;
  }
  if (value !== undefined && value !== null) select.value = String(value);
}

function renderChanges(table) {
  const seats = table.seats || [];
  const occupied = seats.filter((s) => s.status !== "empty");
  const empty = seats.filter((s) => s.status === "empty");
  if (!occupied.some((s) => s.seat === changeSeat)) changeSeat = occupied.length ? occupied[0].seat : null;
  fillSelect($("change-seat"), occupied.map((s) => [String(s.seat), seatText(s.seat, s.player)]), changeSeat);
  const hint = $("change-hint");
  const seat = occupied.find((s) => s.seat === changeSeat);
  $("change-controls").hidden = !seat;
  clear($("change-status"));
  if (!seat) {
    hint.textContent = t("No player is seated.");
    hint.hidden = false;
    return;
  }
  $("change-status").textContent = changeStatus(seat).join(" · ");
  const hand = table.hand && table.hand.phase !== "complete" ? table.hand : null;
  const dealtIn = hand && (hand.players || []).some((p) => p.seat === seat.seat);
  hint.textContent = dealtIn ? t("Seat {seat} is in the hand: its seat changes come after the hand.", { seat: seat.seat }) : "";
  hint.hidden = !dealtIn;
  const sittingOut = seat.status === "sitting_out";
  const waiting = seat.status === "active" && Boolean(seat.waiting);
  $("change-sit-out").hidden = seat.status !== "active";
  $("change-return").hidden = !(sittingOut || waiting);
  $("change-return-wait").hidden = !sittingOut;
  fillSelect($("change-to"), empty.map((s) => [String(s.seat), seatText(s.seat)]));
  $("change-move-row").hidden = !empty.length;
}

// What the seat-change panel says of the chosen seat: its status and stack, and its markers
// (missed blinds, waiting for the big blind, a false opener's wait (OPEN-08), a new player).
export function changeStatus(seat) {
  const notes = [SEAT_STATUS[seat.status] || seat.status, t("stack {chips}", { chips: chips(seat.stack) })];
  if (seat.missed_blind) notes.push(missedBlindNote(seat.missed_blind));
  if (seat.waiting) notes.push(waitingNote(seat.waiting));
  if (seat.false_opener) notes.push(FALSE_OPENER_NOTE);
  if (seat.new_player) notes.push(t("new player"));
  return notes;
}

// A 409 on a seat change may name the change allowed instead (e.g. return waiting for the
// big blind, BLIND-08/12/13): offer it as a button in the banner.
function offerAllowedChanges(problem) {
  for (const allowed of problem.allowed || []) {
    if (!allowed || !SEAT_CHANGES[allowed.type] || !allowed.seat) continue;
    const button = el("button", {
      type: "button", class: "primary", text: describeAction(allowed),
      onclick: () => sendChange(allowed.seat, allowed.type, allowed),
    });
    offer(button);
  }
}

function submit(entry) {
  lastRefused = null;
  return change("action", { body: entry });
}

// -- the floor: called at any time, its ruling shown here ------------------------------------

// The reasons the "Call the floor" dialog offers and the catalog rule each call names.
export const FLOOR_REASONS = {
  dispute: { rule_id: "IRREG-15", text: t("A dispute at the table") },
  misdeal: { rule_id: "IRREG-01", text: t("A misdeal") },
  wrong_entry: { rule_id: "IRREG-15", text: t("A wrong entry to take back") },
  out_of_turn: { rule_id: "BET-08", text: t("Action out of turn") },
  blinds: { rule_id: "BLIND-03", text: t("A blind or the button") },
};

// The calls this tablet made that the floor has not answered yet (kept in the tab).
const CALLS_KEY = () => `dealerassist.calls.${session.table}`;
function openCalls() {
  try { return JSON.parse(sessionStorage.getItem(CALLS_KEY()) || "[]"); } catch { return []; }
}
function keepCalls(calls) { sessionStorage.setItem(CALLS_KEY(), JSON.stringify(calls)); }

function calledFloor(answer, what) {
  if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  keepCalls([...openCalls(), { call_id: answer.body.call_id, what }]);
  showMessage(t("Floor called: {what}. The floor's ruling will show here.", { what }), 0);
}

// The floor's answer in words: "Floor ruled on a misdeal: Misdeal: every chip back, ... —
// note"; the decision's label, never its code.
export function rulingText(call, what) {
  const ruling = call.ruling || {};
  const note = ruling.note ? ` ${t("Note: {note}", { note: ruling.note })}` : "";
  const decided = ruling.label || t("ruled");
  return `${t("Floor ruled ({what}): {ruling}.", { what, ruling: decided })}${note}`;
}

async function checkCalls() {
  const calls = openCalls();
  if (!calls.length || !session.table) return;
  const still = [];
  for (const known of calls) {
    const answer = await call("tableFloorCall", { params: { table_id: session.table, call_id: known.call_id } });
    if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
    if (answer.ok && answer.body.status === "expired") {
      showMessage(t("The floor call ({what}) expired without a ruling: call again if it still matters.", { what: known.what }), 0);
    } else if (answer.ok && answer.body.status !== "open") {
      showProblem(null); // the refusal the call was about is settled
      showMessage(rulingText(answer.body, known.what), 0);
      if (poller.table) poller.reload();
    } else if (answer.status !== 404) still.push(known);
  }
  const now = openCalls().filter((c) => still.some((s) => s.call_id === c.call_id) || !calls.some((k) => k.call_id === c.call_id));
  keepCalls(now);
}

async function askFloor() {
  const dialog = $("floor-dialog");
  $("floor-note").value = "";
  dialog.returnValue = "";
  dialog.showModal();
  const ok = await new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true }));
  if (!ok) return;
  const reason = FLOOR_REASONS[$("floor-reason").value] || FLOOR_REASONS.dispute;
  const typed = $("floor-note").value.trim();
  const body = { rule_id: reason.rule_id, note: typed ? `${reason.text}: ${typed}` : reason.text };
  if (poller.table && poller.table.next) body.seat = poller.table.next.seat;
  const answer = await call("floorCall", { params: { table_id: session.table }, body });
  calledFloor(answer, reason.text.toLocaleLowerCase(locale));
}

// The refused entry to the floor, in one tap: the banner's button says what it sends, apart
// from the dock's "Call the floor" (any reason, a dialog; it stays where it always is). A
// second tap is not a second call: the button is disabled at the first.
function offerFloorCall() {
  const entry = lastRefused;
  offer(el("button", {
    type: "button", class: "primary send-entry", text: t("Send this entry to the floor"),
    onclick: async (event) => {
      event.currentTarget.disabled = true;
      const about = describeAction(entry);
      const answer = await call("floorCall", { params: { table_id: session.table }, body: { entry } });
      if (answer.ok) showProblem(null);
      calledFloor(answer, about);
    },
  }));
}

// A refusal stays through a reload while the table is at the version it was refused at (the
// tab keeps it, as it keeps its floor calls): the banner comes back with its button. Any
// other banner, or none, forgets it.
const REFUSAL_KEY = () => `dealerassist.refusal.${session.table}`;
function keepRefusal(kept) {
  if (kept) sessionStorage.setItem(REFUSAL_KEY(), JSON.stringify(kept));
  else sessionStorage.removeItem(REFUSAL_KEY());
}
let refusalRestored = false;
function restoreRefusal(table) {
  refusalRestored = true;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(REFUSAL_KEY()) || "null"); } catch { kept = null; }
  if (!kept || kept.version !== table.version || !kept.entry) { keepRefusal(null); return; }
  showProblem(kept.problem, kept.status);
  problemVersion = table.version;
  lastRefused = kept.entry;
  offerFloorCall();
}
function watchRefusal() {
  const box = $("problem");
  new MutationObserver(() => {
    if (box.hidden || !box.querySelector(".send-entry")) keepRefusal(null);
  }).observe(box, { attributes: true, attributeFilter: ["hidden"], childList: true });
}

function setup() {
  $("msg-slot").append($("problem"), $("message")); // the dock's fixed place for messages
  watchRefusal();
  $("start-hand").addEventListener("click", async () => {
    const body = startHandBody({
      button: $("button-field").hidden ? "" : $("start-button").value,
      kill: $("kill-field").hidden ? "" : $("start-kill").value,
    });
    if (body.kill_seat) {
      const seat = poller.table && poller.table.seats.find((s) => s.seat === body.kill_seat);
      const ok = await confirmAction(
        t("Start the hand as a kill pot, killed by seat {seat} (KILL-01)?", { seat: seat && seat.player ? [body.kill_seat, seat.player].join(" · ") : body.kill_seat }),
        t("Start with the kill"));
      if (!ok) return;
    }
    const answer = await change("startHand", { body }); // a refusal (KILL-01...) shows its rule
    if (answer && answer.ok) $("start-kill").value = ""; // a kill is for one hand
  });
  $("exposed-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendExposed();
  });
  $("extra-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendExtra();
  });
  $("seat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const seat = Number($("seat-no").value);
    const player = $("seat-player").value.trim();
    const stackText = $("seat-stack").value.trim();
    const stack = Number(stackText);
    if (!player || !stackText || !Number.isInteger(stack)) {
      showProblem({ title: t("Player and stack needed"), detail: t("Enter the player's name and chip count.") });
      return;
    }
    // the next player's values are his own: the form is emptied as the entry goes (before
    // the new table is drawn), and filled again if it is refused
    const typed = ["seat-no", "seat-player", "seat-stack"].map((id) => [id, $(id).value]);
    clearSeatForm();
    change("seat", { params: { seat }, body: { player, stack } }).then((answer) => {
      if (!answer || !answer.ok) for (const [id, value] of typed) if (!$(id).value) $(id).value = value;
    });
  });
  $("seat-remove").addEventListener("click", () => removePlayer(Number($("seat-no").value)));
  $("change-leave").addEventListener("click", () => removePlayer(changeSeat));
  setupChanges();
  document.addEventListener("keydown", onShortcut);
  setInterval(tickTimer, 250);
  poller.onReach = reached;
  window.addEventListener("offline", () => reached(false));
  window.addEventListener("online", () => poller.reload());
  $("call-floor").addEventListener("click", askFloor);
  setInterval(checkCalls, 3000);
  poller.start();
}

// A player leaves the table with his chips (the seat form's or the seat-changes panel's
// "Player leaves"): confirmed in a dialog first.
async function removePlayer(seat) {
  if (!seat) { showProblem({ title: t("Which seat?"), detail: t("Enter the seat number.") }); return; }
  const sitting = poller.table && poller.table.seats.find((s) => s.seat === seat);
  if (!sitting || sitting.status === "empty") {
    showProblem({ title: t("Seat {seat} is empty", { seat }), detail: t("Nobody is sitting there: no one to remove.") });
    return;
  }
  const ok = await confirmAction(
    t("Seat {seat} · {player} leaves the table, taking {chips} chips off it?", { seat, player: sitting.player, chips: chips(sitting.stack) }),
    t("Remove {player}", { player: sitting.player }));
  if (!ok) return;
  const answer = await change("unseat", { params: { seat } });
  if (answer && answer.ok) clearSeatForm();
}

// A key press on the desktop: the acting seat's button with that shortcut, as a tap on it
// (the same 400 ms hold after a new state, nothing while an entry is on its way). Never
// while typing in a field, with a modifier, a held key's repeats, or under an open dialog
// (Esc closes the dialog: the browser's own).
export function shortcutTarget(event, root = document) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.isComposing) return null;
  const target = event.target;
  if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return null;
  if (root.querySelector("dialog[open]")) return null;
  const key = event.key.length === 1 ? event.key.toUpperCase() : null;
  if (!key) return null;
  const found = [...root.querySelectorAll(`#dock button[data-key="${key}"]`)]
    .filter((button) => !button.disabled && !button.closest(".pat-change"));
  return found[0] || null;
}

function onShortcut(event) {
  const button = shortcutTarget(event);
  if (!button) return;
  event.preventDefault();
  button.click();
}

function clearSeatForm() {
  for (const id of ["seat-no", "seat-player", "seat-stack"]) $(id).value = "";
}

// A confirmation in the page (a <dialog>, not the browser's confirm()) for what one tap must
// not do alone: a player leaving with his chips, a hand started with a kill.
export function confirmAction(text, okLabel = t("Confirm")) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = okLabel;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    $("confirm-cancel").focus();
  });
}

function setupChanges() {
  $("change-seat").addEventListener("change", (event) => {
    changeSeat = Number(event.target.value) || null;
    if (poller.table) render(poller.table);
  });
  const chosen = () => {
    if (!changeSeat) showProblem({ title: t("Which seat?"), detail: t("Tap a player's seat or choose it in the list.") });
    return changeSeat;
  };
  $("change-sit-out").addEventListener("click", () => { if (chosen()) sendChange(changeSeat, "sit_out"); });
  $("change-return").addEventListener("click", () => { if (chosen()) sendChange(changeSeat, "return", { wait: false }); });
  $("change-return-wait").addEventListener("click", () => { if (chosen()) sendChange(changeSeat, "return", { wait: true }); });
  $("change-move").addEventListener("click", () => {
    const to = Number($("change-to").value);
    if (!chosen()) return;
    if (!Number.isInteger(to) || to < 1) {
      showProblem({ title: t("Which empty seat?"), detail: t("Choose the empty seat the player moves to.") });
      return;
    }
    sendChange(changeSeat, "change_seat", { to });
  });
  $("change-add").addEventListener("click", () => {
    const text = $("change-chips").value.trim();
    const chips = Number(text);
    if (!chosen()) return;
    if (!text || !Number.isInteger(chips) || chips <= 0) {
      showProblem({ title: t("Chips needed"), detail: t("Enter the number of chips to add: a whole number above 0.") });
      return;
    }
    sendChange(changeSeat, "add_chips", { chips });
  });
}

// node imports the module in the tests; a registered tablet starts with its dealer's sign-in
if (globalThis.document) startTablet(() => setupLogin(setup));
