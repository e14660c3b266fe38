import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationFailed } from '../../common/errors';
import { issueKey } from '../../common/keys';
import { ApiApp } from '../apps/api-app.entity';
import { seedDealStages } from '../deal-stages/deal-stage.defaults';
import { ListItem, ListKind } from '../lists/list-item.entity';
import { User, Visibility } from '../users/user.entity';
import { Account } from './account.entity';
import { CURRENCIES } from './currency';

/**
 * Sensible starting lists for a new account (issue 2 §7: admin lists; issue 25 §5: event categories
 * and calendar entry priorities, so calendar clients do not find empty lists). Positions count
 * from 0 in each list, in this order. "Milestone" is the event category the real service's
 * accounts had and its expected close date tasks use (deal.close-date-task.ts). Migration
 * 20261204000001 gives the same two calendar lists to accounts that had none.
 */
export const DEFAULT_LISTS: ReadonlyArray<{ kind: ListKind; name: string; hexColor?: string }> = [
  { kind: ListKind.LEAD_STATUS, name: 'New', hexColor: '#3b82f6' },
  { kind: ListKind.LEAD_STATUS, name: 'Contacted', hexColor: '#f59e0b' },
  { kind: ListKind.LEAD_STATUS, name: 'Qualified', hexColor: '#10b981' },
  { kind: ListKind.LEAD_STATUS, name: 'Unqualified', hexColor: '#6b7280' },
  { kind: ListKind.LEAD_SOURCE, name: 'Website' },
  { kind: ListKind.LEAD_SOURCE, name: 'Referral' },
  { kind: ListKind.LEAD_SOURCE, name: 'Trade show' },
  { kind: ListKind.LEAD_SOURCE, name: 'Cold call' },
  { kind: ListKind.CONTACT_TAG, name: 'Customer' },
  { kind: ListKind.CONTACT_TAG, name: 'Partner' },
  { kind: ListKind.CONTACT_TAG, name: 'Prospect' },
  { kind: ListKind.NOTE_CATEGORY, name: 'Call' },
  { kind: ListKind.NOTE_CATEGORY, name: 'Email' },
  { kind: ListKind.NOTE_CATEGORY, name: 'Meeting' },
  { kind: ListKind.NOTE_CATEGORY, name: 'Note' },
  { kind: ListKind.EVENT_CATEGORY, name: 'Call' },
  { kind: ListKind.EVENT_CATEGORY, name: 'Email' },
  { kind: ListKind.EVENT_CATEGORY, name: 'Meeting' },
  { kind: ListKind.EVENT_CATEGORY, name: 'Follow-up' },
  { kind: ListKind.EVENT_CATEGORY, name: 'Milestone' },
  { kind: ListKind.CALENDAR_ENTRY_PRIORITY, name: 'High', hexColor: '#ef4444' },
  { kind: ListKind.CALENDAR_ENTRY_PRIORITY, name: 'Medium', hexColor: '#f59e0b' },
  { kind: ListKind.CALENDAR_ENTRY_PRIORITY, name: 'Low', hexColor: '#6b7280' },
];

export interface NewUser {
  readonly email: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly timeZone?: string | null;
  readonly isAdmin?: boolean;
  readonly visibility?: Visibility;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function checkUser(input: NewUser): void {
  if (!EMAIL.test(input.email) || input.email.length > 254) throw ValidationFailed.one('email', 'INVALID', 'is not a valid email address');
  if (input.timeZone && !isValidTimeZone(input.timeZone)) throw ValidationFailed.one('timeZone', 'INVALID', 'is not a known IANA time zone');
}

/**
 * Bootstrapping accounts, users and keys (the CLI and the demo seed). Runs with a privileged
 * EntityManager, outside any viewer: callers are operators, not API users.
 */
export class AccountAdmin {
  constructor(private readonly em: EntityManager) {}

  async createAccount(input: {
    name: string;
    timeZone?: string;
    currency?: string;
    admin: NewUser;
  }): Promise<{ account: Account; user: User; apiKey: string }> {
    if (!input.name.trim() || input.name.length > 200) throw ValidationFailed.one('name', 'BLANK', "can't be blank");
    const currency = (input.currency ?? 'USD').toUpperCase();
    if (!CURRENCIES.has(currency)) throw ValidationFailed.one('currency', 'INVALID', `is not supported (one of ${[...CURRENCIES.keys()].join(', ')})`);
    const timeZone = input.timeZone ?? input.admin.timeZone ?? 'UTC';
    if (!isValidTimeZone(timeZone)) throw ValidationFailed.one('timeZone', 'INVALID', 'is not a known IANA time zone');
    checkUser(input.admin);
    return this.em.transactional(async (em) => {
      const account = em.create(Account, { name: input.name.trim(), currencyCode: currency, timeZone });
      em.persist(account);
      const positions = new Map<ListKind, number>();
      for (const item of DEFAULT_LISTS) {
        const position = positions.get(item.kind) ?? 0;
        positions.set(item.kind, position + 1);
        em.persist(em.create(ListItem, { account, kind: item.kind, name: item.name, hexColor: item.hexColor ?? null, position }));
      }
      seedDealStages(em, account);
      const { key, hash } = issueKey();
      const user = em.create(User, {
        account,
        email: input.admin.email,
        firstName: input.admin.firstName ?? null,
        lastName: input.admin.lastName ?? null,
        timeZone: input.admin.timeZone ?? null,
        isAdmin: true,
        visibility: Visibility.ALL,
        apiKeyHash: hash,
      });
      em.persist(user);
      await em.flush();
      return { account, user, apiKey: key };
    });
  }

  async createUser(accountId: number, input: NewUser): Promise<{ user: User; apiKey: string }> {
    checkUser(input);
    const account = await this.em.findOne(Account, { id: accountId });
    if (!account) throw ValidationFailed.one('account', 'NOT_FOUND', 'does not exist');
    const { key, hash } = issueKey();
    const user = this.em.create(User, {
      account,
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      timeZone: input.timeZone ?? null,
      isAdmin: input.isAdmin ?? false,
      visibility: input.visibility ?? Visibility.ALL,
      apiKeyHash: hash,
    });
    await this.em.persistAndFlush(user);
    return { user, apiKey: key };
  }

  /** Issues a new key; the old one stops working at once (its hash is gone). */
  async resetKey(userId: number): Promise<string> {
    const { key, hash } = issueKey();
    const updated = await this.em.nativeUpdate(User, { id: userId }, { apiKeyHash: hash, updatedAt: new Date() });
    if (updated === 0) throw ValidationFailed.one('user', 'NOT_FOUND', 'does not exist');
    return key;
  }

  async createApp(name: string): Promise<string> {
    if (!name.trim() || name.length > 200) throw ValidationFailed.one('name', 'BLANK', "can't be blank");
    const { key, hash } = issueKey();
    await this.em.persistAndFlush(this.em.create(ApiApp, { name: name.trim(), keyHash: hash }));
    return key;
  }
}
