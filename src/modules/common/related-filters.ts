import type { ClassType } from 'type-graphql';
import { seesEverything } from '../../context/visibility';
import { IdFilter, linkedIdConditions } from '../../graphql/filters';
import type { FieldTable, FilterDef, FilterScope, Resource } from '../../kit/fields';
import { fromOf, scopeOf, type Records } from './resource';

/*
 * Conditions on related records (a deal's people, its company, a person's deals), declared with
 * these helpers and nowhere else. A condition on related records sees exactly the related rows the
 * viewer may see: the related resource's own list scope (tenancy and its visibility rule, the term
 * its list, show and node lookups use). A related record hidden from the viewer is therefore
 * answered as a missing one: it matches no `some`, spoils no `none`, counts for no id and leaves
 * `isNull: true` true. Each helper marks its filter field `related` (the schema's
 * `relatedRecords` extension), which the relation-filter probe reads to test every one of them.
 */

type Fragment = { sql: string; params: unknown[] };
type AnyResource = Records<{ id: number }>;

/** A resource other records' conditions may reach: who sees its rows, and (for conditions on its fields) its field table. */
export interface RelatedResource<T extends FieldTable = FieldTable> {
  readonly def: AnyResource;
  readonly fields: Resource<T>;
}

/** A join table seen from the filtered record: `on` ties a link row to it, `column` holds the related record's id. */
export interface RelatedLink {
  readonly table: string;
  readonly alias: string;
  /** e.g. `dp.deal_id = d.id`. */
  readonly on: string;
  /** e.g. `dp.person_id`. */
  readonly column: string;
}

/**
 * The related rows the viewer may see, aliased as their resource's conditions expect (`"people" p`):
 * the resource's own list scope, so no condition on related records can see more than its list.
 */
export function visibleRows(scope: FilterScope, def: AnyResource, alias: string = def.alias): { from: string; sql: string; params: unknown[] } {
  const where = scopeOf(scope, def, alias);
  return { from: fromOf(scope, def, alias), sql: where.sql, params: [...where.params] };
}

/** `select 1 from <link> join <visible related rows> where <tied to the record> and <visible>`, open for more conditions. */
function linkedRows(scope: FilterScope, def: AnyResource, link: RelatedLink): Fragment {
  const rows = visibleRows(scope, def);
  // The tenancy and visibility tests stay in WHERE: inside the join's ON they kept PostgreSQL from
  // turning the exists into a join, and it then ran the subquery once per record (seconds on 1M deals).
  return {
    sql: `select 1 from "${link.table}" ${link.alias} join ${rows.from} on ${def.alias}.id = ${link.column} where ${link.on} and ${rows.sql}`,
    params: rows.params,
  };
}

/** The filter of the related resource, compiled for the same viewer, as a condition on its rows. */
function relatedCondition(scope: FilterScope, target: RelatedResource, value: unknown, path: string): Fragment {
  return target.fields.filterSql(scope, value as never, path);
}

/**
 * A to-one relation: the filtered row's `column` holds the related record's id (a deal's
 * company). The input is the related resource's filter; it holds when the record has a related
 * record the viewer may see that matches it.
 */
export function relatedRecordFilter(target: RelatedResource, column: string, doc: string): FilterDef {
  return {
    input: () => target.fields.Filter,
    related: target.def.name,
    doc,
    build: (value: never, path: string, scope: FilterScope) => {
      const rows = visibleRows(scope, target.def);
      const inner = relatedCondition(scope, target, value, path);
      return {
        sql: `exists (select 1 from ${rows.from} where ${target.def.alias}.id = ${column} and ${rows.sql} and (${inner.sql}))`,
        params: [...rows.params, ...inner.params],
      };
    },
  };
}

/** The `{ some, none }` input of a to-many relation (`DealPeopleFilter`), as the resource declares it. */
export interface SomeNone {
  readonly some?: unknown;
  readonly none?: unknown;
}

/**
 * A to-many relation through a join table (a deal's people): `some` holds when a related record
 * the viewer may see matches the related resource's filter, `none` when none does (a record
 * without related records, or with only hidden ones, matches `none`).
 */
export function relatedManyFilter(target: RelatedResource, link: RelatedLink, input: () => ClassType, doc: string): FilterDef {
  return {
    input,
    related: target.def.name,
    doc,
    build: (value: SomeNone, path: string, scope: FilterScope) => {
      const parts: Fragment[] = [];
      for (const which of ['some', 'none'] as const) {
        if (value[which] == null) continue;
        const rows = linkedRows(scope, target.def, link);
        const inner = relatedCondition(scope, target, value[which], `${path}.${which}`);
        parts.push({ sql: `${which === 'none' ? 'not ' : ''}exists (${rows.sql} and (${inner.sql}))`, params: [...rows.params, ...inner.params] });
      }
      if (parts.length === 0) return null;
      return { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) };
    },
  };
}

/**
 * Related records through a join table, by id (a deal's `personIds`, a person's `dealIds`): `eq`/`in`
 * linked to any of these the viewer may see, `isNull: true` linked to none they may see, as the
 * record's own id list shows them.
 */
export function relatedIdsFilter(target: AnyResource, link: RelatedLink, doc: string): FilterDef {
  return {
    input: () => IdFilter,
    related: target.name,
    doc,
    build: (value: IdFilter, path: string, scope: FilterScope) => {
      // Those who see every record of the account see every link: the join would only cost.
      if (seesEverything(scope.viewer)) return linkedIdConditions(link, value, path);
      const rows = visibleRows(scope, target);
      return linkedIdConditions(
        { ...link, rows: { join: `join ${rows.from} on ${target.alias}.id = ${link.column}`, sql: rows.sql, params: rows.params } },
        value,
        path,
      );
    },
  };
}
