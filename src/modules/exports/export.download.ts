import express from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../../common/logger';
import { LINK_TOKEN, linkNotFound, sameToken, tokenDigest } from '../documents/document.public-link';
import { sendStoredBytes, type DocumentStorage } from '../documents/storage';
import { EXPORT_DOWNLOAD_PATH } from './export.service';

interface LinkRow {
  id: number;
  download_token: string;
  storage_key: string | null;
  format: string;
  resource: string;
}

/**
 * GET `/exports/download/:token`, without an API key (the link is the credential, like a
 * document's public link): the file of a DONE export whose link has not expired, as an attachment,
 * never cached by anyone. The token (32 random bytes, base64url) is looked up by its SHA-256 and
 * compared again in constant time. Unknown, tampered, expired or removed: 404, all alike.
 */
export function exportDownloadRouter(deps: { readonly orm: MikroORM; readonly storage: DocumentStorage }): express.Router {
  const router = express.Router();
  router.get(`${EXPORT_DOWNLOAD_PATH}/:token`, async (req, res, next) => {
    try {
      const token = req.params.token;
      if (typeof token !== 'string' || !LINK_TOKEN.test(token)) return linkNotFound(res);
      const rows = await deps.orm.em
        .fork()
        .getConnection()
        .execute<LinkRow[]>(
          `select "id", "download_token", "storage_key", "format", "resource" from "exports"
            where "download_token_digest" = ? and "state" = 'done' and "expires_at" > now()`,
          [tokenDigest(token)],
          'all',
        );
      const row = rows[0];
      if (!row || !row.storage_key || !sameToken(row.download_token, token)) return linkNotFound(res);
      const stored = await deps.storage.get(row.storage_key);
      if (!stored) {
        logger.error('a done export has no stored file', { exportId: row.id });
        return linkNotFound(res);
      }
      const jsonl = row.format === 'jsonl';
      res.status(200);
      res.setHeader('Content-Type', jsonl ? 'application/x-ndjson; charset=utf-8' : 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${row.resource}-export-${row.id}.${jsonl ? 'jsonl' : 'csv'}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'no-referrer');
      sendStoredBytes(req, res, stored, { exportId: row.id });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
