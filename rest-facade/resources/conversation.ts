import { id, read, recordId, text, userRef } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §2.8 / §4.8: what `POST /conversations.json` answers, `{id, user_id, deal_id, user, created_at,
 * sentence}`, and what it writes (`conversation[deal_id, sentence]`). `user` is the union
 * convenience object `{id, first_name, last_name, full_name}` (DECISIONS: Responses).
 */
export const conversationCreatedResource = v3Resource({
  root: 'conversation',
  type: 'Conversation',
  fragment: 'ConversationCreatedV3',
  requiredOnCreate: ['dealId', 'sentence'],
  fields: {
    id: recordId(),
    user_id: read('userId'),
    deal_id: id('dealId'),
    user: userRef('user'),
    created_at: read('createdAt', 'dateTime'),
    sentence: text('sentence'),
  },
});

/**
 * v3 §2.8: "Retrieve and update responses instead return author (string), created_at, has_more
 * (boolean), id, preview (string)". Nothing of it is writable: the update route takes
 * `conversation[sentence]` through its own hook (rest-facade/routes/conversations.routes.ts).
 * The preview rule is the core's (src/modules/conversations/conversation.ts).
 */
export const conversationResource = v3Resource({
  root: 'conversation',
  type: 'Conversation',
  fragment: 'ConversationV3',
  errorFields: { sentence: 'sentence' },
  // §2.8 fixes these five keys: the sentence is written, never shown back here.
  deriveFromSchema: false,
  fields: {
    author: read('author'),
    created_at: read('createdAt', 'dateTime'),
    has_more: read('hasMore'),
    id: recordId(),
    preview: read('preview'),
  },
});
