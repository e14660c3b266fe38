import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityClass } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Extensions, Field, Float, InputType, Int, registerEnumType, type ClassType } from 'type-graphql';
import type { Issues } from '../common/errors';
import type { Viewer } from '../context/viewer';
import type { VisibilityRule } from '../context/visibility';
import { orderKeysOf, type KeyType, type OrderColumn, type OrderKey } from '../db/keyset';
import { OrderDirection } from '../graphql/connection';
import { GraphQLDecimal } from '../graphql/decimal';
import { registerFieldDocs } from '../graphql/field-docs';
import {
  BooleanFilter,
  DateFilter,
  DateTimeFilter,
  FloatFilter,
  IdFilter,
  IntFilter,
  StringFilter,
  compileFilter,
  markRelatedRecords,
  type FilterField,
} from '../graphql/filters';
import { assignFields } from './assign';
import { sourcePath } from './source-path';

/**
 * The field kit: a resource declares each field once, in one table, and everything that follows
 * from a field is derived from that line: the GraphQL create and update inputs, the filter input
 * and its SQL, the order enum and its SQL (columns and nullability from the ORM metadata, the
 * case rule stated), the write whitelist and the field docs. A writable field is either copied by
 * the kit (`write: 'auto'`) or applied by the service, which must name it (`writes({ custom })`
 * fails at boot otherwise): a field cannot be declared writable and silently never written.
 */

/** What a field holds, as the API shows it. */
/** `decimal`: exact decimal text (money), shown and written as a string. */
export type FieldKind = 'text' | 'int' | 'float' | 'decimal' | 'boolean' | 'datetime' | 'date' | 'ref' | 'refs' | 'enum' | 'json';

/**
 * How a writable field is written: `auto` copied as given (length and not-null checked against the
 * column), `create` the same on create only (ignored on update: clients PUT back what they read),
 * `custom` by the service's own rule (relations, derived values, conversions).
 */
export type WriteMode = 'auto' | 'create' | 'custom';

/** A text key orders ignoring case (`lower(x)`) or as stored: stated per field, never implied. */
export type CaseRule = 'ci' | 'cs';

export interface SortDef {
  /** The enum value's name when it is not the field's name in UPPER_SNAKE (`databaseId` → `ID`). */
  readonly as?: string;
  /** Text keys: the case rule (required for text). */
  readonly case?: CaseRule;
  /** An expression instead of the field's column (a subquery); `nullable` and `type` must then be given. */
  readonly sql?: string;
  readonly nullable?: boolean;
  readonly type?: KeyType;
  readonly doc?: string;
}

/**
 * What a filter is compiled for: the unit of work and the viewer. Conditions on the record's own
 * columns need neither; a condition on related records reads the related resource's rows the
 * viewer may see (src/modules/common/related-filters.ts), so it needs both.
 */
export interface FilterScope {
  readonly em: EntityManager;
  readonly viewer: Viewer;
}

export interface FilterDef {
  /** Expressions instead of the field's column (any of several: `anyPhone`). */
  readonly sql?: string | readonly string[];
  /** Indexed expressions serving `contains` / `startsWith` (see FilterField). */
  readonly containsSql?: string;
  readonly startsWithSql?: string;
  /**
   * A condition built by the resource (a search box, a condition on related records); its input
   * type is `input`. `scope` reaches the related resources' own filters and visibility.
   */
  readonly build?: (value: never, path: string, scope: FilterScope) => { sql: string; params: unknown[] } | null;
  /**
   * The GraphQL type of the records this condition reads besides the filtered one's own row (a
   * deal's people): declared by the related-records helpers (src/modules/common/related-filters.ts),
   * which see only what the viewer may see of them. Shown in the schema as the filter field's
   * `relatedRecords` extension, which the relation-filter probe reads (test/contract/relation-filters.test.ts).
   */
  readonly related?: string;
  /** The operator input when the kind's default is not it (an enum's `XTypeFilter`, a search's String). */
  readonly input?: () => ClassType | typeof String | [ClassType];
  readonly doc?: string;
}

/** One field of a resource, declared once. */
export interface FieldDef {
  readonly kind: FieldKind;
  /** For `enum`: the enum registered with TypeGraphQL. */
  readonly enum?: object;
  /**
   * The entity property it reads (column from the ORM metadata). Default: the field's name, or for
   * a `ref` named `xId` the relation `x`. `null`: no column (an input-only or filter-only field).
   */
  readonly property?: string | null;
  /** What the field is, for every place it appears (type, inputs, filter, order). */
  readonly doc?: string;
  /** Writable, and how (absent: read-only). */
  readonly write?: WriteMode;
  /** The input's GraphQL type when it is not the kind's scalar (a list of input objects, e.g. typed custom field values). */
  readonly inputType?: () => unknown;
  /** Required on create (non-null in the create input; still optional on update). */
  readonly required?: boolean;
  /** Input description when it says more than `doc` (defaults, what null means). */
  readonly inputDoc?: string;
  readonly createDoc?: string;
  readonly updateDoc?: string;
  /**
   * Why the field's inputs are deprecated: `@deprecated(reason:)` on the create and update inputs
   * (the object type's field says it where it is declared). GraphQL deprecates only an optional
   * input field, so a `required` field cannot be.
   */
  readonly inputDeprecation?: string;
  /** Filterable: operators by kind (text StringFilter, refs IdFilter, ...). */
  readonly filter?: true | FilterDef;
  /** Sortable: `ci`/`cs` for text, `true` otherwise, or the details. */
  readonly sort?: true | CaseRule | SortDef;
  /** The v3 key when it is not the field's name in snake_case (read by the facade from the schema). */
  readonly v3?: string;
}

export type FieldTable = Readonly<Record<string, FieldDef>>;

type Scalar<K extends FieldKind> = K extends 'text' | 'date' | 'decimal'
  ? string
  : K extends 'int' | 'float' | 'ref'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'datetime'
        ? Date
        : K extends 'refs'
          ? number[]
          : K extends 'json'
            ? Record<string, unknown>
            : string;

type ValueOf<D extends FieldDef> = D['kind'] extends 'enum' ? (D['enum'] extends object ? D['enum'][keyof D['enum']] : string) : Scalar<D['kind']>;

/** The input a service receives: every writable field, absent = unchanged, null = cleared. */
export type InputOf<T extends FieldTable> = { -readonly [K in keyof T as T[K]['write'] extends WriteMode ? K : never]?: ValueOf<T[K]> | null };

/** The filter input's shape: each filterable field's operators, composed with and/or/not. */
export type FilterOf<T extends FieldTable> = {
  [K in keyof T as T[K]['filter'] extends true | FilterDef ? K : never]?: unknown;
} & { and?: FilterOf<T>[] | null; or?: FilterOf<T>[] | null; not?: FilterOf<T> | null };

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const lowerSnake = (name: string) => upperSnake(name).toLowerCase();

const SCALARS: Record<Exclude<FieldKind, 'enum'>, () => unknown> = {
  text: () => String,
  date: () => String,
  decimal: () => GraphQLDecimal,
  int: () => Int,
  float: () => Float,
  boolean: () => Boolean,
  datetime: () => Date,
  ref: () => Int,
  refs: () => [Int],
  json: () => GraphQLJSONObject,
};

const OPERATORS: Record<Exclude<FieldKind, 'enum' | 'json'>, () => ClassType> = {
  text: () => StringFilter,
  decimal: () => FloatFilter,
  date: () => DateFilter,
  int: () => IntFilter,
  float: () => FloatFilter,
  boolean: () => BooleanFilter,
  datetime: () => DateTimeFilter,
  ref: () => IdFilter,
  refs: () => IdFilter,
};

const FILTER_KINDS: Record<Exclude<FieldKind, 'enum' | 'json' | 'date' | 'text'>, FilterField['kind']> = {
  int: 'number',
  decimal: 'number',
  float: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  ref: 'id',
  refs: 'idArray',
};

const CURSOR_TYPES: Partial<Record<FieldKind, KeyType>> = {
  text: 'text',
  enum: 'text',
  int: 'int',
  ref: 'int',
  float: 'numeric',
  decimal: 'numeric',
  datetime: 'timestamp',
  boolean: 'bool',
  date: 'date',
};

export interface Names {
  /** The GraphQL type of the records, e.g. `Person`. */
  readonly type: string;
  /** Its plural, in descriptions (`people`). */
  readonly plural: string;
  readonly entity: EntityClass<object>;
  /** The table's alias in conditions, e.g. `p`. */
  readonly alias: string;
  /** Order when none is asked (field names; `-name` descending). */
  readonly defaultOrder: readonly string[];
  readonly createDoc: string;
  readonly updateDoc: string;
  readonly filterDoc: string;
  /** The order enum's description, when it says more than "A key <plural> can be ordered by." */
  readonly orderDoc?: string;
  /**
   * Who sees which records (context/visibility.ts), when the table is also the record resource's
   * declaration (modules/common/record-resource.ts). Resources whose rule other field tables read
   * keep it in their `*.visibility.ts`, so that their tables do not import each other.
   */
  readonly visibility?: VisibilityRule<never>;
}

/** What the kit derives from a resource's table. */
export interface Resource<T extends FieldTable> {
  readonly names: Names;
  readonly table: T;
  readonly CreateInput: ClassType<InputOf<T>>;
  readonly UpdateInput: ClassType<InputOf<T>>;
  readonly Filter: ClassType<FilterOf<T>>;
  /** The `XOrderField` enum: UPPER_SNAKE names, lower_snake values. */
  readonly OrderField: Readonly<Record<string, string>>;
  readonly Order: ClassType<{ field: string; direction: OrderDirection }>;
  /**
   * The SQL condition of a filter (the filtered records' tenancy and visibility are the caller's;
   * conditions on related records apply the related records' own); errors name `argument`.
   */
  filterSql(scope: FilterScope, filter: FilterOf<T> | null | undefined, argument?: string): { sql: string; params: unknown[] };
  /** The order keys of an `orderBy` argument, the default order when none. */
  orderKeys(em: EntityManager, orderBy: ReadonlyArray<{ field: string; direction: 'ASC' | 'DESC' }> | null | undefined): readonly OrderKey[];
  /**
   * The write plan: the kit copies `auto` (and on create `create`) fields; the service names every
   * `custom` field it applies, exactly (checked here, once, when the module loads).
   */
  writes<C extends readonly (keyof InputOf<T> & string)[]>(custom: C): WritePlan<T>;
}

export interface WritePlan<T extends FieldTable> {
  /** Copies the kit's fields present in `input` onto `record` (lengths and not-null checked). */
  assign(em: EntityManager, record: object, input: InputOf<T>, issues: Issues, isNew: boolean): void;
}

/** Every field table declared, for the boot check (checkFieldTables). */
const DECLARED: Array<{ readonly names: Names; readonly table: FieldTable }> = [];

/** The entity property a field reads: its `property`, else its name, or for a `ref` named `xId` the relation `x`; null for none. */
function propertyOf(name: string, def: FieldDef): string | null {
  if (def.property !== undefined) return def.property;
  return def.kind === 'ref' && name.endsWith('Id') && name !== 'databaseId' ? name.slice(0, -2) : name;
}

/** A field that needs its entity property: copied by the kit, or filtered or sorted on its own column. */
function needsColumn(def: FieldDef): boolean {
  const filter = def.filter === true ? {} : def.filter;
  const sort = def.sort === true || typeof def.sort === 'string' ? {} : def.sort;
  return def.write === 'auto' || def.write === 'create' || (filter !== undefined && !filter.sql && !filter.build) || (sort !== undefined && !sort.sql);
}

/** What the ORM's metadata says of an entity, as far as the check reads it. */
export interface EntityFacts {
  readonly className: string;
  /** The entity's source file, as the ORM found it. */
  readonly path?: string;
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * Every declared field that the kit copies, filters or sorts must be a property of its entity
 * (else a write would drop the value, and a filter or sort fail when asked): checked at boot, once
 * the ORM has read the entities, naming the field and the file to change.
 */
export function checkFieldTables(entityOf: (entity: EntityClass<object>) => EntityFacts | undefined): string[] {
  const problems: string[] = [];
  for (const { names, table } of DECLARED) {
    const meta = entityOf(names.entity);
    if (!meta) {
      problems.push(`${names.type}: the entity ${names.entity.name} is not registered with the ORM (add it to its module's entities)`);
      continue;
    }
    for (const [name, def] of Object.entries(table)) {
      const property = propertyOf(name, def);
      if (property === null || property === 'databaseId' || !needsColumn(def) || meta.properties[property]) continue;
      const file = meta.path ? sourcePath(meta.path) : `the ${meta.className} entity`;
      problems.push(
        `${names.type}.${name}: ${meta.className} has no property ${property}; declare it in ${file} (with its migration), or give the field \`property: null\` and its own expression`,
      );
    }
  }
  return problems;
}

/**
 * Declares a resource's fields: `defineResource({ type: 'Person', ... }, { firstName: {...}, ... })`.
 * The GraphQL input and enum types are registered at once (before the schema is built).
 */
export function defineResource<const T extends FieldTable>(names: Names, table: T): Resource<T> {
  const entries = Object.entries(table) as Array<[string, FieldDef]>;
  for (const [name, def] of entries)
    if (def.inputDeprecation && def.required)
      throw new Error(`${names.type}.${name}: a required input field cannot be deprecated (GraphQL deprecates optional ones only)`);
  DECLARED.push({ names, table });
  const docs: Record<string, string> = {};
  for (const [name, def] of entries) if (def.doc && def.property !== null) docs[`${names.type}.${name}`] = def.doc;

  // Inputs: one abstract class of the writable fields, the required ones non-null on create.
  const inputField = (cls: ClassType, name: string, def: FieldDef, nullable: boolean, doc: string | undefined) => {
    const type = def.inputType ?? (def.kind === 'enum' ? () => def.enum as object : SCALARS[def.kind]);
    Field(type as () => unknown as never, {
      nullable,
      ...(doc ? { description: doc } : {}),
      ...(def.inputDeprecation ? { deprecationReason: def.inputDeprecation } : {}),
    })(cls.prototype, name);
    // The v3 facade shows a field no v3 table lists under this name (rest-facade/resources/derived.ts).
    if (def.v3) Extensions({ v3: def.v3 })(cls.prototype, name);
  };
  const writable = entries.filter(([, d]) => d.write);
  const makeInput = (typeName: string, create: boolean, description: string) => {
    const cls = class {} as ClassType;
    Object.defineProperty(cls, 'name', { value: typeName });
    for (const [name, def] of writable) {
      const doc = (create ? def.createDoc : def.updateDoc) ?? def.inputDoc ?? def.doc;
      inputField(cls, name, def, !(create && def.required), doc);
    }
    InputType(typeName, { description })(cls);
    return cls;
  };
  const CreateInput = makeInput(`${names.type}CreateInput`, true, names.createDoc);
  const UpdateInput = makeInput(`${names.type}UpdateInput`, false, names.updateDoc);

  // Filter: operators per kind, composed with and/or/not.
  const filterable = entries.filter(([, d]) => d.filter);
  const Filter = class {} as ClassType;
  Object.defineProperty(Filter, 'name', { value: `${names.type}Filter` });
  Field(() => [Filter], { nullable: true, description: 'Every one of these filters holds (and/or/not nest at most 5 levels).' })(Filter.prototype, 'and');
  Field(() => [Filter], { nullable: true, description: 'At least one of these filters holds; an empty list matches none.' })(Filter.prototype, 'or');
  Field(() => Filter, { nullable: true, description: 'This filter does not hold.' })(Filter.prototype, 'not');
  for (const [name, def] of filterable) {
    const spec = def.filter === true ? {} : (def.filter as FilterDef);
    const input = spec.input ?? (def.kind === 'enum' || def.kind === 'json' ? null : OPERATORS[def.kind]);
    if (!input) throw new Error(`${names.type}.${name}: a filter on a ${def.kind} field needs its input`);
    Field(input as never, { nullable: true, description: spec.doc ?? def.doc ?? name })(Filter.prototype, name);
    // The v3 facade names the condition it derives for this field by it (src/kit/v3/vocabulary.ts).
    if (def.v3) Extensions({ v3: def.v3 })(Filter.prototype, name);
    if (spec.related) {
      if (!spec.build) throw new Error(`${names.type}.${name}: a condition on related records is built by its helper`);
      markRelatedRecords(spec.related)(Filter.prototype, name);
    }
  }
  InputType(`${names.type}Filter`, { description: names.filterDoc })(Filter);

  // Order: an enum of the sortable fields.
  const sortable = entries.filter(([, d]) => d.sort);
  const OrderField: Record<string, string> = {};
  const valuesConfig: Record<string, { description: string }> = {};
  const sortOf = (name: string, def: FieldDef): SortDef => (def.sort === true ? {} : typeof def.sort === 'string' ? { case: def.sort } : (def.sort as SortDef));
  for (const [name, def] of sortable) {
    const sort = sortOf(name, def);
    const key = sort.as ?? upperSnake(name);
    OrderField[key] = sort.as ? sort.as.toLowerCase() : lowerSnake(name);
    valuesConfig[key] = { description: sort.doc ?? def.doc ?? name };
    if ((def.kind === 'text' || def.kind === 'enum') && !sort.case && !sort.sql)
      throw new Error(`${names.type}.${name}: a text sort states its case rule ('ci' or 'cs')`);
  }
  registerEnumType(OrderField, { name: `${names.type}OrderField`, description: names.orderDoc ?? `A key ${names.plural} can be ordered by.`, valuesConfig });
  const Order = class {
    field!: string;
    direction: OrderDirection = OrderDirection.ASC;
  } as ClassType<{ field: string; direction: OrderDirection }>;
  Object.defineProperty(Order, 'name', { value: `${names.type}Order` });
  Field(() => OrderField, { description: 'What to order by.' })(Order.prototype, 'field');
  Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Ascending (default) or descending.' })(Order.prototype, 'direction');
  InputType(`${names.type}Order`, {
    description: `One ordering key of a list of ${names.plural}; several keys order by the first, then the next, ... and finally by databaseId.`,
  })(Order);

  registerFieldDocs(docs);

  // SQL, from the ORM metadata, once (the metadata exists once the ORM is open).
  let compiled:
    | {
        filters: Record<string, FilterField>;
        builds: Record<string, NonNullable<FilterDef['build']>>;
        orders: Record<string, OrderColumn>;
        fallback: readonly OrderKey[];
      }
    | undefined;
  const compile = (em: EntityManager) => {
    if (compiled) return compiled;
    const meta = em.getMetadata().get(names.entity.name);
    const column = (name: string, def: FieldDef): { sql: string; nullable: boolean } => {
      const property = propertyOf(name, def);
      if (property === null) throw new Error(`${names.type}.${name} has no column: give its filter or sort an expression`);
      const prop = property === 'databaseId' ? meta.properties.id : meta.properties[property as never];
      if (!prop?.fieldNames?.[0]) throw new Error(`${names.type}.${name}: the entity has no property ${property}`);
      return { sql: `${names.alias}.${prop.fieldNames[0]}`, nullable: prop.nullable === true && !prop.primary };
    };
    const filters: Record<string, FilterField> = {};
    const builds: Record<string, NonNullable<FilterDef['build']>> = {};
    for (const [name, def] of filterable) {
      const spec = def.filter === true ? {} : (def.filter as FilterDef);
      if (spec.build) {
        builds[name] = spec.build;
        continue;
      }
      const sql = spec.sql ?? column(name, def).sql;
      if (def.kind === 'text') filters[name] = { kind: 'string', sql, containsSql: spec.containsSql, startsWithSql: spec.startsWithSql };
      else if (def.kind === 'date') filters[name] = { kind: 'date', sql: sql as string };
      else if (def.kind === 'enum') filters[name] = { kind: 'enum', sql: sql as string };
      else if (def.kind === 'json') throw new Error(`${names.type}.${name}: a json filter is built by the resource`);
      else filters[name] = { kind: FILTER_KINDS[def.kind], sql: sql as string } as FilterField;
    }
    const orders: Record<string, OrderColumn> = {};
    for (const [name, def] of sortable) {
      const sort = sortOf(name, def);
      const key = OrderField[sort.as ?? upperSnake(name)];
      if (sort.sql) {
        if (sort.nullable === undefined || !sort.type) throw new Error(`${names.type}.${name}: a sort expression states its nullability and type`);
        orders[key] = { sql: sort.case === 'ci' ? `lower(${sort.sql})` : sort.sql, nullable: sort.nullable, type: sort.type };
        continue;
      }
      const col = column(name, def);
      const type = CURSOR_TYPES[def.kind];
      if (!type) throw new Error(`${names.type}.${name}: a ${def.kind} field cannot be sorted`);
      orders[key] = { sql: sort.case === 'ci' ? `lower(${col.sql})` : col.sql, nullable: col.nullable, type };
    }
    const fallback = names.defaultOrder.map((spec) => {
      const desc = spec.startsWith('-');
      const name = desc ? spec.slice(1) : spec;
      const def = table[name];
      if (!def?.sort) throw new Error(`${names.type}: the default order names ${name}, which is not sortable`);
      return { ...orders[OrderField[sortOf(name, def).as ?? upperSnake(name)]], desc };
    });
    compiled = { filters, builds, orders, fallback };
    return compiled;
  };

  return {
    names,
    table,
    CreateInput: CreateInput as ClassType<InputOf<T>>,
    UpdateInput: UpdateInput as ClassType<InputOf<T>>,
    Filter: Filter as ClassType<FilterOf<T>>,
    OrderField,
    Order,
    filterSql: (scope, filter, argument) => {
      if (!filter) return compileFilter(filter as never, {} as never, argument);
      const c = compile(scope.em);
      // Built conditions are bound to this compilation's scope (the viewer); the rest are shared.
      const fields: Record<string, FilterField> = { ...c.filters };
      for (const [name, build] of Object.entries(c.builds)) fields[name] = { kind: 'custom', build: (value: never, path: string) => build(value, path, scope) };
      return compileFilter(filter as never, fields as never, argument);
    },
    orderKeys: (em, orderBy) => {
      const c = compile(em);
      return orderKeysOf(orderBy as never, c.orders as never, c.fallback);
    },
    writes(custom) {
      const declared = new Set(writable.filter(([, d]) => d.write === 'custom').map(([n]) => n));
      const named = new Set<string>(custom);
      const missing = [...declared].filter((n) => !named.has(n));
      const extra = [...named].filter((n) => !declared.has(n));
      if (missing.length || extra.length) {
        throw new Error(
          `${names.type}: the service must apply exactly its custom fields; not applied: ${missing.join(', ') || 'none'}; not custom: ${extra.join(', ') || 'none'}`,
        );
      }
      const onCreate = writable.filter(([, d]) => d.write === 'auto' || d.write === 'create').map(([n]) => n);
      const onUpdate = writable.filter(([, d]) => d.write === 'auto').map(([n]) => n);
      return {
        assign(em, record, input, issues, isNew) {
          assignFields(em, names.entity, record, input as object, (isNew ? onCreate : onUpdate) as never, issues);
        },
      };
    },
  };
}
