import { failure } from '../support/facade-failure';
import { toDate, toDateTime, toDateTimeBound, toDecimalString, toText } from '../../rest-facade/request/coerce';
import { parseConditions, type ConditionTable } from '../../rest-facade/request/conditions';

/** The edges of the value coercions and conditions: exact limits, messages naming the field, odd inputs. */

describe('toText edges', () => {
  it('names the type it refuses, a NaN being a number', () => {
    expect(failure(() => toText(Number.NaN, 'person[zip]', 10))).toMatchObject({ field: 'person[zip]', message: 'must be text, not number' });
    expect(failure(() => toText({}, 'person[zip]', 10)).message).toBe('must be text, not an object');
    expect(failure(() => toText([], 'person[zip]', 10)).message).toBe('must be text, not a list');
  });
});

describe('toDecimalString edges', () => {
  const TOO_LARGE = 'is too large (at most 13 digits before the decimal point)';

  it('refuses a number too large to print without an exponent as too large, not as garbage', () => {
    expect(failure(() => toDecimalString(1e21, 'deal[value]', 2))).toMatchObject({ field: 'deal[value]', message: TOO_LARGE });
    expect(failure(() => toDecimalString(-2e25, 'deal[value]', 2)).message).toBe(TOO_LARGE);
  });

  it('rounds a tiny number printed with an exponent on its first dropped digit', () => {
    expect(toDecimalString(5e-7, 'v', 6)).toBe('0.000001');
    expect(toDecimalString(4e-7, 'v', 6)).toBe('0.000000');
    expect(toDecimalString(1e-7, 'v', 2)).toBe('0.00');
  });

  it('ignores leading zeros when counting integer digits', () => {
    expect(toDecimalString('0000000000000001.5', 'v', 2)).toBe('1.50');
    expect(toDecimalString('0000000000000000', 'v', 2)).toBe('0.00');
  });

  it('says how many digits are allowed', () => {
    expect(failure(() => toDecimalString('12345678901234', 'deal[value]', 2))).toMatchObject({ field: 'deal[value]', message: TOO_LARGE });
  });

  it('pads values below one with zeros', () => {
    expect(toDecimalString('0.05', 'v', 2)).toBe('0.05');
    expect(toDecimalString('.5', 'v', 3)).toBe('0.500');
    expect(toDecimalString('-0.001', 'v', 3)).toBe('-0.001');
  });

  it('refuses a value that rounds up past the digit limit, at any scale', () => {
    expect(toDecimalString('9999999999999.4', 'v', 0)).toBe('9999999999999');
    expect(failure(() => toDecimalString('9999999999999.5', 'v', 0)).message).toBe(TOO_LARGE);
    expect(failure(() => toDecimalString('9999999999999.995', 'v', 2)).message).toBe(TOO_LARGE);
  });
});

describe('datetime edges', () => {
  it('takes up to 64 characters, spaces included, and refuses a longer text', () => {
    const text = `2014-05-19${' '.repeat(49)}08:54`;
    expect(text).toHaveLength(64);
    expect(toDateTime(text, 'x', 'UTC')).toBe('2014-05-19T08:54:00.000+00:00');
    expect(failure(() => toDateTime(`2014-05-19${' '.repeat(50)}08:54`, 'x', 'UTC')).message).toBe('is not a valid datetime');
  });

  it('reads GMT and Z as UTC', () => {
    expect(toDateTime('2014-05-19 08:00 GMT', 'x', 'America/New_York')).toBe('2014-05-19T04:00:00.000-04:00');
    expect(toDateTime('2014-05-19T08:00Z', 'x', 'America/New_York')).toBe('2014-05-19T04:00:00.000-04:00');
  });

  it('takes offsets up to ±18:00 and minutes up to 59', () => {
    expect(toDateTime('2014-05-19T08:00+18:00', 'x', 'UTC')).toBe('2014-05-18T14:00:00.000+00:00');
    expect(toDateTime('2014-05-19T08:00+05:59', 'x', 'UTC')).toBe('2014-05-19T02:01:00.000+00:00');
    expect(failure(() => toDateTime('2014-05-19T08:00+19:00', 'x', 'UTC')).message).toBe('is not a valid datetime');
    expect(failure(() => toDateTime('2014-05-19T08:00+05:60', 'x', 'UTC')).message).toBe('is not a valid datetime');
  });

  it('reads fractions of a second as milliseconds', () => {
    expect(toDateTime('2014-05-19T08:54:59.5Z', 'x', 'UTC')).toBe('2014-05-19T08:54:59.500+00:00');
    expect(toDateTime('2014-05-19T08:54:59,25Z', 'x', 'UTC')).toBe('2014-05-19T08:54:59.250+00:00');
  });

  it('says which zone is unknown', () => {
    expect(() => toDateTime('2014-05-19', 'x', 'Mars/Olympus')).toThrow('Unknown time zone: Mars/Olympus');
  });

  it('keeps a Date upper bound as the instant it is', () => {
    const at = new Date('2014-05-19T08:54:59.123Z');
    expect(toDateTimeBound(at, 'x', 'UTC', 'to')).toBe('2014-05-19T08:54:59.123+00:00');
    expect(toDateTimeBound(at, 'x', 'UTC', 'from')).toBe('2014-05-19T08:54:59.123+00:00');
  });

  it('takes the year 1, the first PostgreSQL prints with four digits', () => {
    expect(toDateTime('0001-01-02T00:00:00Z', 'x', 'UTC')).toBe('0001-01-02T00:00:00.000+00:00');
  });

  it('refuses an invalid Date or a text that is no date, naming the field', () => {
    expect(failure(() => toDate(new Date(Number.NaN), 'task[due_date]'))).toMatchObject({ field: 'task[due_date]', message: 'is not a valid date' });
    expect(failure(() => toDate('soon', 'task[due_date]'))).toMatchObject({ field: 'task[due_date]', message: 'is not a valid date' });
  });
});

const TABLE: ConditionTable = {
  deal_owner: { to: 'ownerId', kind: 'id' },
  deal_percentage: { to: 'probability', kind: 'integer' },
  named: { to: 'exactName', kind: 'text' },
  deal_created: { to: 'created', kind: 'datetimeRange' },
  deal_value: { to: 'value', kind: 'numberRange' },
  include_inactive: { to: 'includeInactive', kind: 'flag' },
  person_type: { to: 'type', kind: 'enum', map: { Lead: 'LEAD', Contact: 'CONTACT' } },
  grade: { to: 'grade', kind: 'enum', values: ['A', 'a', 'b'] },
};
const NY = 'America/New_York';
const parse = (conditions: Record<string, unknown>) => parseConditions(conditions, TABLE, NY);

describe('parseConditions edges', () => {
  it('skips JSON nulls of every kind, leaving no key behind', () => {
    const filter = parse({ deal_owner: null, deal_percentage: null, named: null, deal_value: null, person_type: null, grade: null });
    expect(Object.keys(filter)).toEqual([]);
    expect(Object.keys(parse({ deal_value: { from: null, to: null }, deal_created: { from_date: '', to_date: null } }))).toEqual([]);
  });

  it('reads one end of a number range when the other is null', () => {
    expect(parse({ deal_value: { from: null, to: '5' } })).toStrictEqual({ value: { to: 5 } });
  });

  it('refuses a datetime range that is not an object, saying what it must be', () => {
    expect(failure(() => parse({ deal_created: '2014-05-01' }))).toMatchObject({
      field: 'conditions[deal_created]',
      message: 'must be a range given as from_date and/or to_date',
    });
    expect(failure(() => parse({ deal_created: { from_date: 'soon' } }))).toMatchObject({
      field: 'conditions[deal_created][from_date]',
      message: 'is not a valid datetime',
    });
  });

  it('reads numbers trimmed and refuses other things, naming the end of the range', () => {
    expect(parse({ deal_value: ' 5.5 ' })).toStrictEqual({ value: { from: 5.5, to: 5.5 } });
    expect(failure(() => parse({ deal_value: ['5'] }))).toMatchObject({ field: 'conditions[deal_value]', message: 'must be a number' });
    expect(failure(() => parse({ deal_value: { from: '1', to: 'lots' } }))).toMatchObject({ field: 'conditions[deal_value][to]', message: 'must be a number' });
  });

  it('reads enum values trimmed, preferring the exact spelling', () => {
    expect(parse({ person_type: ' lead ' })).toEqual({ type: 'LEAD' });
    expect(parse({ grade: 'a' })).toEqual({ grade: 'a' });
    expect(parse({ grade: 'A' })).toEqual({ grade: 'A' });
    expect(parse({ grade: 'B' })).toEqual({ grade: 'b' });
  });

  it('reads a JSON 0 or a padded "false" flag as absent', () => {
    expect(Object.keys(parse({ include_inactive: 0 }))).toEqual([]);
    expect(Object.keys(parse({ include_inactive: ' False ' }))).toEqual([]);
    expect(parse({ include_inactive: 1 })).toEqual({ includeInactive: true });
  });

  it('takes ids as positive ids and integers as any integer', () => {
    expect(failure(() => parse({ deal_owner: '0' }))).toMatchObject({ field: 'conditions[deal_owner]', message: 'must be between 1 and 2147483647' });
    expect(parse({ deal_percentage: '0' })).toStrictEqual({ probability: 0 });
    expect(parse({ deal_percentage: '-5' })).toStrictEqual({ probability: -5 });
  });

  it('limits text to 200 characters, counted as code points', () => {
    expect(parse({ named: 'x'.repeat(200) })).toEqual({ exactName: 'x'.repeat(200) });
    expect(failure(() => parse({ named: 'x'.repeat(201) }))).toMatchObject({ field: 'conditions[named]', message: 'is too long (maximum is 200 characters)' });
    const emoji = '😀'.repeat(101); // 202 UTF-16 units, 101 characters
    expect(parse({ named: emoji })).toEqual({ exactName: emoji });
    const edge = `${'x'.repeat(199)}😀`; // 201 units, 200 characters
    expect(parse({ named: edge })).toEqual({ exactName: edge });
  });
});
