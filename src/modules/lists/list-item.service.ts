import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Issues, NotFoundError, ValidationFailed } from '../../common/errors';
import { keysetPage, orderKeysOf, type OrderColumn } from '../../db/keyset';
import { Where } from '../../db/sql';
import { Connection, type ConnectionReads, type Paging } from '../../graphql/connection';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { isValidId } from '../../graphql/ids';
import { blank } from '../../kit/assign';
import { COLOURED_LISTS, HEX_COLOR_MAX, ListItem, ListKind } from './list-item.entity';
import { ListItemOrderField, type ListItemInput, type ListItemOrder } from './list-item.inputs';
import { withoutNul } from '../common/input';
import { requireAdmin } from '../common/admin';
import { leadSourceCosts, type LeadSourceCosts } from './lead-source-cost.loaders';

/** DECISIONS (Paging): admin lists default to 200 entries a page. */
export const LIST_ITEMS_DEFAULT_PER_PAGE = 200;

const MAX_NAME = 100;

const ORDER_KEYS: Record<ListItemOrderField, OrderColumn> = {
  [ListItemOrderField.POSITION]: { sql: 'l.position', nullable: false, type: 'int' },
  [ListItemOrderField.NAME]: { sql: 'lower(l.name)', nullable: false, type: 'text' },
  [ListItemOrderField.ID]: { sql: 'l.id', nullable: false, type: 'int' },
  [ListItemOrderField.CREATED_AT]: { sql: 'l.created_at', nullable: false, type: 'timestamp' },
  [ListItemOrderField.UPDATED_AT]: { sql: 'l.updated_at', nullable: false, type: 'timestamp' },
};

/**
 * Administrative lists (v3 §2.10, §4.10; DECISIONS: Admin surface): every user of the account
 * reads them; only admins change them, through GraphQL and v3 alike. `kind`, where a caller names
 * it (the v3 routes of one list), restricts a lookup or write to that list: an item of another
 * list is answered like a missing one.
 */
export class ListItemService {
  constructor(private readonly ctx: RequestContext) {}

  private get em() {
    return this.ctx.em;
  }

  /** A page of one list, every user of the account may read it; position order by default. */
  async list(kind: ListKind, orderBy: readonly ListItemOrder[] | null | undefined, paging: Paging, reads: ConnectionReads): Promise<Connection<ListItem>> {
    const where = new Where().add('l.account_id = ?', this.ctx.viewer.accountId).add('l.kind = ?', kind);
    const order = orderKeysOf(orderBy, ORDER_KEYS, [{ ...ORDER_KEYS[ListItemOrderField.POSITION], desc: false }]);
    return new Connection(await keysetPage(this.em, ListItem, { from: '"list_items" l', alias: 'l', where, order, paging, reads }));
  }

  /** One item of the viewer's account (of list `kind` when given), or null. */
  async find(id: number, kind?: ListKind | null): Promise<ListItem | null> {
    const item = isValidId(id) ? await this.ctx.loaders.byId(ListItem).load(id) : null;
    return item && (kind == null || item.kind === kind) ? item : null;
  }

  create(kind: ListKind, input: ListItemInput): Promise<ListItem> {
    requireAdmin(this.ctx);
    return this.writeUnique(async (em) => {
      const issues = new Issues();
      const name = this.checkName(input.name, issues);
      const hexColor = this.checkHexColor(kind, input.hexColor, issues);
      this.checkPosition(input.position, issues);
      const costs = this.checkCosts(kind, input, issues);
      if (name !== null) await this.checkUnique(kind, name, null, issues);
      issues.throwIfAny();
      const position = input.position ?? (await this.nextPosition(kind));
      const item = em.create(ListItem, { account: this.ctx.viewer.accountId, kind, name: name!, hexColor: hexColor ?? null, position });
      await em.flush();
      if (costs) await this.writeCosts(item.id, costs);
      return item;
    });
  }

  update(id: number, input: ListItemInput, kind?: ListKind | null): Promise<ListItem> {
    requireAdmin(this.ctx);
    return this.writeUnique(async (em) => {
      const item = await this.get(id, kind);
      const issues = new Issues();
      const name = input.name !== undefined ? this.checkName(input.name, issues) : null;
      const hexColor = input.hexColor !== undefined ? this.checkHexColor(item.kind, input.hexColor, issues) : undefined;
      this.checkPosition(input.position, issues);
      const costs = this.checkCosts(item.kind, input, issues);
      if (name !== null) await this.checkUnique(item.kind, name, item.id, issues);
      issues.throwIfAny();
      if (name !== null) item.name = name;
      if (hexColor !== undefined) item.hexColor = hexColor;
      // Position is never null in the table: null means "leave it".
      if (input.position != null) item.position = input.position;
      item.updatedAt = new Date();
      await em.flush();
      if (costs) await this.writeCosts(item.id, costs);
      return item;
    });
  }

  /**
   * References to the item are cleared, never left dangling: the foreign keys null a person's
   * lead status and source and a todo template item's event category and priority, and delete a
   * lead source's costs; contact tags live in a jsonb array, cleaned in the same transaction.
   */
  delete(id: number, kind?: ListKind | null): Promise<number> {
    requireAdmin(this.ctx);
    return mutation(this.ctx, async (em) => {
      const item = await this.get(id, kind);
      const accountId = this.ctx.viewer.accountId;
      if (item.kind === ListKind.CONTACT_TAG) {
        // tag_ids holds numbers: compare as jsonb (a `- 'text'` removal would only match strings).
        // `@>` uses the people_tag_ids GIN index; `with ordinality` keeps the remaining tags in order.
        await em.execute(
          `update "people" set tag_ids = (
             select coalesce(jsonb_agg(t.e order by t.i), '[]'::jsonb)
             from jsonb_array_elements(tag_ids) with ordinality as t(e, i)
             where t.e <> to_jsonb(?::int))
           where account_id = ? and tag_ids @> ?::jsonb`,
          [item.id, accountId, JSON.stringify([item.id])],
          'run',
        );
      }
      await em.execute('delete from "list_items" where id = ? and account_id = ?', [item.id, accountId], 'run');
      em.getUnitOfWork().unsetIdentity(item);
      return id;
    });
  }

  /** An item of another account (or, when `kind` is given, of another list) is answered exactly like a missing one. */
  private async get(id: number, kind?: ListKind | null): Promise<ListItem> {
    if (!isValidId(id)) throw new NotFoundError('ListItem', id);
    const item = await this.em.findOne(ListItem, { id, account: this.ctx.viewer.accountId });
    if (!item || (kind != null && item.kind !== kind)) throw new NotFoundError('ListItem', id);
    return item;
  }

  /**
   * Lead sources only (other lists ignore the fields): each cost 0 or more, in cents. Answers what
   * to write (undefined = leave, null = clear), or null when nothing of the costs changes.
   */
  private checkCosts(kind: ListKind, input: ListItemInput, issues: Issues): Partial<LeadSourceCosts> | null {
    if (kind !== ListKind.LEAD_SOURCE) return null;
    const changes: { -readonly [K in keyof LeadSourceCosts]?: LeadSourceCosts[K] } = {};
    for (const field of ['costPerLeadInCents', 'flatFeeInCents'] as const) {
      const value = input[field];
      if (value === undefined) continue;
      if (value !== null && value < 0) issues.add(field, 'OUT_OF_RANGE', 'must be greater than or equal to 0');
      else changes[field] = value;
    }
    return Object.keys(changes).length > 0 ? changes : null;
  }

  /** The costs row of a lead source, created or changed in the mutation's transaction (fields not given keep their value). */
  private async writeCosts(id: number, changes: Partial<LeadSourceCosts>): Promise<void> {
    const current = await leadSourceCosts(this.ctx).load(id);
    const next = { ...current, ...changes };
    await this.em.execute(
      `insert into "lead_source_costs" (list_item_id, account_id, cost_per_lead_in_cents, flat_fee_in_cents) values (?, ?, ?, ?)
       on conflict (list_item_id) do update set cost_per_lead_in_cents = excluded.cost_per_lead_in_cents, flat_fee_in_cents = excluded.flat_fee_in_cents`,
      [id, this.ctx.viewer.accountId, next.costPerLeadInCents, next.flatFeeInCents],
      'run',
    );
    this.ctx.loaders.clear();
  }

  private checkName(raw: string | null | undefined, issues: Issues): string | null {
    // NUL cannot be stored in PostgreSQL text (a 500): dropped first, so `\u0000` alone is blank.
    const name = typeof raw === 'string' ? withoutNul(raw).trim() : raw;
    if (blank(name)) {
      issues.blank('name');
      return null;
    }
    if (name!.length > MAX_NAME) {
      issues.tooLong('name', MAX_NAME);
      return null;
    }
    return name!;
  }

  /**
   * Lead statuses and calendar entry priorities carry a colour; for other lists the value is
   * ignored (kept null). Any short text is kept as given, not checked against a form: the real v3
   * service stored the official client's `0` as `"0"` and held `"fff"` and `"C73408"` (issue 22
   * §1, recorded), so refusing those would break its clients. Only the length is bounded.
   */
  private checkHexColor(kind: ListKind, raw: string | null | undefined, issues: Issues): string | null | undefined {
    if (!COLOURED_LISTS.has(kind) || raw === undefined) return undefined;
    // NUL cannot be stored in PostgreSQL text: dropped, as for names.
    const value = raw === null ? '' : withoutNul(raw).trim();
    if (value === '') return null;
    if ([...value].length > HEX_COLOR_MAX) {
      issues.tooLong('hexColor', HEX_COLOR_MAX);
      return undefined;
    }
    return value;
  }

  private checkPosition(position: number | null | undefined, issues: Issues): void {
    if (position != null && position < 0) issues.add('position', 'OUT_OF_RANGE', 'must be greater than or equal to 0');
  }

  /**
   * Checked before writing so the client learns which field clashes; the unique index
   * list_items_account_kind_name_unique (account, kind, lower(name)) still guards races.
   */
  private async checkUnique(kind: ListKind, name: string, exceptId: number | null, issues: Issues): Promise<void> {
    const rows = await this.em.execute<Array<{ id: number }>>(
      'select id from "list_items" where account_id = ? and kind = ? and lower(name) = lower(?) and id <> ? limit 1',
      [this.ctx.viewer.accountId, kind, name, exceptId ?? 0],
      'all',
    );
    if (rows.length > 0) issues.taken('name');
  }

  private async nextPosition(kind: ListKind): Promise<number> {
    const [{ next }] = await this.em.execute<Array<{ next: number }>>(
      // Capped at the column's maximum: an item placed at 2147483647 must not make max + 1 overflow (a 500).
      'select least(coalesce(max(position)::bigint + 1, 0), 2147483647)::int as next from "list_items" where account_id = ? and kind = ?',
      [this.ctx.viewer.accountId, kind],
      'all',
    );
    return Number(next);
  }

  /** A mutation where a concurrent insert of the same name loses at the unique index: reported like the pre-check. */
  private async writeUnique<T>(work: (em: RequestContext['em']) => Promise<T>): Promise<T> {
    try {
      return await mutation(this.ctx, work);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw ValidationFailed.one('name', 'TAKEN', 'has already been taken');
      throw error;
    }
  }
}
