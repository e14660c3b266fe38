import { defineResource, type InputOf } from '../../kit/fields';
import { Comment, Note } from './note.entity';

/**
 * Every note field, once (v3 §2.2): inputs, filter, order and the write whitelist derive from it
 * (src/kit/fields.ts). The associations are written by the service (each must be a record the
 * viewer may see); `content` is required on create and may not be blanked on update.
 */
export const NOTE_FIELDS = defineResource(
  {
    type: 'Note',
    plural: 'notes',
    entity: Note,
    alias: 'n',
    defaultOrder: ['-createdAt'],
    createDoc: 'A new note: content and at least one of dealId, personId, companyId (records the viewer may see). The owner defaults to the viewer.',
    updateDoc: 'Changes to a note: only the fields given change; null clears a field (content cannot be cleared, and one association must remain).',
    filterDoc: 'Which notes to list: every condition given must hold; compose with and, or, not.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The note's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    title: { kind: 'text', write: 'auto', doc: 'An optional title; at most 255 characters.' },
    content: {
      kind: 'text',
      write: 'custom',
      required: true,
      doc: 'The text of the note. Required; cannot be blank.',
      filter: { doc: 'The text of the note.' },
    },
    dealId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the deal the note is about (one the viewer may see); null removes it.',
      filter: { doc: 'The deal the note is about (v3 deal_id).' },
    },
    personId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the person the note is about (one the viewer may see); null removes it.',
      filter: { doc: 'The person the note is about (v3 person_id).' },
    },
    companyId: {
      kind: 'ref',
      write: 'custom',
      doc: 'databaseId of the company the note is about (one the viewer may see); null removes it.',
      filter: { doc: 'The company the note is about (v3 company_id).' },
    },
    userId: {
      kind: 'ref',
      property: 'user',
      write: 'custom',
      doc: "databaseId of the note's owner (a user of the account); the viewer when not given on create.",
      filter: { doc: "The owner (a user's databaseId)." },
      sort: { doc: "The owner's databaseId." },
    },
    noteCategoryId: {
      kind: 'ref',
      write: 'custom',
      doc: "databaseId of the note's category (an item of the note categories list); null removes it.",
      filter: { doc: 'The category (its databaseId).' },
    },
    notifyUserIds: {
      kind: 'refs',
      write: 'custom',
      doc: 'databaseIds of the users mailed when a comment is added: each must be one of possibleNotifyUserIds (a user who can see an associated record), else INVALID naming the field. Replaces the set.',
    },
    isSentMessage: {
      kind: 'boolean',
      write: 'custom',
      doc: 'For notes of the Email category (a category named "Email"): true when the mail was sent, false when received (true when not given). Null, and ignored on input, for other categories.',
      filter: { doc: 'Sent (true) or received (false) emails.' },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the note was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: {
      kind: 'datetime',
      filter: { doc: 'When the note last changed, a comment added to it included (v3 activity_modified).' },
      sort: { doc: 'Last change.' },
    },
  },
);

export type NoteInput = InputOf<typeof NOTE_FIELDS.table>;

/** Every comment field, once (v3 §2.3). */
export const COMMENT_FIELDS = defineResource(
  {
    type: 'Comment',
    plural: 'comments',
    entity: Comment,
    alias: 'cm',
    defaultOrder: ['createdAt'],
    createDoc: 'A new comment on a note the viewer may see. The author defaults to the viewer.',
    updateDoc: 'Changes to a comment: only the fields given change (the comment cannot be blanked).',
    filterDoc: 'Which comments to list: every condition given must hold; compose with and, or, not.',
  },
  {
    databaseId: { kind: 'ref', filter: { doc: "The comment's databaseId." }, sort: { as: 'ID', doc: 'databaseId (creation order).' } },
    noteId: {
      kind: 'ref',
      write: 'custom',
      required: true,
      doc: 'databaseId of the note the comment is on (one the viewer may see). Required on create; ignored on update.',
      filter: { doc: 'The note (its databaseId).' },
    },
    comment: {
      kind: 'text',
      write: 'custom',
      required: true,
      doc: 'The text of the comment. Required; cannot be blank.',
      filter: { doc: 'The text of the comment.' },
    },
    userId: {
      kind: 'ref',
      property: 'user',
      write: 'custom',
      doc: 'databaseId of the author (a user of the account); the viewer when not given on create.',
      filter: { doc: "The author (a user's databaseId)." },
    },
    editedByUserId: {
      kind: 'ref',
      property: 'editedBy',
      write: 'custom',
      v3: 'edited_by_person_id',
      doc: 'databaseId of the last user who edited the comment (a user of the account): set by the client on update (v3 edited_by_person_id), never automatically; null until then.',
      filter: { doc: "The last editor (a user's databaseId)." },
    },
    createdAt: { kind: 'datetime', filter: { doc: 'When the comment was created.' }, sort: { doc: 'Creation time.' } },
    updatedAt: {
      kind: 'datetime',
      write: 'custom',
      doc: 'When the comment last changed: now on every update unless given (writable, as v3 clients expect).',
      filter: { doc: 'When the comment last changed.' },
      sort: { doc: 'Last change.' },
    },
  },
);

export type CommentInput = InputOf<typeof COMMENT_FIELDS.table>;
