import { runExport } from '../../modules/exports';
import { exportPlan } from '../export-columns';
import type { JobHandler } from '../job-run';

/** Writes one export's file (src/modules/exports/export.run.ts), its columns those of the v3 tables (../export-columns.ts). */
export const runExportJob: JobHandler<'run-export'> = async (deps, data, run) => {
  const outcome = await runExport(
    {
      orm: deps.orm,
      storage: deps.storage,
      leaseSeconds: deps.leaseSeconds,
      maxRows: deps.config.exports.maxRows,
      linkTtlHours: deps.config.exports.linkTtlHours,
      maxAttempts: 3,
      plan: exportPlan,
    },
    data.exportId,
    run.signal,
  );
  return { ...outcome };
};
