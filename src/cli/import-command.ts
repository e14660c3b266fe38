import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/*
 * `crm import`: a client of a running service (issue 27 §1): uploads the file to
 * POST /api/imports/uploads (streamed), or for an http(s) URL lets the service fetch it (through
 * its SSRF-safe fetcher), starts the import over GraphQL, polls it, shows progress (a bar on a
 * terminal, plain lines otherwise) and ends with the final counts as one JSON line.
 */

export interface ImportCommandOptions {
  /** A local file, or an http(s) URL the service fetches. */
  readonly file: string;
  readonly resource: 'people' | 'companies' | 'deals';
  readonly mode: 'create' | 'update' | 'upsert';
  readonly map?: string;
  readonly matchBy?: string;
  readonly externalId?: string;
  readonly dryRun?: boolean;
  readonly url?: string;
  readonly key?: string;
  /** Poll interval, ms. */
  readonly every?: number;
}

const FIELDS = `id databaseId state rowsTotal rowsProcessed rowsCreated rowsUpdated rowsUnchanged rowsFailed estimatedSecondsLeft failure failedRowsUrl`;

/** `"First Name=first_name,E-mail=email"` → mapping entries; a pair without `=` is refused. */
export function parseMapping(text: string): Array<{ column: string; field: string }> {
  return text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.lastIndexOf('=');
      if (at <= 0 || at === pair.length - 1) throw new Error(`--map: "${pair}" is not column=field`);
      return { column: pair.slice(0, at).trim(), field: pair.slice(at + 1).trim() };
    });
}

/** The service's URL: --url, CRM_URL, or the `npm start` of this data folder (its lock file). */
async function serverUrl(given: string | undefined, dataDir: string): Promise<string> {
  if (given) return given.replace(/\/+$/, '');
  if (process.env.CRM_URL) return process.env.CRM_URL.replace(/\/+$/, '');
  try {
    const holder = JSON.parse(await readFile(join(dataDir, 'server.pid'), 'utf8')) as { url?: string };
    if (holder.url) return holder.url.replace(/\/+$/, '');
  } catch {
    // No running server of this folder.
  }
  throw new Error('no server: give --url or CRM_URL (or run npm start in this folder)');
}

function bar(done: number, total: number | null, width = 30): string {
  if (!total) return `[${' '.repeat(width)}] ${done} rows`;
  const filled = Math.min(width, Math.round((done / total) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} (${Math.floor((done / total) * 100)}%)`;
}

/** Streams a local file to POST /api/imports/uploads; answers startImport's uploadId and format. */
async function uploadFile(base: string, auth: Record<string, string>, file: string): Promise<Record<string, unknown>> {
  const size = (await stat(file)).size;
  const jsonl = /\.(jsonl|ndjson)$/i.test(file);
  const uploaded = await fetch(`${base}/api/imports/uploads`, {
    method: 'POST',
    headers: { ...auth, 'content-type': jsonl ? 'application/x-ndjson' : 'text/csv', 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const upload = (await uploaded.json()) as { uploadId?: string; error?: string };
  if (uploaded.status !== 201 || !upload.uploadId) throw new Error(`upload refused (${uploaded.status}): ${upload.error ?? 'no uploadId'}`);
  return { uploadId: upload.uploadId, format: jsonl ? 'JSONL' : 'CSV' };
}

/** Runs the command; answers the final JSON line and whether the import ended DONE. */
export async function runImportCommand(options: ImportCommandOptions, dataDir: string): Promise<{ ok: boolean; line: Record<string, unknown> }> {
  const key = options.key ?? process.env.CRM_API_KEY;
  if (!key) throw new Error('no API key: give --key or CRM_API_KEY');
  const base = await serverUrl(options.url, dataDir);
  const mapping = options.map ? parseMapping(options.map) : undefined;
  const auth = { authorization: `Bearer ${key}` };
  // A URL is the service's to fetch (its format from the path, as startImport reads it); a local file is uploaded.
  const source: Record<string, unknown> = /^https?:\/\//i.test(options.file) ? { url: options.file } : await uploadFile(base, auth, options.file);
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: Record<string, any>; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
    return body.data!;
  };
  const input: Record<string, unknown> = {
    resource: options.resource.toUpperCase(),
    ...source,
    mode: options.mode.toUpperCase(),
    dryRun: options.dryRun ?? false,
  };
  if (mapping) input.mapping = mapping;
  if (options.matchBy) input.matchBy = options.matchBy.toUpperCase();
  if (options.externalId) input.externalIdField = options.externalId;
  const started = await gql(`mutation($input: StartImportInput!) { startImport(input: $input) { import { ${FIELDS} } userErrors { field code message } } }`, {
    input,
  });
  const errors = started.startImport.userErrors as Array<{ field: string[] | null; message: string }>;
  if (errors.length > 0) return { ok: false, line: { error: 'the import was refused', fields: errors } };
  let imp = started.startImport.import as Record<string, any>;
  const tty = process.stderr.isTTY === true;
  let last = -1;
  while (!['DONE', 'FAILED', 'CANCELLED'].includes(imp.state)) {
    await new Promise((r) => setTimeout(r, options.every ?? 500));
    imp = (await gql(`query($id: ID!) { import(id: $id) { ${FIELDS} } }`, { id: imp.id })).import;
    if (tty) {
      const eta = imp.estimatedSecondsLeft == null ? '' : ` ~${imp.estimatedSecondsLeft}s left`;
      process.stderr.write(`\r${bar(imp.rowsProcessed, imp.rowsTotal)} ${imp.state.toLowerCase()}${eta}   `);
    } else if (imp.rowsProcessed !== last) {
      process.stderr.write(`import ${imp.databaseId}: ${imp.state.toLowerCase()} ${imp.rowsProcessed}${imp.rowsTotal ? `/${imp.rowsTotal}` : ''} rows\n`);
    }
    last = imp.rowsProcessed;
  }
  if (tty) process.stderr.write('\n');
  const line = {
    import: imp.databaseId,
    state: imp.state,
    rows: imp.rowsTotal,
    created: imp.rowsCreated,
    updated: imp.rowsUpdated,
    unchanged: imp.rowsUnchanged,
    failed: imp.rowsFailed,
    ...(imp.failure ? { failure: imp.failure } : {}),
    ...(imp.failedRowsUrl ? { failed_rows_url: imp.failedRowsUrl } : {}),
  };
  return { ok: imp.state === 'DONE', line };
}
