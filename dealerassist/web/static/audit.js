// dealerassist audit page: verifies the audit log as a verification job (POST, then the job
// polled until it is finished or failed) and shows its report, and downloads the exports
// (events as JSONL or CSV, one hand as JSON or PHH). The exports need the bearer header, so
// they are fetched here and saved from a Blob, never opened by URL.
import { call } from "./api.js";
import { $, clear, el, setupLogin, showMessage, showProblem, tokenRefused } from "./ui.js";

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

function renderReport(report, tableId, checkedAt) {
  const box = clear($("report"));
  box.append(
    el("div", { class: `verdict ${report.ok ? "ok" : "bad"}` },
      report.ok ? "✔ Audit log verified" : "✘ Problems found"),
    el("table", {},
      el("tr", {}, el("th", { text: "Scope" }), el("td", { text: tableId ? `table ${tableId}` : "all tables" })),
      el("tr", {}, el("th", { text: "Events checked" }), el("td", { text: String(report.events) })),
      el("tr", {}, el("th", { text: "Hands replayed" }), el("td", { text: String(report.hands) })),
      el("tr", {}, el("th", { text: "Problems" }), el("td", { text: String(report.problems.length) })),
      el("tr", {}, el("th", { text: "Checked at" }), el("td", { text: checkedAt.toLocaleString() }))));
  if (report.problems.length) {
    box.append(el("table", {},
      el("tr", {}, el("th", { text: "Table" }), el("th", { text: "Seq" }), el("th", { text: "Why" })),
      report.problems.map((p) => el("tr", {},
        el("td", { text: p.table_id ?? "" }), el("td", { text: p.seq ?? "" }),
        el("td", { text: typeof p.why === "string" ? p.why : JSON.stringify(p) })))));
  }
  box.hidden = false;
}

// What the page says while the job waits or runs (``seconds`` since it was started here).
export function jobMessage(job, seconds) {
  const waited = seconds >= 1 ? ` (${Math.floor(seconds)} s)` : "";
  if (job.status === "queued") return `Verification queued: it starts when the verification worker is free…${waited}`;
  if (job.status === "running") return `Verifying: every hash is recomputed and every hand replayed…${waited}`;
  if (job.status === "finished") return "Verified.";
  return "The verification failed.";
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
    showProblem({ title: "The verification failed", detail: job.error || "" });
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
  showMessage(`Saved ${filename} (${blob.size.toLocaleString()} bytes).`);
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

let wired = false;

function setup() {
  if (wired) return; // a token entered again after a 401: the forms are wired already
  wired = true;
  $("verify-form").addEventListener("submit", verify);
  $("events-form").addEventListener("submit", exportEvents);
  $("hand-form").addEventListener("submit", exportHand);
}

if (globalThis.document) setupLogin(setup, { needsTable: false }); // node imports the module in the tests
