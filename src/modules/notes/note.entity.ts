import { Check, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { Versioned, VersionColumn } from '../../graphql/versioned';
import { READS } from '../../graphql/read-set';
import { TimelineEvent } from '../timeline/timeline-event';
import { Account } from '../accounts/account.entity';
import { Company } from '../companies/company.entity';
import { Deal } from '../deals/deal.entity';
import { ListItem } from '../lists/list-item.entity';
import { Person } from '../people/person.entity';
import { User } from '../users/user.entity';

/**
 * A note (v3 §2.2 "activity"): what a user wrote about a deal, a person and/or a company (at least
 * one). A note is visible exactly when one of its associated records is visible to the viewer. A
 * conversation (v3 §2.8) is a note on a deal, read and written through its own shape.
 * `notifyUserIds`: the users mailed when a comment is added (only users who may see the note).
 */
@Entity({ tableName: 'notes' })
@Check({ name: 'notes_associated', expression: '"deal_id" is not null or "person_id" is not null or "company_id" is not null' })
@Index({ name: 'notes_account_updated', properties: ['account', 'updatedAt', 'id'] })
@Index({ name: 'notes_account_created', properties: ['account', 'createdAt', 'id'] })
@Index({ name: 'notes_deal', properties: ['deal', 'createdAt', 'id'] })
@Index({ name: 'notes_person', properties: ['person', 'createdAt', 'id'] })
@Index({ name: 'notes_company', properties: ['company', 'createdAt', 'id'] })
@ObjectType('Note', {
  implements: [Node, TimelineEvent, Versioned],
  simpleResolvers: true,
  description: 'What a user wrote about a deal, a person or a company (v3 "note" or "activity").',
})
export class Note {
  [OptionalProps]?:
    | 'version'
    | 'title'
    | 'notifyUserIds'
    | 'isSentMessage'
    | 'createdAt'
    | 'updatedAt'
    | 'nodeId'
    | 'databaseId'
    | 'userId'
    | 'dealId'
    | 'personId'
    | 'companyId'
    | 'noteCategoryId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Note', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** The owner (v3 `user_id`). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  @ManyToOne(() => Deal, { nullable: true, deleteRule: 'cascade' })
  deal: Deal | null = null;

  @ManyToOne(() => Person, { nullable: true, deleteRule: 'cascade' })
  person: Person | null = null;

  @ManyToOne(() => Company, { nullable: true, deleteRule: 'cascade' })
  company: Company | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  noteCategory: ListItem | null = null;

  @Field(() => String, { nullable: true, description: 'An optional title.' })
  @Property({ type: 'string', length: 255, nullable: true })
  title: string | null = null;

  @Field({ description: 'The text of the note (required).' })
  @Property({ type: 'text' })
  content!: string;

  /** Users mailed when a comment is added (v3 `notify_user_ids`). */
  @Field(() => [Int], { description: 'databaseIds of the users mailed when a comment is added to the note.' })
  @Property({ type: 'json', defaultRaw: `'[]'` })
  notifyUserIds: number[] = [];

  /** For notes of the Email category: sent (true) or received (false); null otherwise. */
  @Field(() => Boolean, { nullable: true, description: 'For notes of the Email category: true when sent, false when received; null for other categories.' })
  @Property({ type: 'boolean', nullable: true })
  isSentMessage: boolean | null = null;

  @Field({ description: 'When the note was created.' }) @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field({ description: 'When the note last changed (a comment added to it counts).' }) @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field(() => Int, { nullable: true, description: "databaseId of the note's owner." })
  @Extensions({ [READS]: ['user'] })
  get userId(): number | null {
    return this.user?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the deal the note is about, if any.' })
  @Extensions({ [READS]: ['deal'] })
  get dealId(): number | null {
    return this.deal?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the person the note is about, if any.' })
  @Extensions({ [READS]: ['person'] })
  get personId(): number | null {
    return this.person?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the company the note is about, if any.' })
  @Extensions({ [READS]: ['company'] })
  get companyId(): number | null {
    return this.company?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: "databaseId of the note's category (an item of the note categories list)." })
  @Extensions({ [READS]: ['noteCategory'] })
  get noteCategoryId(): number | null {
    return this.noteCategory?.id ?? null;
  }
}

/** A comment on a note (v3 §2.3). Visible when its note is. */
@Entity({ tableName: 'comments' })
@Index({ name: 'comments_note_created', properties: ['note', 'createdAt', 'id'] })
@Index({ name: 'comments_account_created', properties: ['account', 'createdAt', 'id'] })
@ObjectType('Comment', { implements: [Node, TimelineEvent, Versioned], simpleResolvers: true, description: 'A comment on a note.' })
export class Comment {
  [OptionalProps]?: 'version' | 'editedBy' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'userId' | 'noteId' | 'editedByUserId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @VersionColumn() version: number = 1;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Comment', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Note, { deleteRule: 'cascade' })
  note!: Note;

  /** The author (v3 `user_id`). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  /** The last user who edited it (v3 `edited_by_user_id`, written as `edited_by_person_id`); null until edited. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  editedBy: User | null = null;

  @Field({ description: 'The text of the comment (required).' })
  @Property({ type: 'text' })
  comment!: string;

  @Field({ description: 'When the comment was created.' }) @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Field({ description: 'When the comment last changed (writable over v3).' }) @Property({ type: 'datetime' }) updatedAt: Date = new Date();

  @Field(() => Int, { description: 'databaseId of the note the comment is on.' })
  @Extensions({ [READS]: ['note'] })
  get noteId(): number {
    return this.note.id;
  }
  @Field(() => Int, { nullable: true, description: "databaseId of the comment's author." })
  @Extensions({ [READS]: ['user'] })
  get userId(): number | null {
    return this.user?.id ?? null;
  }
  @Field(() => Int, { nullable: true, description: 'databaseId of the last user who edited the comment; null until edited.' })
  @Extensions({ [READS]: ['editedBy'] })
  get editedByUserId(): number | null {
    return this.editedBy?.id ?? null;
  }
}
