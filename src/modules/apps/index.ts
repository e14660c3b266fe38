import type { CoreModule } from '../module';
import { ApiApp } from './api-app.entity';

/** Registered applications (`app_key`, their own rate tier). */
export const appsModule: CoreModule = { name: 'apps', entities: [ApiApp], resolvers: [] };
