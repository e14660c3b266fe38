import { randomUUID } from 'node:crypto';
import type { Request } from 'express';

/** Accepts a caller's request id when it is sane, otherwise makes one. */
export function requestIdOf(req: Request): string {
  const given = req.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : randomUUID();
}
