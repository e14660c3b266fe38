import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';

/** A tenant. Nothing ever crosses accounts. */
@Entity({ tableName: 'accounts' })
@ObjectType('Account', { simpleResolvers: true })
export class Account {
  [OptionalProps]?: 'currencyCode' | 'timeZone' | 'createdAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field()
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'string', length: 3 })
  currencyCode: string = 'USD';

  @Field({ description: 'IANA time zone used for users who have none of their own' })
  @Property({ type: 'string', length: 64 })
  timeZone: string = 'UTC';

  @Field()
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
