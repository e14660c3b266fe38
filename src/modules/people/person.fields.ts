import { CUSTOM_FIELD_VALUES_INPUT, CUSTOM_FIELDS_INPUT_DOC } from '../custom-fields/custom-field-values';
import { contains } from '../../db/sql';
import { CustomFieldFilter, EnumFilterOf } from '../../graphql/filters';
import { customFieldFilter } from '../custom-field-search/custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { defineResource, type InputOf } from '../../kit/fields';
import { InputType } from 'type-graphql';
import { withoutNul } from '../common/input';
import { relatedIdsFilter } from '../common/related-filters';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { Person, PersonType } from './person.entity';

@InputType('PersonTypeFilter', { description: 'Conditions on the person type.' })
export class PersonTypeFilter extends EnumFilterOf(PersonType, 'person type') {}

/** The expressions the migration's trigram indexes are built on: conditions must use them verbatim. */
const NAME_EXPR = `(coalesce(p.first_name, '') || ' ' || p.last_name)`;
const EMAILS_EXPR = `(coalesce(p.email, '') || ' ' || coalesce(p.email2, '') || ' ' || coalesce(p.home_email, ''))`;
const PHONES_EXPR = `(coalesce(p.phone, '') || ' ' || coalesce(p.mobile, '') || ' ' || coalesce(p.home_phone, ''))`;
/** The person's company's name (a scalar subquery: one row per person). */
export const COMPANY_NAME = `(select c.name from "companies" c where c.id = p.company_id and c.account_id = p.account_id)`;

/** A person's deals: `deal_people` rows tied to the person. */
const PERSON_DEALS = { table: 'deal_people', alias: 'dp', on: 'dp.person_id = p.id', column: 'dp.deal_id' } as const;

/** v3 §4.4 simple search: first name, last name, email or company name (indexed expressions). */
function search(value: string): { sql: string; params: unknown[] } | null {
  const term = withoutNul(value).trim();
  if (term === '') return null;
  const pattern = contains(term);
  return { sql: `${NAME_EXPR} ilike ? or ${EMAILS_EXPR} ilike ? or ${COMPANY_NAME} ilike ?`, params: [pattern, pattern, pattern] };
}

const text = { kind: 'text', write: 'auto' } as const;
const like = (doc: string) => ({ doc });
/** People sort text ignoring case (v3 behaviour; companies differ, and say so). */
const ci = (doc: string) => ({ case: 'ci', doc }) as const;

/**
 * Every person field, once (v3 §2.4): what it is, whether and how it is written, filtered and
 * sorted. Inputs, filter, order, their SQL and the write whitelist derive from it (src/kit/fields.ts).
 */
export const PERSON_FIELDS = defineResource(
  {
    type: 'Person',
    plural: 'people',
    entity: Person,
    alias: 'p',
    defaultOrder: ['lastName', 'firstName'],
    createDoc: 'A new person. Only lastName is required; the owner defaults to the viewer.',
    updateDoc: 'Changes to a person: only the fields given change; null clears a field (lastName cannot be cleared).',
    filterDoc: 'Which people to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key people can be ordered by. Text keys ignore case.',
  },
  {
    databaseId: { kind: 'ref', filter: like("The person's databaseId."), sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    firstName: { ...text, filter: like('First name.'), sort: ci('First name.') },
    lastName: {
      ...text,
      required: true,
      createDoc: 'Required; at most 100 characters.',
      updateDoc: 'At most 100 characters; cannot be blank.',
      filter: like('Last name.'),
      sort: ci('Last name.'),
    },
    fullName: {
      kind: 'text',
      property: null,
      write: 'custom',
      inputDoc:
        'Split on the first space into firstName and lastName (one word: lastName only). It wins over firstName/lastName, ' +
        "except on update when it equals the person's current full name (a client sending back what it read).",
    },
    name: { kind: 'text', property: null, filter: { sql: NAME_EXPR, doc: 'First and last name together, as in fullName ("Ada Lovelace").' } },
    summary: text,
    position: { ...text, filter: like('Job title.'), sort: ci('Job title.') },
    website: text,
    phone: text,
    homePhone: text,
    mobile: text,
    fax: text,
    email: { ...text, filter: like('The main email address.'), sort: ci('Main email address.') },
    email2: text,
    homeEmail: text,
    anyEmail: {
      kind: 'text',
      property: null,
      filter: { sql: ['p.email', 'p.email2', 'p.home_email'], containsSql: EMAILS_EXPR, doc: 'Any of email, email2 and homeEmail.' },
    },
    anyPhone: {
      kind: 'text',
      property: null,
      filter: { sql: ['p.phone', 'p.mobile', 'p.home_phone'], containsSql: PHONES_EXPR, doc: 'Any of phone, mobile and homePhone.' },
    },
    companyId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of a company of the account the viewer may see; null removes the company.',
      filter: like('The company (its databaseId).'),
      sort: { doc: "The company's databaseId." },
    },
    companyName: {
      kind: 'text',
      property: null,
      write: 'custom',
      inputDoc: "When it differs from the current company's name: finds the account's company of that name (case-insensitive) or creates one",
      filter: { sql: COMPANY_NAME, doc: "The name of the person's company." },
      sort: { sql: COMPANY_NAME, case: 'ci', nullable: true, type: 'text', doc: "The company's name." },
    },
    search: {
      kind: 'text',
      property: null,
      filter: {
        input: () => String,
        build: search as (value: never) => ReturnType<typeof search>,
        doc: 'Quick search, as a search box does: people whose name, email or company name contains this text (case-insensitive). Blank is ignored.',
      },
    },
    ownerId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of the owner, a user of the account; the viewer when not given on create.',
      filter: like("The owner (a user's databaseId)."),
      sort: { doc: "The owner's databaseId." },
    },
    type: {
      kind: 'enum',
      enum: PersonType,
      write: 'custom',
      inputDoc: 'Lead or contact; Lead to Contact sets convertedAt, back to Lead clears it; null keeps the current type.',
      filter: { input: () => PersonTypeFilter, doc: 'Lead or contact.' },
      sort: { case: 'cs', doc: 'Contact before Lead (ascending).' },
    },
    leadStatusId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of a lead status (an item of the lead statuses list); null clears it.',
      filter: like("The lead status (a list item's databaseId)."),
      sort: { doc: "The lead status's databaseId." },
    },
    leadSourceId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of a lead source (an item of the lead sources list); null clears it.',
      filter: like("The lead source (a list item's databaseId)."),
      sort: { doc: "The lead source's databaseId." },
    },
    imageUrl: { ...text, v3: 'image_thumb_url' },
    tagIds: {
      kind: 'refs',
      write: 'custom',
      inputDoc: 'databaseIds of contact tags: replaces the whole set; ids that are not contact tags of the account are ignored.',
      filter: like('The contact tags: `eq` has this tag, `in` has any of these, `isNull: true` has none.'),
      v3: 'predefined_contacts_tag_ids',
    },
    customFields: {
      kind: 'json',
      write: 'custom',
      inputDoc: CUSTOM_FIELDS_INPUT_DOC,
      filter: {
        input: () => [CustomFieldFilter],
        build: customFieldFilter(CustomFieldResource.PERSON, 'p') as never,
        doc: 'Conditions on custom fields, all of which must hold.',
      },
    },
    customFieldValues: CUSTOM_FIELD_VALUES_INPUT,
    workAddress1: { ...text, v3: 'work_address_1' },
    workAddress2: { ...text, v3: 'work_address_2' },
    workCity: { ...text, filter: like('Work address city.'), sort: ci('Work address city.') },
    workState: { ...text, filter: like('Work address state or region.'), sort: ci('Work address state.') },
    workCountry: { ...text, filter: like('Work address country.'), sort: ci('Work address country.') },
    workPostalCode: { ...text, filter: like('Work address postal code.'), sort: { case: 'cs', doc: 'Work address postal code.' } },
    homeAddress1: { ...text, v3: 'home_address_1' },
    homeAddress2: { ...text, v3: 'home_address_2' },
    homeCity: text,
    homeState: text,
    homeCountry: text,
    homePostalCode: text,
    facebookUrl: text,
    linkedInUrl: text,
    twitter: text,
    instantMessage: text,
    unsubscribed: {
      kind: 'boolean',
      write: 'custom',
      inputDoc: 'The person asked not to receive emails; null means false.',
      filter: like('Unsubscribed from emails.'),
    },
    bounced: { kind: 'boolean', write: 'custom', inputDoc: 'Emails to the person bounced; null means false.', filter: like('Emails to them bounced.') },
    lastEmailedAt: { kind: 'datetime', write: 'auto', filter: like('When the person was last emailed.'), sort: { doc: 'When last emailed.' } },
    convertedAt: { kind: 'datetime', filter: like('When the lead became a contact.'), sort: { doc: 'When the lead became a contact.' } },
    createdAt: {
      kind: 'datetime',
      write: 'custom',
      inputDoc: 'For imports: when the record was created (ISO 8601). Ignored on update.',
      filter: like('When the person was created.'),
      sort: { doc: 'Creation time.' },
    },
    updatedAt: {
      kind: 'datetime',
      write: 'custom',
      inputDoc: 'For imports: when the record was last changed (ISO 8601); createdAt when absent. Ignored on update.',
      filter: like('When the person was last changed.'),
      sort: { doc: 'Last change.' },
    },
    dealIds: {
      kind: 'refs',
      property: null,
      write: 'custom',
      inputDoc:
        'databaseIds of the deals the person takes part in: replaces the set among the deals the viewer may see; ids of deals that do not exist or that the viewer may not see are ignored.',
      filter: relatedIdsFilter(
        DEAL_RECORDS,
        PERSON_DEALS,
        'The deals the person takes part in that the viewer may see: `eq`/`in` any of them, `isNull: true` none.',
      ),
    },
  },
);

/** What the service applies: either input. */
export type PersonInput = InputOf<typeof PERSON_FIELDS.table>;
