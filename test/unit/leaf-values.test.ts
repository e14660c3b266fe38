import { execute, GraphQLEnumType, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString, GraphQLID, GraphQLInt, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { loadConfig } from '../../src/config/config';
import { enumNamesAtTheField, leafCompilerOptions, strictLeafSerializers } from '../../src/graphql/leaf-values';
import { testConfig } from '../support/test-server';

/** An enum stored as lower-case words, named in capitals (as OutboxMessageKind). */
function schemaWith(rows: Record<string, unknown>): GraphQLSchema {
  const Kind = new GraphQLEnumType({ name: 'Kind', values: { NOTE_COMMENT: { value: 'note_comment' }, PERSON_ASSIGNMENT: { value: 'person_assignment' } } });
  const Same = new GraphQLEnumType({ name: 'Same', values: { ALL: { value: 'ALL' }, OWN: { value: 'OWN' } } });
  const Row = new GraphQLObjectType({
    name: 'Row',
    fields: {
      kind: { type: Kind },
      kinds: { type: new GraphQLList(Kind) },
      later: { type: Kind, resolve: async (row: { kind: string }) => row.kind },
      same: { type: Same },
      name: { type: GraphQLString },
      id: { type: GraphQLID },
      count: { type: GraphQLInt },
    },
  });
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { row: { type: Row, resolve: () => rows } } }) });
}

const QUERY = parse('{ row { kind kinds later same name id count } }');
const ROW = { kind: 'note_comment', kinds: ['person_assignment', null, 'note_comment'], same: 'OWN', name: 'Ada', id: '7', count: 3 };
const NAMED = { kind: 'NOTE_COMMENT', kinds: ['PERSON_ASSIGNMENT', null, 'NOTE_COMMENT'], later: 'NOTE_COMMENT', same: 'OWN', name: 'Ada', id: '7', count: 3 };

async function runJit(schema: GraphQLSchema, options: Parameters<typeof compileQuery>[3]) {
  const compiled = compileQuery(schema, QUERY, undefined, options);
  if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled.errors));
  return compiled.query(undefined, {}, {});
}

describe('leaf values', () => {
  it('names the values of an enum whose stored values are not its names, at each of its fields only', () => {
    const schema = schemaWith(ROW);
    expect(enumNamesAtTheField(schema)).toEqual(['Row.kind', 'Row.kinds', 'Row.later']);
  });

  it('answers names with leaf serialization off (production), as graphql-js answers', async () => {
    const schema = schemaWith(ROW);
    enumNamesAtTheField(schema);
    const unconverted = await runJit(schema, { disableLeafSerialization: true });
    expect(unconverted).toEqual({ data: { row: NAMED } });
    // graphql-js serializes what the field already named: the enum takes a name as itself.
    expect(await execute({ schema, document: QUERY })).toEqual({ data: { row: NAMED } });
  });

  it('under test, serializes with checks that pass what production writes unconverted', async () => {
    const schema = schemaWith(ROW);
    enumNamesAtTheField(schema);
    const strict = await runJit(schema, { disableLeafSerialization: false, customSerializers: strictLeafSerializers(schema) });
    expect(strict).toEqual({ data: { row: NAMED } });
  });

  it('refuses under test a value production would write unconverted but graphql-js would convert', async () => {
    const schema = schemaWith({ ...ROW, name: 12, id: 7, count: '3' });
    enumNamesAtTheField(schema);
    const result = await runJit(schema, { disableLeafSerialization: false, customSerializers: strictLeafSerializers(schema) });
    expect(result.data).toEqual({ row: { ...NAMED, name: null, id: null, count: null } });
    expect(result.errors?.map((e) => e.message)).toEqual([
      expect.stringContaining('A String field returned number 12'),
      expect.stringContaining('An ID field returned number 7'),
      expect.stringContaining('An Int field returned string "3"'),
    ]);
  });

  it('checks each built-in scalar and enum by what GraphQL writes', () => {
    const serializers = strictLeafSerializers(schemaWith(ROW));
    expect(serializers.Int(2 ** 31 - 1)).toBe(2 ** 31 - 1);
    expect(() => serializers.Int(2 ** 31)).toThrow('An Int field returned number 2147483648');
    expect(() => serializers.Int(1.5)).toThrow('An Int field returned number 1.5');
    expect(() => serializers.Float(Number.NaN)).toThrow('A Float field returned number NaN');
    expect(() => serializers.Float('1.5')).toThrow('A Float field returned string');
    expect(() => serializers.Boolean(1)).toThrow('A Boolean field returned number 1');
    expect(serializers.Kind('NOTE_COMMENT')).toBe('NOTE_COMMENT');
    expect(() => serializers.Kind('note_comment')).toThrow('An enum Kind field returned string "note_comment"');
  });

  it('refuses at boot an enum whose stored value is the name of another value', () => {
    const Tangled = new GraphQLEnumType({ name: 'Tangled', values: { ONE: { value: 'TWO' }, TWO: { value: 'one' } } });
    const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { t: { type: Tangled } } }) });
    expect(() => enumNamesAtTheField(schema)).toThrow('Enum Tangled: the stored value "TWO" is the name of another value');
  });

  it('compiles unconverted in production and checked under test', () => {
    const schema = schemaWith(ROW);
    expect(leafCompilerOptions(schema, { checked: false }, true)).toEqual({
      disableLeafSerialization: true,
      customSerializers: { DateTimeISO: expect.any(Function) },
    });
    const checked = leafCompilerOptions(schema, { checked: true }, false);
    expect(checked.disableLeafSerialization).toBe(false);
    expect(Object.keys(checked.customSerializers ?? {})).toEqual(expect.arrayContaining(['String', 'ID', 'Int', 'Float', 'Boolean', 'Kind', 'Same']));
    expect(checked.customSerializers).not.toHaveProperty('DateTimeISO');
  });

  it('checks leaves under test and in the test servers, never by default in production', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).graphqlStrictLeaves).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/crm' }).graphqlStrictLeaves).toBe(false);
    expect(loadConfig({}).graphqlStrictLeaves).toBe(false);
    expect(loadConfig({ GRAPHQL_STRICT_LEAVES: 'true' }).graphqlStrictLeaves).toBe(true);
    expect(() => loadConfig({ GRAPHQL_STRICT_LEAVES: 'sometimes' })).toThrow('GRAPHQL_STRICT_LEAVES must be true or false, got "sometimes"');
    expect(testConfig().graphqlStrictLeaves).toBe(true);
  });
});
