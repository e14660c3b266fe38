import { toText } from '../request/coerce';
import { dateTime, id, ids, nameRef, read, recordId, text, userRef } from './field-table';
import { v3Resource } from './resource-spec';

/** The facade's bound on a written URL before the core's own (2048 characters, a 422 naming `url`). */
const MAX_URL = 10_000;

/**
 * v3 §2.7, keys in the spec's order. `company_id` is shown and written beside `deal_id` and
 * `person_id` (the spec shows the `company` object; a document is linked to it the same way).
 * `owner` and `person` are the union of the two shapes the spec and the recordings show
 * (`{id, full_name}` and `{id, first_name, last_name}`; DECISIONS: Responses, issue 22 §3). `url` is write-only (v3 §2.7): read from the body by `derive`, never selected
 * or shown, since it may carry a signed query.
 */
export const documentResource = v3Resource({
  root: 'document',
  type: 'Document',
  fragment: 'DocumentV3',
  requiredOnCreate: ['url'],
  fields: {
    id: recordId(),
    title: text('title'),
    created_at: read('createdAt', 'dateTime'),
    updated_at: dateTime('updatedAt'),
    owner_id: id('ownerId'),
    person_id: id('personId'),
    deal_id: id('dealId'),
    company_id: id('companyId'),
    public_link: read('publicLink'),
    size_in_k: read('sizeInK'),
    owner: userRef('owner'),
    person: read('person', 'plain', '{ ...PersonRefV3 }'),
    deal: nameRef('deal'),
    company: nameRef('company'),
    etag: read('etag'),
    upload_status: read('uploadStatus'),
    upload_status_error_message: read('uploadStatusErrorMessage'),
    upload_state: read('uploadState', { enum: { PENDING: 'pending', COMPLETE: 'complete', ERROR: 'error' } }),
    document_tag_ids: ids('tagIds'),
    document_tags: read('tags', 'plain', '{ id: databaseId name }'),
  },
  alsoReads: {
    url: {
      type: 'text',
      max: MAX_URL,
      description: 'Write-only (v3 §2.7): the public address the document is fetched from; required on create, a new one fetches again.',
    },
  },
  derive: (input, attributes) => {
    // v3 §2.7: `url` is written, never shown.
    if (attributes.url !== undefined) input.url = attributes.url === '' ? null : toText(attributes.url, 'url', MAX_URL);
  },
  errorFields: {
    url: 'url',
    ownerId: 'owner_id',
    dealId: 'deal_id',
    personId: 'person_id',
    companyId: 'company_id',
    tagIds: 'document_tag_ids',
    updatedAt: 'updated_at',
  },
});
