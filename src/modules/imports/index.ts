import type { CoreModule } from '../module';
import { ImportResolver } from './import.resolver';

/** Bulk imports (issue 27 §1): uploads (import.upload.ts), startImport and its job (import.run.ts), progress and row errors. */
export const importsModule: CoreModule = { name: 'imports', entities: [], resolvers: [ImportResolver] };
