import fc from 'fast-check';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { OpenApiDocument } from '../../rest-facade';
import type { JsonSchema } from '../../rest-facade/openapi/json-schema';
import type { Operation } from '../../rest-facade/openapi/document';
import type { Parameter } from '../../rest-facade/openapi/parameters';

/**
 * A small schema-driven tester for the v3 OpenAPI document (rest-facade/openapi/): fast-check
 * arbitraries made from the document's JSON Schemas (valid inputs), wrong values for them (invalid
 * inputs), the serialisation a v3 client uses (Rack brackets for deepObject and form bodies), and
 * ajv over the document to check what the service answers. Nothing in it knows a route: what it
 * sends and expects comes from the document.
 */

type Doc = OpenApiDocument & Record<string, any>;

/** A JSON pointer's segment. */
const segment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
export const pointer = (...path: Array<string | number>) => `#/${path.map((p) => segment(String(p))).join('/')}`;

/** What a `$ref` in the document points at. */
export function resolveRef<T = any>(doc: Doc, node: any): T {
  let current = node;
  for (let i = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && i < 10; i++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((n: any, key: string) => n?.[key], doc);
  }
  return current as T;
}

// ——— arbitraries: valid values of a schema ———

/** Keeps generated text short: a pattern's large repetition (`{1,64000}`) is capped. */
function boundedPattern(pattern: string): RegExp {
  return new RegExp(pattern.replace(/\{(\d+),(\d+)\}/g, (_, min: string, max: string) => `{${min},${Math.min(Number(max), Math.max(Number(min), 12))}}`));
}

const DATE_ARB = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });

/** A value the schema accepts (as far as this tester knows JSON Schema: what the document uses). */
export function arbitraryOf(doc: Doc, schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.$ref) return arbitraryOf(doc, resolveRef(doc, schema), depth + 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.allOf) return arbitraryOf(doc, mergeAllOf(doc, schema), depth + 1);
  if (schema.anyOf || schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((s) => arbitraryOf(doc, s, depth + 1)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf(doc, { ...schema, type: type as never }, depth)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }),
      );
    case 'string':
      return stringOf(schema);
    case 'array':
      return fc.array(arbitraryOf(doc, schema.items, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
      return objectOf(doc, schema, depth);
    default:
      // Any value (`{}`): a small JSON value.
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(boundedPattern(schema.pattern));
  if (schema.format === 'date-time')
    return fc
      .tuple(DATE_ARB, fc.constantFrom('iso', 'v3', 'plain'))
      .map(([d, form]) =>
        form === 'iso'
          ? d.toISOString()
          : form === 'v3'
            ? `${d.toISOString().slice(0, 10).replace(/-/g, '/')} 08:54:59 -0400`
            : d.toISOString().slice(0, 16).replace('T', ' '),
      );
  if (schema.format === 'date') return DATE_ARB.map((d) => d.toISOString().slice(0, 10));
  const maxLength = Math.min(schema.maxLength ?? 24, 24);
  return fc.oneof(fc.string({ maxLength }), fc.string({ maxLength, unit: 'grapheme' }));
}

function objectOf(doc: Doc, schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const own = fc.record(Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, arbitraryOf(doc, s, depth + 1)])), {
    requiredKeys: [...required].filter((k) => k in properties),
  });
  const patterns = Object.entries(schema.patternProperties ?? {});
  if (patterns.length === 0) return own;
  const [pattern, valueSchema] = patterns[0];
  const extra = fc.dictionary(fc.stringMatching(boundedPattern(pattern)), arbitraryOf(doc, valueSchema, depth + 1), { maxKeys: 2 });
  return fc.tuple(own, extra).map(([a, b]) => ({ ...b, ...a }));
}

/** `allOf: [schema, {required}]` as one schema (what the document writes for a create's attributes). */
function mergeAllOf(doc: Doc, schema: JsonSchema): JsonSchema {
  return (schema.allOf ?? []).reduce<JsonSchema>((merged, part) => {
    const s = part.$ref ? resolveRef<JsonSchema>(doc, part) : part;
    return { ...merged, ...s, properties: { ...merged.properties, ...s.properties }, required: [...(merged.required ?? []), ...(s.required ?? [])] };
  }, {});
}

// ——— invalid values of a schema ———

/** Values of the wrong kind for a schema (each one some schema of its kind refuses). */
export function wrongValuesOf(doc: Doc, schema: JsonSchema | undefined): unknown[] {
  const s = schema?.$ref ? resolveRef<JsonSchema>(doc, schema) : schema;
  if (!s) return [{ odd: true }];
  const types = new Set<unknown>([s.type, ...(s.anyOf ?? []).map((a) => (a.$ref ? resolveRef<JsonSchema>(doc, a).type : a.type))].flat());
  const out: unknown[] = [];
  if (!types.has('object')) out.push({ not: 'a scalar' });
  if (!types.has('string')) out.push('not-a-value');
  else if (s.enum) out.push('no-such-value');
  else if (s.pattern) out.push('%%%');
  else if (s.format === 'date' || s.format === 'date-time') out.push('2014-02-30 25:61');
  if (types.has('integer') || types.has('number')) out.push(2 ** 53, -1.5);
  if (!types.has('array')) out.push(['a', ['b']]);
  return out;
}

// ——— serialisation, as v3 clients send it ———

/** Rack-style query pairs of one parameter: deepObject as `name[key]=v` (`name[key][]=v` for lists), form arrays comma-joined or repeated. */
export function queryPairs(parameter: Pick<Parameter, 'name' | 'style' | 'explode'>, value: unknown): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const nest = (prefix: string, v: unknown) => {
    if (Array.isArray(v)) {
      if (v.length === 0) pairs.push([`${prefix}[]`, '']);
      for (const item of v) nest(`${prefix}[]`, item);
    } else if (v !== null && typeof v === 'object') for (const [k, inner] of Object.entries(v)) nest(`${prefix}[${k}]`, inner);
    else pairs.push([prefix, text(v)]);
  };
  if (parameter.style === 'deepObject') nest(parameter.name, value);
  else if (Array.isArray(value) && parameter.explode === false) pairs.push([parameter.name, value.map(text).join(',')]);
  else if (Array.isArray(value)) for (const item of value) pairs.push([parameter.name, text(item)]);
  else pairs.push([parameter.name, text(value)]);
  return pairs;
}

/** A form body as Rails clients encode it: `root[attr]=v`, `root[ids][]=1`, null as an empty value. */
export function formBody(body: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (prefix: string, value: unknown) => {
    if (Array.isArray(value)) {
      if (value.length === 0) out.append(`${prefix}[]`, '');
      value.forEach((v) => walk(`${prefix}[]`, v));
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(prefix ? `${prefix}[${k}]` : k, v);
    else out.append(prefix, value === null || value === undefined ? '' : String(value));
  };
  walk('', body);
  return out.toString();
}

// ——— checking answers against the document ———

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * Checks answers against the document with ajv (JSON Schema 2020-12): each schema is compiled once,
 * in place in the document so that the records it references are compiled once too. With
 * `partialRecords`, a record's keys are not required (an `attrs` selection answers some of them).
 */
export class AnswerChecker {
  private readonly ajv: Ajv2020;
  private readonly partialAjv: Ajv2020;

  constructor(private readonly doc: Doc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, inlineRefs: false });
    this.ajv.addSchema(doc as object, 'openapi');
    this.partialAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, inlineRefs: false });
    const partial = structuredClone(doc) as Doc;
    for (const schema of Object.values(partial.components.schemas) as Array<Record<string, unknown>>) if (schema['x-crm-record']) delete schema.required;
    this.partialAjv.addSchema(partial as object, 'openapi');
  }

  /** The validator of the schema at a JSON pointer of the document. */
  validator(at: string, partialRecords = false): ValidateFunction {
    const ajv = partialRecords ? this.partialAjv : this.ajv;
    const check = ajv.getSchema(`openapi${at}`);
    if (!check) throw new Error(`no schema at ${at}`);
    return check;
  }

  /** Whether `value` matches the schema at `at`: the problems, or none. */
  problems(at: string, value: unknown, partialRecords = false): string[] {
    const check = this.validator(at, partialRecords);
    return check(value)
      ? []
      : (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }

  /**
   * What is wrong with an answer of an operation: a 5xx, a status the operation does not document, a
   * body of another media type or shape than documented, a missing required or malformed header.
   */
  check(path: string, method: string, answer: Answer, options: { partialRecords?: boolean } = {}): string[] {
    const operation = this.doc.paths[path][method] as Operation;
    const status = String(answer.status);
    if (answer.status >= 500) return [`answered ${answer.status}: ${answer.text.slice(0, 300)}`];
    const documented = operation.responses[status] ?? operation.responses.default;
    if (!documented) return [`answered ${status}, which is not documented (${Object.keys(operation.responses).join(', ')}): ${answer.text.slice(0, 300)}`];
    const responseAt = operation.responses[status]
      ? pointer('paths', path, method, 'responses', status)
      : pointer('paths', path, method, 'responses', 'default');
    const response = resolveRef<Record<string, any>>(this.doc, documented);
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const h = resolveRef<Record<string, any>>(this.doc, header);
      const value = answer.headers.get(name);
      if (value === null) {
        if (h.required || /^X-(Ratelimit|Request)/i.test(name)) problems.push(`${status}: header ${name} missing`);
      } else if (h.schema?.type === 'integer' && !/^\d+$/.test(value)) problems.push(`${status}: header ${name} is not an integer: ${value}`);
    }
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0].trim();
    const content = response.content as Record<string, { schema: JsonSchema }> | undefined;
    if (!content) {
      if (answer.text !== '') problems.push(`${status}: documented without a body, answered ${answer.text.slice(0, 200)}`);
      return problems;
    }
    const media = content[contentType];
    if (!media) return [...problems, `${status}: answered ${contentType || 'no content type'}, documented ${Object.keys(content).join(', ')}`];
    if (contentType !== 'application/json') return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...problems, `${status}: not JSON: ${answer.text.slice(0, 200)}`];
    }
    // The schema in place (a $ref to a shared response resolves to the component's own pointer).
    const at = (documented as { $ref?: string }).$ref
      ? `${(documented as { $ref: string }).$ref}/content/${segment(contentType)}/schema`
      : `${responseAt}/content/${segment(contentType)}/schema`;
    for (const problem of this.problems(at, body, options.partialRecords)) problems.push(`${status} body ${problem}`);
    return problems;
  }
}
