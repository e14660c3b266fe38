import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { serveCommands } from './child-process';

/**
 * The webhook receiver of `npm run bench -- --webhooks` (bench/webhooks.ts) in a process of its
 * own: a plain node HTTP server that answers 200 at once and notes, per delivery, when it arrived
 * (wall clock in ms, sub-ms precision: comparable with the load generator's, another process on
 * the same machine) with its `webhook-id` and what the body's `data` says of the change. After
 * answering, it checks the delivery's signature with the `standardwebhooks` package (an
 * implementation of its own) under the secret of the endpoint posting to that path.
 */

export interface Arrival {
  /** `performance.timeOrigin + performance.now()` when the body had arrived. */
  readonly at: number;
  readonly webhookId: string;
  /** The path it was POSTed to: one per endpoint (`/hook/<n>`). */
  readonly path: string;
  readonly type: string;
  /** `data.id`: the change's sequence number. */
  readonly changeId: number;
  readonly recordId: number;
  /** `data.occurred_at` in ms (the writing transaction's `now()`). */
  readonly occurredAt: number;
}

const arrivals: Arrival[] = [];
/** The signing secret of the endpoint posting to each path (`secrets`). */
const verifiers = new Map<string, Webhook>();
const signatures = { verified: 0, bad: 0, unknown: 0 };
let unreadable = 0;
let server: Server | null = null;

const now = () => performance.timeOrigin + performance.now();

serveCommands(
  {
    async start(): Promise<string> {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const at = now();
          res.statusCode = 200;
          res.end('ok');
          const body = Buffer.concat(chunks).toString('utf8');
          const path = req.url ?? '/';
          try {
            const parsed = JSON.parse(body) as { type: string; data: { id: number; record_id: number; occurred_at: string } };
            arrivals.push({
              at,
              webhookId: String(req.headers['webhook-id'] ?? ''),
              path,
              type: parsed.type,
              changeId: Number(parsed.data.id),
              recordId: Number(parsed.data.record_id),
              occurredAt: Date.parse(parsed.data.occurred_at),
            });
          } catch {
            unreadable++;
          }
          const verifier = verifiers.get(path);
          if (!verifier) signatures.unknown++;
          else {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
            try {
              verifier.verify(body, headers);
              signatures.verified++;
            } catch {
              signatures.bad++;
            }
          }
        });
      });
      // Many short connections (the app's fetcher opens one per delivery): no keep-alive to manage.
      server.keepAliveTimeout = 1000;
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    /** The endpoints' secrets by path (an endpoint created again under a path replaces its secret). */
    secrets(byPath: Record<string, string>) {
      for (const [path, secret] of Object.entries(byPath)) verifiers.set(path, new Webhook(secret));
    },
    /** How many arrived so far (every POST, duplicates included), bodies that were not JSON, and the signatures checked. */
    count: () => ({ arrivals: arrivals.length, unreadable, signatures: { ...signatures } }),
    /** The arrivals from index `from` on. */
    take: (from: number): Arrival[] => arrivals.slice(from),
  },
  async () => {
    if (!server) return;
    const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  },
);
