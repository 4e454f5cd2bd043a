import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/services.ts';

describe('error responses', () => {
  const subject = useTestApp({ compat: true });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Route GET /api/nothing-here not found' } });
  });

  it('hides the cause of a server error behind a generic 500', async () => {
    const { app } = subject;
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
    const app = subject.compat;
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
  const subject = useTestApp({ compat: true });

  it("answer 400 in the contract shape on the web port and in Ollama's on the compat port", async () => {
    const bad = await subject.app.inject({ method: 'GET', url: '/skins/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    const badCompat = await subject.compat.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(badCompat.statusCode).toBe(400);
    expect(badCompat.json()).toEqual({ error: expect.any(String) });
  });
});
