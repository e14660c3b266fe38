import { pickAttrs } from '../../rest-facade/response/pick';

const person = { id: 1, first_name: 'Ann', last_name: 'Lee', user: { id: 2, full_name: 'Bo Ng' }, custom_fields: { custom_label_3: [1] }, email: null };

describe('pickAttrs', () => {
  it('returns the object itself when there is no selection', () => {
    expect(pickAttrs(person, null)).toBe(person);
  });

  it('keeps only the named keys, nested values whole, in the object order', () => {
    const picked = pickAttrs(person, ['last_name', 'user', 'id']);
    expect(picked).toEqual({ id: 1, last_name: 'Lee', user: { id: 2, full_name: 'Bo Ng' } });
    expect(Object.keys(picked)).toEqual(['id', 'last_name', 'user']);
    expect(picked.user).toBe(person.user);
    expect(picked).not.toBe(person);
  });

  it('ignores unknown names and keeps null values', () => {
    expect(pickAttrs(person, ['nope', 'email'])).toEqual({ email: null });
    expect(pickAttrs(person, [])).toEqual({});
  });

  it('does not read inherited properties', () => {
    expect(pickAttrs(person, ['toString', 'constructor', '__proto__'])).toEqual({});
  });

  it('reuses one selection across many entries', () => {
    const attrs = ['id'];
    const list = [person, { ...person, id: 9 }].map((p) => pickAttrs(p, attrs));
    expect(list).toEqual([{ id: 1 }, { id: 9 }]);
  });
});
