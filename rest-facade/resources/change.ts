import { mapEnum, nonNull, type JsonSchema } from '../openapi/json-schema';
import { read, shaped } from './field-table';
import { v3Resource } from './resource-spec';

const lower = (value: string | null) => (typeof value === 'string' ? value.toLowerCase() : value);

/** What `lower` makes of an enum: its values in lower case. */
const lowerShape = ({ selected }: { selected: JsonSchema }) => mapEnum(selected, (v) => v.toLowerCase());

/**
 * A change of the feed (issue 24 §2; an addition to v3): `id` its sequence, `model` and `action`
 * as webhooks name them (`deal`, `update`), `changes` by column name with `previous` and `value`,
 * `record` the tombstone of a delete.
 */
export const changeResource = v3Resource({
  root: 'change',
  type: 'Change',
  fragment: 'ChangeV3',
  deriveFromSchema: false,
  fields: {
    id: shaped(
      read('sequence', (value: string) => Number(value)),
      { type: 'integer', minimum: 1, description: 'The change’s place in the feed.' },
    ),
    model: shaped(read('model', lower), lowerShape),
    action: shaped(read('action', lower), lowerShape),
    record_id: read('recordDatabaseId'),
    occurred_at: read('occurredAt', 'dateTime'),
    actor: shaped(
      read(
        'actor',
        (actor: { kind: string; userDatabaseId: number | null; appDatabaseId: number | null }) => ({
          type: actor.kind.toLowerCase(),
          user_id: actor.userDatabaseId,
          app_id: actor.appDatabaseId,
        }),
        '{ kind userDatabaseId appDatabaseId }',
      ),
      ({ selected }) => {
        const read = nonNull(selected).properties ?? {};
        return {
          type: 'object',
          properties: {
            type: mapEnum(read.kind ?? { type: 'string' }, (v) => v.toLowerCase()),
            user_id: read.userDatabaseId ?? {},
            app_id: read.appDatabaseId ?? {},
          },
          required: ['type', 'user_id', 'app_id'],
          additionalProperties: false,
        };
      },
    ),
    origin: shaped(read('origin', lower), lowerShape),
    changes: shaped(
      read(
        'changedFields',
        (fields: Array<{ field: string; previous: unknown; value: unknown }>) =>
          Object.fromEntries(fields.map((f) => [f.field, { previous: f.previous, value: f.value }])),
        '{ field previous value }',
      ),
      {
        type: 'object',
        description: 'By column name: the value before and after.',
        additionalProperties: { type: 'object', properties: { previous: {}, value: {} }, required: ['previous', 'value'], additionalProperties: false },
      },
    ),
    record: read('tombstone'),
  },
});
