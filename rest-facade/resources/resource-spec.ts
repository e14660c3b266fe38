/** Formatting context: the viewer's zone and currency, fixed per request. */
export interface Formatter {
  readonly timeZone: string;
  readonly currencyDecimals: number;
  dateTime(value: unknown): string | null;
  date(value: unknown): string | null;
}

export type AttributeType =
  | 'text'
  | 'integer'
  | 'id'
  | 'ids'
  | 'boolean'
  | 'datetime'
  | 'date'
  | 'decimal'
  | 'customFields'
  | 'enum';

/** One writable v3 attribute and the GraphQL input field it feeds. */
export interface WritableAttribute {
  readonly to: string;
  readonly type: AttributeType;
  /** Text: maximum characters accepted before the core's own column checks. */
  readonly max?: number;
  /** Enum: v3 value to GraphQL enum value. */
  readonly values?: Readonly<Record<string, string>>;
}

/** The v3 face of one resource: its root key, what may be written, and how it is shown. */
export interface ResourceSpec {
  /** Form root and JSON root key: `company[name]=...`, `{"company": {...}}`. */
  readonly root: string;
  /** Whitelist: anything else in the body is ignored (never written). */
  readonly writable: Readonly<Record<string, WritableAttribute>>;
  /**
   * Attributes computed from others on input (e.g. person `full_name` split into first and last
   * name). Runs after `writable` and may add GraphQL input fields.
   */
  readonly derive?: (input: Record<string, unknown>, attributes: Record<string, unknown>, timeZone: string) => void;
  /** GraphQL result object to v3 JSON. */
  readonly serialize: (record: Record<string, any>, fmt: Formatter) => Record<string, unknown>;
  /** GraphQL input field names to v3 names for validation errors, beyond the reverse of `writable`. */
  readonly errorFields?: Readonly<Record<string, string>>;
}
