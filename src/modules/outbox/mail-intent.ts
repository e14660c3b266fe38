/** Who caused the mail: shown in it ("Ada assigned you ..."). */
interface ByUser {
  readonly byUserId: number;
}

/** Why a webhook endpoint was disabled, and what its last attempt got (webhook-delivery.ts disableEndpoint). */
export interface WebhookDisabled {
  /** `gone`: the receiver answered 410; `failing`: deliveries failed for FAILING_DAYS days. */
  readonly reason: 'gone' | 'failing';
  /** Since when it had been failing (ISO 8601), for `failing`; else null. */
  readonly failingSince: string | null;
  /** The status the last attempt got; null when no answer came. */
  readonly lastStatusCode: number | null;
  /** Why the last attempt failed, as the delivery log says it (a fixed phrase of the fetcher, or "the endpoint answered 503"): never a URL. */
  readonly lastError: string | null;
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
    }
  /**
   * Issue 24 §3: a webhook endpoint was disabled (a 410, or failing for 5 days), to its owner; the
   * row's recipient_address sends it to the endpoint's failure_email instead when one is set.
   */
  | { readonly kind: 'webhook_disabled'; readonly subject: { readonly type: 'WebhookEndpoint'; readonly id: number }; readonly payload: WebhookDisabled };

export type MailKind = MailIntent['kind'];
