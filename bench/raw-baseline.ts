import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { hashKey } from '../src/common/keys';
import { showMoney } from '../src/common/money';
import { currencyOf } from '../src/modules/accounts/currency';
import { formatDateTime } from '../rest-facade/response/datetime';
import { mountDealBaselines } from './raw-deals';

/**
 * The floor the facade is measured against: express + pg doing the SQL the app does for the same
 * two v3 requests (auth by key hash, the page with its total as a count subquery, users of the account,
 * companies by id, list items by id, custom fields of the account, the people's deals with their names and totals) and hand-built JSON of the same
 * v3 §4.4 shape. No ORM, no GraphQL, no generic pipeline. Datetimes go through the facade's own
 * formatter: a hand-written server would need one too, and it is already the cheap one.
 */

type Row = Record<string, any>;

interface Viewer {
  readonly userId: number;
  readonly accountId: number;
  readonly timeZone: string;
  readonly currencyCode: string;
}

// The same statement shape as src/db/keyset.ts keysetPage with totalCount read: page plus a scalar count subquery.
const PERSON_LIST = `select p.*, (select count(*) from "people" p where p.account_id = $1) as "__total" from "people" p where p.account_id = $1
  order by lower(p.last_name) asc, lower(p.first_name) asc, p.id asc limit $2 offset $3`;

export interface RawServer {
  readonly url: string;
  close(): Promise<void>;
}

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

function intParam(raw: unknown, fallback: number): number {
  return typeof raw === 'string' && /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : fallback;
}

async function authenticate(pool: Pool, apiKey: unknown): Promise<Viewer | null> {
  if (typeof apiKey !== 'string') return null;
  const { rows } = await pool.query(
    `select u.id, u.account_id, coalesce(u.time_zone, a.time_zone) as time_zone, a.currency_code from "users" u join "accounts" a on a.id = u.account_id where u.api_key_hash = $1`,
    [hashKey(apiKey)],
  );
  return rows.length === 0 ? null : { userId: rows[0].id, accountId: rows[0].account_id, timeZone: rows[0].time_zone, currencyCode: rows[0].currency_code };
}

/** The related rows of a page of people: five statements, run concurrently like the app's loaders. */
async function related(pool: Pool, viewer: Viewer, people: Row[]) {
  const companyIds = [...new Set(people.map((p) => p.company_id).filter((id) => id !== null))];
  const itemIds = [...new Set(people.flatMap((p) => [p.lead_status_id, p.lead_source_id, ...(p.tag_ids as number[])]).filter((id) => id !== null))];
  const personIds = people.map((p) => p.id);
  const [users, companies, items, fields, deals] = await Promise.all([
    pool.query('select id, first_name, last_name, is_admin, visibility from "users" where account_id = $1 order by id', [viewer.accountId]),
    companyIds.length
      ? pool.query('select id, name from "companies" where id = any($1) and account_id = $2', [companyIds, viewer.accountId])
      : { rows: [] as Row[] },
    itemIds.length
      ? pool.query('select id, name from "list_items" where id = any($1) and account_id = $2', [itemIds, viewer.accountId])
      : { rows: [] as Row[] },
    pool.query(`select id, kind from "custom_fields" where account_id = $1 and resource = 'person' order by position, id`, [viewer.accountId]),
    // deal_ids, deals and the totals: the deals each person takes part in (the viewer, an admin, sees every deal of the account),
    // their names, and per person the sums of the open (probability neither 0 nor 100) and won deals' values at the currency's places.
    personIds.length
      ? pool.query(
          `select dp.person_id, dp.deal_id, d.name,
                  round(coalesce(sum(d.value) filter (where d.probability is null or d.probability not in (0, 100)) over per_person, 0), $3)::text as pipeline,
                  round(coalesce(sum(d.value) filter (where d.probability = 100) over per_person, 0), $3)::text as won
             from "deal_people" dp join "deals" d on d.id = dp.deal_id where dp.person_id = any($1) and d.account_id = $2
           window per_person as (partition by dp.person_id) order by dp.deal_id`,
          [personIds, viewer.accountId, currencyOf(viewer.currencyCode).decimals],
        )
      : { rows: [] as Row[] },
  ]);
  const dealsOf = new Map<number, { ids: number[]; deals: Array<{ id: number; name: string }>; pipeline: string; won: string }>();
  for (const row of deals.rows) {
    let entry = dealsOf.get(row.person_id);
    if (!entry) dealsOf.set(row.person_id, (entry = { ids: [], deals: [], pipeline: row.pipeline, won: row.won }));
    entry.ids.push(row.deal_id);
    entry.deals.push({ id: row.deal_id, name: row.name });
  }
  const zero = showMoney('0', currencyOf(viewer.currencyCode).decimals)!;
  return {
    users: new Map<number, Row>(users.rows.map((u) => [u.id, u])),
    companies: new Map<number, Row>(companies.rows.map((c) => [c.id, c])),
    items: new Map<number, Row>(items.rows.map((i) => [i.id, i])),
    fields: fields.rows,
    dealsOf,
    zero,
  };
}

type Related = Awaited<ReturnType<typeof related>>;

const nameRef = (row: Row | undefined) => (row ? { id: row.id, name: row.name } : null);

function serialize(p: Row, r: Related, tz: string) {
  const owner = p.owner_id === null ? undefined : r.users.get(p.owner_id);
  const company = p.company_id === null ? undefined : r.companies.get(p.company_id);
  const custom: Row = {};
  for (const f of r.fields) {
    const value = p.custom_fields[`custom_label_${f.id}`] ?? (f.kind === 'multi_select' ? [] : null);
    custom[`custom_label_${f.id}`] = f.kind === 'date' && typeof value === 'string' ? value.replace(/-/g, '/') : value;
  }
  const notify: number[] = [];
  for (const u of r.users.values()) if (u.is_admin || u.visibility === 'all' || u.id === p.owner_id) notify.push(u.id);
  const personDeals = r.dealsOf.get(p.id);
  return {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: fullName(p.first_name, p.last_name),
    summary: p.summary,
    position: p.position,
    website: p.website,
    phone: p.phone,
    home_phone: p.home_phone,
    mobile: p.mobile,
    fax: p.fax,
    email: p.email,
    email2: p.email2,
    home_email: p.home_email,
    company_id: p.company_id,
    company_name: company ? company.name : null,
    company: nameRef(company),
    user_id: p.owner_id,
    user: owner ? { id: owner.id, first_name: owner.first_name, last_name: owner.last_name, full_name: fullName(owner.first_name, owner.last_name) } : null,
    type: p.type,
    lead_status_id: p.lead_status_id,
    lead_status: nameRef(p.lead_status_id === null ? undefined : r.items.get(p.lead_status_id)),
    lead_source_id: p.lead_source_id,
    lead_source: nameRef(p.lead_source_id === null ? undefined : r.items.get(p.lead_source_id)),
    image_thumb_url: p.image_url,
    image_mobile_url: p.image_url,
    predefined_contacts_tag_ids: p.tag_ids,
    predefined_contacts_tags: (p.tag_ids as number[])
      .map((id) => r.items.get(id))
      .filter(Boolean)
      .map(nameRef),
    custom_fields: custom,
    work_address_1: p.work_address1,
    work_address_2: p.work_address2,
    work_city: p.work_city,
    work_state: p.work_state,
    work_country: p.work_country,
    work_postal_code: p.work_postal_code,
    home_address_1: p.home_address1,
    home_address_2: p.home_address2,
    home_city: p.home_city,
    home_state: p.home_state,
    home_country: p.home_country,
    home_postal_code: p.home_postal_code,
    facebook_url: p.facebook_url,
    linked_in_url: p.linked_in_url,
    twitter: p.twitter,
    instant_message: p.instant_message,
    created_at: formatDateTime(p.created_at, tz),
    updated_at: formatDateTime(p.updated_at, tz),
    possible_notify_user_ids: notify,
    unsubscribed: p.unsubscribed,
    bounced: p.bounced,
    last_emailed_at: formatDateTime(p.last_emailed_at, tz),
    deal_ids: personDeals?.ids ?? [],
    viewed_at: formatDateTime(p.viewed_at, tz),
    deals: personDeals?.deals ?? [],
    shared_user_ids: [],
    created_by_user_id: p.created_by_id,
    total_pipeline: personDeals?.pipeline ?? r.zero,
    won_deals_total: personDeals?.won ?? r.zero,
  };
}

function send(res: express.Response, status: number, body?: unknown): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

const SHOW = /^\/api\/v3\/people\/(\d{1,9})\.json$/;

export async function startRawBaseline(databaseUrl: string, options: { poolMax?: number } = {}): Promise<RawServer> {
  // Same pool size as the app's ORM (src/app/orm.ts: max 10).
  const pool = new Pool({ connectionString: databaseUrl, max: options.poolMax ?? 10 });
  const app = express();
  app.disable('x-powered-by');
  // The deals list's two baselines (batched, and one SQL statement): bench/raw-deals.ts.
  mountDealBaselines(app, pool);
  app.get(/^\/api\/v3\/people(\/\d+)?\.json$/, async (req, res, next) => {
    try {
      const viewer = await authenticate(pool, req.query.api_key);
      if (!viewer) return send(res, 401, { error: 'Unknown api_key' });
      const show = SHOW.exec(req.path);
      if (show) {
        const { rows } = await pool.query('select p.* from "people" p where p.id = $1 and p.account_id = $2', [Number(show[1]), viewer.accountId]);
        if (rows.length === 0) return send(res, 404);
        return send(res, 200, serialize(rows[0], await related(pool, viewer, rows), viewer.timeZone));
      }
      const page = Math.min(intParam(req.query.page, 1), 1_000_000);
      const perPage = Math.min(intParam(req.query.per_page, 30), 100);
      const { rows } = await pool.query(PERSON_LIST, [viewer.accountId, perPage, (page - 1) * perPage]);
      const total = rows.length ? Number(rows[0].__total) : 0;
      const r = await related(pool, viewer, rows);
      const entries = rows.map((p) => serialize(p, r, viewer.timeZone));
      send(res, 200, { entries, pagination: { page, per_page: perPage, total, pages: Math.ceil(total / perPage), page_var: 'page' } });
    } catch (error) {
      next(error);
    }
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await pool.end();
    },
  };
}
