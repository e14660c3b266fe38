import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLDecimal } from '../../graphql/decimal';

@ObjectType('CustomFieldTotal', {
  simpleResolvers: true,
  description: 'The sum of one numeric or currency custom field over every record a filter matches (v3 `totals`: its custom_label_<id> key).',
})
export class CustomFieldTotal {
  @Field(() => Int, { description: "The custom field's databaseId." }) fieldId!: number;
  @Field({ description: "The field's key, custom_label_<id> (as in customFields and the v3 totals)." }) label!: string;
  @Field({ description: "The field's name." }) name!: string;
  @Field(() => GraphQLDecimal, {
    description:
      'The sum as a decimal string, 0 when no record has a value: currency fields in the account currency\'s places (e.g. "1250.00"), numeric fields exactly (e.g. "12.5").',
  })
  value!: string;
}

/** The kinds that are summed (`number`: numeric before the kinds were split). */
const SUMMED: Readonly<Record<string, 'number' | 'money'>> = { number: 'number', numeric: 'number', currency: 'money' };

/** A decimal as text in a JSON value (currency values may be stored either way); no `?`, which knex reads as a parameter. */
const DECIMAL_TEXT = '^-{0,1}[0-9]{1,30}([.][0-9]{1,30}){0,1}$';

/**
 * The sums of a resource's numeric and currency custom fields over the rows of a statement
 * (records aliased `alias`), as select columns, and how to read them from its row. Currency sums
 * are rounded to the account currency's places, numeric ones exact (trailing zeros dropped).
 */
export function customFieldSums(
  defs: ReadonlyArray<{ readonly id: number; readonly name: string; readonly kind: unknown }>,
  alias: string,
  decimals: number,
): { readonly columns: string; read(row: Record<string, unknown>): CustomFieldTotal[] } {
  const summed = defs.filter((d) => SUMMED[String(d.kind)]);
  const columns = summed
    .map((d) => {
      // The key comes from the field's integer id, never from input.
      const key = `custom_label_${Math.trunc(d.id)}`;
      const json = `${alias}.custom_fields->'${key}'`;
      const text = `(${alias}.custom_fields->>'${key}')`;
      const value = `case jsonb_typeof(${json}) when 'number' then ${text}::numeric when 'string' then case when ${text} ~ '${DECIMAL_TEXT}' then ${text}::numeric end end`;
      const sum = `coalesce(sum(${value}), 0)`;
      return `, ${SUMMED[String(d.kind)] === 'money' ? `round(${sum}, ${Math.trunc(decimals)})` : `trim_scale(${sum})`}::text as "cf_${Math.trunc(d.id)}"`;
    })
    .join('');
  return {
    columns,
    read: (row) => summed.map((d) => ({ fieldId: d.id, label: `custom_label_${d.id}`, name: d.name, value: String(row[`cf_${Math.trunc(d.id)}`] ?? '0') })),
  };
}
