import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC, toGlobalId } from '../../graphql/node';

/** A tenant. Nothing ever crosses accounts. */
@Entity({ tableName: 'accounts' })
@ObjectType('Account', {
  implements: Node,
  simpleResolvers: true,
  description: 'The organisation using the CRM: every record belongs to one account, and nothing crosses accounts.',
})
export class Account {
  [OptionalProps]?: 'currencyCode' | 'timeZone' | 'requirePreconditions' | 'createdAt' | 'nodeId' | 'databaseId';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => ID, { name: 'id', description: NODE_ID_DOC })
  get nodeId(): string {
    return toGlobalId('Account', this.id);
  }

  @Field(() => Int, { description: DATABASE_ID_DOC })
  get databaseId(): number {
    return this.id;
  }

  @Field({ description: "The account's name." })
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'string', length: 3 })
  currencyCode: string = 'USD';

  @Field({ description: 'IANA time zone (e.g. Europe/Berlin) used for users who have none of their own.' })
  @Property({ type: 'string', length: 64 })
  timeZone: string = 'UTC';

  @Field({
    description:
      'Whether updates and deletes of versioned records must say which version they change (`expectedVersion`; v3: If-Match): without one they are refused (PRECONDITION_REQUIRED; v3: 428). Off by default; administrators change it with `updateAccountSettings`.',
  })
  @Property({ type: 'boolean', default: false })
  requirePreconditions: boolean = false;

  @Field({ description: 'When the account was created.' })
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
