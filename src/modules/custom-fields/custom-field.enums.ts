import { registerEnumType } from 'type-graphql';

export enum CustomFieldResource {
  PERSON = 'person',
  COMPANY = 'company',
  DEAL = 'deal',
}
registerEnumType(CustomFieldResource, {
  name: 'CustomFieldResource',
  description: 'The kind of record a custom field (and a custom field group) belongs to.',
  valuesConfig: {
    PERSON: { description: 'People (leads and contacts).' },
    COMPANY: { description: 'Companies.' },
    DEAL: { description: 'Deals.' },
  },
});

/**
 * The kinds DECISIONS (Admin surface) lists for `field_type`; the values are the v3 strings and
 * what `custom_fields.kind` stores. Declaration order is the check constraint's (migration
 * 20261126000001 writes the same order).
 */
export enum CustomFieldKind {
  TEXT = 'text',
  NUMERIC = 'numeric',
  CURRENCY = 'currency',
  DATE = 'date',
  DROPDOWN = 'dropdown',
  MULTI_SELECT = 'multi_select',
  BOOLEAN = 'boolean',
}
registerEnumType(CustomFieldKind, {
  name: 'CustomFieldKind',
  description: 'The kind of value a custom field holds.',
  valuesConfig: {
    TEXT: { description: 'Text, at most 5,000 characters.' },
    NUMERIC: { description: 'A number.' },
    CURRENCY: { description: 'An amount of money in the account currency: a decimal string with the currency\'s places (e.g. "1250.00").' },
    DATE: { description: 'A calendar date, YYYY-MM-DD.' },
    DROPDOWN: { description: "One entry of the field's list of entries (its databaseId)." },
    MULTI_SELECT: { description: "Any entries of the field's list of entries (their databaseIds)." },
    BOOLEAN: { description: 'Yes or no.' },
  },
});

/** The kinds whose values are entries of the label (dropdown entries). */
export const ENTRY_KINDS: ReadonlySet<CustomFieldKind> = new Set([CustomFieldKind.DROPDOWN, CustomFieldKind.MULTI_SELECT]);
