import { DOCUMENT_CONDITIONS, DOCUMENT_QUERY_FILTERS, DOCUMENT_SORT } from '../../src/modules/documents/document.conditions';
import { documentResource } from '../resources/document';
import type { RouteDeclaration } from './route-spec';

// v3 §7: document validation errors are a bare array.
const base = { resource: documentResource, errorShape: 'array' } as const;
// DECISIONS (Paging): documents 30 a page by default, at most 100.
const list = {
  ...base,
  method: 'GET',
  kind: 'list',
  paging: { default: 30, max: 100 },
  conditions: DOCUMENT_CONDITIONS,
  sort: DOCUMENT_SORT,
  sortTable: 'documents',
} as const;

export const DOCUMENT_ROUTES: readonly RouteDeclaration[] = [
  { ...list, path: '/documents', result: 'documents', queryFilters: DOCUMENT_QUERY_FILTERS },
  // The documents of a deal, person, company (v3 §9 sub-collections; a parent the viewer cannot see is a 404).
  { ...list, path: '/deals/:id/documents', result: 'documents', pathFilters: { id: 'dealId' } },
  { ...list, path: '/people/:id/documents', result: 'documents', pathFilters: { id: 'personId' } },
  { ...list, path: '/companies/:id/documents', result: 'documents', pathFilters: { id: 'companyId' } },
  { ...base, method: 'GET', path: '/documents/:id', kind: 'show', result: 'document' },
  // v3 §4.7: url is required; the fetch runs in the background (upload_state pending until then).
  { ...base, method: 'POST', path: '/documents', kind: 'create', result: 'createDocument.document' },
  // v3 §4.7: a changed url fetches again; document_tag_ids replaces the tag set.
  { ...base, method: 'PUT', path: '/documents/:id', kind: 'update', result: 'updateDocument.document' },
  { ...base, method: 'DELETE', path: '/documents/:id', kind: 'delete', result: 'deleteDocument', deleteBody: 'empty' },
];
