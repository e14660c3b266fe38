import { Arg, Args, Ctx, FieldResolver, Info, Resolver, Root, type ClassType } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs } from '../../graphql/connection';
import { Company } from '../companies/company.entity';
import { Deal } from '../deals/deal.entity';
import { Person } from '../people/person.entity';

/** The records an activity (notes, documents, calendar entries) is listed under. */
export type LinkParent = 'deal' | 'person' | 'company';

const PARENTS: ReadonlyArray<{ readonly parent: LinkParent; readonly type: ClassType }> = [
  { parent: 'deal', type: Deal },
  { parent: 'person', type: Person },
  { parent: 'company', type: Company },
];

/** One connection field of an activity on each of its parents (`Deal.notes`, `Person.notes`, `Company.notes`). */
export interface NestedConnectionSpec<F extends object, O extends object> {
  /** The field's name on each parent. */
  readonly field: string;
  readonly connection: ClassType;
  readonly filter: ClassType<F>;
  readonly order: ClassType<O>;
  readonly doc: (parent: LinkParent) => string;
  readonly filterDoc: (parent: LinkParent) => string;
  readonly orderDoc: string;
  /** One page of the parent's records, preloaded for the selection. */
  readonly page: (
    ctx: RequestContext,
    parent: LinkParent,
    id: number,
    args: ConnectionArgs,
    filter: F | undefined,
    orderBy: O[] | undefined,
    info: GraphQLResolveInfo | undefined,
  ) => Promise<unknown>;
}

/**
 * The field resolvers of `spec` on Deal, Person and Company, in that order: one class per parent
 * type (TypeGraphQL resolves a class for one type), written once here instead of once per
 * activity and parent.
 */
export function nestedConnectionResolvers<F extends object, O extends object>(spec: NestedConnectionSpec<F, O>): ClassType[] {
  return PARENTS.map(({ parent, type }) => {
    @Resolver(() => type)
    class NestedConnectionResolver {
      // Named as the field: TypeGraphQL keys a type's fields by their resolver method's name.
      @FieldResolver(() => spec.connection, { description: spec.doc(parent) })
      [spec.field](
        @Root() root: { id: number },
        @Ctx() ctx: RequestContext,
        @Args(() => ConnectionArgs) args: ConnectionArgs,
        @Arg('filter', () => spec.filter, { nullable: true, description: spec.filterDoc(parent) }) filter?: F,
        @Arg('orderBy', () => [spec.order], { nullable: true, description: spec.orderDoc }) orderBy?: O[],
        @Info() info?: GraphQLResolveInfo,
      ) {
        return spec.page(ctx, parent, root.id, args, filter, orderBy, info);
      }
    }
    return NestedConnectionResolver;
  });
}
