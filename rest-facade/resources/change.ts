import { read } from './field-table';
import { v3Resource } from './resource-spec';

const lower = (value: string | null) => (typeof value === 'string' ? value.toLowerCase() : value);

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
    id: read('sequence', (value: string) => Number(value)),
    model: read('model', lower),
    action: read('action', lower),
    record_id: read('recordDatabaseId'),
    occurred_at: read('occurredAt', 'dateTime'),
    actor: read(
      'actor',
      (actor: { kind: string; userDatabaseId: number | null; appDatabaseId: number | null }) => ({
        type: actor.kind.toLowerCase(),
        user_id: actor.userDatabaseId,
        app_id: actor.appDatabaseId,
      }),
      '{ kind userDatabaseId appDatabaseId }',
    ),
    origin: read('origin', lower),
    changes: read(
      'changedFields',
      (fields: Array<{ field: string; previous: unknown; value: unknown }>) =>
        Object.fromEntries(fields.map((f) => [f.field, { previous: f.previous, value: f.value }])),
      '{ field previous value }',
    ),
    record: read('tombstone'),
  },
});
