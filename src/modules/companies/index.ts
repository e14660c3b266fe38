import type { CoreModule } from '../module';
import { Company } from './company.entity';
import { CompanyFieldsResolver, CompanyResolver } from './company.resolver';

export const companiesModule: CoreModule = { name: 'companies', entities: [Company], resolvers: [CompanyResolver, CompanyFieldsResolver] };
