// dealerassist: a shown hand's name in the page's language, the scripts' counterpart of
// rules/cards/hand_words.py. The table view names each shown hand in English (shown_as:
// "three of a kind, aces", "seven-five low"), which is word for word hand_words' English; this
// reads that name back into its parts (a template key and its ranks) and puts them in the
// room's words ("trío de ases", "brelan d'as"; lowball "siete-cinco", "sept-cinq") with the
// same tables. A name it cannot read is shown as it came. tests/api/test_web.py holds every
// key and rank to hand_words.words in each language.
import { locale as pageLocale } from "./i18n.js";

const ORDER = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const EN_PLURAL = (word) => (word === "six" ? "sixes" : `${word}s`);

// rank (its English word) -> [singular, plural]
const RANKS = {
  es: {
    ace: ["as", "ases"], king: ["rey", "reyes"], queen: ["reina", "reinas"], jack: ["jota", "jotas"],
    ten: ["diez", "dieces"], nine: ["nueve", "nueves"], eight: ["ocho", "ochos"], seven: ["siete", "sietes"],
    six: ["seis", "seises"], five: ["cinco", "cincos"], four: ["cuatro", "cuatros"], three: ["tres", "treses"],
    two: ["dos", "doses"],
  },
  fr: {
    ace: ["as", "as"], king: ["roi", "rois"], queen: ["dame", "dames"], jack: ["valet", "valets"],
    ten: ["dix", "dix"], nine: ["neuf", "neuf"], eight: ["huit", "huit"], seven: ["sept", "sept"],
    six: ["six", "six"], five: ["cinq", "cinq"], four: ["quatre", "quatre"], three: ["trois", "trois"],
    two: ["deux", "deux"],
  },
};

// key -> template per language, as hand_words._TEMPLATES: {1}/{2} a rank's singular, {1s}/{2s}
// its plural, {de1s} French "de"/"d'" before the plural, {al1} Spanish "al"/"a la".
export const TEMPLATES = {
  royal_flush: { en: "royal flush", es: "escalera real", fr: "quinte flush royale" },
  straight_flush: { en: "straight flush, {1} high", es: "escalera de color {al1}", fr: "quinte flush hauteur {1}" },
  four_of_a_kind: { en: "four of a kind, {1s}", es: "póquer de {1s}", fr: "carré {de1s}" },
  full_house: { en: "full house, {1s} full of {2s}", es: "full de {1s} con {2s}", fr: "full aux {1s} par les {2s}" },
  flush: { en: "flush, {1} high", es: "color {al1}", fr: "couleur hauteur {1}" },
  straight: { en: "straight, {1} high", es: "escalera {al1}", fr: "quinte hauteur {1}" },
  three_of_a_kind: { en: "three of a kind, {1s}", es: "trío de {1s}", fr: "brelan {de1s}" },
  two_pair: { en: "two pair, {1s} and {2s}", es: "doble pareja, {1s} y {2s}", fr: "deux paires, {1s} et {2s}" },
  one_pair: { en: "pair of {1s}", es: "pareja de {1s}", fr: "paire {de1s}" },
  high_card: { en: "{1} high", es: "carta alta, {1}", fr: "hauteur {1}" },
  low: { en: "{1}-{2} low", es: "{1}-{2}", fr: "{1}-{2}" },
};

const SINGULAR = ORDER.join("|");
const PLURAL = ORDER.map(EN_PLURAL).join("|");

// The English template as a pattern: each slot captures a rank's singular or plural word.
function pattern(template) {
  const slots = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\d)(s?)\}/g, (_, n, plural) => {
    slots.push({ n: Number(n), plural: Boolean(plural) });
    return `(${plural ? PLURAL : SINGULAR})`;
  });
  return { regex: new RegExp(`^${source}$`), slots };
}
const PATTERNS = Object.entries(TEMPLATES).map(([key, words]) => ({ key, ...pattern(words.en) }));

// {key, ranks: ["ace", ...]} for an English name (hand_words' English), or null.
export function readHandName(text) {
  for (const { key, regex, slots } of PATTERNS) {
    const found = regex.exec(String(text || ""));
    if (!found) continue;
    const ranks = [];
    slots.forEach((slot, i) => {
      const word = found[i + 1];
      ranks[slot.n - 1] = slot.plural ? ORDER.find((r) => EN_PLURAL(r) === word) : word;
    });
    return { key, ranks };
  }
  return null;
}

// The parts in one language's words, as hand_words.words (English: the template filled).
export function nameWords({ key, ranks }, lang) {
  const table = RANKS[lang];
  let text = TEMPLATES[key][lang in TEMPLATES[key] ? lang : "en"];
  ranks.forEach((rank, i) => {
    const [singular, plural] = table ? table[rank] : [rank, EN_PLURAL(rank)];
    const n = i + 1;
    const fill = {
      [`${n}`]: singular,
      [`${n}s`]: plural,
      [`de${n}s`]: "aeiou".includes(plural[0]) ? `d'${plural}` : `de ${plural}`,
      [`al${n}`]: rank === "queen" || rank === "jack" ? `a la ${singular}` : `al ${singular}`,
    };
    text = text.replace(/\{(\w+)\}/g, (whole, slot) => (slot in fill ? fill[slot] : whole));
  });
  return text;
}

// A shown hand's English name (the view's shown_as) in ``lang``, the page's by default.
export function handWords(english, lang = pageLocale) {
  if (lang === "en") return english;
  const parts = readHandName(english);
  return parts ? nameWords(parts, lang) : english;
}
