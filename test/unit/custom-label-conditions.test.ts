import { failure } from '../support/facade-failure';
import { conditionFilter, customLabelAt, CUSTOM_LABELS, parseConditions, storedConditions, type ConditionTable } from '../../rest-facade/request/conditions';
import { parseNestedParams } from '../../rest-facade/request/params';
import { DEAL_CONDITIONS } from '../../src/modules/deals/deal.conditions';

/**
 * `conditions[custom_label_N]` on the deals, people and companies lists (issue 11 §3; DECISIONS:
 * Conditions the spec leaves unshown): `[from]`/`[to]` is a range, anything else the values any of
 * which must match, each appended to the filter's `customFields`; the key's shape and the values'
 * count and length are the facade's checks (422 naming the condition), the field's existence and
 * kind the core's. Saved searches store the same conditions (`storedConditions`).
 */

const TABLE: ConditionTable = {
  deal_name: { to: 'name', kind: 'like' },
  [CUSTOM_LABELS]: { to: 'customFields', kind: 'customLabel' },
};
const NY = 'America/New_York';
const conditions = (query: string) => parseNestedParams(new URLSearchParams(query)).conditions;
const filterOf = (query: string, table = TABLE) => conditionFilter(conditions(query), table, NY);

describe('conditions[custom_label_N]', () => {
  it('[from]/[to] is an inclusive range: numbers as decimal strings, dates as YYYY-MM-DD (either bound alone)', () => {
    expect(filterOf('conditions[custom_label_3][from]=10&conditions[custom_label_3][to]=20.5')).toEqual({
      customFields: [{ label: 'custom_label_3', range: { from: '10', to: '20.5' } }],
    });
    expect(filterOf('conditions[custom_label_3][to]=-4')).toEqual({ customFields: [{ label: 'custom_label_3', range: { to: '-4' } }] });
    // The service's own output form and a datetime with an offset (read in the viewer's zone).
    expect(filterOf('conditions[custom_label_4][from]=2014/05/19&conditions[custom_label_4][to]=2014-05-20T02:00:00Z')).toEqual({
      customFields: [{ label: 'custom_label_4', range: { from: '2014-05-19', to: '2014-05-19' } }],
    });
    expect(filterOf('conditions[custom_label_4][from_date]=2014-01-01')).toEqual({
      customFields: [{ label: 'custom_label_4', range: { from: '2014-01-01' } }],
    });
    expect(parseConditions({ custom_label_5: { from: 7, to: '+8' } }, TABLE, NY)).toEqual({
      customFields: [{ label: 'custom_label_5', range: { from: '7', to: '8' } }],
    });
    expect(filterOf('conditions[custom_label_3][from]=&conditions[custom_label_3][to]=')).toEqual({});
  });

  it('one value, a comma-separated list or an array: values any of which must match', () => {
    expect(filterOf('conditions[custom_label_7]=12')).toEqual({ customFields: [{ label: 'custom_label_7', matches: ['12'] }] });
    expect(filterOf('conditions[custom_label_7]=12,%2013,,12')).toEqual({ customFields: [{ label: 'custom_label_7', matches: ['12', '13'] }] });
    expect(filterOf('conditions[custom_label_7][]=12&conditions[custom_label_7][]=14,15')).toEqual({
      customFields: [{ label: 'custom_label_7', matches: ['12', '14', '15'] }],
    });
    expect(filterOf('conditions[custom_label_8]=%20Gold%20')).toEqual({ customFields: [{ label: 'custom_label_8', matches: ['Gold'] }] });
    expect(parseConditions({ custom_label_9: true, custom_label_10: [3, 4] }, TABLE, NY)).toEqual({
      customFields: [
        { label: 'custom_label_9', matches: ['true'] },
        { label: 'custom_label_10', matches: ['3', '4'] },
      ],
    });
    expect(filterOf('conditions[custom_label_7]=')).toEqual({});
    expect(filterOf('conditions[custom_label_7][]=&conditions[custom_label_7][]=,')).toEqual({});
  });

  it('each is appended to customFields, in the order given, beside the other conditions', () => {
    expect(filterOf('conditions[custom_label_2]=a&conditions[deal_name]=big&conditions[custom_label_1][from]=1')).toEqual({
      name: { contains: 'big' },
      customFields: [
        { label: 'custom_label_2', matches: ['a'] },
        { label: 'custom_label_1', range: { from: '1' } },
      ],
    });
    // The shipped deal table takes them too.
    expect(filterOf('conditions[custom_label_2]=5', DEAL_CONDITIONS.fixed)).toEqual({ customFields: [{ label: 'custom_label_2', matches: ['5'] }] });
  });

  it('a key of the wrong shape, too many values, a value too long or of the wrong type: a 422 naming the condition', () => {
    expect(failure(() => filterOf('conditions[custom_label_x]=1'))).toMatchObject({
      field: 'conditions[custom_label_x]',
      status: 422,
      message: 'is not a custom field condition: name it custom_label_<id>',
    });
    expect(failure(() => filterOf('conditions[custom_label_0]=1')).field).toBe('conditions[custom_label_0]');
    expect(failure(() => filterOf('conditions[custom_label_12345678901]=1')).field).toBe('conditions[custom_label_12345678901]');
    const many = Array.from({ length: 101 }, (_, i) => `conditions[custom_label_3][]=${i}`).join('&');
    expect(failure(() => filterOf(many))).toMatchObject({ field: 'conditions[custom_label_3]', message: 'has too many values (maximum is 100)' });
    expect(Object.keys(filterOf(many.split('&').slice(1).join('&')).customFields as object)).toHaveLength(1);
    expect(failure(() => filterOf(`conditions[custom_label_3]=${'x'.repeat(201)}`))).toMatchObject({
      field: 'conditions[custom_label_3]',
      message: 'is too long (maximum is 200 characters)',
    });
    expect(filterOf(`conditions[custom_label_3]=${'x'.repeat(200)}`)).toEqual({ customFields: [{ label: 'custom_label_3', matches: ['x'.repeat(200)] }] });
    expect(failure(() => filterOf('conditions[custom_label_3][from]=ten'))).toMatchObject({
      field: 'conditions[custom_label_3][from]',
      message: 'must be a number or a date',
    });
    expect(failure(() => filterOf('conditions[custom_label_3][from]=2014-02-30')).field).toBe('conditions[custom_label_3][from]');
    expect(failure(() => filterOf('conditions[custom_label_3][between]=1'))).toMatchObject({
      field: 'conditions[custom_label_3]',
      message: expect.stringContaining('from and/or to'),
    });
    expect(failure(() => parseConditions({ custom_label_3: [{ a: 1 }] }, TABLE, NY)).field).toBe('conditions[custom_label_3]');
    const tooMany = Array.from({ length: 21 }, (_, i) => `conditions[custom_label_${i + 1}]=1`).join('&');
    expect(failure(() => filterOf(tooMany))).toMatchObject({
      field: 'conditions[custom_label_21]',
      message: 'is one custom field condition too many (at most 20)',
    });
  });

  it('a table without the custom field entry ignores them, as any unknown condition', () => {
    expect(filterOf('conditions[custom_label_3]=1&conditions[deal_name]=x', { deal_name: { to: 'name', kind: 'like' } })).toEqual({ name: { contains: 'x' } });
  });

  it('saved searches store them with the other conditions (arrays of values; a range as its one object)', () => {
    const stored = storedConditions(
      { custom_label_3: [{ from: '1', to: '9' }], custom_label_4: ['1', '2'], custom_label_5: ['7,8'], deal_name: ['big'] },
      TABLE,
    );
    expect(conditionFilter(stored, TABLE, NY, { prefix: 'query' })).toEqual({
      name: { contains: 'big' },
      customFields: [
        { label: 'custom_label_3', range: { from: '1', to: '9' } },
        { label: 'custom_label_4', matches: ['1', '2'] },
        { label: 'custom_label_5', matches: ['7', '8'] },
      ],
    });
    expect(failure(() => storedConditions({ nope: [1] }, TABLE, { what: 'deals searches' }))).toMatchObject({
      field: 'query[nope]',
      message: 'is not a condition of deals searches',
    });
    expect(failure(() => conditionFilter(storedConditions({ custom_label_3: [{ from: 'x' }] }, TABLE), TABLE, NY, { prefix: 'query' })).field).toBe(
      'query[custom_label_3][from]',
    );
  });

  it('an error the core raises inside the filter is traced back to its condition', () => {
    const variables = {
      filter: {
        and: [
          { companyId: { in: [1] } },
          {
            customFields: [
              { label: 'custom_label_3', matches: ['1'] },
              { label: 'custom_label_9', range: { from: 'x' } },
            ],
          },
        ],
      },
    };
    expect(customLabelAt(variables, 'filter.and[1].customFields[1].range.from')).toBe('custom_label_9');
    expect(customLabelAt(variables, 'filter.and[1].customFields[0]')).toBe('custom_label_3');
    expect(customLabelAt(variables, 'filter.and[0].companyId')).toBeNull();
    expect(customLabelAt(variables, 'filter.and[1].customFields[5].label')).toBeNull();
    expect(customLabelAt(variables, 'orderBy')).toBeNull();
  });
});
