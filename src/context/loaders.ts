import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityClass } from '@mikro-orm/core';
import { hydrate, tableOf, type ReadSet } from '../db/list-query';
import type { Viewer } from './viewer';

type Id = number | null | undefined;

/**
 * Records by id, batched: what every relation field reads. `settled` answers synchronously from
 * what has already arrived (value, null for absent, undefined for not loaded yet), so a page whose
 * relations were preloaded resolves each row's fields without a promise.
 */
export interface ByIdLoader<T> {
  load(id: Id): Promise<T | null>;
  /** Found records in the order of `ids`; absent ones are left out. */
  loadMany(ids: readonly Id[]): Promise<T[]>;
  settled(id: Id): T | null | undefined;
  /** Like loadMany, or undefined while any of them is not loaded. */
  settledMany(ids: readonly Id[]): T[] | undefined;
  prime(record: T): void;
  clear(): void;
}

/** A value loaded at most once per context (e.g. a small table of the account); `settled` once it has arrived. */
export class Once<T> {
  private pending: Promise<T> | null = null;
  private value: T | undefined = undefined;

  constructor(private readonly make: () => Promise<T>) {}

  load(): Promise<T> {
    this.pending ??= this.make().then((v) => (this.value = v));
    return this.pending;
  }

  settled(): T | undefined {
    return this.value;
  }
}

/**
 * A value per id (the users a deal is shared with, the people ids of a deal), batched by
 * DataLoader; `settled` answers synchronously once the value has arrived, so a page that
 * preloaded them answers each row's field without a promise.
 */
export class SettledLoader<V> {
  private readonly arrived = new Map<number, V>();
  private readonly loader: DataLoader<number, V>;

  constructor(batch: (ids: readonly number[]) => Promise<readonly V[]>) {
    this.loader = new DataLoader(async (ids: readonly number[]) => {
      const values = await batch(ids);
      for (let i = 0; i < ids.length; i++) this.arrived.set(ids[i], values[i]);
      return values;
    });
  }

  load(id: number): Promise<V> {
    return this.loader.load(id);
  }

  loadMany(ids: readonly number[]): Promise<unknown> {
    return this.loader.loadMany(ids);
  }

  settled(id: number): V | undefined {
    return this.arrived.get(id);
  }

  /** A field's answer from the value of `id` (or `map` of it): synchronous once it has arrived. */
  answer<R = V>(id: number, map?: (value: V) => R | Promise<R>): R | Promise<R> {
    return sooner(this.settled(id), () => this.load(id), map) as R | Promise<R>;
  }
}

/** Found records of `ids`, in order, from a settled lookup; undefined when any is not loaded. */
export function settledMany<T>(settled: (id: Id) => T | null | undefined, ids: readonly Id[]): T[] | undefined {
  const found: T[] = [];
  for (const id of ids) {
    const value = settled(id);
    if (value === undefined) return undefined;
    if (value !== null) found.push(value);
  }
  return found;
}

export async function loadMany<T>(load: (id: Id) => Promise<T | null>, ids: readonly Id[]): Promise<T[]> {
  const found = await Promise.all(ids.map(load));
  return found.filter((v): v is Awaited<T> => v !== null) as T[];
}

/**
 * One statement per batch, `select <columns> from <table> where account_id = ? and id = any(?)`:
 * table and columns from the ORM metadata (hidden and lazy columns, such as a key hash, are never
 * selected), tenancy applied inside, rows hydrated read-only. Convenience objects of related
 * records are shown whatever the viewer's visibility (issue 2 §6), so these scope by account
 * only; linking a record on write checks the visibility rule as well.
 */
class EntityByIdLoader<T extends { id: number }> implements ByIdLoader<T> {
  private readonly loader: DataLoader<number, T | null>;
  private readonly arrived = new Map<number, T | null>();

  constructor(em: EntityManager, viewer: Viewer, entity: EntityClass<T>, readSet: ReadSet | null) {
    const { table, columns, accountColumn } = tableOf(em, entity, readSet);
    if (!accountColumn) throw new Error(`${entity.name} has no account: by-id loaders are per account`);
    const sql = `select ${columns.join(', ')} from "${table}" where "${accountColumn}" = ? and id = any(?::int[])`;
    this.loader = new DataLoader(async (ids: readonly number[]) => {
      // em.execute, not the bare connection: inside a mutation the read sees its transaction.
      const rows = hydrate(em, entity, await em.execute<Record<string, unknown>[]>(sql, [viewer.accountId, `{${ids.join(',')}}`], 'all'), readSet);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id) ?? null;
        this.arrived.set(id, row);
        return row;
      });
    });
  }

  load(id: Id): Promise<T | null> {
    return id == null ? Promise.resolve(null) : this.loader.load(id);
  }

  loadMany(ids: readonly Id[]): Promise<T[]> {
    return loadMany((id) => this.load(id), ids);
  }

  settled(id: Id): T | null | undefined {
    return id == null ? null : this.arrived.get(id);
  }

  settledMany(ids: readonly Id[]): T[] | undefined {
    return settledMany((id) => this.settled(id), ids);
  }

  prime(record: T): void {
    this.arrived.set(record.id, record);
    this.loader.prime(record.id, record);
  }

  clear(): void {
    this.arrived.clear();
    this.loader.clearAll();
  }
}

/**
 * The per-context loaders: a generic by-id loader per entity class, and a memo where modules keep
 * their own (all users of the account, custom-field definitions, people pages per company), made
 * on first use. Nothing here knows any module: modules attach what they need through `memo`.
 */
export class Loaders {
  private readonly byIdLoaders = new Map<EntityClass<object>, Map<string, ByIdLoader<object>>>();
  private readonly memos = new Map<string, unknown>();

  constructor(
    private readonly em: EntityManager,
    private readonly viewer: Viewer,
  ) {}

  /** Whole records by id; with a read set, records holding only those properties (a loader of their own). */
  byId<T extends { id: number }>(entity: EntityClass<T>, readSet: ReadSet | null = null): ByIdLoader<T> {
    let bySet = this.byIdLoaders.get(entity);
    if (!bySet) this.byIdLoaders.set(entity, (bySet = new Map()));
    let loader = bySet.get(readSet?.key ?? '*') as ByIdLoader<T> | undefined;
    if (!loader) {
      loader = new EntityByIdLoader(this.em, this.viewer, entity, readSet);
      bySet.set(readSet?.key ?? '*', loader as ByIdLoader<object>);
    }
    return loader;
  }

  /** The value under `key` for this context, made by `make` on first use; dropped by `clear`. */
  memo<V>(key: string, make: () => V): V {
    const found = this.memos.get(key);
    if (found !== undefined || this.memos.has(key)) return found as V;
    const value = make();
    this.memos.set(key, value);
    return value;
  }

  /** After a write, cached reads may be stale: everything is loaded afresh on next use. */
  clear(): void {
    for (const bySet of this.byIdLoaders.values()) for (const loader of bySet.values()) loader.clear();
    this.memos.clear();
  }
}

/**
 * A field resolver's answer: synchronous when the value has settled, else through the loader.
 * Saves a promise (and the executor's async bookkeeping) per field per row on preloaded pages.
 */
export function sooner<T, R = T>(settled: T | undefined, load: () => Promise<T>, map?: (value: T) => R): R | Promise<R> {
  if (settled !== undefined) return map ? map(settled) : (settled as unknown as R);
  return map ? load().then(map) : (load() as unknown as Promise<R>);
}
