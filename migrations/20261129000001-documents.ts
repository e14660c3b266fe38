import { Migration } from '@mikro-orm/migrations';

/**
 * Documents (issue 13 §3; src/modules/documents/document.entity.ts): files fetched from a URL,
 * their state (upload_status 1 pending, 2 complete, 3 error), what describes the stored content,
 * the public link's token and its digest (the link is looked up by the digest), and the fetch
 * bookkeeping (a generation per URL, claims counted, a lease). Links to deals, people and companies
 * are cleared when those go; a document goes with its account. Document tags are list items.
 */
export class Migration20261129000001Documents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "documents" ("id" serial primary key, "account_id" int not null, "owner_id" int null, "deal_id" int null, "person_id" int null, "company_id" int null, "title" varchar(255) not null, "url" varchar(2048) not null, "kind" text check ("kind" in ('spreadsheet', 'image', 'document', 'pdf', 'presentation', 'other')) not null default 'other', "upload_status" smallint not null default 1, "upload_status_error_message" varchar(300) null, "size_in_k" int null, "size_bytes" int null, "etag" varchar(64) null, "content_type" varchar(255) null, "storage_key" varchar(200) null, "public_token" varchar(64) not null, "public_token_digest" varchar(64) not null, "fetch_generation" int not null default 1, "fetch_attempts" int not null default 0, "fetch_lease_until" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "uploaded_at" timestamptz null)`,
    );
    this.addSql(`create index "documents_account_created" on "documents" ("account_id", "created_at", "id")`);
    this.addSql(`create index "documents_account_updated" on "documents" ("account_id", "updated_at", "id")`);
    this.addSql(`create index "documents_account_uploaded" on "documents" ("account_id", "uploaded_at", "id")`);
    this.addSql(`create index "documents_account_size" on "documents" ("account_id", "size_in_k", "id")`);
    this.addSql(`create index "documents_account_owner" on "documents" ("account_id", "owner_id")`);
    this.addSql(`create index "documents_account_kind" on "documents" ("account_id", "kind")`);
    this.addSql(`create index "documents_deal" on "documents" ("deal_id", "created_at", "id")`);
    this.addSql(`create index "documents_person" on "documents" ("person_id", "created_at", "id")`);
    this.addSql(`create index "documents_company" on "documents" ("company_id", "created_at", "id")`);
    this.addSql(`create index "documents_title_trgm" on "documents" using gin ("title" gin_trgm_ops)`);
    this.addSql(`create index "documents_sort_title" on "documents" ("account_id", lower("title"), "id")`);
    this.addSql(`create index "documents_pending" on "documents" ("created_at", "id") where "upload_status" = 1`);
    this.addSql(`alter table "documents" add constraint "documents_public_token_digest_unique" unique ("public_token_digest")`);
    this.addSql(
      `alter table "documents" add constraint "documents_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "documents" add constraint "documents_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "documents" add constraint "documents_deal_id_foreign" foreign key ("deal_id") references "deals" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "documents" add constraint "documents_person_id_foreign" foreign key ("person_id") references "people" ("id") on update cascade on delete set null`,
    );
    this.addSql(
      `alter table "documents" add constraint "documents_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete set null`,
    );

    this.addSql(
      `create table "document_tags" ("document_id" int not null, "list_item_id" int not null, constraint "document_tags_pkey" primary key ("document_id", "list_item_id"))`,
    );
    this.addSql(`create index "document_tags_list_item" on "document_tags" ("list_item_id", "document_id")`);
    this.addSql(
      `alter table "document_tags" add constraint "document_tags_document_id_foreign" foreign key ("document_id") references "documents" ("id") on update cascade on delete cascade`,
    );
    this.addSql(
      `alter table "document_tags" add constraint "document_tags_list_item_id_foreign" foreign key ("list_item_id") references "list_items" ("id") on update cascade on delete cascade`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "document_tags" cascade`);
    this.addSql(`drop table if exists "documents" cascade`);
  }
}
