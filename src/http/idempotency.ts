import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { Kind, parse, type DocumentNode } from 'graphql';
import { hashKey } from '../common/keys';
import { logger } from '../common/logger';
import { type IdempotencyStore, type StoredAnswer } from '../db/idempotency-keys';
import { credentialsOf } from './auth';

/*
 * Idempotency keys (issue 26 §1; the IETF httpapi draft "The Idempotency-Key HTTP Header Field",
 * and Stripe's behaviour). A write sent with `Idempotency-Key` is run once per caller's key,
 * method and route (or GraphQL operation) and key: the first one's answer, stored, is what every
 * retry with the same request gets (`Idempotent-Replayed: true`); the same key with another
 * request is a 422; while the first still runs, a 409 with Retry-After. Answers the client may
 * get otherwise on a retry are not stored: a 5xx, a 429, a 401, a 409. The database decides
 * between API processes (a unique index), not memory.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Seconds a retry that finds the first one running is told to wait. */
export const RUNNING_RETRY_AFTER = 1;

/**
 * The header's value, checked: null when the request carries none; a string naming what is wrong
 * (for a 400) when it is not 1 to 255 printable ASCII characters or comes twice.
 */
export function idempotencyKeyOf(req: Pick<Request, 'headers'>): { key: string } | { error: string } | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  if (Array.isArray(raw)) return { error: 'Idempotency-Key header must be sent once' };
  // The draft's form is a quoted string (sf-string); a bare token is accepted too, as Stripe does.
  const key = /^"(.*)"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (key.length < 1 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) return { error: 'Idempotency-Key header must be 1 to 255 printable ASCII characters' };
  return { key };
}

/** The SHA-256 of a request's parts (method, route, query, body…), each delimited so none can run into the next. */
export function fingerprintOf(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:${part};`);
  return hash.digest('hex');
}

/** Whose key this is: the SHA-256 of the API key the request came with (none: no idempotency, the request is refused anyway). */
export function ownerOf(req: Request): string | null {
  const { apiKey } = credentialsOf(req);
  return apiKey ? hashKey(apiKey) : null;
}

/** Writes a stored answer again, marked as a replay. */
export function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Content-Type', answer.contentType);
  res.end(answer.body);
}

/** The operation a GraphQL request would run, if its document parses: its type decides whether a key applies. */
function operationTypeOf(body: unknown): 'query' | 'mutation' | 'subscription' | null {
  if (!body || typeof body !== 'object') return null;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return null;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 20_000 });
  } catch {
    return null;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const chosen =
    typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  return chosen ? chosen.operation : null;
}

/**
 * `/graphql`, after its body is parsed: a mutation sent with Idempotency-Key runs once per key (a
 * query or a document that does not parse goes on as usual: reading is idempotent already, and
 * GraphQL answers a bad document itself). Its answer is captured as Apollo writes it. An answer
 * whose errors are the server's (INTERNAL_SERVER_ERROR, a statement timeout) is not stored.
 */
export function graphqlIdempotency(store: IdempotencyStore) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const checked = idempotencyKeyOf(req);
      if (!checked || req.method !== 'POST' || operationTypeOf(req.body) !== 'mutation') return next();
      if ('error' in checked) {
        res.status(400).json({ errors: [{ message: checked.error, extensions: { code: 'BAD_REQUEST', header: 'Idempotency-Key' } }] });
        return;
      }
      const owner = ownerOf(req);
      if (!owner) return next();
      const { query, variables, operationName } = req.body as { query: string; variables?: unknown; operationName?: unknown };
      const fingerprint = fingerprintOf([query, JSON.stringify(variables ?? null), typeof operationName === 'string' ? operationName : '']);
      const claim = await store.begin(owner, 'POST /graphql', checked.key, fingerprint);
      if (claim.kind === 'replay') return replay(res, claim.answer);
      if (claim.kind === 'mismatch') {
        res.status(422).json({
          errors: [
            { message: 'This Idempotency-Key was used with another request', extensions: { code: 'IDEMPOTENCY_KEY_REUSED', header: 'Idempotency-Key' } },
          ],
        });
        return;
      }
      if (claim.kind === 'running') {
        res.setHeader('Retry-After', String(RUNNING_RETRY_AFTER));
        res.status(409).json({
          errors: [
            {
              message: 'A request with this Idempotency-Key is still running: retry after it',
              extensions: { code: 'IDEMPOTENCY_KEY_IN_USE', header: 'Idempotency-Key' },
            },
          ],
        });
        return;
      }
      // An answer carrying a new API key's secret is not stored either: the secret is kept nowhere but in the answer.
      captureAnswer(res, (answer) =>
        serverErrorIn(answer.body) || SCOPED_KEY_SECRET.test(answer.body.toString('utf8')) ? store.abandon(claim.id) : store.finish(claim.id, answer),
      );
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** A scoped API key's secret (src/modules/api-keys): `crm_sk_` and 43 base64url characters. */
const SCOPED_KEY_SECRET = /crm_sk_[A-Za-z0-9_-]{43}/;

/** Whether a GraphQL answer carries an error of the server's own or a transient one (not to be replayed: the retry should run). */
function serverErrorIn(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { errors?: Array<{ extensions?: { code?: string } }> };
    return (parsed.errors ?? []).some((e) => ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'TIMEOUT', 'CONFLICT'].includes(e.extensions?.code ?? ''));
  } catch {
    return true;
  }
}

/** Calls `done` with the answer `res` ends with (status, content type, the bytes written), and ends it once `done` settles; a failure of `done` is logged. */
export function captureAnswer(res: Response, done: (answer: StoredAnswer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const answer = {
      status: res.statusCode,
      contentType: String(res.getHeader('Content-Type') ?? 'application/json; charset=utf-8'),
      body: Buffer.concat(chunks),
    };
    // Stored before the client has it: a retry sent on its receipt finds it done, not running.
    done(answer)
      .catch((error: unknown) => logger.warn('storing an idempotent answer failed', { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => end(chunk, ...rest));
    return res;
  }) as Response['end'];
}
