import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24 §3: webhook endpoints (src/modules/webhooks/webhook-endpoint.entity.ts), managed by
 * admins over GraphQL and v3 `/admin/webhooks.json`. The signing secret is kept to sign with
 * (never shown but once); the previous one signs beside it for a day after a rotation.
 */
export class Migration20261203000002WebhookEndpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" (
      "id" serial primary key,
      "account_id" int not null,
      "owner_id" int null,
      "url" varchar(2048) not null,
      "name" varchar(300) not null,
      "description" varchar(500) null,
      "models" jsonb not null,
      "actions" jsonb not null default '["create","update","destroy"]',
      "only_when_changed" jsonb not null default '[]',
      "enabled" boolean not null default true,
      "failure_email" varchar(254) null,
      "secret" varchar(100) not null,
      "previous_secret" varchar(100) null,
      "previous_secret_until" timestamptz null,
      "last_run_at" timestamptz null,
      "disabled_reason" varchar(200) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "webhook_endpoints_account" on "webhook_endpoints" ("account_id")`);
    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_endpoints"`);
  }
}
