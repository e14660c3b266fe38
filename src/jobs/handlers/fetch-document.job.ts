import { documentFetchOptions, fetchDocument } from '../../modules/documents/document.fetch-job';
import type { JobHandler } from '../job-run';

/** Fetches one document's URL into storage (src/modules/documents/document.fetch-job.ts). */
export const fetchDocumentJob: JobHandler<'fetch-document'> = async (deps, data, run) => {
  const outcome = await fetchDocument(
    { orm: deps.orm, storage: deps.storage, fetch: documentFetchOptions(deps.config), leaseSeconds: deps.leaseSeconds, maxAttempts: 3 },
    data.documentId,
    run.signal,
  );
  return { ...outcome };
};
