import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { buildCompatApp } from '../../src/compat/app.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

describe('error responses', () => {
  let harness: TestServices;
  let app: App;

  afterEach(async () => {
    await app?.close();
    await harness?.close();
  });

  it('answers an unknown route with a JSON 404', async () => {
    harness = await createTestServices();
    app = await buildApp(harness.services);
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Route GET /api/nothing-here not found' } });
  });

  it('hides the cause of a server error behind a generic 500', async () => {
    harness = await createTestServices();
    app = await buildApp(harness.services);
    app.get('/api/broken', async () => {
      throw new Error('database password is hunter2');
    });
    const response = await app.inject({ method: 'GET', url: '/api/broken' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'internal_error', message: 'Internal server error' } });
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('at ');
  });

  it("uses Ollama's {error} shape on the compat port", async () => {
    harness = await createTestServices();
    app = await buildCompatApp(harness.services);
    app.post('/api/echo', async (request) => request.body);
    const missing = await app.inject({ method: 'GET', url: '/api/unknown' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: expect.stringContaining('/api/unknown') });
    const malformed = await app.inject({ method: 'POST', url: '/api/echo', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect(malformed.statusCode).toBe(400);
    expect(typeof malformed.json().error).toBe('string');
  });
});

describe('malformed URLs', () => {
  it("answer 400 in the contract shape on the web port and in Ollama's on the compat port", async () => {
    const harness = await createTestServices();
    const web = await buildApp(harness.services);
    const compat = await buildCompatApp(harness.services);
    try {
      const bad = await web.inject({ method: 'GET', url: '/skins/%E0%A4%A' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
      const badCompat = await compat.inject({ method: 'GET', url: '/api/%E0%A4%A' });
      expect(badCompat.statusCode).toBe(400);
      expect(badCompat.json()).toEqual({ error: expect.any(String) });
    } finally {
      await web.close();
      await compat.close();
      await harness.close();
    }
  });
});
