import { envelope } from '../../rest-facade/response/envelope';

describe('envelope', () => {
  it('wraps entries with the full pagination (v3 §8.2; DECISIONS: Responses)', () => {
    const body = envelope([{ id: 1 }], { page: 2, perPage: 30, total: 61 });
    expect(body).toEqual({ entries: [{ id: 1 }], pagination: { page: 2, per_page: 30, total: 61, pages: 3, page_var: 'page' } });
    expect(Object.keys(body)).toEqual(['entries', 'pagination']);
  });

  it('computes pages as an integer ceiling', () => {
    expect(envelope([], { page: 1, perPage: 30, total: 60 }).pagination.pages).toBe(2);
    expect(envelope([], { page: 1, perPage: 30, total: 1 }).pagination.pages).toBe(1);
    expect(envelope([], { page: 1, perPage: 5, total: 11 }).pagination.pages).toBe(3);
  });

  it('answers 1 page for an empty list, as the real service did (DECISIONS: Responses; recorded `"pages":1,"total":0`)', () => {
    const body = envelope([], { page: 1, perPage: 200, total: 0 });
    expect(body.pagination).toEqual({ page: 1, per_page: 200, total: 0, pages: 1, page_var: 'page' });
    expect(JSON.parse(JSON.stringify(body)).pagination.pages).toBe(1);
  });

  it('guards against nonsense paging input', () => {
    expect(envelope([], { page: 0, perPage: 0, total: -3 }).pagination).toEqual({ page: 1, per_page: 1, total: 0, pages: 1, page_var: 'page' });
    expect(envelope([], { page: 1, perPage: 10, total: Number.NaN }).pagination.pages).toBe(1);
  });

  it('adds extras such as deal totals at the top level', () => {
    const body = envelope([], { page: 1, perPage: 200, total: 0 }, { totals: { value: '0.00' } });
    expect(body).toEqual({ entries: [], pagination: expect.any(Object), totals: { value: '0.00' } });
  });
});
