import { FacadeInputError } from '../errors/facade-error';
import type { ConditionTable } from '../request/conditions';
import {
  companyCustomFieldLabelResource,
  customFieldEntryResource,
  customFieldGroupResource,
  customFieldLabelResource,
  dealCustomFieldLabelResource,
  GROUP_TYPES,
  LABEL_TYPES,
  personCustomFieldLabelResource,
} from '../resources/custom-field';
import type { V3Resource } from '../resources/resource-spec';
import { adminList, fieldsOf } from './admin.routes';
import type { RouteDeclaration, RouteHooks } from './route-spec';

/**
 * A create's required fields the facade sends as blank when left out (`toGraphQLInput`): a blank
 * enum or number cannot reach the core (an `Enum!`/`Int!` variable), so the route answers the 422
 * itself, naming the v3 field (DECISIONS: Status codes and bodies). `resource` fixes the label's
 * resource on a per-resource route, whatever `type` the body says.
 */
function createHooks(required: Readonly<Record<string, string>>, resource?: string): RouteHooks {
  return {
    variables: (variables) => {
      const input = variables.input as Record<string, unknown>;
      if (resource) input.resource = resource;
      for (const [to, v3] of Object.entries(required)) if (input[to] === '' || input[to] === null) throw new FacadeInputError(v3, "can't be blank");
      return variables;
    },
  };
}

/** `conditions[type]=DealCustomFieldLabel` (or `?type=`): one resource's labels. */
const LABEL_CONDITIONS: ConditionTable = { type: { to: 'resource', kind: 'enum', map: LABEL_TYPES } };
const GROUP_CONDITIONS: ConditionTable = { type: { to: 'resource', kind: 'enum', map: GROUP_TYPES } };
/** `conditions[custom_field_label_id]=N` (or `?custom_field_label_id=N`): one label's entries. */
const ENTRY_CONDITIONS: ConditionTable = { custom_field_label_id: { to: 'customFieldLabelId', kind: 'ids' } };

/** A per-resource route passes its resource (`resource: DEAL`) to every field that takes it. */
const labels = (path: string, resource: V3Resource, graphqlResource?: string): RouteDeclaration[] =>
  adminList(
    path,
    resource,
    fieldsOf('customFieldLabels', 'customFieldLabel'),
    graphqlResource
      ? { args: { resource: graphqlResource }, createHooks: createHooks({ kind: 'field_type' }, graphqlResource) }
      : { conditions: LABEL_CONDITIONS, queryFilters: LABEL_CONDITIONS, createHooks: createHooks({ resource: 'type', kind: 'field_type' }) },
  );

/** DECISIONS (Admin surface): custom field labels, groups and dropdown entries, admin lists like the others. */
export const CUSTOM_FIELD_ROUTES: readonly RouteDeclaration[] = [
  ...labels('deal_custom_field_labels', dealCustomFieldLabelResource, 'DEAL'),
  ...labels('person_custom_field_labels', personCustomFieldLabelResource, 'PERSON'),
  ...labels('company_custom_field_labels', companyCustomFieldLabelResource, 'COMPANY'),
  ...labels('custom_field_labels', customFieldLabelResource),
  ...adminList('custom_field_groups', customFieldGroupResource, fieldsOf('customFieldGroups', 'customFieldGroup'), {
    conditions: GROUP_CONDITIONS,
    queryFilters: GROUP_CONDITIONS,
    createHooks: createHooks({ resource: 'type' }),
  }),
  ...adminList('custom_field_label_dropdown_entries', customFieldEntryResource, fieldsOf('customFieldEntries', 'customFieldEntry'), {
    conditions: ENTRY_CONDITIONS,
    queryFilters: ENTRY_CONDITIONS,
    createHooks: createHooks({ customFieldLabelId: 'custom_field_label_id' }),
  }),
];
