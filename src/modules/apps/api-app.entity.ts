import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** A registered API application: its app_key raises the rate-limit tier (v3 §5.4, §8.1). */
@Entity({ tableName: 'api_apps' })
export class ApiApp {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'string', length: 64, unique: true })
  keyHash!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
