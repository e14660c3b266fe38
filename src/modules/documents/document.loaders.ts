import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { keysetPagesByParent } from '../../db/keyset';
import { Connection, pagingOf } from '../../graphql/connection';
import { fromOf, scopeOf } from '../common/resource';
import type { NestedArgs } from '../../graphql/connection';
import { Document } from './document.entity';
import { DOCUMENT_FIELDS } from './document.fields';
import { DOCUMENT_RECORDS } from './document.service';

type Ids = readonly number[];
type DocumentFilter = InstanceType<typeof DOCUMENT_FIELDS.Filter>;
type DocumentOrder = InstanceType<typeof DOCUMENT_FIELDS.Order>;

/** Default page of GraphQL document connections (the cost rule's default); v3 asks for 30. */
export const DOCUMENTS_PAGE_SIZE = 100;

const PARENT_COLUMN = { deal: 'doc.deal_id', person: 'doc.person_id', company: 'doc.company_id' } as const;

/** Deal.documents, Person.documents, Company.documents: a page of the parent's visible documents, batched across a page of parents. */
export function documentsOf(
  ctx: RequestContext,
  parent: keyof typeof PARENT_COLUMN,
  parentId: number,
  nested: NestedArgs<DocumentFilter, DocumentOrder>,
): Promise<Connection<Document>> {
  const paging = pagingOf(nested.args, DOCUMENTS_PAGE_SIZE);
  const order = DOCUMENT_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = DOCUMENT_FIELDS.filterSql(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `documents-of-${parent}:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: Ids) => {
        const where = scopeOf(ctx, DOCUMENT_RECORDS).add(condition.sql, ...condition.params);
        const pages = await keysetPagesByParent(
          ctx.em,
          Document,
          { from: fromOf(ctx, DOCUMENT_RECORDS), alias: 'doc', where, order, paging, reads: nested.reads, parentColumn: PARENT_COLUMN[parent] },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(parentId);
}
