/**
 * Occurrences of many entries in a window (a calendar view): each entry as itself, or a series
 * computed from its rules (recurrence.ts), without reading the stored recurrences. Pure.
 */
import { hasRecurrence, occurrencesInSpan, RECURRENCE_LIMITS, RecurrenceInvalid, type RecurrenceRules, type SeriesAnchor } from './recurrence';

export interface SeriesSource {
  readonly entryId: number;
  readonly anchor: SeriesAnchor;
  readonly durationMs: number;
  readonly rules: RecurrenceRules | null;
}

export interface Occurrence {
  readonly entryId: number;
  readonly start: Date;
  readonly end: Date;
}

function byStartThenId(a: Occurrence, b: Occurrence): number {
  return a.start.getTime() - b.start.getTime() || a.entryId - b.entryId;
}

/**
 * Occurrences of every source in [from, to): non-recurring entries as themselves when they overlap
 * the window; a series computed from its rules. Sorted by start then entryId; at most `max`.
 *
 * An occurrence [start, start + duration) overlaps the window when start < to and start + duration
 * > from; one without duration when from <= start < to. Throws RangeError when the window is wider
 * than RECURRENCE_LIMITS.windowDays (or for an invalid date or time zone). A series whose stored
 * rules no longer compile (RecurrenceInvalid) shows its base entry only, rather than failing the view.
 */
export function occurrencesInWindow(sources: readonly SeriesSource[], from: Date, to: Date, max: number): Occurrence[] {
  const lo = from.getTime();
  const hi = to.getTime();
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new RangeError('The window needs valid dates');
  if (hi - lo > RECURRENCE_LIMITS.windowDays * 86_400_000) {
    throw new RangeError(`An occurrence window may span at most ${RECURRENCE_LIMITS.windowDays} days`);
  }
  const limit = Number.isFinite(max) ? Math.max(0, Math.floor(max)) : 0;
  if (hi <= lo || limit === 0) return [];

  let found: Occurrence[] = [];
  for (const source of sources) {
    const duration = Number.isFinite(source.durationMs) && source.durationMs > 0 ? source.durationMs : 0;
    // Starts that overlap: start > from - duration (to the millisecond), or start >= from without duration.
    const since = new Date(duration > 0 ? lo - duration + 1 : lo);
    let starts: Date[];
    if (source.rules && hasRecurrence(source.rules)) {
      try {
        starts = occurrencesInSpan(source.rules, source.anchor, since, to, limit);
      } catch (error) {
        if (!(error instanceof RecurrenceInvalid)) throw error;
        starts = occurrencesInSpan({ rrule: null, rdate: null, exrule: null, exdate: null }, source.anchor, since, to, 1);
      }
    } else {
      const start = source.anchor.start.getTime();
      starts = start >= since.getTime() && start < hi ? [source.anchor.start] : [];
    }
    for (const start of starts) {
      found.push({ entryId: source.entryId, start: new Date(start.getTime()), end: new Date(start.getTime() + duration) });
    }
    // Keep memory bounded by `max` whatever the number of sources: only the earliest can be kept.
    if (found.length > 2 * limit) found = found.sort(byStartThenId).slice(0, limit);
  }
  return found.sort(byStartThenId).slice(0, limit);
}
