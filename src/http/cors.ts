import type { RequestHandler } from 'express';

/** Headers browsers may send: keys (never cookies), JSON bodies, Apollo's CSRF marker. */
const ALLOWED_HEADERS = ['Authorization', 'X-Api-Key', 'X-App-Key', 'Content-Type', 'Apollo-Require-Preflight', 'X-Apollo-Operation-Name', 'X-Request-Id'];
/** Headers a page's script may read from our answers: the rate limit and the request id. */
const EXPOSED_HEADERS = ['X-Ratelimit-Limit', 'X-Ratelimit-Remaining', 'X-Ratelimit-Reset', 'Retry-After', 'X-Request-Id'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'];
/** How long a browser may reuse a preflight answer, in seconds. */
const MAX_AGE = 600;

/**
 * CORS for the API routes (`/graphql`, `/api/v3`): an allowed origin gets
 * `Access-Control-Allow-Origin` (its own origin, or `*` when every origin is allowed) and may read
 * the rate-limit headers; a preflight is answered here, before authentication and rate limiting
 * (it carries no key and costs nothing). `Access-Control-Allow-Credentials` is never sent:
 * clients authenticate with a key header, never with cookies. A disallowed origin gets no CORS
 * header (the browser then refuses the answer) and a 403 to its preflight.
 */
export function cors(allowed: '*' | readonly string[]): RequestHandler {
  const origins = new Set(allowed === '*' ? [] : allowed);
  const permits = (origin: string) => allowed === '*' || origins.has(origin);
  return (req, res, next) => {
    const origin = req.headers.origin;
    res.vary('Origin');
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (typeof origin !== 'string' || !permits(origin)) {
      if (preflight) {
        res.status(403).json({ error: `Origin ${typeof origin === 'string' ? origin.slice(0, 200) : '(none)'} is not allowed (CORS_ORIGINS)` });
        return;
      }
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', allowed === '*' ? '*' : origin);
    if (preflight) {
      res.setHeader('Access-Control-Allow-Methods', METHODS.join(', '));
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', String(MAX_AGE));
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
    next();
  };
}
