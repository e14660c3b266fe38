import { Arg, Ctx, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { PageInput, PageOf } from '../../graphql/types';
import { ListItem, ListKind } from './list-item.entity';
import { ListItemInput } from './list-item.inputs';
import { ListItemService } from './list-item.service';

@ObjectType('ListItemPage')
export class ListItemPage extends PageOf(ListItem) {}

const PAGE_DOC = 'Ordered by position, then id; 200 a page unless asked otherwise';

/** Admin lists (v3 §2.10, §4.10): readable by every user of the account, changed by admins only. */
@Resolver()
export class ListItemResolver {
  @Query(() => ListItemPage, { description: `Items of one admin list. ${PAGE_DOC}` })
  listItems(
    @Ctx() ctx: RequestContext,
    @Arg('kind', () => ListKind) kind: ListKind,
    @Arg('page', () => PageInput, { nullable: true }) page?: PageInput,
  ) {
    return new ListItemService(ctx).list(kind, page);
  }

  @Query(() => ListItemPage, { description: PAGE_DOC })
  leadStatuses(@Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) page?: PageInput) {
    return new ListItemService(ctx).list(ListKind.LEAD_STATUS, page);
  }

  @Query(() => ListItemPage, { description: PAGE_DOC })
  leadSources(@Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) page?: PageInput) {
    return new ListItemService(ctx).list(ListKind.LEAD_SOURCE, page);
  }

  @Query(() => ListItemPage, { description: `Predefined contact tags. ${PAGE_DOC}` })
  contactTags(@Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) page?: PageInput) {
    return new ListItemService(ctx).list(ListKind.CONTACT_TAG, page);
  }

  @Query(() => ListItemPage, { description: PAGE_DOC })
  noteCategories(@Ctx() ctx: RequestContext, @Arg('page', () => PageInput, { nullable: true }) page?: PageInput) {
    return new ListItemService(ctx).list(ListKind.NOTE_CATEGORY, page);
  }

  @Mutation(() => ListItem, { description: 'Admins only' })
  createListItem(@Ctx() ctx: RequestContext, @Arg('kind', () => ListKind) kind: ListKind, @Arg('input', () => ListItemInput) input: ListItemInput) {
    return new ListItemService(ctx).create(kind, input);
  }

  @Mutation(() => ListItem, { description: 'Admins only' })
  updateListItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input', () => ListItemInput) input: ListItemInput) {
    return new ListItemService(ctx).update(id, input);
  }

  @Mutation(() => Int, { description: 'Admins only. Returns the id of the deleted item; references to it are cleared' })
  deleteListItem(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return new ListItemService(ctx).delete(id);
  }
}
