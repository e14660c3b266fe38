import { parse, validate } from 'graphql';
import { operationsSource, V3_ROUTES } from '../../rest-facade';
import { V3_ROUTE_DECLARATIONS } from '../../rest-facade/routes';
import { derivedOperationsSource, operationName } from '../../rest-facade/routes/derived-operations';
import type { RouteDeclaration } from '../../rest-facade/routes/route-spec';
import { createSchema } from '../../src/app/schema';

/**
 * A v3 route of the usual shape names no operation: the facade derives it from the route and the
 * schema (issue 23 §2). Only routes with a quirk name one written in operations/*.graphql.
 */
describe('v3 operations derived from the schema', () => {
  const schema = createSchema();
  const route = (method: string, path: string) => V3_ROUTE_DECLARATIONS.find((r) => r.method === method && r.path === path)!;
  const derive = (routes: readonly RouteDeclaration[], hand: readonly string[] = []) => derivedOperationsSource(schema, routes, new Set(hand));

  it('names each by convention: a list by its path, a nested list by its parent, the others by kind and root key', () => {
    expect(operationName(route('GET', '/companies'))).toBe('ListCompanies');
    expect(operationName(route('GET', '/deals/:id/people'))).toBe('DealPeople');
    expect(operationName(route('GET', '/notes/:noteId/comments'))).toBe('NoteComments');
    expect(operationName(route('GET', '/profile'))).toBe('ShowProfile');
    expect(operationName(route('DELETE', '/admin/lead_statuses/:id'))).toBe('DeleteLeadStatus');
    expect(operationName(route('GET', '/companies/:id'))).toBe('ShowCompany');
  });

  it('writes only the quirky routes by hand; every other route names none', () => {
    const named = V3_ROUTE_DECLARATIONS.filter((r) => r.op).map((r) => r.op);
    expect(named.sort()).toEqual(
      [
        'CalendarFeed',
        'ChangeFeed',
        'CompanyDeals',
        'CompanyNotes',
        'DealNotes',
        'ListDeals',
        'ListNotes',
        'ListSearches',
        'PersonDeals',
        'PersonNotes',
        'ShowCompany',
        'ShowNote',
      ].sort(),
    );
    expect(V3_ROUTES.every((r) => typeof r.op === 'string' && r.op.length > 0)).toBe(true);
  });

  it('passes what the pipeline fills, the parent of a nested list, enum arguments, and the ids a delete names', () => {
    const source = derive([
      route('GET', '/companies'),
      route('GET', '/companies/:id/people'),
      route('GET', '/admin/lead_statuses/:id'),
      route('DELETE', '/calendar_entries/:id'),
      route('GET', '/users'),
      route('PUT', '/companies/:id'),
    ]).split('\n');
    expect(source).toEqual([
      'query ListCompanies($filter: CompanyFilter, $orderBy: [CompanyOrder!], $page: Int, $perPage: Int, $searchId: Int) { companies(filter: $filter, orderBy: $orderBy, page: $page, perPage: $perPage, searchId: $searchId) { nodes { ...CompanyV3 } totalCount } }',
      expect.stringMatching(
        /^query CompanyPeople\(\$id: Int!, \$filter: PersonFilter, .*\) \{ parent: company\(id: \$id\) \{ databaseId \} people\(filter: \$filter, /,
      ),
      'query ShowLeadStatus($id: Int!) { listItem(id: $id, kind: LEAD_STATUS) { ...LeadStatusV3 } }',
      // A versioned record's delete: the version a matching If-Match names.
      'mutation DeleteCalendarEntry($expectedVersion: Int, $id: Int!) { deleteCalendarEntry(expectedVersion: $expectedVersion, id: $id) { deletedDatabaseId affectedDatabaseIds userErrors { ...UserErrorV3 } } }',
      // No conditions, no sort: neither filter nor orderBy.
      'query ListUsers($page: Int, $perPage: Int) { users(page: $page, perPage: $perPage) { nodes { ...UserV3 } totalCount } }',
      expect.stringMatching(
        /^mutation UpdateCompany\(\$expectedVersion: Int, \$id: Int!, \$input: CompanyUpdateInput!, \$options: CompanyUpdateOptions\) \{ updateCompany\(.*\) \{ company \{ \.\.\.CompanyV3 \} userErrors \{ \.\.\.UserErrorV3 \} \} \}$/,
      ),
    ]);
  });

  it('the served documents validate against the schema, each route finding its operation', () => {
    const document = parse(operationsSource(schema));
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const names = new Set(document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' && d.name ? [d.name.value] : [])));
    expect(V3_ROUTES.filter((r) => !names.has(r.op)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  describe('stop the boot, naming the route', () => {
    it('when a route derives a name an operation written by hand has', () => {
      expect(() => derive([route('GET', '/companies')], ['ListCompanies'])).toThrow(
        "GET /companies: derives ListCompanies, which operations/*.graphql also writes (name it in the route's op, or delete the written one)",
      );
    });

    it('when its result names no field of the schema', () => {
      const typo = { ...route('GET', '/companies/:id'), op: undefined, result: 'compnay' };
      expect(() => derive([typo])).toThrow("GET /companies/:id: derives ShowCompany, but Query has no field compnay (name the route's own operation in op)");
    });

    it("when a nested list's parent is no query", () => {
      const orphan = { ...route('GET', '/deals/:id/people'), pathFilters: { id: 'widgetIds' } };
      expect(() => derive([orphan])).toThrow('GET /deals/:id/people: its path filter names the parent widget, which Query does not have');
    });

    it('when two routes derive different operations under one name', () => {
      const other = { ...route('GET', '/companies'), path: '/admin/companies', conditions: undefined, queryFilters: undefined };
      expect(() => derive([route('GET', '/companies'), other])).toThrow(
        'GET /admin/companies: derives ListCompanies, as GET /companies does, but another operation',
      );
    });
  });
});
