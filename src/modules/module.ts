import type { EntityClass } from '@mikro-orm/core';

/** What a module of the core brings to the service: its tables and its part of the schema. */
export interface CoreModule {
  readonly name: string;
  /** Its entities (tables), registered with the ORM. */
  readonly entities: ReadonlyArray<EntityClass<object>>;
  /** Its TypeGraphQL resolvers (queries, mutations, fields of its types). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeGraphQL takes resolver classes as Function
  readonly resolvers: ReadonlyArray<Function>;
}
