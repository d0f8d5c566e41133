// Money as integer minor units (cents, for two decimals).
//
// The service writes amounts as decimal strings. The page reads them into
// integers of the currency's minor unit, by their digits, never through a
// binary float, adds those up for the play-money balance, and writes them
// back as decimal strings. What the reader sees is those strings written as
// their language writes numbers (CLDR, by the browser's Intl), given to Intl
// as the decimal strings themselves, so that no amount passes through a float.

const AMOUNT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "23.75" with 2 decimals -> 2375. Refuses anything that is not a plain decimal. */
export function toMinor(text, digits) {
  const match = AMOUNT.exec(String(text));
  if (!match) throw new Error(`not an amount: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > digits) throw new Error(`${text} has more than ${digits} decimals`);
  const units = Number(whole + fraction.padEnd(digits, "0"));
  if (!Number.isSafeInteger(units)) throw new Error(`${text} is too large`);
  return sign && units ? -units : units;
}

/** 100000 with 2 decimals -> "1000.00", as the API reads and writes amounts. */
export function formatMinor(units, digits) {
  if (!Number.isSafeInteger(units)) throw new Error(`not a whole number of minor units: ${units}`);
  const text = String(Math.abs(units)).padStart(digits + 1, "0");
  const whole = digits ? text.slice(0, -digits) : text;
  return (units < 0 ? "-" : "") + whole + (digits ? `.${text.slice(-digits)}` : "");
}

const FORMATS = new Map();

function numberFormat(tag, options) {
  const key = JSON.stringify([tag, options]);
  if (!FORMATS.has(key)) FORMATS.set(key, new Intl.NumberFormat(tag, options));
  return FORMATS.get(key);
}

/**
 * 100000 with 2 decimals as the language `tag` writes it: "1,000.00" (en),
 * "1.000,00" (vi); with `signed`, a gain has its "+" ("+18.75").
 */
export function formatAmount(units, digits, tag, { signed = false } = {}) {
  const format = numberFormat(tag, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: signed ? "exceptZero" : "auto",
  });
  return format.format(formatMinor(units, digits));
}

/** A plain decimal string as the language `tag` writes it, with its own decimals: "2500" -> "2,500" (en). */
export function formatNumber(text, tag) {
  if (!AMOUNT.test(String(text))) throw new Error(`not an amount: ${text}`);
  return numberFormat(tag, { maximumFractionDigits: 20 }).format(String(text));
}

/** A rate as the language `tag` writes a percentage: "0.05" -> "5%", "0.045" -> "4.5%" (en). */
export function formatPercent(text, tag) {
  if (!AMOUNT.test(String(text))) throw new Error(`not a rate: ${text}`);
  return numberFormat(tag, { style: "percent", maximumFractionDigits: 20 }).format(String(text));
}

/** Odds to one as a casino writes them: "8" -> "8:1", "0.54" -> "0.54:1", "0.5" -> "1:2". */
export function odds(text) {
  const scale = 6;
  const units = toMinor(text, scale);
  const one = 10 ** scale;
  if (units > 0 && units < one && one % units === 0) return `1:${one / units}`;
  return `${text}:1`;
}
