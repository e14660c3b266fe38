import { failure } from '../support/facade-failure';
import { parsePaging } from '../../rest-facade/request/paging';
import { parseSort } from '../../rest-facade/request/sort';

const DEALS = { name: 'NAME', created_at: 'CREATED_AT' } as const;

describe('parseSort edges', () => {
  it('says what a sort must be when it is not text', () => {
    expect(failure(() => parseSort(5, DEALS))).toMatchObject({ field: 'sort', message: 'must be a comma-separated list of attributes', status: 422 });
  });

  it('quotes an unknown attribute up to 100 characters, cutting a longer one with an ellipsis', () => {
    const hundred = 'x'.repeat(100);
    expect(failure(() => parseSort(hundred, DEALS)).message).toBe(`is not a sortable attribute: ${hundred}`);
    expect(failure(() => parseSort(`${hundred}yz`, DEALS)).message).toBe(`is not a sortable attribute: ${hundred}…`);
  });

  it('quotes the unknown attribute without the spaces around it', () => {
    expect(failure(() => parseSort('name,  summary ', DEALS)).message).toBe('is not a sortable attribute: summary');
    expect(failure(() => parseSort(' people.name ', DEALS, { table: 'deals' })).message).toBe('is not a sortable attribute: people.name');
  });

  it('reads the direction word only at the end, after any spaces', () => {
    expect(parseSort('name   desc', DEALS)).toEqual([{ field: 'NAME', direction: 'DESC' }]);
    expect(failure(() => parseSort('name descending', DEALS)).message).toBe('is not a sortable attribute: name descending');
  });

  it('takes a bare column when a table is required of prefixed ones', () => {
    expect(parseSort('name,-created_at', DEALS, { table: 'deals' })).toEqual([
      { field: 'NAME', direction: 'ASC' },
      { field: 'CREATED_AT', direction: 'DESC' },
    ]);
  });

  it('looks a dotted column up as it is before reading the dot as a table prefix', () => {
    const stages = { 'stage.name': 'STAGE_NAME', name: 'NAME' };
    expect(parseSort('stage.name', stages, { table: 'deals' })).toEqual([{ field: 'STAGE_NAME', direction: 'ASC' }]);
    expect(parseSort('deals.name', stages, { table: 'deals' })).toEqual([{ field: 'NAME', direction: 'ASC' }]);
  });

  it('reads a leading dot as an empty table prefix', () => {
    expect(parseSort('.name', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
    expect(failure(() => parseSort('.name', DEALS, { table: 'deals' })).field).toBe('sort');
  });
});

describe('parsePaging edges', () => {
  it('takes page 1 and per_page 1 as given', () => {
    expect(parsePaging({ page: '1', per_page: '1' }, { default: 5, max: 100 })).toEqual({ page: 1, perPage: 1 });
    expect(parsePaging({ page: 1, per_page: 1 }, { default: 5, max: 100 })).toEqual({ page: 1, perPage: 1 });
  });

  it('takes per_page equal to the maximum', () => {
    expect(parsePaging({ per_page: '100' }, { default: 5, max: 100 }).perPage).toBe(100);
  });
});
