import type { JobHandlers } from '../job-run';
import { deliverMail } from './deliver-mail.job';
import { fetchDocumentJob } from './fetch-document.job';
import { runExportJob } from './run-export.job';
import { runImportJob } from './run-import.job';
import { sweep } from './sweep.job';
import { deliverWebhooksJob, dispatchWebhooksJob } from './webhooks.job';

/** Every job's handler, by name: the compiler checks one exists for each name of the union. */
export const JOB_HANDLERS: JobHandlers = {
  'deliver-mail': deliverMail,
  'fetch-document': fetchDocumentJob,
  sweep,
  'dispatch-webhooks': dispatchWebhooksJob,
  'deliver-webhooks': deliverWebhooksJob,
  'run-export': runExportJob,
  'run-import': runImportJob,
};
