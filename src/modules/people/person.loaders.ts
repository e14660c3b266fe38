import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { keysetPagesByParent } from '../../db/keyset';
import { Connection, pagingOf, type ConnectionArgs, type ConnectionReads } from '../../graphql/connection';
import { fromOf, scopeOf } from '../common/resource';
import { prepareCustomFieldSearch } from '../custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { Person } from './person.entity';
import { PERSON_FIELDS } from './person.fields';
import { PERSON_RECORDS } from './person.visibility';

type PersonFilter = InstanceType<typeof PERSON_FIELDS.Filter>;
type PersonOrder = InstanceType<typeof PERSON_FIELDS.Order>;

export interface NestedPeopleArgs {
  readonly args: ConnectionArgs;
  readonly filter?: PersonFilter | null;
  readonly orderBy?: readonly PersonOrder[] | null;
  readonly reads?: ConnectionReads;
}

/**
 * Company.people through a per-request batch: one statement for every company of a page asking
 * for the same page of its people (v3 §4.6 `associations=people` uses it too). Visibility applies.
 */
export async function peopleOfCompany(ctx: RequestContext, companyId: number, nested: NestedPeopleArgs): Promise<Connection<Person>> {
  await prepareCustomFieldSearch(ctx, CustomFieldResource.PERSON, nested.filter);
  const paging = pagingOf(nested.args, 100);
  const order = PERSON_FIELDS.orderKeys(ctx.em, nested.orderBy);
  const condition = PERSON_FIELDS.filterSql(ctx, nested.filter);
  const loader = ctx.loaders.memo(
    `people-of-company:${JSON.stringify([paging, nested.filter ?? null, nested.orderBy ?? null, nested.reads ?? null])}`,
    () =>
      new DataLoader(async (ids: readonly number[]) => {
        const where = scopeOf(ctx, PERSON_RECORDS).add(condition.sql, ...condition.params);
        const pages = await keysetPagesByParent(
          ctx.em,
          Person,
          { from: fromOf(ctx, PERSON_RECORDS), alias: 'p', where, order, paging, reads: nested.reads, parentColumn: 'p.company_id' },
          ids,
        );
        return ids.map((id) => new Connection(pages.get(id)!));
      }),
  );
  return loader.load(companyId);
}
