import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { linkedCompany, linkedDeal, linkedPerson } from '../common/linked-records';
import { nestedConnectionResolvers } from '../common/nested-connections';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, relationListField, type RelationPreload } from '../../context/relations';
import { ConnectionArgs, ConnectionOf, connectionReads, pagingOf, type Connection } from '../../graphql/connection';
import { registerNode } from '../../graphql/node';
import { DeletePayload, deletePayload, RecordPayload, recordPayload } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEALS } from '../deals/deal.visibility';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { Document } from './document.entity';
import { DOCUMENT, type DocumentInput } from './document.fields';
import { documentsOf, DOCUMENTS_PAGE_SIZE } from './document.loaders';
import { publicLinkOf } from './document.public-link';
import { DocumentService, documentTagIds, findVisibleDocuments } from './document.service';

type DocumentFilter = InstanceType<typeof DOCUMENT.Filter>;
type DocumentOrder = InstanceType<typeof DOCUMENT.Order>;

@ObjectType('DocumentConnection', { description: 'A page of documents, with cursors.' })
export class DocumentConnection extends ConnectionOf(Document, 'Document', 'documents') {}

@ObjectType('CreateDocumentPayload', { description: 'The result of createDocument.' })
class CreateDocumentPayload extends RecordPayload(Document, 'document', 'The created document (pending until its URL is fetched)') {}
@ObjectType('UpdateDocumentPayload', { description: 'The result of updateDocument.' })
class UpdateDocumentPayload extends RecordPayload(Document, 'document', 'The document as changed') {}
@ObjectType('DeleteDocumentPayload', { description: 'The result of deleteDocument.' })
class DeleteDocumentPayload extends DeletePayload {}
@ObjectType('ResetDocumentPublicLinkPayload', { description: 'The result of resetDocumentPublicLink.' })
class ResetDocumentPublicLinkPayload extends RecordPayload(Document, 'document', 'The document with its new public link') {}

registerNode({ name: 'Document', entity: Document, find: (ctx, ids) => findVisibleDocuments(ctx, ids) });

/** The tags of a page of documents: their ids in one statement, then the list items in one batch. */
function tagsOfPage(ctx: RequestContext, ids: readonly number[]): Promise<unknown> {
  const tagIds = documentTagIds(ctx);
  return tagIds.loadMany(ids).then(() => {
    const all = new Set<number>();
    for (const id of ids) for (const tag of tagIds.settled(id) ?? []) all.add(tag);
    return all.size ? ctx.loaders.byId(ListItem).loadMany([...all]) : undefined;
  });
}

/** What a page of documents reads: one batch per source, then each row's fields answer synchronously. */
const DOCUMENT_RELATIONS: readonly RelationPreload<Document>[] = [
  usersPreload('owner'),
  { fields: ['deal'], source: Deal, ids: (d) => d.deal?.id },
  // The deal's shares (its visibility needs them), keyed by the document's deal.
  { fields: ['deal'], perRow: (ctx) => sharesOf(ctx, DEALS), key: (d) => d.deal?.id },
  { fields: ['person'], source: Person, ids: (d) => d.person?.id },
  { fields: ['company'], source: Company, ids: (d) => d.company?.id },
  { fields: ['tagIds', 'tags'], perRow: (ctx) => ({ loadMany: (ids: readonly number[]) => tagsOfPage(ctx, ids) }) },
];

function preloadDocuments(ctx: RequestContext, rows: readonly Document[], info?: GraphQLResolveInfo): Promise<void> {
  return preloadPage(ctx, DOCUMENT_RELATIONS, rows, info);
}

const ID_ARG = { description: "The document's databaseId." };

@Resolver()
export class DocumentResolver {
  @Query(() => DocumentConnection, {
    description: 'Documents the viewer may see (their own, and those linked to a deal, person or company they may see). Default order: newest first.',
  })
  async documents(
    @Ctx() ctx: RequestContext,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Arg('filter', () => DOCUMENT.Filter, { nullable: true, description: 'Which documents; all of them when absent.' }) filter?: DocumentFilter,
    @Arg('orderBy', () => [DOCUMENT.Order], { nullable: true, description: 'Ordering keys, at most 5; databaseId breaks ties.' }) orderBy?: DocumentOrder[],
    @Info() info?: GraphQLResolveInfo,
  ): Promise<Connection<Document>> {
    const result = await new DocumentService(ctx).list(filter, orderBy, pagingOf(args, DOCUMENTS_PAGE_SIZE), connectionReads(info));
    await preloadDocuments(ctx, result.nodes, info);
    return result;
  }

  @Query(() => Document, { nullable: true, description: 'One document by databaseId; null when it does not exist or the viewer may not see it.' })
  document(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number) {
    return new DocumentService(ctx).get(id);
  }

  @Mutation(() => CreateDocumentPayload, {
    description:
      'Creates a document from a URL; the service then fetches it in the background (uploadState PENDING until then). Problems with the input come back as userErrors, and nothing is created.',
  })
  createDocument(@Ctx() ctx: RequestContext, @Arg('input', () => DOCUMENT.CreateInput, { description: 'The new document.' }) input: DocumentInput) {
    return recordPayload('document', () => new DocumentService(ctx).create(input));
  }

  @Mutation(() => UpdateDocumentPayload, {
    description: 'Changes a document: only the fields given; a new URL fetches it again. A missing or hidden document is a NOT_FOUND user error.',
  })
  updateDocument(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, ID_ARG) id: number,
    @Arg('input', () => DOCUMENT.UpdateInput, { description: 'The changes.' }) input: DocumentInput,
  ) {
    return recordPayload('document', () => new DocumentService(ctx).update(id, input));
  }

  @Mutation(() => DeleteDocumentPayload, {
    description: 'Deletes a document and its stored content (its public link then answers 404). A missing or hidden document is a NOT_FOUND user error.',
  })
  deleteDocument(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number) {
    return deletePayload('Document', () => new DocumentService(ctx).delete(id));
  }

  @Mutation(() => ResetDocumentPublicLinkPayload, {
    description: 'Gives a document a new public link; the old one stops working at once. A missing or hidden document is a NOT_FOUND user error.',
  })
  resetDocumentPublicLink(@Ctx() ctx: RequestContext, @Arg('id', () => Int, ID_ARG) id: number) {
    return recordPayload('document', () => new DocumentService(ctx).resetPublicLink(id));
  }
}

/** Every relation of a document through the per-request loaders. */
@Resolver(() => Document)
export class DocumentFieldsResolver {
  @FieldResolver(() => User, { nullable: true, description: "The document's owner." })
  owner(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return relationField(ctx, Users, doc.owner?.id);
  }

  @FieldResolver(() => Deal, {
    nullable: true,
    description: 'The deal the document is linked to; null when none or when the viewer may not see it (dealId still names it).',
  })
  deal(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return linkedDeal(ctx, doc.deal?.id);
  }

  @FieldResolver(() => Person, { nullable: true, description: 'The person the document is linked to; null when none or when the viewer may not see them.' })
  person(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return linkedPerson(ctx, doc.person?.id);
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The company the document is linked to; null when none or when the viewer may not see it.' })
  company(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return linkedCompany(ctx, doc.company?.id);
  }

  @FieldResolver(() => [Int], { description: "databaseIds of the document's tags (items of the document tags list), in databaseId order." })
  tagIds(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return documentTagIds(ctx).answer(doc.id);
  }

  @FieldResolver(() => [ListItem], { description: "The document's tags (items of the document tags list), in databaseId order." })
  tags(@Root() doc: Document, @Ctx() ctx: RequestContext) {
    return documentTagIds(ctx).answer(doc.id, (ids) => relationListField(ctx, ListItem, ids));
  }

  @FieldResolver(() => String, {
    description:
      'Where anyone holding this link downloads the content, without an API key (it answers 404 until the document is fetched). resetDocumentPublicLink replaces it.',
  })
  publicLink(@Root() doc: Document, @Ctx() ctx: RequestContext): string {
    return publicLinkOf(ctx.origin, doc.publicToken);
  }
}

const documentsArgs = (what: string) => ({ description: `Documents linked to this ${what} that the viewer may see. Default order: newest first.` });

async function nestedDocuments(
  ctx: RequestContext,
  parent: 'deal' | 'person' | 'company',
  id: number,
  args: ConnectionArgs,
  filter: DocumentFilter | undefined,
  orderBy: DocumentOrder[] | undefined,
  info: GraphQLResolveInfo | undefined,
) {
  const page = await documentsOf(ctx, parent, id, { args, filter, orderBy, reads: connectionReads(info) });
  await preloadDocuments(ctx, page.nodes, info);
  return page;
}

/** `Deal.documents`, `Person.documents`, `Company.documents`. */
export const DOCUMENT_PARENT_RESOLVERS = nestedConnectionResolvers<DocumentFilter, DocumentOrder>({
  field: 'documents',
  connection: DocumentConnection,
  filter: DOCUMENT.Filter,
  order: DOCUMENT.Order,
  doc: (parent) => documentsArgs(parent).description,
  filterDoc: (parent) => `Which of ${parent === 'person' ? 'their' : 'its'} documents; all when absent.`,
  orderDoc: 'Ordering keys, at most 5; databaseId breaks ties.',
  page: nestedDocuments,
});
