import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { openApiDocument, type OpenApiDocument } from '../../rest-facade';
import type { Operation } from '../../rest-facade/openapi/document';
import type { Parameter } from '../../rest-facade/openapi/parameters';
import type { JsonSchema } from '../../rest-facade/openapi/json-schema';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { createSchema } from '../../src/app/schema';
import { Visibility } from '../../src/modules/users/user.entity';
import { FIXTURES, sampleRoute } from '../support/fixtures';
import { AnswerChecker, arbitraryOf, formBody, queryPairs, resolveRef, wrongValuesOf, type Answer } from '../support/openapi-tester';
import { startTestServer, type TestServer } from '../support/test-server';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * Every operation of the v3 OpenAPI document (rest-facade/openapi/), driven against the running
 * service with inputs made from the document itself: valid ones (fast-check arbitraries of its
 * parameter and body schemas, its examples, and the fixture's known-good attributes on real
 * records) and invalid ones (wrong types, out-of-range paging, unknown conditions, malformed
 * bodies, missing keys). Each answer must be documented (status, media type, headers) and match its
 * schema (ajv), and none may be a 5xx. A route added later is driven by adding nothing: its
 * operation comes from the document, its records from the route table's fixtures.
 *
 * Runs a few inputs an operation (OPENAPI_FUZZ_RUNS, default 3) from a fixed seed (OPENAPI_FUZZ_SEED),
 * so that a failure names the seed that reproduces it.
 */

const RUNS = Number(process.env.OPENAPI_FUZZ_RUNS ?? 3);
const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 25);

type Doc = OpenApiDocument & Record<string, any>;

/** `METHOD path status` → how many answers. */
const STATUSES = new Map<string, number>();
const doc = openApiDocument(createSchema()) as Doc;

interface DrivenOperation {
  readonly label: string;
  readonly path: string;
  readonly method: string;
  readonly operation: Operation;
  readonly route: RouteSpec | null;
  readonly index: number;
}

const OPERATIONS: DrivenOperation[] = Object.entries(doc.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const declared = operation['x-crm-route'];
      const route = declared ? (SERVED_ROUTES.find((r) => r.method === declared.method && r.path === declared.path) ?? null) : null;
      return { label: `${method.toUpperCase()} ${path}`, path, method, operation, route, index: 0 };
    }),
  )
  .map((o, index) => ({ ...o, index }));

/** One request, as the document describes its parts. */
interface Call {
  /** Path parameters by name (ids of real records, or what an invalid case puts there). */
  readonly params: Readonly<Record<string, string>>;
  readonly query?: ReadonlyArray<[string, string]>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: { readonly contentType: string; readonly text: string };
  /** The key; null for none. */
  readonly key: string | null;
  /** Whether `attrs` was sent (records then carry only some keys). */
  readonly attrs?: boolean;
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

function encodeBody(contentType: string, body: unknown): { contentType: string; text: string } {
  return contentType === FORM_TYPE ? { contentType, text: formBody(body as Record<string, unknown>) } : { contentType, text: JSON.stringify(body) };
}

describe('the v3 surface, driven by its OpenAPI document', () => {
  let server: TestServer;
  let admin: string;
  let restricted: string;
  let checker: AnswerChecker;

  beforeAll(async () => {
    server = await startTestServer();
    await useNewAccount();
    checker = new AnswerChecker(doc);
  }, 60_000);

  /**
   * Each operation runs in an account of its own: generated writes change account-wide settings
   * (a custom field made required refuses every later create without it, a deal stage renamed, a
   * template applied), which must not decide what another operation answers.
   */
  async function useNewAccount(): Promise<void> {
    const account = await server.createAccount();
    admin = account.admin.apiKey;
    restricted = (await account.addUser({ isAdmin: false, visibility: Visibility.OWN })).apiKey;
  }
  afterAll(async () => {
    await server.close();
    // OPENAPI_DRIVEN_STATS=file: what each operation answered, for a look at what the inputs reached.
    if (process.env.OPENAPI_DRIVEN_STATS) writeFileSync(process.env.OPENAPI_DRIVEN_STATS, JSON.stringify(Object.fromEntries(STATUSES), null, 1));
  });

  async function send(op: DrivenOperation, call: Call): Promise<Answer> {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params[name] ?? '1'));
    const query = new URLSearchParams(call.query as Array<[string, string]> | undefined);
    if (call.key !== null) query.set('api_key', call.key);
    const headers: Record<string, string> = { ...call.headers };
    if (call.body) headers['content-type'] = call.body.contentType;
    const qs = query.toString();
    const res = await fetch(`${server.url}/api/v3${path}${qs ? `?${qs}` : ''}`, { method: op.method.toUpperCase(), headers, body: call.body?.text });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Sends `call` and answers what is wrong with the answer, each problem naming the case. */
  async function probe(op: DrivenOperation, name: string, call: Call): Promise<{ answer: Answer; problems: string[] }> {
    const answer = await send(op, call);
    STATUSES.set(`${op.label} ${answer.status}`, (STATUSES.get(`${op.label} ${answer.status}`) ?? 0) + 1);
    // An `attrs` selection (however it is spelled) answers only some keys of each record.
    const attrs = call.attrs || (call.query ?? []).some(([key]) => key === 'attrs' || key.startsWith('attrs['));
    const problems = checker.check(op.path, op.method, answer, { partialRecords: attrs }).map((p) => `${op.label} [${name}]: ${p}`);
    return { answer, problems };
  }

  /** Path parameters of a real record for the operation (made by the route table's fixtures), by name. */
  async function sample(op: DrivenOperation, key = admin): Promise<Record<string, string>> {
    if (!op.route) return {};
    // A list then holds a record, and a create's fixture attributes name the records made for it.
    const made = await sampleRoute(server, key, op.route, SERVED_ROUTES);
    const pattern = new RegExp(`^/api/v3${op.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}(?:\\.json)?$`);
    const match = pattern.exec(made.path);
    if (!match) throw new Error(`${op.label}: the sample path ${made.path} does not fit the document's path`);
    return { ...match.groups };
  }

  const queryParameters = (op: DrivenOperation) => op.operation.parameters.filter((p) => p.in === 'query');
  const headerParameters = (op: DrivenOperation) => op.operation.parameters.filter((p) => p.in === 'header');
  const bodyMedia = (op: DrivenOperation) => Object.entries(op.operation.requestBody?.content ?? {});

  /** A valid request's parts: each query parameter present half the time, the body in one of its media types. */
  function validRequest(
    op: DrivenOperation,
  ): fc.Arbitrary<{ query: Record<string, unknown>; headers: Record<string, unknown>; media: string | null; body: unknown }> {
    const optional = (p: Parameter) => fc.option(arbitraryOf(doc, p.schema), { nil: undefined, freq: 2 });
    const media = bodyMedia(op);
    return fc.record({
      query: fc.record(Object.fromEntries(queryParameters(op).map((p) => [p.name, optional(p)]))),
      headers: fc.record(Object.fromEntries(headerParameters(op).map((p) => [p.name, optional(p)]))),
      media: media.length > 0 ? fc.constantFrom(...media.map(([type]) => type)) : fc.constant(null),
      body: media.length > 0 ? arbitraryOf(doc, media[0][1].schema as JsonSchema) : fc.constant(undefined),
    });
  }

  function toCall(
    op: DrivenOperation,
    params: Record<string, string>,
    key: string | null,
    parts: { query: Record<string, unknown>; headers?: Record<string, unknown>; media: string | null; body: unknown },
  ): Call {
    const query: Array<[string, string]> = [];
    for (const p of queryParameters(op)) if (parts.query[p.name] !== undefined) query.push(...queryPairs(p, parts.query[p.name]));
    // A header carries visible ASCII only (HTTP field values; fetch refuses the rest).
    const headers = Object.fromEntries(
      Object.entries(parts.headers ?? {}).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v).replace(/[^\x20-\x7e]/g, '')]])),
    );
    return {
      params,
      key,
      query,
      headers,
      attrs: parts.query.attrs !== undefined,
      ...(parts.media && parts.body !== undefined ? { body: encodeBody(parts.media, parts.body) } : {}),
    };
  }

  /** The route table's known-good body for a create or update (test/support/fixtures.ts). */
  function fixtureBody(op: DrivenOperation): unknown {
    const attrs = op.route ? FIXTURES[op.route.resource.root]?.v3Attrs : undefined;
    return op.route && (op.route.kind === 'create' || op.route.kind === 'update') ? { [op.route.resource.root]: attrs ? attrs() : {} } : undefined;
  }

  const deletes = (op: DrivenOperation) => op.method === 'delete';
  /** 400 and 413 say a request could not be read: a valid one never gets them (but where 400 is the route's validation answer). */
  const unreadable = (op: DrivenOperation, answer: Answer) =>
    answer.status === 413 || (answer.status === 400 && op.route?.errorShape !== 'error-object')
      ? [`${op.label}: a valid request answered ${answer.status}: ${answer.text.slice(0, 200)}`]
      : [];

  describe.each(OPERATIONS.map((o) => [o.label, o] as const))('%s', (_, op) => {
    beforeAll(useNewAccount);

    it('valid inputs (the fixture’s, the document’s example, generated ones) get documented answers; the fixture’s succeeds', async () => {
      const problems: string[] = [];
      const params = await sample(op);
      const media = bodyMedia(op);

      // The known-good request, on a real record: a 200.
      const known = await probe(op, 'fixture', { params, key: admin, ...(media.length > 0 ? { body: encodeBody(JSON_TYPE, fixtureBody(op)) } : {}) });
      problems.push(...known.problems);
      if (known.answer.status !== 200) problems.push(`${op.label} [fixture]: answered ${known.answer.status}, not 200: ${known.answer.text.slice(0, 300)}`);

      // The same as a form, and the document's examples.
      if (media.length > 0) {
        const form = await probe(op, 'fixture as a form', {
          params: deletes(op) ? await sample(op) : params,
          key: admin,
          body: encodeBody(FORM_TYPE, fixtureBody(op)),
        });
        problems.push(...form.problems, ...unreadable(op, form.answer));
      }
      const examples = Object.fromEntries(op.operation.parameters.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, p.example]));
      const example = media.find(([type]) => type === JSON_TYPE)?.[1].example;
      const exampleCall = toCall(op, deletes(op) ? await sample(op) : params, admin, {
        query: examples,
        media: example === undefined ? null : JSON_TYPE,
        body: example,
      });
      const fromExample = await probe(op, 'examples', exampleCall);
      problems.push(...fromExample.problems, ...unreadable(op, fromExample.answer));

      // Generated from the schemas.
      const generated = fc.sample(validRequest(op), { numRuns: RUNS, seed: SEED + op.index });
      for (const [i, parts] of generated.entries()) {
        const call = toCall(op, deletes(op) ? await sample(op) : params, admin, parts);
        const { answer, problems: found } = await probe(op, `generated #${i} (seed ${SEED + op.index})`, call);
        problems.push(
          ...found,
          ...unreadable(op, answer).map((p) => `${p} [query ${new URLSearchParams(call.query as [string, string][]).toString().slice(0, 300)}]`),
        );
      }

      // Another user of the account, who is no administrator and sees their own records only.
      const other = await probe(op, 'restricted user', {
        params: deletes(op) ? await sample(op) : params,
        key: restricted,
        ...(media.length > 0 ? { body: encodeBody(JSON_TYPE, fixtureBody(op)) } : {}),
      });
      problems.push(...other.problems);
      expect(problems).toEqual([]);
    });

    it('invalid inputs (wrong types, bad ids and paging, unknown conditions, malformed bodies, no key) get documented answers, never a 5xx', async () => {
      const problems: string[] = [];
      const params = await sample(op);
      const media = bodyMedia(op);
      const base = (extra: Partial<Call>): Call => ({
        params,
        key: admin,
        ...(media.length > 0 ? { body: encodeBody(JSON_TYPE, fixtureBody(op)) } : {}),
        ...extra,
      });
      const cases: Array<[string, Call]> = [];

      // Keys.
      if (op.operation.security?.length !== 0) {
        cases.push(
          ['no key', base({ key: null })],
          ['unknown key', base({ key: 'f'.repeat(64) })],
          ['unknown app_key', base({ query: [['app_key', 'a'.repeat(64)]] })],
        );
      }
      // Path ids that are no record's.
      const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const last = pathNames.at(-1);
      if (last) for (const bad of ['0', 'abc', '2000000000', '1.5']) cases.push([`${last}=${bad}`, base({ params: { ...params, [last]: bad } })]);
      // Query parameters: values of the wrong type, and beyond their bounds.
      for (const p of queryParameters(op).slice(0, 8)) {
        const schema = resolveRef<JsonSchema>(doc, p.schema);
        const values: unknown[] = wrongValuesOf(doc, schema).slice(0, 2);
        if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
        if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
        for (const value of values) cases.push([`${p.name}=${JSON.stringify(value)}`, base({ query: queryPairs(p, value) })]);
        // A deepObject's unknown key, and wrong values of a few of its own.
        if (p.style === 'deepObject' && schema.type === 'object') {
          cases.push([`${p.name}[no_such_key]`, base({ query: [[`${p.name}[no_such_key]`, '1']] })]);
          cases.push([`${p.name}[custom_label_x]`, base({ query: [[`${p.name}[custom_label_x]`, '1']] })]);
          for (const [key, inner] of Object.entries(schema.properties ?? {}).slice(0, 4))
            for (const value of wrongValuesOf(doc, inner).slice(0, 1))
              cases.push([`${p.name}[${key}]=${JSON.stringify(value)}`, base({ query: queryPairs(p, { [key]: value }) })]);
        }
      }
      // Parameters whose names conflict (Rack: a 400), and too many of them.
      cases.push([
        'conflicting names',
        base({
          query: [
            ['attrs', 'id'],
            ['attrs[x]', 'y'],
          ],
        }),
      ]);
      cases.push(['too many parameters', base({ query: Array.from({ length: 1100 }, (_, i) => [`p${i}`, '1'] as [string, string]) })]);
      // Bodies.
      if (media.length > 0 && op.route) {
        const root = op.route.resource.root;
        cases.push(
          ['JSON that does not parse', base({ body: { contentType: JSON_TYPE, text: `{"${root}": ` } })],
          ['a JSON array', base({ body: { contentType: JSON_TYPE, text: '[1, 2]' } })],
          ['a root that is no object', base({ body: { contentType: JSON_TYPE, text: JSON.stringify({ [root]: 5 }) } })],
          ['conflicting form names', base({ body: { contentType: FORM_TYPE, text: `${root}[a]=1&${root}[a][b]=2` } })],
          ['nested too deeply', base({ body: { contentType: FORM_TYPE, text: `${root}[a][b][c][d][e][f][g]=1` } })],
          ['unknown attributes only', base({ body: encodeBody(JSON_TYPE, { [root]: { no_such_attribute: 1 } }) })],
          ['an empty body', base({ body: { contentType: JSON_TYPE, text: '' } })],
        );
        const attributes = resolveRef<JsonSchema>(doc, (media[0][1].schema as JsonSchema).properties?.[root] ?? {});
        const input = attributes.allOf ? resolveRef<JsonSchema>(doc, attributes.allOf[0]) : attributes;
        for (const [key, schema] of Object.entries(input.properties ?? {}).slice(0, 6))
          for (const value of wrongValuesOf(doc, schema).slice(0, 2))
            cases.push([`${root}[${key}]=${JSON.stringify(value)}`, base({ body: encodeBody(JSON_TYPE, { [root]: { [key]: value } }) })]);
      }
      for (const [name, call] of cases) {
        const fresh =
          deletes(op) && name !== 'no key' && name !== 'unknown key' ? { ...call, params: call.params === params ? await sample(op) : call.params } : call;
        problems.push(...(await probe(op, name, fresh)).problems);
      }
      expect(problems).toEqual([]);
    });
  });

  it('serves the document without a key, takes no rate token for it, and answers a known ETag with a 304', async () => {
    const res = await fetch(`${server.url}/api/v3/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
    // With a key it is still not the pipeline's: no rate headers, no token taken.
    const keyed = await fetch(`${server.url}/api/v3/openapi.json?api_key=${admin}`);
    expect(keyed.headers.get('x-ratelimit-remaining')).toBeNull();
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/api/v3/openapi.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('the v3 surface, driven by its OpenAPI document, once the caller’s bucket is spent', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_SECOND: '0.01', RATE_LIMIT_BURST: '1' });
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server.close());

  it('answers every operation its documented 429, with Retry-After and the rate headers', async () => {
    const checker = new AnswerChecker(doc);
    const problems: string[] = [];
    await fetch(`${server.url}/api/v3/profile.json?api_key=${key}`);
    for (const op of OPERATIONS.filter((o) => o.route)) {
      const path = op.path.replace(/\{\w+\}/g, '1');
      const res = await fetch(`${server.url}/api/v3${path}?api_key=${key}`, { method: op.method.toUpperCase() });
      const answer = { status: res.status, headers: res.headers, text: await res.text() };
      if (answer.status !== 429) problems.push(`${op.label}: answered ${answer.status}, not 429`);
      problems.push(...checker.check(op.path, op.method, answer).map((p) => `${op.label}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});
