import { Field, ID, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { NotFoundError, PreconditionRequiredError, StaleError, ValidationFailed, type FieldIssue, type IssueCode } from '../common/errors';
import { toGlobalId } from './node';

export enum UserErrorCode {
  BLANK = 'BLANK',
  TOO_LONG = 'TOO_LONG',
  INVALID = 'INVALID',
  NOT_FOUND = 'NOT_FOUND',
  OUT_OF_RANGE = 'OUT_OF_RANGE',
  TAKEN = 'TAKEN',
  DUPLICATE = 'DUPLICATE',
  STALE = 'STALE',
  PRECONDITION_REQUIRED = 'PRECONDITION_REQUIRED',
  AMBIGUOUS_MATCH = 'AMBIGUOUS_MATCH',
}
registerEnumType(UserErrorCode, {
  name: 'UserErrorCode',
  description: 'Why a mutation refused its input; stable, so a form can react to it (the message is for people).',
  valuesConfig: {
    BLANK: { description: 'A required value is missing or empty (only spaces count as empty).' },
    TOO_LONG: { description: 'Longer than the field holds; the message says the maximum.' },
    INVALID: { description: 'Not a value of the expected form (a colour, a date, one of the choices, ...).' },
    NOT_FOUND: { description: 'The record, or a record it refers to, does not exist or the viewer may not see it.' },
    OUT_OF_RANGE: { description: 'A number or date outside what the field accepts (dates: years 1 to 9999).' },
    TAKEN: { description: 'Must be unique, and another record already has this value.' },
    DUPLICATE: { description: 'The record duplicates an existing one (see the duplicate check options).' },
    STALE: { description: 'The record changed since the version given as `expectedVersion`: read it again (its `version`), then retry.' },
    PRECONDITION_REQUIRED: {
      description: 'The account requires `expectedVersion` on updates and deletes of this record (Account.requirePreconditions), and none was given.',
    },
    AMBIGUOUS_MATCH: { description: 'An upsert input matches more than one record the viewer may see: nothing is written for it.' },
  },
});

@ObjectType('UserError', { simpleResolvers: true, description: 'A problem with the input of a mutation: nothing was changed.' })
export class UserError {
  @Field(() => [String], {
    nullable: true,
    description: 'Path of the input field at fault from the mutation\'s arguments, e.g. ["input", "lastName"]; null when the record as a whole is refused.',
  })
  field!: string[] | null;

  @Field(() => UserErrorCode, { description: 'What is wrong, as a stable code.' })
  code!: UserErrorCode;

  @Field({ description: 'What is wrong, in English, to show next to the field (e.g. "can\'t be blank").' })
  message!: string;
}

/** Where an issue's field sits among the mutation's arguments (default `input`). */
export type ArgumentOf = (field: string) => string;

const toUserError = (issue: FieldIssue, argumentOf: ArgumentOf): UserError => ({
  field: issue.field === 'base' ? null : [argumentOf(issue.field), ...issue.field.split('.')],
  code: issue.code as IssueCode as UserErrorCode,
  message: issue.message,
});

/**
 * Runs a mutation's work and answers its payload: the result, or the validation problems as
 * `userErrors` (data, not errors). A missing or hidden record named by `id` is a NOT_FOUND user
 * error on `id`; a version that is not the record's (or none, where the account requires one) a
 * STALE (PRECONDITION_REQUIRED) user error on `expectedVersion`. Anything else (authentication, rate limit, permission, internal) stays a
 * top-level error. The work runs in its own transaction, so a refused input changed nothing.
 */
export async function payloadOf<T>(work: () => Promise<T>, argumentOf: ArgumentOf = () => 'input'): Promise<{ result: T | null; userErrors: UserError[] }> {
  try {
    return { result: await work(), userErrors: [] };
  } catch (error) {
    if (error instanceof ValidationFailed) return { result: null, userErrors: error.issues.map((i) => toUserError(i, argumentOf)) };
    if (error instanceof NotFoundError) return { result: null, userErrors: [{ field: ['id'], code: UserErrorCode.NOT_FOUND, message: error.message }] };
    if (error instanceof StaleError) return { result: null, userErrors: [{ field: ['expectedVersion'], code: UserErrorCode.STALE, message: error.message }] };
    if (error instanceof PreconditionRequiredError)
      return { result: null, userErrors: [{ field: ['expectedVersion'], code: UserErrorCode.PRECONDITION_REQUIRED, message: error.message }] };
    throw error;
  }
}

/** Argument placement for mutations with an `options` argument beside `input`. */
export const withOptions =
  (optionFields: readonly string[]): ArgumentOf =>
  (field) =>
    optionFields.includes(field.split('.')[0]) ? 'options' : 'input';

/**
 * `CreatePersonPayload { person userErrors }` for a record type: `key` names the record's field.
 * `@ObjectType('CreatePersonPayload') class CreatePersonPayload extends RecordPayload(Person, 'person', 'The created person') {}`
 */
export function RecordPayload<T extends object>(item: ClassType<T>, key: string, description: string) {
  @ObjectType({ simpleResolvers: true })
  abstract class Payload {
    @Field(() => item, { name: key, nullable: true, description: `${description}; null when userErrors refused the input.` })
    record!: T | null;

    @Field(() => [UserError], { description: 'Problems with the input; empty on success.' })
    userErrors!: UserError[];
  }
  return Payload;
}

/** The payload of a delete mutation: `@ObjectType('DeletePersonPayload', {description}) class DeletePersonPayload extends DeletePayload {}`. */
@ObjectType({ simpleResolvers: true })
export abstract class DeletePayload {
  @Field(() => ID, { nullable: true, description: 'Global id of the deleted record (for removing it from a client cache); null when nothing was deleted.' })
  deletedId!: string | null;

  @Field(() => Int, { nullable: true, description: 'databaseId of the deleted record; null when nothing was deleted.' })
  deletedDatabaseId!: number | null;

  @Field(() => [UserError], { description: 'Why nothing was deleted (e.g. NOT_FOUND); empty on success.' })
  userErrors!: UserError[];
}

/** Runs a delete and answers its payload. */
export async function deletePayload(typeName: string, work: () => Promise<number>): Promise<DeletePayload> {
  const { result, userErrors } = await payloadOf(work);
  return { deletedId: result === null ? null : toGlobalId(typeName, result), deletedDatabaseId: result, userErrors };
}

/** Runs a create or update and answers a RecordPayload: the record under `key` (e.g. `person`) and the user errors. */
export async function recordPayload<T>(
  key: string,
  work: () => Promise<T>,
  argumentOf?: ArgumentOf,
): Promise<Record<string, T | null> & { userErrors: UserError[] }> {
  const { result, userErrors } = await payloadOf(work, argumentOf);
  return { [key]: result, userErrors } as Record<string, T | null> & { userErrors: UserError[] };
}
