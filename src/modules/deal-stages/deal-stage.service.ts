import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { loadForWrite, removeVisible, type Records } from '../common/resource';
import { accountWide, checkName, checkRange, nameTaken, nextPosition, requireAdmin, writeUnique } from '../common/admin';
import { DealStage } from './deal-stage.entity';
import { DEAL_STAGE_FIELDS, type DealStageInput } from './deal-stage.fields';

/** DECISIONS (Paging): admin lists default to 200 entries a page. */
export const DEAL_STAGES_PAGE_SIZE = 200;

export const DEAL_STAGES: Records<DealStage> = { entity: DealStage, alias: 'ds', name: 'DealStage', visibility: accountWide<DealStage>() };

/** Every writable field is the service's own (checked once, when the module loads). */
DEAL_STAGE_FIELDS.writes(['name', 'percent', 'position']);

const TABLE = 'deal_stages';
const WHAT = 'deal stages';

/** Deal stages' own steps (deal-stage.resolver.ts; DECISIONS: Admin surface): every user of the account reads them (the record resource's list and show), admins change them. */
export class DealStageService {
  constructor(private readonly ctx: RequestContext) {}

  create(input: DealStageInput): Promise<DealStage> {
    requireAdmin(this.ctx, WHAT);
    return writeUnique(this.ctx, async (em) => {
      const issues = new Issues();
      const name = checkName(input.name, issues);
      if (input.percent == null) issues.blank('percent');
      checkRange(input.percent, 'percent', 0, 100, issues);
      checkRange(input.position, 'position', 0, 2_147_483_647, issues);
      if (name !== null && (await nameTaken(this.ctx, TABLE, name, null))) issues.taken('name');
      issues.throwIfAny();
      const position = input.position ?? (await nextPosition(this.ctx, TABLE));
      const stage = em.create(DealStage, { account: this.ctx.viewer.accountId, name: name!, percent: input.percent!, position });
      await em.flush();
      return stage;
    });
  }

  update(id: number, input: DealStageInput): Promise<DealStage> {
    requireAdmin(this.ctx, WHAT);
    return writeUnique(this.ctx, async (em) => {
      const stage = await loadForWrite(this.ctx, DEAL_STAGES, id);
      const issues = new Issues();
      const name = input.name !== undefined ? checkName(input.name, issues) : null;
      // Neither can be cleared: a stage always has a probability and a place.
      if (input.percent === null) issues.blank('percent');
      if (input.position === null) issues.blank('position');
      checkRange(input.percent, 'percent', 0, 100, issues);
      checkRange(input.position, 'position', 0, 2_147_483_647, issues);
      if (name !== null && (await nameTaken(this.ctx, TABLE, name, stage.id))) issues.taken('name');
      issues.throwIfAny();
      if (name !== null) stage.name = name;
      if (input.percent != null) stage.percent = input.percent;
      if (input.position != null) stage.position = input.position;
      stage.updatedAt = new Date();
      await em.flush();
      return stage;
    });
  }

  /** Records at the stage (deals) lose it: their foreign key clears it (`on delete set null`). */
  delete(id: number): Promise<number> {
    requireAdmin(this.ctx, WHAT);
    return removeVisible(this.ctx, DEAL_STAGES, id);
  }
}
