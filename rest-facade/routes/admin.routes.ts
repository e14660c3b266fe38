import { leadSourceResource, leadStatusResource, noteCategoryResource, predefinedContactsTagResource } from '../resources/list-item';
import type { RouteSpec } from './route-spec';

// DECISIONS (Paging): admin lists default to 200 a page and never exceed 200.
const list = { method: 'GET', kind: 'list', errorShape: 'array', paging: { default: 200, max: 200 } } as const;

/** v3 §4.10: admin lists are read-only (lead sources: §4.10 "the admin interface also serves"). */
export const ADMIN_ROUTES: readonly RouteSpec[] = [
  { ...list, path: '/admin/lead_statuses', op: 'ListLeadStatuses', result: 'leadStatuses', resource: leadStatusResource },
  // DECISIONS (Wording): "predefined the service tags" are predefined_contacts_tags.
  { ...list, path: '/admin/predefined_contacts_tags', op: 'ListPredefinedContactsTags', result: 'contactTags', resource: predefinedContactsTagResource },
  { ...list, path: '/admin/note_categories', op: 'ListNoteCategories', result: 'noteCategories', resource: noteCategoryResource },
  { ...list, path: '/admin/lead_sources', op: 'ListLeadSources', result: 'leadSources', resource: leadSourceResource },
];
