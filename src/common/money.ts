/**
 * Money as exact decimal text, never a float: amounts are parsed from text (or a JS number's own
 * shortest text), rounded half away from zero on the digit string, and stored in `numeric`
 * columns, which PostgreSQL returns as text. Cents are computed with BigInt.
 */

/** Digits before the decimal point a money column holds (numeric(19,4)). */
export const MONEY_INTEGER_DIGITS = 15;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Why an amount was refused, for a user error naming the field. */
export class MoneyError extends Error {}

/**
 * `value` (a number, or text such as `"5000"`, `"5000.5"`, `"-12.345"`) as a canonical decimal
 * string with exactly `decimals` places, rounded half away from zero. Null for null or blank.
 */
export function toMoney(value: unknown, decimals: number, limit = true): string | null {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyError('must be a decimal number');
    text = Math.abs(value) < 1e21 ? String(value) : 'x';
    if (/e/i.test(text)) text = Math.abs(value) >= 1 ? 'x' : value.toFixed(Math.min(100, decimals + 1));
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    throw new MoneyError('must be a decimal number');
  }
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new MoneyError('must be a decimal number');
  const intDigits = m[2].replace(/^0+(?=\d)/, '') || '0';
  const fraction = m[3] ?? '';
  let scaled = BigInt(intDigits + fraction.padEnd(decimals, '0').slice(0, decimals));
  if ((fraction[decimals] ?? '0') >= '5') scaled += 1n;
  const out = formatScaled(m[1] === '-' ? -scaled : scaled, decimals);
  if (limit && out.replace(/^-/, '').split('.')[0].length > MONEY_INTEGER_DIGITS)
    throw new MoneyError(`is too large (at most ${MONEY_INTEGER_DIGITS} digits before the decimal point)`);
  return out;
}

function formatScaled(scaled: bigint, decimals: number): string {
  const negative = scaled < 0n;
  let digits = (negative ? -scaled : scaled).toString().padStart(decimals + 1, '0');
  if (decimals > 0) digits = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

/** A stored amount (PostgreSQL numeric text, e.g. `5000.0000`) shown with the currency's places. */
export function showMoney(stored: string | null | undefined, decimals: number): string | null {
  if (stored === null || stored === undefined) return null;
  // The common case, shown once per money field per row: PostgreSQL's text with at least the
  // currency's places and only zeros beyond them is cut, not parsed (nothing to round).
  const dot = stored.indexOf('.');
  if (dot > 0 && stored.length - dot - 1 >= decimals && STORED.test(stored) && /^0*$/.test(stored.slice(dot + 1 + decimals))) {
    const shown = decimals === 0 ? stored.slice(0, dot) : stored.slice(0, dot + 1 + decimals);
    if (!/^-0(\.0*)?$/.test(shown)) return shown;
  }
  // Shown, not stored: a stored amount rounded up to one more digit (fewer places than it was
  // written with) is shown as it is, not refused.
  return toMoney(stored, decimals, false);
}

/** numeric text as PostgreSQL writes it: no leading zeros, a fraction. */
const STORED = /^-?(0|[1-9]\d*)\.\d+$/;

/** Whole cents of an amount (v3 `value_in_cents`), exact; half a cent rounds away from zero. */
export function centsOf(amount: string | null): number | null {
  if (amount === null) return null;
  // showMoney: the stored text cut to cents when nothing is to round (every page shows this), else rounded.
  return Number(BigInt(showMoney(amount, 2)!.replace('.', '')));
}

/** An amount from whole cents (v3 `value_in_cents` written), with the currency's places. */
export function fromCents(cents: number, decimals: number): string {
  if (!Number.isSafeInteger(cents)) throw new MoneyError('must be a whole number of cents');
  return toMoney(formatScaled(BigInt(cents), 2), decimals)!;
}
