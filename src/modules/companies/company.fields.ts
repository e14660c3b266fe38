import { CUSTOM_FIELD_VALUES_INPUT, CUSTOM_FIELDS_INPUT_DOC } from '../custom-fields/custom-field-values';
import { CustomFieldFilter } from '../../graphql/filters';
import { customFieldFilter } from '../custom-field-search/custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { defineResource, type InputOf } from '../../kit/fields';
import { Company } from './company.entity';

const text = { kind: 'text', write: 'auto' } as const;

/**
 * Every company field, once (v3 §2.6): what it is, whether and how it is written, filtered and
 * sorted. Inputs, filter, order, their SQL and the write whitelist derive from it (src/kit/fields.ts).
 * Text sorts are as stored except the name (v3 behaviour; people differ, and say so).
 */
export const COMPANY_FIELDS = defineResource(
  {
    type: 'Company',
    plural: 'companies',
    entity: Company,
    alias: 'c',
    defaultOrder: ['name'],
    createDoc: 'A new company. Only name is required; the owner defaults to the viewer.',
    updateDoc: 'Changes to a company: only the fields given change; null clears a field (name cannot be cleared).',
    filterDoc: 'Which companies to list: every condition given must hold; compose with and, or, not.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The company's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    name: {
      ...text,
      required: true,
      createDoc: 'Required; at most 255 characters.',
      updateDoc: 'At most 255 characters; cannot be blank.',
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    description: { ...text, filter: { startsWithSql: 'lower(left(c.description, 200))', doc: 'Description (startsWith reads its first 200 characters).' } },
    email: { ...text, filter: { doc: 'Email address.' }, sort: { case: 'cs', doc: 'Email address.' } },
    website: { ...text, filter: { doc: 'Website.' }, v3: 'web' },
    fax: { ...text, filter: { doc: 'Fax number.' } },
    address1: { ...text, filter: { doc: 'First address line.' }, v3: 'address_1' },
    address2: { ...text, filter: { doc: 'Second address line.' }, v3: 'address_2' },
    city: { ...text, filter: { doc: 'City.' }, sort: { case: 'cs', doc: 'City.' } },
    state: { ...text, filter: { doc: 'State or region.' }, sort: { case: 'cs', doc: 'State or region.' } },
    postalCode: { ...text, filter: { doc: 'Postal code.' }, sort: { case: 'cs', doc: 'Postal code.' } },
    country: { ...text, filter: { doc: 'Country.' }, sort: { case: 'cs', doc: 'Country.' } },
    phone1: text,
    phone2: text,
    phone3: text,
    phone4: text,
    phone1Desc: text,
    phone2Desc: text,
    phone3Desc: text,
    phone4Desc: text,
    imageUrl: { ...text, v3: 'image_thumb_url' },
    anyPhone: { kind: 'text', property: null, filter: { sql: ['c.phone1', 'c.phone2', 'c.phone3', 'c.phone4'], doc: 'Any of phone1 to phone4.' } },
    ownerId: {
      kind: 'ref',
      write: 'custom',
      inputDoc: 'databaseId of the owner, a user of the account; the viewer when not given on create.',
      filter: { doc: "The owner (a user's databaseId)." },
      sort: { doc: "The owner's databaseId." },
    },
    customFields: {
      kind: 'json',
      write: 'custom',
      inputDoc: CUSTOM_FIELDS_INPUT_DOC,
      filter: {
        input: () => [CustomFieldFilter],
        build: customFieldFilter(CustomFieldResource.COMPANY, 'c') as never,
        doc: 'Conditions on custom fields, all of which must hold.',
      },
    },
    customFieldValues: CUSTOM_FIELD_VALUES_INPUT,
    createdAt: {
      kind: 'datetime',
      write: 'create',
      inputDoc: 'For imports: when the record was created (ISO 8601). Ignored on update.',
      filter: { doc: 'When the company was created.' },
      sort: { doc: 'Creation time.' },
    },
    updatedAt: {
      kind: 'datetime',
      write: 'custom',
      inputDoc: 'For imports: when the record was last changed (ISO 8601); createdAt when absent. Ignored on update.',
      filter: { doc: 'When the company was last changed.' },
      sort: { doc: 'Last change.' },
    },
    importedAt: { kind: 'datetime', filter: { doc: 'When the company was imported.' } },
  },
);

/** What the service applies: either input. */
export type CompanyInput = InputOf<typeof COMPANY_FIELDS.table>;
