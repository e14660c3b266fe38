import { documentFetchOptions } from '../../modules/documents/document.fetch-job';
import { runImport } from '../../modules/imports/import.run';
import type { JobHandler } from '../job-run';

/** Runs or resumes one bulk import (src/modules/imports/import.run.ts). */
export const runImportJob: JobHandler<'run-import'> = async (deps, data, run) => {
  const outcome = await runImport(
    { orm: deps.orm, storage: deps.storage, config: deps.config, leaseSeconds: deps.leaseSeconds, fetch: documentFetchOptions(deps.config) },
    data.importId,
    run.signal,
  );
  return { ...outcome };
};
