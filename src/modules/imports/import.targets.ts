import { registerEnumType } from 'type-graphql';
import type { FieldTable, Resource } from '../../kit/fields';
import type { Records } from '../common/resource';
import { CustomFieldResource } from '../custom-fields/custom-field.enums';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { PERSON_FIELDS } from '../people/person.fields';
import { PERSON_RECORDS } from '../people/person.visibility';
import type { UpsertDeclaration } from '../common/upsert';
import { DEAL_FIELDS } from '../deals/deal.fields';
import { DEAL_UPSERT } from '../deals/deal.upsert';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import type { CustomField } from '../custom-fields/custom-field.entity';
import { v3WritableKeys } from '../../jobs/import-inputs';
import { COMPANY_NAME, knownField, OWNER_EMAIL, type ColumnRule, type StagedRow } from './import.fields';

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
    DEALS: { description: "Deals, written one by one by the deal's own create and update (a stage sets the probability, value takes the currency's places)." },
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
  /** Set-based imports: the key on a record; imports record by record match by their upsert declaration's key instead. */
  readonly sql?: (alias: string) => string;
}

/**
 * A resource imported record by record: each row read as a v3 create reads its attributes
 * (src/jobs/import-inputs.ts), then matched and written by the resource's upsert declaration,
 * whose create and update are the service's (every rule of the API applies). Slower than
 * set-based SQL; for resources whose writes have rules of their own (a deal's stage sets its
 * probability, a close date makes a task).
 */
export interface RecordImport {
  readonly upsert: UpsertDeclaration<{ id: number }, any>;
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
  /** Present: imported record by record through the declaration (rows as v3 attributes); absent: set-based, rows as columns. */
  readonly byRecord?: RecordImport;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null);

/** A deal's name and company as one text (duplicates in a file): the company by id when given, else by name. */
const dealKey = (row: StagedRow): string | null => {
  const input = (row.input ?? {}) as { name?: unknown; companyId?: unknown; companyName?: unknown };
  const name = text(input.name);
  if (name === null) return null;
  const company = input.companyId != null ? `#${String(input.companyId)}` : (text(input.companyName) ?? '');
  return `${name}\n${company}`;
};

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
  [ImportResource.DEALS]: {
    resource: ImportResource.DEALS,
    fields: DEAL_FIELDS as unknown as Resource<FieldTable>,
    records: DEAL_RECORDS as unknown as Records<{ id: number }>,
    table: 'deals',
    customFields: CustomFieldResource.DEAL,
    readScope: 'deals:read',
    writeScope: 'deals:write',
    extras: [OWNER_EMAIL],
    companyColumn: true,
    createdByColumn: false,
    keys: { [ImportMatchKey.NAME_AND_COMPANY]: { field: 'name', of: dealKey } },
    defaultKey: ImportMatchKey.NAME_AND_COMPANY,
    byRecord: { upsert: DEAL_UPSERT },
  },
};

/**
 * Whether a field is one an import of `target` takes: a set-based import's plain columns (`rules`)
 * and extras, a record import's writable v3 keys and extras; custom fields of the account either way.
 */
export function knownFieldOf(target: ImportTarget, rules: ReadonlyMap<string, ColumnRule>, customDefs: readonly CustomField[]): (field: string) => boolean {
  if (!target.byRecord) return (field) => knownField(rules, customDefs, field, target.extras);
  const writable = v3WritableKeys(target.resource);
  return (field) => writable.has(field) || knownField(new Map(), customDefs, field, target.extras);
}

/** The read scope of every importable resource: reading an import needs its resource's. */
export function readScopeOf(resource: ImportResource): string {
  return `${resource}:read`;
}
