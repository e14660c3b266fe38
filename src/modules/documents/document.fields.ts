import { InputType, registerEnumType } from 'type-graphql';
import { BadInputError } from '../../common/errors';
import { EnumFilterOf, IdFilter, linkedIdConditions, MAX_IN_VALUES } from '../../graphql/filters';
import { defineResource, type InputOf } from '../../kit/fields';
import { Document, DocumentUploadState, STATUS_OF_STATE } from './document.entity';
import { DocumentKind } from './document.kind';

/**
 * What a document is linked to, as v3 §4.7 `conditions[associated_with]` names it. EMAIL matches
 * no document: documents here come only from URLs, never from mail attachments. SHARED is a
 * document linked to no deal, person or company (one of the account's own files).
 */
export enum DocumentAssociation {
  COMPANIES = 'companies',
  DEALS = 'deals',
  PEOPLE = 'people',
  EMAIL = 'email',
  SHARED = 'shared',
}
registerEnumType(DocumentAssociation, {
  name: 'DocumentAssociation',
  description: 'What a document is linked to.',
  valuesConfig: {
    COMPANIES: { description: 'Documents linked to a company.' },
    DEALS: { description: 'Documents linked to a deal.' },
    PEOPLE: { description: 'Documents linked to a person.' },
    EMAIL: { description: 'Documents attached to mail: none, since documents are only ever fetched from URLs.' },
    SHARED: { description: "Documents linked to no deal, person or company (the account's own files)." },
  },
});

@InputType('DocumentUploadStateFilter', { description: 'Conditions on where the fetch of a document stands.' })
export class DocumentUploadStateFilter extends EnumFilterOf(DocumentUploadState, 'state') {}

@InputType('DocumentKindFilter', { description: 'Conditions on the kind of file a document is.' })
export class DocumentKindFilter extends EnumFilterOf(DocumentKind, 'kind') {}

@InputType('DocumentAssociationFilter', { description: 'Conditions on what a document is linked to: `eq` one kind of link, `in` any of several.' })
export class DocumentAssociationFilter extends EnumFilterOf(DocumentAssociation, 'association') {}

interface EnumCondition<E> {
  eq?: E | null;
  in?: E[] | null;
}

type Fragment = { sql: string; params: unknown[] };

const ASSOCIATED: Readonly<Record<DocumentAssociation, string>> = {
  [DocumentAssociation.COMPANIES]: 'doc.company_id is not null',
  [DocumentAssociation.DEALS]: 'doc.deal_id is not null',
  [DocumentAssociation.PEOPLE]: 'doc.person_id is not null',
  [DocumentAssociation.EMAIL]: 'false',
  [DocumentAssociation.SHARED]: '(doc.deal_id is null and doc.person_id is null and doc.company_id is null)',
};

/** `{eq, in}` of an enum as SQL: each value's condition, `in` any of them (an empty `in` matches none). */
function enumCondition<E extends string>(value: EnumCondition<E>, path: string, sqlOf: (v: E) => Fragment | null): Fragment | null {
  const parts: Fragment[] = [];
  const anyOf = (values: readonly E[]): Fragment => {
    const each = values.map(sqlOf).filter((f): f is Fragment => f !== null);
    return each.length === 0 ? { sql: 'false', params: [] } : { sql: each.map((f) => `(${f.sql})`).join(' or '), params: each.flatMap((f) => f.params) };
  };
  if (value.eq != null) parts.push(anyOf([value.eq]));
  if (value.in != null) {
    if (value.in.length > MAX_IN_VALUES) throw new BadInputError(`${path}.in`, `at most ${MAX_IN_VALUES} values, got ${value.in.length}`);
    parts.push(anyOf(value.in));
  }
  if (parts.length === 0) return null;
  return { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) };
}

const associatedWith = (value: EnumCondition<DocumentAssociation>, path: string) =>
  enumCondition(value, path, (v) => (ASSOCIATED[v] ? { sql: ASSOCIATED[v], params: [] } : null));

const uploadState = (value: EnumCondition<DocumentUploadState>, path: string) =>
  enumCondition(value, path, (v) => (STATUS_OF_STATE[v] ? { sql: 'doc.upload_status = ?', params: [STATUS_OF_STATE[v]] } : null));

/** `tagIds`: documents with this tag (`eq`), any of these (`in`), none (`isNull: true`). */
const tagIdsCondition = (value: IdFilter, path: string) =>
  linkedIdConditions({ table: 'document_tags', alias: 'dt', on: 'dt.document_id = doc.id', column: 'dt.list_item_id' }, value, path);

/**
 * Every document field, once (v3 §2.7): inputs, filter, order and the write whitelist derive from
 * it (src/kit/fields.ts). The links (deal, person, company, owner, tags) and the URL are written
 * by the service: each linked record must be one the viewer may see, and a new URL starts a new fetch.
 */
export const DOCUMENT_FIELDS = defineResource(
  {
    type: 'Document',
    plural: 'documents',
    entity: Document,
    alias: 'doc',
    defaultOrder: ['-createdAt'],
    createDoc:
      "A new document: the URL to fetch it from (required) and what it is linked to. The owner defaults to the viewer, the title to the URL's file name.",
    updateDoc: 'Changes to a document: only the fields given change; null clears a link. A new URL fetches the document again.',
    filterDoc: 'Which documents to list: every condition given must hold; compose with and, or, not.',
    orderDoc: 'A key documents can be ordered by. The title ignores case.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The document's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    title: {
      kind: 'text',
      write: 'custom',
      doc: 'The file name shown for the document, at most 255 characters.',
      createDoc: "The file name shown for the document, at most 255 characters; the last segment of the URL's path when not given.",
      updateDoc: 'The file name shown for the document, at most 255 characters; cannot be blank.',
      filter: { doc: 'The title (contains: any part of it, ignoring case).' },
      sort: { case: 'ci', doc: 'Title, ignoring case.' },
    },
    url: {
      kind: 'text',
      property: null,
      write: 'custom',
      required: true,
      inputDoc:
        'Where the service fetches the document from: an absolute http or https URL without credentials, at most 2048 characters. Never shown back. ' +
        'A URL different from the current one (or any URL while the last fetch failed) fetches the document again.',
    },
    ownerId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the owner, a user of the account; the viewer when not given on create.',
      filter: { doc: "The owner (a user's databaseId)." },
    },
    dealId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the deal the document is linked to (one the viewer may see); null removes the link.',
      filter: { doc: 'The deal it is linked to (v3 deal_id).' },
    },
    personId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the person the document is linked to (one the viewer may see); null removes the link.',
      filter: { doc: 'The person it is linked to (v3 person_id).' },
    },
    companyId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the company the document is linked to (one the viewer may see); null removes the link.',
      filter: { doc: 'The company it is linked to (v3 company_id).' },
    },
    tagIds: {
      kind: 'refs',
      property: null,
      write: 'custom',
      inputDoc:
        'databaseIds of document tags (items of the document tags list): replaces the whole set; ids that are not document tags of the account are ignored.',
      filter: {
        input: () => IdFilter,
        build: tagIdsCondition as never,
        doc: 'The document tags: `eq` has this tag, `in` has any of these, `isNull: true` has none.',
      },
    },
    uploadState: {
      kind: 'enum',
      enum: DocumentUploadState,
      property: null,
      filter: { input: () => DocumentUploadStateFilter, build: uploadState as never, doc: 'Where the fetch stands.' },
    },
    kind: { kind: 'enum', enum: DocumentKind, filter: { input: () => DocumentKindFilter, doc: 'The kind of file (v3 document_type).' } },
    associatedWith: {
      kind: 'enum',
      enum: DocumentAssociation,
      property: null,
      filter: { input: () => DocumentAssociationFilter, build: associatedWith as never, doc: 'What the document is linked to (v3 associated_with).' },
    },
    sizeInK: { kind: 'int', filter: { doc: 'Size in kilobytes (null until fetched).' }, sort: { doc: 'Size (documents not fetched yet last).' } },
    uploadedAt: { kind: 'datetime', filter: { doc: 'When the content was last fetched (v3 document_uploaded).' } },
    createdAt: { kind: 'datetime', filter: { doc: 'When the document was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: {
      kind: 'datetime',
      write: 'custom',
      doc: 'When the document was last changed by a user.',
      inputDoc: 'For imports: when the document was last changed (ISO 8601); now when not given. Ignored on update (an update is a change now).',
      filter: { doc: 'When the document was last changed (v3 document_modified).' },
      sort: { doc: 'Last change.' },
    },
  },
);

export type DocumentInput = InputOf<typeof DOCUMENT_FIELDS.table>;
