// dealerassist floor console: the table (polled), its open floor calls, and a ruling form
// built from the options the API offers for the rule (the "rulingOptions" route). The ruling
// goes to the "ruling" route with If-Match and a fresh Idempotency-Key.
import { call, session } from "./api.js";
import { $, append, clear, describeAction, el, setupLogin, showMessage, showProblem, tokenRefused } from "./ui.js";
import { TablePoller, renderTable } from "./table_view.js";

const EFFECTS = {
  void_last: { label: "Void last action(s)", fields: ["count"] },
  kill_hand: { label: "Kill a hand", fields: ["seat"] },
  misdeal: { label: "Misdeal", fields: [] },
  award: { label: "Award the pot", fields: ["seats"] },
  adjust_stack: { label: "Adjust a stack", fields: ["seat", "amount"] },
  move_button: { label: "Move the button", fields: ["seat"] },
  reopen_betting: { label: "Reopen betting", fields: ["seat"] },
  hold_pot: { label: "Hold the pot", fields: [] },
  release_pot: { label: "Release the pot", fields: [] },
  accept_entry: { label: "Accept the refused entry", fields: ["waive"] },
};
const FIELD_LABELS = { count: "How many", seat: "Seat", amount: "Chips (+/−)", seats: "Seats (e.g. 2, 5)", waive: "Rule waived" };

const poller = new TablePoller(renderTable, 3000);
let selectedCall = null;
let effects = []; // [{effect, inputs: {field: input}}]
let sending = false;

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
    if (field === "seats" || field === "waive") {
      input = el("input", { type: "text", spellcheck: "false" });
      if (field === "waive") input.value = $("rule-id").value;
    } else {
      input = el("input", { type: "number", inputmode: "numeric", step: 1, min: field === "amount" ? undefined : 1 });
      if (field === "count") input.value = 1;
    }
    inputs[field] = input;
  }
  effects.push({ effect: kind, inputs });
}

function renderEffects() {
  const box = clear($("effects"));
  if (!effects.length) box.append(el("p", { class: "hint", text: "No effects: the ruling is recorded with its note." }));
  effects.forEach((e, i) => {
    box.append(el("div", { class: "effect" },
      el("span", { class: "effect-name", text: EFFECTS[e.effect].label }),
      Object.entries(e.inputs).map(([field, input]) => el("label", {}, FIELD_LABELS[field], input)),
      e.effect === "accept_entry" ? el("span", { class: "hint", text: selectedCall && selectedCall.entry ? describeAction(selectedCall.entry) : "needs a call with its entry" }) : null,
      el("button", { type: "button", class: "small danger", text: "Remove", onclick: () => { effects.splice(i, 1); renderEffects(); } })));
  });
}

function effectBody(e) {
  const body = { effect: e.effect };
  for (const [field, input] of Object.entries(e.inputs)) {
    const text = input.value.trim();
    if (!text) continue;
    if (field === "seats") body.seats = text.split(/[\s,]+/).filter(Boolean).map(Number);
    else if (field === "waive") body.waive = text.toUpperCase();
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

setupLogin(setup);
