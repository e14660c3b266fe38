import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config';
import { logger } from '../../common/logger';
import { UploadStatus } from './document.entity';
import { documentKindOf, storedContentType } from './document.kind';
import { FetchRefused } from './fetch/fetch-refused';
import { safeFetch, type SafeFetchOptions } from './fetch/safe-fetch';
import { discardStoredBytes, storageKeyFor, type DocumentStorage } from './storage';

/** What the fetch of a document needs: the database, where bytes go, how to fetch, and how hard to try. */
export interface DocumentFetchDeps {
  readonly orm: MikroORM;
  readonly storage: DocumentStorage;
  readonly fetch: SafeFetchOptions;
  /**
   * How long a claimed fetch is left to its worker. A worker killed mid-fetch leaves the document
   * pending, claimable again once the lease ends; longer than a fetch can take (the fetch's
   * whole-fetch timeout) plus storing the bytes.
   */
  readonly leaseSeconds: number;
  /** Claims of one URL after which a document still pending (its workers died each time) ends in error. */
  readonly maxAttempts: number;
}

export type DocumentFetchOutcome =
  | {
      readonly status: 'complete';
      readonly sizeBytes: number;
      readonly sizeInK: number;
      readonly etag: string;
      readonly contentType: string;
      readonly attempts: number;
    }
  | { readonly status: 'error'; readonly reason: string }
  /** Nothing done: not pending (already complete or error), gone, claimed by another worker, or its URL changed meanwhile. */
  | { readonly status: 'skipped' };

/** What the document shows when its fetch was claimed `maxAttempts` times and never finished. */
export const FETCH_DID_NOT_FINISH = 'the fetch did not finish';

interface ClaimedRow {
  id: number;
  account_id: number;
  url: string;
  title: string;
  fetch_generation: number;
  fetch_attempts: number;
  storage_key: string | null;
}

/** A failure as a document shows it: FetchRefused's messages are written for that; anything else is not shown. */
function reasonOf(error: unknown): string {
  return error instanceof FetchRefused ? error.message : 'the document could not be fetched';
}

/**
 * A fetch's own writes are recorded as the job's (record_changes.origin): each is one statement,
 * its own transaction, so the setting rides in the statement's FROM.
 */
const AS_JOB = `(select set_config('crm.origin', 'job', true)) as job_origin`;

/** Pending, and not held by a live claim: the condition of a claim and of the sweep. */
const CLAIMABLE = `"upload_status" = ${UploadStatus.PENDING} and ("fetch_lease_until" is null or "fetch_lease_until" <= now())`;

/**
 * Fetches a document's URL into storage, at most once per URL, and records the outcome once:
 *
 * 1. Claim: one conditional UPDATE (pending, no live lease, fewer than `maxAttempts` claims)
 *    counts the attempt, sets a lease and returns the URL and its generation, in its own statement
 *    outside any transaction, so two workers (a retried job, two processes) cannot both fetch:
 *    the second finds the lease and skips. A document claimed `maxAttempts` times already (its
 *    workers were killed each time) ends in error instead.
 * 2. Fetch (safe-fetch.ts: public addresses only, bounded size and time), store the bytes under a
 *    fresh key.
 * 3. Record, guarded by id + generation + attempts + pending: a URL changed meanwhile (new
 *    generation), a lease that ran out and another worker's claim (attempts), or a delete,
 *    records nothing, and the bytes just stored are discarded. Complete sets the size, the etag
 *    (SHA-256 hex of the content), the content type and `uploaded_at`, and removes the previous
 *    bytes; a failed fetch sets error with a short message safe to show (FetchRefused's) and
 *    removes the previous bytes too.
 *
 * Idempotent: run twice for one document, the second run finds it complete (or claimed) and skips.
 * Cancelled by `signal` (a worker shutting down), the claim is given back: still pending, due again.
 */
export async function fetchDocument(deps: DocumentFetchDeps, documentId: number, signal?: AbortSignal): Promise<DocumentFetchOutcome> {
  if (!Number.isSafeInteger(documentId) || documentId <= 0 || documentId > 2_147_483_647) return { status: 'skipped' };
  const conn = deps.orm.em.getConnection();
  const [claimed] = await conn.execute<ClaimedRow[]>(
    `update "documents" set "fetch_attempts" = "fetch_attempts" + 1, "fetch_lease_until" = now() + make_interval(secs => ?)
       where "id" = ? and ${CLAIMABLE} and "fetch_attempts" < ?
       returning "id", "account_id", "url", "title", "fetch_generation", "fetch_attempts", "storage_key"`,
    [deps.leaseSeconds, documentId, deps.maxAttempts],
    'all',
  );
  if (!claimed) return giveUpIfExhausted(deps, documentId);

  const generation = claimed.fetch_generation;
  const attempts = claimed.fetch_attempts;
  // Only the holder of this claim, for this URL, may record.
  const guard = `"id" = ? and "fetch_generation" = ? and "fetch_attempts" = ? and "upload_status" = ${UploadStatus.PENDING}`;
  const guardParams = [documentId, generation, attempts];

  let fetched: Awaited<ReturnType<typeof safeFetch>>;
  try {
    fetched = await safeFetch(claimed.url, { ...deps.fetch, signal });
  } catch (error) {
    if (error instanceof FetchRefused && error.code === 'cancelled') {
      // Not the URL's fault: the claim is given back (its attempt uncounted), due again at once.
      await conn.execute(`update "documents" set "fetch_lease_until" = null, "fetch_attempts" = "fetch_attempts" - 1 where ${guard}`, guardParams, 'run');
      return { status: 'skipped' };
    }
    const reason = reasonOf(error);
    const [failed] = await conn.execute<Array<{ id: number }>>(
      `update "documents" set "upload_status" = ${UploadStatus.ERROR}, "upload_status_error_message" = ?, "fetch_lease_until" = null, "storage_key" = null
         from ${AS_JOB} where ${guard} returning "id"`,
      [reason, ...guardParams],
      'all',
    );
    if (!failed) return { status: 'skipped' };
    await discardStoredBytes(deps.storage, claimed.storage_key, 'previous bytes of a document whose fetch failed');
    return { status: 'error', reason };
  }

  const bytes = fetched.bytes;
  const etag = createHash('sha256').update(bytes).digest('hex');
  const contentType = storedContentType(fetched.contentType, fetched.finalUrl, claimed.title);
  const kind = documentKindOf(contentType, fetched.finalUrl, claimed.title);
  const sizeInK = Math.ceil(bytes.length / 1024);
  const key = storageKeyFor(claimed.account_id, documentId);
  try {
    await deps.storage.put(key, bytes);
  } catch (error) {
    // Our side failed (a full disk): the claim is left to run out, and the sweep tries again
    // until maxAttempts, then the document ends in error.
    logger.error('storing a fetched document failed', { documentId, error: error instanceof Error ? error.message : String(error) });
    return { status: 'skipped' };
  }

  let recorded: Array<{ id: number }>;
  try {
    recorded = await conn.execute<Array<{ id: number }>>(
      `update "documents" set "upload_status" = ${UploadStatus.COMPLETE}, "upload_status_error_message" = null, "size_bytes" = ?, "size_in_k" = ?, "etag" = ?,
         "content_type" = ?, "kind" = ?, "storage_key" = ?, "uploaded_at" = now(), "fetch_lease_until" = null
         from ${AS_JOB} where ${guard} returning "id"`,
      [bytes.length, sizeInK, etag, contentType, kind, key, ...guardParams],
      'all',
    );
  } catch (error) {
    await discardStoredBytes(deps.storage, key, 'bytes of a fetch that could not be recorded');
    throw error;
  }
  if (recorded.length === 0) {
    // The URL changed, another worker took over, or the document was deleted: these bytes are no one's.
    await discardStoredBytes(deps.storage, key, 'bytes of a superseded fetch');
    return { status: 'skipped' };
  }
  if (claimed.storage_key && claimed.storage_key !== key) await discardStoredBytes(deps.storage, claimed.storage_key, 'previous bytes of a refetched document');
  return { status: 'complete', sizeBytes: bytes.length, sizeInK, etag, contentType, attempts };
}

/**
 * The claim failed. A document still pending and unclaimed whose claims are used up (each of its
 * workers died before recording) ends in error; anything else is skipped.
 */
async function giveUpIfExhausted(deps: DocumentFetchDeps, documentId: number): Promise<DocumentFetchOutcome> {
  const reason = `${FETCH_DID_NOT_FINISH} (tried ${deps.maxAttempts} time${deps.maxAttempts === 1 ? '' : 's'})`;
  const [ended] = await deps.orm.em.getConnection().execute<Array<{ storage_key: string | null }>>(
    `with previous as (select "id", "storage_key" from "documents" where "id" = ? for update)
     update "documents" d set "upload_status" = ${UploadStatus.ERROR}, "upload_status_error_message" = ?, "fetch_lease_until" = null, "storage_key" = null
       from previous, ${AS_JOB}
       where d."id" = previous."id" and d."upload_status" = ${UploadStatus.PENDING} and (d."fetch_lease_until" is null or d."fetch_lease_until" <= now()) and d."fetch_attempts" >= ?
       returning previous."storage_key"`,
    [documentId, reason, deps.maxAttempts],
    'all',
  );
  if (!ended) return { status: 'skipped' };
  await discardStoredBytes(deps.storage, ended.storage_key, 'previous bytes of a document whose fetch never finished');
  return { status: 'error', reason };
}

/** Ids of the documents pending and not claimed (no lease, or one that ran out), oldest first: what the worker's sweep enqueues. */
export async function dueDocumentIds(em: EntityManager, limit = 100): Promise<number[]> {
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number }>>(`select "id" from "documents" where ${CLAIMABLE} order by "created_at", "id" limit ?`, [limit], 'all');
  return rows.map((r: { id: number }) => Number(r.id));
}

/** The largest size a row's byte count holds (an int column). */
const MAX_STORABLE_BYTES = 2_147_483_647;

/**
 * How documents are fetched in this configuration: `DOCUMENT_MAX_BYTES`, `DOCUMENT_FETCH_TIMEOUT_MS`,
 * and `DOCUMENT_FETCH_ALLOWED_HOSTS`, the only hosts fetched even when they resolve to a
 * non-public address (an IPv6 literal listed as `[::1]` matches the host `::1`).
 */
export function documentFetchOptions(config: Pick<Config, 'documents'>): SafeFetchOptions {
  const allowed = new Set(config.documents.allowedHosts.map((h) => h.toLowerCase()));
  return {
    maxBytes: Math.min(config.documents.maxBytes, MAX_STORABLE_BYTES),
    timeoutMs: config.documents.fetchTimeoutMs,
    allowAddress: (_address, host) => {
      const name = host.toLowerCase().replace(/\.$/, '');
      return allowed.has(name) || allowed.has(`[${name}]`);
    },
  };
}
