import 'reflect-metadata';
import { v3ShowRoutes } from '../../rest-facade';
import { createSchema } from '../../src/app/schema';
import { ChangeModel, typeNameOf } from '../../src/modules/changes/change.types';

/**
 * A webhook delivery carries its record as the v3 show route answers it (rest-facade
 * createV3RecordReader): every model whose changes are recorded must have one, found by its type.
 */
describe('v3 show routes by type', () => {
  const shows = v3ShowRoutes(createSchema());

  it.each(Object.values(ChangeModel))('%s has a show route', (model) => {
    const route = shows.get(typeNameOf(model));
    expect(route).toBeDefined();
    expect(route!.method).toBe('GET');
    expect(route!.kind).toBe('show');
    expect(route!.path).toMatch(/:id$/);
  });

  it('finds the nested show of a comment and the plain one of a deal', () => {
    expect(shows.get('Comment')!.path).toBe('/notes/:noteId/comments/:id');
    expect(shows.get('Deal')!.path).toBe('/deals/:id');
  });
});
