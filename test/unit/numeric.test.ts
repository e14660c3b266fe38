import { formatNumeric } from '../../rest-facade/response/numeric';

/**
 * v3 shows numeric custom field values as decimal strings with at least one fractional digit
 * (DECISIONS: Responses: custom_fields; cassette people_index.yml: `"custom_label_6":"23.0"`).
 */
describe('formatNumeric', () => {
  it('numbers: an integer gets ".0", others their shortest exact digits', () => {
    expect([23, 12.5, -0.25, 0, -0, 7, 1234.5678, -3].map(formatNumeric)).toEqual(['23.0', '12.5', '-0.25', '0.0', '0.0', '7.0', '1234.5678', '-3.0']);
  });

  it('never an exponent (JavaScript writes 1e21 and 1e-7 with one)', () => {
    expect(formatNumeric(1e21)).toBe('1000000000000000000000.0');
    expect(formatNumeric(-1.5e22)).toBe('-15000000000000000000000.0');
    expect(formatNumeric(1.5e-7)).toBe('0.00000015');
    expect(formatNumeric(-2e-7)).toBe('-0.0000002');
  });

  it('decimal strings (SQL totals) keep their digits, with ".0" when whole', () => {
    expect(['30', '12.5', '-4', '0', '0.10'].map(formatNumeric)).toEqual(['30.0', '12.5', '-4.0', '0.0', '0.10']);
  });

  it('anything else: null for a non-finite number, as it came otherwise', () => {
    expect(formatNumeric(Number.NaN)).toBeNull();
    expect(formatNumeric(Number.POSITIVE_INFINITY)).toBeNull();
    expect(formatNumeric(null)).toBeNull();
    expect(formatNumeric('abc')).toBe('abc');
  });
});
