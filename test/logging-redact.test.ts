import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../src/config/store.ts';
import { createLogger } from '../src/logging.ts';
import { followSecrets, REDACTED } from '../src/logging-redact.ts';
import { createTestServices, type TestServices } from './helpers/services.ts';

/** A stream that keeps each JSON line written to it. */
function lineSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

/** A real logger into a stream, its tap recorded too, cleaned of the secrets of `environment`. */
function loggerOver(environment: Record<string, string>) {
  const config = ConfigStore.fromSources({ environment });
  const output = lineSink();
  const { logger, tap } = createLogger({ level: 'info', pretty: false, destination: output.stream });
  const tapped: string[] = [];
  tap.subscribe((line) => tapped.push(line.trimEnd()));
  followSecrets(config, tap.redactor);
  return { config, logger, output: output.lines, tapped };
}

/** The model server's answer to a wrong key, as OpenAI words it: the key comes back in the error. */
const echoing = (key: string) => new Error(`401 Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com`);

describe('secrets in the log', () => {
  it('are replaced in stdout and in the WS /logs tap, also in the stack, also after the secret changes', async () => {
    const { config, logger, output, tapped } = loggerOver({ OPENAI_API_KEY: 'sk-secret-123' });
    logger.child({ component: 'chain' }).error({ err: echoing('sk-secret-123') }, 'the Cortex engine failed');
    await config.set('OPENAI_API_KEY', 'sk-rotated-456');
    logger.error({ err: echoing('sk-rotated-456') }, 'the Cortex engine failed');
    expect(output).toHaveLength(2);
    expect(tapped).toEqual(output);
    for (const line of output) {
      expect(line).not.toMatch(/sk-secret-123|sk-rotated-456/u);
      const { err } = JSON.parse(line) as { err: { message: string; stack: string } };
      expect(err.message).toBe(`401 Incorrect API key provided: ${REDACTED}. You can find your API key at https://platform.openai.com`);
      expect(err.stack).toContain(REDACTED);
    }
  });

  it('include URL passwords, as written and decoded, and the credentials of the extra TTS headers', () => {
    const { logger, output } = loggerOver({
      DATABASE_URL: 'mysql://anima:p%40ss-word@db.local/anima',
      OPENAI_BASE_URL: 'https://proxy-user:proxy-pass@llm.local/v1',
      HTTP_TTS_EXTRA_HEADERS: JSON.stringify({ Authorization: 'Bearer tts-token-789', 'X-Voice-Cookie': 'session=cookie-value', Accept: 'audio/wav' }),
    });
    logger.warn('connecting as anima:p%40ss-word (p@ss-word), proxy-pass, Bearer tts-token-789, session=cookie-value, accepts audio/wav');
    const { msg } = JSON.parse(output[0] ?? '{}') as { msg: string };
    expect(msg).toBe(`connecting as anima:${REDACTED} (${REDACTED}), ${REDACTED}, ${REDACTED}, ${REDACTED}, accepts audio/wav`);
  });

  it('are found also where JSON escapes their quotes and backslashes', () => {
    const { logger, output } = loggerOver({ OPENAI_API_KEY: 'quote"and\\slash' });
    logger.warn('the key quote"and\\slash was refused');
    expect(JSON.parse(output[0] ?? '{}')).toMatchObject({ msg: `the key ${REDACTED} was refused` });
  });

  it('leave short values alone and keep every line valid JSON', () => {
    const { logger, output } = loggerOver({ APP_API_KEY: 'abc', OPENAI_API_KEY: '31337' });
    logger.info({ port: 31337 }, 'key abc, pin 31337');
    expect(JSON.parse(output[0] ?? '{}')).toMatchObject({ port: 31337, msg: `key abc, pin ${REDACTED}` });
  });
});

describe('the services', () => {
  let harness: TestServices | undefined;
  let folder: string;
  afterEach(async () => {
    await harness?.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** Services over one SQLite file, so what the first run saves is loaded by the next. */
  const start = async (environment: Record<string, string>) => {
    const output = lineSink();
    harness = await createTestServices({ environment, databaseUrl: `sqlite:${join(folder, 'anima.sqlite')}`, logLevel: 'info', logDestination: output.stream });
    return { services: harness.services, output: output.lines };
  };

  it('keep secrets saved through the API out of the log, also at the next start', async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-redaction-'));
    const first = await start({ OPENAI_API_KEY: 'sk-from-environment' });
    first.services.logger.error({ err: echoing('sk-from-environment') }, 'the Cortex engine failed');
    await first.services.config.set('OPENAI_API_KEY', 'sk-saved-through-api');
    first.services.logger.error({ err: echoing('sk-saved-through-api') }, 'the Cortex engine failed');
    await harness?.close();
    harness = undefined;

    const second = await start({});
    second.services.logger.error({ err: echoing('sk-saved-through-api') }, 'the Cortex engine failed');
    const logged = [...first.output, ...second.output].filter((line) => line.includes('Incorrect API key'));
    expect(logged).toHaveLength(3);
    for (const line of logged) expect(line).not.toMatch(/sk-from-environment|sk-saved-through-api/u);
  });
});
