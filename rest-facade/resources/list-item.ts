import { read, recordId, text, type FieldSpec, type FieldTable } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * DECISIONS (Admin surface): every admin list is writable by the account's admins (the spec's
 * §4.10 "read-only" is superseded), and every entry carries id, name, created_at and updated_at
 * besides the fields of its list. Lists that are a name in an order are ListItem in GraphQL; the
 * routes name the list, so a write or show through one list never reaches an item of another.
 */

/** A writable integer (v3 accepts numeric strings; the core checks the range and names the field). */
export const integer = (from: string): FieldSpec => ({ from, write: { type: 'integer' }, show: 'plain' });

/** `created_at`, `updated_at`: read-only, as v3 datetimes in the viewer's zone. */
export const TIMESTAMPS: FieldTable = { created_at: read('createdAt', 'dateTime'), updated_at: read('updatedAt', 'dateTime') };

/** `account_id`, shown where the recordings show it (read-only: an item stays in its account). */
export const ACCOUNT_ID: FieldTable = { account_id: read('accountId') };

const ID_AND_NAME: FieldTable = { id: recordId(), name: text('name') };
const NAME_ONLY: FieldTable = { ...ID_AND_NAME, ...TIMESTAMPS };
/** Lists whose order the recordings show (`position`). */
const POSITIONED: FieldTable = { ...ID_AND_NAME, position: integer('position'), ...TIMESTAMPS };
/** Reasons as recorded (issue 22 §4: `{id, name, account_id, position, created_at, updated_at}`). */
const REASON: FieldTable = { ...ID_AND_NAME, ...ACCOUNT_ID, position: integer('position'), ...TIMESTAMPS };

/**
 * Every list item table: name is required on create (blank: 422 "can't be blank" on name). Each
 * list shows its own keys of the one ListItem type, so none is derived from the schema.
 */
const listItem = (root: string, fragment: string, fields: FieldTable) =>
  v3Resource({ root, type: 'ListItem', fragment, requiredOnCreate: ['name'], fields, deriveFromSchema: false });

/** v3 §2.10 lead status: id, name, hex_color (a string kept as written, issue 22 §1; the recordings show no account_id or position here). */
export const leadStatusResource = listItem('lead_status', 'LeadStatusV3', { ...ID_AND_NAME, hex_color: text('hexColor'), ...TIMESTAMPS });

/** v3 §2.10 predefined contacts tag (DECISIONS: Wording): id, name. */
export const predefinedContactsTagResource = listItem('predefined_contacts_tag', 'PredefinedContactsTagV3', NAME_ONLY);

/** v3 §2.10 note category: id, name. */
export const noteCategoryResource = listItem('note_category', 'NoteCategoryV3', NAME_ONLY);

/** DECISIONS (Admin surface): lead source costs, in cents. */
export const leadSourceResource = listItem('lead_source', 'LeadSourceV3', {
  ...ID_AND_NAME,
  cost_per_lead_in_cents: integer('costPerLeadInCents'),
  flat_fee_in_cents: integer('flatFeeInCents'),
  ...TIMESTAMPS,
});

/** DECISIONS (Admin surface): deal loss reasons, with their account and position (recorded). */
export const dealLossReasonResource = listItem('deal_loss_reason', 'DealLossReasonV3', REASON);

/** DECISIONS (Admin surface): deal won reasons, with their account and position (recorded). */
export const dealWonReasonResource = listItem('deal_won_reason', 'DealWonReasonV3', REASON);

/** DECISIONS (Admin surface): event categories, with their position. */
export const eventCategoryResource = listItem('event_category', 'EventCategoryV3', POSITIONED);

/** DECISIONS (Admin surface): document tags. */
export const documentTagResource = listItem('document_tag', 'DocumentTagV3', NAME_ONLY);

/**
 * DECISIONS (Admin surface): calendar entry priorities, with a colour and a position as recorded
 * (`{"name", "hex_color": 0}` created `{id, name, hex_color: "0", position, created_at, updated_at}`).
 */
export const calendarEntryPriorityResource = listItem('calendar_entry_priority', 'CalendarEntryPriorityV3', {
  ...ID_AND_NAME,
  hex_color: text('hexColor'),
  position: integer('position'),
  ...TIMESTAMPS,
});

/**
 * A list the core declares without a table here (src/modules/lists/admin-lists.ts): its v3 face
 * by convention (rest-facade/routes/derived-admin-lists.ts), the keys of a positioned list, and its
 * colour after the name where its items keep one, as calendar entry priorities show them.
 */
export const derivedListItemResource = (root: string, fragment: string, coloured: boolean) =>
  listItem(root, fragment, coloured ? { ...ID_AND_NAME, hex_color: text('hexColor'), position: integer('position'), ...TIMESTAMPS } : POSITIONED);
