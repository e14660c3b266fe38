import type { CoreModule } from '../module';
import { Account } from './account.entity';
import { AccountResolver } from './account.resolver';

/** Accounts: the tenant, its currency and time zone. */
export const accountsModule: CoreModule = { name: 'accounts', entities: [Account], resolvers: [AccountResolver] };
