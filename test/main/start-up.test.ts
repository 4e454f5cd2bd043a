import { symlink, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isBanner, spawnAnima, type AnimaProcess } from '../helpers/anima-process.ts';
import { freePort } from '../helpers/free-port.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The shipped Cortex engines and plugins, discovered from the process's working folder as in a checkout. */
async function linkComponents(cwd: string): Promise<void> {
  for (const folder of ['cortex', 'plugins']) await symlink(join(ROOT, folder), join(cwd, folder));
}

async function stopped(anima: AnimaProcess | undefined): Promise<void> {
  if (!anima || anima.child.exitCode !== null) return;
  anima.child.kill('SIGKILL');
  await anima.exited;
}

const outputLines = (anima: AnimaProcess) =>
  anima
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '');

// Each start loads the whole server through tsx: seconds on an idle machine, far more beside other suites.
describe('the start, as a new user meets it', { timeout: 60_000 }, () => {
  let cwd: string;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'anima-start-'));
    await linkComponents(cwd);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  describe('with engines that do not exist and the default log format', () => {
    let anima: AnimaProcess;
    let code: number | null;

    beforeAll(async () => {
      anima = spawnAnima(cwd, { LOG_FORMAT: undefined, CORTEX_ENGINE: 'gpt4', ACTIVE_VOX_ENGINE: 'espeak' });
      code = await anima.exited;
    }, 60_000);
    afterAll(() => stopped(anima));

    it('stops, naming each variable and the engines that exist', () => {
      expect(code).toBe(1);
      const fatal = outputLines(anima).filter((line) => line.includes('FATAL'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain('CORTEX_ENGINE is "gpt4", which names no Cortex engine (the engines that exist: manual, openai');
      expect(fatal[0]).toContain('ACTIVE_VOX_ENGINE is "espeak", which names no Vox engine (the engines that exist: http, local');
    });

    it('writes readable log lines, not JSON, although stdout is no terminal', () => {
      const lines = outputLines(anima);
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
      expect(lines.some((line) => /^\[[\d:.]+\] INFO \(manual\/\d+\): component loaded$/.test(line))).toBe(true);
    });
  });

  describe('with LOG_FORMAT=json', () => {
    let anima: AnimaProcess | undefined;
    afterEach(() => stopped(anima));

    it('keeps the engine chosen on the components page through a restart, as a saved CORTEX_ENGINE', async () => {
      anima = spawnAnima(cwd, { LOG_FORMAT: 'json' });
      const web = String((await anima.waitFor(isBanner)).web);
      const switched = await fetch(new URL('/api/components/cortex', web), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'manual' }),
      });
      expect(switched.status).toBe(200);
      anima.child.kill('SIGTERM');
      expect(await anima.exited).toBe(0);

      anima = spawnAnima(cwd, { LOG_FORMAT: 'json' });
      const again = String((await anima.waitFor(isBanner)).web);
      const components = (await (await fetch(new URL('/api/components', again))).json()) as { llm: { active: string | null; notice: string | null } };
      expect(components.llm).toMatchObject({ active: 'manual', notice: null });
      expect(await (await fetch(new URL('/api/config/CORTEX_ENGINE', again))).json()).toMatchObject({ value: 'manual', source: 'override' });
    });

    it('writes one JSON object a line, and an unconfigured plugin is information, not a warning', async () => {
      anima = spawnAnima(cwd, { LOG_FORMAT: 'json' });
      await anima.waitFor(isBanner);
      expect(outputLines(anima).filter((line) => !line.startsWith('{'))).toEqual([]);
      const weather = anima.lines.filter((line) => line.name === 'weather');
      expect(weather.map((line) => [line.level, line.msg])).toEqual([[30, 'Missing required configuration: WEATHER_LATITUDE, WEATHER_LONGITUDE']]);
    });
  });

  describe('with a DATABASE_URL that cannot be used', () => {
    const cases: Array<[string, () => Promise<string>, string]> = [
      ['a closed port', async () => `mysql://root:s3cret@127.0.0.1:${await freePort()}/anima`, 'nothing accepts connections at 127.0.0.1:'],
      ['an unsupported scheme', async () => 'postgres://root:s3cret@localhost/anima', 'must start with sqlite: or mysql://'],
      [
        'a SQLite path through a file',
        async () => {
          await writeFile(join(cwd, 'not-a-folder'), '');
          return 'sqlite:not-a-folder/anima.sqlite';
        },
        'a file stands where the folder',
      ],
    ];

    let anima: AnimaProcess | undefined;
    beforeEach(() => {
      anima = undefined;
    });
    afterEach(() => stopped(anima));

    it.each(cases)('stops with one line naming DATABASE_URL and no stack trace: %s', async (_name, url, problem) => {
      anima = spawnAnima(cwd, { LOG_FORMAT: undefined, DATABASE_URL: await url() });
      expect(await anima.exited).toBe(1);
      const output = `${anima.stdout()}${anima.stderr()}`;
      const named = output.split('\n').filter((line) => line.includes('DATABASE_URL'));
      expect(named).toHaveLength(1);
      expect(named[0]).toMatch(/FATAL/);
      expect(named[0]).toContain(problem);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain('s3cret');
    });
  });
});
