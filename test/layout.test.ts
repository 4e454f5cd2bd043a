import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TEST = join(ROOT, 'test');

/** Suites organised by how they reach the server (HTTP, sockets, a browser, a real process) or by the real fault they cause, not by folder. */
const TRANSPORTS = ['http', 'ws', 'e2e', 'main', 'faults'];
/** The only homes of modules that are not tests. */
const SUPPORT = ['helpers', 'fixtures'];
/** Folders of the repository besides src/ whose code has tests of its own: the components and the committed skins. */
const OTHER_SOURCES = ['cortex', 'interface', 'interface_dev', 'plugins', 'skins'];
/** This file checks test/ itself, so it mirrors no source. */
const SELF = 'layout.test.ts';

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** Every TypeScript file under `folder`, as a path relative to test/ with `/` separators. */
function typeScriptFiles(folder = TEST): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (isFolder(path)) return typeScriptFiles(path);
    return name.endsWith('.ts') ? [relative(TEST, path).split(sep).join('/')] : [];
  });
}

const topFolder = (path: string) => path.split('/')[0] ?? '';
const isTest = (path: string) => path.endsWith('.test.ts');

/** A test at the top of test/ mirrors a module at the top of src/; one in a folder mirrors that folder of src/ or of a component or skin. */
function mirrorsSource(path: string): boolean {
  const folder = posix.dirname(path);
  if (folder === '.') return path === SELF || existsSync(join(ROOT, 'src', path.replace(/\.test\.ts$/, '.ts')));
  return isFolder(join(ROOT, 'src', folder)) || (OTHER_SOURCES.includes(topFolder(folder)) && isFolder(join(ROOT, folder)));
}

describe('the layout of test/', () => {
  const files = typeScriptFiles();

  it('finds the tests it checks', () => {
    expect(files).toContain(SELF);
    expect(files.filter(isTest).length).toBeGreaterThan(50);
  });

  it('puts each test beside the others of the code it tests: a folder of src/, of a component, or of the skins', () => {
    const misplaced = files.filter((path) => isTest(path) && ![...TRANSPORTS, ...SUPPORT].includes(topFolder(path)) && !mirrorsSource(path));
    expect(misplaced).toEqual([]);
  });

  it('keeps every module that is not a test in test/helpers/ or test/fixtures/, and no test there', () => {
    const strays = files.filter((path) => !isTest(path) && !SUPPORT.includes(topFolder(path)));
    expect(strays).toEqual([]);
    expect(files.filter((path) => isTest(path) && topFolder(path) === 'helpers')).toEqual([]);
  });
});
