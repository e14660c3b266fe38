import { Account } from '../modules/accounts/account.entity';
import { ApiApp } from '../modules/apps/api-app.entity';
import { Company } from '../modules/companies/company.entity';
import { CustomField } from '../modules/custom-fields/custom-field.entity';
import { ListItem } from '../modules/lists/list-item.entity';
import { OutboxMessage } from '../modules/outbox/outbox-message.entity';
import { Person } from '../modules/people/person.entity';
import { User } from '../modules/users/user.entity';

/** Every entity, listed explicitly: no folder scanning, so build and test see the same set. */
export const ENTITIES = [Account, User, ApiApp, ListItem, CustomField, Company, Person, OutboxMessage];
