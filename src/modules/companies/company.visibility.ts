import { ownedRecords } from '../../context/visibility';
import type { ResourceDef } from '../common/resource';
import { Company } from './company.entity';

/** Companies: who sees which (their owner, admins and `all` users), for every read and write. */
export const COMPANIES: ResourceDef<Company> = { entity: Company, alias: 'c', name: 'Company', visibility: ownedRecords<Company>() };
