import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { ConfigStore } from './store.ts';

/** Reads `.env` from the working directory (when present) and the process environment. */
export function loadConfig(options: { cwd?: string; environment?: Record<string, string | undefined> } = {}): ConfigStore {
  const envPath = resolve(options.cwd ?? process.cwd(), '.env');
  const envFile = existsSync(envPath) ? parse(readFileSync(envPath)) : {};
  return ConfigStore.fromSources({ envFile, environment: options.environment ?? process.env });
}
