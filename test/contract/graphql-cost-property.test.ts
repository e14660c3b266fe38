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
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { ROWS_PER_UNIT } from '../../src/graphql/cost';
import { createSchema } from '../../src/app/schema';
import {
  captureServerLog,
  collectRecords,
  errorCodes,
  inPool,
  isConnectionField,
  Rng,
  seedThroughMutations,
  short,
  toLiteral,
  type NodeRecord,
} from '../support/graphql-gen';
import { startTestServer, type TestAccount, type TestResponse, type TestServer } from '../support/test-server';

/**
 * The cost rule of src/graphql/cost.ts, as a property: "the records an operation can return through
 * connections and `nodes(ids:)` are at most `charged × ROWS_PER_UNIT`". Operations are generated
 * from the schema (every Query field returning a connection, `node`, `nodes(ids:)`, single
 * lookups; nested connections, aliases, named and inline fragments, page sizes as literals and as
 * variables), run against a seeded account, and the records of each response are counted: a
 * connection's records are the positions of its `nodes`/`edges` (the same rows, so the longest of
 * them), `nodes(ids:)` its length, a root lookup 1. Seeded: the same operations on every run.
 */

const SEED = 0x5eed_c057;
const OPERATIONS = 150;
const CONCURRENCY = 4;
const PAGE_SIZES: ReadonlyArray<number | null> = [1, 2, 3, 5, 10, 50, 200, 0, null];
const LARGE_PAGE_SIZES: ReadonlyArray<number | null> = [10, 50, 200, null];
/** Field nesting of generated selections (the server refuses more than 15). */
const MAX_DEPTH = 12;
/** Fields one operation selects, at most (the server refuses more than 2,000). */
const FIELD_BUDGET = 800;
/** Row sources (connections, nodes(ids:)) on one path. */
const MAX_ROW_NESTING = 3;
const PAGING_ARGS = new Set(['first', 'last', 'perPage', 'page', 'after', 'before']);

type AnyField = GraphQLField<unknown, unknown>;

/** What a response key holds, as generated: how the response is walked and its records counted. */
type Kind = 'leaf' | 'object' | 'list' | 'connection' | 'rowList' | 'lookup';
interface Spec {
  readonly key: string;
  readonly kind: Kind;
  readonly sel?: Sel;
}
/** A selection set: its own fields and its fragments (inline or named) with their type condition. */
interface Sel {
  readonly fields: Spec[];
  readonly frags: Array<{ readonly on: string; readonly sel: Sel }>;
}

type Rec = NodeRecord;

interface Operation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly sel: Sel;
}

/** A field with a list argument of IDs it returns one item per id of (`nodes(ids:)`). */
function idListArg(field: AnyField): GraphQLArgument | undefined {
  if (!isListType(getNullableType(field.type))) return undefined;
  return field.args.find((a) => isListType(getNullableType(a.type)) && getNamedType(a.type).name === 'ID');
}

class Generator {
  private n = 0;
  private varDefs: string[] = [];
  private variables: Record<string, unknown> = {};
  private fragments: string[] = [];
  /** How likely a nested connection is selected, per operation: some operations fan out as far as they can. */
  private connectionChance = 0.7;
  private pageSizes = PAGE_SIZES;
  private fanOut = false;
  /** Fields written so far in this operation (each fragment is spread once, so this is what the server counts). */
  private fieldCount = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rng: Rng,
    private readonly records: readonly Rec[],
    private readonly byType: ReadonlyMap<string, readonly Rec[]>,
    /** A record with many rows under it (a company with many people): repeated ids fan out. */
    private readonly heavy: readonly Rec[],
  ) {}

  /** Root fields the rule is about: connections, nodes(ids:), node(id:) and single lookups. */
  rootFields(): AnyField[] {
    return Object.values(this.schema.getQueryType()!.getFields()).filter((f) => {
      if (f.name.startsWith('__') || isLeafType(getNamedType(f.type))) return false;
      return f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined || this.canFill(a));
    });
  }

  operation(): Operation {
    this.n = 0;
    this.varDefs = [];
    this.variables = {};
    this.fragments = [];
    // Some operations fan out as far as they can, with large pages: those are the ones refused for cost.
    this.fieldCount = 0;
    this.fanOut = this.rng.chance(0.2);
    this.connectionChance = this.fanOut ? 1 : this.rng.pick([0.4, 0.7, 1]);
    this.pageSizes = this.fanOut ? LARGE_PAGE_SIZES : PAGE_SIZES;
    // Roots by kind first, so that a schema with many more lists still gets nodes(ids:) and lookups.
    const roots = this.rootFields();
    const byKind = [
      roots.filter((f) => isConnectionField(f)),
      roots.filter((f) => !isConnectionField(f) && idListArg(f) !== undefined),
      roots.filter((f) => !isConnectionField(f) && idListArg(f) === undefined),
    ].filter((group) => group.length > 0);
    const weights = [0.45, 0.3, 0.25];
    const sel: Sel = { fields: [{ key: '__typename', kind: 'leaf' }], frags: [] };
    const parts = ['__typename'];
    const count = 1 + this.rng.int(3);
    for (let i = 0; i < count; i++) {
      const r = this.rng.float();
      const group = byKind[Math.min(byKind.length - 1, r < weights[0] ? 0 : r < weights[0] + weights[1] ? 1 : 2)];
      const field = this.rng.pick(group);
      const copies = isConnectionField(field) && this.rng.chance(0.3) ? 2 : 1; // the same connection under two aliases
      for (let c = 0; c < copies; c++) {
        const made = this.field(field, 1, 0, true);
        if (!made) continue;
        if (this.rng.chance(0.2)) {
          const name = `Q${this.n++}`;
          this.fragments.push(`fragment ${name} on ${this.schema.getQueryType()!.name} { ${made.text} }`);
          parts.push(`...${name}`);
          sel.frags.push({ on: this.schema.getQueryType()!.name, sel: { fields: [made.spec], frags: [] } });
        } else {
          parts.push(made.text);
          sel.fields.push(made.spec);
        }
      }
    }
    const defs = this.varDefs.length ? `(${this.varDefs.join(', ')})` : '';
    const query = `query Generated${defs} { ${parts.join(' ')} }${this.fragments.map((f) => `\n${f}`).join('')}`;
    return { query, variables: this.variables, sel };
  }

  // ---- arguments ----

  private canFill(arg: GraphQLArgument): boolean {
    const named = getNamedType(arg.type);
    return isEnumType(named) || (isScalarType(named) && ['Int', 'ID', 'String', 'Boolean', 'Float'].includes(named.name));
  }

  private recordsOf(typeName: string): readonly Rec[] {
    const named = this.schema.getType(typeName);
    if (named && isAbstractType(named)) return this.records;
    return this.byType.get(typeName) ?? this.records;
  }

  /** A value for a required argument: a real record's databaseId or global id, an enum value. */
  private fill(arg: GraphQLArgument, returnType: string): unknown {
    const named = getNamedType(arg.type);
    const list = isListType(getNullableType(arg.type));
    const one = (): unknown => {
      if (isEnumType(named)) return this.rng.pick(named.getValues()).name;
      switch (named.name) {
        case 'ID':
          return this.rng.pick(this.records).id;
        case 'Int':
          return this.rng.chance(0.1) ? 999_999 : this.rng.pick(this.recordsOf(returnType)).databaseId;
        case 'Float':
          return 1.5;
        case 'Boolean':
          return this.rng.chance(0.5);
        default:
          return 'a';
      }
    };
    if (!list) return one();
    if (named.name === 'ID') return this.ids();
    return [one()];
  }

  /** A multiset of real global ids (repeats allowed), up to 100. */
  private ids(): string[] {
    const size = this.rng.pick([1, 2, 5, 20, 50, 100, 100, 100]);
    const r = this.rng.float();
    const mode = r < 0.45 ? 0 : r < 0.75 ? 1 : 2; // one id repeated, any ids, or a mix
    const single = this.rng.pick(this.rng.chance(0.7) ? this.heavy : this.records).id;
    return Array.from({ length: size }, () =>
      mode === 0 ? single : mode === 1 ? this.rng.pick(this.records).id : this.rng.chance(0.5) ? single : this.rng.pick(this.records).id,
    );
  }

  /** A valid-looking value of any input type (for optional arguments such as orderBy and filter). */
  private sample(type: GraphQLInputType, depth: number): unknown {
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) return Array.from({ length: 1 + this.rng.int(2) }, () => this.sample(inner.ofType as GraphQLInputType, depth + 1));
    if (isEnumType(inner)) return this.rng.pick(inner.getValues()).name;
    if (isInputObjectType(inner)) {
      const fields = Object.values(inner.getFields());
      const out: Record<string, unknown> = {};
      for (const f of fields) if (isNonNullType(f.type) && f.defaultValue === undefined) out[f.name] = this.sample(f.type, depth + 1);
      const optional = fields.filter((f) => !(f.name in out) && (depth < 2 || getNamedType(f.type) !== inner));
      if (optional.length && depth < 3) {
        const f = this.rng.pick(optional);
        out[f.name] = this.sample(f.type, depth + 1);
      }
      return out;
    }
    switch (inner.name) {
      case 'Int':
        return this.rng.pick(this.records).databaseId;
      case 'Float':
        return this.rng.pick([0, 1.5, 100]);
      case 'Boolean':
        return this.rng.chance(0.5);
      case 'ID':
        return this.rng.pick(this.records).id;
      case 'String':
        return this.rng.pick(['a', 'e', 'Seed', 'Co']);
      case 'DateTimeISO':
        return this.rng.pick(['2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z']);
      default:
        return {};
    }
  }

  /** `name: literal` or `name: $v` (declared, sometimes with a default and then left out). */
  private renderArg(arg: GraphQLArgument, value: unknown, asVariable: boolean): string {
    if (!asVariable) return `${arg.name}: ${toLiteral(value, arg.type)}`;
    const name = `v${this.n++}`;
    const nullable = !isNonNullType(arg.type);
    if (nullable && value !== null && this.rng.chance(0.2)) {
      // A default in the document, no value sent: the default is what runs (and what is charged).
      this.varDefs.push(`$${name}: ${String(arg.type)} = ${toLiteral(value, arg.type)}`);
    } else {
      this.varDefs.push(`$${name}: ${String(arg.type)}`);
      this.variables[name] = value;
    }
    return `${arg.name}: $${name}`;
  }

  /**
   * Sometimes `@include(if:)` / `@skip(if:)`, by literal or by variable (sent, or left to its
   * default): what is dropped is neither returned nor charged, what is kept is both.
   */
  private directive(): string {
    if (!this.rng.chance(0.12)) return '';
    const which = this.rng.chance(0.5) ? 'include' : 'skip';
    const value = this.rng.chance(0.5);
    const mode = this.rng.int(4);
    if (mode === 0) return ` @${which}(if: ${value})`;
    const name = `b${this.n++}`;
    if (mode === 1) {
      this.varDefs.push(`$${name}: Boolean = ${value}`); // left to its default
    } else {
      // A nullable variable may stand for Boolean! only with a default, which the value sent overrides.
      this.varDefs.push(mode === 2 ? `$${name}: Boolean!` : `$${name}: Boolean = ${!value}`);
      this.variables[name] = value;
    }
    return ` @${which}(if: $${name})`;
  }

  /** The arguments of a field, or null when a required one cannot be filled. */
  private args(field: AnyField): string | null {
    const out: string[] = [];
    const returnType = getNamedType(field.type).name;
    if (isConnectionField(field)) {
      const size = this.rng.pick(this.pageSizes);
      const mode = this.rng.float();
      const byName = new Map(field.args.map((a) => [a.name, a]));
      const asVar = this.rng.chance(0.35);
      if (mode < 0.75 || !byName.has('last')) {
        if (size !== null || this.rng.chance(0.5)) out.push(this.renderArg(byName.get('first')!, size, asVar));
      } else if (mode < 0.88 || !byName.has('perPage')) {
        if (size !== null || this.rng.chance(0.5)) out.push(this.renderArg(byName.get('last')!, size, asVar));
      } else {
        out.push(this.renderArg(byName.get('perPage')!, size, asVar));
        if (byName.has('page') && this.rng.chance(0.5)) out.push(this.renderArg(byName.get('page')!, 1 + this.rng.int(2), false));
      }
    }
    for (const arg of field.args) {
      if (PAGING_ARGS.has(arg.name) && isConnectionField(field)) continue;
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        if (!this.canFill(arg)) return null;
        const value = this.fill(arg, returnType);
        out.push(this.renderArg(arg, value, this.rng.chance(0.4)));
      } else if (!PAGING_ARGS.has(arg.name) && this.rng.chance(0.12)) {
        out.push(this.renderArg(arg, this.sample(arg.type, 0), this.rng.chance(0.5)));
      }
    }
    return out.length ? `(${out.join(', ')})` : '';
  }

  // ---- selections ----

  /** One composite field (connection, nodes(ids:), lookup, object or list), aliased uniquely. */
  private field(field: AnyField, depth: number, rows: number, root: boolean): { text: string; spec: Spec } | null {
    const named = getNamedType(field.type);
    const connection = isConnectionField(field);
    const rowList = !connection && idListArg(field) !== undefined;
    const list = isListType(getNullableType(field.type));
    if ((connection || rowList) && rows >= MAX_ROW_NESTING) return null;
    const args = this.args(field);
    if (args === null) return null;
    this.fieldCount++;
    const inner = this.composite(named, depth + 1, rows + (connection || rowList ? 1 : 0), connection, false);
    const key = `${field.name}${this.n++}`;
    const kind: Kind = connection ? 'connection' : rowList ? 'rowList' : list ? 'list' : root ? 'lookup' : 'object';
    return { text: `${key}: ${field.name}${args}${this.directive()} { ${inner.text} }`, spec: { key, kind, sel: inner.sel } };
  }

  /**
   * A selection on an object, interface or union, its fields at `depth`. `abstract`: inside a
   * fragment on an abstract position, where leaves get type-specific aliases (two types may have a
   * leaf of the same name and different types, which one selection set cannot hold).
   */
  private composite(type: GraphQLNamedType, depth: number, rows: number, isConnectionType: boolean, abstract: boolean): { text: string; sel: Sel } {
    const sel: Sel = { fields: [{ key: '__typename', kind: 'leaf' }], frags: [] };
    const parts = ['__typename'];
    this.fieldCount++;
    if (isAbstractType(type)) {
      if (isInterfaceType(type)) {
        const leaves = Object.values(type.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0);
        for (const f of this.rng.some(leaves, 0, 2)) {
          this.fieldCount++;
          parts.push(f.name);
          sel.fields.push({ key: f.name, kind: 'leaf' });
        }
      }
      // Types with lists under them (connections) first: they are what fans out, and the field budget goes to them.
      const hasRows = (t: GraphQLObjectType) => Object.values(t.getFields()).some((f) => isConnectionField(f as AnyField));
      const possible = [...this.schema.getPossibleTypes(type)].sort((a, b) => Number(hasRows(b)) - Number(hasRows(a)));
      const chosen = possible.filter((t) => this.rng.chance(hasRows(t) ? (this.fanOut ? 1 : 0.7) : 0.3));
      if (chosen.length === 0) chosen.push(this.rng.pick(possible));
      for (const objectType of chosen) {
        const inner = this.composite(objectType, depth, rows, false, true);
        if (this.rng.chance(0.4)) {
          const name = `F${this.n++}`;
          this.fragments.push(`fragment ${name} on ${objectType.name} { ${inner.text} }`);
          parts.push(`...${name}${this.directive()}`);
        } else parts.push(`... on ${objectType.name}${this.directive()} { ${inner.text} }`);
        sel.frags.push({ on: objectType.name, sel: inner.sel });
      }
      return { text: parts.join(' '), sel };
    }
    if (!isObjectType(type)) return { text: parts.join(' '), sel };

    const own: Array<{ text: string; spec: Spec }> = [];
    const fields = Object.values(type.getFields()) as AnyField[];
    const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)));
    const chosenLeaves = this.rng.some(leaves, 1, 3);
    const id = leaves.find((f) => f.name === 'id');
    if (id && !chosenLeaves.includes(id) && this.rng.chance(0.6)) chosenLeaves.push(id);
    for (const f of chosenLeaves) {
      this.fieldCount++;
      const key = abstract && f.name !== 'id' ? `${type.name}_${f.name}` : f.name;
      own.push({ text: key === f.name ? f.name : `${key}: ${f.name}`, spec: { key, kind: 'leaf' } });
    }
    const composites = this.rng.shuffle(fields.filter((f) => !isLeafType(getNamedType(f.type))));
    let lists = 0;
    for (const f of composites) {
      const fieldIsList = isListType(getNullableType(f.type));
      const connection = isConnectionField(f);
      const need = connection ? 3 : 2;
      if (depth + need > MAX_DEPTH || this.fieldCount >= FIELD_BUDGET) continue;
      // A connection's own lists (nodes, edges) are what it is about; elsewhere fewer, the deeper.
      const p = isConnectionType
        ? fieldIsList
          ? this.fanOut
            ? 0.9
            : 0.65
          : 0.3
        : connection
          ? this.connectionChance
          : this.fanOut && depth < 8
            ? 0.7
            : depth < 4
              ? 0.5
              : depth < 7
                ? 0.3
                : 0.1;
      let copies = this.rng.chance(p) ? 1 : 0;
      if (isConnectionType && fieldIsList && lists === 0 && f === composites.filter((c) => isListType(getNullableType(c.type))).at(-1)) copies = 1;
      if (copies && isConnectionType && fieldIsList && this.rng.chance(0.15)) copies = 2; // nodes twice, under two aliases
      for (let c = 0; c < copies; c++) {
        const made = this.field(f, depth, rows, false);
        if (made) {
          own.push(made);
          if (fieldIsList) lists++;
        }
      }
    }

    // Some of it behind fragments: inline (with or without a type condition) or named.
    for (const item of own) {
      const r = this.rng.float();
      if (r < 0.12) {
        const name = `F${this.n++}`;
        this.fragments.push(`fragment ${name} on ${type.name} { ${item.text} }`);
        parts.push(`...${name}${this.directive()}`);
        sel.frags.push({ on: type.name, sel: { fields: [item.spec], frags: [] } });
      } else if (r < 0.22) {
        parts.push(`... on ${type.name}${this.directive()} { ${item.text} }`);
        sel.frags.push({ on: type.name, sel: { fields: [item.spec], frags: [] } });
      } else if (r < 0.27) {
        parts.push(`... { ${item.text} }`);
        sel.fields.push(item.spec);
      } else {
        parts.push(item.text);
        sel.fields.push(item.spec);
      }
    }
    // A fragment on an interface the type implements, spread on the object position.
    const iface = type.getInterfaces().find((i) => 'id' in i.getFields());
    if (iface && this.rng.chance(0.15)) {
      const name = `F${this.n++}`;
      this.fragments.push(`fragment ${name} on ${iface.name} { id }`);
      parts.push(`...${name}`);
      sel.frags.push({ on: iface.name, sel: { fields: [{ key: 'id', kind: 'leaf' }], frags: [] } });
    }
    return { text: parts.join(' '), sel };
  }
}

/** Counts what a response holds, walking it by the selections that were generated. */
class RecordCounter {
  constructor(private readonly schema: GraphQLSchema) {}

  private applies(on: string, typeName: string): boolean {
    if (on === typeName) return true;
    const condition = this.schema.getType(on);
    const type = this.schema.getType(typeName);
    return !!condition && !!type && isAbstractType(condition) && isObjectType(type) && this.schema.isSubType(condition, type);
  }

  /** The specs that apply to an object of this type (its own and its fragments'). */
  private specs(sel: Sel, typeName: string): Spec[] {
    const out = [...sel.fields];
    for (const frag of sel.frags) if (this.applies(frag.on, typeName)) out.push(...this.specs(frag.sel, typeName));
    return out;
  }

  object(value: unknown, sel: Sel): number {
    if (value === null || value === undefined || typeof value !== 'object') return 0;
    const obj = value as Record<string, unknown>;
    const typeName = obj.__typename;
    if (typeof typeName !== 'string') throw new Error(`no __typename in ${short(obj, 200)}`);
    let n = 0;
    for (const spec of this.specs(sel, typeName)) n += this.field(obj[spec.key], spec);
    return n;
  }

  private field(value: unknown, spec: Spec): number {
    if (value === null || value === undefined || spec.kind === 'leaf') return 0;
    const sel = spec.sel!;
    const items = (v: unknown) => (Array.isArray(v) ? v : []);
    switch (spec.kind) {
      case 'object':
        return this.object(value, sel);
      case 'lookup':
        return 1 + this.object(value, sel);
      case 'list':
        return items(value).reduce((n: number, item) => n + this.object(item, sel), 0);
      case 'rowList':
        return items(value).length + items(value).reduce((n: number, item) => n + this.object(item, sel), 0);
      case 'connection': {
        // nodes and edges of one connection are the same rows: its records are the most positions.
        const obj = value as Record<string, unknown>;
        const lists = this.specs(sel, String(obj.__typename)).filter((s) => s.kind === 'list');
        const positions = Math.max(0, ...lists.map((s) => items(obj[s.key]).length));
        return positions + this.object(value, sel);
      }
      default:
        return 0;
    }
  }
}

describe('the cost rule, as a property of generated operations', () => {
  const schema = createSchema();
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let records: Rec[] = [];
  let heavy: Rec[] = [];
  const log = captureServerLog();

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;
    const rng = new Rng(SEED ^ 0x1234);
    const users = [account.admin.id];
    for (let i = 0; i < 3; i++) users.push((await account.addUser()).id);

    // List items of each kind (people below take tags, statuses and sources from them).
    const listKind = schema.getType('ListKind');
    const kinds = listKind && isEnumType(listKind) ? listKind.getValues().map((v) => v.name) : [];
    const items: Array<{ databaseId: number; kind: string }> = [];
    const failed: string[] = [];
    for (const kind of kinds) {
      const creates = Array.from(
        { length: 4 },
        (_, i) => `i${i}: createListItem(kind: ${kind}, input: { name: "Seed ${kind} ${i}", position: ${i} }) { listItem { databaseId kind } }`,
      );
      const made = await server.graphql(key, `mutation { ${creates.join(' ')} }`);
      // A kind the server cannot store is the fuzz test's business (graphql-fuzz.test.ts); this one needs rows.
      if (made.body?.errors || !made.body?.data) failed.push(kind);
      else items.push(...Object.values(made.body.data as Record<string, { listItem: { databaseId: number; kind: string } }>).map((p) => p.listItem));
    }
    if (failed.length) console.warn(`seeding list items failed for ${failed.join(', ')}`);
    const ofKind = (kind: string) => items.filter((i) => i.kind === kind).map((i) => i.databaseId);

    // Companies and their people (raw SQL: fast). One company has many people: repeated ids of it fan out.
    const acc = account.accountId;
    const companies = await server.sql<{ id: number }>(
      `insert into companies (account_id, owner_id, name, city, custom_fields, created_at, updated_at)
       select ?, ?, 'Seed Co ' || g, 'City ' || (g % 4), '{}', now() - (g || ' hours')::interval, now() from generate_series(1, 15) g returning id`,
      [acc, account.admin.id],
    );
    const companyIds = companies.map((c) => Number(c.id));
    const tags = ofKind('CONTACT_TAG');
    const statuses = ofKind('LEAD_STATUS');
    const sources = ofKind('LEAD_SOURCE');
    const insertPeople = async (companyId: number | null, count: number) => {
      const owner = rng.pick(users);
      const tagIds = JSON.stringify(rng.some(tags, 0, 3));
      await server.sql(
        `insert into people (account_id, owner_id, company_id, lead_status_id, lead_source_id, last_name, first_name, type, tag_ids, custom_fields, created_at, updated_at, unsubscribed, bounced)
         select ?, ?, ?, ?, ?, 'Seed ' || g, 'P' || (g % 7), case when g % 3 = 0 then 'Lead' else 'Contact' end, ?::jsonb, '{}', now() - (g || ' minutes')::interval, now(), false, false
         from generate_series(1, ?) g`,
        [acc, owner, companyId, statuses.length ? rng.pick(statuses) : null, sources.length ? rng.pick(sources) : null, tagIds, count],
      );
    };
    await insertPeople(companyIds[0], 60);
    for (const id of companyIds.slice(1)) await insertPeople(id, 2 + rng.int(9));
    await insertPeople(null, 20);

    // Records of every other type the schema can create (deals, templates, ... as they are added), then
    // every record's global id, read through the API.
    const graphql = (q: string, v?: Record<string, unknown>) => server.graphql(key, q, v);
    const seeded = await seedThroughMutations(schema, graphql, await collectRecords(schema, graphql));
    if (seeded.failed.length) console.warn(`seeding through mutations failed for ${seeded.failed.join('; ')}`);
    records = [...(await collectRecords(schema, graphql))];
    heavy = records.filter((r) => r.typeName === 'Company' && r.databaseId === companyIds[0]);
    expect(records.filter((r) => r.typeName === 'Person').length).toBeGreaterThanOrEqual(100);
    expect(heavy).toHaveLength(1);
  }, 60_000);

  afterAll(async () => {
    log.restore();
    await server?.close();
  });

  it(`${OPERATIONS} generated operations never return more than charged × ROWS_PER_UNIT records`, async () => {
    const byType = new Map<string, Rec[]>();
    for (const r of records) byType.set(r.typeName, [...(byType.get(r.typeName) ?? []), r]);
    const generator = new Generator(schema, new Rng(SEED), records, byType, heavy);
    const operations = Array.from({ length: OPERATIONS }, () => generator.operation());
    // The generator writes valid documents: a validation error here is the test's bug, not the server's.
    for (const op of operations) {
      const problems = validate(schema, parse(op.query));
      if (problems.length) throw new Error(`generated an invalid document (${problems[0].message}):\n${op.query}`);
    }

    const counter = new RecordCounter(schema);
    const failures: string[] = [];
    const requested = { one: 0, upTo10: 0, upTo50: 0, over50: 0 };
    const stats = { ok: 0, refused: 0, badInput: 0, okCharged: 0, maxCharged: 0, maxRecords: 0, maxRatio: 0, records: 0 };
    const describeFailure = (why: string, op: Operation, res: TestResponse) =>
      `${why}\n  query: ${short(op.query, 1500)}\n  variables: ${short(op.variables)}\n  status ${res.status}: ${short(res.body ?? res.text, 800)}\n  log: ${short(log.byRequest(res.headers.get('x-request-id')), 800)}`;

    await inPool(operations, CONCURRENCY, async (op) => {
      const res = await server.graphql(key, op.query, op.variables);
      const codes = errorCodes(res);
      const cost = res.body?.extensions?.cost as { requested: number; charged: number } | undefined;
      if (res.status >= 500 || codes.includes('INTERNAL_SERVER_ERROR')) return void failures.push(describeFailure('server error', op, res));
      if (!cost) return void failures.push(describeFailure('no extensions.cost', op, res));
      if (cost.requested <= 1) requested.one++;
      else if (cost.requested <= 10) requested.upTo10++;
      else if (cost.requested <= 50) requested.upTo50++;
      else requested.over50++;
      if (codes.includes('COST_LIMIT_EXCEEDED')) {
        stats.refused++;
        if (res.status !== 400 || res.body.data !== undefined) failures.push(describeFailure('a refusal for cost must be a 400 without data', op, res));
        return;
      }
      if (codes.length) {
        stats.badInput++;
        if (codes.some((c) => c !== 'BAD_USER_INPUT')) failures.push(describeFailure(`unexpected error codes ${codes.join(',')}`, op, res));
      } else stats.ok++;
      if (!res.body.data) return;
      const found = counter.object(res.body.data, op.sel);
      stats.records += found;
      stats.maxRecords = Math.max(stats.maxRecords, found);
      stats.maxCharged = Math.max(stats.maxCharged, cost.charged);
      if (!codes.length && cost.charged > 1) stats.okCharged++;
      if (cost.charged > 0) stats.maxRatio = Math.max(stats.maxRatio, found / (cost.charged * ROWS_PER_UNIT));
      if (found > cost.charged * ROWS_PER_UNIT)
        failures.push(
          describeFailure(`${found} records for charged ${cost.charged} (requested ${cost.requested}): more than ${cost.charged * ROWS_PER_UNIT}`, op, res),
        );
    });

    console.log(
      `cost property: ${OPERATIONS} operations: ${stats.ok} ok (${stats.okCharged} charged > 1, the most ${stats.maxCharged}), ${stats.refused} refused for cost, ${stats.badInput} with BAD_USER_INPUT; ` +
        `${stats.records} records in all, at most ${stats.maxRecords} in one; highest records / (charged × ${ROWS_PER_UNIT}) = ${stats.maxRatio.toFixed(3)}; ` +
        `requested 1: ${requested.one}, 2-10: ${requested.upTo10}, 11-50: ${requested.upTo50}, over 50: ${requested.over50}`,
    );
    expect(failures).toEqual([]);
    // Not vacuous: some operations were refused for their cost, some ran and were charged more than 1.
    expect(stats.refused).toBeGreaterThan(0);
    expect(stats.okCharged).toBeGreaterThan(0);
  }, 120_000);
});
