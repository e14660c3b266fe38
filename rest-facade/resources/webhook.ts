import { FacadeInputError } from '../errors/facade-error';
import { boolean, dateTime, read, readOnly, recordId, shaped, text } from './field-table';
import { v3Resource } from './resource-spec';

/** DECISIONS (Webhooks): `event_model` values and the ChangeModel each names. */
const MODELS: Readonly<Record<string, string>> = {
  person: 'PERSON',
  company: 'COMPANY',
  deal: 'DEAL',
  note: 'NOTE',
  comment: 'COMMENT',
  calendar_entry: 'CALENDAR_ENTRY',
  document: 'DOCUMENT',
  conversation: 'CONVERSATION',
  account_notification: 'ACCOUNT_NOTIFICATION',
};
/** `event_action`: the recorded `destroy`, with `delete` accepted for it. */
const ACTIONS: Readonly<Record<string, string>> = { create: 'CREATE', update: 'UPDATE', destroy: 'DESTROY', delete: 'DESTROY' };

/** One v3 value of `name` from `table` as the GraphQL list the endpoint takes; absent when not given. */
function listOf(attributes: Record<string, unknown>, name: string, table: Readonly<Record<string, string>>): string[] | undefined {
  const raw = attributes[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  if (value === '' || value === null) throw new FacadeInputError(name, "can't be blank");
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) throw new FacadeInputError(name, `is not one of ${Object.keys(table).join(', ')}`);
  return [table[value]];
}

const lower = (values: string[] | null) => (values && values.length > 0 ? values.map((v) => v.toLowerCase()).join(',') : null);

/**
 * DECISIONS (Webhooks): a webhook as recorded (webhooks_create.yml): `id`, `event_model`,
 * `name` ("<label> person:create"), `is_activated`, `created_at`, `updated_at`, `account_id`,
 * `last_run_at`, `event_action`, `description` ("<name> => <url>"), plus `url` and
 * `failure_email`. The recording's `account_key` and the signing secret are never shown. An
 * endpoint made over GraphQL for several models or actions shows them comma-separated.
 */
export const webhookResource = v3Resource({
  root: 'webhook',
  type: 'WebhookEndpoint',
  fragment: 'WebhookV3',
  deriveFromSchema: false,
  requiredOnCreate: ['url'],
  errorFields: { models: 'event_model', actions: 'event_action', failureEmail: 'failure_email' },
  fields: {
    id: recordId(),
    event_model: shaped(read('models', lower), {
      type: ['string', 'null'],
      description: 'The model, as `person`; comma-separated when an endpoint made over GraphQL has several; null when the list is empty.',
    }),
    name: read('name'),
    is_activated: boolean('enabled'),
    created_at: readOnly(dateTime('createdAt')),
    updated_at: readOnly(dateTime('updatedAt')),
    account_id: read('accountId'),
    last_run_at: readOnly(dateTime('lastRunAt')),
    event_action: shaped(read('actions', lower), {
      type: ['string', 'null'],
      description: 'The action (`create`, `update`, `destroy`); comma-separated when several; null when the list is empty.',
    }),
    description: shaped(
      read('name', (name: string, _fmt: unknown, row: Record<string, unknown>) => `${name} => ${String(row.url)}`),
      { type: 'string', description: '`<name> => <url>`.' },
    ),
    url: text('url'),
    failure_email: text('failureEmail'),
  },
  alsoReads: {
    event_model: { type: 'enum', values: MODELS, description: 'The kind of record whose changes it receives.' },
    event_action: { type: 'enum', values: ACTIONS, description: 'The action it receives (`delete` is read as `destroy`).' },
  },
  derive: (input, attributes) => {
    const models = listOf(attributes, 'event_model', MODELS);
    const actions = listOf(attributes, 'event_action', ACTIONS);
    if (models) input.models = models;
    if (actions) input.actions = actions;
  },
});
