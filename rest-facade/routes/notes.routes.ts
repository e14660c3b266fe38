import { NOTE_CONDITIONS, NOTE_QUERY_FILTERS, NOTE_SORT } from '../../src/modules/notes/note.conditions';
import { commentResource } from '../resources/comment';
import { noteResource } from '../resources/note';
import type { HookRequest, RouteHooks, RouteDeclaration } from './route-spec';

// v3 §4.2 / §7: note validation errors are wrapped, 422 {"errors": [...]}.
const base = { resource: noteResource, errorShape: 'wrapped' } as const;
// DECISIONS (Paging): notes 5 a page by default, at most 100.
const list = {
  ...base,
  method: 'GET',
  kind: 'list',
  paging: { default: 5, max: 100 },
  conditions: NOTE_CONDITIONS,
  sort: NOTE_SORT,
  sortTable: 'notes',
  searchId: true,
} as const;

/** The note of a comment route comes from the path (`:noteId`); the association id of the nested forms is ignored (v3 §4.3). */
const noteOfPath: RouteHooks = {
  variables: (variables, { params }: HookRequest) => {
    const out: Record<string, unknown> = { ...variables, noteId: params.noteId };
    if (variables.input) out.input = { ...(variables.input as object), noteId: params.noteId };
    return out;
  },
};

// v3 §4.3 / §7: comment validation errors are a bare array.
const comments = { resource: commentResource, errorShape: 'array', hooks: noteOfPath } as const;
// DECISIONS (Paging): comments 5 a page by default, at most 100.
const commentList = {
  ...comments,
  method: 'GET',
  kind: 'list',
  result: 'comments',
  paging: { default: 5, max: 100 },
  pathFilters: { noteId: 'noteId' },
} as const;

export const NOTE_ROUTES: readonly RouteDeclaration[] = [
  { ...list, path: '/notes', op: 'ListNotes', result: 'notes', queryFilters: NOTE_QUERY_FILTERS },
  // v3 §4.2: the notes of a deal, person, company (a parent the viewer cannot see is a 404).
  { ...list, path: '/deals/:id/notes', op: 'DealNotes', result: 'notes', pathFilters: { id: 'dealId' } },
  { ...list, path: '/people/:id/notes', op: 'PersonNotes', result: 'notes', pathFilters: { id: 'personId' } },
  { ...list, path: '/companies/:id/notes', op: 'CompanyNotes', result: 'notes', pathFilters: { id: 'companyId' } },
  { ...base, method: 'GET', path: '/notes/:id', op: 'ShowNote', kind: 'show', result: 'note' },
  { ...base, method: 'POST', path: '/notes', kind: 'create', result: 'createNote.note' },
  { ...base, method: 'PUT', path: '/notes/:id', kind: 'update', result: 'updateNote.note' },
  { ...base, method: 'DELETE', path: '/notes/:id', kind: 'delete', result: 'deleteNote', deleteBody: 'empty' },

  { ...commentList, path: '/notes/:noteId/comments' },
  { ...commentList, path: '/deals/:associationId/notes/:noteId/comments' },
  { ...commentList, path: '/people/:associationId/notes/:noteId/comments' },
  { ...commentList, path: '/companies/:associationId/notes/:noteId/comments' },
  { ...comments, method: 'GET', path: '/notes/:noteId/comments/:id', kind: 'show', result: 'comment' },
  { ...comments, method: 'POST', path: '/notes/:noteId/comments', kind: 'create', result: 'createComment.comment' },
  { ...comments, method: 'PUT', path: '/notes/:noteId/comments/:id', kind: 'update', result: 'updateComment.comment' },
  { ...comments, method: 'DELETE', path: '/notes/:noteId/comments/:id', kind: 'delete', result: 'deleteComment', deleteBody: 'empty' },
];
