/** Who caused the mail: shown in it ("Ada assigned you ..."). */
interface ByUser {
  readonly byUserId: number;
}

/**
 * The mails the service can owe, each kind with its subject and payload types. A new kind is a new
 * member here; the stored columns (kind, subject_type, subject_id, payload) stay as they are.
 */
export type MailIntent =
  /** v3 §4.4 deliver_assignment_email: a person created for someone else. */
  | { readonly kind: 'person_assignment'; readonly subject: { readonly type: 'Person'; readonly id: number }; readonly payload: ByUser }
  /** v3 §4.4 deliver_reassignment_email. */
  | { readonly kind: 'person_reassignment'; readonly subject: { readonly type: 'Person'; readonly id: number }; readonly payload: ByUser }
  /** v3 §4.6 deliver_reassignment_email. */
  | { readonly kind: 'company_reassignment'; readonly subject: { readonly type: 'Company'; readonly id: number }; readonly payload: ByUser }
  /** v3 §6: a comment added to a note, to each of its notify_user_ids but the author. */
  | {
      readonly kind: 'note_comment';
      readonly subject: { readonly type: 'Note'; readonly id: number };
      readonly payload: ByUser & { readonly commentId: number };
    };

export type MailKind = MailIntent['kind'];
