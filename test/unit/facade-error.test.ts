import { FacadeInputError } from '../../rest-facade/errors/facade-error';

describe('FacadeInputError', () => {
  it('carries the blamed field, a message and a 422 default status', () => {
    const error = new FacadeInputError('person[last_name]', 'is too long');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(FacadeInputError);
    expect(error.name).toBe('V3InputError');
    expect(error.field).toBe('person[last_name]');
    expect(error.message).toBe('is too long');
    expect(error.status).toBe(422);
  });

  it('takes an explicit status', () => {
    expect(new FacadeInputError('q', 'too many', 413).status).toBe(413);
    expect(new FacadeInputError('q', 'conflict', 400).status).toBe(400);
  });
});
