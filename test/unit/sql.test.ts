import { contains, escapeLike, startsWith, Where } from '../../src/db/sql';

describe('escapeLike and the like patterns', () => {
  it('escapes the three LIKE metacharacters (backslash first-class), nothing else', () => {
    expect(escapeLike('a\\b')).toBe('a\\\\b');
    expect(escapeLike('50%')).toBe('50\\%');
    expect(escapeLike('a_b')).toBe('a\\_b');
    expect(escapeLike('\\%_')).toBe('\\\\\\%\\_');
    expect(escapeLike('plain text-.*[]')).toBe('plain text-.*[]');
    expect(escapeLike('')).toBe('');
  });

  it('contains wraps in %, startsWith lower-cases and appends %', () => {
    expect(contains('A_b')).toBe('%A\\_b%');
    expect(startsWith('Back\\S')).toBe('back\\\\s%');
    expect(startsWith('')).toBe('%');
  });
});

describe('Where', () => {
  it('joins fragments with and, each in parentheses, keeping parameters in order', () => {
    const w = new Where().add('a = ?', 1).add('b = ? or c = ?', 2, 3);
    expect(w.sql).toBe('(a = ?) and (b = ? or c = ?)');
    expect(w.params).toEqual([1, 2, 3]);
  });

  it('an empty Where is true', () => {
    expect(new Where().sql).toBe('true');
    expect(new Where().params).toEqual([]);
  });

  it('range is inclusive at both ends, and skips missing bounds', () => {
    const from = new Date('2014-05-31T10:00:00.123Z');
    const to = new Date('2014-06-01T00:00:00.000Z');
    expect(new Where().range('t', { from, to })).toMatchObject({ parts: ['t >= ?', 't <= ?'], params: [from, to] });
    expect(new Where().range('t', { from })).toMatchObject({ parts: ['t >= ?'], params: [from] });
    expect(new Where().range('t', { to })).toMatchObject({ parts: ['t <= ?'], params: [to] });
    expect(new Where().range('t', { from: 0, to: 0 })).toMatchObject({ parts: ['t >= ?', 't <= ?'], params: [0, 0] });
    expect(new Where().range('t', { from: null, to: undefined })).toMatchObject({ parts: [], params: [] });
    expect(new Where().range('t', null).sql).toBe('true');
    expect(new Where().range('t', undefined).sql).toBe('true');
  });

  it('ids: one array parameter of integers; none or empty adds nothing', () => {
    expect(new Where().ids('c.id', [3, 1, 2])).toMatchObject({ parts: ['c.id = any(?::int[])'], params: ['{3,1,2}'] });
    expect(new Where().ids('c.id', [4.7])).toMatchObject({ params: ['{4}'] });
    expect(new Where().ids('c.id', []).sql).toBe('true');
    expect(new Where().ids('c.id', null).sql).toBe('true');
    expect(new Where().ids('c.id', undefined).sql).toBe('true');
  });
});
