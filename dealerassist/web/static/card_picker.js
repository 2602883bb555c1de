// dealerassist: the card picker of the dealer tablet's card mode: a deck grid (a row per
// suit, ace to deuce) under the card field in use. A tap adds the card to the field (or
// takes it out again); the cards the tablet knows to be in play are greyed out, and for a
// seat's discards or show only that seat's cards are offered when the tablet knows them.
// Typed cards are read as the engine reads them: "10h" is "Th", "ah kd" is "Ah Kd".
import { clear, el } from "./ui.js";
import { t } from "./i18n.js";

export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
export const SUITS = ["s", "h", "d", "c"];
const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAMES = { s: t("spades"), h: t("hearts"), d: t("diamonds"), c: t("clubs") };
const RANK_NAMES = {
  A: t("Ace"), K: t("King"), Q: t("Queen"), J: t("Jack"), T: t("Ten"), 9: t("Nine"), 8: t("Eight"), 7: t("Seven"),
  6: t("Six"), 5: t("Five"), 4: t("Four"), 3: t("Three"), 2: t("Deuce"),
};
const SPECIAL = new Set(["Jk", "??"]); // the joker (DECK-02), a card nobody saw

// {cards: ["Th", "As"], bad: ["1x"]} for what the dealer typed: spaces or commas between
// cards, or none ("AhKd"); a rank in either case, "10" for the ten; a suit letter or symbol.
export function readCards(text) {
  const cards = [];
  const bad = [];
  const symbols = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
  const tokens = String(text || "").replace(/[♠♥♦♣]/g, (s) => symbols[s]).split(/[\s,;]+/).filter(Boolean);
  for (const token of tokens) {
    if (SPECIAL.has(token) || token.toLowerCase() === "jk") { cards.push(token.toLowerCase() === "jk" ? "Jk" : token); continue; }
    const run = token.match(/^((10|[2-9tjqka])[shdc])+$/i);
    if (!run) { bad.push(token); continue; }
    for (const [, rank, suit] of token.matchAll(/(10|[2-9tjqka])([shdc])/gi)) {
      cards.push(`${rank === "10" ? "T" : rank.toUpperCase()}${suit.toLowerCase()}`);
    }
  }
  return { cards, bad };
}

export const CARD_FORMS = t("rank then suit: A K Q J T 9 … 2 and s h d c, e.g. Ah, Td, 7c (10h is read as Th)");

export function cardName(card) {
  if (card === "Jk") return t("Joker");
  return t("{rank} of {suit}", { rank: RANK_NAMES[card[0]] || card[0], suit: SUIT_NAMES[card[1]] || card[1] });
}

// The grid for one field: offered(card) says whether a card may be picked for it; a tap
// toggles the card in the field's text, then onChange().
export function renderPicker(box, field, { offered = () => true, onChange = () => {} } = {}) {
  clear(box);
  if (!field) { box.hidden = true; return; }
  box.hidden = false;
  const picked = new Set(readCards(field.value).cards);
  box.append(el("div", { class: "picker-head" },
    el("span", { text: t("{field}: tap the cards", { field: field.getAttribute("aria-label") || t("Cards") }) }),
    el("button", { type: "button", class: "small", text: t("Clear"), onclick: () => { field.value = ""; onChange(); } })));
  for (const suit of SUITS) {
    const row = el("div", { class: `picker-row suit-${suit}`, role: "group", "aria-label": SUIT_NAMES[suit] });
    for (const rank of RANKS) {
      const card = `${rank}${suit}`;
      const on = picked.has(card);
      const can = on || offered(card);
      // the name starts with what the button shows ("A♠ Ace of spades"): a speech user says
      // what he sees (WCAG 2.5.3), a screen reader hears the card's name too
      const shown = `${rank === "T" ? "10" : rank}${SUIT_SYMBOLS[suit]}`;
      row.append(el("button", {
        type: "button", class: `card suit-${suit}${on ? " picked" : ""}`, disabled: !can,
        "aria-pressed": on ? "true" : "false", "aria-label": `${shown} ${cardName(card)}`, "data-card": card,
        text: shown,
        onclick: () => {
          const now = readCards(field.value).cards;
          field.value = (on ? now.filter((c) => c !== card) : [...now, card]).join(" ");
          onChange();
        },
      }));
    }
    box.append(row);
  }
}
