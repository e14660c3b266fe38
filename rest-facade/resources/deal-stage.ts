import { recordId, text } from './field-table';
import { integer, TIMESTAMPS } from './list-item';
import { v3Resource } from './resource-spec';

/** DECISIONS (Admin surface): deal stages, `percent` 0–100 (the convenience object of v3 §2.5 shows id, name, percent). */
export const dealStageResource = v3Resource({
  root: 'deal_stage',
  type: 'DealStage',
  fragment: 'DealStageV3',
  requiredOnCreate: ['name', 'percent'],
  fields: { id: recordId(), name: text('name'), percent: integer('percent'), position: integer('position'), ...TIMESTAMPS },
});
