// dealerassist audit page: runs the "auditVerify" route and shows its report, and downloads
// the exports (events as JSONL or CSV, one hand as JSON or PHH). The exports need the bearer
// header, so they are fetched here and saved from a Blob, never opened by URL.
import { call } from "./api.js";
import { $, clear, el, setupLogin, showMessage, showProblem, tokenRefused } from "./ui.js";

let busy = false;

async function guarded(work) {
  if (busy) return;
  busy = true;
  for (const button of document.querySelectorAll("#main button")) button.disabled = true;
  try {
    await work();
  } finally {
    busy = false;
    for (const button of document.querySelectorAll("#main button")) button.disabled = false;
  }
}

function failed(answer) {
  if (answer.status === 401) tokenRefused(answer.problem, answer.status);
  else showProblem(answer.problem, answer.status);
}

function renderReport(report, tableId) {
  const box = clear($("report"));
  box.append(
    el("div", { class: `verdict ${report.ok ? "ok" : "bad"}` },
      report.ok ? "✔ Audit log verified" : "✘ Problems found"),
    el("table", {},
      el("tr", {}, el("th", { text: "Scope" }), el("td", { text: tableId ? `table ${tableId}` : "all tables" })),
      el("tr", {}, el("th", { text: "Events checked" }), el("td", { text: String(report.events) })),
      el("tr", {}, el("th", { text: "Hands replayed" }), el("td", { text: String(report.hands) })),
      el("tr", {}, el("th", { text: "Problems" }), el("td", { text: String(report.problems.length) })),
      el("tr", {}, el("th", { text: "Checked at" }), el("td", { text: new Date().toLocaleString() }))));
  if (report.problems.length) {
    box.append(el("table", {},
      el("tr", {}, el("th", { text: "Table" }), el("th", { text: "Seq" }), el("th", { text: "Why" })),
      report.problems.map((p) => el("tr", {},
        el("td", { text: p.table_id ?? "" }), el("td", { text: p.seq ?? "" }),
        el("td", { text: typeof p.why === "string" ? p.why : JSON.stringify(p) })))));
  }
  box.hidden = false;
}

async function verify(event) {
  event.preventDefault();
  const tableId = $("verify-table").value.trim();
  await guarded(async () => {
    showMessage("Verifying: every hash is recomputed and every hand replayed…");
    const answer = await call("auditVerify", { query: { table_id: tableId } });
    if (!answer.ok) { failed(answer); showMessage(""); return; }
    showProblem(null);
    showMessage("");
    renderReport(answer.body, tableId);
  });
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

function setup() {
  $("verify-form").addEventListener("submit", verify);
  $("events-form").addEventListener("submit", exportEvents);
  $("hand-form").addEventListener("submit", exportHand);
}

setupLogin(setup, { needsTable: false });
