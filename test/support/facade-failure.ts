import { FacadeInputError } from '../../rest-facade/errors/facade-error';

/** Runs `fn`, expecting it to throw a FacadeInputError, and returns that error for assertions. */
export function failure(fn: () => unknown): FacadeInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FacadeInputError) return error;
    throw error;
  }
  throw new Error('expected a FacadeInputError');
}
