import type { CoreModule } from './module';
import { accountsModule } from './accounts';
import { appsModule } from './apps';
import { companiesModule } from './companies';
import { customFieldsModule } from './custom-fields';
import { dealsModule } from './deals';
import { dealStagesModule } from './deal-stages';
import { listsModule } from './lists';
import { outboxModule } from './outbox';
import { peopleModule } from './people';
import { todoTemplatesModule } from './todo-templates';
import { usersModule } from './users';

export type { CoreModule } from './module';

/**
 * The composition root: every module of the core, once. The ORM takes its entities from here and
 * the schema its resolvers; adding a module is one line. (The v3 facade has its own root,
 * rest-facade/modules.ts: it imports nothing of the core.)
 */
export const MODULES: readonly CoreModule[] = [accountsModule, usersModule, appsModule, listsModule, dealStagesModule, todoTemplatesModule, customFieldsModule, companiesModule, peopleModule, dealsModule, outboxModule];
