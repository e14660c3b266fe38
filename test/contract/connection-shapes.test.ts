import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLEnumType,
} from 'graphql';
import { createSchema } from '../../src/app/schema';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Every connection of the schema, found in the schema itself (a field whose type is named
 * `…Connection`, on Query or on a record type such as Company.people), answers every selection
 * shape front ends send — with or without cursors, nodes only, pageInfo only, totalCount only,
 * nested under a root connection — with every kind of paging, and the answers agree with one
 * another. A connection added later is covered without touching this file: its records are seeded
 * through its type's `create…` mutation (required arguments and input fields filled from the schema).
 */

const schema: GraphQLSchema = createSchema();

/** Page size of the paged cases; each list holds at least 2 × PAGE + 1 records. */
const PAGE = 2;
/** Records seeded per list (and per value of a required enum argument of the create mutation). */
const SEEDED = 5;
/** Below every list's default page size, so a page without paging arguments holds the whole list. */
const MAX_LIST = 100;
const PAGING_ARGS = new Set(['first', 'after', 'last', 'before', 'page', 'perPage']);

interface Connection {
  /** `Query.people`, `Company.people`. */
  readonly label: string;
  readonly parent: string;
  readonly field: string;
  /** The record type of its nodes (`Person`). */
  readonly nodeType: string;
  /** Its required arguments, filled from the schema (`kind: CONTACT_TAG`); empty when none. */
  readonly requiredArgs: readonly string[];
}

const isConnectionField = (field: GraphQLField<unknown, unknown>) => getNamedType(field.type).name.endsWith('Connection');

function nodeTypeOf(field: GraphQLField<unknown, unknown>): string {
  const connection = getNamedType(field.type) as GraphQLObjectType;
  const nodes = connection.getFields().nodes;
  if (!nodes) throw new Error(`${connection.name} has no nodes field`);
  return getNamedType(nodes.type).name;
}

/** A GraphQL literal for a required argument: an enum's first value, a sample scalar, an input's required fields. */
function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) return `[${literal(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${required.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  return JSON.stringify(sample(type, 0));
}

/** A value for a required scalar or enum (inputs of seeding mutations and required connection arguments). */
function sample(type: GraphQLInputType, serial: number): unknown {
  if (isNonNullType(type)) return sample(type.ofType, serial);
  // A list of enum values takes one (a webhook endpoint's models); any other list is empty.
  if (isListType(type)) return isEnumType(getNamedType(type)) ? [(getNamedType(type) as GraphQLEnumType).getValues()[0].name] : [];
  if (isEnumType(type)) return type.getValues()[0].name; // variables take enum names
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    // A required `url` (a document's) must be one: any text would be refused as a user error.
    for (const f of Object.values(type.getFields()))
      if (isNonNullType(f.type) && f.defaultValue === undefined)
        out[f.name] = f.name === 'url' ? `https://files.example.test/shape-${serial}.pdf` : sample(f.type, serial);
    return out;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'String':
        return `Shape ${String(serial).padStart(3, '0')}`;
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'DateTimeISO':
        return new Date().toISOString();
      case 'JSON':
      case 'JSONObject':
        return {};
    }
  }
  throw new Error(`connection-shapes: no sample value for a required ${String(type)}; teach sample() this type`);
}

const requiredOf = (args: readonly GraphQLArgument[]) => args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined && !PAGING_ARGS.has(a.name));

function discoverConnections(s: GraphQLSchema): { roots: Connection[]; nested: Connection[] } {
  const connectionOf = (parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>): Connection => ({
    label: `${parent.name}.${field.name}`,
    parent: parent.name,
    field: field.name,
    nodeType: nodeTypeOf(field),
    requiredArgs: requiredOf(field.args).map((a) => `${a.name}: ${literal(a.type)}`),
  });
  const query = s.getQueryType()!;
  const roots = Object.values(query.getFields())
    .filter(isConnectionField)
    .map((f) => connectionOf(query, f));
  const nested: Connection[] = [];
  for (const type of Object.values(s.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === query || type === s.getMutationType() || /(Connection|Edge|Payload)$/.test(type.name))
      continue;
    for (const field of Object.values(type.getFields())) if (isConnectionField(field)) nested.push(connectionOf(type, field));
  }
  return { roots, nested };
}

const { roots: ROOTS, nested: NESTED } = discoverConnections(schema);

// ---------------------------------------------------------------------------------------------
// Shapes and pagings

const SHAPES = {
  'edges { cursor node }': 'edges { cursor node { databaseId } }',
  'edges { node } (no cursor)': 'edges { node { databaseId } }',
  nodes: 'nodes { databaseId }',
  'pageInfo (all)': 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }',
  'pageInfo { hasNextPage }': 'pageInfo { hasNextPage }',
  totalCount: 'totalCount',
} as const;
type Shape = keyof typeof SHAPES;

/** What one page must be, given the whole list in order. */
interface Expected {
  readonly ids: readonly number[];
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
}

interface Paging {
  readonly name: string;
  /** Whether its arguments depend on a previous page of the same list (one list per query then). */
  readonly cursor: boolean;
  /** Its arguments; `previous` runs the list with other arguments and answers its pageInfo. */
  args(previous: (args: string) => Promise<{ startCursor: string | null; endCursor: string | null }>): Promise<string>;
  expected(all: readonly number[]): Expected;
}

const PAGINGS: readonly Paging[] = [
  { name: 'none', cursor: false, args: async () => '', expected: (all) => ({ ids: all, hasNextPage: false, hasPreviousPage: false }) },
  {
    name: 'first',
    cursor: false,
    args: async () => `first: ${PAGE}`,
    expected: (all) => ({ ids: all.slice(0, PAGE), hasNextPage: all.length > PAGE, hasPreviousPage: false }),
  },
  {
    name: 'first + after (endCursor of the first page)',
    cursor: true,
    args: async (previous) => `first: ${PAGE}, after: ${JSON.stringify((await previous(`first: ${PAGE}`)).endCursor)}`,
    expected: (all) => ({ ids: all.slice(PAGE, 2 * PAGE), hasNextPage: all.length > 2 * PAGE, hasPreviousPage: true }),
  },
  {
    name: 'last',
    cursor: false,
    args: async () => `last: ${PAGE}`,
    expected: (all) => ({ ids: all.slice(-PAGE), hasNextPage: false, hasPreviousPage: all.length > PAGE }),
  },
  {
    name: 'last + before (startCursor of the last page)',
    cursor: true,
    args: async (previous) => `last: ${PAGE}, before: ${JSON.stringify((await previous(`last: ${PAGE}`)).startCursor)}`,
    expected: (all) => ({ ids: all.slice(-2 * PAGE, -PAGE), hasNextPage: true, hasPreviousPage: all.length > 2 * PAGE }),
  },
  {
    name: 'page + perPage',
    cursor: false,
    args: async () => `page: 2, perPage: ${PAGE}`,
    expected: (all) => ({ ids: all.slice(PAGE, 2 * PAGE), hasNextPage: all.length > 2 * PAGE, hasPreviousPage: true }),
  },
];

const argList = (...parts: string[]) => {
  const text = parts.filter(Boolean).join(', ');
  return text ? `(${text})` : '';
};

/**
 * Checks one paging against one or more lists: runs every shape, then compares each answer with
 * the expected page and with the other shapes' answers (edges and nodes agree, the edges' cursors
 * are pageInfo's start and end cursors).
 */
async function checkPaging(
  run: (args: string, selection: string) => Promise<any[]>,
  paging: Paging,
  lists: ReadonlyArray<{ all: readonly number[]; total: number }>,
): Promise<void> {
  const args = await paging.args(async (a) => {
    const [only] = await run(a, 'pageInfo { startCursor endCursor }');
    return only.pageInfo;
  });
  const answers = {} as Record<Shape, any[]>;
  for (const shape of Object.keys(SHAPES) as Shape[]) answers[shape] = await run(args, SHAPES[shape]);
  const ids = (nodes: Array<{ databaseId: number }>) => nodes.map((n) => n.databaseId);
  lists.forEach(({ all, total }, i) => {
    const expected = paging.expected(all);
    const withCursor = answers['edges { cursor node }'][i].edges as Array<{ cursor: string; node: { databaseId: number } }>;
    const pageInfo = answers['pageInfo (all)'][i].pageInfo;
    expect(ids(withCursor.map((e) => e.node))).toEqual(expected.ids);
    for (const edge of withCursor) expect(edge.cursor).toEqual(expect.any(String));
    expect(ids(answers['edges { node } (no cursor)'][i].edges.map((e: any) => e.node))).toEqual(expected.ids);
    expect(ids(answers.nodes[i].nodes)).toEqual(expected.ids);
    expect(pageInfo).toEqual({
      hasNextPage: expected.hasNextPage,
      hasPreviousPage: expected.hasPreviousPage,
      startCursor: withCursor[0]?.cursor ?? null,
      endCursor: withCursor[withCursor.length - 1]?.cursor ?? null,
    });
    expect(answers['pageInfo { hasNextPage }'][i].pageInfo).toEqual({ hasNextPage: expected.hasNextPage });
    expect(answers.totalCount[i].totalCount).toBe(total);
  });
}

// ---------------------------------------------------------------------------------------------

describe('every connection, every selection shape, every paging', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let serial = 0;

  const ok = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
    const res = await server.graphql(key, query, variables);
    expect({ query, status: res.status, errors: res.body?.errors }).toEqual({ query, status: 200, errors: undefined });
    return res.body.data;
  };

  /** Runs a root connection with paging `args` and `selection`: `[connection]`. */
  const runRoot = (c: Connection) => async (args: string, selection: string) => [
    (await ok(`{ c: ${c.field}${argList(...c.requiredArgs, args)} { ${selection} } }`)).c,
  ];

  /** The ids of a whole list, walked forward with `nodes` (no cursor read per row) by endCursor. */
  async function walk(run: (args: string, selection: string) => Promise<any[]>): Promise<{ ids: number[]; cursors: string[] }> {
    const ids: number[] = [];
    const cursors: string[] = [];
    let after: string | null = null;
    for (;;) {
      const [page]: any[] = await run(
        `first: 200${after ? `, after: ${JSON.stringify(after)}` : ''}`,
        'edges { cursor } nodes { databaseId } pageInfo { hasNextPage endCursor }',
      );
      ids.push(...page.nodes.map((n: any) => n.databaseId));
      cursors.push(...page.edges.map((e: any) => e.cursor));
      if (!page.pageInfo.hasNextPage) return { ids, cursors };
      after = page.pageInfo.endCursor;
    }
  }

  /** Records of a node type made outside the API (users are created by account admins): how to seed one, and the parent links it takes. */
  const outsideTheApi: Record<string, (extra: Record<string, unknown>) => Promise<number>> = {
    User: async () => (await account.addUser({ email: `shape-${++serial}@shapes.test` })).id,
    // Exports are started by startExport, which queues work: stored as it would be, left queued (no worker runs here).
    Export: async () =>
      (
        await server.sql<{ id: number }>(
          `insert into exports (account_id, user_id, resource, format, filter) values (?, ?, 'people', 'csv', 'null') returning id`,
          [account.accountId, account.admin.id],
        )
      )[0].id,
    // Imports are started by startImport on an uploaded file: stored as it would be, left queued (no worker runs here).
    Import: async () =>
      (
        await server.sql<{ id: number }>(
          `insert into imports (account_id, user_id, resource, mode, format, created_at) values (?, ?, 'people', 'create', 'csv', now()) returning id`,
          [account.accountId, account.admin.id],
        )
      )[0].id,
    // An import's row errors are written by its job while it reads the file: stored as it would, in row order.
    ImportRowError: async (extra) =>
      (
        await server.sql<{ id: number }>(
          `insert into import_errors (import_id, row_number, "column", code, message) values (?, ?, 'email', 'INVALID', 'is not an email') returning id::int as id`,
          [extra.importId, ++serial],
        )
      )[0].id,
    // Outbox rows are written by the changes that owe mail (read-only over GraphQL): stored as a change would.
    OutboxMessage: async () =>
      (
        await server.sql<{ id: number }>(
          `insert into outbox_messages (account_id, recipient_id, kind, subject_type, subject_id, payload, created_at) values (?, ?, 'person_assignment', 'Person', ?, ?, now()) returning id`,
          [account.accountId, account.admin.id, ++serial, JSON.stringify({ byUserId: account.admin.id })],
        )
      )[0].id,
  };

  /**
   * Seeds records of `nodeType` through its `create…` mutation: SEEDED for every value of each
   * required enum argument (`createListItem(kind:)`), so every list of that type gains as many;
   * `extra` goes into the input (a parent's id). Answers the ids, and how many each list gains.
   */
  /**
   * How a child is attached to its parent on create: `<parent>Id` (a person's company), or
   * `<parent>Ids` for a many-to-many association (a deal's people, a person's deals).
   */
  function parentLink(nodeType: string, parent: string, id: number): Record<string, unknown> {
    const key = `${parent[0].toLowerCase()}${parent.slice(1)}`;
    const create = Object.values(schema.getMutationType()!.getFields()).find((f) => f.name === `create${nodeType}`);
    const input = create?.args.find((a) => a.name === 'input' && isInputObjectType(getNamedType(a.type)));
    const fields = input ? (getNamedType(input.type) as any).getFields() : {};
    if (!fields[`${key}Id`] && !fields[`${key}Ids`]) {
      // A polymorphic link (a calendar entry's `associationType: DEAL` with `associationId`).
      const upper = parent.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
      for (const name of Object.keys(fields)) {
        const prefix = /^(.+)Type$/.exec(name)?.[1];
        const type = getNamedType(fields[name].type);
        if (prefix && fields[`${prefix}Id`] && isEnumType(type) && type.getValue(upper)) return { [name]: upper, [`${prefix}Id`]: id };
      }
    }
    return fields[`${key}Ids`] && !fields[`${key}Id`] ? { [`${key}Ids`]: [id] } : { [`${key}Id`]: id };
  }

  /**
   * Nested connections whose children are not attached on create but made by a change of the
   * parent: how to make at least SEEDED of them under `parentId`, answering their ids.
   */
  const madeByParent: Record<string, (parentId: number) => Promise<number[]>> = {
    // A series' occurrences: the parent (a task or an event) becomes the base of a daily series of six, starting next month.
    'CalendarEntry.recurrences': async (id) => {
      const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      const { e } = await ok(`query($id: Int!) { e: calendarEntry(id: $id) { kind } }`, { id });
      const times = e.kind === 'EVENT' ? { startTime: `${day}T09:00:00Z`, endTime: `${day}T09:30:00Z` } : { dueDate: day };
      const { m } = await ok(
        `mutation($id: Int!, $input: CalendarEntryUpdateInput!) { m: updateCalendarEntry(id: $id, input: $input) { userErrors { message } } }`,
        { id, input: { ...times, rrule: `FREQ=DAILY;COUNT=${SEEDED + 1}` } },
      );
      expect(m.userErrors).toEqual([]);
      const { c } = await ok(`query($id: Int!) { c: calendarEntries(first: 200, filter: { baseEntryId: { eq: $id } }) { nodes { databaseId } } }`, { id });
      return c.nodes.map((n: { databaseId: number }) => n.databaseId);
    },
  };

  /** Node types seeded at the root with a link to a record of another type (a note on a deal): `<node>:<parent>`. */
  const linkedAtRoot = new Set<string>();

  async function seed(nodeType: string, extra: Record<string, unknown> = {}): Promise<{ ids: number[]; perList: number; type?: string }> {
    // A connection of an interface (a timeline of events): records of an implementing type whose
    // create mutation takes the link to the parent.
    const abstract = schema.getType(nodeType);
    if (abstract && isInterfaceType(abstract)) {
      for (const impl of schema.getImplementations(abstract).objects) {
        const create = schema.getMutationType()!.getFields()[`create${impl.name}`];
        const input = create?.args.find((a) => a.name === 'input' && isInputObjectType(getNamedType(a.type)));
        const fields = input ? (getNamedType(input.type) as any).getFields() : {};
        if (!create || !Object.keys(extra).every((k) => k in fields)) continue;
        const made = await seed(impl.name, extra);
        seeded.set(nodeType, [...(seeded.get(nodeType) ?? []), ...made.ids]);
        return { ...made, type: impl.name };
      }
      throw new Error(`connection-shapes: no type implementing ${nodeType} has a create mutation taking ${JSON.stringify(extra)}`);
    }
    const mutation = Object.values(schema.getMutationType()!.getFields()).find(
      (f) =>
        f.name.startsWith('create') &&
        isObjectType(getNamedType(f.type)) &&
        Object.values((getNamedType(f.type) as GraphQLObjectType).getFields()).some((p) => getNamedType(p.type).name === nodeType),
    );
    if (!mutation) {
      const make = outsideTheApi[nodeType];
      const takes: Record<string, readonly string[]> = { ImportRowError: ['importId'] };
      if (!make || Object.keys(extra).some((k) => !(takes[nodeType] ?? []).includes(k)))
        throw new Error(`connection-shapes: ${nodeType} has no create mutation to seed it with${Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''}`);
      const ids: number[] = [];
      for (let i = 0; i < SEEDED; i++) ids.push(await make(extra));
      return { ids, perList: SEEDED };
    }
    const payload = getNamedType(mutation.type) as GraphQLObjectType;
    const recordField = Object.values(payload.getFields()).find((p) => getNamedType(p.type).name === nodeType)!;
    const args = requiredOf(mutation.args);
    const inputArg = args.find((a) => isInputObjectType(getNamedType(a.type)));
    // A required reference to a record seeded before (`todoTemplateId` of a todo template item) names one of those.
    const references: Record<string, number[]> = {};
    if (inputArg) {
      for (const f of Object.values((getNamedType(inputArg.type) as any).getFields() as Record<string, { name: string; type: GraphQLInputType }>)) {
        const referenced = /^(.+)Id$/.exec(f.name)?.[1];
        if (!referenced || f.name in extra || !isNonNullType(f.type)) continue;
        const ids = seeded.get(`${referenced[0].toUpperCase()}${referenced.slice(1)}`);
        if (ids?.length) {
          extra = { ...extra, [f.name]: ids[0] };
          references[f.name] = ids;
        }
      }
    }
    for (const name of Object.keys(extra)) {
      if (!inputArg || !(getNamedType(inputArg.type) as any).getFields()[name])
        throw new Error(`connection-shapes: ${mutation.name}'s input has no ${name} to attach the record to its parent`);
    }
    // Every combination of the required enum arguments' values.
    let combos: Array<Record<string, unknown>> = [{}];
    for (const a of args) {
      const type = getNamedType(a.type);
      if (isEnumType(type)) combos = combos.flatMap((c) => type.getValues().map((v) => ({ ...c, [a.name]: v.name })));
    }
    const document = `mutation(${args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')}) { m: ${mutation.name}(${args.map((a) => `${a.name}: $${a.name}`).join(', ')}) { r: ${recordField.name} { databaseId } userErrors { field code message } } }`;
    const ids: number[] = [];
    for (const combo of combos) {
      for (let i = 0; i < SEEDED; i++) {
        const variables: Record<string, unknown> = {};
        for (const a of args) variables[a.name] = a.name in combo ? combo[a.name] : sample(a.type, ++serial);
        if (inputArg) variables[inputArg.name] = { ...(variables[inputArg.name] as object), ...enumsInTurn(inputArg, i), ...extra };
        let { m } = await ok(document, variables);
        // A reference the record refuses (an entry needs a dropdown custom field, not a text one):
        // the other records seeded of that type are tried.
        for (const [field, candidates] of inputArg && m.userErrors.length ? Object.entries(references) : []) {
          for (const id of candidates.slice(1)) {
            ({ m } = await ok(document, { ...variables, [inputArg!.name]: { ...(variables[inputArg!.name] as object), [field]: id } }));
            if (m.userErrors.length === 0) break;
          }
          if (m.userErrors.length === 0) break;
        }
        // A kind of record that makes optional fields required (an event's start and end): the
        // fields its user errors name blank are filled with samples, and it is tried again.
        if (inputArg && m.userErrors.length) {
          const fields = (getNamedType(inputArg.type) as any).getFields() as Record<string, { type: GraphQLInputType }>;
          const blanks = (m.userErrors as Array<{ field: string[] | null; code: string }>).filter(
            (e) => e.code === 'BLANK' && e.field?.length === 2 && e.field[0] === inputArg.name && fields[e.field[1]],
          );
          if (blanks.length === m.userErrors.length) {
            const filled = Object.fromEntries(blanks.map((e) => [e.field![1], sample(fields[e.field![1]].type, ++serial)]));
            ({ m } = await ok(document, { ...variables, [inputArg.name]: { ...(variables[inputArg.name] as object), ...filled } }));
          }
        }
        // A record that needs one of several optional references (a note: a deal, a person or a
        // company): each optional `<type>Id` is tried with a record of that type, seeded if need be.
        if (inputArg && m.userErrors.length) {
          const fields = Object.values((getNamedType(inputArg.type) as any).getFields() as Record<string, { name: string; type: GraphQLInputType }>);
          for (const f of fields) {
            const referenced = /^(.+)Id$/.exec(f.name)?.[1];
            if (!referenced || isNonNullType(f.type) || f.name in extra || getNamedType(f.type).name !== 'Int') continue;
            const type = `${referenced[0].toUpperCase()}${referenced.slice(1)}`;
            if (type === nodeType || !schema.getType(type)) continue;
            if (!seeded.get(type)?.length) await seed(type);
            ({ m } = await ok(document, { ...variables, [inputArg.name]: { ...(variables[inputArg.name] as object), [f.name]: seeded.get(type)![0] } }));
            if (m.userErrors.length === 0) {
              linkedAtRoot.add(`${nodeType}:${type}`);
              break;
            }
          }
        }
        expect(m.userErrors.map((e: { message: string }) => ({ message: e.message }))).toEqual([]);
        ids.push(m.r.databaseId);
      }
    }
    seeded.set(nodeType, [...(seeded.get(nodeType) ?? []), ...ids]);
    return { ids, perList: SEEDED };
  }

  /**
   * The required enum fields of a create input, each at its `i`-th value (cycling): the records
   * seeded of a type cover the values (custom fields of several kinds), as required enum arguments
   * are covered by seeding each of their values.
   */
  function enumsInTurn(inputArg: GraphQLArgument, i: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of Object.values((getNamedType(inputArg.type) as any).getFields() as Record<string, { name: string; type: GraphQLInputType }>)) {
      const type = getNamedType(f.type);
      if (isNonNullType(f.type) && isEnumType(type)) out[f.name] = type.getValues()[i % type.getValues().length].name;
    }
    return out;
  }

  /** The records `seed` made, by type. */
  const seeded = new Map<string, number[]>();

  /** Per root connection: the whole list in order, its cursors, and its expected total. */
  const lists = new Map<string, { ids: number[]; cursors: string[]; total: number }>();
  /** Per nested connection: its two seeded parents (index in the root list) and the children made for each. */
  const parents = new Map<string, Array<{ id: number; index: number; children: Set<number>; exclusive: boolean; all: number[]; total: number }>>();

  /** The root connection listing a nested connection's parent type. */
  const rootOf = (n: Connection) => {
    const root = ROOTS.find((r) => r.nodeType === n.parent);
    if (!root) throw new Error(`connection-shapes: no root connection lists ${n.parent}, so ${n.label} cannot be reached`);
    return root;
  };

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.createAccount();
    key = account.admin.apiKey;

    // What a fresh account holds already (default list items, its admin).
    const baseline = new Map<string, number>();
    for (const c of ROOTS) baseline.set(c.label, (await runRoot(c)('', 'totalCount'))[0].totalCount);

    const gained = new Map<string, number>();
    for (const type of new Set(ROOTS.map((c) => c.nodeType))) gained.set(type, (await seed(type)).perList);
    // Children for the first two parents of each nested connection (the parents were seeded above).
    for (const n of NESTED) {
      const { ids } = await walk(runRoot(rootOf(n)));
      if (ids.length < 2) throw new Error(`connection-shapes: fewer than two ${n.parent} records to hang ${n.label} on`);
      const made = [];
      for (const id of ids.slice(0, 2)) {
        const byParent: ((parentId: number) => Promise<number[]>) | undefined = Object.hasOwn(madeByParent, n.label) ? madeByParent[n.label] : undefined;
        const link: Record<string, unknown> = byParent ? { made: true } : parentLink(n.nodeType, n.parent, id);
        const {
          ids: children,
          perList,
          type,
        } = byParent ? await byParent(id).then((made) => ({ ids: made, perList: made.length, type: undefined })) : await seed(n.nodeType, link);
        // Records of an interface's list are records of their own type, in that type's root list.
        for (const t of new Set([n.nodeType, type ?? n.nodeType])) gained.set(t, (gained.get(t) ?? 0) + perList);
        // A many-to-many parent may hold children attached from the other side too (a deal seeded
        // under a person): then the seeded ones must be among its children, not all of them.
        // So may a parent that records seeded at the root were linked to (a note on a deal), and
        // a list of an interface (a timeline holds every kind of event about the parent).
        const kinds = (t: string) => {
          const type = schema.getType(t);
          return type && isInterfaceType(type) ? schema.getImplementations(type).objects.map((o) => o.name) : [t];
        };
        const overlapping = NESTED.some((o) => o !== n && o.parent === n.parent && kinds(o.nodeType).some((k) => kinds(n.nodeType).includes(k)));
        const shared =
          Object.keys(link)[0].endsWith('Ids') ||
          isInterfaceType(schema.getType(n.nodeType)) ||
          overlapping ||
          [...linkedAtRoot].some((l) => l.endsWith(`:${n.parent}`));
        made.push({ id, children: new Set(children), exclusive: !shared });
      }
      parents.set(
        n.label,
        made.map((p) => ({ ...p, index: 0, all: [], total: 0 })),
      );
    }

    for (const c of ROOTS) {
      const { ids, cursors } = await walk(runRoot(c));
      lists.set(c.label, { ids, cursors, total: baseline.get(c.label)! + (gained.get(c.nodeType) ?? 0) });
    }
    for (const n of NESTED) {
      const root = lists.get(rootOf(n).label)!;
      for (const p of parents.get(n.label)!) {
        p.index = root.ids.indexOf(p.id);
        const { ids } = await walk(nestedRun(n, p.index, 'nodes'));
        Object.assign(p, { all: ids, total: ids.length });
      }
    }
  }, 120_000);
  afterAll(() => server?.close());

  /**
   * Runs a nested connection under its root connection for the parent at `index` of the root list
   * (root paging `first: 1` after the previous parent's cursor); `wrapper` selects the root's rows
   * through `nodes` or through `edges { node }` without cursors.
   */
  function nestedRun(n: Connection, index: number, wrapper: 'nodes' | 'edges') {
    const root = rootOf(n);
    return async (args: string, selection: string) => {
      const cursors = lists.get(root.label)?.cursors;
      const after = index > 0 ? `after: ${JSON.stringify(cursors![index - 1])}` : '';
      const rows = `databaseId n: ${n.field}${argList(...n.requiredArgs, args)} { ${selection} }`;
      const data = await ok(
        `{ r: ${root.field}${argList(...root.requiredArgs, 'first: 1', after)} { ${wrapper === 'nodes' ? `nodes { ${rows} }` : `edges { node { ${rows} } }`} } }`,
      );
      const [row] = wrapper === 'nodes' ? data.r.nodes : data.r.edges.map((e: any) => e.node);
      return [row.n];
    };
  }

  /** Both parents in one query (root `first` up to the later one): the nested lists are loaded together. */
  function nestedRunBoth(n: Connection, wrapper: 'nodes' | 'edges') {
    const root = rootOf(n);
    return async (args: string, selection: string) => {
      const both = parents.get(n.label)!;
      const rows = `databaseId n: ${n.field}${argList(...n.requiredArgs, args)} { ${selection} }`;
      const first = Math.max(...both.map((p) => p.index)) + 1;
      const data = await ok(
        `{ r: ${root.field}${argList(...root.requiredArgs, `first: ${first}`)} { ${wrapper === 'nodes' ? `nodes { ${rows} }` : `edges { node { ${rows} } }`} } }`,
      );
      const rowsOut: any[] = wrapper === 'nodes' ? data.r.nodes : data.r.edges.map((e: any) => e.node);
      return both.map((p) => rowsOut.find((r) => r.databaseId === p.id).n);
    };
  }

  it('finds the connections in the schema (root and nested)', () => {
    expect(ROOTS.map((c) => c.label)).toEqual(expect.arrayContaining(['Query.people', 'Query.companies', 'Query.listItems']));
    expect(NESTED.map((c) => c.label)).toEqual(expect.arrayContaining(['Company.people']));
    expect(ROOTS.find((c) => c.label === 'Query.listItems')!.requiredArgs).toEqual([expect.stringMatching(/^kind: [A-Z_]+$/)]);
  });

  describe.each(ROOTS.map((c) => [c.label, c] as const))('%s', (_label, c) => {
    it('holds what was seeded, whole, with a total that agrees', () => {
      const list = lists.get(c.label)!;
      expect(list.ids).toHaveLength(list.total);
      expect(new Set(list.ids).size).toBe(list.ids.length);
      expect(list.total).toBeGreaterThanOrEqual(2 * PAGE + 1);
      expect(list.total).toBeLessThan(MAX_LIST);
    });

    it.each(PAGINGS.map((p) => [p.name, p] as const))('paging: %s', async (_name, paging) => {
      const list = lists.get(c.label)!;
      await checkPaging(runRoot(c), paging, [{ all: list.ids, total: list.total }]);
    });
  });

  describe.each(NESTED.map((n) => [n.label, n] as const))('%s (nested under its root connection)', (_label, n) => {
    it('holds the children seeded under each parent', () => {
      for (const p of parents.get(n.label)!) {
        expect(p.index).toBeGreaterThanOrEqual(0);
        expect(p.all.length).toBeGreaterThanOrEqual(SEEDED);
        if (p.exclusive) for (const id of p.all) expect(p.children.has(id)).toBe(true);
        else for (const id of p.children) expect(p.all).toContain(id);
      }
    });

    describe.each([
      ['root nodes', 'nodes'],
      ['root edges without cursor', 'edges'],
    ] as const)('through %s', (_w, wrapper) => {
      it.each(PAGINGS.map((p) => [p.name, p] as const))('paging: %s', async (_name, paging) => {
        for (const p of parents.get(n.label)!) await checkPaging(nestedRun(n, p.index, wrapper), paging, [{ all: p.all, total: p.total }]);
        // Several parents at once (one batched statement); a cursor belongs to one parent's list, so only the other pagings.
        if (!paging.cursor)
          await checkPaging(
            nestedRunBoth(n, wrapper),
            paging,
            parents.get(n.label)!.map((p) => ({ all: p.all, total: p.total })),
          );
      });
    });
  });
});
