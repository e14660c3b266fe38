import { Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp } from '@mikro-orm/core';
import { CustomField } from '../custom-fields/custom-field.entity';

/**
 * The searchable values of custom fields, one row per (field, value, record): numeric and currency
 * values, dates as the number YYYYMMDD (ordered as the dates are), and the entry ids of dropdown
 * and multi-select values (one row per chosen entry). Text and boolean values are not here.
 *
 * Derived from the records' `custom_fields` JSON and kept in step with it by PostgreSQL itself:
 * statement-level triggers on people, companies and deals (migration 20261126000003) rewrite the
 * rows of every record whose `custom_fields` an insert, update or delete touches, in the same
 * transaction, whoever writes (the services, a label's values being cleared, imports). Deleting a
 * field deletes its rows (`on delete cascade`). Never written by the application.
 *
 * What it is for: a range or a list of values on one field of one account is one index range
 * (`field_id, value`), whatever the number of accounts and fields (an expression index per field
 * would not scale); the record index answers "this record's value" for a plan that walks the
 * records in list order instead. `record_id` is the id in the field's resource's table.
 */
@Entity({ tableName: 'custom_field_search_values' })
@Index({ name: 'custom_field_search_values_record', properties: ['recordId', 'field', 'value'] })
export class CustomFieldSearchValue {
  [PrimaryKeyProp]?: ['field', 'value', 'recordId'];

  @ManyToOne(() => CustomField, { primary: true, deleteRule: 'cascade' })
  field!: CustomField;

  @PrimaryKey({ type: 'decimal', columnType: 'numeric' })
  value!: string;

  @PrimaryKey({ type: 'integer' })
  recordId!: number;
}
