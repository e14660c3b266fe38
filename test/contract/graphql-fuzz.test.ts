import { seedCustomField } from '../support/custom-fields';
import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { createSchema } from '../../src/app/schema';
import {
  captureServerLog,
  collectRecords,
  errorCodes,
  inPool,
  isConnectionField,
  NoLiteral,
  Rng,
  seedThroughMutations,
  short,
  toLiteral,
  type NodeRecord,
} from '../support/graphql-gen';
import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * No input answers 500. Every argument of every field reachable from Query and Mutation (nested
 * ones such as Company.people's too) and every input type reachable from them, taken from the
 * schema, gets hostile but well-typed values (and some badly typed ones), as variables, as inline
 * literals, as literals holding a variable and as variable defaults: extreme numbers, empty and
 * huge strings, NUL bytes, forged global ids of every type, unknown enum values, null for
 * non-null, filters nested 30, 1,000 and 50,000 deep, lists of 10,000 items, forged and tampered
 * cursors of every connection and order, custom-field conditions of every kind, and mutations of
 * every type (on their own account). Whatever the answer, it is not a 5xx and carries no
 * INTERNAL_SERVER_ERROR. Seeded: the same cases for the same schema on every run; a failure
 * lists each distinct one (where, status, the server's logged error) with an example request.
 * FUZZ_DEBUG=1 also prints how every kind of case was answered.
 */

const SEED = 0xf022_2026;
const CONCURRENCY = 8;
/**
 * Requests per kind of case, whatever the size of the schema: a larger schema spreads them thinner
 * (every argument, input field, mutation and list still gets at least one; see each section).
 */
const BUDGET = { arguments: 260, inputFields: 220, cursors: 150, defaults: 40, customFields: 60, hugeStrings: 10, forgedIdsPerType: 5, mutations: 220 };
/** At least this many cases per mutation field. */
const MIN_PER_MUTATION = 6;
const NESTING_DEPTHS = [30, 1_000, 50_000];
const LONG_LIST = 10_000;

type AnyField = GraphQLField<unknown, unknown>;

interface Case {
  readonly category: string;
  /** Where the hostile value goes, e.g. `Company.people(filter)`. */
  readonly site: string;
  readonly key: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  /** The JSON body as sent, when JSON.stringify cannot write it (50,000 levels deep). */
  readonly raw?: string;
}

/** A field with arguments, reachable from a root, and how to reach it. */
interface Site {
  readonly name: string;
  readonly field: AnyField;
  readonly operation: 'query' | 'mutation';
  /** Wraps the field's text in the selections that reach its type from the root. */
  readonly wrap: (inner: string) => string;
}

/** What one account holds: its key, records (databaseIds and global ids), custom field labels. */
interface World {
  readonly key: string;
  readonly records: readonly NodeRecord[];
  readonly byType: ReadonlyMap<string, readonly NodeRecord[]>;
  readonly labels: readonly string[];
}

/** How an argument value is written into the document. */
type Mode = 'variable' | 'literal' | 'mixed' | 'default';

const base64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');

// ---------------------------------------------------------------------------------------------
// The schema: sites, routes to nested types, selections

function nodeTypeNames(schema: GraphQLSchema): string[] {
  const node = schema.getType('Node');
  return node && isInterfaceType(node) ? schema.getPossibleTypes(node).map((t) => t.name) : [];
}

/** The databaseIds a required Int argument is filled with: records of the field's type, else any. */
function realInt(world: World, typeName: string, rng: Rng): number {
  const list = world.byType.get(typeName) ?? world.records;
  return rng.pick(list).databaseId;
}

function fillable(arg: GraphQLArgument): boolean {
  const named = getNamedType(arg.type);
  return isEnumType(named) || ['Int', 'ID', 'String', 'Boolean'].includes(named.name);
}

/** A valid value for a required argument on the route to a nested field. */
function routeValue(arg: GraphQLArgument, returnType: string, world: World, rng: Rng): string {
  const named = getNamedType(arg.type);
  const list = isListType(getNullableType(arg.type));
  let value: unknown;
  if (isEnumType(named)) value = named.getValues()[0].name;
  else if (named.name === 'Int') value = realInt(world, returnType, rng);
  else if (named.name === 'ID') value = (world.byType.get(returnType) ?? world.records)[0].id;
  else if (named.name === 'Boolean') value = true;
  else value = 'a';
  return toLiteral(list ? [value] : value, arg.type);
}

/**
 * How to reach each object type from Query: the shortest chain of fields whose required
 * arguments can be filled (connections with `first: 2`, lookups with a real record's id).
 */
function routes(schema: GraphQLSchema, world: World, rng: Rng): Map<string, (inner: string) => string> {
  const found = new Map<string, (inner: string) => string>();
  const query = schema.getQueryType()!;
  found.set(query.name, (inner) => inner);
  const queue: GraphQLObjectType[] = [query];
  while (queue.length) {
    const type = queue.shift()!;
    const wrap = found.get(type.name)!;
    // Fields of a concrete type first: `company(id:)` reaches Company more plainly than `node(id:)`.
    const fields = (Object.values(type.getFields()) as AnyField[]).sort(
      (a, b) => Number(isAbstractType(getNamedType(a.type))) - Number(isAbstractType(getNamedType(b.type))),
    );
    for (const field of fields) {
      const target = getNamedType(field.type);
      if (isLeafType(target) || field.name.startsWith('__')) continue;
      const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
      if (!required.every(fillable)) continue;
      const objects = isAbstractType(target) ? schema.getPossibleTypes(target) : isObjectType(target) ? [target] : [];
      for (const object of objects) {
        if (found.has(object.name)) continue;
        // Ids of a record of the type reached (node(id:) of a Company to reach Company).
        const args = required.map((a) => `${a.name}: ${routeValue(a, object.name, world, rng)}`);
        if (isConnectionField(field)) args.push('first: 2');
        const text = `${field.name}${args.length ? `(${args.join(', ')})` : ''}`;
        const fragment = isAbstractType(target);
        found.set(object.name, (inner) => wrap(`${text} { __typename ${fragment ? `... on ${object.name} { ${inner} }` : inner} }`));
        queue.push(object);
      }
    }
  }
  return found;
}

/** Every field with arguments reachable from Query and Mutation, with its route. */
function sitesOf(schema: GraphQLSchema, world: World, rng: Rng): Site[] {
  const sites: Site[] = [];
  const reach = routes(schema, world, rng);
  for (const [typeName, wrap] of reach) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const field of Object.values(type.getFields()) as AnyField[]) {
      if (field.args.length && !field.name.startsWith('__')) sites.push({ name: `${typeName}.${field.name}`, field, operation: 'query', wrap });
    }
  }
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {}) as AnyField[]) {
    if (field.args.length) sites.push({ name: `${mutation!.name}.${field.name}`, field, operation: 'mutation', wrap: (inner) => inner });
  }
  return sites;
}

/** A small selection on the field's type: leaves, and argument-free objects two levels down. */
function selection(type: GraphQLNamedType, depth = 0): string {
  if (isLeafType(type)) return '';
  const parts = ['__typename'];
  if (isInterfaceType(type) || isObjectType(type)) {
    for (const field of Object.values(type.getFields()) as AnyField[]) {
      const named = getNamedType(field.type);
      if (field.args.length) continue; // connections cost; required arguments are another site's business
      if (isLeafType(named)) parts.push(field.name);
      else if (depth < 2 && isObjectType(type)) parts.push(`${field.name} ${selection(named, depth + 1)}`);
    }
  }
  return `{ ${parts.join(' ')} }`;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const DATE_TIMES = [
  '2026-13-45T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-01-31T24:00:00Z',
  '2026-01-31T09:00:00+14:00',
  '1970-01-01T00:00:00Z',
  '2026-01-31T09:00:00.123456789Z',
  '',
  'garbage',
  '2026-01-31',
];
const DATE_TIMES_WRONG: unknown[] = [1e308, 0, -1, 8.64e15 + 1, true];

class Values {
  constructor(
    private readonly rng: Rng,
    private readonly world: World,
    /** Another account's records: ids that exist, but not for this key. */
    private readonly foreign: readonly NodeRecord[],
    private readonly nodeTypes: readonly string[],
  ) {}

  private label(): string {
    return this.world.labels.length ? this.rng.pick(this.world.labels) : 'custom_label_1';
  }

  ints(): unknown[] {
    const real = this.rng.some(this.world.records, 3, 3).map((r) => r.databaseId);
    return [2147483647, -2147483648, 0, -1, 1, ...real, this.rng.pick(this.foreign).databaseId];
  }

  /** Forged global ids: every node type with ids out of range or malformed, unknown types, noise. */
  ids(): unknown[] {
    const type = this.rng.pick([...this.nodeTypes, 'Nope']);
    const forged = [
      `${type}:0`,
      `${type}:-1`,
      `${type}:99999999999`,
      `${type}:abc`,
      `${type}:2147483647`,
      `${type}:2147483648`,
      `${type}: 1`,
      `${type}:01`,
      `${type.toLowerCase()}:1`,
      'Nope:1',
      `${type}:1:2`,
      ':1',
    ].map(base64url);
    return [
      ...forged,
      base64url(Buffer.from(Array.from({ length: 1 + this.rng.int(40) }, () => this.rng.int(256)))),
      this.rng.pick(this.world.records).id,
      this.rng.pick(this.foreign).id,
      '',
      '!!!',
      '=',
      'A',
      'x'.repeat(101),
      `${this.rng.pick(this.world.records).id}==`,
      '\u0000',
      5,
      2147483647,
    ];
  }

  strings(name: string): unknown[] {
    const all = [
      '',
      ' ',
      'a',
      '%',
      '_',
      '\\',
      '%_\\%',
      "'; select pg_sleep(10); --",
      '\u0000',
      'a\u0000b',
      '😀'.repeat(60),
      '\u202e\u0301\ufeff',
      '\ud800',
      'x'.repeat(201),
      'y'.repeat(256),
      'z'.repeat(10_000),
      'w'.repeat(10_001),
      '2026-13-45',
      '2026-02-30',
      '0000-00-00',
      '9999-12-31',
      '10000-01-01',
      '-1',
      '1e308',
      'NaN',
      'null',
      '#zzzzzz',
      '#FFF',
      '#12345678',
      'not-an-email@',
      'custom_label_0',
      'custom_label_99999999999',
      this.label(),
    ];
    if (name === 'label') return [...all.slice(0, 8), ...this.world.labels, ...this.world.labels, 'custom_label_-1', 'CUSTOM_LABEL_1'];
    return all;
  }

  json(): unknown[] {
    const l = () => this.label();
    const deepObject = (n: number) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = { a: v };
      return v;
    };
    const deepArray = (n: number) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    return [
      {},
      [],
      'str',
      0,
      1e308,
      true,
      { [l()]: 1e308 },
      { [l()]: -1e308 },
      { [l()]: 5e-324 },
      { [l()]: '2026-13-45' },
      { [l()]: '2026-02-30' },
      { [l()]: '99999-01-01' },
      { [l()]: '0000-01-01' },
      { [l()]: [2147483648, -1, 0] },
      { [l()]: [1, 1, 1] },
      { [l()]: 2147483648 },
      { [l()]: -1 },
      { [l()]: 'x'.repeat(10_001) },
      { [l()]: 'x'.repeat(300) },
      { [l()]: { a: 1 } },
      { [l()]: true },
      { [l()]: [[]] },
      { [l()]: '' },
      { [l()]: '\u0000' },
      { [l()]: 1.5 },
      { [l()]: 'abc' },
      { [l()]: null },
      { [l()]: [] },
      { [l()]: Array.from({ length: 1000 }, (_, i) => i) },
      deepObject(21),
      deepArray(25),
      deepObject(19),
      wide,
      { custom_label_99999999999: 1 },
      { 'not a label': 1 },
      { ['__proto__']: { polluted: 1 } },
      { constructor: { prototype: { polluted: 1 } } },
    ];
  }

  /** One hostile value of a leaf type (about one in five of the wrong type). */
  leaf(named: GraphQLNamedType, name: string): unknown {
    const wrong = this.rng.chance(0.2);
    if (isEnumType(named)) {
      const values = named.getValues().map((v) => v.name);
      return wrong
        ? this.rng.pick<unknown>([1, true, '', values[0].toLowerCase(), `"${values[0]}"`])
        : this.rng.pick([...values, 'NOPE', 'NOPE', values[0].toLowerCase()]);
    }
    switch (named.name) {
      case 'Int':
        return wrong ? this.rng.pick<unknown>([1.5, 2147483648, -2147483649, '7', true, 1e308]) : this.rng.pick(this.ints());
      case 'Float':
        return wrong
          ? this.rng.pick<unknown>(['1.5', true, 'NaN', [1]])
          : // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 on purpose: a value a double cannot hold
            this.rng.pick([1e308, -1e308, 5e-324, -5e-324, 0.5, 0, -1, 2147483648, 9007199254740993]);
      case 'Boolean':
        return wrong ? this.rng.pick<unknown>(['true', 0, 1, 'yes']) : this.rng.chance(0.5);
      case 'ID':
        return wrong ? this.rng.pick<unknown>([1.5, true, { a: 1 }]) : this.rng.pick(this.ids());
      case 'String':
        return wrong ? this.rng.pick<unknown>([12, true, 1.5, ['a']]) : this.rng.pick(this.strings(name));
      case 'DateTimeISO':
        return wrong ? this.rng.pick(DATE_TIMES_WRONG) : this.rng.pick(DATE_TIMES);
      default:
        // JSON, JSONObject and any other custom scalar
        return this.rng.pick(this.json());
    }
  }

  /** A hostile value of any input type: null for non-null, odd lists, partial and unknown fields. */
  value(type: GraphQLInputType, name: string, depth = 0): unknown {
    if (isNonNullType(type)) return this.rng.chance(0.08) ? null : this.value(type.ofType as GraphQLInputType, name, depth);
    if (this.rng.chance(0.04)) return null;
    if (isListType(type)) {
      const item = type.ofType as GraphQLInputType;
      const r = this.rng.float();
      if (r < 0.1) return [];
      if (r < 0.2) return this.value(item, name, depth + 1); // one item where a list is expected
      if (r < 0.28) return [null];
      if (r < 0.36) return Array.from({ length: 50 }, () => this.value(item, name, depth + 1));
      return Array.from({ length: 1 + this.rng.int(3) }, () => this.value(item, name, depth + 1));
    }
    if (isInputObjectType(type)) return this.object(type, depth);
    return this.leaf(type, name);
  }

  private object(type: GraphQLInputObjectType, depth: number): unknown {
    const fields = Object.values(type.getFields());
    const r = this.rng.float();
    if (r < 0.08) return {};
    if (r < 0.13) return this.rng.pick<unknown>(['str', 1, [], true]);
    if (r < 0.17) return { nope: 1 };
    const out: Record<string, unknown> = {};
    const skipRequired = this.rng.chance(0.1);
    for (const f of fields) if (isNonNullType(f.type) && f.defaultValue === undefined && !skipRequired) out[f.name] = this.valid(f.type, f.name, depth + 1);
    const recursive = (f: GraphQLInputField) => getNamedType(f.type) === type;
    const candidates = fields.filter((f) => depth < 3 || !recursive(f));
    for (const f of this.rng.some(candidates, 1, 3)) out[f.name] = depth >= 4 ? this.leafOrEmpty(f) : this.value(f.type, f.name, depth + 1);
    return out;
  }

  private leafOrEmpty(f: GraphQLInputField): unknown {
    const named = getNamedType(f.type);
    return isInputObjectType(named) ? {} : isListType(getNullableType(f.type)) ? [] : this.leaf(named, f.name);
  }

  /** A well-formed value (for required fields next to the hostile ones). */
  valid(type: GraphQLInputType, name: string, depth = 0): unknown {
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) return [this.valid(inner.ofType as GraphQLInputType, name, depth + 1)];
    if (isEnumType(inner)) return this.rng.pick(inner.getValues()).name;
    if (isInputObjectType(inner)) {
      const out: Record<string, unknown> = {};
      for (const f of Object.values(inner.getFields()))
        if (isNonNullType(f.type) && f.defaultValue === undefined) out[f.name] = this.valid(f.type, f.name, depth + 1);
      return out;
    }
    switch (inner.name) {
      case 'Int':
        return this.rng.pick(this.world.records).databaseId;
      case 'Float':
        return 1.5;
      case 'Boolean':
        return true;
      case 'ID':
        return this.rng.pick(this.world.records).id;
      case 'String':
        return name === 'label' ? this.label() : `Fuzz ${this.rng.int(1e6)}`;
      case 'DateTimeISO':
        return '2020-01-01T00:00:00Z';
      default:
        return {};
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Writing cases

class Writer {
  private n = 0;
  constructor(
    private readonly rng: Rng,
    private readonly values: Values,
    private readonly world: World,
  ) {}

  /**
   * The operation calling `site.field` with these argument values (others left out, required ones
   * filled with valid values), each written as `mode` says.
   */
  call(site: Site, given: ReadonlyMap<string, { value: unknown; mode: Mode }>, category: string): Case {
    const defs: string[] = [];
    const variables: Record<string, unknown> = {};
    const args: string[] = [];
    const asVariable = (type: GraphQLInputType, value: unknown): string => {
      const name = `v${this.n++}`;
      defs.push(`$${name}: ${String(type)}`);
      variables[name] = value;
      return `$${name}`;
    };
    for (const arg of site.field.args) {
      let entry = given.get(arg.name);
      if (!entry) {
        if (!isNonNullType(arg.type) || arg.defaultValue !== undefined) continue;
        const filled =
          getNamedType(arg.type).name === 'Int' && /^(id|.*Id)$/.test(arg.name)
            ? realInt(this.world, this.recordTypeOf(site), this.rng)
            : this.values.valid(arg.type, arg.name);
        entry = { value: filled, mode: this.rng.chance(0.5) ? 'literal' : 'variable' };
      }
      const { value, mode } = entry;
      if (value === undefined) continue;
      let text: string | null = null;
      try {
        if (mode === 'literal') text = toLiteral(value, arg.type);
        else if (mode === 'default') {
          const name = `d${this.n++}`;
          // No value sent: the default runs. Declared as the argument's type (`$i: Int! = 1`) or nullable.
          const declared = this.rng.chance(0.5) ? arg.type : (getNullableType(arg.type) as GraphQLInputType);
          defs.push(`$${name}: ${String(declared)} = ${toLiteral(value, arg.type)}`);
          text = `$${name}`;
        } else if (mode === 'mixed') text = this.mixed(arg.type, value, asVariable);
      } catch (e) {
        if (!(e instanceof NoLiteral)) throw e;
        text = null;
      }
      args.push(`${arg.name}: ${text ?? asVariable(arg.type, value)}`);
    }
    const call = `f: ${site.field.name}${args.length ? `(${args.join(', ')})` : ''} ${selection(getNamedType(site.field.type))}`;
    const query = `${site.operation} Fuzz${defs.length ? `(${defs.join(', ')})` : ''} { ${site.wrap(call)} }`;
    return { category, site: site.name, key: this.world.key, query, variables };
  }

  /** An input object literal with one of its fields (or list items) given as a variable. */
  private mixed(type: GraphQLInputType, value: unknown, asVariable: (type: GraphQLInputType, value: unknown) => string): string {
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner) && Array.isArray(value) && value.length) {
      const item = inner.ofType as GraphQLInputType;
      const i = this.rng.int(value.length);
      return `[${value.map((v, j) => (j === i ? asVariable(item, v) : toLiteral(v, item))).join(', ')}]`;
    }
    if (!isInputObjectType(inner) || value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
      return toLiteral(value, type);
    const fields = inner.getFields();
    const entries = Object.entries(value as Record<string, unknown>);
    const chosen = this.rng.int(entries.length);
    const parts = entries.map(([k, v], i) => {
      const field = fields[k];
      if (i === chosen && field) return `${k}: ${asVariable(field.type, v)}`;
      return `${k}: ${toLiteral(v, field?.type ?? null)}`;
    });
    return `{${parts.join(', ')}}`;
  }

  /** The record type a mutation or lookup acts on: its return type, or the type its name ends with (`deletePerson`). */
  recordTypeOf(site: Site): string {
    const named = getNamedType(site.field.type);
    if (this.world.byType.has(named.name)) return named.name;
    const match = /^(?:create|update|delete)(\w+)$/.exec(site.field.name);
    return match && this.world.byType.has(match[1]) ? match[1] : named.name;
  }

  mode(): Mode {
    const r = this.rng.float();
    return r < 0.45 ? 'variable' : r < 0.8 ? 'literal' : r < 0.92 ? 'mixed' : 'default';
  }
}

/** Where inside an argument's input type a field satisfying `want` sits (field names; lists are entered). */
function inputPaths(type: GraphQLInputType, want: (t: GraphQLInputObjectType, f: GraphQLInputField) => boolean, maxDepth = 3): string[][] {
  const out: string[][] = [];
  const walk = (t: GraphQLInputType, path: string[], seen: Set<string>) => {
    const named = getNamedType(t);
    if (!isInputObjectType(named) || seen.has(named.name) || path.length >= maxDepth) return;
    const next = new Set(seen).add(named.name);
    for (const f of Object.values(named.getFields())) {
      if (want(named, f)) out.push([...path, f.name]);
      walk(f.type, [...path, f.name], next);
    }
  };
  walk(type, [], new Set());
  return out;
}

/** An argument value with `leaf` at `path` (lists entered as one-item lists), required fields on the way filled. */
function valueAt(type: GraphQLInputType, path: readonly string[], leaf: unknown, values: Values): unknown {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return [valueAt(inner.ofType as GraphQLInputType, path, leaf, values)];
  if (path.length === 0) return leaf;
  if (!isInputObjectType(inner)) return leaf;
  const out: Record<string, unknown> = {};
  for (const f of Object.values(inner.getFields()))
    if (isNonNullType(f.type) && f.defaultValue === undefined && f.name !== path[0]) out[f.name] = values.valid(f.type, f.name);
  const field = inner.getFields()[path[0]];
  out[path[0]] = path.length === 1 ? leaf : valueAt(field.type, path.slice(1), leaf, values);
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('GraphQL fuzz: no input answers 500', () => {
  const schema = createSchema();
  const log = captureServerLog();
  let server: TestServer;
  let reader: World;
  let writer: World;

  /** An account with companies, people, list items of every kind, users and custom fields of every kind. */
  async function seedAccount(account: TestAccount): Promise<World> {
    const key = account.admin.apiKey;
    await account.addUser();
    const acc = account.accountId;
    const companies = await server.sql<{ id: number }>(
      `insert into companies (account_id, owner_id, name, city, custom_fields, created_at, updated_at)
       select ?, ?, 'Fuzz Co ' || g, case when g % 2 = 0 then null else 'City ' || g end, '{}', now() - (g || ' hours')::interval, now() from generate_series(1, 8) g returning id`,
      [acc, account.admin.id],
    );
    for (const { id } of companies) {
      await server.sql(
        `insert into people (account_id, owner_id, company_id, last_name, first_name, type, tag_ids, custom_fields, created_at, updated_at, unsubscribed, bounced)
         select ?, ?, ?, 'Fuzz ' || g, case when g % 2 = 0 then null else 'F' || g end, 'Contact', '[]', '{}', now() - (g || ' minutes')::interval, now(), false, false from generate_series(1, 4) g`,
        [acc, account.admin.id, id],
      );
    }
    // Custom fields of every kind the schema names (stored lowercase: `MULTI_SELECT` is 'multi_select').
    const kindType = schema.getType('CustomFieldKind');
    const customFieldKinds = kindType && isEnumType(kindType) ? kindType.getValues().map((v) => v.name.toLowerCase()) : ['text'];
    const labels: string[] = [];
    const sample: Record<string, unknown> = { text: 'text', numeric: 42, currency: 12.5, date: '2001-02-03', boolean: true };
    for (const [resource, table] of [
      ['person', 'people'],
      ['company', 'companies'],
    ] as const) {
      const values: Record<string, unknown> = {};
      for (const kind of customFieldKinds) {
        const field = await seedCustomField(
          server,
          acc,
          resource,
          kind as Parameters<typeof seedCustomField>[3],
          `Fuzz ${kind}`,
          kind === 'dropdown' || kind === 'multi_select' ? ['One', 'Two'] : [],
        );
        labels.push(field.label);
        values[field.label] = kind === 'dropdown' ? field.entries[0] : kind === 'multi_select' ? field.entries : (sample[kind] ?? 'x');
      }
      // Values in them, so conditions on custom fields have rows to compare.
      await server.sql(`update ${table} set custom_fields = ?::jsonb where account_id = ?`, [JSON.stringify(values), acc]);
    }
    // Records of every type the schema can create (list items of every kind, deals, ...), through its mutations.
    const graphql = (q: string, v?: Record<string, unknown>) => server.graphql(key, q, v);
    const seeded = await seedThroughMutations(schema, graphql, await collectRecords(schema, graphql));
    if (seeded.failed.length) console.warn(`seeding through mutations failed for ${seeded.failed.join('; ')}`);
    const records = await collectRecords(schema, graphql);
    const byType = new Map<string, NodeRecord[]>();
    for (const r of records) byType.set(r.typeName, [...(byType.get(r.typeName) ?? []), r]);
    return { key, records, byType, labels };
  }

  beforeAll(async () => {
    server = await startTestServer();
    reader = await seedAccount(await server.createAccount());
    writer = await seedAccount(await server.createAccount());
  }, 60_000);

  afterAll(async () => {
    log.restore();
    await server?.close();
  });

  /** Real cursors of every connection site, for each order it takes (default and each key). */
  async function realCursors(sites: readonly Site[], rng: Rng): Promise<Array<{ site: Site; orderBy: unknown; cursor: string; backward: boolean }>> {
    const out: Array<{ site: Site; orderBy: unknown; cursor: string; backward: boolean }> = [];
    const empty = new Set<string>();
    for (const site of sites.filter((s) => s.operation === 'query' && isConnectionField(s.field))) {
      const orderArg = site.field.args.find((a) => a.name === 'orderBy');
      const orderType = orderArg ? getNamedType(orderArg.type) : null;
      const orders: unknown[] = [null];
      if (orderType && isInputObjectType(orderType)) {
        const keyField = Object.values(orderType.getFields()).find((f) => isNonNullType(f.type) && isEnumType(getNamedType(f.type)));
        const dirField = Object.values(orderType.getFields()).find((f) => f !== keyField && isEnumType(getNamedType(f.type)));
        const keyEnum = keyField ? getNamedType(keyField.type) : null;
        const dirEnum = dirField ? getNamedType(dirField.type) : null;
        if (keyField && keyEnum && isEnumType(keyEnum)) {
          for (const v of keyEnum.getValues()) {
            const order: Record<string, unknown> = { [keyField.name]: v.name };
            if (dirField && dirEnum && isEnumType(dirEnum)) order[dirField.name] = rng.pick(dirEnum.getValues()).name;
            orders.push([order]);
          }
        }
      }
      const required = site.field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
      for (const orderBy of orders) {
        const args = [`first: 3`, ...required.map((a) => `${a.name}: ${routeValue(a, getNamedType(site.field.type).name, reader, rng)}`)];
        if (orderBy) args.push(`orderBy: ${toLiteral(orderBy, orderArg!.type)}`);
        const query = `query { ${site.wrap(`f: ${site.field.name}(${args.join(', ')}) { edges { cursor } }`)} }`;
        const res = await server.graphql(reader.key, query);
        if (res.status !== 200 || res.body.errors) throw new Error(`reading a cursor: ${query} → ${short(res.body)}`);
        const edges = findKey(res.body.data, 'f') as { edges: Array<{ cursor: string }> } | undefined;
        const cursor = edges?.edges?.[1]?.cursor ?? edges?.edges?.[0]?.cursor;
        // The field itself must be in the answer (else its route is wrong: the test's bug); a list
        // without rows (a type the seeding does not create) has no cursor to tamper with.
        const owner = site.name.slice(0, site.name.indexOf('.'));
        if (!edges && (owner === schema.getQueryType()!.name || reader.byType.has(owner)))
          throw new Error(`no answer for the field from ${query}: ${short(res.body)}`);
        if (!cursor) {
          empty.add(site.name);
          continue;
        }
        out.push({ site, orderBy, cursor, backward: rng.chance(0.4) });
      }
    }
    if (empty.size) console.warn(`no rows, so no cursor to tamper with, in ${[...empty].join(', ')}`);
    return out;
  }

  it('answers every hostile input without a 5xx or an internal error', async () => {
    const rng = new Rng(SEED);
    const nodeTypes = nodeTypeNames(schema);
    const readValues = new Values(rng, reader, writer.records, nodeTypes);
    const writeValues = new Values(rng, writer, reader.records, nodeTypes);
    const sites = sitesOf(schema, reader, rng);
    const readWriter = new Writer(rng, readValues, reader);
    const writeWriter = new Writer(rng, writeValues, writer);
    const querySites = sites.filter((s) => s.operation === 'query');
    const mutationSites = sitesOf(schema, writer, rng).filter((s) => s.operation === 'mutation');
    const cases: Case[] = [];
    const one = (name: string, value: unknown, mode: Mode) => new Map([[name, { value, mode }]]);

    // 1. Every argument of every reachable query field: random hostile values, written every way.
    const argumentCount = querySites.reduce((n, site) => n + site.field.args.length, 0);
    const perArgument = Math.max(1, Math.floor(BUDGET.arguments / Math.max(1, argumentCount)));
    for (const site of querySites) {
      for (const a of site.field.args) {
        for (let i = 0; i < perArgument; i++) {
          const given = one(a.name, readValues.value(a.type, a.name), readWriter.mode());
          // Sometimes a second argument is hostile too (paging arguments together, filter and order, ...).
          if (site.field.args.length > 1 && rng.chance(0.3)) {
            const other = rng.pick(site.field.args.filter((b) => b !== a));
            given.set(other.name, { value: readValues.value(other.type, other.name), mode: readWriter.mode() });
          }
          cases.push(readWriter.call(site, given, 'argument'));
        }
      }
    }

    // 1b. Every field of every input type reachable from an argument (filters, orders, create and
    // update inputs, options, their operator inputs): one hostile value there, reached from some site.
    const fieldHomes = new Map<string, Array<{ site: Site; a: GraphQLArgument; path: string[] }>>();
    for (const site of [...querySites, ...mutationSites]) {
      for (const a of site.field.args) {
        for (const path of inputPaths(a.type, () => true, 4)) {
          let holder = getNamedType(a.type) as GraphQLInputObjectType;
          for (const p of path.slice(0, -1)) holder = getNamedType(holder.getFields()[p].type) as GraphQLInputObjectType;
          const key = `${holder.name}.${path[path.length - 1]}`;
          fieldHomes.set(key, [...(fieldHomes.get(key) ?? []), { site, a, path }]);
        }
      }
    }
    // Every input type at least once; the other fields as the budget allows.
    const holderOf = (key: string) => key.slice(0, key.indexOf('.'));
    const shuffledFields = rng.shuffle([...fieldHomes.keys()]);
    const firstOfType = new Set<string>();
    const chosenFields = shuffledFields.filter((key) => {
      if (firstOfType.has(holderOf(key))) return false;
      firstOfType.add(holderOf(key));
      return true;
    });
    for (const key of shuffledFields) if (chosenFields.length < BUDGET.inputFields && !chosenFields.includes(key)) chosenFields.push(key);
    for (const key of chosenFields) {
      const { site, a, path } = rng.pick(fieldHomes.get(key)!);
      const [w, v] = site.operation === 'mutation' ? [writeWriter, writeValues] : [readWriter, readValues];
      let holder = getNamedType(a.type) as GraphQLInputObjectType;
      for (const p of path.slice(0, -1)) holder = getNamedType(holder.getFields()[p].type) as GraphQLInputObjectType;
      const field = holder.getFields()[path[path.length - 1]];
      cases.push(w.call(site, one(a.name, valueAt(a.type, path, v.value(field.type, field.name, 2), v), w.mode()), `input field (${key})`));
    }

    // 2. Recursive inputs (filters' and/or/not) nested 30, 1,000 and 50,000 deep, as variables (raw
    // JSON: JSON.stringify would overflow the stack); and as literals 30 and 70 deep. Each recursive
    // input type once, through one of the arguments that take it.
    const recursiveHomes = new Map<string, Array<{ site: Site; a: GraphQLArgument }>>();
    for (const site of querySites) {
      for (const a of site.field.args) {
        const named = getNamedType(a.type);
        if (isInputObjectType(named) && Object.values(named.getFields()).some((f) => getNamedType(f.type) === named))
          recursiveHomes.set(named.name, [...(recursiveHomes.get(named.name) ?? []), { site, a }]);
      }
    }
    for (const homes of recursiveHomes.values()) {
      const { site, a } = rng.pick(homes);
      const named = getNamedType(a.type) as GraphQLInputObjectType;
      for (const f of Object.values(named.getFields()).filter((f) => getNamedType(f.type) === named)) {
        const list = isListType(getNullableType(f.type));
        for (const depth of NESTING_DEPTHS) {
          const deep = `${`{"${f.name}":${list ? '[' : ''}`.repeat(depth)}{}${`${list ? ']' : ''}}`.repeat(depth)}`;
          const base = readWriter.call(site, one(a.name, '__DEEP__', 'variable'), 'deep nesting');
          const raw = JSON.stringify({ query: base.query, variables: base.variables }).replace('"__DEEP__"', deep);
          cases.push({ ...base, category: `deep nesting (${a.name}.${f.name} × ${depth})`, raw });
        }
        for (const depth of [30, 70]) {
          const literal = `${`{${f.name}: ${list ? '[' : ''}`.repeat(depth)}{}${`${list ? ']' : ''}}`.repeat(depth)}`;
          const base = readWriter.call(site, one(a.name, '__DEEP__', 'literal'), 'deep nesting');
          cases.push({ ...base, category: `deep literal (${a.name}.${f.name} × ${depth})`, query: base.query.replace('"__DEEP__"', literal) });
        }
      }
      // A literal filter holding a deep variable: the depth counts on through the variable.
      const recursive = Object.values(named.getFields()).find((f) => getNamedType(f.type) === named && !isListType(getNullableType(f.type)));
      if (recursive) {
        const base = readWriter.call(site, one(a.name, { [recursive.name]: '__DEEP__' }, 'mixed'), 'deep nesting');
        const deep = `${`{"${recursive.name}":`.repeat(1000)}{}${'}'.repeat(1000)}`;
        cases.push({
          ...base,
          category: `deep nesting through a variable in a literal (${a.name})`,
          raw: JSON.stringify({ query: base.query, variables: base.variables }).replace('"__DEEP__"', deep),
        });
      }
    }

    // 3. The longest lists: 10,000 items wherever a list is expected (arguments and input fields), as variables.
    const listCases: Case[] = [];
    for (const site of [...querySites, ...mutationSites]) {
      const w = site.operation === 'mutation' ? writeWriter : readWriter;
      const v = site.operation === 'mutation' ? writeValues : readValues;
      for (const a of site.field.args) {
        if (isListType(getNullableType(a.type))) {
          const item = (getNullableType(a.type) as { ofType: GraphQLInputType }).ofType;
          listCases.push(
            w.call(
              site,
              one(
                a.name,
                Array.from({ length: LONG_LIST }, () => v.valid(item, a.name)),
                'variable',
              ),
              `long list (${a.name})`,
            ),
          );
        }
        for (const path of inputPaths(a.type, (_t, f) => isListType(getNullableType(f.type)), 2)) {
          let holder = getNamedType(a.type) as GraphQLInputObjectType;
          for (const p of path.slice(0, -1)) holder = getNamedType(holder.getFields()[p].type) as GraphQLInputObjectType;
          const fieldType = holder.getFields()[path[path.length - 1]].type;
          const item = (getNullableType(fieldType) as { ofType: GraphQLInputType }).ofType;
          const long = Array.from({ length: LONG_LIST }, () => v.valid(item, path[path.length - 1]));
          listCases.push(
            w.call(
              site,
              one(a.name, valueAt(a.type, path, long, v), rng.chance(0.85) ? 'variable' : 'literal'),
              `long list (${holder.name}.${path[path.length - 1]})`,
            ),
          );
        }
      }
    }
    // One per list position (input type and field), whichever site reaches it.
    const byCategory = new Map<string, Case[]>();
    for (const c of listCases) {
      const group = c.category.includes('.') ? c.category : `${c.category} ${c.site}`;
      byCategory.set(group, [...(byCategory.get(group) ?? []), c]);
    }
    for (const group of byCategory.values()) cases.push(rng.pick(group));

    // 4. Forged and tampered cursors of every connection and order.
    const cursors = await realCursors(querySites, rng);
    const wrongValues: unknown[] = [
      1e308,
      -1e308,
      'garbage',
      '2026-13-45T00:00:00Z',
      '0000-01-01T00:00:00Z',
      'x',
      '',
      true,
      null,
      99999999999,
      2147483648,
      -1,
      0,
      1.5,
      'x'.repeat(1000),
      {},
      [],
      '\u0000',
    ];
    const tamper = (cursor: string): string => {
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
      const [sig, ...values] = decoded;
      const r = rng.int(14);
      switch (r) {
        case 0: {
          const i = rng.int(cursor.length);
          const c = cursor[i] === 'A' ? 'B' : 'A';
          return cursor.slice(0, i) + c + cursor.slice(i + 1);
        }
        case 1:
          return cursor.slice(0, Math.floor(cursor.length / 2));
        case 2:
          return cursor.slice(0, -1);
        case 3:
          return rng.pick([`${cursor}==`, `${cursor}A`, '!!!', '', 'x'.repeat(2001), cursor.replace(/[A-Za-z]/, '+')]);
        case 4:
          return base64url(JSON.stringify(rng.pick<unknown>([[], {}, null, 'str', 5, [sig], [sig, ...values, 5], [sig, 'x', 'y'], ['AAAAAAAA', ...values]])));
        case 5:
          return base64url(JSON.stringify([sig, 1e308, 5]));
        case 6:
          return base64url(JSON.stringify([sig, 'garbage', 5]));
        case 7:
          return base64url(JSON.stringify([sig, '2026-13-45T00:00:00Z', 5]));
        case 8:
          return base64url('[' + JSON.stringify(sig) + ', 1e999, 5]'); // Infinity once parsed
        case 9:
          return base64url(`${JSON.stringify(decoded).slice(0, -1)}`); // not JSON
        default: {
          // One sort-key value (or the id) of the wrong type.
          const i = 1 + rng.int(Math.max(1, decoded.length - 1));
          const forged = [...decoded];
          forged[i] = rng.pick(wrongValues);
          return base64url(JSON.stringify(forged));
        }
      }
    };
    for (let i = 0; i < BUDGET.cursors && cursors.length; i++) {
      const { site, orderBy, cursor, backward } = cursors[i % cursors.length];
      const given = new Map<string, { value: unknown; mode: Mode }>();
      const mode: Mode = rng.chance(0.6) ? 'variable' : 'literal';
      given.set(backward ? 'before' : 'after', { value: tamper(cursor), mode });
      given.set(backward ? 'last' : 'first', { value: rng.pick([1, 2, 200]), mode: 'literal' });
      if (orderBy) given.set('orderBy', { value: orderBy, mode: 'literal' });
      cases.push(readWriter.call(site, given, 'cursor'));
    }

    // 5. Variables with a default in the document and no value sent (valid and hostile defaults).
    const withArgs = querySites.filter((s) => s.field.args.length);
    for (let i = 0; i < BUDGET.defaults; i++) {
      const site = rng.pick(withArgs);
      const a = rng.pick(site.field.args);
      const value = rng.chance(0.5) ? readValues.valid(a.type, a.name) : readValues.value(a.type, a.name);
      cases.push(readWriter.call(site, one(a.name, value === null ? readValues.valid(a.type, a.name) : value, 'default'), 'variable default'));
    }

    // 6. Conditions on custom fields of every kind: each label with each operator group, hostile values.
    const labelled = (t: GraphQLInputObjectType, f: GraphQLInputField) => f.name === 'label' && isNonNullType(f.type) && Object.keys(t.getFields()).length > 1;
    const labelSites = querySites.reduce((n, site) => n + site.field.args.reduce((m, a) => m + inputPaths(a.type, labelled, 3).length, 0), 0);
    const perLabelSite = Math.max(2, Math.floor(BUDGET.customFields / Math.max(1, labelSites)));
    for (const site of querySites) {
      for (const a of site.field.args) {
        for (const path of inputPaths(a.type, labelled, 3)) {
          const holder = (() => {
            let t: GraphQLInputType = a.type;
            for (const p of path.slice(0, -1)) t = (getNamedType(t) as GraphQLInputObjectType).getFields()[p].type;
            return getNamedType(t) as GraphQLInputObjectType;
          })();
          const groups = Object.values(holder.getFields()).filter((f) => f.name !== 'label');
          for (let i = 0; i < perLabelSite; i++) {
            const group = rng.pick(groups);
            const condition = {
              label: rng.pick(reader.labels),
              [group.name]: readValues.value(getNullableType(group.type) as GraphQLInputType, group.name, 1),
            };
            const value = valueAt(a.type, path.slice(0, -1), condition, readValues);
            cases.push(
              readWriter.call(
                site,
                one(a.name, value, rng.chance(0.5) ? 'variable' : 'literal'),
                `custom field condition (${a.name}.${path.join('.')}.${group.name})`,
              ),
            );
          }
        }
      }
    }

    // 7. Huge strings: 1,000,000 characters (under the 1 MiB body limit) and 1 MiB + 1 (413).
    const stringPositions = [...querySites, ...mutationSites].flatMap((site) =>
      site.field.args.flatMap((a) => [
        ...(getNamedType(a.type).name === 'String' ? [{ site, a, path: [] as string[] }] : []),
        ...inputPaths(a.type, (_t, f) => getNamedType(f.type).name === 'String', 2).map((path) => ({ site, a, path })),
      ]),
    );
    for (let i = 0; i < BUDGET.hugeStrings && stringPositions.length; i++) {
      const { site, a, path } = rng.pick(stringPositions);
      // 800 KB of two-byte characters (under the body limit: the input limits answer), or 1 MiB + 1 (413).
      const huge = i % 2 ? 'h'.repeat(1_048_577) : 'é'.repeat(400_000);
      const [w, v] = site.operation === 'mutation' ? [writeWriter, writeValues] : [readWriter, readValues];
      cases.push(
        w.call(site, one(a.name, valueAt(a.type, path, huge, v), rng.chance(0.5) ? 'variable' : 'literal'), `huge string (${[a.name, ...path].join('.')})`),
      );
    }

    // 8. Forged global ids of every node type (and of none), for every ID argument, one and many at a time.
    const idSites = querySites.flatMap((site) => site.field.args.filter((a) => getNamedType(a.type).name === 'ID').map((a) => ({ site, a })));
    for (const typeName of [...nodeTypes, 'Nope']) {
      const forged = [
        `${typeName}:0`,
        `${typeName}:-1`,
        `${typeName}:99999999999`,
        `${typeName}:abc`,
        `${typeName}:2147483648`,
        `${typeName}:1e3`,
        `${typeName}:`,
        `${typeName}:1`,
      ].map(base64url);
      forged.push(base64url(Buffer.from(Array.from({ length: 24 }, () => rng.int(256)))));
      for (const { site, a } of idSites) {
        const list = isListType(getNullableType(a.type));
        if (list) cases.push(readWriter.call(site, one(a.name, forged, rng.chance(0.5) ? 'variable' : 'literal'), `forged ids (${typeName})`));
        else
          for (const id of rng.some(forged, BUDGET.forgedIdsPerType, BUDGET.forgedIdsPerType))
            cases.push(readWriter.call(site, one(a.name, id, rng.chance(0.5) ? 'variable' : 'literal'), `forged ids (${typeName})`));
      }
    }

    // 9. Mutations of every type, on their own account: valid required arguments, then hostile
    // values in one to three places (an argument or a field of an input), or everywhere.
    const perMutation = Math.max(MIN_PER_MUTATION, Math.floor(BUDGET.mutations / Math.max(1, mutationSites.length)));
    for (const site of mutationSites) {
      for (let i = 0; i < perMutation; i++) {
        const given = new Map<string, { value: unknown; mode: Mode }>();
        for (const a of site.field.args) {
          if (!isNonNullType(a.type)) continue;
          const value =
            getNamedType(a.type).name === 'Int' && /^(id|.*Id)$/.test(a.name)
              ? realInt(writer, writeWriter.recordTypeOf(site), rng)
              : writeValues.valid(a.type, a.name);
          given.set(a.name, { value, mode: writeWriter.mode() });
        }
        const allHostile = rng.chance(0.15);
        const targets = allHostile ? site.field.args : rng.some(site.field.args, 1, 3);
        for (const a of targets) {
          const named = getNamedType(a.type);
          const current = given.get(a.name)?.value;
          if (!allHostile && isInputObjectType(named) && current && typeof current === 'object' && !Array.isArray(current) && rng.chance(0.8)) {
            // A few fields of the input hostile, the rest valid.
            const fields = rng.some(Object.values(named.getFields()), 1, 3);
            const out = { ...(current as Record<string, unknown>) };
            for (const f of fields) out[f.name] = writeValues.value(f.type, f.name, 1);
            given.set(a.name, { value: out, mode: writeWriter.mode() });
          } else {
            given.set(a.name, { value: writeValues.value(a.type, a.name), mode: writeWriter.mode() });
          }
        }
        cases.push(writeWriter.call(site, given, 'mutation'));
      }
      // JSON values nested 1,000 and 50,000 deep where the input takes JSON (custom fields).
      for (const a of site.field.args) {
        for (const path of inputPaths(a.type, (_t, f) => isScalarType(getNamedType(f.type)) && ['JSON', 'JSONObject'].includes(getNamedType(f.type).name), 2)) {
          for (const depth of [1_000, 50_000]) {
            const given = new Map<string, { value: unknown; mode: Mode }>();
            for (const b of site.field.args)
              if (isNonNullType(b.type) && b !== a)
                given.set(b.name, {
                  value: getNamedType(b.type).name === 'Int' ? realInt(writer, writeWriter.recordTypeOf(site), rng) : writeValues.valid(b.type, b.name),
                  mode: 'literal',
                });
            given.set(a.name, { value: valueAt(a.type, path, '__DEEP__', writeValues), mode: 'variable' });
            const base = writeWriter.call(site, given, 'deep JSON');
            const deep = `{"${rng.pick(writer.labels)}":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
            cases.push({
              ...base,
              category: `deep JSON (${a.name}.${path.join('.')} × ${depth})`,
              raw: JSON.stringify({ query: base.query, variables: base.variables }).replace('"__DEEP__"', deep),
            });
          }
        }
      }
    }

    // With FUZZ_DEBUG: how the documents fail to parse or validate (most hostile values are caught
    // there; a generator bug would show up as one message for a whole category).
    if (process.env.FUZZ_DEBUG) {
      const invalid = new Map<string, number>();
      const note = (c: Case, message: string) => {
        const k = `${c.category.replace(/ \(.*$/, '')}: ${message.slice(0, 100)}`;
        invalid.set(k, (invalid.get(k) ?? 0) + 1);
      };
      for (const c of cases) {
        try {
          for (const e of validate(schema, parse(c.query))) note(c, e.message);
        } catch (e) {
          note(c, String(e));
        }
      }
      console.log(
        [...invalid]
          .sort((a, b) => b[1] - a[1])
          .map(([m, n]) => `${n}× ${m}`)
          .join('\n'),
      );
    }

    // Send them all (mutations last, so the reads see the seeded data), 8 at a time.
    const reads = cases.filter((c) => c.key === reader.key);
    const writes = cases.filter((c) => c.key === writer.key);
    const failures = new Map<string, string[]>();
    const statuses = new Map<number, number>();
    const outcomes = new Map<string, number>();
    const send = async (c: Case) => {
      let res: TestResponse;
      try {
        res =
          c.raw !== undefined
            ? await server.request('POST', '/graphql', { body: c.raw, contentType: 'application/json', headers: { authorization: `Bearer ${c.key}` } })
            : await server.graphql(c.key, c.query, c.variables);
      } catch (error) {
        const signature = `${c.category} ${c.site}: request failed (${String(error)})`;
        failures.set(signature, [...(failures.get(signature) ?? []), `query: ${short(c.query, 800)}\n    variables: ${short(c.variables ?? c.raw, 300)}`]);
        return;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const codes = errorCodes(res);
      if (process.env.FUZZ_DEBUG) {
        const k = `${c.category.replace(/ \(.*$/, '')} ${res.status} ${[...new Set(codes)].join(',')}${codes.length ? '' : res.body?.data ? ' data' : ''} ${codes.length ? short(res.body.errors[0].message, 80) : ''}`;
        outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
      }
      if (res.status < 500 && !codes.includes('INTERNAL_SERVER_ERROR')) return;
      const logged = log.byRequest(res.headers.get('x-request-id'));
      const cause = logged.map((l) => {
        let text: string;
        try {
          text = String((JSON.parse(l) as { error?: string }).error ?? l);
        } catch {
          text = l;
        }
        // A driver error starts with its SQL, then " - " and PostgreSQL's message: keep the message.
        const driver = /^(\w*Exception): (?:select|insert|update|delete|with) /i.exec(text);
        const stackAt = text.search(/\n\s+at /);
        const head = stackAt > 0 ? text.slice(0, stackAt) : text;
        if (driver && head.includes(' - '))
          return `${driver[1]}: ${head
            .slice(head.lastIndexOf(' - ') + 3)
            .split('\n')[0]
            .slice(0, 200)}`;
        return head.split('\n')[0].slice(0, 300);
      });
      const answered = String(res.body?.errors?.[0]?.message ?? short(res.body ?? res.text, 200)).replace(/\$\w+/g, '$var');
      const signature = `${c.category.replace(/ \(.*$/, '')} at ${c.site}: status ${res.status}, ${cause[0] ?? answered}`;
      failures.set(signature, [
        ...(failures.get(signature) ?? []),
        `query: ${short(c.query, 800)}\n    variables: ${short(c.variables ?? c.raw, 400)}\n    response: ${res.status} ${short(res.body ?? res.text, 400)}\n    log: ${short(logged, 1200)}`,
      ]);
    };
    const started = Date.now();
    await inPool(reads, CONCURRENCY, send);
    await inPool(writes, CONCURRENCY, send);
    if (process.env.FUZZ_DEBUG)
      console.log(
        [...outcomes]
          .sort()
          .map(([k, n]) => `${n}× ${k}`)
          .join('\n'),
      );
    const categories = new Map<string, number>();
    for (const c of cases) categories.set(c.category.replace(/ \(.*$/, ''), (categories.get(c.category.replace(/ \(.*$/, '')) ?? 0) + 1);
    console.log(
      `fuzz: ${cases.length} requests (${reads.length} reads, ${writes.length} mutations) in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `by kind: ${[...categories].map(([k, n]) => `${k} ${n}`).join(', ')}; statuses: ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}; ` +
        `${failures.size} distinct failures`,
    );

    const report = [...failures].map(([signature, examples]) => `${signature} (${examples.length}×)\n    ${examples[0]}`);
    expect(report).toEqual([]);

    // The server still answers, and nothing it stored is longer than its column allows.
    for (const world of [reader, writer]) {
      const viewer = await server.graphql(world.key, '{ viewer { id } }');
      expect(viewer.status).toBe(200);
      expect(viewer.body.data.viewer.id).toEqual(expect.any(String));
    }
    const columns = await server.sql<{ table_name: string; column_name: string; character_maximum_length: number }>(
      `select table_name, column_name, character_maximum_length from information_schema.columns
       where table_schema = current_schema() and character_maximum_length is not null`,
    );
    const tooLong: string[] = [];
    for (const col of columns) {
      const [row] = await server.sql<{ n: number | null }>(`select max(char_length("${col.column_name}")) as n from "${col.table_name}"`);
      if (row.n !== null && Number(row.n) > Number(col.character_maximum_length))
        tooLong.push(`${col.table_name}.${col.column_name}: ${row.n} > ${col.character_maximum_length}`);
    }
    expect(tooLong).toEqual([]);
  }, 480_000); // minutes on a loaded 2-core machine: a timeout here closes the server under requests still going out (ECONNRESET)
});

/** The first value under `key` anywhere in a response (the field sits under its route). */
function findKey(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && key in (value as Record<string, unknown>)) return (value as Record<string, unknown>)[key];
  for (const v of Object.values(value as Record<string, unknown>)) {
    const found = findKey(Array.isArray(v) ? v[0] : v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}
