import { Args, Ctx, FieldResolver, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';
import type { RequestContext } from '../../context/context';
import { ConnectionArgs, ConnectionOf } from '../../graphql/connection';
import { Company } from '../companies/company.entity';
import { Deal } from '../deals/deal.entity';
import { Person } from '../people/person.entity';
import { TimelineEvent } from './timeline-event';
import { timelineOf } from './timeline.service';

@ObjectType('TimelineEventConnection', { description: "A page of a record's timeline, newest first, with cursors." })
export class TimelineEventConnection extends ConnectionOf(TimelineEvent as unknown as ClassType<TimelineEvent>, 'TimelineEvent', 'timeline events') {}

const TIMELINE_DOC =
  'What happened on this record, newest first: the notes written about it (conversations included) and the comments on those notes. Cursor paging (`first`/`after`, `last`/`before`); default page 100.';

/** `occurredAt` of every event type, from the record's own timestamp (notes and comments: when written). */
@Resolver(() => TimelineEvent)
export class TimelineEventFieldsResolver {
  @FieldResolver(() => Date, { description: 'When it happened: what the timeline is ordered by, newest first (for a note or a comment, when it was written).' })
  occurredAt(@Root() event: { createdAt: Date }): Date {
    return event.createdAt;
  }
}

/** `Deal.timeline`: one statement for the page of every deal resolved alike in the request. */
@Resolver(() => Deal)
export class DealTimelineResolver {
  @FieldResolver(() => TimelineEventConnection, { description: TIMELINE_DOC })
  timeline(@Root() deal: Deal, @Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    return timelineOf(ctx, 'deal', deal.id, args);
  }
}

@Resolver(() => Person)
export class PersonTimelineResolver {
  @FieldResolver(() => TimelineEventConnection, { description: TIMELINE_DOC })
  timeline(@Root() person: Person, @Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    return timelineOf(ctx, 'person', person.id, args);
  }
}

@Resolver(() => Company)
export class CompanyTimelineResolver {
  @FieldResolver(() => TimelineEventConnection, { description: TIMELINE_DOC })
  timeline(@Root() company: Company, @Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs) {
    return timelineOf(ctx, 'company', company.id, args);
  }
}
