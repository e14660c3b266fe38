import 'reflect-metadata';
import { createSchema } from '../../src/app/schema';
import { DEAL_CONDITIONS } from '../../src/modules/deals/deal.conditions';
import { SavedSearchType } from '../../src/modules/saved-searches/saved-search.entity';
import { registerSearchableList, unregisteredSearchTypes, vocabularyOf } from '../../src/modules/saved-searches/saved-search.vocabulary';

/**
 * A list runs saved searches when its record resource's declaration says so
 * (`search: savedSearches({...})`): the declaration registers its vocabulary and its list step,
 * and saved-searches keeps no list of its own (issue 23 §1).
 */
describe('saved searches run the lists their declarations register', () => {
  createSchema();

  it('every SavedSearchType has its list, with the input types and sort keys of its resource', () => {
    expect(unregisteredSearchTypes()).toEqual([]);
    const deals = vocabularyOf(SavedSearchType.DEALS);
    expect(deals).toMatchObject({ what: 'deals', conditions: DEAL_CONDITIONS, sortTable: 'deals', list: { filterType: 'DealFilter', orderType: 'DealOrder' } });
    expect(deals.sort).toMatchObject({ name: 'NAME', created_at: 'CREATED_AT' });
    expect(vocabularyOf(SavedSearchType.CALENDAR_ENTRIES).list).toMatchObject({ filterType: 'CalendarEntryFilter', orderType: 'CalendarEntryOrder' });
  });

  it('a second list declaring the same type is a declaration error', () => {
    const spec = { type: SavedSearchType.NOTES, what: 'notes', conditions: DEAL_CONDITIONS, sort: {}, sortTable: 'notes' };
    expect(() => registerSearchableList(spec, { orderField: {}, typeName: 'Note', list: () => Promise.resolve(null) })).toThrow(
      'Two record resources run saved searches of type notes',
    );
  });
});
