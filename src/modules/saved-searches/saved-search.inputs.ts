import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';
import { SavedSearchType } from './saved-search.entity';

const QUERY_DOC =
  'The conditions: v3 condition names of the list (`deal_name`, `company_created`, `custom_label_<id>`…) to arrays of values, as `conditions[...]` takes them: ' +
  '`{"deal_stage": [2, 3], "deal_name": ["acme"], "deal_created": [{"from_date": "2014-01-01"}], "custom_label_7": [{"from": "10", "to": "20"}]}`. ' +
  'Checked when saved: an unknown name or a bad value is a user error naming it (`["input", "query", "deal_name"]`).';
const SORT_DOC = "A v3 sort value of the list (`-deals.created_at`, `people.last_name`); null for the list's default order.";
const COLUMNS_DOC = 'The v3 attributes a client shows as columns (at most 100, each at most 100 characters).';

@InputType('SavedSearchCreateInput', { description: 'A new saved search, owned by the viewer.' })
export class SavedSearchCreateInput {
  @Field({ description: 'Required; at most 100 characters.' }) name!: string;
  @Field(() => SavedSearchType, { description: 'The list it is for.' }) searchType!: SavedSearchType;
  @Field(() => GraphQLJSONObject, { nullable: true, description: `${QUERY_DOC} Empty when absent.` }) query?: Record<string, unknown> | null;
  @Field(() => [String], { nullable: true, description: COLUMNS_DOC }) columns?: string[] | null;
  @Field(() => String, { nullable: true, description: SORT_DOC }) order?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Share it with every user of the account; false when absent.' }) isShared?: boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "Make it the viewer's default search of its list (their previous default of that list stops being one); false when absent.",
  })
  isDefault?: boolean | null;
}

@InputType('SavedSearchUpdateInput', { description: 'Changes to a saved search: only the fields given change; the search is checked again as a whole.' })
export class SavedSearchUpdateInput {
  @Field(() => String, { nullable: true, description: 'At most 100 characters; cannot be blank.' }) name?: string | null;
  @Field(() => SavedSearchType, { nullable: true, description: 'Another list: the query and sort must suit it.' }) searchType?: SavedSearchType | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: `${QUERY_DOC} Replaces the whole query; null empties it.` }) query?: Record<
    string,
    unknown
  > | null;
  @Field(() => [String], { nullable: true, description: `${COLUMNS_DOC} null empties them.` }) columns?: string[] | null;
  @Field(() => String, { nullable: true, description: SORT_DOC }) order?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Share it with every user of the account (null means false).' }) isShared?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Make it the viewer's default search of its list (null means false)." }) isDefault?: boolean | null;
}
