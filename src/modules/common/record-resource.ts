import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, createParameterDecorator, Ctx, Info, Int, Mutation, ObjectType, Query, Resolver, type ClassType } from 'type-graphql';
import { ForbiddenError, Issues } from '../../common/errors';
import type { FieldRateLimit } from '../../config/config';
import type { RequestContext } from '../../context/context';
import { withPrecondition } from '../../context/preconditions';
import { mutation } from '../../context/transaction';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection, type ConnectionReads, type Paging } from '../../graphql/connection';
import { RateLimit } from '../../graphql/field-rate-limit';
import { registerNode } from '../../graphql/node';
import { declareRecordType, Scope, SCOPE_ADMIN, SCOPE_OPEN } from '../../graphql/scopes';
import { DeletePayload, deletePayload, RecordPayload, recordPayload, withOptions } from '../../graphql/payload';
import { preloadPage, type RelationPreload } from '../../graphql/relations';
import { EXPECTED_VERSION_DOC, isVersioned } from '../../graphql/versioned';
import { blank } from '../../kit/assign';
import type { FieldTable, FilterOf, InputOf, Resource } from '../../kit/fields';
import { findManyVisible, findVisible, listConnection, loadForWrite, removeVisible, scopeOf, type Records } from './resource';

/*
 * A record resource, declared once: its records (entity and visibility rule), its field table,
 * its names and what it offers. The GraphQL connection, lookups, payload mutations and their
 * resolvers, the Node registration and the default service steps follow from the declaration; a
 * resource with real rules overrides the steps it needs (as Ghost's api-framework lets an
 * endpoint replace a stage) and keeps the rest.
 */

/** What a record resource can offer; all of them unless the declaration says fewer. */
export type RecordOperation = 'list' | 'show' | 'create' | 'update' | 'delete';

type OrderOf = { field: string; direction: 'ASC' | 'DESC' };

/**
 * The steps behind the operations: each has a default, each may be replaced. `options`: the
 * mutation's `options` argument, when the declaration gives one; `within`: the `within` argument of
 * the operations the declaration names (undefined for the others).
 */
export interface RecordSteps<E extends { id: number }, T extends FieldTable> {
  list(
    ctx: RequestContext,
    filter: FilterOf<T> | null | undefined,
    orderBy: readonly OrderOf[] | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
    within?: never,
  ): Promise<Connection<E>>;
  get(ctx: RequestContext, id: number, within?: never): Promise<E | null>;
  create(ctx: RequestContext, input: InputOf<T>, options?: never, within?: never): Promise<E>;
  update(ctx: RequestContext, id: number, input: InputOf<T>, options?: never, within?: never): Promise<E>;
  delete(ctx: RequestContext, id: number, within?: never): Promise<number>;
}

/** Descriptions of the generated fields, where the defaults (from the names) do not say enough. */
export interface RecordDocs {
  readonly list?: string;
  readonly filter?: string;
  readonly show?: string;
  readonly create?: string;
  readonly update?: string;
  readonly delete?: string;
  /** The `id` argument of the lookup, update and delete (`The widget's databaseId.`). */
  readonly id?: string;
  /** The create's `input` (`The new widget.`). */
  readonly input?: string;
  /** The update's `input` (`The changes.`). */
  readonly changes?: string;
  /** The record of the create's payload (`The created widget`); "; null when userErrors refused the input." follows. */
  readonly created?: string;
  /** The record of the update's payload (`The widget as changed`). */
  readonly changed?: string;
}

export interface RecordResourceDeclaration<E extends { id: number }, T extends FieldTable> {
  /**
   * Which rows, for whom: entity, alias, GraphQL type name and visibility rule, when they live in a
   * `*.visibility.ts` of their own (other tables read them); else taken from the field table's names.
   */
  readonly records?: Records<E>;
  /** The field table (src/kit/fields.ts): inputs, filter, order, write plan (and, without `records`, the visibility). */
  readonly fields: Resource<T>;
  /** `widget`: the lookup query and the payloads' record field. */
  readonly singular: string;
  /** `widgets`: the list query (the connection's and the default descriptions' words are the field table's `plural`). */
  readonly plural: string;
  /** Default page size of the list (100). */
  readonly pageSize?: number;
  readonly offers?: readonly RecordOperation[];
  readonly docs?: RecordDocs;
  /** What a page's selected fields read in batches (graphql/relations.ts). */
  readonly relations?: readonly RelationPreload<E>[];
  /**
   * A list that runs saved searches (`savedSearches({...})` of the saved-searches module): its
   * `searchId` argument (after `orderBy`), how a search applies, and the registration of the list
   * and its vocabulary, so that saved searches of its type run it.
   */
  readonly search?: {
    readonly doc: string;
    apply(
      ctx: RequestContext,
      searchId: number | null | undefined,
      filter: FilterOf<T> | null | undefined,
      orderBy: OrderOf[] | null | undefined,
      info: GraphQLResolveInfo | undefined,
    ): Promise<{ filter: FilterOf<T> | null | undefined; orderBy: OrderOf[] | null | undefined }>;
    register?(list: {
      readonly orderField: Readonly<Record<string, string>>;
      readonly typeName: string;
      list(ctx: RequestContext, filter: never, orderBy: never, paging: Paging, reads: ConnectionReads): Promise<unknown>;
    }): void;
  };
  /**
   * An `options` argument of create or update (after `input`), handed to the step; `fields`: the
   * fields of the options a refused write names (their userErrors' path starts with `options`).
   */
  readonly options?: { readonly create?: OptionsArgument; readonly update?: OptionsArgument; readonly fields?: readonly string[] };
  /**
   * A nullable argument that narrows which records the operations it documents reach (comments'
   * `noteId`, custom fields' `resource`), handed to their steps last.
   */
  readonly within?: {
    readonly name: string;
    readonly type: () => object;
    readonly docs: Partial<Record<RecordOperation, string>>;
  };
  /** The inputs of create and update, when they are not the field table's (a few fields of their own). */
  readonly inputs?: { readonly create?: ClassType; readonly update?: ClassType };
  /** The list's connection, when it answers more than a page (deals' totals): its type, a ConnectionOf with fields of its own, and what fills them once the page is read. */
  readonly connection?: {
    readonly type: ClassType;
    complete(ctx: RequestContext, page: Connection<E>, filter: FilterOf<T> | null | undefined, info: GraphQLResolveInfo | undefined): Connection<E>;
  };
  /** Per-user limits of operations with a window (graphql/field-rate-limit.ts), for those that cost more than their request. */
  readonly limits?: Partial<Record<RecordOperation, FieldRateLimit>>;
  /** How node(id:) finds records, when not by loading them and judging the rule in memory (findManyVisible). */
  readonly nodes?: (ctx: RequestContext, ids: readonly number[]) => Promise<Array<E | null>>;
  /** Steps that replace the defaults. */
  readonly steps?: Partial<RecordSteps<E, T>>;
  /**
   * Who may read: the users the visibility rule lets (the default), or `admins`: others get a
   * FORBIDDEN error from the list and the lookup too, whatever the record (webhook endpoints).
   */
  readonly readers?: 'admins';
  /**
   * The scopes of scoped API keys (src/graphql/scopes.ts): `read` for the list, the lookup and
   * every field of the record wherever it is selected, `write` for the mutations. Unless told,
   * `<plural in snake_case>:read` and `:write` (`calendar_entries:read`); the account's settings
   * (deal stages, templates, custom fields) give SETTINGS_SCOPES.
   */
  readonly scopes?: { readonly read: string; readonly write: string };
}

/** Settings every key may read, and write only with the `admin` scope. */
export const SETTINGS_SCOPES = { read: SCOPE_OPEN, write: SCOPE_ADMIN } as const;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface OptionsArgument {
  readonly type: ClassType;
  readonly description: string;
}

/** What a declaration gives: the resolver for its module's `resolvers`, and the steps (defaults and overrides). */
export interface RecordResource<E extends { id: number }, T extends FieldTable> {
  readonly records: Records<E>;
  readonly steps: RecordSteps<E, T>;
  /** `XConnection`, for the connections of the records nested in others. */
  readonly connection: ClassType;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeGraphQL takes resolver classes as Function
  readonly resolver: Function;
}

/** The records a field table declares, with its visibility rule. */
function recordsOf<E extends { id: number }>(fields: Resource<FieldTable>): Records<E> {
  const { entity, alias, type, visibility } = fields.names;
  if (!visibility) throw new Error(`${type}: a record resource states its visibility, in its field table's names or as \`records\``);
  return { entity: entity as Records<E>['entity'], alias, name: type, visibility: visibility as Records<E>['visibility'] };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `XConnection` of a record type: a page of `words`. */
function connectionOf(entity: ClassType, type: string, words: string): ClassType {
  @ObjectType(`${type}Connection`, { description: `A page of ${words}, with cursors.` })
  class RecordConnection extends ConnectionOf(entity, type, words) {}
  return RecordConnection;
}

type ParamDecorator = ReturnType<typeof Arg>;

/** In place of an argument the declaration does not give: undefined, so that the parameters after it keep their places. */
const absent: ParamDecorator = createParameterDecorator(() => undefined);

/** The default steps: tenancy and visibility on every read and write, the kit's write plan, nothing else. */
function defaultSteps<E extends { id: number }, T extends FieldTable>(records: Records<E>, decl: RecordResourceDeclaration<E, T>): RecordSteps<E, T> {
  const { fields } = decl;
  const writesAll = () => fields.writes([] as never);
  let plan: ReturnType<typeof writesAll> | undefined;
  const writes = () => (plan ??= writesAll());
  const required = Object.entries(fields.table)
    .filter(([, def]) => def.required)
    .map(([name]) => name);
  const touch = (ctx: RequestContext, record: E) => {
    if (ctx.em.getMetadata().get(records.entity.name).properties['updatedAt' as never]) (record as { updatedAt?: Date }).updatedAt = new Date();
  };
  return {
    async list(ctx, filter, orderBy, paging, reads) {
      const condition = fields.filterSql(ctx, filter);
      const where = scopeOf(ctx, records).add(condition.sql, ...condition.params);
      return listConnection(ctx, records, where, fields.orderKeys(ctx.em, orderBy), paging, reads);
    },
    get: (ctx, id) => findVisible(ctx, records, id),
    create: (ctx, input) =>
      mutation(ctx, async (em) => {
        const issues = new Issues();
        for (const name of required) if (blank((input as Record<string, unknown>)[name])) issues.blank(name);
        const owned = em.getMetadata().get(records.entity.name).properties['owner' as never] !== undefined;
        const record = em.create(records.entity, { account: ctx.viewer.accountId, ...(owned ? { owner: ctx.viewer.userId } : {}) } as never, {
          persist: false,
        });
        writes().assign(em, record, input, issues, true);
        issues.throwIfAny();
        em.persist(record);
        return record;
      }),
    update: (ctx, id, input) =>
      mutation(ctx, async (em) => {
        const record = await loadForWrite(ctx, records, id);
        const issues = new Issues();
        for (const name of required) if (name in (input as object) && blank((input as Record<string, unknown>)[name])) issues.blank(name);
        writes().assign(em, record, input, issues, false);
        issues.throwIfAny();
        touch(ctx, record);
        return record;
      }),
    delete: (ctx, id) => removeVisible(ctx, records, id),
  };
}

/** The steps with their reads refused to users who are not administrators (`readers: 'admins'`). */
function readByAdminsOnly<E extends { id: number }, T extends FieldTable>(steps: RecordSteps<E, T>, words: string): RecordSteps<E, T> {
  const refuse = (ctx: RequestContext) => {
    if (!ctx.viewer.isAdmin) throw new ForbiddenError(`Only administrators may read ${words}`);
  };
  return {
    ...steps,
    list: (ctx, ...rest) => {
      refuse(ctx);
      return steps.list(ctx, ...rest);
    },
    get: (ctx, ...rest) => {
      refuse(ctx);
      return steps.get(ctx, ...rest);
    },
  };
}

/**
 * Declares a record resource: `recordResource({ records: WIDGETS, fields: WIDGET_FIELDS, singular: 'widget', plural: 'widgets' })`.
 * The GraphQL types are registered at once (before the schema is built); a field the kit cannot
 * write (a `custom` one) needs the create and update steps of the resource's own.
 */
export function recordResource<E extends { id: number }, const T extends FieldTable>(decl: RecordResourceDeclaration<E, T>): RecordResource<E, T> {
  const { fields, singular, plural } = decl;
  const records: Records<E> = decl.records ?? recordsOf(fields);
  const type = records.name;
  const entity = records.entity as ClassType<E>;
  const offers = new Set<RecordOperation>(decl.offers ?? ['list', 'show', 'create', 'update', 'delete']);
  const custom = Object.entries(fields.table).filter(([, def]) => def.write === 'custom');
  for (const op of ['create', 'update'] as const) {
    if (offers.has(op) && custom.length > 0 && !decl.steps?.[op]) {
      throw new Error(`${type}: ${custom.map(([n]) => n).join(', ')} are written by the resource's own rule: give the ${op} step`);
    }
  }
  const declared: RecordSteps<E, T> = { ...defaultSteps(records, decl), ...decl.steps };
  const steps: RecordSteps<E, T> = decl.readers === 'admins' ? readByAdminsOnly(declared, fields.names.plural) : declared;
  const docs = decl.docs ?? {};
  const words = fields.names.plural;
  const pageSize = decl.pageSize ?? 100;
  const relations = decl.relations ?? [];
  const { search, options, within, inputs, connection, limits } = decl;
  search?.register?.({
    orderField: fields.OrderField,
    typeName: fields.names.type,
    list: (ctx, filter, orderBy, paging, reads) => steps.list(ctx, filter, orderBy, paging, reads),
  });
  const argumentOf = options?.fields ? withOptions(options.fields) : undefined;
  const when = (op: RecordOperation, decorator: () => MethodDecorator): MethodDecorator => (offers.has(op) ? decorator() : () => undefined);
  const limited = (op: RecordOperation): MethodDecorator => (limits?.[op] ? RateLimit(limits[op]) : () => undefined);
  const given = (on: unknown, decorator: () => ParamDecorator): ParamDecorator => (on ? decorator() : absent);
  const withinOn = (op: RecordOperation): ParamDecorator =>
    given(within?.docs[op], () => Arg(within!.name, within!.type, { nullable: true, description: within!.docs[op] }));
  /** A payload type, named only when its operation is offered. */
  const payload = (op: RecordOperation, mutationName: string): ClassDecorator =>
    offers.has(op) ? ObjectType(`${capitalised(mutationName)}Payload`, { description: `The result of ${mutationName}.` }) : () => undefined;

  registerNode({ name: type, entity, find: decl.nodes ?? ((ctx, ids) => findManyVisible(ctx, records, ids)) });
  const scopes = decl.scopes ?? { read: `${snakeCase(plural)}:read`, write: `${snakeCase(plural)}:write` };
  declareRecordType(type, entity, scopes.read);
  const scoped = (op: RecordOperation): MethodDecorator =>
    offers.has(op) ? Scope(op === 'list' || op === 'show' ? scopes.read : scopes.write) : () => undefined;

  const RecordConnection = connection?.type ?? connectionOf(entity, type, words);

  @payload('create', `create${type}`)
  class CreatePayload extends RecordPayload(entity, singular, docs.created ?? `The created ${singular}`) {}

  @payload('update', `update${type}`)
  class UpdatePayload extends RecordPayload(entity, singular, docs.changed ?? `The ${singular} as changed`) {}

  @payload('delete', `delete${type}`)
  class RecordDeletePayload extends DeletePayload {}

  const idDoc = docs.id ?? `The ${singular}'s databaseId.`;
  // A versioned record's update and delete take the version they expect (context/preconditions.ts).
  const versioned = isVersioned(entity);
  const expected = (): ParamDecorator => given(versioned, () => Arg('expectedVersion', () => Int, { nullable: true, description: EXPECTED_VERSION_DOC }));
  const conditional = <R>(ctx: RequestContext, id: number, version: number | null | undefined, work: () => Promise<R>): Promise<R> =>
    versioned ? withPrecondition(ctx, { type, id, version }, work) : work();

  @Resolver()
  class RecordResolver {
    @when('list', () => Query(() => RecordConnection, { name: plural, description: docs.list ?? `${capitalised(words)} the viewer may see.` }))
    @limited('list')
    @scoped('list')
    async list(
      @Ctx() ctx: RequestContext,
      @Args(() => ConnectionArgs) args: ConnectionArgs,
      @Arg('filter', () => fields.Filter, { nullable: true, description: docs.filter ?? `Which ${words}; all of them when absent.` }) filter?: FilterOf<T>,
      @Arg('orderBy', () => [fields.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: OrderOf[],
      @Info() info?: GraphQLResolveInfo,
      @given(search, () => Arg('searchId', () => Int, { nullable: true, description: search!.doc })) searchId?: number | null,
      @withinOn('list') scope?: never,
    ): Promise<Connection<E>> {
      const asked = search ? await search.apply(ctx, searchId, filter, orderBy, info) : { filter, orderBy };
      const page = await steps.list(ctx, asked.filter, asked.orderBy, pagingOf(args, pageSize), connectionReads(info), scope);
      if (relations.length > 0) await preloadPage(ctx, relations, page.nodes, info);
      return connection ? connection.complete(ctx, page, asked.filter, info) : page;
    }

    @when('show', () =>
      Query(() => entity, {
        name: singular,
        nullable: true,
        description: docs.show ?? `One ${singular} by databaseId; null when it does not exist or the viewer may not see it.`,
      }),
    )
    @limited('show')
    @scoped('show')
    show(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: idDoc }) id: number, @withinOn('show') scope?: never): Promise<E | null> {
      return steps.get(ctx, id, scope);
    }

    @when('create', () =>
      Mutation(() => CreatePayload, {
        name: `create${type}`,
        description: docs.create ?? `Creates a ${singular}. Problems with the input come back as userErrors, and nothing is created.`,
      }),
    )
    @limited('create')
    @scoped('create')
    create(
      @Ctx() ctx: RequestContext,
      @Arg('input', () => inputs?.create ?? fields.CreateInput, { description: docs.input ?? `The new ${singular}.` }) input: InputOf<T>,
      @given(options?.create, () => Arg('options', () => options!.create!.type, { nullable: true, description: options!.create!.description })) extra?: never,
      @withinOn('create') scope?: never,
    ) {
      return recordPayload(singular, () => steps.create(ctx, input, extra, scope), argumentOf);
    }

    @when('update', () =>
      Mutation(() => UpdatePayload, {
        name: `update${type}`,
        description: docs.update ?? `Changes a ${singular}: only the fields given. A missing or hidden ${singular} is a NOT_FOUND user error.`,
      }),
    )
    @limited('update')
    @scoped('update')
    update(
      @Ctx() ctx: RequestContext,
      @Arg('id', () => Int, { description: idDoc }) id: number,
      @Arg('input', () => inputs?.update ?? fields.UpdateInput, { description: docs.changes ?? 'The changes.' }) input: InputOf<T>,
      @given(options?.update, () => Arg('options', () => options!.update!.type, { nullable: true, description: options!.update!.description })) extra?: never,
      @withinOn('update') scope?: never,
      @expected() expectedVersion?: number | null,
    ) {
      return recordPayload(singular, () => conditional(ctx, id, expectedVersion, () => steps.update(ctx, id, input, extra, scope)), argumentOf);
    }

    @when('delete', () =>
      Mutation(() => RecordDeletePayload, {
        name: `delete${type}`,
        description: docs.delete ?? `Deletes a ${singular}. A missing or hidden ${singular} is a NOT_FOUND user error.`,
      }),
    )
    @limited('delete')
    @scoped('delete')
    delete(
      @Ctx() ctx: RequestContext,
      @Arg('id', () => Int, { description: idDoc }) id: number,
      @withinOn('delete') scope?: never,
      @expected() expectedVersion?: number | null,
    ) {
      return deletePayload(type, () => conditional(ctx, id, expectedVersion, () => steps.delete(ctx, id, scope)));
    }
  }
  Object.defineProperty(RecordResolver, 'name', { value: `${type}Resolver` });

  return { records, steps, connection: RecordConnection, resolver: RecordResolver };
}
