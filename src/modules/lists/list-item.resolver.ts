import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { ADMIN_LIST_EXTENSION, ADMIN_LISTS, memberOf, type AdminListDeclaration } from './admin-lists';
import { ListItem, ListKind } from './list-item.entity';
import { ListItemCreateInput, ListItemOrder, ListItemUpdateInput } from './list-item.inputs';
import { LIST_ITEMS_DEFAULT_PER_PAGE, ListItemService } from './list-item.service';
import { leadSourceCosts, type LeadSourceCosts } from './lead-source-cost.loaders';
import { declareRecordType, Scope, SCOPE_ADMIN, SCOPE_OPEN } from '../../graphql/scopes';

@ObjectType('ListItemConnection', { description: 'A page of admin list items, with cursors.' })
export class ListItemConnection extends ConnectionOf(ListItem, 'ListItem', 'items') {}

@ObjectType('CreateListItemPayload', { description: 'The result of createListItem.' })
class CreateListItemPayload extends RecordPayload(ListItem, 'listItem', 'The created item') {}

@ObjectType('UpdateListItemPayload', { description: 'The result of updateListItem.' })
class UpdateListItemPayload extends RecordPayload(ListItem, 'listItem', 'The item as changed') {}

@ObjectType('DeleteListItemPayload', { description: 'The result of deleteListItem.' })
class DeleteListItemPayload extends DeletePayload {}

registerNode({
  name: 'ListItem',
  entity: ListItem,
  find: (ctx, ids) => {
    const service = new ListItemService(ctx);
    return Promise.all(ids.map((id) => service.find(id)));
  },
});

// Every key may read the account's lists; changing them is the admin surface.
declareRecordType('ListItem', ListItem, SCOPE_OPEN);

const PAGE_DOC = `Every user of the account may read it. Default order: position, then databaseId; ${LIST_ITEMS_DEFAULT_PER_PAGE} a page unless asked otherwise.`;
const ORDER_DOC = 'Ordering keys, at most 5; databaseId breaks ties.';
const KIND_DOC = 'The list the item must belong to; an item of another list is answered like a missing one. Any list when absent.';

/** A page of one list (every list's query, and listItems). */
function itemsOf(ctx: RequestContext, kind: ListKind, args: ConnectionArgs, orderBy: ListItemOrder[] | undefined, info: GraphQLResolveInfo | undefined) {
  return new ListItemService(ctx).list(kind, orderBy, pagingOf(args, LIST_ITEMS_DEFAULT_PER_PAGE), connectionReads(info));
}

/**
 * Admin lists (v3 §2.10, §4.10): readable by every user of the account, changed by admins only.
 * Besides these, one query per declared list (leadStatuses, leadSources, ...), added below.
 */
@Resolver()
export class ListItemResolver {
  @Query(() => ListItemConnection, { description: `Items of one admin list. ${PAGE_DOC}` })
  @Scope(SCOPE_OPEN)
  listItems(
    @Ctx() ctx: RequestContext,
    @Arg('kind', () => ListKind, { description: 'Which list.' }) kind: ListKind,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return itemsOf(ctx, kind, args, orderBy, info);
  }

  @Query(() => ListItem, {
    nullable: true,
    description: "One admin list item by databaseId; null when it does not exist in the viewer's account (or belongs to another list than `kind`).",
  })
  @Scope(SCOPE_OPEN)
  listItem(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The item's databaseId." }) id: number,
    @Arg('kind', () => ListKind, { nullable: true, description: KIND_DOC }) kind?: ListKind | null,
  ) {
    return new ListItemService(ctx).find(id, kind);
  }

  @Mutation(() => CreateListItemPayload, { description: 'Adds an item to an admin list. Administrators only (others get a FORBIDDEN error).' })
  @Scope(SCOPE_ADMIN)
  createListItem(
    @Ctx() ctx: RequestContext,
    @Arg('kind', () => ListKind, { description: 'Which list.' }) kind: ListKind,
    @Arg('input', () => ListItemCreateInput, { description: 'The new item.' }) input: ListItemCreateInput,
  ) {
    return recordPayload('listItem', () => new ListItemService(ctx).create(kind, input));
  }

  @Mutation(() => UpdateListItemPayload, { description: 'Changes an admin list item. Administrators only (others get a FORBIDDEN error).' })
  @Scope(SCOPE_ADMIN)
  updateListItem(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The item's databaseId." }) id: number,
    @Arg('input', () => ListItemUpdateInput, { description: 'The changes.' }) input: ListItemUpdateInput,
    @Arg('kind', () => ListKind, { nullable: true, description: KIND_DOC }) kind?: ListKind | null,
  ) {
    return recordPayload('listItem', () => new ListItemService(ctx).update(id, input, kind));
  }

  @Mutation(() => DeleteListItemPayload, {
    description:
      'Deletes an admin list item; whatever referred to it loses the reference (people, todo template items). Administrators only (others get a FORBIDDEN error).',
  })
  @Scope(SCOPE_ADMIN)
  deleteListItem(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The item's databaseId." }) id: number,
    @Arg('kind', () => ListKind, { nullable: true, description: KIND_DOC }) kind?: ListKind | null,
  ) {
    return deletePayload('ListItem', () => new ListItemService(ctx).delete(id, kind));
  }
}

/**
 * Each declared list's query (src/modules/lists/admin-lists.ts): the method a hand-written one would
 * be, with the decorators it would carry, applied as TypeScript applies them (the parameters' last
 * to first, then the method's). The extension tells the v3 facade which list the query lists.
 */
for (const list of ADMIN_LISTS as readonly AdminListDeclaration[]) {
  const { query: name } = list;
  const kind = list.kind as ListKind;
  const prototype = ListItemResolver.prototype;
  if (name in prototype) throw new Error(`src/modules/lists/admin-lists.ts, ${list.kind}: ListItemResolver already has a ${name}`);
  const descriptor: PropertyDescriptor = {
    value: (ctx: RequestContext, args: ConnectionArgs, orderBy?: ListItemOrder[], info?: GraphQLResolveInfo) => itemsOf(ctx, kind, args, orderBy, info),
    writable: true,
    configurable: true,
  };
  Object.defineProperty(prototype, name, descriptor);
  Info()(prototype, name, 3);
  Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC })(prototype, name, 2);
  Args(() => ConnectionArgs)(prototype, name, 1);
  Ctx()(prototype, name, 0);
  Extensions({ [ADMIN_LIST_EXTENSION]: { kind: memberOf(list.kind), coloured: list.coloured === true } })(prototype, name, descriptor);
  Scope(SCOPE_OPEN)(prototype, name, descriptor);
  Query(() => ListItemConnection, { description: `${list.queryDoc ?? list.doc} ${PAGE_DOC}` })(prototype, name, descriptor);
}

/** A lead source's costs (from their own table, one batch per page); null for items of other lists. */
function costField(ctx: RequestContext, item: ListItem, field: keyof LeadSourceCosts): number | null | Promise<number | null> {
  if (item.kind !== ListKind.LEAD_SOURCE) return null;
  return leadSourceCosts(ctx)
    .load(item.id)
    .then((costs) => costs[field]);
}

@Resolver(() => ListItem)
export class ListItemFieldsResolver {
  @FieldResolver(() => Int, { nullable: true, description: 'Lead sources only: what one lead costs, in cents; null when not recorded, and for other lists.' })
  costPerLeadInCents(@Root() item: ListItem, @Ctx() ctx: RequestContext) {
    return costField(ctx, item, 'costPerLeadInCents');
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Lead sources only: the flat fee for the source, in cents; null when not recorded, and for other lists.',
  })
  flatFeeInCents(@Root() item: ListItem, @Ctx() ctx: RequestContext) {
    return costField(ctx, item, 'flatFeeInCents');
  }
}
