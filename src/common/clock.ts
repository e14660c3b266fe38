/**
 * The time, for everything whose answer depends on it ("today", "late", a series' horizon): read
 * through the request's context, never `new Date()` in a rule, so tests can pin it (a fixed clock
 * around midnight or a daylight-saving change) while the server runs for real.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = Object.freeze({ now: () => new Date() });

/** A clock that stands still at `at` until moved: for tests. */
export class FixedClock implements Clock {
  private at: Date;

  constructor(at: Date | string) {
    this.at = new Date(at);
  }

  now(): Date {
    return new Date(this.at.getTime());
  }

  set(at: Date | string): void {
    this.at = new Date(at);
  }
}
