import 'reflect-metadata';
import { parse, validate, type GraphQLEnumType } from 'graphql';
import { derivedOperations, operationsSource, v3Routes } from '../../rest-facade';
import { checkFacade, checkResource } from '../../rest-facade/agreement';
import type { ConditionVocabulary } from '../../src/kit/v3/vocabulary';
import { v3Resources } from '../../rest-facade/resources';
import { adminListsOf } from '../../rest-facade/routes';
import { read, readOnly, text } from '../../rest-facade/resources/field-table';
import { accountResource } from '../../rest-facade/resources/account';
import { companyResource } from '../../rest-facade/resources/company';
import { dealStageResource } from '../../rest-facade/resources/deal-stage';
import {
  calendarEntryPriorityResource,
  dealLossReasonResource,
  dealWonReasonResource,
  documentTagResource,
  eventCategoryResource,
  leadSourceResource,
  leadStatusResource,
  noteCategoryResource,
  predefinedContactsTagResource,
} from '../../rest-facade/resources/list-item';
import { todoTemplateItemResource, todoTemplateResource } from '../../rest-facade/resources/todo-template';
import { personResource } from '../../rest-facade/resources/person';
import { v3Resource, type Formatter, type V3Resource } from '../../rest-facade/resources/resource-spec';
import { userResource } from '../../rest-facade/resources/user';
import { sortTableFor } from '../../rest-facade/routes/sort-table';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { createSchema } from '../../src/app/schema';

/**
 * The v3 keys of each resource as the contract lists them (crm-api-v3.md §2.4, §2.6, §2.10;
 * DECISIONS for users, the profile and the account), in the order the facade shows them, and
 * which are writable (the spec's W column). Written out here, independently of the field tables.
 */
const W = true;
const R = false;
const CONTRACT: ReadonlyArray<readonly [V3Resource, ReadonlyArray<readonly [string, boolean]>]> = [
  [
    personResource,
    [
      ['id', R],
      ['first_name', W],
      ['last_name', W],
      ['full_name', W],
      ['summary', W],
      ['position', W],
      ['website', W],
      ['phone', W],
      ['home_phone', W],
      ['mobile', W],
      ['fax', W],
      ['email', W],
      ['email2', W],
      ['home_email', W],
      ['company_id', W],
      ['company_name', W],
      ['company', R],
      ['user_id', W],
      ['user', R],
      ['type', W],
      ['lead_status_id', W],
      ['lead_status', R],
      ['lead_source_id', W],
      ['lead_source', R],
      ['image_thumb_url', W],
      ['image_mobile_url', R],
      ['predefined_contacts_tag_ids', W],
      ['predefined_contacts_tags', R],
      ['custom_fields', W],
      ['work_address_1', W],
      ['work_address_2', W],
      ['work_city', W],
      ['work_state', W],
      ['work_country', W],
      ['work_postal_code', W],
      ['home_address_1', W],
      ['home_address_2', W],
      ['home_city', W],
      ['home_state', W],
      ['home_country', W],
      ['home_postal_code', W],
      ['facebook_url', W],
      ['linked_in_url', W],
      ['twitter', W],
      ['instant_message', W],
      ['created_at', W],
      ['updated_at', W],
      ['possible_notify_user_ids', R],
      ['unsubscribed', W],
      ['bounced', W],
      ['last_emailed_at', W],
      ['deal_ids', W],
      ['viewed_at', R],
      // Issue 22: as the recordings show people (read-only).
      ['deals', R],
      ['shared_user_ids', R],
      ['created_by_user_id', R],
      ['total_pipeline', R],
      ['won_deals_total', R],
    ],
  ],
  [
    companyResource,
    [
      ['id', R],
      ['name', W],
      ['description', W],
      ['email', W],
      ['web', W],
      ['fax', W],
      ['address_1', W],
      ['address_2', W],
      ['city', W],
      ['state', W],
      ['postal_code', W],
      ['country', W],
      ['phone1', W],
      ['phone2', W],
      ['phone3', W],
      ['phone4', W],
      ['phone1_desc', W],
      ['phone2_desc', W],
      ['phone3_desc', W],
      ['phone4_desc', W],
      ['image_thumb_url', W],
      ['image_mobile_url', R],
      ['custom_fields', W],
      ['owner_id', W],
      ['owner', R],
      ['possible_notify_user_ids', R],
      ['import_id', R],
      ['created_at', W],
      ['updated_at', W],
      ['people', R], // v3 §4.6 associations=people
    ],
  ],
  [
    userResource,
    // Issue 22 §4: account_id, avatar_thumb_url and is_account_admin as the recordings show them (never api_key).
    [
      ['id', R],
      ['account_id', R],
      ['first_name', R],
      ['last_name', R],
      ['full_name', R],
      ['email', R],
      ['avatar_thumb_url', R],
      ['time_zone', R],
      ['is_admin', R],
      ['is_account_admin', R],
      ['visibility', R],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    accountResource,
    [
      ['id', R],
      ['name', R],
      ['currency', R],
      ['time_zone', R],
    ],
  ],
  // DECISIONS (Admin surface): admins write every admin list; entries carry created_at and updated_at.
  // Issue 22 §4: account_id, position and hex_color where the recordings show them.
  [
    leadStatusResource,
    [
      ['id', R],
      ['name', W],
      ['hex_color', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    predefinedContactsTagResource,
    [
      ['id', R],
      ['name', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    noteCategoryResource,
    [
      ['id', R],
      ['name', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    leadSourceResource,
    [
      ['id', R],
      ['name', W],
      ['cost_per_lead_in_cents', W],
      ['flat_fee_in_cents', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    dealLossReasonResource,
    [
      ['id', R],
      ['name', W],
      ['account_id', R],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    dealWonReasonResource,
    [
      ['id', R],
      ['name', W],
      ['account_id', R],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    eventCategoryResource,
    [
      ['id', R],
      ['name', W],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    documentTagResource,
    [
      ['id', R],
      ['name', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    calendarEntryPriorityResource,
    [
      ['id', R],
      ['name', W],
      ['hex_color', W],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    dealStageResource,
    [
      ['id', R],
      ['name', W],
      ['percent', W],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    todoTemplateResource,
    [
      ['id', R],
      ['name', W],
      ['account_id', R],
      ['template_type', W],
      ['is_default', W],
      ['todo_template_items', R],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
  [
    todoTemplateItemResource,
    [
      ['id', R],
      ['description', W],
      ['due_date', W],
      ['todo_template_id', W],
      ['account_id', R],
      ['event_category_id', W],
      ['event_category', R],
      ['calendar_entry_priority_id', W],
      ['position', W],
      ['created_at', R],
      ['updated_at', R],
    ],
  ],
];

/** Where a table and the contract differ: missing or extra keys, order, writability. */
function contractProblems(resource: V3Resource, contract: ReadonlyArray<readonly [string, boolean]>): string[] {
  const problems: string[] = [];
  const listed = contract.map(([key]) => key);
  for (const key of listed) if (!resource.fields[key]) problems.push(`${resource.root}.${key}: in the contract, not in the table`);
  for (const key of resource.keys) if (!listed.includes(key)) problems.push(`${resource.root}.${key}: in the table, not in the contract`);
  const common = resource.keys.filter((k) => listed.includes(k));
  if (common.join() !== listed.filter((k) => common.includes(k)).join()) problems.push(`${resource.root}: keys out of order`);
  for (const [key, writable] of contract) {
    if (resource.fields[key] && Boolean(resource.writable[key]) !== writable) problems.push(`${resource.root}.${key}: writable ${!writable} in the table`);
  }
  return problems;
}

const withFields = (resource: V3Resource, fields: V3Resource['fields']): V3Resource => v3Resource({ ...resource, fields });
const without = (resource: V3Resource, key: string): V3Resource =>
  withFields(resource, Object.fromEntries(Object.entries(resource.fields).filter(([k]) => k !== key)));
const forResource = (resource: V3Resource) => (route: RouteSpec) => (route.resource.root === resource.root ? { ...route, resource } : route);

describe('v3 field tables, operations and GraphQL types agree', () => {
  const schema = createSchema();
  // The tables as written (operationsSource() without the schema leaves them uncompleted), the
  // admin lists derived from the schema (rest-facade/routes/derived-admin-lists.ts) and the
  // operations derived for the routes that name none (derived-operations.ts), as served.
  const written = operationsSource();
  const source = [written, adminListsOf(schema).source, derivedOperations(schema, written)].join('\n');
  const operations = parse(source);
  const servedRoutes = v3Routes(schema);
  const servedResources = v3Resources(schema);
  /** The routes, with one resource or route swapped for a broken copy. */
  const routesWith = (swap: (route: RouteSpec) => RouteSpec): RouteSpec[] => servedRoutes.map(swap);

  const check = (routes: readonly RouteSpec[] = servedRoutes, resources: readonly V3Resource[] = servedResources, document = operations) =>
    checkFacade(schema, document, routes, resources);

  it('the shipped tables, operations and schema agree, and the operations validate', () => {
    expect(check()).toEqual([]);
    expect(validate(schema, operations).map((e) => e.message)).toEqual([]);
  });

  it('every route resource is registered (its fragment is generated)', () => {
    const registered = new Set(servedResources);
    expect(servedRoutes.filter((r) => !registered.has(r.resource)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it.each(CONTRACT.map(([resource, keys]) => [resource.root, resource, keys] as const))(
    '%s: the table has exactly the contract keys, in order, writable as listed',
    (_root, resource, keys) => {
      expect(contractProblems(resource, keys)).toEqual([]);
    },
  );

  it('the generated fragments alias every GraphQL field to its v3 key', () => {
    expect(personResource.fragmentSource).toMatch(/^fragment PersonV3 on Person \{ id: databaseId first_name: firstName last_name: lastName /);
    expect(personResource.fragmentSource).toContain('user: owner { ...UserRefV3 }');
    expect(personResource.fragmentSource).toContain('image_thumb_url: imageUrl image_mobile_url: imageUrl');
    expect(companyResource.fragmentSource).not.toContain('people'); // selected by ShowCompany under @include
    expect(source).toContain('fragment UserRefV3 on User { id: databaseId first_name: firstName last_name: lastName full_name: fullName }');
  });

  it('derives the sort keys from the sort enums: every value reachable, v3 aliases kept', () => {
    const people = servedRoutes.find((r) => r.op === 'ListPeople')!;
    const companies = servedRoutes.find((r) => r.op === 'ListCompanies')!;
    const peopleSort = sortTableFor(people, schema, operations)!;
    expect(new Set(Object.values(peopleSort))).toEqual(new Set((schema.getType('PersonOrderField') as GraphQLEnumType).getValues().map((v) => v.name)));
    expect(peopleSort).toMatchObject({
      last_name: 'LAST_NAME',
      user_id: 'OWNER_ID',
      owner_id: 'OWNER_ID',
      work_postal_code: 'WORK_POSTAL_CODE',
      converted_at: 'CONVERTED_AT',
    });
    expect(Object.keys(peopleSort).sort()).toEqual([
      'company_id',
      'company_name',
      'converted_at',
      'created_at',
      'email',
      'first_name',
      'id',
      'last_emailed_at',
      'last_name',
      'lead_source_id',
      'lead_status_id',
      'owner_id',
      'position',
      'type',
      'updated_at',
      'user_id',
      'work_city',
      'work_country',
      'work_postal_code',
      'work_state',
    ]);
    expect(sortTableFor(companies, schema, operations)).toEqual({
      city: 'CITY',
      country: 'COUNTRY',
      created_at: 'CREATED_AT',
      email: 'EMAIL',
      id: 'ID',
      name: 'NAME',
      owner_id: 'OWNER_ID',
      postal_code: 'POSTAL_CODE',
      state: 'STATE',
      updated_at: 'UPDATED_AT',
    });
    expect(servedRoutes.filter((r) => r.sort).map((r) => r.op)).toEqual(expect.arrayContaining(['ListPeople', 'CompanyPeople', 'ListCompanies']));
  });

  describe('a disagreement fails', () => {
    it('a key dropped from a table (hence from its fragment) breaks the contract check', () => {
      expect(contractProblems(without(personResource, 'email'), CONTRACT[0][1])).toEqual(['person.email: in the contract, not in the table']);
      expect(contractProblems(withFields(companyResource, { ...companyResource.fields, import_id: text('importId') }), CONTRACT[1][1])).toEqual([
        'company.import_id: writable true in the table',
      ]);
    });

    it('a field missing from a fragment is reported for every route that shows the resource', () => {
      const broken = source.replace(personResource.fragmentSource, personResource.fragmentSource.replace(' email ', ' '));
      expect(broken).not.toBe(source);
      const problems = check(servedRoutes, servedResources, parse(broken));
      expect(problems).toEqual(
        expect.arrayContaining([
          'GET /people: ListPeople does not select person.email',
          'GET /people/:id: ShowPerson does not select person.email',
          'POST /people: CreatePerson does not select person.email',
        ]),
      );
      const extra = source.replace('{ ...AccountV3 }', '{ ...AccountV3 createdAt }');
      expect(check(servedRoutes, servedResources, parse(extra))).toEqual(['GET /account: ShowAccount selects createdAt, which is not in the account table']);
    });

    it('a table field the GraphQL type lacks, or an object without selection', () => {
      const typo = withFields(personResource, { ...personResource.fields, email: text('emial') });
      expect(checkResource(schema, typo)).toEqual(['person.email: Person has no field emial']);
      const bare = withFields(accountResource, { ...accountResource.fields, currency: read('currency') });
      expect(checkResource(schema, bare)).toEqual(['account.currency: Account.currency is an object and needs a selection']);
    });

    it('a writable field the input type lacks, or of an incompatible type', () => {
      const viewed = withFields(personResource, { ...personResource.fields, viewed_at: { ...personResource.fields.viewed_at, write: { type: 'datetime' } } });
      expect(check(routesWith(forResource(viewed)), [viewed])).toEqual(
        expect.arrayContaining([
          'person.viewed_at: writable, but PersonCreateInput has no field viewedAt',
          'person.viewed_at: writable, but PersonUpdateInput has no field viewedAt',
        ]),
      );
      const wrong = withFields(personResource, { ...personResource.fields, first_name: { ...personResource.fields.first_name, write: { type: 'ids' } } });
      expect(check(routesWith(forResource(wrong)), [wrong])).toEqual(
        expect.arrayContaining(['person.first_name: ids cannot feed PersonCreateInput.firstName (String)']),
      );
      const badEnum = withFields(personResource, {
        ...personResource.fields,
        type: { ...personResource.fields.type, write: { type: 'enum', values: { Contact: 'CONTACT', Client: 'CLIENT' } } },
      });
      expect(check(routesWith(forResource(badEnum)), [badEnum])).toEqual(expect.arrayContaining(['person.type: PersonType has no value CLIENT']));
    });

    it('an enum value without a v3 spelling', () => {
      const partial = withFields(userResource, { ...userResource.fields, visibility: readOnly({ from: 'visibility', show: { enum: { ALL: 'all' } } }) });
      expect(checkResource(schema, partial)).toEqual(['user.visibility: no v3 value for Visibility.OWN']);
    });

    it('sorting: an alias to no enum value, or a sortable operation without a route sort', () => {
      const alias = routesWith((r) => (r.op === 'ListPeople' ? { ...r, sort: { aliases: { user_id: 'USER_ID' } } } : r));
      expect(check(alias)).toEqual(['GET /people: sort alias user_id names no PersonOrderField value (USER_ID)']);
      const unsorted = routesWith((r) => (r.op === 'ListCompanies' ? { ...r, sort: undefined } : r));
      expect(check(unsorted)).toEqual(['GET /companies: ListCompanies sorts by CompanyOrderField, but the route declares no sort']);
    });

    it('a condition, filter or flag feeding no GraphQL field', () => {
      const withHomeTown = (v: ConditionVocabulary): ConditionVocabulary => ({ ...v, fixed: { ...v.fixed, person_city: { to: 'homeTown', kind: 'like' } } });
      const cond = routesWith((r) => (r.op === 'ListPeople' ? { ...r, conditions: withHomeTown(r.conditions as ConditionVocabulary) } : r));
      expect(check(cond)).toEqual(['GET /people conditions: person_city feeds PersonFilter.homeTown, which does not exist']);
      const flag = routesWith((r) =>
        r.op === 'CreateCompany' ? { ...r, flags: { check_for_duplicates: { to: 'options.checkDuplicates', kind: 'boolean' } } } : r,
      );
      expect(check(flag)).toEqual(['POST /companies: flag check_for_duplicates feeds options.checkDuplicates, which CreateCompany does not take']);
    });

    it('an optional key no operation selects', () => {
      const dropped = source.replace('people(page: 1, perPage: 100) @include(if: $withPeople) { nodes { ...PersonRefV3 } }', '');
      expect(dropped).not.toBe(source);
      expect(check(servedRoutes, servedResources, parse(dropped.replace(/fragment PersonRefV3[^\n]*\n/, '')))).toEqual([
        'company.people: optional, but no operation selects it',
      ]);
    });
  });

  describe('the formatter', () => {
    const fmt: Formatter = {
      timeZone: 'UTC',
      currencyDecimals: 2,
      dateTime: (v) => (v ? `dt:${(v as Date).toISOString()}` : null),
      date: (v) => (v ? `d:${String(v)}` : null),
    };

    it('formats a row keyed in v3 in place, in one pass, keeping its key order', () => {
      const row: Record<string, any> = {};
      for (const key of personResource.keys) row[key] = null;
      Object.assign(row, {
        id: 7,
        type: 'CONTACT',
        created_at: new Date('2014-05-19T12:54:59Z'),
        custom_fields: [{ label: 'custom_label_3', kind: 'DATE', value: '2001-02-03' }],
      });
      const out = personResource.serialize(row, fmt);
      expect(out).toBe(row);
      expect(Object.keys(out)).toEqual(personResource.keys);
      expect(out).toMatchObject({
        id: 7,
        type: 'Contact',
        created_at: 'dt:2014-05-19T12:54:59.000Z',
        updated_at: null,
        custom_fields: { custom_label_3: '2001/02/03' },
      });
    });

    it('shows an association only when the operation selected it', () => {
      const row = { id: 1, created_at: null, updated_at: null, custom_fields: [] };
      expect('people' in companyResource.serialize({ ...row }, fmt)).toBe(false);
      expect(companyResource.serialize({ ...row, people: { nodes: [{ id: 2 }] } }, fmt).people).toEqual([{ id: 2 }]);
    });
  });
});
