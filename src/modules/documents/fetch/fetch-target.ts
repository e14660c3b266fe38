import { lookup } from 'node:dns/promises';
import type { Issues } from '../../../common/errors';
import { blank } from '../../../kit/assign';
import { withoutNul } from '../../common/input';
import { FetchRefused } from './fetch-refused';
import { checkAddresses, checkUrl, type SafeFetchOptions } from './safe-fetch';

/** Which non-public hosts a target may reach: DOCUMENT_FETCH_ALLOWED_HOSTS, as document fetches (set at start by allowFetchTargets). */
let allowed: SafeFetchOptions['allowAddress'];
export function allowFetchTargets(allowAddress: SafeFetchOptions['allowAddress']): void {
  allowed = allowAddress;
}

/** How long a check waits for the URL's host to resolve; past it, the host counts as not resolving yet. */
const LOOKUP_TIMEOUT_MS = 2000;

/**
 * A URL the service may fetch from or post to later (a webhook's target, an import's file), or the
 * issue naming `field`: well formed (http or https, no credentials, at most 2048 characters) and,
 * where its host resolves now, to public addresses only (a loopback, private or link-local address
 * is refused unless the host is on the allow-list, allowFetchTargets). A host that does not
 * resolve yet is accepted: every fetch checks the address again.
 */
export async function checkFetchTarget(raw: unknown, field: string, issues: Issues): Promise<string | null> {
  if (typeof raw !== 'string' || blank(withoutNul(raw).trim())) {
    issues.blank(field);
    return null;
  }
  let url: URL;
  try {
    url = checkUrl(raw.trim());
  } catch (error) {
    issues.invalid(field, error instanceof FetchRefused ? error.message : 'is not a URL');
    return null;
  }
  let timer: NodeJS.Timeout | undefined;
  const resolve = (host: string) =>
    Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), LOOKUP_TIMEOUT_MS))),
    ]);
  try {
    await checkAddresses(url, { allowAddress: allowed, resolve });
  } catch (error) {
    // Not resolving (yet) is no reason to refuse: every fetch checks again.
    if (error instanceof FetchRefused && error.code === 'address_not_public') {
      issues.invalid(field, 'must reach a public address (its host resolves to a private, loopback or link-local one)');
      return null;
    }
  } finally {
    clearTimeout(timer);
  }
  return url.href;
}
