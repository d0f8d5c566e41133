// The page's words in the reader's language.
//
// The words are the `table` catalogue of the service's gettext catalogues
// (docs/glossary.md), which the service serves for each language it speaks
// as JSON beside these files (words/<tag>.json: each English message and
// its translation). A message is marked where it is written, with _() (its
// words now) or N_() (a message kept, put in words where it is shown), so
// that `make translations` extracts it (babel/table.cfg). Its placeholders
// are {name}s, as the service's own; numbers are ASCII digits in every
// language, and amounts are written with the language's CLDR format
// (Intl), from the exact decimal strings the page keeps.
//
// The language is the reader's choice, kept in this browser only
// (localStorage) and sent only as the Accept-Language of the page's API
// calls; until there is one, it is the first of the browser's languages the
// service speaks, found as the service finds it: Chinese by its script
// (zh-TW and zh-HK write Traditional, zh and zh-CN Simplified, as CLDR's
// likely subtags say), any other language by its primary tag, else English.

import { formatAmount, formatNumber, formatPercent } from "./money.js";

export const ENGLISH = "en";
/** Where the reader's choice is kept. */
const STORED = "baccarat-table-language";
const PLACEHOLDER = /\{(\w+)\}/;

const current = { tag: ENGLISH, words: {} };

/** The language the page is written in now. */
export function language() {
  return current.tag;
}

/** A message marked for translation, to be put in words where it is shown. */
export function N_(message) {
  return message;
}

/**
 * The message in the page's language with its {name}s filled in: a list of
 * strings and of the values themselves, so that a value may be an element.
 */
export function parts(message, values = {}) {
  const pieces = (current.words[message] || message).split(PLACEHOLDER);
  return pieces
    .map((piece, index) => (index % 2 === 0 ? piece : piece in values ? values[piece] : `{${piece}}`))
    .filter((piece) => piece !== "");
}

/** The message in the page's language, as text, with its {name}s filled in. */
export function _(message, values = {}) {
  return parts(message, values).join("");
}

/** Sentences one after the other, as the language writes them (Chinese and Japanese with no space between). */
export function sentences(said) {
  return said.reduce((before, next) => _("{said} {next}", { said: before, next }));
}

/** An amount in minor units, written as the page's language writes numbers: "1,000.00" (en), "1.000,00" (vi). */
export function amount(units, digits) {
  return formatAmount(units, digits, current.tag);
}

/** A net amount with its sign: "+18.75", "-25.00", "0.00" (en). */
export function signedAmount(units, digits) {
  return formatAmount(units, digits, current.tag, { signed: true });
}

/** A rate as a percentage: "0.05" -> "5%" (en). */
export function percentage(rate) {
  return formatPercent(rate, current.tag);
}

/** A decimal string as it is (a chip: "25", "0.5"), written as the page's language writes numbers. */
export function number(text) {
  return formatNumber(text, current.tag);
}

/**
 * Which of `spoken` (the service's tags) answers a reader asking for `tag`
 * (a BCP 47 tag), or null; as the service's speaks() in
 * service/contract/language.py.
 */
export function speaks(tag, spoken) {
  let locale;
  try {
    locale = new Intl.Locale(tag).maximize();
  } catch {
    return null; // not a language tag ("*")
  }
  const wanted = locale.language === "zh" ? `zh-${locale.script}` : locale.language;
  return spoken.includes(wanted) ? wanted : null;
}

/** The language to start in: the reader's choice if kept, else the browser's first that is spoken, else English. */
export function startingLanguage(spoken, preferred = navigator.languages) {
  const kept = storage() && storage().getItem(STORED);
  if (kept && spoken.includes(kept)) return kept;
  for (const tag of preferred || []) {
    const found = speaks(tag, spoken);
    if (found) return found;
  }
  return ENGLISH;
}

/** Keep the reader's choice in this browser (nowhere else). */
export function remember(tag) {
  if (storage()) storage().setItem(STORED, tag);
}

/** Write the page in `tag` from now on: its words fetched from the service, `<html lang>` set. */
export async function speak(tag) {
  const url = new URL(`words/${encodeURIComponent(tag)}.json`, import.meta.url);
  const response = await fetch(url, { credentials: "omit", redirect: "error" });
  if (!response.ok) throw new Error(`the words of ${tag} could not be read: ${response.status}`);
  current.words = await response.json();
  current.tag = tag;
  document.documentElement.lang = tag;
}

/** localStorage, or null where the browser keeps none (a private window may refuse it). */
function storage() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
}
