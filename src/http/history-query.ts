import { z } from 'zod';
import { InvalidTimestampError, parseTimestamp, toIsoTimestamp, toMillisCeil } from '../history/timestamps.ts';

/** `since`: an ISO 8601 date-time (a zone-less one is UTC), normalised to ISO with microseconds. */
export const SinceSchema = z.string().transform((value, context) => {
  try {
    return toIsoTimestamp(parseTimestamp(value));
  } catch (error) {
    context.addIssue({ code: 'custom', message: error instanceof InvalidTimestampError ? error.message : 'Invalid date-time' });
    return z.NEVER;
  }
});

/** `limit`: a whole number in [1, max], `fallback` when absent. */
export function limitSchema(fallback: number, max: number) {
  return z.coerce.number().int().min(1).max(max).default(fallback);
}

/** The ISO 8601 millisecond form the text-sorted `created_at` columns hold. */
export function toIsoMillis(since: string): string {
  return new Date(toMillisCeil(parseTimestamp(since))).toISOString();
}
