/**
 * Where an outbox message stands, and how many rows the operators' `outbox:list` prints: plain
 * values in a file of their own, so the CLI describes its options without loading the ORM
 * (the GraphQL enum is registered with the entity, outbox-message.entity.ts).
 */
export enum OutboxStatus {
  PENDING = 'pending',
  SENT = 'sent',
  FAILED = 'failed',
}

/** The most rows `outbox:list` prints at once (each renders its subject: a few statements a row). */
export const OUTBOX_LIST_MAX = 500;
export const OUTBOX_LIST_DEFAULT = 50;
