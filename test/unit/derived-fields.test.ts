import { buildSchema, type GraphQLInputObjectType } from 'graphql';
import { derivedFields } from '../../rest-facade/resources/derived';
import { read, text } from '../../rest-facade/resources/field-table';

/** A column declared once in the core reaches v3 without a line in the facade (derived.ts). */
describe('fields derived from the schema', () => {
  const schema = buildSchema(`
    scalar DateTimeISO
    scalar Decimal
    scalar JSONObject
    enum Kind { A B }
    type Deal { name: String nextStep: String winChance: Int ownerId: Int tagIds: [Int!] closedAt: DateTimeISO fee: Decimal kind: Kind readOnly: String expectedCloseDate: String }
    input DealUpdateInput { name: String nextStep: String winChance: Int ownerId: Int tagIds: [Int!] closedAt: DateTimeISO fee: Decimal kind: Kind inputOnly: String expectedCloseDate: String }
    type Query { deal: Deal }
  `);
  // The core's field table puts a v3 name that differs on the input field (src/kit/fields.ts).
  (schema.getType('DealUpdateInput') as GraphQLInputObjectType).getFields().winChance.extensions = { v3: 'probability_pct' };

  it('adds every writable field the record shows and the table leaves out, under its v3 key, typed by its input', () => {
    const { fields, unmapped } = derivedFields(schema, 'Deal', { name: text('name'), shown_owner: read('ownerId') });
    expect(Object.keys(fields)).toEqual(['next_step', 'probability_pct', 'tag_ids', 'closed_at', 'fee', 'expected_close_date']);
    expect(fields.next_step).toMatchObject({ from: 'nextStep', write: { type: 'text' }, show: 'plain' });
    expect(fields.probability_pct).toMatchObject({ from: 'winChance', write: { type: 'integer' } });
    expect(fields.tag_ids.write?.type).toBe('ids');
    expect(fields.closed_at).toMatchObject({ write: { type: 'datetime' }, show: 'dateTime' });
    expect(fields.fee.write?.type).toBe('money');
    expect(fields.expected_close_date).toMatchObject({ write: { type: 'date' }, show: 'date' });
    // An enum needs its v3 values: reported, never guessed.
    expect(unmapped).toEqual(['Deal.kind']);
  });
});
