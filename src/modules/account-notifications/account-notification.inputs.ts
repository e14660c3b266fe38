import { Field, InputType, Int } from 'type-graphql';

/** At most this many characters of text (a notification is a line or two; the column is `text`). */
export const MAX_TEXT = 5000;

/** v3 §4.9 create: `text`, `user_id`, `hide_popup`, and nothing else. */
@InputType('AccountNotificationCreateInput', {
  description: 'A new account notification: only text, userId and hidePopup are accepted (as in v3). It starts unread and unseen.',
})
export class AccountNotificationCreateInput {
  @Field({ description: `Required: what the notification says; at most ${MAX_TEXT.toLocaleString('en-US')} characters.` })
  text!: string;

  @Field(() => Int, { nullable: true, description: 'databaseId of the user to notify, a user of the account; the viewer when absent or null.' })
  userId?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Create it without a popup; false when absent or null.' })
  hidePopup?: boolean | null;
}

/** v3 §4.9 update: `read_at` (required) and `seen`, and nothing else. */
@InputType('AccountNotificationUpdateInput', {
  description:
    'Marks an account notification read or unread: only readAt and seen are accepted (as in v3). readAt must be given; seen follows it unless given.',
})
export class AccountNotificationUpdateInput {
  @Field(() => Date, {
    nullable: true,
    description:
      'Required (a BLANK user error when left out): when the notification was read, or null to mark it unread. A time makes seen true, null makes it false, unless seen is given.',
  })
  readAt?: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether it has been seen; absent or null: true when readAt is a time, false when it is null.' })
  seen?: boolean | null;
}
