import express from 'express';
import busboy from 'busboy';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import { authenticate, type AuthFailureLimiter } from '../../http/auth';
import { RateLimitedError, UnauthenticatedError } from '../../common/errors';
import { logger } from '../../common/logger';
import { grants } from '../../graphql/scopes';
import { BulkFormat } from '../common/bulk';
import { TooLargeError, type DocumentStorage } from '../documents/storage';
import { recordsOf } from './import.run';
import { createUpload, visibleImports } from './import.service';
import { IMPORT_TARGETS } from './import.targets';

/**
 * `POST /api/imports/uploads`: a file for an import, streamed to storage (never held), as the raw
 * body (text/csv, application/x-ndjson, …) or the one file part of a multipart/form-data body.
 * Authenticated as /graphql is (api key by `Authorization: Bearer`, `X-Api-Key` or `api_key`);
 * a scoped key needs the write scope of some importable resource. Answers 201 {uploadId, bytes}.
 */
export function importUploadRouter(deps: { orm: MikroORM; storage: DocumentStorage; maxBytes: number; authFailures?: AuthFailureLimiter }): express.Router {
  const router = express.Router();
  router.post('/api/imports/uploads', async (req, res) => {
    let viewer;
    try {
      viewer = await authenticate(deps.orm, req, deps.authFailures);
    } catch (error) {
      req.resume();
      if (error instanceof RateLimitedError) {
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
        res.status(429).json({ error: error.message });
      } else if (error instanceof UnauthenticatedError) res.status(401).json({ error: error.message });
      else {
        logger.error('import upload failed', { error: String(error) });
        res.status(500).json({ error: 'Internal error' });
      }
      return;
    }
    if (!Object.keys(IMPORT_TARGETS).some((r) => grants(viewer.scopes, `${r}:write`))) {
      req.resume();
      res.status(403).json({ error: 'This API key lacks the write scope of any importable resource (people:write, …)' });
      return;
    }
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > deps.maxBytes) {
      req.resume();
      res.status(413).json({ error: `The file is larger than the import limit of ${deps.maxBytes} bytes (IMPORT_MAX_BYTES)` });
      return;
    }
    const formatOf = (type: string, name = '') =>
      /ndjson|jsonl|json-seq|application\/json/i.test(type) || /\.(jsonl|ndjson)$/i.test(name) ? BulkFormat.JSONL : BulkFormat.CSV;
    const store = (body: Readable, format: BulkFormat) => createUpload(deps.orm.em.fork(), deps.storage, viewer, body, format, deps.maxBytes);
    const answer = (result: Promise<{ id: number; bytes: number }>) =>
      result.then(
        ({ id, bytes }) => res.status(201).json({ uploadId: String(id), bytes }),
        (error: unknown) => {
          if (res.headersSent) return;
          if (error instanceof TooLargeError)
            res.status(413).json({ error: `The file is larger than the import limit of ${deps.maxBytes} bytes (IMPORT_MAX_BYTES)` });
          else if (error instanceof BadUpload) res.status(400).json({ error: error.message });
          else {
            logger.error('import upload failed', { error: error instanceof Error ? error.message : String(error) });
            res.status(500).json({ error: 'Internal error' });
          }
        },
      );
    const type = req.get('content-type') ?? '';
    if (!/^multipart\/form-data/i.test(type)) {
      await answer(store(req, formatOf(type)));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fieldSize: 1024 } });
    } catch {
      res.status(400).json({ error: 'The multipart body is malformed (no boundary?)' });
      return;
    }
    let started = false;
    parser.on('file', (_name, file, info) => {
      if (started) {
        file.resume();
        return;
      }
      started = true;
      void answer(store(file, formatOf(info.mimeType, info.filename)));
    });
    parser.on('error', () => {
      if (!res.headersSent) res.status(400).json({ error: 'The multipart body is malformed' });
    });
    parser.on('close', () => {
      if (!started && !res.headersSent) res.status(400).json({ error: 'The multipart body has no file part' });
    });
    req.pipe(parser);
  });
  return router;
}

class BadUpload extends Error {}

/** One CSV cell: quoted when it holds a quote, a separator or a line break. */
const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * `GET /api/imports/:id/failed-rows.csv`: the rows an import refused, read again from its stored
 * file beside its errors (both in row order, a page of errors at a time: memory stays flat), with
 * a `reason` column. A JSONL import's failed rows come back as JSONL with a `reason` key. Same key
 * as the upload; an import the viewer may not see is a 404.
 */
export function failedRowsRouter(deps: { orm: MikroORM; storage: DocumentStorage; maxColumns: number; authFailures?: AuthFailureLimiter }): express.Router {
  const router = express.Router();
  router.get('/api/imports/:id/failed-rows.csv', async (req, res) => {
    let viewer;
    try {
      viewer = await authenticate(deps.orm, req, deps.authFailures);
    } catch (error) {
      if (error instanceof RateLimitedError) res.status(429).json({ error: error.message });
      else if (error instanceof UnauthenticatedError) res.status(401).json({ error: error.message });
      else res.status(500).json({ error: 'Internal error' });
      return;
    }
    const id = /^[0-9]{1,10}$/.test(req.params.id) ? Number(req.params.id) : 0;
    const em = deps.orm.em.fork();
    const where = visibleImports(viewer);
    const [row] = id
      ? await em
          .getConnection()
          .execute<Array<{ id: number; format: 'csv' | 'jsonl'; storage_key: string | null; header: string[] | null }>>(
            `select i.id, i.format, i.storage_key, i.header from imports i where i.id = ? and ${where.sql}`,
            [id, ...where.params],
            'all',
          )
      : [];
    const stored = row?.storage_key ? await deps.storage.get(row.storage_key) : null;
    if (!row || !stored) {
      res.status(404).json({ error: 'No import of yours has this id, or its file is gone' });
      return;
    }
    res.status(200).type(row.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="import-${row.id}-failed-rows.${row.format}"`);
    // Errors by row number, a page at a time.
    let page: Array<{ row_number: number; reason: string }> = [];
    let at = 0;
    let after = 0;
    const nextError = async (): Promise<{ row_number: number; reason: string } | null> => {
      if (at >= page.length) {
        page = await em.getConnection().execute(
          `select row_number, string_agg(coalesce("column" || ': ', '') || message, '; ' order by id) as reason
           from import_errors where import_id = ? and row_number > ? group by row_number order by row_number limit 5000`,
          [row.id, after],
          'all',
        );
        at = 0;
        if (page.length === 0) return null;
        after = page[page.length - 1].row_number;
      }
      return page[at++];
    };
    try {
      let pending = await nextError();
      let rowNumber = 0;
      const write = (text: string) => (res.write(text) ? Promise.resolve() : new Promise<void>((r) => res.once('drain', () => r())));
      for await (const item of recordsOf(stored.body, row.format, deps.maxColumns)) {
        if (item.header) {
          await write([...item.header, 'reason'].map(csvCell).join(',') + '\r\n');
          continue;
        }
        rowNumber += 1;
        if (!pending) break;
        if (pending.row_number !== rowNumber) continue;
        // A row refused as it was read keeps what could be read: its cells (those past the header named in the reason), or its line.
        const cells = item.cells ?? [];
        const reason = item.extra?.length
          ? `${pending.reason} (cells past the header: ${item.extra.map((c) => JSON.stringify(c)).join(', ')})`
          : pending.reason;
        if (row.format === 'csv') await write([...cells.map(([, v]) => v), reason].map(csvCell).join(',') + '\r\n');
        else if (item.line !== undefined) await write(JSON.stringify({ line: item.line, reason }) + '\n');
        else await write(JSON.stringify({ ...Object.fromEntries(cells), reason }) + '\n');
        pending = await nextError();
      }
      stored.body.destroy();
      res.end();
    } catch (error) {
      stored.body.destroy();
      logger.warn('failed rows not fully written', { importId: row.id, error: String(error) });
      res.destroy();
    }
  });
  return router;
}
