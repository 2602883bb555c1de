// dealerassist: the scripts' words in the page's language. The page's <html lang> is the
// locale the server chose (the device's choice, else the browser's language); its strings
// come from GET /i18n/<locale>.json, loaded once before any module that imports this one
// runs (a top-level await), revalidated by ETag. t("Seat {seat}", {seat: 3}) looks the
// English msgid up and fills the named parameters; an untranslated msgid shows as English.
// Babel's JavaScript extractor (babel.cfg, `make i18n`) collects the t("...") calls.

export const LOCALES = ["en", "es", "fr"];
export const COOKIE = "lang";
const STORE_KEY = "dealerassist.lang";
const YEAR = 365 * 24 * 3600;

let messages = {};

export const locale = (globalThis.document && LOCALES.includes(document.documentElement.lang))
  ? document.documentElement.lang : "en";

// "{name}" filled from params; "{{" and "}}" are literal braces; an unknown name is left as is.
export function format(text, params = {}) {
  return String(text).replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
  });
}

export function t(msgid, params) {
  const text = Object.prototype.hasOwnProperty.call(messages, msgid) ? messages[msgid] : msgid;
  return params ? format(text, params) : text;
}

// A whole number of chips as the locale writes it ("1,500", "1.500", "1 500").
export function chips(value, lang = locale) {
  return Number(value).toLocaleString(lang);
}

// For the tests (node) and a catalog obtained otherwise.
export function useMessages(table) { messages = { ...table }; }

async function load() {
  if (locale === "en") return;
  try {
    const response = await fetch(`/i18n/${locale}.json`, { headers: { Accept: "application/json" }, credentials: "omit" });
    if (response.ok) useMessages((await response.json()).messages || {});
  } catch {
    // no catalog: the scripts speak English, the page's own words stay translated
  }
}

function cookieLang() {
  const found = document.cookie.split(/;\s*/).find((part) => part.startsWith(`${COOKIE}=`));
  return found ? found.slice(COOKIE.length + 1) : null;
}

function remember(lang) {
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=${YEAR}; SameSite=Lax`;
  try { localStorage.setItem(STORE_KEY, lang); } catch { /* private mode: the cookie only */ }
}

// The chooser of base.html: a choice is kept in this device (cookie for the server,
// localStorage in case the cookie is cleared) and the page reloads in it.
function setupChooser() {
  const select = document.getElementById("lang-select");
  if (select) {
    select.value = locale;
    select.addEventListener("change", () => {
      if (!LOCALES.includes(select.value)) return;
      remember(select.value);
      window.location.reload();
    });
  }
  let stored = null;
  try { stored = localStorage.getItem(STORE_KEY); } catch { /* none */ }
  // the cookie lost (cleared, expired) but the device chose: put it back and reload once
  if (LOCALES.includes(stored) && cookieLang() === null && stored !== locale) {
    remember(stored);
    if (cookieLang() === stored) window.location.reload();
  }
}

if (globalThis.document) {
  await load();
  setupChooser();
}
