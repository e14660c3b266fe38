import type { CoreModule } from '../module';
import { Deal, DealCollaborator, DealPerson } from './deal.entity';
import { CompanyDealsResolver, DEAL_RESOURCE, DealFieldsResolver, PersonDealsResolver } from './deal.resolver';
import { DealUpsertResolver } from './deal.upsert';

/** Deals, their people and collaborators; a company's and a person's deals. */
export const dealsModule: CoreModule = {
  name: 'deals',
  entities: [Deal, DealPerson, DealCollaborator],
  resolvers: [DEAL_RESOURCE.resolver, DealFieldsResolver, CompanyDealsResolver, PersonDealsResolver, DealUpsertResolver],
};
