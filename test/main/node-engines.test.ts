import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface PackageEntry {
  engines?: { node?: unknown };
}

const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')) as T;

describe('the Node.js versions npm start runs on', () => {
  const manifest = read<{ engines: { node: string } }>('package.json');
  const lock = read<{ packages: Record<string, PackageEntry> }>('package-lock.json');
  const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';

  it('starts at a Node.js 20 release, as the README says', () => {
    expect(semver.major(oldest)).toBe(20);
  });

  it('holds every installed package to them, so npm ci never warns EBADENGINE on a supported Node', () => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = entry.engines?.node;
      if (typeof range !== 'string' || path === '') return [];
      return [oldest, process.version].filter((version) => !semver.satisfies(version, range)).map((version) => `${path} (${range}) refuses ${version}`);
    });
    expect(refusing).toEqual([]);
  });
});
