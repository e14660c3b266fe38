import { failure } from '../support/facade-failure';
import { parseConditions, type ConditionTable } from '../../rest-facade/request/conditions';
import { parseNestedParams } from '../../rest-facade/request/params';

const TABLE: ConditionTable = {
  deal_id: { to: 'ids', kind: 'ids' },
  deal_stage: { to: 'stageIds', kind: 'ids' },
  deal_owner: { to: 'ownerId', kind: 'id' },
  deal_percentage: { to: 'probability', kind: 'integer' },
  deal_name: { to: 'name', kind: 'like' },
  company_name: { to: 'companyName', kind: 'prefix' },
  named: { to: 'exactName', kind: 'text' },
  deal_created: { to: 'created', kind: 'datetimeRange' },
  within: { to: 'within', kind: 'datetimeRange' },
  deal_value: { to: 'value', kind: 'numberRange' },
  someday: { to: 'someday', kind: 'boolean' },
  include_inactive: { to: 'includeInactive', kind: 'flag' },
  person_type: { to: 'type', kind: 'enum', map: { Lead: 'LEAD', Contact: 'CONTACT' } },
  kind: { to: 'kind', kind: 'enum', values: ['task', 'event'] },
  starting_at: { to: 'startTime', kind: 'datetime' },
};

const NY = 'America/New_York';
const fromQuery = (query: string) => parseConditions(parseNestedParams(new URLSearchParams(query)).conditions, TABLE, NY);

describe('parseConditions', () => {
  it('returns {} for absent or non-object conditions', () => {
    expect(parseConditions(undefined, TABLE, NY)).toEqual({});
    expect(parseConditions('deal_id=1', TABLE, NY)).toEqual({});
    expect(parseConditions(['1'], TABLE, NY)).toEqual({});
  });

  it('ignores keys not in the table, including inherited names', () => {
    expect(parseConditions({ unknown: '1', toString: 'x', deal_name: 'Big' }, TABLE, NY)).toEqual({ name: 'Big' });
    expect(parseConditions({ deal_name: 'x' }, { ...TABLE, constructor: { to: 'c', kind: 'text' as const } }, NY)).toEqual({ name: 'x' });
  });

  it('reads ids as one id, a comma list or an array (DECISIONS: Conditions)', () => {
    expect(fromQuery('conditions[deal_id]=5')).toEqual({ ids: [5] });
    expect(fromQuery('conditions[deal_id]=5,6,5')).toEqual({ ids: [5, 6] });
    expect(fromQuery('conditions[deal_stage][]=2&conditions[deal_stage][]=3')).toEqual({ stageIds: [2, 3] });
    expect(fromQuery('conditions[deal_id]=')).toEqual({});
    expect(failure(() => fromQuery('conditions[deal_id]=x'))).toMatchObject({ field: 'conditions[deal_id]', status: 422 });
  });

  it('reads id and integer conditions', () => {
    expect(fromQuery('conditions[deal_owner]=7&conditions[deal_percentage]=0')).toEqual({ ownerId: 7, probability: 0 });
    expect(fromQuery('conditions[deal_owner]=')).toEqual({});
    expect(failure(() => fromQuery('conditions[deal_owner]=all')).field).toBe('conditions[deal_owner]');
    expect(failure(() => fromQuery('conditions[deal_percentage]=1.5')).message).toBe('must be an integer');
  });

  it('trims text conditions, skips empty ones and bounds their length', () => {
    expect(fromQuery('conditions[deal_name]=%20Big%20deal%20&conditions[company_name]=Ac&conditions[named]=Call')).toEqual({
      name: 'Big deal',
      companyName: 'Ac',
      exactName: 'Call',
    });
    expect(fromQuery('conditions[deal_name]=%20%20')).toEqual({});
    expect(parseConditions({ deal_name: 42 }, TABLE, NY)).toEqual({ name: '42' });
    expect(parseConditions({ deal_name: 'x'.repeat(200) }, TABLE, NY)).toEqual({ name: 'x'.repeat(200) });
    expect(failure(() => parseConditions({ deal_name: 'x'.repeat(201) }, TABLE, NY)).message).toBe('is too long (maximum is 200 characters)');
    expect(failure(() => fromQuery('conditions[deal_name][]=x')).field).toBe('conditions[deal_name]');
  });

  it('reads datetime ranges from from_date and/or to_date in the viewer zone', () => {
    expect(fromQuery('conditions[deal_created][from_date]=2014-05-01&conditions[deal_created][to_date]=2014-05-31')).toEqual({
      created: { from: '2014-05-01T00:00:00.000-04:00', to: '2014-05-31T23:59:59.999-04:00' },
    });
    expect(fromQuery('conditions[deal_created][from_date]=2014-05-01 08:00')).toEqual({ created: { from: '2014-05-01T08:00:00.000-04:00' } });
    expect(fromQuery('conditions[within][to_date]=2014/12/01 10:00:00 %2B0000')).toEqual({ within: { to: '2014-12-01T05:00:00.999-05:00' } });
    // The service's own output pasted unencoded: `+` decodes to a space and is still read as +0000.
    expect(fromQuery('conditions[within][to_date]=2014/12/01 10:00:00 +0000')).toEqual({ within: { to: '2014-12-01T05:00:00.999-05:00' } });
    expect(fromQuery('conditions[deal_created][from_date]=&conditions[deal_created][to_date]=')).toEqual({});
  });

  it('refuses a bare datetime range value and bad bounds, naming them', () => {
    expect(failure(() => fromQuery('conditions[deal_created]=2014-05-01'))).toMatchObject({ field: 'conditions[deal_created]', status: 422 });
    expect(failure(() => fromQuery('conditions[deal_created][to_date]=2014-02-30'))).toMatchObject({
      field: 'conditions[deal_created][to_date]',
      message: 'is not a valid datetime',
    });
  });

  it('reads number ranges and a bare number as an exact match', () => {
    expect(fromQuery('conditions[deal_value][from]=100&conditions[deal_value][to]=250.5')).toEqual({ value: { from: 100, to: 250.5 } });
    expect(fromQuery('conditions[deal_value][to]=10')).toEqual({ value: { to: 10 } });
    expect(fromQuery('conditions[deal_value]=300')).toEqual({ value: { from: 300, to: 300 } });
    expect(parseConditions({ deal_value: 7 }, TABLE, NY)).toEqual({ value: { from: 7, to: 7 } });
    expect(fromQuery('conditions[deal_value]=')).toEqual({});
    expect(fromQuery('conditions[deal_value][from]=')).toEqual({});
    expect(failure(() => fromQuery('conditions[deal_value][from]=lots')).field).toBe('conditions[deal_value][from]');
    expect(failure(() => fromQuery('conditions[deal_value]=1,000')).field).toBe('conditions[deal_value]');
  });

  it('reads booleans', () => {
    expect(fromQuery('conditions[someday]=true')).toEqual({ someday: true });
    expect(fromQuery('conditions[someday]=0')).toEqual({ someday: false });
    expect(fromQuery('conditions[someday]=')).toEqual({});
    expect(failure(() => fromQuery('conditions[someday]=perhaps')).field).toBe('conditions[someday]');
  });

  it('treats flags as true with any value except false/0 (v3 §4.1)', () => {
    for (const q of [
      'conditions[include_inactive]=true',
      'conditions[include_inactive]=1',
      'conditions[include_inactive]=',
      'conditions[include_inactive]=yes_please',
    ]) {
      expect(fromQuery(q)).toEqual({ includeInactive: true });
    }
    for (const q of ['conditions[include_inactive]=false', 'conditions[include_inactive]=0', 'conditions[include_inactive]=FALSE']) {
      expect(fromQuery(q)).toEqual({});
    }
    expect(parseConditions({ include_inactive: false }, TABLE, NY)).toEqual({});
    expect(parseConditions({ include_inactive: true }, TABLE, NY)).toEqual({ includeInactive: true });
  });

  it('maps enums, case-insensitively, and lists accepted values on error', () => {
    expect(fromQuery('conditions[person_type]=Lead')).toEqual({ type: 'LEAD' });
    expect(fromQuery('conditions[person_type]=contact')).toEqual({ type: 'CONTACT' });
    expect(fromQuery('conditions[kind]=task')).toEqual({ kind: 'task' });
    expect(fromQuery('conditions[kind]=EVENT')).toEqual({ kind: 'event' });
    expect(fromQuery('conditions[kind]=')).toEqual({});
    expect(failure(() => fromQuery('conditions[person_type]=Customer'))).toMatchObject({
      field: 'conditions[person_type]',
      message: 'must be one of: Lead, Contact',
    });
    expect(failure(() => fromQuery('conditions[kind][]=task')).message).toBe('must be one of: task, event');
  });

  it('reads exact datetimes', () => {
    expect(fromQuery('conditions[starting_at]=2014-05-19 08:00')).toEqual({ startTime: '2014-05-19T08:00:00.000-04:00' });
  });

  it('names plain query filters without the conditions prefix when asked', () => {
    const filters: ConditionTable = { deal_id: { to: 'dealIds', kind: 'ids' } };
    expect(parseConditions({ deal_id: '1', api_key: 'k' }, filters, NY, { prefix: null })).toEqual({ dealIds: [1] });
    expect(failure(() => parseConditions({ deal_id: 'x' }, filters, NY, { prefix: null })).field).toBe('deal_id');
    expect(failure(() => parseConditions({ deal_id: 'x' }, filters, NY)).field).toBe('conditions[deal_id]');
  });

  it('combines many conditions in one filter', () => {
    expect(fromQuery('conditions[deal_stage][]=2&conditions[deal_name]=Acme&conditions[deal_value][from]=5&conditions[other]=x')).toEqual({
      stageIds: [2],
      name: 'Acme',
      value: { from: 5 },
    });
  });
});
