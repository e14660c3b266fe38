import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionOf } from '../../graphql/connection';
import { DATABASE_ID_DOC, Node, NODE_ID_DOC } from '../../graphql/node';
import { UserError } from '../../graphql/payload';
import { CALENDAR_ENTRY_FIELDS } from '../calendar/calendar-entry.fields';
import { BulkFormat, BulkJobState } from '../common/bulk';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { DEAL_FIELDS } from '../deals/deal.fields';
import { NOTE_FIELDS } from '../notes/note.fields';
import { PERSON_FIELDS } from '../people/person.fields';

/** What an export reads: a list (issue 27 §2). The values are the saved-search types of the same lists. */
export enum ExportResource {
  DEALS = 'deals',
  PEOPLE = 'people',
  COMPANIES = 'companies',
  NOTES = 'notes',
  CALENDAR_ENTRIES = 'calendar_entries',
}
registerEnumType(ExportResource, {
  name: 'ExportResource',
  description: 'The list an export reads.',
  valuesConfig: {
    DEALS: { description: 'Deals, as `deals` lists them.' },
    PEOPLE: { description: 'People, as `people` lists them.' },
    COMPANIES: { description: 'Companies, as `companies` lists them.' },
    NOTES: { description: 'Notes, as `notes` lists them.' },
    CALENDAR_ENTRIES: { description: 'Calendar entries, as `calendarEntries` lists them.' },
  },
});

@InputType('ExportFilterInput', {
  description: "The export's filter: the list filter of its resource, the one field of that resource (another field is a user error).",
})
export class ExportFilterInput {
  @Field(() => DEAL_FIELDS.Filter, { nullable: true, description: 'For DEALS: what `deals(filter:)` takes.' })
  deals?: InstanceType<typeof DEAL_FIELDS.Filter> | null;

  @Field(() => PERSON_FIELDS.Filter, { nullable: true, description: 'For PEOPLE: what `people(filter:)` takes.' })
  people?: InstanceType<typeof PERSON_FIELDS.Filter> | null;

  @Field(() => COMPANY_FIELDS.Filter, { nullable: true, description: 'For COMPANIES: what `companies(filter:)` takes.' })
  companies?: InstanceType<typeof COMPANY_FIELDS.Filter> | null;

  @Field(() => NOTE_FIELDS.Filter, { nullable: true, description: 'For NOTES: what `notes(filter:)` takes.' })
  notes?: InstanceType<typeof NOTE_FIELDS.Filter> | null;

  @Field(() => CALENDAR_ENTRY_FIELDS.Filter, { nullable: true, description: 'For CALENDAR_ENTRIES: what `calendarEntries(filter:)` takes.' })
  calendarEntries?: InstanceType<typeof CALENDAR_ENTRY_FIELDS.Filter> | null;
}

type OrderOf<R extends { Order: abstract new (...args: never[]) => unknown }> = Array<InstanceType<R['Order']>>;

@InputType('ExportOrderInput', {
  description: "The export's order: the list order of its resource, the one field of that resource (another field is a user error). By databaseId when absent.",
})
export class ExportOrderInput {
  @Field(() => [DEAL_FIELDS.Order], { nullable: true, description: 'For DEALS: what `deals(orderBy:)` takes.' })
  deals?: OrderOf<typeof DEAL_FIELDS> | null;

  @Field(() => [PERSON_FIELDS.Order], { nullable: true, description: 'For PEOPLE: what `people(orderBy:)` takes.' })
  people?: OrderOf<typeof PERSON_FIELDS> | null;

  @Field(() => [COMPANY_FIELDS.Order], { nullable: true, description: 'For COMPANIES: what `companies(orderBy:)` takes.' })
  companies?: OrderOf<typeof COMPANY_FIELDS> | null;

  @Field(() => [NOTE_FIELDS.Order], { nullable: true, description: 'For NOTES: what `notes(orderBy:)` takes.' })
  notes?: OrderOf<typeof NOTE_FIELDS> | null;

  @Field(() => [CALENDAR_ENTRY_FIELDS.Order], { nullable: true, description: 'For CALENDAR_ENTRIES: what `calendarEntries(orderBy:)` takes.' })
  calendarEntries?: OrderOf<typeof CALENDAR_ENTRY_FIELDS> | null;
}

/** The field of ExportFilterInput (and of ExportOrderInput) each resource reads. */
export const FILTER_FIELD: Readonly<Record<ExportResource, keyof ExportFilterInput>> = {
  [ExportResource.DEALS]: 'deals',
  [ExportResource.PEOPLE]: 'people',
  [ExportResource.COMPANIES]: 'companies',
  [ExportResource.NOTES]: 'notes',
  [ExportResource.CALENDAR_ENTRIES]: 'calendarEntries',
};

@InputType('StartExportInput', { description: 'What to export: a list, in a format, with the conditions its list takes.' })
export class StartExportInput {
  @Field(() => ExportResource, { description: 'The list to export.' })
  resource!: ExportResource;

  @Field(() => BulkFormat, { nullable: true, defaultValue: BulkFormat.CSV, description: 'CSV (default) or JSONL.' })
  format?: BulkFormat | null;

  @Field(() => ExportFilterInput, {
    nullable: true,
    description: "The list's filter, under the resource's field; every record the viewer may see when absent.",
  })
  filter?: ExportFilterInput | null;

  @Field(() => ID, {
    nullable: true,
    description:
      "A saved search of the resource's list (its databaseId): its conditions hold besides `filter`. One the viewer may not see, or of another list, is a user error.",
  })
  savedSearchId?: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'v3 `conditions[...]` as an object (`{"person_full_name": "Ada", "custom_label_12": ["x"]}`), translated as the v3 list translates them; they hold besides `filter`.',
  })
  v3Conditions?: Record<string, unknown> | null;

  @Field(() => ExportOrderInput, {
    nullable: true,
    description: "The records' order in the file, as the list takes it (ties by databaseId), under the resource's field; by databaseId when absent.",
  })
  orderBy?: ExportOrderInput | null;
}

/** A bulk export (issue 27 §2): a list written to a file in storage by a worker, downloadable by an unguessable link until it expires. */
@ObjectType('Export', { implements: Node, simpleResolvers: true, description: 'A bulk export: a list written to a CSV or JSONL file by a worker.' })
export class Export {
  @Field(() => ID, { description: NODE_ID_DOC }) id!: string;
  @Field(() => Int, { description: DATABASE_ID_DOC }) databaseId!: number;
  @Field(() => ExportResource, { description: 'The list exported.' }) resource!: ExportResource;
  @Field(() => BulkFormat, { description: 'The file format.' }) format!: BulkFormat;
  @Field(() => BulkJobState, { description: 'Where the export is.' }) state!: BulkJobState;
  @Field(() => Int, { nullable: true, description: 'How many records the snapshot holds (counted when the worker starts); null before.' })
  rowsTotal!: number | null;
  @Field(() => Int, { description: 'Records written so far (all of them when DONE).' }) rowsExported!: number;
  @Field(() => Int, { nullable: true, description: 'Estimated seconds until done, from the pace so far; null when not running or not known yet.' })
  estimatedSecondsLeft!: number | null;
  @Field(() => String, { nullable: true, description: 'Why it FAILED; null otherwise.' }) failure!: string | null;
  @Field({ description: 'When it was started.' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When a worker started on it (the last attempt).' }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it became DONE, FAILED or CANCELLED.' }) finishedAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description: 'When DONE and not expired: the link to the file, usable without an API key by whoever holds it (keep it private). Null otherwise.',
  })
  downloadUrl!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the download link stops working and the file is removed.' }) expiresAt!: Date | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The change-feed cursor at the snapshot the file was read from: `changes(after:)` (v3 `/changes.json?since=`) from it returns every change the file does not hold, and none it does. Null until DONE.',
  })
  changesCursor!: string | null;
}

@ObjectType('ExportConnection', { description: 'A page of exports, with cursors.' })
export class ExportConnection extends ConnectionOf(Export, 'Export', 'exports') {}

@ObjectType('StartExportPayload', { simpleResolvers: true, description: 'The result of startExport.' })
export class StartExportPayload {
  @Field(() => Export, { nullable: true, description: 'The export, QUEUED; null when userErrors refused the input.' }) export!: Export | null;
  @Field(() => [UserError], { description: 'Problems with the input; empty on success.' }) userErrors!: UserError[];
}

@ObjectType('CancelExportPayload', { simpleResolvers: true, description: 'The result of cancelExport.' })
export class CancelExportPayload {
  @Field(() => Export, { nullable: true, description: 'The export: CANCELLED, or as it was when it had already finished; null when not found.' })
  export!: Export | null;
  @Field(() => [UserError], { description: 'Problems with the input; empty on success.' }) userErrors!: UserError[];
}
