import { randomBytes } from 'node:crypto';
import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { VisibilityRule, type Seer } from '../../context/visibility';
import type { Where } from '../../db/sql';
import { mayReadType, readScopeOf } from '../../graphql/scopes';
import { ChangeAction, ChangeModel, typeNameOf } from '../changes/change.types';
import { requireAdmin } from '../common/admin';
import { withoutNul } from '../common/input';
import { loadForWrite, removeVisible, type Records } from '../common/resource';
import { checkFetchTarget } from '../documents/fetch/fetch-target';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WEBHOOK_ENDPOINT_FIELDS, type WebhookEndpointInput } from './webhook-endpoint.fields';

/** Administrators see every endpoint of the account; nobody else sees any. */
class AdminsOnly extends VisibilityRule<WebhookEndpoint> {
  constructor() {
    super([]);
  }
  override restrict(where: Where, alias: string, seer: Seer): Where {
    return seer.isAdmin ? where : where.add('false');
  }
  override canSee(seer: Seer): boolean {
    return seer.isAdmin;
  }
}

export const WEBHOOK_ENDPOINTS: Records<WebhookEndpoint> = { entity: WebhookEndpoint, alias: 'wh', name: 'WebhookEndpoint', visibility: new AdminsOnly() };

/** Every writable field is the service's own. */
WEBHOOK_ENDPOINT_FIELDS.writes(['url', 'description', 'models', 'actions', 'onlyWhenChanged', 'enabled', 'failureEmail']);

const WHAT = 'webhooks';
/** How long a rotated secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_HOURS = 24;
const MAX_FIELDS = 50;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A URL deliveries may go to (checkFetchTarget), or the issue naming `url`. */
const checkTarget = (raw: unknown, issues: Issues) => checkFetchTarget(raw, 'url', issues);

function checkList<T extends string>(raw: readonly T[] | null | undefined, field: string, known: readonly T[], issues: Issues): T[] | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw.length === 0) {
    issues.blank(field);
    return null;
  }
  if (raw.some((v) => !known.includes(v))) {
    issues.invalid(field, `takes ${known.join(', ')}`);
    return null;
  }
  return [...new Set(raw)];
}

function checkText(raw: string | null | undefined, field: string, max: number, issues: Issues): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  const text = withoutNul(raw).trim();
  if (text === '') return null;
  if (text.length > max) {
    issues.tooLong(field, max);
    return null;
  }
  return text;
}

/** Webhook endpoints' own steps (issue 24 §3): administrators only, for reads too. */
export class WebhookEndpointService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: WebhookEndpointInput): Promise<WebhookEndpoint> {
    requireAdmin(this.ctx, WHAT);
    return mutation(this.ctx, async (em) => {
      const endpoint = em.create(WebhookEndpoint, {
        account: this.ctx.viewer.accountId,
        owner: this.ctx.viewer.userId,
        url: '',
        name: '',
        models: [],
        secret: newSecret(),
        // Made with a scoped key: it sees what that key may read, for good (issue 26 §3).
        scopes: this.ctx.viewer.scopes === null ? null : [...this.ctx.viewer.scopes],
      });
      await this.apply(endpoint, input, true);
      endpoint.revealedSecret = endpoint.secret;
      await em.flush();
      return endpoint;
    });
  }

  update(id: number, input: WebhookEndpointInput): Promise<WebhookEndpoint> {
    requireAdmin(this.ctx, WHAT);
    return mutation(this.ctx, async (em) => {
      const endpoint = await loadForWrite(this.ctx, WEBHOOK_ENDPOINTS, id);
      await this.apply(endpoint, input, false);
      endpoint.updatedAt = new Date();
      await em.flush();
      return endpoint;
    });
  }

  delete(id: number): Promise<number> {
    requireAdmin(this.ctx, WHAT);
    return removeVisible(this.ctx, WEBHOOK_ENDPOINTS, id);
  }

  /** A new signing secret, shown once; the previous one keeps signing beside it for PREVIOUS_SECRET_HOURS. */
  rotateSecret(id: number): Promise<WebhookEndpoint> {
    requireAdmin(this.ctx, WHAT);
    return mutation(this.ctx, async (em) => {
      const endpoint = await loadForWrite(this.ctx, WEBHOOK_ENDPOINTS, id);
      endpoint.previousSecret = endpoint.secret;
      endpoint.previousSecretUntil = new Date(this.ctx.clock.now().getTime() + PREVIOUS_SECRET_HOURS * 3600_000);
      endpoint.secret = newSecret();
      endpoint.revealedSecret = endpoint.secret;
      endpoint.updatedAt = new Date();
      await em.flush();
      return endpoint;
    });
  }

  private async apply(endpoint: WebhookEndpoint, input: WebhookEndpointInput, creating: boolean): Promise<void> {
    const issues = new Issues();
    const raw = input as unknown as {
      url?: string | null;
      description?: string | null;
      models?: ChangeModel[] | null;
      actions?: ChangeAction[] | null;
      onlyWhenChanged?: string[] | null;
      enabled?: boolean | null;
      failureEmail?: string | null;
    };
    const url = creating || raw.url !== undefined ? await checkTarget(raw.url, issues) : undefined;
    const models = checkList(creating ? (raw.models ?? null) : raw.models, 'models', Object.values(ChangeModel), issues);
    const actions = checkList(raw.actions, 'actions', Object.values(ChangeAction), issues);
    // A scoped API key asks only for the changes it may read (issue 26 §3).
    const scopes = this.ctx.viewer.scopes;
    const unreadable = scopes === null ? undefined : models?.find((model) => !mayReadType(scopes, typeNameOf(model)));
    if (unreadable) issues.invalid('models', `this API key lacks the scope ${readScopeOf(typeNameOf(unreadable)) ?? `to read ${unreadable}`}`);
    const description = checkText(raw.description, 'description', 500, issues);
    const failureEmail = checkText(raw.failureEmail, 'failureEmail', 254, issues);
    if (failureEmail && !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(failureEmail)) issues.invalid('failureEmail', 'is not an email address');
    let fields: string[] | undefined;
    if (raw.onlyWhenChanged !== undefined) {
      fields = [...new Set(raw.onlyWhenChanged ?? [])];
      if (fields.length > MAX_FIELDS) issues.invalid('onlyWhenChanged', `takes at most ${MAX_FIELDS} fields`);
      else if (fields.some((f) => !/^[a-z][a-z0-9_]{0,62}(\.[a-z0-9_]{1,63})?$/.test(f)))
        issues.invalid('onlyWhenChanged', 'takes column names (`name`, `custom_fields.custom_label_12`)');
    }
    if (raw.enabled === null) issues.blank('enabled');
    issues.throwIfAny();
    if (url) endpoint.url = url;
    if (models) endpoint.models = models;
    if (actions) endpoint.actions = actions;
    if (description !== undefined) endpoint.description = description;
    if (failureEmail !== undefined) endpoint.failureEmail = failureEmail;
    if (fields) endpoint.onlyWhenChanged = fields;
    if (typeof raw.enabled === 'boolean') {
      // Enabled again: its failures start over (else its next failure would disable it at once).
      if (raw.enabled && !endpoint.enabled) {
        endpoint.disabledReason = null;
        endpoint.failingSince = null;
      }
      endpoint.enabled = raw.enabled;
    }
    endpoint.name = `${await this.label()} ${endpoint.models.join(',')}:${endpoint.actions.join(',')}`;
  }

  /** What a name starts with: the account's name (v3 `name`: "<label> person:create"). */
  private async label(): Promise<string> {
    const [row] = await this.ctx.em.execute<Array<{ name: string }>>(`select name from accounts where id = ?`, [this.ctx.viewer.accountId], 'all');
    return (row?.name ?? 'Account').slice(0, 200);
  }
}
