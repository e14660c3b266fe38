import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema, graphql, type GraphQLFieldConfig } from 'graphql';
import { ConfigError, loadConfig, type FieldRateLimit } from '../../src/config/config';
import { applyFieldRateLimits, declaredRateLimits, MemoryWindowStore } from '../../src/graphql/field-rate-limit';
import { createSchema } from '../../src/app/schema';

/** A field limited as `@RateLimit(limit)` would declare it. */
const limited = (limit: FieldRateLimit): GraphQLFieldConfig<unknown, unknown> => ({
  type: GraphQLBoolean,
  extensions: { rateLimit: limit },
  resolve: () => true,
});

const schemaWith = (mutations: Record<string, GraphQLFieldConfig<unknown, unknown>>, types: GraphQLObjectType[] = []) =>
  new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean, resolve: () => true } } }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutations }),
    types,
  });

describe('per-field rate limits', () => {
  it('are declared on the expensive document mutations', () => {
    const declared = new Map([...declaredRateLimits(createSchema())].map(([name, { limit }]) => [name, limit]));
    expect(declared).toEqual(
      new Map([
        ['Mutation.createDocument', { max: 30, window: '1m' }],
        ['Mutation.resetDocumentPublicLink', { max: 10, window: '1m' }],
      ]),
    );
  });

  it('count calls per user in a window, refused calls not counted', async () => {
    const schema = applyFieldRateLimits(
      schemaWith({ expensive: limited({ max: 2, window: '1m' }), cheap: { type: GraphQLBoolean, resolve: () => true } }),
      new MemoryWindowStore(),
    );
    const call = (userId: number, field = 'expensive') => graphql({ schema, source: `mutation { ${field} }`, contextValue: { viewer: { userId } } });
    expect((await call(1)).data).toEqual({ expensive: true });
    expect((await call(1)).data).toEqual({ expensive: true });
    const refused = await call(1);
    expect(refused.data).toEqual({ expensive: null });
    expect(refused.errors?.[0].message).toMatch(/^expensive is limited to 2 calls per user in 60 s: retry in (59|60) s$/);
    expect(refused.errors?.[0].originalError).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await call(2)).data).toEqual({ expensive: true });
    expect((await call(1, 'cheap')).data).toEqual({ cheap: true });
  });

  it('an override of an undeclared field, an unreadable limit, or two limited fields of one name stop the server', () => {
    expect(() =>
      applyFieldRateLimits(schemaWith({ expensive: limited({ max: 2, window: '1m' }) }), new MemoryWindowStore(), {
        'Mutation.other': { max: 1, window: '1m' },
      }),
    ).toThrow(ConfigError);
    expect(() => applyFieldRateLimits(schemaWith({ expensive: limited({ max: 2, window: '1 minute' }) }), new MemoryWindowStore())).toThrow(
      'Mutation.expensive: a rate limit needs a whole max >= 1 and a window like 30s, 1m, 1h',
    );
    const other = new GraphQLObjectType({ name: 'Other', fields: { expensive: limited({ max: 1, window: '1h' }) } });
    expect(() =>
      applyFieldRateLimits(schemaWith({ expensive: limited({ max: 2, window: '1m' }), other: { type: other } }, [other]), new MemoryWindowStore()),
    ).toThrow(/^(Mutation|Other)\.expensive and (Mutation|Other)\.expensive both declare a rate limit: graphql-rate-limit would count them in one window$/);
  });

  it('FIELD_RATE_LIMITS reads Type.field=max/window, and refuses anything else', () => {
    expect(loadConfig({}).fieldRateLimits).toEqual({});
    expect(loadConfig({ FIELD_RATE_LIMITS: 'Mutation.createDocument=3/30s, Mutation.resetDocumentPublicLink=100/1h' }).fieldRateLimits).toEqual({
      'Mutation.createDocument': { max: 3, window: '30s' },
      'Mutation.resetDocumentPublicLink': { max: 100, window: '1h' },
    });
    for (const bad of [
      'Mutation.createDocument=0/1m',
      'createDocument=3/1m',
      'Mutation.createDocument=3/1 minute',
      'Mutation.createDocument=3/0s',
      'Mutation.createDocument=3',
    ])
      expect(() => loadConfig({ FIELD_RATE_LIMITS: bad })).toThrow(ConfigError);
  });
});
