/** What the facade answers a v3 request: status, body (JSON) or raw bytes, headers. */
export interface V3Reply {
  readonly status: number;
  /** undefined = empty body. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Sent as it is instead of a JSON body (a route hook answering a file). */
  readonly raw?: { readonly contentType: string; readonly bytes: Buffer | string };
}
