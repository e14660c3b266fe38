/**
 * A v3 request input the facade refuses before any GraphQL runs (422 naming the v3 field, or 400
 * / 413). Defined with the v3 vocabulary in the core (src/kit/v3/input-error.ts), which saved
 * searches share with the facade.
 */
export { V3InputError as FacadeInputError, type V3InputStatus as FacadeInputStatus } from '../../src/kit/v3/input-error';
