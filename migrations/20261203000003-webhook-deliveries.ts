import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24 §3: webhook deliveries. The dispatcher (src/modules/webhooks/webhook-dispatch.ts) reads
 * the change records after its cursor and makes one delivery per endpoint and change, its body
 * fixed then (a retry sends the same bytes under the same webhook-id); a delivery job per endpoint
 * sends them in order (webhook-delivery.ts), each attempt logged. A statement trigger on the change
 * records wakes the dispatcher (NOTIFY, sent at commit) when an account with an enabled endpoint
 * changed. Deliveries and attempts are written by jobs in SQL: no entity declares them.
 */
export class Migration20261203000003WebhookDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "failing_since" timestamptz null`);
    this.addSql(`create table "webhook_deliveries" (
      "id" bigserial primary key,
      "account_id" int not null references "accounts" ("id") on delete cascade,
      "endpoint_id" int not null references "webhook_endpoints" ("id") on delete cascade,
      "change_id" bigint not null,
      "event_type" text not null,
      "body" text not null,
      "status" text not null default 'pending' check ("status" in ('pending', 'delivered', 'failed')),
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "last_status_code" int null,
      "last_error" varchar(500) null,
      "created_at" timestamptz not null default now(),
      "delivered_at" timestamptz null
    )`);
    this.addSql(`create unique index "webhook_deliveries_once" on "webhook_deliveries" ("endpoint_id", "change_id")`);
    this.addSql(`create index "webhook_deliveries_pending" on "webhook_deliveries" ("endpoint_id", "id") where "status" = 'pending'`);
    this.addSql(`create index "webhook_deliveries_account" on "webhook_deliveries" ("account_id", "id")`);
    this.addSql(`create table "webhook_attempts" (
      "id" bigserial primary key,
      "delivery_id" bigint not null references "webhook_deliveries" ("id") on delete cascade,
      "attempted_at" timestamptz not null default now(),
      "duration_ms" int not null,
      "status_code" int null,
      "response_head" varchar(1024) null,
      "error" varchar(500) null
    )`);
    this.addSql(`create index "webhook_attempts_delivery" on "webhook_attempts" ("delivery_id", "id")`);
    // The dispatcher reads every account's changes by transaction (the feed's index starts with the account).
    this.addSql(`create index "record_changes_tx" on "record_changes" ("tx", "id")`);
    // Where the dispatcher is in the change records (a change feed cursor; null: from the start).
    this.addSql(`create table "webhook_dispatch" ("singleton" boolean primary key default true check ("singleton"), "cursor" text null)`);
    this.addSql(`insert into "webhook_dispatch" ("singleton", "cursor") values (true, null)`);
    this.addSql(`create function "record_changes_notify"() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from new_rows n join webhook_endpoints e on e.account_id = n.account_id and e.enabled) then
          perform pg_notify('crm_webhooks', '');
        end if;
        return null;
      end
    $$`);
    this.addSql(
      `create trigger "record_changes_notify" after insert on "record_changes" referencing new table as new_rows for each statement execute function record_changes_notify()`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "record_changes_notify" on "record_changes"`);
    this.addSql(`drop function if exists "record_changes_notify"()`);
    this.addSql(`drop table if exists "webhook_dispatch"`);
    this.addSql(`drop index if exists "record_changes_tx"`);
    this.addSql(`drop table if exists "webhook_attempts"`);
    this.addSql(`drop table if exists "webhook_deliveries"`);
    this.addSql(`alter table "webhook_endpoints" drop column "failing_since"`);
  }
}
