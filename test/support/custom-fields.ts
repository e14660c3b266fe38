import type { TestServer } from './test-server';

/** A custom field made for a test: its id, its key (`custom_label_<id>`) and its entries' ids, in the order named. */
export interface SeededField {
  readonly id: number;
  readonly label: string;
  readonly entries: number[];
}

/**
 * Inserts a custom field (and, for dropdown and multi-select, its entries) straight into the
 * tables, for tests about values rather than about the admin routes.
 */
export async function seedCustomField(
  server: TestServer,
  accountId: number,
  resource: 'person' | 'company' | 'deal',
  kind: 'text' | 'numeric' | 'currency' | 'date' | 'dropdown' | 'multi_select' | 'boolean',
  name: string,
  entries: readonly string[] = [],
  options: { isRequired?: boolean } = {},
): Promise<SeededField> {
  const [{ id }] = await server.sql<{ id: number }>(
    `insert into custom_fields (account_id, resource, kind, name, is_required, position, created_at, updated_at)
     values (?, ?, ?, ?, ?, (select coalesce(max(position) + 1, 0) from custom_fields where account_id = ? and resource = ?), now(), now()) returning id`,
    [accountId, resource, kind, name, options.isRequired === true, accountId, resource],
  );
  const ids: number[] = [];
  for (const [position, entry] of entries.entries()) {
    const [row] = await server.sql<{ id: number }>(
      'insert into custom_field_entries (account_id, custom_field_id, name, position, created_at, updated_at) values (?, ?, ?, ?, now(), now()) returning id',
      [accountId, id, entry, position],
    );
    ids.push(row.id);
  }
  return { id, label: `custom_label_${id}`, entries: ids };
}
