import { defineResource, type InputOf } from '../../kit/fields';
import { DealStage } from './deal-stage.entity';

/**
 * Every deal stage field, once (DECISIONS: Admin surface): inputs, filter, order and their SQL
 * derive from it (src/kit/fields.ts). The service applies every writable field itself: names are
 * trimmed and unique, percent and position checked against their ranges.
 */
export const DEAL_STAGE_FIELDS = defineResource(
  {
    type: 'DealStage',
    plural: 'deal stages',
    entity: DealStage,
    alias: 'ds',
    defaultOrder: ['position'],
    createDoc: 'A new deal stage: name and percent are required; it goes to the end of the pipeline unless a position is given.',
    updateDoc: 'Changes to a deal stage: only the fields given change (none of them can be cleared).',
    filterDoc: 'Which deal stages to list: every condition given must hold; compose with and, or, not.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The stage's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    name: {
      kind: 'text',
      write: 'custom',
      required: true,
      createDoc: "Required; at most 100 characters; unique among the account's stages (case-insensitive).",
      updateDoc: "At most 100 characters; unique among the account's stages (case-insensitive); cannot be blank.",
      filter: { doc: 'Name.' },
      sort: { case: 'ci', doc: 'Name, ignoring case.' },
    },
    percent: {
      kind: 'int',
      write: 'custom',
      required: true,
      inputDoc: 'Probability a deal at this stage is won, 0 to 100 (100 wins, 0 loses).',
      filter: { doc: 'Probability a deal at this stage is won, 0 to 100.' },
      sort: { doc: 'Probability a deal at this stage is won.' },
    },
    position: {
      kind: 'int',
      write: 'custom',
      createDoc: 'Place in the pipeline (0 or more); the end of the pipeline when absent.',
      updateDoc: 'Place in the pipeline (0 or more); null leaves it.',
      sort: { doc: 'Place in the pipeline (the default).' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the stage was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: { kind: 'datetime', filter: { doc: 'When the stage was last changed.' }, sort: { doc: 'Last change.' } },
  },
);

/** What the service applies: either input. */
export type DealStageInput = InputOf<typeof DEAL_STAGE_FIELDS.table>;
