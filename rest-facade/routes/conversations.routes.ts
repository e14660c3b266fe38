import { FacadeInputError } from '../errors/facade-error';
import { toText } from '../request/coerce';
import { conversationCreatedResource, conversationResource } from '../resources/conversation';
import type { HookRequest, RouteDeclaration } from './route-spec';

/** The facade's bound on a sentence (as on any writable text: the core checks the rest). */
const SENTENCE_MAX = 10_000;

/**
 * `deal_id` left out or blank: 422 naming it, before anything runs (the create input requires it).
 * A deal that does not exist or that the viewer may not see is the core's 422 naming `deal_id`
 * ("does not exist"): the conversation route exists, only the deal it names does not.
 */
function requireDeal(variables: Record<string, unknown>): Record<string, unknown> {
  const input = variables.input as Record<string, unknown> | undefined;
  if (input?.dealId === '' || input?.dealId == null) throw new FacadeInputError('deal_id', "can't be blank");
  return variables;
}

/**
 * v3 §4.8 `PUT /conversations/:id.json` with `conversation[sentence]` (or `sentence` at the top of a
 * JSON body): only the sentence is writable, though the answer has the show's shape (which has no
 * `sentence`), so the input is read here rather than from the resource's table. Absent: nothing
 * changes; null or empty: the core's 422 "can't be blank".
 */
function sentenceInput(variables: Record<string, unknown>, { body }: HookRequest): Record<string, unknown> {
  const rooted = body.conversation;
  if (rooted !== undefined && (rooted === null || typeof rooted !== 'object' || Array.isArray(rooted)))
    throw new FacadeInputError('conversation', 'must be an object of attributes');
  const attributes = (rooted ?? body) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  if (attributes.sentence !== undefined) input.sentence = attributes.sentence === '' ? null : toText(attributes.sentence, 'sentence', SENTENCE_MAX);
  return { ...variables, input };
}

const base = { errorShape: 'array' } as const;

/**
 * v3 §4.8. Errors: 422 bare array (DECISIONS: Status codes); a missing conversation, a note that
 * is not on a deal and one whose deal the viewer may not see are all 404 with an empty body; delete
 * answers 200 empty. There is no list route in the contract.
 */
export const CONVERSATION_ROUTES: readonly RouteDeclaration[] = [
  {
    ...base,
    resource: conversationCreatedResource,
    method: 'POST',
    path: '/conversations',
    kind: 'create',
    result: 'createConversation.conversation',
    hooks: { variables: requireDeal },
  },
  { ...base, resource: conversationResource, method: 'GET', path: '/conversations/:id', kind: 'show', result: 'conversation' },
  {
    ...base,
    resource: conversationResource,
    method: 'PUT',
    path: '/conversations/:id',
    kind: 'update',
    result: 'updateConversation.conversation',
    hooks: {
      variables: sentenceInput,
      doc: { body: { sentence: { type: 'text', max: SENTENCE_MAX, description: 'The new sentence (v3 §4.8); absent: unchanged; blank: a 422.' } } },
    },
  },
  {
    ...base,
    resource: conversationResource,
    method: 'DELETE',
    path: '/conversations/:id',
    kind: 'delete',
    result: 'deleteConversation',
    deleteBody: 'empty',
  },
];
