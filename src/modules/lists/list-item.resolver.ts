import { Arg, Args, Ctx, Info, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { ListItem, ListKind } from './list-item.entity';
import { ListItemCreateInput, ListItemOrder, ListItemUpdateInput } from './list-item.inputs';
import { LIST_ITEMS_DEFAULT_PER_PAGE, ListItemService } from './list-item.service';

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

const PAGE_DOC = `Every user of the account may read it. Default order: position, then databaseId; ${LIST_ITEMS_DEFAULT_PER_PAGE} a page unless asked otherwise.`;
const ORDER_DOC = 'Ordering keys, at most 5; databaseId breaks ties.';

/** Admin lists (v3 §2.10, §4.10): readable by every user of the account, changed by admins only. */
@Resolver()
export class ListItemResolver {
  private list(ctx: RequestContext, kind: ListKind, args: ConnectionArgs, orderBy: ListItemOrder[] | undefined, info: GraphQLResolveInfo | undefined) {
    return new ListItemService(ctx).list(kind, orderBy, pagingOf(args, LIST_ITEMS_DEFAULT_PER_PAGE), connectionReads(info));
  }

  @Query(() => ListItemConnection, { description: `Items of one admin list. ${PAGE_DOC}` })
  listItems(
    @Ctx() ctx: RequestContext,
    @Arg('kind', () => ListKind, { description: 'Which list.' }) kind: ListKind,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[],
    @Info() info?: GraphQLResolveInfo,
  ) {
    return this.list(ctx, kind, args, orderBy, info);
  }

  @Query(() => ListItemConnection, { description: `Lead statuses. ${PAGE_DOC}` })
  leadStatuses(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs, @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[], @Info() info?: GraphQLResolveInfo) {
    return this.list(ctx, ListKind.LEAD_STATUS, args, orderBy, info);
  }

  @Query(() => ListItemConnection, { description: `Lead sources. ${PAGE_DOC}` })
  leadSources(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs, @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[], @Info() info?: GraphQLResolveInfo) {
    return this.list(ctx, ListKind.LEAD_SOURCE, args, orderBy, info);
  }

  @Query(() => ListItemConnection, { description: `Predefined contact tags. ${PAGE_DOC}` })
  contactTags(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs, @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[], @Info() info?: GraphQLResolveInfo) {
    return this.list(ctx, ListKind.CONTACT_TAG, args, orderBy, info);
  }

  @Query(() => ListItemConnection, { description: `Note categories. ${PAGE_DOC}` })
  noteCategories(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs, @Arg('orderBy', () => [ListItemOrder], { nullable: true, description: ORDER_DOC }) orderBy?: ListItemOrder[], @Info() info?: GraphQLResolveInfo) {
    return this.list(ctx, ListKind.NOTE_CATEGORY, args, orderBy, info);
  }

  @Query(() => ListItem, { nullable: true, description: 'One admin list item by databaseId; null when it does not exist in the viewer\'s account.' })
  listItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: 'The item\'s databaseId.' }) id: number) {
    return new ListItemService(ctx).find(id);
  }

  @Mutation(() => CreateListItemPayload, { description: 'Adds an item to an admin list. Administrators only (others get a FORBIDDEN error).' })
  createListItem(
    @Ctx() ctx: RequestContext,
    @Arg('kind', () => ListKind, { description: 'Which list.' }) kind: ListKind,
    @Arg('input', () => ListItemCreateInput, { description: 'The new item.' }) input: ListItemCreateInput,
  ) {
    return recordPayload('listItem', () => new ListItemService(ctx).create(kind, input));
  }

  @Mutation(() => UpdateListItemPayload, { description: 'Changes an admin list item. Administrators only (others get a FORBIDDEN error).' })
  updateListItem(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: 'The item\'s databaseId.' }) id: number,
    @Arg('input', () => ListItemUpdateInput, { description: 'The changes.' }) input: ListItemUpdateInput,
  ) {
    return recordPayload('listItem', () => new ListItemService(ctx).update(id, input));
  }

  @Mutation(() => DeleteListItemPayload, { description: 'Deletes an admin list item; people referring to it lose the reference. Administrators only.' })
  deleteListItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: 'The item\'s databaseId.' }) id: number) {
    return deletePayload('ListItem', () => new ListItemService(ctx).delete(id));
  }
}
