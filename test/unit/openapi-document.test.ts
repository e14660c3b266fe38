import { validate } from '@readme/openapi-parser';
import { openApiDocument, type OpenApiDocument } from '../../rest-facade';
import { documentPath, type Operation } from '../../rest-facade/openapi/document';
import { SPEC_ROUTES } from '../../rest-facade/openapi/origins';
import { createSchema } from '../../src/app/schema';
import { AnswerChecker, pointer, resolveRef } from '../support/openapi-tester';
import { SERVED_ROUTES } from '../support/v3-routes';

/**
 * The OpenAPI document of the v3 surface (rest-facade/openapi/, docs/openapi.md): valid OpenAPI 3.1
 * by a maintained validator, one operation per route of the table, and what the facade declares
 * shown where a client reads it. test/contract/openapi-driven.test.ts holds it to the running service.
 */

const doc: OpenApiDocument = openApiDocument(createSchema());

type AnyOperation = Operation & Record<string, any>;
const op = (path: string, method: string): AnyOperation => {
  const found = doc.paths[path]?.[method] as AnyOperation | undefined;
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
};
const param = (operation: AnyOperation, name: string) => operation.parameters.find((p) => p.name === name) as any;
const resolve = (ref: any): any => resolveRef(doc as any, ref);

describe('the v3 OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(doc) as any);
    expect({ valid: result.valid, errors: result.valid ? [] : result.errors.map((e) => e.message) }).toEqual({ valid: true, errors: [] });
    expect(result.specification).toBe('OpenAPI');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api/v3' })]);
  });

  it('has every route of the table exactly once, as clients call it (.json), and nothing else but itself', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = SERVED_ROUTES.map((r) => `${r.method} ${documentPath(r.path)}`);
    expect(new Set(expected).size).toBe(SERVED_ROUTES.length);
    expect(documented.sort()).toEqual([...expected, 'GET /openapi.json'].sort());
    for (const route of SERVED_ROUTES) {
      const operation = op(documentPath(route.path), route.method.toLowerCase());
      expect(operation['x-crm-route']).toEqual({
        method: route.method,
        path: route.path,
        kind: route.kind,
        resource: route.resource.root,
        operation: route.op,
      });
    }
    expect(documentPath('/deals/:id/people')).toBe('/deals/{id}/people.json');
    expect(documentPath('/calendar_entries.ics')).toBe('/calendar_entries.ics');
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks each route spec, decisions or addition, with a tag for the latter two', () => {
    const origin = (path: string, method = 'get') => [op(path, method)['x-crm-origin'], op(path, method).tags.slice(1)];
    expect(origin('/deals.json')).toEqual(['spec', []]);
    expect(origin('/notes/{noteId}/comments/{id}.json', 'put')).toEqual(['spec', []]);
    expect(origin('/changes.json')).toEqual(['addition', ['Beyond the spec: additions']]);
    expect(origin('/admin/webhooks.json', 'post')).toEqual(['addition', ['Beyond the spec: additions']]);
    expect(origin('/calendar_entries.ics')).toEqual(['addition', ['Beyond the spec: additions']]);
    expect(origin('/admin/deal_stages.json')).toEqual(['decisions', ['Beyond the spec: DECISIONS']]);
    expect(origin('/admin/deal_custom_field_labels/{id}.json', 'put')).toEqual(['decisions', ['Beyond the spec: DECISIONS']]);
    expect(origin('/admin/lead_statuses.json')).toEqual(['spec', []]);
    expect(origin('/admin/lead_statuses.json', 'post')).toEqual(['decisions', ['Beyond the spec: DECISIONS']]);
    expect(origin('/account.json')).toEqual(['decisions', ['Beyond the spec: DECISIONS']]);
    // The spec's list, transcribed once, names routes the table has.
    const served = new Set(SERVED_ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(SPEC_ROUTES).filter((r) => !served.has(r))).toEqual([]);
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const methods of Object.values(doc.paths)) for (const o of Object.values(methods)) for (const tag of o.tags) expect(tags).toContain(tag);
  });

  it('lists the query parameters a list reads: conditions as a deepObject, paging with its bounds, sort, search_id, attrs, its hooks’', () => {
    const deals = op('/deals.json', 'get');
    const names = deals.parameters.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['conditions', 'page', 'per_page', 'sort', 'search_id', 'attrs', 'totals', 'user_id', 'company_id', 'person_id']),
    );
    expect(param(deals, 'conditions')).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    const conditions = resolve(param(deals, 'conditions').schema);
    expect(Object.keys(conditions.properties)).toEqual(expect.arrayContaining(['deal_name', 'deal_owner', 'deal_created', 'deal_value', 'person_full_name']));
    expect(conditions.properties.deal_created.properties).toEqual({ from_date: expect.any(Object), to_date: expect.any(Object) });
    expect(Object.keys(conditions.patternProperties)).toEqual(['^custom_label_[1-9][0-9]{0,9}$']);
    expect(param(deals, 'per_page').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 200 });
    expect(param(op('/people.json', 'get'), 'per_page').schema).toMatchObject({ maximum: 100, default: 30 });
    expect(param(op('/notes.json', 'get'), 'per_page').schema).toMatchObject({ maximum: 100, default: 5 });
    expect(param(deals, 'page').schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(param(deals, 'sort')).toMatchObject({ style: 'form', explode: false });
    expect(param(deals, 'sort').schema['x-crm-sort-keys']).toEqual(expect.arrayContaining(['name', 'created_at', 'user_id']));
    expect(new RegExp(param(deals, 'sort').schema.items.pattern).test('-deals.created_at')).toBe(true);
    expect(new RegExp(param(deals, 'sort').schema.items.pattern).test('people.last_name')).toBe(false);
    expect(param(deals, 'attrs').schema.items.enum).toEqual(expect.arrayContaining(['id', 'name', 'value', 'custom_fields']));
    // The feed reads a cursor and per_page, no pages; a list answering one page takes no paging.
    expect(op('/changes.json', 'get').parameters.map((p) => p.name)).toEqual(['since', 'per_page', 'If-None-Match', 'attrs']);
    expect(op('/admin/webhooks.json', 'get').parameters.map((p) => p.name)).toEqual(['If-None-Match', 'attrs']);
    // Path ids, and flags in the query.
    expect(param(op('/deals/{id}.json', 'get'), 'id')).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
    expect(op('/people.json', 'post').parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['check_for_duplicates', 'deliver_assignment_email', 'todo_template_id', 'todo_template_user_id']),
    );
    expect(param(op('/companies/{id}.json', 'get'), 'associations')).toMatchObject({ in: 'query' });
    expect(param(op('/searches.json', 'get'), 'search_type')).toMatchObject({ in: 'query' });
  });

  it('takes a create’s and an update’s body as JSON and as a form, under the root key, with what is required', () => {
    const post = op('/deals.json', 'post');
    expect(Object.keys(post.requestBody!.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const form = post.requestBody!.content['application/x-www-form-urlencoded'];
    expect(form.encoding).toEqual({ deal: { style: 'deepObject', explode: true } });
    const body = post.requestBody!.content['application/json'].schema as any;
    expect(body.required).toEqual(['deal']);
    expect(body.properties.deal.allOf).toEqual([{ $ref: '#/components/schemas/DealInput' }, { required: ['name'] }]);
    expect(Object.keys(body.properties)).toEqual(['deal', 'todo_template_id', 'todo_template_user_id']);
    const input = doc.components.schemas.DealInput as any;
    expect(Object.keys(input.properties)).toEqual(expect.arrayContaining(['name', 'value', 'person_ids', 'custom_fields', 'deal_stage_id']));
    // Read-only keys are not inputs.
    for (const key of ['id', 'user', 'company', 'currency', 'people']) expect(input.properties[key]).toBeUndefined();
    expect(op('/deals/{id}.json', 'put').requestBody!.required).toBe(false);
    // Attributes read outside the table: a document's write-only url, a conversation's sentence.
    expect((doc.components.schemas.DocumentInput as any).properties.url).toMatchObject({ type: ['string', 'null'] });
    expect(
      (op('/conversations/{id}.json', 'put').requestBody!.content['application/json'].schema as any).properties.conversation.properties.sentence,
    ).toBeDefined();
    // A per-resource label route fixes the label's resource itself: `type` is not required there.
    const labels = op('/admin/deal_custom_field_labels.json', 'post').requestBody!.content['application/json'].schema as any;
    expect(labels.properties.deal_custom_field_label.allOf[1].required).toEqual(['name', 'field_type']);
  });

  it('answers records with their v3 formats and convenience objects, lists in the envelope, deletes per route', () => {
    const deal = doc.components.schemas.Deal as any;
    expect(deal['x-crm-record']).toBe('deal');
    expect(deal.properties.created_at.pattern).toBe('^\\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4}$');
    expect(deal.properties.expected_close_date.pattern).toBe('^\\d{4}/\\d{2}/\\d{2}$');
    expect(deal.properties.value).toMatchObject({ type: ['string', 'null'], pattern: expect.any(String) });
    expect(deal.properties.user.properties).toEqual({
      id: expect.any(Object),
      first_name: expect.any(Object),
      last_name: expect.any(Object),
      full_name: expect.any(Object),
    });
    expect(deal.properties.user.readOnly).toBe(true);
    expect(deal.properties.name.readOnly).toBeUndefined();
    expect(deal.properties.collaborators.items.properties.api_key).toMatchObject({ type: 'null' });
    expect(deal.required).toEqual(Object.keys(deal.properties));
    // What GraphQL deprecates is deprecated here (v3 §9: value_in_cents, in favour of value).
    const deprecated = (schema: any) => Object.keys(schema.properties).filter((k) => schema.properties[k].deprecated);
    expect(deprecated(deal)).toContain('value_in_cents');
    const person = doc.components.schemas.Person as any;
    expect(person.properties.type.enum).toEqual(expect.arrayContaining(['Contact', 'Lead']));
    const list = resolve(op('/deals.json', 'get').responses['200']).content['application/json'].schema;
    expect(list.required).toEqual(['entries', 'pagination']);
    expect(list.properties.entries.items).toEqual({ $ref: '#/components/schemas/Deal' });
    expect(list.properties.totals).toMatchObject({ type: 'object' });
    expect(resolve(list.properties.pagination).required).toEqual(['page', 'per_page', 'total', 'pages', 'page_var']);
    expect(doc.components.schemas.Note.properties!.comments).toMatchObject({ properties: { entries: { items: { $ref: '#/components/schemas/Comment' } } } });
    const feed = resolve(op('/changes.json', 'get').responses['200']).content['application/json'].schema;
    expect(resolve(feed.properties.pagination).required).toEqual(['per_page', 'next_cursor', 'has_more']);
    expect(resolve(op('/deals/{id}.json', 'delete').responses['200']).content).toBeUndefined();
    expect(resolve(op('/calendar_entries/{id}.json', 'delete').responses['200']).content['application/json'].schema).toMatchObject({
      type: 'array',
      items: { type: 'integer' },
    });
    expect(resolve(op('/account_notifications/{id}.json', 'delete').responses['200']).content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AccountNotification',
    });
    expect(resolve(op('/admin/webhooks/{id}.json', 'delete').responses['200']).content['application/json'].schema).toEqual({ type: 'null' });
    expect(resolve(op('/admin/webhooks.json', 'get').responses['200']).content['application/json'].schema.required).toEqual(['webhooks']);
    expect(Object.keys(resolve(op('/calendar_entries.ics', 'get').responses['200']).content)).toEqual(['text/calendar']);
    expect(op('/calendar_entries.ics', 'get').responses['304']).toBeDefined();
    // Every key of a function `show` says what it answers (a field table's `shape`).
    const undeclared = Object.entries(doc.components.schemas).flatMap(([name, s]) =>
      Object.entries(s.properties ?? {})
        .filter(([, p]) => p['x-crm-undeclared'])
        .map(([key]) => `${name}.${key}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('documents the error shapes per route, 401 and 429 with Retry-After, the rate headers on every response', () => {
    const errorsOf = (path: string, method: string) => op(path, method).responses;
    expect(resolve(errorsOf('/deals.json', 'post')['422']).content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationErrors' });
    expect(resolve(errorsOf('/notes.json', 'post')['422']).content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WrappedValidationErrors',
    });
    expect(errorsOf('/account_notifications.json', 'post')['422']).toBeUndefined();
    expect(resolve(errorsOf('/account_notifications.json', 'post')['400']).content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(resolve(errorsOf('/account_notifications/{id}.json', 'get')['404']).content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(resolve(errorsOf('/deals/{id}.json', 'get')['404']).content).toBeUndefined();
    expect(errorsOf('/admin/deal_stages.json', 'post')['403']).toBeDefined();
    expect(errorsOf('/changes.json', 'get')['410']).toBeDefined();
    const tooMany = resolve(errorsOf('/deals.json', 'get')['429']);
    expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-Ratelimit-Limit', 'X-Ratelimit-Remaining', 'X-Ratelimit-Reset']));
    expect(resolve(tooMany.headers['Retry-After'])).toMatchObject({ required: true, schema: { type: 'integer' } });
    expect(resolve(errorsOf('/deals.json', 'get')['401']).content['application/json'].example).toEqual({ error: 'Unknown api_key' });
    for (const route of SERVED_ROUTES) {
      const responses = op(documentPath(route.path), route.method.toLowerCase()).responses;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '401', '429', '500']));
      for (const [status, response] of Object.entries(responses))
        if (status !== '304')
          expect({ route: `${route.method} ${route.path}`, status, headers: Object.keys(resolve(response).headers ?? {}) }).toEqual({
            route: `${route.method} ${route.path}`,
            status,
            headers: expect.arrayContaining(['X-Ratelimit-Limit', 'X-Ratelimit-Remaining', 'X-Ratelimit-Reset', 'X-Request-Id']),
          });
    }
  });

  it('offers api_key and app_key in the query, and the key as a bearer token or X-Api-Key; the document itself needs none', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      api_key: { type: 'apiKey', in: 'query', name: 'api_key' },
      app_key: { type: 'apiKey', in: 'query', name: 'app_key' },
      bearer: { type: 'http', scheme: 'bearer' },
      x_api_key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
    expect(doc.security).toEqual(expect.arrayContaining([{ api_key: [] }, { api_key: [], app_key: [] }, { bearer: [] }]));
    expect(op('/openapi.json', 'get').security).toEqual([]);
  });

  it('gives examples that its own schemas accept', () => {
    const checker = new AnswerChecker(doc as any);
    const problems: string[] = [];
    const check = (at: string, value: unknown, what: string) => problems.push(...checker.problems(at, value).map((e) => `${what}: ${e}`));
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operation.parameters.forEach((p, i) => {
          if (p.example !== undefined) check(pointer('paths', path, method, 'parameters', i, 'schema'), p.example, `${method} ${path} ${p.name}`);
        });
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
          if (media.example !== undefined)
            check(pointer('paths', path, method, 'requestBody', 'content', type, 'schema'), media.example, `${method} ${path} ${type}`);
      }
    }
    for (const [name, response] of Object.entries(doc.components.responses))
      for (const [type, media] of Object.entries(response.content ?? {}))
        if (media.example !== undefined) check(pointer('components', 'responses', name, 'content', type, 'schema'), media.example, name);
    for (const [name, schema] of Object.entries(doc.components.schemas))
      for (const example of schema.examples ?? []) check(pointer('components', 'schemas', name), example, name);
    expect(problems).toEqual([]);
  });
});
