/** `dealPriorities` → `deal_priorities`: how v3 spells a GraphQL name. */
export const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * The v3 key of a GraphQL field: its `v3` extension (set from the core's field table where v3
 * spells it otherwise, e.g. `web`), else its name in snake_case; a record's databaseId is its `id`.
 * The facade's derived fields and the derived list conditions name fields by it.
 */
export function v3Key(name: string, extensions: Readonly<Record<string, unknown>> | null | undefined): string {
  if (typeof extensions?.v3 === 'string') return extensions.v3;
  return name === 'databaseId' ? 'id' : snakeCase(name);
}

/** `deal_priorities` or `dealPriorities` → `DealPriorities`: an operation's name for a v3 path or a GraphQL field. */
export const pascalCase = (name: string): string => name.replace(/(?:^|_)([a-z0-9])/g, (_, c: string) => c.toUpperCase());
