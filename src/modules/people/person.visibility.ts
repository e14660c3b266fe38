import { ownedRecords } from '../../context/visibility';
import type { Records } from '../common/resource';
import { Person } from './person.entity';

/** People: who sees which (their owner, admins and `all` users), for every read and write. */
export const PERSON_RECORDS: Records<Person> = { entity: Person, alias: 'p', name: 'Person', visibility: ownedRecords<Person>() };
