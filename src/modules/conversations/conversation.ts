import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, toGlobalId } from '../../graphql/node';
import { Versioned, VERSION_DOC } from '../../graphql/versioned';
import type { Note } from '../notes/note.entity';

/**
 * How many characters (Unicode code points) a conversation's preview holds at most (v3 §2.8:
 * `preview` and `has_more`; the spec gives no length). DECISION: the preview is the sentence,
 * trimmed, when it fits in PREVIEW_LENGTH characters; otherwise it is cut on the last word boundary
 * (whitespace) at or before PREVIEW_LENGTH characters, trailing whitespace dropped, no ellipsis
 * added (a hard cut at PREVIEW_LENGTH when the first PREVIEW_LENGTH + 1 characters hold no
 * whitespace). `has_more` is true exactly when the preview leaves out part of the sentence.
 */
export const PREVIEW_LENGTH = 140;

export function previewOf(sentence: string): { preview: string; hasMore: boolean } {
  const text = sentence.trim();
  const chars = Array.from(text);
  if (chars.length <= PREVIEW_LENGTH) return { preview: text, hasMore: false };
  // A whitespace right after the limit is a boundary too: the last word then fits whole.
  let cut = -1;
  for (let i = PREVIEW_LENGTH; i > 0; i--) {
    if (/\s/.test(chars[i])) {
      cut = i;
      break;
    }
  }
  const preview = cut > 0 ? chars.slice(0, cut).join('').trimEnd() : chars.slice(0, PREVIEW_LENGTH).join('');
  return { preview, hasMore: true };
}

/**
 * A conversation (v3 §2.8): a note on a deal, seen through its own small shape. Built from the
 * note row; its ids are the note's databaseId (global id `Conversation:<id>`).
 */
@ObjectType('Conversation', {
  implements: [Node, Versioned],
  simpleResolvers: true,
  description: 'A conversation: a note on a deal, written as one `sentence` and shown as a preview (v3 "conversation").',
})
export class Conversation {
  /** The note's id. */
  readonly databaseIdValue: number;

  constructor(note: Note) {
    this.databaseIdValue = note.id;
    this.dealId = note.deal!.id;
    this.userId = note.user?.id ?? null;
    this.sentence = note.content;
    this.createdAt = note.createdAt;
    this.updatedAt = note.updatedAt;
    this.version = note.version;
    const { preview, hasMore } = previewOf(note.content);
    this.preview = preview;
    this.hasMore = hasMore;
  }

  @Field(() => ID, { name: 'id', description: 'Opaque global id (the same for this record everywhere in the API); see `node(id:)`.' })
  get nodeId(): string {
    return toGlobalId('Conversation', this.databaseIdValue);
  }

  @Field(() => Int, { description: `${DATABASE_ID_DOC} The same number as the note it is.` })
  get databaseId(): number {
    return this.databaseIdValue;
  }

  @Field(() => Int, { description: 'databaseId of the deal the conversation is on.' })
  dealId: number;

  @Field(() => Int, { nullable: true, description: 'databaseId of the user who wrote it (its owner); null when that user was deleted.' })
  userId: number | null;

  @Field({ description: 'The whole text.' })
  sentence: string;

  @Field({
    description: `The start of the text: all of it when it fits in ${PREVIEW_LENGTH} characters, else cut on the last word boundary before that (see hasMore).`,
  })
  preview: string;

  @Field({ description: 'Whether the preview leaves out part of the text.' })
  hasMore: boolean;

  @Field({ description: 'When it was written.' })
  createdAt: Date;

  @Field({ description: 'When it last changed.' })
  updatedAt: Date;

  @Field(() => Int, { description: `${VERSION_DOC} The note's version.` })
  version: number;
}
