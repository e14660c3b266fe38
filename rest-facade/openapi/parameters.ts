import { IF_MATCH_PATTERN } from '../request/if-match';
import { IDEMPOTENT } from './responses';
import { getNamedType, isInputObjectType, type DocumentNode, type GraphQLInputField, type GraphQLSchema } from 'graphql';
import { INT32_MAX, INT32_MIN, MAX_ID_LIST } from '../request/coerce';
import {
  conditionTable,
  CUSTOM_LABELS,
  isVocabulary,
  MAX_CONDITION_TEXT,
  MAX_CUSTOM_LABEL_VALUES,
  type ConditionSpec,
  type ConditionTable,
} from '../request/conditions';
import { MAX_ATTRS } from '../request/attrs';
import { MAX_PAGE } from '../request/paging';
import type { FlagSpec, RouteSpec } from '../routes/route-spec';
import { operationOf, sortTableFor, variableType } from '../routes/sort-table';
import type { InputDoc } from '../resources/resource-spec';
import { CUSTOM_LABEL_PATTERN, RECORD_ID, type JsonSchema } from './json-schema';
import { attributeSchema, recordName } from './records';

/**
 * A route's parameters, as the pipeline reads them (rest-facade/pipeline.ts buildVariables): path
 * ids, `conditions[...]` and plain filters from the route's condition tables, paging from its
 * bounds, `sort` from the sort enum of its operation (rest-facade/routes/sort-table.ts), `search_id`,
 * `attrs`, flags, and what its hooks say they read.
 */
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly style?: 'form' | 'deepObject' | 'simple';
  readonly explode?: boolean;
  readonly example?: unknown;
  readonly 'x-crm-condition'?: boolean;
}

const ID_TEXT: JsonSchema = { type: 'string', pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$', description: 'comma-separated ids' };

const RANGE_OF = (bound: JsonSchema, from: string, to: string): JsonSchema => ({
  type: 'object',
  properties: { [from]: bound, [to]: bound },
  additionalProperties: false,
  description: `\`[${from}]\` and/or \`[${to}]\`, either alone; inclusive.`,
});

const DATETIME_BOUND: JsonSchema = {
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time' },
  ],
  description: 'A date or datetime (`YYYY-MM-DD`, `YYYY/MM/DD HH:MM:SS +hhmm`, ISO 8601); a date alone as `to_date` covers that whole day.',
  examples: ['2014-05-01'],
};

/** How one `conditions[x]` value is read (src/kit/v3/conditions.ts translate), as JSON Schema. */
export function conditionSchema(spec: ConditionSpec): JsonSchema {
  const base = conditionValue(spec);
  if (spec.any === undefined) return base;
  return { anyOf: [base, { const: spec.any, description: 'no condition' }] };
}

function conditionValue(spec: ConditionSpec): JsonSchema {
  switch (spec.kind) {
    case 'ids':
      return { anyOf: [RECORD_ID, ID_TEXT, { type: 'array', items: { anyOf: [RECORD_ID, ID_TEXT] }, maxItems: MAX_ID_LIST }] };
    case 'id':
      return RECORD_ID;
    case 'integer':
      return { type: 'integer', minimum: INT32_MIN, maximum: INT32_MAX };
    case 'like':
      return { type: 'string', maxLength: MAX_CONDITION_TEXT, description: 'case-insensitive substring' };
    case 'prefix':
      return { type: 'string', maxLength: MAX_CONDITION_TEXT, description: 'case-insensitive prefix' };
    case 'text':
      return { type: 'string', maxLength: MAX_CONDITION_TEXT };
    case 'datetimeRange':
      return RANGE_OF(DATETIME_BOUND, 'from_date', 'to_date');
    case 'dateRange':
      return RANGE_OF({ type: 'string', format: 'date', examples: ['2014-05-01'] }, 'from_date', 'to_date');
    case 'numberRange':
      return { anyOf: [{ type: 'number', description: 'exactly' }, RANGE_OF({ type: 'number' }, 'from', 'to')] };
    case 'boolean':
      return { type: 'boolean' };
    case 'flag':
      return { type: 'boolean', const: true, description: 'any value but false or 0 is read as true' };
    case 'enum':
      return { type: 'string', enum: [...Object.keys(spec.map ?? {}), ...(spec.values ?? [])], description: 'matched in any case' };
    case 'datetime':
      return { type: 'string', format: 'date-time', description: 'an exact instant; most datetime forms parse', examples: ['2014-05-19T08:54:00Z'] };
    case 'customLabel':
      return {
        anyOf: [
          { type: ['string', 'number', 'boolean'], description: 'one value, or a comma-separated list (any of them matches)' },
          { type: 'array', items: { type: ['string', 'number', 'boolean'] }, maxItems: MAX_CUSTOM_LABEL_VALUES },
          RANGE_OF({ type: ['number', 'string'] }, 'from', 'to'),
          RANGE_OF({ type: 'string' }, 'from_date', 'to_date'),
        ],
      };
  }
}

/** The description of the GraphQL filter field a condition feeds (`ownerId` of DealFilter), when known. */
function filterFieldOf(filterFields: Readonly<Record<string, GraphQLInputField>>, to: string): string | undefined {
  const [first] = to.split('.');
  return filterFields[first]?.description ?? undefined;
}

/** The fields of the route's GraphQL filter input, for descriptions. */
function filterFieldsOf(schema: GraphQLSchema, operations: DocumentNode, route: RouteSpec): Readonly<Record<string, GraphQLInputField>> {
  if (route.conditions && isVocabulary(route.conditions)) {
    const type = schema.getType(route.conditions.filter);
    if (isInputObjectType(type)) return type.getFields();
  }
  const operation = operationOf(operations, route.op);
  const type = operation ? variableType(schema, operation, 'filter') : null;
  return type && isInputObjectType(getNamedType(type)) ? (getNamedType(type) as { getFields(): Record<string, GraphQLInputField> }).getFields() : {};
}

/**
 * Named schemas the parameters share (a list's conditions, the same on its nested lists), so the
 * document says each once: the first name asked for each distinct schema.
 */
export class SharedSchemas {
  private readonly byContent = new Map<string, string>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {}

  /** A reference to `schema`, named `name` (or `name2`... when another schema has the name). */
  refTo(name: string, schema: JsonSchema): JsonSchema {
    const content = JSON.stringify(schema);
    let found = this.byContent.get(content);
    if (!found) {
      found = name;
      for (let n = 2; this.schemas[found]; n++) found = `${name}${n}`;
      this.schemas[found] = schema;
      this.byContent.set(content, found);
    }
    return { $ref: `#/components/schemas/${found}` };
  }
}

/** `conditions` as one deepObject parameter: every condition of the route's table (and its hooks'), custom fields by pattern. */
function conditionsParameter(
  table: ConditionTable,
  filterFields: Readonly<Record<string, GraphQLInputField>>,
  searchId: boolean,
  shared: SharedSchemas,
  name: string,
): Parameter {
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  for (const [name, spec] of Object.entries(table)) {
    const value = conditionSchema(spec);
    const about = filterFieldOf(filterFields, spec.to);
    const described = { ...value, description: [about, value.description].filter(Boolean).join(' — ') || undefined, 'x-crm-feeds': spec.to };
    if (name === CUSTOM_LABELS)
      patternProperties[CUSTOM_LABEL_PATTERN] = { ...described, description: `A custom field's value: ${described.description ?? ''}` };
    else properties[name] = described;
  }
  const names = Object.keys(properties);
  return {
    name: 'conditions',
    in: 'query',
    style: 'deepObject',
    explode: true,
    'x-crm-condition': true,
    description:
      'Filters, as `conditions[name]=value` (ranges as `conditions[name][from_date]=...`, lists as `conditions[name][]=1` or `1,2`). ' +
      'Each must hold; blank values are no condition; names not listed are ignored. A value that cannot be read is a 422 naming `conditions[name]`.' +
      (searchId ? ' Ignored with `search_id`.' : ''),
    schema: shared.refTo(name, {
      type: 'object',
      description: 'The conditions of the list, by name.',
      properties,
      ...(Object.keys(patternProperties).length > 0 ? { patternProperties } : {}),
    }),
    ...(names.length > 0 ? { example: exampleConditions(table, names) } : {}),
  };
}

function exampleConditions(table: ConditionTable, names: readonly string[]): Record<string, unknown> {
  const pick = names.find((n) => ['like', 'prefix', 'text'].includes(table[n].kind)) ?? names[0];
  const spec = table[pick];
  const value =
    spec.kind === 'datetimeRange' || spec.kind === 'dateRange'
      ? { from_date: '2014-05-01', to_date: '2014-05-31' }
      : spec.kind === 'numberRange'
        ? { from: 100, to: 500 }
        : spec.kind === 'enum'
          ? (Object.keys(spec.map ?? {})[0] ?? spec.values?.[0])
          : spec.kind === 'ids' || spec.kind === 'id' || spec.kind === 'integer'
            ? 1
            : spec.kind === 'boolean' || spec.kind === 'flag'
              ? true
              : 'acme';
  return { [pick]: value };
}

/** A plain query parameter that filters as a condition does (`/notes.json?deal_id=1`, DECISIONS: Conditions). */
function queryFilterParameters(table: ConditionTable, filterFields: Readonly<Record<string, GraphQLInputField>>): Parameter[] {
  return Object.entries(table)
    .filter(([name]) => name !== CUSTOM_LABELS)
    .map(([name, spec]) => {
      const schema = conditionSchema(spec);
      const object = schema.type === 'object' || schema.anyOf?.some((s) => s.type === 'object');
      // A list as `name=1,2` (what the service reads as a list; a repeated name keeps the last).
      const list = schema.anyOf?.some((s) => s.type === 'array');
      const about = filterFieldOf(filterFields, spec.to);
      return {
        name,
        in: 'query',
        description: `${about ? `${about} ` : ''}As \`conditions[${name}]\`, for older clients.`,
        schema,
        ...(object ? { style: 'deepObject' as const, explode: true } : list ? { style: 'form' as const, explode: false } : {}),
      };
    });
}

/** A flag (DECISIONS: Paths and requests): in the query or at the top of the body. */
export function flagSchema(flag: FlagSpec): JsonSchema {
  return flag.kind === 'boolean' ? attributeSchema({ type: 'boolean' }) : attributeSchema({ type: 'id' });
}

/** An input a hook reads, as a parameter. */
function hookParameter(name: string, doc: InputDoc, where: 'query' | 'header'): Parameter {
  return { name, in: where, schema: attributeSchema(doc), ...(doc.description ? { description: doc.description } : {}) };
}

/** The sort keys of a route (null when it does not sort), from its operation's order enum and aliases. */
export function sortKeysOf(schema: GraphQLSchema, operations: DocumentNode, route: RouteSpec): string[] | null {
  const table = sortTableFor(route, schema, operations);
  return table ? Object.keys(table) : null;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every parameter of a route, path ids first. */
export function parametersOf(schema: GraphQLSchema, operations: DocumentNode, route: RouteSpec, shared: SharedSchemas): Parameter[] {
  const parameters: Parameter[] = [];
  for (const [, name] of route.path.matchAll(/:([a-zA-Z]+)/g)) {
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: RECORD_ID,
      description:
        name === 'associationId'
          ? 'The note’s deal, person or company: ignored (v3 §4.3). A malformed id is answered as a missing record.'
          : 'A record id; a malformed one is answered as a missing record (404).',
      example: 1,
    });
  }
  const doc = route.hooks?.doc;
  const filterFields = route.kind === 'list' ? filterFieldsOf(schema, operations, route) : {};
  const json = route.produces === undefined;
  if (route.kind === 'list') {
    const conditions = { ...(route.conditions ? conditionTable(schema, route.conditions) : {}), ...doc?.conditions };
    const queryFilters = { ...route.queryFilters, ...doc?.conditions };
    if (Object.keys(conditions).length > 0)
      parameters.push(conditionsParameter(conditions, filterFields, route.searchId === true, shared, `${recordName(route.resource)}Conditions`));
    parameters.push(...queryFilterParameters(queryFilters, filterFields));
    if (!route.entriesKey && json) {
      const paging = route.paging ?? { default: 100, max: 100 };
      parameters.push(
        {
          name: 'page',
          in: 'query',
          description: 'The page, from 1. Below 1 or not a number: page 1 (never refused).',
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
          example: 1,
        },
        {
          name: 'per_page',
          in: 'query',
          description: `Entries a page: ${paging.default} by default, at most ${paging.max} (more is clamped, never refused; below 1 or not a number: the default).`,
          schema: { type: 'integer', minimum: 1, maximum: paging.max, default: paging.default },
          example: paging.default,
        },
      );
    }
    const sortKeys = sortKeysOf(schema, operations, route);
    if (sortKeys) {
      const table = route.sortTable ? `(${escapeRegex(route.sortTable)}\\.)?` : '';
      parameters.push({
        name: 'sort',
        in: 'query',
        style: 'form',
        explode: false,
        description:
          `Order: comma-separated keys, the first the primary; \`-\` before a key (or \` desc\` after it) for descending` +
          `${route.sortTable ? `, optionally named \`${route.sortTable}.key\`` : ''}. Keys: ${sortKeys.map((k) => `\`${k}\``).join(', ')}. ` +
          'Any other key is a 422 naming `sort`.' +
          (route.searchId ? ' Ignored with `search_id`.' : ''),
        schema: {
          type: 'array',
          items: { type: 'string', pattern: `^[-+]?${table}(${sortKeys.map(escapeRegex).join('|')})( (asc|desc|ASC|DESC))?$` },
          'x-crm-sort-keys': sortKeys,
        } as JsonSchema,
        example: [`-${route.sortTable ? `${route.sortTable}.` : ''}${sortKeys.includes('created_at') ? 'created_at' : sortKeys[0]}`],
      });
    }
    if (route.searchId) {
      parameters.push({
        name: 'search_id',
        in: 'query',
        description:
          'A saved search of this list’s kind (`GET /searches.json`): its stored conditions and sort apply, and every other parameter but `page` and `per_page` is ignored (v3 §4). One the user may not run here is a 404.',
        schema: RECORD_ID,
      });
    }
  }
  if (route.kind === 'feed') {
    const paging = route.paging ?? { default: 100, max: 100 };
    parameters.push(
      {
        name: 'since',
        in: 'query',
        description: 'The `next_cursor` of the last read; none: from the oldest change kept. A cursor older than what is kept is a 410.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64000}$' },
      },
      {
        name: 'per_page',
        in: 'query',
        description: `Changes a read: ${paging.default} by default, at most ${paging.max} (clamped, never refused).`,
        schema: { type: 'integer', minimum: 1, maximum: paging.max, default: paging.default },
      },
    );
  }
  for (const [name, flag] of Object.entries(route.flags ?? {})) {
    parameters.push({
      name,
      in: 'query',
      description: `A flag (DECISIONS: Paths and requests), here or at the top level of the body; passed to \`${flag.to}\`.`,
      schema: flagSchema(flag),
    });
  }
  for (const [name, input] of Object.entries(doc?.query ?? {})) parameters.push(hookParameter(name, input, 'query'));
  for (const [name, input] of Object.entries(doc?.headers ?? {})) parameters.push(hookParameter(name, input, 'header'));
  // Unless the route answers conditional requests itself (the iCalendar feed).
  if (route.method === 'GET' && !parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-none-match'))
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      description: 'ETags of answers already held (an addition to v3, issue 26 §2): when one is this answer’s, the answer is 304 with no body.',
      schema: { type: 'string', maxLength: 8192 },
    });
  if (route.kind === 'update' || route.kind === 'delete')
    parameters.push({
      name: 'If-Match',
      in: 'header',
      description:
        'An addition to v3 (issue 26 §2): the strong ETag of the record as you read it (its show’s `ETag`), or `*`. When the record’s current ETag is none of them, the answer is 412 and nothing is written; two writers with one ETag: one wins. Required when the account requires preconditions (428 without).',
      schema: { type: 'string', maxLength: 8192, pattern: IF_MATCH_PATTERN },
      example: '"q1w2e3r4t5y6"',
    });
  if (IDEMPOTENT.has(route.method))
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'An addition to v3 (issue 26 §1): a retry with the same key and request gets the first answer again (`Idempotent-Replayed: true`) and writes nothing; the same key with another request is a 422; while the first runs, a 409. Keys are the caller’s, kept 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    });
  if (json && !(route.kind === 'delete' && route.deleteBody !== 'record')) {
    parameters.push({
      name: 'attrs',
      in: 'query',
      style: 'form',
      explode: false,
      description: `Only these keys of ${route.kind === 'list' || route.kind === 'feed' ? 'each entry' : 'the record'} come back, in the record’s order (nested values whole); unknown names are ignored (v3 §1.5). At most ${MAX_ATTRS}.`,
      schema: { type: 'array', items: { type: 'string', enum: [...route.resource.keys] }, maxItems: MAX_ATTRS },
      example: route.resource.keys.slice(0, 2),
    });
  }
  return parameters;
}
