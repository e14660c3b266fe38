/**
 * Convenience objects (v3 §1.7): read-only, id plus name fields. Where the spec shows two shapes
 * the union is sent (DECISIONS: Responses).
 */
type Maybe<T> = T | null | undefined;

export function userRef(u: Maybe<{ id: number; firstName?: string | null; lastName?: string | null; fullName?: string | null }>) {
  if (!u) return null;
  return { id: u.id, first_name: u.firstName ?? null, last_name: u.lastName ?? null, full_name: u.fullName ?? null };
}

export function nameRef(x: Maybe<{ id: number; name: string }>) {
  return x ? { id: x.id, name: x.name } : null;
}

export function personRef(p: Maybe<{ id: number; firstName?: string | null; lastName?: string | null; fullName?: string | null }>) {
  return userRef(p);
}

/** `[{label, kind, value}]` to `{custom_label_<n>: value}`; dates as YYYY/MM/DD (DECISIONS: Responses). */
export function customFieldsObject(values: Maybe<ReadonlyArray<{ label: string; kind: string; value: unknown }>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // GraphQL serialises the CustomFieldKind enum by name (`DATE`), the TS value is `date`: accept both.
  for (const v of values ?? []) out[v.label] = v.kind.toLowerCase() === 'date' && typeof v.value === 'string' ? v.value.replace(/-/g, '/') : v.value;
  return out;
}
