import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';

/**
 * Descriptions of the plain fields the entities and inputs share, written once: the same word
 * means the same thing on every type (`website`, `postalCode`, `createdAt`). `Type.field` entries
 * win over bare field names. Fields and types described in their decorators keep their own text;
 * test/contract/schema-docs.test.ts fails when anything in the schema is left undescribed.
 */
const chars = (n: number) => `at most ${n} characters`;

const SHARED: Readonly<Record<string, string>> = {
  createdAt: 'When the record was created (ISO 8601, UTC). Writable on create only, for imports.',
  updatedAt: 'When the record was last changed (ISO 8601, UTC). Writable on create only, for imports.',
  ownerId: 'databaseId of the owner (a user of the account); the viewer when not given on create.',
  email: `Email address; ${chars(255)}.`,
  website: `Website address; ${chars(255)}.`,
  fax: `Fax number; ${chars(100)}.`,
  imageUrl: `Address of the avatar image; ${chars(2000)}.`,
  address1: `Address, first line; ${chars(255)}.`,
  address2: `Address, second line; ${chars(255)}.`,
  city: `City; ${chars(100)}.`,
  state: `State or region; ${chars(100)}.`,
  postalCode: `Postal code; ${chars(30)}.`,
  country: `Country; ${chars(100)}.`,
  phone1: `First phone number; ${chars(100)}.`,
  phone2: `Second phone number; ${chars(100)}.`,
  phone3: `Third phone number; ${chars(100)}.`,
  phone4: `Fourth phone number; ${chars(100)}.`,
  phone1Desc: `What the first phone number is (e.g. "Office"); ${chars(100)}.`,
  phone2Desc: `What the second phone number is; ${chars(100)}.`,
  phone3Desc: `What the third phone number is; ${chars(100)}.`,
  phone4Desc: `What the fourth phone number is; ${chars(100)}.`,
  firstName: `First name; ${chars(100)}.`,
  lastName: `Last name; ${chars(100)}. Required.`,
  fullName: 'First and last name, separated by a space.',
  summary: 'Free text about the person, any length (10,000 characters per request).',
  position: `Job title; ${chars(255)}.`,
  phone: `Work phone number; ${chars(100)}.`,
  homePhone: `Home phone number; ${chars(100)}.`,
  mobile: `Mobile phone number; ${chars(100)}.`,
  email2: `Second email address; ${chars(255)}.`,
  homeEmail: `Private email address; ${chars(255)}.`,
  workAddress1: `Work address, first line; ${chars(255)}.`,
  workAddress2: `Work address, second line; ${chars(255)}.`,
  workCity: `Work address city; ${chars(100)}.`,
  workState: `Work address state or region; ${chars(100)}.`,
  workCountry: `Work address country; ${chars(100)}.`,
  workPostalCode: `Work address postal code; ${chars(30)}.`,
  homeAddress1: `Home address, first line; ${chars(255)}.`,
  homeAddress2: `Home address, second line; ${chars(255)}.`,
  homeCity: `Home address city; ${chars(100)}.`,
  homeState: `Home address state or region; ${chars(100)}.`,
  homeCountry: `Home address country; ${chars(100)}.`,
  homePostalCode: `Home address postal code; ${chars(30)}.`,
  facebookUrl: `Facebook profile address; ${chars(500)}.`,
  linkedInUrl: `LinkedIn profile address; ${chars(500)}.`,
  twitter: `Twitter/X handle; ${chars(100)}.`,
  instantMessage: `Instant messaging handle; ${chars(100)}.`,
  unsubscribed: 'The person asked not to receive emails. null on input means false.',
  bounced: 'Emails to the person bounced. null on input means false.',
  lastEmailedAt: 'When the person was last emailed (ISO 8601).',
  convertedAt: 'When the lead became a contact; null for leads and for contacts created as such.',
  viewedAt: 'When the person was last viewed. Read-only.',
  companyId: "databaseId of the person's company, shown even when the viewer may not see that company.",
  leadStatusId: 'databaseId of the lead status (an item of the lead statuses list).',
  leadSourceId: 'databaseId of the lead source (an item of the lead sources list).',
  tagIds: 'databaseIds of the contact tags (items of the contact tags list).',
  type: 'Lead or contact. Changing a lead to a contact sets convertedAt.',
  importId: 'Identifier of the import that created the company, if any.',
  importedAt: 'When the company was imported, if it was.',
};

const BY_TYPE: Readonly<Record<string, string>> = {
  'Company.name': `Name; ${chars(255)}. Required; names need not be unique.`,
  'Company.description': 'Free text about the company, any length (10,000 characters per request).',
  'CompanyCreateInput.description': 'Free text about the company (10,000 characters per request).',
  'CompanyUpdateInput.description': 'Free text about the company (10,000 characters per request).',
  'CustomFieldValue.fieldId': 'databaseId of the custom field definition.',
  'CustomFieldValue.kind': 'What kind of value the field holds.',
  'CustomFieldValue.name': "The field's name, as the account defined it.",
  'PersonCreateInput.type': 'Lead or contact (default: contact).',
  'PersonUpdateInput.type': 'Lead or contact; Lead to Contact sets convertedAt, back to Lead clears it; null keeps the current type.',
};

/** `Type.field` descriptions the resources' field tables declare (src/kit/fields.ts). */
const DECLARED: Record<string, string> = {};

/** A field table's docs, registered when its module loads (before the schema is built). */
export function registerFieldDocs(docs: Readonly<Record<string, string>>): void {
  Object.assign(DECLARED, docs);
}

const TYPES: Readonly<Record<string, string>> = {
  Query: 'What can be read. Lists are connections; single lookups are null when the record does not exist or the viewer may not see it.',
  Mutation: 'What can be changed. Each mutation answers a payload whose userErrors explain refused input; nothing is written then.',
  CompanyCreateOptions: 'How createCompany behaves beyond the record itself.',
  CompanyUpdateOptions: 'How updateCompany behaves beyond the record itself.',
  PersonCreateOptions: 'How createPerson behaves beyond the record itself.',
  PersonUpdateOptions: 'How updatePerson behaves beyond the record itself.',
  CustomFieldKind: 'The kind of value a custom field holds.',
  CustomFieldValue: 'A custom field of the record and its value.',
};

/** Enum values the registrations leave undescribed (CustomFieldKind describes its own, custom-field.enums.ts). */
const ENUM_VALUES: Readonly<Record<string, string>> = {};

/** Fills the descriptions the decorators leave out (in place, once, after the schema is built). */
export function describeFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    type.description ??= TYPES[type.name];
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        field.description ??= BY_TYPE[`${type.name}.${field.name}`] ?? DECLARED[`${type.name}.${field.name}`] ?? SHARED[field.name];
    }
    if (isEnumType(type)) for (const value of type.getValues()) value.description ??= ENUM_VALUES[`${type.name}.${value.name}`];
  }
  return schema;
}
