import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { createSchema, withScalars } from '../../src/app/schema';

describe('scalars the server relies on', () => {
  it('are added to a schema no field of which uses them, and left alone otherwise', () => {
    const bare = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { hello: { type: GraphQLString } } }) });
    expect(bare.getType('JSON')).toBeUndefined();
    const withJson = withScalars(bare, [GraphQLJSON]);
    expect(withJson.getType('JSON')).toBe(GraphQLJSON);
    expect(withJson.getQueryType()?.getFields().hello).toBeDefined();
    expect(withScalars(withJson, [GraphQLJSON])).toBe(withJson);
  });

  it('the app schema has JSON, which the executor declares recursive-input variables as', () => {
    expect(createSchema().getType('JSON')).toBe(GraphQLJSON);
  });
});
