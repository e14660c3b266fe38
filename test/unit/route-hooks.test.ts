import express from 'express';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { withOperation } from '../../rest-facade/routes/derived-operations';
import { operationsSource } from '../../rest-facade';
import { createPipeline, type FacadeContext, type FacadeDeps } from '../../rest-facade/pipeline';
import { compileRoutes } from '../../rest-facade/routes/match';
import { PEOPLE_ROUTES } from '../../rest-facade/routes/people.routes';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { createSchema } from '../../src/app/schema';

/**
 * Per-route hooks extend the pipeline's default stages without a branch in it: the variables a
 * route sends and the reply it answers. Run here against the real route compiler and pipeline,
 * with the core replaced by a recorder (the routes using hooks are covered end to end elsewhere).
 */
describe('route hooks', () => {
  const schema = createSchema();
  const operations = parse(operationsSource(schema), { noLocation: true });
  const listPeople = withOperation(PEOPLE_ROUTES.find((r) => r.path === '/people' && r.method === 'GET')!);
  const showPerson = withOperation(PEOPLE_ROUTES.find((r) => r.path === '/people/:id' && r.method === 'GET')!);
  const sent: Array<Record<string, unknown>> = [];

  const routes: RouteSpec[] = [
    {
      ...listPeople,
      hooks: {
        variables: (variables, { query }) => ({ ...variables, withTotals: query.totals === 'true' }),
        reply: (reply, payload, { query }) =>
          query.totals === 'true'
            ? { ...reply, body: { ...(reply.body as object), totals: { count: (payload as { totalCount: number }).totalCount } } }
            : reply,
      },
    },
    {
      ...showPerson,
      hooks: {
        reply: (_reply, payload, { params }) => ({
          status: 200,
          raw: { contentType: 'text/plain; charset=utf-8', bytes: `person ${params.id}: ${(payload as { last_name: string }).last_name}` },
        }),
      },
    },
  ];

  const ctx: FacadeContext = { viewer: { timeZone: 'UTC', currency: { decimals: 2 } }, requestId: 'r1', rate: { limit: 10, remaining: 9, reset: 0 } };
  const deps: FacadeDeps<FacadeContext> = {
    schema,
    authenticate: async () => ctx,
    admit: async () => undefined,
    peekRate: async () => ({ limit: 10, remaining: 9, reset: 0 }),
    maxBodyBytes: 1024,
    run: async (op, variables) => {
      sent.push({ op, ...variables });
      if (op === 'ListPeople') return { data: { people: { nodes: [], totalCount: 7 } }, errors: [] };
      return { data: { person: { id: 3, last_name: 'Lovelace', custom_fields: [] } }, errors: [] };
    },
  };

  let base: string;
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    const pipeline = createPipeline(deps, compileRoutes(routes, schema, operations));
    app.use((req, res, next) => void pipeline(req, res).catch(next));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('a variables hook receives the default translation and the parsed query, and adds to it', async () => {
    const res = await fetch(`${base}/people.json?totals=true&per_page=5`);
    expect(res.status).toBe(200);
    expect(sent.at(-1)).toMatchObject({ op: 'ListPeople', perPage: 5, page: 1, withTotals: true });
    expect(await res.json()).toEqual({ entries: [], pagination: { page: 1, per_page: 5, total: 7, pages: 2, page_var: 'page' }, totals: { count: 7 } });
  });

  it('without the quirk the default reply goes through unchanged', async () => {
    const res = await fetch(`${base}/people.json`);
    expect(sent.at(-1)).toMatchObject({ withTotals: false });
    expect(Object.keys((await res.json()) as object)).toEqual(['entries', 'pagination']);
  });

  it('a reply hook may answer bytes instead of JSON, with its own content type', async () => {
    const res = await fetch(`${base}/people/3.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('person 3: Lovelace');
  });
});
