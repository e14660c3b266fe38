import type { CoreModule } from '../module';
import { ApiKey } from './api-key.entity';
import { ApiKeyResolver } from './api-key.resolver';

/** Scoped API keys (issue 26 §3): a user's named keys with scopes; authentication reads them in src/http/auth.ts. */
export const apiKeysModule: CoreModule = { name: 'api-keys', entities: [ApiKey], resolvers: [ApiKeyResolver] };
