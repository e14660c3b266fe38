/**
 * camelCase (GraphQL) → snake_case (v3), the Rails `underscore` rule: `lastName` → `last_name`,
 * `phone1Desc` → `phone1_desc`, `URLValue` → `url_value`. Digits do not start a word, so
 * `address1` stays `address1`; v3's irregular names (`address_1`, `work_address_1` beside
 * `phone1`) come from the caller's `exceptions` (camel → snake), looked up first.
 */
export function snakeCase(camel: string, exceptions?: Readonly<Record<string, string>>): string {
  if (exceptions && Object.prototype.hasOwnProperty.call(exceptions, camel)) return exceptions[camel];
  return camel
    .replace(/([A-Z\d]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * `humanized_field` of a v3 validation error (v3 §7), as Rails' `humanize`: a trailing `_id` is
 * dropped, underscores become spaces, leading underscores go, the rest is lower case with the
 * first letter capitalised: `last_name` → `Last name`, `company_id` → `Company`, `base` → `Base`.
 */
export function humanize(field: string): string {
  const words = field.replace(/^_+/, '').replace(/_id$/, '').replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
