// Money as integer minor units (cents, for two decimals).
//
// The service writes amounts as decimal strings. The page reads them into
// integers of the currency's minor unit, by their digits, never through a
// binary float, adds those up for the play-money balance, and writes them
// back as decimal strings.

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

/** 100000 with 2 decimals -> "1,000.00" (grouped) or "1000.00" (as the API reads it). */
export function formatMinor(units, digits, { grouped = true } = {}) {
  if (!Number.isSafeInteger(units)) throw new Error(`not a whole number of minor units: ${units}`);
  const text = String(Math.abs(units)).padStart(digits + 1, "0");
  let whole = digits ? text.slice(0, -digits) : text;
  if (grouped) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (units < 0 ? "-" : "") + whole + (digits ? `.${text.slice(-digits)}` : "");
}

/** A net amount with its sign: "+18.75", "-25.00", "0.00". */
export function signed(units, digits) {
  return (units > 0 ? "+" : "") + formatMinor(units, digits);
}

/** A rate as a percentage, by moving the decimal point: "0.05" -> "5", "0.045" -> "4.5". */
export function percent(text) {
  const [whole, fraction = ""] = String(text).split(".");
  const padded = fraction.padEnd(2, "0");
  const head = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const tail = padded.slice(2).replace(/0+$/, "");
  return tail ? `${head}.${tail}` : head;
}

/** Odds to one as a casino writes them: "8" -> "8:1", "0.54" -> "0.54:1", "0.5" -> "1:2". */
export function odds(text) {
  const scale = 6;
  const units = toMinor(text, scale);
  const one = 10 ** scale;
  if (units > 0 && units < one && one % units === 0) return `1:${one / units}`;
  return `${text}:1`;
}
