import { MAX_ATTRS, parseAttrs } from '../../rest-facade/request/attrs';

describe('parseAttrs', () => {
  it('splits, trims and drops empties', () => {
    expect(parseAttrs('id,last_name')).toEqual(['id', 'last_name']);
    expect(parseAttrs(' id , ,last_name,')).toEqual(['id', 'last_name']);
    expect(parseAttrs('custom_fields,work_address_1')).toEqual(['custom_fields', 'work_address_1']);
  });

  it('accepts the array form, each element possibly comma-separated', () => {
    expect(parseAttrs(['id', 'last_name,email'])).toEqual(['id', 'last_name', 'email']);
    expect(parseAttrs(['id', 5, { a: 1 }])).toEqual(['id']);
  });

  it('returns null when absent or blank (no selection)', () => {
    expect(parseAttrs(undefined)).toBeNull();
    expect(parseAttrs(null)).toBeNull();
    expect(parseAttrs('')).toBeNull();
    expect(parseAttrs(' , ')).toBeNull();
    expect(parseAttrs([])).toBeNull();
    expect(parseAttrs({ a: 'id' })).toBeNull();
  });

  it('ignores malformed names; all malformed gives an empty selection', () => {
    expect(parseAttrs('id,Last_Name,user.id,__proto__x,a-b,ok_1')).toEqual(['id', '__proto__x', 'ok_1']);
    expect(parseAttrs('Name,a b')).toEqual([]);
    expect(parseAttrs(`${'a'.repeat(101)},id`)).toEqual(['id']);
  });

  it('dedupes and keeps at most 100 names', () => {
    expect(parseAttrs('id,id,name')).toEqual(['id', 'name']);
    const many = Array.from({ length: 150 }, (_, i) => `f${i}`).join(',');
    const parsed = parseAttrs(many)!;
    expect(parsed).toHaveLength(MAX_ATTRS);
    expect(parsed[99]).toBe('f99');
  });
});
