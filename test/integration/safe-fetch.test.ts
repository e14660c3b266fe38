import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { FetchRefused, type FetchRefusedCode } from '../../src/modules/documents/fetch/fetch-refused';
import { isPublicAddress, nonPublicRange } from '../../src/modules/documents/fetch/public-address';
import { safeFetch, safePost, type SafeFetchOptions } from '../../src/modules/documents/fetch/safe-fetch';

/**
 * The document fetcher against real HTTP servers this test starts on loopback. The default policy
 * refuses loopback, so every fetch that should reach them passes the test-only `allowAddress`
 * for 127.0.0.1 alone; the refusals are proven both with and without it.
 */

const allowLoopback = (address: string) => address === '127.0.0.1';
const fast: SafeFetchOptions = { allowAddress: allowLoopback, timeoutMs: 3000, idleTimeoutMs: 2000 };

/** Runs the fetch and returns the refusal it must end in. */
async function refusal(url: string, options: SafeFetchOptions = fast): Promise<FetchRefused> {
  try {
    await safeFetch(url, options);
  } catch (err) {
    if (err instanceof FetchRefused) return err;
    throw err;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('safeFetch', () => {
  let server: Server;
  let base: string;
  let port: number;
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  let chunkedClosed: Promise<void>;
  let markChunkedClosed: () => void;

  const routes: Record<string, (res: ServerResponse, query: URLSearchParams) => void> = {
    '/doc.pdf': (res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Set-Cookie': 'session=secret' });
      res.end(Buffer.from('%PDF-1.7 fake'));
    },
    '/missing': (res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('no such thing at 127.0.0.1');
    },
    '/to': (res, query) => {
      res.writeHead(302, { Location: query.get('location') ?? '/', 'Set-Cookie': 'tracking=1' });
      res.end();
    },
    '/announced-big': (res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(10_000_000) });
      res.write(Buffer.alloc(10)); // and never the rest: the fetch must not wait for it
    },
    '/chunked-big': (res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 1);
      const timer = setInterval(() => res.write(chunk), 5);
      res.on('close', () => {
        clearInterval(timer);
        markChunkedClosed();
      });
    },
    '/chunked-small': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
      res.write('a,b\n');
      setTimeout(() => res.end('1,2\n'), 20);
    },
    '/silent': () => undefined, // never answers
    '/trickle': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50); // never idle, never done
      res.on('close', () => clearInterval(timer));
    },
    '/gzip': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' });
      res.end(Buffer.from([0x1f, 0x8b]));
    },
  };

  beforeAll(async () => {
    chunkedClosed = new Promise((resolve) => (markChunkedClosed = resolve));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ path: url.pathname, headers: req.headers });
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const n = Number(hop[1]);
        if (n === 0) res.writeHead(200, { 'Content-Type': 'text/plain' }).end('end of chain');
        else res.writeHead(n % 2 === 0 ? 301 : 307, { Location: `/hop/${n - 1}` }).end();
        return;
      }
      const route = routes[url.pathname];
      if (route) route(res, url.searchParams);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const lastRequest = () => seen[seen.length - 1]!;

  describe('fetches', () => {
    it('returns the bytes, content type, final URL and size', async () => {
      const result = await safeFetch(`${base}/doc.pdf?x=1#frag`, fast);
      expect(result.bytes.toString()).toBe('%PDF-1.7 fake');
      expect(result.contentType).toBe('application/pdf');
      expect(result.sizeBytes).toBe(13);
      expect(result.finalUrl).toBe(`${base}/doc.pdf?x=1#frag`);
      const { headers } = lastRequest();
      expect(headers['accept-encoding']).toBe('identity');
      expect(headers.host).toBe(`127.0.0.1:${port}`);
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    });

    it('reads a chunked body without Content-Length under the cap', async () => {
      const result = await safeFetch(`${base}/chunked-small`, fast);
      expect(result.bytes.toString()).toBe('a,b\n1,2\n');
      expect(result.sizeBytes).toBe(8);
      expect(result.contentType).toBe('text/csv; charset=utf-8');
    });

    it('keeps the host name in the Host header and connects to the address it checked', async () => {
      // A name no DNS knows: only the resolver given here answers, once per hop. Its second
      // answer (a private address) would be refused, and the connection could not reach it anyway.
      const answers = [[{ address: '127.0.0.1', family: 4 }], [{ address: '10.0.0.1', family: 4 }]];
      const asked: string[] = [];
      const resolve = async (host: string) => {
        asked.push(host);
        return answers.shift() ?? [];
      };
      const result = await safeFetch(`http://rebind.test:${port}/doc.pdf`, { ...fast, resolve });
      expect(result.contentType).toBe('application/pdf');
      expect(asked).toEqual(['rebind.test']);
      expect(lastRequest().headers.host).toBe(`rebind.test:${port}`);
    });

    it('reaches localhost through the escape hatch, with Host: localhost', async () => {
      const result = await safeFetch(`http://localhost:${port}/doc.pdf`, fast);
      expect(result.sizeBytes).toBe(13);
      expect(lastRequest().headers.host).toBe(`localhost:${port}`);
    });

    it('sends the URL host name as TLS SNI', async () => {
      // A TLS server with no certificate: it records the ClientHello's server name, then fails the handshake.
      let servername: string | undefined;
      const tls: TlsServer = createTlsServer({
        SNICallback: (name, cb) => {
          servername = name;
          cb(new Error('no certificate here'));
        },
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      try {
        const tlsPort = (tls.address() as AddressInfo).port;
        const err = await refusal(`https://localhost:${tlsPort}/`);
        expect(['tls_failed', 'connection_failed']).toContain(err.code);
        expect(servername).toBe('localhost');
      } finally {
        await new Promise((resolve) => tls.close(resolve));
      }
    });
  });

  describe('redirects', () => {
    it('follows a chain of 5 (the limit), each hop relative, and reports the final URL', async () => {
      const before = seen.length;
      const result = await safeFetch(`${base}/hop/5`, fast);
      expect(result.bytes.toString()).toBe('end of chain');
      expect(result.finalUrl).toBe(`${base}/hop/0`);
      expect(seen.slice(before).map((r) => r.path)).toEqual(['/hop/5', '/hop/4', '/hop/3', '/hop/2', '/hop/1', '/hop/0']);
    });

    it('refuses a sixth redirect without requesting it', async () => {
      const before = seen.length;
      const err = await refusal(`${base}/hop/6`);
      expect(err.code).toBe('too_many_redirects');
      expect(err.message).toBe('too many redirects');
      expect(seen.slice(before).map((r) => r.path)).not.toContain('/hop/0');
    });

    it('honours a smaller maxRedirects', async () => {
      expect((await refusal(`${base}/hop/2`, { ...fast, maxRedirects: 1 })).code).toBe('too_many_redirects');
    });

    it('does not carry a cookie set by a redirect to the next hop', async () => {
      await safeFetch(`${base}/to?location=${encodeURIComponent('/doc.pdf')}`, fast);
      expect(lastRequest().path).toBe('/doc.pdf');
      expect(lastRequest().headers.cookie).toBeUndefined();
    });

    it.each([
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'address_not_public'],
      ['IPv6 loopback', 'http://[::1]/', 'address_not_public'],
      ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', 'address_not_public'],
      ['a private network', 'http://10.1.2.3:8080/admin', 'address_not_public'],
      ['an IPv6 link-local address', 'http://[fe80::1]/', 'address_not_public'],
      ['a file', 'file:///etc/passwd', 'unsupported_scheme'],
      ['ftp', 'ftp://example.com/x', 'unsupported_scheme'],
      ['a URL with credentials', 'http://user:pass@example.com/', 'credentials_in_url'],
    ] as const)('refuses a redirect to %s', async (_name, location, code: FetchRefusedCode) => {
      // Only 127.0.0.1 is let through: ::1, ::ffff:127.0.0.1 and the rest stay refused.
      const before = seen.length;
      const err = await refusal(`${base}/to?location=${encodeURIComponent(location)}`);
      expect(err.code).toBe(code);
      expect(seen.length).toBe(before + 1); // the redirect itself, nothing after it
    });
  });

  describe('refuses', () => {
    it('an HTTP error status, as "HTTP 404"', async () => {
      const err = await refusal(`${base}/missing`);
      expect(err.code).toBe('http_status');
      expect(err.message).toBe('HTTP 404');
    });

    it.each([
      `http://127.0.0.1:PORT/doc.pdf`,
      `http://localhost:PORT/doc.pdf`,
      'http://[::ffff:127.0.0.1]:PORT/doc.pdf',
      'http://[::ffff:7f00:1]:PORT/doc.pdf',
      'http://2130706433:PORT/doc.pdf',
      'http://0x7f.1:PORT/doc.pdf',
      'http://[::1]:PORT/',
      'http://0.0.0.0:PORT/',
    ])('loopback without the escape hatch: %s', async (template) => {
      const before = seen.length;
      const err = await refusal(template.replace('PORT', String(port)), { timeoutMs: 3000 });
      expect(err.code).toBe('address_not_public');
      expect(err.message).toBe('the address is not public');
      expect(seen.length).toBe(before); // no request reached the server
    });

    it('a host when any one of its addresses is not public', async () => {
      const resolve = async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '192.168.1.10', family: 4 },
      ];
      expect((await refusal('http://mixed.test/', { resolve })).code).toBe('address_not_public');
      // The escape hatch lets 127.0.0.1 through, not the private address beside it.
      const withLoopback = async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ];
      expect((await refusal(`http://mixed.test:${port}/`, { ...fast, resolve: withLoopback })).code).toBe('address_not_public');
    });

    it('a host that does not resolve', async () => {
      const resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
      };
      const err = await refusal('http://nowhere.invalid/', { resolve });
      expect(err.code).toBe('dns_failed');
      expect(err.message).not.toContain('nowhere');
      expect((await refusal('http://empty.test/', { resolve: async () => [] })).code).toBe('dns_failed');
    });

    it.each([
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['ftp://example.com/file.pdf', 'unsupported_scheme'],
      ['gopher://example.com/', 'unsupported_scheme'],
      ['javascript:alert(1)', 'unsupported_scheme'],
      ['http://user:pass@example.com/', 'credentials_in_url'],
      ['http://user@example.com/', 'credentials_in_url'],
      ['https://:secret@example.com/', 'credentials_in_url'],
      ['not a url', 'invalid_url'],
      ['http://', 'invalid_url'],
    ] as const)('%s', async (url, code: FetchRefusedCode) => {
      expect((await refusal(url)).code).toBe(code);
    });

    it('a URL longer than maxUrlLength (2048 by default)', async () => {
      expect((await refusal(`http://example.com/${'a'.repeat(2100)}`)).code).toBe('url_too_long');
      expect((await refusal(`${base}/doc.pdf`, { ...fast, maxUrlLength: 20 })).code).toBe('url_too_long');
    });

    it('credentials before anything else, even for a reachable address', async () => {
      expect((await refusal(`http://user:pass@127.0.0.1:${port}/doc.pdf`)).code).toBe('credentials_in_url');
    });

    it('a body announced larger than the cap, at once', async () => {
      const started = Date.now();
      const err = await refusal(`${base}/announced-big`, { ...fast, maxBytes: 1_000_000 });
      expect(err.code).toBe('too_large');
      expect(err.message).toBe('too large (limit 0.95 MB)');
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('a chunked body that grows past the cap, as soon as it does, and closes the connection', async () => {
      const err = await refusal(`${base}/chunked-big`, { ...fast, maxBytes: 200_000 });
      expect(err.code).toBe('too_large');
      await chunkedClosed; // the server saw the connection go
    });

    it('the cap is exact: a body of exactly maxBytes passes, one byte less fails', async () => {
      expect((await safeFetch(`${base}/doc.pdf`, { ...fast, maxBytes: 13 })).sizeBytes).toBe(13);
      expect((await refusal(`${base}/doc.pdf`, { ...fast, maxBytes: 12 })).code).toBe('too_large');
    });

    it('a server that never answers (idle timeout)', async () => {
      const started = Date.now();
      const err = await refusal(`${base}/silent`, { ...fast, idleTimeoutMs: 200 });
      expect(err.code).toBe('timed_out');
      expect(err.message).toBe('timed out');
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('a server that trickles forever (total timeout)', async () => {
      const started = Date.now();
      const err = await refusal(`${base}/trickle`, { ...fast, timeoutMs: 300, idleTimeoutMs: 1000 });
      expect(err.code).toBe('timed_out');
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('a resolver slower than the total timeout', async () => {
      const resolve = () => new Promise<never>(() => undefined);
      expect((await refusal('http://slow-dns.test/', { timeoutMs: 100, resolve })).code).toBe('timed_out');
    });

    it('compressed content it did not ask for', async () => {
      expect((await refusal(`${base}/gzip`)).code).toBe('unsupported_encoding');
    });

    it('a refused connection, and a cancelled fetch', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      expect((await refusal(`http://127.0.0.1:${closedPort}/`)).code).toBe('connection_failed');

      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      expect((await refusal(`${base}/silent`, { ...fast, signal: controller.signal })).code).toBe('cancelled');
    });
  });

  it('no refusal message names an address, port, credential or stack', async () => {
    const errors = await Promise.all([
      refusal(`http://127.0.0.1:${port}/doc.pdf`, { timeoutMs: 3000 }),
      refusal(`${base}/to?location=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`),
      refusal(`${base}/missing`),
      refusal(`${base}/silent`, { ...fast, idleTimeoutMs: 100 }),
      refusal(`http://admin:hunter2@10.0.0.1/`),
    ]);
    for (const err of errors) {
      const shown = JSON.stringify(err);
      expect(Object.keys(JSON.parse(shown))).toEqual(['code', 'message']);
      for (const leak of ['127.0.0.1', '169.254', '10.0.0.1', String(port), 'admin', 'hunter2', ' at ']) expect(shown).not.toContain(leak);
    }
  });
});

describe('nonPublicRange', () => {
  const refused: Array<[string, string]> = [
    ['0.0.0.0', 'this-network'],
    ['0.1.2.3', 'this-network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'ietf-protocol'],
    ['192.0.2.10', 'documentation'],
    ['192.88.99.1', '6to4-relay'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::101', 'multicast'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'ietf-protocol'],
    ['2001:2::1', 'ietf-protocol'],
    ['::ffff:127.0.0.1', 'ipv4-mapped loopback'],
    ['::ffff:7f00:1', 'ipv4-mapped loopback'],
    ['::FFFF:10.0.0.1', 'ipv4-mapped private'],
    ['::ffff:169.254.169.254', 'ipv4-mapped link-local'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped link-local'],
    ['::ffff:100.64.0.1', 'ipv4-mapped cgnat'],
    ['::ffff:0.0.0.0', 'ipv4-mapped this-network'],
    ['::ffff:224.0.0.1', 'ipv4-mapped multicast'],
    ['0:0:0:0:0:ffff:192.168.1.1', 'ipv4-mapped private'],
    ['64:ff9b::a00:1', 'nat64 private'],
    ['64:ff9b::127.0.0.1', 'nat64 loopback'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2002:a9fe:a9fe::1', '6to4 link-local'],
    ['not-an-address', 'unparsable'],
    ['localhost', 'unparsable'],
    ['', 'unparsable'],
  ];
  it.each(refused)('%s is %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  const accepted = [
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '9.255.255.255',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '169.255.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.0.1.1',
    '192.167.255.255',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001::200e',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  it.each(accepted)('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('safePost with kept connections (webhook deliveries)', () => {
  let server: Server;
  let base: string;
  /** Sockets the server accepted, and requests it answered. */
  let sockets = 0;
  let answered = 0;
  /** Drop, unanswered, a request that comes on a connection which already carried one. */
  let dropReused = false;
  const served = new WeakSet<object>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (dropReused && served.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      req.resume();
      req.on('end', () => {
        answered++;
        res.end('ok');
      });
    });
    server.on('connection', () => sockets++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = (path: string, options: SafeFetchOptions = {}) =>
    safePost(`${base}${path}`, '{}', { 'Content-Type': 'application/json' }, { ...fast, keepAlive: true, ...options });

  it('sends POSTs in a row over one connection', async () => {
    const before = sockets;
    for (let i = 0; i < 5; i++) expect((await post('/hook')).status).toBe(200);
    expect(sockets - before).toBe(1);
  });

  it('sends again on a new connection when the receiver dropped the kept one under the request', async () => {
    expect((await post('/hook')).status).toBe(200);
    // The receiver drops a kept connection as the next request comes on it (its keep-alive ran
    // out at that moment): nothing reached it, so the POST goes again on a new connection.
    dropReused = true;
    const before = answered;
    try {
      expect((await post('/hook')).status).toBe(200);
    } finally {
      dropReused = false;
    }
    expect(answered - before).toBe(1);
  });

  it('checks the address before every POST, a kept connection or not', async () => {
    expect((await post('/hook')).status).toBe(200);
    // The same host and port, no longer allowed: refused, though a socket to it is kept.
    await expect(post('/hook', { allowAddress: () => false })).rejects.toMatchObject({ code: 'address_not_public' });
  });
});
