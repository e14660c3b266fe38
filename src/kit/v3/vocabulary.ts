import { getNamedType, isEnumType, isInputObjectType, type GraphQLInputField, type GraphQLSchema } from 'graphql';
import type { ConditionKind, ConditionSpec, ConditionTable } from './conditions';
import { v3Key } from './names';

/**
 * A list's v3 conditions, declared by what cannot be derived: every field of the list's GraphQL
 * filter gets the condition `<root>_<v3 key>` from its operators (text a like-match or prefix,
 * dates and numbers ranges, references ids, enums their values), unless a condition the spec fixes
 * already feeds it. So a filterable column reaches `conditions[...]` and saved searches with no
 * line here; what is written here is the spec's own names and the filters no v3 condition reads.
 */
export interface ConditionVocabulary {
  /** The GraphQL filter input the conditions feed (`DealFilter`). */
  readonly filter: string;
  /** The derived conditions' prefix (`deal` → `deal_summary`). */
  readonly root: string;
  /** How a derived text condition matches (v3 §4.5 deals: like; §4.6 companies: prefix). */
  readonly text: 'like' | 'prefix';
  /** The conditions the spec or DECISIONS fix, by name (they win over derived ones). */
  readonly fixed: ConditionTable;
  /** Filter fields no v3 condition reads, each with the reason (a relation's nested filter, a GraphQL-only search). */
  readonly none?: Readonly<Record<string, string>>;
  /** The file declaring it, named by errors (`sourcePath(__filename)`). */
  readonly source: string;
}

/** Table or vocabulary: what a route's or a saved search's `conditions` holds. */
export type Conditions = ConditionTable | ConditionVocabulary;

export const isVocabulary = (conditions: Conditions): conditions is ConditionVocabulary =>
  typeof (conditions as ConditionVocabulary).filter === 'string' && typeof (conditions as ConditionVocabulary).fixed === 'object';

/** The condition a filter field's operator input implies; null when none is derived (a nested filter, a list). */
function derivedKind(field: GraphQLInputField, text: ConditionVocabulary['text']): { kind: ConditionKind; values?: string[] } | null {
  const named = getNamedType(field.type);
  if (!isInputObjectType(named)) return null;
  switch (named.name) {
    case 'StringFilter':
      return { kind: text };
    case 'IdFilter':
      return { kind: 'ids' };
    case 'IntFilter':
    case 'FloatFilter':
      return { kind: 'numberRange' };
    case 'DateTimeFilter':
      return { kind: 'datetimeRange' };
    case 'DateFilter':
      return { kind: 'dateRange' };
    case 'BooleanFilter':
      return { kind: 'boolean' };
  }
  // An enum's filter (`eq`/`in` of the enum): the enum's values, any case.
  const eq = named.getFields().eq;
  const values = eq && getNamedType(eq.type);
  return values && isEnumType(values) && named.getFields().in ? { kind: 'enum', values: values.getValues().map((v) => v.name) } : null;
}

const derived = new WeakMap<GraphQLSchema, Map<ConditionVocabulary, ConditionTable>>();

/**
 * The whole condition table of a vocabulary, against the schema (once per schema). A filter field
 * that no condition feeds and that cannot be derived stops the boot, naming it and the file to
 * change: a filterable field is never silently out of reach of v3.
 */
export function conditionTable(schema: GraphQLSchema, conditions: Conditions): ConditionTable {
  if (!isVocabulary(conditions)) return conditions;
  let bySchema = derived.get(schema);
  if (!bySchema) derived.set(schema, (bySchema = new Map()));
  let table = bySchema.get(conditions);
  if (!table) bySchema.set(conditions, (table = derive(schema, conditions)));
  return table;
}

function derive(schema: GraphQLSchema, vocabulary: ConditionVocabulary): ConditionTable {
  const filter = schema.getType(vocabulary.filter);
  if (!isInputObjectType(filter)) throw new Error(`${vocabulary.source}: the schema has no input ${vocabulary.filter}`);
  const fed = new Set(Object.values(vocabulary.fixed).map((spec: ConditionSpec) => spec.to.split('.')[0]));
  const table: Record<string, ConditionSpec> = {};
  const problems: string[] = [];
  for (const field of Object.values(filter.getFields())) {
    if (['and', 'or', 'not'].includes(field.name) || fed.has(field.name)) continue;
    const none = vocabulary.none?.[field.name];
    const kind = derivedKind(field, vocabulary.text);
    const key = v3Key(field.name, field.extensions);
    const name = key.startsWith(`${vocabulary.root}_`) ? key : `${vocabulary.root}_${key}`;
    // The spec's condition of the derived name feeds another field: it wins, and this field needs saying.
    const taken = name in vocabulary.fixed;
    if (none !== undefined) {
      if (kind && !taken) problems.push(`${vocabulary.filter}.${field.name} is listed under \`none\` but derives a condition: remove it from \`none\``);
      continue;
    }
    if (!kind) {
      problems.push(`${vocabulary.filter}.${field.name} has no v3 condition: feed it from \`fixed\`, or list it under \`none\` with the reason`);
      continue;
    }
    if (taken) {
      problems.push(
        `${vocabulary.filter}.${field.name} would be ${name}, which the spec gives to ${vocabulary.fixed[name].to}: feed it under another name in \`fixed\`, or list it under \`none\``,
      );
      continue;
    }
    table[name] = { to: field.name, ...kind };
  }
  for (const name of Object.keys(vocabulary.none ?? {})) {
    if (!filter.getFields()[name]) problems.push(`${vocabulary.filter} has no field ${name}, listed under \`none\``);
  }
  if (problems.length > 0) throw new Error(`${vocabulary.source}:\n  ${problems.join('\n  ')}`);
  // The spec's names first, in their order: how errors and the agreement check list them.
  return { ...vocabulary.fixed, ...table };
}
