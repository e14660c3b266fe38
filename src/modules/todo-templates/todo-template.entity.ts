import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';
import { READS } from '../../graphql/read-set';
import { Account } from '../accounts/account.entity';

/** What a todo template is applied to (v3 `template_type`: `people`, `deals`, or null for either). */
export enum TodoTemplateType {
  PEOPLE = 'people',
  DEALS = 'deals',
}
registerEnumType(TodoTemplateType, {
  name: 'TodoTemplateType',
  description: 'What a todo template is meant for.',
  valuesConfig: {
    PEOPLE: { description: 'People (leads and contacts).' },
    DEALS: { description: 'Deals.' },
  },
});

/**
 * A named set of tasks created together (DECISIONS: Admin surface: `todo_templates`); its items
 * are TodoTemplateItem rows, deleted with it.
 */
@Entity({ tableName: 'todo_templates' })
@Index({ name: 'todo_templates_account', properties: ['account'] })
// Unique per account ignoring case: an expression index, declared with the migration's statement.
@Unique({
  name: 'todo_templates_account_name_unique',
  expression: `create unique index "todo_templates_account_name_unique" on "todo_templates" ("account_id", lower("name"))`,
})
@ObjectType('TodoTemplate', {
  implements: Node,
  simpleResolvers: true,
  description: 'A named set of tasks (its items) to create at once for a person or a deal.',
})
export class TodoTemplate {
  [OptionalProps]?: 'templateType' | 'isDefault' | 'createdAt' | 'updatedAt' | 'nodeId' | 'databaseId' | 'accountId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('TodoTemplate', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Field({ description: "Name, unique among the account's todo templates (case-insensitive), at most 100 characters." })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => TodoTemplateType, { nullable: true, description: 'What the template is meant for: people or deals; null for either.' })
  @Enum({ items: () => TodoTemplateType, nullable: true })
  templateType: TodoTemplateType | null = null;

  @Field({ description: 'The template offered first for its type; at most one template of each type is the default.' })
  @Property({ type: 'boolean' })
  isDefault: boolean = false;

  @Field({ description: 'When the template was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field({ description: "When the template was last changed (its items' changes included)." })
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: "databaseId of the account it belongs to (the viewer's)." })
  @Extensions({ [READS]: ['account'] })
  get accountId(): number {
    return this.account.id;
  }
}
