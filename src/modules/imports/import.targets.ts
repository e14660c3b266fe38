import { registerEnumType } from 'type-graphql';
import type { FieldTable, Resource } from '../../kit/fields';
import type { Records } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.enums';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { PERSON_FIELDS } from '../people/person.fields';
import { PERSON_RECORDS } from '../people/person.visibility';
import { COMPANY_NAME, OWNER_EMAIL, type StagedRow } from './import.fields';

/** What an import writes. */
export enum ImportResource {
  PEOPLE = 'people',
  COMPANIES = 'companies',
  DEALS = 'deals',
}
registerEnumType(ImportResource, {
  name: 'ImportResource',
  description: 'The records an import writes.',
  valuesConfig: {
    PEOPLE: { description: 'People (leads and contacts).' },
    COMPANIES: { description: 'Companies.' },
    DEALS: { description: 'Deals: not importable yet (startImport answers a user error).' },
  },
});

/** What an import does with each row. */
export enum ImportMode {
  CREATE = 'create',
  UPDATE = 'update',
  UPSERT = 'upsert',
}
registerEnumType(ImportMode, {
  name: 'ImportMode',
  description: 'What an import does with each row.',
  valuesConfig: {
    CREATE: { description: 'Every row creates a record; nothing is matched.' },
    UPDATE: { description: 'Every row updates the record it matches; a row matching none fails (NOT_FOUND).' },
    UPSERT: { description: 'A row matching a record updates it; one matching none creates one.' },
  },
});

/** The natural keys of batch upsert (src/modules/*\/x.upsert.ts), for every resource. */
export enum ImportMatchKey {
  EMAIL = 'EMAIL',
  NAME = 'NAME',
  NAME_AND_COMPANY = 'NAME_AND_COMPANY',
}
registerEnumType(ImportMatchKey, {
  name: 'ImportMatchKey',
  description: "What identifies an existing record in an import: the resource's keys of batch upsert.",
  valuesConfig: {
    EMAIL: { description: 'People: the main email, ignoring case and surrounding spaces.' },
    NAME: { description: 'Companies: the name, ignoring case.' },
    NAME_AND_COMPANY: { description: "Deals: the name and the company's name, ignoring case." },
  },
});

/** One natural key: the staged row's key text, and the same on a record (SQL on the resource's alias). */
export interface ImportKey {
  /** The v3 field a missing key is blamed on. */
  readonly field: string;
  readonly of: (row: StagedRow) => string | null;
  readonly sql: (alias: string) => string;
}

/** How one resource is imported. */
export interface ImportTarget {
  readonly resource: ImportResource;
  readonly fields: Resource<FieldTable>;
  readonly records: Records<{ id: number }>;
  /** The table written. */
  readonly table: string;
  readonly customFields: CustomFieldResource;
  readonly readScope: string;
  readonly writeScope: string;
  /** Field names the import handles itself. */
  readonly extras: readonly string[];
  /** Columns the import fills itself, besides account, owner, custom fields and times: the linked company, the creator. */
  readonly companyColumn: boolean;
  readonly createdByColumn: boolean;
  readonly keys: Partial<Readonly<Record<ImportMatchKey, ImportKey>>>;
  readonly defaultKey: ImportMatchKey;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null);

export const IMPORT_TARGETS: Partial<Readonly<Record<ImportResource, ImportTarget>>> = {
  [ImportResource.PEOPLE]: {
    resource: ImportResource.PEOPLE,
    fields: PERSON_FIELDS as unknown as Resource<FieldTable>,
    records: PERSON_RECORDS as unknown as Records<{ id: number }>,
    table: 'people',
    customFields: CustomFieldResource.PERSON,
    readScope: 'people:read',
    writeScope: 'people:write',
    extras: [COMPANY_NAME, OWNER_EMAIL],
    companyColumn: true,
    createdByColumn: true,
    keys: { [ImportMatchKey.EMAIL]: { field: 'email', of: (row) => text(row.email), sql: (alias) => `lower(${alias}.email)` } },
    defaultKey: ImportMatchKey.EMAIL,
  },
  [ImportResource.COMPANIES]: {
    resource: ImportResource.COMPANIES,
    fields: COMPANY_FIELDS as unknown as Resource<FieldTable>,
    records: COMPANY_RECORDS as unknown as Records<{ id: number }>,
    table: 'companies',
    customFields: CustomFieldResource.COMPANY,
    readScope: 'companies:read',
    writeScope: 'companies:write',
    extras: [OWNER_EMAIL],
    companyColumn: false,
    createdByColumn: false,
    keys: { [ImportMatchKey.NAME]: { field: 'name', of: (row) => text(row.name), sql: (alias) => `lower(${alias}.name)` } },
    defaultKey: ImportMatchKey.NAME,
  },
};

/** The read scope of every importable resource: reading an import needs its resource's. */
export function readScopeOf(resource: ImportResource): string {
  return `${resource}:read`;
}
