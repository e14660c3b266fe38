import type { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { AccountAdmin } from '../src/modules/accounts/account.service';
import { Visibility } from '../src/modules/users/user.entity';
import { DEALS_RECIPE, seedDeals } from './seed-deals';

export interface BenchSize {
  readonly people: number;
  readonly companies: number;
  /** Users of the account besides its admin (owners of the seeded records). */
  readonly users: number;
  /** Deals of the account (bench/seed-deals.ts), with their people, collaborators and custom fields. */
  readonly deals: number;
}

export interface BenchData {
  readonly accountId: number;
  readonly adminId: number;
  /** The admin's key: issued fresh on every run (only hashes are stored). */
  readonly apiKey: string;
  /** People of the account to request one by one (show scenarios). */
  readonly sampleIds: readonly number[];
  /** True when this run had to seed (false: the database already held this size). */
  readonly seeded: boolean;
  /** True when this run had to seed the deals (alone, or with the rest). */
  readonly dealsSeeded: boolean;
  readonly seedMs: number;
}

/** The name carries the seed's version: a changed recipe seeds a new account instead of reusing an old one. */
export const ACCOUNT_NAME = 'Bench CRM (bench/seed.ts v1)';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Ken',
  'Dennis',
  'Frances',
  'John',
  'Radia',
  'Niklaus',
  'Sophie',
  'Tim',
  'Linus',
  'Hedy',
  'Claude',
  'Katherine',
  'Leslie',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Thompson',
  'Ritchie',
  'Allen',
  'McCarthy',
  'Perlman',
  'Wirth',
  'Wilson',
  'Berners-Lee',
  'Torvalds',
  'Lamarr',
  'Shannon',
  'Johnson',
  'Lamport',
  'Backus',
  'Kay',
  'Cerf',
  'Kahn',
  'Engelbart',
];
const CITIES = ['Springfield', 'Austin', 'Boston', 'Denver', 'Seattle', 'Portland', 'Chicago', 'Atlanta'];
const STATES = ['IL', 'TX', 'MA', 'CO', 'WA', 'OR', 'IL', 'GA'];

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;

async function existing(client: Client, size: BenchSize): Promise<{ accountId: number; adminId: number } | 'none' | 'stale'> {
  const { rows } = await client.query<{ id: number; admin_id: number | null; people: string; companies: string; users: string }>(
    `select a.id,
       (select min(u.id) from users u where u.account_id = a.id and u.is_admin) as admin_id,
       (select count(*) from people p where p.account_id = a.id) as people,
       (select count(*) from companies c where c.account_id = a.id) as companies,
       (select count(*) from users u where u.account_id = a.id) as users
     from accounts a where a.name = $1 order by a.id`,
    [ACCOUNT_NAME],
  );
  if (rows.length === 0) return 'none';
  const r = rows[0];
  const fits =
    rows.length === 1 &&
    r.admin_id !== null &&
    Number(r.people) === size.people &&
    Number(r.companies) === size.companies &&
    Number(r.users) === size.users + 1;
  return fits ? { accountId: r.id, adminId: r.admin_id! } : 'stale';
}

/**
 * Set-based seeding: a few `insert ... select generate_series` statements, so 100k people take
 * seconds, not minutes. Records look like real ones: most have a company, an owner among 10 users,
 * a lead status/source on leads, one or two contact tags and three custom field values.
 */
async function seedRows(client: Client, accountId: number, size: BenchSize): Promise<void> {
  const { rows: fields } = await client.query<{ id: number }>(
    `insert into custom_fields (account_id, resource, kind, name, position, created_at, updated_at)
     values ($1, 'person', 'text', 'Nickname', 0, now(), now()), ($1, 'person', 'numeric', 'Score', 1, now(), now()), ($1, 'person', 'date', 'Birthday', 2, now(), now())
     returning id`,
    [accountId],
  );
  const [text, num, date] = fields.map((f) => `custom_label_${f.id}`);
  await client.query(
    `with u as (select array_agg(id order by id) a from users where account_id = $1)
     insert into companies (account_id, owner_id, name, email, web, city, state, country, phone1, custom_fields, created_at, updated_at)
     select $1, u.a[1 + g % array_length(u.a, 1)], 'Company ' || g, 'info@company' || g || '.example', 'https://company' || g || '.example',
       (${sqlArray(CITIES)})[1 + g % ${CITIES.length}], (${sqlArray(STATES)})[1 + g % ${STATES.length}], 'USA', '+1 555 ' || lpad((g % 10000)::text, 4, '0'),
       '{}', now() - make_interval(days => g % 900), now() - make_interval(hours => g % 5000)
     from generate_series(1, $2::int) g, u`,
    [accountId, size.companies],
  );
  await client.query(
    `with u as (select array_agg(id order by id) a from users where account_id = $1),
          c as (select array_agg(id order by id) a from companies where account_id = $1),
          st as (select array_agg(id order by position, id) a from list_items where account_id = $1 and kind = 'lead_status'),
          so as (select array_agg(id order by position, id) a from list_items where account_id = $1 and kind = 'lead_source'),
          tg as (select array_agg(id order by position, id) a from list_items where account_id = $1 and kind = 'contact_tag')
     insert into people (account_id, owner_id, company_id, lead_status_id, lead_source_id, type, first_name, last_name, position, phone, mobile, email,
       work_address1, work_city, work_state, work_country, work_postal_code, tag_ids, custom_fields, last_emailed_at, created_at, updated_at)
     select $1,
       u.a[1 + g % array_length(u.a, 1)],
       case when g % 10 = 0 then null else c.a[1 + (g * 7) % array_length(c.a, 1)] end,
       case when g % 4 = 0 then st.a[1 + g % array_length(st.a, 1)] end,
       case when g % 4 = 0 then so.a[1 + g % array_length(so.a, 1)] end,
       case when g % 4 = 0 then 'Lead' else 'Contact' end,
       (${sqlArray(FIRST)})[1 + g % ${FIRST.length}],
       (${sqlArray(LAST)})[1 + (g * 13) % ${LAST.length}] || ' ' || (g % 1000),
       case when g % 3 = 0 then 'Engineer' when g % 3 = 1 then 'Head of Sales' else null end,
       '+1 555 ' || lpad((g % 10000)::text, 4, '0'),
       case when g % 2 = 0 then '+1 556 ' || lpad((g % 10000)::text, 4, '0') end,
       'person' || g || '@example.com',
       g || ' Main Street',
       (${sqlArray(CITIES)})[1 + g % ${CITIES.length}],
       (${sqlArray(STATES)})[1 + g % ${STATES.length}],
       'USA',
       lpad((g % 99999)::text, 5, '0'),
       case g % 3 when 0 then '[]'::jsonb when 1 then jsonb_build_array(tg.a[1]) else jsonb_build_array(tg.a[2], tg.a[3]) end,
       jsonb_build_object('${text}', 'Nick ' || g, '${num}', g % 1000, '${date}', to_char(date '1980-01-01' + (g % 10000), 'YYYY-MM-DD')),
       case when g % 5 = 0 then now() - make_interval(days => g % 365) end,
       now() - make_interval(mins => g),
       now() - make_interval(secs => g)
     from generate_series(1, $2::int) g, u, c, st, so, tg`,
    [accountId, size.people],
  );
}

/**
 * The account's deals, seeded when the marker row says they are not the ones asked for (another
 * count or recipe): the people and companies stay, the account's deals are replaced. Deals and
 * marker are written in one transaction, so an interrupted seed leaves the old marker (or none)
 * and the next run redoes it. The marker lives in a table of the bench's own (`bench_seed`, not
 * the app's schema), keyed by account id: an account recreated under another id is seeded anew.
 * Returns whether it seeded.
 */
async function ensureDeals(client: Client, accountId: number, deals: number): Promise<boolean> {
  await client.query(
    'create table if not exists bench_seed (account_id int primary key, recipe text not null, deals int not null, seeded_at timestamptz not null default now())',
  );
  const { rows } = await client.query<{ recipe: string; deals: number }>('select recipe, deals from bench_seed where account_id = $1', [accountId]);
  if (rows.length === 1 && rows[0].recipe === DEALS_RECIPE && rows[0].deals === deals) return false;
  await client.query('begin');
  await client.query('delete from deals where account_id = $1', [accountId]);
  await seedDeals(client, accountId, deals);
  await client.query(
    `insert into bench_seed (account_id, recipe, deals) values ($1, $2, $3) on conflict (account_id) do update set recipe = excluded.recipe, deals = excluded.deals, seeded_at = now()`,
    [accountId, DEALS_RECIPE, deals],
  );
  await client.query('commit');
  for (const table of ['deals', 'deal_people', 'deal_collaborators']) await client.query(`vacuum analyze ${table}`);
  return true;
}

/**
 * Finds the bench account of this size in the database (a re-run costs only a key reset), else
 * (re)creates it: account, admin and users through AccountAdmin (so they are exactly what the
 * product creates), bulk rows through SQL.
 */
export async function ensureSeeded(orm: MikroORM, databaseUrl: string, size: BenchSize): Promise<BenchData> {
  const started = Date.now();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let found = await existing(client, size);
    let seeded = false;
    if (found === 'stale') {
      // Another size (or a half-finished seed): start over; the account's rows go with it (cascade).
      await client.query('delete from accounts where name = $1', [ACCOUNT_NAME]);
      found = 'none';
    }
    let accountId: number;
    let adminId: number;
    let apiKey: string;
    const admin = new AccountAdmin(orm.em.fork());
    if (found === 'none') {
      const created = await admin.createAccount({
        name: ACCOUNT_NAME,
        // A zone with DST, so v3 datetimes carry real offsets (v3 §1.6).
        timeZone: 'America/New_York',
        admin: { email: 'admin@bench.example', firstName: 'Bench', lastName: 'Admin' },
      });
      accountId = created.account.id;
      adminId = created.user.id;
      apiKey = created.apiKey;
      for (let i = 1; i <= size.users; i++) {
        await admin.createUser(accountId, {
          email: `user${i}@bench.example`,
          firstName: FIRST[i % FIRST.length],
          lastName: `Seller${i}`,
          visibility: i % 3 === 0 ? Visibility.OWN : Visibility.ALL,
        });
      }
      await client.query('begin');
      await seedRows(client, accountId, size);
      await client.query('commit');
      await client.query('vacuum analyze people');
      await client.query('vacuum analyze companies');
      seeded = true;
    } else {
      ({ accountId, adminId } = found);
      apiKey = await admin.resetKey(adminId);
    }
    const dealsSeeded = await ensureDeals(client, accountId, size.deals);
    const { rows } = await client.query<{ id: number }>('select id from people where account_id = $1 order by md5(id::text) limit 500', [accountId]);
    return { accountId, adminId, apiKey, sampleIds: rows.map((r) => r.id), seeded, dealsSeeded, seedMs: Date.now() - started };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
