import {
  getNamedType,
  getNullableType,
  isObjectType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { setLogSink } from '../../src/common/logger';
import type { TestResponse } from './test-server';

/**
 * Small shared pieces of the schema-driven property and fuzz tests (graphql-cost-property,
 * graphql-fuzz): a seeded PRNG, a bounded-concurrency runner, GraphQL literal rendering and a
 * capture of the server's error log by request id.
 */

/** mulberry32: a tiny seeded PRNG, so every generated case is the same on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** 0 .. n-1 */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  /** Up to `max` distinct items, at least `min`. */
  some<T>(items: readonly T[], min: number, max: number): T[] {
    const n = Math.min(items.length, min + this.int(Math.max(0, max - min) + 1));
    return this.shuffle(items).slice(0, n);
  }
}

/** Runs `fn` over `items`, at most `concurrency` at a time, keeping the order of the results. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

type AnyField = GraphQLField<unknown, unknown>;

/** A paged list (as src/graphql/cost.ts tells one): it takes `first` and answers an object (a plain list with `first` is not one). */
export const isConnectionField = (field: AnyField): boolean => field.args.some((a) => a.name === 'first') && !isListType(getNullableType(field.type));

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * A JS value as a GraphQL literal for a position of `type` (null: unknown, e.g. inside a JSON
 * scalar). Enum positions render name-like strings bare (so an unknown enum value stays an enum
 * literal); anything that cannot be written as a literal (NaN, an object key that is not a name)
 * throws `NoLiteral`.
 */
export class NoLiteral extends Error {}

export function toLiteral(value: unknown, type: GraphQLInputType | null): string {
  const inner = type ? (getNullableType(type) as GraphQLInputType) : null;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NoLiteral(`number ${value}`);
    return Object.is(value, -0) ? '0' : String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    if (inner && isEnumType(inner) && NAME.test(value) && !['true', 'false', 'null'].includes(value)) return value;
    return JSON.stringify(value);
  }
  if (inner && isListType(inner) && !Array.isArray(value)) return toLiteral(value, inner.ofType as GraphQLInputType); // one item for a list
  if (Array.isArray(value)) {
    const item = inner && isListType(inner) ? (inner.ofType as GraphQLInputType) : inner;
    return `[${value.map((v) => toLiteral(v, item)).join(', ')}]`;
  }
  if (typeof value === 'object') {
    const fields = inner && isInputObjectType(inner) ? inner.getFields() : null;
    const parts = Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      if (!NAME.test(k)) throw new NoLiteral(`key ${k}`);
      return `${k}: ${toLiteral(v, fields?.[k]?.type ?? null)}`;
    });
    return `{${parts.join(', ')}}`;
  }
  throw new NoLiteral(typeof value);
}

export interface NodeRecord {
  readonly typeName: string;
  /** Global id. */
  readonly id: string;
  readonly databaseId: number;
}

/**
 * Every record the key's user can list, read through the API: each root connection (one alias per
 * value of a required enum argument such as `listItems(kind:)`) and each root object without
 * arguments (`viewer`, `account`), when its records have `id` and `databaseId`.
 */
export async function collectRecords(schema: GraphQLSchema, graphql: (query: string) => Promise<TestResponse>): Promise<NodeRecord[]> {
  const query = schema.getQueryType()!;
  const reads: string[] = [];
  for (const field of Object.values(query.getFields()) as AnyField[]) {
    const named = getNamedType(field.type);
    const connection = field.args.some((a) => a.name === 'first');
    const nodesType = connection && isObjectType(named) ? named.getFields().nodes?.type : undefined;
    const recordType = connection ? (nodesType ? getNamedType(nodesType) : undefined) : named;
    if (!recordType || !isObjectType(recordType) || !recordType.getFields().id || !recordType.getFields().databaseId) continue;
    const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
    if (connection) {
      const enumArg = required.find((a) => isEnumType(getNamedType(a.type)));
      if (required.length > (enumArg ? 1 : 0)) continue;
      const enumType = enumArg ? getNamedType(enumArg.type) : null;
      const values = enumType && isEnumType(enumType) ? enumType.getValues().map((v) => v.name) : [null];
      values.forEach((v, i) =>
        reads.push(`r_${field.name}_${i}: ${field.name}(first: 200${v ? `, ${enumArg!.name}: ${v}` : ''}) { nodes { __typename id databaseId } }`),
      );
    } else if (field.args.length === 0 && !isListType(getNullableType(field.type))) {
      reads.push(`r_${field.name}: ${field.name} { __typename id databaseId }`);
    }
  }
  const res = await graphql(`{ ${reads.join(' ')} }`);
  if (res.status !== 200 || res.body?.errors) throw new Error(`reading the records failed: ${short(res.body ?? res.text)}`);
  const seen = new Map<string, NodeRecord>();
  for (const value of Object.values(res.body.data as Record<string, unknown>)) {
    const list = ((value as { nodes?: unknown[] }).nodes ?? [value]) as Array<{ __typename: string; id: string; databaseId: number }>;
    for (const r of list) seen.set(r.id, { typeName: r.__typename, id: r.id, databaseId: r.databaseId });
  }
  return [...seen.values()];
}

/** Server log lines, by request id, while a test runs (restore in afterAll). */
export function captureServerLog(): { byRequest(id: string | null): string[]; all(): string[]; restore(): void } {
  const lines: string[] = [];
  const byId = new Map<string, string[]>();
  setLogSink((line) => {
    lines.push(line);
    try {
      const parsed = JSON.parse(line) as { requestId?: string };
      if (parsed.requestId) byId.set(parsed.requestId, [...(byId.get(parsed.requestId) ?? []), line]);
    } catch {
      // not JSON: kept in `all` only
    }
  });
  return {
    byRequest: (id) => (id ? (byId.get(id) ?? []) : []),
    all: () => lines,
    restore: () => setLogSink(null),
  };
}

/** The error codes of a /graphql response. */
export const errorCodes = (res: TestResponse): string[] =>
  ((res.body?.errors ?? []) as Array<{ extensions?: { code?: string } }>).map((e) => e.extensions?.code ?? '(none)');

/** Truncated JSON for failure messages. */
export function short(value: unknown, max = 600): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) return 'undefined';
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/**
 * Records of every type the schema can create: each `create…` mutation is called `perMutation`
 * times (once per value of a required enum argument, such as `createListItem(kind:)`), with only
 * the required input fields, filled from their names and types: `…Id` with a record of that type
 * (`dealStageId` → a DealStage; else any record), strings with a unique text, enums with their first
 * value. Types created earlier serve later ones (two passes). Mutations that refuse what this makes
 * up are reported in the result, not thrown: a fixture factory, not a test.
 */
export async function seedThroughMutations(
  schema: GraphQLSchema,
  graphql: (query: string, variables?: Record<string, unknown>) => Promise<TestResponse>,
  existing: readonly NodeRecord[],
  perMutation = 3,
): Promise<{ created: NodeRecord[]; failed: string[] }> {
  const mutation = schema.getMutationType();
  const created: NodeRecord[] = [];
  const failed = new Map<string, string>();
  if (!mutation) return { created, failed: [] };
  const records = () => [...existing, ...created];
  let serial = 0;
  const value = (type: GraphQLInputType, name: string, depth: number): unknown => {
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) return [value(inner.ofType as GraphQLInputType, name, depth + 1)];
    if (isEnumType(inner)) return inner.getValues()[0].name;
    if (isInputObjectType(inner)) {
      const out: Record<string, unknown> = {};
      if (depth < 4)
        for (const f of Object.values(inner.getFields()))
          if (isNonNullType(f.type) && f.defaultValue === undefined) out[f.name] = value(f.type, f.name, depth + 1);
      return out;
    }
    const typeName = name.replace(/Ids?$/, '').replace(/^./, (c) => c.toUpperCase());
    const ofType = records().filter((r) => r.typeName === typeName);
    const any = ofType.length ? ofType : records();
    switch (inner.name) {
      case 'Int':
        return /Ids?$/.test(name) && any.length ? any[serial++ % any.length].databaseId : 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'ID':
        return any.length ? any[serial++ % any.length].id : 'x';
      case 'DateTimeISO':
        return new Date(Date.UTC(2026, 0, 1 + (serial++ % 28))).toISOString();
      case 'String':
        // A document's `url` must be an http(s) URL (nothing fetches it in tests).
        return /date/i.test(name) ? '2026-01-31' : name === 'url' ? `https://files.example.test/seed-${++serial}.pdf` : `Seed ${name} ${++serial}`;
      default:
        return {};
    }
  };
  for (let pass = 0; pass < 2; pass++) {
    for (const field of Object.values(mutation.getFields()) as AnyField[]) {
      if (!/^create/.test(field.name) || (pass === 1 && !failed.has(field.name))) continue;
      const record = Object.values((getNamedType(field.type) as { getFields?: () => Record<string, AnyField> }).getFields?.() ?? {}).find(
        (f) => isObjectType(getNamedType(f.type)) && 'id' in (getNamedType(f.type) as { getFields(): object }).getFields(),
      );
      if (!record) continue;
      const enumArg = field.args.find((a) => isNonNullType(a.type) && isEnumType(getNamedType(a.type)));
      const enumType = enumArg ? getNamedType(enumArg.type) : null;
      const enumValues = enumType && isEnumType(enumType) ? enumType.getValues().map((v) => v.name) : [null];
      const calls: string[] = [];
      const variables: Record<string, unknown> = {};
      const defs: string[] = [];
      for (const enumValue of enumValues) {
        for (let i = 0; i < perMutation; i++) {
          const args: string[] = [];
          for (const arg of field.args) {
            if (!isNonNullType(arg.type) || arg.defaultValue !== undefined) continue;
            const name = `a${calls.length}_${arg.name}`;
            defs.push(`$${name}: ${String(arg.type)}`);
            variables[name] = arg === enumArg ? enumValue : value(arg.type, arg.name, 0);
            args.push(`${arg.name}: $${name}`);
          }
          calls.push(`c${calls.length}: ${field.name}(${args.join(', ')}) { ${record.name} { __typename id databaseId } }`);
        }
      }
      const res = await graphql(`mutation Seed${defs.length ? `(${defs.join(', ')})` : ''} { ${calls.join(' ')} }`, variables);
      const data = (res.body?.data ?? {}) as Record<string, Record<string, { __typename: string; id: string; databaseId: number } | null> | null>;
      let made = 0;
      for (const payload of Object.values(data)) {
        const r = payload?.[record.name];
        if (r) {
          created.push({ typeName: r.__typename, id: r.id, databaseId: r.databaseId });
          made++;
        }
      }
      if (made === 0) failed.set(field.name, short(res.body?.errors?.[0]?.message ?? res.body ?? res.text, 120));
      else failed.delete(field.name);
    }
  }
  return { created, failed: [...failed].map(([name, why]) => `${name}: ${why}`) };
}
