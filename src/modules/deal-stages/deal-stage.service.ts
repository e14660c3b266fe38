import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { Connection, ConnectionReads, Paging } from '../../graphql/connection';
import { findVisible, listConnection, loadForWrite, removeVisible, scopeOf, type ResourceDef } from '../common/resource';
import { accountWide, checkName, checkRange, nameTaken, nextPosition, requireAdmin, writeUnique } from '../lists/admin';
import { DealStage } from './deal-stage.entity';
import { DEAL_STAGE, type DealStageInput } from './deal-stage.fields';

/** DECISIONS (Paging): admin lists default to 200 entries a page. */
export const DEAL_STAGES_PAGE_SIZE = 200;

export const DEAL_STAGES: ResourceDef<DealStage> = { entity: DealStage, alias: 'ds', name: 'DealStage', visibility: accountWide<DealStage>() };

/** Every writable field is the service's own (checked once, when the module loads). */
DEAL_STAGE.writes(['name', 'percent', 'position']);

const TABLE = 'deal_stages';
const WHAT = 'deal stages';

/** Deal stages (DECISIONS: Admin surface): every user of the account reads them, admins change them. */
export class DealStageService {
  constructor(private readonly ctx: RequestContext) {}

  /** A page of the account's stages, in pipeline order unless asked otherwise. */
  list(
    filter: InstanceType<typeof DEAL_STAGE.Filter> | null | undefined,
    orderBy: ReadonlyArray<InstanceType<typeof DEAL_STAGE.Order>> | null | undefined,
    paging: Paging,
    reads?: ConnectionReads,
  ): Promise<Connection<DealStage>> {
    const condition = DEAL_STAGE.filterSql(this.ctx, filter);
    const where = scopeOf(this.ctx, DEAL_STAGES).add(condition.sql, ...condition.params);
    return listConnection(this.ctx, DEAL_STAGES, where, DEAL_STAGE.orderKeys(this.ctx.em, orderBy), paging, reads);
  }

  find(id: number): Promise<DealStage | null> {
    return findVisible(this.ctx, DEAL_STAGES, id);
  }

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
