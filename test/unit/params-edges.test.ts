import { failure } from '../support/facade-failure';
import { checkJsonShape, DEFAULT_PARAM_LIMITS, parseNestedParams, type ParamLimits } from '../../rest-facade/request/params';

/** The edges of the form and JSON decoders: exact limits, the messages naming the param, odd shapes. */
const parse = (query: string, limits?: ParamLimits) => parseNestedParams(new URLSearchParams(query), limits);
const limited = (overrides: Partial<ParamLimits>): ParamLimits => ({ ...DEFAULT_PARAM_LIMITS, ...overrides });

describe('parseNestedParams edges', () => {
  it('drops a param whose name starts with a bracket, clean or not', () => {
    expect(parse('[x=1&[x]=2&[=3&ok=4')).toEqual({ ok: '4' });
  });

  it('starts a new inner list for each a[][] param, even after an object element', () => {
    expect(parse('a[][]=1&a[][]=2')).toEqual({ a: [['1'], ['2']] });
    expect(parse('a[][b]=1&a[][]=2')).toEqual({ a: [{ b: '1' }, ['2']] });
  });

  it('says what conflicts', () => {
    expect(failure(() => parse('a=1&a[b]=2'))).toMatchObject({ field: 'a[b]', message: 'conflicts with another parameter of the same name', status: 400 });
  });

  it('says how many elements a list may have', () => {
    expect(failure(() => parse('x[]=1&x[]=2&x[]=3', limited({ maxArrayLength: 2 })))).toMatchObject({
      field: 'x[]',
      message: 'has too many elements (maximum is 2)',
      status: 413,
    });
  });

  it('takes a key of exactly the maximum length and says the limit past it', () => {
    const exact = `a[${'x'.repeat(197)}]`;
    expect(exact).toHaveLength(200);
    expect(parseNestedParams([[exact, '1']])).toEqual({ a: { ['x'.repeat(197)]: '1' } });
    const error = failure(() => parseNestedParams([[`${exact}y`, '1']]));
    expect(error).toMatchObject({ field: exact, message: 'is longer than 200 characters', status: 413 });
  });

  it('names the param past the count limit, truncated, and says the limit', () => {
    const long = 'k'.repeat(300);
    const error = failure(() =>
      parseNestedParams(
        [
          ['a', '1'],
          [long, '2'],
        ],
        limited({ maxParams: 1 }),
      ),
    );
    expect(error).toMatchObject({ field: 'k'.repeat(200), message: 'exceeds the limit of 1 parameters', status: 413 });
  });
});

describe('checkJsonShape edges', () => {
  it('returns a long string or a number as it is', () => {
    const long = 'x'.repeat(5000);
    expect(checkJsonShape(long)).toBe(long);
    expect(checkJsonShape(7)).toBe(7);
  });

  it('takes null values anywhere', () => {
    const body = { person: { last_name: null, tag_ids: [null, 1] }, note: null };
    expect(checkJsonShape(body)).toEqual({ person: { last_name: null, tag_ids: [null, 1] }, note: null });
  });

  it('says how deep a body may be, naming the path', () => {
    const error = failure(() => checkJsonShape({ a: { b: [[1]] } }, limited({ maxDepth: 2 })));
    expect(error).toMatchObject({ field: 'a[b][]', message: 'is nested too deeply (maximum depth is 2)', status: 422 });
  });

  it('takes a list of exactly the maximum length, and names a too long one ([] at the top)', () => {
    expect(() => checkJsonShape({ ids: [1, 2] }, limited({ maxArrayLength: 2 }))).not.toThrow();
    expect(failure(() => checkJsonShape({ ids: [1, 2, 3] }, limited({ maxArrayLength: 2 })))).toMatchObject({
      field: 'ids',
      message: 'has too many elements (maximum is 2)',
      status: 413,
    });
    expect(failure(() => checkJsonShape([1, 2, 3], limited({ maxArrayLength: 2 })))).toMatchObject({ field: '[]', status: 413 });
  });

  it('counts scalar leaves, naming the one past the limit', () => {
    expect(() => checkJsonShape({ p: { a: 1, b: 2 } }, limited({ maxParams: 2 }))).not.toThrow();
    expect(failure(() => checkJsonShape({ p: { a: 1, b: 2 }, q: { c: 3 } }, limited({ maxParams: 2 })))).toMatchObject({
      field: 'p[b]',
      message: 'exceeds the limit of 2 parameters',
      status: 413,
    });
  });

  it('counts an empty list or object below the top as one parameter each, as a form would send it', () => {
    // Below the top level, so the count of keys at one level (a separate check) stays under the limit.
    expect(() => checkJsonShape({ p: { a: [], b: {} } }, limited({ maxParams: 2 }))).not.toThrow();
    expect(failure(() => checkJsonShape({ p: { a: [], b: [] }, q: { c: [] } }, limited({ maxParams: 2 })))).toMatchObject({
      field: 'p[a]',
      message: 'exceeds the limit of 2 parameters',
      status: 413,
    });
    expect(failure(() => checkJsonShape({ p: { a: {}, b: {} }, q: { c: {} } }, limited({ maxParams: 2 })))).toMatchObject({
      field: 'p[a]',
      message: 'exceeds the limit of 2 parameters',
      status: 413,
    });
  });

  it('does not count a non-empty object, nor an empty top-level body, as a parameter', () => {
    expect(() => checkJsonShape({ person: { name: { first: 'A' } } }, limited({ maxParams: 1 }))).not.toThrow();
    expect(() => checkJsonShape({}, limited({ maxParams: 0 }))).not.toThrow();
  });

  it('refuses too many keys at one level, naming the object that has them', () => {
    expect(() => checkJsonShape({ p: { a: 1, b: 2, c: 3 } }, limited({ maxParams: 3 }))).not.toThrow();
    expect(failure(() => checkJsonShape({ p: { a: 1, b: 2, c: 3, d: 4 } }, limited({ maxParams: 3 })))).toMatchObject({
      field: 'p',
      message: 'exceeds the limit of 3 parameters',
      status: 413,
    });
  });

  it('takes a key of exactly the maximum length', () => {
    expect(() => checkJsonShape({ ['k'.repeat(200)]: 1 })).not.toThrow();
    expect(failure(() => checkJsonShape({ p: { ['k'.repeat(201)]: 1 } }))).toMatchObject({
      field: `p[${'k'.repeat(198)}`,
      message: 'is longer than 200 characters',
      status: 413,
    });
  });
});
