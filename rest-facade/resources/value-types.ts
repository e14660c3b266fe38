/** Formatting context: the viewer's zone and currency, fixed per request. */
export interface Formatter {
  readonly timeZone: string;
  readonly currencyDecimals: number;
  dateTime(value: unknown): string | null;
  date(value: unknown): string | null;
}

export type AttributeType = 'text' | 'integer' | 'id' | 'ids' | 'boolean' | 'datetime' | 'date' | 'decimal' | 'money' | 'customFields' | 'enum';

/** One writable v3 attribute and the GraphQL input field it feeds. */
export interface WritableAttribute {
  readonly to: string;
  readonly type: AttributeType;
  /** Text: maximum characters accepted before the core's own column checks. */
  readonly max?: number;
  /** Enum: v3 value to GraphQL enum value. */
  readonly values?: Readonly<Record<string, string>>;
}

/**
 * A v3 attribute or parameter read outside a field table (by a resource's `derive` or a route's
 * hook), as the OpenAPI document shows it: the type it is read as, like a writable attribute's.
 */
export interface InputDoc extends Omit<WritableAttribute, 'to'> {
  readonly description?: string;
}
