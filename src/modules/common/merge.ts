import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver, type ClassType } from 'type-graphql';
import { BadInputError, ValidationFailed } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation } from '../../context/transaction';
import { isValidId } from '../../graphql/ids';
import { payloadOf, UserError } from '../../graphql/payload';
import { findVisible, fromOf, scopeOf, type Records } from './resource';
import { Scope } from '../../graphql/scopes';

/*
 * Merging records (issue 26 §4): `into` survives and takes what pointed at the others (their notes,
 * deals, calendar entries, documents...), their tags and, where its own are blank, their fields
 * and custom field values; the others are deleted. One transaction of SQL statements, so the
 * change triggers (migration 20261203000001) record each merged record as deleted (a tombstone,
 * a delete webhook), the survivor as updated (its `merged_ids` at least), and each moved record as
 * updated. docs/upsert-and-merge.md lists what moves.
 */

/** Records merged into one at most per call. */
export const MAX_MERGE_IDS = 20;

/** A statement that moves what points at the merged records to the survivor: `?` are the survivor's id, the merged ids (an int[]) and the account. */
export interface MergeMove {
  /** What it moves, for the docs and messages (`notes`). */
  readonly what: string;
  readonly sql: string;
}

export interface MergeDeclaration<E extends { id: number }> {
  /** The scope a scoped API key needs for it (the resource's write scope, `people:write`; src/graphql/scopes.ts). */
  readonly scope: string;
  readonly records: Records<E>;
  readonly table: string;
  /** `person` / `people`: the payload's record field, the words of messages. */
  readonly singular: string;
  readonly plural: string;
  /** `People`: `mergePeople`, `MergePeoplePayload`. */
  readonly mutationPlural: string;
  /** Columns never copied from the merged records (beyond id, account, times, tags, custom fields, merged ids). */
  readonly keep: readonly string[];
  /** The tag column (a jsonb array of list item ids), united with the merged records' tags; absent when the records have none. */
  readonly tags?: string;
  readonly moves: readonly MergeMove[];
}

/** Columns the merge never copies: identity, times, and the sets it joins itself. */
const NEVER_COPIED = ['id', 'account_id', 'created_at', 'updated_at', 'custom_fields', 'merged_ids'];

const isBlank = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** The survivor's new values: blank columns and custom field values from the first merged record that has one, tags united, merged ids appended. */
function merged(into: Record<string, unknown>, from: readonly Record<string, unknown>[], decl: MergeDeclaration<{ id: number }>): Record<string, unknown> {
  const skip = new Set([...NEVER_COPIED, ...decl.keep, ...(decl.tags ? [decl.tags] : [])]);
  const set: Record<string, unknown> = {};
  for (const column of Object.keys(into)) {
    if (skip.has(column) || !isBlank(into[column])) continue;
    const donor = from.find((row) => !isBlank(row[column]));
    if (donor) set[column] = donor[column];
  }
  const custom = { ...((into.custom_fields as Record<string, unknown> | null) ?? {}) };
  for (const row of from) {
    for (const [key, value] of Object.entries((row.custom_fields as Record<string, unknown> | null) ?? {}))
      if (isBlank(custom[key]) && !isBlank(value)) custom[key] = value;
  }
  set.custom_fields = custom;
  if (decl.tags) {
    const tags = [...((into[decl.tags] as number[] | null) ?? [])];
    for (const row of from) for (const tag of (row[decl.tags] as number[] | null) ?? []) if (!tags.includes(tag)) tags.push(tag);
    set[decl.tags] = tags;
  }
  set.merged_ids = [...((into.merged_ids as number[] | null) ?? []), ...from.map((row) => Number(row.id))];
  return set;
}

/** JSON columns are written as JSON text; others as their values (PostgreSQL casts them to the column's type). */
const JSON_COLUMNS = new Set(['custom_fields', 'merged_ids', 'tag_ids']);

/**
 * Merges `fromIds` into `intoId`; refused whole (nothing written) when any of them is missing or
 * hidden from the viewer (one NOT_FOUND that names none of them, so what exists does not leak),
 * or when `intoId` is among `fromIds`.
 */
export function mergeRecords<E extends { id: number }>(ctx: RequestContext, decl: MergeDeclaration<E>, intoId: number, fromIds: readonly number[]): Promise<E> {
  if (fromIds.length === 0) throw ValidationFailed.one('fromIds', 'BLANK', `can't be empty: give the ${decl.plural} to merge`);
  if (fromIds.length > MAX_MERGE_IDS) throw new BadInputError('fromIds', `at most ${MAX_MERGE_IDS} ${decl.plural} merged in one call (got ${fromIds.length})`);
  const from = [...new Set(fromIds)];
  if (from.includes(intoId))
    throw ValidationFailed.one('fromIds', 'INVALID', `must not contain intoId (${intoId}): a ${decl.singular} is not merged into itself`);
  const { records } = decl;
  const a = records.alias;
  return mutation(ctx, async (em) => {
    const ids = [intoId, ...from];
    const notFound = () =>
      ValidationFailed.one('base', 'NOT_FOUND', `every ${decl.singular} must exist and be one you may see: one of intoId and fromIds is not`);
    if (!ids.every(isValidId)) throw notFound();
    // Locked, so that nothing links to a merged record between the moves and the delete.
    const where = scopeOf(ctx, records).add(`${a}.id = any(?::int[])`, `{${ids.join(',')}}`);
    const rows = await em.execute<Array<{ id: number; r: Record<string, unknown> }>>(
      `select ${a}.id, to_jsonb(${a}) as r from ${fromOf(ctx, records)} where ${where.sql} for update`,
      where.params,
      'all',
    );
    if (rows.length !== ids.length) throw notFound();
    const byId = new Map(rows.map((row) => [Number(row.id), row.r]));
    const survivor = byId.get(intoId)!;
    const donors = from.map((id) => byId.get(id)!);

    const fromArray = `{${from.join(',')}}`;
    for (const move of decl.moves) await em.execute(move.sql, [intoId, fromArray, ctx.viewer.accountId]);

    const set = merged(survivor, donors, decl as unknown as MergeDeclaration<{ id: number }>);
    const columns = Object.keys(set);
    await em.execute(`update "${decl.table}" set ${columns.map((c) => `"${c}" = ?`).join(', ')}, "updated_at" = now() where id = ? and account_id = ?`, [
      ...columns.map((c) => (JSON_COLUMNS.has(c) ? JSON.stringify(set[c]) : set[c])),
      intoId,
      ctx.viewer.accountId,
    ]);
    await em.execute(`delete from "${decl.table}" where id = any(?::int[]) and account_id = ?`, [fromArray, ctx.viewer.accountId]);
    return (await findVisible(ctx, records, intoId))!;
  });
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `mergePeople(intoId, fromIds)` and its payload. */
export function mergeResolver<E extends { id: number }>(decl: MergeDeclaration<E>) {
  const type = decl.records.name;
  const entity = decl.records.entity as ClassType<E>;

  @ObjectType(`Merge${decl.mutationPlural}Payload`, { simpleResolvers: true, description: `The result of merge${decl.mutationPlural}.` })
  class MergePayload {
    @Field(() => entity, {
      name: decl.singular,
      nullable: true,
      description: `The surviving ${decl.singular}, as merged; null when userErrors refused the merge.`,
    })
    record!: E | null;

    @Field(() => [Int], { description: `databaseIds of the ${decl.plural} merged and deleted; empty when refused.` })
    mergedDatabaseIds!: number[];

    @Field(() => [UserError], { description: 'Why nothing was merged; empty on success.' })
    userErrors!: UserError[];
  }

  @Resolver()
  class MergeResolver {
    @Mutation(() => MergePayload, {
      name: `merge${decl.mutationPlural}`,
      description:
        `Merges ${decl.plural} (fromIds, at most ${MAX_MERGE_IDS}) into one (intoId), in one transaction: the survivor takes what pointed at them ` +
        `(${decl.moves.map((m) => m.what).join(', ')}), their tags and, where its own are blank, their fields and custom field values; they are deleted. ` +
        `Refused whole (a NOT_FOUND user error naming none of them) when any ${decl.singular} is missing or one the viewer may not see (docs/upsert-and-merge.md).`,
    })
    @Scope(decl.scope)
    async merge(
      @Ctx() ctx: RequestContext,
      @Arg('intoId', () => Int, { description: `databaseId of the ${decl.singular} that survives.` }) intoId: number,
      @Arg('fromIds', () => [Int], { description: `databaseIds of the ${decl.plural} merged into it and deleted; at most ${MAX_MERGE_IDS}.` })
      fromIds: number[],
    ): Promise<MergePayload> {
      const { result, userErrors } = await payloadOf(
        () => mergeRecords(ctx, decl, intoId, fromIds),
        () => 'fromIds',
      );
      return {
        [decl.singular]: result,
        mergedDatabaseIds: result ? [...new Set(fromIds)] : [],
        // `fromIds` is an argument of its own, not a field of an input.
        userErrors: userErrors.map((e) => ({ ...e, field: e.field ? e.field.slice(0, 1) : null })),
      } as unknown as MergePayload;
    }
  }
  Object.defineProperty(MergeResolver, 'name', { value: `Merge${capitalised(type)}Resolver` });
  return MergeResolver;
}
