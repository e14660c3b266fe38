import type { CoreModule } from '../module';
import { DealStage } from './deal-stage.entity';
import { DealStageResolver } from './deal-stage.resolver';

/** The account's deal stages (its sales pipeline): an admin list with a percent of its own. */
export const dealStagesModule: CoreModule = { name: 'deal-stages', entities: [DealStage], resolvers: [DealStageResolver] };
