import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24 §3: "an endpoint failing for 5 days is disabled and `failure_email` is mailed through
 * the outbox". An outbox row still belongs to a user of the account (`recipient_id`: for a
 * webhook mail, the endpoint's owner), and `recipient_address` is where the mail goes when that is
 * not the recipient's own address (the endpoint's `failure_email`); null: the recipient's address.
 * 254: the longest address SMTP carries (RFC 5321), as `webhook_endpoints.failure_email`.
 */
export class Migration20261203000004OutboxRecipientAddress extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "outbox_messages" add column "recipient_address" varchar(254) null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "outbox_messages" drop column "recipient_address"`);
  }
}
