import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { Company } from '../companies/company.entity';
import { Deal } from '../deals/deal.entity';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
import { DocumentKind } from './document.kind';

/** v3 §2.7 `upload_status`, as stored (smallint): 1 pending, 2 complete, 3 error (v3 §3). */
export enum UploadStatus {
  PENDING = 1,
  COMPLETE = 2,
  ERROR = 3,
}

/** v3 `upload_state`: the same state by name. */
export enum DocumentUploadState {
  PENDING = 'pending',
  COMPLETE = 'complete',
  ERROR = 'error',
}
registerEnumType(DocumentUploadState, {
  name: 'DocumentUploadState',
  description: "Where the fetch of a document's URL stands.",
  valuesConfig: {
    PENDING: { description: 'Created, or its URL changed: the service has yet to fetch the URL (uploadStatus 1).' },
    COMPLETE: { description: 'Fetched: the bytes are stored and served at the public link (uploadStatus 2).' },
    ERROR: { description: 'The fetch failed; uploadStatusErrorMessage says why. A new URL fetches again (uploadStatus 3).' },
  },
});

const STATES: Readonly<Record<UploadStatus, DocumentUploadState>> = {
  [UploadStatus.PENDING]: DocumentUploadState.PENDING,
  [UploadStatus.COMPLETE]: DocumentUploadState.COMPLETE,
  [UploadStatus.ERROR]: DocumentUploadState.ERROR,
};

export const STATUS_OF_STATE: Readonly<Record<DocumentUploadState, UploadStatus>> = {
  [DocumentUploadState.PENDING]: UploadStatus.PENDING,
  [DocumentUploadState.COMPLETE]: UploadStatus.COMPLETE,
  [DocumentUploadState.ERROR]: UploadStatus.ERROR,
};

/** An index the migration creates as SQL (expressions, partial, trigram): declared with its statement. */
const sqlIndex = (name: string, definition: string) => ({ name, expression: `create index "${name}" on "documents" ${definition}` });

/**
 * A document (v3 §2.7 "file"): a file the service fetched from a URL a user gave, stored under a
 * key of its own and served at an unguessable public link. Visible to its owner and to whoever may
 * see the deal, person or company it is linked to (as notes are). Its state (v3 §3): pending on
 * create and on a new URL, then complete or error once the fetch job ran (document.fetch-job.ts).
 *
 * `url` is write-only (never shown: it may carry a signed query). `publicToken` is what the link
 * carries; `publicTokenDigest` (its SHA-256) is what the link is looked up by. The fetch
 * bookkeeping (`fetchGeneration`, `fetchAttempts`, `fetchLeaseUntil`) lets one worker at a time
 * fetch the current URL and record it, once.
 */
@Entity({ tableName: 'documents' })
@Index({ name: 'documents_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'documents_account_updated', properties: ['account', 'updatedAt', 'id'] })
@Index({ name: 'documents_account_uploaded', properties: ['account', 'uploadedAt', 'id'] })
@Index({ name: 'documents_account_size', properties: ['account', 'sizeInK', 'id'] })
@Index({ name: 'documents_account_owner', properties: ['account', 'owner'] })
@Index({ name: 'documents_account_kind', properties: ['account', 'kind'] })
@Index({ name: 'documents_deal', properties: ['deal', 'createdAt', 'id'] })
@Index({ name: 'documents_person', properties: ['person', 'createdAt', 'id'] })
@Index({ name: 'documents_company', properties: ['company', 'createdAt', 'id'] })
@Index(sqlIndex('documents_title_trgm', 'using gin ("title" gin_trgm_ops)'))
@Index(sqlIndex('documents_sort_title', '("account_id", lower("title"), "id")'))
// What the worker's sweep looks for: pending documents, oldest first.
@Index(sqlIndex('documents_pending', '("created_at", "id") where "upload_status" = 1'))
@Unique({ name: 'documents_public_token_digest_unique', properties: ['publicTokenDigest'] })
@ObjectType('Document', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description: 'A file fetched from a URL and stored by the service (v3 "document"), linked to a deal, a person and/or a company.',
})
export class Document {
  [OptionalProps]?:
    | 'version'
    | 'owner'
    | 'deal'
    | 'person'
    | 'company'
    | 'kind'
    | 'uploadStatus'
    | 'uploadStatusErrorMessage'
    | 'sizeInK'
    | 'sizeBytes'
    | 'etag'
    | 'contentType'
    | 'storageKey'
    | 'fetchGeneration'
    | 'fetchAttempts'
    | 'fetchLeaseUntil'
    | 'createdAt'
    | 'updatedAt'
    | 'uploadedAt'
    | 'nodeId'
    | 'databaseId'
    | 'ownerId'
    | 'dealId'
    | 'personId'
    | 'companyId'
    | 'uploadState';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Document', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** The owner (v3 `owner_id`). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  owner: User | null = null;

  @ManyToOne(() => Deal, { nullable: true, deleteRule: 'set null' })
  deal: Deal | null = null;

  @ManyToOne(() => Person, { nullable: true, deleteRule: 'set null' })
  person: Person | null = null;

  @ManyToOne(() => Company, { nullable: true, deleteRule: 'set null' })
  company: Company | null = null;

  @Field({ description: "The file name shown for the document; by default the last segment of its URL's path." })
  @Property({ type: 'string', length: 255 })
  title!: string;

  /** Where the document is fetched from (v3 `url`, write-only): never read back by the API. */
  @Property({ type: 'string', length: 2048, lazy: true, hidden: true })
  url!: string;

  @Field(() => DocumentKind, { description: 'What kind of file it is, from its content type, else its file extension (OTHER until known).' })
  @Enum({ items: () => DocumentKind })
  kind: DocumentKind = DocumentKind.OTHER;

  /** v3 `upload_status`: 1 pending, 2 complete, 3 error. */
  @Field(() => Int, { description: 'Where the fetch stands, as v3 numbers it: 1 pending, 2 complete, 3 error (uploadState by name).' })
  @Property({ type: 'smallint', default: UploadStatus.PENDING })
  uploadStatus: UploadStatus = UploadStatus.PENDING;

  @Field(() => DocumentUploadState, { description: 'Where the fetch stands: pending, complete or error.' })
  @Extensions({ [READS]: ['uploadStatus'] })
  get uploadState(): DocumentUploadState {
    return STATES[this.uploadStatus] ?? DocumentUploadState.PENDING;
  }

  @Field(() => String, { nullable: true, description: 'Why the fetch failed, in a few words (no address or credential); null unless uploadState is ERROR.' })
  @Property({ type: 'string', length: 300, nullable: true })
  uploadStatusErrorMessage: string | null = null;

  @Field(() => Int, { nullable: true, description: 'Size in kilobytes (1024 bytes, rounded up); null until fetched.' })
  @Property({ type: 'integer', nullable: true })
  sizeInK: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Size in bytes; null until fetched.' })
  @Property({ type: 'integer', nullable: true })
  sizeBytes: number | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'SHA-256 of the content, in hex: changes exactly when the content does (the public link sends it, quoted, as its ETag); null until fetched.',
  })
  @Property({ type: 'string', length: 64, nullable: true })
  etag: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'The media type of the content (from the server that sent it, else from the file extension); null until fetched.',
  })
  @Property({ type: 'string', length: 255, nullable: true })
  contentType: string | null = null;

  /** Where the bytes are stored (a key the service made, never user input); null until fetched. */
  @Property({ type: 'string', length: 200, nullable: true })
  storageKey: string | null = null;

  /** The public link's token (32 random bytes, base64url): shown in the link on every read. */
  @Property({ type: 'string', length: 64 })
  publicToken!: string;

  /** SHA-256 (hex) of the token: what the public link is looked up by. */
  @Property({ type: 'string', length: 64, lazy: true, hidden: true })
  publicTokenDigest!: string;

  /** Which URL the current fetch is for: +1 on every new URL, so a fetch of an older one records nothing. */
  @Property({ type: 'integer', default: 1 })
  fetchGeneration: number = 1;

  /** Claims of the current generation (a worker killed mid-fetch leaves its claim counted). */
  @Property({ type: 'integer', default: 0 })
  fetchAttempts: number = 0;

  /** Until when the current claim holds; after it, another worker may claim the fetch. */
  @Property({ type: 'datetime', nullable: true })
  fetchLeaseUntil: Date | null = null;

  @Field({ description: 'When the document was created.' }) @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field({ description: 'When the document was last changed by a user (writable on create, for imports); fetches do not change it.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Date, { nullable: true, description: 'When the content was last fetched and stored; null until then.' })
  @Property({ type: 'datetime', nullable: true })
  uploadedAt: Date | null = null;

  @Field(() => Int, { nullable: true, description: "databaseId of the document's owner." })
  @Extensions({ [READS]: ['owner'] })
  get ownerId(): number | null {
    return this.owner?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the deal the document is linked to, if any.' })
  @Extensions({ [READS]: ['deal'] })
  get dealId(): number | null {
    return this.deal?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the person the document is linked to, if any.' })
  @Extensions({ [READS]: ['person'] })
  get personId(): number | null {
    return this.person?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the company the document is linked to, if any.' })
  @Extensions({ [READS]: ['company'] })
  get companyId(): number | null {
    return this.company?.id ?? null;
  }
}

/** A tag of a document (v3 `document_tag_ids`): an item of the account's document tags list. */
@Entity({ tableName: 'document_tags' })
@Index({ name: 'document_tags_list_item', properties: ['listItem', 'document'] })
export class DocumentTag {
  @ManyToOne(() => Document, { primary: true, deleteRule: 'cascade' })
  document!: Document;

  @ManyToOne(() => ListItem, { primary: true, deleteRule: 'cascade' })
  listItem!: ListItem;
}
