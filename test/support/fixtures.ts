import { getNamedType, isInputObjectType, isNonNullType, type GraphQLSchema } from 'graphql';
import type { RouteSpec } from '../../rest-facade/routes/route-spec';
import { ADMIN_LISTS, memberOf, type AdminListDeclaration } from '../../src/modules/lists/admin-lists';
import type { TestServer } from './test-server';

/**
 * One factory per resource: it creates a record as the key's user (through GraphQL, the core's
 * own surface) and returns its id. Tests that are driven by the route table look a route's
 * factory up by `route.resource.root`, so a resource added later is covered by adding its
 * factory here; a route whose resource has none fails those tests (see `missingFixtures`).
 */
export type Fixture = (server: TestServer, apiKey: string, attrs?: Record<string, unknown>) => Promise<number>;

export interface ResourceFixture {
  readonly create: Fixture;
  /**
   * Owned records are seen by their owner, admins and `all` users only; the others (users, the
   * account, admin lists) are the same for every member of the account.
   */
  readonly owned: boolean;
  /** Read by administrators only as well (webhook endpoints): anyone else's read is a 403 too. */
  readonly adminsOnly?: true;
  /** Minimal valid v3 attributes, for resources with a create route (`{company: {...}}`). */
  readonly v3Attrs?: () => Record<string, unknown>;
}

/** Runs a query or mutation and returns the databaseId at `path` (`createCompany.company`); user errors fail it. */
async function run(server: TestServer, apiKey: string, query: string, path: string, variables?: Record<string, unknown>): Promise<number> {
  const res = await server.graphql(apiKey, query, variables);
  const [root] = path.split('.');
  if (res.status !== 200 || res.body.errors || res.body.data[root]?.userErrors?.length) throw new Error(`fixture ${path} failed: ${res.text}`);
  let node = res.body.data;
  for (const key of path.split('.')) node = node[key];
  return node.databaseId;
}

let serial = 0;
const unique = () => `${process.pid}-${++serial}`;

const listItem =
  (kind: string): Fixture =>
  (server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($kind: ListKind!, $input: ListItemCreateInput!) { createListItem(kind: $kind, input: $input) { listItem { databaseId } userErrors { message } } }',
      'createListItem.listItem',
      {
        kind,
        input: { name: `Fixture ${kind} ${unique()}`, ...attrs },
      },
    );

/** The factories, by name, for tests that want one directly: `fixtures.person(server, key, {companyId})`. */
export const fixtures = {
  company: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: CompanyCreateInput!) { createCompany(input: $input) { company { databaseId } userErrors { message } } }',
      'createCompany.company',
      {
        input: { name: `Fixture Co ${unique()}`, ...attrs },
      },
    )) as Fixture,
  person: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: PersonCreateInput!) { createPerson(input: $input) { person { databaseId } userErrors { message } } }',
      'createPerson.person',
      {
        input: { firstName: 'Fix', lastName: `Ture ${unique()}`, ...attrs },
      },
    )) as Fixture,
  deal: ((server, apiKey, attrs = {}) =>
    run(server, apiKey, 'mutation($input: DealCreateInput!) { createDeal(input: $input) { deal { databaseId } userErrors { message } } }', 'createDeal.deal', {
      input: { name: `Fixture deal ${unique()}`, ...attrs },
    })) as Fixture,
  /** Users are created by account admins outside the API: the "record" is the key's own user. */
  user: ((server, apiKey) => run(server, apiKey, '{ viewer { databaseId } }', 'viewer')) as Fixture,
  account: ((server, apiKey) => run(server, apiKey, '{ account { databaseId } }', 'account')) as Fixture,
  leadStatus: listItem('LEAD_STATUS'),
  leadSource: listItem('LEAD_SOURCE'),
  contactTag: listItem('CONTACT_TAG'),
  noteCategory: listItem('NOTE_CATEGORY'),
  dealLossReason: listItem('DEAL_LOSS_REASON'),
  dealWonReason: listItem('DEAL_WON_REASON'),
  eventCategory: listItem('EVENT_CATEGORY'),
  documentTag: listItem('DOCUMENT_TAG'),
  calendarEntryPriority: listItem('CALENDAR_ENTRY_PRIORITY'),
  dealStage: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: DealStageCreateInput!) { createDealStage(input: $input) { dealStage { databaseId } userErrors { message } } }',
      'createDealStage.dealStage',
      {
        input: { name: `Fixture stage ${unique()}`, percent: 40, ...attrs },
      },
    )) as Fixture,
  todoTemplate: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: TodoTemplateCreateInput!) { createTodoTemplate(input: $input) { todoTemplate { databaseId } userErrors { message } } }',
      'createTodoTemplate.todoTemplate',
      {
        input: { name: `Fixture template ${unique()}`, ...attrs },
      },
    )) as Fixture,
  /** A saved search, shared with the account unless `attrs.isShared` says otherwise (a private one is its owner's alone, admins included). */
  search: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: SavedSearchCreateInput!) { createSearch(input: $input) { search { databaseId } userErrors { message } } }',
      'createSearch.search',
      {
        input: { name: `Fixture search ${unique()}`, searchType: 'DEALS', isShared: true, ...attrs },
      },
    )) as Fixture,
  /** An item, in a template made for it unless `attrs.todoTemplateId` names one. */
  todoTemplateItem: (async (server, apiKey, attrs = {}) => {
    const todoTemplateId = (attrs.todoTemplateId as number | undefined) ?? (await fixtures.todoTemplate(server, apiKey));
    lastTodoTemplateId = todoTemplateId;
    return run(
      server,
      apiKey,
      'mutation($input: TodoTemplateItemCreateInput!) { createTodoTemplateItem(input: $input) { todoTemplateItem { databaseId } userErrors { message } } }',
      'createTodoTemplateItem.todoTemplateItem',
      {
        input: { description: `Fixture task ${unique()}`, dueDate: 2, ...attrs, todoTemplateId },
      },
    );
  }) as Fixture,
  /** A conversation (a note on a deal), on a deal made for it unless `attrs.dealId` names one. */
  conversation: (async (server, apiKey, attrs = {}) => {
    const dealId = (attrs.dealId as number | undefined) ?? (await fixtures.deal(server, apiKey));
    lastConversationDealId = dealId;
    return run(
      server,
      apiKey,
      'mutation($input: ConversationCreateInput!) { createConversation(input: $input) { conversation { databaseId } userErrors { message } } }',
      'createConversation.conversation',
      {
        input: { sentence: `Fixture conversation ${unique()}`, ...attrs, dealId },
      },
    );
  }) as Fixture,
  /** A note, on a person made for it unless `attrs` names a deal, person or company. */
  note: (async (server, apiKey, attrs = {}) => {
    const personId = attrs.dealId || attrs.companyId || attrs.personId ? attrs.personId : await fixtures.person(server, apiKey);
    lastNotePersonId = (personId as number | undefined) ?? lastNotePersonId;
    return run(
      server,
      apiKey,
      'mutation($input: NoteCreateInput!) { createNote(input: $input) { note { databaseId } userErrors { message } } }',
      'createNote.note',
      {
        input: { content: `Fixture note ${unique()}`, ...attrs, ...(personId ? { personId } : {}) },
      },
    );
  }) as Fixture,
  /** A document (pending: nothing fetches it in tests unless a test runs the fetch), owned by the key's user. */
  document: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: DocumentCreateInput!) { createDocument(input: $input) { document { databaseId } userErrors { message } } }',
      'createDocument.document',
      {
        input: { url: `https://files.example.test/fixture-${unique()}.pdf`, ...attrs },
      },
    )) as Fixture,
  /** A calendar entry: a task owned by the key's user, due on a fixed day, unless `attrs` say otherwise (`kind: 'EVENT'` with times). */
  calendarEntry: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: CalendarEntryCreateInput!) { createCalendarEntry(input: $input) { calendarEntry { databaseId } userErrors { message } } }',
      'createCalendarEntry.calendarEntry',
      {
        input: { kind: 'TASK', name: `Fixture entry ${unique()}`, ...(attrs.kind === 'EVENT' ? {} : { dueDate: '2026-04-01' }), ...attrs },
      },
    )) as Fixture,
  /** A comment, on a note made for it unless `attrs.noteId` names one. */
  comment: (async (server, apiKey, attrs = {}) => {
    const noteId = (attrs.noteId as number | undefined) ?? (await fixtures.note(server, apiKey));
    const id = await run(
      server,
      apiKey,
      'mutation($input: CommentCreateInput!) { createComment(input: $input) { comment { databaseId } userErrors { message } } }',
      'createComment.comment',
      {
        input: { comment: `Fixture comment ${unique()}`, ...attrs, noteId },
      },
    );
    COMMENT_NOTES.set(id, noteId);
    return id;
  }) as Fixture,
  /** A custom field (v3 label) of `attrs.resource` (default DEAL), a dropdown unless `attrs.kind` says otherwise. */
  customFieldLabel: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: CustomFieldLabelCreateInput!) { createCustomFieldLabel(input: $input) { customFieldLabel { databaseId } userErrors { message } } }',
      'createCustomFieldLabel.customFieldLabel',
      {
        input: { resource: 'DEAL', name: `Fixture label ${unique()}`, kind: 'DROPDOWN', ...attrs },
      },
    )) as Fixture,
  customFieldGroup: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: CustomFieldGroupCreateInput!) { createCustomFieldGroup(input: $input) { customFieldGroup { databaseId } userErrors { message } } }',
      'createCustomFieldGroup.customFieldGroup',
      {
        input: { resource: 'DEAL', name: `Fixture group ${unique()}`, ...attrs },
      },
    )) as Fixture,
  /** An account notification for the key's own user unless `attrs.userId` names another. */
  accountNotification: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: AccountNotificationCreateInput!) { createAccountNotification(input: $input) { accountNotification { databaseId } userErrors { message } } }',
      'createAccountNotification.accountNotification',
      {
        input: { text: `Fixture notification ${unique()}`, ...attrs },
      },
    )) as Fixture,
  /** A webhook endpoint (the key must be an admin's): of deals, to a host that does not resolve here. */
  webhook: ((server, apiKey, attrs = {}) =>
    run(
      server,
      apiKey,
      'mutation($input: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { databaseId } userErrors { message } } }',
      'createWebhookEndpoint.webhookEndpoint',
      { input: { url: `https://hooks.example.com/${unique()}`, models: ['DEAL'], ...attrs } },
    )) as Fixture,
  /** A change of the feed: a company made for it; its id is the change's sequence. */
  change: (async (server, apiKey) => {
    const company = await fixtures.company(server, apiKey);
    const res = await server.graphql(apiKey, `{ changes(models: [COMPANY], recordIds: [${company}], actions: [CREATE], first: 200) { nodes { sequence } } }`);
    const [change] = res.body.data?.changes?.nodes ?? [];
    if (!change) throw new Error(`fixture change failed: ${res.text}`);
    return Number(change.sequence);
  }) as Fixture,
  /** A dropdown entry, in a person dropdown made for it unless `attrs.customFieldLabelId` names one. */
  customFieldEntry: (async (server, apiKey, attrs = {}) => {
    const customFieldLabelId = (attrs.customFieldLabelId as number | undefined) ?? (await fixtures.customFieldLabel(server, apiKey, { resource: 'PERSON' }));
    lastCustomFieldLabelId = customFieldLabelId;
    return run(
      server,
      apiKey,
      'mutation($input: CustomFieldEntryCreateInput!) { createCustomFieldEntry(input: $input) { customFieldEntry { databaseId } userErrors { message } } }',
      'createCustomFieldEntry.customFieldEntry',
      {
        input: { name: `Fixture entry ${unique()}`, ...attrs, customFieldLabelId },
      },
    );
  }) as Fixture,
};

/**
 * The template of the last item `fixtures.todoTemplateItem` made: an item's v3 attributes must name
 * a template of the same account, and the route-table tests make the sample (through the factory)
 * right before asking for the attributes, with the same key.
 */
let lastTodoTemplateId: number | null = null;

/** The deal of the last conversation `fixtures.conversation` made (a conversation's v3 attributes name a deal the key's user sees). */
let lastConversationDealId: number | null = null;

/** The person of the last note `fixtures.note` made (a note's v3 attributes name a record the key's user sees). */
let lastNotePersonId: number | null = null;

/** The note of each comment the fixtures made: routePath puts it in `/notes/:noteId/comments/:id`. */
const COMMENT_NOTES = new Map<number, number>();

/** The label of the last entry `fixtures.customFieldEntry` made (an entry's v3 attributes name a label of the same account). */
let lastCustomFieldLabelId: number | null = null;

/** A unique name for an admin list item written through v3. */
const named = (what: string) => () => ({ name: `V3 ${what} ${unique()}` });

/**
 * The admin lists declared without a hand v3 table (src/modules/lists/admin-lists.ts): the facade
 * derives their v3 face, root key their kind (rest-facade/routes/derived-admin-lists.ts), and so
 * their fixtures derive here.
 */
const DERIVED_LISTS: Readonly<Record<string, ResourceFixture>> = Object.fromEntries(
  (ADMIN_LISTS as readonly AdminListDeclaration[])
    .filter((list) => !list.v3)
    .map((list) => [list.kind, { create: listItem(memberOf(list.kind)), owned: false, v3Attrs: named(list.kind.replace(/_/g, ' ')) }]),
);

/** The registry, by v3 resource root (`route.resource.root`). */
export const FIXTURES: Readonly<Record<string, ResourceFixture>> = {
  ...DERIVED_LISTS,
  company: { create: fixtures.company, owned: true, v3Attrs: () => ({ name: `V3 Co ${unique()}` }) },
  person: { create: fixtures.person, owned: true, v3Attrs: () => ({ first_name: 'Vee', last_name: `Three ${unique()}` }) },
  deal: { create: fixtures.deal, owned: true, v3Attrs: () => ({ name: `V3 deal ${unique()}`, value: '100.50' }) },
  user: { create: fixtures.user, owned: false },
  account: { create: fixtures.account, owned: false },
  lead_status: { create: fixtures.leadStatus, owned: false, v3Attrs: () => ({ ...named('status')(), hex_color: '#123abc' }) },
  lead_source: { create: fixtures.leadSource, owned: false, v3Attrs: () => ({ ...named('source')(), cost_per_lead_in_cents: 150 }) },
  predefined_contacts_tag: { create: fixtures.contactTag, owned: false, v3Attrs: named('tag') },
  note_category: { create: fixtures.noteCategory, owned: false, v3Attrs: named('note category') },
  deal_loss_reason: { create: fixtures.dealLossReason, owned: false, v3Attrs: named('loss reason') },
  deal_won_reason: { create: fixtures.dealWonReason, owned: false, v3Attrs: named('won reason') },
  event_category: { create: fixtures.eventCategory, owned: false, v3Attrs: named('event category') },
  document_tag: { create: fixtures.documentTag, owned: false, v3Attrs: named('document tag') },
  calendar_entry_priority: { create: fixtures.calendarEntryPriority, owned: false, v3Attrs: named('priority') },
  deal_stage: { create: fixtures.dealStage, owned: false, v3Attrs: () => ({ ...named('stage')(), percent: 60 }) },
  todo_template: { create: fixtures.todoTemplate, owned: false, v3Attrs: () => ({ ...named('template')(), template_type: 'people' }) },
  // Shared searches are read by every member of the account (as account-wide records); private ones are pinned in saved-searches.test.ts.
  search: { create: fixtures.search, owned: false },
  todo_template_item: {
    create: fixtures.todoTemplateItem,
    owned: false,
    v3Attrs: () => ({ description: `V3 task ${unique()}`, todo_template_id: lastTodoTemplateId, due_date: 3 }),
  },
  // The generic label route's samples are company labels, the per-resource ones of their resource.
  custom_field_label: {
    create: (server, apiKey) => fixtures.customFieldLabel(server, apiKey, { resource: 'COMPANY' }),
    owned: false,
    v3Attrs: () => ({ ...named('label')(), field_type: 'dropdown', type: 'DealCustomFieldLabel', is_required: false }),
  },
  deal_custom_field_label: {
    create: (server, apiKey) => fixtures.customFieldLabel(server, apiKey, { resource: 'DEAL' }),
    owned: false,
    v3Attrs: () => ({ ...named('label')(), field_type: 'dropdown', type: 'DealCustomFieldLabel', is_required: false }),
  },
  person_custom_field_label: {
    create: (server, apiKey) => fixtures.customFieldLabel(server, apiKey, { resource: 'PERSON' }),
    owned: false,
    v3Attrs: () => ({ ...named('label')(), field_type: 'dropdown', type: 'DealCustomFieldLabel', is_required: false }),
  },
  company_custom_field_label: {
    create: (server, apiKey) => fixtures.customFieldLabel(server, apiKey, { resource: 'COMPANY' }),
    owned: false,
    v3Attrs: () => ({ ...named('label')(), field_type: 'dropdown', type: 'DealCustomFieldLabel', is_required: false }),
  },
  custom_field_group: { create: fixtures.customFieldGroup, owned: false, v3Attrs: () => ({ ...named('group')(), type: 'DealCustomFieldGroup' }) },
  // Seen by its user and the account's admins; `read_at` makes the attributes good for an update too (create ignores it).
  account_notification: {
    create: fixtures.accountNotification,
    owned: true,
    v3Attrs: () => ({ text: `V3 notification ${unique()}`, read_at: '2014-05-19 08:54:59 -0400' }),
  },
  // Administrators only (the isolation tests make them with an admin's key).
  webhook: {
    create: fixtures.webhook,
    owned: false,
    adminsOnly: true,
    v3Attrs: () => ({ event_model: 'person', event_action: 'create', url: `https://hooks.example.com/v3-${unique()}`, failure_email: 'ops@example.com' }),
  },
  // A change is seen by whoever sees its record (the fixture's company is the creator's own).
  change: { create: fixtures.change, owned: true },
  // A conversation is seen by whoever sees its deal (the fixture's deal is the creator's own).
  conversation: { create: fixtures.conversation, owned: true, v3Attrs: () => ({ deal_id: lastConversationDealId, sentence: `V3 conversation ${unique()}` }) },
  // A note is seen by whoever sees its record (the fixture's person is the creator's own).
  note: { create: fixtures.note, owned: true, v3Attrs: () => ({ content: `V3 note ${unique()}`, person_id: lastNotePersonId }) },
  comment: { create: fixtures.comment, owned: true, v3Attrs: () => ({ comment: `V3 comment ${unique()}` }) },
  // A document is seen by its owner (the key's user) and whoever sees a record it is linked to.
  document: {
    create: fixtures.document,
    owned: true,
    v3Attrs: () => ({ url: `https://files.example.test/v3-${unique()}.pdf`, title: `V3 document ${unique()}` }),
  },
  // A calendar entry is seen by its owner (the key's user) and whoever sees a record it is about or tied to.
  calendar_entry: {
    create: fixtures.calendarEntry,
    owned: true,
    v3Attrs: () => ({ type: 'CalendarTask', name: `V3 task ${unique()}`, due_date: '2026/04/02' }),
  },
  custom_field_label_dropdown_entry: {
    create: fixtures.customFieldEntry,
    owned: false,
    v3Attrs: () => ({ ...named('entry')(), custom_field_label_id: lastCustomFieldLabelId }),
  },
};

/**
 * Nested lists, by route path: how to create a record under a given parent (`/companies/:id/people`
 * lists that company's people). The parent itself comes from its own resource's factory.
 */
export const CHILD_FIXTURES: Readonly<Record<string, (server: TestServer, apiKey: string, parentId: number) => Promise<number>>> = {
  '/companies/:id/people': (server, apiKey, companyId) => fixtures.person(server, apiKey, { companyId }),
  '/companies/:id/deals': (server, apiKey, companyId) => fixtures.deal(server, apiKey, { companyId }),
  '/people/:id/deals': (server, apiKey, personId) => fixtures.deal(server, apiKey, { personIds: [personId] }),
  '/deals/:id/notes': (server, apiKey, dealId) => fixtures.note(server, apiKey, { dealId }),
  '/people/:id/notes': (server, apiKey, personId) => fixtures.note(server, apiKey, { personId }),
  '/companies/:id/notes': (server, apiKey, companyId) => fixtures.note(server, apiKey, { companyId }),
  '/deals/:id/people': async (server, apiKey, dealId) => fixtures.person(server, apiKey, { dealIds: [dealId] }),
  '/deals/:id/documents': (server, apiKey, dealId) => fixtures.document(server, apiKey, { dealId }),
  '/people/:id/documents': (server, apiKey, personId) => fixtures.document(server, apiKey, { personId }),
  '/companies/:id/documents': (server, apiKey, companyId) => fixtures.document(server, apiKey, { companyId }),
  '/people/:id/calendar_entries': (server, apiKey, personId) => fixtures.calendarEntry(server, apiKey, { associationType: 'PERSON', associationId: personId }),
  '/deals/:id/calendar_entries': (server, apiKey, dealId) => fixtures.calendarEntry(server, apiKey, { associationType: 'DEAL', associationId: dealId }),
  '/companies/:id/calendar_entries': (server, apiKey, companyId) =>
    fixtures.calendarEntry(server, apiKey, { associationType: 'COMPANY', associationId: companyId }),
};

/** A nested route's parent: the show route of the collection before `/:id` (`/companies/:id/people` → `/companies/:id`). */
export function parentRoute(route: RouteSpec, routes: readonly RouteSpec[]): RouteSpec | null {
  const m = /^(.*\/:id)\/[^:]+$/.exec(route.path);
  if (!m) return null;
  const show = routes.find((r) => r.kind === 'show' && r.path === m[1]);
  if (!show) throw new Error(`no show route for the parent of ${route.path}`);
  return show;
}

/** Routes the registries cannot serve yet; tests driven by the route table expect none. */
export function missingFixtures(routes: readonly RouteSpec[]): string[] {
  const missing: string[] = [];
  for (const route of routes) {
    const fixture = FIXTURES[route.resource.root];
    if (!fixture) missing.push(`${route.method} ${route.path}: no fixture for ${route.resource.root}`);
    if (fixture && route.kind === 'create' && !fixture.v3Attrs) missing.push(`${route.method} ${route.path}: no v3Attrs for ${route.resource.root}`);
    const parent = parentRoute(route, routes);
    if (parent && !CHILD_FIXTURES[route.path]) missing.push(`${route.method} ${route.path}: no child fixture`);
    if (parent && !FIXTURES[parent.resource.root]) missing.push(`${route.method} ${route.path}: no fixture for its parent ${parent.resource.root}`);
  }
  return missing;
}

/** One route made concrete for a key: the URL path to call and the record it is about. */
export interface RouteSample {
  readonly path: string;
  /** The record the route shows, updates or deletes, or one that its list includes. */
  readonly id: number;
  readonly parentId?: number;
}

/**
 * Creates, as `apiKey`'s user, what `route` needs: its record (or, for a nested list, a parent and
 * a child in it) and returns the path to call, e.g. `/api/v3/companies/12/people.json`.
 */
export async function sampleRoute(server: TestServer, apiKey: string, route: RouteSpec, routes: readonly RouteSpec[]): Promise<RouteSample> {
  // Comment routes name their note in the path (`/notes/:noteId/comments/:id`; the association id is ignored).
  if (route.path.includes(':noteId')) {
    const id = await FIXTURES.comment.create(server, apiKey);
    // By the comment, not "the last one made": samples are made concurrently.
    const noteId = COMMENT_NOTES.get(id)!;
    return {
      path: `/api/v3${route.path.replace(':associationId', String(noteId)).replace(':noteId', String(noteId)).replace(':id', String(id))}.json`,
      id,
      parentId: noteId,
    };
  }
  const parent = parentRoute(route, routes);
  if (parent) {
    const parentId = await FIXTURES[parent.resource.root].create(server, apiKey);
    const id = await CHILD_FIXTURES[route.path](server, apiKey, parentId);
    return { path: routePath(route, parentId), id, parentId };
  }
  const id = await FIXTURES[route.resource.root].create(server, apiKey);
  return { path: routePath(route, id), id };
}

/**
 * The ids a successful list answer holds: the envelope's entries, or, for a route answering another
 * media type (`route.produces`), the records it names: an iCalendar feed's UIDs.
 */
export function listedIds(route: RouteSpec, res: { readonly body: any; readonly text: string }): number[] {
  if (route.produces === undefined) return (res.body[route.entriesKey ?? 'entries'] as Array<{ id: number }>).map((e) => e.id);
  if (route.produces === 'text/calendar') return [...res.text.matchAll(/^UID:calendar-entry-(\d+)@/gm)].map((m) => Number(m[1]));
  throw new Error(`listedIds: teach it how ${route.method} ${route.path} (${route.produces}) names its records`);
}

/** `/companies/:id` with id 12 → `/api/v3/companies/12.json`. */
export function routePath(route: Pick<RouteSpec, 'path'>, id: number | string): string {
  const noteId = COMMENT_NOTES.get(Number(id));
  if (route.path.includes(':noteId') && noteId !== undefined) {
    return `/api/v3${route.path.replace(':associationId', String(noteId)).replace(':noteId', String(noteId)).replace(/:id\b/, String(id))}.json`;
  }
  return `/api/v3${route.path.replace(/:[a-zA-Z]+/g, String(id))}.json`;
}

/** Text fields an update may set to anything, in the order tried: the first the update input has is changed. */
const PLAIN_TEXT = ['name', 'title', 'content', 'comment', 'text', 'summary', 'description', 'sentence', 'lastName'];

/** An input for the update mutation `mutation` (`updateDeal`) that changes one field of any record. */
export function updateInputFor(schema: GraphQLSchema, mutation: string): Record<string, string> {
  const field = schema.getMutationType()!.getFields()[mutation];
  const input = field.args.find((a) => a.name === 'input');
  const type = input && getNamedType(input.type);
  if (!type || !isInputObjectType(type)) return {};
  const name = PLAIN_TEXT.find((n) => type.getFields()[n] && !isNonNullType(type.getFields()[n].type));
  if (name) return { [name]: `Changed ${Date.now()} ${++serial}` };
  // No text to change (a notification's update takes its read time): the first time it takes.
  const time = Object.values(type.getFields()).find((f) => getNamedType(f.type).name.startsWith('DateTime'));
  return time ? { [time.name]: new Date(Date.now() - ++serial * 1000).toISOString() } : {};
}
