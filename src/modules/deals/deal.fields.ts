import { CUSTOM_FIELD_VALUES_INPUT, CUSTOM_FIELDS_INPUT_DOC } from '../custom-fields/custom-field-values';
import { Field, InputType } from 'type-graphql';
import { CustomFieldFilter } from '../../graphql/filters';
import { customFieldFilter } from '../custom-field-search/custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { defineResource, type InputOf } from '../../kit/fields';
import { relatedIdsFilter, relatedManyFilter, relatedRecordFilter } from '../common/related-filters';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { PERSON_FIELDS } from '../people/person.fields';
import { PERSON_RECORDS } from '../people/person.visibility';
import { Deal } from './deal.entity';

type PersonFilter = InstanceType<typeof PERSON_FIELDS.Filter>;

/** Conditions on the people of a deal: any of them matches, or none does. */
@InputType('DealPeopleFilter', { description: 'Conditions on the people of a deal (v3 `person_*` conditions): `some` of them match, or `none` does.' })
export class DealPeopleFilter {
  @Field(() => PERSON_FIELDS.Filter, { nullable: true, description: "At least one of the deal's people the viewer may see matches." })
  some?: PersonFilter | null;
  @Field(() => PERSON_FIELDS.Filter, {
    nullable: true,
    description: "None of the deal's people the viewer may see matches (a deal without people, or with only people hidden from the viewer, matches).",
  })
  none?: PersonFilter | null;
}

/** A deal's people: `deal_people` rows tied to the deal. */
const DEAL_PEOPLE = { table: 'deal_people', alias: 'dp', on: 'dp.deal_id = d.id', column: 'dp.person_id' } as const;

/** The name of the deal's company (a scalar subquery). */
const COMPANY_NAME = `(select c.name from "companies" c where c.id = d.company_id and c.account_id = d.account_id)`;

const money = (doc: string) => ({ kind: 'decimal', write: 'custom', doc, filter: { doc: `${doc} (as a number)` } }) as const;

/**
 * Every deal field, once (v3 §2.5): what it is, whether and how it is written, filtered and sorted.
 * Inputs, filter, order, their SQL and the write whitelist derive from it (src/kit/fields.ts).
 */
export const DEAL_FIELDS = defineResource(
  {
    type: 'Deal',
    plural: 'deals',
    entity: Deal,
    alias: 'd',
    defaultOrder: ['-createdAt'],
    createDoc: 'A new deal. Only name is required; the owner defaults to the viewer.',
    updateDoc: 'Changes to a deal: only the fields given change; null clears a field (name cannot be cleared).',
    filterDoc:
      'Which deals to list: every condition given must hold; compose with and, or, not. Conditions on the company and the people of a deal are filters of their own.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The deal's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    name: {
      kind: 'text',
      write: 'auto',
      required: true,
      doc: 'Name; at most 255 characters. Required.',
      createDoc: 'Required; at most 255 characters.',
      updateDoc: 'At most 255 characters; cannot be blank.',
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    summary: { kind: 'text', write: 'auto', doc: 'Free text about the deal, any length (10,000 characters per request).' },
    status: {
      kind: 'int',
      write: 'custom',
      doc: 'A traffic light: 1 red, 2 yellow, 3 green; null for none.',
      filter: { doc: 'Status (1 red, 2 yellow, 3 green).' },
    },
    probability: {
      kind: 'int',
      write: 'custom',
      doc: 'Chance to win, 0 to 100: 0 (lost) and 100 (won) close the deal, 1 to 99 reopen it. A stage change sets it from the stage.',
      filter: { doc: 'Probability (v3 deal_percentage).' },
      sort: { doc: 'Probability.' },
    },
    expectedCloseDate: {
      kind: 'date',
      write: 'custom',
      doc: 'When the deal is expected to close (YYYY-MM-DD).',
      filter: { doc: 'Expected close date.' },
      sort: { doc: 'Expected close date (no date last).' },
    },
    closedTime: {
      kind: 'datetime',
      write: 'custom',
      doc: 'When the deal was won or lost; set when probability becomes 0 or 100 (unless given), cleared when it reopens.',
      filter: { doc: 'When the deal closed.' },
      sort: { doc: 'When the deal closed.' },
    },
    isArchived: {
      kind: 'boolean',
      write: 'custom',
      doc: 'Archived deals are kept but out of the way. null on input means false.',
      filter: { doc: 'Archived.' },
    },
    value: {
      ...money('The deal\'s value in the account currency, a decimal string with the currency\'s places (e.g. "5000.00"); input as a number or a string.'),
      sort: { doc: 'Value.' },
    },
    valueInCents: {
      kind: 'float',
      property: null,
      write: 'custom',
      inputDoc: 'Deprecated: the value in cents (value wins when both change).',
      inputDeprecation: 'Use value.',
    },
    bonus: money('A bonus, in the account currency (decimal string).'),
    commission: money('The commission, in the account currency (decimal string).'),
    commissionRate: { kind: 'decimal', write: 'custom', doc: 'The commission rate, a percentage 0 to 100 (decimal string, up to 4 places).' },
    ownerId: {
      kind: 'ref',
      write: 'custom',
      v3: 'user_id',
      doc: 'databaseId of the owner (a user of the account); the viewer when not given on create.',
      filter: { doc: "The owner (a user's databaseId)." },
      sort: { doc: "The owner's databaseId." },
    },
    companyId: {
      kind: 'ref',
      write: 'custom',
      doc: "databaseId of the deal's company (one the viewer may see when set); null removes it.",
      filter: { doc: 'The company (its databaseId).' },
    },
    companyName: {
      kind: 'text',
      property: null,
      write: 'custom',
      inputDoc: "When it differs from the current company's name: finds the account's company of that name (case-insensitive) or creates one",
      filter: { sql: COMPANY_NAME, doc: "The name of the deal's company." },
    },
    company: {
      kind: 'json',
      property: null,
      filter: relatedRecordFilter(
        { def: COMPANY_RECORDS, fields: COMPANY_FIELDS },
        'd.company_id',
        'Conditions on the deal\'s company (e.g. `{name: {contains: "acme"}}`); a company the viewer may not see matches nothing.',
      ),
    },
    primaryContactId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the main person of the deal (one the viewer may see); null removes it.',
      filter: { doc: "The primary contact (a person's databaseId)." },
    },
    personIds: {
      kind: 'refs',
      property: null,
      write: 'custom',
      inputDoc: 'databaseIds of the people taking part: replaces the whole set; ids of people that do not exist or that the viewer may not see are ignored.',
      filter: relatedIdsFilter(PERSON_RECORDS, DEAL_PEOPLE, "The deal's people the viewer may see: `eq`/`in` has any of them, `isNull: true` has none."),
    },
    people: {
      kind: 'json',
      property: null,
      filter: relatedManyFilter(
        { def: PERSON_RECORDS, fields: PERSON_FIELDS },
        DEAL_PEOPLE,
        () => DealPeopleFilter,
        'Conditions on the deal\'s people the viewer may see (e.g. `{some: {anyEmail: {contains: "@acme"}}}`).',
      ),
    },
    sharedUserIds: {
      kind: 'refs',
      property: null,
      write: 'custom',
      inputDoc: 'databaseIds of the users the deal is shared with (collaborators): replaces the whole set; ids that are not users of the account are ignored.',
    },
    dealStageId: {
      kind: 'ref',
      property: 'stage',
      write: 'custom',
      doc: "databaseId of the deal's stage; changing it sets probability from the stage's percent.",
      filter: { doc: 'The stage (its databaseId).' },
      sort: { doc: "The stage's databaseId." },
    },
    dealLossReasonId: {
      kind: 'ref',
      property: 'lossReason',
      write: 'custom',
      doc: 'databaseId of why the deal was lost (an item of the deal loss reasons list).',
      filter: { doc: 'The loss reason (its databaseId).' },
    },
    lossReasonNotes: { kind: 'text', write: 'auto', v3: 'deal_loss_reason_notes', doc: 'Notes on why the deal was lost, any length.' },
    sourceId: {
      kind: 'ref',
      property: 'source',
      write: 'custom',
      doc: 'databaseId of where the deal came from (an item of the lead sources list).',
      filter: { doc: "The source (a lead source's databaseId)." },
      sort: { doc: "The source's databaseId." },
    },
    customFields: {
      kind: 'json',
      write: 'custom',
      inputDoc: CUSTOM_FIELDS_INPUT_DOC,
      filter: {
        input: () => [CustomFieldFilter],
        build: customFieldFilter(CustomFieldResource.DEAL, 'd') as never,
        doc: 'Conditions on custom fields, all of which must hold.',
      },
    },
    customFieldValues: CUSTOM_FIELD_VALUES_INPUT,
    createdAt: {
      kind: 'datetime',
      write: 'custom',
      inputDoc: 'For imports: when the record was created (ISO 8601). Ignored on update.',
      filter: { doc: 'When the deal was created.' },
      sort: { doc: 'Creation time.' },
    },
    updatedAt: {
      kind: 'datetime',
      write: 'custom',
      inputDoc: 'For imports: when the record was last changed (ISO 8601); createdAt when absent. Ignored on update.',
      filter: { doc: 'When the deal was last changed.' },
      sort: { doc: 'Last change.' },
    },
  },
);

/** What the service applies: either input. */
export type DealInput = InputOf<typeof DEAL_FIELDS.table>;
