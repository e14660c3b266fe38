import 'reflect-metadata';
import { execute, parse, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { Arg, Args, ArgsType, Field, FieldResolver, InputType, Int, ObjectType, Query, Resolver, Root, buildSchemaSync } from 'type-graphql';
import { leanFieldResolvers } from '../../src/graphql/lean-resolvers';

@ArgsType()
class LeanPaging {
  @Field(() => Int, { nullable: true }) first?: number;
  get doubled(): number {
    return (this.first ?? 0) * 2;
  }
}

@InputType()
class LeanFilter {
  @Field({ nullable: true }) name?: string;
}

@ObjectType()
class LeanItem {
  @Field(() => Int) id!: number;
}

@ObjectType()
class LeanPage {
  @Field(() => Int) first!: number;
  @Field(() => Int) doubled!: number;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => Boolean) converted!: boolean;
}

/** Every call's converted arguments, to compare their identity. */
const seen: Array<{ paging: LeanPaging; filter: LeanFilter | undefined }> = [];

@Resolver(() => LeanItem)
class LeanItemResolver {
  @Query(() => [LeanItem])
  leanItems(): LeanItem[] {
    return [1, 2, 3].map((id) => Object.assign(new LeanItem(), { id }));
  }

  @FieldResolver(() => LeanPage)
  page(@Root() item: LeanItem, @Args(() => LeanPaging) paging: LeanPaging, @Arg('filter', () => LeanFilter, { nullable: true }) filter?: LeanFilter): LeanPage {
    seen.push({ paging, filter });
    return {
      first: paging.first ?? 0,
      doubled: paging.doubled,
      name: filter?.name ?? null,
      converted: paging instanceof LeanPaging && (filter === undefined || filter instanceof LeanFilter),
    };
  }
}

describe('lean field resolvers with arguments', () => {
  const schema = buildSchemaSync({ resolvers: [LeanItemResolver], validate: false });
  const replaced = leanFieldResolvers(schema);
  const run = (query: string, variableValues?: Record<string, unknown>) => execute({ schema, document: parse(query), variableValues });

  beforeEach(() => {
    seen.length = 0;
  });

  it('replaces the field resolver that takes arguments by a direct call (TypeGraphQL answered a promise)', () => {
    expect(replaced).toBe(1);
    const resolve = (schema.getType('LeanItem') as GraphQLObjectType).getFields().page.resolve!;
    const info = { fieldNodes: [], variableValues: {} } as unknown as GraphQLResolveInfo;
    const answer = resolve(Object.assign(new LeanItem(), { id: 1 }), { first: 3 }, {}, info);
    expect(answer).toEqual({ first: 3, doubled: 6, name: null, converted: true });
  });

  it('hands the method its arguments converted to their classes, synchronously', async () => {
    const result = await run('query($n: String) { leanItems { page(first: 4, filter: { name: $n }) { first doubled name converted } } }', { n: 'x' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ leanItems: [1, 2, 3].map(() => ({ page: { first: 4, doubled: 8, name: 'x', converted: true } })) });
  });

  it('converts once per field and variables: every row of one execution shares them, another execution does not', async () => {
    const query = 'query($f: Int) { leanItems { a: page(first: $f) { first } b: page(first: 2) { first } } }';
    await run(query, { f: 5 });
    expect(seen).toHaveLength(6);
    const a = seen.filter((s) => s.paging.first === 5);
    const b = seen.filter((s) => s.paging.first === 2);
    expect(a).toHaveLength(3);
    expect(b).toHaveLength(3);
    expect(new Set(a.map((s) => s.paging)).size).toBe(1);
    expect(new Set(b.map((s) => s.paging)).size).toBe(1);
    const first = a[0].paging;
    seen.length = 0;
    const again = await run(query, { f: 7 });
    expect(again.data?.leanItems).toEqual([1, 2, 3].map(() => ({ a: { first: 7 }, b: { first: 2 } })));
    expect(seen.find((s) => s.paging.first === 7)?.paging).not.toBe(first);
  });

  it('goes through TypeGraphQL for a root that is not an instance of the type', async () => {
    const field = schema.getQueryType()!.getFields().leanItems;
    const resolve = field.resolve!;
    field.resolve = () => [{ id: 9 }];
    try {
      const result = await run('{ leanItems { page(first: 1) { first converted } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ leanItems: [{ page: { first: 1, converted: true } }] });
    } finally {
      field.resolve = resolve;
    }
  });
});
