import type { RequiredConfig } from './contract.ts';

/**
 * required_config_vars: a plain string must be present (AND), an array is an OR group (one member
 * present is enough). `rawValue` gives the effective value with the default folded in, so a variable
 * whose default is non-empty always counts as present. Unset, empty and whitespace-only are missing.
 */
export function missingConfig(required: RequiredConfig | undefined, rawValue: (key: string) => string | undefined): string[][] {
  const present = (key: string) => (rawValue(key) ?? '').trim() !== '';
  const missing: string[][] = [];
  for (const entry of required ?? []) {
    const group = typeof entry === 'string' ? [entry] : [...entry];
    if (group.length > 0 && !group.some(present)) missing.push(group);
  }
  return missing;
}

/** `Missing required configuration: A, B or C` (OR groups read `B or C`). */
export function missingConfigReason(missing: string[][]): string {
  return `Missing required configuration: ${missing.map((group) => group.join(' or ')).join(', ')}`;
}

/** Every variable a requirement list mentions, to know which configuration changes concern it. */
export function requiredKeys(required: RequiredConfig | undefined): Set<string> {
  return new Set((required ?? []).flatMap((entry) => (typeof entry === 'string' ? [entry] : [...entry])));
}
