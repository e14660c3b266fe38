import type { CoreModule } from '../module';
import { User } from './user.entity';
import { UserFieldsResolver, UserResolver } from './user.resolver';

/** Users of an account: keys, roles, visibility. */
export const usersModule: CoreModule = { name: 'users', entities: [User], resolvers: [UserResolver, UserFieldsResolver] };
