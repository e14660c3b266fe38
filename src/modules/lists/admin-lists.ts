/**
 * THE admin lists that are a name in an order (DECISIONS: Admin surface; they share `list_items`,
 * list-item.entity.ts says why): one entry each. Everything else follows from an entry: the
 * ListKind value and its description, the list's query (ListItemResolver), whether its items keep
 * a colour, and, for a list without a hand-written v3 table, its v3 routes (`/admin/<snake_case of
 * the query>`, root key the kind), which the facade derives from the schema at boot
 * (rest-facade/routes/derived-admin-lists.ts). A new list is one entry here, appended at the end,
 * and a migration that adds its kind to `list_items_kind_check` (migrations/support/list-kinds.ts):
 * the check lists the kinds in this order, as the entity's enum does (docs/adding-things.md).
 */
export interface AdminListDeclaration {
  /** Stored in `list_items.kind` and the v3 root key; the ListKind value is its upper case (`lead_status`, LEAD_STATUS). */
  readonly kind: string;
  /** The query that lists its items (`leadStatuses`); its words name the list in the schema's prose. */
  readonly query: string;
  /** What the list holds: the ListKind value's description, and the query's unless `queryDoc` is given. */
  readonly doc: string;
  /** The query's description (before the sentence on reading and paging), where it says it otherwise than `doc`. */
  readonly queryDoc?: string;
  /** Its items keep a colour (ListItem.hexColor); other lists ignore one written to them. */
  readonly coloured?: boolean;
  /**
   * Its hand-written v3 face (rest-facade/resources/list-item.ts, rest-facade/routes/admin.routes.ts):
   * the path under `/admin` and the root key, which the recordings fix; test/unit/admin-lists.test.ts
   * holds the two together. Without it the facade derives the list's routes from the schema.
   */
  readonly v3?: { readonly path: string; readonly root: string };
}

export const ADMIN_LISTS = [
  {
    kind: 'lead_status',
    query: 'leadStatuses',
    doc: 'Lead statuses (with a colour).',
    queryDoc: 'Lead statuses.',
    coloured: true,
    v3: { path: 'lead_statuses', root: 'lead_status' },
  },
  {
    kind: 'lead_source',
    query: 'leadSources',
    doc: 'Where leads come from (with their costs).',
    queryDoc: 'Lead sources.',
    v3: { path: 'lead_sources', root: 'lead_source' },
  },
  // DECISIONS (Wording): "predefined the service tags" are predefined_contacts_tags.
  {
    kind: 'contact_tag',
    query: 'contactTags',
    doc: 'Predefined tags for people.',
    queryDoc: 'Predefined contact tags.',
    v3: { path: 'predefined_contacts_tags', root: 'predefined_contacts_tag' },
  },
  {
    kind: 'note_category',
    query: 'noteCategories',
    doc: 'Categories of notes.',
    queryDoc: 'Note categories.',
    v3: { path: 'note_categories', root: 'note_category' },
  },
  {
    kind: 'deal_loss_reason',
    query: 'dealLossReasons',
    doc: 'Why deals are lost.',
    queryDoc: 'Reasons deals are lost.',
    v3: { path: 'deal_loss_reasons', root: 'deal_loss_reason' },
  },
  {
    kind: 'deal_won_reason',
    query: 'dealWonReasons',
    doc: 'Why deals are won.',
    queryDoc: 'Reasons deals are won.',
    v3: { path: 'deal_won_reasons', root: 'deal_won_reason' },
  },
  {
    kind: 'event_category',
    query: 'eventCategories',
    doc: 'Categories of calendar entries and tasks (todo template items refer to them).',
    queryDoc: 'Event categories (of calendar entries and tasks).',
    v3: { path: 'event_categories', root: 'event_category' },
  },
  {
    kind: 'document_tag',
    query: 'documentTags',
    doc: 'Tags for documents.',
    queryDoc: 'Document tags.',
    v3: { path: 'document_tags', root: 'document_tag' },
  },
  {
    kind: 'calendar_entry_priority',
    query: 'calendarEntryPriorities',
    doc: 'Priorities of calendar entries and tasks (with a colour; todo template items refer to them).',
    queryDoc: 'Priorities of calendar entries and tasks.',
    coloured: true,
    v3: { path: 'calendar_entry_priorities', root: 'calendar_entry_priority' },
  },
] as const satisfies readonly AdminListDeclaration[];

export type AdminList = (typeof ADMIN_LISTS)[number];

/** The ListKind member of a kind: `lead_status` → LEAD_STATUS (GraphQL's value name, the TypeScript member). */
export const memberOf = <K extends string>(kind: K): Uppercase<K> => kind.toUpperCase() as Uppercase<K>;

/**
 * The ListKind object, as a TypeScript string enum would compile (`ListKind.LEAD_STATUS ===
 * 'lead_status'`): an enum cannot be generated, this object and its type can.
 */
export const LIST_KINDS = Object.freeze(Object.fromEntries(ADMIN_LISTS.map((l) => [memberOf(l.kind), l.kind]))) as {
  readonly [L in AdminList as Uppercase<L['kind']>]: L['kind'];
};

/**
 * The schema extension (not printed in the SDL) that marks each list's query with its ListKind
 * value and colour: the v3 facade reads it to derive the routes of the lists it has no table for,
 * from the schema alone (rest-facade/routes/derived-admin-lists.ts).
 */
export const ADMIN_LIST_EXTENSION = 'adminList';

/** A list's query in words: `calendarEntryPriorities` → "calendar entry priorities". */
const wordsOf = (list: AdminListDeclaration): string[] => list.query.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).split(' ');

/**
 * The lists in prose, for the schema's descriptions: each in the words of its query, neighbours
 * that differ in their middle word only said once ("deal loss and won reasons"), the last joined
 * with `last` ("a, b and c", or "a, b, c" without it).
 */
export function listsInProse(lists: readonly AdminListDeclaration[], last = ', '): string {
  const phrases: string[][] = [];
  for (const words of lists.map(wordsOf)) {
    const before = phrases.at(-1);
    const sameEnds = before && before.length === 3 && words.length === 3 && before[0] === words[0] && before[2] === words[2];
    if (sameEnds) before.splice(2, 0, 'and', words[1]);
    else phrases.push(words);
  }
  const text = phrases.map((p) => p.join(' '));
  return text.length < 2 ? text.join('') : `${text.slice(0, -1).join(', ')}${last}${text.at(-1)}`;
}

/** A declaration that would break the schema, the check constraint or the facade's derivation stops the boot, naming it. */
function checkDeclarations(lists: readonly AdminListDeclaration[]): void {
  const kinds = new Set<string>();
  const queries = new Set<string>();
  for (const list of lists) {
    const where = `src/modules/lists/admin-lists.ts, ${list.kind}`;
    // The kind is written into the check constraint and the enum: lower snake case only.
    if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(list.kind)) throw new Error(`${where}: a kind is lower snake case (deal_priority)`);
    if (!/^[a-z][A-Za-z0-9]*$/.test(list.query)) throw new Error(`${where}: a query name is lower camel case (dealPriorities)`);
    if (kinds.has(list.kind)) throw new Error(`${where}: declared twice`);
    if (queries.has(list.query)) throw new Error(`${where}: the query ${list.query} is another list's`);
    kinds.add(list.kind);
    queries.add(list.query);
  }
}
checkDeclarations(ADMIN_LISTS);
