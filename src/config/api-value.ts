import { isSecretKey, type VariableDefinition } from './define.ts';
import { configFileInside, shownFolder } from './config-files.ts';
import { unmaskSent } from './mask.ts';
import { collidingListener } from './ports.ts';
import { findVariable } from './schema.ts';
import { InvalidValueError, UnknownVariableError, type ConfigStore } from './store.ts';

/** A value as `POST /api/config` receives it: JSON-valued variables may come as objects, lists as arrays. */
export type SentValue = string | number | boolean | null | Record<string, unknown> | unknown[];

/** An array for a list variable is its comma-separated text, so an item must be a string without a comma. */
function toRaw(key: string, definition: VariableDefinition, value: SentValue): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (definition.type === 'list' && Array.isArray(value)) {
    if (!value.every((item): item is string => typeof item === 'string' && !item.includes(','))) {
      throw new InvalidValueError(key, `${key} is a list: send strings without commas, or one comma-separated string`);
    }
    return value.join(',');
  }
  return JSON.stringify(value);
}

/**
 * The rules a value saved through the API meets beyond its variable's own schema (which `ConfigStore.set`
 * applies): masked credentials sent back unchanged keep the stored secret, file variables name files inside
 * the configuration-files folder, and no two listeners share a port. Returns the canonical key and the raw
 * text to save (`null` resets); throws `UnknownVariableError` or `InvalidValueError`.
 */
export async function valueToSave(
  config: ConfigStore,
  paths: { backups: string; cwd: string },
  key: string,
  value: SentValue,
): Promise<{ key: string; raw: string | null }> {
  const found = findVariable(key);
  if (!found) throw new UnknownVariableError(key);
  const { key: canonical, definition } = found;
  const sent = toRaw(canonical, definition, value);
  if (sent === null) return { key: canonical, raw: null };

  const raw = isSecretKey(canonical) ? sent : unmaskSent(definition.type, sent, config.rawValue(canonical) ?? '');
  if (raw === undefined) {
    throw new InvalidValueError(
      canonical,
      `${canonical} still holds *** where a credential is hidden: type the credential again, or send the value unchanged to keep it`,
    );
  }
  if (definition.type === 'file' && raw.trim() !== '' && !(await configFileInside(raw, paths))) {
    throw new InvalidValueError(canonical, `${canonical} must name a file inside ${shownFolder(paths)}: upload the file there first`);
  }
  const parsed = definition.schema.safeParse(raw);
  const other = parsed.success && typeof parsed.data === 'number' ? collidingListener(config, canonical, parsed.data) : undefined;
  if (other) {
    throw new InvalidValueError(canonical, `${canonical} cannot be ${raw.trim()}: ${other} already uses that port (0 picks any free port)`);
  }
  return { key: canonical, raw };
}
