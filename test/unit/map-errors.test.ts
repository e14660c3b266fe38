import { replyForErrors } from '../../rest-facade/errors/map-errors';
import type { V3Resource } from '../../rest-facade/resources/resource-spec';

/** The v3 status of the core's error codes that are no client's fault and no crash. */
describe('v3 answers of transient core errors', () => {
  // The resource only names fields of validation errors, which these are not.
  const resource = { name: 'deals' } as unknown as V3Resource;

  it('CONFLICT (a write that lost to concurrent writes more than once) is a 409 with Retry-After, whatever the error shape', () => {
    for (const shape of ['array', 'wrapped', 'error-object'] as const) {
      const reply = replyForErrors([{ message: 'The write met concurrent writes', extensions: { code: 'CONFLICT' } }], shape, resource, 'req-1');
      expect(reply).toEqual({ status: 409, body: { error: 'The write met concurrent writes' }, headers: { 'Retry-After': '1' } });
    }
  });

  it('TIMEOUT is a 503; an unknown code is a masked 500 carrying the request id', () => {
    expect(replyForErrors([{ message: 'too long', extensions: { code: 'TIMEOUT' } }], 'array', resource, 'req-2')).toEqual({
      status: 503,
      body: { error: 'too long' },
    });
    expect(replyForErrors([{ message: 'secret detail', extensions: { code: 'WHATEVER' } }], 'array', resource, 'req-3')).toEqual({
      status: 500,
      body: { error: 'Internal error', request_id: 'req-3' },
    });
  });
});
