import type { EntityManager } from '@mikro-orm/postgresql';
import { dateProblem } from '../../common/dates';
import { Issues, ValidationFailed } from '../../common/errors';
import { withoutNul } from '../../db/sql';
import type { FieldDef, FieldKind, FieldTable, Resource } from '../../kit/fields';
import type { CustomField } from '../custom-fields/custom-field.entity';
import { mergeCustomFields } from '../custom-fields/custom-field-values';

/*
 * What an import may write, derived once from the resource's field declarations
 * (src/modules/<x>/<x>.fields.ts: kinds, `required`, v3 names) and the ORM metadata (column names,
 * lengths, nullability), as the API's own writes are (src/kit/assign.ts): a rule added to a field
 * applies to imports by itself. Custom fields are checked by the custom fields' own coercion
 * (mergeCustomFields). Only plain fields (`write: 'auto'`) are taken as columns; fields with
 * side effects of their own are either handled by the import (company_name, owner_email) or
 * refused as unknown.
 */

/** Kinds a cell converts to by itself. */
const CELL_KINDS: ReadonlySet<FieldKind> = new Set(['text', 'int', 'float', 'decimal', 'boolean', 'datetime', 'date']);

export interface ColumnRule {
  /** The v3 field name (the file's column once mapped). */
  readonly v3: string;
  /** The table's column. */
  readonly column: string;
  readonly kind: FieldKind;
  /** Characters at most (text), from the ORM metadata. */
  readonly length: number | null;
  /** A new record must have it (the declaration's `required`, or a NOT NULL column without a default). */
  readonly required: boolean;
}

/** Names an import takes besides the resource's plain fields. */
export const COMPANY_NAME = 'company_name';
export const OWNER_EMAIL = 'owner_email';
const CUSTOM_LABEL = /^custom_label_([1-9][0-9]{0,9})$/;

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The resource's importable plain fields by v3 name. */
export function columnRules(orm: Pick<EntityManager, 'getMetadata'>, resource: Resource<FieldTable>): ReadonlyMap<string, ColumnRule> {
  const meta = orm.getMetadata().find(resource.names.entity.name);
  if (!meta) throw new Error(`no metadata for ${resource.names.entity.name}`);
  const rules = new Map<string, ColumnRule>();
  for (const [name, def] of Object.entries(resource.table) as Array<[string, FieldDef]>) {
    if (def.write !== 'auto' || def.property === null || !CELL_KINDS.has(def.kind)) continue;
    const prop = meta.properties[(def.property ?? name) as never] as
      { fieldNames?: string[]; length?: number; nullable?: boolean; default?: unknown; defaultRaw?: unknown } | undefined;
    const column = prop?.fieldNames?.[0];
    if (!prop || !column) continue;
    const required = def.required === true || (prop.nullable === false && prop.default === undefined && prop.defaultRaw === undefined);
    rules.set(def.v3 ?? snake(name), { v3: def.v3 ?? snake(name), column, kind: def.kind, length: prop.length ?? null, required });
  }
  return rules;
}

/** Whether `name` is a field an import of the resource takes (custom fields by the account's definitions). */
export function knownField(rules: ReadonlyMap<string, ColumnRule>, customDefs: readonly CustomField[], name: string, extras: readonly string[]): boolean {
  if (rules.has(name) || extras.includes(name)) return true;
  return CUSTOM_LABEL.test(name) && customDefs.some((d) => d.label === name);
}

/**
 * The field a file column writes: the mapping's (a column it leaves out is not imported), or
 * without one the column's own name, except a v3 key the import cannot write (an export's `id`,
 * `created_at`: one of `exported` that is no `known` field), which is skipped, not refused.
 * null: the column is not imported. startImport checks the header and the run reads the rows by it.
 */
export function fieldOfColumn(
  column: string,
  mapping: ReadonlyMap<string, string> | null,
  exported: ReadonlySet<string>,
  known: (field: string) => boolean,
): string | null {
  if (mapping) return mapping.get(column) ?? null;
  return exported.has(column) && !known(column) ? null : column;
}

/** A row refused: its column (null: the row as a whole), a stable code and a message. */
export interface RowProblem {
  readonly column: string | null;
  readonly code: string;
  readonly message: string;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
const INT = /^[+-]?\d{1,10}$/;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** A cell as the column stores it, or a problem. */
function convert(rule: ColumnRule, raw: string, file: string): { value: unknown } | RowProblem {
  const bad = (message: string): RowProblem => ({ column: file, code: 'INVALID', message: `${rule.v3} ${message}` });
  const text = withoutNul(raw).trim();
  switch (rule.kind) {
    case 'text':
      if (rule.length !== null && text.length > rule.length && [...text].length > rule.length)
        return { column: file, code: 'TOO_LONG', message: `${rule.v3} is too long (maximum is ${rule.length} characters)` };
      return { value: text };
    case 'int':
      if (!INT.test(text) || !Number.isSafeInteger(Number(text)) || Math.abs(Number(text)) > 2_147_483_647) return bad('must be a whole number');
      return { value: Number(text) };
    case 'float':
    case 'decimal':
      if (!NUMBER.test(text) || !Number.isFinite(Number(text))) return bad('must be a number');
      return { value: rule.kind === 'float' ? Number(text) : text };
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return { value: true };
      if (FALSE.has(lower)) return { value: false };
      return bad('must be true or false');
    }
    case 'date': {
      const problem = dateProblem(text);
      return problem === null ? { value: text } : bad(problem);
    }
    case 'datetime': {
      const ms = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? Date.parse(text) : NaN;
      if (!Number.isFinite(ms)) return bad('must be an ISO 8601 time like 2026-01-31T09:30:00Z');
      const year = new Date(ms).getUTCFullYear();
      if (year < 1 || year > 9999) return { column: file, code: 'OUT_OF_RANGE', message: `${rule.v3} is out of range` };
      return { value: new Date(ms).toISOString() };
    }
    default:
      return bad('cannot be imported');
  }
}

/** What the row validator needs, built once per import. */
export interface RowSchema {
  readonly rules: ReadonlyMap<string, ColumnRule>;
  readonly customDefs: readonly CustomField[];
  readonly decimals: number;
  readonly maxCellChars: number;
}

/** A row as staged: table columns, plus `company_name`, `owner_email` and `custom` (custom_label_N → stored value). */
export type StagedRow = Record<string, unknown>;

/**
 * Converts and checks one record, given as (v3 field → cell) pairs with the file's column names for
 * messages. A blank cell (or a JSON null) gives no value: nothing is written for it (a new record
 * lacks it, an updated one keeps its value). Answers the staged row or every problem found.
 */
export function validateRow(
  schema: RowSchema,
  cells: ReadonlyArray<readonly [field: string, file: string, value: unknown]>,
): { row: StagedRow } | { problems: RowProblem[] } {
  const row: StagedRow = {};
  const problems: RowProblem[] = [];
  const custom: Record<string, unknown> = {};
  const customFile = new Map<string, string>();
  for (const [field, file, value] of cells) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' && value.length > schema.maxCellChars) {
      problems.push({ column: file, code: 'TOO_LONG', message: `the cell is longer than ${schema.maxCellChars} characters` });
      continue;
    }
    if (field.startsWith('custom_label_')) {
      if (!(typeof value === 'string' && value.trim() === '')) {
        custom[field] = value;
        customFile.set(`customFields.${field}`, file);
      }
      continue;
    }
    if (typeof value === 'object') {
      problems.push({ column: file, code: 'INVALID', message: `${field} must be a single value` });
      continue;
    }
    const text = String(value);
    if (text.trim() === '') continue;
    if (field === COMPANY_NAME || field === OWNER_EMAIL) {
      const clean = withoutNul(text).trim();
      if ([...clean].length > 255) problems.push({ column: file, code: 'TOO_LONG', message: `${field} is too long (maximum is 255 characters)` });
      else row[field] = clean;
      continue;
    }
    const rule = schema.rules.get(field);
    if (!rule) continue; // checked against the header before any row
    const converted = convert(rule, text, file);
    if ('value' in converted) row[rule.column] = converted.value;
    else problems.push(converted);
  }
  if (Object.keys(custom).length > 0) {
    const issues = new Issues();
    const values = mergeCustomFields(schema.customDefs, {}, custom, issues, { decimals: schema.decimals, isNew: false });
    try {
      issues.throwIfAny();
      row.custom = values;
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      for (const issue of error.issues)
        problems.push({ column: customFile.get(issue.field) ?? issue.field.replace(/^customFields\./, ''), code: issue.code, message: issue.message });
    }
  }
  return problems.length > 0 ? { problems } : { row };
}
