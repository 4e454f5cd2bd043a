import { isSecretKey } from './config/define.ts';
import { isSensitiveName } from './config/credential-mask.ts';
import { urlCredentials } from './config/mask.ts';
import type { ConfigStore } from './config/store.ts';

export const REDACTED = '[redacted]';

/** Shorter values are not worth it: redacting every "abc" would garble the log and protect nothing. */
const MIN_SECRET_LENGTH = 4;

/** A JSON string literal; its alternatives cannot overlap, so the scan is linear. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/gu;

/**
 * Removes known secrets from log lines. A model server that echoes the API key in its error text, a
 * database driver that quotes its URL: whatever the message, the key never reaches stdout or WS /logs.
 */
export class Redactor {
  /** Longest first, so a secret that contains another is replaced whole. */
  private secrets: string[] = [];

  setSecrets(values: Iterable<string>): void {
    const forms = new Set<string>();
    for (const value of values) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      forms.add(value);
      // Inside a JSON line a quote or backslash of the secret appears escaped.
      forms.add(JSON.stringify(value).slice(1, -1));
    }
    this.secrets = [...forms].sort((a, b) => b.length - a.length);
  }

  /**
   * One line of pino's JSON with every secret replaced. Only string literals are edited, so the line
   * stays valid JSON even when a secret is a number that also occurs in a timestamp.
   */
  clean(line: string): string {
    if (!this.secrets.some((secret) => line.includes(secret))) return line;
    return line.replace(JSON_STRING, (literal) => this.secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), literal));
  }
}

/** Credentials inside a JSON value (header maps, engine settings): members named like one, and URLs. */
function jsonCredentials(value: string): string[] {
  if (!value.startsWith('{') && !value.startsWith('[')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  const found: string[] = [];
  // A loop, not recursion: a value nested deep enough to overflow the stack still cannot throw here.
  const pending: unknown[] = [parsed];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    for (const [name, member] of Object.entries(node)) {
      if (typeof member !== 'string') pending.push(member);
      else if (isSensitiveName(name)) found.push(member, ...schemeCredential(member));
      else found.push(...urlCredentials(member), ...queryCredentials(member));
    }
  }
  return found;
}

/** `Bearer abc`: a log may quote the credential without its scheme. */
function schemeCredential(header: string): string[] {
  const space = header.indexOf(' ');
  return space > 0 ? [header.slice(space + 1).trim()] : [];
}

/** A query parameter named like a credential (`?api_key=…`, `&token=…`): some providers take the key so. */
const QUERY_PARAMETER = /[?&]([^=&#?\s]+)=([^&#\s]+)/g;

function queryCredentials(value: string): string[] {
  const found: string[] = [];
  for (const [, name = '', credential = ''] of value.matchAll(QUERY_PARAMETER)) {
    if (!isSensitiveName(name)) continue;
    found.push(credential);
    try {
      found.push(decodeURIComponent(credential));
    } catch {
      // Not valid percent-encoding: it can only appear as written.
    }
  }
  return found;
}

/** Every secret the configuration holds: secret variables, URL credentials and query keys, credentials in JSON values. */
export function configuredSecrets(config: ConfigStore): string[] {
  const secrets: string[] = [];
  for (const key of config.keys()) {
    const value = config.rawValue(key)?.trim() ?? '';
    if (value === '') continue;
    if (isSecretKey(key)) secrets.push(value);
    secrets.push(...urlCredentials(value), ...queryCredentials(value), ...jsonCredentials(value));
  }
  return secrets;
}

/**
 * Keeps the redactor's secrets those of this configuration, including entries saved through the API
 * later. Returns the function that stops following it.
 */
export function followSecrets(config: ConfigStore, redactor: Redactor): () => void {
  const refresh = () => redactor.setSecrets(configuredSecrets(config));
  refresh();
  config.on('change', refresh);
  return () => config.off('change', refresh);
}
