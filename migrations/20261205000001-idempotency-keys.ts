import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26 §1: idempotency keys. One row per (caller's key, method and route, Idempotency-Key):
 * `running` while the first request runs (its lease: `locked_until`, after which a retry may take
 * it over, the first one's process being gone), then `done` with the answer a retry replays. The
 * unique index decides between API processes. `owner` is the SHA-256 of the API key the request
 * came with (never the key); `fingerprint` the SHA-256 of what the request asked. Rows past
 * `expires_at` count as absent and are pruned by the sweep.
 */
export class Migration20261205000001IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" (
      "id" bigserial primary key,
      "owner" char(64) not null,
      "scope" varchar(600) not null,
      "key" varchar(255) not null,
      "fingerprint" char(64) not null,
      "state" text not null check ("state" in ('running', 'done')),
      "status" int null,
      "content_type" varchar(200) null,
      "body" bytea null,
      "created_at" timestamptz not null default now(),
      "locked_until" timestamptz not null,
      "expires_at" timestamptz not null
    )`);
    this.addSql(`create unique index "idempotency_keys_once" on "idempotency_keys" ("owner", "scope", "key")`);
    this.addSql(`create index "idempotency_keys_expiry" on "idempotency_keys" ("expires_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys"`);
  }
}
