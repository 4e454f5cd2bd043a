import { describe, expect, it } from 'vitest';
import { MAX_TIMER_SECONDS } from '../../src/config/define.ts';
import { variables } from '../../src/config/schema.ts';

/** Names that hold a duration in seconds; a new one must be bounded too (use `seconds()` in define.ts). */
const SECONDS_VALUED = /(_S|_SECONDS|_TIMEOUT)$/;

describe('duration variables', () => {
  const durations = Object.entries(variables).filter(([key]) => SECONDS_VALUED.test(key));

  it('are all found by name', () => {
    expect(durations.map(([key]) => key)).toEqual(
      expect.arrayContaining(['CORTEX_TIMEOUT_S', 'COMPANION_UPLOAD_CLEANUP_INTERVAL_S', 'COMPAT_STREAM_TIMEOUT', 'WEATHER_CACHE_S']),
    );
  });

  it('accept at most what a Node timer can wait once converted to milliseconds', () => {
    expect(MAX_TIMER_SECONDS * 1000).toBeLessThanOrEqual(2_147_483_647);
    for (const [key, definition] of durations) {
      expect(definition.schema.safeParse(String(MAX_TIMER_SECONDS)).success, key).toBe(true);
      expect(definition.schema.safeParse(String(MAX_TIMER_SECONDS + 1)).success, key).toBe(false);
    }
  });
});
