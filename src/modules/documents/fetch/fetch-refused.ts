/**
 * Why a document URL was not fetched. The message is what a document shows as its
 * `upload_status_error_message` (v3 §2.7), so it names no address, port, credential or internal
 * detail: the code is for programs, the message for people.
 */
export type FetchRefusedCode =
  | 'invalid_url'
  | 'url_too_long'
  | 'unsupported_scheme'
  | 'credentials_in_url'
  | 'dns_failed'
  | 'address_not_public'
  | 'connection_failed'
  | 'tls_failed'
  | 'timed_out'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'http_status'
  | 'too_large'
  | 'unsupported_encoding'
  | 'cancelled';

const MESSAGES: Record<Exclude<FetchRefusedCode, 'http_status' | 'too_large'>, string> = {
  invalid_url: 'the URL is not valid',
  url_too_long: 'the URL is too long',
  unsupported_scheme: 'unsupported scheme (only http and https)',
  credentials_in_url: 'the URL contains credentials',
  dns_failed: 'the host name could not be resolved',
  address_not_public: 'the address is not public',
  connection_failed: 'the server could not be reached',
  tls_failed: 'the secure connection failed',
  timed_out: 'timed out',
  too_many_redirects: 'too many redirects',
  bad_redirect: 'a redirect had no valid location',
  unsupported_encoding: 'the server sent compressed content',
  cancelled: 'the fetch was cancelled',
};

export class FetchRefused extends Error {
  override readonly name = 'FetchRefused';

  private constructor(
    readonly code: FetchRefusedCode,
    message: string,
  ) {
    super(message);
  }

  static of(code: Exclude<FetchRefusedCode, 'http_status' | 'too_large'>): FetchRefused {
    return new FetchRefused(code, MESSAGES[code]);
  }

  static httpStatus(status: number): FetchRefused {
    return new FetchRefused('http_status', `HTTP ${status}`);
  }

  static tooLarge(maxBytes: number): FetchRefused {
    const mb = maxBytes / (1024 * 1024);
    return new FetchRefused('too_large', `too large (limit ${Number.isInteger(mb) ? mb : mb.toFixed(2)} MB)`);
  }

  /** What may leave the process (a job result, a log line): never the stack. */
  toJSON(): { code: FetchRefusedCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
