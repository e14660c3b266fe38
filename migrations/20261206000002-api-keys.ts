import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 26 §3: scoped API keys. A user's named keys, each acting as the user with at most its
 * `scopes`; only the SHA-256 of the secret is kept (`key_hash`), with a short non-secret `prefix`
 * to tell keys apart in lists. A webhook endpoint made with a scoped key keeps the key's scopes
 * (`webhook_endpoints.scopes`, null for one made with a full key): it receives only what they
 * may read.
 */
export class Migration20261206000002ApiKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "api_keys" (
      "id" serial primary key,
      "account_id" int not null,
      "user_id" int not null,
      "name" varchar(100) not null,
      "key_hash" varchar(64) not null,
      "prefix" varchar(20) not null,
      "scopes" jsonb not null,
      "expires_at" timestamptz null,
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash")`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id")`);
    this.addSql(
      `alter table "api_keys" add constraint "api_keys_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
    this.addSql(`alter table "webhook_endpoints" add column "scopes" jsonb null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "scopes"`);
    this.addSql(`drop table if exists "api_keys"`);
  }
}
