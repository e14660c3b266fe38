import { Arg, Ctx, Extensions, Field, Int, Mutation, ObjectType, registerEnumType, Resolver, type ClassType } from 'type-graphql';
import { BadInputError, Issues, ValidationFailed } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation, withinSavepoint } from '../../context/transaction';
import type { ListSize, WriteCost } from '../../graphql/cost';
import { isValidId } from '../../graphql/ids';
import { payloadOf, UserError } from '../../graphql/payload';
import { withoutNul } from './input';
import { findVisible, fromOf, scopeOf, type Records } from './resource';
import { CustomFieldKind, type CustomFieldResource } from '../custom-fields/custom-field.enums';
import { customFieldDefs } from '../custom-fields/custom-field.loaders';
import { mergeCustomFields, type CustomFieldValueInput } from '../custom-fields/custom-field-values';
import { Scope } from '../../graphql/scopes';

/*
 * Batch upsert (issue 26 §4): up to MAX_UPSERT_INPUTS inputs of a resource's create input, each
 * matched to a record the viewer may see by a key (a natural one of the resource, or a custom
 * field of the account used as an external id), then created or updated by the resource's own
 * create and update steps, so their rules stay in one place. The batch is one transaction; each
 * input runs in a savepoint of its own, so a refused input writes nothing and the others go on.
 * docs/upsert-and-merge.md says what is matched and how.
 */

/** Inputs one upsert takes at most; more are refused before anything is written. */
export const MAX_UPSERT_INPUTS = 100;

/** Inputs one cost unit pays for (graphql/cost.ts `writeCost`): a full batch of 100 costs 5, a v3 create 1. */
export const UPSERT_INPUTS_PER_UNIT = 20;

export enum UpsertStatus {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  UNCHANGED = 'UNCHANGED',
  FAILED = 'FAILED',
}
registerEnumType(UpsertStatus, {
  name: 'UpsertStatus',
  description: 'What an upsert did with one of its inputs.',
  valuesConfig: {
    CREATED: { description: 'No record the viewer may see matched: one was created.' },
    UPDATED: { description: 'One record matched and was changed.' },
    UNCHANGED: { description: 'One record matched and the input would change nothing: nothing was written (no change is recorded).' },
    FAILED: { description: 'The input was refused (see userErrors): nothing was written for it.' },
  },
});

/** A match condition on the resource's alias, or null when the input does not give the key. */
export interface MatchCondition {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** One natural match key of a resource (`EMAIL` of people). */
export interface UpsertKey<I> {
  /** The input field a missing key is blamed on (`email`). */
  readonly field: string;
  /** What the key is, for messages (`email`, `name and company`). */
  readonly words: string;
  /** May throw ValidationFailed: a key given but refused (an external id of the wrong form). */
  condition(ctx: RequestContext, input: I, alias: string): MatchCondition | null;
}

export interface UpsertDeclaration<E extends { id: number }, I> {
  /** The scope a scoped API key needs for it (the resource's write scope, `people:write`; src/graphql/scopes.ts). */
  readonly scope: string;
  readonly records: Records<E>;
  /** `person`: the result's record field. */
  readonly singular: string;
  /** `People`: `upsertPeople`, `UpsertPeoplePayload`. */
  readonly plural: string;
  /** The create input type (each input is one). */
  readonly input: ClassType;
  /** The enum of the natural keys (registered by the resource) and its keys by value; `defaultKey` when neither matchBy nor externalIdField is given. */
  readonly matchEnum: object;
  readonly keys: Readonly<Record<string, UpsertKey<I>>>;
  readonly defaultKey: string;
  /** The custom fields of the resource (external ids). */
  readonly customFields: CustomFieldResource;
  /**
   * An SQL expression on the resource's alias: one jsonb value of everything an update of the
   * record can change, less what changes on every write (`updated_at`); equal before and after
   * means unchanged. Read with the match, and again after the update.
   */
  readonly fingerprint: string;
  create(ctx: RequestContext, input: I): Promise<E>;
  update(ctx: RequestContext, id: number, input: I): Promise<E>;
}

/** The custom field kinds whose values identify a record (an id is text or a number). */
const EXTERNAL_ID_KINDS: readonly CustomFieldKind[] = [CustomFieldKind.TEXT, CustomFieldKind.NUMERIC];

/**
 * The match of a call: a natural key, or a custom field of the resource holding external ids
 * (text or numeric; a record matches when its value equals the input's, as stored). Refused before
 * any write when the field is not such a custom field of the account.
 */
export async function matchOf<I>(
  ctx: RequestContext,
  decl: UpsertDeclaration<{ id: number }, I>,
  matchBy: string | null | undefined,
  externalIdField: number | null | undefined,
): Promise<UpsertKey<I>> {
  if (externalIdField == null) return decl.keys[matchBy ?? decl.defaultKey];
  if (matchBy != null) throw new BadInputError('externalIdField', 'give matchBy or externalIdField, not both');
  const defs = await customFieldDefs(ctx, decl.customFields).load();
  const def = isValidId(externalIdField) ? defs.find((d) => d.id === externalIdField) : undefined;
  if (!def) throw new BadInputError('externalIdField', `no custom field ${externalIdField} of these records in the account`);
  if (!EXTERNAL_ID_KINDS.includes(def.kind))
    throw new BadInputError('externalIdField', `custom field ${def.id} is ${def.kind}: an external id is a text or numeric field`);
  const label = `custom_label_${def.id}`;
  return {
    field: `customFields.${label}`,
    words: `external id (custom field ${def.id})`,
    condition: (inner, input, alias) => {
      const given = input as { customFields?: Record<string, unknown> | null; customFieldValues?: unknown };
      // The value as a write would store it, with the same checks: a value the write would refuse is refused as it would be.
      const issues = new Issues();
      const stored = mergeCustomFields([def], {}, given.customFields, issues, {
        decimals: inner.viewer.currency.decimals,
        isNew: false,
        typed: (given.customFieldValues ?? null) as readonly CustomFieldValueInput[] | null,
      })[label];
      issues.throwIfAny();
      if (stored === undefined || stored === null || stored === '') return null;
      return { sql: `${alias}.custom_fields -> ? = ?::jsonb`, params: [label, JSON.stringify(stored)] };
    },
  };
}

/** The result of one input, in the payload's order. */
interface Outcome<E> {
  status: UpsertStatus;
  record: E | null;
  userErrors: UserError[];
}

/** User errors of input `index`: `["input", "email"]` from the steps becomes `["inputs", "3", "email"]`. */
function ofInput(errors: UserError[], index: number): UserError[] {
  return errors.map((e) => ({ ...e, field: e.field && e.field[0] === 'input' ? ['inputs', String(index), ...e.field.slice(1)] : null }));
}

/** What an upsert of one input may do: create only (no match), update only (no match is NOT_FOUND), or either. */
export type UpsertMode = 'create' | 'update' | 'upsert';

/**
 * One input, in a savepoint of its own: matched by `key` to a record the viewer may see, then
 * created or updated by the declaration's steps (mode `create` matches nothing and needs no key).
 * An update that changes nothing is undone (UNCHANGED). A refused input throws (ValidationFailed,
 * …) with nothing of it written. `result` is the record written, or for UNCHANGED the undone update's.
 */
export async function upsertRecord<E extends { id: number }, I>(
  ctx: RequestContext,
  decl: UpsertDeclaration<E, I>,
  key: UpsertKey<I> | null,
  input: I,
  mode: UpsertMode = 'upsert',
): Promise<{ status: UpsertStatus; result: E }> {
  const { records } = decl;
  const a = records.alias;
  const fingerprint = async (id: number) => {
    const rows = await ctx.em.execute<Array<{ f: unknown }>>(`select ${decl.fingerprint} as f from ${fromOf(ctx, records)} where ${a}.id = ?`, [id], 'all');
    return JSON.stringify(rows[0]?.f ?? null);
  };
  let status = UpsertStatus.FAILED as UpsertStatus;
  let before = '';
  const result = await withinSavepoint(
    ctx,
    async () => {
      if (mode === 'create') {
        const created = await decl.create(ctx, input);
        status = UpsertStatus.CREATED;
        return created;
      }
      if (!key) throw new Error('an update or upsert needs a match key');
      const condition = key.condition(ctx, input, records.alias);
      if (!condition) throw ValidationFailed.one(key.field, 'BLANK', `can't be blank: it is the match key (${key.words})`);
      // Only records the viewer may see are matched: a hidden one is as if it did not exist.
      const where = scopeOf(ctx, records).add(condition.sql, ...condition.params);
      const rows = await ctx.em.execute<Array<{ id: number; f: unknown }>>(
        `select ${a}.id, ${decl.fingerprint} as f from ${fromOf(ctx, records)} where ${where.sql} order by ${a}.id limit 2`,
        where.params,
        'all',
      );
      if (rows.length > 1) {
        throw ValidationFailed.one(key.field, 'AMBIGUOUS_MATCH', `matches more than one ${decl.singular} by ${key.words}; nothing was written`);
      }
      if (rows.length === 0) {
        if (mode === 'update') throw ValidationFailed.one(key.field, 'NOT_FOUND', `no ${decl.singular} matches by ${key.words}`);
        const created = await decl.create(ctx, input);
        status = UpsertStatus.CREATED;
        return created;
      }
      const id = Number(rows[0].id);
      before = JSON.stringify(rows[0].f);
      const updated = await decl.update(ctx, id, input);
      status = UpsertStatus.UPDATED;
      return updated;
    },
    async (record) => {
      if (status !== UpsertStatus.UPDATED || (await fingerprint(record.id)) !== before) return true;
      // Nothing but the write's time changed: undone, so no UPDATE is left and no change recorded.
      status = UpsertStatus.UNCHANGED;
      return false;
    },
  );
  return { status, result };
}

async function upsertOne<E extends { id: number }, I>(
  ctx: RequestContext,
  decl: UpsertDeclaration<E, I>,
  key: UpsertKey<I>,
  input: I,
  index: number,
): Promise<Outcome<E>> {
  const { result: done, userErrors } = await payloadOf(() => upsertRecord(ctx, decl, key, input));
  if (!done) return { status: UpsertStatus.FAILED, record: null, userErrors: ofInput(userErrors, index) };
  const record = done.status === UpsertStatus.UNCHANGED ? await findVisible(ctx, decl.records, done.result.id) : done.result;
  return { status: done.status, record, userErrors: [] };
}

/** Runs a batch: refused whole (before any write) past the limit or with a bad match; else one outcome per input. */
export async function upsertBatch<E extends { id: number }, I>(
  ctx: RequestContext,
  decl: UpsertDeclaration<E, I>,
  inputs: readonly I[],
  matchBy: string | null | undefined,
  externalIdField: number | null | undefined,
): Promise<Array<Outcome<E>>> {
  if (inputs.length > MAX_UPSERT_INPUTS) throw new BadInputError('inputs', `at most ${MAX_UPSERT_INPUTS} inputs in one call (got ${inputs.length})`);
  return mutation(ctx, async () => {
    const key = await matchOf(ctx, decl as unknown as UpsertDeclaration<{ id: number }, I>, matchBy, externalIdField);
    const outcomes: Array<Outcome<E>> = [];
    for (const [index, input] of inputs.entries()) outcomes.push(await upsertOne(ctx, decl, key, input, index));
    return outcomes;
  });
}

/** Text of a key, as compared: NUL dropped, trimmed; null when blank. */
export function keyText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = withoutNul(value).trim();
  return text === '' ? null : text;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The GraphQL side of a declaration: `upsertPeople(inputs, matchBy, externalIdField)` and its result types. */
export function upsertResolver<E extends { id: number }, I>(decl: UpsertDeclaration<E, I>) {
  const type = decl.records.name;
  const entity = decl.records.entity as ClassType<E>;

  @ObjectType(`Upsert${type}Result`, { simpleResolvers: true, description: `What an upsert did with one input, in the order of the inputs.` })
  class UpsertResult {
    @Field(() => UpsertStatus, { description: 'What was done with the input.' })
    status!: UpsertStatus;

    @Field(() => entity, { name: decl.singular, nullable: true, description: `The ${decl.singular} created, updated or matched; null when FAILED.` })
    record!: E | null;

    @Field(() => [UserError], { description: 'Why the input was refused (FAILED); empty otherwise.' })
    userErrors!: UserError[];
  }

  @ObjectType(`Upsert${decl.plural}Payload`, { simpleResolvers: true, description: `The result of upsert${decl.plural}.` })
  class UpsertPayload {
    @Field(() => [UpsertResult], { description: 'One result per input, in the order of the inputs.' })
    @Extensions({ listSize: { max: MAX_UPSERT_INPUTS } satisfies ListSize })
    results!: UpsertResult[];
  }

  const keyNames = Object.keys(decl.keys).join(', ');

  @Resolver()
  class UpsertResolver {
    @Mutation(() => UpsertPayload, {
      name: `upsert${decl.plural}`,
      description:
        `Creates or updates ${decl.plural.toLowerCase()}, at most ${MAX_UPSERT_INPUTS} in one call, each input matched to a ${decl.singular} the viewer may see ` +
        `by matchBy (${keyNames}; ${decl.defaultKey} when absent) or by externalIdField. One transaction; each input is written or refused on its own ` +
        '(docs/upsert-and-merge.md).',
    })
    @Extensions({ writeCost: { argument: 'inputs', perUnit: UPSERT_INPUTS_PER_UNIT } satisfies WriteCost })
    @Scope(decl.scope)
    async upsert(
      @Ctx() ctx: RequestContext,
      @Arg('inputs', () => [decl.input], { description: `The ${decl.plural.toLowerCase()}, as for create${type}; at most ${MAX_UPSERT_INPUTS}.` }) inputs: I[],
      @Arg('matchBy', () => decl.matchEnum, { nullable: true, description: `What identifies an existing ${decl.singular}; ${decl.defaultKey} when absent.` })
      matchBy?: string | null,
      @Arg('externalIdField', () => Int, {
        nullable: true,
        description: `databaseId of a text or numeric custom field of ${decl.plural.toLowerCase()} whose value identifies a ${decl.singular} (an external id); instead of matchBy.`,
      })
      externalIdField?: number | null,
    ): Promise<UpsertPayload> {
      const outcomes = await upsertBatch(ctx, decl, inputs, matchBy, externalIdField);
      // The record under its field's name (`person`), as RecordPayload answers it.
      return { results: outcomes.map((o) => ({ status: o.status, [decl.singular]: o.record, userErrors: o.userErrors }) as unknown as UpsertResult) };
    }
  }
  Object.defineProperty(UpsertResolver, 'name', { value: `Upsert${capitalised(type)}Resolver` });
  return UpsertResolver;
}
