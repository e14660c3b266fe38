import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../../common/logger';
import { UploadStatus } from './document.entity';
import { cleanText } from './document.kind';
import { sendStoredBytes, type DocumentStorage } from './storage';

/**
 * The public link of a document (v3 §2.7 `public_link`): `<origin>/documents/public/<token>`,
 * outside /api/v3 and answered without an API key, so anyone holding the link can download the
 * bytes, as the link is meant to be handed on. The token is 32 random bytes (base64url, 43
 * characters): the link is the credential.
 *
 * The token itself is stored, because every read of the document shows the link (only its digest
 * would make the link impossible to show again). The link is looked up by the token's SHA-256
 * (a unique index), so the database compares digests, never the presented token's bytes, and the
 * found token is compared again in constant time.
 */
export const PUBLIC_LINK_PATH = '/documents/public';

/** A link token's shape (32 bytes, base64url): anything else is a 404 before any lookup. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newPublicToken(): { token: string; digest: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, digest: tokenDigest(token) };
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function publicLinkOf(origin: string, token: string): string {
  return `${origin}${PUBLIC_LINK_PATH}/${token}`;
}

/** Types a browser may show inline from our origin: raster images and PDF. Anything else (HTML, SVG, XML, text...) is a download. */
const INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif', 'application/pdf']);

/** The ETag header of a stored etag (the SHA-256 hex of the content): the same value, quoted. */
export const httpEtag = (etag: string): string => `"${etag}"`;

/** Whether If-None-Match names the current entity tag (weak comparison, as RFC 9110 says for it; `*` matches). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === httpEtag(etag);
  });
}

/** `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf` (RFC 6266): an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', title: string): string {
  const name = cleanText(title, 200).replace(/[\\/]/g, '_') || 'document';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The answer of a link that leads nowhere (unknown, tampered, expired, removed): one 404 for all. */
export function linkNotFound(res: express.Response): void {
  res.status(404).setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end('Not found');
}

/** Constant-time equality of the stored token and the presented one (the digest already matched). */
export function sameToken(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

interface LinkRow {
  id: number;
  public_token: string;
  storage_key: string | null;
  content_type: string | null;
  etag: string | null;
  title: string;
  upload_status: number;
}

export interface DocumentLinkDeps {
  readonly orm: MikroORM;
  readonly storage: DocumentStorage;
}

/**
 * GET (and HEAD) `/documents/public/:token`, without an API key: 200 with the bytes, their type, a
 * quoted ETag (If-None-Match → 304), `X-Content-Type-Options: nosniff`, and a Content-Disposition
 * that makes anything but a raster image or a PDF a download, so fetched HTML or SVG never runs as a
 * page of this origin (stored XSS). An unknown token, a deleted document, or one not fetched (yet)
 * is a 404, all alike.
 */
export function documentLinkRouter(deps: DocumentLinkDeps): express.Router {
  const router = express.Router();

  router.get(`${PUBLIC_LINK_PATH}/:token`, async (req, res, next) => {
    try {
      const token = req.params.token;
      if (typeof token !== 'string' || !LINK_TOKEN.test(token)) return linkNotFound(res);
      const rows = await deps.orm.em
        .fork()
        .getConnection()
        .execute<LinkRow[]>(
          `select "id", "public_token", "storage_key", "content_type", "etag", "title", "upload_status" from "documents" where "public_token_digest" = ?`,
          [tokenDigest(token)],
          'all',
        );
      const row = rows[0];
      if (!row || !sameToken(row.public_token, token) || row.upload_status !== UploadStatus.COMPLETE || !row.storage_key || !row.etag) return linkNotFound(res);

      const type = row.content_type ?? 'application/octet-stream';
      res.setHeader('ETag', httpEtag(row.etag));
      // A capability URL: never kept by shared caches, revalidated by the browser's own.
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'no-referrer');
      if (etagMatches(req.get('if-none-match'), row.etag)) {
        res.status(304).end();
        return;
      }
      const stored = await deps.storage.get(row.storage_key);
      if (!stored) {
        logger.error('a complete document has no stored bytes', { documentId: row.id });
        return linkNotFound(res);
      }
      const inline = INLINE.has(type);
      res.status(200);
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', row.title));
      // PDF viewers do not run in a sandboxed document; everything else may be sandboxed as well.
      if (type !== 'application/pdf') res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
      sendStoredBytes(req, res, stored, { documentId: row.id });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
