import type { FieldDef } from '../kit/fields';
import { BulkFormat } from '../modules/common/bulk';
import type { RequestContext } from '../context/context';
import { customFieldDefs } from '../modules/custom-fields/custom-field.loaders';
import { presentCustomFields } from '../modules/custom-fields/custom-field-values';
import type { ExportSource, ExportWriterPlan } from '../modules/exports';
import { ExportResource } from '../modules/exports/export.types';
import { calendarEntryResource } from '../../rest-facade/resources/calendar-entry';
import { companyResource } from '../../rest-facade/resources/company';
import { dealResource } from '../../rest-facade/resources/deal';
import { customFieldsObject, type FieldSpec } from '../../rest-facade/resources/field-table';
import { noteResource } from '../../rest-facade/resources/note';
import { personResource } from '../../rest-facade/resources/person';
import type { V3Resource } from '../../rest-facade/resources/resource-spec';
import { formatDate, formatDateTime } from '../../rest-facade/response/datetime';

/*
 * An export's columns, SQL-side (issue 27 §2): the v3 keys are the facade's field tables' (so an
 * export's header is what a v3 list shows and what an import maps), each read from the column (or
 * the expression) the core's field table declares for the GraphQL field the v3 key comes from, and
 * shown as the facade shows it (datetimes in the user's zone as v3 writes them, enums by their v3
 * names, custom fields as `custom_label_N`). Keys v3 shows as objects built from other records
 * (`user`, `company`, `deals`), read-only keys computed by resolvers (`total_pipeline`) and keys
 * of no column (`full_name`, `deal_ids`) are left out: see docs/exports.md.
 */

const V3_TABLES: Readonly<Record<ExportResource, V3Resource>> = {
  [ExportResource.PEOPLE]: personResource,
  [ExportResource.COMPANIES]: companyResource,
  [ExportResource.DEALS]: dealResource,
  [ExportResource.NOTES]: noteResource,
  [ExportResource.CALENDAR_ENTRIES]: calendarEntryResource,
};

/**
 * Every key a v3 record of `resource` shows (an export's header names among them): an import given
 * no mapping skips those it cannot write (`id`, `created_at`, …), so an export imports back as it is.
 */
export function v3KeysOf(resource: string): ReadonlySet<string> {
  const table = V3_TABLES[resource as ExportResource] as V3Resource | undefined;
  return new Set(table ? Object.keys(table.fields) : []);
}

type Show = (value: unknown) => unknown;

interface Column {
  readonly key: string;
  readonly sql: string;
  readonly show: Show;
  /** Shown as stored (text, numbers, booleans): a CSV cell the statement can quote itself. */
  readonly plainText: boolean;
}

/**
 * RFC 4180 quoting of a value as text, in SQL: every value quoted (its quotes doubled), null an
 * empty cell; the expression is read once (a subquery such as a company's name is not run twice).
 */
const csvSql = (sql: string) => `coalesce('"' || replace((${sql})::text, '"', '""') || '"', '')`;

/** The SQL a GraphQL field of the core's table reads, or null (no column, a JSON value, an object). */
function sqlOf(source: ExportSource, ctx: RequestContext, from: string): { sql: string; def: FieldDef } | null {
  const def = source.fields.table[from];
  if (!def || def.kind === 'json') return null;
  if (def.property === null) {
    const sort = typeof def.sort === 'object' ? def.sort.sql : undefined;
    const filter = typeof def.filter === 'object' && typeof def.filter.sql === 'string' ? def.filter.sql : undefined;
    const expression = sort ?? filter;
    return expression ? { sql: expression, def } : null;
  }
  const property = def.property ?? (def.kind === 'ref' && from.endsWith('Id') ? from.slice(0, -2) : from);
  const meta = ctx.em.getMetadata().get(source.records.entity.name).properties[property as never] as { fieldNames?: string[] } | undefined;
  const column = meta?.fieldNames?.[0];
  return column ? { sql: `${source.records.alias}."${column}"`, def } : null;
}

function showOf(spec: FieldSpec, def: FieldDef, tz: string): Show | null {
  const show = spec.show;
  if (show === 'plain') return def.kind === 'int' || def.kind === 'ref' ? (v) => (v === null || v === undefined ? v : Number(v)) : (v) => v;
  if (show === 'dateTime') return (v) => formatDateTime(v as Date | string | null, tz);
  if (show === 'date') return (v) => formatDate(v as Date | string | null);
  if (typeof show === 'object' && 'enum' in show && def.enum) {
    // Stored value → GraphQL name (the enum's key) → v3 word.
    const nameOf = new Map(Object.entries(def.enum as Record<string, string>).map(([name, value]) => [value, name]));
    return (v) => (v === null || v === undefined ? null : (show.enum[nameOf.get(String(v)) ?? ''] ?? v));
  }
  return null;
}

/** The writer plan of `source` for the user of `ctx`: columns in the v3 table's order, then one per custom field. */
export async function exportPlan(source: ExportSource, ctx: RequestContext, format: BulkFormat): Promise<ExportWriterPlan> {
  const table = V3_TABLES[source.resource as ExportResource];
  const tz = ctx.viewer.timeZone;
  const alias = source.records.alias;
  const columns: Column[] = [];
  let customFieldsKey: string | null = null;
  for (const [key, spec] of Object.entries(table.fields) as Array<[string, FieldSpec]>) {
    if (key === 'id') {
      columns.push({ key, sql: `${alias}.id`, show: (v) => Number(v), plainText: true });
      continue;
    }
    if (spec.show === 'customFields') {
      customFieldsKey = key;
      continue;
    }
    if (spec.select || spec.optional) continue;
    const read = sqlOf(source, ctx, spec.from);
    if (!read) continue;
    const show = showOf(spec, read.def, tz);
    if (!show) continue;
    const plainText = spec.show === 'plain' && ['text', 'int', 'ref', 'boolean', 'decimal'].includes(read.def.kind);
    columns.push({ key, sql: read.sql, show, plainText });
  }
  const defs = source.customFields && customFieldsKey ? await customFieldDefs(ctx, source.customFields).load() : [];
  const decimals = ctx.viewer.currency.decimals;
  const customSql = defs.length > 0 ? `, ${alias}."custom_fields" as cf` : '';
  const customOf = (row: Record<string, unknown>): Record<string, unknown> =>
    customFieldsObject(
      presentCustomFields(defs, row.cf as Record<string, unknown> | null, decimals).map((v) => ({ label: v.label, kind: v.kind, value: v.value })),
    );
  if (format === BulkFormat.CSV) {
    // CSV: the plain cells quoted and joined by the statement, first; then those formatted here (datetimes, enums, lists, custom fields).
    const plain = columns.filter((c) => c.plainText);
    const formatted = columns.filter((c) => !c.plainText);
    return {
      select: `concat_ws(',', ${plain.map((c) => csvSql(c.sql)).join(', ')}) as __csv${formatted.map((c, i) => `, ${c.sql} as f${i}`).join('')}${customSql}`,
      header: [...plain.map((c) => c.key), ...formatted.map((c) => c.key), ...defs.map((d) => d.label)],
      cells(row) {
        const out: unknown[] = [{ raw: row.__csv as string }];
        for (let i = 0; i < formatted.length; i++) out.push(formatted[i].show(row[`f${i}`]));
        if (defs.length > 0) {
          const custom = customOf(row);
          for (const d of defs) out.push(custom[d.label]);
        }
        return out;
      },
      record: () => {
        throw new Error('a CSV plan writes cells');
      },
    };
  }
  return {
    select: `${columns.map((c, i) => `${c.sql} as c${i}`).join(', ')}${customSql}`,
    header: [...columns.map((c) => c.key), ...defs.map((d) => d.label)],
    cells: () => {
      throw new Error('a JSONL plan writes records');
    },
    record(row) {
      const out: Record<string, unknown> = {};
      columns.forEach((c, i) => (out[c.key] = c.show(row[`c${i}`])));
      if (customFieldsKey) out[customFieldsKey] = defs.length > 0 ? customOf(row) : {};
      return out;
    },
  };
}
