import { Migration } from '@mikro-orm/migrations';

/**
 * Outbox delivery (issue 13 §2; src/modules/outbox/deliver.ts): how many times a row was tried,
 * when it may be tried next (also the lease of a delivery in flight, so a worker killed mid-send
 * leaves the row due again later), and the last failure as a short, sanitised reason. `sent_at`
 * exists since the initial migration.
 */
export class Migration20261128000001OutboxDelivery extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "outbox_messages" add column "attempts" int not null default 0, add column "next_attempt_at" timestamptz null, add column "last_error" varchar(500) null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "outbox_messages" drop column "attempts", drop column "next_attempt_at", drop column "last_error"`);
  }
}
