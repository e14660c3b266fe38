import { Field, ID, Int, InterfaceType } from 'type-graphql';

/**
 * Something that happened on a deal, a person or a company, as `Deal.timeline` (and the others)
 * list it, newest first. Notes and comments implement it today; calendar entries and documents join
 * by implementing it and adding a source to TIMELINE_SOURCES (src/modules/timeline/timeline.service.ts).
 * Kept free of module imports: entities import it for their `implements`. No `resolveType`: an
 * event's type is the implementing class it is an instance of (TypeGraphQL's default, synchronous
 * as graphql-jit needs; loader rows are instances of their entity class).
 */
@InterfaceType('TimelineEvent', {
  description: 'Something that happened on a record (a note written about it, a comment on one of those notes), as a timeline lists it.',
})
export abstract class TimelineEvent {
  @Field(() => ID, { description: 'Opaque global id of the record behind the event (see `node(id:)`).' })
  id!: string;

  @Field(() => Int, { description: 'The numeric id of the record behind the event, within its own type.' })
  databaseId!: number;

  @Field({ description: 'When it happened: what the timeline is ordered by, newest first (for a note or a comment, when it was written).' })
  occurredAt!: Date;

  @Field(() => Int, { nullable: true, description: 'databaseId of the user who did it (the author of a note or comment); null when that user was deleted.' })
  userId!: number | null;
}
