import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';
import { ListItem } from '../lists/list-item.entity';
import { TodoTemplate } from './todo-template.entity';

/**
 * One task of a todo template (DECISIONS: Admin surface: `todo_template_items`). Deleted with its
 * template; an event category or priority it names (admin list items) may be deleted, which
 * clears the reference (foreign keys `on delete set null`).
 */
@Entity({ tableName: 'todo_template_items' })
@Index({ name: 'todo_template_items_template_order', properties: ['account', 'todoTemplate', 'position'] })
@Index({ name: 'todo_template_items_event_category', properties: ['eventCategory'] })
@Index({ name: 'todo_template_items_priority', properties: ['calendarEntryPriority'] })
@ObjectType('TodoTemplateItem', {
  implements: Node,
  simpleResolvers: true,
  description: 'A task of a todo template: what to do and when, counted from the day the template is applied.',
})
export class TodoTemplateItem {
  [OptionalProps]?:
    | 'dueDate'
    | 'eventCategory'
    | 'calendarEntryPriority'
    | 'position'
    | 'createdAt'
    | 'updatedAt'
    | 'nodeId'
    | 'databaseId'
    | 'todoTemplateId'
    | 'eventCategoryId'
    | 'calendarEntryPriorityId'
    | 'accountId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('TodoTemplateItem', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => TodoTemplate, { deleteRule: 'cascade' })
  todoTemplate!: TodoTemplate;

  @Field({ description: 'What to do, at most 255 characters.' })
  @Property({ type: 'string', length: 255 })
  description!: string;

  @Field(() => Int, { nullable: true, description: 'When the task is due: days after the template is applied (0: the same day); null for no due date.' })
  @Property({ type: 'integer', nullable: true })
  dueDate: number | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  eventCategory: ListItem | null = null;

  @ManyToOne(() => ListItem, { nullable: true, deleteRule: 'set null' })
  calendarEntryPriority: ListItem | null = null;

  @Field(() => Int, { description: 'Place in its template (0 or more); items are ordered by position, then databaseId.' })
  @Property({ type: 'integer' })
  position: number = 0;

  @Field({ description: 'When the item was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: 'When the item was last changed.' })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: 'databaseId of the todo template the item belongs to.' })
  get todoTemplateId(): number {
    return this.todoTemplate.id;
  }

  @Field(() => Int, { description: "databaseId of the account it belongs to (the viewer's)." })
  @Extensions({ [READS]: ['account'] })
  get accountId(): number {
    return this.account.id;
  }

  @Field(() => Int, { nullable: true, description: "databaseId of the item's event category (an item of the event categories list); null when none." })
  get eventCategoryId(): number | null {
    return this.eventCategory?.id ?? null;
  }

  @Field(() => Int, { nullable: true, description: "databaseId of the item's priority (an item of the calendar entry priorities list); null when none." })
  get calendarEntryPriorityId(): number | null {
    return this.calendarEntryPriority?.id ?? null;
  }
}
