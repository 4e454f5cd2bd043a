import { isSecretKey, type VariableGroup, type VariableType } from './define.ts';
import { findVariable } from './schema.ts';
import type { ConfigSource, ConfigStore } from './store.ts';

export type MaskedValue = string | { set: boolean };

export interface ConfigEntryView {
  key: string;
  value: MaskedValue;
  default: MaskedValue;
  source: ConfigSource;
  group: VariableGroup;
  type: VariableType;
  description: string;
  secret: boolean;
  restart: boolean;
  editable: boolean;
  choices?: readonly string[];
}

/** A database URL may carry a password; show the URL with the password replaced. */
function maskUrlPassword(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password === '') return raw;
    url.password = '***';
    return url.toString();
  } catch {
    return raw;
  }
}

export function maskValue(key: string, raw: string): MaskedValue {
  if (isSecretKey(key)) return { set: raw.trim() !== '' };
  if (key === 'DATABASE_URL') return maskUrlPassword(raw);
  return raw;
}

/** One variable as `GET /api/config` shows it: secrets appear only as `{set}`. */
export function viewEntry(config: ConfigStore, key: string): ConfigEntryView | undefined {
  const found = findVariable(key);
  if (!found) return undefined;
  const { definition } = found;
  return {
    key: found.key,
    value: maskValue(found.key, config.rawValue(found.key) ?? ''),
    default: maskValue(found.key, definition.default),
    source: config.sourceOf(found.key),
    group: definition.group,
    type: definition.type,
    description: definition.description,
    secret: isSecretKey(found.key),
    restart: definition.restart ?? false,
    editable: !definition.environmentOnly,
    ...(definition.choices ? { choices: definition.choices } : {}),
  };
}

export function viewConfig(config: ConfigStore): ConfigEntryView[] {
  return config.keys().flatMap((key) => viewEntry(config, key) ?? []);
}
