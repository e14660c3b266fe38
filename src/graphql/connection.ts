import { ArgsType, Field, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { BadInputError } from '../common/errors';
import type { ConnectionData, ConnectionReads, Paging } from '../db/keyset';
import type { ReadSet } from '../db/list-query';
import { selectedFields } from './selection';

export type { ConnectionData, ConnectionReads, Paging } from '../db/keyset';

/** The largest page any list answers (`first`, `last`, `perPage`). */
export const MAX_PAGE_SIZE = 200;
/** The highest offset page number (as v3 clients may ask). An offset page past the end is empty, never an error. */
export const MAX_PAGE_NUMBER = 1_000_000;

export enum OrderDirection {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(OrderDirection, {
  name: 'OrderDirection',
  description: 'Ascending puts empty (null) values last, descending first.',
  valuesConfig: { ASC: { description: 'Smallest first; text in case-insensitive alphabetical order where noted' }, DESC: { description: 'Largest first' } },
});

// Not `simpleResolvers`: hasNextPage/hasPreviousPage may be promises (computed when read), and
// graphql-jit inlines plain property reads as synchronous values.
@ObjectType('PageInfo', { description: 'Where a page of a connection sits in the whole list.' })
export class PageInfo {
  @Field({ description: "More records follow the last one of this page (in the list's order)." })
  hasNextPage!: boolean;

  @Field({ description: 'Records come before the first one of this page.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first record of the page; null when the page is empty.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last record of the page; pass it as `after` for the next page.' })
  endCursor!: string | null;
}

/** Paging arguments shared by every list: cursors (Relay) or, for simple tables, offset pages. */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Page size counted from the start (or from \`after\`), 0 to ${MAX_PAGE_SIZE}.` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: "Cursor (`endCursor` or an edge's `cursor`) to continue after." })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: `Page size counted from the end (or from \`before\`), 0 to ${MAX_PAGE_SIZE}.` })
  last?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor (`startCursor`) to continue before, going backwards.' })
  before?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `Offset paging instead of cursors: the page number, 1 to ${MAX_PAGE_NUMBER}. Not combinable with first/after/last/before. Deep offset pages get slower; cursors cost the same on any page.`,
  })
  page?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: `Page size for offset paging, 1 to ${MAX_PAGE_SIZE} (larger values are clamped); defaults as \`first\` does.`,
  })
  perPage?: number | null;
}

function size(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE) throw new BadInputError(name, `must be between 0 and ${MAX_PAGE_SIZE}, got ${value}`);
  return value;
}

/** Checks the paging arguments: cursors and offset pages do not mix, `first` and `last` neither. */
export function pagingOf(args: ConnectionArgs | undefined, defaultSize: number): Paging {
  const { first, after, last, before, page, perPage } = args ?? {};
  const cursorArgs = [first, after, last, before].some((v) => v != null);
  if (page != null || (perPage != null && !cursorArgs)) {
    if (cursorArgs) throw new BadInputError('page', 'offset paging (page, perPage) cannot be combined with first, after, last or before');
    const pageNumber = page ?? 1;
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > MAX_PAGE_NUMBER)
      throw new BadInputError('page', `must be between 1 and ${MAX_PAGE_NUMBER}, got ${pageNumber}`);
    const per = Math.min(Math.max(Math.trunc(perPage ?? defaultSize), 1), MAX_PAGE_SIZE);
    return { kind: 'offset', page: pageNumber, perPage: per, offset: (pageNumber - 1) * per };
  }
  if (perPage != null) throw new BadInputError('perPage', 'belongs to offset paging; with cursors use first or last');
  if (first != null && last != null) throw new BadInputError('last', 'cannot be combined with first');
  if (after != null && before != null) throw new BadInputError('before', 'cannot be combined with after');
  if (last != null || before != null) {
    if (first != null) throw new BadInputError('first', 'cannot be combined with before');
    if (after != null) throw new BadInputError('after', 'cannot be combined with last');
    return { kind: 'cursor', backward: true, size: last != null ? size('last', last) : defaultSize, cursor: before ?? null };
  }
  return { kind: 'cursor', backward: false, size: first != null ? size('first', first) : defaultSize, cursor: after ?? null };
}

class Lazy<T> {
  private value?: Promise<T>;
  constructor(private readonly source: T | (() => Promise<T>)) {}
  get(): T | Promise<T> {
    if (typeof this.source !== 'function') return this.source;
    return (this.value ??= (this.source as () => Promise<T>)());
  }
}

class LazyPageInfo {
  constructor(
    private readonly next: Lazy<boolean>,
    private readonly previous: Lazy<boolean>,
    private readonly cursors: () => readonly string[],
  ) {}
  get startCursor(): string | null {
    return this.cursors()[0] ?? null;
  }
  get endCursor(): string | null {
    const cursors = this.cursors();
    return cursors[cursors.length - 1] ?? null;
  }
  get hasNextPage(): boolean | Promise<boolean> {
    return this.next.get();
  }
  get hasPreviousPage(): boolean | Promise<boolean> {
    return this.previous.get();
  }
}

/**
 * One edge of a page. `cursor` is a getter on the prototype: the Edge type has `simpleResolvers`,
 * so graphql-jit (and graphql-js's default resolver) read it as a plain property, which runs the getter.
 */
class LazyEdge<T> {
  constructor(
    readonly node: T,
    private readonly index: number,
    private readonly cursors: () => readonly string[],
  ) {}
  get cursor(): string {
    return this.cursors()[this.index];
  }
}

/** The object a `XConnection` type resolves from: edges and nodes share the rows. */
export class Connection<T> {
  readonly nodes: readonly T[];
  readonly pageInfo: LazyPageInfo;
  private readonly count: Lazy<number>;
  private readonly data: ConnectionData<T>;

  private cursorList?: readonly string[];
  private edgeList?: ReadonlyArray<LazyEdge<T>>;

  constructor(data: ConnectionData<T>) {
    this.data = data;
    this.nodes = data.nodes;
    this.pageInfo = new LazyPageInfo(new Lazy(data.hasNextPage), new Lazy(data.hasPreviousPage), () => this.cursors());
    this.count = new Lazy(data.totalCount);
  }

  private cursors(): readonly string[] {
    return (this.cursorList ??= this.data.cursors());
  }

  /**
   * Edges build their cursor only when it is read: `edges { node }` without `cursor` is common, and
   * then the sort keys were not selected (see connectionReads), so the cursors cannot be built.
   */
  get edges(): ReadonlyArray<LazyEdge<T>> {
    return (this.edgeList ??= this.data.nodes.map((node, i) => new LazyEdge(node, i, () => this.cursors())));
  }

  get totalCount(): number | Promise<number> {
    return this.count.get();
  }
}

/**
 * `XConnection` and `XEdge` for a record type, as Relay and most GraphQL APIs shape lists:
 * `@ObjectType('PersonConnection') class PersonConnection extends ConnectionOf(Person, 'people') {}`.
 */
export function ConnectionOf<T extends object>(item: ClassType<T>, typeName: string, plural: string) {
  @ObjectType(`${typeName}Edge`, { simpleResolvers: true, description: `One of the ${plural} of a page, with its cursor.` })
  class Edge {
    @Field({ description: `Opaque cursor of this record in the list's order: pass it as \`after\` or \`before\`.` })
    cursor!: string;

    @Field(() => item, { description: `The record.` })
    node!: T;
  }

  // Not `simpleResolvers`: totalCount may be a promise (counted when read); see PageInfo.
  @ObjectType()
  abstract class ConnectionClass {
    @Field(() => [Edge], { description: `The ${plural} of this page, each with its cursor.` })
    edges!: Edge[];

    @Field(() => [item], { description: `The ${plural} of this page (the edges' nodes, for when cursors are not needed).` })
    nodes!: T[];

    @Field(() => PageInfo, { description: 'Cursors of this page and whether more pages follow or precede it.' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: `How many ${plural} match the filter, across all pages. Counted only when asked for.` })
    totalCount!: number;
  }
  return ConnectionClass;
}

/** What a connection nested in a record (`Deal.people`, `Company.notes`) hands its page loader. */
export interface NestedArgs<F, O> {
  readonly args: ConnectionArgs;
  readonly filter?: F | null;
  readonly orderBy?: readonly O[] | null;
  readonly reads?: ConnectionReads;
  /** What the operation reads of each record (default: the whole row). */
  readonly readSet?: ReadSet | null;
}

/** The row fields a connection's selection reads, under `nodes` and `edges.node` together. */
export function selectedNodeFields(info: GraphQLResolveInfo | undefined): Set<string> {
  if (!info) return new Set();
  const fields = selectedFields(info, ['nodes']);
  for (const name of selectedFields(info, ['edges', 'node'])) fields.add(name);
  return fields;
}

/**
 * What an operation reads of this connection besides its rows: `totalCount` (counting scans every
 * match) and any cursor (which needs the sort keys selected with the rows). Everything without info.
 */
export function connectionReads(info: GraphQLResolveInfo | undefined): ConnectionReads {
  if (!info) return { total: true, cursors: true };
  const top = selectedFields(info);
  const edges = top.has('edges') ? selectedFields(info, ['edges']) : new Set<string>();
  const pageInfo = top.has('pageInfo') ? selectedFields(info, ['pageInfo']) : new Set<string>();
  return { total: top.has('totalCount'), cursors: edges.has('cursor') || pageInfo.has('startCursor') || pageInfo.has('endCursor') };
}
