import type { CoreModule } from '../module';
import { Person } from './person.entity';
import { CompanyPeopleResolver, PERSON_RESOURCE, PersonFieldsResolver } from './person.resolver';
import { PersonMergeResolver } from './person.merge';
import { PersonUpsertResolver } from './person.upsert';

/** People (leads and contacts), and a company's people. */
export const peopleModule: CoreModule = {
  name: 'people',
  entities: [Person],
  resolvers: [PERSON_RESOURCE.resolver, PersonFieldsResolver, CompanyPeopleResolver, PersonUpsertResolver, PersonMergeResolver],
};
