// dealerassist audit page: browses the audit store's tables and hands (by table, UTC day and
// hand number) and replays a hand step by step (each entry as recorded, whether it replays as
// recorded, the table after it, the instructions given, the rulings), verifies the audit log
// as a verification job (POST, then the job polled until it is finished or failed) and shows
// its report, and downloads the exports (events as JSONL or CSV, one hand as JSON or PHH).
// The exports need the bearer header, so they are fetched here and saved from a Blob, never
// opened by URL.
import { call } from "./api.js";
import { $, append, clear, describeAction, el, setupLogin, showMessage, showProblem, t, tokenRefused } from "./ui.js";
import { chips, locale } from "./i18n.js";
import { renderTable } from "./table_view.js";

// The verification job routes, by their names in api.js (the one list of API paths).
export const START_ROUTE = "auditVerifications";
export const JOB_ROUTE = "auditVerification";
export const POLL_MS = 1000;
export const RETRIES = 5; // consecutive unanswered polls (no network, 503) before giving up

let busy = false;
let verifying = false;

async function guarded(work) {
  if (busy) return;
  busy = true;
  for (const button of document.querySelectorAll("#main button")) button.disabled = true;
  try {
    await work();
  } finally {
    busy = false;
    for (const button of document.querySelectorAll("#main button")) {
      button.disabled = verifying && button.closest("#verify-form") !== null;
    }
  }
}

function failed(answer) {
  if (answer.status === 401) tokenRefused(answer.problem, answer.status);
  else showProblem(answer.problem, answer.status);
}

// The verdict a report earns: verified only if there was something to verify (a table that
// does not exist, or has no events, is not "verified").
export function verdict(report, tableId) {
  if (!report.ok) return { kind: "bad", text: t("✘ Problems found") };
  if (!report.events) {
    return { kind: "empty", text: tableId ? t("⚠ Nothing verified: the audit store has no events of table {table}", { table: tableId }) : t("⚠ Nothing verified: the audit store has no events") };
  }
  return { kind: "ok", text: t("✔ Audit log verified") };
}

function renderReport(report, tableId, checkedAt) {
  const box = clear($("report"));
  const found = verdict(report, tableId);
  box.append(
    el("div", { class: `verdict ${found.kind}` }, found.text),
    el("table", {},
      el("tr", {}, el("th", { text: t("Scope") }), el("td", { text: tableId ? t("table {table}", { table: tableId }) : t("all tables") })),
      el("tr", {}, el("th", { text: t("Events checked") }), el("td", { text: chips(report.events) })),
      el("tr", {}, el("th", { text: t("Hands replayed") }), el("td", { text: chips(report.hands) })),
      el("tr", {}, el("th", { text: t("Problems") }), el("td", { text: chips(report.problems.length) })),
      el("tr", {}, el("th", { text: t("Checked at") }), el("td", { text: checkedAt.toLocaleString(locale) }))));
  if (report.problems.length) {
    box.append(el("table", {},
      el("tr", {}, el("th", { text: t("Table") }), el("th", { text: t("Seq") }), el("th", { text: t("Why") })),
      report.problems.map((p) => el("tr", {},
        el("td", { text: p.table_id ?? "" }), el("td", { text: p.seq ?? "" }),
        el("td", { text: typeof p.why === "string" ? p.why : JSON.stringify(p) })))));
  }
  box.hidden = false;
}

// What the page says while the job waits or runs (``seconds`` since it was started here).
export function jobMessage(job, seconds) {
  const waited = seconds >= 1 ? t(" ({seconds} s)", { seconds: Math.floor(seconds) }) : "";
  if (job.status === "queued") return t("Verification queued: it starts when the verification worker is free…") + waited;
  if (job.status === "running") return t("Verifying: every hash is recomputed and every hand replayed…") + waited;
  if (job.status === "finished") return t("Verified.");
  return t("The verification failed.");
}

// Poll a job until it is finished or failed: the last answer ({ok: true, job} or {ok: false,
// answer} for the refusal or failure that stopped it). fetchJob(id) answers like api.js's
// call(); onStatus(job) hears each answer still queued or running. A poll nobody answered
// (status 0, 502, 503, 504) is tried again, up to RETRIES times in a row.
export async function pollVerification(id, { fetchJob, sleep, onStatus, interval = POLL_MS }) {
  let misses = 0;
  for (;;) {
    const answer = await fetchJob(id);
    if (answer.ok) {
      misses = 0;
      const job = answer.body;
      if (job.status === "finished" || job.status === "failed") return { ok: true, job };
      onStatus(job);
    } else if ([0, 502, 503, 504].includes(answer.status) && misses < RETRIES) {
      misses += 1;
    } else {
      return { ok: false, answer };
    }
    await sleep(interval);
  }
}

function showJobStatus(text) {
  const line = $("verify-status");
  line.textContent = text;
  line.hidden = !text;
}

async function runVerification(tableId) {
  const body = tableId ? { table_id: tableId } : {};
  const started = await call(START_ROUTE, { body });
  if (!started.ok) { failed(started); return; }
  showProblem(null);
  const since = Date.now();
  const onStatus = (job) => showJobStatus(jobMessage(job, (Date.now() - since) / 1000));
  onStatus(started.body);
  const end = await pollVerification(started.body.id, {
    fetchJob: (id) => call(JOB_ROUTE, { params: { verification_id: id } }),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    onStatus,
  });
  showJobStatus("");
  if (!end.ok) { failed(end.answer); return; }
  const job = end.job;
  if (job.status === "failed") {
    showProblem({ title: t("The verification failed"), detail: job.error || "" });
    return;
  }
  renderReport(job.result, tableId, job.ended_at ? new Date(job.ended_at) : new Date());
}

async function verify(event) {
  event.preventDefault();
  if (verifying) return;
  const tableId = $("verify-table").value.trim();
  const button = $("verify-form").querySelector("button[type=submit]");
  verifying = true;
  button.disabled = true;
  try {
    await runVerification(tableId);
  } finally {
    verifying = false;
    button.disabled = busy;
  }
}

// datetime-local has no zone: the labels say UTC, so the value is sent as UTC.
function utc(value) {
  if (!value) return "";
  return value.length === 16 ? `${value}:00Z` : `${value}Z`;
}

async function save(answer, filename) {
  const blob = await answer.response.blob();
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  showMessage(t("Saved {file} ({bytes} bytes).", { file: filename, bytes: chips(blob.size) }));
}

async function download(route, options, filename) {
  await guarded(async () => {
    const answer = await call(route, { ...options, raw: true });
    if (!answer.ok) { failed(answer); return; }
    showProblem(null);
    await save(answer, filename);
  });
}

function exportEvents(event) {
  event.preventDefault();
  const format = event.submitter ? event.submitter.value : "jsonl";
  const tableId = $("events-table").value.trim();
  const query = { format, table_id: tableId, since: utc($("events-since").value), until: utc($("events-until").value) };
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  download("auditEvents", { query }, `audit-events-${tableId || "all"}-${stamp}.${format}`);
}

function exportHand(event) {
  event.preventDefault();
  const format = event.submitter ? event.submitter.value : "json";
  const tableId = $("hand-table").value.trim();
  const handNo = Number($("hand-no").value);
  download("auditHand", { params: { table_id: tableId, hand_no: handNo }, query: { format } },
    `hand-${tableId}-${handNo}.${format}`);
}


// -- browsing tables and hands, and a hand's replay -------------------------------------------

async function loadTables() {
  const answer = await call("auditTables");
  const box = clear($("audit-tables"));
  if (!answer.ok) { box.append(el("p", { class: "hint", text: t("The tables cannot be listed now.") })); failed(answer); return; }
  const rows = answer.body.tables;
  if (!rows.length) { box.append(el("p", { class: "hint", text: t("The audit store holds no table yet.") })); return; }
  box.append(el("table", { class: "browse" },
    el("caption", { class: "visually-hidden", text: t("Tables in the audit store") }),
    el("thead", {}, el("tr", {}, [t("Table"), t("Events"), t("Hands ended"), t("Last event"), t("Pace"), ""].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows.map((row) => el("tr", {},
      el("th", { scope: "row", text: row.table_id }),
      el("td", { text: chips(row.events) }),
      el("td", { text: chips(row.hands_ended) }),
      el("td", { text: row.last_at ? new Date(row.last_at).toLocaleString(locale) : "—" }),
      el("td", { text: row.pace && row.pace.hands_per_hour ? t("{count} hands/h", { count: row.pace.hands_per_hour.toLocaleString(locale) }) : "—" }),
      el("td", {}, el("button", { type: "button", class: "small", text: t("Hands of {table}", { table: row.table_id }), onclick: () => { $("hands-table").value = row.table_id; findHands(); } })))))));
}

async function findHands(event) {
  if (event) event.preventDefault();
  const query = { table_id: $("hands-table").value.trim(), date: $("hands-date").value, hand_no: $("hands-no").value };
  const box = clear($("hands"));
  $("hands-status").textContent = t("Searching…");
  const answer = await call("auditHands", { query });
  if (!answer.ok) { $("hands-status").textContent = ""; failed(answer); return; }
  showProblem(null);
  const { hands, total } = answer.body;
  const filters = [query.table_id && t("table {table}", { table: query.table_id }), query.date, query.hand_no && t("hand #{hand}", { hand: query.hand_no })].filter(Boolean);
  const scope = filters.length ? ` (${filters.join(", ")})` : "";
  const found = total === 1 ? t("1 hand found{scope}", { scope }) : t("{count} hands found{scope}", { count: chips(total), scope });
  const shown = total > hands.length ? t(", first {count} shown", { count: chips(hands.length) }) : "";
  $("hands-status").textContent = total ? `${found}${shown}.` : t("No hand found{scope}.", { scope });
  if (!hands.length) return;
  box.append(el("table", { class: "browse" },
    el("caption", { class: "visually-hidden", text: t("Hands found") }),
    el("thead", {}, el("tr", {}, [t("Table"), t("Hand"), t("Started"), t("Events"), t("Won"), ""].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, hands.map((h) => el("tr", {},
      el("td", { text: h.table_id }),
      el("th", { scope: "row", text: `#${h.hand_no}` }),
      el("td", { text: new Date(h.started_at).toLocaleString(locale) }),
      el("td", { text: chips(h.events) }),
      el("td", { text: h.complete ? Object.entries(h.winners).map(([seat, won]) => t("seat {seat} {chips}", { seat, chips: chips(won) })).join(", ") || "—" : t("in play or reopened") }),
      el("td", {}, el("button", { type: "button", class: "small primary", "data-hand": `${h.table_id}/${h.hand_no}`, text: t("Replay #{hand}", { hand: h.hand_no }), onclick: () => replay(h.table_id, h.hand_no) })))))));
}

let steps = [];
let at = 0;

// One recorded entry in words: the command, a refusal, a floor call or a ruling.
export function stepText(step) {
  const command = step.command || {};
  if (step.kind === "dealer_on_duty") {
    const shift = step.shift || {};
    if (!shift.employee_id) return t("Dealer {employee} signed out ({reason})", { employee: shift.previous || "", reason: String(shift.reason || "").replace(/_/g, " ") });
    const onDuty = shift.name ? t("Dealer {name} ({employee}) on duty", { name: shift.name, employee: shift.employee_id }) : t("Dealer ({employee}) on duty", { employee: shift.employee_id });
    return shift.previous ? onDuty + t(", relieving {employee}", { employee: shift.previous }) : onDuty;
  }
  if (step.kind === "sign_in_refused") return t("Sign-in refused: {employee} ({reason})", { employee: (step.shift || {}).employee_id, reason: String((step.shift || {}).reason || "").replace(/_/g, " ") });
  if (step.kind === "floor_call") return `${t("Floor called")}${step.call && step.call.rule_id ? ` (${step.call.rule_id})` : ""}${step.call && step.call.note ? `: ${step.call.note}` : ""}`;
  if (step.kind === "ruling") {
    const r = step.ruling || {};
    const effects = (r.effects || []).map((e) => e.effect.replace(/_/g, " ")).join(", ");
    return `${t("Ruling: {decision}", { decision: r.decision })}${r.rule_id ? ` (${r.rule_id})` : ""}${effects ? ` — ${effects}` : ""}${r.note ? ` — “${r.note}”` : ""}`;
  }
  if (step.kind === "rejected") {
    const rule = step.refused && step.refused.rule_id;
    return rule ? t("Refused by {rule}: {action}", { rule, action: describeAction(command) }) : t("Refused: {action}", { action: describeAction(command) });
  }
  if (step.kind === "start_hand") return command.button ? t("Hand started, button seat {seat}", { seat: command.button }) : t("Hand started");
  if (step.kind === "action") return `${describeAction({ ...command, cards: undefined })}${command.cards ? ` ${[].concat(command.cards).join(" ")}` : ""}`;
  return String(step.kind).replace(/_/g, " ");
}

function renderSteps() {
  const list = clear($("replay-steps"));
  steps.forEach((step, i) => {
    list.append(el("li", { class: `replay-entry kind-${step.kind}${i === at ? " current" : ""}${step.verified ? "" : " unverified"}` },
      el("button", { type: "button", class: "step-button", "aria-current": i === at ? "step" : null, onclick: () => showStep(i) },
        el("span", { class: "step-seq", text: `#${step.seq}` }), " ", stepText(step))));
  });
}

function showStep(index) {
  at = Math.max(0, Math.min(index, steps.length - 1));
  const step = steps[at];
  $("replay-position").textContent = t("Step {step} of {steps}", { step: at + 1, steps: steps.length });
  const box = clear($("replay-step"));
  const noDealer = t("none signed in"); // a t() within t()'s arguments is not extracted
  append(box,
    el("p", { class: "step-entry" }, el("strong", { text: stepText(step) })),
    el("p", { class: "hint", text: t("seq {seq} · {time} · by {actor} ({role}) · dealer {dealer} · table v{version}", { seq: step.seq, time: new Date(step.at).toLocaleTimeString(locale), actor: step.actor, role: step.role, dealer: step.dealer || noDealer, version: step.version }) }),
    el("p", { class: `step-check ${step.verified ? "ok" : "bad"}`, text: step.verified ? t("✔ Replays as recorded") : `✘ ${step.problem || t("Not replayed: an earlier step disagreed")}` }),
    step.refused && step.refused.message ? el("p", { text: t("Refusal: {message}", { message: step.refused.message }) }) : null);
  if (step.table) renderTable(step.table);
  renderSteps();
  for (const [id, off] of [["replay-first", at === 0], ["replay-prev", at === 0], ["replay-next", at === steps.length - 1], ["replay-last", at === steps.length - 1]]) $(id).disabled = off;
}

async function replay(tableId, handNo) {
  const answer = await call("auditReplay", { params: { table_id: tableId, hand_no: handNo } });
  if (!answer.ok) { failed(answer); return; }
  showProblem(null);
  steps = answer.body.steps;
  const rulings = answer.body.rulings.length;
  const then = t(", then "); // a t() within t()'s arguments is not extracted
  const dealers = (answer.body.dealers || []).length ? t(" · dealer {dealers}", { dealers: answer.body.dealers.join(then) }) : "";
  const entries = steps.length === 1 ? t("1 entry") : t("{count} entries", { count: steps.length });
  const ruled = rulings ? (rulings === 1 ? t(", 1 ruling") : t(", {count} rulings", { count: rulings })) : "";
  const verdictText = answer.body.verified ? t("every step replays as recorded") : t("a step does not replay as recorded");
  const open = answer.body.complete ? "" : t(" · the hand is not over in the store (still played, or not stored whole yet)");
  $("replay-title").textContent = `${t("Table {table}, hand #{hand}", { table: tableId, hand: handNo })}${dealers}: ${entries}${ruled} · ${verdictText}${open}`;
  $("replay").hidden = false;
  showStep(0);
  $("replay").scrollIntoView({ block: "start" });
  $("replay-next").focus();
}

function replayKeys(event) {
  if ($("replay").hidden || event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowRight") { event.preventDefault(); showStep(at + 1); }
  if (event.key === "ArrowLeft") { event.preventDefault(); showStep(at - 1); }
}

let wired = false;

function setup() {
  if (wired) return; // a token entered again after a 401: the forms are wired already
  wired = true;
  $("verify-form").addEventListener("submit", verify);
  $("events-form").addEventListener("submit", exportEvents);
  $("hand-form").addEventListener("submit", exportHand);
  $("hands-form").addEventListener("submit", findHands);
  $("replay-first").addEventListener("click", () => showStep(0));
  $("replay-prev").addEventListener("click", () => showStep(at - 1));
  $("replay-next").addEventListener("click", () => showStep(at + 1));
  $("replay-last").addEventListener("click", () => showStep(steps.length - 1));
  document.addEventListener("keydown", replayKeys);
  loadTables();
}

if (globalThis.document) setupLogin(setup, { needsTable: false }); // node imports the module in the tests
