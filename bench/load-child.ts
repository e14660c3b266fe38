import { serveCommands } from './child-process';

/**
 * The load generator (autocannon) in a process of its own, so it shares neither a server's event
 * loop nor its CPU; it lives for the whole bench and runs one load at a time.
 */

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface LoadSpec {
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  readonly seconds: number;
  readonly connections: number;
}

export interface LoadResult {
  /** Completed responses per second of the run's real duration. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly mbPerSec: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** One request in flight per connection, the same for every server measured. */
export const PIPELINING = 1;

serveCommands({
  async run(spec: LoadSpec): Promise<LoadResult> {
    const { default: autocannon } = await import('autocannon');
    const result = await autocannon({
      url: spec.url,
      connections: spec.connections,
      pipelining: PIPELINING,
      duration: spec.seconds,
      requests: spec.requests.map((r) => ({ ...r })),
    });
    return {
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      mbPerSec: result.throughput.total / result.duration / 1_048_576,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  },
});
