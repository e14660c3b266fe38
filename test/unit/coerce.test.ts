import { failure } from '../support/facade-failure';
import {
  INT32_MAX,
  toBoolean,
  toDate,
  toDateTime,
  toDateTimeBound,
  toDecimalString,
  toId,
  toIdList,
  toInteger,
  toText,
} from '../../rest-facade/request/coerce';

describe('toBoolean', () => {
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    ['TRUE', true],
    [' False ', false],
    ['1', true],
    ['0', false],
    [1, true],
    [0, false],
    ['t', true],
    ['f', false],
    ['yes', true],
    ['NO', false],
    ['on', true],
    ['off', false],
  ])('%p → %p', (input, expected) => {
    expect(toBoolean(input, 'b')).toBe(expected);
  });

  it('reads blank as null', () => {
    expect(toBoolean('', 'b')).toBeNull();
    expect(toBoolean(null, 'b')).toBeNull();
    expect(toBoolean(undefined, 'b')).toBeNull();
  });

  it.each([['maybe'], [2], [-1], [['true']], [{}], ['tru']])('refuses %p naming the field', (input) => {
    const error = failure(() => toBoolean(input, 'check_for_duplicates'));
    expect(error).toMatchObject({ field: 'check_for_duplicates', message: 'must be true or false', status: 422 });
  });
});

describe('toInteger / toId', () => {
  it('accepts integers and trimmed numeric strings', () => {
    expect(toInteger(42, 'n')).toBe(42);
    expect(toInteger(' 42 ', 'n')).toBe(42);
    expect(toInteger('-7', 'n')).toBe(-7);
    expect(toInteger('+7', 'n')).toBe(7);
    expect(toInteger('007', 'n')).toBe(7);
    expect(Object.is(toInteger('-0', 'n'), 0)).toBe(true);
  });

  it('reads blank as null', () => {
    expect(toInteger('', 'n')).toBeNull();
    expect(toInteger(null, 'n')).toBeNull();
    expect(toInteger(undefined, 'n')).toBeNull();
  });

  it.each([[1.5], ['1.5'], ['1e3'], ['abc'], ['12abc'], [Number.NaN], [Infinity], [true], [[1]], [{}], ['  '], [2 ** 53]])('refuses %p', (input) => {
    expect(failure(() => toInteger(input, 'probability'))).toMatchObject({ field: 'probability', message: 'must be an integer' });
  });

  it('limits to GraphQL Int (32-bit) by default, wider on request', () => {
    expect(toInteger(INT32_MAX, 'n')).toBe(INT32_MAX);
    expect(failure(() => toInteger(INT32_MAX + 1, 'n')).message).toBe('must be between -2147483648 and 2147483647');
    expect(toInteger('500000000000', 'value_in_cents', { max: Number.MAX_SAFE_INTEGER })).toBe(500_000_000_000);
    expect(failure(() => toInteger(101, 'probability', { min: 0, max: 100 })).message).toBe('must be between 0 and 100');
  });

  it('toId takes positive 32-bit ids only', () => {
    expect(toId('12', 'user_id')).toBe(12);
    expect(toId(INT32_MAX, 'user_id')).toBe(INT32_MAX);
    expect(toId('', 'user_id')).toBeNull();
    for (const bad of [0, -1, '0', INT32_MAX + 1, '99999999999', 'x', 1.2]) {
      expect(failure(() => toId(bad, 'user_id')).field).toBe('user_id');
    }
  });
});

describe('toIdList', () => {
  it('takes one id, a comma-separated string or an array', () => {
    expect(toIdList(5, 'ids')).toEqual([5]);
    expect(toIdList('5', 'ids')).toEqual([5]);
    expect(toIdList('1,2, 3', 'ids')).toEqual([1, 2, 3]);
    expect(toIdList(['1', 2, '3,4'], 'ids')).toEqual([1, 2, 3, 4]);
  });

  it('dedupes keeping first-seen order and skips empty elements', () => {
    expect(toIdList(['3', '1,3', 1, '', ' , 2'], 'ids')).toEqual([3, 1, 2]);
    expect(toIdList([''], 'ids')).toEqual([]);
    expect(toIdList('', 'ids')).toEqual([]);
    expect(toIdList(null, 'ids')).toEqual([]);
  });

  it('refuses garbage, nested lists and objects, naming the field', () => {
    expect(failure(() => toIdList('1,x', 'person[tag_ids]')).field).toBe('person[tag_ids]');
    expect(failure(() => toIdList([[1]], 'ids')).message).toBe('must be an id or a list of ids');
    expect(failure(() => toIdList({ a: 1 }, 'ids')).field).toBe('ids');
    expect(failure(() => toIdList('0', 'ids')).field).toBe('ids');
  });

  it('caps the number of distinct ids at 1000', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(toIdList(ids.join(','), 'ids')).toHaveLength(1000);
    expect(toIdList([...ids, ...ids], 'ids')).toHaveLength(1000);
    expect(failure(() => toIdList([...ids, 1001], 'ids')).message).toBe('has too many ids (maximum is 1000)');
    expect(failure(() => toIdList('1,2,3', 'ids', 2)).message).toBe('has too many ids (maximum is 2)');
  });
});

describe('toText', () => {
  it('keeps strings as given and stringifies numbers and booleans', () => {
    expect(toText('  Ann ', 'first_name', 10)).toBe('  Ann ');
    expect(toText('', 'first_name', 10)).toBe('');
    expect(toText(12345, 'zip', 10)).toBe('12345');
    expect(toText(true, 'x', 10)).toBe('true');
    expect(toText(null, 'x', 10)).toBeNull();
    expect(toText(undefined, 'x', 10)).toBeNull();
  });

  it('strips NUL characters', () => {
    expect(toText('a\u0000b\u0000', 'x', 10)).toBe('ab');
  });

  it('refuses objects, arrays and non-finite numbers', () => {
    expect(failure(() => toText({}, 'name', 10))).toMatchObject({ field: 'name', message: 'must be text, not an object' });
    expect(failure(() => toText(['a'], 'name', 10)).message).toBe('must be text, not a list');
    expect(failure(() => toText(Number.NaN, 'name', 10)).field).toBe('name');
  });

  it('limits length in characters (code points), after NUL removal', () => {
    expect(toText('abcde', 'x', 5)).toBe('abcde');
    expect(failure(() => toText('abcdef', 'name', 5)).message).toBe('is too long (maximum is 5 characters)');
    expect(toText('😀😀😀', 'x', 3)).toBe('😀😀😀');
    expect(toText('abc\u0000\u0000', 'x', 3)).toBe('abc');
  });
});

describe('toDecimalString', () => {
  it.each([
    [5000, '5000.00'],
    ['5000', '5000.00'],
    ['5000.5', '5000.50'],
    [' 5000.5 ', '5000.50'],
    ['.5', '0.50'],
    ['5.', '5.00'],
    ['-12.345', '-12.35'],
    [1.005, '1.01'],
    ['1.004', '1.00'],
    ['0007.1', '7.10'],
    ['-0.001', '0.00'],
    [0, '0.00'],
    [5e-7, '0.00'],
    ['+3', '3.00'],
    ['9.995', '10.00'],
  ])('%p → %p at scale 2', (input, expected) => {
    expect(toDecimalString(input, 'value', 2)).toBe(expected);
  });

  it('honours the scale, including 0 and 3', () => {
    expect(toDecimalString('12.5', 'v', 0)).toBe('13');
    expect(toDecimalString('12.4', 'v', 0)).toBe('12');
    expect(toDecimalString('1.2345', 'v', 3)).toBe('1.235');
  });

  it('reads blank as null', () => {
    expect(toDecimalString('', 'v', 2)).toBeNull();
    expect(toDecimalString(null, 'v', 2)).toBeNull();
  });

  it.each([['5,000.00'], ['$5'], ['1e3'], ['abc'], ['.'], ['-'], ['1.2.3'], [Number.NaN], [true], [{}], ['5 000']])('refuses %p', (input) => {
    expect(failure(() => toDecimalString(input, 'value', 2))).toMatchObject({ field: 'value', message: 'must be a decimal number' });
  });

  it('refuses more integer digits than fit value_in_cents', () => {
    expect(toDecimalString('9999999999999.99', 'value', 2)).toBe('9999999999999.99');
    expect(failure(() => toDecimalString('99999999999999', 'value', 2)).field).toBe('value');
    expect(failure(() => toDecimalString('9999999999999.995', 'value', 2)).field).toBe('value');
    expect(failure(() => toDecimalString(1e21, 'value', 2)).field).toBe('value');
  });
});

describe('toDateTime', () => {
  const NY = 'America/New_York';

  it.each([
    ['2014-05-19', '2014-05-19T00:00:00.000-04:00'],
    ['2014-05-19 08:54', '2014-05-19T08:54:00.000-04:00'],
    ['2014-05-19 08:54:59', '2014-05-19T08:54:59.000-04:00'],
    ['2014/05/19 08:54:59', '2014-05-19T08:54:59.000-04:00'],
    ['2014/05/19 08:54:59 -0400', '2014-05-19T08:54:59.000-04:00'],
    ['2014/05/19 12:54:59 +0000', '2014-05-19T08:54:59.000-04:00'],
    ['2014-05-19T12:54:59Z', '2014-05-19T08:54:59.000-04:00'],
    ['2014-05-19T12:54:59.123456Z', '2014-05-19T08:54:59.123-04:00'],
    ['2014-05-19T14:54:59+02:00', '2014-05-19T08:54:59.000-04:00'],
    ['2014-05-19 18:24:59 +05:30', '2014-05-19T08:54:59.000-04:00'],
    ['2014-05-19T07:54:59-05', '2014-05-19T08:54:59.000-04:00'],
    ['2014-05-19 12:54:59 UTC', '2014-05-19T08:54:59.000-04:00'],
    ['  2014-5-9 8:05 ', '2014-05-09T08:05:00.000-04:00'],
    ['2014-01-15 08:00', '2014-01-15T08:00:00.000-05:00'],
    // `+0530` echoed into a query string unencoded arrives as ` 0530`.
    ['2014/05/19 18:24:59 0530', '2014-05-19T08:54:59.000-04:00'],
    ['2014/05/19 12:54:59 00:00', '2014-05-19T08:54:59.000-04:00'],
  ])('%p in New York → %p', (input, expected) => {
    expect(toDateTime(input, 'start_time', NY)).toBe(expected);
  });

  it('reads wall times in the given zone across DST', () => {
    expect(toDateTime('2014-03-09 01:59', 'x', NY)).toBe('2014-03-09T01:59:00.000-05:00');
    expect(toDateTime('2014-03-09 03:00', 'x', NY)).toBe('2014-03-09T03:00:00.000-04:00');
    // 02:30 does not exist that night: moved forward by the hour skipped, as Rails did.
    expect(toDateTime('2014-03-09 02:30', 'x', NY)).toBe('2014-03-09T03:30:00.000-04:00');
    expect(toDateTime('2014-11-02 00:30', 'x', NY)).toBe('2014-11-02T00:30:00.000-04:00');
    // 01:30 happens twice that night: the first (daylight) one, as Rails did.
    expect(toDateTime('2014-11-02 01:30', 'x', NY)).toBe('2014-11-02T01:30:00.000-04:00');
    expect(toDateTime('2014-11-02 03:00', 'x', NY)).toBe('2014-11-02T03:00:00.000-05:00');
  });

  it('handles half-hour zones and UTC', () => {
    expect(toDateTime('2014-05-19 08:54:59', 'x', 'Asia/Kolkata')).toBe('2014-05-19T08:54:59.000+05:30');
    expect(toDateTime('2014/05/19 08:54:59 -0400', 'x', 'Asia/Kolkata')).toBe('2014-05-19T18:24:59.000+05:30');
    expect(new Date(toDateTime('2014-05-19 08:54:59', 'x', 'UTC')!).toISOString()).toBe('2014-05-19T08:54:59.000Z');
  });

  it('accepts Date objects', () => {
    expect(toDateTime(new Date('2014-05-19T12:54:59Z'), 'x', NY)).toBe('2014-05-19T08:54:59.000-04:00');
    expect(failure(() => toDateTime(new Date('nope'), 'x', NY)).message).toBe('is not a valid datetime');
  });

  it('reads blank as null', () => {
    expect(toDateTime('', 'x', NY)).toBeNull();
    expect(toDateTime(null, 'x', NY)).toBeNull();
    expect(toDateTime(undefined, 'x', NY)).toBeNull();
  });

  it.each([
    ['2014-02-30'],
    ['2014-13-01'],
    ['2014-05-19 25:00'],
    ['2014-05-19 12:60'],
    ['2014-05-19 12:00:60'],
    ['2014-05-19 12:00 +2500'],
    ['2014-05/19'],
    ['19/05/2014'],
    ['2014-05-19 0400'],
    ['2014-05-19 12:00 2500'],
    ['yesterday'],
    ['1400000000'],
    [1400000000],
    [true],
    [{}],
    [['2014-05-19']],
    ['2014-05-19T'],
  ])('refuses %p naming the field', (input) => {
    expect(failure(() => toDateTime(input, 'deal[created_at]', NY))).toMatchObject({
      field: 'deal[created_at]',
      message: 'is not a valid datetime',
      status: 422,
    });
  });

  it('throws a RangeError (server problem, not a 422) for an unknown zone', () => {
    expect(() => toDateTime('2014-05-19', 'x', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('toDateTimeBound', () => {
  it('makes a date-only upper bound inclusive of the whole day in the zone', () => {
    expect(toDateTimeBound('2014-05-31', 'x', 'America/New_York', 'to')).toBe('2014-05-31T23:59:59.999-04:00');
    expect(toDateTimeBound('2014-05-31', 'x', 'America/New_York', 'from')).toBe('2014-05-31T00:00:00.000-04:00');
    // A bound to the minute covers that whole minute (stored times keep milliseconds).
    expect(toDateTimeBound('2014-05-31 10:00', 'x', 'Asia/Kolkata', 'to')).toBe('2014-05-31T10:00:59.999+05:30');
    expect(toDateTimeBound('2014-05-31 10:00:00.250', 'x', 'Asia/Kolkata', 'to')).toBe('2014-05-31T10:00:00.250+05:30');
    expect(toDateTimeBound('', 'x', 'UTC', 'to')).toBeNull();
  });
});

describe('toDate', () => {
  it.each([
    ['2014-05-19', '2014-05-19'],
    ['2014/05/19', '2014/05/19'.replace(/\//g, '-')],
    ['2014-5-9', '2014-05-09'],
    ['2014-05-19 23:30', '2014-05-19'],
    ['2014-05-19T23:30:00', '2014-05-19'],
  ])('%p → %p', (input, expected) => {
    expect(toDate(input, 'due_date')).toBe(expected);
  });

  it('takes the date of an offset datetime in the viewer zone when given, else as written', () => {
    expect(toDate('2014/05/19 23:30:00 -0400', 'd', 'UTC')).toBe('2014-05-20');
    expect(toDate('2014/05/19 23:30:00 -0400', 'd', 'America/New_York')).toBe('2014-05-19');
    expect(toDate('2014/05/19 23:30:00 -0400', 'd')).toBe('2014-05-19');
    expect(toDate('2014-05-19T20:00:00Z', 'd', 'Asia/Kolkata')).toBe('2014-05-20');
    // Without an offset the written date is the date, whatever the zone.
    expect(toDate('2014-05-19 23:30', 'd', 'Asia/Kolkata')).toBe('2014-05-19');
  });

  it('accepts Date objects (UTC date without a zone)', () => {
    expect(toDate(new Date('2014-05-19T23:30:00Z'), 'd')).toBe('2014-05-19');
    expect(toDate(new Date('2014-05-19T23:30:00Z'), 'd', 'Asia/Kolkata')).toBe('2014-05-20');
  });

  it('reads blank as null and refuses invalid dates', () => {
    expect(toDate('', 'd')).toBeNull();
    expect(toDate(null, 'd')).toBeNull();
    expect(failure(() => toDate('2014-02-30', 'deal[expected_close_date]'))).toMatchObject({
      field: 'deal[expected_close_date]',
      message: 'is not a valid date',
    });
    expect(failure(() => toDate('2015-02-29', 'd')).field).toBe('d');
    expect(toDate('2016-02-29', 'd')).toBe('2016-02-29');
    expect(failure(() => toDate(20140519, 'd')).field).toBe('d');
  });
});

describe('toDateTime range', () => {
  it('refuses datetimes PostgreSQL cannot store, naming the field', () => {
    expect(() => toDateTime('9999-12-31 23:59:59', 'created_at', 'America/New_York')).toThrow(
      expect.objectContaining({ field: 'created_at', message: 'is out of range (years 1 to 9999)' }),
    );
    expect(() => toDateTime('0001-01-01T00:00:00+14:00', 'created_at', 'UTC')).toThrow(
      expect.objectContaining({ message: 'is out of range (years 1 to 9999)' }),
    );
    expect(toDateTime('9999-12-31 23:59:59', 'created_at', 'UTC')).toBe('9999-12-31T23:59:59.000+00:00');
  });
});
