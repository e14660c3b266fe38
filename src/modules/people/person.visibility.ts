import { ownedRecords } from '../../context/visibility';
import type { ResourceDef } from '../common/resource';
import { Person } from './person.entity';

/** People: who sees which (their owner, admins and `all` users), for every read and write. */
export const PEOPLE: ResourceDef<Person> = { entity: Person, alias: 'p', name: 'Person', visibility: ownedRecords<Person>() };
