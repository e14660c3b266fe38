import { buildSchema, parse } from 'graphql';
import { createSchema } from '../../src/app/schema';
import { ForbiddenError, ScopeMissingError } from '../../src/common/errors';
import { checkScopes, grants, knownScopes, mayReadType, requiredScopes, undeclaredScopes } from '../../src/graphql/scopes';

/** The scopes of scoped API keys (src/graphql/scopes.ts, docs/api-keys.md), read off the real schema. */
describe('API key scopes', () => {
  const schema = createSchema();
  const need = (source: string, name?: string) => requiredScopes(schema, parse(source), name);

  it('derives the scopes from the declarations: each resource read and write, and admin', () => {
    const known = knownScopes();
    for (const resource of ['deals', 'people', 'companies', 'notes', 'comments', 'calendar_entries', 'documents', 'conversations', 'account_notifications'])
      expect(known).toEqual(expect.arrayContaining([`${resource}:read`, `${resource}:write`]));
    expect(known).toContain('admin');
    // Settings are read by every key: no scope of their own.
    expect(known).not.toContain('deal_stages:read');
  });

  it('needs the root field’s scope and that of every record type selected, nested or through fragments', () => {
    expect(need('{ deals { nodes { name } } }')).toEqual({ scopes: ['deals:read'], undeclared: [] });
    expect(need('{ deal(id: 1) { name company { name } } }').scopes).toEqual(['companies:read', 'deals:read']);
    expect(need('query { deals { nodes { ...D } } } fragment D on Deal { people(first: 2) { nodes { firstName } } }').scopes).toEqual([
      'deals:read',
      'people:read',
    ]);
    expect(need('mutation { createDeal(input: { name: "x" }) { deal { databaseId } userErrors { message } } }').scopes).toEqual(['deals:read', 'deals:write']);
    expect(need('mutation { createDeal(input: { name: "x" }) { userErrors { message } } }').scopes).toEqual(['deals:write']);
    // node(id:) is open; what is selected on a type needs that type's scope.
    expect(need('{ node(id: "x") { ... on Company { name } } }').scopes).toEqual(['companies:read']);
    // Selected on the interface itself: every record type it may be.
    expect(need('{ node(id: "x") { id } }').scopes).toEqual(expect.arrayContaining(['deals:read', 'people:read', 'documents:read']));
    // Settings and the viewer: nothing.
    expect(need('{ viewer { databaseId } dealStages { nodes { name } } }').scopes).toEqual([]);
    expect(need('{ __typename }').scopes).toEqual([]);
    // The operation named, not the others of the document.
    expect(need('query A { deals { nodes { name } } } query B { people { nodes { firstName } } }', 'B').scopes).toEqual(['people:read']);
  });

  it('refuses what the scopes lack, naming the first missing scope; write implies read; a full key passes', () => {
    const requirement = need('{ deal(id: 1) { company { name } } }');
    expect(() => checkScopes(null, requirement)).not.toThrow();
    expect(() => checkScopes(['deals:read', 'companies:write'], requirement)).not.toThrow();
    expect(() => checkScopes(['deals:read'], requirement)).toThrow(new ScopeMissingError('companies:read'));
    expect(() => checkScopes(['deals:read'], requirement)).toThrow('This API key lacks the scope companies:read');
    expect(() => checkScopes(['deals:write'], { scopes: [], undeclared: ['Query.secret'] })).toThrow(ForbiddenError);
    expect(grants(['deals:write'], 'deals:read')).toBe(true);
    expect(grants(['deals:read'], 'deals:write')).toBe(false);
    expect(grants(['admin'], 'deals:read')).toBe(false);
    expect(mayReadType(['deals:read'], 'Deal')).toBe(true);
    expect(mayReadType(['deals:read'], 'Person')).toBe(false);
    expect(mayReadType(['deals:read'], 'NoSuchType')).toBe(false);
    expect(mayReadType(null, 'NoSuchType')).toBe(true);
  });

  it('the real schema declares every scope; an undeclared root field or record is found', () => {
    expect(undeclaredScopes(schema)).toEqual([]);
    const bare = buildSchema(
      'interface Node { id: ID! } type Widget implements Node { id: ID! } type Query { widgets: [Widget!]! } type Mutation { makeWidget: Widget }',
    );
    expect(undeclaredScopes(bare)).toEqual(['Query.widgets', 'Mutation.makeWidget', 'Widget']);
    expect(requiredScopes(bare, parse('{ widgets { id } }'), undefined).undeclared).toEqual(['Query.widgets']);
  });
});
