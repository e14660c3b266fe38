import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * `crm export` (issue 27 §2): a client of a running server. It starts an export over GraphQL with
 * the key given, follows it (a progress bar on a terminal, a line every few seconds otherwise, on
 * stderr), then downloads the file to `--out` or prints its link. One JSON line on stdout at the end.
 */
export interface ExportCommandOptions {
  readonly resource: string;
  readonly format: 'csv' | 'jsonl';
  readonly filter?: Record<string, unknown>;
  readonly out?: string;
  readonly url?: string;
  readonly key?: string;
  /** How often to read the export's progress. */
  readonly pollMs?: number;
}

export const EXPORT_RESOURCES = ['deals', 'people', 'companies', 'notes', 'calendar_entries'] as const;

/** The filter input's field of each resource (ExportFilterInput). */
const FILTER_FIELD: Readonly<Record<string, string>> = {
  deals: 'deals',
  people: 'people',
  companies: 'companies',
  notes: 'notes',
  calendar_entries: 'calendarEntries',
};

export class ExportCommandError extends Error {
  constructor(
    message: string,
    readonly fields?: unknown,
  ) {
    super(message);
  }
}

const FIELDS = 'databaseId state rowsTotal rowsExported estimatedSecondsLeft failure downloadUrl expiresAt changesCursor';

/** The server: --url, else CRM_URL, else the one `npm start` runs for this data folder (its lock file), else the configured port. */
async function serverUrl(given: string | undefined): Promise<string> {
  if (given) return given.replace(/\/+$/, '');
  if (process.env.CRM_URL) return process.env.CRM_URL.replace(/\/+$/, '');
  const { loadConfig } = await import('../config/config');
  const config = loadConfig();
  try {
    const lock = JSON.parse(await readFile(join(config.dataDir, 'server.pid'), 'utf8')) as { url?: unknown };
    if (typeof lock.url === 'string') return lock.url.replace(/\/+$/, '');
  } catch {
    // No server of this data folder: the configured address.
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host}:${config.port}`;
}

async function graphql(url: string, key: string, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  let response: Response;
  try {
    response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new ExportCommandError(`the server at ${url} is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = (await response.json().catch(() => null)) as { data?: Record<string, any>; errors?: Array<{ message: string }> } | null;
  if (!body) throw new ExportCommandError(`the server at ${url} answered ${response.status} without GraphQL`);
  if (body.errors?.length) throw new ExportCommandError(body.errors[0].message);
  return body.data ?? {};
}

function bar(state: Record<string, any>, started: number): string {
  const total = state.rowsTotal as number | null;
  const done = state.rowsExported as number;
  const width = 30;
  const share = total ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  const eta = state.estimatedSecondsLeft === null ? '' : ` ETA ${state.estimatedSecondsLeft}s`;
  const elapsed = Math.round((Date.now() - started) / 1000);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}% ${done}/${total ?? '?'} ${state.state.toLowerCase()} ${elapsed}s${eta}`;
}

export async function runExportCommand(options: ExportCommandOptions): Promise<Record<string, unknown>> {
  const key = options.key ?? process.env.CRM_API_KEY;
  if (!key) throw new ExportCommandError('--key (or CRM_API_KEY) is required: the API key of the user whose records are exported');
  const url = await serverUrl(options.url);
  const input: Record<string, unknown> = { resource: options.resource.toUpperCase(), format: options.format.toUpperCase() };
  if (options.filter) input.filter = { [FILTER_FIELD[options.resource]]: options.filter };
  const started = await graphql(
    url,
    key,
    `mutation($input: StartExportInput!) { startExport(input: $input) { export { ${FIELDS} } userErrors { field code message } } }`,
    { input },
  );
  const payload = started.startExport as { export: Record<string, any> | null; userErrors: Array<{ field: string[] | null; message: string }> };
  if (!payload.export)
    throw new ExportCommandError(payload.userErrors.map((e) => `${(e.field ?? []).join('.')} ${e.message}`.trim()).join('; '), payload.userErrors);
  const id = payload.export.databaseId as number;
  const tty = process.stderr.isTTY === true;
  const since = Date.now();
  let lastLine = 0;
  let state = payload.export;
  while (!['DONE', 'FAILED', 'CANCELLED'].includes(state.state)) {
    await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
    const read = await graphql(url, key, `query($id: ID!) { export(id: $id) { ${FIELDS} } }`, { id: String(id) });
    if (!read.export) throw new ExportCommandError(`export ${id} is gone`);
    state = read.export as Record<string, any>;
    if (tty) process.stderr.write(`\r${bar(state, since)}\x1b[K`);
    else if (Date.now() - lastLine >= 2000) {
      process.stderr.write(`export ${id}: ${bar(state, since)}\n`);
      lastLine = Date.now();
    }
  }
  if (tty) process.stderr.write(`\r${bar(state, since)}\x1b[K\n`);
  if (state.state !== 'DONE') throw new ExportCommandError(`export ${id} ${state.state.toLowerCase()}${state.failure ? `: ${state.failure}` : ''}`);
  const result = { export: id, rows: state.rowsExported as number, changes_cursor: state.changesCursor as string, expires_at: state.expiresAt as string };
  if (!options.out) return { ...result, download_url: state.downloadUrl as string };
  const response = await fetch(state.downloadUrl as string);
  if (!response.ok || !response.body) throw new ExportCommandError(`downloading export ${id} answered ${response.status}`);
  // Written beside the target and renamed when complete: a cut download leaves no half file under its name.
  const partial = `${options.out}.partial`;
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
    await rename(partial, options.out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { ...result, file: options.out };
}
