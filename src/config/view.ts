import { maskCredentials } from './credential-mask.ts';
import { GROUP_LABELS, isSecretKey, labelOf, type VariableGroup, type VariableType } from './define.ts';
import { findVariable } from './schema.ts';
import type { ConfigSource, ConfigStore } from './store.ts';

export type MaskedValue = string | { set: boolean };

export interface ConfigEntryView {
  key: string;
  value: MaskedValue;
  default: MaskedValue;
  source: ConfigSource;
  group: VariableGroup;
  /** The group's title and the variable's human name, for the configuration page. */
  group_label: string;
  label: string;
  type: VariableType;
  description: string;
  secret: boolean;
  restart: boolean;
  editable: boolean;
  choices?: readonly string[];
  /** A saved entry that is stored but not in use (it made the start fail, or no longer validates), and why. */
  ignored?: { value: MaskedValue; reason: string };
}

/** Secrets appear only as `{set}`; credentials inside other values (URLs, JSON header maps) as `***`. */
function maskValue(key: string, type: VariableType, raw: string): MaskedValue {
  if (isSecretKey(key)) return { set: raw.trim() !== '' };
  return maskCredentials(type, raw);
}

/** One variable as `GET /api/config` shows it, with nothing secret in clear. */
export function viewEntry(config: ConfigStore, key: string): ConfigEntryView | undefined {
  const found = findVariable(key);
  if (!found) return undefined;
  const { definition } = found;
  const mask = (raw: string) => maskValue(found.key, definition.type, raw);
  const ignored = config.ignoredEntry(found.key);
  return {
    key: found.key,
    value: mask(config.rawValue(found.key) ?? ''),
    default: mask(definition.default),
    source: config.sourceOf(found.key),
    group: definition.group,
    group_label: GROUP_LABELS[definition.group],
    label: labelOf(found.key, definition),
    type: definition.type,
    description: definition.description,
    secret: isSecretKey(found.key),
    restart: definition.restart ?? false,
    editable: !definition.environmentOnly,
    ...(definition.choices ? { choices: definition.choices } : {}),
    ...(ignored ? { ignored: { value: mask(ignored.value), reason: ignored.reason } } : {}),
  };
}

export function viewConfig(config: ConfigStore): ConfigEntryView[] {
  return config.keys().flatMap((key) => viewEntry(config, key) ?? []);
}
