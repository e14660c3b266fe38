import { VisibilityRule, type VisibilityTerm } from '../../context/visibility';
import { linkedRecordsTerm } from '../common/linked-records';
import type { Records } from '../common/resource';
import { Comment, Note } from './note.entity';

/*
 * Who sees notes and comments: a module of its own (the entities and the rules only), so that
 * what renders mail about a note can read the rule without loading the notes service (which
 * records mail through the outbox).
 */

/** Visible through a linked record it is about (issue 12 §1). */
const associatedTerm = linkedRecordsTerm<Note>('n', 'Note');

export const NOTE_RECORDS: Records<Note> = { entity: Note, alias: 'n', name: 'Note', visibility: new VisibilityRule<Note>([associatedTerm]) };

/** A comment is visible when its note is. */
const commentTerm: VisibilityTerm<Comment> = {
  sql: (alias, userId) => {
    const inner = associatedTerm.sql('cn', userId);
    return { sql: `exists (select 1 from "notes" cn where cn.id = ${alias}.note_id and (${inner.sql}))`, params: [...inner.params] };
  },
  holds: () => {
    throw new Error('Comment visibility is decided in SQL, not in memory');
  },
};

export const COMMENT_RECORDS: Records<Comment> = { entity: Comment, alias: 'cm', name: 'Comment', visibility: new VisibilityRule<Comment>([commentTerm]) };
