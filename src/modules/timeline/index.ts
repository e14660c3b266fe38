import type { CoreModule } from '../module';
import { CompanyTimelineResolver, DealTimelineResolver, PersonTimelineResolver, TimelineEventFieldsResolver } from './timeline.resolver';

/** Timelines of deals, people and companies: what happened on a record (notes, comments), newest first. */
export const timelineModule: CoreModule = {
  name: 'timeline',
  entities: [],
  resolvers: [TimelineEventFieldsResolver, DealTimelineResolver, PersonTimelineResolver, CompanyTimelineResolver],
};
