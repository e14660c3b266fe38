import { Arg, Ctx, FieldResolver, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { linkedCompany, linkedDeal, linkedPerson } from '../common/linked-records';
import { nestedConnectionResolvers } from '../common/nested-connections';
import type { RequestContext } from '../../context/context';
import { preloadPage, relationField, relationListField, type RelationPreload } from '../../graphql/relations';
import { ConnectionArgs, connectionReads } from '../../graphql/connection';
import { RateLimit } from '../../graphql/field-rate-limit';
import { RecordPayload, recordPayload } from '../../graphql/payload';
import { Company } from '../companies/company.entity';
import { recordResource } from '../common/record-resource';
import { sharesOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';
import { Users, usersPreload } from '../users/user.loaders';
import { Document } from './document.entity';
import { DOCUMENT_FIELDS, type DocumentInput } from './document.fields';
import { documentsOf, DOCUMENTS_PAGE_SIZE } from './document.loaders';
import { publicLinkOf } from './document.public-link';
import { DOCUMENT_RECORDS, DocumentService, documentTagIds, findVisibleDocuments } from './document.service';
import { Scope } from '../../graphql/scopes';

type DocumentFilter = InstanceType<typeof DOCUMENT_FIELDS.Filter>;
type DocumentOrder = InstanceType<typeof DOCUMENT_FIELDS.Order>;

@ObjectType('ResetDocumentPublicLinkPayload', { description: 'The result of resetDocumentPublicLink.' })
class ResetDocumentPublicLinkPayload extends RecordPayload(Document, 'document', 'The document with its new public link') {}

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
  { fields: ['deal'], perRow: (ctx) => sharesOf(ctx, DEAL_RECORDS), key: (d) => d.deal?.id },
  { fields: ['person'], source: Person, ids: (d) => d.person?.id },
  { fields: ['company'], source: Company, ids: (d) => d.company?.id },
  { fields: ['tagIds', 'tags'], perRow: (ctx) => ({ loadMany: (ids: readonly number[]) => tagsOfPage(ctx, ids) }) },
];

function preloadDocuments(ctx: RequestContext, rows: readonly Document[], info?: GraphQLResolveInfo): Promise<void> {
  return preloadPage(ctx, DOCUMENT_RELATIONS, rows, info);
}

/**
 * Documents (v3 files, §2.7, §4.7): the generated list, lookup and mutations, with the service's
 * create, update and delete (a URL fetched in the background, tags, stored content removed after
 * the commit); list and show are the defaults, visibility judged in SQL.
 */
export const DOCUMENT_RESOURCE = recordResource({
  records: DOCUMENT_RECORDS,
  fields: DOCUMENT_FIELDS,
  singular: 'document',
  plural: 'documents',
  pageSize: DOCUMENTS_PAGE_SIZE,
  relations: DOCUMENT_RELATIONS,
  nodes: findVisibleDocuments,
  // Each document makes the worker fetch its URL.
  limits: { create: { max: 30, window: '1m' } },
  docs: {
    list: 'Documents the viewer may see (their own, and those linked to a deal, person or company they may see). Default order: newest first.',
    create:
      'Creates a document from a URL; the service then fetches it in the background (uploadState PENDING until then). Problems with the input come back as userErrors, and nothing is created.',
    update: 'Changes a document: only the fields given; a new URL fetches it again. A missing or hidden document is a NOT_FOUND user error.',
    delete: 'Deletes a document and its stored content (its public link then answers 404). A missing or hidden document is a NOT_FOUND user error.',
    created: 'The created document (pending until its URL is fetched)',
  },
  steps: {
    create: (ctx, input) => new DocumentService(ctx).create(input as DocumentInput),
    update: (ctx, id, input) => new DocumentService(ctx).update(id, input as DocumentInput),
    delete: (ctx, id) => new DocumentService(ctx).delete(id),
  },
});

/** `DocumentConnection`, for the documents of a deal, person or company. */
const DocumentConnection = DOCUMENT_RESOURCE.connection;

/** A document's public link, renewed: beside the generated mutations. */
@Resolver()
export class DocumentPublicLinkResolver {
  @RateLimit({ max: 10, window: '1m' })
  @Mutation(() => ResetDocumentPublicLinkPayload, {
    description: 'Gives a document a new public link; the old one stops working at once. A missing or hidden document is a NOT_FOUND user error.',
  })
  @Scope('documents:write')
  resetDocumentPublicLink(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The document's databaseId." }) id: number) {
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
  filter: DOCUMENT_FIELDS.Filter,
  order: DOCUMENT_FIELDS.Order,
  doc: (parent) => documentsArgs(parent).description,
  filterDoc: (parent) => `Which of ${parent === 'person' ? 'their' : 'its'} documents; all when absent.`,
  orderDoc: 'Ordering keys, at most 5; databaseId breaks ties.',
  page: nestedDocuments,
});
