import { createSchema } from '../../src/app/schema';
import { compileOperations } from '../../src/graphql/executor';
import { operationsSource } from '../../rest-facade';

/** A facade operation that names a field the schema lacks stops the boot, naming the field and its type (issue 23 §3). */
describe('the facade operations at boot', () => {
  const schema = createSchema();
  const source = operationsSource(schema);

  it('compile as they are', () => {
    expect(compileOperations(schema, source).names).toEqual(expect.arrayContaining(['ListDeals', 'ShowCompany', 'CreatePerson']));
  });

  it('refuse an operation that names an unknown field', () => {
    const typo = source.replace(
      'query ShowCompany($id: Int!, $withPeople: Boolean! = false) {\n  company(id: $id) {',
      'query ShowCompany($id: Int!, $withPeople: Boolean! = false) {\n  company(id: $id) { nickname',
    );
    expect(typo).not.toBe(source);
    expect(() => compileOperations(schema, typo)).toThrow('Invalid operations: Cannot query field "nickname" on type "Company".');
  });
});
