import { defineResource, type InputOf } from '../../kit/fields';
import { ChangeAction, ChangeModel } from '../changes/change.types';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** Every webhook endpoint field, once: the service writes them all (URL checked, models and actions known, names made). */
export const WEBHOOK_ENDPOINT_FIELDS = defineResource(
  {
    type: 'WebhookEndpoint',
    plural: 'webhook endpoints',
    entity: WebhookEndpoint,
    alias: 'wh',
    defaultOrder: ['databaseId'],
    createDoc: 'A new webhook endpoint: url and models are required; every action unless some are given.',
    updateDoc: 'Changes to a webhook endpoint: only the fields given change.',
    filterDoc: 'Which webhook endpoints to list.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The endpoint's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order, the default).' } },
    url: {
      kind: 'text',
      write: 'custom',
      required: true,
      inputDoc:
        'Where deliveries are POSTed: http or https, at most 2048 characters, no credentials, a public address (or a host of DOCUMENT_FETCH_ALLOWED_HOSTS).',
    },
    description: { kind: 'text', write: 'custom', inputDoc: 'What it is for, at most 500 characters.' },
    models: {
      kind: 'json',
      write: 'custom',
      inputType: () => [ChangeModel],
      inputDoc: 'The kinds of record whose changes it receives: required on create, at least one.',
    },
    actions: {
      kind: 'json',
      write: 'custom',
      inputType: () => [ChangeAction],
      inputDoc: 'The actions it receives (at least one); every action when absent on create.',
    },
    onlyWhenChanged: {
      kind: 'json',
      write: 'custom',
      inputType: () => [String],
      inputDoc: 'Send an update only when one of these fields changed (column names, at most 50); empty: every update.',
    },
    enabled: {
      kind: 'boolean',
      write: 'custom',
      inputDoc: 'false pauses deliveries; true resumes them (and clears disabledReason).',
      filter: { doc: 'Enabled or not.' },
    },
    failureEmail: {
      kind: 'text',
      write: 'custom',
      inputDoc: 'Mailed when the endpoint is disabled (its URL answered 410 Gone, or it failed for 5 days); an email address. Null: its owner is mailed.',
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When it was made.' }, sort: { doc: 'Creation time.' } },
  },
);

export type WebhookEndpointInput = InputOf<typeof WEBHOOK_ENDPOINT_FIELDS.table>;
