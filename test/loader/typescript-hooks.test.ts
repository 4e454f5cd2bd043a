import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LOADER = new URL('../../src/loader/register.mjs', import.meta.url).href;
const run = promisify(execFile);

describe('the TypeScript loader of npm start', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-loader-'));
    await writeFile(join(folder, 'shape.ts'), 'export interface Shape { sides: number }\nexport const square = { sides: 4 } satisfies Shape;\n');
    await writeFile(
      join(folder, 'main.ts'),
      [
        "import { square, type Shape } from './shape.ts';",
        'class Counter { constructor(private readonly start: number) {} next = (by: number): number => this.start + by; }',
        'const fail = (shape: Shape): never => {',
        '  throw new Error(String(shape.sides));',
        '};',
        'const made = () => () => 1;',
        'try { fail(square); } catch (error) { console.log(JSON.stringify({',
        '  value: new Counter(2).next(square.sides),',
        "  at: (error as Error).stack?.split('\\n')[1]?.trim(),",
        '  names: [fail.name, made.name, made().name],',
        '})); }',
      ].join('\n'),
    );
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('runs TypeScript modules, keeps function names without help, and points stack traces at the TypeScript lines', async () => {
    const { stdout } = await run(process.execPath, ['--import', LOADER, join(folder, 'main.ts')]);
    const printed = JSON.parse(stdout) as { value: number; at: string; names: string[] };
    expect(printed.value).toBe(6);
    expect(printed.at).toBe(`at fail (${join(folder, 'main.ts')}:4:9)`);
    expect(printed.names).toEqual(['fail', 'made', '']);
  });
});
