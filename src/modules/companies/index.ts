import type { CoreModule } from '../module';
import { Company } from './company.entity';
import { COMPANY_RESOURCE, CompanyFieldsResolver } from './company.resolver';
import { CompanyMergeResolver } from './company.merge';
import { CompanyUpsertResolver } from './company.upsert';

export const companiesModule: CoreModule = {
  name: 'companies',
  entities: [Company],
  resolvers: [COMPANY_RESOURCE.resolver, CompanyFieldsResolver, CompanyUpsertResolver, CompanyMergeResolver],
};
