import { failure } from '../support/facade-failure';
import { parseSort } from '../../rest-facade/request/sort';

const DEALS = { name: 'NAME', created_at: 'CREATED_AT', probability: 'PROBABILITY', owner_id: 'OWNER_ID' } as const;

describe('parseSort', () => {
  it('returns [] when blank', () => {
    expect(parseSort(undefined, DEALS)).toEqual([]);
    expect(parseSort(null, DEALS)).toEqual([]);
    expect(parseSort('', DEALS)).toEqual([]);
    expect(parseSort(' , ', DEALS)).toEqual([]);
  });

  it('reads bare columns, table-prefixed columns and the - prefix (v3 §4.5)', () => {
    expect(parseSort('name', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
    expect(parseSort('-deals.created_at', DEALS)).toEqual([{ field: 'CREATED_AT', direction: 'DESC' }]);
    expect(parseSort('deals.probability', DEALS)).toEqual([{ field: 'PROBABILITY', direction: 'ASC' }]);
    expect(parseSort(' +name ', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
  });

  it('reads several keys in order, from commas or a list, first direction winning on repeats', () => {
    expect(parseSort('-probability, name', DEALS)).toEqual([
      { field: 'PROBABILITY', direction: 'DESC' },
      { field: 'NAME', direction: 'ASC' },
    ]);
    expect(parseSort(['owner_id', '-created_at,name'], DEALS)).toEqual([
      { field: 'OWNER_ID', direction: 'ASC' },
      { field: 'CREATED_AT', direction: 'DESC' },
      { field: 'NAME', direction: 'ASC' },
    ]);
    expect(parseSort('name,-deals.name', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
  });

  it('accepts a trailing asc/desc', () => {
    expect(parseSort('name DESC', DEALS)).toEqual([{ field: 'NAME', direction: 'DESC' }]);
    expect(parseSort('deals.name asc', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
  });

  it('checks the table prefix when a table is given', () => {
    expect(parseSort('people.name', DEALS)).toEqual([{ field: 'NAME', direction: 'ASC' }]);
    expect(parseSort('deals.name', DEALS, { table: 'deals' })).toEqual([{ field: 'NAME', direction: 'ASC' }]);
    expect(failure(() => parseSort('-people.name', DEALS, { table: 'deals' }))).toMatchObject({
      field: 'sort',
      message: 'is not a sortable attribute: -people.name',
      status: 422,
    });
  });

  it('refuses unknown or inherited columns naming sort', () => {
    expect(failure(() => parseSort('name,summary', DEALS))).toMatchObject({ field: 'sort', message: 'is not a sortable attribute: summary' });
    expect(failure(() => parseSort('constructor', DEALS)).field).toBe('sort');
    expect(failure(() => parseSort('deals.__proto__', DEALS)).field).toBe('sort');
    expect(failure(() => parseSort('x'.repeat(500), DEALS)).message.length).toBeLessThan(150);
  });

  it('refuses non-string input', () => {
    expect(failure(() => parseSort({ a: 'name' }, DEALS)).field).toBe('sort');
    expect(failure(() => parseSort([['name']], DEALS)).field).toBe('sort');
  });
});
