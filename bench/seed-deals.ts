import type { Client } from 'pg';

/**
 * Set-based seeding of an account's deals (bench/README.md): a few statements over
 * `generate_series`, so 1,000 deals take a fraction of a second and 1,000,000 a couple of minutes.
 * Deals look like real ones: an owner among the account's users, most with a company, 2-3 people
 * (the first one the primary contact), some shared with one or two collaborators, a stage of the
 * pipeline with its probability (Won/Lost closed, Lost with a loss reason), a source, money with
 * cents, an expected close date (10% without), three custom field values.
 *
 * Everything is keyed on the seed index `g` (1 = newest deal) through temporary tables that
 * number the account's users, companies, people, stages and list items from 0, so no statement
 * subscripts a large array per row (which would copy it per row).
 */

/** Words in deal names: `conditions[deal_name]=<word>` matches about 1/WORDS.length of the deals. */
export const DEAL_WORDS = [
  'Renewal',
  'Upsell',
  'Pilot',
  'Expansion',
  'Migration',
  'Licences',
  'Support plan',
  'Onboarding',
  'Consulting',
  'Hardware',
  'Training',
  'Integration',
  'Audit',
  'Rollout',
  'Upgrade',
  'Subscription',
  'Workshop',
  'Retainer',
  'Analytics',
  'Security',
  'Mobile app',
  'Data platform',
  'Cloud move',
  'Partnership',
  'Franchise',
];
const LOSS_REASONS = ['Price', 'Timing', 'Went with a competitor', 'No budget', 'No decision'];
const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Overseas'];

/** Creation times are spread evenly over three years before now, whatever the count (both DST changes every year). */
const SPAN_SECONDS = 3 * 365 * 86_400;

/** Changes whenever the recipe below changes: a seed of another recipe is redone (bench/seed.ts). */
export const DEALS_RECIPE = 'seed-deals v2';

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;

/**
 * Seeds `count` deals for the account, inside the caller's transaction (temporary tables are
 * dropped at commit). Needs the account's users, companies and at least 3 people. Creates the
 * account's deal custom fields and deal loss reasons when it has none.
 */
export async function seedDeals(client: Client, accountId: number, count: number): Promise<void> {
  const timing = process.env.BENCH_SEED_TIMING === '1';
  let last = Date.now();
  const step = (what: string) => {
    if (timing) process.stderr.write(`seed-deals: ${what} ${Date.now() - last} ms\n`);
    last = Date.now();
  };
  await client.query(
    `insert into list_items (account_id, kind, name, position, created_at, updated_at)
     select $1, 'deal_loss_reason', r.name, r.position - 1, now(), now() from unnest(${sqlArray(LOSS_REASONS)}::text[]) with ordinality r(name, position)
     where not exists (select 1 from list_items where account_id = $1 and kind = 'deal_loss_reason')`,
    [accountId],
  );
  await client.query(
    `insert into custom_fields (account_id, resource, kind, name, position, created_at, updated_at)
     select $1, 'deal', f.kind, f.name, f.position, now(), now() from (values ('text', 'Region', 0), ('numeric', 'Seats', 1), ('date', 'Signed on', 2)) f(kind, name, position)
     where not exists (select 1 from custom_fields where account_id = $1 and resource = 'deal')`,
    [accountId],
  );
  const { rows: fields } = await client.query<{ id: number }>(
    `select id from custom_fields where account_id = $1 and resource = 'deal' order by position, id limit 3`,
    [accountId],
  );
  const [region, seats, signed] = fields.map((f) => `custom_label_${f.id}`);
  const numbered = (name: string, columns: string, from: string, order: string) =>
    client.query(`create temp table ${name} on commit drop as select (row_number() over (order by ${order}) - 1)::int as n, ${columns} from ${from}`, [
      accountId,
    ]);
  await numbered('bench_u', 'id', 'users where account_id = $1', 'id');
  await numbered('bench_c', 'id', 'companies where account_id = $1', 'id');
  await numbered('bench_p', 'id', 'people where account_id = $1', 'id');
  await numbered('bench_st', 'id, percent', 'deal_stages where account_id = $1', 'position, id');
  await numbered('bench_so', 'id', `list_items where account_id = $1 and kind = 'lead_source'`, 'position, id');
  await numbered('bench_lr', 'id', `list_items where account_id = $1 and kind = 'deal_loss_reason'`, 'position, id');
  for (const t of ['bench_u', 'bench_c', 'bench_p', 'bench_st', 'bench_so', 'bench_lr']) {
    await client.query(`create unique index on ${t} (n)`);
    await client.query(`analyze ${t}`);
  }
  const { rows: sizes } = await client.query<Record<string, number>>(
    `select (select count(*) from bench_u)::int u, (select count(*) from bench_c)::int c, (select count(*) from bench_p)::int p,
       (select count(*) from bench_st)::int st, (select count(*) from bench_so)::int so, (select count(*) from bench_lr)::int lr`,
  );
  const n = sizes[0];
  if (n.u < 3 || n.c < 1 || n.p < 3 || n.st < 1 || n.so < 1 || n.lr < 1) throw new Error(`cannot seed deals: account ${accountId} has ${JSON.stringify(n)}`);
  // A bulk seed builds the secondary indexes once at the end instead of maintaining them row by
  // row (the trigram GIN index above all): dropped and recreated from their own definitions, in
  // this transaction, so a failure leaves them as they were.
  const indexes = count >= BULK ? await dropSecondaryIndexes(client) : [];
  // Foreign keys hold by construction (every id comes from the account's own rows); checking
  // them one row at a time was most of a bulk seed (8 per deal, 2 per deal_people row). Skipping
  // the checks takes a superuser; anyone else gets the checks.
  const unchecked = count >= BULK && (await skipForeignKeyChecks(client));
  step(`dropped ${indexes.length} indexes${unchecked ? ', foreign key checks off' : ''}`);
  // The joins below are on computed keys (g modulo a size), which the planner estimates at one
  // row: it then picks nested loops that rescan the companies once per deal. Hash joins it is.
  await client.query('set local enable_nestloop = off');
  // The deal ids, taken from the sequence up front so the people and collaborators can be keyed on g too.
  await client.query(
    `create temp table bench_d on commit drop as select g, nextval(pg_get_serial_sequence('deals', 'id'))::int as id from generate_series(1, $1::int) g`,
    [count],
  );
  await client.query('create unique index on bench_d (g)');
  await client.query('analyze bench_d');
  step('numbering');
  await client.query(
    `insert into deals (id, account_id, owner_id, company_id, primary_contact_id, stage_id, loss_reason_id, source_id, last_modified_by_id, name, summary, status,
       probability, expected_close_date, closed_time, is_archived, loss_reason_notes, value, bonus, commission, commission_rate, custom_fields, viewed_at, created_at, updated_at)
     select d.id, $1, u.id,
       case when d.g % 8 = 0 then null else c.id end,
       case when d.g % 5 = 0 then null else p.id end,
       st.id,
       case when st.percent = 0 then lr.id end,
       case when d.g % 6 = 0 then null else so.id end,
       u.id,
       'Deal ' || d.g || ' ' || (${sqlArray(DEAL_WORDS)})[1 + d.g % ${DEAL_WORDS.length}],
       case when d.g % 3 = 0 then 'Follow up with the buying committee about deal ' || d.g end,
       case when d.g % 4 = 0 then null else 1 + d.g % 3 end,
       st.percent,
       case when d.g % 10 = 0 then null else date '2026-01-01' + ((d.g * 37) % 730) end,
       case when st.percent in (0, 100) then now() - make_interval(secs => d.g * $8::float8 - 30) end,
       d.g % 50 = 0,
       case when st.percent = 0 and d.g % 2 = 0 then 'They said: ' || (${sqlArray(LOSS_REASONS)})[1 + d.g % ${LOSS_REASONS.length}] end,
       ((d.g::bigint * 7919) % 10000000) / 100.0,
       case when d.g % 7 = 0 then ((d.g * 31) % 100000) / 100.0 end,
       case when d.g % 2 = 0 then round(((d.g::bigint * 7919) % 10000000) / 100.0 * 0.125, 4) end,
       case when d.g % 2 = 0 then 12.5 end,
       jsonb_build_object('${region}', (${sqlArray(REGIONS)})[1 + d.g % ${REGIONS.length}], '${seats}', d.g % 500, '${signed}', to_char(date '2024-01-01' + (d.g % 700), 'YYYY-MM-DD')),
       case when d.g % 4 = 0 then now() - make_interval(hours => d.g % 1000) end,
       now() - make_interval(secs => d.g * $8::float8),
       now() - make_interval(secs => d.g * $8::float8 - 60)
     from bench_d d
     join bench_u u on u.n = d.g % $2
     join bench_c c on c.n = (d.g * 11) % $3
     join bench_p p on p.n = (d.g * 3) % $4
     join bench_st st on st.n = (d.g / 7) % $5
     join bench_so so on so.n = d.g % $6
     join bench_lr lr on lr.n = d.g % $7`,
    [accountId, n.u, n.c, n.p, n.st, n.so, n.lr, SPAN_SECONDS / count],
  );
  step('deals');
  if (unchecked) {
    // As a superuser the inserts ran with the triggers off (session_replication_role = replica),
    // including those keeping custom_field_search_values: filled here, set-based, in index order.
    await client.query(
      `insert into custom_field_search_values (field_id, value, record_id)
       select r.field_id, r.value, d.id from deals d cross join lateral custom_field_search_rows(d.account_id, 'deal', d.custom_fields) r
       where d.account_id = $1 order by 1, 2, 3 on conflict do nothing`,
      [accountId],
    );
    await client.query('analyze custom_field_search_values');
    step('custom_field_search_values');
  }
  // 2 or 3 people per deal (the first is the primary contact), consecutive in the numbering.
  await client.query(
    `insert into deal_people (deal_id, person_id)
     select d.id, p.id from bench_d d cross join generate_series(0, 2) k join bench_p p on p.n = (d.g * 3 + k) % $1
     where k < 2 + d.g % 2`,
    [n.p],
  );
  step('deal_people');
  // A quarter of the deals shared with one user, one in twelve with two (never the owner).
  await client.query(
    `insert into deal_collaborators (deal_id, user_id)
     select d.id, u.id from bench_d d cross join generate_series(1, 2) k join bench_u u on u.n = (d.g + k) % $1
     where d.g % 4 = 0 and (k = 1 or d.g % 12 = 0)`,
    [n.u],
  );
  step('deal_collaborators');
  await client.query('set local enable_nestloop = on');
  if (unchecked) await client.query(`set local session_replication_role = origin`);
  if (indexes.length) {
    await client.query(`set local maintenance_work_mem = '256MB'`);
    for (const definition of indexes) await client.query(definition);
    step(`recreated ${indexes.length} indexes`);
  }
}

/** From this many deals on, indexes are rebuilt after the load rather than maintained during it. */
const BULK = 100_000;

async function skipForeignKeyChecks(client: Client): Promise<boolean> {
  await client.query('savepoint bench_replica');
  try {
    await client.query(`set local session_replication_role = replica`);
    await client.query('release savepoint bench_replica');
    return true;
  } catch {
    await client.query('rollback to savepoint bench_replica');
    return false;
  }
}

async function dropSecondaryIndexes(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.schemaname = current_schema() and i.tablename in ('deals', 'deal_people', 'deal_collaborators')
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const r of rows) await client.query(`drop index "${r.name.replace(/"/g, '""')}"`);
  return rows.map((r) => r.definition);
}
