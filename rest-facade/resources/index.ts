import type { GraphQLSchema } from 'graphql';
import { FACADE_MODULES } from '../modules';
import { adminListsOf } from '../routes';
import { REF_FRAGMENTS } from './field-table';
import type { V3Resource } from './resource-spec';

/** Every v3 resource, from the facade's modules: each brings its generated fragment to the operations. */
export const RESOURCES: readonly V3Resource[] = FACADE_MODULES.flatMap((m) => m.resources);

/** Every v3 resource on this schema: the modules', then those of the admin lists derived from it (their fragments come with their operations). */
export function v3Resources(schema: GraphQLSchema): readonly V3Resource[] {
  return [...RESOURCES, ...adminListsOf(schema).resources];
}

/** The fragments generated from the field tables, which the static operations spread. */
export function fragmentsSource(): string {
  return [
    '# Generated from rest-facade/resources/*.ts field tables.',
    ...REF_FRAGMENTS.map((f) => `fragment ${f.name} on ${f.type} { ${f.selection} }`),
    ...RESOURCES.map((r) => r.fragmentSource),
  ].join('\n');
}
