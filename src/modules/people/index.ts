import type { CoreModule } from '../module';
import { Person } from './person.entity';
import { CompanyPeopleResolver, PersonFieldsResolver, PersonResolver } from './person.resolver';

/** People (leads and contacts), and a company's people. */
export const peopleModule: CoreModule = { name: 'people', entities: [Person], resolvers: [PersonResolver, PersonFieldsResolver, CompanyPeopleResolver] };
