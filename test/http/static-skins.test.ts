import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SKINS } from '../helpers/body.ts';
import { useTestApp } from '../helpers/services.ts';

describe('skin files under /skins/ and /animations/', () => {
  const subject = useTestApp({ once: true, environment: { SKINS_DIR: FIXTURE_SKINS, APP_TRUST_LOOPBACK: 'false' } });

  it('serves a skin file without trust, with its type and length', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/skins/default/persona.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toBe(await readFile(join(FIXTURE_SKINS, 'default', 'persona.json'), 'utf8'));
  });

  it('serves names with spaces and answers HEAD and If-None-Match', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/skins/default/animations/idle/Happy%20Idle.fbx' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    const head = await subject.app.inject({ method: 'HEAD', url: '/skins/default/anima.vrm' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('model/gltf-binary');
    expect(head.body).toBe('');
    const again = await subject.app.inject({ method: 'GET', url: '/skins/default/anima.vrm', headers: { 'if-none-match': String(head.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('serves /animations/<state>/<file> through the search paths', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/animations/think/Thinking.fbx' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('think/Thinking');
    expect((await subject.app.inject({ method: 'GET', url: '/animations/think/Missing.fbx' })).statusCode).toBe(404);
    expect((await subject.app.inject({ method: 'GET', url: '/animations/think/thinking.fbx' })).statusCode).toBe(404);
  });

  it('refuses writes', async () => {
    expect((await subject.app.inject({ method: 'POST', url: '/skins/default/persona.json', payload: {} })).statusCode).toBe(404);
  });

  it('answers a malformed percent-encoding with 400', async () => {
    expect((await subject.app.inject({ method: 'GET', url: '/skins/%E0%A4%A' })).statusCode).toBe(400);
  });

  it.each([
    '/skins/../package.json',
    '/skins/default/../../package.json',
    '/skins/%2E%2E/package.json',
    '/skins/default/%2E%2E%2F%2E%2E%2Fpackage.json',
    '/skins/default%2F..%2F..%2Fpackage.json',
    '/skins/%2Fetc%2Fpasswd',
    '/skins//etc/passwd',
    '/skins/default/persona.json%00.png',
    '/skins/default/%5C..%5Cpersona.json',
    '/skins/default',
    '/skins/default/animations',
    '/skins/default/.hidden',
    '/skins/',
    '/animations/..%2F..%2F..%2Fpackage.json/x',
    '/animations/think/..%2FThinking.fbx',
  ])('never serves %s', async (url) => {
    const response = await subject.app.inject({ method: 'GET', url });
    expect([400, 404]).toContain(response.statusCode);
    expect(response.json().error.code).toMatch(/^(invalid_request|not_found)$/);
  });
});
