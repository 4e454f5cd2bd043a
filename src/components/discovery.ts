import type { Dirent } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ComponentKind } from './contract.ts';

/** Where components are found; production defaults are relative to the working directory. */
export interface ComponentRoots {
  interface: string;
  plugins: string;
  cortex: string;
  interfaceDev: string;
  pluginsDev: string;
}

export function defaultRoots(cwd: string): ComponentRoots {
  return {
    interface: resolve(cwd, 'interface'),
    plugins: resolve(cwd, 'plugins'),
    cortex: resolve(cwd, 'cortex'),
    interfaceDev: resolve(cwd, 'interface_dev'),
    pluginsDev: resolve(cwd, 'plugins_dev'),
  };
}

export interface DiscoveredComponent {
  name: string;
  kind: ComponentKind;
  dev: boolean;
  /** `<folder>/index.ts`. */
  file: string;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function folders(root: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort(byName);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function scan(root: string, kind: ComponentKind, dev: boolean): Promise<DiscoveredComponent[]> {
  const found: DiscoveredComponent[] = [];
  for (const name of await folders(root)) {
    const file = join(root, name, 'index.ts');
    if (await exists(file)) found.push({ name, kind, dev, file });
  }
  return found;
}

/**
 * Production components in sorted order (interfaces, plugins, cortex engines), then, with the dev
 * flag, `interface_dev/`, `plugins_dev/` and every `cortex/<engine>/dev/<name>/`.
 */
export async function discoverComponents(roots: ComponentRoots, includeDev: boolean): Promise<DiscoveredComponent[]> {
  const found = [
    ...(await scan(roots.interface, 'interface', false)),
    ...(await scan(roots.plugins, 'plugin', false)),
    ...(await scan(roots.cortex, 'cortex', false)),
  ];
  if (!includeDev) return found;
  found.push(...(await scan(roots.interfaceDev, 'interface', true)), ...(await scan(roots.pluginsDev, 'plugin', true)));
  for (const engine of await folders(roots.cortex)) found.push(...(await scan(join(roots.cortex, engine, 'dev'), 'cortex', true)));
  return found;
}
