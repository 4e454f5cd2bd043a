import { describe, expect, it } from 'vitest';
import { SessionTokens, isLoopbackAddress } from '../../src/trust.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useTestApp } from '../helpers/services.ts';

const REMOTE = '203.0.113.7';

describe('trust', () => {
  const clock = new ManualClock();
  const subject = useTestApp({ startInTest: true, compat: true, clock });

  async function start(environment: Record<string, string> = {}) {
    const web = await subject.start({ environment });
    return { web, compat: subject.compat };
  }

  it('recognises loopback addresses in every spelling', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '0.0.0.0', 'localhost', '', undefined].some(isLoopbackAddress)).toBe(false);
  });

  it('trusts loopback clients without a key by default', async () => {
    const { web } = await start();
    expect((await web.inject({ method: 'GET', url: '/api/about' })).statusCode).toBe(200);
  });

  it('answers 401 unauthorized to a remote client without credentials', async () => {
    const { web } = await start({ APP_API_KEY: 'k3y' });
    const response = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('trusts the API key as Bearer or X-API-Key, and refuses a wrong one', async () => {
    const { web } = await start({ APP_API_KEY: 'k3y' });
    const bearer = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { authorization: 'Bearer k3y' } });
    const header = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { 'x-api-key': 'k3y' } });
    const wrong = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { 'x-api-key': 'k3y-but-longer' } });
    expect([bearer.statusCode, header.statusCode, wrong.statusCode]).toEqual([200, 200, 401]);
  });

  it('trusts nobody remote when APP_API_KEY is unset, whatever they send', async () => {
    const { web } = await start();
    const response = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { authorization: 'Bearer ' } });
    expect(response.statusCode).toBe(401);
  });

  it('makes loopback clients show credentials when APP_TRUST_LOOPBACK is false', async () => {
    const { web } = await start({ APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k3y' });
    expect((await web.inject({ method: 'GET', url: '/api/about' })).statusCode).toBe(401);
    expect((await web.inject({ method: 'GET', url: '/api/about', headers: { 'x-api-key': 'k3y' } })).statusCode).toBe(200);
  });

  it('issues session tokens that trust their holder', async () => {
    const { web } = await start({ APP_API_KEY: 'k3y' });
    const grant = await web.inject({ method: 'POST', url: '/api/session', remoteAddress: REMOTE, headers: { 'x-api-key': 'k3y' } });
    expect(grant.statusCode).toBe(200);
    const { token, session_id, expires_at } = grant.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(expires_at)).toBe(clock.now() + 24 * 3600 * 1000);
    const withToken = await web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { authorization: `Bearer ${token}` } });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.json().session_tokens).toBe(1);
  });

  it('refuses to issue a session token to an untrusted client', async () => {
    const { web } = await start();
    expect((await web.inject({ method: 'POST', url: '/api/session', remoteAddress: REMOTE })).statusCode).toBe(401);
  });

  it('expires session tokens after 24 hours', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const tokens = new SessionTokens(() => now);
    const grant = tokens.issue();
    expect(tokens.verify(grant.token)).toBe(grant.session_id);
    now += 24 * 3600 * 1000 - 1;
    expect(tokens.verify(grant.token)).toBe(grant.session_id);
    now += 1;
    expect(tokens.verify(grant.token)).toBeUndefined();
    expect(tokens.activeCount()).toBe(0);
  });

  it('leaves the compat probe open and guards the rest of the compat port', async () => {
    const { compat } = await start({ APP_API_KEY: 'k3y' });
    const probe = await compat.inject({ method: 'GET', url: '/', remoteAddress: REMOTE });
    expect(probe.statusCode).toBe(200);
    expect(probe.body).toBe('Ollama is running');
    expect((await compat.inject({ method: 'HEAD', url: '/', remoteAddress: REMOTE })).statusCode).toBe(200);
    const guarded = await compat.inject({ method: 'GET', url: '/api/version', remoteAddress: REMOTE });
    expect(guarded.statusCode).toBe(401);
    expect(guarded.json()).toEqual({ error: expect.any(String) });
    const keyed = await compat.inject({ method: 'GET', url: '/api/version', remoteAddress: REMOTE, headers: { authorization: 'Bearer k3y' } });
    expect(keyed.statusCode).toBe(200);
  });

  it('answers CORS preflights on the compat port for an allowed browser origin', async () => {
    const { compat } = await start({ COMPAT_ALLOWED_ORIGINS: 'http://localhost:3000' });
    const preflight = await compat.inject({
      method: 'OPTIONS',
      url: '/api/chat',
      remoteAddress: REMOTE,
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('rate-limits remote clients with a 429 and Retry-After, never loopback ones', async () => {
    const { web } = await start({ APP_API_KEY: 'k3y', APP_RATE_LIMIT_PER_MINUTE: '3' });
    const remote = () => web.inject({ method: 'GET', url: '/api/about', remoteAddress: REMOTE, headers: { 'x-api-key': 'k3y' } });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await remote()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await remote();
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 5; i += 1) expect((await web.inject({ method: 'GET', url: '/api/about' })).statusCode).toBe(200);
  });

  it('rate-limits loopback clients too once loopback is not trusted (a reverse proxy on this machine)', async () => {
    const { web } = await start({ APP_TRUST_LOOPBACK: 'false', APP_API_KEY: 'k3y', APP_RATE_LIMIT_PER_MINUTE: '2' });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await web.inject({ method: 'GET', url: '/api/about', headers: { 'x-api-key': 'k3y' } })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('rate-limits the compat port, answering in its own error shape', async () => {
    const { compat } = await start({ APP_API_KEY: 'k3y', APP_RATE_LIMIT_PER_MINUTE: '2' });
    const remote = () => compat.inject({ method: 'GET', url: '/api/tags', remoteAddress: REMOTE, headers: { authorization: 'Bearer k3y' } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await remote()).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await remote();
    expect(limited.json()).toEqual({ error: expect.stringMatching(/^Too many requests/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
