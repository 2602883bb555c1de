// dealerassist floor console: the table (polled), its open floor calls, and a ruling form
// built from the options the API offers for the rule (the "rulingOptions" route). The ruling
// goes to the "ruling" route with If-Match and a fresh Idempotency-Key. An award gives every
// chip in the middle to the seats typed, or goes pot by pot (SHOW-07): one row per pot of the
// live hand (pots.js builds them as the engine does) with its amount and eligible seats.
import { call, session } from "./api.js";
import { $, append, clear, describeAction, el, setupLogin, showMessage, showProblem, tokenRefused } from "./ui.js";
import { TablePoller, renderTable } from "./table_view.js";
import { handPots, potName } from "./pots.js";

const EFFECTS = {
  void_last: { label: "Void last action(s)", fields: ["count"] },
  kill_hand: { label: "Kill a hand", fields: ["seat"] },
  misdeal: { label: "Misdeal", fields: [] },
  award: { label: "Award the pot(s)", fields: ["seats"] },
  adjust_stack: { label: "Adjust a stack", fields: ["seat", "amount"] },
  move_button: { label: "Move the button", fields: ["seat"] },
  reopen_betting: { label: "Reopen betting", fields: ["seat"] },
  hold_pot: { label: "Hold the pot", fields: [] },
  release_pot: { label: "Release the pot", fields: [] },
  accept_entry: { label: "Accept the refused entry", fields: ["waive"] },
  take_exposed: { label: "Player takes the exposed card (IRREG-04)", fields: ["seat"] },
  clear_false_opener: { label: "Lift a false opener's wait (OPEN-08)", fields: ["seat", "player"] },
};
const FIELD_LABELS = { count: "How many", seat: "Seat", amount: "Chips (+/−)", seats: "Seats (e.g. 2, 5)", waive: "Rule waived", player: "or player ID (left the table)" };

const AWARD_SPLITS = [["all", "All pots to"], ["pots", "Pot by pot"]];

const poller = new TablePoller(showTable, 3000);
let selectedCall = null;
// [{effect, inputs: {field: input}}]; an award also has split ("all" or "pots"), pots (the
// rows shown: [{amount, eligible}]) and potSeats (the seats ticked for each row).
let effects = [];
let sending = false;

function showTable(table) {
  renderTable(table);
  // The pot rows follow the hand (a bet called, an uncalled bet back): redrawn when they change.
  const pots = JSON.stringify(awardPots(table));
  if (effects.some((e) => e.split === "pots" && JSON.stringify(e.pots) !== pots)) renderEffects();
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

function renderCalls(calls) {
  const box = clear($("calls"));
  if (!calls.length) { box.append(el("p", { class: "hint", text: "None." })); return; }
  for (const c of calls) {
    const selected = selectedCall && selectedCall.call_id === c.call_id;
    box.append(el("div", { class: `call${selected ? " selected" : ""}` },
      el("div", {}, c.rule_id ? el("span", { class: "rule-id", text: c.rule_id }) : null,
        ` hand ${c.hand_no ?? "—"} · seat ${c.seat ?? "—"} · ${c.opened_by} · ${new Date(c.opened_at).toLocaleTimeString()}`),
      c.message ? el("p", { text: c.message }) : null,
      c.note ? el("p", { class: "hint", text: `Note: ${c.note}` }) : null,
      c.entry ? el("p", { class: "hint", text: `Refused entry: ${describeAction(c.entry)}` }) : null,
      c.allowed && c.allowed.length ? el("p", { class: "hint", text: `Allowed then: ${c.allowed.map(describeAction).join("; ")}` }) : null,
      el("button", { type: "button", class: "primary", text: selected ? "Selected" : "Rule on this call", onclick: () => selectCall(c) })));
  }
}

async function loadCalls() {
  const answer = await call("floorCalls", { query: { table_id: session.table } });
  if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  renderCalls(answer.body.calls);
}

function selectCall(c) {
  selectedCall = c;
  $("rule-id").value = c.rule_id || "";
  $("hand-no").value = c.hand_no || "";
  $("call-ref").textContent = `Ruling on floor call ${c.call_id} (it is closed when the ruling is accepted).`;
  loadOptions();
  loadCalls();
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
    append(box, el("label", {}, radio, el("span", {}, option.label, " ", el("code", { text: option.decision })),
      option.effects.length ? el("span", { class: "hint", text: ` → ${option.effects.join(", ")}` }) : null));
  }
}

function setEffects(kinds) {
  effects = [];
  for (const kind of kinds) addEffect(kind);
  renderEffects();
}

function addEffect(kind) {
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
    }
    inputs[field] = input;
  }
  effects.push(kind === "award" ? { effect: kind, inputs, split: "all", pots: [], potSeats: [] } : { effect: kind, inputs });
}

// "All pots to" (the seats input) or "Pot by pot" (a row per pot with a tick box per seat
// eligible for it: a touch or a click each, no Ctrl-click as a multiple select needs).
function awardFields(e, index) {
  const choice = el("span", { class: "award-split", role: "radiogroup", "aria-label": "award" },
    AWARD_SPLITS.map(([split, text]) => {
      const radio = el("input", { type: "radio", name: `award-split-${index}`, value: split, checked: e.split === split });
      radio.addEventListener("change", () => { e.split = split; renderEffects(); });
      return el("label", { class: "check" }, radio, text);
    }));
  if (e.split !== "pots") return [choice, el("label", {}, FIELD_LABELS.seats, e.inputs.seats)];
  const table = poller.table;
  e.pots = awardPots(table);
  e.potSeats = e.pots.map((pot, row) => pot.eligible.filter((seat) => (e.potSeats[row] || []).includes(seat)));
  if (!e.pots.length) return [choice, el("p", { class: "hint", text: "No chips in the middle of a hand in play: nothing to award pot by pot." })];
  const players = new Map((table.seats || []).map((s) => [s.seat, s.player]));
  const before = index > 0 ? el("p", { class: "hint", text: "The pots as the hand stands now: an effect above that changes it (a killed hand, a voided action) changes them, and the engine checks each seat (SHOW-07)." }) : null;
  return [choice, el("div", { class: "pot-rows" }, before, e.pots.map((pot, row) => el("div", { class: "pot-row" },
    el("span", { class: "pot-name", text: `${capitalized(potName(row))} · ${pot.amount}` }),
    el("span", { class: "hint", text: `eligible: seat${pot.eligible.length > 1 ? "s" : ""} ${pot.eligible.join(", ")}` }),
    pot.eligible.map((seat) => {
      const box = el("input", { type: "checkbox", value: seat, checked: e.potSeats[row].includes(seat) });
      box.addEventListener("change", () => {
        const ticked = new Set(e.potSeats[row]);
        if (box.checked) ticked.add(seat); else ticked.delete(seat);
        e.potSeats[row] = pot.eligible.filter((s) => ticked.has(s));
      });
      return el("label", { class: "check seat-pick" }, box, players.get(seat) ? `Seat ${seat} · ${players.get(seat)}` : `Seat ${seat}`);
    }))))];
}

function renderEffects() {
  const box = clear($("effects"));
  if (!effects.length) box.append(el("p", { class: "hint", text: "No effects: the ruling is recorded with its note." }));
  effects.forEach((e, i) => {
    box.append(el("div", { class: "effect" },
      el("span", { class: "effect-name", text: EFFECTS[e.effect].label }),
      e.effect === "award" ? awardFields(e, i) : Object.entries(e.inputs).map(([field, input]) => el("label", {}, FIELD_LABELS[field], input)),
      e.effect === "accept_entry" ? el("span", { class: "hint", text: selectedCall && selectedCall.entry ? describeAction(selectedCall.entry) : "needs a call with its entry" }) : null,
      el("button", { type: "button", class: "small danger", text: "Remove", onclick: () => { effects.splice(i, 1); renderEffects(); } })));
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

async function submitRuling(event) {
  event.preventDefault();
  if (sending || !poller.table) return;
  const decision = document.querySelector('input[name="decision"]:checked');
  if (!decision) { showProblem({ title: "Choose a decision", detail: "Press “Show options” and pick one." }); return; }
  const body = { decision: decision.value, effects: effects.map(effectBody) };
  const ruleId = $("rule-id").value.trim();
  if (ruleId) body.rule_id = ruleId;
  const note = $("note").value.trim();
  if (note) body.note = note;
  const handNo = $("hand-no").value;
  if (handNo) body.hand_no = Number(handNo);
  if (selectedCall) body.call_id = selectedCall.call_id;
  sending = true;
  try {
    const answer = await call("ruling", { params: { table_id: session.table }, body, version: poller.table.version });
    const box = clear($("answer"));
    if (answer.ok) {
      showProblem(null);
      poller.show(answer.body, answer.etag);
      box.append(el("strong", { text: `Ruling recorded: ${body.decision}` }),
        el("p", { text: `Table now at v${answer.body.version}; audit event #${answer.body.event.seq} (${answer.body.event.hash.slice(0, 16)}…)` }));
      box.hidden = false;
      showMessage("Ruling recorded.");
      selectedCall = null;
      $("call-ref").textContent = "";
      $("note").value = "";
      loadCalls();
      return;
    }
    box.hidden = true;
    if (answer.status === 401) { poller.stop(); tokenRefused(answer.problem, answer.status); return; }
    if (answer.status === 412) {
      showProblem(answer.problem, 412, "The table changed meanwhile. It has been reloaded: check it and rule again.");
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
  setInterval(() => { if (!document.hidden) loadCalls(); }, 5000);
}

if (globalThis.document) setupLogin(setup); // node imports the module in the tests

// "the main pot" as a row's heading: "The main pot".
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
