import type { CoreModule } from './module';
import { accountNotificationsModule } from './account-notifications';
import { accountsModule } from './accounts';
import { appsModule } from './apps';
import { calendarModule } from './calendar';
import { companiesModule } from './companies';
import { conversationsModule } from './conversations';
import { customFieldsModule } from './custom-fields';
import { customFieldSearchModule } from './custom-field-search';
import { dealsModule } from './deals';
import { dealStagesModule } from './deal-stages';
import { documentsModule } from './documents';
import { listsModule } from './lists';
import { outboxModule } from './outbox';
import { peopleModule } from './people';
import { savedSearchesModule } from './saved-searches';
import { timelineModule } from './timeline';
import { notesModule } from './notes';
import { todoTemplatesModule } from './todo-templates';
import { usersModule } from './users';

export type { CoreModule } from './module';

/**
 * The composition root: every module of the core, once. The ORM takes its entities from here and
 * the schema its resolvers; adding a module is one line. (The v3 facade has its own root,
 * rest-facade/modules.ts: it imports nothing of the core but the v3 vocabulary, src/kit/v3/ and
 * the `*.conditions.ts` tables.)
 */
export const MODULES: readonly CoreModule[] = [
  accountsModule,
  usersModule,
  appsModule,
  listsModule,
  dealStagesModule,
  todoTemplatesModule,
  customFieldsModule,
  customFieldSearchModule,
  companiesModule,
  peopleModule,
  dealsModule,
  notesModule,
  documentsModule,
  calendarModule,
  conversationsModule,
  timelineModule,
  savedSearchesModule,
  accountNotificationsModule,
  outboxModule,
];
