// dealerassist: the one place the pages name /v1 paths (tests/api/test_web.py checks each
// ROUTES entry against the app's URL map), the bearer token, and the HTTP helpers.
// Every change carries If-Match: "v<version>" and a fresh Idempotency-Key (or the caller's,
// for a retry of the same change). Every call says the page's language (Accept-Language:
// the locale the page was served in, which the chooser may have set apart from the
// browser's own header), so the service answers a refusal's detail and the instructions'
// text in it.
import { locale, t } from "./i18n.js";

export const ROUTES = {
  createTable: ["POST", "/v1/tables"],
  table: ["GET", "/v1/tables/{table_id}"],
  profile: ["GET", "/v1/profiles/{profile_id}"],
  seat: ["PUT", "/v1/tables/{table_id}/seats/{seat}"],
  unseat: ["DELETE", "/v1/tables/{table_id}/seats/{seat}"],
  seatChange: ["POST", "/v1/tables/{table_id}/seats/{seat}/changes"],
  startHand: ["POST", "/v1/tables/{table_id}/hands"],
  action: ["POST", "/v1/tables/{table_id}/actions"],
  undo: ["POST", "/v1/tables/{table_id}/undo"],
  floorCall: ["POST", "/v1/tables/{table_id}/floor-calls"],
  tableFloorCall: ["GET", "/v1/tables/{table_id}/floor-calls/{call_id}"],
  ruling: ["POST", "/v1/tables/{table_id}/rulings"],
  rulingOptions: ["GET", "/v1/rulings/options"],
  floorCalls: ["GET", "/v1/floor/calls"],
  floorCallOne: ["GET", "/v1/floor/calls/{call_id}"],
  floorTables: ["GET", "/v1/floor/tables"],
  auditEvents: ["GET", "/v1/audit/events"],
  auditHand: ["GET", "/v1/audit/hands/{table_id}/{hand_no}"],
  auditVerify: ["GET", "/v1/audit/verify"],
  auditVerifications: ["POST", "/v1/audit/verifications"],
  auditVerification: ["GET", "/v1/audit/verifications/{verification_id}"],
  auditTables: ["GET", "/v1/audit/tables"],
  auditHands: ["GET", "/v1/audit/hands"],
  auditReplay: ["GET", "/v1/audit/hands/{table_id}/{hand_no}/replay"],
  setDealer: ["PUT", "/v1/dealers/{employee_id}"],
  dealers: ["GET", "/v1/dealers"],
  registerTablet: ["POST", "/v1/tablets"],
  tablets: ["GET", "/v1/tablets"],
  revokeTablet: ["DELETE", "/v1/tablets/{tablet_id}"],
  pairTablet: ["POST", "/v1/tablets/pair"],
  tabletStatus: ["GET", "/v1/tablet"],
  signIn: ["POST", "/v1/tablet/sign-in"],
  shift: ["GET", "/v1/shift"],
  shiftTable: ["POST", "/v1/shift/table"],
  signOut: ["POST", "/v1/shift/sign-out"],
};

// The OpenAPI document (not /v1, no token): the admin page reads the profile IDs from it.
export const SPEC_PATH = "/openapi.json";

// Each page keeps its own token (a tablet's dealer token is no use on the floor console or
// the audit page, and must not be reused there); the table ID is shared within the tab.
const PAGE = globalThis.document?.body?.dataset?.page ?? "page";
const TOKEN_KEY = `dealerassist.token.${PAGE}`;
const TABLE_KEY = "dealerassist.table";

export const session = {
  get token() { return sessionStorage.getItem(TOKEN_KEY) || ""; },
  get table() { return sessionStorage.getItem(TABLE_KEY) || ""; },
  save(token, table) {
    sessionStorage.setItem(TOKEN_KEY, token);
    if (table !== undefined) sessionStorage.setItem(TABLE_KEY, table);
  },
  // The table the pages of this tab open (the tablet's and the floor's login prefill it).
  useTable(table) { sessionStorage.setItem(TABLE_KEY, table); },
  forgetToken() { sessionStorage.removeItem(TOKEN_KEY); },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TABLE_KEY);
  },
};

// crypto.randomUUID exists only in secure contexts (https, localhost); a tablet on the
// casino LAN over plain http gets a v4 UUID from getRandomValues instead.
export function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function" && window.isSecureContext) {
    return window.crypto.randomUUID();
  }
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function path(route, params = {}, query = {}) {
  const [, template] = ROUTES[route];
  let filled = template.replace(/\{(\w+)\}/g, (_, name) => {
    if (params[name] === undefined || params[name] === null || params[name] === "") {
      throw new Error(`missing ${name} for ${template}`);
    }
    return encodeURIComponent(String(params[name]));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  if (text) filled += `?${text}`;
  return filled;
}

// The service's clock as the pages estimate it from each answer's Date header (1 s steps):
// serverClock.now() is Date.now() corrected by the last offset seen, for countdowns to a
// deadline the service set (DRAW-11's draw timer).
export const serverClock = {
  offsetMs: 0,
  heard(response) {
    const date = response && response.headers && Date.parse(response.headers.get("Date") || "");
    if (Number.isFinite(date)) this.offsetMs = date + 500 - Date.now(); // the middle of its second
  },
  now() { return Date.now() + this.offsetMs; },
};

// The answer of one call: {status, ok, body (JSON or null), problem (problem+json or null),
// etag, response}. Network failures answer status 0 with a problem of our own.
export async function call(route, { params = {}, query = {}, body, version, headers = {}, raw = false } = {}) {
  const [method] = ROUTES[route];
  const sent = { Accept: "application/json, application/problem+json", "Accept-Language": locale, ...headers };
  if (session.token && !headers.Authorization) sent.Authorization = `Bearer ${session.token}`;
  if (method !== "GET") {
    // a caller retrying the same change after no answer passes its key again
    sent["Idempotency-Key"] = headers["Idempotency-Key"] || newKey();
    if (version !== undefined && version !== null) sent["If-Match"] = `"v${version}"`;
  }
  const init = { method, headers: sent, cache: "no-store", credentials: "omit" };
  if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path(route, params, query), init);
  } catch (error) {
    return {
      status: 0, ok: false, body: null, etag: null, response: null,
      problem: {
        title: t("The service cannot be reached"),
        detail: t("No answer: the Wi-Fi or the network is down. An entry counts only once the table shows it; check the table and tap again."),
        offline: true, cause: String(error),
      },
    };
  }
  serverClock.heard(response);
  const answer = {
    status: response.status, ok: response.ok, body: null, problem: null,
    etag: response.headers.get("ETag"), response,
  };
  if (raw && response.ok) return answer;
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 304 && type.includes("json")) {
    const parsed = await response.json().catch(() => null);
    if (type.includes("problem+json") || !response.ok) answer.problem = parsed;
    else answer.body = parsed;
  } else if (!response.ok && response.status !== 304) {
    answer.problem = { title: `HTTP ${response.status}`, detail: await response.text().catch(() => "") };
  }
  return answer;
}
