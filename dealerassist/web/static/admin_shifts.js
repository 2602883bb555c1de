// dealerassist admin page: dealers (employee ID, name, PIN) and registered tablets (a
// pairing code to enter on the tablet; list; revoke). Through the setDealer, dealers,
// registerTablet, tablets and revokeTablet routes, with the admin token of the page.
import { call } from "./api.js";
import { $, clear, el, showMessage, showProblem, t, tokenRefused } from "./ui.js";

// "S1, S2 ,S3" -> ["S1", "S2", "S3"]
export function tableList(text) {
  return String(text || "").split(/[\s,]+/).map((t) => t.trim()).filter(Boolean);
}

// A pairing code as the admin reads it aloud: "ABCD-EFGH".
export function pairingText(code) {
  const text = String(code || "");
  return text.length === 8 ? `${text.slice(0, 4)}-${text.slice(4)}` : text;
}

function refused(answer) {
  if (answer.status === 401) { tokenRefused(answer.problem, answer.status); return true; }
  if (!answer.ok) { showProblem(answer.problem, answer.status); return true; }
  return false;
}

async function listDealers() {
  const answer = await call("dealers");
  if (refused(answer)) return;
  const body = clear($("dealers").querySelector("tbody"));
  for (const d of answer.body.dealers) {
    body.append(el("tr", {},
      el("th", { scope: "row", text: d.employee_id }), el("td", { text: d.name }),
      el("td", { text: d.on_duty_at || "" }),
      el("td", { text: d.locked_for_seconds ? t("{minutes} min", { minutes: Math.ceil(d.locked_for_seconds / 60) }) : "" })));
  }
}

async function listTablets() {
  const answer = await call("tablets");
  if (refused(answer)) return;
  const body = clear($("tablets").querySelector("tbody"));
  for (const tab of answer.body.tablets) {
    const state = tab.revoked_at ? t("revoked") : tab.paired_at ? t("paired") : t("waiting for its code");
    const shift = tab.shift ? t("{name} ({employee}) at {table}", { name: tab.shift.name, employee: tab.shift.employee_id, table: tab.shift.table_id }) : "";
    body.append(el("tr", {},
      el("th", { scope: "row", text: `${tab.name} · ${tab.tablet_id}` }), el("td", { text: tab.tables.join(", ") }),
      el("td", { text: shift }), el("td", { text: state }),
      el("td", {}, tab.revoked_at ? null : el("button", {
        type: "button", class: "small danger", "data-revoke": tab.tablet_id, text: t("Revoke"),
        onclick: () => revoke(tab.tablet_id),
      }))));
  }
}

async function revoke(tabletId) {
  const answer = await call("revokeTablet", { params: { tablet_id: tabletId } });
  if (refused(answer)) return;
  showMessage(t("Tablet {tablet} revoked.", { tablet: tabletId }));
  listTablets();
}

export function setupShifts() {
  $("dealer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const employeeId = $("dealer-id").value.trim();
    const body = { name: $("dealer-name").value.trim(), pin: $("dealer-pin").value };
    const answer = await call("setDealer", { params: { employee_id: employeeId }, body });
    $("dealer-pin").value = "";
    if (refused(answer)) return;
    showMessage(t("Dealer {employee} saved.", { employee: employeeId }));
    listDealers();
  });
  $("tablet-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: $("tablet-name").value.trim(), tables: tableList($("tablet-tables").value) };
    const answer = await call("registerTablet", { body });
    if (refused(answer)) return;
    const box = $("pairing");
    box.textContent = t("Pairing code for {name}: ", { name: answer.body.name });
    box.append(el("strong", { id: "pairing-code", text: pairingText(answer.body.pairing_code) }),
      t(" (enter it on the tablet's page within 15 minutes; it works once)"));
    box.hidden = false;
    listTablets();
  });
  listDealers();
  listTablets();
}
