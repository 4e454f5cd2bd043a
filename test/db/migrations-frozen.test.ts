import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A migration is a historical record: what it did must not change when live code changes. So the files of
 * src/db/migrations/ may import kysely, node: built-ins and one another, and nothing else (not schema.ts,
 * not src/history/, not src/config/); a value they need from live code is copied in, frozen.
 */
const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/db/migrations');

/** Static imports and re-exports (type-only and multi-line too), side-effect imports, import() and require(). */
const IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function importedModules(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

function isAllowed(specifier: string, importer: string): boolean {
  if (specifier === 'kysely' || specifier.startsWith('node:')) return true;
  if (!specifier.startsWith('.')) return false;
  const target = resolve(dirname(importer), specifier);
  return dirname(target) === MIGRATIONS && existsSync(target);
}

describe('the import reader', () => {
  it('reads every form of import a module can write', () => {
    const source = [
      "import { sql, type Kysely } from 'kysely';",
      'import type {',
      '  DialectName,',
      "} from '../schema.ts';",
      "import './side-effect.ts';",
      "export { toInterfacePath } from '../../history/interface-path.ts';",
      "export * from 'zod';",
      "const later = await import('../../config/schema.ts');",
      "const old = require('fs');",
      "const text = 'import nothing from here';",
    ].join('\n');
    expect(importedModules(source)).toEqual([
      'kysely',
      '../schema.ts',
      './side-effect.ts',
      '../../history/interface-path.ts',
      'zod',
      '../../config/schema.ts',
      'fs',
    ]);
  });

  it('allows kysely, node: built-ins and existing sibling files only', () => {
    const importer = join(MIGRATIONS, '0001-config-entries.ts');
    const allowed = ['kysely', 'node:crypto', './table-options.ts'];
    const refused = ['../schema.ts', '../../history/timestamps.ts', './missing.ts', './nested/file.ts', 'zod', 'fs', 'kysely/helpers/mysql'];
    expect(allowed.filter((specifier) => !isAllowed(specifier, importer))).toEqual([]);
    expect(refused.filter((specifier) => isAllowed(specifier, importer))).toEqual([]);
  });
});

describe('src/db/migrations', () => {
  const files = readdirSync(MIGRATIONS).filter((name) => name.endsWith('.ts'));

  it('holds the migrations the rule applies to', () => {
    expect(files).toEqual(expect.arrayContaining(['index.ts', '0001-config-entries.ts', '0003-chat-history.ts']));
  });

  it('imports nothing but kysely, node: built-ins and sibling migration files', () => {
    const violations = files.flatMap((name) => {
      const file = join(MIGRATIONS, name);
      return importedModules(readFileSync(file, 'utf8'))
        .filter((specifier) => !isAllowed(specifier, file))
        .map((specifier) => `${name} imports ${specifier}`);
    });
    expect(violations).toEqual([]);
  });
});
