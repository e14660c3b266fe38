import { JsonType, ReferenceKind, type EntityMetadata, type EntityName, type EntityProperty, type MetadataStorage, type Platform } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Where } from './sql';

/*
 * The read path: lists and loaders fetch rows with hand-written SQL (`select *` or `tableOf`'s
 * columns) and turn each row into a read-only projection of the entity (see `hydrate`), without the
 * unit of work. Which properties it can fill from a row, and how, is decided once per entity from
 * the ORM metadata by `readPlan`:
 *
 *   - a scalar with one column is converted as the ORM's own hydrator converts it: a mapped type
 *     (`customType`: decimal, bigint, date, double, arrays, a money type...) through its public
 *     `convertToJSValue`; a timestamptz through `platform.parseDate` (the ORM's pg connection returns
 *     timestamps as text); json/jsonb as pg returns it (pg parses both into JS values, and the
 *     platform says so with `convertsJsonAutomatically()`; the ORM keeps that value as is too);
 *     anything else (text, varchar, enums, int, float, boolean, uuid) as pg returns it;
 *   - a many-to-one, or the owning side of a one-to-one, with one FK column becomes a stub
 *     `{ <target pk>: value }` (the value itself with `mapToPk`); its loader fetches the record;
 *   - hidden and lazy columns (a key hash) are read when a query selects them, and `tableOf`
 *     never selects them.
 *
 * Everything else cannot come out of a row, and would silently be `undefined` on every projection:
 * embedded values, one-to-many and many-to-many collections, inverse one-to-ones, formulas,
 * `ref: true` wrappers, composite foreign keys, types converted in SQL (`convertToJSValueSQL`),
 * timestamps without time zone, single-table inheritance. Such a property is refused, by
 * `checkReadableEntities` when the ORM opens (`openOrm`) and again whenever a mapper is built,
 * naming every `Entity.property`, unless it is excluded explicitly, in one of two ways:
 *
 *   - `persist: false` on the property: no column, and the ORM does not load it either (but a
 *     `@Formula`, which the ORM marks `persist: false` and fills from its own select, is refused);
 *   - an entry in `NOT_READ_FROM_ROWS` below, saying which loader or resolver provides it (a
 *     collection loaded elsewhere). Projections leave it `undefined`.
 */

/** `Entity.property` → where its value comes from instead; projections leave it undefined. */
export const NOT_READ_FROM_ROWS: Readonly<Record<string, string>> = {};

type Convert = (value: unknown) => unknown;

/** How one property is filled from its column. */
type Step =
  | { readonly how: 'copy'; readonly name: string; readonly column: string }
  | { readonly how: 'date'; readonly name: string; readonly column: string }
  | { readonly how: 'convert'; readonly name: string; readonly column: string; readonly convert: Convert }
  | { readonly how: 'reference'; readonly name: string; readonly column: string; readonly key: string; readonly convert: Convert | null };

interface ReadPlan {
  readonly steps: readonly Step[];
  /** `Entity.property: why`, for each property the read path cannot fill; empty when all is well. */
  readonly problems: readonly string[];
  readonly table: string;
  /** Quoted columns to select: every column a step reads but hidden or lazy ones (credentials). */
  readonly columns: readonly string[];
  /** The tenancy column (the `account` relation's), when the entity has one. */
  readonly accountColumn: string | null;
}

const plans = new WeakMap<EntityMetadata, ReadPlan>();

const TIMESTAMPTZ = /^(timestamptz|timestamp(\(\d+\))? with time zone)/i;

/** How the read path fills `prop`: a step, `null` when it deliberately leaves it alone, or why it cannot. */
function stepFor(meta: EntityMetadata, prop: EntityProperty, platform: Platform, excluded: Readonly<Record<string, string>>): Step | null | string {
  if (`${meta.className}.${prop.name}` in excluded) return null;
  // The ORM marks formulas `persist: false` too, but fills them from its own select.
  if (prop.formula) return "a formula: computed by the ORM's select, not a column of the row";
  if (prop.persist === false) return null;
  // A column of an embeddable: its embedded property is the one reported.
  if (prop.embedded) return null;
  const column = prop.fieldNames?.[0];
  switch (prop.kind) {
    case ReferenceKind.SCALAR: {
      if (prop.ref) return 'a ScalarReference (`ref: true`): projections hold plain values';
      if (!column || prop.fieldNames.length !== 1) return `a scalar over ${prop.fieldNames?.length ?? 0} columns`;
      if (prop.hasConvertToJSValueSQL) return `its type ${prop.customType?.constructor.name} converts in SQL (convertToJSValueSQL), which a plain row skips`;
      const type = prop.customType;
      if (type instanceof JsonType && ['json', 'jsonb'].includes(prop.columnTypes[0]) && platform.convertsJsonAutomatically())
        return { how: 'copy', name: prop.name, column };
      if (type) return { how: 'convert', name: prop.name, column, convert: (value) => type.convertToJSValue(value, platform) };
      if (prop.runtimeType === 'Date' && !platform.isNumericProperty(prop)) {
        if (!TIMESTAMPTZ.test(prop.columnTypes[0] ?? '')) return `a Date in a ${prop.columnTypes[0]} column: only timestamptz text carries its offset`;
        return { how: 'date', name: prop.name, column };
      }
      return { how: 'copy', name: prop.name, column };
    }
    case ReferenceKind.MANY_TO_ONE:
    case ReferenceKind.ONE_TO_ONE: {
      if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) return 'the inverse side of a one-to-one: no column in the row';
      if (prop.ref) return 'a Reference (`ref: true`): projections hold `{ id }` stubs, not Reference wrappers';
      const pks = prop.targetMeta?.getPrimaryProps() ?? [];
      if (!column || prop.fieldNames.length !== 1 || pks.length !== 1) return 'a composite foreign key';
      const pkType = pks[0].customType;
      const convert: Convert | null = pkType ? (value) => pkType.convertToJSValue(value, platform) : null;
      if (prop.mapToPk) return convert ? { how: 'convert', name: prop.name, column, convert } : { how: 'copy', name: prop.name, column };
      return { how: 'reference', name: prop.name, column, key: pks[0].name, convert };
    }
    case ReferenceKind.EMBEDDED:
      return 'an embedded value: its columns are not rebuilt into the embeddable';
    case ReferenceKind.ONE_TO_MANY:
    case ReferenceKind.MANY_TO_MANY:
      return `a ${prop.kind} collection: no column in the row`;
    default:
      return `a property of kind ${String(prop.kind)}`;
  }
}

/** The read plan of an entity (built once per metadata object). */
function readPlan(meta: EntityMetadata, platform: Platform, excluded: Readonly<Record<string, string>> = NOT_READ_FROM_ROWS): ReadPlan {
  const cached = excluded === NOT_READ_FROM_ROWS ? plans.get(meta) : undefined;
  if (cached) return cached;
  const steps: Step[] = [];
  const problems: string[] = [];
  const columns: string[] = [];
  let accountColumn: string | null = null;
  if (meta.discriminatorColumn || meta.discriminatorValue != null) {
    problems.push(`${meta.className}: single-table inheritance (every row would get one prototype)`);
  }
  for (const prop of meta.props) {
    const step = stepFor(meta, prop, platform, excluded);
    if (step === null) continue;
    if (typeof step === 'string') {
      problems.push(`${meta.className}.${prop.name}: ${step}`);
      continue;
    }
    steps.push(step);
    if (prop.name === 'account' && prop.kind === ReferenceKind.MANY_TO_ONE) accountColumn = step.column;
    // Hidden and lazy properties (a key hash) are never read where they are not asked for by name.
    if (!prop.hidden && !prop.lazy) columns.push(`"${step.column}"`);
  }
  const plan: ReadPlan = { steps, problems, table: meta.tableName, columns, accountColumn };
  if (excluded === NOT_READ_FROM_ROWS) plans.set(meta, plan);
  return plan;
}

/** Entities the read path may be asked to read: tables of their own (not embeddables, views or abstract bases). */
function readableCandidates(metadata: MetadataStorage): EntityMetadata[] {
  return Object.values(metadata.getAll()).filter(
    (meta) => !meta.embeddable && !meta.virtual && !meta.pivotTable && (!meta.abstract || meta.discriminatorColumn),
  );
}

/** Every `Entity.property: why` the read path cannot fill from a row (see the rule at the top of this file). */
export function unreadableProperties(metadata: MetadataStorage, platform: Platform, excluded: Readonly<Record<string, string>> = NOT_READ_FROM_ROWS): string[] {
  return readableCandidates(metadata).flatMap((meta) => readPlan(meta, platform, excluded).problems);
}

export class UnreadableEntityError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `The read path (src/db/list-query.ts) cannot fill these properties from a row, so list and loader results would leave them undefined:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        `\nRead them another way and mark them \`persist: false\` or list them in NOT_READ_FROM_ROWS, or teach list-query.ts to read them.`,
    );
    this.name = 'UnreadableEntityError';
  }
}

/** Called once when the ORM opens: refuses to start when an entity has a property the read path cannot fill. */
export function checkReadableEntities(metadata: MetadataStorage, platform: Platform, excluded: Readonly<Record<string, string>> = NOT_READ_FROM_ROWS): void {
  const problems = unreadableProperties(metadata, platform, excluded);
  if (problems.length) throw new UnreadableEntityError(problems);
}

function checkedPlan(em: EntityManager, entity: EntityName<object>): ReadPlan {
  const plan = readPlan(em.getMetadata(entity), em.getPlatform());
  if (plan.problems.length) throw new UnreadableEntityError(plan.problems);
  return plan;
}

type RowMapper = (row: Record<string, unknown>) => object;
const mappers = new WeakMap<EntityMetadata, Map<string, RowMapper>>();

/**
 * Some of an entity's properties, for a read that needs no more (the convenience objects of a
 * page: a person's names, a company's name). The id and the tenancy column are always read; every
 * other property of a record read so is `undefined`, so a read set is only made from what its
 * consumer declares it reads (see `src/graphql/read-set.ts`). `key` names it in caches.
 */
export interface ReadSet {
  readonly key: string;
  readonly props: ReadonlySet<string>;
}

/** The read set of `props` (plus the id and the account), or null (every column) when any is not a property the read path fills. */
const readSets = new WeakMap<EntityMetadata, Map<string, ReadSet | null>>();

export function readSetOf(em: EntityManager, entity: EntityName<object>, props: Iterable<string>): ReadSet | null {
  const wanted = new Set<string>(props);
  const meta = em.getMetadata(entity);
  let known = readSets.get(meta);
  if (!known) readSets.set(meta, (known = new Map()));
  const asked = [...wanted].sort().join(',');
  if (known.has(asked)) return known.get(asked)!;
  const made = makeReadSet(checkedPlan(em, entity), wanted);
  known.set(asked, made);
  return made;
}

function makeReadSet(plan: ReadPlan, wanted: ReadonlySet<string>): ReadSet | null {
  const kept = plan.steps.filter((step) => step.name === 'id' || step.column === plan.accountColumn || wanted.has(step.name));
  for (const name of wanted) if (!kept.some((step) => step.name === name)) return null;
  if (kept.length === plan.steps.length) return null;
  const names = kept.map((step) => step.name);
  return { key: names.join(','), props: new Set(names) };
}

function stepsOf(plan: ReadPlan, readSet: ReadSet | null | undefined): readonly Step[] {
  return readSet ? plan.steps.filter((step) => readSet.props.has(step.name)) : plan.steps;
}

/**
 * A mapper from a row to an object shaped like the entity: its prototype (so getters and
 * TypeGraphQL see an instance) and every property its read plan fills. Built once per entity.
 */
function mapperFor(em: EntityManager, entity: EntityName<object>, readSet?: ReadSet | null): RowMapper {
  const meta = em.getMetadata(entity);
  let byReadSet = mappers.get(meta);
  if (!byReadSet) mappers.set(meta, (byReadSet = new Map()));
  let mapper = byReadSet.get(readSet?.key ?? '*');
  if (mapper) return mapper;
  const steps = stepsOf(checkedPlan(em, entity), readSet);
  const platform = em.getPlatform();
  // MikroORM puts change-tracking setters for every property on the entity prototype; assigning
  // through them builds a WrappedEntity per object. The read-only prototype shadows them with
  // plain data properties, so rows stay cheap while still being `instanceof` the entity class.
  const proto = Object.create(meta.class.prototype) as object;
  for (const prop of meta.props) Object.defineProperty(proto, prop.name, { value: undefined, writable: true, enumerable: false, configurable: true });
  // Generated once per entity: a straight-line function assigns every property in one fixed
  // order, so all rows share one hidden class (a loop over 50 columns did not, and showed in the
  // profile). Names and columns come from the ORM metadata, quoted as JSON strings; conversions
  // are passed in by index.
  const k = JSON.stringify;
  const converters: Convert[] = [];
  const converter = (convert: Convert) => `convert[${converters.push(convert) - 1}](v)`;
  const body = [
    'const o = Object.create(proto);',
    ...steps.map((step) => {
      const read = `row[${k(step.column)}]`;
      const set = (value: string) => `{ const v = ${read}; o[${k(step.name)}] = v == null ? v : ${value}; }`;
      switch (step.how) {
        case 'copy':
          return `o[${k(step.name)}] = ${read};`;
        case 'date':
          return set('parseDate(v)');
        case 'convert':
          return set(converter(step.convert));
        case 'reference':
          return set(`{ ${k(step.key)}: ${step.convert ? converter(step.convert) : 'v'} }`);
      }
    }),
    'return o;',
  ].join('\n');
  mapper = new Function('proto', 'parseDate', 'convert', `return function mapRow(row) {\n${body}\n};`)(
    proto,
    (v: string) => platform.parseDate(v),
    converters,
  ) as RowMapper;
  byReadSet.set(readSet?.key ?? '*', mapper);
  return mapper;
}

interface TableInfo {
  readonly table: string;
  /** Quoted columns to select: every column the read path fills but hidden or lazy ones (credentials). */
  readonly columns: readonly string[];
  /** The tenancy column (the `account` relation's), when the entity has one. */
  readonly accountColumn: string | null;
}

/** Table, selectable columns and tenancy column of an entity, from the ORM metadata (built once). */
export function tableOf(em: EntityManager, entity: EntityName<object>, readSet?: ReadSet | null): TableInfo {
  const plan = checkedPlan(em, entity);
  if (!readSet) return plan;
  return { ...plan, columns: plan.columns.filter((column) => stepsOf(plan, readSet).some((step) => `"${step.column}"` === column)) };
}

/**
 * Read-only projection of rows fetched by hand, for lists and loaders: objects shaped like the
 * entity, not managed by the unit of work (no identity map, no change-set snapshot, no reference
 * wrappers). Building managed entities (`em.map`, `em.merge`) cost ~20 ms per 100 rows (measured
 * by the bench); this costs well under 1 ms. Never persist or flush these: writes load their
 * record through the EntityManager, and relations are set with `em.getReference`.
 */
export function hydrate<T extends object>(em: EntityManager, entity: EntityName<T>, rows: Record<string, unknown>[], readSet?: ReadSet | null): T[] {
  const map = mapperFor(em, entity as EntityName<object>, readSet);
  return rows.map((row) => map(row) as T);
}

/** One record by id within `where` (tenancy and visibility), as a read-only projection; null when absent or unseen. */
export async function findOneRow<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  from: string,
  alias: string,
  id: number,
  where: Where,
): Promise<T | null> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select ${alias}.* from ${from} where ${alias}.id = ? and ${where.sql} limit 1`,
    [id, ...where.params],
    'all',
  );
  return rows.length ? hydrate(em, entity, rows)[0] : null;
}
