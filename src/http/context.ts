import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestContext, Viewer } from '../graphql/context';
import { Loaders } from '../graphql/loaders';

/** Accepts a caller's request id when it is sane, otherwise makes one. */
export function requestIdOf(req: Request): string {
  const given = req.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : randomUUID();
}

/** A fresh unit of work for one request: never the global EntityManager. */
export function createContext(orm: MikroORM, viewer: Viewer, requestId: string): RequestContext {
  const em = orm.em.fork();
  return { em, viewer, loaders: new Loaders(em, viewer), requestId, rate: null, rateCharge: null };
}
