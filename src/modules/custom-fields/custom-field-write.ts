import type { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import type { CustomFieldResource } from './custom-field.enums';
import { customFieldDefs } from './custom-field.loaders';
import { mergeCustomFields, type CustomFieldValueInput } from './custom-field-values';

/** The custom-field inputs of a record write: the JSON object (v3's shape) and the typed list. */
export interface CustomFieldsWriteInput {
  readonly customFields?: Record<string, unknown> | null;
  readonly customFieldValues?: unknown;
}

/**
 * A record's custom field values from a write (people, companies, deals): the same checks for the
 * JSON input and the typed one, every required field on create. Definitions are loaded only when
 * something is to check.
 */
export async function applyCustomFields(
  ctx: RequestContext,
  resource: CustomFieldResource,
  record: { customFields: Record<string, unknown> },
  input: CustomFieldsWriteInput,
  issues: Issues,
  isNew: boolean,
): Promise<void> {
  const typed = (input.customFieldValues ?? null) as readonly CustomFieldValueInput[] | null;
  if (!isNew && input.customFields === undefined && typed === null) return;
  const defs = await customFieldDefs(ctx, resource).load();
  if (defs.length === 0 && !typed?.length) return;
  record.customFields = mergeCustomFields(defs, record.customFields ?? {}, input.customFields, issues, {
    decimals: ctx.viewer.currency.decimals,
    isNew,
    typed,
  });
}
