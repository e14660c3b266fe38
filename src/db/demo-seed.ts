import type { MikroORM } from '@mikro-orm/postgresql';
import { Account } from '../modules/accounts/account.entity';
import { AccountAdmin } from '../modules/accounts/account.service';
import { Company } from '../modules/companies/company.entity';
import { ListItem, ListKind } from '../modules/lists/list-item.entity';
import { Person, PersonType } from '../modules/people/person.entity';

/**
 * On an empty embedded database: a demo account, its admin, and a little sample data, so a new
 * user has something to look at. Returns the admin's key, or null when not empty.
 */
export async function seedDemo(orm: MikroORM): Promise<{ apiKey: string } | null> {
  const em = orm.em.fork();
  if ((await em.count(Account, {})) > 0) return null;
  const { account, user, apiKey } = await new AccountAdmin(em).createAccount({
    name: 'Demo Company',
    timeZone: 'America/New_York',
    currency: 'USD',
    admin: { email: 'admin@demo.example', firstName: 'Dana', lastName: 'Admin' },
  });
  const statuses = await em.find(ListItem, { account, kind: ListKind.LEAD_STATUS });
  const companies = ['Acme Corp', 'Globex', 'Initech'].map((name, i) =>
    em.create(Company, { account, owner: user, name, city: ['Springfield', 'Cypress Creek', 'Austin'][i], country: 'USA' }),
  );
  const people: Array<[string, string, number, PersonType]> = [
    ['Wile', 'Coyote', 0, PersonType.CONTACT],
    ['Hank', 'Scorpio', 1, PersonType.CONTACT],
    ['Peter', 'Gibbons', 2, PersonType.LEAD],
    ['Milton', 'Waddams', 2, PersonType.LEAD],
  ];
  for (const [firstName, lastName, company, type] of people) {
    em.create(Person, {
      account,
      owner: user,
      company: companies[company],
      firstName,
      lastName,
      type,
      email: `${firstName.toLowerCase()}@${companies[company].name.toLowerCase().replace(/\W+/g, '')}.example`,
      leadStatus: type === PersonType.LEAD ? statuses[0] : null,
    });
  }
  await em.flush();
  return { apiKey };
}
