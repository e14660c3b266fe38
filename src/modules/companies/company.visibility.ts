import { ownedRecords } from '../../context/visibility';
import type { Records } from '../common/resource';
import { Company } from './company.entity';

/** Companies: who sees which (their owner, admins and `all` users), for every read and write. */
export const COMPANY_RECORDS: Records<Company> = { entity: Company, alias: 'c', name: 'Company', visibility: ownedRecords<Company>() };
