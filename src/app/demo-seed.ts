import type { MikroORM } from '@mikro-orm/postgresql';
import { Account } from '../modules/accounts/account.entity';
import { AccountAdmin } from '../modules/accounts/account.service';
import { Company } from '../modules/companies/company.entity';
import { DealStage } from '../modules/deal-stages/deal-stage.entity';
import { Deal, DealPerson } from '../modules/deals/deal.entity';
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
  const made: Person[] = [];
  for (const [firstName, lastName, company, type] of people) {
    const person = em.create(Person, {
      account,
      owner: user,
      company: companies[company],
      firstName,
      lastName,
      type,
      email: `${firstName.toLowerCase()}@${companies[company].name.toLowerCase().replace(/\W+/g, '')}.example`,
      leadStatus: type === PersonType.LEAD ? statuses[0] : null,
    });
    made.push(person);
  }
  // A few deals across the pipeline (the account starts with its stages).
  const stages = await em.find(DealStage, { account }, { orderBy: { position: 'asc' } });
  const deals: Array<[string, number, string, number]> = [
    ['Rocket skates for the desert office', 0, '12500.00', 1],
    ['Doomsday device maintenance', 1, '250000.00', 3],
    ['TPS report tooling', 2, '4800.00', 0],
  ];
  for (const [name, company, value, stage] of deals) {
    const deal = em.create(Deal, {
      account,
      owner: user,
      company: companies[company],
      name,
      value,
      stage: stages[stage] ?? null,
      probability: stages[stage]?.percent ?? null,
      lastModifiedBy: user,
    });
    em.create(DealPerson, { deal, person: made[company] });
  }
  await em.flush();
  return { apiKey };
}
