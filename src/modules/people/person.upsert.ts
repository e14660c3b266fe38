import { registerEnumType } from 'type-graphql';
import { keyText, upsertResolver, type UpsertDeclaration } from '../common/upsert';
import { CustomFieldResource } from '../custom-fields/custom-field.enums';
import type { Person } from './person.entity';
import { PERSON_FIELDS, type PersonInput } from './person.fields';
import { PersonService } from './person.service';
import { PERSON_RECORDS } from './person.visibility';

export enum PersonMatchKey {
  EMAIL = 'EMAIL',
}
registerEnumType(PersonMatchKey, {
  name: 'PersonMatchKey',
  description: 'What identifies an existing person in upsertPeople.',
  valuesConfig: { EMAIL: { description: 'The main email (email), ignoring case and surrounding spaces; email2 and homeEmail are not compared.' } },
});

/** People by email, or by an external id field (docs/upsert-and-merge.md); created and updated by PersonService. */
export const PERSON_UPSERT: UpsertDeclaration<Person, PersonInput> = {
  records: PERSON_RECORDS,
  scope: 'people:write',
  singular: 'person',
  plural: 'People',
  input: PERSON_FIELDS.CreateInput,
  matchEnum: PersonMatchKey,
  defaultKey: PersonMatchKey.EMAIL,
  keys: {
    [PersonMatchKey.EMAIL]: {
      field: 'email',
      words: 'email',
      condition: (ctx, input, alias) => {
        const email = keyText(input.email);
        return email === null ? null : { sql: `lower(${alias}.email) = lower(?)`, params: [email] };
      },
    },
  },
  customFields: CustomFieldResource.PERSON,
  fingerprint: `(to_jsonb(p) - 'updated_at' - 'viewed_at')
    || jsonb_build_object('deal_ids', (select coalesce(jsonb_agg(dp.deal_id order by dp.deal_id), '[]') from "deal_people" dp where dp.person_id = p.id))`,
  create: (ctx, input) => new PersonService(ctx).create(input),
  update: (ctx, id, input) => new PersonService(ctx).update(id, input),
};

export const PersonUpsertResolver = upsertResolver(PERSON_UPSERT);
