import type { CoreModule } from '../module';
import { Company } from './company.entity';
import { COMPANY_RESOURCE, CompanyFieldsResolver } from './company.resolver';

export const companiesModule: CoreModule = { name: 'companies', entities: [Company], resolvers: [COMPANY_RESOURCE.resolver, CompanyFieldsResolver] };
