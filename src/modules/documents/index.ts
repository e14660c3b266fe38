import type { CoreModule } from '../module';
import { Document, DocumentTag } from './document.entity';
import { DOCUMENT_PARENT_RESOLVERS, DOCUMENT_RESOURCE, DocumentFieldsResolver, DocumentPublicLinkResolver } from './document.resolver';

export { documentLinkRouter, PUBLIC_LINK_PATH } from './document.public-link';
export { dueDocumentIds, documentFetchOptions, fetchDocument, type DocumentFetchDeps, type DocumentFetchOutcome } from './document.fetch-job';
export { bulkStorageKey, createDocumentStorage, documentStorage, LocalDiskStorage, setDocumentStorage, TooLargeError, type DocumentStorage } from './storage';

/** Documents (v3 files): fetched from a URL in the background, stored, served at a public link. */
export const documentsModule: CoreModule = {
  name: 'documents',
  entities: [Document, DocumentTag],
  resolvers: [DOCUMENT_RESOURCE.resolver, DocumentPublicLinkResolver, DocumentFieldsResolver, ...DOCUMENT_PARENT_RESOLVERS],
};
