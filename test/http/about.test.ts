import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { createTestServices, type TestServices } from '../helpers/services.ts';

describe('GET /api/about', () => {
  let harness: TestServices;
  let app: App;

  beforeEach(async () => {
    harness = await createTestServices();
    app = await buildApp(harness.services);
  });
  afterEach(async () => {
    await app.close();
    await harness.close();
  });

  it('reports version, uptime, sessions, ports and system information', async () => {
    harness.services.runtime.ports = { http: 8123, https: null, compat: 11999 };
    const response = await app.inject({ method: 'GET', url: '/api/about' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      name: 'Anima',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      active_sessions: 0,
      ports: { http: 8123, https: null, compat: 11999 },
      database: { dialect: 'sqlite' },
      system: { node: process.version, pid: process.pid },
    });
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
  });
});
