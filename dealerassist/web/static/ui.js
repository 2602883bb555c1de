// dealerassist: small DOM helpers shared by the pages (no framework), the login panel and
// the problem banner (RFC 9457: title, detail, rule_id, allowed).
import { session } from "./api.js";
import { chips, t } from "./i18n.js";

export { chips, t };

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  return append(node, ...children);
}

// Node.append would show a null or undefined child as the text "null": leave them out.
export function append(node, ...children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// The entries' and seat changes' kinds, and a post's options, in words (lower case: they
// follow "seat 3").
const KIND_WORDS = {
  check: t("check"), call: t("call"), fold: t("fold"), bet: t("bet"), raise: t("raise to"),
  post: t("post"), draw: t("draw"), show: t("show"), muck: t("muck"), deal: t("dealt"),
  time: t("time"), chop: t("chop"), exposed: t("exposed card"), extra_card: t("extra card"),
  sit_out: t("sits out"), return: t("returns"), change_seat: t("changes seat"), add_chips: t("adds chips"),
  wait: t("waits for the big blind"), straddle: t("straddle"), no_straddle: t("no straddle"),
  big_blind_only: t("big blind only"),
};
export function kindWords(kind) {
  if (kind === undefined || kind === null) return null;
  return Object.prototype.hasOwnProperty.call(KIND_WORDS, kind) ? KIND_WORDS[kind] : String(kind).replace(/_/g, " ");
}

// An action entry ({seat, action, ...}), a seat change ({type, seat, wait, to, chips}) or a
// pot a SHOW-07 refusal lists ({pot, amount, eligible}).
export function describeAction(a) {
  if (a.pot !== undefined && Array.isArray(a.eligible)) return t("{pot} {amount} (seats {seats})", { pot: a.pot, amount: chips(a.amount), seats: a.eligible.join(", ") });
  const kind = kindWords(a.action || a.type);
  const parts = [a.seat !== undefined ? t("seat {seat}", { seat: a.seat }) : null, kind, kindWords(a.option)];
  if (a.wait === true) parts.push(t("waiting for the big blind"));
  if (a.to !== undefined && a.to !== null) parts.push(t("to seat {seat}", { seat: a.to }));
  if (a.chips !== undefined && a.chips !== null) parts.push(t("{chips} chips", { chips: chips(a.chips) }));
  if (a.amount !== undefined && a.amount !== null) parts.push(chips(a.amount));
  if (a.min !== undefined && a.max !== undefined) parts.push(a.min === a.max ? chips(a.min) : `${chips(a.min)}–${chips(a.max)}`);
  if (a.count !== undefined && a.count !== null) parts.push(t("{count} cards", { count: a.count }));
  return parts.filter((p) => p !== null && p !== undefined).join(" ");
}

// A 400's "errors" (marshmallow: field -> messages, nested objects for nested schemas) as
// {"stakes.small_blind": ["..."], ...}.
export function fieldErrors(errors, prefix = "") {
  const flat = {};
  for (const [field, messages] of Object.entries(errors || {})) {
    const name = prefix ? `${prefix}.${field}` : field;
    if (messages && typeof messages === "object" && !Array.isArray(messages)) {
      Object.assign(flat, fieldErrors(messages, name));
    } else {
      flat[name] = [].concat(messages).map(String);
    }
  }
  return flat;
}

// A field of a refused form in words ("stakes.big_blind" is "Big blind").
const FIELD_WORDS = {
  player: () => t("Player"), stack: () => t("Stack"), amount: () => t("Amount"), cards: () => t("Cards"),
  seat: () => t("Seat"), discards: () => t("Discards"), count: () => t("Number of cards"),
  rank: () => t("Rank"), note: () => t("Note"), button: () => t("Button"), kill_seat: () => t("Kill seat"),
  chips: () => t("Chips"), to: () => t("Seat to move to"), table_id: () => t("Table ID"),
  variant: () => t("Variant"), structure: () => t("Structure"), profile: () => t("Profile"),
  max_seats: () => t("Max seats"), mode: () => t("Mode"), small_blind: () => t("Small blind"),
  big_blind: () => t("Big blind"), small_bet: () => t("Small bet"), big_bet: () => t("Big bet"),
  min_bet: () => t("Min bet"), ante: () => t("Ante"),
};
export function fieldWords(field) {
  const last = String(field).split(".").pop();
  if (Object.prototype.hasOwnProperty.call(FIELD_WORDS, last)) return FIELD_WORDS[last]();
  const text = last.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function showProblem(problem, status, extra) {
  const box = $("problem");
  clear(box);
  if (!problem) { box.hidden = true; return; }
  // what it says, then its buttons (a page lays them out side by side, tablet.css)
  const words = el("div", { class: "problem-text" });
  const head = el("div", { class: "problem-head" });
  if (problem.rule_id) head.append(el("span", { class: "rule-id", text: problem.rule_id }));
  head.append(el("strong", { text: problem.title || t("Refused") }));
  if (status) head.append(el("span", { class: "status", text: ` (${status})` }));
  words.append(head);
  if (problem.detail) words.append(el("p", { class: "detail", text: problem.detail }));
  if (extra) words.append(el("p", { class: "detail", text: extra }));
  if (Array.isArray(problem.allowed) && problem.allowed.length) {
    words.append(el("p", { class: "allowed" }, `${t("Allowed instead:")} `,
      el("span", { text: problem.allowed.map((a) => describeAction(a)).join(" · ") })));
  }
  if (problem.errors && typeof problem.errors === "object") {
    words.append(el("ul", {}, Object.entries(fieldErrors(problem.errors)).map(
      ([field, messages]) => el("li", { text: `${fieldWords(field)}: ${messages.join("; ")}` }))));
  }
  // a page adds its offers after Dismiss (the tablet's "Send this entry to the floor")
  box.append(words, el("div", { class: "problem-actions" },
    el("button", { type: "button", class: "small", text: t("Dismiss"), onclick: () => showProblem(null) })));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

let messageTimer = null;
// keepMs: how long the message stays (0: until the next message)
export function showMessage(text, keepMs = 6000) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(messageTimer);
  if (text && keepMs) messageTimer = setTimeout(() => { box.hidden = true; }, keepMs);
}

// The login panel: token (and table ID where the page has one) once, then onReady().
export function setupLogin(onReady, { needsTable = true } = {}) {
  const form = $("login-form");
  const tokenInput = $("login-token");
  const tableInput = $("login-table");
  const start = () => {
    $("login").hidden = true;
    $("main").hidden = false;
    $("session").hidden = false;
    $("session-label").textContent = needsTable ? t("Table {table}", { table: session.table }) : t("Token set");
    onReady();
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    session.save(tokenInput.value.trim(), needsTable ? tableInput.value.trim() : undefined);
    tokenInput.value = "";
    start();
  });
  $("logout").addEventListener("click", () => {
    session.clear();
    window.location.reload();
  });
  if (tableInput && session.table) tableInput.value = session.table;
  if (session.token && (!needsTable || session.table)) start();
  else tokenInput.focus();
}

// A page may handle a 401 its own way (a registered tablet asks the dealer to sign in
// again, not for a token): the hook returns true when it did.
let refusedHook = null;
export function onTokenRefused(hook) { refusedHook = hook; }

// After a 401 the token is wrong or revoked: forget it and ask again.
export function tokenRefused(problem, status) {
  if (refusedHook && refusedHook(problem, status)) return;
  session.forgetToken();
  $("main").before($("problem")); // a page may keep its banner inside main (the tablet's dock)
  $("login").hidden = false;
  $("main").hidden = true;
  $("session").hidden = true;
  showProblem(problem, status, t("Enter the token again."));
}
