import type { RequestContext } from '../../context/context';
import type { Where } from '../../db/sql';
import type { FieldTable, Resource } from '../../kit/fields';
import { CalendarEntryService } from '../calendar/calendar-entry.service';
import { CALENDAR_ENTRY_FIELDS } from '../calendar/calendar-entry.fields';
import { CALENDAR_ENTRY_RECORDS } from '../calendar/calendar-entry.visibility';
import { scopeOf, type Records } from '../common/resource';
import { COMPANY_FIELDS } from '../companies/company.fields';
import { COMPANY_RECORDS } from '../companies/company.visibility';
import { prepareCustomFieldSearch } from '../custom-field-search';
import { CustomFieldResource } from '../custom-fields/custom-field.entity';
import { DEAL_FIELDS } from '../deals/deal.fields';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { NOTE_FIELDS } from '../notes/note.fields';
import { NOTE_RECORDS } from '../notes/note.visibility';
import { PERSON_FIELDS } from '../people/person.fields';
import { PERSON_RECORDS } from '../people/person.visibility';
import { SavedSearchType } from '../saved-searches/saved-search.entity';
import { ExportResource } from './export.types';

/**
 * What an export of each resource reads: the resource's own list condition (its field table's
 * filter SQL and its visibility, exactly as its list builds them), its custom fields, and the
 * saved searches that run on its list. One line per resource; the v3 columns come from the
 * facade's field tables (src/jobs/export-columns.ts).
 */
export interface ExportSource {
  readonly resource: ExportResource;
  /** The GraphQL type of its records (`Person`): its read scope and v3 table are found by it. */
  readonly typeName: string;
  readonly records: Records<{ id: number }>;
  readonly fields: Resource<FieldTable>;
  readonly customFields: CustomFieldResource | null;
  readonly savedSearchType: SavedSearchType;
  /** The list's condition for `filter` (internal form, as the list's resolver receives it), starting from tenancy and visibility. */
  where(ctx: RequestContext, filter: unknown): Promise<Where>;
}

/** The list's own where: `<X>_FIELDS.filterSql` and-ed with `scopeOf(ctx, <X>_RECORDS)`, custom field searches prepared first. */
function listWhere(fields: Resource<FieldTable>, records: Records<{ id: number }>, customFields: CustomFieldResource | null) {
  return async (ctx: RequestContext, filter: unknown): Promise<Where> => {
    if (customFields) await prepareCustomFieldSearch(ctx, customFields, filter as never);
    const condition = fields.filterSql(ctx, filter as never, 'filter');
    return scopeOf(ctx, records).add(condition.sql, ...condition.params);
  };
}

const source = (
  resource: ExportResource,
  typeName: string,
  records: Records<never>,
  fields: Resource<never>,
  customFields: CustomFieldResource | null,
  savedSearchType: SavedSearchType,
  where?: ExportSource['where'],
): ExportSource => ({
  resource,
  typeName,
  records: records as Records<{ id: number }>,
  fields: fields as Resource<FieldTable>,
  customFields,
  savedSearchType,
  where: where ?? listWhere(fields as Resource<FieldTable>, records as Records<{ id: number }>, customFields),
});

export const EXPORT_SOURCES: Readonly<Record<ExportResource, ExportSource>> = {
  [ExportResource.PEOPLE]: source(
    ExportResource.PEOPLE,
    'Person',
    PERSON_RECORDS as never,
    PERSON_FIELDS as never,
    CustomFieldResource.PERSON,
    SavedSearchType.PEOPLE,
  ),
  [ExportResource.COMPANIES]: source(
    ExportResource.COMPANIES,
    'Company',
    COMPANY_RECORDS as never,
    COMPANY_FIELDS as never,
    CustomFieldResource.COMPANY,
    SavedSearchType.COMPANIES,
  ),
  [ExportResource.DEALS]: source(ExportResource.DEALS, 'Deal', DEAL_RECORDS as never, DEAL_FIELDS as never, CustomFieldResource.DEAL, SavedSearchType.DEALS),
  [ExportResource.NOTES]: source(ExportResource.NOTES, 'Note', NOTE_RECORDS as never, NOTE_FIELDS as never, null, SavedSearchType.NOTES),
  // Calendar entries' list condition has rules of its own (windows, series): its service's where.
  [ExportResource.CALENDAR_ENTRIES]: source(
    ExportResource.CALENDAR_ENTRIES,
    'CalendarEntry',
    CALENDAR_ENTRY_RECORDS as never,
    CALENDAR_ENTRY_FIELDS as never,
    null,
    SavedSearchType.CALENDAR_ENTRIES,
    async (ctx, filter) => new CalendarEntryService(ctx).where(filter as never, 'filter'),
  ),
};
