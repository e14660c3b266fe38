import { failure } from '../support/facade-failure';
import { checkJsonShape, DEFAULT_PARAM_LIMITS, parseNestedParams, type ParamLimits } from '../../rest-facade/request/params';

/**
 * Keys `0, 1, … n-1` make a list (issue 22; DECISIONS: Responses: "Lists given with indexed keys
 * ... are lists, wherever a list is accepted"): the older official gem sends
 * `conditions[deal_stage][0]=2&conditions[deal_stage][1]=3` (cassette deals_filtered_by_stage).
 */
const parse = (query: string, limits?: ParamLimits) => parseNestedParams(new URLSearchParams(query), limits);
const limited = (overrides: Partial<ParamLimits>): ParamLimits => ({ ...DEFAULT_PARAM_LIMITS, ...overrides });

describe('indexed keys are lists', () => {
  it('in a query string or form, in index order whatever the order sent, at any depth', () => {
    expect(parse('conditions[deal_stage][0]=2&conditions[deal_stage][1]=3')).toEqual({ conditions: { deal_stage: ['2', '3'] } });
    expect(parse('conditions[person_status][0]=2')).toEqual({ conditions: { person_status: ['2'] } });
    expect(parse('a[1]=y&a[0]=x&a[2]=z')).toEqual({ a: ['x', 'y', 'z'] });
    expect(parse('deal[custom_fields][custom_label_12][0]=19&deal[custom_fields][custom_label_12][1]=20')).toEqual({
      deal: { custom_fields: { custom_label_12: ['19', '20'] } },
    });
    expect(parse('a[0][b]=1&a[1][b]=2')).toEqual({ a: [{ b: '1' }, { b: '2' }] });
    expect(parse('a[0][0]=1&a[0][1]=2')).toEqual({ a: [['1', '2']] });
  });

  it('not when the keys are anything else: a gap, not from 0, not canonical, not an index', () => {
    expect(parse('a[0]=x&a[2]=y')).toEqual({ a: { 0: 'x', 2: 'y' } });
    expect(parse('a[1]=x')).toEqual({ a: { 1: 'x' } });
    expect(parse('a[00]=x')).toEqual({ a: { '00': 'x' } });
    expect(parse('a[0]=x&a[b]=y')).toEqual({ a: { 0: 'x', b: 'y' } });
    expect(parse('a[-1]=x')).toEqual({ a: { '-1': 'x' } });
    expect(parse('c[within][from_date]=2014-05-01')).toEqual({ c: { within: { from_date: '2014-05-01' } } });
  });

  it('never the top level (parameter names)', () => {
    expect(parse('0=a&1=b')).toEqual({ 0: 'a', 1: 'b' });
    expect(checkJsonShape({ 0: 'a', 1: 'b' })).toEqual({ 0: 'a', 1: 'b' });
  });

  it('in a JSON body: an object keyed "0".."n-1" is the list, in place', () => {
    const body = { deal: { person_ids: { 1: 9, 0: 8 }, custom_fields: { custom_label_3: { 0: 1 } }, nested: [{ 0: 'x' }] } };
    expect(checkJsonShape(body)).toEqual({ deal: { person_ids: [8, 9], custom_fields: { custom_label_3: [1] }, nested: [['x']] } });
    expect(checkJsonShape({ deal: { person_ids: { 0: 1, 2: 3 } } })).toEqual({ deal: { person_ids: { 0: 1, 2: 3 } } });
    expect(checkJsonShape({ deal: { empty: {} } })).toEqual({ deal: { empty: {} } });
  });

  it('bounded like a list: more elements than a list may hold is the same 413 naming the parameter', () => {
    const limits = limited({ maxArrayLength: 2 });
    expect(failure(() => parse('x[0]=1&x[1]=2&x[2]=3', limits))).toMatchObject({ field: 'x', message: 'has too many elements (maximum is 2)', status: 413 });
    expect(failure(() => parse('x[]=1&x[]=2&x[]=3', limits))).toMatchObject({ message: 'has too many elements (maximum is 2)', status: 413 });
    expect(failure(() => checkJsonShape({ a: { b: { 0: 1, 1: 2, 2: 3 } } }, limits))).toMatchObject({
      field: 'a[b]',
      message: 'has too many elements (maximum is 2)',
      status: 413,
    });
    expect(parse('x[0]=1&x[1]=2', limits)).toEqual({ x: ['1', '2'] });
  });
});
