import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { isValidId } from '../../graphql/ids';
import { loadForWrite, type Records } from '../common/resource';
import { accountWide, checkName, checkRange, requireAdmin, writeUnique } from '../common/admin';
import { Account } from '../accounts/account.entity';
import { CustomField } from './custom-field.entity';
import { CustomFieldKind, ENTRY_KINDS } from './custom-field.enums';
import { CUSTOM_FIELD_ENTRY_FIELDS, MAX_CUSTOM_FIELD_NAME, type CustomFieldEntryInput } from './custom-field.fields';
import { CustomFieldEntry } from './custom-field-entry.entity';
import { MAX_ENTRIES_PER_FIELD } from './custom-field.loaders';
import { CUSTOM_FIELDS, RECORD_TABLES } from './custom-field.service';

export const CUSTOM_FIELD_ENTRIES_PAGE_SIZE = 200;

export const CUSTOM_FIELD_ENTRIES: Records<CustomFieldEntry> = {
  entity: CustomFieldEntry,
  alias: 'ce',
  name: 'CustomFieldEntry',
  visibility: accountWide<CustomFieldEntry>(),
};

/** Every writable field is the service's own (checked once, when the module loads). */
CUSTOM_FIELD_ENTRY_FIELDS.writes(['customFieldLabelId', 'name', 'position']);

const INT_MAX = 2_147_483_647;

/**
 * Entries of dropdown and multi-select fields (DECISIONS: Admin surface:
 * `/admin/custom_field_label_dropdown_entries.json`): every user of the account reads them, admins
 * change them, at most MAX_ENTRIES_PER_FIELD a field (the field row is locked while an entry joins
 * it). Deleting an entry removes its id from every record's value in the same transaction: a
 * dropdown loses its value, a multi-select keeps the others.
 */
export class CustomFieldEntryService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: CustomFieldEntryInput): Promise<CustomFieldEntry> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const issues = new Issues();
      const name = checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME);
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      const field = await this.joinField(em, input.customFieldLabelId ?? null, issues);
      if (field && name !== null && (await this.nameTaken(field.id, name, null))) issues.taken('name');
      issues.throwIfAny();
      const entry = new CustomFieldEntry();
      entry.account = em.getReference(Account, this.ctx.viewer.accountId);
      entry.customField = field!;
      entry.name = name!;
      entry.position = input.position ?? (await this.stat(field!.id)).next;
      field!.updatedAt = new Date();
      em.persist(entry);
      await em.flush();
      return entry;
    });
  }

  update(id: number, input: CustomFieldEntryInput): Promise<CustomFieldEntry> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return writeUnique(this.ctx, async (em) => {
      const entry = await loadForWrite(this.ctx, CUSTOM_FIELD_ENTRIES, id);
      const issues = new Issues();
      const name = input.name !== undefined ? checkName(input.name, issues, 'name', MAX_CUSTOM_FIELD_NAME) : null;
      // Records hold entry ids of one field: an entry cannot move (sent back unchanged, it is accepted).
      if (input.customFieldLabelId === null) issues.blank('customFieldLabelId');
      else if (input.customFieldLabelId !== undefined && input.customFieldLabelId !== entry.customField.id)
        issues.invalid('customFieldLabelId', "can't be changed: an entry stays in its field");
      if (input.position === null) issues.blank('position');
      checkRange(input.position, 'position', 0, INT_MAX, issues);
      if (name !== null && (await this.nameTaken(entry.customField.id, name, entry.id))) issues.taken('name');
      issues.throwIfAny();
      if (name !== null) entry.name = name;
      if (input.position != null) entry.position = input.position;
      entry.updatedAt = new Date();
      await this.touch(em, entry.customField.id);
      await em.flush();
      return entry;
    });
  }

  delete(id: number): Promise<number> {
    requireAdmin(this.ctx, CUSTOM_FIELDS);
    return mutation(this.ctx, async (em) => {
      const entry = await loadForWrite(this.ctx, CUSTOM_FIELD_ENTRIES, id);
      const field = await em.findOneOrFail(CustomField, { id: entry.customField.id, account: this.ctx.viewer.accountId });
      const accountId = this.ctx.viewer.accountId;
      const table = RECORD_TABLES[field.resource];
      if (field.kind === CustomFieldKind.DROPDOWN) {
        await em.execute(
          `update "${table}" set custom_fields = custom_fields - ?::text where account_id = ? and custom_fields @> jsonb_build_object(?::text, ?::int)`,
          [field.label, accountId, field.label, entry.id],
          'run',
        );
      } else if (field.kind === CustomFieldKind.MULTI_SELECT) {
        // `with ordinality` keeps the remaining entries in their order; containment (`@>`) can use a GIN index on custom_fields.
        await em.execute(
          `update "${table}" set custom_fields = jsonb_set(custom_fields, array[?::text], (
             select coalesce(jsonb_agg(t.e order by t.i), '[]'::jsonb)
             from jsonb_array_elements(custom_fields -> ?::text) with ordinality as t(e, i)
             where t.e <> to_jsonb(?::int)))
           where account_id = ? and custom_fields @> jsonb_build_object(?::text, jsonb_build_array(?::int))`,
          [field.label, field.label, entry.id, accountId, field.label, entry.id],
          'run',
        );
      }
      await em.execute('delete from "custom_field_entries" where id = ? and account_id = ?', [entry.id, accountId], 'run');
      em.getUnitOfWork().unsetIdentity(entry);
      field.updatedAt = new Date();
      await em.flush();
      return id;
    });
  }

  /**
   * The field an entry joins: of the account, a dropdown or multi-select one, locked for the rest
   * of the transaction (so the count of its entries holds), with room for one more. Null when
   * refused (the issue is recorded).
   */
  private async joinField(em: EntityManager, id: number | null, issues: Issues): Promise<CustomField | null> {
    if (id === null) {
      issues.blank('customFieldLabelId');
      return null;
    }
    const field = isValidId(id) ? await em.findOne(CustomField, { id, account: this.ctx.viewer.accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!field) {
      issues.missing('customFieldLabelId');
      return null;
    }
    if (!ENTRY_KINDS.has(field.kind)) {
      issues.invalid('customFieldLabelId', `is a ${field.kind} field ("${field.name}"): only dropdown and multi-select fields have entries`);
      return null;
    }
    if ((await this.stat(field.id)).count >= MAX_ENTRIES_PER_FIELD) {
      issues.invalid('customFieldLabelId', `has too many entries (maximum is ${MAX_ENTRIES_PER_FIELD})`);
      return null;
    }
    return field;
  }

  private async touch(em: EntityManager, fieldId: number): Promise<void> {
    await em.execute('update "custom_fields" set updated_at = now() where id = ? and account_id = ?', [fieldId, this.ctx.viewer.accountId], 'run');
  }

  private async nameTaken(fieldId: number, name: string, exceptId: number | null): Promise<boolean> {
    const rows = await this.ctx.em.execute<Array<{ id: number }>>(
      'select id from "custom_field_entries" where account_id = ? and custom_field_id = ? and lower(name) = lower(?) and id <> ? limit 1',
      [this.ctx.viewer.accountId, fieldId, name, exceptId ?? 0],
      'all',
    );
    return rows.length > 0;
  }

  /** How many entries the field has, and the position after the last. */
  private async stat(fieldId: number): Promise<{ count: number; next: number }> {
    const [row] = await this.ctx.em.execute<Array<{ n: string; next: number }>>(
      'select count(*) as n, least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "custom_field_entries" where account_id = ? and custom_field_id = ?',
      [this.ctx.viewer.accountId, fieldId],
      'all',
    );
    return { count: Number(row.n), next: Number(row.next) };
  }
}
