import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { TooLargeError } from '../storage';
import { FetchRefused } from './fetch-refused';
import { isPublicAddress } from './public-address';

/**
 * Fetching a URL a user typed, for a document (issue 13 §3), without letting that user reach
 * anything the service can reach and they cannot (SSRF):
 * - http and https only, no credentials in the URL, a bounded URL length;
 * - the host is resolved once per hop and every address checked; the connection is pinned to the
 *   checked addresses through the socket's `lookup`, so DNS cannot answer differently between the
 *   check and the connect (rebinding). Host header and TLS SNI stay the URL's host name;
 * - redirects are followed by hand, each hop checked again, at most `maxRedirects`;
 * - a total deadline and an idle timeout; the size cap holds while streaming;
 * - nothing is sent but the request line, Host, Accept, Accept-Encoding: identity and User-Agent
 *   (no cookies, no credentials, nothing carried over from one hop to the next).
 */

export interface SafeFetchOptions {
  /** Largest body accepted, in bytes (issue 13: 25 MB by default). */
  readonly maxBytes?: number;
  /** Whole fetch, DNS and redirects included. */
  readonly timeoutMs?: number;
  /** Longest silence on a socket (connecting, waiting for headers, between body chunks). */
  readonly idleTimeoutMs?: number;
  readonly maxRedirects?: number;
  readonly maxUrlLength?: number;
  readonly userAgent?: string;
  /**
   * Lets a non-public address through. Tests pass it to reach the server they start on loopback;
   * the service's only other use is the operator's named allow-list. Never a blanket `() => true`.
   */
  readonly allowAddress?: (address: string, host: string) => boolean;
  /** Replaces `dns.lookup` (all addresses); its answers are checked like any other. */
  readonly resolve?: (host: string) => Promise<readonly LookupAddress[]>;
  /** Cancels the fetch (a worker shutting down). */
  readonly signal?: AbortSignal;
  /**
   * POST only: keep the connection for the next POST to the same host and port (webhook
   * deliveries in a row). A kept socket is one a checked address was connected to; the host's
   * addresses are checked again before each POST all the same.
   */
  readonly keepAlive?: boolean;
}

export interface SafeFetchResult {
  readonly bytes: Buffer;
  readonly contentType: string | null;
  /** The URL the bytes came from, after redirects. */
  readonly finalUrl: string;
  readonly sizeBytes: number;
}

export const SAFE_FETCH_DEFAULTS = {
  maxBytes: 25 * 1024 * 1024,
  timeoutMs: 15_000,
  idleTimeoutMs: 10_000,
  maxRedirects: 5,
  maxUrlLength: 2048,
  userAgent: 'crm-service document fetcher',
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Settings = Required<Omit<SafeFetchOptions, 'allowAddress' | 'resolve' | 'signal' | 'keepAlive'>> &
  Pick<SafeFetchOptions, 'allowAddress'> & { resolve: (host: string) => Promise<readonly LookupAddress[]> };

function defaultResolve(host: string): Promise<readonly LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** Parses and vets one URL (the first, or a redirect's target). */
export function checkUrl(raw: string, maxUrlLength: number = SAFE_FETCH_DEFAULTS.maxUrlLength, base?: URL): URL {
  if (raw.length > maxUrlLength) throw FetchRefused.of('url_too_long');
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw FetchRefused.of(base ? 'bad_redirect' : 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw FetchRefused.of('unsupported_scheme');
  if (url.username !== '' || url.password !== '') throw FetchRefused.of('credentials_in_url');
  if (url.hostname === '') throw FetchRefused.of(base ? 'bad_redirect' : 'invalid_url');
  if (url.href.length > maxUrlLength) throw FetchRefused.of('url_too_long');
  return url;
}

/** The URL's host without IPv6 brackets, as DNS and sockets take it. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Every address the host resolves to, refused unless all of them are public (or allowed). */
async function checkedAddresses(host: string, settings: Settings): Promise<readonly LookupAddress[]> {
  const family = isIP(host);
  let addresses: readonly LookupAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await settings.resolve(host);
    } catch {
      throw FetchRefused.of('dns_failed');
    }
  }
  if (addresses.length === 0) throw FetchRefused.of('dns_failed');
  const allowed = (a: LookupAddress) => isPublicAddress(a.address) || (settings.allowAddress?.(a.address, host) ?? false);
  if (!addresses.every(allowed)) throw FetchRefused.of('address_not_public');
  return addresses;
}

/**
 * Whether `url`'s host may be reached now, as a fetch would judge it (every address public, or
 * allowed): throws the fetch's FetchRefused (`address_not_public`, `dns_failed`).
 */
export async function checkAddresses(url: URL, options: Pick<SafeFetchOptions, 'allowAddress' | 'resolve'> = {}): Promise<void> {
  await checkedAddresses(bareHost(url), { resolve: options.resolve ?? defaultResolve, allowAddress: options.allowAddress } as Settings);
}

/** A socket `lookup` that answers only with addresses already checked: no second DNS query. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const first = wanted[0];
    if (first === undefined) {
      callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        wanted.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
}

type HopOutcome = { kind: 'redirect'; location: string } | { kind: 'body'; result: SafeFetchResult };

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** A request's socket error as a refusal: a failed TLS handshake apart from the rest. */
const refusalOf = (url: URL, err: NodeJS.ErrnoException): FetchRefused =>
  FetchRefused.of(url.protocol === 'https:' && (TLS_CODES.test(err.code ?? '') || err.code === 'EPROTO') ? 'tls_failed' : 'connection_failed');

/**
 * A request to a checked URL, connected only to its checked addresses (the pinned lookup), on a
 * socket of its own (a pooled one could be connected to an address checked for another URL), with
 * the host name for TLS (SNI and the certificate check).
 */
function pinnedRequest(
  url: URL,
  addresses: readonly LookupAddress[],
  method: 'GET' | 'POST',
  headers: OutgoingHttpHeaders,
  onResponse: (response: IncomingMessage) => void,
  keepAlive = false,
): ClientRequest {
  const host = bareHost(url);
  const options: RequestOptions & { servername?: string } = {
    method,
    host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: { Host: url.host, ...headers },
    lookup: pinnedLookup(addresses),
    agent: keepAlive ? (url.protocol === 'https:' ? KEPT.https : KEPT.http) : false,
  };
  if (url.protocol === 'https:' && isIP(host) === 0) options.servername = host;
  return (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, onResponse);
}

/**
 * The POSTs' kept connections: an idle one is closed after 2 s (shorter than the 5 s a Node
 * server keeps one, so a receiver rarely closes one under a request), at most 4 a host.
 */
const KEPT = {
  http: new HttpAgent({ keepAlive: true, timeout: 2_000, maxSockets: 4, maxFreeSockets: 4 }),
  https: new HttpsAgent({ keepAlive: true, timeout: 2_000, maxSockets: 4, maxFreeSockets: 4 }),
};

/** One abort for a whole exchange: its deadline and the caller's signal; `done` lets go of both. */
function exchangeAbort(timeoutMs: number, signal: AbortSignal | undefined): { readonly signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(FetchRefused.of('timed_out')), timeoutMs);
  const onCallerAbort = () => controller.abort(FetchRefused.of('cancelled'));
  if (signal?.aborted) onCallerAbort();
  signal?.addEventListener('abort', onCallerAbort);
  return {
    signal: controller.signal,
    done() {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** One request to one checked URL; settles once, and tears the socket down on any refusal. */
function hop(url: URL, addresses: readonly LookupAddress[], settings: Settings, abort: AbortSignal, consume?: BodyConsumer): Promise<HopOutcome> {
  return new Promise<HopOutcome>((resolve, reject) => {
    // eslint-disable-next-line prefer-const -- assigned below, read by `finish`, which may run first
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    let settled = false;

    const finish = (err: FetchRefused | null, outcome?: HopOutcome) => {
      if (settled) return;
      settled = true;
      abort.removeEventListener('abort', onAbort);
      if (err) {
        res?.destroy();
        req?.destroy();
        reject(err);
      } else resolve(outcome!);
    };
    const onAbort = () => finish(abort.reason instanceof FetchRefused ? abort.reason : FetchRefused.of('cancelled'));
    if (abort.aborted) return onAbort();
    abort.addEventListener('abort', onAbort);

    const headers = { Accept: '*/*', 'Accept-Encoding': 'identity', 'User-Agent': settings.userAgent };
    req = pinnedRequest(url, addresses, 'GET', headers, (response) => {
      res = response;
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && typeof response.headers.location === 'string') {
        finish(null, { kind: 'redirect', location: response.headers.location });
        response.destroy();
        req?.destroy();
        return;
      }
      if (status < 200 || status > 299) return finish(FetchRefused.httpStatus(status));
      const encoding = response.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return finish(FetchRefused.of('unsupported_encoding'));
      const announced = response.headers['content-length'];
      if (announced !== undefined && /^\d+$/.test(announced) && Number(announced) > settings.maxBytes) return finish(FetchRefused.tooLarge(settings.maxBytes));

      if (consume) {
        // Streamed: the consumer bounds the size (it is told maxBytes); a body cut short is a failure.
        consume(response, settings.maxBytes).then(
          (size) =>
            response.complete
              ? finish(null, {
                  kind: 'body',
                  result: { bytes: Buffer.alloc(0), contentType: response.headers['content-type'] ?? null, finalUrl: url.href, sizeBytes: size },
                })
              : finish(FetchRefused.of('connection_failed')),
          (error: unknown) =>
            finish(
              error instanceof FetchRefused
                ? error
                : error instanceof TooLargeError
                  ? FetchRefused.tooLarge(settings.maxBytes)
                  : FetchRefused.of('connection_failed'),
            ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > settings.maxBytes) return finish(FetchRefused.tooLarge(settings.maxBytes));
        chunks.push(chunk);
      });
      response.on('end', () => {
        if (!response.complete) return finish(FetchRefused.of('connection_failed'));
        const contentType = response.headers['content-type'] ?? null;
        finish(null, { kind: 'body', result: { bytes: Buffer.concat(chunks, size), contentType, finalUrl: url.href, sizeBytes: size } });
      });
      response.on('error', () => finish(FetchRefused.of('connection_failed')));
      response.on('close', () => finish(FetchRefused.of('connection_failed')));
    });
    req.setTimeout(settings.idleTimeoutMs, () => finish(FetchRefused.of('timed_out')));
    req.on('error', (err: NodeJS.ErrnoException) => finish(refusalOf(url, err)));
    req.end();
  });
}

/**
 * Fetches `rawUrl` under the rules above. Resolves with the body, or rejects with a
 * `FetchRefused` whose message is safe to show and store.
 */
export function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  return fetchHops(rawUrl, options);
}

/**
 * Reads a response body as it comes, bounded by `maxBytes` (a TooLargeError, or a FetchRefused,
 * refuses the fetch); answers the bytes it took.
 */
export type BodyConsumer = (body: Readable, maxBytes: number) => Promise<number>;

/**
 * As safeFetch, but the body is streamed to `consume` instead of held in memory (a large file
 * stored as it arrives); the result's `bytes` is empty. A failure of the consumer's own (not a
 * size or fetch refusal) is a `connection_failed` refusal.
 */
export function safeFetchStream(rawUrl: string, options: SafeFetchOptions, consume: BodyConsumer): Promise<SafeFetchResult> {
  return fetchHops(rawUrl, options, consume);
}

async function fetchHops(rawUrl: string, options: SafeFetchOptions, consume?: BodyConsumer): Promise<SafeFetchResult> {
  const settings: Settings = {
    maxBytes: options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes,
    timeoutMs: options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? SAFE_FETCH_DEFAULTS.idleTimeoutMs,
    maxRedirects: options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects,
    maxUrlLength: options.maxUrlLength ?? SAFE_FETCH_DEFAULTS.maxUrlLength,
    userAgent: options.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent,
    allowAddress: options.allowAddress,
    resolve: options.resolve ?? defaultResolve,
  };

  // One abort for everything: the total deadline and the caller's signal both end the current hop.
  const exchange = exchangeAbort(settings.timeoutMs, options.signal);
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(exchange.signal.reason);
    if (exchange.signal.aborted) fail();
    else exchange.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined); // only ever awaited through Promise.race

  try {
    let url = checkUrl(rawUrl, settings.maxUrlLength);
    for (let redirects = 0; ; redirects++) {
      // dns.lookup cannot be cancelled: race it against the deadline instead.
      const addresses = await Promise.race([checkedAddresses(bareHost(url), settings), aborted]);
      const outcome = await hop(url, addresses, settings, exchange.signal, consume);
      if (outcome.kind === 'body') return outcome.result;
      if (redirects >= settings.maxRedirects) throw FetchRefused.of('too_many_redirects');
      url = checkUrl(outcome.location, settings.maxUrlLength, url);
    }
  } finally {
    exchange.done();
  }
}

/** What a POST got back: the status, the headers, the first KB of the body. */
export interface SafePostResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly head: string;
}

/** How much of a response body a POST reads (the rest is left unread) and keeps. */
const POST_READ_BYTES = 64 * 1024;
const POST_KEPT_BYTES = 1024;

/**
 * POSTs `body` to `rawUrl` under the same rules as a fetch (a public address, checked now, the
 * socket pinned to it; allowed hosts; timeouts) without following redirects: any status answers
 * (a 3xx too), with the first KB of its body. Rejects with a FetchRefused when no answer came.
 */
export async function safePost(
  rawUrl: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: SafeFetchOptions = {},
): Promise<SafePostResult> {
  const settings = { resolve: options.resolve ?? defaultResolve, allowAddress: options.allowAddress } as Settings;
  const exchange = exchangeAbort(options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs, options.signal);
  try {
    const url = checkUrl(rawUrl, options.maxUrlLength ?? SAFE_FETCH_DEFAULTS.maxUrlLength);
    const addresses = await checkedAddresses(bareHost(url), settings);
    const post = (keepAlive: boolean) =>
      new Promise<SafePostResult>((resolve, reject) => {
        let settled = false;
        const finish = (error: (FetchRefused & { stale?: boolean }) | null, result?: SafePostResult, keep = false) => {
          if (settled) return;
          settled = true;
          exchange.signal.removeEventListener('abort', onAbort);
          // A socket goes back to the pool only after a whole answer.
          if (!keep) req.destroy();
          if (error) reject(error);
          else resolve(result!);
        };
        const onAbort = () => finish(exchange.signal.reason instanceof FetchRefused ? exchange.signal.reason : FetchRefused.of('cancelled'));
        const sent = {
          ...headers,
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': options.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent,
        };
        const req = pinnedRequest(
          url,
          addresses,
          'POST',
          sent,
          (response) => {
            const chunks: Buffer[] = [];
            let size = 0;
            const done = (whole: boolean) =>
              finish(
                null,
                { status: response.statusCode ?? 0, headers: response.headers, head: Buffer.concat(chunks).subarray(0, POST_KEPT_BYTES).toString('utf8') },
                whole && keepAlive,
              );
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size <= POST_READ_BYTES) chunks.push(chunk);
              else done(false);
            });
            response.on('end', () => done(true));
            response.on('error', () => done(false));
            response.on('close', () => done(false));
          },
          keepAlive,
        );
        if (exchange.signal.aborted) return onAbort();
        exchange.signal.addEventListener('abort', onAbort);
        req.setTimeout(options.idleTimeoutMs ?? SAFE_FETCH_DEFAULTS.idleTimeoutMs, () => finish(FetchRefused.of('timed_out')));
        req.on('error', (err: NodeJS.ErrnoException) => {
          const refused: FetchRefused & { stale?: boolean } = refusalOf(url, err);
          // A kept socket the receiver had closed meanwhile: nothing reached it.
          refused.stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
          finish(refused);
        });
        req.end(body);
      });
    if (!options.keepAlive) return await post(false);
    try {
      return await post(true);
    } catch (error) {
      // Once more on a new connection when a kept one turned out closed.
      if ((error as { stale?: boolean }).stale && !exchange.signal.aborted) return await post(false);
      throw error;
    }
  } finally {
    exchange.done();
  }
}
