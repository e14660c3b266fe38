import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { Issues } from '../../common/errors';
import { CustomFieldKind, type CustomField } from './custom-field.entity';
import { withoutNul } from '../common/input';

@ObjectType('CustomFieldValue', { simpleResolvers: true })
export class CustomFieldValue {
  @Field(() => Int) fieldId!: number;
  @Field({ description: 'The legacy key, custom_label_<id>' }) label!: string;
  @Field() name!: string;
  @Field(() => CustomFieldKind) kind!: CustomFieldKind;
  @Field(() => GraphQLJSON, { nullable: true, description: 'text: string; number: number; date: YYYY-MM-DD; dropdown: entry id; multi_select: entry ids' })
  value!: unknown;
}

const MAX_TEXT = 5000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Every defined field is present, unset ones as null (multi-select: []). */
export function presentCustomFields(defs: readonly CustomField[], stored: Record<string, unknown>): CustomFieldValue[] {
  return defs.map((def) => ({
    fieldId: def.id,
    label: def.label,
    name: def.name,
    kind: def.kind,
    value: stored[def.label] ?? (def.kind === CustomFieldKind.MULTI_SELECT ? [] : null),
  }));
}

function validDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function coerce(def: CustomField, value: unknown, field: string, issues: Issues): unknown {
  if (value === null || value === '') return def.kind === CustomFieldKind.MULTI_SELECT ? [] : null;
  const choiceIds = new Set(def.choices.map((c) => c.id));
  switch (def.kind) {
    case CustomFieldKind.TEXT: {
      if (typeof value !== 'string' && typeof value !== 'number') return void issues.invalid(field, 'must be text');
      const text = withoutNul(String(value)); // PostgreSQL text cannot hold NUL
      if ([...text].length > MAX_TEXT) return void issues.tooLong(field, MAX_TEXT);
      return text;
    }
    case CustomFieldKind.NUMBER: {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return void issues.invalid(field, 'must be a number');
      return n;
    }
    case CustomFieldKind.DATE:
      if (typeof value !== 'string' || !validDate(value)) return void issues.invalid(field, 'must be a date (YYYY-MM-DD)');
      return value;
    case CustomFieldKind.DROPDOWN: {
      const id = Number(Array.isArray(value) ? value[0] : value);
      if (!choiceIds.has(id)) return void issues.invalid(field, 'is not one of the choices');
      return id;
    }
    case CustomFieldKind.MULTI_SELECT: {
      const list = (Array.isArray(value) ? value : [value]).map(Number);
      if (list.some((id) => !choiceIds.has(id))) return void issues.invalid(field, 'has an entry that is not one of the choices');
      return [...new Set(list)];
    }
  }
}

/**
 * Applies `input` (keyed custom_label_<id>) over `current`. Labels with no definition are ignored
 * (unknown attributes are ignored, DECISIONS "Paths and requests"); bad values are reported on
 * `customFields.<label>`.
 */
export function mergeCustomFields(defs: readonly CustomField[], current: Record<string, unknown>, input: Record<string, unknown> | null | undefined, issues: Issues): Record<string, unknown> {
  if (!input) return current;
  const next: Record<string, unknown> = { ...current };
  const byLabel = new Map(defs.map((d) => [d.label, d]));
  for (const [label, value] of Object.entries(input)) {
    const def = byLabel.get(label);
    if (!def) continue;
    // A value sent back unchanged is kept as it is, even if its choice was removed since: clients
    // PUT back whole records (DECISIONS), and that must not fail on data they did not touch.
    if (JSON.stringify(value) === JSON.stringify(current[label])) continue;
    const coerced = coerce(def, value, `customFields.${label}`, issues);
    if (coerced !== undefined) next[label] = coerced;
  }
  return next;
}
