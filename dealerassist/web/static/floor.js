// dealerassist floor console: every table the floor may rule on (the "floorTables" route:
// hand in play, open calls, session clock and hands per hour, the dealer on duty), the open floor calls of all of
// them newest first (a new one flashes, beeps and is announced; each says how long it has
// waited), the table of the call opened (polled) with what the dealer entered and the hand's
// entries so far, and a ruling form built from the options the API offers for the rule (the
// "rulingOptions" route). The ruling goes to the "ruling" route with If-Match and a fresh
// Idempotency-Key; one that kills a hand or awards chips first shows who gets what and asks
// to confirm. An award gives every chip in the middle to the seats typed, or goes pot by pot
// (SHOW-07): one row per pot of the live hand (pots.js builds them as the engine does).
import { call, session } from "./api.js";
import { $, append, chips, clear, describeAction, el, setupLogin, showMessage, showProblem, t, tokenRefused } from "./ui.js";
import { locale } from "./i18n.js";
import { TablePoller, phaseLabel, renderTable } from "./table_view.js";
import { handPots, potName } from "./pots.js";

const EFFECTS = {
  void_last: { label: t("Void last action(s)"), fields: ["count"] },
  kill_hand: { label: t("Kill a hand"), fields: ["seat"] },
  misdeal: { label: t("Misdeal"), fields: [] },
  award: { label: t("Award the pot(s)"), fields: ["seats"] },
  adjust_stack: { label: t("Adjust a stack"), fields: ["seat", "amount"] },
  move_button: { label: t("Move the button"), fields: ["seat"] },
  reopen_betting: { label: t("Reopen betting"), fields: ["seat"] },
  hold_pot: { label: t("Hold the pot"), fields: [] },
  release_pot: { label: t("Release the pot"), fields: [] },
  accept_entry: { label: t("Accept the refused entry"), fields: ["waive"] },
  take_exposed: { label: t("Player takes the exposed card (IRREG-04)"), fields: ["seat"] },
  clear_false_opener: { label: t("Lift a false opener's wait (OPEN-08)"), fields: ["seat", "player"] },
};
const FIELD_LABELS = {
  count: t("How many"), seat: t("Seat"), amount: t("Chips (+/−)"), seats: t("Seats (e.g. 2, 5)"),
  waive: t("Rule waived"), player: t("or player ID (left the table)"),
};

const AWARD_SPLITS = [["all", t("All pots to")], ["pots", t("Pot by pot")]];

const poller = new TablePoller(showTable, 3000);
const CALLS_MS = 4000;
const TABLES_MS = 15000;
let selectedCall = null; // the call opened, whole (the "floorCallOne" route)
// [{effect, origin, inputs: {field: input}}]: origin "option" (the decision's, replaced when
// another decision is picked) or "added" (the floor's own, kept); an award also has split
// ("all" or "pots"), pots (the rows shown: [{amount, eligible}]) and potSeats (the seats
// ticked for each row).
let effects = [];
let sending = false;
let knownCalls = null; // the call IDs seen so far (null until the first answer)
let skewMs = 0; // the service's clock minus this browser's
let tables = []; // the last "floorTables" answer's tables
let pending = null; // the ruling body waiting for its confirmation

function showTable(table) {
  renderTable(table);
  // The pot rows follow the hand (a bet called, an uncalled bet back): redrawn when they change.
  const pots = JSON.stringify(awardPots(table));
  if (effects.some((e) => e.split === "pots" && JSON.stringify(e.pots) !== pots)) renderEffects();
  renderPace();
}

// The pots an award pot by pot names, as the rows show them: the hand in play's, main pot
// first ([] between hands: there is nothing to award).
export function awardPots(table) {
  return table && table.hand && table.hand.phase !== "complete" ? handPots(table.hand) : [];
}

// The award effect from the fields shown: with split "all" the seats as typed ("2, 5"; blank
// is left out, the API says what it needs), with "pots" one list of the seats ticked per pot,
// main pot first (SHOW-07); the engine checks each seat against its pot (409).
export function awardBody({ split = "all", seats = "", pots = [] } = {}) {
  if (split === "pots") return { effect: "award", pots: pots.map((chosen) => chosen.map(Number)) };
  const body = { effect: "award" };
  const list = String(seats).split(/[\s,]+/).filter(Boolean).map(Number);
  if (list.length) body.seats = list;
  return body;
}

// "4 s", "3 min 05 s", "1 h 02 min": how long a call has waited, a session has run.
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

const serverNow = () => Date.now() + skewMs;
const waitingText = (iso) => t("waiting {time}", { time: duration(since(iso)) });
const since = (iso) => (serverNow() - Date.parse(iso)) / 1000;

// -- the tables the floor may rule on ---------------------------------------------------------

function paceText(pace) {
  if (!pace || !pace.session_started_at) return t("No session yet");
  const rate = t("{rate} hands/h", { rate: pace.hands_per_hour ? chips(pace.hands_per_hour) : "—" });
  return [t("Session {clock}", { clock: duration(since(pace.session_started_at)) }), pace.hands === 1 ? t("1 hand") : t("{count} hands", { count: chips(pace.hands) }),
    rate, t("{count} in the last hour", { count: chips(pace.hands_last_hour) })].join(" · ");
}

// The dealer on duty as the table's chain names him ("Dealer Dana Ünal (E100)"); a session
// that ended without a sign-out (it expired) says so: the chain still names him.
export function dealerText(dealer) {
  if (!dealer) return t("No dealer signed in");
  const who = dealer.name ? `${dealer.name} (${dealer.employee_id})` : dealer.employee_id;
  return dealer.on_shift ? t("Dealer {who}", { who }) : t("Dealer {who}, shift session ended", { who });
}

function renderPace() {
  const here = tables.find((tile) => tile.table_id === session.table);
  $("table-pace").textContent = here ? paceText(here.pace) : "";
  $("table-dealer").textContent = here ? dealerText(here.dealer) : "";
}

function renderTables() {
  const box = clear($("floor-tables"));
  if (!tables.length) { box.append(el("p", { class: "hint", text: t("No table yet.") })); return; }
  for (const tile of tables) {
    const current = tile.table_id === session.table;
    const hand = tile.hand_no ? `${t("hand {hand}", { hand: tile.hand_no })} · ${phaseLabel(tile.phase)}` : t("between hands");
    const calls = tile.open_calls ? (tile.open_calls > 1 ? t("{count} open calls", { count: tile.open_calls }) : t("1 open call")) : t("no call");
    box.append(el("button", {
      type: "button", class: `table-tile${current ? " current" : ""}${tile.open_calls ? " calling" : ""}`,
      "aria-current": current ? "true" : null, "data-table": tile.table_id,
      onclick: () => openTable(tile.table_id),
    }, el("span", { class: "tile-id", text: t("Table {table}", { table: tile.table_id }) }),
    el("span", { class: "tile-line", text: hand }),
    el("span", { class: `tile-line tile-dealer${tile.dealer ? "" : " none"}`, text: dealerText(tile.dealer) }),
    el("span", { class: `tile-line${tile.open_calls ? " tile-calls" : ""}`, text: calls }),
    el("span", { class: "tile-line tile-pace", text: tile.pace && tile.pace.hands_per_hour ? t("{rate} hands/h", { rate: chips(tile.pace.hands_per_hour) }) : "" })));
  }
}

async function loadTables() {
  const answer = await call("floorTables");
  if (!answer.ok) {
    if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); }
    return;
  }
  tables = answer.body.tables;
  renderTables();
  renderPace();
}

function openTable(tableId) {
  if (tableId === session.table) return;
  session.useTable(tableId);
  $("session-label").textContent = t("Table {table}", { table: tableId });
  if (selectedCall && selectedCall.table_id !== tableId) closeCall();
  clearEffects();
  poller.reload();
  renderTables();
  renderPace();
  renderCalls();
}

// -- open calls across the tables ------------------------------------------------------------

let calls = [];

function renderCalls(fresh = new Set()) {
  const box = clear($("calls"));
  $("calls-count").textContent = calls.length ? `(${calls.length})` : "";
  if (!calls.length) { box.append(el("p", { class: "hint", text: t("None.") })); return; }
  for (const c of calls) {
    const selected = selectedCall && selectedCall.call_id === c.call_id;
    const here = c.table_id === session.table;
    box.append(el("article", { class: `call${selected ? " selected" : ""}${fresh.has(c.call_id) ? " flash" : ""}`, "data-call": c.call_id, "aria-label": t("Call from table {table}", { table: c.table_id }) },
      el("div", { class: "call-head" },
        el("span", { class: `call-table${here ? " here" : ""}`, text: t("Table {table}", { table: c.table_id }) }),
        c.rule_id ? el("span", { class: "rule-id", text: c.rule_id }) : null,
        el("span", { class: "waited", "data-opened": c.opened_at, text: waitingText(c.opened_at) })),
      el("div", { class: "call-line", text: [t("hand {hand}", { hand: c.hand_no ?? "—" }), t("seat {seat}", { seat: c.seat ?? "—" }), c.opened_by, new Date(c.opened_at).toLocaleTimeString(locale)].join(" · ") }),
      c.message ? el("p", { class: "server-text", text: c.message }) : null,
      c.note ? el("p", { class: "hint", text: t("Note: {note}", { note: c.note }) }) : null,
      c.entry ? el("p", { class: "hint", text: t("Refused entry: {entry}", { entry: entryText(c.entry) }) }) : null,
      el("button", { type: "button", class: "primary", text: selected ? t("Opened") : t("Open the call (table {table})", { table: c.table_id }), onclick: () => selectCall(c) })));
  }
}

// An entry as the dealer made it, its cards included ("seat 3 show Kc Qh Js 8d 3c").
export function entryText(entry) {
  const cards = entry.cards ? ` ${Array.isArray(entry.cards) ? entry.cards.join(" ") : entry.cards}` : "";
  const discards = entry.discards ? ` (${t("discards {cards}", { cards: [].concat(entry.discards).join(" ") })})` : "";
  return `${describeAction({ ...entry, cards: undefined })}${cards}${discards}`;
}

function tickWaits() {
  for (const span of document.querySelectorAll("#calls .waited")) {
    span.textContent = waitingText(span.dataset.opened);
  }
  renderPace();
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // no sound on this device: the flash and the announcement remain
  }
}

function alertNew(fresh) {
  const newest = calls.find((c) => fresh.has(c.call_id));
  $("announce").textContent = `${t("New floor call from table {table}", { table: newest.table_id })}${newest.rule_id ? `, ${newest.rule_id}` : ""}`;
  document.body.classList.remove("new-call");
  void document.body.offsetWidth; // restart the flash
  document.body.classList.add("new-call");
  beep();
}

async function loadCalls() {
  const answer = await call("floorCalls");
  if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  skewMs = Date.parse(answer.body.now) - Date.now();
  calls = answer.body.calls;
  const fresh = new Set(knownCalls ? calls.map((c) => c.call_id).filter((id) => !knownCalls.has(id)) : []);
  knownCalls = new Set([...(knownCalls || []), ...calls.map((c) => c.call_id)]);
  renderCalls(fresh);
  const more = $("calls-more");
  more.hidden = answer.body.total <= calls.length;
  more.textContent = t("{count} older open calls not shown.", { count: answer.body.total - calls.length });
  if (fresh.size) alertNew(fresh);
  if (fresh.size || calls.some((c) => !tables.some((tile) => tile.table_id === c.table_id))) loadTables();
}

async function selectCall(c) {
  const answer = await call("floorCallOne", { params: { call_id: c.call_id } });
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  selectedCall = answer.body;
  if (c.table_id !== session.table) openTable(c.table_id);
  $("rule-id").value = c.rule_id || "";
  $("hand-no").value = c.hand_no || "";
  $("call-ref").textContent = t("Ruling on the call from table {table} ({call}); it is closed when the ruling is accepted.", { table: c.table_id, call: c.call_id });
  renderCallDetail();
  renderCalls();
  await loadOptions();
  $("call-detail").scrollIntoView({ block: "nearest" });
}

function closeCall() {
  selectedCall = null;
  $("call-ref").textContent = "";
  renderCallDetail();
}

function actionLine(item) {
  const command = item.command || {};
  const at = new Date(item.at).toLocaleTimeString(locale);
  if (command.type === "action") return `${at} · ${entryText(command)}`;
  if (command.type === "ruling") return `${at} · ${t("ruling {decision}", { decision: command.decision })}${command.rule_id ? ` (${command.rule_id})` : ""}${command.note ? `: ${command.note}` : ""}`;
  if (command.type === "start_hand") return `${at} · ${t("hand started")}${command.button ? ` ${t("(button seat {seat})", { seat: command.button })}` : ""}`;
  if (command.type === "seat") return `${at} · ${t("player seated")}`;
  if (command.type === "unseat") return `${at} · ${t("player left")}`;
  return `${at} · ${String(command.type || t("entry")).replace(/_/g, " ")}`;
}

function renderCallDetail() {
  const box = clear($("call-detail"));
  const c = selectedCall;
  if (!c) { box.hidden = true; return; }
  box.append(el("h2", { text: t("The call from table {table}", { table: c.table_id }) }),
    el("dl", { class: "facts-list" },
      el("dt", { text: t("Called by") }), el("dd", { text: t("{who} at {time}", { who: c.opened_by, time: new Date(c.opened_at).toLocaleTimeString(locale) }) }),
      el("dt", { text: t("Rule") }), el("dd", { text: c.rule_id || "—" }),
      c.message ? [el("dt", { text: t("Refused because") }), el("dd", { class: "server-text", text: c.message })] : null,
      c.entry ? [el("dt", { text: t("The dealer entered") }), el("dd", { class: "entry", text: entryText(c.entry) })] : null,
      c.allowed && c.allowed.length ? [el("dt", { text: t("Allowed then") }), el("dd", { text: c.allowed.map(describeAction).join("; ") })] : null,
      c.note ? [el("dt", { text: t("Note") }), el("dd", { text: c.note })] : null),
    el("h3", { text: t("The hand's entries so far ({count})", { count: (c.actions || []).length }) }),
    // it scrolls past 14rem: focusable, so a keyboard can scroll it too (WCAG 2.1.1)
    el("ol", { class: "hand-actions", tabindex: "0", "aria-label": t("The hand's entries so far") },
      (c.actions || []).map((item) => el("li", { text: actionLine(item) }))),
    el("button", { type: "button", class: "small", text: t("Close the call view"), onclick: () => { closeCall(); renderCalls(); } }));
  box.hidden = false;
}

async function loadOptions() {
  const ruleId = $("rule-id").value.trim().toUpperCase();
  $("rule-id").value = ruleId;
  const answer = await call("rulingOptions", { query: { rule_id: ruleId } });
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  const box = clear($("options"));
  for (const option of answer.body.options) {
    const radio = el("input", { type: "radio", name: "decision", value: option.decision, required: true });
    radio.addEventListener("change", () => setEffects(option.effects));
    append(box, el("label", {}, radio, el("span", { class: "server-text" }, option.label, " ", el("code", { text: option.decision })),
      option.effects.length ? el("span", { class: "hint", text: ` → ${option.effects.map(effectWord).join(", ")}` }) : null));
  }
}

// An option's usual effect in words ("any": a custom or discretionary ruling takes any).
function effectWord(kind) {
  if (kind === "any") return t("any effect");
  return EFFECTS[kind] ? EFFECTS[kind].label : kind;
}

// A decision's effects replace the last decision's; the effects the floor added stay.
function setEffects(kinds) {
  const added = effects.filter((e) => e.origin === "added");
  effects = [];
  for (const kind of kinds) addEffect(kind, "option");
  effects.push(...added);
  renderEffects();
}

function clearEffects() {
  effects = [];
  renderEffects();
}

// The seat a call names, for the effects that take one seat (the kill-hand seat, first).
const SEAT_FROM_CALL = new Set(["kill_hand", "take_exposed", "adjust_stack"]);

function addEffect(kind, origin = "added") {
  const spec = EFFECTS[kind];
  if (!spec) return;
  const inputs = {};
  for (const field of spec.fields) {
    let input;
    if (field === "seats" || field === "waive" || field === "player") {
      input = el("input", { type: "text", spellcheck: "false" });
      if (field === "waive") input.value = $("rule-id").value;
    } else {
      input = el("input", { type: "number", inputmode: "numeric", step: 1, min: field === "amount" ? undefined : 1 });
      if (field === "count") input.value = 1;
      if (field === "seat" && SEAT_FROM_CALL.has(kind) && selectedCall && selectedCall.seat) input.value = selectedCall.seat;
    }
    inputs[field] = input;
  }
  effects.push(kind === "award" ? { effect: kind, origin, inputs, split: "all", pots: [], potSeats: [] } : { effect: kind, origin, inputs });
}

// "All pots to" (the seats input) or "Pot by pot" (a row per pot with a tick box per seat
// eligible for it: a touch or a click each, no Ctrl-click as a multiple select needs).
function awardFields(e, index) {
  const choice = el("span", { class: "award-split", role: "radiogroup", "aria-label": t("award") },
    AWARD_SPLITS.map(([split, text]) => {
      const radio = el("input", { type: "radio", name: `award-split-${index}`, value: split, checked: e.split === split });
      radio.addEventListener("change", () => { e.split = split; renderEffects(); });
      return el("label", { class: "check" }, radio, text);
    }));
  if (e.split !== "pots") return [choice, el("label", {}, FIELD_LABELS.seats, e.inputs.seats)];
  const table = poller.table;
  e.pots = awardPots(table);
  e.potSeats = e.pots.map((pot, row) => pot.eligible.filter((seat) => (e.potSeats[row] || []).includes(seat)));
  if (!e.pots.length) return [choice, el("p", { class: "hint", text: t("No chips in the middle of a hand in play: nothing to award pot by pot.") })];
  const players = new Map((table.seats || []).map((s) => [s.seat, s.player]));
  const before = index > 0 ? el("p", { class: "hint", text: t("The pots as the hand stands now: an effect above that changes it (a killed hand, a voided action) changes them, and the engine checks each seat (SHOW-07).") }) : null;
  return [choice, el("div", { class: "pot-rows" }, before, e.pots.map((pot, row) => el("div", { class: "pot-row" },
    el("span", { class: "pot-name", text: `${capitalized(potName(row))} · ${chips(pot.amount)}` }),
    el("span", { class: "hint", text: pot.eligible.length > 1 ? t("eligible: seats {seats}", { seats: pot.eligible.join(", ") }) : t("eligible: seat {seat}", { seat: pot.eligible[0] }) }),
    pot.eligible.map((seat) => {
      const box = el("input", { type: "checkbox", value: seat, checked: e.potSeats[row].includes(seat) });
      box.addEventListener("change", () => {
        const ticked = new Set(e.potSeats[row]);
        if (box.checked) ticked.add(seat); else ticked.delete(seat);
        e.potSeats[row] = pot.eligible.filter((s) => ticked.has(s));
      });
      return el("label", { class: "check seat-pick" }, box, players.get(seat) ? `${t("Seat {seat}", { seat })} · ${players.get(seat)}` : t("Seat {seat}", { seat }));
    }))))];
}

function renderEffects() {
  const box = clear($("effects"));
  if (!effects.length) box.append(el("p", { class: "hint", text: t("No effects: the ruling is recorded with its note.") }));
  effects.forEach((e, i) => {
    box.append(el("div", { class: "effect" },
      el("span", { class: "effect-name", text: EFFECTS[e.effect].label }),
      e.effect === "award" ? awardFields(e, i) : Object.entries(e.inputs).map(([field, input]) => el("label", {}, FIELD_LABELS[field], input)),
      e.effect === "accept_entry" ? el("span", { class: "hint", text: selectedCall && selectedCall.entry ? describeAction(selectedCall.entry) : t("needs a call with its entry") }) : null,
      el("button", { type: "button", class: "small danger", text: t("Remove"), "aria-label": t("Remove {effect}", { effect: EFFECTS[e.effect].label }), onclick: () => { effects.splice(i, 1); renderEffects(); } })));
  });
}

export function effectBody(e) {
  if (e.effect === "award") return awardBody({ split: e.split, seats: e.inputs.seats.value, pots: e.potSeats });
  const body = { effect: e.effect };
  for (const [field, input] of Object.entries(e.inputs)) {
    const text = input.value.trim();
    if (!text) continue;
    if (field === "waive") body.waive = text.toUpperCase();
    else if (field === "player") body.player = text; // OPEN-08: a player ID, as seated
    else body[field] = Number(text);
  }
  if (e.effect === "accept_entry" && selectedCall && selectedCall.entry) body.entry = selectedCall.entry;
  return body;
}

function seatName(seat) {
  const s = poller.table && poller.table.seats.find((x) => x.seat === Number(seat));
  return s && s.player ? `${t("seat {seat}", { seat })} (${s.player})` : t("seat {seat}", { seat });
}

// What an effect does, in words, before it is issued: who loses a hand, who gets which chips.
export function effectPreview(effect, table, name = (seat) => t("seat {seat}", { seat })) {
  const pots = awardPots(table);
  const total = pots.reduce((sum, pot) => sum + pot.amount, 0);
  switch (effect.effect) {
    case "kill_hand":
      return effect.seat ? t("Kill the hand of {seat}: its chips stay in the pot.", { seat: name(effect.seat) }) : t("Kill a hand: no seat given (the API will refuse it).");
    case "award":
      if (effect.pots) {
        return effect.pots.map((seats, i) => {
          const pot = pots[i];
          const what = pot ? `${capitalized(potName(i))} ${chips(pot.amount)}` : capitalized(potName(i));
          if (!seats.length) return t("{pot}: nobody chosen", { pot: what });
          return `${what} → ${seats.map(name).join(t(" and "))}${seats.length > 1 && pot ? t(", {chips} each", { chips: chips(Math.floor(pot.amount / seats.length)) }) : ""}`;
        }).join("; ");
      }
      if (!effect.seats) return t("Award the pot: no seat given (the API will refuse it).");
      return `${total ? t("All {chips} in the middle", { chips: chips(total) }) : t("All chips in the middle")} → ${effect.seats.map(name).join(t(" and "))}${effect.seats.length > 1 && total ? t(", {chips} each", { chips: chips(Math.floor(total / effect.seats.length)) }) : ""}`;
    case "adjust_stack":
      return effect.amount > 0
        ? t("Add {chips} chips to {seat}'s stack.", { chips: chips(Math.abs(effect.amount)), seat: name(effect.seat) })
        : t("Take {chips} chips from {seat}'s stack.", { chips: chips(Math.abs(effect.amount || 0)), seat: name(effect.seat) });
    case "misdeal":
      return t("Misdeal: the hand is cancelled and every chip goes back.");
    default:
      return EFFECTS[effect.effect] ? EFFECTS[effect.effect].label : effect.effect;
  }
}

const CONFIRMED = new Set(["kill_hand", "award", "adjust_stack", "misdeal"]);

function rulingBody() {
  const decision = document.querySelector('input[name="decision"]:checked');
  if (!decision) { showProblem({ title: t("Choose a decision"), detail: t("Press “Show options” and pick one.") }); return null; }
  const body = { decision: decision.value, effects: effects.map(effectBody) };
  const ruleId = $("rule-id").value.trim();
  if (ruleId) body.rule_id = ruleId;
  const note = $("note").value.trim();
  if (note) body.note = note;
  const handNo = $("hand-no").value;
  if (handNo) body.hand_no = Number(handNo);
  if (selectedCall) body.call_id = selectedCall.call_id;
  return body;
}

function showConfirm(body) {
  pending = body;
  const box = clear($("confirm"));
  box.append(el("h3", { id: "confirm-title", text: t("Before it is issued: {decision}", { decision: body.decision }) }),
    el("ul", {}, body.effects.map((e) => el("li", { text: effectPreview(e, poller.table, seatName) }))),
    el("div", { class: "row" },
      el("button", { type: "button", id: "confirm-issue", class: "danger big", text: t("Confirm and issue"), onclick: () => send(pending) }),
      el("button", { type: "button", class: "big", text: t("Back"), onclick: hideConfirm })));
  box.hidden = false;
  $("issue").hidden = true;
  $("confirm-issue").focus();
}

function hideConfirm() {
  pending = null;
  $("confirm").hidden = true;
  $("issue").hidden = false;
}

function submitRuling(event) {
  event.preventDefault();
  if (sending || !poller.table) return;
  const body = rulingBody();
  if (!body) return;
  if (body.effects.some((e) => CONFIRMED.has(e.effect))) { showConfirm(body); return; }
  send(body);
}

async function send(body) {
  if (sending || !body) return;
  sending = true;
  try {
    const answer = await call("ruling", { params: { table_id: session.table }, body, version: poller.table.version });
    hideConfirm();
    const box = clear($("answer"));
    if (answer.ok) {
      showProblem(null);
      poller.show(answer.body, answer.etag);
      box.append(el("strong", { text: t("Ruling recorded: {decision}", { decision: body.decision }) }),
        el("p", { text: t("Table now at v{version}; audit event #{seq} ({hash}…)", { version: answer.body.version, seq: answer.body.event.seq, hash: answer.body.event.hash.slice(0, 16) }) }));
      box.hidden = false;
      showMessage(t("Ruling recorded."));
      closeCall();
      $("note").value = "";
      loadCalls();
      loadTables();
      return;
    }
    box.hidden = true;
    if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
    if (answer.status === 412) {
      showProblem(answer.problem, 412, t("The table changed meanwhile. It has been reloaded: check it and rule again."));
      await poller.reload();
      return;
    }
    showProblem(answer.problem, answer.status);
  } finally {
    sending = false;
  }
}

function setup() {
  const select = $("effect-kind");
  for (const [kind, spec] of Object.entries(EFFECTS)) select.append(el("option", { value: kind, text: spec.label }));
  $("add-effect").addEventListener("click", () => { addEffect(select.value); renderEffects(); });
  $("load-options").addEventListener("click", loadOptions);
  $("ruling-form").addEventListener("submit", submitRuling);
  renderEffects();
  poller.start();
  loadOptions();
  loadCalls();
  loadTables();
  setInterval(() => { if (!document.hidden) loadCalls(); }, CALLS_MS);
  setInterval(() => { if (!document.hidden) loadTables(); }, TABLES_MS);
  setInterval(tickWaits, 1000);
}

if (globalThis.document) setupLogin(setup); // node imports the module in the tests

// "the main pot" as a row's heading: "The main pot".
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
