import { Field, InputType, Int } from 'type-graphql';

@InputType('ConversationCreateInput', { description: 'A new conversation: a note on a deal (v3 `conversation[deal_id, sentence]`).' })
export class ConversationCreateInput {
  @Field(() => Int, { description: 'databaseId of the deal it is on; one the viewer may not see is a NOT_FOUND user error.' })
  dealId!: number;

  @Field({ description: 'The text (required; blank text is a BLANK user error).' })
  sentence!: string;
}

@InputType('ConversationUpdateInput', { description: 'Changes to a conversation: only its text can change (v3 `conversation[sentence]`).' })
export class ConversationUpdateInput {
  @Field(() => String, { nullable: true, description: 'The new text; absent leaves it; null or blank is a BLANK user error.' })
  sentence?: string | null;
}
