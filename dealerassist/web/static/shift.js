// dealerassist: the dealer's shift on a registered tablet (issue 18).
//
// A tablet is registered once: the admin page gives a pairing code, entered here, traded
// for the tablet's device credential, kept in localStorage. A registered tablet never asks
// for a token: the dealer signs in with employee ID and PIN on a keypad, and his shift
// session (a dealer token scoped to the registration's tables, naming him) is kept in
// localStorage too, so a reload, a new tab and a change of table within the registration
// ask nothing again, until he signs out, the next dealer signs in ("push"), or it expires.
// A tablet that is not registered keeps the token form (API users, tests).
//
// A shift ended from elsewhere (the next dealer signed in on another tab, the dealer signed
// in on another tablet or signed out on another tab, an admin revoked the tablet) is a 401
// shift_ended at the next poll or entry: the page says why (kept in sessionStorage across
// the reload) on the sign-in keypad, with the table it was on chosen; or, where another tab
// of this tablet signed the next dealer in, it goes on under his kept session.
import { call, session } from "./api.js";
import { $, clear, el, onTokenRefused, showMessage, showProblem, t } from "./ui.js";

const CREDENTIAL_KEY = "dealerassist.tablet.credential";
const SHIFT_KEY = "dealerassist.tablet.shift";
const NOTICE_KEY = "dealerassist.tablet.notice"; // sessionStorage: why the last shift ended

export const shiftStore = {
  get credential() { return localStorage.getItem(CREDENTIAL_KEY) || ""; },
  set credential(value) {
    if (value) localStorage.setItem(CREDENTIAL_KEY, value); else localStorage.removeItem(CREDENTIAL_KEY);
  },
  get shift() {
    try { return JSON.parse(localStorage.getItem(SHIFT_KEY) || "null"); } catch { return null; }
  },
  set shift(value) {
    if (value) localStorage.setItem(SHIFT_KEY, JSON.stringify(value)); else localStorage.removeItem(SHIFT_KEY);
  },
};

// Whether a kept shift is still live by its clock (the service has the last word: a 401).
export function liveShift(shift, now = Date.now()) {
  return Boolean(shift && shift.token && Date.parse(shift.expires_at) > now);
}

// Why a shift ended, from the 401's problem (code shift_ended, its reason and who took over).
export function endedWords(problem) {
  const p = problem || {};
  const who = p.by_employee_id ? `${p.by_name || p.by_employee_id} (${p.by_employee_id})` : t("another dealer");
  const tablet = p.by_tablet || t("another tablet");
  switch (p.code === "shift_ended" ? p.reason : null) {
    case "pushed": return t("Your shift on this tablet ended: {who} signed in as the next dealer.", { who });
    case "signed_in_elsewhere": return t("Your shift on this tablet ended: you signed in on tablet {tablet}.", { tablet });
    case "sign_out": return t("You were signed out on another screen of this tablet. Sign in to go on.");
    case "tablet_revoked": return t("An admin revoked this tablet's registration: enter a new pairing code from the admin page.");
    case "ended_by_floor": return t("The floor ended your shift on this tablet. Sign in to go on.");
    default: return t("Your shift session has ended or expired. Sign in to go on.");
  }
}

function takeNotice() {
  const text = sessionStorage.getItem(NOTICE_KEY) || "";
  sessionStorage.removeItem(NOTICE_KEY);
  return text;
}

function showNotice(id, text) {
  const box = $(id);
  box.textContent = text;
  box.hidden = !text;
}

// The header's words for the dealer on duty.
export function dealerLabel(shift) {
  return shift ? t("Dealer {name} ({employee})", { name: shift.name, employee: shift.employee_id }) : "";
}

// Typing a keypad key into a field: a digit, "back" or "clear".
export function keyed(value, key, maxLength = 12) {
  if (key === "clear") return "";
  if (key === "back") return value.slice(0, -1);
  return value.length >= maxLength ? value : value + key;
}

function asDevice() { return { Authorization: `Bearer ${shiftStore.credential}` }; }

// Start the tablet page: ``open`` is the page's own start (the token form's setupLogin).
export async function startTablet(open) {
  if (!shiftStore.credential) {
    // offered beside the token form only, never over a table opened with a token
    $("pair").hidden = Boolean(session.token && session.table);
    showNotice("pair-notice", takeNotice()); // the tablet was revoked
    $("login-form").addEventListener("submit", () => { $("pair").hidden = true; });
    $("pair-form").addEventListener("submit", pair);
    open();
    return;
  }
  $("login").hidden = true; // a registered tablet never asks for a token
  onTokenRefused(shiftEnded);
  const shift = shiftStore.shift;
  if (liveShift(shift)) {
    session.save(shift.token, shift.table_id);
    open();
    showShiftBar(shift);
    const notice = takeNotice(); // another tab signed the next dealer in: his session goes on
    if (notice) showMessage(notice, 0);
    return;
  }
  shiftStore.shift = null;
  await showSignIn(open);
}

async function pair(event) {
  event.preventDefault();
  const code = $("pair-code").value.trim();
  const answer = await call("pairTablet", { body: { pairing_code: code } });
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  shiftStore.credential = answer.body.credential;
  window.location.reload();
}

let signInListening = false;
let opened = false;

async function showSignIn(open) {
  $("main").hidden = true;
  $("session").hidden = true;
  $("shift-login").hidden = false;
  const status = await call("tabletStatus", { headers: asDevice() });
  if (status.status === 401) { // revoked: the tablet must be registered again
    shiftStore.credential = null;
    window.location.reload();
    return;
  }
  if (!status.ok) { showProblem(status.problem, status.status); return; }
  showNotice("shift-notice", takeNotice());
  const tablet = status.body;
  $("shift-tablet").textContent = `${tablet.name}: ${tablet.tables.join(", ")}`;
  const select = clear($("sign-in-table"));
  for (const table of tablet.tables) select.append(el("option", { value: table, text: t("Table {table}", { table }) }));
  const wanted = session.table && tablet.tables.includes(session.table) ? session.table : tablet.tables[0];
  select.value = wanted;
  $("sign-in-table-field").hidden = tablet.tables.length === 1;
  $("sign-in-employee").value = "";
  $("sign-in-pin").value = "";
  $("sign-in-employee").focus();
  if (signInListening) return;
  signInListening = true;
  let field = $("sign-in-employee");
  for (const id of ["sign-in-employee", "sign-in-pin"]) $(id).addEventListener("focus", () => { field = $(id); });
  for (const key of document.querySelectorAll("#keypad .key")) {
    key.addEventListener("click", () => {
      field.value = keyed(field.value, key.dataset.key, field.maxLength > 0 ? field.maxLength : 32);
    });
  }
  $("sign-in-cancel").addEventListener("click", () => window.location.reload());
  $("sign-in-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      table_id: $("sign-in-table").value,
      employee_id: $("sign-in-employee").value.trim(),
      pin: $("sign-in-pin").value,
    };
    $("sign-in-send").disabled = true;
    const answer = await call("signIn", { body, headers: asDevice() });
    $("sign-in-send").disabled = false;
    $("sign-in-pin").value = "";
    if (!answer.ok) { showProblem(signInWords(answer.problem), answer.status); return; }
    const shift = answer.body;
    shiftStore.shift = shift;
    showProblem(null);
    if (opened) { window.location.reload(); return; } // a push: the page starts afresh
    $("shift-login").hidden = true;
    session.save(shift.token, shift.table_id);
    opened = true;
    open();
    showShiftBar(shift);
  });
}

// A refused sign-in in the dealer's words.
export function signInWords(problem) {
  const code = problem && problem.code;
  if (code === "wrong_pin") return { title: t("Wrong employee ID or PIN"), detail: t("Check both and try again.") };
  if (code === "pin_locked") {
    // the service's detail as it came, then the dealer's own words
    return { title: t("Locked out"), detail: `${problem.detail || ""} ${t("Try again in {minutes} min.", { minutes: Math.ceil((problem.retry_after || 60) / 60) })}` };
  }
  return problem;
}

// The header on a signed-in tablet: the dealer on duty, the table (a change within the
// registration asks nothing), "Next dealer" (push) and "Sign out".
function showShiftBar(shift) {
  opened = true;
  $("logout").hidden = true;
  const bar = el("span", { class: "shift-bar", id: "shift-bar" },
    el("span", { class: "dealer-on-duty", id: "dealer-on-duty", text: dealerLabel(shift) }));
  if (shift.tables.length > 1) {
    const select = el("select", { id: "shift-table", "aria-label": t("Table") });
    for (const table of shift.tables) select.append(el("option", { value: table, text: t("Table {table}", { table }) }));
    select.value = shift.table_id;
    select.addEventListener("change", () => moveTo(select.value));
    bar.append(select);
  }
  bar.append(
    el("button", { type: "button", class: "small", id: "push", text: t("Next dealer"), onclick: () => push() }),
    el("button", { type: "button", class: "small", id: "sign-out", text: t("Sign out"), onclick: () => signOut() }),
  );
  $("session").append(bar);
  $("session-label").textContent = t("Table {table}", { table: shift.table_id });
}

async function moveTo(table) {
  const answer = await call("shiftTable", { body: { table_id: table } });
  if (!answer.ok) { showProblem(answer.problem, answer.status); return; }
  shiftStore.shift = { ...shiftStore.shift, ...answer.body };
  session.useTable(table);
  window.location.reload();
}

function push() {
  // the next dealer signs in on this tablet; the service ends this shift when he does
  $("sign-in-cancel").hidden = false;
  showSignIn(() => {});
}

async function signOut() {
  await call("signOut", {});
  shiftStore.shift = null;
  session.forgetToken();
  window.location.reload();
}

// A 401 on a registered tablet: the shift ended (the next dealer signed in, it expired,
// the tablet was revoked): the page starts afresh on the keypad saying why, at the same
// table (session.table stays). The kept session is forgotten only if it is the one refused:
// one that another tab signed in since is the tablet's current dealer.
function shiftEnded(problem) {
  const kept = shiftStore.shift;
  if (!kept || kept.token === session.token) shiftStore.shift = null;
  session.forgetToken();
  sessionStorage.setItem(NOTICE_KEY, endedWords(problem));
  window.location.reload();
  return true;
}
