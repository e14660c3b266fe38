import { withProperties } from '../openapi/json-schema';
import {
  boolean,
  companyRef,
  customFields,
  date,
  dateTime,
  id,
  ids,
  integer,
  money,
  nameRef,
  read,
  readOnly,
  recordId,
  shaped,
  text,
  userRef,
} from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §2.5, and the attributes §2.5 says responses also show. Money comes out as the core shows it
 * (a decimal string with the currency's places) and goes in as sent: the core rounds once.
 * DECISIONS (Auth): `collaborators[].api_key` is always null. Keys are listed in the order v3
 * shows them; a writable column the table does not list is derived from the schema (derived.ts).
 */
export const dealResource = v3Resource({
  root: 'deal',
  type: 'Deal',
  fragment: 'DealV3',
  requiredOnCreate: ['name'],
  fields: {
    id: recordId(),
    name: text('name'),
    summary: text('summary'),
    user_id: id('ownerId'),
    user: userRef('owner'),
    status: integer('status'),
    custom_fields: customFields(),
    created_at: dateTime('createdAt'),
    updated_at: dateTime('updatedAt'),
    import_id: read('importId'),
    expected_close_date_event_id: read('expectedCloseDateEventId'),
    expected_close_date: date('expectedCloseDate'),
    closed_time: dateTime('closedTime'),
    is_archived: boolean('isArchived'),
    value: money('value'),
    value_in_cents: integer('valueInCents'),
    primary_contact_id: id('primaryContactId'),
    primary_contact: read('primaryContact', 'plain', '{ ...PersonRefV3 }'),
    // v3 shows every person; at most 200 (the most a deal takes).
    people: shaped(
      read('people', (page: { nodes: unknown[] } | null) => page?.nodes ?? [], '(first: 200) { nodes { ...PersonRefV3 } }'),
      ({ fragment }) => ({ type: 'array', items: fragment('PersonRefV3'), maxItems: 200 }),
    ),
    person_ids: ids('personIds'),
    collaborators: shaped(
      read('collaborators', (users: Array<Record<string, unknown>> | null) => (users ?? []).map((u) => ({ ...u, api_key: null })), '{ ...UserRefV3 }'),
      ({ fragment }) => ({
        type: 'array',
        items: withProperties(fragment('UserRefV3'), { api_key: { type: 'null', description: 'Always null (DECISIONS: Auth).' } }),
      }),
    ),
    shared_user_ids: ids('sharedUserIds'),
    // As for people: shown from the id and name, whatever the viewer may see of the company itself.
    company: companyRef(),
    company_id: id('companyId'),
    company_name: text('companyName'),
    currency: read('currency', 'plain', '{ code name symbol }'),
    probability: integer('probability'),
    deal_stage_id: id('dealStageId'),
    deal_stage: read('dealStage', 'plain', '{ id: databaseId name percent }'),
    deal_loss_reason_id: id('dealLossReasonId'),
    deal_loss_reason: nameRef('dealLossReason'),
    deal_loss_reason_notes: text('lossReasonNotes'),
    source_id: id('sourceId'),
    source: nameRef('source'),
    possible_notify_user_ids: read('possibleNotifyUserIds'),
    is_example: read('isExample'),
    currency_code: read('currencyCode'),
    account_id: read('accountId'),
    bonus: money('bonus'),
    commission: money('commission'),
    commission_rate: money('commissionRate'),
    is_shared: read('isShared'),
    viewed_at: readOnly(dateTime('viewedAt')),
    last_modified_by_user_id: read('lastModifiedByUserId'),
  },
  errorFields: { todoTemplateId: 'todo_template_id', todoTemplateUserId: 'todo_template_user_id' },
  // A deal column added to the core's field table appears here by itself (under its v3 name).
});
