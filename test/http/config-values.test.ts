import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SAVED_VALUE_BYTES } from '../../src/config/store.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { createTestServices, useTestApp } from '../helpers/services.ts';

interface Entry {
  key: string;
  value: string | { set: boolean };
  source: string;
  ignored?: { value: string; reason: string };
}

function post(test: ReturnType<typeof useTestApp>, key: string, value: unknown) {
  return test.app.inject({ method: 'POST', url: '/api/config', payload: { key, value } });
}

async function entries(test: ReturnType<typeof useTestApp>): Promise<Map<string, Entry>> {
  const response = await test.app.inject({ method: 'GET', url: '/api/config' });
  return new Map((response.json().entries as Entry[]).map((entry) => [entry.key, entry]));
}

describe('POST /api/config: listener ports', () => {
  const test = useTestApp({ environment: { COMPAT_API_SERVER_PORT: '9100' } });

  it('refuses a port another listener already uses, naming that listener', async () => {
    const compat = await post(test, 'APP_WEBUI_HTTP_PORT', 9100);
    expect(compat.statusCode).toBe(400);
    expect(compat.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('COMPAT_API_SERVER_PORT') });
    const https = await post(test, 'APP_WEBUI_HTTP_PORT', '8000');
    expect(https.statusCode).toBe(400);
    expect(https.json().error.message).toContain('APP_WEBUI_HTTPS_PORT');
    const web = await post(test, 'COMPAT_API_SERVER_PORT', 8001);
    expect(web.statusCode).toBe(400);
    expect(web.json().error.message).toContain('APP_WEBUI_HTTP_PORT');
    expect(test.harness.services.config.get('APP_WEBUI_HTTP_PORT')).toBe(8001);
  });

  it('accepts a free port, and port 0 even when another listener has 0 too', async () => {
    expect((await post(test, 'APP_WEBUI_HTTP_PORT', 9101)).statusCode).toBe(200);
    expect((await post(test, 'COMPAT_API_SERVER_PORT', 0)).statusCode).toBe(200);
    expect((await post(test, 'APP_WEBUI_HTTP_PORT', 0)).statusCode).toBe(200);
    expect(test.harness.services.config.get('APP_WEBUI_HTTP_PORT')).toBe(0);
  });
});

describe('POST /api/config: durations', () => {
  const test = useTestApp();

  it('refuses seconds beyond what a timer can wait, and accepts the limit', async () => {
    for (const key of ['CORTEX_TIMEOUT_S', 'COMPANION_UPLOAD_CLEANUP_INTERVAL_S', 'VOX_TIMEOUT_SECONDS']) {
      const response = await post(test, key, 3_000_000);
      expect(response.statusCode, key).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'invalid_request',
        details: [expect.objectContaining({ message: expect.stringContaining('2147483 seconds') })],
      });
    }
    expect(test.harness.services.config.get('CORTEX_TIMEOUT_S')).toBe(120);
    expect((await post(test, 'CORTEX_TIMEOUT_S', 2_147_483)).statusCode).toBe(200);
  });
});

describe('POST /api/config: deeply nested values', () => {
  const test = useTestApp();

  it('answers 400 for a value nested 100,000 levels deep', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/config',
      headers: { 'content-type': 'application/json' },
      payload: `{"key":"HTTP_TTS_EXTRA_HEADERS","value":${deep}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_request');
  });

  it('answers 400 for JSON text nested too deep inside an accepted shape', async () => {
    const response = await post(test, 'AURIS_ENGINE_SETTINGS', `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([expect.objectContaining({ message: expect.stringContaining('nested deeper') })]);
    expect(test.harness.services.config.sourceOf('AURIS_ENGINE_SETTINGS')).toBe('default');
  });
});

describe('POST /api/config: lists sent as arrays', () => {
  const test = useTestApp();

  it('saves an array as its comma-separated text', async () => {
    const response = await post(test, 'TRAINER_IDS', ['telegram:1', 'discord:2']);
    expect(response.statusCode).toBe(200);
    expect(response.json().entry.value).toBe('telegram:1,discord:2');
    expect(test.harness.services.config.get('TRAINER_IDS')).toEqual(['telegram:1', 'discord:2']);
  });

  it('refuses items that are not strings or that hold a comma', async () => {
    for (const value of [['telegram:1,discord:2'], ['telegram:1', 2], [['nested']]]) {
      const response = await post(test, 'TRAINER_IDS', value);
      expect(response.statusCode, JSON.stringify(value)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    expect(test.harness.services.config.get('TRAINER_IDS')).toEqual([]);
  });
});

describe('GET /api/config: credentials inside values', () => {
  const headers = { Authorization: 'Bearer tok-123', 'x-api-key': 'k-456', Cookie: 'sid=c-789', 'X-Session-Token': 't-000', 'X-Trace': 'visible' };
  const test = useTestApp({
    environment: {
      OPENAI_BASE_URL: 'https://alice:pa55word@llm.example/v1',
      HTTP_TTS_ENDPOINTS: 'http://bob:hunter2@tts-a.example/tts,http://tok-only@tts-b.example/tts',
      HTTP_TTS_EXTRA_HEADERS: JSON.stringify(headers),
    },
  });

  it('masks URL credentials in any variable and sensitive headers in JSON header maps', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/config' });
    const shown = await entries(test);
    expect(shown.get('OPENAI_BASE_URL')?.value).toBe('https://alice:***@llm.example/v1');
    expect(shown.get('HTTP_TTS_ENDPOINTS')?.value).toBe('http://bob:***@tts-a.example/tts,http://***@tts-b.example/tts');
    expect(JSON.parse(String(shown.get('HTTP_TTS_EXTRA_HEADERS')?.value))).toEqual({
      Authorization: '***',
      'x-api-key': '***',
      Cookie: '***',
      'X-Session-Token': '***',
      'X-Trace': 'visible',
    });
    for (const secret of ['pa55word', 'hunter2', 'tok-only', 'tok-123', 'k-456', 'c-789', 't-000']) expect(response.body).not.toContain(secret);
  });

  it('keeps the real credentials when the shown values are saved back unchanged', async () => {
    const shown = await entries(test);
    for (const key of ['OPENAI_BASE_URL', 'HTTP_TTS_ENDPOINTS', 'HTTP_TTS_EXTRA_HEADERS']) {
      const response = await post(test, key, shown.get(key)?.value);
      expect(response.statusCode, key).toBe(200);
    }
    expect((await post(test, 'HTTP_TTS_EXTRA_HEADERS', JSON.parse(String(shown.get('HTTP_TTS_EXTRA_HEADERS')?.value)))).statusCode).toBe(200);
    const { config } = test.harness.services;
    expect(config.get('OPENAI_BASE_URL')).toBe('https://alice:pa55word@llm.example/v1');
    expect(config.get('HTTP_TTS_ENDPOINTS')).toBe('http://bob:hunter2@tts-a.example/tts,http://tok-only@tts-b.example/tts');
    expect(config.get('HTTP_TTS_EXTRA_HEADERS')).toEqual(headers);
  });

  it('refuses an edited value that still holds *** for a credential, and saves a retyped one', async () => {
    const moved = await post(test, 'OPENAI_BASE_URL', 'https://alice:***@other.example/v1');
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('***') });
    const added = await post(test, 'HTTP_TTS_EXTRA_HEADERS', { ...headers, Authorization: '***', 'X-New': '1' });
    expect(added.statusCode).toBe(400);
    const { config } = test.harness.services;
    expect(config.get('OPENAI_BASE_URL')).toBe('https://alice:pa55word@llm.example/v1');
    expect(config.get('HTTP_TTS_EXTRA_HEADERS')).toEqual(headers);
    expect((await post(test, 'OPENAI_BASE_URL', 'https://alice:n3w@other.example/v1')).statusCode).toBe(200);
    expect(config.get('OPENAI_BASE_URL')).toBe('https://alice:n3w@other.example/v1');
  });
});

describe('GET /api/config: saved entries not in use', () => {
  let folder: string | undefined;
  // Before useTestApp (after-hooks run in reverse), so the folder goes once the app has closed.
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  const subject = useTestApp({ startInTest: true });

  it('shows a saved entry that no longer validates as ignored, with why, until it is reset', async () => {
    folder = await mkdtemp(join(tmpdir(), 'anima-config-'));
    const databaseUrl = `sqlite:${join(folder, 'anima.sqlite')}`;
    const first = await createTestServices({ databaseUrl });
    await first.services.database.db
      .insertInto('config_entries')
      .values({ name: 'CHAT_HISTORY', value: 'lots', updated_at: new Date().toISOString() })
      .execute();
    await first.close();

    const app = await subject.start({ databaseUrl });
    const shown = await app.inject({ method: 'GET', url: '/api/config/CHAT_HISTORY' });
    expect(shown.json()).toMatchObject({ value: '10', source: 'default', ignored: { value: 'lots', reason: expect.stringContaining('expected a number') } });
    const reset = await app.inject({ method: 'POST', url: '/api/config', payload: { key: 'CHAT_HISTORY', value: null } });
    expect(reset.json().entry).not.toHaveProperty('ignored');
    expect(await subject.harness.services.database.db.selectFrom('config_entries').selectAll().execute()).toEqual([]);
  });
});

describeEachDialect('POST /api/config: an oversize value', (dialect) => {
  const test = useTestApp({ dialect });

  it('answers 400 and stores nothing for a 500 KB value, where the database column would have refused it', async () => {
    const big = await post(test, 'PERSONA_LOCATION', 'x'.repeat(500_000));
    expect(big.statusCode).toBe(400);
    expect(big.json().error.message).toContain(`longer than ${MAX_SAVED_VALUE_BYTES} bytes`);
    const wide = await post(test, 'PERSONA_LOCATION', 'é'.repeat(MAX_SAVED_VALUE_BYTES / 2 + 1));
    expect(wide.statusCode).toBe(400);
    expect((await entries(test)).get('PERSONA_LOCATION')?.source).toBe('default');
    expect((await post(test, 'PERSONA_LOCATION', 'é'.repeat(MAX_SAVED_VALUE_BYTES / 2))).statusCode).toBe(200);
  });
});
