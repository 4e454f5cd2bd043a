/**
 * Deepest nesting of arrays and objects accepted in a JSON configuration value: far above any real setting,
 * far below what recursive code (JSON.stringify, zod, masking) can walk without running out of stack.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether `value` nests at most `max` levels deep. Iterative, so a hostile depth cannot overflow it. */
export function withinJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return false;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return true;
}
