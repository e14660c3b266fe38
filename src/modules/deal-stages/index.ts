import type { CoreModule } from '../module';
import { DealStage } from './deal-stage.entity';
import { DEAL_STAGE_RESOURCE } from './deal-stage.resolver';

/** The account's deal stages (its sales pipeline): an admin list with a percent of its own. */
export const dealStagesModule: CoreModule = { name: 'deal-stages', entities: [DealStage], resolvers: [DEAL_STAGE_RESOURCE.resolver] };
