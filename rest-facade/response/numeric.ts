/**
 * A numeric custom field value as v3 shows it: a decimal string with at least one fractional digit
 * and never an exponent (DECISIONS: Responses: custom_fields "numeric and currency = decimal
 * strings (the real service answered "23.0")"; the Ruby client's cassettes people_index.yml /
 * people_create.yml record `"custom_label_6":"23.0"` for the numeric field "numericfield", which is
 * Rails' BigDecimal#to_s). So 23 → "23.0", 12.5 → "12.5", -0.25 → "-0.25", 1e21 → "1000000000000000000000.0".
 *
 * A number (a record's value: GraphQL keeps it a Float) is written with its shortest exact digits,
 * what JSON showed before; a decimal string (a total, already exact from SQL) keeps its digits.
 * Anything else (null, NaN, text that is not a decimal) comes back as null or as it was.
 */
export function formatNumeric(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? withFraction(plainDigits(value)) : null;
  if (typeof value === 'string' && DECIMAL.test(value)) return withFraction(value);
  return value;
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const EXPONENT = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/;

/** `String(n)` without its exponent (JavaScript writes 1e21 and 1e-7 that way). */
function plainDigits(n: number): string {
  const text = String(n); // -0 → "0"
  const m = EXPONENT.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exp] = m;
  const digits = lead + rest;
  const point = 1 + Number(exp); // where the decimal point falls in `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const withFraction = (digits: string) => (digits.includes('.') ? digits : `${digits}.0`);
