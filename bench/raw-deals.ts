import type express from 'express';
import type { Pool } from 'pg';
import { hashKey } from '../src/common/keys';
import { CURRENCIES, currencyOf } from '../src/modules/accounts/currency';
import { formatDateTime } from '../rest-facade/response/datetime';

/**
 * The two floors the v3 deals list (`GET /api/v3/deals.json`, every convenience object) is
 * measured against (bench/README.md), both answering the facade's exact JSON for the bench's
 * admin key:
 *
 * - `batched`: express + pg as one would write it by hand: the page (with its total as a count
 *   subquery, money rounded and the date formatted in SQL), then seven batched statements run
 *   concurrently (users of the account, custom field definitions, companies, primary contacts,
 *   stages, list items by id, the deals' people with their names, collaborators), and hand-built
 *   JSON; datetimes through the facade's own formatter, as raw-baseline.ts does for people.
 * - `oneSql`: the whole response, envelope included, built by PostgreSQL in ONE statement (the
 *   key lookup, the page, lateral subqueries and json_agg/json_build_object, datetimes formatted
 *   in SQL in the viewer's zone) and sent as the text PostgreSQL returns: Node parses nothing and
 *   serialises nothing.
 *
 * Like the people baseline, neither applies the `own` visibility rule (the bench's key is an
 * admin's, who sees everything: the app's SQL adds nothing for them either).
 */

type Row = Record<string, any>;

interface Viewer {
  readonly userId: number;
  readonly accountId: number;
  readonly timeZone: string;
  readonly currencyCode: string;
}

function intParam(raw: unknown, fallback: number): number {
  return typeof raw === 'string' && /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : fallback;
}

/** DECISIONS (Paging): deals default to 200 a page, at most 200. */
function paging(query: express.Request['query']): { page: number; perPage: number } {
  return { page: Math.min(intParam(query.page, 1), 1_000_000), perPage: Math.min(intParam(query.per_page, 200), 200) };
}

function send(res: express.Response, status: number, body?: unknown): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
}

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');
const nameParts = (r: Row) => ({ id: r.id, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) });

// ---------------------------------------------------------------------------------------------
// Baseline (a): page + batched statements, JSON built in Node.

async function authenticate(pool: Pool, apiKey: unknown): Promise<Viewer | null> {
  if (typeof apiKey !== 'string') return null;
  const { rows } = await pool.query(
    `select u.id, u.account_id, coalesce(u.time_zone, a.time_zone) as time_zone, a.currency_code from "users" u join "accounts" a on a.id = u.account_id where u.api_key_hash = $1`,
    [hashKey(apiKey)],
  );
  return rows.length === 0 ? null : { userId: rows[0].id, accountId: rows[0].account_id, timeZone: rows[0].time_zone, currencyCode: rows[0].currency_code };
}

/** The page, newest first (the app's default order), its total as a count subquery; money rounded to the currency's places in SQL. */
const DEAL_PAGE = `select d.id, d.name, d.summary, d.owner_id, d.status, d.custom_fields, d.created_at, d.updated_at, d.import_id,
    to_char(d.expected_close_date, 'YYYY/MM/DD') as expected_close_date, d.closed_time, d.is_archived,
    round(d.value, $4)::text as value, (round(d.value, 2) * 100)::float8 as value_in_cents, d.primary_contact_id, d.company_id,
    d.probability, d.stage_id, d.loss_reason_id, d.loss_reason_notes, d.source_id, d.is_example,
    round(d.bonus, $4)::text as bonus, round(d.commission, $4)::text as commission, d.commission_rate, d.viewed_at, d.last_modified_by_id,
    d.expected_close_date_event_id,
    (select count(*) from "deals" d where d.account_id = $1) as "__total"
  from "deals" d where d.account_id = $1 order by d.created_at desc, d.id asc limit $2 offset $3`;

const empty = { rows: [] as Row[] };
const idsOf = (rows: Row[], column: string) => [...new Set(rows.map((r) => r[column]).filter((id) => id !== null))];

async function dealRelations(pool: Pool, viewer: Viewer, deals: Row[]) {
  const dealIds = deals.map((d) => d.id);
  const companyIds = idsOf(deals, 'company_id');
  const contactIds = idsOf(deals, 'primary_contact_id');
  const stageIds = idsOf(deals, 'stage_id');
  const itemIds = [...new Set([...idsOf(deals, 'source_id'), ...idsOf(deals, 'loss_reason_id')])];
  const a = viewer.accountId;
  const [users, fields, companies, contacts, stages, items, people, shares] = await Promise.all([
    pool.query('select id, first_name, last_name, is_admin, visibility from "users" where account_id = $1 order by id', [a]),
    pool.query(`select id, kind from "custom_fields" where account_id = $1 and resource = 'deal' order by position, id`, [a]),
    companyIds.length ? pool.query('select id, name from "companies" where id = any($1) and account_id = $2', [companyIds, a]) : empty,
    contactIds.length ? pool.query('select id, first_name, last_name from "people" where id = any($1) and account_id = $2', [contactIds, a]) : empty,
    stageIds.length ? pool.query('select id, name, percent from "deal_stages" where id = any($1) and account_id = $2', [stageIds, a]) : empty,
    itemIds.length ? pool.query('select id, name from "list_items" where id = any($1) and account_id = $2', [itemIds, a]) : empty,
    dealIds.length
      ? pool.query(
          `select dp.deal_id, p.id, p.first_name, p.last_name from "deal_people" dp join "people" p on p.id = dp.person_id
           where dp.deal_id = any($1) and p.account_id = $2 order by dp.deal_id, lower(p.last_name), lower(p.first_name), p.id`,
          [dealIds, a],
        )
      : empty,
    dealIds.length ? pool.query('select deal_id, user_id from "deal_collaborators" where deal_id = any($1) order by user_id', [dealIds]) : empty,
  ]);
  const byId = (rows: Row[]) => new Map<number, Row>(rows.map((r) => [r.id, r]));
  const grouped = (rows: Row[], key: string) => {
    const out = new Map<number, Row[]>();
    for (const r of rows) {
      const list = out.get(r[key]);
      if (list) list.push(r);
      else out.set(r[key], [r]);
    }
    return out;
  };
  return {
    users: byId(users.rows),
    userList: users.rows,
    fields: fields.rows,
    companies: byId(companies.rows),
    contacts: byId(contacts.rows),
    stages: byId(stages.rows),
    items: byId(items.rows),
    people: grouped(people.rows, 'deal_id'),
    shares: grouped(shares.rows, 'deal_id'),
  };
}

type Relations = Awaited<ReturnType<typeof dealRelations>>;

const nameRef = (row: Row | undefined) => (row ? { id: row.id, name: row.name } : null);

function serializeDeal(d: Row, r: Relations, viewer: Viewer, currency: { code: string; name: string; symbol: string }) {
  const tz = viewer.timeZone;
  const owner = d.owner_id === null ? undefined : r.users.get(d.owner_id);
  const custom: Row = {};
  for (const f of r.fields) {
    const label = `custom_label_${f.id}`;
    const value = d.custom_fields[label] ?? (f.kind === 'multi_select' ? [] : null);
    custom[label] = f.kind === 'date' && typeof value === 'string' ? value.replace(/-/g, '/') : value;
  }
  const contact = d.primary_contact_id === null ? undefined : r.contacts.get(d.primary_contact_id);
  const people = r.people.get(d.id) ?? [];
  const shared = (r.shares.get(d.id) ?? []).map((s) => s.user_id as number);
  const company = d.company_id === null ? undefined : r.companies.get(d.company_id);
  const stage = d.stage_id === null ? undefined : r.stages.get(d.stage_id);
  const notify: number[] = [];
  for (const u of r.userList) if (u.is_admin || u.visibility === 'all' || u.id === d.owner_id || shared.includes(u.id)) notify.push(u.id);
  return {
    id: d.id,
    name: d.name,
    summary: d.summary,
    user_id: d.owner_id,
    user: owner ? nameParts(owner) : null,
    status: d.status,
    custom_fields: custom,
    created_at: formatDateTime(d.created_at, tz),
    updated_at: formatDateTime(d.updated_at, tz),
    import_id: d.import_id,
    expected_close_date_event_id: d.expected_close_date_event_id,
    expected_close_date: d.expected_close_date,
    closed_time: formatDateTime(d.closed_time, tz),
    is_archived: d.is_archived,
    value: d.value,
    value_in_cents: d.value_in_cents,
    primary_contact_id: d.primary_contact_id,
    primary_contact: contact ? nameParts(contact) : null,
    people: people.map(nameParts),
    person_ids: people.map((p) => p.id as number).sort((x, y) => x - y),
    collaborators: shared
      .map((id) => r.users.get(id))
      .filter(Boolean)
      .map((u) => ({ ...nameParts(u!), api_key: null })),
    shared_user_ids: shared,
    company: d.company_id === null ? null : { id: d.company_id, name: company ? company.name : null },
    company_id: d.company_id,
    company_name: company ? company.name : null,
    currency,
    probability: d.probability,
    deal_stage_id: d.stage_id,
    deal_stage: stage ? { id: stage.id, name: stage.name, percent: stage.percent } : null,
    deal_loss_reason_id: d.loss_reason_id,
    deal_loss_reason: nameRef(d.loss_reason_id === null ? undefined : r.items.get(d.loss_reason_id)),
    deal_loss_reason_notes: d.loss_reason_notes,
    source_id: d.source_id,
    source: nameRef(d.source_id === null ? undefined : r.items.get(d.source_id)),
    possible_notify_user_ids: notify,
    is_example: d.is_example,
    currency_code: currency.code,
    account_id: viewer.accountId,
    bonus: d.bonus,
    commission: d.commission,
    commission_rate: d.commission_rate === null ? null : (d.commission_rate as string).replace(/\.?0+$/, ''),
    is_shared: shared.length > 0,
    viewed_at: formatDateTime(d.viewed_at, tz),
    last_modified_by_user_id: d.last_modified_by_id,
  };
}

async function batchedDeals(pool: Pool, req: express.Request, res: express.Response): Promise<void> {
  const viewer = await authenticate(pool, req.query.api_key);
  if (!viewer) return send(res, 401, { error: 'Unknown api_key' });
  const { page, perPage } = paging(req.query);
  const currency = currencyOf(viewer.currencyCode);
  const { rows } = await pool.query(DEAL_PAGE, [viewer.accountId, perPage, (page - 1) * perPage, currency.decimals]);
  const total = rows.length ? Number(rows[0].__total) : 0;
  const relations = await dealRelations(pool, viewer, rows);
  const shown = { code: currency.code, name: currency.name, symbol: currency.symbol };
  const entries = rows.map((d) => serializeDeal(d, relations, viewer, shown));
  send(res, 200, { entries, pagination: { page, per_page: perPage, total, pages: Math.ceil(total / perPage), page_var: 'page' } });
}

// ---------------------------------------------------------------------------------------------
// Baseline (b): the whole response in one SQL statement.

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** The currencies the product knows, as a VALUES list (the app keeps them in code, not in a table). */
const CURRENCY_VALUES = [...CURRENCIES.values()].map((c) => `(${quote(c.code)}, ${quote(c.name)}, ${quote(c.symbol)}, ${c.decimals})`).join(', ');

/** `<ts> at time zone <tz>` minus the same instant in UTC: the zone's offset there, in whole minutes. */
const offsetMinutes = (ts: string) => `trunc(extract(epoch from (${ts} at time zone v.tz) - (${ts} at time zone 'UTC')) / 60)::int`;
/** v3 datetime `YYYY/MM/DD HH:MM:SS +hhmm` in the viewer's zone, from the offset computed in the row's lateral `o`; null stays null. */
const v3DateTime = (ts: string, off: string) =>
  `to_char(${ts} at time zone v.tz, 'YYYY/MM/DD HH24:MI:SS ') || case when ${off} < 0 then '-' else '+' end || lpad((abs(${off}) / 60)::text, 2, '0') || lpad((abs(${off}) % 60)::text, 2, '0')`;
const names = (t: string) =>
  `'id', ${t}.id, 'first_name', ${t}.first_name, 'last_name', ${t}.last_name, 'full_name', concat_ws(' ', nullif(${t}.first_name, ''), nullif(${t}.last_name, ''))`;
const money = (col: string) => `round(d.${col}, v.decimals)::text`;

/**
 * One statement: `$1` key hash, `$2` per_page, `$3` offset, `$4` page. Each entry is `to_json` of
 * a lateral row whose columns are the v3 keys in the v3 order (json_build_object takes at most
 * 50 pairs; a row has no such limit and keeps its column order).
 */
const ONE_SQL = `with v as (
    select u.account_id, coalesce(u.time_zone, a.time_zone) as tz, c.code, c.name as currency_name, c.symbol, c.decimals
    from "users" u join "accounts" a on a.id = u.account_id
    left join (values ${CURRENCY_VALUES}) c(code, name, symbol, decimals) on c.code = a.currency_code
    where u.api_key_hash = $1
  ),
  us as (select u.id, u.first_name, u.last_name, u.is_admin, u.visibility from "users" u, v where u.account_id = v.account_id),
  cf as (select f.id, f.kind, f.position from "custom_fields" f, v where f.account_id = v.account_id and f.resource = 'deal'),
  page as (
    select d.* from "deals" d, v where d.account_id = v.account_id order by d.created_at desc, d.id asc limit $2 offset $3
  )
  select json_build_object(
    'entries', coalesce((
      select json_agg(to_json(e) order by d.created_at desc, d.id asc)
      from page d cross join v
      cross join lateral (select ${offsetMinutes('d.created_at')} as created, ${offsetMinutes('d.updated_at')} as updated,
        ${offsetMinutes('d.closed_time')} as closed, ${offsetMinutes('d.viewed_at')} as viewed) o
      left join lateral (select array_agg(s.user_id order by s.user_id) as ids from "deal_collaborators" s where s.deal_id = d.id) sh on true
      left join "companies" co on co.id = d.company_id and co.account_id = d.account_id
      cross join lateral (select
        d.id, d.name, d.summary, d.owner_id as user_id,
        (select json_build_object(${names('u')}) from us u where u.id = d.owner_id) as "user",
        d.status,
        coalesce((select json_object_agg('custom_label_' || f.id,
            case when f.kind = 'date' and jsonb_typeof(d.custom_fields -> ('custom_label_' || f.id)) = 'string' then to_jsonb(replace(d.custom_fields ->> ('custom_label_' || f.id), '-', '/'))
                 else coalesce(d.custom_fields -> ('custom_label_' || f.id), case when f.kind = 'multi_select' then '[]'::jsonb else 'null'::jsonb end) end
            order by f.position, f.id) from cf f), '{}'::json) as custom_fields,
        ${v3DateTime('d.created_at', 'o.created')} as created_at,
        ${v3DateTime('d.updated_at', 'o.updated')} as updated_at,
        d.import_id, d.expected_close_date_event_id,
        to_char(d.expected_close_date, 'YYYY/MM/DD') as expected_close_date,
        ${v3DateTime('d.closed_time', 'o.closed')} as closed_time,
        d.is_archived, ${money('value')} as value, (round(d.value, 2) * 100)::bigint as value_in_cents,
        d.primary_contact_id,
        (select json_build_object(${names('p')}) from "people" p where p.id = d.primary_contact_id and p.account_id = d.account_id) as primary_contact,
        coalesce((select json_agg(json_build_object(${names('p')}) order by lower(p.last_name), lower(p.first_name), p.id)
          from "deal_people" dp join "people" p on p.id = dp.person_id and p.account_id = d.account_id where dp.deal_id = d.id), '[]'::json) as people,
        coalesce((select json_agg(dp.person_id order by dp.person_id)
          from "deal_people" dp join "people" p on p.id = dp.person_id and p.account_id = d.account_id where dp.deal_id = d.id), '[]'::json) as person_ids,
        coalesce((select json_agg(json_build_object(${names('u')}, 'api_key', null) order by u.id) from us u where u.id = any(sh.ids)), '[]'::json) as collaborators,
        to_json(coalesce(sh.ids, '{}'::int[])) as shared_user_ids,
        case when d.company_id is null then null else json_build_object('id', d.company_id, 'name', co.name) end as company,
        d.company_id, co.name as company_name,
        json_build_object('code', v.code, 'name', v.currency_name, 'symbol', v.symbol) as currency,
        d.probability, d.stage_id as deal_stage_id,
        (select json_build_object('id', st.id, 'name', st.name, 'percent', st.percent) from "deal_stages" st where st.id = d.stage_id and st.account_id = d.account_id) as deal_stage,
        d.loss_reason_id as deal_loss_reason_id,
        (select json_build_object('id', li.id, 'name', li.name) from "list_items" li where li.id = d.loss_reason_id and li.account_id = d.account_id) as deal_loss_reason,
        d.loss_reason_notes as deal_loss_reason_notes,
        d.source_id,
        (select json_build_object('id', li.id, 'name', li.name) from "list_items" li where li.id = d.source_id and li.account_id = d.account_id) as source,
        coalesce((select json_agg(u.id order by u.id) from us u where u.is_admin or u.visibility = 'all' or u.id = d.owner_id or u.id = any(sh.ids)), '[]'::json) as possible_notify_user_ids,
        d.is_example, v.code as currency_code, d.account_id,
        ${money('bonus')} as bonus, ${money('commission')} as commission,
        rtrim(rtrim(d.commission_rate::text, '0'), '.') as commission_rate,
        coalesce(cardinality(sh.ids), 0) > 0 as is_shared,
        ${v3DateTime('d.viewed_at', 'o.viewed')} as viewed_at,
        d.last_modified_by_id as last_modified_by_user_id
      ) e
    ), '[]'::json),
    'pagination', (select json_build_object('page', $4::int, 'per_page', $2::int, 'total', t.n, 'pages', ceil(t.n / $2::numeric)::int, 'page_var', 'page')
      from (select count(*) as n from "deals" d, v where d.account_id = v.account_id) t)
  )::text as body
  from v`;

async function oneSqlDeals(pool: Pool, req: express.Request, res: express.Response): Promise<void> {
  if (typeof req.query.api_key !== 'string') return send(res, 401, { error: 'Unknown api_key' });
  const { page, perPage } = paging(req.query);
  const { rows } = await pool.query<{ body: string }>(ONE_SQL, [hashKey(req.query.api_key), perPage, (page - 1) * perPage, page]);
  if (rows.length === 0) return send(res, 401, { error: 'Unknown api_key' });
  send(res, 200, rows[0].body);
}

/** Mounts both: `/api/v3/deals.json` (batched) and `/one-sql/api/v3/deals.json`. */
export function mountDealBaselines(app: express.Express, pool: Pool): void {
  const wrap = (handler: typeof batchedDeals) => (req: express.Request, res: express.Response, next: express.NextFunction) =>
    handler(pool, req, res).catch(next);
  app.get('/api/v3/deals.json', wrap(batchedDeals));
  app.get('/one-sql/api/v3/deals.json', wrap(oneSqlDeals));
}
