import { Issues, NotFoundError } from '../../common/errors';
import { enqueueAfterCommit, type RequestContext } from '../../context/context';
import { SettledLoader } from '../../context/loaders';
import { mutation } from '../../context/transaction';
import { ownerTerm, VisibilityRule } from '../../context/visibility';
import { storableInstant, withoutNul } from '../../db/sql';
import { isValidId } from '../../graphql/ids';
import { linkedRecordsTerm } from '../common/linked-records';
import { findForWrite, findVisible, fromOf, scopeOf, setRelation, type Records } from '../common/resource';
import { Company } from '../companies/company.entity';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListKind } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { PERSON_RECORDS } from '../people/person.visibility';
import { User } from '../users/user.entity';
import { accountUsers } from '../users/user.loaders';
import { Document, UploadStatus } from './document.entity';
import { DOCUMENT_FIELDS, type DocumentInput } from './document.fields';
import { documentKindOf, titleFromUrl } from './document.kind';
import { newPublicToken } from './document.public-link';
import { checkUrl } from './fetch/safe-fetch';
import { FetchRefused } from './fetch/fetch-refused';
import { discardStoredBytes, documentStorage } from './storage';

const DOCUMENT_WRITES = DOCUMENT_FIELDS.writes(['title', 'url', 'ownerId', 'dealId', 'personId', 'companyId', 'tagIds', 'updatedAt']);

/** Visible through a linked record it is about (issue 12 §1). */
const linkedTerm = linkedRecordsTerm<Document>('doc', 'Document');

/**
 * Documents: visible to admins and `all` users; to an `own` user when they own the document or may
 * see the deal, person or company it is linked to. The same rule on every path: lists, lookups,
 * node(id:), writes and the public link's reset.
 */
export const DOCUMENT_RECORDS: Records<Document> = {
  entity: Document,
  alias: 'doc',
  name: 'Document',
  visibility: new VisibilityRule<Document>([ownerTerm<Document>('owner_id', (d) => d.owner?.id, ['owner']), linkedTerm]),
};

/** Which of a batch of document ids the viewer may see: one statement per batch (node(), writes). */
export function visibleDocumentIds(ctx: RequestContext): SettledLoader<boolean> {
  return ctx.loaders.memo(
    'documents:visible',
    () =>
      new SettledLoader<boolean>(async (ids) => {
        const where = scopeOf(ctx, DOCUMENT_RECORDS).add('doc.id = any(?::int[])', `{${ids.join(',')}}`);
        const rows = await ctx.em.execute<Array<{ id: number }>>(`select doc.id from ${fromOf(ctx, DOCUMENT_RECORDS)} where ${where.sql}`, where.params, 'all');
        const found = new Set(rows.map((r) => Number(r.id)));
        return ids.map((id) => found.has(id));
      }),
  );
}

/** Documents by id for node(id:): the by-id loader (tenancy), then the visibility statement. */
export async function findVisibleDocuments(ctx: RequestContext, ids: readonly number[]): Promise<Array<Document | null>> {
  const valid = ids.filter(isValidId);
  const [rows, visible] = await Promise.all([
    Promise.all(ids.map((id) => (isValidId(id) ? ctx.loaders.byId(Document).load(id) : null))),
    Promise.all(valid.map((id) => visibleDocumentIds(ctx).load(id))),
  ]);
  const seen = new Map(valid.map((id, i) => [id, visible[i]]));
  return rows.map((row) => (row && seen.get(row.id) ? row : null));
}

/** The tag ids of each document of a batch (v3 `document_tag_ids`), in id order: one statement per batch. */
export function documentTagIds(ctx: RequestContext): SettledLoader<number[]> {
  return ctx.loaders.memo(
    'documents:tag-ids',
    () =>
      new SettledLoader<number[]>(async (ids) => {
        const found = new Map<number, number[]>(ids.map((id) => [id, []]));
        const rows = await ctx.em.execute<Array<{ d: number; t: number }>>(
          `select dt.document_id as d, dt.list_item_id as t from "document_tags" dt where dt.document_id = any(?::int[]) order by dt.list_item_id`,
          [`{${ids.join(',')}}`],
          'all',
        );
        for (const row of rows) found.get(Number(row.d))?.push(Number(row.t));
        return ids.map((id) => found.get(id)!);
      }),
  );
}

/** The managed document (its URL loaded), when it exists in the account and the viewer may see it; NotFound otherwise. */
export async function loadDocumentForWrite(ctx: RequestContext, id: number | null | undefined): Promise<Document> {
  if (id == null || !isValidId(id)) throw new NotFoundError('Document', id ?? 0);
  return findForWrite(ctx, 'Document', Document, id, async (options) => {
    const doc = await ctx.em.findOne(Document, { id, account: ctx.viewer.accountId }, { populate: ['url'] as never, ...options });
    return doc && (await visibleDocumentIds(ctx).load(id)) ? doc : null;
  });
}

/** A URL as written: checked (http/https, no credentials, at most 2048 characters), in its normal form. */
function checkedUrl(value: unknown, issues: Issues): URL | null {
  const raw = typeof value === 'string' ? withoutNul(value).trim() : '';
  if (raw === '') {
    issues.blank('url');
    return null;
  }
  try {
    return checkUrl(raw);
  } catch (error) {
    const code = error instanceof FetchRefused ? error.code : 'invalid_url';
    if (code === 'url_too_long') issues.tooLong('url', 2048);
    else if (code === 'unsupported_scheme') issues.invalid('url', 'must be an http or https URL');
    else if (code === 'credentials_in_url') issues.invalid('url', 'must not contain a user name or password');
    else issues.invalid('url', 'is not a valid URL');
    return null;
  }
}

/** Most characters of a title (its column). */
const MAX_TITLE = 255;

/**
 * Documents (v3 §2.7, §4.7): created from a URL the service then fetches in the background
 * (document.fetch-job.ts), visible through their owner or their linked records on every read and
 * write. The state machine (v3 §3): create → pending; a new URL → pending again (a new fetch
 * generation); the fetch job moves pending to complete or error.
 */
export class DocumentService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: DocumentInput): Promise<Document> {
    return mutation(this.ctx, async (em) => {
      const issues = new Issues();
      const { token, digest } = newPublicToken();
      const doc = em.create(
        Document,
        { account: this.ctx.viewer.accountId, owner: this.ctx.viewer.userId, title: '', url: '', publicToken: token, publicTokenDigest: digest },
        { persist: false },
      );
      await this.apply(doc, input, issues, true);
      issues.throwIfAny();
      em.persist(doc);
      await em.flush();
      if (input.tagIds !== undefined) await this.setTags(doc.id, input.tagIds);
      enqueueAfterCommit(this.ctx, 'fetch-document', () => ({ documentId: doc.id }));
      return doc;
    });
  }

  update(id: number, input: DocumentInput): Promise<Document> {
    return mutation(this.ctx, async (em) => {
      const doc = await loadDocumentForWrite(this.ctx, id);
      const issues = new Issues();
      const refetch = await this.apply(doc, input, issues, false);
      issues.throwIfAny();
      if (input.tagIds !== undefined) await this.setTags(doc.id, input.tagIds);
      doc.updatedAt = new Date();
      await em.flush();
      if (refetch) enqueueAfterCommit(this.ctx, 'fetch-document', () => ({ documentId: doc.id }));
      return doc;
    });
  }

  /** Removes the document; once that is committed, its stored bytes (the public link then answers 404). */
  delete(id: number): Promise<number> {
    return mutation(this.ctx, async (em) => {
      const doc = await loadDocumentForWrite(this.ctx, id);
      const key = doc.storageKey;
      em.remove(doc);
      await em.flush();
      if (key) this.ctx.afterCommit(() => discardStoredBytes(documentStorage(), key, 'document deleted'));
      return id;
    });
  }

  /** A new public link: the old one answers 404 from the commit on (a link handed to the wrong person is revoked so). */
  resetPublicLink(id: number): Promise<Document> {
    return mutation(this.ctx, async (em) => {
      const doc = await loadDocumentForWrite(this.ctx, id);
      const { token, digest } = newPublicToken();
      doc.publicToken = token;
      doc.publicTokenDigest = digest;
      await em.flush();
      return doc;
    });
  }

  /** Applies the input; answers whether the document must be fetched (again). */
  private async apply(doc: Document, input: DocumentInput, issues: Issues, isNew: boolean): Promise<boolean> {
    DOCUMENT_WRITES.assign(this.ctx.em, doc, input, issues, isNew);
    let refetch = false;
    let url: URL | null = null;
    if (isNew || input.url !== undefined) {
      url = checkedUrl(input.url, issues);
      // v3 §3: a changed URL fetches again (an error, or any state: the content may differ); the
      // same URL again retries a failed fetch and is otherwise nothing new.
      if (url && (isNew || url.href !== doc.url || doc.uploadStatus === UploadStatus.ERROR)) {
        refetch = true;
        doc.url = url.href;
        if (!isNew) doc.fetchGeneration += 1;
        doc.uploadStatus = UploadStatus.PENDING;
        doc.uploadStatusErrorMessage = null;
        doc.fetchAttempts = 0;
        doc.fetchLeaseUntil = null;
        // What described the old content no longer does; its bytes go when the new ones are stored.
        doc.sizeInK = null;
        doc.sizeBytes = null;
        doc.etag = null;
        doc.contentType = null;
        doc.uploadedAt = null;
      }
    }

    if (input.title !== undefined || isNew) {
      const title = typeof input.title === 'string' ? withoutNul(input.title).trim() : '';
      if (title === '') {
        if (!isNew) issues.blank('title');
        else if (url) doc.title = titleFromUrl(url);
      } else if ([...title].length > MAX_TITLE) issues.tooLong('title', MAX_TITLE);
      else doc.title = title;
    }
    doc.kind = documentKindOf(doc.contentType, doc.url, doc.title);

    // Each link must be a record the viewer may see: a hidden one is answered like a missing one.
    await setRelation(this.ctx, doc, 'deal', Deal, input.dealId, (id) => findVisible(this.ctx, DEAL_RECORDS, id), issues, 'dealId');
    await setRelation(this.ctx, doc, 'person', Person, input.personId, (id) => findVisible(this.ctx, PERSON_RECORDS, id), issues, 'personId');
    await setRelation(this.ctx, doc, 'company', Company, input.companyId, (id) => findVisible(this.ctx, COMPANY_RECORDS, id), issues, 'companyId');
    await setRelation(this.ctx, doc, 'owner', User, input.ownerId, (id) => accountUsers(this.ctx).load(id), issues, 'ownerId');

    // v3 §4.7 takes updated_at on create (imports); an update is a change now, whatever a client
    // sending back the record it read says (DECISIONS: clients PUT back what they received).
    if (isNew && input.updatedAt != null) {
      if (storableInstant(input.updatedAt)) doc.updatedAt = input.updatedAt;
      else issues.outOfRange('updatedAt');
    }
    return refetch;
  }

  /** v3 §4.7: the tag set is replaced; ids that are not document tags of the account are ignored. */
  private async setTags(documentId: number, ids: readonly number[] | null): Promise<void> {
    const wanted = [...new Set(ids ?? [])].filter(isValidId);
    await this.ctx.em.execute(`delete from "document_tags" where "document_id" = ?`, [documentId], 'run');
    if (wanted.length === 0) return;
    await this.ctx.em.execute(
      `insert into "document_tags" ("document_id", "list_item_id")
         select ?, li.id from "list_items" li where li.id = any(?::int[]) and li.account_id = ? and li.kind = ? on conflict do nothing`,
      [documentId, `{${wanted.join(',')}}`, this.ctx.viewer.accountId, ListKind.DOCUMENT_TAG],
      'run',
    );
  }
}
