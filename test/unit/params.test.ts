import { failure } from '../support/facade-failure';
import { checkJsonShape, DEFAULT_PARAM_LIMITS, parseNestedParams, type ParamLimits } from '../../rest-facade/request/params';

const parse = (query: string, limits?: ParamLimits) => parseNestedParams(new URLSearchParams(query), limits);

describe('parseNestedParams', () => {
  it('exports the documented default limits', () => {
    expect(DEFAULT_PARAM_LIMITS).toEqual({ maxDepth: 5, maxArrayLength: 1000, maxParams: 1000, maxKeyLength: 200 });
    expect(Object.isFrozen(DEFAULT_PARAM_LIMITS)).toBe(true);
  });

  it('keeps plain keys as strings, last one winning', () => {
    expect(parse('api_key=k&page=2&page=3&empty=')).toEqual({ api_key: 'k', page: '3', empty: '' });
  });

  it('nests root[attr] and root[attr][] (v3 §1.3)', () => {
    expect(parse('person[first_name]=Ann&person[last_name]=Lee&person[tag_ids][]=1&person[tag_ids][]=2')).toEqual({
      person: { first_name: 'Ann', last_name: 'Lee', tag_ids: ['1', '2'] },
    });
  });

  it('nests custom fields and condition ranges', () => {
    expect(parse('person[custom_fields][custom_label_3][]=1&person[custom_fields][custom_label_3][]=4&person[custom_fields][custom_label_9]=x')).toEqual({
      person: { custom_fields: { custom_label_3: ['1', '4'], custom_label_9: 'x' } },
    });
    expect(parse('conditions[within][from_date]=2014-05-01&conditions[within][to_date]=2014-05-31&conditions[deal_stage][]=2')).toEqual({
      conditions: { within: { from_date: '2014-05-01', to_date: '2014-05-31' }, deal_stage: ['2'] },
    });
  });

  it('decodes percent-encoded brackets and values through URLSearchParams', () => {
    expect(parse('note%5Bcontent%5D=a%20b%26c')).toEqual({ note: { content: 'a b&c' } });
  });

  it('keeps an empty list element (clients clear a set with root[ids][]=)', () => {
    expect(parse('person[deal_ids][]=')).toEqual({ person: { deal_ids: [''] } });
  });

  it('builds arrays of objects the way Rack does', () => {
    expect(parse('a[][b]=1&a[][c]=2&a[][b]=3')).toEqual({ a: [{ b: '1', c: '2' }, { b: '3' }] });
    expect(parse('a[][b][c]=1&a[][b][d]=2')).toEqual({ a: [{ b: { c: '1', d: '2' } }] });
  });

  it('treats malformed bracket syntax as a literal name', () => {
    expect(parse('a[b=1&c[d]e=2&f]=3')).toEqual({ 'a[b': '1', 'c[d]e': '2', 'f]': '3' });
  });

  it('ignores params without a name', () => {
    expect(parse('=1&[x]=2&ok=3')).toEqual({ ok: '3' });
  });

  it('drops prototype-pollution keys at any level and never touches Object.prototype', () => {
    const result = parse('__proto__[polluted]=1&a[__proto__][polluted]=1&constructor[prototype][polluted]=1&b[constructor]=x&c[prototype][]=1&ok=1');
    expect(result).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('does not mistake inherited names for existing params', () => {
    expect(parse('toString[a]=1&hasOwnProperty[]=2&valueOf=3')).toEqual({ toString: { a: '1' }, hasOwnProperty: ['2'], valueOf: '3' });
  });

  it('answers 400 when a name is both a value and a container', () => {
    for (const query of ['a=1&a[b]=2', 'a[b]=2&a=1', 'a[]=1&a[b]=2', 'a[b]=1&a[]=2', 'a[b]=1&a[b][c]=2', 'a=1&a[]=2']) {
      const error = failure(() => parse(query));
      expect(error.status).toBe(400);
      expect(error.field).toMatch(/^a/);
    }
  });

  it('answers 413 naming the key past the param count limit', () => {
    const limits = { ...DEFAULT_PARAM_LIMITS, maxParams: 3 };
    expect(parse('a=1&b=2&c=3', limits)).toEqual({ a: '1', b: '2', c: '3' });
    const error = failure(() => parse('a=1&b=2&c=3&d=4', limits));
    expect(error.status).toBe(413);
    expect(error.field).toBe('d');
  });

  it('answers 413 for a list longer than the limit', () => {
    const limits = { ...DEFAULT_PARAM_LIMITS, maxArrayLength: 2 };
    expect(parse('x[]=1&x[]=2', limits)).toEqual({ x: ['1', '2'] });
    const error = failure(() => parse('x[]=1&x[]=2&x[]=3', limits));
    expect(error).toMatchObject({ status: 413, field: 'x[]' });
  });

  it('answers 413 for the default array limit of 1000', () => {
    const pairs: Array<[string, string]> = Array.from({ length: 1001 }, (_, i) => ['person[tag_ids][]', String(i)]);
    expect(failure(() => parseNestedParams(pairs, { ...DEFAULT_PARAM_LIMITS, maxParams: 5000 })).status).toBe(413);
    expect((parseNestedParams(pairs.slice(0, 1000)).person as { tag_ids: string[] }).tag_ids).toHaveLength(1000);
  });

  it('answers 413 for an overlong key, naming it truncated', () => {
    const key = `a[${'x'.repeat(300)}]`;
    const error = failure(() => parseNestedParams([[key, '1']]));
    expect(error.status).toBe(413);
    expect(error.field).toHaveLength(200);
  });

  it('answers 422 for nesting deeper than maxDepth', () => {
    expect(parse('a[1][2][3][4][5]=x')).toEqual({ a: { 1: { 2: { 3: { 4: { 5: 'x' } } } } } });
    const error = failure(() => parse('a[1][2][3][4][5][]=x'));
    expect(error).toMatchObject({ status: 422, field: 'a[1][2][3][4][5][]' });
    expect(error.message).toMatch(/nested too deeply/);
  });

  it('accepts any iterable of pairs', () => {
    expect(parseNestedParams([['a[b]', '1']].values() as Iterable<[string, string]>)).toEqual({ a: { b: '1' } });
  });
});

describe('checkJsonShape', () => {
  it('returns the same value when within limits', () => {
    const body = { person: { last_name: 'Lee', tag_ids: [1, 2], custom_fields: { custom_label_3: [1] } } };
    expect(checkJsonShape(body)).toBe(body);
    expect(checkJsonShape(null)).toBeNull();
    expect(checkJsonShape('x')).toBe('x');
  });

  it('strips prototype-pollution keys in place, at any depth', () => {
    const body = JSON.parse(
      '{"__proto__":{"polluted":1},"person":{"constructor":{"prototype":{"polluted":1}},"prototype":1,"last_name":"x"},"list":[{"__proto__":{"a":1},"ok":1}]}',
    );
    checkJsonShape(body);
    expect(body).toEqual({ person: { last_name: 'x' }, list: [{ ok: 1 }] });
    expect(Object.keys(body)).toEqual(['person', 'list']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('measures depth like the form syntax (person[custom_fields][custom_label_3][] = 3)', () => {
    const limits = { ...DEFAULT_PARAM_LIMITS, maxDepth: 3 };
    expect(() => checkJsonShape({ person: { custom_fields: { custom_label_3: [1] } } }, limits)).not.toThrow();
    const error = failure(() => checkJsonShape({ person: { custom_fields: { custom_label_3: [[1]] } } }, limits));
    expect(error).toMatchObject({ status: 422, field: 'person[custom_fields][custom_label_3][]' });
  });

  it('survives a hostile depth without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(failure(() => checkJsonShape({ a: deep })).status).toBe(422);
  });

  it('answers 413 for long arrays', () => {
    const error = failure(() => checkJsonShape({ person: { tag_ids: new Array(1001).fill(1) } }));
    expect(error).toMatchObject({ status: 413, field: 'person[tag_ids]' });
    expect(failure(() => checkJsonShape(new Array(1001).fill(1))).status).toBe(413);
  });

  it('answers 413 for too many leaves or keys', () => {
    const limits = { ...DEFAULT_PARAM_LIMITS, maxParams: 3 };
    expect(() => checkJsonShape({ a: 1, b: [2, 3] }, limits)).not.toThrow();
    expect(failure(() => checkJsonShape({ a: 1, b: [2, 3], c: 4 }, limits)).status).toBe(413);
    expect(failure(() => checkJsonShape({ a: {}, b: {}, c: [], d: {} }, limits)).status).toBe(413);
    const wide: Record<string, number> = {};
    for (let i = 0; i < 1001; i++) wide[`k${i}`] = i;
    expect(failure(() => checkJsonShape({ person: wide })).status).toBe(413);
  });

  it('answers 413 for an overlong key', () => {
    expect(failure(() => checkJsonShape({ ['k'.repeat(201)]: 1 })).status).toBe(413);
  });
});
