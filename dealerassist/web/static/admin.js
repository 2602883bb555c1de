// dealerassist admin page: open a table through the "createTable" route (admin token). The
// page checks the obvious (required fields, whole chip counts) and leaves the rest to the
// API: a 400's field errors are shown next to their fields, a 409 says the ID is taken, a 201
// shows the table and makes it the tab's table, so the tablet's login comes prefilled.
import { SPEC_PATH, call, newKey, session } from "./api.js";
import { $, clear, el, fieldErrors, setupLogin, showMessage, showProblem, t, tokenRefused } from "./ui.js";
import { chips } from "./i18n.js";
import { setupShifts } from "./admin_shifts.js";

// The stakes each betting structure uses (blank or hidden: not sent, the API's 0 = not
// used); tests/api/test_web.py checks the keys against the API's structures and the fields
// against its stakes schema.
export const STAKES = {
  fixed_limit: ["small_blind", "big_blind", "small_bet", "big_bet", "ante"],
  pot_limit: ["small_blind", "big_blind", "min_bet", "ante"],
  no_limit: ["small_blind", "big_blind", "min_bet", "ante"],
};
const STAKES_HINTS = {
  fixed_limit: () => t("Fixed limit: bets and raises are the small bet, then the big bet in the later rounds (blank: the big blind, and twice the small bet)."),
  pot_limit: () => t("Pot limit: the minimum bet blank is the big blind."),
  no_limit: () => t("No limit: the minimum bet blank is the big blind."),
};
const MAX_CHIPS = 10 ** 12;
const TABLE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const WHOLE = /^\d+$/;

// values: {table_id, variant, structure, profile, max_seats, mode, stakes: {name: text}}, the
// form's texts. Answers {body, errors}: the JSON body to send, or the errors per field
// ("stakes.ante" for a stake) that the page can tell without asking.
export function buildBody(values) {
  const errors = {};
  const body = {};
  const tableId = String(values.table_id ?? "").trim();
  if (!tableId) errors.table_id = [t("Required.")];
  else if (!TABLE_ID.test(tableId)) errors.table_id = [t("Letters, digits, _ . - (up to 64), starting with a letter or digit.")];
  body.table_id = tableId;
  for (const name of ["variant", "structure"]) {
    const value = String(values[name] ?? "");
    if (!value) errors[name] = [t("Required.")];
    body[name] = value;
  }
  const used = STAKES[body.structure] || [];
  body.stakes = {};
  for (const name of used) {
    const text = String(values.stakes?.[name] ?? "").trim();
    if (text === "") continue;
    if (!WHOLE.test(text) || Number(text) > MAX_CHIPS) {
      errors[`stakes.${name}`] = [t("A whole number of chips, 0 or more.")];
      continue;
    }
    body.stakes[name] = Number(text);
  }
  const profile = String(values.profile ?? "").trim();
  if (!profile) errors.profile = [t("Required.")];
  else if (profile.length > 64) errors.profile = [t("At most 64 characters.")];
  body.profile = profile;
  const seats = String(values.max_seats ?? "").trim();
  if (!WHOLE.test(seats) || Number(seats) < 2 || Number(seats) > 10) errors.max_seats = [t("A whole number from 2 to 10.")];
  else body.max_seats = Number(seats);
  if (values.mode) body.mode = String(values.mode);
  return { body, errors };
}

const STRUCTURE_LABELS = { fixed_limit: () => t("fixed limit"), pot_limit: () => t("pot limit"), no_limit: () => t("no limit") };
// the stakes by name, as the form labels them
const STAKE_WORDS = {
  small_blind: () => t("small blind"), big_blind: () => t("big blind"), small_bet: () => t("small bet"),
  big_bet: () => t("big bet"), min_bet: () => t("minimum bet"), ante: () => t("ante"),
};
const MODE_WORDS = { count: () => t("count"), card: () => t("card") };
let busy = false;
let pending = null; // {text, key}: a body whose answer never came (retried with the same key)

function fieldInputs() {
  return Array.from(document.querySelectorAll("#create-form [data-field]"))
    .filter((node) => node.tagName !== "FIELDSET");
}

function stakeInputs() {
  return Array.from(document.querySelectorAll("#create-form [data-stake]"));
}

function readForm() {
  const values = { stakes: {} };
  for (const input of fieldInputs()) values[input.dataset.field] = input.value;
  for (const input of stakeInputs()) {
    // a number input holding text has the value "": send "?" so it is refused, not omitted
    values.stakes[input.dataset.stake] = input.validity.badInput ? "?" : input.value;
  }
  if ($("max_seats").validity.badInput) values.max_seats = "?";
  return values;
}

function showStakes() {
  const used = STAKES[$("structure").value] || [];
  for (const label of document.querySelectorAll("[data-stake-label]")) {
    label.hidden = !used.includes(label.dataset.stakeLabel);
  }
  $("stakes-hint").textContent = STAKES_HINTS[$("structure").value]?.() || "";
}

// Marks the fields named in errors ({"field" or "stakes.name": [messages]}); answers the
// names no field of the page shows.
function markErrors(errors) {
  for (const box of document.querySelectorAll("#create-form .field-error")) {
    box.textContent = "";
    box.hidden = true;
  }
  for (const node of document.querySelectorAll("#create-form [aria-invalid]")) node.removeAttribute("aria-invalid");
  const unshown = [];
  for (const [name, messages] of Object.entries(errors)) {
    const box = document.getElementById(`error-${name}`);
    if (!box) { unshown.push(name); continue; }
    box.textContent = messages.join(" ");
    box.hidden = false;
    const input = name.startsWith("stakes.") ? $(`stake-${name.slice(7)}`) : $(name);
    if (input && input.tagName !== "FIELDSET") input.setAttribute("aria-invalid", "true");
  }
  return unshown;
}

function focusFirstError() {
  const first = document.querySelector("#create-form [aria-invalid]");
  if (first) first.focus();
}

function renderCreated(table, location) {
  const box = clear($("created"));
  const stakes = Object.entries(table.stakes || {}).filter(([, value]) => value);
  const rows = [
    [t("Table"), table.table_id],
    [t("Game"), $("variant").querySelector(`option[value="${table.variant}"]`)?.textContent || table.variant],
    [t("Structure"), STRUCTURE_LABELS[table.structure]?.() || table.structure],
    [t("Stakes"), stakes.length ? stakes.map(([name, value]) => `${STAKE_WORDS[name]?.() || name.replace(/_/g, " ")} ${chips(value)}`).join(", ") : t("none")],
    [t("Profile"), table.profile],
    [t("Seats"), String(table.max_seats)],
    [t("Mode"), MODE_WORDS[table.mode]?.() || table.mode],
    [t("Version"), String(table.version)],
  ];
  if (location) rows.push([t("Location"), location]);
  const tablet = box.dataset.tablet || "/tablet";
  box.append(
    el("h2", { text: t("Table {table} is open", { table: table.table_id }) }),
    el("table", { class: "facts-table" }, rows.map(([name, value]) => el("tr", {},
      el("th", { text: name }), el("td", { text: value ?? "" })))),
    el("p", {},
      el("a", { href: tablet, class: "button-link", text: t("Open table {table} on the tablet", { table: table.table_id }) })),
    el("p", { class: "hint", text: t("The tablet's login comes with this table ID; the dealer enters the dealer token there.") }));
  box.hidden = false;
}

async function create(event) {
  event.preventDefault();
  if (busy) return;
  $("created").hidden = true;
  const { body, errors } = buildBody(readForm());
  markErrors(errors);
  if (Object.keys(errors).length) {
    showProblem({ title: t("Check the form"), detail: t("The marked fields need a value the service can take.") });
    focusFirstError();
    return;
  }
  const text = JSON.stringify(body);
  // the same body sent again after no answer (network, 5xx) keeps its key: a replay, not a
  // second table or a 409
  if (!pending || pending.text !== text) pending = { text, key: newKey() };
  busy = true;
  const submit = document.querySelector("#create-form button[type=submit]");
  submit.disabled = true;
  try {
    const answer = await call("createTable", { body, headers: { "Idempotency-Key": pending.key } });
    if (answer.status === 0 || answer.status >= 500) {
      showProblem(answer.problem, answer.status, t("Nothing is known to be created: send again (the same form is a safe retry)."));
      return;
    }
    pending = null;
    if (answer.status === 401) { tokenRefused(answer.problem, answer.status); return; }
    if (answer.status === 201) {
      showProblem(null);
      markErrors({});
      session.useTable(answer.body.table_id);
      renderCreated(answer.body, answer.response.headers.get("Location"));
      showMessage(t("Table {table} opened.", { table: answer.body.table_id }));
      return;
    }
    const problem = answer.problem || { title: t("HTTP {status}", { status: answer.status }) };
    if (answer.status === 409) {
      markErrors({ table_id: [problem.detail || t("This table ID is taken.")] });
      showProblem(problem, answer.status, t("A table with this ID exists already: choose another ID."));
    } else if (answer.status === 403) {
      showProblem(problem, answer.status, t("Opening a table needs the admin token (for this table ID)."));
    } else {
      const errors = fieldErrors(problem.errors);
      // an unknown profile is a 400 without field errors; its detail names the known ones
      if (!Object.keys(errors).length && /profile/.test(problem.detail || "")) errors.profile = [problem.detail];
      const unshown = markErrors(errors);
      const marked = Object.keys(errors).length > unshown.length;
      showProblem(problem, answer.status, marked ? t("The marked fields were refused.") : null);
    }
    focusFirstError();
  } finally {
    busy = false;
    submit.disabled = false;
  }
}

// The profile IDs the service knows are the enum of CreateTable.profile in its OpenAPI
// document; without it the field stays free text (the API names the known ones on a 400).
async function loadProfiles() {
  try {
    const response = await fetch(SPEC_PATH, { headers: { Accept: "application/json" }, credentials: "omit" });
    if (!response.ok) return;
    const spec = await response.json();
    const ids = spec?.components?.schemas?.CreateTable?.properties?.profile?.enum;
    if (!Array.isArray(ids)) return;
    const list = clear($("profile-ids"));
    for (const id of ids) list.append(el("option", { value: id }));
  } catch {
    // free text it is
  }
}

let wired = false;

function setup() {
  $("table_id").focus();
  if (wired) return; // a token entered again after a 401: the form is wired already
  wired = true;
  $("structure").addEventListener("change", showStakes);
  $("create-form").addEventListener("submit", create);
  showStakes();
  loadProfiles();
  setupShifts();
}

if (globalThis.document) setupLogin(setup, { needsTable: false });
