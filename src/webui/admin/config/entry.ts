/** One configuration variable as `GET /api/config` shows it, and the checks the page makes before sending. */
import type { VariableType } from '../../../config/define.ts';

export type ShownValue = string | { set: boolean };

export interface ConfigEntry {
  key: string;
  /** Secrets come as `{set}`; credentials inside other values as `***`. */
  value: ShownValue;
  default: ShownValue;
  source: 'default' | 'env_file' | 'environment' | 'override';
  group: string;
  group_label: string;
  label: string;
  type: VariableType;
  description: string;
  secret: boolean;
  restart: boolean;
  editable: boolean;
  choices?: string[];
  /** A saved value that is stored but not in use (it stopped the start, or no longer validates). */
  ignored?: { value: ShownValue; reason: string };
}

/** The value to send, or the reason it cannot be sent. */
export function validate(entry: ConfigEntry, raw: string): { ok: true; value: string } | { ok: false; issue: string } {
  const value = entry.type === 'json' ? raw : raw.trim();
  switch (entry.type) {
    case 'integer':
      return /^-?\d+$/.test(value) ? { ok: true, value } : { ok: false, issue: 'Enter a whole number.' };
    case 'number':
      return value !== '' && Number.isFinite(Number(value)) ? { ok: true, value } : { ok: false, issue: 'Enter a number.' };
    case 'boolean':
      return value === 'true' || value === 'false' ? { ok: true, value } : { ok: false, issue: 'Choose true or false.' };
    case 'enum':
      return entry.choices?.includes(value) ? { ok: true, value } : { ok: false, issue: `Choose one of: ${entry.choices?.join(', ')}.` };
    case 'json':
      try {
        JSON.parse(value);
        return { ok: true, value };
      } catch (error) {
        return { ok: false, issue: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
    default:
      return { ok: true, value };
  }
}

/** Whether a search finds the entry: by its label, its variable name or its help, in any case. */
export function matches(entry: ConfigEntry, needle: string): boolean {
  const wanted = needle.trim().toLowerCase();
  return wanted === '' || [entry.label, entry.key, entry.description].some((text) => text.toLowerCase().includes(wanted));
}

/** A value as the page writes it in text: secrets only say whether they are set. */
export function shownText(value: ShownValue): string {
  if (typeof value === 'object') return value.set ? 'set' : 'not set';
  return value === '' ? '(empty)' : value;
}

/** Where the value in use comes from, in the user's words. */
export const SOURCE_NAMES: Readonly<Record<ConfigEntry['source'], string>> = {
  default: 'default',
  env_file: 'from .env',
  environment: 'from the environment',
  override: 'saved here',
};
