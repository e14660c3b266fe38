import { MAX_PAGE, parsePaging } from '../../rest-facade/request/paging';

const DEALS = { default: 200, max: 200 };
const NOTES = { default: 5, max: 100 };

describe('parsePaging', () => {
  it('uses page 1 and the route default when nothing is given', () => {
    expect(parsePaging({}, DEALS)).toEqual({ page: 1, perPage: 200 });
    expect(parsePaging({}, NOTES)).toEqual({ page: 1, perPage: 5 });
  });

  it('reads numeric strings and numbers', () => {
    expect(parsePaging({ page: '3', per_page: '20' }, NOTES)).toEqual({ page: 3, perPage: 20 });
    expect(parsePaging({ page: 3, per_page: 20 }, NOTES)).toEqual({ page: 3, perPage: 20 });
    expect(parsePaging({ page: ' 4 ', per_page: '+7' }, NOTES)).toEqual({ page: 4, perPage: 7 });
  });

  it.each([['0'], ['-2'], ['abc'], ['2.5'], ['1e3'], [''], [null], [['2']], [{}], [0], [2.5], [Number.NaN]])('page %p → 1', (page) => {
    expect(parsePaging({ page }, NOTES).page).toBe(1);
  });

  it.each([['0'], ['-5'], ['x'], [''], [['10']], [0], [1.5]])('per_page %p → default', (perPage) => {
    expect(parsePaging({ per_page: perPage }, NOTES).perPage).toBe(5);
  });

  it('clamps per_page to the route maximum instead of rejecting it', () => {
    expect(parsePaging({ per_page: '500' }, NOTES).perPage).toBe(100);
    expect(parsePaging({ per_page: '500' }, DEALS).perPage).toBe(200);
    expect(parsePaging({ per_page: '99999999999999999999999' }, DEALS).perPage).toBe(200);
  });

  it('caps huge page numbers', () => {
    expect(MAX_PAGE).toBe(1_000_000);
    expect(parsePaging({ page: '1000001' }, NOTES).page).toBe(MAX_PAGE);
    expect(parsePaging({ page: '99999999999999999999999999' }, NOTES).page).toBe(MAX_PAGE);
    expect(parsePaging({ page: '1000000' }, NOTES).page).toBe(1_000_000);
  });

  it('never lets a default exceed the maximum', () => {
    expect(parsePaging({}, { default: 300, max: 100 }).perPage).toBe(100);
  });
});
