import type { CoreModule } from '../module';
import { ExportResolver } from './export.resolver';

export { runExport, type ExportRunDeps, type ExportWriterPlan } from './export.run';
export { exportDownloadRouter } from './export.download';
export { removeExpiredExports, dueExportIds } from './export.run';
export type { ExportSource } from './export.resources';

/** Bulk exports (issue 27 §2): a list written to a file by a worker, from one snapshot, with a download link. */
export const exportsModule: CoreModule = { name: 'exports', entities: [], resolvers: [ExportResolver] };
