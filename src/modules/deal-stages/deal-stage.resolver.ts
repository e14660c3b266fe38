import { recordResource, SETTINGS_SCOPES } from '../common/record-resource';
import { DEAL_STAGE_FIELDS, type DealStageInput } from './deal-stage.fields';
import { DEAL_STAGES, DEAL_STAGES_PAGE_SIZE, DealStageService } from './deal-stage.service';

const ADMINS_ONLY = 'Administrators only (others get a FORBIDDEN error).';

/**
 * Deal stages (DECISIONS: Admin surface): readable by every user of the account, changed by admins
 * only. The generated list, lookup and mutations; create, update and delete are the service's
 * (admins only, unique names, percent and position checked).
 */
export const DEAL_STAGE_RESOURCE = recordResource({
  records: DEAL_STAGES,
  fields: DEAL_STAGE_FIELDS,
  singular: 'dealStage',
  plural: 'dealStages',
  scopes: SETTINGS_SCOPES,
  pageSize: DEAL_STAGES_PAGE_SIZE,
  docs: {
    list: `The account's deal stages. Every user of the account may read them. Default order: position, then databaseId; ${DEAL_STAGES_PAGE_SIZE} a page unless asked otherwise.`,
    filter: 'Which stages; all of them when absent.',
    show: "One deal stage by databaseId; null when it does not exist in the viewer's account.",
    create: `Adds a deal stage. ${ADMINS_ONLY}`,
    update: `Changes a deal stage: only the fields given. A missing stage is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    delete: `Deletes a deal stage. A missing stage is a NOT_FOUND user error. ${ADMINS_ONLY}`,
    id: "The stage's databaseId.",
    input: 'The new stage.',
    created: 'The created stage',
    changed: 'The stage as changed',
  },
  steps: {
    create: (ctx, input) => new DealStageService(ctx).create(input as DealStageInput),
    update: (ctx, id, input) => new DealStageService(ctx).update(id, input as DealStageInput),
    delete: (ctx, id) => new DealStageService(ctx).delete(id),
  },
});
