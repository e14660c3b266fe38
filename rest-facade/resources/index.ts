import { accountResource } from './account';
import { companyResource } from './company';
import { REF_FRAGMENTS } from './field-table';
import { leadSourceResource, leadStatusResource, noteCategoryResource, predefinedContactsTagResource } from './list-item';
import { personResource } from './person';
import type { ResourceSpec } from './resource-spec';
import { userResource } from './user';

/** Every v3 resource: each brings its generated fragment to the operations. */
export const RESOURCES: readonly ResourceSpec[] = [
  personResource,
  companyResource,
  userResource,
  accountResource,
  leadStatusResource,
  leadSourceResource,
  predefinedContactsTagResource,
  noteCategoryResource,
];

/** The fragments generated from the field tables, which the static operations spread. */
export function fragmentsSource(): string {
  return [
    '# Generated from rest-facade/resources/*.ts field tables.',
    ...REF_FRAGMENTS.map((f) => `fragment ${f.name} on ${f.type} { ${f.selection} }`),
    ...RESOURCES.map((r) => r.fragmentSource),
  ].join('\n');
}
